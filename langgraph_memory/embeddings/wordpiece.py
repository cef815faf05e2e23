"""BERT's WordPiece tokenizer read from a ``tokenizer.json``, in plain Python.

The default embedder needs the token ids of all-MiniLM-L6-v2's tokenizer and nothing
else; this module gives exactly the ids the ``tokenizers`` library gives for a
``tokenizer.json`` made of a ``BertNormalizer``, a ``BertPreTokenizer``, a
``WordPiece`` model and the ``[CLS] $A [SEP]`` template (a test compares the two on
English, Chinese, accented, mixed and random Unicode text), so the default install
needs neither ``tokenizers`` nor ``huggingface_hub``.

The steps, as the Rust implementation runs them:

1. Added tokens (``[CLS]``, ``[SEP]``, ...) written in the text are matched on the raw
   text, longest first, and kept whole.
2. Normalisation: control characters, NUL and U+FFFD are dropped and whitespace
   becomes a space; CJK ideographs get a space on each side; accents are stripped
   (NFD, then the non-spacing marks removed); each character is lower-cased alone.
3. Pre-tokenisation: split on spaces; each punctuation character (Unicode ``P*`` or
   ASCII punctuation) is a word of its own.
4. WordPiece: greedy longest match from the left, continuations prefixed ``##``; a word
   with no match at some point, or longer than ``max_input_chars_per_word``, is
   ``[UNK]``.
5. Truncated to ``max_length`` ids with ``[CLS]`` and ``[SEP]`` around.

Words are cached once split (chat text repeats its words), which makes this about as
fast as the Rust tokenizer on short texts (``benchmarks/cold_start.py`` times both).

Example:
    >>> from langgraph_memory.embeddings.minilm import default_model_dir
    >>> tok = WordPieceTokenizer.from_file(default_model_dir() / "tokenizer.json")  # doctest: +SKIP
    >>> tok.encode("Hello, world!")  # doctest: +SKIP
    [101, 7592, 1010, 2088, 999, 102]
"""

from __future__ import annotations

import bisect
import json
import re
import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["WordPieceTokenizer", "unsupported_tokenizer"]

# Rust's char::is_whitespace (the Unicode White_Space property).
_WHITESPACE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007"
    "\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
_CJK = (
    (0x4E00, 0x9FFF),
    (0x3400, 0x4DBF),
    (0x20000, 0x2A6DF),
    (0x2A700, 0x2B73F),
    (0x2B740, 0x2B81F),
    (0x2B920, 0x2CEAF),
    (0xF900, 0xFAFF),
    (0x2F800, 0x2FA1F),
)
# ASCII: controls other than tab, newline and return go; those three become spaces.
_ASCII_CLEAN: dict[int, str | None] = {c: None for c in (*range(9), 11, 12, *range(14, 32), 127)}
_ASCII_CLEAN.update({9: " ", 10: " ", 13: " "})
_ASCII_PUNCT = re.compile(r"[!-/:-@\[-`{-~]")
_CACHE_LIMIT = 50_000


# Unassigned code points (Cn) are kept as letters, as the Rust implementation keeps them.
_CONTROL = frozenset(("Cc", "Cf", "Co", "Cs"))


