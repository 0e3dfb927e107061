"""Run the Alembic migrations programmatically (CLI `init-db`, `make migrate`, tests)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

MIGRATIONS_DIR = Path(__file__).with_name("migrations")


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    return config


def upgrade_to_head() -> None:
    """Bring the database of DATABASE_URL to the newest schema (idempotent)."""
    command.upgrade(alembic_config(), "head")
