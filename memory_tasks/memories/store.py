"""The write model: the one module through which a memory row changes (R-PIPE-4..7, R-DATA-6, R-LIFE-1/2).

A change to what a memory says or whether it is shown is one of the row operations here:
- `write_row`  inserts or overwrites the (user, key) row: create, overwrite, append, and
               the inactive tombstone of a retraction;
- `deactivate` deletes (for the user, a tool or consolidation);
- `merge_into` retires a near-duplicate or same-key row into its survivor (dedup, consolidation);
- `rewrite`    sets new column values (consolidation's normalize);
- `expire`     ends the rows whose lifetime is over (the TTL sweep, consolidation).
Each keeps the invariant the index's compare-and-set relies on (`vectors.index.sync_vectors`):
the row is rewritten or deactivated, marked DIRTY, its `revision` bumped (`_revised` is the only
place that bumps it), `updated_at` set, and one history row appended per row changed.

Confirm, don't rewrite (R-WRITE-3). `apply_candidate` decides which operation a validated
candidate means. A candidate that lands on an active memory of its type (the same key, or
another key dedup redirected it to) and says what the memory says is a confirmation, not a
write: `confirm` refreshes the expiry, confidence, importance, statement time and
`last_confirmed_at` and records history op "confirm" with the text unchanged (for a
statement of a message; a tool re-saving leaves no history), and the row
keeps its text, revision and vector status (no re-embedding, no Milvus write). "Says what
it says" (`says_the_same`) is either
- the same text up to spacing, punctuation and case, or
- `dedup.says_nothing_new`: the scorer rates the two texts at or above its merge threshold
  (stricter than the dedup threshold that redirects keys), and the statement brings no
  number the memory lacks and lists no more items than it does.
A changed value or any new detail overwrites (upsert) or appends as before. Because a
repeat never rewords a memory, saying a burst of statements again, in any order, leaves
the active memories byte-identical.

Core memories (R-READ-6) are decided here too: every row written gets `is_core` from
`extraction.core.is_core_memory`; consolidation's `rewrite` and `merge_into` never clear it.

`note_statement` and `repoint_merges` are bookkeeping that changes neither the text nor the
visibility of any memory, so they bump nothing and leave no history. Outside this module only
index state (`vectors.index`, `db.claims`), access statistics (`retrieval.access`) and
`forget.forget_user` (which deletes a user's rows and history outright) touch the table.

Callers hold the user's write lock (`lock_user`) for the whole transaction, so two writers of
one user are serialized while different users proceed in parallel. A change that changes
nothing writes nothing (a redelivered turn does not even confirm again), which is what makes
re-runs idempotent.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, Protocol

from sqlalchemy import select, text, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from config.settings import get_settings
from memory_tasks import metrics
from memory_tasks.db.clock import db_now
from memory_tasks.db.models import HistorySource, LongTermMemory, MemoryHistory, VectorStatus
from memory_tasks.extraction.candidates import MAX_CONTENT_CHARS, Candidate
from memory_tasks.extraction.core import NOT_SAFETY_TYPES, is_core_memory, is_safety_memory
from memory_tasks.extraction.filters import is_noise_memory
from memory_tasks.extraction.types import ExistingMemory
from memory_tasks.memories.values import children_aged, frame
from memory_tasks.text import SAYS_A_CHANGE, has_han

logger = logging.getLogger(__name__)

# First int of PostgreSQL's two-int advisory lock: the namespace of per-user memory writes.
USER_WRITE_LOCK_NAMESPACE = 7_240_001
# The importance of every safety fact (the top of the 1-5 scale candidates are clamped to).
SAFETY_IMPORTANCE = 5

_SENTENCE_SPLIT = re.compile(r"(?<=[。！？；!?;.])\s*|\n+")
_NORMALIZE = re.compile(r"[\s，,。.!！?？；;:：、\"'“”‘’()（）]+")


@dataclass(frozen=True)
class WriteContext:
    """Where a change comes from: recorded on the row and in its history."""

    user_id: int
    source: HistorySource
    now: datetime
    default_ttl_days: int
    message_id: int | None = None
    conversation_id: int | None = None
    # When the user made the statement (the message's time); None means now.
    stated_at: datetime | None = None

    @property
    def statement_time(self) -> datetime:
        return self.stated_at or self.now


@dataclass(frozen=True)
class AppliedChange:
    """What `apply_candidate` did to the memory `memory_id`: the history op when the row changed
    (`changed`), else "confirm" or, with `note` saying why, the op it did not carry out. A change
    may carry a `note` too (a retraction of nothing is recorded as an inactive row)."""

    memory_id: int
    op: str
    changed: bool = True
    note: str | None = None


class StoredMemory(Protocol):
    """What a row operation reads of the row it changes (an ORM row or a selected Row)."""

    @property
    def id(self) -> int: ...

    @property
    def memory_key(self) -> str: ...

    @property
    def content(self) -> str: ...


class MergedMemory(StoredMemory, Protocol):
    """A memory as `merge_into` reads it: also whether it is core."""

    @property
    def is_core(self) -> bool: ...


def lock_user(session: Session, user_id: int) -> None:
    """Take the user's write lock until the transaction ends (serializes R-PIPE-7)."""
    session.execute(
        text("SELECT pg_advisory_xact_lock(:namespace, :user_id)"),
        {"namespace": USER_WRITE_LOCK_NAMESPACE, "user_id": user_id},
    )


def comparable(sentence: str) -> str:
    """`sentence` without spacing and punctuation, lowercased: what comparing two wordings looks at."""
    return _NORMALIZE.sub("", sentence).lower()