# The Rust implementation's Unicode tables are older than Python's: these code points
# (marks, punctuation and format characters of scripts encoded since) are unassigned
# there, and three characters have since changed category. Python's newer tables would
# otherwise strip, split or drop them where the reference tokenizer keeps them.
_UNASSIGNED_THERE = (
    (0x61D, 0x61D),
    (0x7FD, 0x7FD),
    (0x890, 0x891),
    (0x898, 0x89F),
    (0x8CA, 0x8E2),
    (0x9FD, 0x9FE),
    (0xA76, 0xA76),
    (0xAFA, 0xAFF),
    (0xB55, 0xB55),
    (0xC04, 0xC04),
    (0xC3C, 0xC3C),
    (0xC77, 0xC77),
    (0xC84, 0xC84),
    (0xD00, 0xD00),
    (0xD3B, 0xD3C),
    (0xD81, 0xD81),
    (0xEBA, 0xEBA),
    (0x180F, 0x180F),
    (0x1885, 0x1886),
    (0x1ABF, 0x1ACE),
    (0x1B7D, 0x1B7E),
    (0x1DF6, 0x1DFB),
    (0x2E43, 0x2E4F),
    (0x2E52, 0x2E5D),
    (0xA82C, 0xA82C),
    (0xA8C5, 0xA8C5),
    (0xA8FF, 0xA8FF),
    (0xA9BD, 0xA9BD),
    (0x10D24, 0x10D27),
    (0x10EAB, 0x10EAD),
    (0x10F46, 0x10F50),
    (0x10F55, 0x10F59),
    (0x10F82, 0x10F89),
    (0x11070, 0x11070),
    (0x11073, 0x11074),
    (0x110C2, 0x110C2),
    (0x110CD, 0x110CD),
    (0x111CF, 0x111CF),
    (0x1123E, 0x1123E),
    (0x1133B, 0x1133B),
    (0x11438, 0x1143F),
    (0x11442, 0x11444),
    (0x11446, 0x11446),
    (0x1144B, 0x1144F),
    (0x1145A, 0x1145B),
    (0x1145D, 0x1145E),
    (0x11660, 0x1166C),
    (0x116B9, 0x116B9),
    (0x1182F, 0x11837),
    (0x11839, 0x1183B),
    (0x1193B, 0x1193C),
    (0x1193E, 0x1193E),
    (0x11943, 0x11946),
    (0x119D4, 0x119D7),
    (0x119DA, 0x119DB),
    (0x119E0, 0x119E0),
    (0x119E2, 0x119E2),
    (0x11A01, 0x11A0A),
    (0x11A33, 0x11A38),
    (0x11A3B, 0x11A47),
    (0x11A51, 0x11A56),
    (0x11A59, 0x11A5B),
    (0x11A8A, 0x11A96),
    (0x11A98, 0x11A9C),
    (0x11A9E, 0x11AA2),
    (0x11C30, 0x11C36),
    (0x11C38, 0x11C3D),
    (0x11C3F, 0x11C3F),
    (0x11C41, 0x11C45),
    (0x11C70, 0x11C71),
    (0x11C92, 0x11CA7),
    (0x11CAA, 0x11CB0),
    (0x11CB2, 0x11CB3),
    (0x11CB5, 0x11CB6),
    (0x11D31, 0x11D36),
    (0x11D3A, 0x11D3A),
    (0x11D3C, 0x11D3D),
    (0x11D3F, 0x11D45),
    (0x11D47, 0x11D47),
    (0x11D90, 0x11D91),
    (0x11D95, 0x11D95),
    (0x11D97, 0x11D97),
    (0x11EF3, 0x11EF4),
    (0x11EF7, 0x11EF8),
    (0x11FFF, 0x11FFF),
    (0x12FF1, 0x12FF2),
    (0x13430, 0x13438),
    (0x16E97, 0x16E9A),
    (0x16F4F, 0x16F4F),
    (0x16FE2, 0x16FE2),
    (0x16FE4, 0x16FE4),
    (0x1CF00, 0x1CF2D),
    (0x1CF30, 0x1CF46),
    (0x1E000, 0x1E006),
    (0x1E008, 0x1E018),
    (0x1E01B, 0x1E021),
    (0x1E023, 0x1E024),
    (0x1E026, 0x1E02A),
    (0x1E130, 0x1E136),
    (0x1E2AE, 0x1E2AE),
    (0x1E2EC, 0x1E2EF),
    (0x1E944, 0x1E94A),
    (0x1E95E, 0x1E95F),
)
_CATEGORY_THERE = {"\u166d": "Po", "\u1734": "Mn", "\U000111c9": "Po"}
_OLD_TABLE_STARTS = tuple(lo for lo, _ in _UNASSIGNED_THERE)


def _category(ch: str) -> str:
    """The character's general category as the reference tokenizer's tables give it."""
    there = _CATEGORY_THERE.get(ch)
    if there is not None:
        return there
    code = ord(ch)
    if code >= 0x61D:
        at = bisect.bisect_right(_OLD_TABLE_STARTS, code) - 1
        if at >= 0 and code <= _UNASSIGNED_THERE[at][1]:
            return "Cn"
    return unicodedata.category(ch)


