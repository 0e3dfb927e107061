"""Configuration: the seed's names and defaults, and clear errors for bad values (R-CONF)."""

from pathlib import Path

import pytest

from config.celery import celery_config
from config.settings import MAX_TASK_COUNTDOWN_SEC, ConfigError, Settings, get_settings, load_settings
from memory_tasks.db.session import get_engine
from memory_tasks.stack import CELERY_WORKERS
from memory_tasks.tasks.base import MAX_RETRY_AFTER_SEC, MemoryTask
from memory_tasks.tasks.index import PURGE_RESTART_SEC
from memory_tasks.tasks.lifecycle import STALE_RETRY_SEC
from schedules.beat import beat_schedule

SEED_DEFAULTS = {
    "LONG_TERM_MEMORY_ENABLED": True,
    "LONG_TERM_MEMORY_RETRIEVE_MODE": "full_inject",
    "LONG_TERM_MEMORY_MIN_CONFIDENCE": 0.75,
    "LONG_TERM_MEMORY_MAX_WRITE_ITEMS": 6,
    "LONG_TERM_MEMORY_RETRIEVE_LIMIT": 6,
    "LONG_TERM_MEMORY_RETRIEVE_SCAN_LIMIT": 80,
    "LONG_TERM_MEMORY_DEFAULT_TTL_DAYS": 180,
    "LONG_TERM_MEMORY_DEBOUNCE_SEC": 12,
    "LONG_TERM_MEMORY_EXTRACT_TIMEOUT_SEC": 90,
    "LONG_TERM_MEMORY_UPSERT_TIMEOUT_SEC": 90,
    "LONG_TERM_MEMORY_EXTRACT_CONTEXT_MAX_CHARS": 8000,
    "LONG_TERM_MEMORY_SCAN_ENABLED": True,
    "LONG_TERM_MEMORY_SCAN_INTERVAL_SEC": 120,
    "MEMORY_INDEX_WORKER_ENABLED": False,
    "MEMORY_INDEX_WORKER_INTERVAL_SEC": 30,
    "MEMORY_INDEX_WORKER_BATCH_SIZE": 32,
    "MEMORY_EMBEDDING_MODEL": "text-embedding-3-small",
    "MEMORY_EMBEDDING_DIM": 1536,
    "MEMORY_MILVUS_ENABLED": False,
    "MEMORY_MILVUS_URI": "",
    "MEMORY_MILVUS_COLLECTION": "memory_text_v1",
    "LONG_TERM_MEMORY_DEDUP_THRESHOLD": 0.82,
    "LONG_TERM_MEMORY_MERGE_THRESHOLD": 0.90,
}


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path) -> pytest.MonkeyPatch:
    monkeypatch.chdir(tmp_path)  # no .env here
    for name in list(SEED_DEFAULTS) + ["OPENAI_API_KEY", "OPENAI_BASE_URL", "MEMORY_EMBEDDING_PROVIDER"]:
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_seed_parameters_have_the_seed_defaults(clean_env: pytest.MonkeyPatch) -> None:
    """R-CONF: every parameter of the seed's table, same name, same default."""
    settings = Settings()
    for name, expected in SEED_DEFAULTS.items():
        assert getattr(settings, name) == expected, name


def test_bad_value_stops_startup_naming_the_variable(clean_env: pytest.MonkeyPatch) -> None:
    """R-CONF: a bad value is reported with the variable's name."""
    clean_env.setenv("LONG_TERM_MEMORY_MIN_CONFIDENCE", "lots")
    with pytest.raises(ConfigError) as excinfo:
        load_settings()
    assert "LONG_TERM_MEMORY_MIN_CONFIDENCE" in str(excinfo.value)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("LONG_TERM_MEMORY_RETRIEVE_MODE", "sparse"),
        ("LONG_TERM_MEMORY_MAX_WRITE_ITEMS", "0"),
        ("DATABASE_URL", "sqlite:///memory.db"),
        ("MEMORY_MILVUS_COLLECTION", "bad name; drop"),
        ("LONG_TERM_MEMORY_ENABLED", "maybe"),
    ],
)
def test_each_bad_value_is_named(clean_env: pytest.MonkeyPatch, name: str, value: str) -> None:
    """R-CONF: validation covers enums, ranges, the database dialect and identifiers."""
    clean_env.setenv(name, value)
    with pytest.raises(ConfigError, match=name):
        load_settings()


def test_milvus_enabled_without_uri_is_refused(clean_env: pytest.MonkeyPatch) -> None:
    """R-CONF: cross-field rules name the variable too."""
    clean_env.setenv("MEMORY_MILVUS_ENABLED", "true")
    with pytest.raises(ConfigError, match="MEMORY_MILVUS_URI"):
        load_settings()


