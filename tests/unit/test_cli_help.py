"""What `python -m memory_tasks --help` shows a newcomer (issue 17 item 7)."""

from __future__ import annotations

import argparse
import re

from memory_tasks.__main__ import build_parser
from memory_tasks.redaction import redact

REQUIREMENT_ID = re.compile(r"\bR-[A-Z]+-?\d*")


def _helps(parser: argparse.ArgumentParser) -> list[str]:
    """The help text of the parser and of every subcommand."""
    texts = [parser.format_help()]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            texts.extend(sub.format_help() for sub in action.choices.values())
    return texts


def test_help_shows_no_requirement_ids() -> None:
    """Issue 17 item 7: requirement ids are for the code's readers, not in --help."""
    helps = _helps(build_parser())
    assert len(helps) > 10
    assert [REQUIREMENT_ID.findall(text) for text in helps if REQUIREMENT_ID.search(text)] == []


def test_addresses_are_shown_without_their_password() -> None:
    """Issue 17 items 4 and 5: the services' addresses are printed, their passwords never."""
    assert redact("postgresql://app:hunter2@db:5432/memory") == "postgresql://app:***@db:5432/memory"
    assert redact("redis://:hunter2@cache:6379/0") == "redis://:***@cache:6379/0"
    assert redact("redis://127.0.0.1:6379/0") == "redis://127.0.0.1:6379/0"
