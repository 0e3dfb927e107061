"""Benchmarks share docs/benchmarks.md and docs/quality.md: each replaces only its own sections (issue 12 item 4)."""

from __future__ import annotations

from pathlib import Path

from bench.common import replace_section, write_section

DOCUMENT = "# Retrieval benchmarks\nold header\n\n## Quality on LoCoMo\nQ\n\n## Speed at 10 memories\nold speed\n\n## Pipeline on LoCoMo\nP\n"


def test_a_section_replaces_only_itself() -> None:
    """Issue 12 item 4: the retrieval bench rewriting its speed part keeps its quality part and the pipeline's."""
    updated = replace_section(DOCUMENT, "## Speed at 100,000 memories\nnew speed\n", "## Speed at ")
    assert updated == DOCUMENT.replace(
        "## Speed at 10 memories\nold speed\n", "## Speed at 100,000 memories\nnew speed\n"
    )
    header = replace_section(updated, "# Retrieval benchmarks\nnew header\n", "# Retrieval benchmarks")
    assert header.startswith("# Retrieval benchmarks\nnew header\n\n## Quality on LoCoMo\nQ\n")
    assert header.endswith("## Pipeline on LoCoMo\nP\n")


def test_a_missing_section_is_appended_and_a_missing_file_created(tmp_path: Path) -> None:
    """Issue 12 item 4: a section not yet in the file goes at its end; nothing else changes."""
    assert replace_section(DOCUMENT, "## Write cost\nW\n", "## Write cost") == DOCUMENT + "\n## Write cost\nW\n"
    output = tmp_path / "docs" / "quality.md"
    write_section(output, "## Write path\nX\n", "## Write path")
    write_section(output, "## Write path\nY\n", "## Write path")
    assert output.read_text(encoding="utf-8") == "## Write path\nY\n"


def test_a_hand_written_section_whose_heading_starts_with_a_generated_one_is_left_alone() -> None:
    """Issue 12: `make bench-embedding` rewrote "## The encoder kernel in the pipeline …" (written by
    hand, above its own "## The encoder kernel") and everything after it up to its own section."""
    document = "## The encoder kernel in the pipeline\nhand\n\n## Write cost\nW\n\n## The encoder kernel\nold\n"
    updated = replace_section(document, "## The encoder kernel\nnew\n", "## The encoder kernel")
    assert updated == document.replace("## The encoder kernel\nold\n", "## The encoder kernel\nnew\n")
