"""Credentials a line break cut in two (a paste wrapped by a terminal or a chat window):
``ghp_rHxm...`` at a line's end and the rest of the key at the next line's start, a JWT
broken inside its payload, a long secret of hex digits over two lines. Each is found
whole, the break inside its span, so neither half is left in clear.

A break is read as a cut when a run of a credential's alphabet (letters, digits and
``_-.+/=``) of 16 characters or more ends its line and another of 8 or more opens the
next one: the two runs are joined and the detectors of credentials of a known shape run
over the join; a finding that spans the join is a finding over the break. A secret after
a label (``the signing secret`` then 32 hex digits) whose value is a machine's (24
hex digits or more) takes the next line too when that line is alone and of hex digits.

Example:
    >>> text = "token:\\nghp_rHxmYGiNIV2sKlZy2H\\nM5dAAkIIKiXhu9hVfI"
    >>> from langgraph_memory.sensitivity.patterns import SHAPED_DETECTORS
    >>> [(text[a:b], kind) for a, b, kind, _ in over_breaks(text, SHAPED_DETECTORS)]
    [('ghp_rHxmYGiNIV2sKlZy2H\\nM5dAAkIIKiXhu9hVfI', 'api_key')]
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator

from langgraph_memory.sensitivity.patterns import Span

__all__ = ["over_breaks", "secrets_over_breaks"]

#: Runs of a credential's alphabet before and after a line break (16 and 8 characters).
_BEFORE = re.compile(r"[A-Za-z0-9_\-.+/=]{16}")
_AFTER = re.compile(r"[A-Za-z0-9_\-.+/=]{8}")
_RUN = re.compile(r"[A-Za-z0-9_\-.+/=]+")
_LINE_END = re.compile(r"[ \t]*(?:\r?\n|$)")
_SPACE = re.compile(r"[ \t]")
#: Kinds given away by their shape (what a join is scanned for).
_SHAPED = frozenset(("api_key", "token", "private_key"))
#: A machine-made secret: 24 hex digits or more (a signing secret, an HMAC key).
_MACHINE = re.compile(r"[0-9a-fA-F]{24,}")
_REST = re.compile(r"\r?\n([0-9a-fA-F]{16,})(?=[ \t]*(?:\r?\n|$))")
#: The rest of a quoted value on the next line (up to its closing quote), and a run alone
#: on the next line (6 characters or more, no space).
_QUOTED_REST = re.compile(r"\r?\n([A-Za-z0-9_\-.+/=]{4,})")
_ALONE_REST = re.compile(r"\r?\n([!-~]{6,})(?=[ \t]*(?:\r?\n|$))")
_HEX = re.compile(r"[0-9a-fA-F]+")


def _breaks(text: str) -> Iterator[tuple[int, int]]:
    """``(start, end)`` of each line break between two runs of a credential's alphabet
    (found from each ``\\n`` with ``str.find``: a pattern would be tried at every place)."""
    j = text.find("\n")
    while j >= 0:
        i = j - 1 if j and text[j - 1] == "\r" else j
        if i >= 16 and _BEFORE.match(text, i - 16, i) and _AFTER.match(text, j + 1):
            yield i, j + 1
        j = text.find("\n", j + 1)


def _random(run: str) -> bool:
    """Whether ``run`` looks like a key's random characters: 16 or more, with upper and
    lower case letters and digits, or capitals and three digits or more (``V9ZGKIQO3VCB3B5``;
    not a word, a name or a number)."""
    digits = sum(c.isdigit() for c in run)
    upper, lower = any(c.isupper() for c in run), any(c.islower() for c in run)
    return len(run) >= 16 and digits > 0 and upper and (lower or digits >= 3)


def _shaped(run: str, detectors: Iterable[Callable[[str], Iterable[Span]]]) -> bool:
    """Whether ``run`` holds a credential of a known shape of its own (another key)."""
    return any(s[2] in _SHAPED for detect in detectors for s in detect(run))


def over_breaks(
    text: str, detectors: Iterable[Callable[[str], Iterable[Span]]], spans: Iterable[Span] = ()
) -> Iterator[Span]:
    """Credentials of a known shape that a line break cut (see the module docs), found
    by ``detectors`` over the two runs joined; not where the second run is glued to
    more on its line (``Content-Type:``), nor where it is followed by more and does not
    look random (:func:`_random`). Where ``spans`` (the findings of the text as written)
    hold a key ending at the break, the key goes on over it only when the next run looks
    random (a terminal cut a longer key: ``sk-proj-...`` then ``AbT3Blbk...``) and is no
    key of its own (a whole key, then another line)."""
    whole = {s[1] for s in spans if s[2] in _SHAPED}
    for i, j in _breaks(text):
        right = _RUN.match(text, j)
        if right is None:
            continue
        random = _random(right.group())
        if not (_LINE_END.match(text, right.end()) or random and _SPACE.match(text, right.end())):
            continue  # ``Content-Type:``, a word glued to punctuation: not a key's rest
        if i in whole and (not random or _shaped(right.group(), detectors)):
            continue  # a whole key, then a line of words or another key
        a = i
        while a > 0 and _RUN.match(text, a - 1) and not text[a - 1].isspace():
            a -= 1
        b = right.end()
        joined = text[a:i] + text[j:b]
        cut = i - a
        for detect in detectors:
            for s, e, kind, _ in detect(joined):
                if kind in _SHAPED and s < cut < e:
                    yield a + s, j + (e - cut), kind, "wrapped"


def _rest(text: str, start: int, end: int) -> int | None:
    """Where a secret ``text[start:end]`` ending its line goes on to over the break: to the
    closing quote on the next line where its quote was left open (``key='mTHs...`` then
    ``dqGS...')``); to the next line's end where the secret stood alone on its line and the
    next line is alone too, of the secret's alphabet (hex after hex; else a letter and a
    digit, no ``:``/``=``; not as long as the secret, as the items of a list of codes
    are): ``password:`` then ``AdA2l#O`` then ``3IQJbG8mPV``."""
    quote = text[start - 1 : start]
    if quote in ("'", '"'):
        m = _QUOTED_REST.match(text, end)
        return m.end(1) if m is not None and text.startswith(quote, m.end(1)) else None
    if text[text.rfind("\n", 0, start) + 1 : start].strip():
        return None  # more before it on its line: a value in a sentence
    m = _ALONE_REST.match(text, end)
    if m is None:
        return None
    rest, value = m.group(1), text[start:end]
    if len(rest) == len(value):
        return None  # codes of one format, one a line (recovery codes): a list, no wrap
    if _HEX.fullmatch(value):
        return m.end(1) if _HEX.fullmatch(rest) else None
    letter, digit = any(c.isalpha() for c in rest), any(c.isdigit() for c in rest)
    return m.end(1) if letter and digit and not any(c in ":=" for c in rest) else None


def secrets_over_breaks(text: str, spans: list[Span]) -> list[Span]:
    """``spans`` with a ``secret`` at its line's end taking the next line: when the secret
    is machine-made and that line alone and of the same alphabet, or the rest of the
    secret is there (:func:`_rest`; see the module docs)."""
    starts = {s[0] for s in spans if s[2] in _SHAPED}
    out: list[Span] = []
    for s in spans:
        if s[2] == "secret" and text.startswith(("\n", "\r\n"), s[1]):
            value = text[s[0] : s[1]]
            rest = _REST.match(text, s[1])
            if rest is not None and _MACHINE.fullmatch(value):
                s = (s[0], rest.end(), s[2], s[3])
            elif (end := _rest(text, s[0], s[1])) is not None and not any(
                s[1] < a < end for a in starts
            ):
                s = (s[0], end, s[2], s[3])
        out.append(s)
    return out
