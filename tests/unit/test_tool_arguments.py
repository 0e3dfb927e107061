"""Property tests over the tool-argument parser (memory_tasks.tools.parse_arguments and
checked_arguments): whatever a model sends as a tool call's arguments (issue 11.9)."""

from __future__ import annotations

import json
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from memory_tasks.tools import TOOLS, ToolError, checked_arguments, parse_arguments

_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**20), max_value=10**20)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=20)
    | st.sampled_from(["\x00", "\ud800", "fact", "home-city", "住在上海", "1e999"])
)
_VALUES = st.recursive(
    _SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
)
_NAMES = sorted({p.name for tool in TOOLS.values() for p in tool.params})
_ARGUMENTS = st.dictionaries(st.sampled_from(_NAMES) | st.text(max_size=6), _VALUES, max_size=5)
_RAW = st.one_of(
    st.none(),
    st.text(max_size=60),
    st.binary(max_size=40),
    _VALUES,
    _ARGUMENTS.map(lambda a: json.dumps(a, allow_nan=True)),
    st.sampled_from(['{"key": 1e999}', '{"limit": NaN}', '{"key": "\\u0000"}', '{"content": "\\udc00"}', "[1]"]),
)


@settings(max_examples=300, deadline=None)
@given(_RAW)
def test_parse_arguments_returns_a_dict_or_a_tool_error(raw: object) -> None:
    """Any string, bytes or value: a dict of arguments, or ToolError (which the model reads)."""
    try:
        parsed = parse_arguments(raw)  # type: ignore[arg-type]
    except ToolError:
        return
    assert isinstance(parsed, dict)


def _fits(schema: dict, value: object) -> bool:
    if schema["type"] == "string":
        return isinstance(value, str) and "\x00" not in value and value.encode("utf-8") is not None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return False
    if schema["type"] == "integer" and type(value) is not int:
        return False
    return schema.get("minimum", -math.inf) <= value <= schema.get("maximum", math.inf)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(TOOLS)), _ARGUMENTS)
def test_checked_arguments_are_exactly_the_declared_names_with_their_schema_types(
    tool_name: str, arguments: dict
) -> None:
    """Checked arguments are declared names holding values of the declared type and range
    (no NaN, no boolean as a number, no NUL or lone surrogate in text), or ToolError."""
    tool = TOOLS[tool_name]
    try:
        checked = checked_arguments(tool, arguments)
    except ToolError:
        return
    params = {p.name: p for p in tool.params}
    assert set(checked) <= set(params)
    assert all(p.name in checked for p in tool.params if p.required)
    for name, value in checked.items():
        assert _fits(params[name].schema, value), (name, value)
