"""memory_history: the words a confirmation was stated in

A confirm row keeps the memory's text as both old and new content (R-WRITE-3: no content
change), so the wording the user confirmed it in was lost. The write model needs it: a memory
told again in words it was already told in is a repeat, whatever order the repeats come in
(issue 13.1, `store.apply_candidate`). Null on every other row, whose new content is what
was stated. Adding a nullable column rewrites nothing.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-05 21:40:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("memory_history", sa.Column("stated_content", sa.String(1000)))


def downgrade() -> None:
    op.drop_column("memory_history", "stated_content")
