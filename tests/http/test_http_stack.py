"""The embedded stack's part of the HTTP service: its process, its port, the tokens it writes into .env."""

from __future__ import annotations

from pathlib import Path

from memory_tasks import stack


def test_the_api_is_a_service_of_the_stack_on_8600(tmp_path: Path) -> None:
    embedded = stack.Stack(dir=tmp_path, log_dir=tmp_path)

    assert embedded.service("api").port == 8600
    # It should stop with the Celery processes, before the services they all use.
    assert [s.name for s in embedded.services][-1] == "api"
    assert stack.api_command(embedded)[-4:] == ["--host", "127.0.0.1", "--port", "8600"]


def test_tokens_are_generated_once_and_kept_by_later_runs(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"

    first = stack.api_tokens(env_file)
    stack.write_env({"DATABASE_URL": "postgresql://x", **first}, env_file)
    second = stack.api_tokens(env_file)

    assert set(first) == {"MEMORY_API_TOKENS", "MEMORY_API_ADMIN_TOKEN", "MEMORY_METRICS_TOKEN"}
    assert all(len(token) >= 32 for token in first.values())
    assert len(set(first.values())) == 3  # chat, admin and metrics tokens are three different secrets
    assert second == first


def test_tokens_of_a_users_own_env_file_are_never_taken_over(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("MEMORY_API_TOKENS=the-users-own-token-0123456789abcdef\n")

    assert stack.api_tokens(env_file)["MEMORY_API_TOKENS"] != "the-users-own-token-0123456789abcdef"


def test_a_weak_token_in_our_env_file_is_replaced(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    stack.write_env({"MEMORY_API_TOKENS": "short", "MEMORY_API_ADMIN_TOKEN": ""}, env_file)

    tokens = stack.api_tokens(env_file)

    assert len(tokens["MEMORY_API_TOKENS"]) >= 32 and len(tokens["MEMORY_API_ADMIN_TOKEN"]) >= 32
