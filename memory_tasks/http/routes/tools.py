"""The agent's memory tools over HTTP: GET /v1/tools (schemas), POST /v1/tools/{name} (one call)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path

from memory_tasks.http.deps import ChatCaller
from memory_tasks.http.errors import COMMON_RESPONSES
from memory_tasks.http.schemas import ToolCallIn, ToolsOut
from memory_tasks.tools import TOOL_SCHEMAS, execute

router = APIRouter(prefix="/v1/tools", tags=["tools"], responses=COMMON_RESPONSES)


@router.get("")
def get_tools(caller: ChatCaller) -> ToolsOut:
    """The OpenAI tool definitions of memory_save, memory_append, memory_delete and memory_list."""
    return ToolsOut(tools=TOOL_SCHEMAS)


@router.post(
    "/{name}",
    responses={200: {"description": 'The tool\'s result, or `{"error": ...}` for the model when the call is bad.'}},
)
def post_tool(
    name: Annotated[str, Path(min_length=1, max_length=64)], call: ToolCallIn, caller: ChatCaller
) -> dict[str, Any]:
    """Run one tool call of the model for `user_id`; send the answer back to the model as the tool message.

    A bad call (unknown tool, bad arguments) is still a 200: its body is the tool's error
    object, written for the model, and nothing changed.
    """
    return execute(call.user_id, name, call.arguments)
