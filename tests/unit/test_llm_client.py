"""memory_tasks.llm through the real openai client against the local fake server."""

from __future__ import annotations

import logging
import socket
import time

import pytest

from config.settings import Settings
from memory_tasks.llm import (
    LLMOutputError,
    LLMPermanentError,
    LLMTransientError,
    chat_json,
    json_items,
    parse_json_output,
    strip_think,
)
from tests.fake_openai import FakeOpenAI, Reply, error, text

API_KEY = "sk-test-very-secret-key-0123456789"
MESSAGES = [{"role": "system", "content": "Answer in JSON."}, {"role": "user", "content": "我常住武汉"}]


def settings_for(server: FakeOpenAI, *, api_key: str = API_KEY) -> Settings:
    return Settings(
        _env_file=None,
        OPENAI_BASE_URL=server.base_url,
        OPENAI_API_KEY=api_key,
        OPENAI_CHAT_MODEL="fake-chat",
    )


def ask(server: FakeOpenAI, *, timeout: float = 2.0, **kwargs):
    return chat_json(MESSAGES, timeout=timeout, purpose="test", settings=settings_for(server, **kwargs))


@pytest.mark.parametrize(
    "answer",
    [
        '{"candidates": [{"key": "residence-city", "content": "常住武汉"}]}',
        '```json\n{"candidates": [{"key": "residence-city", "content": "常住武汉"}]}\n```',
        'Sure! Here is the JSON:\n{"candidates": [{"key": "residence-city", "content": "常住武汉"}]}\nHope it helps.',
        '{"candidates": [{"key": "residence-city", "content": "常住武汉",},],}',
        '<think>用户说他住在武汉 {"draft": true}</think>\n{"candidates": [{"key": "residence-city", "content": "常住武汉"}]}',
        "{“candidates”: [{“key”: “residence-city”, “content”: “常住武汉”}]}",
    ],
    ids=["plain", "fenced", "prose-around", "trailing-commas", "think-block", "smart-quotes"],
)
def test_model_answers_in_common_wrappings_parse_to_the_same_json(fake_openai: FakeOpenAI, answer: str) -> None:
    """R-PIPE-9: fences, prose, trailing commas, <think> and smart quotes still yield the JSON value."""
    fake_openai.script(text(answer))
    result = ask(fake_openai)
    assert result.value == {"candidates": [{"key": "residence-city", "content": "常住武汉"}]}
    assert result.raw_text == answer


def test_single_object_or_bare_list_becomes_a_list_of_items() -> None:
    """R-PIPE-9: a lone candidate object or a bare list is accepted as the item list."""
    single = parse_json_output('{"op": "upsert", "key": "diet", "content": "吃素"}')
    assert json_items(single, wrapper="candidates", raw_text="") == [single]
    assert json_items(parse_json_output("[1, 2]"), wrapper="candidates", raw_text="") == [1, 2]
    assert json_items({}, wrapper="candidates", raw_text="") == []
    assert json_items({"memories": [3]}, wrapper="candidates", raw_text="") == [3]


def test_smart_quotes_inside_chinese_content_are_kept() -> None:
    """R-PIPE-9: only smart quotes used as JSON delimiters are repaired, not those in the text."""
    assert parse_json_output('{"content": "说“以后用中文”"}') == {"content": "说“以后用中文”"}


@pytest.mark.parametrize("answer", ["I could not find anything.", '{"candidates": [', "", "<think>still thinking"])
def test_unusable_answer_raises_output_error_carrying_the_raw_text(fake_openai: FakeOpenAI, answer: str) -> None:
    """R-PIPE-9: no JSON in the answer is an LLMOutputError with the raw text for diagnosis."""
    fake_openai.script(text(answer))
    with pytest.raises(LLMOutputError) as caught:
        ask(fake_openai)
    assert caught.value.raw_text == answer


def test_output_error_truncates_huge_raw_text() -> None:
    """R-PIPE-9: the stored diagnosis stays a few KB however long the answer."""
    with pytest.raises(LLMOutputError) as caught:
        parse_json_output("x" * 100_000)
    assert 0 < len(caught.value.raw_text) <= 4000


