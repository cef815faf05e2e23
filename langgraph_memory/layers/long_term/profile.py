"""The user profile: preferences with a source, a scope and a confidence, and their conflicts.

A :class:`ProfileEntry` says that for ``key`` the user wants ``value``, where it
came from (``explicit``: the user said so; ``confirmed``: the user agreed to it;
``inferred``: the model guessed it), in which ``scope`` it holds (``None`` is
global, else e.g. a project id) and how sure we are of it (``confidence``).

Conflicts resolve as in the design documents (seed 002, ``user_preferences``):
an entry of the current scope beats a global one; then explicit > confirmed >
inferred; then the higher confidence; then the more recent. The entry id breaks
the last ties, so :func:`resolve` never depends on the order of its input.
This module holds the data and the rules and does no I/O; the store is
:class:`~.memory.LongTermMemory`.

Example:
    >>> from datetime import datetime, timezone
    >>> t = datetime(2024, 5, 1, tzinfo=timezone.utc)
    >>> tea = ProfileEntry("p1", "u1", "drink", "tea over coffee", source="explicit",
    ...                    confidence=1.0, polarity="positive", created_at=t, updated_at=t)
    >>> guess = ProfileEntry("p2", "u1", "drink", "coffee", source="inferred",
    ...                      confidence=0.9, created_at=t, updated_at=t)
    >>> resolve([guess, tea]).value
    'tea over coffee'
    >>> tea.text()
    'User prefers tea over coffee (drink; explicit, 1.0)'
    >>> late = ProfileEntry("p3", "u1", "drink", "green tea", scope="proj-1", source="inferred",
    ...                     confidence=0.6, created_at=t, updated_at=t)
    >>> resolve([guess, tea, late], scope="proj-1").value   # scoped beats global
    'green tea'
    >>> resolve([guess, tea, late]).value                    # no scope: global entries only
    'tea over coffee'
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, ClassVar

from langgraph_memory.core.held_texts import text_cache
from langgraph_memory.core.records import from_data
from langgraph_memory.core.validation import check_id
from langgraph_memory.layers.long_term.records import RecordsStore

__all__ = [
    "ProfileEntry",
    "SOURCES",
    "SOURCE_RANK",
    "POLARITIES",
    "resolve",
    "priority",
    "normalize_key",
    "check_source_ids",
    "merge_ids",
    "render_value",
    "has_cjk",
    "clamp01",
    "check_value",
    "check_scope",
    "stable_id",
    "Profile",
]

#: Where a preference came from, strongest first.
SOURCES = ("explicit", "confirmed", "inferred")
#: Rank of each source in conflict resolution (higher wins).
SOURCE_RANK = {"explicit": 3, "confirmed": 2, "inferred": 1}
#: Whether a preference is for (``positive``) or against (``negative``) its value;
#: ``None`` for plain settings such as a timezone.
POLARITIES = ("positive", "negative")

_CJK_RE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
_SEP_RE = re.compile(r"[\s\-]+")
MAX_VALUE_BYTES = 4096


def _now() -> datetime:
    return datetime.now(timezone.utc)


def has_cjk(text: str) -> bool:
    """Whether ``text`` contains Chinese, Japanese or Korean characters."""
    return bool(_CJK_RE.search(text))


def normalize_key(key: str) -> str:
    """A key or relation in canonical form: case-folded, spaces and hyphens as ``_``.

    Example:
        >>> normalize_key("  Lives in ")
        'lives_in'
    """
    if type(key) is str:  # remembered: a fact's timeline compares every stored fact's key
        return _normalized_key(key)
    return _normalize_key(key)


def _normalize_key(key: str) -> str:
    return _SEP_RE.sub("_", check_id(key, "key").strip().casefold())


#: Keys seen lately in canonical form (an invalid key raises every time: errors are not kept).
_normalized_key = text_cache(maxsize=8192)(_normalize_key)


def render_value(value: Any) -> str:
    """A value as short text (strings as they are, anything else as compact JSON)."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def check_source_ids(source_ids: Sequence[str] | None) -> list[str]:
    """Validate message ids (the citation trail), dropping repeats and keeping order."""
    if source_ids is None:
        return []
    if isinstance(source_ids, str) or not isinstance(source_ids, (list, tuple)):
        raise TypeError("source_ids must be a list of message ids (str)")
    return merge_ids([check_id(s, "source_ids[]") for s in source_ids])


def merge_ids(*lists: Iterable[str]) -> list[str]:
    """Concatenate id lists, dropping repeats and keeping the first occurrence's position."""
    return list(dict.fromkeys(i for ids in lists for i in ids))