def _is_punctuation(ch: str) -> bool:
    if ch.isascii():
        return _ASCII_PUNCT.match(ch) is not None
    return _category(ch)[0] == "P"


def _cleaned(ch: str, clean_text: bool, chinese: bool) -> str:
    """Step 2 up to the accents for one character (empty when it is dropped)."""
    code = ord(ch)
    if clean_text:
        if ch in ("\t", "\n", "\r"):
            return " "
        if code == 0 or code == 0xFFFD or _category(ch) in _CONTROL:
            return ""
        if ch in _WHITESPACE:
            return " "
    if chinese and any(lo <= code <= hi for lo, hi in _CJK):
        return f" {ch} "
    return ch


def unsupported_tokenizer(spec: dict[str, Any]) -> str | None:
    """Why :class:`WordPieceTokenizer` cannot stand in for this ``tokenizer.json``
    (``None`` when it can)."""
    model = spec.get("model") or {}
    normalizer = spec.get("normalizer") or {}
    if model.get("type") != "WordPiece":
        return f"the model is {model.get('type')!r}, not WordPiece"
    if normalizer.get("type") != "BertNormalizer":
        return f"the normalizer is {normalizer.get('type')!r}, not BertNormalizer"
    if (spec.get("pre_tokenizer") or {}).get("type") != "BertPreTokenizer":
        return "the pre-tokenizer is not BertPreTokenizer"
    post = (spec.get("post_processor") or {}).get("type")
    if post not in ("TemplateProcessing", "BertProcessing"):
        return "the post-processor is not BERT's template"
    return None


