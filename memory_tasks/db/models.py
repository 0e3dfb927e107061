"""SQLAlchemy 2.0 typed models: the truth of users, turns and long-term memories (SPEC §2).

PostgreSQL is the only supported dialect. The schema is created by the Alembic
migration in `memory_tasks/db/migrations`, never by `create_all`.
"""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    func,
    text,
)
from sqlalchemy.dialects.postgresql import ARRAY, JSONB, REAL
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class MessageStatus(str, enum.Enum):
    PENDING = "PENDING"
    PROCESSED = "PROCESSED"
    FAILED = "FAILED"
    SKIPPED = "SKIPPED"
    # Used up LONG_TERM_MEMORY_MAX_ATTEMPTS on failures of its own: a dead letter, left
    # alone until an operator requeues it (`python -m memory_tasks requeue`).
    DEAD = "DEAD"


class VectorStatus(str, enum.Enum):
    DIRTY = "DIRTY"
    SYNCED = "SYNCED"
    FAILED = "FAILED"  # the sweep tries again after its backoff (vector_next_attempt_at)
    DEAD = "DEAD"  # failed on its own MEMORY_INDEX_MAX_ATTEMPTS times; the next edit (or reindex) revives it


class HistorySource(str, enum.Enum):
    TOOL = "tool"
    EXTRACTION = "extraction"
    CONSOLIDATE = "consolidate"
    EXPIRY = "expiry"
    # An operator or chat server through the HTTP API (PATCH/DELETE /v1/memories/{id}).
    API = "api"


def _now_default():
    return mapped_column(DateTime(timezone=True), nullable=False, server_default=func.now())


class User(Base):
    """A user of the chat server; the id is the chat server's own (never generated here)."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    name: Mapped[str | None] = mapped_column(String(200))
    # Consolidation runs for users whose memories changed after this time (R-LIFE-2).
    last_consolidated_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[datetime] = _now_default()


class Conversation(Base):
    __tablename__ = "conversations"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True)
    title: Mapped[str | None] = mapped_column(String(200))
    summary: Mapped[str] = mapped_column(Text, nullable=False, server_default="")
    created_at: Mapped[datetime] = _now_default()
    updated_at: Mapped[datetime] = _now_default()


class Message(Base):
    """One chat turn; user turns carry their memory-processing state (R-DATA-2)."""

    __tablename__ = "messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), nullable=False)
    conversation_id: Mapped[int] = mapped_column(ForeignKey("conversations.id", ondelete="CASCADE"), nullable=False)
    role: Mapped[str] = mapped_column(String(20), nullable=False)
    content: Mapped[str] = mapped_column(Text, nullable=False)
    memory_status: Mapped[str] = mapped_column(String(20), nullable=False, server_default=MessageStatus.PENDING.value)
    memory_attempts: Mapped[int] = mapped_column(Integer, nullable=False, server_default="0")
    memory_error: Mapped[str | None] = mapped_column(Text)
    # A lease: a rescan leaves a message alone while someone claimed it recently (R-BEAT-4).
    memory_claimed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # The extraction run (its task id) that took this turn into its debounce window; it holds
    # the turn while memory_claimed_at is within the lease (memory_tasks/db/windows.py).
    memory_window_run: Mapped[str | None] = mapped_column(String(64))
    memory_processed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # What happened to each candidate of the turn (issue 17 item 2): a JSON list of
    # `extraction.outcomes.Outcome.to_json()`; NULL until the pipeline finishes the turn.
    memory_outcomes: Mapped[list[dict] | None] = mapped_column(JSONB)
    created_at: Mapped[datetime] = _now_default()
    updated_at: Mapped[datetime] = _now_default()

    __table_args__ = (
        Index("ix_messages_conversation_created", "conversation_id", "created_at"),
        Index(
            "ix_messages_pending",
            "created_at",
            postgresql_where=text("memory_status = 'PENDING' AND role = 'user'"),
        ),
        Index("ix_messages_failed", "updated_at", postgresql_where=text("memory_status = 'FAILED'")),
        Index("ix_messages_user", "user_id"),
        # The turns a window holds, looked up by every stage of the window (migration 0009).
        Index(
            "ix_messages_window_run",
            "memory_window_run",
            postgresql_where=text("memory_window_run IS NOT NULL"),
        ),
    )


class LongTermMemory(Base):
    """A durable memory of one user: the seed's table plus revision/merge/access columns."""

    __tablename__ = "long_term_memories"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), nullable=False)
    conversation_id: Mapped[int | None] = mapped_column(ForeignKey("conversations.id", ondelete="SET NULL"))
    source_message_id: Mapped[int | None] = mapped_column(ForeignKey("messages.id", ondelete="SET NULL"))

    memory_key: Mapped[str] = mapped_column(String(160), nullable=False)
    memory_type: Mapped[str] = mapped_column(String(40), nullable=False, server_default="fact")
    content: Mapped[str] = mapped_column(String(1000), nullable=False, server_default="")
    importance: Mapped[int] = mapped_column(Integer, nullable=False, server_default="3")
    confidence: Mapped[float] = mapped_column(Float, nullable=False, server_default="0.8")

    is_active: Mapped[bool] = mapped_column(Boolean, nullable=False, server_default=text("true"))
    last_accessed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    access_count: Mapped[int] = mapped_column(Integer, nullable=False, server_default="0")
    expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    source: Mapped[str] = mapped_column(String(20), nullable=False, server_default=HistorySource.EXTRACTION.value)
    merged_into_id: Mapped[int | None] = mapped_column(ForeignKey("long_term_memories.id", ondelete="SET NULL"))
    # Bumped by every change; marking SYNCED is compare-and-set on it (R-VEC, issue 4).
    revision: Mapped[int] = mapped_column(Integer, nullable=False, server_default="1")
    # When the user said what the row now holds (the source message's time). A statement
    # older than this never overwrites it, so turns processed out of order (concurrent
    # workers, a late retry) end where processing them in order would (R-PIPE-7).
    stated_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # Injected before every reply whatever the question (R-READ-6): a standing constraint or
    # a safety fact, decided when the row is written (extraction/core.py).
    is_core: Mapped[bool] = mapped_column(Boolean, nullable=False, server_default=text("false"))
    # When the user last said again what the row holds (R-WRITE-3): a confirmation refreshes
    # the expiry and this time, never the text, the revision or the vector.
    last_confirmed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    vector_status: Mapped[str] = mapped_column(String(20), nullable=False, server_default=VectorStatus.DIRTY.value)
    vector_synced_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    vector_error: Mapped[str | None] = mapped_column(Text)
    vector_model: Mapped[str | None] = mapped_column(String(120))
    vector_version: Mapped[int | None] = mapped_column(Integer)
    vector_text_hash: Mapped[str | None] = mapped_column(String(64))
    vector_claimed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # Failures of this row's own sync (an outage does not count); the sweep leaves a FAILED
    # row alone until vector_next_attempt_at (issue 11, item 4).
    vector_attempts: Mapped[int] = mapped_column(Integer, nullable=False, server_default="0")
    vector_next_attempt_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # When the vector audit last found Milvus holding what this SYNCED row says it does; NULL:
    # not checked since its last sync (those are checked first). See vectors/audit.py.
    vector_checked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    created_at: Mapped[datetime] = _now_default()
    updated_at: Mapped[datetime] = _now_default()

    __table_args__ = (
        UniqueConstraint("user_id", "memory_key", name="uq_long_term_memories_user_key"),
        Index("ix_ltm_user_active", "user_id", postgresql_where=text("is_active")),
        Index(
            "ix_ltm_vector_pending",
            "updated_at",
            postgresql_where=text("vector_status IN ('DIRTY', 'FAILED')"),
        ),
        Index("ix_ltm_expires", "expires_at", postgresql_where=text("is_active AND expires_at IS NOT NULL")),
        Index("ix_ltm_user_core", "user_id", postgresql_where=text("is_active AND is_core")),
        # The vector audit's order: unchecked SYNCED rows, then the longest unchecked (migration 0010).
        Index("ix_ltm_vector_audit", "vector_checked_at", postgresql_where=text("vector_status = 'SYNCED'")),
    )


