"""What a real worker ran, from its Celery task events (the workers run with -E)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

from memory_tasks import app


@dataclass
class TaskLog:
    """The tasks a worker started, from its task events: (start time, name, root id) by task id."""

    names: dict[str, tuple[str, str]] = field(default_factory=dict)
    started: dict[str, float] = field(default_factory=dict)
    args: dict[str, str] = field(default_factory=dict)  # task id -> its arguments as the event shows them
    lock: threading.Lock = field(default_factory=threading.Lock)

    def on_received(self, event: dict) -> None:
        with self.lock:
            self.names[event["uuid"]] = (event["name"], event.get("root_id") or event["uuid"])
            self.args[event["uuid"]] = str(event.get("args", ""))

    def on_started(self, event: dict) -> None:
        with self.lock:
            self.started[event["uuid"]] = event["timestamp"]

    def runs(self) -> list[tuple[float, str, str]]:
        """(start time, task name, chain root id) of every started task, in start order."""
        with self.lock:
            return sorted((at, *self.names[uuid]) for uuid, at in self.started.items() if uuid in self.names)


@pytest.fixture
def task_log(broker_flushed: None) -> Iterator[TaskLog]:
    """Records the worker's task-received/task-started events while the test runs."""
    log = TaskLog()
    with app.connection() as connection:
        receiver = app.events.Receiver(
            connection, handlers={"task-received": log.on_received, "task-started": log.on_started}
        )
        thread = threading.Thread(target=receiver.capture, kwargs={"wakeup": False}, daemon=True)
        thread.start()
        time.sleep(1)  # the receiver's queue is bound before anything is sent
        yield log
        receiver.should_stop = True
        thread.join(timeout=10)
