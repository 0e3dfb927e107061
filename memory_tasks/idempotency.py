"""Idempotency keys for recording turns: a retried POST /v1/turns returns the first message.

Stored in PostgreSQL (`idempotency_keys`), not Redis: the key must be as durable as the
message it points to (Redis is only the broker here and may be flushed), it goes with
the message when a user is forgotten (foreign key, ON DELETE CASCADE), and the check and
the record are serialized by an advisory lock, so two concurrent retries record one turn.

A key is honoured for IDEMPOTENCY_TTL; after that it may name a new turn. The one gap:
a crash after the turn is committed and before its key is leaves the turn without a key,
and a retry then records it again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.dialects.postgresql import insert as pg_insert

from memory_tasks.db.clock import db_now
from memory_tasks.db.models import IdempotencyKey
from memory_tasks.db.session import session_scope

IDEMPOTENCY_TTL = timedelta(hours=24)
# First int of the two-int advisory lock: the namespace of idempotency keys.
IDEMPOTENCY_LOCK_NAMESPACE = 7_240_002


class IdempotencyConflict(ValueError):
    """The key was already used, within its lifetime, for a different request."""


@dataclass(frozen=True)
class Outcome:
    """The message the key names, and whether this call found it (True) or recorded it (False)."""

    message_id: int
    replayed: bool


def request_fingerprint(request: dict[str, Any]) -> str:
    """A hash of the request's fields, to tell a retry from another request under the same key."""
    canonical = json.dumps(request, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def record_once(user_id: int, key: str, fingerprint: str, record: Callable[[], int]) -> Outcome:
    """Run `record` (which commits a turn and returns its message id) unless `key` already names one.

    Raises IdempotencyConflict when the key names a turn of another request; whatever
    `record` raises passes through, and then no key is stored.
    """
    with session_scope() as session:
        session.execute(
            select(func.pg_advisory_xact_lock(IDEMPOTENCY_LOCK_NAMESPACE, func.hashtext(f"{user_id}:{key}")))
        )
        now = db_now(session)
        known = session.get(IdempotencyKey, (user_id, key))
        if known is not None and known.created_at > now - IDEMPOTENCY_TTL:
            if known.request_hash != fingerprint:
                raise IdempotencyConflict("this Idempotency-Key was already used for a different turn")
            return Outcome(known.message_id, replayed=True)
        message_id = record()
        session.execute(
            delete(IdempotencyKey).where(
                IdempotencyKey.user_id == user_id, IdempotencyKey.created_at <= now - IDEMPOTENCY_TTL
            )
        )
        stmt = pg_insert(IdempotencyKey).values(
            user_id=user_id, key=key, request_hash=fingerprint, message_id=message_id, created_at=now
        )
        session.execute(
            stmt.on_conflict_do_update(
                index_elements=[IdempotencyKey.user_id, IdempotencyKey.key],
                set_={"request_hash": fingerprint, "message_id": message_id, "created_at": now},
            )
        )
        return Outcome(message_id, replayed=False)
