"""What senders, routes and consumers must agree on: the task names and the queues (R-PIPE-1, R-OPS-1)."""

from __future__ import annotations

import shlex
from collections.abc import Iterable
from datetime import UTC, datetime

import pytest

from config.celery import ALL_QUEUES, QUEUE_LLM, TASK_ROUTES, celery_config
from config.settings import Settings
from memory_tasks import app, dispatch, task_names
from memory_tasks.stack import CELERY_WORKERS
from schedules.beat import beat_schedule
from tests.conftest import PROJECT_ROOT

# Chat servers send these by name: adding, renaming or dropping a task must change this set.
PINNED_TASK_NAMES = {
    "memory.extract_candidates",
    "memory.refine_candidates",
    "memory.upsert_memories",
    "memory.embed_memories",
    "memory.upsert_vectors",
    "memory.release_trigger",
    "memory.sync_index_batch",
    "memory.touch_memories",
    "memory.purge_user_vectors",
    "memory.rescan_messages",
    "memory.expire_memories",
    "memory.schedule_consolidation",
    "memory.consolidate_user",
}


def _registered() -> set[str]:
    app.loader.import_default_modules()  # what a worker does at start-up
    return {name for name in app.tasks if not name.startswith("celery.")}


def test_the_registered_tasks_are_exactly_the_pinned_names() -> None:
    """R-PIPE-1: the complete set of task names a worker registers is pinned."""
    assert _registered() == PINNED_TASK_NAMES


def test_every_task_name_is_a_constant_of_the_one_names_module() -> None:
    """R-PIPE-1: senders, routes and the schedule take names from memory_tasks.task_names only."""
    constants = {value for name, value in vars(task_names).items() if name.isupper() and isinstance(value, str)}
    assert constants == PINNED_TASK_NAMES


def test_routes_name_only_registered_tasks() -> None:
    """A route for a renamed or removed task would silently route nothing."""
    assert {name for name in TASK_ROUTES if "*" not in name} <= PINNED_TASK_NAMES


def _consumed(commands: Iterable[list[str]]) -> set[str]:
    """The queues the `celery worker` commands among `commands` consume (their -Q lists)."""
    queues: set[str] = set()
    for argv in commands:
        if "worker" in argv:
            queues.update(argv[argv.index("-Q") + 1].split(","))
    return queues


def _procfile_commands() -> list[list[str]]:
    lines = (PROJECT_ROOT / "Procfile").read_text().splitlines()
    return [shlex.split(line.split(":", 1)[1]) for line in lines if line.strip() and not line.startswith("#")]


def _routed() -> set[str]:
    """Every queue work is sent to: the routes of every task, the beat entries, the explicit queues."""
    every_job = Settings(
        _env_file=None,
        LONG_TERM_MEMORY_SCAN_ENABLED=True,
        LONG_TERM_MEMORY_ENABLED=True,
        MEMORY_INDEX_WORKER_ENABLED=True,
        MEMORY_MILVUS_ENABLED=True,
        MEMORY_MILVUS_URI="http://127.0.0.1:19530",
    )
    return (
        {route["queue"] for route in TASK_ROUTES.values()}
        | {app.conf.task_default_queue}
        | {app.amqp.router.route({}, name)["queue"].name for name in PINNED_TASK_NAMES}
        | {entry["options"]["queue"] for entry in beat_schedule(every_job).values()}
        | {QUEUE_LLM}  # dispatch.enqueue_consolidation names its queue
    )


@pytest.mark.parametrize(
    ("where", "commands"),
    [("Procfile", _procfile_commands()), ("the embedded stack", list(CELERY_WORKERS.values()))],
)
def test_every_routed_queue_has_a_consumer(where: str, commands: list[list[str]]) -> None:
    """R-OPS-1: no work is sent to a queue that no worker of the Procfile / `make up` consumes."""
    assert _routed() <= _consumed(commands), where


