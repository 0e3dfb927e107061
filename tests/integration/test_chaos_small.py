"""The small chaos run (issue 11 item 11): `python -m bench.chaos --small` passes.

It starts its own private stack (PostgreSQL, Redis with AOF, Milvus on free ports), the
Procfile's Celery workers and beat, and a stub model; ~100 turns of 10 users are sent twice,
clean and while a pool child (of the prefork index worker), the llm worker's main process
and Redis are killed and the model answers 503 then 429 with Retry-After, with hostile,
malformed and poison answers.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import PROJECT_ROOT, TEST_ENV

pytestmark = [pytest.mark.slow, pytest.mark.first]


def test_a_small_fault_injection_run_ends_where_the_clean_run_ends(tmp_path: Path) -> None:
    """Issue 11 item 11, R-FAIL-1/2, R-SAFE-1: every message PROCESSED/SKIPPED or DEAD for a poison
    turn with its cause, every user's memories equal to the clean run's, no duplicate, every
    active memory SYNCED and in Milvus, no inactive memory's vector left, although the faults
    really happened (processes restarted, requests refused, hostile answers served)."""
    summary_path, logs = tmp_path / "chaos.json", tmp_path / "logs"
    env = {name: value for name, value in os.environ.items() if name not in TEST_ENV}
    done = subprocess.run(
        [sys.executable, "-m", "bench.chaos", "--small", "--no-write", "--json", str(summary_path)]
        + ["--keep-logs", str(logs)],
        cwd=PROJECT_ROOT,
        env={**env, "PYTHONPATH": str(PROJECT_ROOT)},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert summary_path.exists(), done.stdout[-4000:] + done.stderr[-4000:] + _error_lines(logs)
    summary = json.loads(summary_path.read_text())
    assert summary["verdict"] == [], f"{summary['verdict']}\n{done.stdout[-3000:]}{_error_lines(logs)}"
    assert done.returncode == 0, done.stderr[-3000:]
    assert summary["users"] >= 10 and summary["users_equal"] == summary["users"]
    clean, faulted = summary["clean"], summary["faulted"]
    for run in (clean, faulted):
        assert set(run["statuses"]) <= {"PROCESSED", "SKIPPED", "DEAD"}, run["statuses"]
        assert run["dead_poison"] >= 1 and run["dead_not_poison"] == []
        assert run["active"] > 0 and run["in_milvus"] == run["active"]
    # The faults took place: a pool child was killed, the supervisor restarted the killed
    # processes, the model refused requests, and hostile and malformed answers were served.
    assert faulted["restarts"].get("worker-llm", 0) >= 1 and faulted["restarts"].get("redis", 0) >= 1
    assert any("kill -9 worker-index pool child" in fault for fault in faulted["faults"]), faulted["faults"]
    assert faulted["outage_requests"] > 0
    assert faulted["model"].get("hostile", 0) >= 1 and faulted["model"].get("malformed", 0) >= 1


def _error_lines(logs: Path) -> str:
    """The last error lines of each service's and worker's log: what a failed CI run shows, its folders gone."""
    excerpts = []
    # The services' logs first, the runs' Celery processes' (clean/, faulted/) last, where the cut below keeps them.
    for log in sorted(logs.rglob("*.log"), key=lambda log: (log.parent != logs, str(log))):
        lines = log.read_text(errors="replace").splitlines()
        errors = [line[:240] for line in lines if re.search(r"Traceback|Unrecoverable|ERROR|CRITICAL|FATAL", line)]
        if errors:
            excerpts.append(
                f"--- {log.relative_to(logs)} ({len(errors)} error lines, the last ones)\n" + "\n".join(errors[-6:])
            )
    return "\n" + "\n".join(excerpts)[-8000:]
