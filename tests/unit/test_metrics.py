"""The metrics module (issue 15 item 2): scrape-time series, the instrumentation helpers, the multiprocess folder."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys

import pytest
from prometheus_client import REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.parser import text_string_to_metric_families

from memory_tasks import metrics
from memory_tasks.llm import LLMOutputError, LLMResult
from memory_tasks.stack import CELERY_WORKERS, Stack, celery_commands
from tests.conftest import PROJECT_ROOT


def _exposed(snapshot: metrics.PipelineSnapshot) -> dict[tuple[str, tuple], float]:
    registry = CollectorRegistry(auto_describe=False)
    registry.register(metrics.PipelineCollector(lambda: snapshot))
    text = generate_latest(registry).decode()
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def test_a_source_that_failed_is_reported_down_and_its_series_left_out() -> None:
    """issue 15 item 2: a scrape answers whatever is down, saying which source it could not read."""
    snapshot = metrics.PipelineSnapshot(
        queue_depths=None,
        messages={"PENDING": 3, "FAILED": 1, "DEAD": 2},
        oldest_pending_age_sec=42.0,
        vectors=None,
        breaker=(metrics.BREAKER_OPEN, 5),
    )
    exposed = _exposed(snapshot)
    assert exposed[("memory_scrape_source_up", (("source", "broker"),))] == 0
    assert exposed[("memory_scrape_source_up", (("source", "postgres"),))] == 1
    assert not any(name == "memory_queue_depth" for name, _ in exposed)
    assert exposed[("memory_messages", (("state", "PENDING"),))] == 3
    assert exposed[("memory_dead_letters", ())] == 2
    assert exposed[("memory_oldest_pending_age_seconds", ())] == 42.0
    assert exposed[("memory_llm_breaker_state", ())] == metrics.BREAKER_OPEN


def _value(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_llm_calls_count_tokens_and_errors_by_kind() -> None:
    """issue 15 item 2: a counted call adds its tokens; a raising one its error class."""

    @metrics.counted_llm_call
    def call(*, purpose: str, fail: bool = False) -> LLMResult:
        if fail:
            raise LLMOutputError("not JSON", "raw")
        return LLMResult(value={}, raw_text="{}", model="m", prompt_tokens=30, completion_tokens=4, latency_sec=0.1)

    calls, tokens = (
        _value("memory_llm_calls_total", purpose="unit"),
        _value("memory_llm_tokens_total", purpose="unit", direction="prompt"),
    )
    errors = _value("memory_llm_errors_total", purpose="unit", kind="LLMOutputError")
    call(purpose="unit")
    with pytest.raises(LLMOutputError):
        call(purpose="unit", fail=True)
    assert _value("memory_llm_calls_total", purpose="unit") == calls + 2
    assert _value("memory_llm_tokens_total", purpose="unit", direction="prompt") == tokens + 30
    assert _value("memory_llm_errors_total", purpose="unit", kind="LLMOutputError") == errors + 1


def test_an_embedder_class_counts_calls_texts_and_errors() -> None:
    """issue 15 item 2: every embed_* call of a decorated embedder is counted by model and side."""

    @metrics.counted_embedder
    class Embedder:
        model_name = "unit-model"
        dim = 2

        def embed_passages(self, texts: list[str]) -> list:
            return [[1.0, 0.0] for _ in texts]

        def embed_query(self, text: str) -> list:
            raise RuntimeError("down")

        def embed_queries(self, texts: list[str]) -> list:
            return []

    before = _value("memory_embedding_texts_total", model="unit-model", side="passage")
    Embedder().embed_passages(["a", "b", "c"])
    with pytest.raises(RuntimeError):
        Embedder().embed_query("q")
    assert _value("memory_embedding_texts_total", model="unit-model", side="passage") == before + 3
    assert _value("memory_embedding_errors_total", model="unit-model", side="query", kind="RuntimeError") >= 1


def test_cleaning_the_multiprocess_folder_keeps_only_this_process(tmp_path, monkeypatch) -> None:
    """issue 15 item 2: a worker starts from zero, not from the counts of its previous run."""
    monkeypatch.setenv(metrics.MULTIPROC_ENV, str(tmp_path))
    (tmp_path / "counter_11.db").write_bytes(b"old")
    (tmp_path / "histogram_12.db").write_bytes(b"old")
    (tmp_path / "counter_77.db").write_bytes(b"ours")
    assert metrics.clean_multiproc_dir(keep_pid=77) == 2
    assert [p.name for p in tmp_path.iterdir()] == ["counter_77.db"]


def test_a_missing_multiprocess_folder_is_created_before_the_first_series(tmp_path) -> None:
    """issue 15 item 2: a worker given a fresh PROMETHEUS_MULTIPROC_DIR starts (the series write there at import)."""
    folder = tmp_path / "metrics" / "worker-llm"
    env = {**os.environ, metrics.MULTIPROC_ENV: str(folder), "PYTHONPATH": str(PROJECT_ROOT)}
    code = "from memory_tasks import metrics; metrics.count_write('create'); print(metrics.render().decode())"
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert 'memory_writes_total{op="create"} 1.0' in result.stdout
    assert any(folder.glob("counter_*.db"))


def _procfile_env(line: str) -> dict[str, str]:
    words = shlex.split(line.split(":", 1)[1])
    return dict(word.split("=", 1) for word in words[: words.index("celery")])


def test_each_worker_has_a_metrics_folder_and_port_of_its_own(tmp_path) -> None:
    """issue 15 item 2: the Procfile's and the embedded stack's workers never share a multiprocess folder or a port."""
    commands = celery_commands(Stack(dir=tmp_path, log_dir=tmp_path))
    stack_envs = [commands[name][1] or {} for name in CELERY_WORKERS]
    procfile = (PROJECT_ROOT / "Procfile").read_text().splitlines()
    procfile_envs = [_procfile_env(line) for line in procfile if line.startswith("worker")]
    for envs in (stack_envs, procfile_envs):
        assert len(envs) == len(CELERY_WORKERS)
        assert len({env[metrics.MULTIPROC_ENV] for env in envs}) == len(envs)
        assert len({env["MEMORY_WORKER_METRICS_PORT"] for env in envs}) == len(envs)
        assert all(int(env["MEMORY_WORKER_METRICS_PORT"]) > 0 for env in envs)
