"""Celery's event dispatcher with the fix of celery/celery#10435, which 5.6.3 (the pinned version) lacks.

A worker buffers its task events per group and publishes the buffer from its consumer loop. 5.6.3's `flush`
publishes a copy, then empties the live buffer: an event another thread added during the socket write is
lost. In the threads pool (the llm worker) task-started and task-succeeded are sent from pool threads, so
Flower, the metrics built on events and `make bench-pipeline` missed some tasks' ends (STARTED forever; the
bench stopped in its warm-up). Drop this module when moving to a Celery that has the fix (5.7.0 has it).
"""

from __future__ import annotations

from celery.app.events import Events
from celery.events.dispatcher import EventDispatcher


class BufferKeepingEventDispatcher(EventDispatcher):
    """An EventDispatcher whose `flush` removes from a buffer only the events it published."""

    def flush(self, errors: bool = True, groups: bool = True) -> None:
        """Publish the events held back while offline (`errors`) and the grouped ones (`groups`)."""
        if errors:
            held = list(self._outbound_buffer)
            self._outbound_buffer.clear()  # before publishing: a failed publish puts its event back
            with self.mutex:
                for event, routing_key, _ in held:
                    self._publish(event, self.producer, routing_key)
        if groups:
            with self.mutex:
                for group, events in self._group_buffer.items():
                    if not events:
                        continue
                    batch = list(events)
                    self._publish(batch, self.producer, f"{group}.multi")
                    # Appends go to the end and flushes hold the mutex: the first len(batch) are the batch.
                    del events[: len(batch)]


class BufferKeepingEvents(Events):
    """The app's events, whose dispatchers are BufferKeepingEventDispatcher (`Celery(events=...)`)."""

    dispatcher_cls = BufferKeepingEventDispatcher
