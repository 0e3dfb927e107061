"""The agent tools' OpenAI schemas, and the calls refused before the database is touched (R-WRITE-1, R-SAFE-4)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from openai.types.chat import ChatCompletionFunctionToolParam
from pydantic import TypeAdapter

from memory_tasks import tools
from memory_tasks.extraction.candidates import MEMORY_TYPES
from memory_tasks.tools import TOOL_SCHEMAS, execute

NAMES = ["memory_save", "memory_append", "memory_delete", "memory_list"]
REQUIRED = {
    "memory_save": {"key", "content", "memory_type"},
    "memory_append": {"key", "content"},
    "memory_delete": {"key"},
    "memory_list": set(),
}
JSON_TYPES = {"string", "integer", "number", "boolean", "array", "object", "null"}


def _function(name: str) -> dict[str, Any]:
    return next(s["function"] for s in TOOL_SCHEMAS if s["function"]["name"] == name)


def test_it_offers_the_four_tools_as_openai_function_tools() -> None:
    """R-WRITE-1: TOOL_SCHEMAS is ready for chat.completions.create(tools=...)."""
    assert [s["function"]["name"] for s in TOOL_SCHEMAS] == NAMES
    adapter = TypeAdapter(ChatCompletionFunctionToolParam)
    for schema in TOOL_SCHEMAS:
        adapter.validate_python(schema)
        assert schema["type"] == "function"
        assert re.fullmatch(r"[a-zA-Z0-9_-]{1,64}", schema["function"]["name"])
        assert len(schema["function"]["description"]) > 20
    # It should survive the trip to the API as JSON, non-ASCII hints included.
    assert json.loads(json.dumps(TOOL_SCHEMAS, ensure_ascii=False)) == TOOL_SCHEMAS


@pytest.mark.parametrize("name", NAMES)
def test_parameters_are_closed_json_schemas_with_the_right_required_fields(name: str) -> None:
    """R-WRITE-1: each tool's parameters are an object schema naming exactly its required arguments."""
    parameters = _function(name)["parameters"]
    assert parameters["type"] == "object"
    assert parameters["additionalProperties"] is False
    assert set(parameters["required"]) == REQUIRED[name]
    assert set(parameters["required"]) <= set(parameters["properties"])
    for prop in parameters["properties"].values():
        assert prop["type"] in JSON_TYPES
        assert prop["description"]


def test_memory_types_are_the_five_and_never_profile() -> None:
    """R-TYPE-1: the model can only choose among the five types."""
    for name in ("memory_save", "memory_append", "memory_list"):
        enum = _function(name)["parameters"]["properties"]["memory_type"]["enum"]
        assert enum == list(MEMORY_TYPES)
        assert "profile" not in enum


def test_no_tool_lets_the_model_name_a_user() -> None:
    """R-SAFE-3: the user is the chat server's argument, never the model's."""
    for schema in TOOL_SCHEMAS:
        assert not any("user" in prop for prop in schema["function"]["parameters"]["properties"])


def test_save_limits_match_the_candidate_validation() -> None:
    """R-PIPE-2: key <= 160 chars, content <= 1000 chars, importance 1-5, confidence 0-1."""
    props = _function("memory_save")["parameters"]["properties"]
    assert props["key"]["maxLength"] == 160
    assert props["content"]["maxLength"] == 1000
    assert (props["importance"]["minimum"], props["importance"]["maximum"]) == (1, 5)
    assert (props["confidence"]["minimum"], props["confidence"]["maximum"]) == (0, 1)


