"""Cue gates: skip a pattern on a text that lacks every literal a match of it needs.

The slot and preference readers try dozens of patterns on each sentence, and most
sentences hold none of their trigger words: a search that fails still walks the whole
text. :class:`Cued` wraps a compiled pattern with the literals read off the pattern
itself (its parse tree: one of them is in any text the pattern matches in), and answers
``None`` at once, without the search, for a text that holds none of them. Read off the
pattern, the gate cannot drift from it: a pattern whose needs cannot be read (nothing
but classes and optional parts) is always searched.

A literal matched ignoring case is looked up in the text case-folded the way the
engine folds (``str.lower`` plus the few characters that match an ASCII letter only
under ``re.IGNORECASE``, such as "ſ" for "s"); a cased non-ASCII literal matched
ignoring case makes no cue.

Example:
    >>> rx = Cued(re.compile(r"\\b(?:moved|relocated)\\s+to\\s+(?P<v>[A-Z]\\w+)", re.I))
    >>> sorted(rx.cues)
    [('moved', True), ('relocated', True)]
    >>> rx.search("Lunch was great.") is None
    True
    >>> rx.search("We MOVED to Porto")["v"]
    'Porto'
"""

from __future__ import annotations

import functools
import importlib
import re
import string
import sys
from array import array
from collections.abc import Iterator
from typing import Any, TypeVar

from langgraph_memory.core.held_texts import register

__all__ = ["Cued", "cues_of", "fold", "gated", "open_entries", "opened", "possible", "scan"]

# The engine's parser: ``re._parser`` (3.11+) or ``sre_parse`` (3.10).
_parser: Any = importlib.import_module("re._parser" if sys.version_info >= (3, 11) else "sre_parse")

Cue = tuple[str, bool]  # (literal, matched ignoring case: then lower-case, ASCII)


@functools.cache
def _twins() -> dict[int, str]:
    """Non-ASCII characters that ``re.IGNORECASE`` matches with an ASCII letter ("ſ" with
    "s", the Kelvin sign with "k"), as the letter: found by the engine itself, in the
    Basic Multilingual Plane (none lies beyond it; a test checks), on first use."""
    text = array("I", range(0x80, 0xD800)).tobytes() + array("I", range(0xE000, 0x10000)).tobytes()
    found = set(
        re.findall(
            r"[a-z]", text.decode("utf-32-le" if sys.byteorder == "little" else "utf-32-be"), re.I
        )
    )
    return {
        ord(c): next(a for a in string.ascii_lowercase if re.fullmatch(a, c, re.I)) for c in found
    }


def fold(text: str) -> str:
    """``text`` as case-insensitive cues are looked up in: each character that matches
    an ASCII letter ignoring case becomes that letter, lower-case.

    Example:
        >>> fold("Moved to ſtuttgart")
        'moved to stuttgart'
    """
    return text.lower() if text.isascii() else text.translate(_twins()).lower()


def _uncased(c: str) -> bool:
    return c.lower() == c == c.upper() and ord(c) not in _twins()


def _best(options: list[frozenset[Cue]]) -> frozenset[Cue] | None:
    """The most selective of several needs of one sequence (each is enough alone)."""
    if not options:
        return None
    return max(options, key=lambda o: (min(len(t) for t, _ in o), -len(o)))


def _needs(items: Any, icase: bool, depth: int = 0) -> frozenset[Cue] | None:
    """One of the returned literals is in any text a match of the parsed sequence
    ``items`` is found in; ``None`` when none can be said."""
    if depth > 50:
        return None
    options: list[frozenset[Cue]] = []
    run: list[str] = []

    def close() -> None:
        if run:
            options.append(frozenset({("".join(run), icase)}))
            run.clear()

    for op, av in items:
        name = str(op)
        if name == "LITERAL":
            c = chr(av)
            if icase and not c.isascii() and not _uncased(c):
                close()  # a cased non-ASCII letter matched ignoring case: no cue
                continue
            run.append(c.lower() if icase else c)
            continue
        close()
        need: frozenset[Cue] | None = None
        if name == "SUBPATTERN":
            _group, add, remove, sub = av
            inner = (icase or bool(add & re.I)) and not (remove & re.I)
            need = _needs(sub, inner, depth + 1)
        elif name == "ATOMIC_GROUP":
            need = _needs(av, icase, depth + 1)
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            low, _high, sub = av
            need = _needs(sub, icase, depth + 1) if low >= 1 else None
        elif name == "ASSERT":  # a lookahead/lookbehind's words are in the text too
            need = _needs(av[1], icase, depth + 1)
        elif name == "BRANCH":
            branches = [_needs(b, icase, depth + 1) for b in av[1]]
            if all(b is not None for b in branches):
                need = frozenset().union(*(b for b in branches if b is not None))
        if need:
            options.append(need)
    close()
    return _best([o for o in options if all(t for t, _ in o)])


