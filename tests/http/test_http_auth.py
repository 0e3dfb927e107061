"""Who may call what: bearer tokens (chat servers, the admin), refusals as JSON, the start-up rule, no token in logs."""

from __future__ import annotations

import logging
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from config.settings import Settings
from memory_tasks.http.auth import AuthConfig, Role, startup_problem
from memory_tasks.http.server import EXIT_REFUSED, serve
from tests.conftest import PROJECT_ROOT
from tests.http.conftest import ADMIN, ADMIN_TOKEN, CHAT, CHAT_TOKEN, OTHER_CHAT_TOKEN, make_app

OPEN_PATHS = {"/healthz", "/readyz"}
ADMIN_OPERATIONS = {
    ("patch", "/v1/memories/{memory_id}"),
    ("delete", "/v1/memories/{memory_id}"),
    ("delete", "/v1/users/{user_id}"),
    ("get", "/v1/status"),
}


def _operations() -> list[tuple[str, str]]:
    spec = make_app().openapi()
    return [(method, path) for path, operations in spec["paths"].items() for method in operations]


def _url(path: str) -> str:
    return (
        path.replace("{memory_id}", "1")
        .replace("{user_id}", "1")
        .replace("{message_id}", "1")
        .replace("{conversation_id}", "1")
        .replace("{name}", "memory_list")
    )


@pytest.fixture
def offline_client() -> TestClient:
    """A client whose requests never reach a route that touches a service (refused before)."""
    return TestClient(make_app(), base_url="http://127.0.0.1")


@pytest.mark.parametrize(("method", "path"), [op for op in _operations() if op[1] not in OPEN_PATHS])
@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"Authorization": "Bearer not-a-token-of-this-service"},
        {"Authorization": f"Basic {CHAT_TOKEN}"},
        {"Authorization": f"Bearer {CHAT_TOKEN[:-1]}"},
        {"Authorization": f"Bearer {CHAT_TOKEN}x"},
    ],
    ids=["none", "unknown", "basic-scheme", "prefix", "extended"],
)
def test_every_operation_refuses_a_missing_or_unknown_token(
    offline_client: TestClient, method: str, path: str, headers: dict[str, str]
) -> None:
    response = offline_client.request(method, _url(path), params={"user_id": 1}, json={}, headers=headers)

    assert response.status_code == 401
    assert response.json()["error"] == "unauthorized"
    assert response.headers["WWW-Authenticate"] == "Bearer"


@pytest.mark.parametrize(("method", "path"), sorted(ADMIN_OPERATIONS))
def test_a_chat_servers_token_cannot_edit_delete_forget_or_read_status(
    offline_client: TestClient, method: str, path: str
) -> None:
    body: dict[str, Any] = {"importance": 5} if method == "patch" else {}
    kwargs: dict[str, Any] = {"json": body} if body else {}

    response = offline_client.request(
        method, _url(path), params={"user_id": 1} if "memor" in path else {}, headers=CHAT, **kwargs
    )

    assert response.status_code == 403
    assert response.json()["error"] == "forbidden"


def test_the_admin_token_may_do_what_a_chat_server_may(client: TestClient) -> None:
    assert client.get("/v1/tools", headers=ADMIN).status_code == 200
    assert client.get("/v1/users/1/memories", headers=ADMIN).status_code == 200


def test_every_configured_chat_token_is_accepted(client: TestClient) -> None:
    other = {"Authorization": f"Bearer {OTHER_CHAT_TOKEN}"}

    assert client.get("/v1/tools", headers=CHAT).status_code == 200
    assert client.get("/v1/tools", headers=other).status_code == 200


def test_probes_need_no_token(client: TestClient) -> None:
    assert client.get("/healthz").status_code == 200
    assert client.get("/readyz").status_code in (200, 503)


