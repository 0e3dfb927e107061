"""One chat turn the way a chat server does it, with long-term memory (SPEC R-OPS-5, R-READ, R-WRITE).

    .venv/bin/python examples/chat_server.py --offline --user 42 "我喜欢喝乌龙茶"
    OPENAI_BASE_URL=http://127.0.0.1:8000/v1 .venv/bin/python examples/chat_server.py --user 42 "我搬到上海了"

`--offline` answers with a built-in stand-in for the chat model (`OfflineModel`: no key, no
network) that makes one memory tool call and then replies, so the whole loop runs as it would
with a real model; otherwise any OpenAI-compatible server. With `make up` running, the worker
then turns the user turn into memories (`--wait` waits for it and prints what became of each
statement). Run it from any folder of the checkout (the settings come from its `.env`), or
from anywhere with MEMORY_ENV_FILE=/path/to/checkout/.env. The turn:

1. record the user turn in PostgreSQL (`record_turn`);
2. retrieve the user's memories for the question and inject them on the system side
   (`retrieve` + `format_memory_block`);
3. call the chat model with the memory tools (`TOOL_SCHEMAS`), run each tool call for
   this user with `execute` and send the results back, until the model answers;
4. record the assistant turn and enqueue the user turn for the memory pipeline
   (`enqueue_turn`).

A real server would also send the recent conversation; it is left out to keep the
memory parts in view.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from dataclasses import dataclass, field
from typing import Any

from openai import APIConnectionError, OpenAI
from openai.types.chat import ChatCompletion

from config.settings import get_settings
from memory_tasks.api import enqueue_turn, record_turn, wait_for_message
from memory_tasks.db.models import Conversation, Message
from memory_tasks.db.session import session_scope
from memory_tasks.retrieval import format_memory_block, retrieve
from memory_tasks.tools import TOOL_SCHEMAS, execute

logger = logging.getLogger("examples.chat_server")

SYSTEM_PROMPT = (
    "You are a helpful assistant with a long-term memory of this user. Use the memory tools to save what "
    "the user wants remembered or what will matter in future conversations, and to delete what no longer holds."
)
# Tool rounds per turn; a model that keeps calling tools after this gets no more.
MAX_TOOL_ROUNDS = 4


@dataclass
class TurnResult:
    """The reply, the ids of the two recorded turns and every tool call's result."""

    reply: str
    user_message_id: int
    assistant_message_id: int | None
    tool_results: list[dict[str, Any]] = field(default_factory=list)


