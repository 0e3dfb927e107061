"""What happened to each candidate of a turn (issue 17 item 2): stored with the message, shown to people.

An `Outcome` is either "stored" (the memory id and the op: create, upsert, append, confirm,
delete, merge) or "dropped" with its reason ("short-term window: 今天", "profile field",
"noise key: tool-*", "below the confidence floor …", "over the write cap …", "duplicate of
memory #12", "refine drop …"). The stages collect them as plain data (the gate, refinement,
the write path) and the pipeline stores the list on the message; a turn from which
extraction proposed nothing at all gets the single outcome `NOTHING_FOUND`.

Outcomes travel between Celery tasks inside the stage payload, so `from_json` validates
them again (anyone with the broker can send a payload): only the known statuses, short
strings and ids are kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from memory_tasks.extraction.candidates import Candidate
from memory_tasks.extraction.rules.clauses import split_clauses

Status = Literal["stored", "dropped"]
STATUSES: tuple[Status, ...] = ("stored", "dropped")
NOTHING_FOUND = "no memory-worthy statement found"
# A refine drop: the engine's refinement kept nothing of the candidate.
REFINE_DROP = "refine drop: refinement kept nothing of it"
# The statement an outcome shows is cut to this (it is the user's own text, stored with the message).
MAX_TEXT_CHARS = 120
MAX_REASON_CHARS = 200
MAX_KEY_CHARS = 160


@dataclass(frozen=True)
class Outcome:
    """What happened to one candidate (or, with an empty key, to a statement no candidate came from).

    `stage` is where it was decided (extract, refine, upsert); `text` is the statement the
    outcome is about (the candidate's content, or the clause of the message).
    """

    status: Status
    stage: str
    key: str = ""
    text: str = ""
    op: str | None = None
    memory_id: int | None = None
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "stage": self.stage,
            "key": self.key,
            "text": self.text,
            "op": self.op,
            "memory_id": self.memory_id,
            "reason": self.reason,
        }

    @classmethod
    def from_json(cls, data: Any) -> Outcome | None:
        """The outcome `data` describes, or None when it is not one (untrusted payload)."""
        if not isinstance(data, dict) or data.get("status") not in STATUSES:
            return None
        memory_id = data.get("memory_id")
        if memory_id is not None and (not isinstance(memory_id, int) or isinstance(memory_id, bool)):
            return None
        fields = {name: data.get(name) for name in ("stage", "key", "text", "op", "reason")}
        if any(value is not None and not isinstance(value, str) for value in fields.values()):
            return None
        return cls(
            status=data["status"],
            stage=(fields["stage"] or "")[:20],
            key=(fields["key"] or "")[:MAX_KEY_CHARS],
            text=(fields["text"] or "")[:MAX_TEXT_CHARS],
            op=fields["op"][:20] if fields["op"] else None,
            memory_id=memory_id,
            reason=fields["reason"][:MAX_REASON_CHARS] if fields["reason"] else None,
        )

    def line(self) -> str:
        """One line for people: `stored #12 create food-tea: 喜欢喝普洱茶` / `dropped "…": short-term window: 今天`."""
        about = f"{self.key}: {self.text}" if self.key else (f'"{self.text}"' if self.text else "")
        if self.status == "stored":
            line = f"stored #{self.memory_id} {self.op} {about}" + (f" ({self.reason})" if self.reason else "")
        else:
            line = f"dropped {about}: {self.reason}" if about else f"dropped: {self.reason}"
        return " ".join(line.split())  # a statement's own line breaks never break the one line


def dropped(candidate: Candidate, reason: str, stage: str, memory_id: int | None = None) -> Outcome:
    """The outcome of a candidate that is not written, and why."""
    return Outcome(
        status="dropped",
        stage=stage,
        key=candidate.key,
        text=candidate.content[:MAX_TEXT_CHARS],
        memory_id=memory_id,
        reason=reason[:MAX_REASON_CHARS],
    )


def stored(candidate: Candidate, memory_id: int, op: str, reason: str | None = None) -> Outcome:
    """The outcome of a candidate written as `op` on memory `memory_id`."""
    return Outcome(
        status="stored",
        stage="upsert",
        key=candidate.target_key,
        text=candidate.content[:MAX_TEXT_CHARS],
        op=op,
        memory_id=memory_id,
        reason=reason,
    )


def nothing_found() -> Outcome:
    """The outcome of a turn from which extraction proposed nothing and no statement was dropped."""
    return Outcome(status="dropped", stage="extract", reason=NOTHING_FOUND)


def read_with_burst(other_turn_ids: list[int]) -> Outcome:
    """The outcome of a turn of a debounce burst with no statement of its own: extraction read it
    together with `other_turn_ids`, and what they say together is on those turns' outcomes."""
    others = ", ".join(f"#{turn_id}" for turn_id in other_turn_ids)
    return Outcome(status="dropped", stage="extract", reason=f"read with its burst (turns {others})"[:MAX_REASON_CHARS])


def refine_drops(before: list[Candidate], after: list[Candidate]) -> list[Outcome]:
    """The candidates of `before` that refinement left out of `after` (matched by key)."""
    kept = {candidate.key for candidate in after}
    return [dropped(candidate, REFINE_DROP, "refine") for candidate in before if candidate.key not in kept]


def parse_outcomes(items: Any) -> list[Outcome]:
    """The valid outcomes of an untrusted JSON list (anything else: none)."""
    if not isinstance(items, list):
        return []
    return [outcome for outcome in (Outcome.from_json(item) for item in items[:200]) if outcome is not None]


def unread_statements(message: str) -> list[Outcome]:
    """The clauses of `message` the rules engine does not read, each dropped with why
    ("short-term window: 今天", "profile field", "question", …), in the message's order."""
    return [
        Outcome(status="dropped", stage="extract", text=clause.text[:MAX_TEXT_CHARS], reason=clause.skip)
        for clause in split_clauses(message)
        if clause.skip
    ]