def append_content(existing: str, addition: str) -> str:
    """`existing` plus the sentences of `addition` it does not already contain.

    Returns `existing` unchanged when every sentence is already there, so a repeated
    append (a redelivered task, a user saying it twice) adds nothing. A sentence that says
    what one of `existing` says with another number, school stage or partner's name replaces it:
    "Daughter is 7" after "Daughter is 6", 「有两个孩子」 after 「有一个孩子」, 「女儿上小学了」 after 「女儿上幼儿园」
    (a child grows, a count changes), 「老婆叫小虹」 after 「老婆叫小红」 (one partner, the name corrected).
    One that says it with the same values adds nothing: 「女儿现在读三年级」 after 「女儿今年上三年级」. One that says a home
    was left, a job quit or a career changed takes out the sentences that state it (`_ENDS_A_VALUE`): "Parents live in
    Florida" goes when "Parents just moved from Florida to Arizona" comes, 「老婆在银行上班」 with 「老婆从银行辞职了」,
    「老公是医生」 with 「老公现在改行当律师了」.
    """
    # As frames are compared (`values.frame`): 「太太现在怀孕了」 is already in 「老婆怀孕了」, "Husband's got diabetes"
    # in "Husband is diabetic".
    known = comparable(frame(existing))
    if comparable(frame(addition)) in known:
        return existing  # its sentences together say what is known: 「儿子不能吃海鲜；会过敏」 after 「儿子对海鲜过敏」
    new_parts = [
        part.strip()
        for part in _SENTENCE_SPLIT.split(addition)
        if part and part.strip() and comparable(frame(part)) and comparable(frame(part)) not in known
    ]
    if not new_parts:
        return existing
    old_parts = [part.strip() for part in _SENTENCE_SPLIT.split(existing) if part and part.strip()]
    ended = [value for part in new_parts for value in _values_ended(part)]
    still_true = [part for part in old_parts if not any(value.states(part) for value in ended)]
    restated_any = len(still_true) < len(old_parts)
    old_parts, added = still_true, []
    for part in new_parts:
        held_job = _job_part_of(old_parts, part)
        if held_job is not None:
            # 「爱人在消防队上班」 after 「老公是消防员」: one job, said again in other words. Said to be the job now
            # (「老公现在在消防队上班」), it takes the held one's place.
            if SAYS_A_CHANGE.search(part) and comparable(old_parts[held_job]) != comparable(part):
                old_parts[held_job], restated_any = part, True
            continue
        restated = _restated_part(old_parts, part)
        if restated is None:
            added.append(part)
        elif _stated_values(old_parts[restated]) != _stated_values(part):
            old_parts[restated], restated_any = part, True
    if not added and not restated_any:
        return existing
    # Untouched, `existing` keeps its own punctuation; restated, it is rebuilt from its parts.
    parts = (old_parts if restated_any else [existing] if existing else []) + added
    return _joined(parts)


def _joined(parts: list[str]) -> str:
    """The statements `parts` as one appended memory's content."""
    # A part's own closing separator would double the joiner ("Son is 5；; Daughter is 3").
    parts = [part.rstrip("；;。. ") for part in parts[:-1]] + [parts[-1].rstrip("；;")]
    joiner = "；" if has_han("".join(parts)) else "; "
    return joiner.join(parts)[:MAX_CONTENT_CHARS]


@dataclass(frozen=True)
class _EndedValue:
    """A value a sentence says is over: a home left or a job quit."""

    value: str
    home: bool = False  # a place: only a sentence of living there states it
    job_of: bool = False  # `value` is who changed careers: a sentence of their job states it

    def states(self, sentence: str) -> bool:
        """True when `sentence` says the value holds: names it, and, for a home, says someone lives there; for a career
        changed, says what its person's job is."""
        if self.job_of:
            said = sentence.strip().rstrip("；;。. ")
            job = _A_JOB.match(said) or _A_JOB_EN.match(said)
            return job is not None and job["who"].casefold() == self.value.casefold()
        return self.value.casefold() in sentence.casefold() and (not self.home or bool(_LIVING.search(sentence)))


