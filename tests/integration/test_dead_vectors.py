"""DEAD vectors get another life from the CLI (issue 11 items 3-4; R-FAIL-3, R-OPS-3).

Real PostgreSQL and Milvus: a row made DEAD by its own failures is revived by
`python -m memory_tasks requeue --dead-vectors` and synced by the next sweep.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from sqlalchemy import select, update

from memory_tasks import jobs
from memory_tasks.api import record_turn
from memory_tasks.db.clock import db_now
from memory_tasks.db.models import HistorySource, LongTermMemory, VectorStatus
from memory_tasks.db.session import session_scope
from memory_tasks.extraction.candidates import Candidate
from memory_tasks.memories.store import WriteContext, lock_user
from memory_tasks.memories.write_path import write_candidates
from memory_tasks.vectors.index import mark_vector_failed, revive_dead_vectors
from memory_tasks.vectors.milvus_store import get_store
from tests.conftest import PROJECT_ROOT

USER = 7401


def _write_two() -> list[int]:
    record_turn(USER, "hello there")
    with session_scope() as session:
        lock_user(session, USER)
        ctx = WriteContext(USER, HistorySource.TOOL, db_now(session), 180)
        write_candidates(
            session,
            ctx,
            [
                Candidate("upsert", "fact", "cello", "Plays the cello in a community orchestra"),
                Candidate("upsert", "fact", "allergy", "Allergic to shellfish"),
            ],
        )
    with session_scope() as session:
        return sorted(session.scalars(select(LongTermMemory.id).where(LongTermMemory.user_id == USER)))


def _vector_state(memory_id: int) -> tuple[str, int, str | None]:
    with session_scope() as session:
        row = session.get(LongTermMemory, memory_id)
        return row.vector_status, row.vector_attempts, row.vector_error


def test_requeue_dead_vectors_revives_only_dead_rows_and_the_sweep_syncs_them(db, milvus_server) -> None:
    """Issue 11 item 3: a DEAD vector goes back to DIRTY with its attempts reset (CLI), a FAILED one
    is left to its backoff, and the sweep then writes the revived row to Milvus."""
    dead, failed = _write_two()
    with session_scope() as session:  # `dead` has used up its attempts; `failed` has one left
        session.execute(
            update(LongTermMemory)
            .where(LongTermMemory.id == dead)
            .values(vector_status=VectorStatus.DEAD.value, vector_attempts=8, vector_error="embedder said 400")
        )
    mark_vector_failed([failed], "embedder said 400")
    done = subprocess.run(
        [sys.executable, "-m", "memory_tasks", "requeue", "--dead-vectors"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"requeued_vectors": [dead]}
    assert _vector_state(dead) == ("DIRTY", 0, None)
    assert _vector_state(failed)[:2] == ("FAILED", 1)
    assert revive_dead_vectors() == []  # nothing DEAD any more
    jobs.sync_index_batch()
    assert _vector_state(dead)[0] == "SYNCED"
    assert dead in get_store().stored([dead])
