"""The last third of the shipped bursts through the real write path (issue 13.1, R-WRITE-3; the first third and
why in `test_paraphrase_bursts.py`)."""

from __future__ import annotations

import pytest

from bench.eval_bursts import misses, run_share

pytestmark = [pytest.mark.slow]


def test_every_shipped_burst_of_the_third_share_leaves_one_memory_that_stays_and_takes_its_new_value(db) -> None:
    assert misses(run_share(2, of=3)) == {"one memory": [], "stable": [], "new value": []}