# A home left or a job quit, said of a family member: "Parents just moved from Florida to Arizona", "Son quit being an
# electrician", 「老婆从银行辞职了」, 「妹妹辞职不干律师了」. The sentences of the fact that state it go.
_ENDS_A_VALUE = re.compile(
    r"\bmoved (?:away )?from (?P<place>(?-i:[A-Z])[\w'-]*(?: (?-i:[A-Z])[\w'-]*)*)"
    r"|\b(?:quit|left|stopped) (?:being (?:an? )?|(?:his|her|their) job (?:as an? |at ))(?P<job>[\w -]{2,30}?)(?=$|[,;.]| and\b)"
    r"|\b(?:dropped|quit|gave up|stopped) (?P<diet>keto|paleo|low-carb|veganism|being vegan|being vegetarian)\b"
    r"|从(?P<left>[^，。；从]{1,8}?)(?:辞职|离职|搬走|搬出来|搬过来|搬到|搬去)"
    # 「不干律师了」 (not 「周末不做饭」: a job is given up with 干 or 当, and over with 了).
    r"|不(?:干|当)(?P<quit>[^，。；了]{1,6})了"
    # 「姐夫不开出租了」, 「女儿不住校了」: what was done, with its verb (the sentences that say 开出租, 住校 go);
    # 「舅舅把老家的饭馆关了」: a business closed (the sentences that name 饭馆 go).
    r"|不再?(?P<stopped>[开住跑卖教][^，。；了]{1,6})了"
    # 「爸终于把烟戒了」: the sentences of smoking go.
    r"|(?P<smoking>把烟戒了|戒烟了|戒了烟|不抽烟了|一根都不抽了)"
    r"|把(?:[^，。；把]{0,8}的)?(?P<closed>[^，。；把的]{1,6}?)(?:关了|关掉了|关门了|卖了|转让了)"
    # 「老公现在改行当律师了」: the job held before, whatever it was (跳槽 is another employer, not another job).
    r"|^(?P<changer>[^，。；\s]{1,4}?)(?:现在|已经|去年|今年|最近)?(?:改行|转行)"
    # "Husband stopped driving and works as a dispatcher now", "Sister is now a nurse": another job, said in English.
    r"|^(?P<changer_en>[\w'-]+(?:-in-law)?) (?:(?:stopped|quit|left|gave up) [\w' -]{2,30}? and (?:now )?\w+s [\w' -]{2,40} now"
    r"|(?:(?:stopped|quit|left|gave up) [\w' -]{2,30}? and )?"
    r"(?:now works as|works as an? [\w -]{2,30} now|is now an?|became an?|has become an?|switched careers))\b",
    re.IGNORECASE,
)
# A sentence of someone's job: 「老公是医生」, 「老公在医院当医生」, 「老婆在银行上班」 (not 「老公是四川人」).
_A_JOB = re.compile(
    r"^(?P<who>[^，。；\s]{1,4}?)(?:现在)?(?:是(?:一名|一个|个)?[^，。；]{1,8}?(?<!人)|(?:在[^，。；]{1,8}?)?(?:当|做)[^，。；]{1,8}"
    r"|在[^，。；]{1,8}?(?:上班|工作))[了的]?$"
)
# The same in English: "Husband is a long-haul truck driver", "Sister works as a nurse" (not "Husband is a vegetarian",
# "Dad is a smoker": a diet or a habit, which a career change leaves).
_A_JOB_EN = re.compile(
    r"^(?P<who>[\w'-]+) (?:is|works as) an? (?!(?:vegetarian|vegan|smoker|non-smoker|drinker|christian|muslim|catholic)\b)"
    r"[\w -]{0,40}?(?:er|or|ist|ant|ent|man|woman|nurse|chef|cook|doctor|engineer|pilot|clerk|agent|analyst|architect)$",
    re.IGNORECASE,
)
_LIVING = re.compile(r"\blives?\b|\bliving\b|\bbased\b|住|在", re.IGNORECASE)


def _job_part_of(parts: list[str], sentence: str) -> int | None:
    """The index of the one part of `parts` that says the job of whom `sentence` says the job of (`_A_JOB`,
    `_A_JOB_EN`; 老公 and 爱人 are one partner, as `frame` folds them) in words it shares (`_job_words`: 消防 of 「消防员」
    and 「在消防队上班」), or None: `sentence` says no job, or no part or several say that person's in shared words.
    Words shared keep a second thing said of someone from being taken for their job ("Husband is a big reader",
    「老公是跑步爱好者」 after "…is a teacher", 「…是消防员」)."""
    said = _job_sentence(sentence)
    if said is None:
        return None
    who, words = said
    same = [
        index
        for index, part in enumerate(parts)
        if (held := _job_sentence(part)) is not None and held[0] == who and held[1] & words
    ]
    return same[0] if len(same) == 1 else None


# Who an English job sentence is of, with the name said after the family word: "Older brother Diego is a welder",
# "Girlfriend Naomi works as a marine biologist".
_WHOSE_JOB_EN = re.compile(
    r"^(?P<who>(?:(?:older|younger|big|little|eldest|oldest|youngest|twin) )?[\w'-]+)(?: (?-i:[A-Z])[\w'-]+)?"
    r"(?= (?:is|works as) )",
    re.IGNORECASE,
)
# What a job sentence says besides the job: its verbs and articles (是, 在…上班, "works as a").
_JOB_FRAME_WORDS = re.compile(
    r"是|在|上班|工作|当|做|一名|一个|个|的|了|\b(?:is|works|as|an?|the|at|in|for|of)\b", re.I
)


def _job_sentence(sentence: str) -> tuple[str, frozenset[str]] | None:
    """Whose job `sentence` says, as `frame` words them ("older brother", 「伴侣」), and the words it says it in
    (`_job_words`); None when it says no one's job."""
    said = sentence.strip().rstrip("；;。. ")
    whose = _WHOSE_JOB_EN.match(said)
    if whose is not None:
        # Read as `_A_JOB_EN` reads a one-word subject: "Member is a welder".
        rest = said[whose.end() :]
        job = _A_JOB_EN.match(f"Member{rest}")
        return (frame(whose["who"]).casefold(), _job_words(rest)) if job is not None else None
    job = _A_JOB.match(said)
    return (frame(job["who"]).casefold(), _job_words(said[job.end("who") :])) if job is not None else None


def _job_words(said: str) -> frozenset[str]:
    """The words naming a job: English words, Chinese character pairs, without the job sentence's frame."""
    rest = _JOB_FRAME_WORDS.sub(" ", said).casefold()
    han = "".join(ch for ch in rest if has_han(ch))
    return frozenset(re.findall(r"[a-z]{3,}", rest)) | {han[i : i + 2] for i in range(len(han) - 1)}