def clamp01(x: float) -> float:
    """``x`` within [0, 1], rounded to 6 decimals (so 0.6 + 0.2 + 0.2 is 1.0)."""
    return round(min(1.0, max(0.0, float(x))), 6)


@dataclass(slots=True)
class ProfileEntry:
    """One preference of a user.

    Attributes:
        id: Unique id (one entry per user, key, scope and source).
        user_id: Whose preference it is.
        key: What it is about, in canonical form (``drink``, ``code_language``).
        value: The preference, JSON-serialisable (usually a short string).
        scope: Where it applies (a project, a topic); ``None`` means everywhere.
        source: ``explicit``, ``confirmed`` or ``inferred``.
        confidence: How sure we are, in [0, 1]; only entries above the context
            threshold (0.7) reach the prompt.
        polarity: ``positive`` (likes), ``negative`` (dislikes) or ``None`` (a setting).
        source_ids: Ids of the messages it came from (the citation trail).
        created_at: When this value was first stored.
        updated_at: When it last changed or was re-asserted.
        access_count: How often it was retrieved.
        last_accessed_at: When it was last retrieved or re-asserted.
        quote: The user's own words it was read from (the latest statement), if any.
        earlier: The value this one replaced (a setting or a fact about the user that
            changed: where they live, work...), shown with it as earlier.
    """

    id: str
    user_id: str
    key: str
    value: Any
    scope: str | None = None
    source: str = "inferred"
    confidence: float = 0.6
    polarity: str | None = None
    source_ids: list[str] = field(default_factory=list)
    created_at: datetime = field(default_factory=_now)
    updated_at: datetime = field(default_factory=_now)
    access_count: int = 0
    last_accessed_at: datetime | None = None
    quote: str | None = None
    earlier: Any = None

    @classmethod
    def load(cls, data: dict[str, Any]) -> ProfileEntry:
        """An entry from its stored form."""
        return from_data(cls, data)

    def text(self) -> str:
        """A one-line rendering for prompts and search (English or Chinese): the user's
        own words when they are known, else the key and value."""
        value = render_value(self.value)
        key = self.key.replace("_", " ")
        tag = f"{self.source}, {round(float(self.confidence), 2)}"
        if self.quote:
            what = [self.scope] if self.scope else []
            zh = has_cjk(self.quote)
            if self.polarity is None:  # a setting or a fact about the user: its value first
                now = f"{key}{'：' if zh else ': '}{value}"
                if self.earlier is not None and self.earlier != self.value:
                    was = render_value(self.earlier)
                    now += f"；此前：{was}" if zh else f"; earlier: {was}"
                what.insert(0, now)
            if zh:
                label = "用户偏好" if self.polarity else "关于用户"
                where = f"（{'，'.join(what)}）" if what else ""
                return f"{label}{where}：“{self.quote}”"
            label = "User preference" if self.polarity else "About the user"
            where = f" ({', '.join(what)})" if what else ""
            return f'{label}{where}: "{self.quote}"'
        if has_cjk(key + value):
            verb = {"positive": "用户喜欢", "negative": "用户不喜欢"}.get(self.polarity or "")
            body = f"{verb}{value}（{key}）" if verb else f"用户的{key}：{value}"
            body = f"在{self.scope}中，{body}" if self.scope else body
            return f"{body}（{tag}）"
        verb = {"positive": "User prefers", "negative": "User dislikes"}.get(self.polarity or "")
        body = f"{verb} {value} ({key}; {tag})" if verb else f"User's {key}: {value} ({tag})"
        return f"In {self.scope}: {body}" if self.scope else body


def priority(entry: ProfileEntry) -> tuple[bool, int, float, datetime, str]:
    """The sort key of conflict resolution (higher wins): scoped, source, confidence,
    recency, then id."""
    return (
        entry.scope is not None,
        SOURCE_RANK.get(entry.source, 0),
        entry.confidence,
        entry.updated_at,
        entry.id,
    )


def resolve(entries: Iterable[ProfileEntry], scope: str | None = None) -> ProfileEntry | None:
    """The entry that wins among entries for one key.

    Entries of another scope than ``scope`` do not apply; with ``scope=None``
    only global entries do. Among the rest: scoped > explicit > confirmed >
    inferred, then confidence, then recency (``updated_at``), then id.

    Args:
        entries: Entries of one user for one key, in any order.
        scope: The current scope (a project id...), or ``None``.

    Returns:
        The winning entry, or ``None`` when none applies.
    """
    applicable = [e for e in entries if e.scope is None or (scope is not None and e.scope == scope)]
    return max(applicable, key=priority) if applicable else None


