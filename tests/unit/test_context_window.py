"""The extraction context budget (memory_tasks.extraction.context): one window for pipeline and engine."""

from __future__ import annotations

from memory_tasks.extraction.context import ContextWindow, context_line, context_window
from memory_tasks.extraction.llm_engine import build_extract_input
from memory_tasks.extraction.types import TurnContext


def _turn(role: str, content: str) -> dict[str, str]:
    return {"role": role, "content": content}


def _cost(turns: tuple[dict[str, str], ...]) -> int:
    return sum(len(context_line(t["role"], t["content"])) + 1 for t in turns)


def test_context_window_keeps_the_newest_turns_that_fit_oldest_first() -> None:
    """R-PIPE-11: EXTRACT_CONTEXT_MAX_CHARS drops the oldest turns first; the order stays chronological."""
    turns = [_turn("user", f"turn {i} " + "x" * 20) for i in range(10)]
    window = context_window(turns, 110)
    assert [t["content"][:6] for t in window.turns] == ["turn 7", "turn 8", "turn 9"]
    assert _cost(window.turns) <= 110 < _cost(window.turns) + len(context_line("user", turns[6]["content"])) + 1


def test_context_window_gives_the_summary_what_the_turns_leave() -> None:
    """R-PIPE-11: summary and turns together stay within the budget; recent turns come before the summary."""
    turns = [_turn("user", "x" * 40)]
    window = context_window(turns, 60, summary="  " + "S" * 50 + " ")
    assert window.turns == (_turn("user", "x" * 40),)
    assert window.summary == "S" * (60 - _cost(window.turns))
    assert context_window([], 60, summary="short").summary == "short"


def test_context_window_holds_only_user_and_assistant_text_without_think_blocks() -> None:
    """R-PIPE-11, R-DATA-2: assistant reasoning, tool and system output never become context; empty turns go."""
    turns = [
        _turn("user", "  最近在忙搬家 "),
        _turn("assistant", "<think>用户可能住在北京</think>搬家辛苦了！"),
        _turn("tool", "weather: 28℃"),
        _turn("system", "You are a helpful assistant."),
        _turn("assistant", "<think>only reasoning</think>"),
        _turn("user", "   "),
    ]
    window = context_window(turns, 1000)
    assert window.turns == (_turn("user", "最近在忙搬家"), _turn("assistant", "搬家辛苦了！"))


def test_context_window_changes_nothing_when_applied_again() -> None:
    """The pipeline bounds the context and the LLM engine bounds it again: the second pass is a no-op."""
    turns = [_turn("user" if i % 2 else "assistant", f"<think>r{i}</think>answer {i} " + "y" * i) for i in range(30)]
    for budget in (0, 7, 50, 333, 5000):
        first = context_window(turns, budget, summary="summary " * 40)
        assert context_window(first.turns, budget, summary=first.summary) == first


def test_context_window_with_no_budget_is_empty() -> None:
    """R-PIPE-11: EXTRACT_CONTEXT_MAX_CHARS=0 sends no context at all."""
    assert context_window([_turn("user", "hi")], 0, summary="S") == ContextWindow(summary="", turns=())


def test_extract_prompt_context_is_the_window_of_the_turn() -> None:
    """R-PIPE-11: the LLM engine renders exactly the window, so its context obeys the same budget."""
    turns = tuple(_turn("user", f"old turn {i} " + "x" * 40) for i in range(10))
    content = build_extract_input(TurnContext(message="我是一名护士", summary="S" * 50, recent=turns), 150)
    window = context_window(turns, 150, summary="S" * 50)
    section = content.split("<recent_context>\n", 1)[1].split("\n</recent_context>", 1)[0]
    assert section == "\n".join(context_line(t["role"], t["content"]) for t in window.turns)
    assert f"<conversation_summary>\n{window.summary}\n</conversation_summary>" in content