def test_non_json_http_body_is_an_output_error(fake_openai: FakeOpenAI) -> None:
    """R-PIPE-9: a 200 whose body is an HTML page (a proxy) is unusable output, not a crash."""
    fake_openai.script(Reply(raw_body="<html>bad gateway page</html>"))
    with pytest.raises(LLMOutputError) as caught:
        ask(fake_openai)
    assert "bad gateway page" in caught.value.raw_text


def test_request_uses_json_mode_and_low_temperature(fake_openai: FakeOpenAI) -> None:
    """R-LLM-1: the chat model is asked for a JSON object at temperature 0.1."""
    ask(fake_openai)
    body = fake_openai.requests[0]
    assert body["model"] == "fake-chat"
    assert body["response_format"] == {"type": "json_object"}
    assert body["temperature"] == pytest.approx(0.1)
    assert body["messages"] == MESSAGES


def test_empty_api_key_sends_a_placeholder_for_local_servers(fake_openai: FakeOpenAI) -> None:
    """R-LLM-1: a local server without auth works with OPENAI_API_KEY unset."""
    ask(fake_openai, api_key="")
    assert fake_openai.headers[0]["authorization"] == "Bearer not-needed"


def test_server_rejecting_response_format_is_retried_without_it_and_remembered(fake_openai: FakeOpenAI) -> None:
    """R-LLM-1, R-PIPE-9: JSON mode is used where offered; a server that 400s it still works."""
    fake_openai.script(
        error(400, "response_format json_object is not supported by this model", param="response_format"),
        text('{"candidates": []}'),
        text('{"candidates": []}'),
    )
    assert ask(fake_openai).value == {"candidates": []}
    assert ask(fake_openai).value == {"candidates": []}
    sent = [("response_format" in body) for body in fake_openai.requests]
    assert sent == [True, False, False]


def test_rate_limit_then_success_is_retried_within_the_call(fake_openai: FakeOpenAI) -> None:
    """R-PIPE-10: a 429 is retried with backoff inside the budget, then the answer is used."""
    fake_openai.script(error(429, "Rate limit reached", type="rate_limit_error"), text('{"candidates": []}'))
    result = ask(fake_openai)
    assert result.value == {"candidates": []}
    assert len(fake_openai.requests) == 2
    assert fake_openai.pending == 0


def test_server_error_that_persists_is_transient(fake_openai: FakeOpenAI) -> None:
    """R-PIPE-10: 5xx means retry later; the in-call retries are bounded."""
    fake_openai.default = lambda body: error(500, "internal error", type="server_error")
    with pytest.raises(LLMTransientError, match="500"):
        ask(fake_openai)
    assert 1 < len(fake_openai.requests) <= 3


def test_retry_after_beyond_the_budget_gives_up_at_once_with_the_hint(fake_openai: FakeOpenAI) -> None:
    """R-PIPE-10: the call never sleeps past its budget; the hint goes to the task's retry."""
    fake_openai.script(error(429, "slow down", type="rate_limit_error", headers={"Retry-After": "30"}))
    started = time.monotonic()
    with pytest.raises(LLMTransientError) as caught:
        ask(fake_openai, timeout=1.0)
    assert time.monotonic() - started < 0.5
    assert caught.value.retry_after == 30
    assert len(fake_openai.requests) == 1


def test_bad_api_key_fails_fast_without_revealing_the_key(fake_openai: FakeOpenAI) -> None:
    """R-PIPE-10: 401 is permanent, not retried, and the message never contains the key."""
    fake_openai.script(error(401, f"Incorrect API key provided: {API_KEY}", type="invalid_api_key"))
    started = time.monotonic()
    with pytest.raises(LLMPermanentError) as caught:
        ask(fake_openai)
    assert time.monotonic() - started < 0.5
    assert len(fake_openai.requests) == 1
    assert "401" in str(caught.value)
    assert API_KEY not in str(caught.value)
    assert API_KEY[:12] not in str(caught.value)


@pytest.mark.parametrize("status", [400, 403, 404, 422])
def test_rejected_requests_are_permanent(fake_openai: FakeOpenAI, status: int) -> None:
    """R-PIPE-10: 400/403/404/422 cannot succeed on retry, so they fail fast."""
    fake_openai.script(error(status, "model 'fake-chat' does not exist"))
    with pytest.raises(LLMPermanentError, match=str(status)):
        ask(fake_openai)
    assert len(fake_openai.requests) == 1


