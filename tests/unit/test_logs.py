"""The JSON log format (issue 15 item 3, R-OPS-4): ids in, memory text and secrets out."""

from __future__ import annotations

import json
import logging

from celery.app.trace import LOG_RECEIVED, LOG_SUCCESS

from memory_tasks.logs import JsonFormatter, bind_task, task_ids, unbind_task

SAID = "我对花生过敏"


def _record(msg: str, args: object = (), **extra: object) -> logging.LogRecord:
    record = logging.LogRecord("memory_tasks.test", logging.INFO, __file__, 1, msg, args, None)
    for name, value in extra.items():
        setattr(record, name, value)
    return record


def test_content_fields_are_dropped_unless_content_logging_is_on() -> None:
    """issue 15 item 3: memory text (and keys made from it) is left out by default, kept for debugging."""
    record = _record("candidate dropped", user_id=7, memory_ids=[3], content=SAID, key="allergy-peanut", reason=SAID)
    line = json.loads(JsonFormatter().format(record))
    assert line["user_id"] == 7 and line["memory_ids"] == [3]
    assert {"content", "key", "reason"}.isdisjoint(line)
    debugging = json.loads(JsonFormatter(log_content=True).format(record))
    assert debugging["content"] == SAID and debugging["key"] == "allergy-peanut"


def test_secret_fields_are_dropped_even_with_content_logging() -> None:
    """issue 15 item 3: a field naming a secret never reaches a log line."""
    record = _record("calling", api_key="sk-live-0123456789abcdef", password="hunter2", model="m")
    text = JsonFormatter(log_content=True).format(record)
    assert "sk-live" not in text and "hunter2" not in text
    assert json.loads(text)["model"] == "m"


def test_celery_success_lines_carry_ids_and_duration_but_not_the_return_value() -> None:
    """issue 15 item 3: Celery's "succeeded" line (return value: candidate memories) becomes ids and a duration."""
    data = {
        "id": "t-1",
        "name": "memory.refine_candidates",
        "return_value": repr({"candidates": [{"content": SAID}]}),
        "runtime": 0.25,
        "args": repr(({"candidates": [{"content": SAID}]},)),
        "kwargs": "{}",
    }
    record = _record(LOG_SUCCESS, (data,), data=data)
    record.args = data  # as Celery passes it: the dict is the formatting mapping
    text = JsonFormatter().format(record)
    assert SAID not in text
    line = json.loads(text)
    assert line == {**line, "msg": "task succeeded", "task_id": "t-1", "task": "memory.refine_candidates"}
    assert line["duration_ms"] == 250.0
    assert SAID in JsonFormatter(log_content=True).format(record)


def test_celery_received_lines_name_the_task_without_its_arguments() -> None:
    """issue 15 item 3: "Task x[id] received" keeps the ids, not the arguments (a stage payload)."""
    data = {
        "id": "t-2",
        "name": "memory.upsert_memories",
        "args": repr(({"content": SAID},)),
        "kwargs": "{}",
        "eta": None,
    }
    record = _record(LOG_RECEIVED, data=data)
    record.args = data
    line = json.loads(JsonFormatter().format(record))
    assert line["msg"] == "task received" and line["task_id"] == "t-2"
    assert SAID not in json.dumps(line, ensure_ascii=False)


def test_lines_inside_a_task_carry_its_ids_until_it_ends() -> None:
    """issue 15 item 3: task id, name, stage and the message id from the stage's payload on every line."""
    bind_task("t-3", "memory.upsert_memories", task_ids("message", ({"message_id": 42, "candidates": []},)))
    try:
        line = json.loads(JsonFormatter().format(_record("memories written", memory_ids=[5, 6])))
    finally:
        unbind_task()
    assert line["task_id"] == "t-3" and line["task"] == "memory.upsert_memories"
    assert line["stage"] == "upsert_memories" and line["message_id"] == 42 and line["memory_ids"] == [5, 6]
    assert "task_id" not in json.loads(JsonFormatter().format(_record("later")))


def test_task_ids_read_only_well_formed_ids() -> None:
    """issue 15 item 3: ids come from the owned argument's shape; anything else adds nothing."""
    assert task_ids("message", (17,)) == {"message_id": 17}
    assert task_ids("message", ({"message_id": 18},)) == {"message_id": 18}
    assert task_ids("message", (True,)) == {}
    assert task_ids("memories", ([1, 2],)) == {"memory_ids": [1, 2]}
    assert task_ids("memories", (["1"],)) == {}
    assert task_ids("nothing", (17,)) == {}
    assert task_ids("message", ()) == {}
