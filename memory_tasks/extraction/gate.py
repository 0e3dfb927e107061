"""The last check before anything is written: hard filters, confidence floor, per-turn cap.

Applies to every engine's output and to every tool write (R-TYPE-3/4, R-PIPE-3), so a
misbehaving LLM or agent cannot store a noise key, a profile field or a short-term reminder.
`refusal` judges one candidate; `screen` judges a turn's candidates, caps their number and says
why each dropped one is dropped; `admit` is its admitted list.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Literal

from config.settings import Settings
from memory_tasks.extraction.candidates import Candidate
from memory_tasks.extraction.core import is_core_memory
from memory_tasks.extraction.filters import drop_reason, window_reminder_reason
from memory_tasks.extraction.outcomes import Outcome, dropped

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Refusal:
    """Why the gate refuses a candidate.

    `kind` is "boundary" (a hard filter: noise key, profile field, short-term content, bad
    slot value) or "confidence" (below LONG_TERM_MEMORY_MIN_CONFIDENCE); `reason` is the
    detail that is logged and shown ("noise key: tool-*", "below the confidence floor: 0.50 < 0.75").
    """

    kind: Literal["boundary", "confidence"]
    reason: str


def refusal(candidate: Candidate, settings: Settings, *, message: str = "") -> Refusal | None:
    """Why `candidate` may not be written, or None when it may.

    `message` is the user's text the candidate came from; empty (a tool call) skips the check
    that a reminder is bound to a short window in that text.
    """
    reason = drop_reason(candidate, settings.noise_key_patterns) or window_reminder_reason(candidate, message)
    if reason is not None:
        return Refusal("boundary", reason)
    floor = settings.LONG_TERM_MEMORY_MIN_CONFIDENCE
    if candidate.confidence < floor:
        return Refusal("confidence", f"below the confidence floor: {candidate.confidence:.2f} < {floor}")
    return None


def admit(
    candidates: list[Candidate],
    settings: Settings,
    *,
    stage: str,
    message_id: int | None = None,
    message: str = "",
) -> list[Candidate]:
    """The candidates that may be written, best first, at most LONG_TERM_MEMORY_MAX_WRITE_ITEMS."""
    return screen(candidates, settings, stage=stage, message_id=message_id, message=message).admitted


@dataclass(frozen=True)
class Screening:
    """What the gate made of a turn's candidates: those admitted (best first) and the drops with reasons."""

    admitted: list[Candidate]
    dropped: list[Outcome]


def screen(
    candidates: list[Candidate],
    settings: Settings,
    *,
    stage: str,
    message_id: int | None = None,
    message: str = "",
) -> Screening:
    """Judge a turn's candidates: refused ones and those over the write cap are dropped, with why.

    `message` is the user's text the candidates came from. Each dropped candidate is logged
    with its reason (its key, never its content).
    """
    admitted = []
    drops = []
    for candidate in candidates:
        refused = refusal(candidate, settings, message=message)
        if refused is None:
            admitted.append(candidate)
        else:
            _log_drop(candidate, refused.reason, stage, message_id)
            drops.append(dropped(candidate, refused.reason, stage))
    # Under the cap a retraction goes first, then a core memory (an allergy, a reply rule: R-READ-6),
    # then the rest by importance and confidence, so a long introduction never loses its allergy to a taste.
    admitted.sort(
        key=lambda c: (
            c.op == "delete",
            is_core_memory(c.memory_type, c.target_key, c.content),
            c.importance * c.confidence,
        ),
        reverse=True,
    )
    cap = settings.LONG_TERM_MEMORY_MAX_WRITE_ITEMS
    for candidate in admitted[cap:]:
        reason = f"over the write cap (LONG_TERM_MEMORY_MAX_WRITE_ITEMS={cap})"
        _log_drop(candidate, reason, stage, message_id)
        drops.append(dropped(candidate, reason, stage))
    return Screening(admitted[:cap], drops)


def _log_drop(candidate: Candidate, reason: str, stage: str, message_id: int | None) -> None:
    logger.info(
        "candidate dropped",
        extra={"stage": stage, "message_id": message_id, "key": candidate.key, "reason": reason},
    )
