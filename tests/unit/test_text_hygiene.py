"""Control characters and terminal escapes never reach a stored memory or the prompt; the tool
argument error for a NUL names NUL (issue 17 item 7; R-SAFE input validation)."""

from __future__ import annotations

import pytest

from memory_tasks.extraction.candidates import InvalidCandidate, coerce_candidate
from memory_tasks.extraction.rules import RulesEngine
from memory_tasks.extraction.types import TurnContext
from memory_tasks.memories.edits import EditError, MemoryEdit, _checked
from memory_tasks.retrieval.prompt import format_memory_block
from memory_tasks.retrieval.search import Hit
from memory_tasks.text import without_control_chars
from memory_tasks.tools import TOOLS, ToolError, checked_arguments

RED = "\x1b[31m"
RESET = "\x1b[0m"


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        (f"{RED}red{RESET} text", "red text"),
        ("\x1b[1;32m喜欢川菜\x1b[m", "喜欢川菜"),
        ("\x1b]0;window title\x07likes jazz", "likes jazz"),
        ("\x1b]8;;http://example.com\x1b\\link\x1b]8;;\x1b\\", "link"),
        ("\x1b[?25lhidden cursor", "hidden cursor"),
        ("bell\x07 back\x08space\r", "bell backspace"),
        ("c1\x9b31m control\x85", "c1 control"),
        ("\u202egnp.exe", "gnp.exe"),
        ("\x1b]unterminated title", "unterminated title"),
    ],
)
def test_escape_sequences_and_control_characters_are_stripped(raw: str, clean: str) -> None:
    """Issue 17 item 7: CSI, OSC, two-character escapes, C0/C1 controls and bidi overrides go."""
    assert without_control_chars(raw) == clean


def test_text_that_is_only_text_is_unchanged() -> None:
    """Tabs, newlines, Chinese, emoji with joiners and variation selectors are text, not control."""
    text = "住在杭州\tlikes\njazz 👨\u200d👩\u200d👧 ❤\ufe0f"
    assert without_control_chars(text) == text


def test_a_candidate_is_stored_without_escapes() -> None:
    """Issue 17 item 7: the write path's validation (coerce_candidate, used by the pipeline's upsert
    stage and the agent tools) strips escapes from the content it admits."""
    candidate = coerce_candidate(
        {"op": "upsert", "memory_type": "preference", "key": "food-thai", "content": f"{RED}Loves Thai food{RESET}\x07"}
    )
    assert candidate.content == "Loves Thai food"


def test_a_candidate_of_escapes_only_is_refused_as_empty() -> None:
    with pytest.raises(InvalidCandidate, match="empty content"):
        coerce_candidate({"op": "upsert", "memory_type": "fact", "key": "k", "content": f"{RED}{RESET}"})


def test_an_operator_edit_is_stored_without_escapes_and_a_nul_is_named() -> None:
    """Issue 17 item 7: operator edits strip escapes; a NUL is refused by name."""
    assert _checked(MemoryEdit(content=f" {RED}住在上海{RESET} ")).content == "住在上海"
    with pytest.raises(EditError, match="NUL"):
        _checked(MemoryEdit(content="a\x00b"))


def test_the_memory_block_never_injects_an_escape() -> None:
    """Issue 17 item 7: a row stored before stripping existed still reaches the prompt clean."""
    hit = Hit({"id": 1, "memory_key": "k", "memory_type": "fact", "content": f"{RED}lives in\x1b[2J Hangzhou"}, 1.0, {})
    block = format_memory_block([hit])
    assert "\x1b" not in block
    assert block.splitlines()[-1] == "- [fact] lives in Hangzhou"


def test_the_rules_engine_reads_through_escapes() -> None:
    """Issue 17 item 7: an escape in the user's message is no part of a memory's content or key."""
    [candidate] = RulesEngine(noise_key_patterns=()).extract(TurnContext(message=f"I love {RED}Thai food{RESET}."))
    assert (candidate.key, candidate.content) == ("food-thai-food", "Loves Thai food")


def test_a_tool_argument_with_a_nul_says_nul() -> None:
    """Issue 17 item 7: the NUL error names NUL (it used to say "not valid UTF-8 text")."""
    arguments = {"key": "k", "content": "a\x00b", "memory_type": "fact"}
    with pytest.raises(ToolError, match="content contains a NUL character"):
        checked_arguments(TOOLS["memory_save"], arguments)
    with pytest.raises(ToolError, match="content is not valid UTF-8 text"):
        checked_arguments(TOOLS["memory_save"], {**arguments, "content": "a\ud800b"})
