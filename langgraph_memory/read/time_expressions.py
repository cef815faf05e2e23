"""Time expressions in queries, English and Chinese, resolved to date ranges.

Every range is half-open, ``[start, end)``, in the timezone of ``now`` (UTC when
``now`` is naive or absent), aligned to calendar units:

- a day ("yesterday", "on 8 May 2023", "5月8日", "三天前") is midnight to midnight;
- a week ("last week", "上周", "two weeks ago") runs Monday to Monday;
- a month or a year ("last May", "in May 2023", "上个月", "去年", "in 2022") is
  the calendar month or year;
- "this morning" is 05:00-12:00, "this afternoon" 12:00-18:00, "tonight"
  18:00-24:00, "last night" / "昨晚" 18:00 yesterday to 06:00 today;
- "recently" / "lately" / "最近" is the last 14 days up to the end of today;
  "the other day" / "前几天" / "a few days ago" the 7 days before today;
- a month or a day without a year ("in May", "5月8日") is its latest
  occurrence not after ``now``; "last May" is the latest May before the current
  month; "今年五月" is May of the current year.

Example:
    >>> from datetime import datetime, timezone
    >>> now = datetime(2024, 6, 15, 10, 30, tzinfo=timezone.utc)
    >>> start, end = parse_time_range("what did we discuss yesterday?", now)
    >>> start.isoformat(), end.isoformat()
    ('2024-06-14T00:00:00+00:00', '2024-06-15T00:00:00+00:00')
    >>> [e.text for e in find_time_expressions("去年五月和上周的事", now)]
    ['去年五月', '上周']
    >>> parse_time_range("last May", now)[0].date()
    datetime.date(2024, 5, 1)
    >>> parse_time_range("nothing temporal here", now) is None
    True
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone, tzinfo

__all__ = ["TimeExpression", "find_time_expressions", "parse_time_range", "RECENT_DAYS"]

#: How far back "recently" / "最近" reaches, in days.
RECENT_DAYS = 14

Range = tuple[datetime, datetime]


@dataclass(frozen=True, slots=True)
class TimeExpression:
    """One time expression found in a text.

    Attributes:
        text: The expression as written (a substring of the input).
        span: Its ``(start, end)`` character offsets in the input.
        start: Start of the range it denotes (inclusive).
        end: End of the range (exclusive); always ``>= start``.
    """

    text: str
    span: tuple[int, int]
    start: datetime
    end: datetime


# -- calendar helpers -------------------------------------------------------------------------
class _Cal:
    """Calendar arithmetic relative to ``now`` in one timezone."""

    def __init__(self, now: datetime) -> None:
        self.tz: tzinfo = now.tzinfo or timezone.utc
        self.now = now if now.tzinfo else now.replace(tzinfo=timezone.utc)
        self.today = self.now.date()

    def at(self, d: date, hour: int = 0) -> datetime:
        return datetime.combine(d, time(hour), tzinfo=self.tz)

    def day(self, d: date) -> Range:
        return self.at(d), self.at(d + timedelta(days=1))

    def days_back(self, first: int, last: int = 0) -> Range:
        """Days ``today - first`` up to the start of ``today - last + 1``."""
        return self.at(self.today - timedelta(days=first)), self.at(
            self.today - timedelta(days=last - 1)
        )

    def week(self, back: int) -> Range:
        monday = self.today - timedelta(days=self.today.weekday() + 7 * back)
        return self.at(monday), self.at(monday + timedelta(days=7))

    def weekend(self, back: int) -> Range:
        saturday = self.week(back)[0] + timedelta(days=5)
        return saturday, saturday + timedelta(days=2)

    def month(self, year: int, month: int) -> Range:
        nxt = date(year + month // 12, month % 12 + 1, 1)
        return self.at(date(year, month, 1)), self.at(nxt)

    def months_back(self, back: int) -> Range:
        idx = self.today.year * 12 + self.today.month - 1 - back
        return self.month(idx // 12, idx % 12 + 1)

    def year(self, year: int) -> Range:
        return self.at(date(year, 1, 1)), self.at(date(year + 1, 1, 1))

    def latest_month(self, month: int, *, strictly_before: bool = False) -> Range:
        year = self.today.year
        if month > self.today.month or (strictly_before and month == self.today.month):
            year -= 1
        return self.month(year, month)

    def latest_day(self, month: int, day: int) -> Range:
        date(2000, month, day)  # a leap year: raises ValueError for impossible dates
        year = self.today.year
        while True:  # terminates: the date exists at least every four years
            try:
                d = date(year, month, day)
                if d <= self.today:
                    return self.day(d)
            except ValueError:
                pass
            year -= 1

    def part_of_day(self, d: date, first: int, last: int) -> Range:
        return self.at(d, first), self.at(d) + timedelta(hours=last)

    def back(self, n: int, unit: str) -> Range:
        """The calendar ``unit`` (day/week/month/year) ``n`` units ago."""
        if unit == "day":
            return self.day(self.today - timedelta(days=n))
        if unit == "week":
            return self.week(n)
        if unit == "month":
            return self.months_back(n)
        return self.year(self.today.year - n)

    def since(self, start: datetime) -> Range:
        return start, self.at(self.today + timedelta(days=1))


# -- lexicons ---------------------------------------------------------------------------------
_MONTHS = {
    name: i
    for i, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_EN_NUMS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
}
#: Vague counts: (fewest, most) units.
_VAGUE = {"a couple of": (2, 3), "a few": (2, 6), "several": (3, 8), "几": (2, 6)}
_ZH_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5}
_ZH_DIGITS |= {"六": 6, "七": 7, "八": 8, "九": 9}
_ZH_UNITS = {"天": "day", "日": "day", "周": "week", "星期": "week", "礼拜": "week"}
_ZH_UNITS |= {"月": "month", "年": "year"}
_PARTS = {"morning": (5, 12), "afternoon": (12, 18), "evening": (18, 24), "night": (18, 24)}
_ZH_PARTS = {"早上": (5, 12), "上午": (5, 12), "中午": (11, 14), "下午": (12, 18)}
_ZH_PARTS |= {"晚上": (18, 24), "早": (5, 12), "晚": (18, 24)}


def zh_number(text: str) -> int:
    """Parse a small number written in digits or Chinese numerals (0-9999).

    Example:
        >>> zh_number("十二"), zh_number("三十一"), zh_number("二〇二三"), zh_number("15")
        (12, 31, 2023, 15)
    """
    if text.isdigit():
        return int(text)
    if "十" in text:
        tens, _, ones = text.partition("十")
        return (_ZH_DIGITS[tens] if tens else 1) * 10 + (_ZH_DIGITS[ones] if ones else 0)
    value = 0
    for ch in text:
        value = value * 10 + _ZH_DIGITS[ch]
    return value


def _en_count(word: str) -> int:
    return int(word) if word.isdigit() else _EN_NUMS[word.lower()]


def _month(name: str) -> int:
    return _MONTHS[name.lower().rstrip(".")]


# -- rules ------------------------------------------------------------------------------------
_M = r"(?P<mon>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_D = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
_Y = r"(?P<year>(?:19|20)\d\d)"
_N_EN = r"(?P<n>\d{1,3}|" + "|".join(_EN_NUMS) + r")"
_ZN = r"[\d零〇一二两三四五六七八九十]"
_UNIT_EN = r"(?P<unit>day|week|month|year)s?"
_ZH_UNIT = r"(?P<unit>天|日|周|星期|礼拜|个?月|年)"

Handler = Callable[[re.Match[str], _Cal], Range]


def _g(m: re.Match[str], name: str) -> str:
    return m.group(name) or ""


def _zh_unit(m: re.Match[str]) -> str:
    return _ZH_UNITS[_g(m, "unit").lstrip("个")]


def _relative_year(word: str, cal: _Cal) -> int:
    return cal.today.year - {"今年": 0, "去年": 1, "前年": 2, "明年": -1}[word]


def _vague_back(m: re.Match[str], cal: _Cal, unit: str) -> Range:
    lo, hi = _VAGUE[_g(m, "vague")]
    start = cal.back(hi, unit)[0]
    end = cal.back(lo, unit)[1]
    return start, end


_RULES: list[tuple[re.Pattern[str], Handler]] = [
    # --- English: explicit dates -----------------------------------------------------------
    (
        re.compile(rf"\b(?:on\s+)?{_D}\s+(?:of\s+)?{_M},?\s+{_Y}\b", re.I),
        lambda m, c: c.day(date(int(m["year"]), _month(m["mon"]), int(m["day"]))),
    ),
    (
        re.compile(rf"\b(?:on\s+)?{_M}\s+{_D},?\s+{_Y}\b", re.I),
        lambda m, c: c.day(date(int(m["year"]), _month(m["mon"]), int(m["day"]))),
    ),
    (
        re.compile(r"\b(?P<year>(?:19|20)\d\d)-(?P<mon>\d\d)-(?P<day>\d\d)\b"),
        lambda m, c: c.day(date(int(m["year"]), int(m["mon"]), int(m["day"]))),
    ),
    (
        re.compile(rf"\b(?:in\s+|during\s+)?{_M},?\s+(?:of\s+)?{_Y}\b", re.I),
        lambda m, c: c.month(int(m["year"]), _month(m["mon"])),
    ),
    (
        re.compile(rf"\b(?:on\s+)?{_D}\s+(?:of\s+)?{_M}\b", re.I),
        lambda m, c: c.latest_day(_month(m["mon"]), int(m["day"])),
    ),
    (
        re.compile(rf"\b(?:on\s+)?{_M}\s+{_D}\b", re.I),
        lambda m, c: c.latest_day(_month(m["mon"]), int(m["day"])),
    ),
    (
        re.compile(rf"\blast\s+{_M}\b", re.I),
        lambda m, c: c.latest_month(_month(m["mon"]), strictly_before=True),
    ),
    (
        re.compile(rf"\bthis\s+{_M}\b", re.I),
        lambda m, c: c.month(c.today.year, _month(m["mon"])),
    ),
    (
        re.compile(rf"\bsince\s+{_M}\b", re.I),
        lambda m, c: c.since(c.latest_month(_month(m["mon"]))[0]),
    ),
    (
        re.compile(rf"\b(?:in|during|back in|early|late|mid)\s+{_M}\b", re.I),
        lambda m, c: c.latest_month(_month(m["mon"])),
    ),
    (
        re.compile(rf"\bsince\s+{_Y}\b", re.I),
        lambda m, c: c.since(c.year(int(m["year"]))[0]),
    ),
    (
        re.compile(rf"\b(?:in|during|back in|the year)\s+{_Y}\b", re.I),
        lambda m, c: c.year(int(m["year"])),
    ),
    # --- English: relative -----------------------------------------------------------------
    (
        re.compile(rf"\b(?P<vague>a couple of|a few|several)\s+{_UNIT_EN}\s+ago\b", re.I),
        lambda m, c: _vague_back(m, c, m["unit"].lower()),
    ),
    (
        re.compile(rf"\b{_N_EN}\s+{_UNIT_EN}\s+ago\b", re.I),
        lambda m, c: c.back(_en_count(m["n"]), m["unit"].lower()),
    ),
    (
        re.compile(rf"\b(?:in\s+)?the\s+(?:past|last)\s+{_N_EN}\s+{_UNIT_EN}\b", re.I),
        lambda m, c: c.since(c.back(_en_count(m["n"]), m["unit"].lower())[0]),
    ),
    (
        re.compile(r"\b(?:the\s+)?day\s+before\s+yesterday\b", re.I),
        lambda m, c: c.day(c.today - timedelta(days=2)),
    ),
    (
        re.compile(r"\byesterday(?:\s+(?P<part>morning|afternoon|evening))?\b", re.I),
        lambda m, c: (
            c.part_of_day(c.today - timedelta(days=1), *_PARTS[m["part"].lower()])
            if m["part"]
            else c.day(c.today - timedelta(days=1))
        ),
    ),
    (
        re.compile(r"\blast\s+night\b", re.I),
        lambda m, c: (c.at(c.today - timedelta(days=1), 18), c.at(c.today, 6)),
    ),
    (
        re.compile(r"\b(?:this\s+(?P<part>morning|afternoon|evening)|tonight)\b", re.I),
        lambda m, c: c.part_of_day(c.today, *_PARTS[(m["part"] or "night").lower()]),
    ),
    (re.compile(r"\btoday\b", re.I), lambda m, c: c.day(c.today)),
    (
        re.compile(r"\b(?P<which>last|this|past)\s+(?P<unit>week(?:end)?|month|year)\b", re.I),
        lambda m, c: _this_or_last(m["which"].lower(), m["unit"].lower(), c),
    ),
    (
        re.compile(r"\blast\s+(?P<wd>" + "|".join(_WEEKDAYS) + r")\b", re.I),
        lambda m, c: c.day(_last_weekday(c, _WEEKDAYS.index(m["wd"].lower()))),
    ),
    (re.compile(r"\bthe\s+other\s+day\b", re.I), lambda m, c: c.days_back(7, 1)),
    (
        re.compile(r"\b(?:recently|lately|these\s+days|of\s+late)\b", re.I),
        lambda m, c: c.days_back(RECENT_DAYS),
    ),
    # --- Chinese: explicit dates -----------------------------------------------------------
    (
        re.compile(
            rf"(?P<year>\d{{4}}|{_ZN}{{4}})年(?P<mon>{_ZN}{{1,2}})月(?P<day>{_ZN}{{1,3}})[日号]"
        ),
        lambda m, c: c.day(date(zh_number(m["year"]), zh_number(m["mon"]), zh_number(m["day"]))),
    ),
    (
        re.compile(rf"(?P<year>\d{{4}}|{_ZN}{{4}})年(?P<mon>{_ZN}{{1,2}})月(?:份)?"),
        lambda m, c: c.month(zh_number(m["year"]), zh_number(m["mon"])),
    ),
    (
        re.compile(rf"(?P<rel>今年|去年|前年)(?P<mon>{_ZN}{{1,2}})月(?P<day>{_ZN}{{1,3}})[日号]"),
        lambda m, c: c.day(
            date(_relative_year(m["rel"], c), zh_number(m["mon"]), zh_number(m["day"]))
        ),
    ),
    (
        re.compile(rf"(?P<rel>今年|去年|前年)(?P<mon>{_ZN}{{1,2}})月(?:份)?"),
        lambda m, c: c.month(_relative_year(m["rel"], c), zh_number(m["mon"])),
    ),
    (
        re.compile(rf"(?<![\d年])(?P<mon>{_ZN}{{1,2}})月(?P<day>{_ZN}{{1,3}})[日号]"),
        lambda m, c: c.latest_day(zh_number(m["mon"]), zh_number(m["day"])),
    ),
    (
        re.compile(r"(?P<year>\d{4})年(?!\d|前|以前|之前)"),
        lambda m, c: c.year(int(m["year"])),
    ),
    # --- Chinese: relative -----------------------------------------------------------------
    (
        re.compile(rf"(?P<vague>几){_ZH_UNIT}(?:前|以前|之前)"),
        lambda m, c: _vague_back(m, c, _zh_unit(m)),
    ),
    (
        re.compile(rf"(?P<n>{_ZN}{{1,3}}){_ZH_UNIT}(?:前|以前|之前)"),
        lambda m, c: c.back(zh_number(m["n"]), _zh_unit(m)),
    ),
    (
        re.compile(rf"(?:过去|最近|近)(?P<n>{_ZN}{{1,3}}){_ZH_UNIT}"),
        lambda m, c: c.since(c.back(zh_number(m["n"]), _zh_unit(m))[0]),
    ),
    (re.compile(r"大前天"), lambda m, c: c.day(c.today - timedelta(days=3))),
    (re.compile(r"前天"), lambda m, c: c.day(c.today - timedelta(days=2))),
    (
        re.compile(r"昨晚|昨天晚上|昨夜"),
        lambda m, c: (c.at(c.today - timedelta(days=1), 18), c.at(c.today, 6)),
    ),
    (
        re.compile(r"(?P<which>昨天|今天)(?P<part>早上|上午|中午|下午)|(?P<short>今早|今晚)"),
        lambda m, c: (
            c.part_of_day(c.today, *_ZH_PARTS[m["short"][1]])
            if m["short"]
            else c.part_of_day(
                c.today - timedelta(days=m["which"] == "昨天"), *_ZH_PARTS[m["part"]]
            )
        ),
    ),
    (re.compile(r"昨天|昨日"), lambda m, c: c.day(c.today - timedelta(days=1))),
    (re.compile(r"今天|今日"), lambda m, c: c.day(c.today)),
    (
        re.compile(r"(?P<rel>上上|上|这|本)个?(?:周|星期|礼拜)(?P<end>末)?"),
        lambda m, c: (c.weekend if m["end"] else c.week)({"上上": 2, "上": 1}.get(m["rel"], 0)),
    ),
    (
        re.compile(r"(?P<rel>上上个|上个|上|这个|本)月"),
        lambda m, c: c.months_back({"上上个": 2, "上个": 1, "上": 1}.get(m["rel"], 0)),
    ),
    (
        re.compile(r"今年|去年|前年"),
        lambda m, c: c.year(_relative_year(m.group(), c)),
    ),
    (re.compile(r"前几天|前两天|那天|前阵子"), lambda m, c: c.days_back(7, 1)),
    (re.compile(r"最近|近来|近期|这几天|这阵子|前段时间"), lambda m, c: c.days_back(RECENT_DAYS)),
    (
        re.compile(rf"(?<![\d年个上本这])(?P<mon>{_ZN}{{1,2}})月(?:份)?(?![前初底中])"),
        lambda m, c: c.latest_month(zh_number(m["mon"])),
    ),
]


_MAY_OK = re.compile(r"(?:last|this|since|in|during|back|early|late|mid|on)\s", re.I)


def _this_or_last(which: str, unit: str, cal: _Cal) -> Range:
    back = int(which != "this")
    if unit == "weekend":
        return cal.weekend(back)
    if which == "past":  # "the past week": from the start of the previous one until today
        return cal.since(cal.back(1, unit)[0])
    return cal.back(back, unit)


def _last_weekday(cal: _Cal, weekday: int) -> date:
    delta = (cal.today.weekday() - weekday) % 7 or 7
    return cal.today - timedelta(days=delta)


# -- public API -------------------------------------------------------------------------------
def find_time_expressions(text: str, now: datetime | None = None) -> list[TimeExpression]:
    """Find the time expressions of ``text``, in text order.

    Overlapping matches are resolved in favour of the more specific rule
    (explicit dates before relative words). Expressions naming impossible dates
    ("30 February") are ignored.

    Args:
        text: A query, English or Chinese.
        now: The reference time (default: now, UTC).

    Returns:
        The expressions found; each has ``start <= end``.

    Example:
        >>> from datetime import datetime
        >>> now = datetime(2024, 6, 15)
        >>> [(e.text, e.start.date().isoformat()) for e in find_time_expressions(
        ...     "on 8 May 2023 and three days ago", now)]
        [('on 8 May 2023', '2023-05-08'), ('three days ago', '2024-06-12')]
    """
    cal = _Cal(now or datetime.now(timezone.utc))
    taken: list[tuple[int, int]] = []
    found: list[TimeExpression] = []
    for pattern, handler in _RULES:
        for m in pattern.finditer(text):
            s, e = m.span()
            if any(s < te and ts < e for ts, te in taken):
                continue
            if "mon" in m.re.groupindex and m["mon"] == "may" and not _MAY_OK.match(m.group()):
                continue  # a bare lower-case "may" is the modal verb
            taken.append((s, e))  # an impossible date still claims its text ("2月30日")
            try:
                start, end = handler(m, cal)
            except (ValueError, KeyError, OverflowError):
                continue  # an impossible date, or a number out of range
            found.append(TimeExpression(m.group(), (s, e), start, max(start, end)))
    return sorted(found, key=lambda x: x.span)


def parse_time_range(text: str, now: datetime | None = None) -> Range | None:
    """The date range ``text`` refers to: the span covering all its time expressions.

    Args:
        text: A query, English or Chinese.
        now: The reference time (default: now, UTC).

    Returns:
        ``(start, end)`` with ``start <= end`` (end exclusive), or ``None`` when
        the text has no time expression.

    Example:
        >>> from datetime import datetime
        >>> r = parse_time_range("2023年5月我们聊了什么", datetime(2024, 6, 15))
        >>> r[0].date().isoformat(), r[1].date().isoformat()
        ('2023-05-01', '2023-06-01')
    """
    found = find_time_expressions(text, now)
    if not found:
        return None
    return min(e.start for e in found), max(e.end for e in found)
