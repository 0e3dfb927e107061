"""Task events added while the worker publishes its buffer are published later, not lost (celery#10435 on 5.6.3).

Without it the threads-pool llm worker lost task-started / task-succeeded events: Flower showed tasks STARTED
forever and `make bench-pipeline` stopped in its warm-up ("chains unfinished, no progress").
"""

from __future__ import annotations

from unittest.mock import Mock

from memory_tasks import app


def _dispatcher():
    return app.events.Dispatcher(Mock(), enabled=False, buffer_group={"task"})


def test_an_event_added_by_another_thread_during_the_publish_stays_for_the_next_flush() -> None:
    dispatcher = _dispatcher()
    buffer = dispatcher._group_buffer["task"]
    buffer.extend(["task-received", "task-started"])
    published: list[list[str]] = []

    def publish_while_a_pool_thread_adds(batch, producer, routing_key):
        published.append(list(batch))
        if len(published) == 1:
            buffer.append("task-succeeded")  # a pool thread, while the socket write released the GIL

    dispatcher._publish = publish_while_a_pool_thread_adds
    dispatcher.flush()
    assert published == [["task-received", "task-started"]] and buffer == ["task-succeeded"]
    dispatcher.flush()
    assert published[-1] == ["task-succeeded"] and buffer == []


def test_events_held_while_offline_are_published_once_and_an_empty_group_sends_nothing() -> None:
    dispatcher = _dispatcher()
    dispatcher._outbound_buffer.append(({"type": "task-failed"}, "task.failed", None))
    sent: list[str] = []
    dispatcher._publish = lambda event, producer, routing_key: sent.append(routing_key)
    dispatcher.flush()
    dispatcher.flush()
    assert sent == ["task.failed"]
