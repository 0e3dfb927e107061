"""The SQLAlchemy models are the schema the migrations build (R-DATA-4)."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from memory_tasks.db.models import Base
from memory_tasks.db.session import get_engine


def test_the_models_match_the_alembic_head(database: str) -> None:
    """R-DATA-4: autogenerate against a database migrated to head finds nothing to change, so a
    model edit without its migration (or the reverse) fails here."""
    with get_engine().connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True, "compare_server_default": True})
        assert compare_metadata(context, Base.metadata) == []
