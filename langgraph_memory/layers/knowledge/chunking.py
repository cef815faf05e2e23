"""Documents read and split into chunks, each under the headings it sits in.

:func:`read_source` turns what ``add_document`` accepts (a text or Markdown string, a
file path, a LangChain ``Document`` or a list of them, e.g. a loader's output) into
parts ``(text, metadata)``, refusing binary data, empty documents and documents over
the size limit with an error that says why. :func:`split_markdown` splits a part by
its Markdown headings (``#`` to ``####``, with ``langchain-text-splitters``'
``MarkdownHeaderTextSplitter``; a heading inside a fenced code block is no heading),
then each section by size (``RecursiveCharacterTextSplitter``), so every chunk keeps
its heading path (seed 002 §4.3: ``hierarchy_info``).

Example:
    >>> parts = split_markdown("# Guide\\nIntro.\\n## Install\\nRun pip install x.", 200)
    >>> [(p.headings, p.text) for p in parts]
    [(['Guide'], 'Intro.'), (['Guide', 'Install'], 'Run pip install x.')]
    >>> version_key("v1.10") > version_key("1.9")
    True
"""

from __future__ import annotations

import codecs
import os
import re
import stat
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langchain_core.documents import Document

from langgraph_memory.core.validation import check_text

__all__ = [
    "HEADINGS",
    "ChunkText",
    "read_source",
    "split_markdown",
    "version_key",
    "citation",
]

#: The Markdown headings a document is split at, and their ``hierarchy_info`` keys.
HEADINGS = [("#", "h1"), ("##", "h2"), ("###", "h3"), ("####", "h4")]
#: Share of the first 8 KiB of a text that may be control characters before it is
#: taken for binary data.
_BINARY_SHARE = 0.1
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f\ufffd]")


@dataclass(slots=True)
class ChunkText:
    """One chunk of a document before it is stored.

    Attributes:
        text: The chunk's text (without its headings).
        headings: Its heading path, outermost first.
        metadata: The metadata of the part it comes from (a loader's ``page``...).
    """

    text: str
    headings: list[str]
    metadata: dict[str, Any]


def _looks_binary(text: str) -> bool:
    head = text[:8192]
    if "\x00" in head:
        return True
    return bool(head) and len(_CONTROL.findall(head)) > _BINARY_SHARE * len(head)


def _check_text(text: str, what: str, max_chars: int) -> str:
    if len(text) > max_chars:
        raise ValueError(
            f"{what} has {len(text):,} characters, over the limit of {max_chars:,} "
            "(MemoryConfig.write.max_document_chars); split it into several documents"
        )
    if _looks_binary(text):
        raise ValueError(
            f"{what} looks like binary data, not text; extract its text first (e.g. "
            "with a LangChain document loader such as PyPDFLoader) and pass that"
        )
    check_text(text, max_chars, what, allow_empty=True)  # NUL, lone surrogates
    return text


#: Bytes read from a document file at a time.
_READ_CHUNK = 1 << 20


def _read_file(path: Path, max_chars: int) -> str:
    """A regular UTF-8 file's text, read in chunks and refused as soon as it passes
    ``max_chars`` (its size is checked before reading; a file that grows meanwhile, a
    device, a FIFO or a directory never makes a read without a bound)."""
    limit = f"{max_chars:,} characters (MemoryConfig.write.max_document_chars)"
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a FIFO: no wait
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise ValueError(
            f"document file {str(path)!r} is not a regular file (a device, a FIFO, a socket "
            "or a directory); only files are read"
        )
    if info.st_size > 4 * max_chars:  # a UTF-8 character takes at most 4 bytes
        os.close(fd)
        raise ValueError(
            f"document file {str(path)!r} has {info.st_size:,} bytes, over the limit of {limit}"
        )
    with os.fdopen(fd, "rb") as fh:
        decoder = codecs.getincrementaldecoder("utf-8-sig")()
        pieces: list[str] = []
        chars = done = 0
        while True:
            raw = fh.read(_READ_CHUNK)
            if done == 0 and b"\x00" in raw[:8192]:
                raise ValueError(
                    f"document file {str(path)!r} is binary, not text; extract its text "
                    "first (e.g. with a LangChain document loader) and pass that"
                )
            try:
                piece = decoder.decode(raw, final=not raw)
            except UnicodeDecodeError as e:
                raise ValueError(
                    f"document file {str(path)!r} is not UTF-8 text ({e.reason} at byte "
                    f"{done + e.start}); decode it yourself and pass the text"
                ) from None
            chars += len(piece)
            done += len(raw)
            if chars > max_chars:
                raise ValueError(
                    f"document file {str(path)!r} has more characters than the limit of {limit}"
                )
            pieces.append(piece)
            if not raw:
                return "".join(pieces)


