"""The last check before anything is written: hard filters, confidence floor, per-turn cap.

Applies to every engine's output (R-TYPE-3/4, R-PIPE-3), so a misbehaving LLM cannot
store a noise key, a profile field or a short-term reminder.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass, field

from config.settings import Settings
from memory_tasks.extraction.candidates import Candidate
from memory_tasks.extraction.filters import drop_reason, window_reminder_reason

logger = logging.getLogger(__name__)


@dataclass
class GateResult:
    admitted: list[Candidate]
    drops: Counter[str] = field(default_factory=Counter)


def admit(
    candidates: list[Candidate],
    settings: Settings,
    *,
    stage: str,
    message_id: int | None = None,
    message: str = "",
) -> GateResult:
    """The candidates that may be written, best first, at most LONG_TERM_MEMORY_MAX_WRITE_ITEMS.

    `message` is the user's text the candidates came from (empty for tool calls). Each
    dropped candidate is logged with its reason and counted in `drops`.
    """
    result = GateResult(admitted=[])
    patterns = settings.noise_key_patterns
    for candidate in candidates:
        reason = drop_reason(candidate, patterns) or window_reminder_reason(candidate, message)
        if reason is None and candidate.confidence < settings.LONG_TERM_MEMORY_MIN_CONFIDENCE:
            reason = f"confidence {candidate.confidence:.2f} below {settings.LONG_TERM_MEMORY_MIN_CONFIDENCE}"
        if reason is None:
            result.admitted.append(candidate)
            continue
        result.drops[reason.split(":", 1)[0]] += 1
        logger.info(
            "candidate dropped",
            extra={"stage": stage, "message_id": message_id, "key": candidate.key, "reason": reason},
        )
    result.admitted.sort(key=lambda c: (c.op == "delete", c.importance * c.confidence), reverse=True)
    overflow = result.admitted[settings.LONG_TERM_MEMORY_MAX_WRITE_ITEMS :]
    for candidate in overflow:
        result.drops["max write items"] += 1
        logger.info(
            "candidate dropped",
            extra={"stage": stage, "message_id": message_id, "key": candidate.key, "reason": "max write items"},
        )
    del result.admitted[settings.LONG_TERM_MEMORY_MAX_WRITE_ITEMS :]
    return result
