"""debounce windows: the extraction run holding a message in its window

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01 12:40:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("messages", sa.Column("memory_window_run", sa.String(64)))


def downgrade() -> None:
    op.drop_column("messages", "memory_window_run")