def test_secrets_never_appear_in_config_errors(clean_env: pytest.MonkeyPatch) -> None:
    """R-OPS-4: an error report does not echo the API key."""
    clean_env.setenv("OPENAI_API_KEY", "sk-secret-value")
    clean_env.setenv("MEMORY_MILVUS_ENABLED", "true")
    with pytest.raises(ConfigError) as excinfo:
        load_settings()
    assert "sk-secret-value" not in str(excinfo.value)


def test_env_file_is_read(clean_env: pytest.MonkeyPatch, tmp_path) -> None:
    """R-CONF: settings come from .env as well as the environment."""
    (tmp_path / ".env").write_text("LONG_TERM_MEMORY_RETRIEVE_LIMIT=9\n")
    assert Settings().LONG_TERM_MEMORY_RETRIEVE_LIMIT == 9


def test_celery_reliability_settings(clean_env: pytest.MonkeyPatch) -> None:
    """R-SAFE-1: late acks, requeue on worker loss, prefetch 1, visibility above the hard limit."""
    conf = celery_config(Settings())
    assert conf["task_acks_late"] and conf["task_reject_on_worker_lost"]
    assert conf["worker_prefetch_multiplier"] == 1
    assert conf["task_soft_time_limit"] < conf["task_time_limit"]
    assert conf["task_soft_time_limit"] > 90  # above the LLM call timeout
    assert conf["broker_transport_options"]["visibility_timeout"] > conf["task_time_limit"]
    assert conf["task_serializer"] == "json"


def test_a_claim_lease_not_longer_than_the_hard_time_limit_is_refused(clean_env: pytest.MonkeyPatch) -> None:
    """Issue 11 item 3 (R-FAIL-2): a run still going when its lease ends would be restarted by the
    rescan and counted twice, so the lease must exceed Celery's hard time limit."""
    for name in ("LONG_TERM_MEMORY_CLAIM_LEASE_SEC", "LONG_TERM_MEMORY_UPSERT_TIMEOUT_SEC"):
        clean_env.delenv(name, raising=False)
    hard_limit = celery_config(Settings())["task_time_limit"]
    assert hard_limit == 150  # 90 s I/O budget + 30 s + 30 s
    clean_env.setenv("LONG_TERM_MEMORY_CLAIM_LEASE_SEC", str(hard_limit))
    with pytest.raises(ConfigError, match=r"LONG_TERM_MEMORY_CLAIM_LEASE_SEC: must exceed the hard time limit.*150 s"):
        load_settings()
    clean_env.setenv("LONG_TERM_MEMORY_CLAIM_LEASE_SEC", str(hard_limit + 1))
    assert hard_limit + 1 == load_settings().LONG_TERM_MEMORY_CLAIM_LEASE_SEC
    # Short budgets (tests) get short margins, so a short lease stays possible with them.
    clean_env.setenv("LONG_TERM_MEMORY_CLAIM_LEASE_SEC", "10")
    clean_env.setenv("LONG_TERM_MEMORY_EXTRACT_TIMEOUT_SEC", "3")
    clean_env.setenv("LONG_TERM_MEMORY_UPSERT_TIMEOUT_SEC", "3")
    assert celery_config(load_settings())["task_time_limit"] == 9


def test_a_visibility_timeout_not_longer_than_a_task_can_stay_unacknowledged_is_refused(
    clean_env: pytest.MonkeyPatch,
) -> None:
    """Issue 11 item 11 (kill rows): Redis redelivers what nobody acknowledged after the visibility
    timeout, so it must outlast the longest countdown a live worker holds (600 s, or a longer
    debounce) plus the hard time limit, or a waiting or running task would run twice."""
    for name in (
        "LONG_TERM_MEMORY_DEBOUNCE_SEC",
        "LONG_TERM_MEMORY_UPSERT_TIMEOUT_SEC",
        "LONG_TERM_MEMORY_EXTRACT_TIMEOUT_SEC",
    ):
        clean_env.delenv(name, raising=False)
    assert load_settings().longest_unacked_sec == 600 + 150
    clean_env.setenv("CELERY_VISIBILITY_TIMEOUT_SEC", "750")
    with pytest.raises(ConfigError, match=r"CELERY_VISIBILITY_TIMEOUT_SEC: must exceed .* 750 s"):
        load_settings()
    clean_env.setenv("CELERY_VISIBILITY_TIMEOUT_SEC", "751")
    assert load_settings().visibility_timeout_sec == 751
    # A debounce longer than every retry countdown is the longest wait.
    clean_env.setenv("LONG_TERM_MEMORY_DEBOUNCE_SEC", "1000")
    with pytest.raises(ConfigError, match=r"must exceed .* 1150 s"):
        load_settings()


