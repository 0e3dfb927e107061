"""The boundaries of long-term memory as pure functions (SPEC R-TYPE-3, R-TYPE-4, R-PIPE-8).

Seed sections 提取边界 and 事实来源与硬过滤. Three callers:
- the pipeline skips a trivial message before any engine call (`is_trivial`);
- every candidate, from an engine or a tool call, passes `drop_reason` in the gate
  (extraction/gate.py) before it is written, and the rules engine applies
  `text_drop_reason` to each clause it reads;
- the read path and consolidation hide stored rows for which `is_noise_memory` is true,
  so old dirty rows never surface.

Reasons are "category: detail" strings, logged by the gate with the dropped key.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from fnmatch import fnmatchcase

from memory_tasks.extraction.candidates import Candidate

# --- trivial messages (R-PIPE-8) ---------------------------------------------------------

# fmt: off
_ACKNOWLEDGEMENTS = (
    # Chinese
    "好的", "好滴", "好嘞", "好吧", "好", "嗯", "恩", "哦", "噢", "喔", "啊", "哈", "嘿", "呵", "嘻",
    "收到", "谢谢你", "谢谢您", "谢谢", "谢啦", "谢了", "多谢", "感谢", "明白", "知道", "了解", "懂",
    "了", "行", "可以", "没问题", "对的", "是的", "对", "没错", "晚安", "拜拜", "再见", "早安", "早",
    "辛苦了", "太棒了", "不错", "赞", "棒", "厉害",
    # English
    "ok", "okay", "okey", "k", "kk", "thanks", "thank you", "thx", "ty", "tysm", "lol", "lmao", "rofl",
    "ha", "he", "xd", "cool", "nice", "great", "awesome", "perfect", "sure", "sure thing", "yes", "yep",
    "yeah", "yup", "no", "nope", "np", "no problem", "alright", "all right", "fine", "good", "got it",
    "noted", "understood", "bye", "good night", "gn", "wow", "oh", "ah", "hmm", "mm", "yay", "omg",
    "sounds good", "a lot", "so much", "very much",
)
# fmt: on
# Acknowledgements by first character, for the linear tokenizer of `_only_acknowledgements`.
_ACKS_BY_FIRST = {
    first: tuple(a for a in _ACKNOWLEDGEMENTS if a[0] == first) for first in {a[0] for a in _ACKNOWLEDGEMENTS}
}
_INVISIBLE = {"\u200d", "\ufe0e", "\ufe0f"}  # zero-width joiner and emoji variation selectors


def _letters_and_digits(text: str) -> str:
    """`text` with punctuation, symbols (emoji included) and separators turned into single spaces."""
    kept = []
    for char in text:
        category = unicodedata.category(char)
        if char in _INVISIBLE or category[0] in "PSZC" or category == "Mn":
            kept.append(" ")
        else:
            kept.append(char)
    return re.sub(r"\s+", " ", "".join(kept)).strip().casefold()


def _only_acknowledgements(core: str) -> bool:
    """True when `core` is a run of acknowledgements, touching or space-separated ("好的谢谢", "ok thanks").

    A search over reachable positions, linear in the length: a regex alternation of
    overlapping tokens ("k", "kk") backtracks exponentially on "kkkk…x".
    """
    reachable = {0}
    frontier = [0]
    while frontier:
        start = frontier.pop()
        for ack in _ACKS_BY_FIRST.get(core[start : start + 1], ()):
            if core.startswith(ack, start):
                end = start + len(ack)
                if end < len(core) and core[end] == " ":
                    end += 1
                if end == len(core):
                    return True
                if end not in reachable:
                    reachable.add(end)
                    frontier.append(end)
    return False


def is_trivial(text: str) -> bool:
    """True when the message can hold nothing worth remembering, so it is SKIPPED unread.

    That is: empty, whitespace, only emoji or punctuation, a single letter or character,
    or nothing but acknowledgements (好的, 嗯嗯, 收到, 谢谢, ok, thanks, lol, haha …).
    """
    core = _letters_and_digits(text or "")
    return len(core.replace(" ", "")) <= 1 or _only_acknowledgements(core)


# --- content markers ----------------------------------------------------------------------

# Internal matters of the assistant: tool lists, system state, implementation details,
# streaming switches, system format notes (R-TYPE-4; the seed's literal markers included).
_INTERNAL = re.compile(
    r"当前可用工具|可用(?:的)?工具|工具(?:列表|清单)|技术实现(?:限制|细节)?|默认不启用流式输出|流式(?:输出|回复|响应|传输|开关)"
    r"|系统(?:提示|状态|设置|格式|配置)|时间格式|函数调用|工具调用"
    r"|\bavailable tools\b|\btools? (?:list|calls?)\b|\bwhat tools\b|\bfunction call"
    r"|\bstream(?:ing)?[ _-](?:output|mode|responses?|replies)\b|\bturn (?:on|off) streaming\b"
    r"|\bsystem (?:prompt|status|state|format|settings?)\b|\btime[ _-]format\b"
    r"|\bmemory_(?:save|append|delete|list)\b|\bweb_search\b|\bcode_interpreter\b",
    re.IGNORECASE,
)

# A temperature reading is a snapshot on its own; the other markers need weather context.
# Numbers start only where a digit run starts: otherwise a long run of digits is read from each
# of its positions (quadratic).
_TEMPERATURE = re.compile(r"(?<![\d.])-?\d+(?:\.\d+)?\s*(?:℃|℉|°\s*[CF]?)", re.IGNORECASE)
_WEATHER_MARKERS = re.compile(
    r"最高温|最低温|气温|雷阵雨|阵雨|多云|转晴|晴转|转阴|[东南西北]风|风力|(?<!\d)\d+级|降水|湿度|空气质量|雾霾|(?<!\d)\d+度"
    r"|\bforecast\b|\bshowers?\b|\bcloudy\b|\bovercast\b|\bhumidity\b|\bthunderstorms?\b|\bdrizzle\b"
    r"|\bsunny\b|\bdegrees\b|\bwind(?:s|y)?\b",
    re.IGNORECASE,
)
_WEATHER_CONTEXT = re.compile(r"天气|气温|预报|weather|forecast", re.IGNORECASE)

# Phrases that START a lasting rule ("from tomorrow on") contain short-window words.
_LASTING_START = re.compile(
    r"从(?:今天|今晚|明天|下周|下个?月|现在|此)(?:开始|起)|(?:今天|明天)起"
    r"|\bfrom (?:today|tomorrow|now|next week) on\b|\bstarting (?:today|tomorrow|now|next week)\b|\bfrom now on\b",
    re.IGNORECASE,
)
# Windows that close within the month (the spec's 今晚/明天/这周/本月; not the 后天 of 「晚饭过后天天」): whatever is
# said about them, a plan, a condition or a request, is over before the 30 days the seed asks a long-term fact to last.
_SHORT_WINDOW = re.compile(
    r"今晚|今天|今早|今儿|明天|明早|明晚|明儿|明后天|大后天|(?<!过)后天(?!天)|这周|这个?星期|这礼拜|这个?周末|本周|本月|这个月"
    r"|下周|下个?星期|下礼拜|这几天|这两天|最近几天|一会儿?|待会儿?|等会儿?|稍后|刚才"
    r"|\btonight\b|\btoday\b|\btomorrow\b|\bthis (?:week|weekend|month|morning|afternoon|evening)\b"
    # "Right now I'm learning ASL" is what the user is learning these months, not this moment.
    r"|\bnext (?:week|weekend)\b|\bright now\b(?!,? I(?:'m| am) (?:learning|studying|training for)\b)"
    r"|\bin (?:an|a few|\d+) (?:minutes?|hours?)\b",
    re.IGNORECASE,
)
# A month ahead binds a request or reminder ("下个月提醒我续费", "remind me next month") like any
# window, but not a model's statement: a plan or event a month out ("is organizing an art show next
# month", "starts his new job next month") still matters when it has happened (issue 13.4).
_MONTH_AHEAD = re.compile(r"下个?月|\bnext month\b", re.IGNORECASE)
# Words that make a text a request to the assistant, a reminder or a rule for the user to keep.
_REQUEST = re.compile(
    r"提醒|待办|别忘|记得|闹钟|帮我|给我|替我|叫我|请你|请帮|麻烦|别给|别推荐|不要给|不要推荐|推荐|少点|多点|[?？吗]"
    r"|\?|\b(?:remind\w*|to-?dos?|don'?t|do not|alarm|help me|(?:can|could|would|will) you|please|let me know"
    r"|make sure|recommend\w*|suggest\w*|let'?s)\b",
    re.IGNORECASE,
)

# Daily/weekly/monthly summaries and short-term money figures.
_SUMMARY = re.compile(
    r"[日周月]报|(?:每日|每周|每月|日|周|月)(?:总结|汇总|小结|复盘)"
    r"|(?:花了|花费|支出|开销|消费|收入|赚了)\s*[\d一二三四五六七八九十百千万两]"
    r"|\b(?:daily|weekly|monthly) (?:summary|report|recap|digest)\b"
    r"|\b(?:spent|earned|spending|expenses?)\b[^.]{0,30}?\d",
    re.IGNORECASE,
)

# Identity / profile fields: names and nicknames, the assistant's name and emoji (R-TYPE-1).
_PROFILE_TEXT = re.compile(
    r"叫我|称呼我|我叫|我的名字|昵称|你(?:以后)?就?叫|给你(?:起|取|换)|你的名字|你的(?:emoji|表情|头像)|换个?(?:emoji|头像)"
    # "call me Tom" is a nickname; "never call me after 9pm" is about phone calls.
    r"|\bcall me\b(?! (?:after|before|at|on|in|back|later|early|late|during|when|if|between|again|anymore|ever|up)\b)"
    r"|\bmy name is\b|\bnickname\b|\byour name\b|\bname you\b|\b(?:as )?your (?:emoji|avatar)\b",
    re.IGNORECASE,
)
_PROFILE_KEY = re.compile(
    r"(?:^|[-_])(?:nickname|ai[-_]?name|assistant[-_]name|bot[-_]name|display[-_]name|user[-_]?name|avatar|persona"
    r"|profile)(?:[-_]|$)|^(?:(?:ai|assistant|bot|user)[-_])?emoji$"
)


def _weather_snapshot(key: str, text: str) -> bool:
    """True for a weather reading: a temperature, or condition markers in a weather context."""
    if _TEMPERATURE.search(text):
        return True
    markers = {m.group(0).casefold() for m in _WEATHER_MARKERS.finditer(text)}
    if not markers:
        return False
    return "weather" in key or bool(_WEATHER_CONTEXT.search(text)) or len(markers) >= 2


def short_window(text: str) -> str | None:
    """The time-window word that binds the user's own words `text` to tonight/tomorrow/this week…, or None.

    "从明天开始" / "from now on" start a lasting rule and do not count. A month ahead counts:
    the rules engine reading a clause cannot tell a plan from a present fact ("我下个月要搬到上海"
    is not 住在上海).
    """
    lasting_removed = _LASTING_START.sub(" ", text)
    match = _SHORT_WINDOW.search(lasting_removed) or _MONTH_AHEAD.search(lasting_removed)
    return match.group(0) if match else None


def statement_window(text: str) -> str | None:
    """The time-window word that makes the stated memory `text` short-term, or None.

    As `short_window`, except that a month ahead binds only a request or reminder: a model
    writing "Jon is hosting a dance competition next month" states a plan, which lasts.
    """
    lasting_removed = _LASTING_START.sub(" ", text)
    match = _SHORT_WINDOW.search(lasting_removed)
    if match is None and _REQUEST.search(lasting_removed):
        match = _MONTH_AHEAD.search(lasting_removed)
    return match.group(0) if match else None


def text_drop_reason(text: str, key: str = "") -> str | None:
    """Why a statement with this text can never be a long-term memory, or None.

    Covers the content side of R-TYPE-3/4: internal matters, weather snapshots, profile
    fields, summaries and short-term finance, short time windows.
    """
    if _INTERNAL.search(text):
        return "internal: tool, system or streaming detail"
    if _weather_snapshot(key, text):
        return "weather snapshot"
    if _PROFILE_TEXT.search(text):
        return "profile field"
    if _SUMMARY.search(text):
        return "summary or short-term finance"
    window = statement_window(text)
    if window:
        return f"short-term window: {window}"
    return None


# --- keys and slot values ------------------------------------------------------------------


def noise_key_pattern(key: str, noise_key_patterns: Iterable[str]) -> str | None:
    """The configured fnmatch pattern `key` falls under (case-insensitive), or None."""
    lowered = key.lower()
    return next((p for p in noise_key_patterns if fnmatchcase(lowered, p.lower())), None)


_LOCATION_SLOT = re.compile(r"(?:^|[-_])(?:city|province|state|country|residence|hometown)(?:[-_]|$)")
_BIRTHDAY_SLOT = re.compile(r"(?:^|[-_])(?:birthday|birth[-_]?date|date[-_]of[-_]birth)(?:[-_]|$)")
_TIME_FORMAT_SLOT = re.compile(r"time[-_]?format")
# Words around a place name in a location statement ("住在北京", "Lives in Berlin since 2019").
_LOCATION_WORDS = re.compile(
    r"\d{4}\s*年|(?:since|in) \d{4}|常住|居住在?|住在?|生活在|定居在?|搬到了?|搬去了?|老家(?:在|是)?|家乡(?:在|是)?|来自|出生在"
    r"|\b(?:lives?|living|based|located|moved|relocated|from|in|to|grew up|born|originally|is|hometown|city)\b",
    re.IGNORECASE,
)
_DATE = re.compile(
    r"\d{1,2}\s*[月/.\-]\s*\d{1,2}|[一二三四五六七八九十]+月|\d{1,2}\s*(?:日|号)"
    r"|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?\b"
    r"|\b\d{1,2}(?:st|nd|rd|th)?(?: of)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b",
    re.IGNORECASE,
)
_LETTER = re.compile(r"[^\W\d_]")


def slot_value_reason(key: str, content: str) -> str | None:
    """Why `content` is an impossible value for the profile-like slot `key`, or None.

    Cities, provinces and countries hold no digits (a room number, a postcode); a birthday
    holds a date; a time-format slot holds more than a bare number.
    """
    shown = repr(content[:40])
    if _LOCATION_SLOT.search(key):
        place = _LOCATION_WORDS.sub(" ", content)
        bad = bool(re.search(r"\d", place)) or not _LETTER.search(place)
        return f"bad slot value: {shown} is not a place" if bad else None
    if _BIRTHDAY_SLOT.search(key):
        return None if _DATE.search(content) else f"bad slot value: {shown} is not a date"
    if _TIME_FORMAT_SLOT.search(key):
        return None if _LETTER.search(content) else f"bad slot value: {shown} is a bare number"
    return None


def _key_reason(key: str, noise_key_patterns: Iterable[str]) -> str | None:
    pattern = noise_key_pattern(key, noise_key_patterns)
    if pattern:
        return f"noise key: {pattern}"
    if _PROFILE_KEY.search(key):
        return "profile field: key"
    return None


def drop_reason(candidate: Candidate, noise_key_patterns: Iterable[str]) -> str | None:
    """Why this candidate must not be stored, or None when it may be (R-TYPE-3, R-TYPE-4).

    Checks the key against the configured noise patterns and profile keys, the content
    against `text_drop_reason`, and the value of location/birthday/time-format slots.
    A delete is checked too: "这周不喝咖啡" is not a retirement of a preference.
    """
    reason = _key_reason(candidate.key, noise_key_patterns) or text_drop_reason(candidate.content, candidate.key)
    if reason is None and candidate.op != "delete":
        reason = slot_value_reason(candidate.key, candidate.content)
    return reason


_REMINDER = re.compile(
    r"提醒|待办|别忘|记得|闹钟|预约|安排|\b(?:remind\w*|to-?dos?|don'?t forget|alarm|appointment|schedul\w*)\b",
    re.IGNORECASE,
)


def window_reminder_reason(candidate: Candidate, message: str) -> str | None:
    """Why a reminder/task candidate is short-term because of the message it came from, or None.

    An LLM may drop the time words when it rewrites "明天提醒我开会" into "提醒开会"; the
    user's own message still shows the window, so the reminder is not a long-term memory.
    Lasting facts said alongside a window ("我住在北京，明天去上海出差") are not reminders.
    """
    window = short_window(message)
    if window and _REMINDER.search(f"{candidate.key} {candidate.content}"):
        return f"short-term window: reminder bound to {window!r} in the message"
    return None


# Optional PII redaction before storage (R-SAFE-5, LONG_TERM_MEMORY_REDACT_PII).
_PII_PATTERNS = (
    (re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"), "[email]"),
    (re.compile(r"(?<!\d)\d{17}[\dXx](?!\d)"), "[id-number]"),  # PRC resident identity card
    (re.compile(r"(?<!\d)1[3-9]\d{9}(?!\d)"), "[phone]"),  # mainland China mobile
    # At most 20 characters: an unbounded run is retried from every start position (quadratic).
    (re.compile(r"(?<![\w])\+?\d[\d\s().-]{7,20}\d(?![\w])"), "[phone]"),
)


def redact_pii(text: str) -> str:
    """`text` with e-mail addresses, ID-card numbers and phone numbers replaced by placeholders."""
    for pattern, placeholder in _PII_PATTERNS:
        text = pattern.sub(placeholder, text)
    return text


def is_noise_memory(key: str, content: str, noise_key_patterns: Iterable[str]) -> bool:
    """True when a stored memory is noise and must be hidden from list, retrieval, injection
    and consolidation (R-TYPE-4).

    Noise = a noise or profile key, internal-matter or weather-snapshot content, or an
    impossible slot value. Time windows and summaries are judged at write time only:
    a stored row's words ("每天晚上…") are no longer tied to the day it was said.
    """
    content = content or ""
    return bool(
        _key_reason(key, noise_key_patterns)
        or _INTERNAL.search(content)
        or _weather_snapshot(key, content)
        or slot_value_reason(key, content)
    )
