"""The rules engine: the offline extraction engine of SPEC R-LLM-2 (no model, no network)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from config.settings import get_settings
from memory_tasks.extraction.candidates import Candidate
from memory_tasks.extraction.filters import drop_reason, is_trivial
from memory_tasks.extraction.rules.clauses import Clause, split_clauses
from memory_tasks.extraction.rules.lexicon import lexicon_entries
from memory_tasks.extraction.rules.table import RULES
from memory_tasks.extraction.types import ExistingMemory, TurnContext

RULES_BY_LANG = {lang: tuple(rule for rule in RULES if rule.lang == lang) for lang in ("zh", "en")}


class RulesEngine:
    """Extraction by Chinese and English patterns: the rules of `rules.table`, keyed as `rules.keys` describes.

    `noise_key_patterns` are the configured hard-filter patterns; None reads them from settings.
    """

    name = "rules"

    def __init__(self, noise_key_patterns: Sequence[str] | None = None) -> None:
        if noise_key_patterns is None:
            noise_key_patterns = get_settings().noise_key_patterns
        self.noise_key_patterns = tuple(noise_key_patterns)

    def extract(self, turn: TurnContext) -> list[Candidate]:
        """Candidates stated in the user's message; the summary and recent turns are never read
        (the message is the only fact source, and rules cannot weigh context)."""
        if is_trivial(turn.message):
            return []
        by_key: dict[str, Candidate] = {}
        for clause in split_clauses(turn.message):
            if clause.skip:
                continue
            for candidate in self._read(clause):
                first = by_key.setdefault(candidate.key, candidate)
                if first is not candidate and first.op == candidate.op == "append":
                    # Several facts about one family member: one append of both sentences.
                    first.content = f"{first.content}；{candidate.content}"[:1000]
                # Otherwise the first statement of a key wins: "我不打算考N1了" is read as a
                # retirement before the goal rules see "打算考N1".
        return [c for c in by_key.values() if drop_reason(c, self.noise_key_patterns) is None]

    def _read(self, clause: Clause) -> list[Candidate]:
        """The candidates of one readable clause: each rule in order, rules of a group never
        reading text another rule of the group already read."""
        found: list[Candidate] = []
        taken: dict[str, list[tuple[int, int]]] = {}
        for rule in RULES_BY_LANG[clause.lang]:
            if clause.request and not rule.standing:
                continue
            if clause.subject != "self" and not (rule.family and clause.subject.startswith("family:")):
                continue
            spans = taken.setdefault(rule.group, [])
            for match in rule.pattern.finditer(clause.text):
                if any(match.start() < end and start < match.end() for start, end in spans):
                    continue
                built = rule.build(match, clause)
                if built:
                    spans.append(match.span())
                    found.extend(built)
        return found

    def refine(self, candidates: list[Candidate], existing: list[ExistingMemory]) -> list[Candidate]:
        """The candidates to write. Key match and similarity dedup are the write model's
        (memories/dedup.py); here a retirement whose key does not exist is pointed at the one
        existing memory of its type that names the retired item, so "我不喝奶茶了" also retires
        a tool-written "drink-bubble-tea: 爱喝奶茶"."""
        existing_keys = {memory.key for memory in existing}
        return [
            replace(c, reuse_key=_retired_memory_key(c, existing))
            if c.op == "delete" and c.key not in existing_keys
            else c
            for c in candidates
        ]


def _retired_memory_key(candidate: Candidate, existing: list[ExistingMemory]) -> str | None:
    """The key of the single existing memory of the candidate's type sharing a LEXICON item
    with it, or None when there is none or more than one."""
    items = {slug for slug, _ in lexicon_entries(candidate.content)}
    if not items:
        return None
    hits = [
        m.key
        for m in existing
        if m.memory_type == candidate.memory_type and items & {slug for slug, _ in lexicon_entries(m.content)}
    ]
    return hits[0] if len(hits) == 1 else None
