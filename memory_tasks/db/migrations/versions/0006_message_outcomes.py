"""messages.memory_outcomes: what happened to each candidate of a turn (issue 17 item 2)

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01 12:00:00
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("messages", sa.Column("memory_outcomes", postgresql.JSONB()))


def downgrade() -> None:
    op.drop_column("messages", "memory_outcomes")
