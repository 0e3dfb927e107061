"""vector sync backoff (attempts, next attempt) and forget-user tombstones

Revision ID: 0005
Revises: 0003
Create Date: 2026-12-01 10:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
# The lead re-chains this onto the last migration merged before it.
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("long_term_memories", sa.Column("vector_attempts", sa.Integer(), server_default="0", nullable=False))
    op.add_column("long_term_memories", sa.Column("vector_next_attempt_at", sa.DateTime(timezone=True)))
    op.create_table(
        "forgotten_users",
        sa.Column("user_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("forgotten_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.Column("vectors_purged_at", sa.DateTime(timezone=True)),
        sa.Column("purge_attempts", sa.Integer(), server_default="0", nullable=False),
        sa.Column("purge_error", sa.Text()),
        sa.Column("purge_attempted_at", sa.DateTime(timezone=True)),
        sa.PrimaryKeyConstraint("user_id"),
    )


def downgrade() -> None:
    op.drop_table("forgotten_users")
    op.drop_column("long_term_memories", "vector_next_attempt_at")
    op.drop_column("long_term_memories", "vector_attempts")
