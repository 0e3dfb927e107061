"""What the vector audit calls each state of Milvus against a SYNCED row (R-VEC-4)."""

from __future__ import annotations

import pytest

from memory_tasks.vectors.audit import HELD, finding
from memory_tasks.vectors.milvus_store import StoredVector

RECORDED = "a" * 64


@pytest.mark.parametrize(
    ("active", "stored", "expected"),
    [
        (True, StoredVector(1, RECORDED), HELD),
        (True, None, "missing"),
        (True, StoredVector(1, "b" * 64), "stale"),
        (True, StoredVector(1, "b" * 64, rows=2), "duplicated"),
        (True, StoredVector(1, RECORDED, rows=2), "duplicated"),
        (False, None, HELD),
        (False, StoredVector(1, RECORDED), "leftover"),
    ],
)
def test_a_synced_row_is_held_only_when_milvus_has_exactly_its_recorded_text(
    active: bool, stored: StoredVector | None, expected: str
) -> None:
    """R-VEC-4: an active row needs exactly one row of its recorded text (a second row of any text is a lost
    delete); an inactive row needs none."""
    assert finding(active, RECORDED if active else None, stored) == expected
