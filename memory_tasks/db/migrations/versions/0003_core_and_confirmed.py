"""core memories and confirmation time

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01 09:40:00

`is_core` (R-READ-6) is filled in for existing rows with the classifier new writes use,
so memories stored before this revision are injected as core too. `last_confirmed_at`
(R-WRITE-3) starts empty: nothing was confirmed before this revision.
"""

import sqlalchemy as sa
from alembic import op

from memory_tasks.memories.core import is_core_memory

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

_BACKFILL_BATCH = 1000


def upgrade() -> None:
    op.add_column(
        "long_term_memories", sa.Column("is_core", sa.Boolean(), server_default=sa.text("false"), nullable=False)
    )
    op.add_column("long_term_memories", sa.Column("last_confirmed_at", sa.DateTime(timezone=True), nullable=True))
    op.create_index(
        "ix_ltm_user_core",
        "long_term_memories",
        ["user_id"],
        unique=False,
        postgresql_where=sa.text("is_active AND is_core"),
    )
    connection = op.get_bind()
    rows = connection.execute(sa.text("SELECT id, memory_type, memory_key, content FROM long_term_memories"))
    core_ids = [row.id for row in rows if is_core_memory(row.memory_type, row.memory_key, row.content)]
    for start in range(0, len(core_ids), _BACKFILL_BATCH):
        connection.execute(
            sa.text("UPDATE long_term_memories SET is_core = true WHERE id = ANY(:ids)"),
            {"ids": core_ids[start : start + _BACKFILL_BATCH]},
        )


def downgrade() -> None:
    op.drop_index(
        "ix_ltm_user_core", table_name="long_term_memories", postgresql_where=sa.text("is_active AND is_core")
    )
    op.drop_column("long_term_memories", "last_confirmed_at")
    op.drop_column("long_term_memories", "is_core")