def test_slow_answer_times_out_as_transient_within_the_budget(fake_openai: FakeOpenAI) -> None:
    """R-PIPE-10: the timeout budget covers the whole call; a hung server is a transient error."""
    fake_openai.script(text('{"candidates": []}', delay=5))
    started = time.monotonic()
    with pytest.raises(LLMTransientError, match="timed out"):
        ask(fake_openai, timeout=1.0)
    assert time.monotonic() - started < 1.8


def test_unreachable_server_is_transient() -> None:
    """R-PIPE-10: connection refused means the model is down for now, not a bad request."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings = Settings(_env_file=None, OPENAI_BASE_URL=f"http://127.0.0.1:{port}/v1", OPENAI_CHAT_MODEL="m")
    with pytest.raises(LLMTransientError, match="cannot reach"):
        chat_json(MESSAGES, timeout=1.0, purpose="test", settings=settings)


def test_token_usage_is_logged_per_call(fake_openai: FakeOpenAI, caplog: pytest.LogCaptureFixture) -> None:
    """R-LLM-1: every call logs purpose, model, prompt/completion tokens and latency."""
    fake_openai.script(text('{"candidates": []}', prompt_tokens=321, completion_tokens=45))
    with caplog.at_level(logging.INFO, logger="memory_tasks.llm"):
        chat_json(MESSAGES, timeout=2, purpose="extract", settings=settings_for(fake_openai))
    record = next(r for r in caplog.records if r.name == "memory_tasks.llm" and hasattr(r, "prompt_tokens"))
    assert (record.purpose, record.model, record.prompt_tokens, record.completion_tokens) == (
        "extract",
        "fake-chat",
        321,
        45,
    )
    assert record.latency_ms >= 0
    assert API_KEY not in caplog.text


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("<think>先想想</think>好的，我记住了。", "好的，我记住了。"),
        ("前言<think>a</think>中间<think>b</think>结尾", "前言中间结尾"),
        ("<think>never closed, cut off mid-reasoning", ""),
        ("reasoning without opening tag</think>Answer", "Answer"),
        ("no reasoning here", "no reasoning here"),
    ],
)
def test_strip_think_removes_reasoning_blocks(raw: str, expected: str) -> None:
    """R-PIPE-11: <think> blocks (closed, unclosed leading, orphan close) never reach the context."""
    assert strip_think(raw) == expected


def test_an_output_error_carries_no_nul_or_lone_surrogate() -> None:
    """Issue 11.9: a NUL in the raw answer must not make recording the failure fail too."""
    with pytest.raises(LLMOutputError) as failed:
        parse_json_output("not json \x00 and \ud800 here")
    assert failed.value.raw_text == "not json \ufffd and \ufffd here"
    failed.value.raw_text.encode("utf-8")


SCHEMA = {"type": "object", "properties": {"candidates": {"type": "array"}}, "required": ["candidates"]}


def test_a_schema_is_asked_for_first_then_json_mode_then_nothing_and_the_floor_is_remembered(
    fake_openai: FakeOpenAI,
) -> None:
    """Issue 13.6: JSON-schema structured output where offered, JSON mode next, tolerant parsing last."""
    settings = settings_for(fake_openai)
    fake_openai.script(
        error(400, "response_format json_schema is not supported", param="response_format"),
        error(400, "response_format json_object is not supported by this model", param="response_format"),
        text('Here you go: {"candidates": []}'),
        text('{"candidates": []}'),
    )
    assert chat_json(MESSAGES, timeout=2.0, purpose="extract", settings=settings, schema=SCHEMA).value == {
        "candidates": []
    }
    assert chat_json(MESSAGES, timeout=2.0, purpose="extract", settings=settings, schema=SCHEMA).value == {
        "candidates": []
    }
    formats = [body.get("response_format", {}).get("type") for body in fake_openai.requests]
    assert formats == ["json_schema", "json_object", None, None]
    assert fake_openai.requests[0]["response_format"]["json_schema"] == {"name": "extract", "schema": SCHEMA}


def test_a_server_that_takes_the_schema_keeps_getting_it(fake_openai: FakeOpenAI) -> None:
    settings = settings_for(fake_openai)
    for _ in range(2):
        chat_json(MESSAGES, timeout=2.0, purpose="extract", settings=settings, schema=SCHEMA)
    assert [body["response_format"]["type"] for body in fake_openai.requests] == ["json_schema", "json_schema"]
