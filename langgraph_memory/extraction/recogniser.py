"""A learned second opinion on a user's sentence: how likely it is a standing instruction
to the assistant, and how likely a preference of the user's own.

The rules read instructions and preferences by their form (:mod:`.instructions`,
:mod:`.preferences`); this recogniser reads them by method: a logistic regression over
hashed features that work in both languages — character n-grams (1-3 in Chinese, 4 in
English), word uni- and bigrams, and a few marks of structure (a question, a lasting
scope, a first or second person, a negation, the length). The weights are trained by
``benchmarks/train_recogniser.py`` from the user turns of the development sets (and,
as what is no instruction, person-to-person chat) and kept in ``data/recogniser.npz``
(loaded lazily, once).

:func:`form_atoms <langgraph_memory.extraction.forms.form_atoms>` asks it, for a user's
sentence only (never an assistant's or a tool's) in which the rules read no instruction,
taste or task, whether to add an instruction the rules missed
(:func:`second_opinion`), or to drop a rule's reading it finds very unlikely
(:func:`unlikely`). :data:`SETTINGS` says which (the first, by default); the evidence for
each is the leave-one-set-out table of ``benchmarks/recogniser_loso.py``. Cheap gates come
before the model (:func:`considered`), so it is asked about few sentences. An added
instruction is the sentence itself (its words are what the anchor quotes); no preference
is ever added, since a preference needs a value and the value readers are the rules'.

Example:
    >>> p_instr, p_pref = scores("From now on, always answer in English.")
    >>> 0.0 <= p_instr <= 1.0 and 0.0 <= p_pref <= 1.0
    True
"""

from __future__ import annotations

import math
import re
import threading
import zlib
from array import array
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import numpy as np

from langgraph_memory.core.held_texts import text_cache
from langgraph_memory.core.tokens import is_cjk_text
from langgraph_memory.extraction.clauses import JOKE, is_question, other_subject
from langgraph_memory.extraction.instruction_frames import untag
from langgraph_memory.extraction.instructions import RULE_REACH, said_by_another
from langgraph_memory.extraction.instructions_addressed import (
    cue,
    made_said_of,
    own_life,
    told_not_asked,
)

__all__ = [
    "KINDS",
    "Model",
    "considered",
    "SETTINGS",
    "features",
    "instruction_said",
    "scores",
    "second_opinion",
    "unlikely",
]

#: What the model tells apart, in the order of its rows.
KINDS = ("instruction", "preference")
#: How many hashed features there are (a power of two).
DIM = 1 << 16

#: When the second opinion is asked. ``add_instruction`` (on): add an instruction the rules
#: missed where the model's probability is at least the model's own threshold, for a
#: sentence it :func:`considered` only; ``veto`` (off): drop a rule's instruction or
#: preference where it is below the model's veto. Leaving each development set out in turn
#: (dev3..dev9), adding raised instruction capture on average (0.967 -> 0.973; on dev9, the
#: set the rules are least tuned on, 0.800 -> 0.843) with no control turned into a belief on
#: any set, and it adds nothing to LoCoMo's user messages. The veto found nothing to drop
#: (its thresholds came out 0).
SETTINGS: dict[str, bool] = {"add_instruction": True, "veto": False}

_WORD = re.compile(r"[a-z0-9']+|[\u4e00-\u9fff]")
_FIRST = re.compile(r"\b(?:i|i'm|i'd|i've|me|my|mine)\b|我", re.I)
_SECOND = re.compile(r"\b(?:you|your|you're|yours)\b|你|您", re.I)
_NEGATION = re.compile(r"\b(?:don't|do not|never|no|not|stop|avoid)\b|不|别|没|勿", re.I)
_SCOPE = re.compile(
    r"\b(?:always|from now on|going forward|whenever|every time|in future|any ?time|by default|"
    r"each time|all my|for all|for any)\b|以后|今后|每次|每当|总是|一律|始终|默认|所有|凡是|只要",
    re.I,
)


def _seed(name: str) -> int:
    return zlib.crc32(name.encode("ascii"))


