"""Under a backlog of new turns, started chains finish first (issue 12 item 2), on a real one-slot worker."""

from __future__ import annotations

import pytest

from memory_tasks.api import enqueue_turn, record_turn, wait_for_message
from memory_tasks.task_names import EXTRACT_CANDIDATES, UPSERT_MEMORIES
from tests import task_events
from tests.task_events import TaskLog

pytestmark = [pytest.mark.slow]

task_log = task_events.task_log

CITIES = ("北京", "上海", "广州", "深圳", "成都", "杭州", "南京", "武汉", "西安", "重庆", "苏州", "天津")


def _own_runs(log: TaskLog, message_ids: list[int]) -> list[tuple[float, str, str]]:
    """The started tasks of the chains these messages' triggers began: the broker may still hold
    tasks other tests left (an HTTP test enqueues turns without a worker), and this worker runs them too."""
    wanted = {f"({message_id},)" for message_id in message_ids}
    roots = {root for root, args in log.args.items() if args in wanted}
    return [run for run in log.runs() if run[2] in roots]


@pytest.mark.parametrize("countdown", [0, 2], ids=["no debounce", "debounce countdown"])
def test_later_stages_of_started_chains_run_before_the_backlog_of_new_extractions(
    start_worker, db, task_log: TaskLog, countdown: float
) -> None:
    """Issue 12 item 2: with 12 turns enqueued at once on one slot, the first turn's upsert starts
    before the last turns are extracted (a FIFO llm queue would run all 12 extractions first), also
    when the triggers come after a debounce countdown (held by the worker until due, outside the
    broker's priority queues)."""
    start_worker(concurrency=1)
    message_ids = [record_turn(8200 + i, f"我住在{city}") for i, city in enumerate(CITIES)]
    for message_id in message_ids:
        enqueue_turn(message_id, countdown=countdown)
    for message_id in message_ids:
        assert wait_for_message(message_id, 180)["status"] == "PROCESSED"
    runs = _own_runs(task_log, message_ids)
    first_root = next(root for _, name, root in runs if name == EXTRACT_CANDIDATES)
    first_upsert = next(at for at, name, root in runs if name == UPSERT_MEMORIES and root == first_root)
    extractions_before = [at for at, name, _ in runs if name == EXTRACT_CANDIDATES and at < first_upsert]
    assert len([name for _, name, _ in runs if name == EXTRACT_CANDIDATES]) == len(CITIES)
    assert len(extractions_before) <= 2, f"{len(extractions_before)} extractions ran before the first upsert"
