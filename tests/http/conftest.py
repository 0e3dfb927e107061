"""The HTTP service in-process (FastAPI's TestClient) against the test database, with known tokens."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

CHAT_TOKEN = "chat-token-for-tests-0123456789"
OTHER_CHAT_TOKEN = "second-chat-token-for-tests-987"
ADMIN_TOKEN = "admin-token-for-tests-0123456789"
CHAT = {"Authorization": f"Bearer {CHAT_TOKEN}"}
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def make_app(**overrides: Any) -> FastAPI:
    from config.settings import Settings
    from memory_tasks.http import create_app

    values = {"MEMORY_API_TOKENS": f"{CHAT_TOKEN},{OTHER_CHAT_TOKEN}", "MEMORY_API_ADMIN_TOKEN": ADMIN_TOKEN}
    return create_app(Settings(**{**values, **overrides}))


@pytest.fixture(scope="session")
def app() -> FastAPI:
    return make_app()


@pytest.fixture
def client(app: FastAPI, db: str, broker_flushed: None) -> Iterator[TestClient]:
    """A client of the app on an emptied database (tasks it enqueues stay in this run's broker keys)."""
    with TestClient(app, base_url="http://127.0.0.1") as test_client:
        yield test_client