def stable_id(prefix: str, *parts: str | None) -> str:
    """A deterministic id from its parts (``None`` distinct from any string)."""
    raw = "\x1f".join("\x00" if p is None else p for p in parts)
    return f"{prefix}-{hashlib.sha256(raw.encode('utf-8')).hexdigest()[:32]}"


def check_value(value: Any, name: str) -> Any:
    """Validate a preference or trait value: non-empty, JSON-serialisable, at most 4 KiB."""
    if value is None or (isinstance(value, str) and not value.strip()):
        raise ValueError(f"{name} must not be empty")
    try:
        encoded = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be JSON-serialisable: {exc}") from exc
    if len(encoded.encode("utf-8")) > MAX_VALUE_BYTES:
        raise ValueError(f"{name} is larger than {MAX_VALUE_BYTES} bytes as JSON")
    return json.loads(encoded)


def check_scope(scope: str | None) -> str | None:
    """Validate a scope; ``"global"`` (any case) means ``None``."""
    if scope is None:
        return None
    scope = check_id(scope, "scope").strip()
    return None if scope.casefold() == "global" else scope


class Profile(RecordsStore):
    """The user profile: preferences with a source, a scope and a confidence, and how
    feedback moves them (``LongTermMemory.profile``)."""

    _loaders: ClassVar[dict[str, Callable[[dict[str, Any]], Any]]] = {"profile": ProfileEntry.load}

    # -- profile ------------------------------------------------------------------------
    def upsert_preference(
        self,
        user_id: str,
        key: str,
        value: Any,
        *,
        source: str = "inferred",
        scope: str | None = None,
        confidence: float | None = None,
        polarity: str | None = None,
        source_ids: Sequence[str] | None = None,
        quote: str | None = None,
    ) -> ProfileEntry:
        """Store a preference; there is one entry per (user, key, scope, source).

        Re-asserting the same value refreshes the entry (citations merged,
        ``updated_at`` bumped; an explicit or confirmed restatement, or a given
        ``confidence``, raises the confidence to at least that level, while a
        re-inferred guess keeps its own: only following it raises it); a different
        value replaces the entry and starts over at the source's confidence.
        Entries of other sources are left alone: :func:`resolve` decides between them.

        Args:
            user_id: Whose preference.
            key: What it is about (``drink``; canonicalised to lower case with ``_``).
            value: The preference (JSON-serialisable, non-empty).
            source: ``explicit``, ``confirmed`` or ``inferred``.
            scope: Where it applies (``None`` or ``"global"``: everywhere).
            confidence: Starting confidence; the source's default when ``None``.
            polarity: ``positive``, ``negative`` or ``None``.
            source_ids: Ids of the messages it came from.
            quote: The user's words it was read from (shown with it; the latest kept).

        Returns:
            The stored entry.
        """
        user_id, key = check_id(user_id, "user_id"), normalize_key(key)
        if quote is not None and not isinstance(quote, str):
            raise TypeError(f"quote must be a string or None, got {type(quote).__name__}")
        value, scope = self._clean(check_value(value, "value"), "value"), check_scope(scope)
        quote = self._clean(quote, "quote")
        if source not in SOURCES:
            raise ValueError(f"source {source!r} is unknown; use one of {SOURCES}")
        if polarity is not None and polarity not in POLARITIES:
            raise ValueError(f"polarity {polarity!r} is unknown; use one of {POLARITIES} or None")
        conf = self.config.initial_confidence(source) if confidence is None else confidence
        if isinstance(conf, bool) or not isinstance(conf, (int, float)) or not 0 <= conf <= 1:
            raise ValueError(f"confidence must be a number within [0, 1], got {confidence!r}")
        ids = check_source_ids(source_ids)
        entry_id = stable_id("pref", user_id, key, scope, source)
        with self._lock:
            now = self._now()
            rec = self.records.get_record("profile", entry_id, user_id)
            old = ProfileEntry.load(rec.data) if rec is not None else None
            if old is not None and old.value == value and old.polarity == polarity:
                old.source_ids = merge_ids(old.source_ids, ids)
                if source != "inferred" or confidence is not None:
                    old.confidence = clamp01(max(old.confidence, conf))
                old.updated_at = old.last_accessed_at = now
                old.quote = quote or old.quote
                entry = old
            else:
                entry = ProfileEntry(
                    entry_id, user_id, key, value, scope, source, clamp01(conf), polarity,
                    ids, created_at=now, updated_at=now, quote=quote or None,
                )  # fmt: skip
                if old is not None and old.polarity is None and polarity is None:
                    entry.earlier = old.value  # a fact about the user changed: keep the last
            self._put("profile", entry)
            return entry

    def get_preference(self, user_id: str, entry_id: str) -> ProfileEntry:
        """One of the user's preferences by id.

        Raises:
            KeyError: When the user has no such entry.
        """
        entry: ProfileEntry = self._get("profile", user_id, entry_id)
        return entry

    def list_preferences(
        self, user_id: str, *, key: str | None = None, scope: str | None = None
    ) -> list[ProfileEntry]:
        """The user's preference entries (all scopes and sources), oldest first.

        Args:
            user_id: Whose entries.
            key: Only this key, when given.
            scope: Only entries that apply in this scope (its own and global ones), when given.
        """
        where = None if key is None else {"key": normalize_key(key)}
        scope = check_scope(scope)
        found = self.records.query_records("profile", check_id(user_id, "user_id"), where=where)
        return [
            e
            for r in found
            if (e := ProfileEntry.load(r.data)) and (scope is None or e.scope in (None, scope))
        ]

    def _adjust(self, user_id: str, entry_id: str, delta: float, ids: list[str]) -> ProfileEntry:
        with self._lock:
            entry = self.get_preference(user_id, entry_id)
            entry.confidence = clamp01(entry.confidence + delta)
            entry.source_ids = merge_ids(entry.source_ids, ids)
            entry.updated_at = self._now()
            self._put("profile", entry)
            return entry

    def reinforce(
        self, user_id: str, entry_id: str, *, source_ids: Sequence[str] | None = None
    ) -> ProfileEntry:
        """The user followed the preference: confidence + ``reinforce_step`` (at most 1).

        Raises:
            KeyError: When the user has no such entry.
        """
        ids = check_source_ids(source_ids)
        return self._adjust(user_id, entry_id, self.config.reinforce_step, ids)

    def correct(
        self,
        user_id: str,
        entry_id: str,
        *,
        value: Any = None,
        source_ids: Sequence[str] | None = None,
        delete: bool = False,
    ) -> ProfileEntry | None:
        """The user corrected the preference: confidence − ``correct_step`` (at least 0).

        Args:
            user_id: Whose entry.
            entry_id: The corrected entry.
            value: What the user said instead, stored as an explicit entry of the same
                key, scope and polarity (optional).
            source_ids: Ids of the correcting messages.
            delete: Remove the corrected entry instead of lowering its confidence.

        Returns:
            The explicit entry when ``value`` is given, else the corrected entry
            (``None`` when deleted).

        Raises:
            KeyError: When the user has no such entry.
        """
        ids = check_source_ids(source_ids)
        with self._lock:
            if delete:
                entry = self.get_preference(user_id, entry_id)
                self.records.delete_records("profile", [entry.id], entry.user_id)
                corrected = None
            else:
                entry = corrected = self._adjust(user_id, entry_id, -self.config.correct_step, ids)
            if value is None:
                return corrected
            return self.upsert_preference(
                user_id, entry.key, value, source="explicit", scope=entry.scope,
                polarity=entry.polarity, source_ids=ids,
            )  # fmt: skip

    def effective_profile(
        self, user_id: str, scope: str | None = None, *, min_confidence: float | None = None
    ) -> dict[str, ProfileEntry]:
        """The winning entry of every key (see :func:`resolve`), by key.

        Args:
            user_id: Whose profile.
            scope: The current scope; its entries beat global ones.
            min_confidence: When given, entries at or below it are ignored *before*
                resolving (an observation-only guess never hides a usable entry).
        """
        by_key: dict[str, list[ProfileEntry]] = {}
        for e in self.list_preferences(user_id, scope=scope):
            if min_confidence is None or e.confidence > min_confidence:
                by_key.setdefault(e.key, []).append(e)
        winners = {k: resolve(v, check_scope(scope)) for k, v in sorted(by_key.items())}
        return {k: w for k, w in winners.items() if w is not None}

    def for_context(self, user_id: str, scope: str | None = None) -> list[ProfileEntry]:
        """The preferences to put in the prompt: per key, the winner among entries with
        confidence above ``preference_threshold``; sorted by key."""
        profile = self.effective_profile(
            user_id, scope, min_confidence=self.config.preference_threshold
        )
        return list(profile.values())
