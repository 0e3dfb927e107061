"""initial schema

Revision ID: 0001
Revises:
Create Date: 2026-11-29 12:49:25.261585
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "embedding_cache",
        sa.Column("model", sa.String(length=120), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("text_hash", sa.String(length=64), nullable=False),
        sa.Column("vector", postgresql.ARRAY(sa.REAL()), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.PrimaryKeyConstraint("model", "version", "text_hash"),
    )
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("name", sa.String(length=200), nullable=True),
        sa.Column("last_consolidated_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "conversations",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("title", sa.String(length=200), nullable=True),
        sa.Column("summary", sa.Text(), server_default="", nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_conversations_user_id"), "conversations", ["user_id"], unique=False)
    op.create_table(
        "messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("conversation_id", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(length=20), nullable=False),
        sa.Column("content", sa.Text(), nullable=False),
        sa.Column("memory_status", sa.String(length=20), server_default="PENDING", nullable=False),
        sa.Column("memory_attempts", sa.Integer(), server_default="0", nullable=False),
        sa.Column("memory_error", sa.Text(), nullable=True),
        sa.Column("memory_claimed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("memory_processed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.ForeignKeyConstraint(["conversation_id"], ["conversations.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_messages_conversation_created", "messages", ["conversation_id", "created_at"], unique=False)
    op.create_index(
        "ix_messages_failed",
        "messages",
        ["updated_at"],
        unique=False,
        postgresql_where=sa.text("memory_status = 'FAILED'"),
    )
    op.create_index(
        "ix_messages_pending",
        "messages",
        ["created_at"],
        unique=False,
        postgresql_where=sa.text("memory_status = 'PENDING' AND role = 'user'"),
    )
    op.create_index("ix_messages_user", "messages", ["user_id"], unique=False)
    op.create_table(
        "long_term_memories",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("conversation_id", sa.Integer(), nullable=True),
        sa.Column("source_message_id", sa.Integer(), nullable=True),
        sa.Column("memory_key", sa.String(length=160), nullable=False),
        sa.Column("memory_type", sa.String(length=40), server_default="fact", nullable=False),
        sa.Column("content", sa.String(length=1000), server_default="", nullable=False),
        sa.Column("importance", sa.Integer(), server_default="3", nullable=False),
        sa.Column("confidence", sa.Float(), server_default="0.8", nullable=False),
        sa.Column("is_active", sa.Boolean(), server_default=sa.text("true"), nullable=False),
        sa.Column("last_accessed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("access_count", sa.Integer(), server_default="0", nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("source", sa.String(length=20), server_default="extraction", nullable=False),
        sa.Column("merged_into_id", sa.Integer(), nullable=True),
        sa.Column("revision", sa.Integer(), server_default="1", nullable=False),
        sa.Column("stated_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("vector_status", sa.String(length=20), server_default="DIRTY", nullable=False),
        sa.Column("vector_synced_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("vector_error", sa.Text(), nullable=True),
        sa.Column("vector_model", sa.String(length=120), nullable=True),
        sa.Column("vector_version", sa.Integer(), nullable=True),
        sa.Column("vector_text_hash", sa.String(length=64), nullable=True),
        sa.Column("vector_claimed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.ForeignKeyConstraint(["conversation_id"], ["conversations.id"], ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["merged_into_id"], ["long_term_memories.id"], ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["source_message_id"], ["messages.id"], ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("user_id", "memory_key", name="uq_long_term_memories_user_key"),
    )
    op.create_index(
        "ix_ltm_expires",
        "long_term_memories",
        ["expires_at"],
        unique=False,
        postgresql_where=sa.text("is_active AND expires_at IS NOT NULL"),
    )
    op.create_index(
        "ix_ltm_user_active", "long_term_memories", ["user_id"], unique=False, postgresql_where=sa.text("is_active")
    )
    op.create_index(
        "ix_ltm_vector_pending",
        "long_term_memories",
        ["updated_at"],
        unique=False,
        postgresql_where=sa.text("vector_status IN ('DIRTY', 'FAILED')"),
    )
    op.create_table(
        "memory_history",
        sa.Column("id", sa.BigInteger(), nullable=False),
        sa.Column("memory_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("op", sa.String(length=20), nullable=False),
        sa.Column("source", sa.String(length=20), nullable=False),
        sa.Column("source_message_id", sa.Integer(), nullable=True),
        sa.Column("memory_key", sa.String(length=160), nullable=False),
        sa.Column("old_content", sa.String(length=1000), nullable=True),
        sa.Column("new_content", sa.String(length=1000), nullable=True),
        sa.Column("detail", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.ForeignKeyConstraint(["memory_id"], ["long_term_memories.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["source_message_id"], ["messages.id"], ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_memory_history_memory_id"), "memory_history", ["memory_id"], unique=False)
    op.create_index(op.f("ix_memory_history_source_message_id"), "memory_history", ["source_message_id"], unique=False)
    op.create_index(op.f("ix_memory_history_user_id"), "memory_history", ["user_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_memory_history_user_id"), table_name="memory_history")
    op.drop_index(op.f("ix_memory_history_source_message_id"), table_name="memory_history")
    op.drop_index(op.f("ix_memory_history_memory_id"), table_name="memory_history")
    op.drop_table("memory_history")
    op.drop_index(
        "ix_ltm_vector_pending",
        table_name="long_term_memories",
        postgresql_where=sa.text("vector_status IN ('DIRTY', 'FAILED')"),
    )
    op.drop_index("ix_ltm_user_active", table_name="long_term_memories", postgresql_where=sa.text("is_active"))
    op.drop_index(
        "ix_ltm_expires",
        table_name="long_term_memories",
        postgresql_where=sa.text("is_active AND expires_at IS NOT NULL"),
    )
    op.drop_table("long_term_memories")
    op.drop_index("ix_messages_user", table_name="messages")
    op.drop_index(
        "ix_messages_pending",
        table_name="messages",
        postgresql_where=sa.text("memory_status = 'PENDING' AND role = 'user'"),
    )
    op.drop_index("ix_messages_failed", table_name="messages", postgresql_where=sa.text("memory_status = 'FAILED'"))
    op.drop_index("ix_messages_conversation_created", table_name="messages")
    op.drop_table("messages")
    op.drop_index(op.f("ix_conversations_user_id"), table_name="conversations")
    op.drop_table("conversations")
    op.drop_table("users")
    op.drop_table("embedding_cache")
