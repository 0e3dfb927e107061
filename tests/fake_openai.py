"""A scripted OpenAI-compatible chat server for tests; no test ever reaches the internet.

It is plain HTTP on 127.0.0.1 (a free port), so the real `openai` client in the test
process and a Celery worker subprocess (given `OPENAI_BASE_URL=server.base_url`) both
talk to it. `POST /v1/chat/completions` pops the next scripted `Reply`; when the script
is empty the `default` responder answers. Every request body is recorded.

Use the `fake_openai` fixture (register it in a conftest with
`from tests.fake_openai import fake_openai` or `pytest_plugins = ["tests.fake_openai"]`):

    fake_openai.script(text('{"candidates": []}'), error(429, "slow down"), text("..."))
    fake_openai.default = lambda body: text('{"decisions": []}')
    fake_openai.requests[-1]["messages"]
    fake_openai.outage((10, error(503, "overloaded")), (3, error(429, "slow", headers={"Retry-After": "1"})))

`outage` makes the server fail every request for a while, phase after phase, then answer
normally again (scripted replies wait meanwhile); `outage_requests` counts what it refused.
Starting a server resets the shared LLM breaker: a new model has no failure history.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from config.settings import get_settings
from memory_tasks.breaker import Breaker

CHAT_PATH = "/v1/chat/completions"


@dataclass
class Reply:
    """One scripted answer.

    `content` is the assistant message text (wrapped in a chat.completion); a non-200
    `status` sends `error` as the OpenAI error body instead; `raw_body` overrides both
    with exact bytes; `delay` seconds pass before anything is sent.
    """

    content: str = ""
    status: int = 200
    error: dict[str, Any] | None = None
    raw_body: str | None = None
    delay: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)
    prompt_tokens: int = 11
    completion_tokens: int = 7


def text(content: str, *, delay: float = 0.0, prompt_tokens: int = 11, completion_tokens: int = 7) -> Reply:
    """A 200 whose assistant message is `content`."""
    return Reply(content=content, delay=delay, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens)


def as_json(value: Any, **kwargs: Any) -> Reply:
    """A 200 whose assistant message is `value` serialized as JSON (non-ASCII kept)."""
    return text(json.dumps(value, ensure_ascii=False), **kwargs)


def error(
    status: int,
    message: str,
    *,
    type: str = "invalid_request_error",
    param: str | None = None,
    code: str | None = None,
    headers: dict[str, str] | None = None,
) -> Reply:
    """An HTTP error with an OpenAI-shaped body {"error": {message, type, param, code}}."""
    body = {"message": message, "type": type, "param": param, "code": code}
    return Reply(status=status, error=body, headers=headers or {})


Responder = Callable[[dict[str, Any]], "Reply | str"]


def _empty_candidates(_body: dict[str, Any]) -> Reply:
    return text('{"candidates": []}')


class FakeOpenAI:
    """The server. `base_url` ends in /v1, as OPENAI_BASE_URL expects."""

    def __init__(self, default: Responder = _empty_candidates) -> None:
        self.default: Responder = default
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []  # per request, names lowercased
        self._script: deque[Reply | str] = deque()
        # (monotonic end time, reply) of each outage phase, in order.
        self._outage: list[tuple[float, Reply]] = []
        self.outage_requests = 0
        # Like servers without structured output (older vLLM, some hosted APIs): a request with
        # response_format json_schema gets a 400 naming response_format; JSON mode still works.
        self.rejects_json_schema = False
        self._lock = threading.Lock()
        # Set on stop so sleeping "slow" replies end at once instead of holding threads.
        self._stopping = threading.Event()
        self._server = _Server(("127.0.0.1", 0), _handler_for(self))
        # A short poll interval keeps `stop()` (and so each test's teardown) quick.
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, name="fake-openai", daemon=True
        )

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def start(self) -> FakeOpenAI:
        reset_llm_breaker()
        self._thread.start()
        return self

    def outage(self, *phases: tuple[float, Reply]) -> None:
        """From now on, answer each phase's reply to every request for its seconds, one phase after another."""
        end = time.monotonic()
        with self._lock:
            self._outage = []
            for seconds, reply in phases:
                end += seconds
                self._outage.append((end, reply))

    @property
    def outage_over(self) -> bool:
        return not self._outage or time.monotonic() >= self._outage[-1][0]

    def stop(self) -> None:
        self._stopping.set()
        self._server.shutdown()
        self._server.server_close()

    def script(self, *replies: Reply | str) -> None:
        """Queue answers for the next requests, in order; a str is shorthand for `text(str)`."""
        with self._lock:
            self._script.extend(replies)

    @property
    def pending(self) -> int:
        """Scripted replies not yet used."""
        return len(self._script)

    def _next_reply(self, body: dict[str, Any], headers: dict[str, str]) -> Reply:
        with self._lock:
            self.requests.append(body)
            self.headers.append(headers)
            now = time.monotonic()
            failing = next((reply for end, reply in self._outage if now < end), None)
            if failing is not None:
                self.outage_requests += 1
                return failing
            response_format = body.get("response_format")
            if self.rejects_json_schema and isinstance(response_format, dict):
                if response_format.get("type") == "json_schema":
                    return error(400, "response_format json_schema is not supported", param="response_format")
            scripted = self._script.popleft() if self._script else None
        reply = scripted if scripted is not None else self.default(body)
        return text(reply) if isinstance(reply, str) else reply

    def _wait(self, seconds: float) -> None:
        self._stopping.wait(seconds)