def _values_ended(sentence: str) -> list[_EndedValue]:
    """The homes left, jobs quit and careers changed `sentence` says (`_ENDS_A_VALUE`)."""
    return [
        _EndedValue(said["changer"] or said["changer_en"], job_of=True)
        if said["changer"] or said["changer_en"]
        else _EndedValue(
            said["place"]
            or said["left"]
            or said["job"]
            or said["quit"]
            or said["diet"]
            or said["stopped"]
            or said["closed"]
            or ("烟" if said["smoking"] else None),
            home=bool(said["place"] or (said["left"] and "搬" in said.group(0))),
        )
        for said in _ENDS_A_VALUE.finditer(sentence)
    ]


# Counts and ages, in digits, Chinese numerals or English words: what a renumbered sentence changes.
_NUMBER = re.compile(
    r"\d+(?:\.\d+)?|[零一二两三四五六七八九十百]+|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b",
    re.IGNORECASE,
)


# Words that place a number in time without changing what it counts: 「女儿今年5岁」 and 「女儿6岁了」,
# "Daughter is 6" and "Daughter is now 7" say the same thing of another age.
_TIME_FILLER = re.compile(
    r"今年|现在|已经|目前|马上|刚刚?|满|还|了|啦|\b(?:now|already|just|still)\b"
    # When a birthday or a change came: 「儿子上周满7岁了」 says the age, as 「儿子7岁了」 does.
    r"|上周|上个?星期|上个?月|前几天|前两天|昨天|前天|这周|本周"
    # The month a school year starts in: 「女儿今年9月上小学了」 says the stage, as 「女儿上小学了」 does.
    r"|[\d一二三四五六七八九十]{1,2}月份?(?:起|开始)?(?=就?(?:上|读|念|升|进))",
    re.IGNORECASE,
)
# "My son just turned 6" says what "Son is 5" says, a year on.
_TURNED = re.compile(r"\bturned\b", re.IGNORECASE)


# A partner's name, of which there is one: a new one corrects the old. A child's or a sibling's
# name is not replaced (「儿子叫小明」 then 「儿子叫小亮」 may be two sons).
_PARTNER_NAME = re.compile(
    r"^(?:(?P<said>(?:老婆|妻子|太太|爱人|老公|丈夫|女朋友|男朋友|女友|男友|对象|未婚妻|未婚夫)(?:的名字(?:叫|是)|叫做|名叫|叫))"
    r"[^，,；;。.\s]{1,8}"
    r"|(?P<said_en>(?:wife|husband|partner|girlfriend|boyfriend|fianc[ée]e?|spouse)(?:'s name is| is called| is named) )"
    r"(?-i:[A-Z])[\w'-]*(?: (?-i:[A-Z])[\w'-]*)?)[。.；;]?$",
    re.IGNORECASE,
)
# A child's school stage, which moves on as an age does: 「女儿上小学了」 after 「女儿上幼儿园」, "Son started
# middle school" after "Son is in 5th grade" (the verb before it is part of the stage: 上/读/is in/started). A stage
# finished is a stage of its own: 「儿子大学毕业了」 after 「儿子在读大学」, "Son graduated from college".
_SCHOOL_STAGE = re.compile(
    r"(?:在读|在上|升到|升上|升入|升|读|上|念|在)?(?:幼儿园|托儿所|小学|初中|高中|中学|大学|研究生|[初高][一二三]|大[一二三四]|[一二三四五六]年级)(?:毕业)?"
    r"|\b(?:is in|is at|goes to|attends|started|starts|is starting|will start|began|entered|graduated from|in) (?:\w+ )?"
    r"(?:daycare|preschool|pre-k|kindergarten|(?:elementary|primary|middle|junior high|high) school|college|university"
    r"|(?:\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth) grade)\b",
    re.IGNORECASE,
)


# Whose it is, said or not: 「我家女儿三年级了」 is about the daughter of 「女儿今年上三年级」.
_OWNER = re.compile(r"^(?:我们家|我家|我的|我|my\s+)(?=\w)", re.IGNORECASE)
# The verb before a school stage, which says nothing of which stage: 上三年级, 读三年级, "is in 5th grade".
_STAGE_VERB = re.compile(
    r"^(?:在读|在上|升到|升上|升入|升|读|上|念|在|is in|is at|goes to|attends|started|starts|is starting|will start|began|entered|in)\s*",
    re.IGNORECASE,
)


def _value_shape(sentence: str) -> str:
    """`sentence` with its numbers, school stages and partner's name as "#", its time fillers and
    owner gone, as `comparable` compares it."""
    return _shape_and_values(sentence)[0]


def _stated_values(sentence: str) -> list[str]:
    """The numbers, school stages (without their verb) and partner's name `sentence` states, in order."""
    return _shape_and_values(sentence)[1]


def _shape_and_values(sentence: str) -> tuple[str, list[str]]:
    values: list[str] = []

    def hole(value: str, kept: str = "") -> str:
        values.append(comparable(value))
        return f"{kept}#"

    def partner(match: re.Match[str]) -> str:
        said = match.group("said") or match.group("said_en")
        return hole(match.group(0)[len(said) :], said)

    timeless = " ".join(_TIME_FILLER.sub("", _OWNER.sub("", children_aged(sentence.strip()))).split())
    named = _PARTNER_NAME.sub(partner, timeless)
    staged = _SCHOOL_STAGE.sub(lambda m: hole(_STAGE_VERB.sub("", m.group(0))), _TURNED.sub("is", named))
    # Numbers are found before spacing goes: "two" in "has two kids" is a word only between spaces.
    shape = comparable(_NUMBER.sub(lambda m: hole(m.group(0)), staged))
    return shape, values


