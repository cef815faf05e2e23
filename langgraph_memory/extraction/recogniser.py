"""A learned second opinion on a user's sentence: how likely it is a standing instruction
to the assistant, and how likely a preference of the user's own.

The rules read instructions and preferences by their form (:mod:`.instructions`,
:mod:`.preferences`); this recogniser reads them by method: a logistic regression over
hashed features that work in both languages — character n-grams (1-3 in Chinese, 3-5 in
English), word uni- and bigrams, and a few marks of structure (a question, a lasting
scope, a first or second person, a negation, the length). The weights are trained by
``benchmarks/train_recogniser.py`` from the user turns of the development sets and kept
in ``data/recogniser.npz`` (loaded lazily, once).

:func:`form_atoms <langgraph_memory.extraction.forms.form_atoms>` asks it, for a user's
sentence only (never an assistant's or a tool's), whether to add an instruction the rules
missed (:func:`instruction_said`) or to drop a rule's reading it finds very unlikely
(:func:`unlikely`). :data:`SETTINGS` says which (neither, by default); the evidence for each is the
leave-one-set-out table of ``benchmarks/recogniser_loso.py``. An added instruction is the
sentence itself (its words are what the anchor quotes); no preference is ever added, since
a preference needs a value and the value readers are the rules'.

Example:
    >>> p_instr, p_pref = scores("From now on, always answer in English.")
    >>> 0.0 <= p_instr <= 1.0 and 0.0 <= p_pref <= 1.0
    True
"""

from __future__ import annotations

import re
import threading
import zlib
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import numpy as np

from langgraph_memory.core.tokens import is_cjk_text
from langgraph_memory.extraction.clauses import is_question, other_subject
from langgraph_memory.extraction.instruction_frames import untag
from langgraph_memory.extraction.instructions import RULE_REACH, said_by_another

__all__ = [
    "KINDS",
    "Model",
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
_MASK = np.uint64(DIM - 1)
_PRIME = np.uint64(1_000_003)

#: When the second opinion is asked (both off). ``add_instruction``: add an instruction the
#: rules missed where the model's probability is at least the model's own threshold;
#: ``veto``: drop a rule's instruction or preference where it is below the model's veto.
#: Leaving each development set out in turn, adding raised instruction capture on average
#: (0.951 -> 0.961; on dev8, the set no rule was tuned on, 0.757 -> 0.786) with no control
#: turned into a belief on any set, but it reads instructions into look-alikes the rules'
#: tests keep out ("Whenever you get a chance, call your mum.", "每次算账的时候我都头疼。")
#: and into 2 of 2,859 user messages of LoCoMo, so it is not on by default. The veto found
#: nothing to drop (its thresholds came out 0).
SETTINGS: dict[str, bool] = {"add_instruction": False, "veto": False}

_WORD = re.compile(r"[a-z0-9']+|[\u4e00-\u9fff]")
_FIRST = re.compile(r"\b(?:i|i'm|i'd|i've|me|my|mine)\b|我", re.I)
_SECOND = re.compile(r"\b(?:you|your|you're|yours)\b|你|您", re.I)
_NEGATION = re.compile(r"\b(?:don't|do not|never|no|not|stop|avoid)\b|不|别|没|勿", re.I)
_SCOPE = re.compile(
    r"\b(?:always|from now on|going forward|whenever|every time|in future|any ?time|by default|"
    r"each time|all my|for all|for any)\b|以后|今后|每次|每当|总是|一律|始终|默认|所有|凡是|只要",
    re.I,
)


def _hash(token: str) -> int:
    return zlib.crc32(token.encode("utf-8")) & (DIM - 1)


def features(sentence: str) -> np.ndarray:
    """The hashed feature indices of ``sentence`` (with repeats: a count each).

    Example:
        >>> f = features("Never use emojis.")
        >>> f.dtype, bool(len(f) > 10), bool(f.max() < DIM)
        (dtype('int64'), True, True)
    """
    s = " ".join(sentence.casefold().split())
    zh = is_cjk_text(s)
    cps = np.frombuffer(f" {s} ".encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
    parts: list[np.ndarray] = []
    for n in (1, 2, 3) if zh else (3, 4, 5):
        if len(cps) < n:
            continue
        h = np.full(len(cps) - n + 1, np.uint64(n), dtype=np.uint64)
        for i in range(n):
            h = h * _PRIME + cps[i : len(cps) - n + 1 + i]
        parts.append(((h ^ (h >> np.uint64(29))) & _MASK).astype(np.int64))
    words = _WORD.findall(s)
    marks = [f"w:{w}" for w in words] + [
        f"b:{a} {b}" for a, b in zip(words, words[1:], strict=False)
    ]
    marks += [f"first:{w}" for w in words[:2]]  # the opening: an imperative, a subject
    stripped = s.rstrip()
    marks += [
        f"q:{stripped.endswith(('?', '？'))}",
        f"1p:{_FIRST.search(s) is not None}",
        f"2p:{_SECOND.search(s) is not None}",
        f"neg:{_NEGATION.search(s) is not None}",
        f"scope:{_SCOPE.search(s) is not None}",
        f"len:{min(len(words) // 5, 8)}",
        f"zh:{zh}",
        "bias",
    ]
    parts.append(np.array([_hash(m) for m in marks], dtype=np.int64))
    return np.concatenate(parts)


@dataclass
class Model:
    """The weights (one row per kind of :data:`KINDS`), the thresholds to add at and to
    veto below, per kind (a veto of 0: none)."""

    weights: np.ndarray
    add: dict[str, float] = field(default_factory=dict)
    veto: dict[str, float] = field(default_factory=dict)

    def scores(self, sentence: str) -> tuple[float, float]:
        """The probability ``sentence`` is an instruction, and that it is a preference."""
        f = features(sentence)
        z = self.weights[:, f].astype(np.float64).sum(axis=1)
        p = 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))
        return float(p[0]), float(p[1])

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


def scores(sentence: str) -> tuple[float, float]:
    """How likely ``sentence`` is a standing instruction, and a preference of the user's.

    Example:
        >>> a, b = scores("I love green tea.")
        >>> 0.0 <= a <= 1.0 and 0.0 <= b <= 1.0
        True
    """
    return model().scores(sentence)


def instruction_said(sentence: str) -> bool:
    """Whether the recogniser, asked (see :data:`SETTINGS`), reads ``sentence`` as a
    standing instruction.

    Example:
        >>> instruction_said("Never use emojis.") in (True, False)
        True
    """
    if not SETTINGS["add_instruction"]:
        return False
    m = model()
    return m.scores(sentence)[0] >= m.add.get("instruction", 1.0)


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
    return floor > 0 and m.scores(sentence)[KINDS.index(kind)] < floor


def second_opinion(sentence: str) -> tuple[str, int] | None:
    """``(what, polarity)`` of the standing instruction the recogniser, asked (see
    :data:`SETTINGS`), reads in a user's ``sentence`` the rules read none in: the sentence
    itself (the anchor quotes its words). Never for a question, a sentence longer than
    the rules read (:data:`RULE_REACH`), nor one about someone else or in their words.

    Example:
        >>> second_opinion("From now on, always answer in English.") is None  # off by default
        True
    """
    if not SETTINGS["add_instruction"] or len(sentence.strip()) > RULE_REACH:
        return None
    if is_question(untag(sentence)) or other_subject(sentence) or said_by_another(sentence):
        return None
    if not instruction_said(sentence):
        return None
    return sentence.strip().rstrip(".!。！"), 1
