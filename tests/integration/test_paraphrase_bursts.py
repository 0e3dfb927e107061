"""The shipped bursts through the real write path (issue 13.1, R-WRITE-3): real PostgreSQL, the rules engine,
the local embedding scorer. Each was written before the engine ran on it (docs/quality.md, nineteenth probe)."""

from __future__ import annotations

import pytest

from bench.eval_bursts import FIRST_USER, load_bursts, run_burst

pytestmark = [pytest.mark.slow]


def test_every_shipped_burst_leaves_one_memory_that_stays_and_takes_its_new_value(db) -> None:
    results = [run_burst(FIRST_USER + index, burst) for index, burst in enumerate(load_bursts())]
    assert [r.burst.id for r in results if not r.one_memory] == []
    assert [r.burst.id for r in results if not r.stable] == []
    assert [r.burst.id for r in results if r.new_value_landed is False] == []