def _restated_part(parts: list[str], sentence: str) -> int | None:
    """The index of the one part of `parts` that `sentence` says again with other values, or None."""
    shape = _value_shape(sentence)
    if "#" not in shape:
        return None
    same = [i for i, part in enumerate(parts) if _value_shape(part) == shape]
    return same[0] if len(same) == 1 else None


def _expiry(candidate: Candidate, ctx: WriteContext) -> datetime:
    return ctx.now + timedelta(days=candidate.ttl_days or ctx.default_ttl_days)


def load_for_update(session: Session, user_id: int, key: str) -> LongTermMemory | None:
    """The user's memory under `key` (active or not), row-locked, or None."""
    return session.scalars(
        select(LongTermMemory)
        .where(LongTermMemory.user_id == user_id, LongTermMemory.memory_key == key)
        .with_for_update()
    ).one_or_none()


# --- the row operations: each keeps the revision / DIRTY / history invariant ---------------


def _revised(updated_at: datetime) -> dict[str, Any]:
    """The columns every change sets besides its own.

    DIRTY so index sync follows the change, the next revision so a sync that read the row
    before cannot mark it SYNCED (compare-and-set on the revision), no error of an older
    revision, and the time of the change.
    """
    return {
        "vector_status": VectorStatus.DIRTY.value,
        "vector_error": None,
        "revision": LongTermMemory.revision + 1,
        "updated_at": updated_at,
    }


def _record_history(
    session: Session,
    ctx: WriteContext,
    memory_id: int,
    key: str,
    op: str,
    old: str | None,
    new: str | None,
    detail: str | None = None,
    stated: str | None = None,
) -> None:
    """Append one history row (R-DATA-6): what changed, from where, caused by which message;
    `stated`, the words a confirmation came in when they are not the memory's."""
    metrics.count_write(op)
    session.add(
        MemoryHistory(
            memory_id=memory_id,
            user_id=ctx.user_id,
            op=op,
            source=ctx.source.value,
            source_message_id=ctx.message_id,
            memory_key=key,
            old_content=old,
            new_content=new,
            stated_content=stated,
            detail=detail,
        )
    )


def write_row(
    session: Session,
    ctx: WriteContext,
    candidate: Candidate,
    key: str,
    content: str,
    *,
    op: str,
    old_content: str | None = None,
    detail: str | None = None,
    active: bool = True,
    expires_at: datetime | None = None,
) -> int:
    """Insert or overwrite the (user, key) row with `content` and record `op`; returns the memory id.

    The candidate gives type, importance, confidence and (unless `expires_at`) the lifetime.
    An inactive row (`active=False`) is the tombstone of a retraction: its history shows no
    new content. ON CONFLICT keeps the row id stable and is safe even if a writer ever
    skipped the lock.
    """
    is_core = is_core_memory(candidate.memory_type, key, content)
    values = {
        "user_id": ctx.user_id,
        "conversation_id": ctx.conversation_id,
        "source_message_id": ctx.message_id,
        "memory_key": key,
        "memory_type": candidate.memory_type,
        "content": content,
        # A safety fact is as important as a memory gets, however it was said ("Can't have peanuts" read as a
        # taste's 3): where the core block is full, the most important memories fill the places left.
        "importance": SAFETY_IMPORTANCE if is_core and is_safety_memory(key, content) else candidate.importance,
        "confidence": candidate.confidence,
        "is_active": active,
        "is_core": is_core,
        "expires_at": expires_at or _expiry(candidate, ctx),
        "source": ctx.source.value,
        "vector_status": VectorStatus.DIRTY.value,
        "stated_at": ctx.statement_time,
        "created_at": ctx.now,
        "updated_at": ctx.now,
    }
    stmt = pg_insert(LongTermMemory).values(**values)
    stmt = stmt.on_conflict_do_update(
        index_elements=[LongTermMemory.user_id, LongTermMemory.memory_key],
        set_={
            **{name: stmt.excluded[name] for name in values if name not in ("user_id", "memory_key", "created_at")},
            "merged_into_id": None,
            **_revised(ctx.now),
        },
    ).returning(LongTermMemory.id)
    memory_id = session.execute(stmt).scalar_one()
    _record_history(session, ctx, memory_id, key, op, old_content, content if active else None, detail)
    return memory_id


def deactivate(
    session: Session,
    ctx: WriteContext,
    memory: StoredMemory,
    op: str,
    detail: str | None = None,
    *,
    merged_into: int | None = None,
    retracted: bool = False,
) -> None:
    """Deactivate `memory` and record `op` (delete, or merge with `merged_into` the survivor's id).

    `retracted`: the user said it no longer holds, so the row records that message and its
    time, which keeps an older statement processed late from reviving it.
    """
    values: dict[str, Any] = {"is_active": False, "merged_into_id": merged_into, **_revised(ctx.now)}
    if retracted:
        values.update(source_message_id=ctx.message_id, stated_at=ctx.statement_time)
    session.execute(update(LongTermMemory).where(LongTermMemory.id == memory.id).values(**values))
    _record_history(session, ctx, memory.id, memory.memory_key, op, memory.content, None, detail)


