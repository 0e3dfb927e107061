"""A kept copy of a user's memories is never shared by two threads (issue 12).

The llm worker runs stages in threads, and a copy reads through its caller's session: shared,
one thread embedded through another's session after that one had closed it, which opened a
transaction nobody ended and held embedding_cache rows locked until the worker exited.
"""

from __future__ import annotations

import threading

from config.settings import get_settings
from memory_tasks.db.clock import db_now
from memory_tasks.db.session import session_scope
from memory_tasks.memories.corpus import UserMemories, user_memories
from memory_tasks.memories.similarity import get_scorer

USER = 4100


def _copy() -> UserMemories:
    with session_scope() as session:
        return user_memories(session, get_scorer(get_settings(), None), USER, db_now(session))


def test_each_thread_keeps_its_own_copy_of_a_users_memories(db) -> None:
    """The same thread gets its copy back for the next write; another thread never gets it."""
    mine = _copy()
    assert _copy() is mine
    theirs: list[UserMemories] = []
    other = threading.Thread(target=lambda: theirs.append(_copy()))
    other.start()
    other.join()
    assert theirs and theirs[0] is not mine
