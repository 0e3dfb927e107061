"""The period a question names (issue 13.5, R-READ-2): read by the rerank's period signal."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memory_tasks.retrieval.period import Period, named_period, stated_in, without_period


@pytest.mark.parametrize(
    ("question", "period"),
    [
        ("What did I do on May 3, 2023?", Period(2023, 5, 3)),
        ("Who did Maria have dinner with on 3 May, 2023?", Period(2023, 5, 3)),
        ("What did I say on the 3rd of May?", Period(None, 5, 3)),
        ("What happened on Sept 12?", Period(None, 9, 12)),
        ("What did we plan on 2024-02-29?", Period(2024, 2, 29)),
        ("What setback did Melanie face in October 2023?", Period(2023, 10, None)),
        ("What did I read in Feb. 2024?", Period(2024, 2, None)),
        ("When did Melanie go camping in June?", Period(None, 6, None)),
        ("Where did I travel in mid-July?", Period(None, 7, None)),
        ("How many times has Melanie gone to the beach in 2023?", Period(2023, None, None)),
        ("What did I do in the summer of 2022?", Period(2022, None, None)),
        ("我2023年5月3日去了哪里？", Period(2023, 5, 3)),
        ("我2023年5月说的那家餐厅叫什么？", Period(2023, 5, None)),
        ("我5月3号干什么了", Period(None, 5, 3)),
        ("五月份我在忙什么？", Period(None, 5, None)),
        ("十二月我去哪了", Period(None, 12, None)),
        ("十一月我学了什么", Period(None, 11, None)),
        ("2023年我学了什么？", Period(2023, None, None)),
    ],
)
def test_it_reads_the_day_month_or_year_a_question_names(question: str, period: Period) -> None:
    assert named_period(question) == period


@pytest.mark.parametrize(
    "question",
    [
        "May I ask you something?",
        "What did I get for April's birthday?",
        "Should we march on?",
        "What should I cook today?",
        "What did I tell you last month?",
        "我用了三个月的那款App叫什么？",
        "上个月我说了什么？",
        "我有1000年的历史书吗",
        "Was it on February 30, 2023?",
        "我13月1号在哪",
        "推荐个零食",
    ],
)
def test_it_names_no_period_for_relative_words_names_and_impossible_dates(question: str) -> None:
    assert named_period(question) is None


def test_a_memory_stated_in_the_period_or_within_a_week_after_it_holds() -> None:
    may_2023 = Period(2023, 5, None)
    assert may_2023.holds(datetime(2023, 5, 1, tzinfo=UTC))
    assert may_2023.holds(datetime(2023, 6, 7, 23, tzinfo=UTC))  # told within the week after
    assert not may_2023.holds(datetime(2023, 6, 8, tzinfo=UTC))
    assert not may_2023.holds(datetime(2023, 4, 30, tzinfo=UTC))
    assert not may_2023.holds(datetime(2024, 5, 10, tzinfo=UTC))
    assert Period(None, 5, None).holds(datetime(2026, 5, 10, tzinfo=UTC))  # any year's May
    assert Period(None, 12, 30).holds(datetime(2027, 1, 3, tzinfo=UTC))  # reported across New Year
    assert not Period(None, 2, 29).holds(datetime(2023, 3, 1, tzinfo=UTC))  # no 29 February in 2023
    assert Period(2023, None, None).holds(datetime(2024, 1, 5, tzinfo=UTC))
    assert not Period(2023, None, None).holds(datetime(2024, 1, 8, tzinfo=UTC))


def test_a_memory_counts_as_stated_in_the_period_by_any_of_its_known_times() -> None:
    june = Period(None, 6, None)
    assert stated_in(june, None, datetime(2025, 6, 2, tzinfo=UTC))
    assert not stated_in(june, None, None)
    assert not stated_in(None, datetime(2025, 6, 2, tzinfo=UTC))


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("Where did I travel in March 2024?", "Where did I travel?"),
        ("Where did I travel on July 1, 2024?", "Where did I travel?"),
        ("What did Melanie do on the 3rd of May with her kids?", "What did Melanie do with her kids?"),
        ("In March 2024, where did I go?", "where did I go?"),
        ("我2023年11月去哪里旅行了？", "我去哪里旅行了？"),
        ("5月3号我去哪了", "我去哪了"),
        ("Where did I travel?", "Where did I travel?"),
        ("2023年？", "2023年？"),
    ],
)
def test_the_query_vector_is_made_without_the_date_words(question: str, asked: str) -> None:
    """A date pulls the question's vector toward dates: the trip asked about fell under the relevance floor."""
    assert without_period(question) == asked