class OfflineModel:
    """A stand-in for an OpenAI chat client (`client.chat.completions.create`), no key, no network.

    Its first answer asks for one `memory_list` tool call; once the tool message is back, it
    replies in text with what it was told: the memories injected on the system side and the
    number the tool listed. Deterministic, so a newcomer sees the loop work before wiring a model.
    """

    def __init__(self) -> None:
        self.chat = self  # client.chat.completions.create(...) as on OpenAI
        self.completions = self

    def create(self, *, model: str, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> ChatCompletion:
        tool_messages = [m for m in messages if m["role"] == "tool"]
        if not tool_messages:
            call = {"id": "call_offline_1", "type": "function", "function": {"name": "memory_list", "arguments": "{}"}}
            message: dict[str, Any] = {"role": "assistant", "content": None, "tool_calls": [call]}
        else:
            listed = json.loads(tool_messages[-1]["content"])
            injected = [line[2:] for line in messages[0]["content"].splitlines() if line.startswith("- ")]
            known = "; ".join(injected) if injected else "nothing yet"
            count = len(listed.get("memories", []))
            content = f"(offline model) Memories injected for this question: {known}. memory_list returned {count}."
            message = {"role": "assistant", "content": content}
        return ChatCompletion.model_validate(
            {
                "id": "offline",
                "object": "chat.completion",
                "created": 0,
                "model": model,
                "choices": [
                    {"index": 0, "message": message, "finish_reason": "tool_calls" if not tool_messages else "stop"}
                ],
            }
        )


def make_client() -> OpenAI:
    """A client for OPENAI_BASE_URL / OPENAI_API_KEY (a local server needs no real key)."""
    settings = get_settings()
    return OpenAI(api_key=settings.OPENAI_API_KEY or "not-needed", base_url=settings.OPENAI_BASE_URL or None)


def prompt_messages(user_id: int, text: str, summary: str = "") -> list[dict[str, Any]]:
    """The system prompt with the user's memories for `text` (and the conversation summary)
    injected, then the user turn."""
    memory_block = format_memory_block(retrieve(user_id, text, summary=summary))
    system = f"{SYSTEM_PROMPT}\n\n{memory_block}" if memory_block else SYSTEM_PROMPT
    return [{"role": "system", "content": system}, {"role": "user", "content": text}]


def answer(client: OpenAI, model: str, user_id: int, prompt: list[dict[str, Any]]) -> tuple[str, list[dict]]:
    """Talk to the model until it answers in text; returns the reply and every tool call's result.

    Tool calls run for `user_id`, the chat server's user: never whatever the model put in
    the arguments.
    """
    messages = list(prompt)
    tool_results: list[dict[str, Any]] = []
    for _ in range(MAX_TOOL_ROUNDS):
        message = client.chat.completions.create(model=model, messages=messages, tools=TOOL_SCHEMAS).choices[0].message
        if not message.tool_calls:
            return message.content or "", tool_results
        messages.append(message.model_dump(exclude_none=True))
        for call in message.tool_calls:
            result = execute(user_id, call.function.name, call.function.arguments)
            tool_results.append(result)
            content = json.dumps(result, ensure_ascii=False)
            messages.append({"role": "tool", "tool_call_id": call.id, "content": content})
    return "", tool_results


def chat_turn(client: OpenAI, user_id: int, text: str, *, model: str | None = None) -> TurnResult:
    """Run one chat turn of `user_id` saying `text` (steps 1-4 of the module docstring)."""
    user_message_id = record_turn(user_id, text, role="user")
    with session_scope() as session:
        conversation = session.get(Conversation, session.get(Message, user_message_id).conversation_id)
        conversation_id, summary = conversation.id, conversation.summary

    reply, tool_results = answer(
        client, model or get_settings().OPENAI_CHAT_MODEL, user_id, prompt_messages(user_id, text, summary)
    )

    assistant_message_id = (
        record_turn(user_id, reply, role="assistant", conversation_id=conversation_id) if reply.strip() else None
    )
    try:
        enqueue_turn(user_message_id)
    except Exception:
        # The chat goes on; the beat rescan picks up PENDING messages (R-BEAT-1).
        logger.warning("could not enqueue the turn", exc_info=True, extra={"message_id": user_message_id})
    return TurnResult(reply, user_message_id, assistant_message_id, tool_results)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run one chat turn with long-term memory.")
    parser.add_argument("--user", type=int, required=True, help="the chat server's user id")
    parser.add_argument("--model", help="chat model (default OPENAI_CHAT_MODEL)")
    parser.add_argument("--offline", action="store_true", help="the built-in stand-in model: no key, no network")
    parser.add_argument("--wait", action="store_true", help="wait for the worker and print what it made of the turn")
    parser.add_argument("text", help="what the user says")
    args = parser.parse_args(argv)
    if not args.offline and not get_settings().llm_configured:
        print(
            "error: no chat model configured (OPENAI_BASE_URL / OPENAI_API_KEY); --offline runs without one",
            file=sys.stderr,
        )
        return 2
    client = OfflineModel() if args.offline else make_client()
    try:
        result = chat_turn(client, args.user, args.text, model=args.model)  # type: ignore[arg-type]
    except APIConnectionError:
        print(
            f"error: the chat model at {get_settings().OPENAI_BASE_URL or 'api.openai.com'} is not reachable; "
            "--offline runs without one",
            file=sys.stderr,
        )
        return 1
    print(result.reply)
    for tool_result in result.tool_results:
        print(f"  [tool] {json.dumps(tool_result, ensure_ascii=False)}", file=sys.stderr)
    if args.wait:
        state = wait_for_message(result.user_message_id, 120)
        print(f"memory pipeline: message {result.user_message_id} {state.get('status')}")
        for outcome in state.get("outcomes", []):
            where = f"#{outcome['memory_id']} " if outcome["memory_id"] else ""
            print(
                f"  {outcome['status']} {where}{outcome['key'] or outcome['text']}: {outcome['op'] or outcome['reason']}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