class WordPieceTokenizer:
    """Token ids of BERT's WordPiece tokenizer (see the module docs).

    Args:
        vocab: Token → id.
        max_length: At most this many ids per text, ``[CLS]`` and ``[SEP]`` included.
        lowercase: Lower-case (and, with ``strip_accents=None``, strip accents).
        strip_accents: Strip accents; ``None`` follows ``lowercase``.
        handle_chinese_chars: Put spaces around CJK ideographs.
        clean_text: Drop control characters and turn whitespace into spaces.
        added: The added tokens' texts matched whole on the raw text.
        unk_token: The unknown token.
        prefix: The continuation prefix.
        max_word_chars: Longer words are ``unk_token``.
    """

    def __init__(
        self,
        vocab: dict[str, int],
        *,
        max_length: int = 512,
        lowercase: bool = True,
        strip_accents: bool | None = None,
        handle_chinese_chars: bool = True,
        clean_text: bool = True,
        added: Sequence[str] = (),
        unk_token: str = "[UNK]",
        cls_token: str = "[CLS]",
        sep_token: str = "[SEP]",
        prefix: str = "##",
        max_word_chars: int = 100,
    ) -> None:
        if max_length < 2:
            raise ValueError(f"max_length must be at least 2, got {max_length}")
        self.vocab = vocab
        self.max_length = max_length
        self.lowercase = lowercase
        self.strip_accents = lowercase if strip_accents is None else strip_accents
        self.handle_chinese_chars = handle_chinese_chars
        self.clean_text = clean_text
        self.prefix = prefix
        self.max_word_chars = max_word_chars
        self.unk = vocab[unk_token]
        self.cls = vocab[cls_token]
        self.sep = vocab[sep_token]
        self._added = {t: vocab[t] for t in added if t in vocab}
        ordered = sorted(self._added, key=len, reverse=True)
        self._added_re = re.compile("|".join(map(re.escape, ordered))) if ordered else None
        self._chars: dict[str, str] = {}
        self._words: dict[str, tuple[int, ...]] = {}

    @classmethod
    def from_file(cls, path: str | Path, *, max_length: int = 512) -> WordPieceTokenizer:
        """The tokenizer of a ``tokenizer.json``.

        Raises:
            ValueError: When the file describes another kind of tokenizer.
        """
        spec = json.loads(Path(path).read_text("utf-8"))
        return cls.from_spec(spec, max_length=max_length, source=str(path))

    @classmethod
    def from_spec(
        cls, spec: dict[str, Any], *, max_length: int = 512, source: str = "tokenizer.json"
    ) -> WordPieceTokenizer:
        """The tokenizer of a parsed ``tokenizer.json`` (``source`` names it in errors).

        Raises:
            ValueError: When it describes another kind of tokenizer.
        """
        reason = unsupported_tokenizer(spec)
        if reason is not None:
            raise ValueError(f"{source}: {reason}")
        model, norm = spec["model"], spec["normalizer"]
        return cls(
            model["vocab"],
            max_length=max_length,
            lowercase=bool(norm.get("lowercase", True)),
            strip_accents=norm.get("strip_accents"),
            handle_chinese_chars=bool(norm.get("handle_chinese_chars", True)),
            clean_text=bool(norm.get("clean_text", True)),
            added=[t["content"] for t in spec.get("added_tokens") or []],
            unk_token=model.get("unk_token", "[UNK]"),
            prefix=model.get("continuing_subword_prefix") or "##",
            max_word_chars=int(model.get("max_input_chars_per_word", 100)),
        )

    def encode(self, text: str) -> list[int]:
        """The ids of ``text``: ``[CLS]``, its tokens (truncated), ``[SEP]``."""
        ids: list[int] = [self.cls]
        room = self.max_length - 1
        if self._added_re is None:
            self._segment(text, ids, room)
        else:
            start = 0
            for m in self._added_re.finditer(text):
                self._segment(text[start : m.start()], ids, room)
                if len(ids) < room:
                    ids.append(self._added[m.group()])
                start = m.end()
            self._segment(text[start:], ids, room)
        ids.append(self.sep)
        return ids

    def encode_batch(self, texts: Sequence[str]) -> list[list[int]]:
        """:meth:`encode` of each text."""
        return [self.encode(t) for t in texts]

    def _segment(self, text: str, ids: list[int], room: int) -> None:
        """Append the ids of a stretch of text without added tokens, up to ``room``."""
        if len(ids) >= room or not text:
            return
        words = self._words
        for chunk in self._normalize(text).split():
            piece = words.get(chunk)
            if piece is None:
                if len(words) >= _CACHE_LIMIT:
                    words.clear()
                piece = words[chunk] = self._chunk_ids(chunk)
            ids.extend(piece)
            if len(ids) >= room:
                del ids[room:]
                return

    def _normalize(self, text: str) -> str:
        if text.isascii():
            if self.clean_text:
                text = text.translate(_ASCII_CLEAN)
            return text.lower() if self.lowercase else text
        if self.clean_text or self.handle_chinese_chars:
            chars = self._chars
            out = []
            for ch in text:
                mapped = chars.get(ch)
                if mapped is None:
                    mapped = chars[ch] = _cleaned(ch, self.clean_text, self.handle_chinese_chars)
                out.append(mapped)
            text = "".join(out)
        if self.strip_accents:
            text = unicodedata.normalize("NFD", text)
            text = "".join(c for c in text if _category(c) != "Mn")
        if self.lowercase:
            # character by character, as Rust's char::to_lowercase (no final sigma)
            text = "".join(c.lower() for c in text)
        return text

    def _chunk_ids(self, chunk: str) -> tuple[int, ...]:
        """The ids of one whitespace-free chunk: punctuation split off, then WordPiece."""
        out: list[int] = []
        word: list[str] = []
        for ch in chunk:
            if _is_punctuation(ch):
                if word:
                    out.extend(self._wordpiece("".join(word)))
                    word = []
                out.extend(self._wordpiece(ch))
            else:
                word.append(ch)
        if word:
            out.extend(self._wordpiece("".join(word)))
        return tuple(out)

    def _wordpiece(self, word: str) -> list[int]:
        if len(word) > self.max_word_chars:
            return [self.unk]
        vocab, out, start, n = self.vocab, [], 0, len(word)
        while start < n:
            end = n
            while end > start:
                piece = word[start:end] if start == 0 else self.prefix + word[start:end]
                found = vocab.get(piece)
                if found is not None:
                    out.append(found)
                    break
                end -= 1
            else:
                return [self.unk]
            start = end
        return out
