"""messages: a partial index on the extraction run holding a turn

Every stage of a window looks its turns up by `memory_window_run` (`pipeline._window_of`,
`windows.claim_window`, a failure's marking): without an index each lookup read the whole
messages table (90 ms at 1M messages, four times per window and stage). Only turns held right
now have a run (a finished or failed turn gives it up), so the index stays small. Built
concurrently: writers of messages are not blocked while it is built on a live table.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03 13:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.get_context().autocommit_block():
        op.create_index(
            "ix_messages_window_run",
            "messages",
            ["memory_window_run"],
            postgresql_where=sa.text("memory_window_run IS NOT NULL"),
            postgresql_concurrently=True,
            if_not_exists=True,
        )


def downgrade() -> None:
    with op.get_context().autocommit_block():
        op.drop_index("ix_messages_window_run", "messages", postgresql_concurrently=True, if_exists=True)