def cues_of(pattern: re.Pattern[str]) -> frozenset[Cue] | None:
    """The literals one of which is in any text ``pattern`` matches in: ``(literal,
    ignoring case)`` pairs; ``None`` when the pattern names none.

    Example:
        >>> sorted(cues_of(re.compile(r"(?:住在|定居在?)(?P<v>\\w+)")))
        [('住在', False), ('定居', False)]
        >>> cues_of(re.compile(r"\\d+")) is None
        True
    """
    try:
        parsed = _parser.parse(pattern.pattern, pattern.flags)
    except Exception:  # noqa: BLE001 - an unreadable pattern is simply always searched
        return None
    icase = bool(parsed.state.flags & re.I)
    return _needs(list(parsed), icase)


class _Trie:
    """Literals found in a text in one pass: a lookahead at each position of a pattern
    built as a trie of them takes the longest literal that starts there, and every
    literal that starts there is a prefix of it (kept with it)."""

    def __init__(self) -> None:
        self.words: set[str] = set()
        self._rx: re.Pattern[str] | None = None
        self._prefixes: dict[str, frozenset[str]] = {}
        #: The last whole text scanned and ``(position, longest literal)`` of its literals.
        self._whole: tuple[str, list[tuple[int, str]]] = ("", [])

    def add(self, words: Iterator[str] | tuple[str, ...]) -> None:
        self.words.update(words)
        self._rx = None
        self._whole = ("", [])

    def _build(self) -> re.Pattern[str]:
        root: dict[str, Any] = {}
        for word in self.words:
            node = root
            for c in word:
                node = node.setdefault(c, {})
            node[""] = True  # a word ends here

        def alternatives(node: dict[str, Any]) -> str:
            parts = [re.escape(c) + alternatives(child) for c, child in node.items() if c]
            if not parts:
                return ""
            body = parts[0] if len(parts) == 1 else "(?:" + "|".join(parts) + ")"
            return f"(?:{body})?" if "" in node else body

        self._prefixes = {
            w: frozenset(w[:n] for n in range(1, len(w) + 1) if w[:n] in self.words)
            for w in self.words
        }
        if not self.words:
            return re.compile("$^")
        # the first letters as a class ahead: where none starts, no branch is tried
        firsts = "".join(sorted({re.escape(w[0]) for w in self.words}))
        return re.compile(f"(?=[{firsts}])(?=({alternatives(root)}))", re.S)

    def found(self, text: str) -> frozenset[str]:
        rx = self._rx
        if rx is None:
            rx = self._rx = self._build()
        if not text:
            return frozenset()
        whole, at = self._whole
        start = whole.find(text) if len(text) <= len(whole) else -1
        if start >= 0:  # the whole text scanned last, or a part of it: read off its scan
            return self._within(at, start, start + len(text))
        # the longest literal at each position, listed in C; each once with its prefixes
        return frozenset().union(*map(self._prefixes.__getitem__, set(rx.findall(text))))

    def scan(self, text: str) -> frozenset[str]:
        """The literals of ``text``, whose parts (sentences, clauses) are then read off
        this one scan: the literals that start in a part and end in it."""
        rx = self._rx
        if rx is None:
            rx = self._rx = self._build()
        at = [(m.start(), m.group(1)) for m in rx.finditer(text)]
        self._whole = (text, at)
        return self._within(at, 0, len(text))

    def _within(self, at: list[tuple[int, str]], start: int, end: int) -> frozenset[str]:
        """The literals that start and end within ``[start, end)`` of a scanned text:
        at each position, the prefixes of the longest one there that fit."""
        prefixes = self._prefixes
        out: set[str] = set()
        for pos, word in at:
            if pos < start:
                continue
            if pos >= end:
                break
            if pos + len(word) <= end:
                out |= prefixes[word]
            else:
                out.update(w for w in prefixes[word] if pos + len(w) <= end)
        return frozenset(out)


