"""A question naming a period ranks what the user said then (issue 13.5, R-READ-2): real PostgreSQL, a real
Milvus server, memories written through the write model with the time of the message that stated them."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memory_tasks.extraction.candidates import Candidate
from memory_tasks.retrieval import retrieve
from memory_tasks.vectors.milvus_store import get_store
from tests.helpers import write_indexed

pytestmark = [pytest.mark.slow]

USER = 1307
TRIPS = [
    ("trip-kyoto", "Travelled to Kyoto for a week", datetime(2024, 3, 10, 9, tzinfo=UTC)),
    ("trip-lisbon", "Travelled to Lisbon with friends", datetime(2024, 7, 2, 20, tzinfo=UTC)),
    ("trip-chengdu", "Travelled to Chengdu for the food", datetime(2023, 11, 20, 12, tzinfo=UTC)),
    ("trip-oslo", "Travelled to Oslo in the snow", datetime(2024, 1, 15, 8, tzinfo=UTC)),
]


@pytest.fixture
def traveller(db, milvus_env, monkeypatch: pytest.MonkeyPatch) -> None:
    from memory_tasks.celery_app import app

    monkeypatch.setattr(app, "send_task", lambda *args, **kwargs: None)  # no access-stats worker here
    write_indexed(USER, [(Candidate("upsert", "fact", key, content), said) for key, content, said in TRIPS])
    yield
    get_store.cache_clear()


@pytest.mark.parametrize(
    ("question", "key"),
    [
        ("Where did I travel in March 2024?", "trip-kyoto"),
        ("Where did I travel on July 1, 2024?", "trip-lisbon"),
        ("我2023年11月去哪里旅行了？", "trip-chengdu"),
        ("Where did I travel in January?", "trip-oslo"),
    ],
)
def test_the_memory_stated_in_the_period_asked_about_ranks_first(traveller, question: str, key: str) -> None:
    """Issue 13.5: the trip stated in (or within a week after) the named day, month or year comes first."""
    hits = retrieve(USER, question, mode="dense")
    assert hits[0].memory_key == key, [(h.memory_key, h.why) for h in hits]
    assert hits[0].why["period"] > 0 and hits[0].to_json()["stated_at"].startswith(
        next(said for k, _, said in TRIPS if k == key).date().isoformat()
    )
    assert all("period" not in h.why for h in hits[1:])
