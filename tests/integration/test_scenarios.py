"""Multi-turn scenarios (overwrite, negation, dedup, append) through the real worker (R-PIPE-4/5/6).

Each scenario of tests/data/extraction_scenarios.jsonl is one user; its turns are ingested
one after another with the offline engine, then the user's active memories must be
exactly the expected ones (no duplicate left behind) and mention nothing expected absent.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memory_tasks.api import list_memories
from tests.helpers import ingest

pytestmark = [pytest.mark.slow]

SCENARIOS = [json.loads(line) for line in (Path(__file__).parent.parent / "data" / "extraction_scenarios.jsonl").open()]


def _matches(expected: dict, memory: dict) -> bool:
    if "key" in expected and memory["memory_key"] != expected["key"]:
        return False
    if "memory_type" in expected and memory["memory_type"] != expected["memory_type"]:
        return False
    return all(fact.lower() in memory["content"].lower() for fact in expected["facts"])


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s["id"] for s in SCENARIOS])
def test_scenario_ends_in_the_expected_memories(worker, db, scenario: dict) -> None:
    user_id = 7000 + SCENARIOS.index(scenario)
    for turn in scenario["turns"]:
        assert ingest(user_id, turn)["status"] in ("PROCESSED", "SKIPPED")
    active = list_memories(user_id)
    shown = [(m["memory_key"], m["content"]) for m in active]
    for expected in scenario["expected_active"]:
        assert any(_matches(expected, m) for m in active), f"missing {expected} in {shown}"
    assert len(active) == len(scenario["expected_active"]), f"unexpected extra memories: {shown}"
    for absent in scenario["expected_absent"]:
        assert not any(absent.lower() in m["content"].lower() for m in active), f"{absent!r} still in {shown}"