def merge_into(
    session: Session,
    ctx: WriteContext,
    loser: MergedMemory,
    survivor: MergedMemory,
    detail: str | None,
    absorbed_detail: str,
) -> None:
    """Retire `loser` into `survivor`: history "merge" on the loser and "absorb" on the survivor.

    The survivor's content stays (a caller that changes it does so with `rewrite`); it becomes
    core when the loser was (R-READ-6: a merge never drops a safety fact from every reply),
    which changes neither its text nor its vector, so no new revision.
    """
    deactivate(session, ctx, loser, "merge", detail, merged_into=survivor.id)
    if loser.is_core and not survivor.is_core:
        session.execute(update(LongTermMemory).where(LongTermMemory.id == survivor.id).values(is_core=True))
    _record_history(
        session, ctx, survivor.id, survivor.memory_key, "absorb", survivor.content, survivor.content, absorbed_detail
    )


def rewrite(
    session: Session,
    ctx: WriteContext,
    memory: LongTermMemory,
    values: Mapping[str, Any],
    op: str,
    detail: str,
    *,
    old_content: str | None = None,
) -> None:
    """Set `values` (column -> new value) on `memory` and record `op` with the old and new content.

    `old_content` is what the history shows as before (default: the row's content; when a
    memory moves into this row, the content that moved). `updated_at` is the time the user
    last stated what the row holds (retrieval ranks by it), so it is kept unless `values`
    sets it: consolidation tidies wording, the user said nothing new. A core memory stays
    core (`values` may carry `is_core` when a memory moves into another row); a rewrite that
    makes it a constraint or a safety fact makes it core.
    """
    old_content = memory.content if old_content is None else old_content
    key = values.get("memory_key", memory.memory_key)
    was_core = values.get("is_core", memory.is_core)
    is_core = was_core or is_core_memory(
        values.get("memory_type", memory.memory_type), key, values.get("content", memory.content)
    )
    session.execute(
        update(LongTermMemory)
        .where(LongTermMemory.id == memory.id)
        .values({**values, "is_core": is_core, **_revised(values.get("updated_at", memory.updated_at))})
    )
    _record_history(session, ctx, memory.id, key, op, old_content, values.get("content", old_content), detail)


class ExpiringMemory(StoredMemory, Protocol):
    """A row claimed for expiry: whose it is and when its lifetime ended."""

    @property
    def user_id(self) -> int: ...

    @property
    def expires_at(self) -> datetime: ...


def expire(session: Session, rows: Sequence[ExpiringMemory]) -> list[int]:
    """Deactivate the claimed expired `rows` (of any users) with one history row each; returns their ids.

    History says source=expiry and when the lifetime ended; `updated_at` is the database's
    time of the change.
    """
    ids = [row.id for row in rows]
    if not ids:
        return []
    now = db_now(session)
    session.execute(
        update(LongTermMemory)
        .where(LongTermMemory.id.in_(ids))
        .values(is_active=False, **_revised(now))
        .execution_options(synchronize_session=False)
    )
    default_ttl = get_settings().LONG_TERM_MEMORY_DEFAULT_TTL_DAYS
    for row in rows:
        ctx = WriteContext(user_id=row.user_id, source=HistorySource.EXPIRY, now=now, default_ttl_days=default_ttl)
        detail = f"expired at {row.expires_at.isoformat()}"
        _record_history(session, ctx, row.id, row.memory_key, "expire", row.content, None, detail)
    logger.info("memories expired", extra={"memory_ids": ids, "user_ids": sorted({row.user_id for row in rows})})
    return ids


# --- confirmation: history, but no new revision ------------------------------------------------


def _stated_by(session: Session, memory_id: int, message_id: int) -> bool:
    """True when `message_id` already wrote or confirmed the memory (a redelivered turn)."""
    return (
        session.scalar(
            select(MemoryHistory.id)
            .where(MemoryHistory.memory_id == memory_id, MemoryHistory.source_message_id == message_id)
            .limit(1)
        )
        is not None
    )


def _restates_its_type(held_type: str, said_type: str) -> bool:
    """True when a statement of `said_type` can confirm, or rewrite keeping its type, a memory of `held_type`: the
    same type, or a preference said of a slot the user made a standing rule ("I prefer metric units" after "Always
    use metric" on `reply-units`: the rule stays a rule). A rule said of a held preference is new: it rewrites the
    memory as the rule."""
    return held_type == said_type or (held_type == "constraint" and said_type == "preference")


def confirm(session: Session, ctx: WriteContext, memory: LongTermMemory, candidate: Candidate) -> bool:
    """The user said again what `memory` holds: it lives on, its text stays (R-WRITE-3).

    Its expiry moves forward, the stronger confidence and importance are kept, the statement
    time and `last_confirmed_at` are set, and when a message said it (`ctx.message_id`) one
    history row with op "confirm" records which (old and new content both the unchanged
    text, and the words it was said in when they differ); a tool saving what is already there
    leaves no history, as before. Text, type and key are unchanged, so the index has nothing to
    follow: no new revision, the vector status stays as it is. Returns False, changing nothing, when this message already wrote or
    confirmed the memory (a redelivered stage, or the same turn saying it twice).
    """
    if ctx.message_id is not None and _stated_by(session, memory.id, ctx.message_id):
        return False
    expires_at = _expiry(candidate, ctx)
    if memory.expires_at is None or memory.expires_at < expires_at:
        memory.expires_at = expires_at
    memory.confidence = max(memory.confidence, candidate.confidence)
    memory.importance = max(memory.importance, candidate.importance)
    memory.stated_at = max(memory.stated_at or ctx.statement_time, ctx.statement_time)
    memory.last_confirmed_at = ctx.now
    if ctx.message_id is not None:
        _record_history(
            session,
            ctx,
            memory.id,
            memory.memory_key,
            "confirm",
            memory.content,
            memory.content,
            candidate.reason or None,
            stated=candidate.content if comparable(candidate.content) != comparable(memory.content) else None,
        )
    return True