def test_tokens_never_reach_the_log(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    client.get("/v1/tools", headers=CHAT)
    client.get("/v1/status", headers=CHAT)
    client.get("/v1/tools", headers={"Authorization": f"Bearer {ADMIN_TOKEN}-wrong"})
    client.post("/inspector/login", data={"token": ADMIN_TOKEN})

    logged = "\n".join(f"{record.getMessage()} {vars(record)}" for record in caplog.records)
    assert "request" in logged  # the access log did run
    for token in (CHAT_TOKEN, ADMIN_TOKEN, OTHER_CHAT_TOKEN):
        assert token not in logged


def test_roles_come_from_the_settings() -> None:
    config = AuthConfig.from_settings(
        Settings(MEMORY_API_TOKENS=f" {CHAT_TOKEN} , ,{OTHER_CHAT_TOKEN}", MEMORY_API_ADMIN_TOKEN=ADMIN_TOKEN)
    )

    assert config.role_of(CHAT_TOKEN) is Role.CHAT
    assert config.role_of(OTHER_CHAT_TOKEN) is Role.CHAT
    assert config.role_of(ADMIN_TOKEN) is Role.ADMIN
    assert config.role_of("") is None
    assert config.role_of(None) is None
    assert config.role_of("沒有") is None


# --- starting without tokens --------------------------------------------------------------


@pytest.mark.parametrize(
    ("settings", "host", "refused"),
    [
        ({}, "127.0.0.1", "no API token configured"),
        ({"MEMORY_API_INSECURE_LOCAL": True}, "0.0.0.0", "only on 127.0.0.1"),
        ({"MEMORY_API_INSECURE_LOCAL": True}, "localhost", "only on 127.0.0.1"),
        ({"MEMORY_API_INSECURE_LOCAL": True}, "127.0.0.1", None),
        ({"MEMORY_API_TOKENS": CHAT_TOKEN}, "0.0.0.0", None),
        ({"MEMORY_API_ADMIN_TOKEN": ADMIN_TOKEN}, "0.0.0.0", None),
        ({"MEMORY_API_TOKENS": "short-secret"}, "127.0.0.1", "at least 16 characters"),
        ({"MEMORY_API_TOKENS": CHAT_TOKEN, "MEMORY_API_ADMIN_TOKEN": "tiny"}, "127.0.0.1", "MEMORY_API_ADMIN_TOKEN"),
    ],
)
def test_the_service_starts_only_with_tokens_or_insecurely_on_loopback(
    settings: dict[str, Any], host: str, refused: str | None
) -> None:
    problem = startup_problem(Settings(**settings), host)

    if refused is None:
        assert problem is None
    else:
        assert refused in problem
        assert "short-secret" not in problem and "tiny" not in (problem.split(":")[-1])


@pytest.fixture
def no_tokens(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Process settings without any token (whatever the developer's shell exports), so nothing binds."""
    from config.settings import get_settings

    for name in ("MEMORY_API_TOKENS", "MEMORY_API_ADMIN_TOKEN"):
        monkeypatch.setenv(name, "")
    monkeypatch.setenv("MEMORY_API_INSECURE_LOCAL", "false")
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


def test_serve_refuses_to_start_without_tokens(no_tokens: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert serve(host="0.0.0.0", port=8600) == EXIT_REFUSED
    assert "no API token configured" in capsys.readouterr().err


def test_the_cli_refuses_too_and_says_why(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "memory_tasks", "serve", "--host", "0.0.0.0"],
        cwd=tmp_path,  # no .env here
        capture_output=True,
        text=True,
        timeout=60,
        env={
            "PATH": "/usr/bin:/bin",
            "PYTHONPATH": str(PROJECT_ROOT),
            "MEMORY_API_TOKENS": "",
            "MEMORY_API_ADMIN_TOKEN": "",
        },
    )

    assert result.returncode == EXIT_REFUSED
    assert "MEMORY_API_TOKENS" in result.stderr


def test_without_tokens_every_local_caller_is_admin_but_only_by_a_loopback_name(db: str) -> None:
    app = make_app(MEMORY_API_TOKENS="", MEMORY_API_ADMIN_TOKEN="", MEMORY_API_INSECURE_LOCAL=True)

    with TestClient(app, base_url="http://127.0.0.1:8600") as local:
        assert local.get("/v1/status").status_code == 200
    with TestClient(app, base_url="http://localhost:8600") as by_name:
        assert by_name.get("/v1/status").status_code == 200
    # A page served from elsewhere reaching us through DNS rebinding carries its own host name.
    with TestClient(app, base_url="http://attacker.example") as rebound:
        response = rebound.get("/v1/status")
        assert response.status_code == 403
        assert rebound.post("/inspector/login", data={"token": ""}).status_code == 403


def test_the_insecure_switch_does_not_open_a_service_that_has_tokens() -> None:
    app = make_app(MEMORY_API_INSECURE_LOCAL=True)

    with TestClient(app, base_url="http://127.0.0.1") as client:
        assert client.get("/v1/tools").status_code == 401
