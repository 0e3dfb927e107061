"""conversation ids: give back a sequence exhausted by a given id of 2**31 - 1

Before 0008, a turn naming its own conversation id moved the conversations' sequence past the largest id in
use; one turn naming 2147483647 left it at its maximum, and every turn of a user without a conversation failed
from then on. The sequence goes back to the end of the first run of ids in use (new conversations skip the
ids in use since `turns._new_conversation`); an id freed by a forgotten user below it may be given again.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02 16:40:00
"""

from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        "SELECT setval(pg_get_serial_sequence('conversations', 'id'), "
        "COALESCE((SELECT min(taken.id) FROM conversations AS taken WHERE NOT EXISTS "
        "(SELECT 1 FROM conversations AS next WHERE next.id = taken.id::bigint + 1)), 1)) "
        "WHERE (SELECT last_value FROM conversations_id_seq) = 2147483647"
    )


def downgrade() -> None:
    """Nothing to undo: the sequence's value is not part of the schema."""