def test_the_visibility_timeout_and_the_queue_bound_follow_the_longest_unacknowledged_time(
    clean_env: pytest.MonkeyPatch,
) -> None:
    """Issue 11 item 11: a retry held by a worker killed with -9 waits the visibility timeout (900 s
    by default, no longer an hour), and the queued register stops protecting it at the same time."""
    for name in (
        "LONG_TERM_MEMORY_DEBOUNCE_SEC",
        "LONG_TERM_MEMORY_QUEUE_MAX_AGE_SEC",
        "CELERY_VISIBILITY_TIMEOUT_SEC",
    ):
        clean_env.delenv(name, raising=False)
    settings = load_settings()
    conf = celery_config(settings)
    visibility = conf["broker_transport_options"]["visibility_timeout"]
    assert visibility == 900 and visibility > settings.longest_unacked_sec
    assert settings.queue_max_age_sec == visibility
    clean_env.setenv("CELERY_VISIBILITY_TIMEOUT_SEC", "2000")
    assert load_settings().queue_max_age_sec == 2000
    clean_env.setenv("LONG_TERM_MEMORY_QUEUE_MAX_AGE_SEC", "120")
    assert load_settings().queue_max_age_sec == 120


def test_no_task_waits_a_countdown_longer_than_the_bound_the_visibility_timeout_counts_with() -> None:
    """Issue 11 item 11: every countdown the tasks use (retry backoff, Retry-After and breaker hints,
    the purge restart, the stale-touch retry) is within MAX_TASK_COUNTDOWN_SEC."""
    assert MemoryTask.retry_backoff_max <= MAX_TASK_COUNTDOWN_SEC
    assert MAX_RETRY_AFTER_SEC <= MAX_TASK_COUNTDOWN_SEC
    assert PURGE_RESTART_SEC <= MAX_TASK_COUNTDOWN_SEC and STALE_RETRY_SEC <= MAX_TASK_COUNTDOWN_SEC


def test_beat_entries_follow_the_enable_flags_and_expire(clean_env: pytest.MonkeyPatch) -> None:
    """R-BEAT-1/2: rescan every SCAN_INTERVAL, index sweep only when enabled, each with expires."""
    schedule = beat_schedule(Settings())
    assert schedule["rescan-messages"]["schedule"] == 120
    assert "sync-vector-index" not in schedule
    clean_env.setenv("MEMORY_INDEX_WORKER_ENABLED", "true")
    clean_env.setenv("MEMORY_MILVUS_ENABLED", "true")
    clean_env.setenv("MEMORY_MILVUS_URI", "http://127.0.0.1:19530")
    schedule = beat_schedule(Settings())
    assert schedule["sync-vector-index"]["schedule"] == 30
    for entry in schedule.values():
        assert entry["options"]["expires"] == entry["schedule"]
    clean_env.setenv("LONG_TERM_MEMORY_SCAN_ENABLED", "false")
    assert "rescan-messages" not in beat_schedule(Settings())


def _threads_pool_concurrency(argv: list[str]) -> int | None:
    if "threads" not in argv:
        return None
    return int(argv[argv.index("--concurrency") + 1])


def test_every_threads_pool_fits_in_the_connection_pool(clean_env: pytest.MonkeyPatch) -> None:
    """Issue 12: a threads worker with more threads than pooled connections opens and closes a
    PostgreSQL connection per transaction; the default pool holds every thread of the Procfile's
    and the embedded stack's threads pools, and the engine is built with the setting."""
    procfile = (Path(__file__).parents[2] / "Procfile").read_text(encoding="utf-8")
    commands = [line.split(":", 1)[1].split() for line in procfile.splitlines() if line.startswith("worker")]
    commands += list(CELERY_WORKERS.values())
    threads = [n for n in map(_threads_pool_concurrency, commands) if n is not None]
    assert threads, "no threads pool found: the check would pass vacuously"
    assert max(threads) < Settings(_env_file=None).MEMORY_DB_POOL_SIZE

    clean_env.setenv("MEMORY_DB_POOL_SIZE", "12")
    clean_env.setenv("MEMORY_DB_POOL_OVERFLOW", "3")
    get_settings.cache_clear()
    get_engine.cache_clear()
    try:
        engine = get_engine()
        assert (engine.pool.size(), engine.pool._max_overflow) == (12, 3)  # type: ignore[attr-defined]
        engine.dispose()
    finally:
        clean_env.delenv("MEMORY_DB_POOL_SIZE")
        clean_env.delenv("MEMORY_DB_POOL_OVERFLOW")
        get_settings.cache_clear()
        get_engine.cache_clear()
