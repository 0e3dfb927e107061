"""The PATCH body's content pattern says exactly what `memories.edits` can store (R-HTTP-1).

schemathesis sends whatever the OpenAPI pattern allows and counts a 422 for it as a schema
that lies ("\\u0007\\r" passed the old non-blank pattern and was empty once the control
characters were cut).
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from memory_tasks.http.schemas import MemoryPatch
from memory_tasks.memories.edits import MemoryEdit, _checked

PATTERN = MemoryPatch.model_json_schema()["properties"]["content"]["pattern"]


@settings(max_examples=400, deadline=None)
@given(st.from_regex(re.compile(PATTERN), fullmatch=True).filter(lambda s: len(s) <= 200))
def test_every_content_the_schema_accepts_is_stored_non_empty(content: str) -> None:
    MemoryPatch.model_validate({"content": content})
    assert _checked(MemoryEdit(content=content)).content


@pytest.mark.parametrize("content", ["\u0007\r", "\x1c", "\u202a \u2066", "\x1b[31m", "\x1bA", "\x9b1m", "\x7f"])
def test_content_that_would_be_empty_once_cleaned_is_refused_by_the_schema(content: str) -> None:
    with pytest.raises(ValidationError):
        MemoryPatch.model_validate({"content": content})


def test_readable_content_with_a_control_character_is_accepted_and_cleaned() -> None:
    MemoryPatch.model_validate({"content": "likes\u0007 tea"})
    assert _checked(MemoryEdit(content="likes\u0007 tea")).content == "likes tea"
