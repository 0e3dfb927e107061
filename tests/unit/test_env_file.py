"""Which .env the settings read (issue 17 item 4): found upward from the current folder, within the checkout."""

from __future__ import annotations

from pathlib import Path

import pytest

from config.settings import ENV_FILE_VAR, ConfigError, find_env_file, load_settings


@pytest.fixture
def checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """tmp/outer/repo is a checkout (it holds .git) with a subfolder repo/a/b; no MEMORY_ENV_FILE."""
    monkeypatch.delenv(ENV_FILE_VAR, raising=False)
    monkeypatch.delenv("LONG_TERM_MEMORY_RETRIEVE_LIMIT", raising=False)
    repo = tmp_path / "outer" / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "a" / "b").mkdir(parents=True)
    return repo


def test_the_checkouts_env_is_found_from_a_subfolder(checkout: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 17 item 4: run from any folder of the checkout, the project's .env is read."""
    (checkout / ".env").write_text("LONG_TERM_MEMORY_RETRIEVE_LIMIT=9\n")
    monkeypatch.chdir(checkout / "a" / "b")
    assert find_env_file() == checkout / ".env"
    assert load_settings().LONG_TERM_MEMORY_RETRIEVE_LIMIT == 9


def test_the_nearest_env_wins(checkout: Path) -> None:
    """Issue 17 item 4: a .env in a subfolder is nearer than the checkout's."""
    (checkout / ".env").write_text("")
    (checkout / "a" / ".env").write_text("")
    assert find_env_file(checkout / "a" / "b") == checkout / "a" / ".env"


def test_the_search_stops_at_the_checkouts_root(checkout: Path) -> None:
    """Issue 17 item 4: a .env above the checkout (another project's) is never read."""
    (checkout.parent / ".env").write_text("DATABASE_URL=postgresql://elsewhere/db\n")
    assert find_env_file(checkout / "a") is None


def test_memory_env_file_names_the_file(checkout: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Issue 17 item 4: a chat server in another folder points at the stack's .env with MEMORY_ENV_FILE."""
    (checkout / ".env").write_text("LONG_TERM_MEMORY_RETRIEVE_LIMIT=7\n")
    elsewhere = tmp_path / "chat-server"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    monkeypatch.setenv(ENV_FILE_VAR, str(checkout / ".env"))
    assert load_settings().LONG_TERM_MEMORY_RETRIEVE_LIMIT == 7
    monkeypatch.setenv(ENV_FILE_VAR, str(elsewhere / "missing.env"))
    with pytest.raises(ConfigError, match=ENV_FILE_VAR):
        find_env_file()
