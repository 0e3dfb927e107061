"""Statements that cannot run inside a transaction (CREATE / DROP DATABASE), for tests and benchmarks."""

from __future__ import annotations

import psycopg2


def execute_autocommit(dsn: str, sql: str) -> None:
    """Run one statement on `dsn` (a libpq URL) outside any transaction."""
    connection = psycopg2.connect(dsn)
    connection.autocommit = True
    try:
        with connection.cursor() as cursor:
            cursor.execute(sql)
    finally:
        connection.close()
