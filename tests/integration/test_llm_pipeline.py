"""The LLM engine through the real worker and the real `openai` client, against a local fake server.

What an adversarial or broken model returns must never be stored (R-TYPE-3/4, R-PIPE-8/9/10).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import func, select

from memory_tasks.api import list_memories
from memory_tasks.db.models import LongTermMemory
from memory_tasks.db.session import session_scope
from tests.fake_openai import FakeOpenAI, Reply, as_json, error, text
from tests.helpers import ingest

pytestmark = [pytest.mark.slow]


def _is_refine(body: dict) -> bool:
    return "decisions" in body["messages"][0]["content"]


def _keep_all(body: dict) -> Reply:
    """Refine keeps every candidate; extract proposes nothing unless scripted."""
    return as_json({"decisions": []}) if _is_refine(body) else as_json({"candidates": []})


@pytest.fixture(scope="module")
def llm() -> Iterator[FakeOpenAI]:
    server = FakeOpenAI(default=_keep_all).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def llm_worker(llm: FakeOpenAI, database, broker_flushed, milvus_server, tmp_path_factory):
    from tests.conftest import WorkerProcess

    worker = WorkerProcess(
        {
            "OPENAI_BASE_URL": llm.base_url,
            "OPENAI_API_KEY": "sk-test-not-a-secret",
            "LONG_TERM_MEMORY_EXTRACT_TIMEOUT_SEC": "3",
        },
        tmp_path_factory.mktemp("llm_worker") / "worker.log",
    )
    worker.wait_ready()
    yield worker
    worker.stop()


@pytest.fixture
def fake(llm: FakeOpenAI, llm_worker, db) -> FakeOpenAI:
    llm.requests.clear()
    llm.default = _keep_all
    return llm


def _memory_rows(user_id: int) -> int:
    with session_scope() as session:
        return session.scalar(select(func.count()).where(LongTermMemory.user_id == user_id))


def test_adversarial_candidates_are_dropped_and_the_good_one_kept(fake: FakeOpenAI) -> None:
    """R-TYPE-3/4: noise keys, profile fields and short-term reminders never reach the table."""
    fake.script(
        as_json(
            {
                "candidates": [
                    {
                        "op": "upsert",
                        "memory_type": "fact",
                        "key": "weather-date_2026-11-29",
                        "content": "北京 多云 3℃",
                        "confidence": 0.9,
                    },
                    {
                        "op": "upsert",
                        "memory_type": "fact",
                        "key": "tool-list",
                        "content": "当前可用工具: search, calc",
                        "confidence": 0.9,
                    },
                    {
                        "op": "upsert",
                        "memory_type": "profile",
                        "key": "nickname",
                        "content": "叫我小王",
                        "confidence": 0.95,
                    },
                    {
                        "op": "upsert",
                        "memory_type": "preference",
                        "key": "ai-name",
                        "content": "AI 叫小助",
                        "confidence": 0.95,
                    },
                    {
                        "op": "upsert",
                        "memory_type": "constraint",
                        "key": "meeting-reminder",
                        "content": "提醒用户开会",
                        "confidence": 0.9,
                    },
                    {
                        "op": "upsert",
                        "memory_type": "fact",
                        "key": "finance-monthly_2026_11",
                        "content": "本月支出 3200 元",
                        "confidence": 0.9,
                    },
                    {
                        "op": "upsert",
                        "memory_type": "fact",
                        "key": "residence-city",
                        "content": "12345",
                        "confidence": 0.9,
                    },
                    {
                        "op": "upsert",
                        "memory_type": "preference",
                        "key": "food-sichuan-cuisine",
                        "content": "喜欢吃川菜",
                        "confidence": 0.9,
                    },
                    {
                        "op": "upsert",
                        "memory_type": "preference",
                        "key": "drink-coffee",
                        "content": "喜欢咖啡",
                        "confidence": 0.4,
                    },
                ]
            }
        )
    )
    state = ingest(801, "明天提醒我开会。对了我喜欢吃川菜，叫我小王")
    assert state["status"] == "PROCESSED", state
    assert [m["memory_key"] for m in list_memories(801)] == ["food-sichuan-cuisine"]
    assert _memory_rows(801) == 1


def test_malformed_output_fails_the_message_with_the_raw_text_and_writes_nothing(fake: FakeOpenAI) -> None:
    """R-PIPE-9: unusable output fails the stage; the raw text is kept for diagnosis."""
    fake.script(text("Sure! Here are the memories: {candidates: [oops"))
    state = ingest(802, "I live in Berlin and love hiking")
    assert state["status"] == "FAILED"
    assert "oops" in state["error"]
    assert _memory_rows(802) == 0


def test_rate_limit_then_success_is_retried(fake: FakeOpenAI) -> None:
    """R-PIPE-10: a 429 is transient; the stage retries and the message is processed."""
    fake.script(
        error(429, "slow down"),
        as_json(
            {
                "candidates": [
                    {
                        "op": "upsert",
                        "memory_type": "fact",
                        "key": "residence-city",
                        "content": "Lives in Berlin",
                        "confidence": 0.9,
                    }
                ]
            }
        ),
    )
    state = ingest(803, "I live in Berlin", timeout=90)
    assert state["status"] == "PROCESSED", state
    assert [m["content"] for m in list_memories(803)] == ["Lives in Berlin"]


def test_slow_model_past_the_timeout_is_retried(fake: FakeOpenAI) -> None:
    """R-PIPE-10: LONG_TERM_MEMORY_EXTRACT_TIMEOUT_SEC bounds a call; a timeout is retried."""
    fake.script(
        text('{"candidates": []}', delay=6),
        as_json(
            {
                "candidates": [
                    {
                        "op": "upsert",
                        "memory_type": "goal",
                        "key": "goal-jlpt-n1",
                        "content": "年底前考过 N1",
                        "confidence": 0.9,
                    }
                ]
            }
        ),
    )
    state = ingest(804, "我的目标是年底前考过N1", timeout=120)
    assert state["status"] == "PROCESSED", state
    assert [m["memory_key"] for m in list_memories(804)] == ["goal-jlpt-n1"]


def test_unauthorized_fails_fast_without_leaking_the_key(fake: FakeOpenAI) -> None:
    """R-PIPE-10, R-OPS-4: a 401 is permanent: FAILED at once, the API key not in the error."""
    fake.script(error(401, "invalid api key sk-test-not-a-secret"))
    state = ingest(805, "I work as a nurse", timeout=60)
    assert state["status"] == "FAILED"
    assert "sk-test-not-a-secret" not in state["error"]
    assert state["attempts"] == 1


def test_trivial_message_makes_no_call_and_no_candidates_make_no_refine_call(fake: FakeOpenAI) -> None:
    """R-PIPE-8: 好的 is SKIPPED unread; an empty extraction is PROCESSED without refine."""
    assert ingest(806, "好的")["status"] == "SKIPPED"
    assert fake.requests == []
    assert ingest(806, "今天天气真不错啊，出去走走")["status"] == "PROCESSED"
    assert len(fake.requests) == 1 and not _is_refine(fake.requests[0])


def test_model_cannot_write_to_another_user(fake: FakeOpenAI) -> None:
    """R-SAFE-3: whatever the model says, memories land on the message's own user."""
    fake.script(
        as_json(
            {
                "candidates": [
                    {
                        "op": "upsert",
                        "memory_type": "fact",
                        "key": "occupation",
                        "content": "Is a pilot",
                        "confidence": 0.9,
                        "user_id": 1,
                        "memory_user_id": 1,
                    }
                ]
            }
        )
    )
    assert ingest(807, "I am a pilot")["status"] == "PROCESSED"
    assert [m["memory_key"] for m in list_memories(807)] == ["occupation"]
    assert list_memories(1) == []