# --- bookkeeping: no new revision, no history ------------------------------------------------


def note_statement(memory: LongTermMemory, ctx: WriteContext) -> None:
    """Record that the user's latest word on an inactive memory is this turn's (it stays inactive)."""
    memory.stated_at = ctx.statement_time


def repoint_merges(session: Session, from_id: int, to_id: int) -> None:
    """Rows merged into `from_id` now point at `to_id`, where that memory lives on.

    Only the pointer of inactive rows changes (they have no vector and say nothing new).
    """
    session.execute(
        update(LongTermMemory)
        .where(LongTermMemory.merged_into_id == from_id, LongTermMemory.id != from_id)
        .values(merged_into_id=to_id)
    )


# --- applying a candidate --------------------------------------------------------------------


# Whether a statement says nothing an active memory does not already say (beyond wording):
# (stored content, stated content, said before, the memory's key) -> bool, "said before" when `stated` is
# in words this memory was already told in (`_told_before`). `dedup.says_nothing_new` binds the scorer.
Restates = Callable[[str, str, bool, str], bool]


def says_the_same(stored: str, stated: str, restates: Restates | None = None, key: str = "") -> bool:
    """True when `stated` repeats `stored` (the memory under `key`): equal up to spacing, punctuation and case, or
    `restates` says so."""
    return comparable(stored) == comparable(stated) or (restates is not None and restates(stored, stated, False, key))


def _restates_a_part(stored: str, stated: str, restates: Restates | None) -> bool:
    """True when `stored` was appended to and one of its statements says what `stated` says: "Sister's based in
    London" told to "Sister is a nurse; Sister lives in London" adds nothing (the whole memory says more than
    either statement, so `says_the_same` cannot see it)."""
    parts = [part.strip() for part in _SENTENCE_SPLIT.split(stored) if part and part.strip()]
    return len(parts) > 1 and any(says_the_same(part.rstrip("；;。. "), stated, restates) for part in parts)


def _elaborated(stored: str, stated: str, restates: Restates | None, key: str) -> str | None:
    """`stored` with the one statement that `stated` says again with more detail replaced by `stated`: "Sister is a
    nurse" told "Sister's a nurse at a hospital" becomes the second (appended, both would say the nurse twice); None
    when `stated` is more than one statement, or not exactly one statement of `stored` says nothing `stated` lacks."""
    if restates is None or len([part for part in _SENTENCE_SPLIT.split(stated) if part and part.strip()]) > 1:
        return None
    parts = [part.strip() for part in _SENTENCE_SPLIT.split(stored) if part and part.strip()]
    said = [part.rstrip("；;。. ") for part in parts]
    elaborated = [
        index
        for index, part in enumerate(said)
        if restates(stated, part, False, key) and not restates(part, stated, False, key)
    ]
    if len(elaborated) != 1:
        return None
    parts[elaborated[0]] = stated.strip()
    return _joined(parts)


def _told_before(session: Session, memory: LongTermMemory, stated: str, restates: Restates) -> bool:
    """True when `memory` was already told `stated`, in these words (its history's texts and
    confirmations), and `restates` finds no other value in them than the memory holds now: a
    burst of paraphrases sent again leaves the text the first sending left, in any order (issue
    13.1). "Lives in Boston" after a move to Denver is told before, and still a new value."""
    wordings = session.execute(
        select(MemoryHistory.new_content, MemoryHistory.stated_content).where(MemoryHistory.memory_id == memory.id)
    ).all()
    said = comparable(stated)
    return any(said in (comparable(new or ""), comparable(told or "")) for new, told in wordings) and restates(
        memory.content, stated, True, memory.memory_key
    )


def _would_rewrite_a_safety_fact(live: LongTermMemory, candidate: Candidate) -> bool:
    """True when `candidate` would overwrite or append to the core fact `live` (an allergy, a condition,
    a diet) while being a taste, goal or project: "Loves peanut butter" that a model's refinement
    pointed at `allergy-peanut` (same subject) must not replace the allergy. Deletes still apply."""
    return (
        candidate.op != "delete"
        and live.is_core
        and live.memory_type == "fact"
        and candidate.memory_type in NOT_SAFETY_TYPES
        and not candidate.target_key.startswith(f"{candidate.memory_type}-")
    )