class _Lookup:
    """Cues found in a text: the ASCII ones by one trie, the others (Chinese words) by
    another, searched only in a text that is not all ASCII."""

    def __init__(self) -> None:
        self.ascii, self.other = _Trie(), _Trie()

    def add(self, words: frozenset[str]) -> None:
        self.ascii.add(tuple(w for w in words if w.isascii()))
        self.other.add(tuple(w for w in words if not w.isascii()))

    def found(self, text: str) -> frozenset[str]:
        if text.isascii():
            return self.ascii.found(text)
        return self.ascii.found(text) | self.other.found(text)

    def scan(self, text: str) -> frozenset[str]:
        if text.isascii():
            return self.ascii.scan(text)
        return self.ascii.scan(text) | self.other.scan(text)


#: Every gated pattern's cues: matched as written, and ignoring case (on :func:`fold`).
_EXACT, _FOLDED = _Lookup(), _Lookup()
#: The cues of the texts read since the last message was scanned, as written and ignoring
#: case: readers try their patterns on a sentence, on its clauses, on the sentence again.
_seen: dict[str, tuple[frozenset[str], frozenset[str]]] = {}
#: How many texts :data:`_seen` keeps (then it starts again).
_SEEN = 256


def _forget() -> None:
    """Drop the texts the cue look-ups keep (the last scanned, the parts read since):
    a deletion empties every cache of texts (:mod:`~langgraph_memory.core.held_texts`)."""
    _seen.clear()
    for lookup in (_EXACT, _FOLDED):
        for trie in (lookup.ascii, lookup.other):
            trie._whole = ("", [])


register("langgraph_memory.extraction.cues._seen", _forget)


