"""The boundaries of long-term memory as pure functions (memory_tasks.extraction.filters)."""

from __future__ import annotations

import time

import pytest

from config.settings import DEFAULT_NOISE_KEY_PATTERNS
from memory_tasks.extraction.candidates import Candidate
from memory_tasks.extraction.filters import drop_reason, is_noise_memory, is_trivial, short_window, text_drop_reason


def _candidate(key: str, content: str, memory_type: str = "fact", op: str = "upsert") -> Candidate:
    return Candidate(op=op, memory_type=memory_type, key=key, content=content)  # type: ignore[arg-type]


def _reason(key: str, content: str, **kwargs: str) -> str | None:
    return drop_reason(_candidate(key, content, **kwargs), DEFAULT_NOISE_KEY_PATTERNS)


@pytest.mark.parametrize(
    "text",
    [
        "好的",
        "嗯嗯",
        "收到",
        "谢谢！",
        "好的，谢谢",
        "明白了",
        "哈哈哈哈",
        "ok",
        "okay thanks",
        "Thanks!",
        "lol",
        "thank you so much!!",
        "👍",
        "👍🙏",
        "❤️",
        "...",
        "？？",
        "   ",
        "",
        "k",
        "嗯",
    ],
)
def test_acknowledgements_emoji_and_punctuation_are_trivial(text: str) -> None:
    """R-PIPE-8: trivial messages are SKIPPED without any engine call."""
    assert is_trivial(text)


@pytest.mark.parametrize(
    "text", ["我吃素", "我住北京", "I'm vegan", "no sugar please", "ok, I live in Berlin", "好的，我是程序员"]
)
def test_short_statements_are_not_trivial(text: str) -> None:
    """R-PIPE-8: only messages that can hold nothing are skipped; a 3-character statement is read."""
    assert not is_trivial(text)


@pytest.mark.parametrize(
    "key",
    [
        "weather-date_2026-11-29",
        "tool-list",
        "system-status",
        "reminder-last_sent",
        "finance-monthly_total",
        "finance-weekly_food",
        "finance-daily_spend",
        "reply-time_format",
        "stream_output",
        "default-streaming_output",
    ],
)
def test_default_noise_keys_are_dropped(key: str) -> None:
    """R-TYPE-4: the configured noise key patterns (defaults of config/settings.py) are hard-filtered."""
    reason = _reason(key, "住在北京")
    assert reason is not None and reason.startswith("noise key:")


def test_noise_key_patterns_come_from_configuration() -> None:
    """R-TYPE-4: the filter uses the patterns it is given, not a built-in list."""
    assert drop_reason(_candidate("diary-2026", "写日记"), ("diary-*",)) == "noise key: diary-*"
    assert drop_reason(_candidate("diary-2026", "写日记"), ()) is None
    assert drop_reason(_candidate("tool-notes", "写日记"), ("diary-*",)) is None


@pytest.mark.parametrize(
    "content",
    [
        "当前可用工具：搜索、计算器",
        "技术实现限制：上下文最多8k",
        "默认不启用流式输出",
        "把流式输出关掉",
        "时间格式为24小时制",
        "Available tools: web_search, calculator",
        "Turn off streaming output",
        "memory_save stores a memory",
        "System prompt says be brief",
    ],
)
def test_internal_matters_are_dropped(content: str) -> None:
    """R-TYPE-3/4: tool lists, implementation limits, streaming switches and system-format notes."""
    assert _reason("user-note", content) == "internal: tool, system or streaming detail"


@pytest.mark.parametrize(
    ("key", "content"),
    [
        ("weather-beijing", "多云转晴"),
        ("note", "今天北京多云转晴，最高温26℃，南风三级"),
        ("note", "It's 12°C and cloudy"),
        ("note", "天气：阵雨，东风"),
        ("note", "cloudy with showers later"),
    ],
)
def test_weather_snapshots_are_dropped(key: str, content: str) -> None:
    """R-TYPE-3/4: weather-keyed content with snapshot markers, or a reading on its own."""
    assert _reason(key, content, memory_type="preference") == "weather snapshot"


@pytest.mark.parametrize("content", ["下雨时提醒我带伞", "Loves sunny days", "喜欢下雪天"])
def test_weather_words_without_a_snapshot_are_kept(content: str) -> None:
    """R-TYPE-2: "下雨时提醒我带伞" is a long-term constraint, not a weather snapshot."""
    assert _reason("rule-rain-umbrella", content, memory_type="constraint") is None