@pytest.mark.parametrize(
    ("where", "commands"),
    [("Procfile", _procfile_commands()), ("the embedded stack", list(CELERY_WORKERS.values()))],
)
def test_every_consumed_queue_is_declared_and_routed(where: str, commands: list[list[str]]) -> None:
    """R-OPS-1: a worker consumes only declared queues that some task is routed to."""
    consumed = _consumed(commands)
    assert consumed <= set(ALL_QUEUES), where
    assert consumed <= _routed(), where


def test_the_fan_out_sends_by_name_with_expiry_on_the_llm_queue(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-BEAT-3, R-READ-5: dispatch sends by name with the options the workers rely on."""
    sent: list[tuple] = []
    monkeypatch.setattr(app, "send_task", lambda name, args, **options: sent.append((name, args, options)))
    dispatch.enqueue_consolidation(5, expires=3600)
    dispatch.enqueue_touch(5, [1, 2], datetime(2026, 1, 2, tzinfo=UTC))
    dispatch.enqueue_index_batch(3)
    assert sent == [
        ("memory.consolidate_user", [5], {"expires": 3600, "queue": "llm"}),
        ("memory.touch_memories", (5, [1, 2], "2026-01-02T00:00:00+00:00"), {"retry": False, "ignore_result": True}),
        ("memory.sync_index_batch", (3,), {"ignore_result": True}),
    ]


def test_only_results_a_caller_may_wait_for_are_stored() -> None:
    """R-PIPE-1 (issue 12): a message sent by name has its result stored unless the sender says
    not to; the chains store only their last stage's result (the id `enqueue_turn` returns)."""
    for signature in (dispatch.message_chain(1), dispatch.index_chain([1])):
        first, *_, last = signature.tasks
        assert first.options.get("ignore_result") is True, first.name
        assert not last.options.get("ignore_result"), last.name


def test_an_index_sync_the_broker_refuses_is_deferred_not_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-BEAT-2, R-SAFE-2: the rows stay DIRTY for the sweep; the caller is not failed."""

    class Refused:
        def __init__(self, memory_ids: list[int]) -> None:
            pass

        def apply_async(self, **_: object) -> None:
            raise ConnectionError("broker down")

    monkeypatch.setattr(dispatch, "index_chain", Refused)
    assert dispatch.enqueue_index_sync([1]) == "deferred"
    assert dispatch.enqueue_index_sync([]) == "not needed"


def test_new_extractions_wait_behind_every_started_chain() -> None:
    """Issue 12 item 2: on the Redis transport's priority steps (0 first), a new message's extraction
    comes after the later stages of started chains and after index work; consolidation comes last."""

    def priority(name: str) -> int:
        return app.amqp.router.route({}, name)["priority"]

    steps = celery_config(Settings(_env_file=None)).get("broker_transport_options", {})["priority_steps"]
    extract = priority(task_names.EXTRACT_CANDIDATES)
    later = [task_names.REFINE_CANDIDATES, task_names.UPSERT_MEMORIES, task_names.EMBED_MEMORIES]
    assert all(priority(name) < extract for name in [*later, task_names.UPSERT_VECTORS])
    assert extract < priority(task_names.CONSOLIDATE_USER)
    assert {priority(name) for name in PINNED_TASK_NAMES} <= set(steps)


@pytest.mark.parametrize("name", sorted(PINNED_TASK_NAMES))
def test_a_worker_sends_each_task_at_its_routes_priority(name: str) -> None:
    """Issue 12 item 2: a process that registered the tasks (a worker: redirects, re-triggers, the
    rescan, the release of a debounce countdown) sends a task with the options of its Task class,
    which take precedence over the route's; they must not carry a default priority of their own."""
    app.loader.import_default_modules()  # what a worker does at start-up
    task = app.tasks[name]
    sent = app.amqp.router.route(task._get_exec_options(), name)
    assert sent["priority"] == app.amqp.router.route({}, name)["priority"]