def apply_candidate(
    session: Session, ctx: WriteContext, candidate: Candidate, restates: Restates | None = None
) -> AppliedChange:
    """Apply one validated candidate for `ctx.user_id`; the caller holds `lock_user`.

    A candidate for an active memory of its type that says what it says (`says_the_same`;
    for an append, an addition it already holds) confirms it (`confirm`), unless it narrows the
    memory on purpose (`Candidate.narrows`). Returns what it
    did; `changed` is False when it confirmed, a delete names a memory no longer active, or
    the memory holds a later statement of the user than this one (a turn processed out of order).
    A taste, goal or project aimed at a safety fact's key is written beside it, under its own
    key or `<type>-<item>` (`_would_rewrite_a_safety_fact`).
    """
    key = candidate.target_key
    existing = load_for_update(session, ctx.user_id, key)
    if existing is not None and existing.stated_at is not None and existing.stated_at > ctx.statement_time:
        logger.info(
            "stale statement skipped",
            extra={"user_id": ctx.user_id, "memory_id": existing.id, "message_id": ctx.message_id, "key": key},
        )
        return AppliedChange(
            existing.id, candidate.op, changed=False, note=f"memory #{existing.id} holds a later statement"
        )
    live = existing if existing is not None and existing.is_active else None
    if live is not None and _would_rewrite_a_safety_fact(live, candidate):
        # Its own key when refinement pointed it here, else its type's: allergy-peanut -> preference-peanut.
        beside = candidate.key if candidate.key != key else f"{candidate.memory_type}-{key.partition('-')[2] or key}"
        logger.info(
            "candidate kept beside a safety fact of its key",
            extra={"user_id": ctx.user_id, "memory_id": live.id, "key": key, "written_key": beside},
        )
        return apply_candidate(session, ctx, replace(candidate, key=beside, reuse_key=None), restates)

    if candidate.op == "delete":
        if existing is None:
            # A turn processed out of order may retract a memory before the older turn that
            # states it is written; the inactive row's statement time then keeps that turn out.
            memory_id = write_row(
                session,
                ctx,
                candidate,
                key,
                candidate.content or "",
                op="delete",
                detail="retraction recorded before any statement",
                active=False,
            )
            return AppliedChange(memory_id, "delete", note="no memory held it: the retraction is recorded, inactive")
        if live is None:
            note_statement(existing, ctx)  # the latest word on this key is still "no"
            return AppliedChange(
                existing.id, "delete", changed=False, note=f"memory #{existing.id} is already inactive"
            )
        deactivate(session, ctx, live, "delete", candidate.reason or None, retracted=True)
        return AppliedChange(live.id, "delete")

    expires_at = None
    if candidate.op == "append" and live is not None:
        content = _elaborated(live.content, candidate.content, restates, live.memory_key) or append_content(
            live.content, candidate.content
        )
        # Appending adds to a memory; it does not demote it or shorten its life.
        candidate = replace(
            candidate,
            memory_type=live.memory_type,
            importance=max(live.importance, candidate.importance),
            confidence=max(live.confidence, candidate.confidence),
        )
        expires_at = max(live.expires_at, _expiry(candidate, ctx)) if live.expires_at else None
    else:
        content = candidate.content[:MAX_CONTENT_CHARS]
    if live is not None and _restates_its_type(live.memory_type, candidate.memory_type):
        # "I prefer the metric system" of a held "Use metric units": the standing rule stays a rule, whatever it now
        # says (else it flip-flopped between the two types on every re-send).
        candidate = replace(candidate, memory_type=live.memory_type)

    if (
        live is not None
        and not candidate.narrows
        and _restates_its_type(live.memory_type, candidate.memory_type)
        and (
            live.content == content
            or says_the_same(live.content, candidate.content, restates, live.memory_key)
            or (candidate.op == "append" and _restates_a_part(live.content, candidate.content, restates))
            or (candidate.op == "upsert" and restates is not None and _told_before(session, live, content, restates))
        )
    ):
        confirm(session, ctx, live, candidate)
        return AppliedChange(live.id, "confirm", changed=False)

    op = candidate.op if live is not None else "create"
    memory_id = write_row(
        session,
        ctx,
        candidate,
        key,
        content,
        op=op,
        old_content=live.content if live else None,
        detail=candidate.reason or None,
        expires_at=expires_at,
    )
    session.expire_all()
    return AppliedChange(memory_id, op)


# --- reads ------------------------------------------------------------------------------------


def existing_memory(memory: LongTermMemory) -> ExistingMemory:
    """The plain values of a stored row, as refinement and consolidation see it."""
    return ExistingMemory(
        memory.id,
        memory.memory_key,
        memory.memory_type,
        memory.content,
        memory.importance,
        memory.confidence,
        memory.access_count,
        memory.revision,
        memory.expires_at,
        memory.updated_at,
        memory.is_core,
    )


def active_memories(session: Session, user_id: int, now: datetime) -> list[LongTermMemory]:
    """The user's active, unexpired memories (noise is filtered by the callers that read)."""
    return list(
        session.scalars(
            select(LongTermMemory)
            .where(
                LongTermMemory.user_id == user_id,
                LongTermMemory.is_active.is_(True),
                # A core memory never expires (R-READ-6, memories/lifecycle.py).
                (LongTermMemory.expires_at.is_(None))
                | (LongTermMemory.expires_at > now)
                | LongTermMemory.is_core.is_(True),
            )
            .order_by(LongTermMemory.importance.desc(), LongTermMemory.updated_at.desc())
        )
    )


def valid_memories(session: Session, user_id: int, now: datetime) -> list[LongTermMemory]:
    """What may be shown or injected: active, unexpired and not noise (R-TYPE-4 at read time)."""
    patterns = get_settings().noise_key_patterns
    return [m for m in active_memories(session, user_id, now) if not is_noise_memory(m.memory_key, m.content, patterns)]


def mark_core_memories(session: Session) -> int:
    """Set `is_core` on every stored row the write-time classifier calls core; returns how many changed.

    For rows written before the flag existed (migration 0003). The flag changes neither the text
    nor the vector, so no new revision (as in `merge_into`).
    """
    rows = session.execute(
        select(LongTermMemory.id, LongTermMemory.memory_type, LongTermMemory.memory_key, LongTermMemory.content).where(
            LongTermMemory.is_core.is_(False)
        )
    )
    core_ids = [row.id for row in rows if is_core_memory(row.memory_type, row.memory_key, row.content)]
    if core_ids:
        session.execute(update(LongTermMemory).where(LongTermMemory.id.in_(core_ids)).values(is_core=True))
    return len(core_ids)