def _present(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """The cues ``text`` holds, as written and ignoring case (kept for the texts read
    since the last :func:`scan`: the same sentence is read by one reader after another)."""
    got = _seen.get(text)
    if got is None:
        got = (_EXACT.found(text), _FOLDED.found(fold(text)))
        if len(_seen) >= _SEEN:
            _seen.clear()
        _seen[text] = got
    return got


def scan(text: str) -> None:
    """Look for every cue in ``text`` (a message) in one pass: the cues of its parts
    that readers ask about next (its sentences, their clauses) are read off this pass
    instead of a pass over each part.

    Example:
        >>> rx = Cued(re.compile(r"\\bmoved to (\\w+)", re.I))
        >>> scan("Hi there. We moved to Porto last May.")
        >>> rx.may_match("We moved to Porto"), rx.may_match("Hi there.")
        (True, False)
    """
    exact, folded = _EXACT.scan(text), _FOLDED.scan(fold(text))
    _seen.clear()
    _seen[text] = (exact, folded)


class Cued:
    """A compiled pattern that skips the search on a text holding none of its cues
    (:func:`cues_of`); ``search``, ``match``, ``fullmatch`` and ``finditer`` answer as
    the pattern's own do.

    Args:
        rx: The compiled pattern.
    """

    __slots__ = ("rx", "cues", "pattern", "flags", "groupindex", "_exact", "_folded")

    def __init__(self, rx: re.Pattern[str]) -> None:
        self.rx = rx
        self.cues = cues_of(rx)
        self.pattern, self.flags, self.groupindex = rx.pattern, rx.flags, rx.groupindex
        self._exact = frozenset(t for t, i in self.cues or () if not i)
        self._folded = frozenset(t for t, i in self.cues or () if i)
        _EXACT.add(self._exact)
        _FOLDED.add(self._folded)
        _seen.clear()  # read before these cues were looked for

    def may_match(self, text: str) -> bool:
        """Whether ``text`` holds one of the cues (always, when there are none)."""
        if self.cues is None:
            return True
        exact, folded = _present(text)
        return not (self._exact.isdisjoint(exact) and self._folded.isdisjoint(folded))

    def search(self, text: str) -> re.Match[str] | None:
        return self.rx.search(text) if self.may_match(text) else None

    def match(self, text: str) -> re.Match[str] | None:
        return self.rx.match(text) if self.may_match(text) else None

    def fullmatch(self, text: str) -> re.Match[str] | None:
        return self.rx.fullmatch(text) if self.may_match(text) else None

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        return self.rx.finditer(text) if self.may_match(text) else iter(())

    def __repr__(self) -> str:
        return f"Cued({self.rx!r})"


def gated(pattern: str, flags: int = 0) -> Cued:
    """``re.compile(pattern, flags)`` behind the gate of its cues: for a pattern tried on
    every sentence or clause, which most of them hold none of the words of.

    Example:
        >>> gated(r"\\b(?:said|told me)\\b", re.I).search("We went home.") is None
        True
    """
    return Cued(re.compile(pattern, flags))


def possible(patterns: list[Cued], text: str) -> list[re.Pattern[str]]:
    """The compiled patterns of ``patterns`` whose gates ``text`` opens, in order (one
    look at the text's cues for the whole list).

    Example:
        >>> rxs = [Cued(re.compile(r"\\blive in (\\w+)")), Cued(re.compile(r"work at (\\w+)"))]
        >>> [rx.pattern for rx in possible(rxs, "I work at Acme")]
        ['work at (\\\\w+)']
    """
    return [patterns[i].rx for i in _opened(patterns, text, False)]


def opened(patterns: list[Cued], text: str) -> list[int]:
    """The indexes, in order, of the patterns of ``patterns`` whose gates ``text`` opens.

    Example:
        >>> rxs = [Cued(re.compile(r"\\blive in (\\w+)")), Cued(re.compile(r"work at (\\w+)"))]
        >>> opened(rxs, "I work at Acme")
        [1]
    """
    return _opened(patterns, text, False)


E = TypeVar("E", bound=tuple[Any, ...])


def open_entries(entries: list[E], text: str) -> list[tuple[int, E]]:
    """``(index, entry)`` of the entries (tuples led by a :class:`Cued`) whose gates
    ``text`` opens, in order: a reader skips the others as it would a pattern that
    found nothing.

    Example:
        >>> table = [(Cued(re.compile(r"I love (\\w+)")), 1), (Cued(re.compile(r"I hate")), -1)]
        >>> [(i, pol) for i, (_, pol) in open_entries(table, "I hate mondays")]
        [(1, -1)]
    """
    return [(i, entries[i]) for i in _opened(entries, text, True)]


#: Per table (by identity, its length checked): the entries always open, and by cue the
#: entries it opens. A text holds a few cues and a table dozens of entries, so the cues
#: are looked up rather than every entry's gate tested.
_GATES: dict[int, tuple[Any, int, list[int], dict[str, list[int]], dict[str, list[int]]]] = {}


def _opened(entries: Any, text: str, led: bool) -> list[int]:
    """The indexes, in order, of the entries (:class:`Cued`, or tuples led by one when
    ``led``) whose gates ``text`` opens."""
    got = _GATES.get(id(entries))
    if len(entries) < 4 or (got is None and len(_GATES) >= 256):
        # a short list (maybe made for the call), or one more table than the readers
        # have: each gate tested
        exact, folded = _present(text)
        return [
            i
            for i, e in enumerate(entries)
            if (p := e[0] if led else e).cues is None
            or not (p._exact.isdisjoint(exact) and p._folded.isdisjoint(folded))
        ]
    if got is None or got[0] is not entries or got[1] != len(entries):
        always: list[int] = []
        by_exact: dict[str, list[int]] = {}
        by_folded: dict[str, list[int]] = {}
        for i, e in enumerate(entries):
            p = e[0] if led else e
            if p.cues is None:
                always.append(i)
                continue
            for cue in p._exact:
                by_exact.setdefault(cue, []).append(i)
            for cue in p._folded:
                by_folded.setdefault(cue, []).append(i)
        got = (entries, len(entries), always, by_exact, by_folded)
        _GATES[id(entries)] = got
    exact, folded = _present(text)
    hit = set(got[2])
    by_exact, by_folded = got[3], got[4]
    for cue in exact:
        if cue in by_exact:
            hit.update(by_exact[cue])
    for cue in folded:
        if cue in by_folded:
            hit.update(by_folded[cue])
    return sorted(hit)