class MemoryHistory(Base):
    """Append-only record of every change to a memory (R-DATA-6)."""

    __tablename__ = "memory_history"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    memory_id: Mapped[int] = mapped_column(
        ForeignKey("long_term_memories.id", ondelete="CASCADE"), nullable=False, index=True
    )
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True)
    op: Mapped[str] = mapped_column(String(20), nullable=False)
    source: Mapped[str] = mapped_column(String(20), nullable=False)
    source_message_id: Mapped[int | None] = mapped_column(ForeignKey("messages.id", ondelete="SET NULL"), index=True)
    memory_key: Mapped[str] = mapped_column(String(160), nullable=False)
    old_content: Mapped[str | None] = mapped_column(String(1000))
    new_content: Mapped[str | None] = mapped_column(String(1000))
    # A confirmation's wording, when it differs from the text it confirmed (migration 0011).
    stated_content: Mapped[str | None] = mapped_column(String(1000))
    detail: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = _now_default()


class EmbeddingCache(Base):
    """Vectors by (model, version, text hash): one text is never embedded twice (R-VEC-2).

    It also lets dedup compare against memories written moments ago that are not yet
    in Milvus (R-PIPE-4), and the upsert_vectors stage read vectors without passing
    them through the broker.
    """

    __tablename__ = "embedding_cache"

    model: Mapped[str] = mapped_column(String(120), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    text_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    vector: Mapped[list[float]] = mapped_column(ARRAY(REAL), nullable=False)
    created_at: Mapped[datetime] = _now_default()


class IdempotencyKey(Base):
    """An `Idempotency-Key` of POST /v1/turns: a retried request returns the message the first one recorded.

    Keyed per user, so keys of different chat servers' users never collide; the row goes
    with its message (and so with a forgotten user). `request_hash` tells a retry (same
    body) from a key reused for another turn.
    """

    __tablename__ = "idempotency_keys"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    request_hash: Mapped[str] = mapped_column(String(64), nullable=False)
    message_id: Mapped[int] = mapped_column(ForeignKey("messages.id", ondelete="CASCADE"), nullable=False, index=True)
    created_at: Mapped[datetime] = _now_default()


class ForgottenUser(Base):
    """A tombstone left by forget-user (R-LIFE-3): the truth is gone, the vector purge may not be yet.

    While `vectors_purged_at` is NULL the purge task (memory.purge_user_vectors) is pending and
    index sync writes no vector for the user: a purge by user filter would otherwise remove
    the vectors of a user who came back meanwhile.
    """

    __tablename__ = "forgotten_users"

    user_id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    forgotten_at: Mapped[datetime] = _now_default()
    vectors_purged_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    purge_attempts: Mapped[int] = mapped_column(Integer, nullable=False, server_default="0")
    purge_error: Mapped[str | None] = mapped_column(Text)
    purge_attempted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
