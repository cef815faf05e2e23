"""The cells under a table column headed by a password word (for the label reader,
:mod:`~langgraph_memory.sensitivity.labels`, through
:mod:`~langgraph_memory.sensitivity.written_forms`): Markdown, tab- or comma-separated
rows, and a name and its value side by side in one Markdown row.

Example:
    >>> text = "| 系统 | 账号 | 密码 |\\n|---|---|---|\\n| Jenkins | admin | Qv7#kLm2x |"
    >>> [text[a:b] for a, b, _ in table_cells(text)]
    ['Qv7#kLm2x']
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from langgraph_memory.sensitivity.label_values import TOKEN
from langgraph_memory.sensitivity.no_value import looks_like_credential, rejected

__all__ = ["comma_header", "table_cells"]


#: A table's header cell naming a secret (``密码``, ``Password``, ``API key``).
_HEADER = re.compile(
    r"(?:[\w .]{0,12}?)(?:密码|密碼|口令|密钥|秘钥|令牌|(?i:password|passwd|pwd|passcode|pin"
    r"|secret|token|api[ _\-]?key))(?:[\w .]{0,8})"
)


def _cells(line: str, delimiter: str) -> list[tuple[int, int]]:
    """The spans of a table row's cells within ``line`` (stripped of spaces)."""
    spans, a = [], 0
    inner = line.strip()
    base = line.index(inner) if inner else 0
    if delimiter == "|":
        inner = inner[1:] if inner.startswith("|") else inner
        base += 1 if line.strip().startswith("|") else 0
        inner = inner[:-1] if inner.endswith("|") else inner
    for part in inner.split(delimiter):
        raw_a, raw_b = a, a + len(part)
        stripped = part.strip()
        start = raw_a + (part.index(stripped) if stripped else 0)
        spans.append((base + start, base + start + len(stripped)))
        a = raw_b + 1
    return spans


_HEADER_WORDS = re.compile("pass|pwd|pin|secret|token|key|密|口令|令牌")


def comma_header(text: str, low: str) -> bool:
    """Whether a comma touches a password's name (``name,password``, ``密码,备注``): what a
    comma-separated table's header holds, and prose rarely does (``, password``)."""
    return (
        ",pass" in low
        or "pass," in low
        or "password," in low
        or ",pwd" in low
        or "pwd," in low
        or ",pin" in low
        or "pin," in low
        or ",secret" in low
        or "secret," in low
        or ",token" in low
        or "token," in low
        or "key," in low
        or ",密" in text
        or "码," in text
        or "碼," in text
        or ",口令" in text
        or "口令," in text
    )


def table_cells(text: str, commas: bool = True) -> Iterator[tuple[int, int, str]]:
    """The cells under a table column whose header names a secret (Markdown, tab- or
    comma-separated rows when ``commas``): ``| 系统 | 账号 | 密码 |`` then
    ``| Jenkins | admin | x |``."""
    offset, column, delimiter, width = 0, -1, "", 0
    for n, line in enumerate(text.split("\n")):
        if n > 400:
            break
        start = offset
        offset += len(line) + 1
        if column < 0 and "|" not in line and "\t" not in line and not (commas and "," in line):
            continue
        named = column >= 0 or _HEADER_WORDS.search(line.lower()) is not None
        if not named:
            continue
        if line.count("|") >= 2:  # | Password | x |: a name and its value in one row
            cells = _cells(line, "|")
            for i in range(len(cells) - 1):
                a, b = cells[i]
                c, d = cells[i + 1]
                value = line[c:d]
                if (
                    _HEADER.fullmatch(line[a:b])
                    and len(value) >= 4
                    and TOKEN.fullmatch(value)
                    and looks_like_credential(value)
                    and not rejected(value, ":", text, start + d)
                ):
                    yield start + c, start + d, "keyword"
        if column < 0:
            delimiter = "|" if line.count("|") >= 2 else "\t" if "\t" in line else ","
            cells = _cells(line, delimiter)
            names = [line[a:b] for a, b in cells]
            if len(cells) < 2 or any(len(c) > 24 for c in names):
                continue
            column = next((i for i, c in enumerate(names) if _HEADER.fullmatch(c)), -1)
            width = len(cells)
            continue
        if re.fullmatch(r"[\s|:\-+]*", line):
            continue  # |---|---|
        cells = _cells(line, delimiter)
        if len(cells) != width:
            column = -1
            continue
        a, b = cells[column]
        value = line[a:b]
        if (
            len(value) >= 4
            and TOKEN.fullmatch(value)
            and looks_like_credential(value)
            and not rejected(value, ":", text, start + b)
        ):
            yield start + a, start + b, "keyword"
