"""Hierarchical roll-ups (seed 003, §4.1 "分层摘要"): a summary per day and per week of
what the user and the assistant said, written as those spans close.

As the worker places a user's messages, each joins the roll-up of its day (UTC date of
when it was said) and of its week (Monday to Sunday). A span closes when a message of a
later span arrives for that user; its summary is then written (by the chat model when
one is given, else extractively, the user's sentences first; see
:func:`~langgraph_memory.layers.mid_term.summaries.summarize`) and cites the messages it was made
from. A day rolls up its messages; a week rolls up the messages its days' summaries
cite (the sentences that summarised each day), so long spans are summarised in two
steps. Roll-ups are long-term entries: indexed, ranked against a query like any other
("how did last week go", "what did we do on the migration that week") and reaching a
context dated and cited. An open span (the current day or week) has no summary yet:
its messages are in the short-term and mid-term layers.

Example:
    >>> from datetime import datetime, timezone
    >>> week_start(datetime(2024, 3, 7, 15, tzinfo=timezone.utc)).isoformat()
    '2024-03-04T00:00:00+00:00'
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from langgraph_memory.config import HierarchySection
from langgraph_memory.core.records import Message, Record, from_data, to_data
from langgraph_memory.core.tokens import count_cjk
from langgraph_memory.layers.index.kinds import EntryView
from langgraph_memory.layers.long_term.profile import stable_id
from langgraph_memory.layers.mid_term.summaries import summarize
from langgraph_memory.storage.base import StorageCore
from langgraph_memory.storage.capabilities import RecordStore

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

__all__ = ["Rollup", "RollupWriter", "ROLLUP_KIND", "day_start", "week_start"]

log = logging.getLogger(__name__)

ROLLUP_KIND = "rollup"
#: A day keeps the ids of its latest this many messages (its summary is made of them).
MAX_DAY_IDS = 2000
#: A span with fewer messages is not summarised: retrieval finds them one by one as well.
MIN_MESSAGES = {"day": 12, "week": 24}
_STATE_KIND = "rollup_state"
Level = Literal["day", "week"]


def _now() -> datetime:
    return datetime.now(timezone.utc)


def day_start(when: datetime) -> datetime:
    """Midnight (UTC) of the day ``when`` falls on."""
    t = when.astimezone(timezone.utc)
    return datetime(t.year, t.month, t.day, tzinfo=timezone.utc)


def week_start(when: datetime) -> datetime:
    """Monday midnight (UTC) of the week ``when`` falls in."""
    d = day_start(when)
    return d - timedelta(days=d.weekday())


@dataclass(slots=True)
class Rollup:
    """A day's or a week's summary.

    Attributes:
        id: Stable per user, level and start.
        user_id: Whose.
        level: ``day`` or ``week``.
        start, end: The span, ``[start, end)``.
        message_ids: The messages of a day (in placement order; a week keeps its days).
        count: How many messages the span holds.
        summary: The summary, once the span closed ("" while it is open).
        source_ids: The messages the summary cites.
        closed: Whether a later span has begun.
    """

    id: str
    user_id: str
    level: str
    start: datetime
    end: datetime
    message_ids: list[str] = field(default_factory=list)
    count: int = 0
    summary: str = ""
    source_ids: list[str] = field(default_factory=list)
    closed: bool = False
    written_by: str = "rules"
    created_at: datetime = field(default_factory=_now)
    updated_at: datetime = field(default_factory=_now)
    access_count: int = 0
    last_accessed_at: datetime | None = None

    #: Its record kind.
    KIND: ClassVar[str] = ROLLUP_KIND

    @classmethod
    def load(cls, data: dict[str, Any]) -> Rollup:
        return from_data(cls, data)

    def entry(self) -> EntryView | None:
        """What the read path ranks of it (:mod:`~langgraph_memory.layers.index.kinds`)."""
        if not (self.closed and self.summary):  # an open span is not summarised yet
            return None
        return EntryView(self.text(), self.source_ids, self.end, {"level": self.level})

    def text(self) -> str:
        """The summary with its span, for prompts and search."""
        first = self.start.date().isoformat()
        last = (self.end - timedelta(days=1)).date().isoformat()
        n = self.count
        letters = [c for c in self.summary if c.isalpha()]
        if 2 * count_cjk(self.summary) > len(letters):  # mostly Chinese
            span = f"{first} 这一天" if self.level == "day" else f"{first} 至 {last} 这一周"
            return f"{span}（{n} 条消息）的摘要：{self.summary}"
        span = f"day {first}" if self.level == "day" else f"week {first} to {last}"
        return f"Summary of the {span} ({n} messages): {self.summary}"


class RollupWriter:
    """Keeps a user's day and week roll-ups as the worker places messages (see the
    module docs).

    Args:
        storage: The store (the messages a summary is made of).
        records: Where roll-ups are kept (the indexed record store).
        llm: An optional chat model for the summaries (extractive otherwise).
        config: ``rollup_day_tokens`` and ``rollup_week_tokens``: the length of a day's
            and a week's summary.
    """

    def __init__(
        self,
        storage: StorageCore,
        records: RecordStore,
        llm: BaseChatModel | None = None,
        config: HierarchySection | None = None,
    ) -> None:
        self.storage = storage
        self.records = records
        self.llm = llm
        config = config or HierarchySection()
        self.day_tokens = config.rollup_day_tokens
        self.week_tokens = config.rollup_week_tokens
        self._lock = threading.Lock()

    def placed(self, messages: Sequence[Message]) -> int:
        """Add placed messages (several users') to their spans and summarise the spans
        they close; returns how many summaries were written."""
        by_user: dict[str, list[Message]] = {}
        for m in messages:
            if m.role in ("user", "assistant"):
                by_user.setdefault(m.user_id, []).append(m)
        n = 0
        with self._lock:
            for user_id, msgs in by_user.items():
                try:
                    n += self._place(user_id, msgs)
                except (ValueError, TypeError) as exc:  # one user never stops another
                    log.info("roll-ups of user %s skipped a batch: %s", user_id, exc)
        return n

    def _place(self, user_id: str, msgs: list[Message]) -> int:
        state = self._state(user_id)
        stamps = [m.timestamp for m in msgs]
        if state["latest"] is not None:
            stamps.append(state["latest"])
        latest = max(stamps)
        for level, start_of, length in (
            ("day", day_start, timedelta(days=1)),
            ("week", week_start, timedelta(days=7)),
        ):
            spans: dict[datetime, list[str]] = {}
            for m in msgs:
                spans.setdefault(start_of(m.timestamp), []).append(m.id)
            for start, ids in spans.items():
                r = self._get(user_id, level, start) or Rollup(
                    stable_id("rollup", user_id, level, start.isoformat()),
                    user_id,
                    level,
                    start,
                    start + length,
                )
                if level == "day":
                    known = set(r.message_ids)
                    new = [i for i in dict.fromkeys(ids) if i not in known]
                    r.count += len(new)
                    # the latest ones only: a day of a bulk import would otherwise
                    # rewrite a growing list with every batch
                    r.message_ids = [*r.message_ids, *new][-MAX_DAY_IDS:]
                else:  # a week counts; its days keep the ids
                    r.count += len(ids)
                if r.closed:  # a late message reopens a span: summarised again below
                    r.closed = False
                self._put(r)
                if start.isoformat() not in state["open"][level]:
                    state["open"][level].append(start.isoformat())
        state["latest"] = latest
        written = 0
        for level, start_of in (("day", day_start), ("week", week_start)):
            current = start_of(latest).isoformat()
            still_open = []
            for iso in state["open"][level]:
                if iso >= current:
                    still_open.append(iso)
                    continue
                span = self._get(user_id, level, datetime.fromisoformat(iso))
                if span is not None:
                    self._close(span)
                    written += 1
            state["open"][level] = still_open
        self._save_state(user_id, state)
        return written

    def _close(self, r: Rollup) -> None:
        if r.level == "day":
            got = [self.storage.get_message(r.user_id, i) for i in r.message_ids]
            tokens = self.day_tokens
        else:  # the sentences that summarised its days
            days = [self._get(r.user_id, "day", r.start + timedelta(days=i)) for i in range(7)]
            ids = [i for d in days if d is not None for i in (d.source_ids or d.message_ids)]
            r.count = sum(d.count for d in days if d is not None)
            got = [self.storage.get_message(r.user_id, i) for i in dict.fromkeys(ids)]
            tokens = self.week_tokens
        msgs = [m for m in got if m is not None]
        if r.count >= MIN_MESSAGES[r.level] and msgs:
            what = "day of conversation" if r.level == "day" else "week of conversation"
            s = summarize(msgs, llm=self.llm, max_tokens=tokens, what=what)
            r.summary, r.source_ids = s.text, list(s.source_ids)
            r.written_by = "llm" if s.by_llm else "rules"
        r.closed, r.updated_at = True, _now()
        self._put(r)

    # -- records ------------------------------------------------------------------------
    def _get(self, user_id: str, level: str, start: datetime) -> Rollup | None:
        rid = stable_id("rollup", user_id, level, start.isoformat())
        rec = self.records.get_record(ROLLUP_KIND, rid, user_id)
        return None if rec is None else Rollup.load(rec.data)

    def _put(self, r: Rollup) -> None:
        self.records.put_record(
            Record(ROLLUP_KIND, r.id, r.user_id, to_data(r), r.created_at, r.updated_at)
        )

    def _state(self, user_id: str) -> dict[str, Any]:
        rec = self.records.get_record(_STATE_KIND, stable_id("rollups", user_id), user_id)
        if rec is None:
            return {"latest": None, "open": {"day": [], "week": []}}
        data = dict(rec.data)
        if data.get("latest"):
            data["latest"] = datetime.fromisoformat(data["latest"])
        return data

    def _save_state(self, user_id: str, state: dict[str, Any]) -> None:
        now = _now()
        data = {**state, "latest": state["latest"].isoformat() if state["latest"] else None}
        rid = stable_id("rollups", user_id)
        self.records.put_record(Record(_STATE_KIND, rid, user_id, data, now, now))

    def rollups(self, user_id: str, level: Level | None = None) -> list[Rollup]:
        """The user's roll-ups (of one level when given), oldest span first."""
        out = [Rollup.load(r.data) for r in self.records.list_records(ROLLUP_KIND, user_id)]
        out = [r for r in out if level is None or r.level == level]
        return sorted(out, key=lambda r: (r.start, r.level))
