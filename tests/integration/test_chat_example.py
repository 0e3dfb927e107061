"""examples/chat_server.py against the suite's local OpenAI-compatible server (R-OPS-5, R-WRITE-1, R-READ-4).

The fake server answers first with tool calls, then with text, the way a tool-using chat
model does; the example must retrieve and inject memories, run the tools for its own user,
send the results back, record both turns and enqueue the user turn.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from openai import OpenAI
from sqlalchemy import select

from examples import chat_server
from memory_tasks.db.models import LongTermMemory, Message
from memory_tasks.db.session import session_scope
from memory_tasks.tools import TOOL_SCHEMAS, execute
from memory_tasks.vectors.index import sync_vectors
from tests.conftest import PROJECT_ROOT
from tests.fake_openai import FakeOpenAI, Reply, text

USER, OTHER = 711, 712


def tool_calls(*calls: tuple[str, dict[str, Any] | str]) -> Reply:
    """A chat.completion whose assistant message asks for these (name, arguments) tool calls."""
    message = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": f"call_{i}",
                "type": "function",
                "function": {
                    "name": name,
                    "arguments": args if isinstance(args, str) else json.dumps(args, ensure_ascii=False),
                },
            }
            for i, (name, args) in enumerate(calls)
        ],
    }
    body = {
        "id": "chatcmpl-fake-tools",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": "fake-model",
        "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}],
        "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
    }
    return Reply(raw_body=json.dumps(body, ensure_ascii=False))


def _memories(user_id: int) -> dict[str, tuple[str, str]]:
    with session_scope() as session:
        rows = session.execute(
            select(LongTermMemory.memory_key, LongTermMemory.content, LongTermMemory.source).where(
                LongTermMemory.user_id == user_id, LongTermMemory.is_active.is_(True)
            )
        )
        return {key: (content, source) for key, content, source in rows}


def test_a_chat_turn_injects_memories_runs_tools_for_its_user_and_records_the_turn(db, fake_openai: FakeOpenAI) -> None:
    """R-READ-4, R-WRITE-1, R-SAFE-3: memories in the system prompt, tools executed for the turn's user only."""
    # given: what each user said earlier
    execute(USER, "memory_save", {"key": "drink-preference", "content": "喜欢喝乌龙茶", "memory_type": "preference"})
    execute(OTHER, "memory_save", {"key": "home-city", "content": "Lives in Lisbon", "memory_type": "fact"})
    fake_openai.script(
        tool_calls(
            ("memory_save", {"key": "home-city", "content": "住在上海", "memory_type": "fact"}),
            ("memory_save", {"key": "home-city", "content": "住在上海", "memory_type": "fact", "user_id": OTHER}),
            ("memory_delete", "{not json"),
        ),
        text("好的，记住了：你现在住在上海。"),
    )

    # when
    client = OpenAI(base_url=fake_openai.base_url, api_key="test", max_retries=0)
    result = chat_server.chat_turn(client, USER, "我搬到上海了，周末推荐点喝的？")

    # then: the model saw the tools and this user's memories, on the system side, and nobody else's
    first, second = fake_openai.requests
    assert [t["function"]["name"] for t in first["tools"]] == [t["function"]["name"] for t in TOOL_SCHEMAS]
    system = first["messages"][0]
    assert system["role"] == "system" and "乌龙茶" in system["content"] and "Lisbon" not in system["content"]
    assert first["messages"][-1] == {"role": "user", "content": "我搬到上海了，周末推荐点喝的？"}
    # It should send one tool message per call: the save worked, the hostile and broken calls are errors.
    tool_messages = [m for m in second["messages"] if m["role"] == "tool"]
    assert [m["tool_call_id"] for m in tool_messages] == ["call_0", "call_1", "call_2"]
    saved, hostile, broken = (json.loads(m["content"]) for m in tool_messages)
    assert saved["ok"] and saved["memory"]["user_id"] == USER
    assert "user_id" in hostile["error"] and "JSON" in broken["error"]
    assert second["messages"][-4]["tool_calls"][0]["function"]["name"] == "memory_save"
    assert result.reply == "好的，记住了：你现在住在上海。"
    assert result.tool_results == [saved, hostile, broken]

    assert _memories(USER)["home-city"] == ("住在上海", "tool")
    assert _memories(OTHER) == {"home-city": ("Lives in Lisbon", "tool")}
    with session_scope() as session:
        turns = session.execute(
            select(Message.id, Message.role, Message.conversation_id, Message.memory_status, Message.memory_claimed_at)
            .where(Message.user_id == USER)
            .order_by(Message.id)
        ).all()
    assert [(t.id, t.role) for t in turns] == [
        (result.user_message_id, "user"),
        (result.assistant_message_id, "assistant"),
    ]
    assert turns[0].conversation_id == turns[1].conversation_id
    assert turns[0].memory_claimed_at is not None  # enqueued for the pipeline
    assert turns[1].memory_status == "SKIPPED"  # an assistant turn is never a fact source


