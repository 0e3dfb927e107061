"""`python -m memory_tasks demo` (make run): a real sample conversation through the real worker.

Records a short Chinese and English conversation for one demo user, enqueues every user
turn, waits until the worker has processed them, then prints the user's memories and a
retrieval for a question, the way a chat server would inject them.
"""

from __future__ import annotations

import time

from memory_tasks.api import enqueue_turn, list_memories, record_turn, wait_for_message
from memory_tasks.forget import forget_user
from memory_tasks.retrieval import format_memory_block, retrieve

DEMO_USER_ID = 1001

SAMPLE_CONVERSATION: tuple[tuple[str, str], ...] = (
    ("user", "你好！我住在北京，是一名后端工程师。"),
    ("assistant", "<think>用户介绍了自己</think>你好！很高兴认识你。"),
    ("user", "我喜欢吃川菜，不太能吃甜的。"),
    ("assistant", "记住了，川菜很棒。"),
    ("user", "以后回复尽量用中文，简洁一点。"),
    ("user", "今晚提醒我给妈妈打电话。"),
    ("user", "好的"),
    ("user", "I'm training for a marathon next spring, my goal is to finish under four hours."),
    ("assistant", "That's a great goal!"),
    ("user", "I'm building a Rust compiler as a side project."),
    ("user", "我搬到上海了。"),
)
DEMO_QUESTION = "晚饭推荐点什么菜？"


def run_demo(timeout: float = 180.0) -> int:
    """Run the sample conversation; returns a process exit code (0 when every turn finished)."""
    forget_user(DEMO_USER_ID)  # so `make run` twice shows the same result
    print(f"== sample conversation of user {DEMO_USER_ID} ==")
    message_ids = []
    for role, text in SAMPLE_CONVERSATION:
        message_id = record_turn(DEMO_USER_ID, text, role=role)
        print(f"  [{role:9}] {text}")
        if role == "user":
            # Turn by turn, as a chat server would: later turns see earlier memories.
            enqueue_turn(message_id, countdown=0)
            message_ids.append(message_id)
            wait_for_message(message_id, timeout)

    deadline = time.monotonic() + timeout
    states = [wait_for_message(mid, max(1.0, deadline - time.monotonic())) for mid in message_ids]
    print("\n== message states ==")
    for (_role, text), state in zip([t for t in SAMPLE_CONVERSATION if t[0] == "user"], states, strict=True):
        note = f" ({state['error']})" if state.get("error") else ""
        print(f"  {state.get('status', '?'):9} {text}{note}")

    print(f"\n== memories of user {DEMO_USER_ID} ==")
    for m in list_memories(DEMO_USER_ID):
        print(f"  #{m['id']:<5} {m['memory_type']:<10} {m['memory_key']:<28} {m['content']}  [{m['vector_status']}]")

    print(f"\n== retrieval for {DEMO_QUESTION!r} ==")
    hits = retrieve(DEMO_USER_ID, DEMO_QUESTION)
    print(format_memory_block(hits))
    print(
        "\nThe stack keeps running. Try:\n"
        '  .venv/bin/python -m memory_tasks ingest --user 42 --text "我喜欢喝乌龙茶" --wait\n'
        "  .venv/bin/python -m memory_tasks list --user 42 --json\n"
        '  .venv/bin/python -m memory_tasks retrieve --user 42 --query "喝点什么" --json\n'
        "Flower: http://127.0.0.1:5555   Logs: var/log/   Stop everything: make down"
    )
    return 0 if all(s.get("status") in ("PROCESSED", "SKIPPED") for s in states) else 1