#: The crc32 seed of each family of features, so that "abc" as a 3-gram, as a word and as
#: the opening word are three features.
_CHARS = {n: _seed(f"chars:{n}") for n in range(1, 6)}
_W, _B, _FIRST_W = _seed("w"), _seed("b"), _seed("first")
#: The marks of structure, each true or false (or a length bucket): one feature each.
_MARKS = {
    (name, value): _seed(f"{name}:{value}") & (DIM - 1)
    for name in ("q", "1p", "2p", "neg", "scope", "zh")
    for value in (False, True)
} | {("len", n): _seed(f"len:{n}") & (DIM - 1) for n in range(9)}
_BIAS = _seed("bias") & (DIM - 1)


def features(sentence: str) -> list[int]:
    """The hashed feature indices of ``sentence`` (with repeats: a count each), by crc32 in
    pure Python: a sentence costs some microseconds.

    Character n-grams (1-3 in Chinese, 4 in English: 3 to 5 read no better out of fold and
    cost twice the time), words and word bigrams, the first two words (an imperative, a
    subject), and marks: a question mark, a first or second person, a negation, a lasting
    scope, the length, Chinese or not.

    Example:
        >>> f = features("Never use emojis.")
        >>> len(f) > 10, max(f) < DIM, f == features("never  use emojis.")
        (True, True, True)
    """
    s = " ".join(sentence.casefold().split())
    zh = is_cjk_text(s)
    data = f" {s} ".encode("utf-32-le")  # four bytes a character: n-grams are plain slices
    chars = len(data) // 4
    crc = zlib.crc32
    mask = DIM - 1
    out: list[int] = []
    for n in (1, 2, 3) if zh else (4,):
        seed, width = _CHARS[n], 4 * n
        out += [crc(data[i : i + width], seed) & mask for i in range(0, 4 * (chars - n + 1), 4)]
    words = [w.encode("utf-8") for w in _WORD.findall(s)]
    out += [crc(w, _W) & mask for w in words]
    out += [crc(b" ".join(pair), _B) & mask for pair in zip(words, words[1:], strict=False)]
    out += [crc(w, _FIRST_W) & mask for w in words[:2]]
    out += [
        _MARKS["q", s.endswith(("?", "？"))],
        _MARKS["1p", _FIRST.search(s) is not None],
        _MARKS["2p", _SECOND.search(s) is not None],
        _MARKS["neg", _NEGATION.search(s) is not None],
        _MARKS["scope", _SCOPE.search(s) is not None],
        _MARKS["len", min(len(words) // 5, 8)],
        _MARKS["zh", zh],
        _BIAS,
    ]
    return out


@dataclass
class Model:
    """The weights (one row per kind of :data:`KINDS`), the thresholds to add at and to
    veto below, per kind (a veto of 0: none)."""

    weights: np.ndarray
    add: dict[str, float] = field(default_factory=dict)
    veto: dict[str, float] = field(default_factory=dict)
    _rows: list[array[float]] = field(default_factory=list, init=False, repr=False)

    def __post_init__(self) -> None:  # plain arrays: a lookup per feature, no numpy call
        self._rows = [array("f", row.astype(np.float32).tobytes()) for row in self.weights]

    def score(self, sentence: str, kind: int = 0) -> float:
        """The probability ``sentence`` is of ``KINDS[kind]``."""
        z = sum(map(self._rows[kind].__getitem__, features(sentence)))
        return 1.0 / (1.0 + math.exp(-min(30.0, max(-30.0, z))))

    def scores(self, sentence: str) -> tuple[float, float]:
        """The probability ``sentence`` is an instruction, and that it is a preference."""
        return self.score(sentence, 0), self.score(sentence, 1)

    def save(self, path: Any) -> None:
        """Write the model to ``path`` (an ``.npz``; float16 weights, compressed)."""
        np.savez_compressed(
            path,
            weights=self.weights.astype(np.float16),
            add=np.array([self.add.get(k, 1.0) for k in KINDS]),
            veto=np.array([self.veto.get(k, 0.0) for k in KINDS]),
        )

    @classmethod
    def load(cls, source: Any) -> Model:
        """A model written by :meth:`save` (a path or an open binary file)."""
        with np.load(source) as z:
            return cls(
                weights=z["weights"].astype(np.float32),
                add=dict(zip(KINDS, map(float, z["add"]), strict=False)),
                veto=dict(zip(KINDS, map(float, z["veto"]), strict=False)),
            )


_lock = threading.Lock()
_model: list[Model] = []  # the packaged model, once loaded (or the one put in its place)
_swaps = [0]  # how many times a model was put in place: kept scores are of one model only


def model() -> Model:
    """The recogniser (the packaged weights, read on first use)."""
    if not _model:
        with _lock:
            if not _model:
                data = resources.files("langgraph_memory").joinpath("data/recogniser.npz")
                with data.open("rb") as f:
                    _model.append(Model.load(f))
    return _model[0]


def use(m: Model | None) -> None:
    """Put ``m`` in the packaged model's place (``None``: back to the packaged one); for
    the training and evaluation scripts."""
    with _lock:
        _model.clear()
        if m is not None:
            _model.append(m)
        _swaps[0] += 1


def scores(sentence: str) -> tuple[float, float]:
    """How likely ``sentence`` is a standing instruction, and a preference of the user's.

    Example:
        >>> a, b = scores("I love green tea.")
        >>> 0.0 <= a <= 1.0 and 0.0 <= b <= 1.0
        True
    """
    return model().scores(sentence)


@text_cache(maxsize=1024)
def _instruction_score(sentence: str, swaps: int) -> float:
    """The model's instruction probability of ``sentence``, kept for the next reader of the
    same text (a message is read more than once on the write path); ``swaps`` tells the
    scores of a model put in place by :func:`use` from the ones before."""
    return model().score(sentence)


def instruction_said(sentence: str) -> bool:
    """Whether the recogniser, asked (see :data:`SETTINGS`), reads ``sentence`` as a
    standing instruction.

    Example:
        >>> instruction_said("Never use emojis.") in (True, False)
        True
    """
    if not SETTINGS["add_instruction"]:
        return False
    return _instruction_score(sentence, _swaps[0]) >= model().add.get("instruction", 1.0)


def unlikely(kind: str, sentence: str) -> bool:
    """Whether the recogniser, asked (see :data:`SETTINGS`), finds a rule's ``kind``
    reading of ``sentence`` too unlikely to keep.

    Example:
        >>> unlikely("instruction", "Never use emojis.") in (True, False)
        True
    """
    if not SETTINGS["veto"] or kind not in KINDS:
        return False
    m = model()
    floor = m.veto.get(kind, 0.0)
    return floor > 0 and m.score(sentence, KINDS.index(kind)) < floor


def _gated_out(sentence: str) -> bool:
    """Whether a cheap gate keeps ``sentence`` from the model (see :func:`considered`)."""
    if len(sentence) > RULE_REACH or not cue(sentence):
        return True
    if is_question(untag(sentence)) or other_subject(sentence) or said_by_another(sentence):
        return True
    return own_life(sentence) or told_not_asked(sentence) or made_said_of(sentence)


def considered(sentence: str) -> bool:
    """Whether a user's ``sentence`` the rules read no instruction in is put to the model at
    all: the cheap gates first, so the model is asked about few sentences. None longer than
    the rules read (:data:`RULE_REACH`), none not :func:`addressed
    <langgraph_memory.extraction.instructions_addressed.addressed>` to the assistant (no
    cue of it, advice about the addressee's own life, the user telling of themself, what it
    made said of), no
    question, none about someone else or in their words, none said in jest (this last
    one, the dearest to look for, is looked for after the model).

    Example:
        >>> considered("From now on, always answer in English."), considered("I went home.")
        (True, False)
        >>> considered("Whenever you get a chance, call your mum.")
        False
        >>> considered("以后你都用东北话回我 开玩笑的 别当真")
        False
    """
    return not _gated_out(sentence) and not JOKE.search(sentence)


def second_opinion(sentence: str) -> tuple[str, int] | None:
    """``(what, polarity)`` of the standing instruction the recogniser, asked (see
    :data:`SETTINGS`), reads in a user's ``sentence`` the rules read none in: the sentence
    itself (the anchor quotes its words); only for a sentence it :func:`considered`.

    Example:
        >>> second_opinion("For anything about money, keep it in euros please.")
        ('For anything about money, keep it in euros please', 1)
        >>> second_opinion("Whenever you get a chance, call your mum.") is None
        True
    """
    if not SETTINGS["add_instruction"] or _gated_out(sentence):
        return None
    if not instruction_said(sentence) or JOKE.search(sentence):
        return None
    return sentence.strip().rstrip(".!。！"), 1
