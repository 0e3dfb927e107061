"""Small helpers shared by the integration tests."""

from __future__ import annotations

from memory_tasks.api import enqueue_turn, record_turn, wait_for_message


def ingest(user_id: int, text: str, role: str = "user", timeout: float = 60) -> dict:
    """Record a turn, enqueue it like a chat server does, and wait for its final state."""
    message_id = record_turn(user_id, text, role=role)
    if role == "user":
        enqueue_turn(message_id, countdown=0)
    return wait_for_message(message_id, timeout)
