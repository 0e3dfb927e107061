"""The shape of the per-message chain on a real worker: where it ends, and what runs first (issue 12 item 2)."""

from __future__ import annotations

import time

import pytest

from memory_tasks.api import enqueue_turn, record_turn, wait_for_message
from memory_tasks.task_names import EXTRACT_CANDIDATES, UPSERT_MEMORIES
from tests import task_events
from tests.task_events import TaskLog

pytestmark = [pytest.mark.slow]

task_log = task_events.task_log


def _chain_tasks(log: TaskLog, root_id: str, settle_sec: float = 3.0) -> list[str]:
    """The names of the tasks of one chain, once no new one started for `settle_sec`."""
    seen = -1
    while True:
        names = [name for _, name, root in log.runs() if root == root_id]
        if len(names) == seen:
            return names
        seen = len(names)
        time.sleep(settle_sec)


@pytest.mark.parametrize(("text", "status"), [("今晚提醒我给妈妈打电话", "PROCESSED"), ("好的", "SKIPPED")])
def test_a_memoryless_turn_runs_exactly_one_task(worker, db, task_log: TaskLog, text: str, status: str) -> None:
    """Issue 12 item 2 (R-PIPE-8): a turn whose extraction yields nothing ends its chain after that one task."""
    user_id = 8101 if status == "PROCESSED" else 8102
    before = {uuid for _, _, uuid in task_log.runs()}
    message_id = record_turn(user_id, text)
    enqueue_turn(message_id, countdown=0)
    assert wait_for_message(message_id, 30)["status"] == status
    roots = {root for _, _, root in task_log.runs()} - before
    assert len(roots) == 1
    assert _chain_tasks(task_log, roots.pop()) == [EXTRACT_CANDIDATES]


def test_a_turn_with_a_memory_still_runs_the_whole_chain_to_synced(worker, db, task_log: TaskLog) -> None:
    """Issue 12 item 2, R-PIPE-1: a statement still goes extract -> refine -> upsert -> embed -> upsert_vectors."""
    message_id = record_turn(8103, "我住在成都")
    enqueue_turn(message_id, countdown=0)
    state = wait_for_message(message_id, 60)
    assert state["status"] == "PROCESSED" and state["memory_ids"]
    roots = {root for _, name, root in task_log.runs() if name == UPSERT_MEMORIES}
    assert len(roots) == 1
    assert _chain_tasks(task_log, roots.pop()) == [
        "memory.extract_candidates",
        "memory.refine_candidates",
        "memory.upsert_memories",
        "memory.embed_memories",
        "memory.upsert_vectors",
    ]
