"""Feed the dashboard's picture: a real run scraped by a stand-in for Prometheus (`make dashboard-picture`).

    python -m bench.dashboard_run --locomo ../shared/data/locomo10.json [--minutes 4] [--samples FILE]

On a private embedded stack (`bench.pipeline_stack.private_stack`: its own PostgreSQL, Redis
and Milvus on free ports) it starts the stack's two Celery workers (each with its own
multiprocess folder and metrics port, as the Procfile does), beat and the HTTP service, with
the chat model a local stub answering LoCoMo's facts (`bench.locomo_model`, 0.2 s per call).
LoCoMo turns are posted to `/v1/turns` at `--rate` per second, with a `/v1/retrieve` every
fifth turn; a third of the way in the model fails every call for 25 s (503), so errors, the
breaker and the backlog show. Every `--every` seconds the three targets' `/metrics` are
scraped; the samples are written as JSON for `bench.dashboard_render`.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import signal
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

from prometheus_client.parser import text_string_to_metric_families

from bench.common import configure
from bench.locomo_model import LocomoModel, load_turns, serve
from bench.pipeline_stack import free_port_block, private_stack
from memory_tasks.db.admin import execute_autocommit
from memory_tasks.db.migrate import upgrade_to_head
from memory_tasks.stack import CELERY_WORKERS, port_open, spawn, stop_processes, wait_until
from memory_tasks.vectors.embedders import get_embedder
from memory_tasks.vectors.milvus_store import get_store
from tests.fake_openai import error

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SAMPLES = ROOT / "var" / "dashboard" / "samples.json"
MODEL_DELAY_SEC = 0.2
OUTAGE_SEC = 25.0
RETRIEVE_EVERY = 5


class Scraper:
    """Scrapes `targets` ({name: url}) every `every` seconds in a thread; `samples` holds what it read."""

    def __init__(self, targets: dict[str, str], token: str, every: float) -> None:
        self.targets = targets
        self.token = token
        self.every = every
        self.samples: list[dict[str, Any]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            now = time.time()
            for target, url in self.targets.items():
                request = urllib.request.Request(url, headers={"Authorization": f"Bearer {self.token}"})
                try:
                    with urllib.request.urlopen(request, timeout=5) as response:
                        text = response.read().decode()
                except OSError as exc:
                    print(f"scrape of {target} failed: {exc}", file=sys.stderr)
                    continue
                for family in text_string_to_metric_families(text):
                    for sample in family.samples:
                        self.samples.append(
                            {
                                "t": now,
                                "target": target,
                                "name": sample.name,
                                "labels": sample.labels,
                                "value": sample.value,
                            }
                        )
            self._stop.wait(self.every)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


def _post(url: str, token: str, body: dict[str, Any]) -> int:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    """The run; returns the scraped samples."""
    turns = [turn for conversation in load_turns(args.locomo, 10, None) for turn in conversation]
    model = LocomoModel([turns])
    model.delay = MODEL_DELAY_SEC
    chat_token, admin_token, metrics_token = (secrets.token_urlsafe(32) for _ in range(3))
    with tempfile.TemporaryDirectory(prefix="mt_dashboard_") as folder, private_stack(Path(folder)) as stack:
        os.chdir(folder)
        server = serve(model)
        execute_autocommit(stack.stack.libpq_url("postgres"), 'CREATE DATABASE "dashboard"')
        api_port = free_port_block(18600)
        configure(
            DATABASE_URL=stack.stack.database_url("dashboard"),
            CELERY_BROKER_URL=stack.stack.redis_url(0),
            CELERY_RESULT_BACKEND=stack.stack.redis_url(1),
            MEMORY_MILVUS_ENABLED="true",
            MEMORY_MILVUS_URI=stack.milvus.uri,
            MEMORY_INDEX_WORKER_ENABLED="true",
            MEMORY_EMBEDDING_PROVIDER="local",
            LONG_TERM_MEMORY_ENGINE="llm",
            LONG_TERM_MEMORY_RETRIEVE_MODE="dense",
            LONG_TERM_MEMORY_DEBOUNCE_SEC="0",
            LONG_TERM_MEMORY_SCAN_INTERVAL_SEC="20",
            LONG_TERM_MEMORY_RETRY_BACKOFF_SEC="5",
            LONG_TERM_MEMORY_LLM_BREAKER_OPEN_SEC="10",
            OPENAI_BASE_URL=server.base_url,
            OPENAI_API_KEY=None,
            MEMORY_API_TOKENS=chat_token,
            MEMORY_API_ADMIN_TOKEN=admin_token,
            MEMORY_METRICS_TOKEN=metrics_token,
        )
        upgrade_to_head()
        get_store().ensure_collection(get_embedder().dim)
        celery = [sys.executable, "-m", "celery", "-A", "memory_tasks"]
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        targets = {"api": f"http://127.0.0.1:{api_port}/metrics"}
        pids = []
        for index, (name, worker_args) in enumerate(CELERY_WORKERS.items()):
            port = free_port_block(19101 + index)
            worker_env = {
                **env,
                "PROMETHEUS_MULTIPROC_DIR": str(Path(folder) / "metrics" / name),
                "MEMORY_WORKER_METRICS_PORT": str(port),
            }
            pids.append(spawn([*celery, *worker_args], stack.stack.log(name), env=worker_env, cwd=Path(folder)))
            targets[name] = f"http://127.0.0.1:{port}/metrics"
            wait_until(lambda port=port: port_open(port), pids[-1], 120, name, stack.stack.log(name))
        pids.append(spawn([*celery, "beat", "-s", str(Path(folder) / "schedule")], stack.stack.log("beat"), env=env))
        serve_cmd = [sys.executable, "-m", "memory_tasks", "serve", "--host", "127.0.0.1", "--port", str(api_port)]
        pids.append(spawn(serve_cmd, stack.stack.log("api"), env=env, cwd=Path(folder)))
        wait_until(lambda: port_open(api_port), pids[-1], 60, "the HTTP service", stack.stack.log("api"))
        base = f"http://127.0.0.1:{api_port}"
        scraper = Scraper(targets, metrics_token, args.every)
        try:
            feed(base, chat_token, turns, args, server)
            time.sleep(args.drain)
        finally:
            scraper.stop()
            stop_processes(pids, 15.0)
            server.stop()
    return scraper.samples


def feed(base: str, token: str, turns: list, args: argparse.Namespace, server: Any) -> None:
    """Post turns at `args.rate` per second for `args.minutes`, a retrieval every RETRIEVE_EVERY turns, one outage."""
    started = time.monotonic()
    end = started + args.minutes * 60
    outage_at = started + args.minutes * 60 / 3
    outage_done = False
    for index, turn in enumerate(turns):
        now = time.monotonic()
        if now > end:
            break
        if not outage_done and now >= outage_at:
            server.outage((OUTAGE_SEC, error(503, "overloaded")))
            outage_done = True
            print(f"{now - started:.0f} s: chat model outage for {OUTAGE_SEC:.0f} s", flush=True)
        user = 1 + turn.conversation * 2 + turn.speaker
        _post(f"{base}/v1/turns", token, {"user_id": user, "role": "user", "content": turn.text})
        if index % RETRIEVE_EVERY == 0:
            _post(f"{base}/v1/retrieve", token, {"user_id": user, "query": turn.text[:200]})
        time.sleep(max(0.0, started + (index + 1) / args.rate - time.monotonic()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.dashboard_run", description=__doc__.splitlines()[0])
    parser.add_argument("--locomo", type=Path, required=True, help="path of locomo10.json")
    parser.add_argument("--minutes", type=float, default=4.0, help="how long turns are posted")
    parser.add_argument("--rate", type=float, default=2.0, help="turns per second")
    parser.add_argument("--every", type=float, default=5.0, help="scrape interval in seconds")
    parser.add_argument("--drain", type=float, default=45.0, help="seconds scraped after the last turn")
    parser.add_argument("--samples", type=Path, default=DEFAULT_SAMPLES, help="where the samples are written")
    args = parser.parse_args(argv)
    if not args.locomo.is_file():
        parser.error(f"--locomo: no such file {args.locomo}")
    samples_path = args.samples.resolve()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    samples = run(args)
    samples_path.parent.mkdir(parents=True, exist_ok=True)
    samples_path.write_text(json.dumps(samples))
    print(f"wrote {len(samples)} samples to {samples_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
