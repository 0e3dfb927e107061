"""core memories and confirmation time

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01 09:40:00

`is_core` (R-READ-6) starts false; `init-db` then marks the existing rows with the classifier
new writes use (`memories.store.mark_core_memories`), so memories stored before this
revision are injected as core too. A migration stays schema-only: db/ imports nothing above it. `last_confirmed_at`
(R-WRITE-3) starts empty: nothing was confirmed before this revision.
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


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


def downgrade() -> None:
    op.drop_index(
        "ix_ltm_user_core", table_name="long_term_memories", postgresql_where=sa.text("is_active AND is_core")
    )
    op.drop_column("long_term_memories", "last_confirmed_at")
    op.drop_column("long_term_memories", "is_core")