def reset_llm_breaker() -> None:
    """Close the chat model breaker all processes of this test run share (its Redis keys)."""
    Breaker(get_settings()).reset()


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    # Don't join handler threads on close: a deliberately slow reply must not stall teardown.
    block_on_close = False


def _completion(reply: Reply, model: str) -> dict[str, Any]:
    return {
        "id": f"chatcmpl-fake-{time.monotonic_ns()}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": reply.content},
                "finish_reason": "stop",
            }
        ],
        "usage": {
            "prompt_tokens": reply.prompt_tokens,
            "completion_tokens": reply.completion_tokens,
            "total_tokens": reply.prompt_tokens + reply.completion_tokens,
        },
    }


def _utf8_encodable(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _error_body(message: str, error_type: str) -> str:
    return json.dumps({"error": {"message": message, "type": error_type}})


def _handler_for(fake: FakeOpenAI) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # Small replies on a kept-alive connection otherwise wait for the client's delayed ACK (~40 ms).
        disable_nagle_algorithm = True

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            if self.path.rstrip("/") != CHAT_PATH:
                self._send(404, _error_body(f"no route {self.path}", "not_found"), {})
                return
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                self._send(400, _error_body("body is not JSON", "invalid_request_error"), {})
                return
            reply = fake._next_reply(body, {name.lower(): value for name, value in self.headers.items()})
            if reply.delay:
                fake._wait(reply.delay)
            if reply.raw_body is not None:
                payload = reply.raw_body
            elif reply.status != 200:
                payload = json.dumps({"error": reply.error or {"message": "error"}}, ensure_ascii=False)
            else:
                completion = _completion(reply, str(body.get("model") or "fake-model"))
                # Lone surrogates (hostile output) only travel as JSON \u escapes.
                payload = json.dumps(completion, ensure_ascii=not _utf8_encodable(reply.content))
            self._send(reply.status, payload, reply.headers)

        def _send(self, status: int, payload: str, headers: dict[str, str]) -> None:
            data = payload.encode("utf-8")
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (timeout test); nothing to tell it

        def log_message(self, format: str, *args: Any) -> None:
            pass  # keep pytest output clean; requests are recorded on the server object

    return Handler


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    """A running FakeOpenAI for one test; `fake_openai.base_url` goes into OPENAI_BASE_URL."""
    server = FakeOpenAI().start()
    try:
        yield server
    finally:
        server.stop()