def test_the_example_runs_as_a_script_against_the_local_server(db, fake_openai: FakeOpenAI) -> None:
    """R-OPS-5: `python examples/chat_server.py --user ID TEXT` with OPENAI_BASE_URL pointing at the server."""
    fake_openai.script(
        tool_calls(
            ("memory_save", {"key": "hobby", "content": "Loves hiking in the Alps", "memory_type": "preference"})
        ),
        text("Noted, enjoy the mountains!"),
    )
    env = {
        **os.environ,
        "OPENAI_BASE_URL": fake_openai.base_url,
        "OPENAI_API_KEY": "test",
        "PYTHONPATH": str(PROJECT_ROOT),
    }
    run = subprocess.run(
        [
            sys.executable,
            str(PROJECT_ROOT / "examples" / "chat_server.py"),
            "--user",
            str(USER),
            "I love hiking in the Alps",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "Noted, enjoy the mountains!"
    assert '"ok": true' in run.stderr
    assert _memories(USER) == {"hobby": ("Loves hiking in the Alps", "tool")}
    assert len(fake_openai.requests) == 2


def _example(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """examples/chat_server.py run as a newcomer runs it, from `cwd`, without a chat model configured."""
    env = {**os.environ, "OPENAI_BASE_URL": "", "OPENAI_API_KEY": "", "PYTHONPATH": str(PROJECT_ROOT)}
    return subprocess.run(
        [sys.executable, str(PROJECT_ROOT / "examples" / "chat_server.py"), *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=180,
    )


def test_offline_runs_the_whole_loop_without_a_model(db, milvus_env) -> None:
    """Issue 17 item 6: `--offline` retrieves and injects, makes a tool call whose dict goes back as a JSON
    tool message, replies, records both turns and enqueues the user's, with no key and no network.

    As after `make up`: the memory's vector is in Milvus, so the question is answered by dense
    retrieval (the lexical fallback shares no word between 周末喝点什么 and 喜欢喝乌龙茶)."""
    saved = execute(
        USER, "memory_save", {"key": "drink-preference", "content": "喜欢喝乌龙茶", "memory_type": "preference"}
    )
    sync_vectors([saved["memory"]["id"]])
    run = _example("--offline", "--user", str(USER), "周末喝点什么？", cwd=PROJECT_ROOT / "docs")
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == (
        "(offline model) Memories injected for this question: [preference] 喜欢喝乌龙茶. memory_list returned 1."
    )
    [tool_line] = [line for line in run.stderr.splitlines() if line.startswith("  [tool] ")]
    listed = json.loads(tool_line.removeprefix("  [tool] "))
    assert [m["content"] for m in listed["memories"]] == ["喜欢喝乌龙茶"]
    with session_scope() as session:
        turns = session.execute(
            select(Message.role, Message.content, Message.memory_claimed_at)
            .where(Message.user_id == USER)
            .order_by(Message.id)
        ).all()
    assert [(t.role, t.content) for t in turns] == [("user", "周末喝点什么？"), ("assistant", run.stdout.strip())]
    assert turns[0].memory_claimed_at is not None  # enqueued for the pipeline


def test_without_a_model_the_example_says_how_to_run_it(db) -> None:
    """Issue 17 item 6: no model configured is one line pointing at --offline, not an APIConnectionError."""
    run = _example("--user", str(USER), "周末喝点什么？", cwd=PROJECT_ROOT)
    assert run.returncode == 2
    assert run.stderr.strip().splitlines() == [
        "error: no chat model configured (OPENAI_BASE_URL / OPENAI_API_KEY); --offline runs without one"
    ]


def test_the_readmes_integration_snippets_are_the_examples_code() -> None:
    """Issue 17 item 6: the README shows code of examples/chat_server.py, verbatim, so it cannot drift."""
    readme = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Integrating a chat server", 1)[1].split("\n## ", 1)[0]
    snippets = re.findall(r"```python\n(.*?)```", section, flags=re.DOTALL)
    source = (PROJECT_ROOT / "examples" / "chat_server.py").read_text(encoding="utf-8")
    assert len(snippets) >= 3
    assert [snippet for snippet in snippets if snippet not in source] == []