@pytest.fixture
def touched(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What a call reached of the database and the broker, for the test to check after the call.

    An exception raised in here alone would only become the tool's `{"error": ...}`
    (execute turns every failure into one) and pass unseen.
    """
    reached: list[str] = []

    def tripwire(name: str) -> Callable[..., Any]:
        def reach(*_: Any, **__: Any) -> Any:
            reached.append(name)
            raise RuntimeError(f"{name} reached")  # stop the call here; the list tells the test

        return reach

    for name in ("session_scope", "list_memories", "enqueue_index_sync"):
        monkeypatch.setattr(tools, name, tripwire(name))
    return reached


SAVE = {"key": "food-preference", "content": "喜欢川菜", "memory_type": "preference"}
REFUSED_BEFORE_THE_DATABASE = [
    ("memory_forget_everything", SAVE),
    ("", SAVE),
    ("memory_save", '{"key": "food-preference", "content": '),
    ("memory_save", "not json at all"),
    ("memory_save", '["food-preference", "喜欢川菜"]'),
    ("memory_save", '"喜欢川菜"'),
    ("memory_save", "42"),
    ("memory_save", b"\xff\xfe"),
    ("memory_save", {**SAVE, "memory_type": "habit"}),
    ("memory_save", {**SAVE, "memory_type": "profile"}),
    ("memory_save", {**SAVE, "key": "k" * 161}),
    ("memory_save", {**SAVE, "key": "饮食偏好"}),
    ("memory_save", {**SAVE, "key": "x'; DROP TABLE users; --"}),
    ("memory_save", {**SAVE, "key": "../../etc/passwd"}),
    ("memory_save", {**SAVE, "key": ""}),
    ("memory_save", {**SAVE, "content": "长" * 1001}),
    ("memory_save", {**SAVE, "content": "   "}),
    ("memory_save", {**SAVE, "content": "bad\x00byte"}),
    ("memory_save", '{"key": "food-preference", "content": "\\ud800", "memory_type": "fact"}'),
    ("memory_save", {"key": "food-preference", "memory_type": "preference"}),
    ("memory_save", {"content": "喜欢川菜", "memory_type": "preference"}),
    ("memory_save", {"key": "food-preference", "content": "喜欢川菜"}),
    ("memory_save", {**SAVE, "content": None}),
    ("memory_save", {**SAVE, "content": 123}),
    ("memory_save", {**SAVE, "key": ["food"]}),
    ("memory_save", {**SAVE, "importance": "high"}),
    ("memory_save", {**SAVE, "importance": True}),
    ("memory_save", {**SAVE, "importance": 2.5}),
    ("memory_save", {**SAVE, "importance": 9}),
    ("memory_save", {**SAVE, "confidence": "0.9"}),
    ("memory_save", {**SAVE, "confidence": 1.5}),
    ("memory_save", '{"key": "a", "content": "b", "memory_type": "fact", "confidence": NaN}'),
    ("memory_save", {**SAVE, "ttl_days": 0}),
    ("memory_save", {**SAVE, "ttl_days": "forever"}),
    ("memory_save", {**SAVE, "user_id": 2}),
    ("memory_append", {"key": "food-preference"}),
    ("memory_append", {"key": "food-preference", "content": "也爱吃火锅", "memory_type": "profile"}),
    ("memory_delete", {}),
    ("memory_delete", {"key": "Bad Key!"}),
    ("memory_delete", {"key": "food-preference", "user_id": 2}),
    ("memory_list", {"limit": 0}),
    ("memory_list", {"limit": "all"}),
    ("memory_list", {"memory_type": "profile"}),
    ("memory_list", {"user_id": 2}),
]


@pytest.mark.parametrize(("name", "arguments"), REFUSED_BEFORE_THE_DATABASE)
def test_bad_calls_return_a_readable_error_and_touch_nothing(touched: list[str], name: str, arguments: Any) -> None:
    """R-WRITE-1, R-SAFE-4: a bad call is an {"error": ...} result, never an exception, never a write."""
    result = execute(7, name, arguments)
    assert touched == []
    assert set(result) == {"error"}
    assert isinstance(result["error"], str) and len(result["error"]) > 10
    json.dumps(result)


@pytest.mark.parametrize("user_id", [0, -1, 2**31, True, "7", None, 1.0])
def test_an_invalid_user_id_from_the_chat_server_is_an_error_too(touched: list[str], user_id: Any) -> None:
    """R-SAFE-3/4: nothing raises into the chat loop, even when the caller's user id is wrong."""
    assert "error" in execute(user_id, "memory_list", {})
    assert touched == []


def test_errors_tell_the_model_what_to_do() -> None:
    """R-WRITE-1: the error names the problem in words the model can act on."""
    assert "memory_save" in execute(7, "memory_drop", {})["error"]
    assert "JSON" in execute(7, "memory_save", "{oops")["error"]
    assert "slug" in execute(7, "memory_save", {**SAVE, "key": "饮食偏好"})["error"]
    assert "profile" in execute(7, "memory_save", {**SAVE, "memory_type": "profile"})["error"]
    assert "user_id" in execute(7, "memory_save", {**SAVE, "user_id": 2})["error"]
    assert "content" in execute(7, "memory_save", {"key": "a", "memory_type": "fact"})["error"]


def test_an_unexpected_failure_is_an_error_result_not_an_exception(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-WRITE-1, R-SAFE-2: a database outage becomes {"error": ...} without internals."""
    from sqlalchemy.exc import OperationalError

    def down() -> None:
        raise OperationalError("SELECT secret", {}, Exception("connection refused to 10.0.0.5"))

    monkeypatch.setattr(tools, "session_scope", down)
    result = execute(7, "memory_save", SAVE)
    assert set(result) == {"error"}
    assert "OperationalError" in result["error"]
    assert "10.0.0.5" not in result["error"] and "secret" not in result["error"]
