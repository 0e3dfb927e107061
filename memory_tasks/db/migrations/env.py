"""Alembic environment: the URL comes from config (DATABASE_URL), never from alembic.ini."""

from alembic import context

from config.settings import get_settings
from memory_tasks.db.models import Base
from memory_tasks.db.session import get_engine

target_metadata = Base.metadata


def run_migrations_online() -> None:
    connection = context.config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()
        return
    with get_engine().connect() as connection:
        # A migration may rewrite a large table: the sessions' statement_timeout is not for it.
        connection.exec_driver_sql("SET statement_timeout = 0")
        connection.commit()
        context.configure(connection=connection, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()


def run_migrations_offline() -> None:
    context.configure(url=get_settings().DATABASE_URL, target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
