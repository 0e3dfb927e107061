"""A retraction or a forget request reaches the memory it names, whatever its key (issue 17 item 1):
a memory written by the agent's tool under its own key, then the user's turn through the real worker."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from memory_tasks.db.models import LongTermMemory
from memory_tasks.db.session import session_scope
from memory_tasks.tools import execute
from tests.helpers import ingest

pytestmark = [pytest.mark.slow]


def _rows(user_id: int) -> list[tuple[str, str, bool]]:
    """(key, content, active) of every row of the user, active or not."""
    with session_scope() as session:
        rows = session.execute(
            select(LongTermMemory.memory_key, LongTermMemory.content, LongTermMemory.is_active)
            .where(LongTermMemory.user_id == user_id)
            .order_by(LongTermMemory.id)
        )
        return [tuple(r) for r in rows]


@pytest.mark.parametrize(
    ("user_id", "key", "content", "turn"),
    [
        (7950, "ui-theme", "Prefers dark mode in every app", "I no longer use dark mode."),
        (7951, "drink-puer", "喜欢喝普洱茶", "请忘掉我喜欢普洱茶这件事。"),
        (7952, "hobby-board-games", "Likes board games", "Forget that I like board games."),
    ],
)
def test_the_named_memory_is_deactivated_and_no_new_row_is_written(
    worker, db, user_id: int, key: str, content: str, turn: str
) -> None:
    """Issue 17 item 1: "I no longer use dark mode." used to leave the original active and add an
    already inactive row `Noes longer use dark mode`; now the original is deactivated, nothing added."""
    assert execute(user_id, "memory_save", {"key": key, "content": content, "memory_type": "preference"})["ok"]
    assert ingest(user_id, turn)["status"] == "PROCESSED"
    assert _rows(user_id) == [(key, content, False)]
