"""The relevance floor of dense retrieval (issue 17 item 3): real PostgreSQL, a real Milvus server.

Rescaled similarity gives the best candidate of any question 1.0, so without a floor every
question injects RETRIEVE_LIMIT memories however unrelated. With the floor only memories whose
raw cosine or token overlap clears it join the core block; a question unrelated to everything
the user said gets the core block alone.
"""

from __future__ import annotations

import pytest

from config.settings import get_settings
from memory_tasks.extraction.candidates import Candidate
from memory_tasks.retrieval import retrieve
from memory_tasks.vectors.milvus_store import get_store
from tests.helpers import write_indexed

pytestmark = [pytest.mark.slow]

USER = 1302
MEMORIES = [
    ("constraint", "reply-language", "以后回复尽量用中文"),
    ("fact", "family-children", "女儿在学钢琴，名字叫小雨"),
    ("preference", "drink-green-tea", "改喝绿茶了"),
    ("fact", "residence-city", "住在深圳"),
    ("fact", "occupation", "在一家互联网公司做产品经理"),
    ("preference", "sport-running", "喜欢晨跑，每周三次"),
    ("preference", "preference-sci-fi-novels", "Enjoys science fiction novels"),
    ("fact", "pet-cat", "Has a cat named Mochi"),
]
UNRELATED = ["量子计算机的原理是什么？", "How far is the Moon from the Earth?", "法国大革命是哪一年爆发的？"]


@pytest.fixture
def user_with_memories(db, milvus_env, monkeypatch: pytest.MonkeyPatch) -> None:
    from memory_tasks.celery_app import app

    monkeypatch.setattr(app, "send_task", lambda *args, **kwargs: None)  # no access-stats worker here
    write_indexed(USER, [Candidate("upsert", memory_type, key, content) for memory_type, key, content in MEMORIES])
    yield
    get_store.cache_clear()


def test_only_relevant_memories_join_the_core_block(user_with_memories, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 17 item 3: unrelated questions inject only the core block; related ones still find their
    memory, the daughter's piano ranks above the green tea; hits show raw cosine and overlap."""
    for question in UNRELATED:
        hits = retrieve(USER, question, mode="dense")
        assert [hit.memory_key for hit in hits] == ["reply-language"], (question, [h.raw for h in hits])

    keys = [hit.memory_key for hit in retrieve(USER, "我周末带女儿去做什么？", mode="dense")]
    assert "family-children" in keys
    assert "drink-green-tea" not in keys or keys.index("family-children") < keys.index("drink-green-tea")

    for question, key in [("我住在哪个城市？", "residence-city"), ("What is my cat called?", "pet-cat")]:
        hits = retrieve(USER, question, mode="dense")
        assert key in [hit.memory_key for hit in hits], question
        found = next(hit for hit in hits if hit.memory_key == key)
        assert set(found.raw) == {"cosine", "bm25", "overlap"} and 0 < found.raw["cosine"] <= 1
        assert found.to_json()["raw"] == found.raw and "similarity" in found.why

    # Without the floor every question fills the limit, however unrelated.
    monkeypatch.setenv("LONG_TERM_MEMORY_RELEVANCE_MIN_COSINE", "0")
    monkeypatch.setenv("LONG_TERM_MEMORY_RELEVANCE_MIN_OVERLAP", "0")
    get_settings.cache_clear()
    try:
        assert len(retrieve(USER, UNRELATED[0], mode="dense")) == get_settings().LONG_TERM_MEMORY_RETRIEVE_LIMIT
    finally:
        get_settings.cache_clear()
