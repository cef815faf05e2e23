"""Terminal-safe output: the text a memory stores can never drive the terminal.

A stored message may hold escape sequences (``\\x1b]0;title\\x07`` sets the window title,
``\\x1b]52;c;…\\x07`` writes the clipboard, ``\\x1b[2J`` clears the screen), other
control characters, C1 controls (``\\x9b`` is a CSI on some terminals) or bidi
overrides (U+202E shows text reversed). Every character the command line prints
passes through one :class:`SafeConsole`, which renders those characters visibly
(``\\x1b``, ``\\x9b``, ``\\u202e``) instead of sending them; newlines and tabs stay
(the layout needs them), and every printable character, Chinese included, is left as
it is. The console also reads no markup, emoji codes or highlighting in what it
prints, so ``[link=…]`` in a stored text stays text too. The only escape sequences on a
terminal are the styles rich emits for the tables.

The library's warnings (its ``logging`` records, which would otherwise go to
standard error as they are) are printed on the same console while a command runs
(:func:`logging_to`).

JSON output (``--json``) is made by :func:`json_text`: the same characters are written
as ``\\uXXXX`` escapes there, so it stays valid JSON whose strings read back exactly
as stored.

Example:
    >>> escape_controls("\\x1b]0;pwned\\x07 note \\u202eevil 中文\\n")
    '\\\\x1b]0;pwned\\\\x07 note \\\\u202eevil 中文\\n'
    >>> json_text({"text": "\\x1b[2J\\u202e"}, indent=None)
    '{"text": "\\\\u001b[2J\\\\u202e"}'
"""

from __future__ import annotations

import json
import logging
import re
from bisect import bisect_left
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from itertools import accumulate
from typing import Any

from rich.console import Console, ConsoleOptions, RenderableType
from rich.segment import Segment
from rich.text import Span, Text

__all__ = [
    "UNSAFE",
    "escape_controls",
    "escape_text",
    "shown",
    "json_text",
    "SafeConsole",
    "logging_to",
]

#: What a terminal may act on instead of showing: C0 controls but newline and tab,
#: DEL, C1 controls, the bidi embeddings, overrides, isolates and marks, and the line
#: and paragraph separators.
UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)


def _visible(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escape_controls(text: str) -> str:
    """``text`` with every :data:`UNSAFE` character shown as ``\\xNN`` or ``\\uNNNN``.

    Example:
        >>> escape_controls("tab\\tand newline\\nstay; \\r and \\x9b do not")
        'tab\\tand newline\\nstay; \\\\x0d and \\\\x9b do not'
    """
    if UNSAFE.search(text) is None:
        return text
    return UNSAFE.sub(lambda m: _visible(m.group()), text)


def escape_text(text: Text) -> Text:
    """A :class:`~rich.text.Text` with its :data:`UNSAFE` characters shown, its styles
    kept on the same characters.

    Example:
        >>> t = escape_text(Text.assemble(("\\x1b[2J", "red"), " ok"))
        >>> t.plain, [(s.start, s.end, s.style) for s in t.spans]
        ('\\\\x1b[2J ok', [(0, 7, 'red')])
    """
    plain = text.plain
    found = list(UNSAFE.finditer(plain))
    if not found:
        return text
    starts = [m.start() for m in found]
    # the characters each escape adds, summed: where old offset i lands
    added = [0, *accumulate(len(_visible(m.group())) - 1 for m in found)]

    def moved(offset: int) -> int:
        return offset + added[bisect_left(starts, offset)]

    out = text.blank_copy(escape_controls(plain))
    out.spans = [Span(moved(s.start), moved(s.end), s.style) for s in text.spans]
    return out


def shown(*parts: str | tuple[str, str], style: str = "") -> Text:
    """Stored text as a :class:`~rich.text.Text` (:meth:`~rich.text.Text.assemble`'s
    parts: strings and ``(string, style)`` pairs), escaped before it is laid out.

    The console escapes anyway; escaping first lets a table measure the escaped width
    (its columns fit what is shown), and shows ``\\x07``, ``\\x08``, ``\\x0d``... which
    rich's ``Text`` would otherwise drop silently.

    Example:
        >>> shown("bell\\x07", ("\\x1b[2J", "dim")).plain
        'bell\\\\x07\\\\x1b[2J'
    """
    safe = [
        escape_controls(p) if isinstance(p, str) else (escape_controls(p[0]), p[1]) for p in parts
    ]
    return Text.assemble(*safe, style=style)


def json_text(data: Any, indent: int | None = 2) -> str:
    """``data`` as JSON (non-ASCII kept), every :data:`UNSAFE` character as a ``\\uXXXX``
    escape (they only occur inside strings, so the JSON reads back the same)."""
    text = json.dumps(data, ensure_ascii=False, indent=indent)
    return UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


class SafeConsole(Console):
    """A rich console that cannot be driven by what it prints.

    Strings and :class:`~rich.text.Text` are escaped (:func:`escape_controls`) before
    they are laid out, so tables stay aligned; any other renderable's text is escaped
    as it comes out. Control segments (a progress bar moving the cursor) are rich's own
    and pass. Markup, emoji codes and highlighting are off unless a call asks for them.

    Example:
        >>> import io
        >>> out = SafeConsole(file=io.StringIO(), width=40)
        >>> out.print("\\x1b]52;c;cHduZWQ=\\x07 [bold]kept[/]")
        >>> out.file.getvalue()
        '\\\\x1b]52;c;cHduZWQ=\\\\x07 [bold]kept[/]\\n'
    """

    def __init__(self, **kwargs: Any) -> None:
        kwargs = {"markup": False, "emoji": False, "highlight": False} | kwargs
        super().__init__(**kwargs)

    def render_str(self, text: str, **kwargs: Any) -> Text:
        # before rich's Text strips \a, \b, \r..., so that they show too
        return super().render_str(escape_controls(text), **kwargs)

    def render(
        self, renderable: RenderableType, options: ConsoleOptions | None = None
    ) -> Iterable[Segment]:
        if isinstance(renderable, Text):
            renderable = escape_text(renderable)
        for segment in super().render(renderable, options):
            if segment.control is None and UNSAFE.search(segment.text) is not None:
                yield Segment(escape_controls(segment.text), segment.style)
            else:
                yield segment


class _ConsoleHandler(logging.Handler):
    """Log records printed on a console (escaped like everything else)."""

    def __init__(self, console: Console) -> None:
        super().__init__(logging.WARNING)
        self.console = console

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.console.print(shown(self.format(record)))
        except Exception:  # as logging's own handlers do
            self.handleError(record)


@contextmanager
def logging_to(console: Console, logger: str = "langgraph_memory") -> Iterator[None]:
    """Print ``logger``'s warnings on ``console`` while the block runs (without a handler
    of the application's, Python prints them to standard error as they are).

    Example:
        >>> import io
        >>> err = SafeConsole(file=io.StringIO())
        >>> with logging_to(err):
        ...     logging.getLogger("langgraph_memory.x").warning("bad \\x1b]0;t\\x07")
        >>> err.file.getvalue()
        'bad \\\\x1b]0;t\\\\x07\\n'
    """
    handler = _ConsoleHandler(console)
    target = logging.getLogger(logger)
    target.addHandler(handler)
    try:
        yield
    finally:
        target.removeHandler(handler)
