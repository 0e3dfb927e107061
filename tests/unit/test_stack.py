"""memory_tasks.stack: the parts that need no service (ports, URLs, .env, pid files, stopping)."""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from memory_tasks import stack


@pytest.fixture
def listening() -> Iterator[int]:
    """A port something listens on, for the duration of the test."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        yield server.getsockname()[1]


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_milvus_ports_cover_every_port_of_the_milvus_config_template() -> None:
    import milvus

    template_ports = {key for key in milvus.MilvusServerConfig().configurable_items if key.endswith("_port")}

    # It should derive every port the package knows of, or a second server would collide on it.
    assert template_ports <= set(stack.MILVUS_PORT_OFFSETS)


def test_milvus_servers_a_span_apart_share_no_port() -> None:
    first = stack.milvus_ports(19640)
    second = stack.milvus_ports(19640 + stack.MILVUS_PORT_SPAN)

    assert len(set(first.values())) == stack.MILVUS_PORT_SPAN
    assert set(first.values()) == set(range(19640, 19640 + stack.MILVUS_PORT_SPAN))
    assert not set(first.values()) & set(second.values())


def test_reachable_reads_the_port_of_each_kind_of_service_url(listening: int) -> None:
    assert stack.reachable(f"postgresql+psycopg2://postgres:secret@127.0.0.1:{listening}/memory_tasks")
    assert stack.reachable(f"redis://127.0.0.1:{listening}/0")
    assert stack.reachable(f"http://127.0.0.1:{listening}")


def test_reachable_is_false_for_a_closed_port_or_a_bad_url() -> None:
    assert not stack.reachable(f"redis://127.0.0.1:{closed_port()}/0")
    assert not stack.reachable("redis://127.0.0.1:notaport/0")
    assert not stack.reachable("./milvus.db")


def test_port_free(listening: int) -> None:
    assert not stack.port_free(listening)
    assert stack.port_free(closed_port())


def test_env_file_we_wrote_is_ours_to_overwrite(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    stack.write_env({"DATABASE_URL": "postgresql+psycopg2://postgres@127.0.0.1:55432/memory_tasks"}, env_file)

    assert env_file.read_text().splitlines()[0] == stack.ENV_MARKER
    assert stack.user_managed_urls(env_file) is None
    assert stack.user_managed_urls(tmp_path / "absent") is None


def test_env_file_without_marker_is_the_users(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("DATABASE_URL=postgresql://db.example:5432/app\nCELERY_BROKER_URL=redis://from-file:6379/0\n")
    monkeypatch.setenv("CELERY_BROKER_URL", "redis://from-env:6379/0")
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("MEMORY_MILVUS_URI", raising=False)

    urls = stack.user_managed_urls(env_file)

    # It should let the environment override the file, as the settings loader does.
    assert urls == {"postgres": "postgresql://db.example:5432/app", "redis": "redis://from-env:6379/0"}


def test_running_pid_cleans_a_stale_pid_file(tmp_path: Path) -> None:
    state = stack.Stack(dir=tmp_path, log_dir=tmp_path / "log")
    redis = state.service("redis")
    dead = psutil.Popen(["true"])
    dead.wait()
    state.record("redis", dead.pid)

    assert state.running_pid(redis) is None
    assert not state.pid_file("redis").exists()


def test_running_pid_ignores_a_pid_reused_after_the_pid_file_was_written(tmp_path: Path) -> None:
    state = stack.Stack(dir=tmp_path, log_dir=tmp_path / "log")
    state.record("redis", os.getpid())
    assert state.running_pid(state.service("redis")) == os.getpid()

    # The file predates this process: the pid it names was someone else's.
    started = psutil.Process().create_time()
    os.utime(state.pid_file("redis"), (started - 3600, started - 3600))

    assert state.running_pid(state.service("redis")) is None


def test_stop_processes_kills_the_whole_group_when_sigterm_is_ignored(tmp_path: Path) -> None:
    pid = stack.spawn(["sh", "-c", "trap '' TERM; sleep 60 & sleep 60 & wait"], tmp_path / "log.txt", cwd=tmp_path)
    deadline = time.monotonic() + 5
    while len(psutil.Process(pid).children()) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    group = [pid, *(child.pid for child in psutil.Process(pid).children())]

    stack.stop_processes([pid], timeout=0.5)

    assert stack.wait_gone(group, timeout=2)


def test_status_and_down_with_nothing_running(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert stack.main(["down", "--dir", str(tmp_path)]) == 0
    assert stack.main(["status", "--dir", str(tmp_path)]) == 0

    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == [service.name for service in stack.Stack(tmp_path, tmp_path).services]
    assert all(line.split()[1] == "stopped" for line in lines)


def test_flower_credentials_are_generated_once_then_reused_from_our_env(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 15 item 1: `up` generates Flower's login into .env; later runs keep it (the running Flower's)."""
    monkeypatch.delenv("FLOWER_BASIC_AUTH", raising=False)
    env_file = tmp_path / ".env"

    generated, new = stack.flower_basic_auth(env_file)
    user, _, password = generated.partition(":")
    stack.write_env({"FLOWER_BASIC_AUTH": generated}, env_file)

    assert new and user == "flower" and len(password) >= 32
    assert stack.flower_basic_auth(env_file) == (generated, False)
    assert stack.flower_basic_auth(tmp_path / "absent")[0] != generated  # random each time


def test_flower_credentials_from_the_environment_win(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 15 item 1: an operator's FLOWER_BASIC_AUTH is used as given."""
    monkeypatch.setenv("FLOWER_BASIC_AUTH", "ops:chosen-password")
    assert stack.flower_basic_auth(tmp_path / ".env") == ("ops:chosen-password", False)


def test_flower_gets_its_credentials_by_environment_and_binds_loopback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 15 item 1: the password never on the command line (`ps`), the unauthenticated API never on."""
    monkeypatch.setenv("FLOWER_UNAUTHENTICATED_API", "true")
    monkeypatch.delenv("FLOWER_ADDRESS", raising=False)
    cmd, env = stack.flower_command(stack.Stack(tmp_path, tmp_path), "flower:s3cr3t-XYZ-pw")

    assert not any("s3cr3t-XYZ-pw" in arg for arg in cmd)
    assert "--address=127.0.0.1" in cmd
    assert env["FLOWER_BASIC_AUTH"] == "flower:s3cr3t-XYZ-pw"
    assert "FLOWER_UNAUTHENTICATED_API" not in env


def test_beat_runs_the_locking_scheduler() -> None:
    """Issue 15 item 5: the stack's beat names the one-beat scheduler, which the app config also sets."""
    from config.celery import BEAT_SCHEDULER

    beat, _ = stack.celery_commands(stack.Stack(Path("/tmp"), Path("/tmp")))["beat"]
    assert beat[beat.index("-S") + 1] == BEAT_SCHEDULER == "schedules.scheduler:LockedScheduler"


def test_flower_login_is_printed_only_when_generated(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 15 item 1: `up` shows a generated password once; later runs point at .env instead."""
    embedded = stack.Stack(tmp_path, tmp_path)

    stack._print_flower_login(embedded, "flower:generated-pw-123", new=True, saved=True)
    first = capsys.readouterr().out
    stack._print_flower_login(embedded, "flower:generated-pw-123", new=False, saved=True)
    later = capsys.readouterr().out

    assert "generated-pw-123" in first and "http://127.0.0.1:5555" in first
    assert "generated-pw-123" not in later and "FLOWER_BASIC_AUTH" in later