@pytest.mark.parametrize(
    "content",
    [
        "明后天有雨时提醒我带伞",
        "今晚提醒我给妈妈打电话",
        "明天早上7点叫醒",
        "这周别推荐甜点",
        "本月少点外卖",
        "下周一交房租",
        "remind me tomorrow to call the dentist",
        "no dessert this week",
        "I want sushi tonight",
        "next week I'm in Tokyo",
        "Andrew is heading to a nature reserve this weekend to reconnect with nature.",
        "Tim is busy with assignments and exams this week, but is not giving up.",
        "User is meeting Anna for lunch tomorrow",
        "用户明天要去上海出差",
        "用户这个月在戒奶茶",
        # A month ahead binds a request or reminder, not a plan (`test_a_plan_a_month_ahead_…`).
        "下个月提醒我续费会员",
        "下个月帮我订去成都的机票",
        "下个月少点外卖",
        "下个月的账单记得提醒我",
        "Remind me next month to renew my passport",
        "Can you book a table for next month?",
        "Next month please don't suggest any desserts",
    ],
)
def test_requests_bound_to_a_short_window_are_dropped(content: str) -> None:
    """R-TYPE-3: requests and conditions bound to tonight/tomorrow/this week/this month, and
    requests or reminders bound to next month."""
    reason = _reason("rule-x", content, memory_type="constraint")
    assert reason is not None and reason.startswith("short-term window:")


@pytest.mark.parametrize(
    "content",
    [
        "Caroline is organizing an LGBTQ art show next month to showcase paintings of LGBTQ artists.",
        "John is starting his new job next month.",
        "Dave booked a trip to a mountainous region for next month to see majestic peaks.",
        "用户下个月要参加杭州马拉松",
        "用户计划下月和女朋友去日本旅行",
    ],
)
def test_a_plan_a_month_ahead_stated_as_a_memory_is_kept(content: str) -> None:
    """R-TYPE-3, issue 13.4: a plan or event a month out still matters once it has happened."""
    assert _reason("plan-x", content) is None


def test_the_users_own_words_a_month_ahead_stay_bound_to_their_window() -> None:
    """R-TYPE-3: read from a raw clause, "下个月要搬到上海" is a plan, not a present residence."""
    assert short_window("我下个月要搬到上海") == "下个月"
    assert short_window("Next month I'm moving to Berlin") == "Next month"
    assert short_window("从下个月开始我每天跑步") is None


@pytest.mark.parametrize(
    "content",
    [
        "下雨时提醒我带伞",
        "从明天开始我吃素",
        "从今天起回复都用中文",
        "From now on, reply in English",
        "每周去三次健身房",
    ],
)
def test_lasting_rules_and_habits_are_not_short_term(content: str) -> None:
    """R-TYPE-2: "from tomorrow on" starts a lasting rule; "every week" is a habit, not "this week"."""
    assert text_drop_reason(content) is None


@pytest.mark.parametrize(
    "content",
    [
        "周报：本周完成了登录模块",
        "今日日报：修了三个bug",
        "本月花了3200元",
        "这个月支出汇总",
        "Weekly summary: 3 meetings",
        "spent $240 on groceries",
    ],
)
def test_summaries_and_short_term_finance_are_dropped(content: str) -> None:
    """R-TYPE-3: daily/weekly/monthly summaries and short-term finance statistics."""
    assert _reason("finance-note", content) is not None


@pytest.mark.parametrize(
    ("key", "content"),
    [
        ("nickname", "小王"),
        ("ai-name", "小智"),
        ("assistant-emoji", "🐱"),
        ("emoji", "🦊"),
        ("user-profile", "Sam"),
        ("address-form", "以后叫我小王"),
        ("assistant", "你以后就叫小智吧"),
        ("address-form", "Call me Sam"),
        ("assistant", "Your name is Jarvis"),
    ],
)
def test_profile_fields_never_become_memories(key: str, content: str) -> None:
    """R-TYPE-1: nickname, AI name, emoji… live in the profile, not in long_term_memories."""
    reason = _reason(key, content)
    assert reason is not None and reason.startswith("profile field")


def test_a_rule_about_emoji_in_replies_is_not_a_profile_field() -> None:
    """R-TYPE-1/2: "don't use emoji in replies" is a constraint; only the assistant's own emoji is profile."""
    assert _reason("reply-emoji", "以后不要在回复里加表情符号", memory_type="constraint") is None
    assert _reason("reply-emoji", "Don't use emojis in your replies", memory_type="constraint") is None


