"""The llm queue's threads pool (issue 12 item 2): the stages run side by side in one process, correctly."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from memory_tasks.api import enqueue_turn, list_memories, record_turn, wait_for_message

pytestmark = [pytest.mark.slow]

TURNS = {
    8401: ("我住在北京", "北京"),
    8402: ("我喜欢吃川菜", "川菜"),
    8403: ("I work as a nurse", "nurse"),
    8404: ("我对花生过敏", "花生"),
    8405: ("我正在开发PAI项目", "PAI"),
    8406: ("I have a cat", "cat"),
    8407: ("我的目标是年底前考过N1", "N1"),
    8408: ("我喜欢听爵士乐", "爵士"),
}


def test_a_threads_pool_worker_takes_turns_of_many_users_to_synced_memories(start_worker, db) -> None:
    """Issue 12 item 2: 8 users' turns at once on `-P threads -c 8` (the Procfile's llm worker; refine
    embeds with the local model from several threads) each end PROCESSED with their own SYNCED memory."""
    start_worker(concurrency=8, pool="threads")
    message_ids = {user_id: record_turn(user_id, text) for user_id, (text, _) in TURNS.items()}
    with ThreadPoolExecutor(len(message_ids)) as sending:
        list(sending.map(lambda message_id: enqueue_turn(message_id, countdown=0), message_ids.values()))
    for user_id, message_id in message_ids.items():
        state = wait_for_message(message_id, 120)
        assert state["status"] == "PROCESSED" and state["memory_ids"], state
        memories = list_memories(user_id)
        assert len(memories) == 1 and TURNS[user_id][1] in memories[0]["content"], memories
        assert memories[0]["vector_status"] == "SYNCED"
