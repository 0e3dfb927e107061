"""long_term_memories: when the vector audit last checked a SYNCED row against Milvus

Milvus 2.3 can lose an acknowledged delete (around a compaction or a restart), leaving a
SYNCED row whose vector in Milvus is not the one PostgreSQL records. The index sweep checks a
batch of SYNCED rows per run (`vectors/audit.py`), the never-checked first, then the longest
unchecked: `vector_checked_at` orders them and the partial index serves both lookups. Built
concurrently: writers of memories are not blocked while it is built on a live table.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-05 02:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("long_term_memories", sa.Column("vector_checked_at", sa.DateTime(timezone=True)))
    with op.get_context().autocommit_block():
        op.create_index(
            "ix_ltm_vector_audit",
            "long_term_memories",
            ["vector_checked_at"],
            postgresql_where=sa.text("vector_status = 'SYNCED'"),
            postgresql_concurrently=True,
            if_not_exists=True,
        )


def downgrade() -> None:
    with op.get_context().autocommit_block():
        op.drop_index("ix_ltm_vector_audit", "long_term_memories", postgresql_concurrently=True, if_exists=True)
    op.drop_column("long_term_memories", "vector_checked_at")
