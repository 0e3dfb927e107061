"""A consolidation plan as plain data: what would happen to each of one user's memories.

Made by `planner`, shown by the CLI (`to_json`), applied by `apply`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

ActionKind = Literal["expire", "delete", "merge", "normalize", "keep"]
# Order of a plan's actions: what leaves first, so renames find their keys free.
ACTION_ORDER: tuple[ActionKind, ...] = ("expire", "delete", "merge", "normalize", "keep")
# Columns a normalize action may set on the surviving row.
REWRITABLE = ("memory_key", "memory_type", "content", "importance", "confidence", "expires_at", "updated_at")


@dataclass(frozen=True)
class Action:
    """The planned fate of one row.

    expire / delete deactivate it; merge deactivates it with a pointer to `into_id`, the
    row that carries its information on; normalize sets `changes` (column -> new value,
    only columns that change) on it; keep leaves it alone.
    """

    kind: ActionKind
    memory_id: int
    key: str
    reason: str = ""
    into_id: int | None = None
    changes: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"action": self.kind, "memory_id": self.memory_id, "key": self.key}
        if self.reason:
            data["reason"] = self.reason
        if self.into_id is not None:
            data["into_id"] = self.into_id
        if self.changes:
            data["changes"] = {name: _json_value(value) for name, value in self.changes.items()}
        return data


@dataclass(frozen=True)
class Plan:
    """Everything consolidation would do for one user, as of `now` (the snapshot's clock).

    `fingerprint` is (id, revision) of every active row the plan was made from; applying
    is refused when it no longer matches.
    """

    user_id: int
    engine: str
    now: datetime
    actions: tuple[Action, ...]
    fingerprint: tuple[tuple[int, int], ...]

    @property
    def changes(self) -> list[Action]:
        """The actions that change something (all but keep)."""
        return [action for action in self.actions if action.kind != "keep"]

    def counts(self) -> dict[str, int]:
        return {kind: sum(1 for a in self.actions if a.kind == kind) for kind in ACTION_ORDER}

    def to_json(self) -> dict[str, Any]:
        return {
            "user_id": self.user_id,
            "engine": self.engine,
            "now": self.now.isoformat(),
            "counts": self.counts(),
            "actions": [action.to_json() for action in self.actions],
        }


@dataclass(frozen=True)
class ConsolidationResult:
    """What `apply_plan` did: "applied" (with the ids of every row changed, for index sync)
    or "stale" (the user's memories changed since the snapshot; nothing was written)."""

    user_id: int
    status: Literal["applied", "stale"]
    changed_ids: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"user_id": self.user_id, "status": self.status, "changed_ids": list(self.changed_ids)}


def _json_value(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value