def read_source(source: Any, max_chars: int) -> list[tuple[str, dict[str, Any]]]:
    """The parts ``(text, metadata)`` of a document source, checked.

    Args:
        source: A str (text or Markdown), an ``os.PathLike`` (a UTF-8 file), a LangChain
            ``Document`` or a non-empty list of them (one document's parts, e.g. pages).
        max_chars: The longest document accepted, in characters (all parts together).

    Raises:
        TypeError: On bytes or another type.
        ValueError: On binary data, an empty document or one over ``max_chars``.
    """
    if isinstance(source, (bytes, bytearray, memoryview)):
        raise TypeError(
            "a document must be text, not bytes: decode it (source.decode('utf-8')), or "
            "pass the file's path, or load it with a LangChain document loader"
        )
    if isinstance(source, os.PathLike):
        path = Path(source)
        parts = [(_read_file(path, max_chars), {"source": str(path)})]
    elif isinstance(source, str):
        parts = [(source, {})]
    elif isinstance(source, Document):
        parts = [(source.page_content, dict(source.metadata))]
    elif isinstance(source, Sequence) and source and all(isinstance(d, Document) for d in source):
        parts = [(d.page_content, dict(d.metadata)) for d in source]
    else:
        raise TypeError(
            "a document must be a str, a file path, a LangChain Document or a non-empty "
            f"list of Documents, got {type(source).__name__}"
        )
    total = 0
    for i, (text, _) in enumerate(parts):
        if not isinstance(text, str):
            raise TypeError(f"document part {i} has {type(text).__name__} content, not str")
        total += len(text)
        _check_text(text, "document" if len(parts) == 1 else f"document part {i}", max_chars)
    if total > max_chars:
        raise ValueError(
            f"document has {total:,} characters, over the limit of {max_chars:,} "
            "(MemoryConfig.write.max_document_chars); split it into several documents"
        )
    if not any(text.strip() for text, _ in parts):
        raise ValueError("document is empty: it holds no text")
    return parts


def split_markdown(
    text: str, chunk_chars: int, metadata: Mapping[str, Any] | None = None
) -> list[ChunkText]:
    """Split Markdown by its headings, then each section into chunks of at most
    ``chunk_chars`` characters (overlapping by a tenth), at paragraph, line, sentence
    and word boundaries in that order. Plain text is one section. Sections without
    text (a heading followed by another) give no chunk."""
    from langchain_text_splitters import MarkdownHeaderTextSplitter, RecursiveCharacterTextSplitter

    by_heading = MarkdownHeaderTextSplitter(HEADINGS, strip_headers=True).split_text(text)
    sizer = RecursiveCharacterTextSplitter(
        chunk_size=chunk_chars,
        chunk_overlap=chunk_chars // 10,
        separators=["\n\n", "\n", ". ", "。", " ", ""],
        keep_separator="end",
    )
    keys = [k for _, k in HEADINGS]
    out = []
    for doc in by_heading:
        headings = [str(doc.metadata[k]) for k in keys if k in doc.metadata]
        for piece in sizer.split_text(doc.page_content):
            if piece.strip():
                out.append(ChunkText(piece.strip(), headings, dict(metadata or {})))
    return out


_VERSION_PART = re.compile(r"\d+|[^\W\d_]+")


def version_key(version: str) -> tuple[tuple[int, int | str], ...]:
    """A version's sort key: its numbers compared as numbers, its words as words
    (``"1.10"`` after ``"1.9"``; a leading ``v`` is ignored; dates ``2024-05-01`` sort
    by date)."""
    v = version.strip()
    if len(v) > 1 and v[0] in "vV" and v[1].isdigit():
        v = v[1:]
    return tuple((0, int(p)) if p.isdigit() else (1, p.lower()) for p in _VERSION_PART.findall(v))


def citation(title: str, headings: Sequence[str], version: str) -> str:
    """How a chunk is cited: ``[doc: Title § Heading > Subheading, v1.2]``."""
    where = f" § {' > '.join(headings)}" if headings else ""
    shown = f"v{version}" if version[:1].isdigit() else version
    return f"[doc: {title}{where}, {shown}]"