@pytest.mark.parametrize(
    ("key", "content"),
    [
        ("residence-city", "住在302"),
        ("residence-city", "Lives in 94107"),
        ("residence-city", "住在3号楼"),
        ("hometown", "老家是123"),
        ("home-country", "12"),
        ("residence-province", "？？"),
        ("birthday", "生日是5"),
        ("birthday", "Birthday: secret"),
        ("time-format", "24"),
    ],
)
def test_bare_numbers_in_place_birthday_and_time_format_slots_are_dropped(key: str, content: str) -> None:
    """R-TYPE-3/4: obviously wrong slot values (digits as a city, a birthday without a date)."""
    reason = _reason(key, content)
    assert reason is not None and reason.startswith("bad slot value:")


@pytest.mark.parametrize(
    ("key", "content"),
    [
        ("residence-city", "住在北京海淀区"),
        ("residence-city", "Lives in Berlin since 2019"),
        ("residence-city", "2019年搬到上海"),
        ("hometown", "Is from Manila"),
        ("birthday", "生日是3月12号"),
        ("birthday", "Birthday: June 5th"),
        ("birthday", "born on 5 March 1990"),
    ],
)
def test_real_places_and_dates_are_kept(key: str, content: str) -> None:
    """R-TYPE-2: a year next to a city or a full date is a valid slot value."""
    assert _reason(key, content) is None


def test_a_retirement_is_filtered_like_any_candidate() -> None:
    """R-TYPE-3: "这周不喝咖啡" is a short-window condition, not the end of a preference."""
    assert _reason("drink-coffee", "这周不喝咖啡", memory_type="preference", op="delete") is not None
    assert _reason("drink-milk-tea", "不喝奶茶了", memory_type="preference", op="delete") is None


def test_dirty_stored_rows_are_noise_at_read_time() -> None:
    """R-TYPE-4: old rows with noise keys or markers never surface in list, retrieval or consolidation."""
    patterns = DEFAULT_NOISE_KEY_PATTERNS

    assert is_noise_memory("tool-list", "搜索、计算器", patterns)
    assert is_noise_memory("available", "当前可用工具：搜索、计算器", patterns)
    assert is_noise_memory("weather-today", "多云转晴，最高温26℃", patterns)
    assert is_noise_memory("residence-city", "住在302", patterns)
    assert is_noise_memory("ai-name", "小智", patterns)
    assert not is_noise_memory("residence-city", "住在北京", patterns)
    assert not is_noise_memory("rule-rain-umbrella", "下雨时提醒我带伞", patterns)


def test_time_words_in_stored_rows_are_not_noise() -> None:
    """R-TYPE-4: time windows are judged when written; a stored habit mentioning 晚上 stays visible."""
    assert not is_noise_memory("drink-coffee", "晚上不喝咖啡", DEFAULT_NOISE_KEY_PATTERNS)
    assert not is_noise_memory("sport-running", "每天早上跑步", DEFAULT_NOISE_KEY_PATTERNS)


def test_pii_is_redacted_before_storage_when_enabled() -> None:
    """R-SAFE-5: phone numbers, e-mail addresses and ID numbers never reach the table."""
    from memory_tasks.extraction.filters import redact_pii

    text = "我的手机是13812345678，邮箱 wang.li@example.com，身份证 11010519491231002X, call +49 30 1234567"
    redacted = redact_pii(text)
    for secret in ("13812345678", "wang.li@example.com", "11010519491231002X", "1234567"):
        assert secret not in redacted
    assert redact_pii("年底前考过 N1，住在 3 号楼") == "年底前考过 N1，住在 3 号楼"


@pytest.mark.parametrize("text", ["k" * 60 + "x", "哈" * 20000 + "x", "ok " * 5000 + "fine?", "1" * 32000 + "级"])
def test_acknowledgement_and_weather_checks_run_in_linear_time(text: str) -> None:
    """Bounded cost (issue 11.10): overlapping acknowledgements ("k", "kk") backtracked
    exponentially, and a long digit run was re-read from each of its digits."""
    started = time.perf_counter()
    is_trivial(text)
    text_drop_reason(text)
    assert time.perf_counter() - started < 2.0


def test_a_run_of_acknowledgements_is_still_trivial_and_one_word_more_is_not() -> None:
    assert is_trivial("ok " * 500 + "thanks")
    assert is_trivial("好的谢谢" * 200)
    assert not is_trivial("ok " * 500 + "I live in Berlin")
