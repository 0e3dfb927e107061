"""The shipped bursts through the real write path (issue 13.1, R-WRITE-3): real PostgreSQL, the rules engine,
the local embedding scorer. Each was written before the engine ran on it (docs/quality.md, nineteenth probe).
A third of them here, the others in `test_paraphrase_bursts_second_share.py` and `…_third_share.py`: the three
files run side by side (at 450 bursts one file took over four minutes on one process). Each burst is re-sent once, in
reverse (`eval_bursts.REVERSED`); `make eval-bursts` re-sends three times, shuffled."""

from __future__ import annotations

import pytest

from bench.eval_bursts import misses, run_share

pytestmark = [pytest.mark.slow]


def test_every_shipped_burst_of_the_first_share_leaves_one_memory_that_stays_and_takes_its_new_value(db) -> None:
    assert misses(run_share(0, of=3)) == {"one memory": [], "stable": [], "new value": []}
