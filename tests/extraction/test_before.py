"""The words before a rule's match, read once per sentence (langgraph_memory.extraction.before):
the same answers as a search of each prefix (property tests), and work that grows with the
message, not with its square (counted in characters searched, not timed)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from langgraph_memory.extraction import before as before_module
from langgraph_memory.extraction import extractor as extractor_module
from langgraph_memory.extraction import forms as forms_module
from langgraph_memory.extraction.before import (
    HYPOTHETICAL,
    NEGATED_BEFORE,
    ZH_COMPARE_PREFIX,
    ZH_SCOPE_PREFIX,
    Before,
    Spans,
)
from langgraph_memory.extraction.extractor import extract_atoms

# the words each question turns on, and what may stand around them
_PIECES = [
    "if", "If", "what if", "even if", "ifs", "whether", "suppose", "supposing", "don't",
    "do not", "doubt", "doubts", "not sure", "I", "like", "tea", "For coffee", "at work",
    "do", "is", " ", "  ", "\n", ",", "，", "?", "？", "。", "！", "吗", "呢", "如果", "假如",
    "不觉得", "不是说", "没说", "我", "喜欢", "茶", "的时候", "工作", "在家", "周末", "比起",
    "相比于", "咖啡", "x", "a",
]  # fmt: skip
_SENTENCES = st.lists(st.sampled_from(_PIECES), max_size=14).map("".join)


def _question_by_prefix(sentence: str, at: int) -> bool:
    """The reading :meth:`Before.question` replaces: a search of the rest and the prefix."""
    rest = sentence[at:].rstrip()
    if rest.endswith(("?", "？")) and not re.search(r"[,，]", rest):
        return True
    if re.search(r"[吗呢][。！]?\s*$", rest) and not re.search(r"[,，]", rest):
        return True
    starts = re.match(
        r"^\s*(?:do|does|did|can|could|would|should|will|is|are|am|was|were|what|which|who|"
        r"where|when|why|how|have|has)\b",
        sentence,
        re.I,
    )
    return bool(starts) and not re.search(r"[,，]", sentence[:at])


def _scope_by_prefix(prefix: str, lang: str) -> tuple[str | None, int | None]:
    en = re.compile(r"^\s*(?P<scope>(?:for|at|when|while|during|on|in)\s+[^,]{1,40}),\s*$", re.I)
    pm = (ZH_SCOPE_PREFIX if lang == "zh" else en).search(prefix)
    return (pm.group("scope").strip(), pm.start("scope")) if pm else (None, None)


@settings(max_examples=400, deadline=None)
@given(_SENTENCES)
def test_every_answer_is_that_of_a_search_of_the_prefix(sentence: str) -> None:
    before = Before(sentence)
    for at in range(len(sentence) + 1):
        prefix = sentence[:at]
        assert before.hypothetical(at) == bool(HYPOTHETICAL.search(prefix)), at
        assert before.negated(at) == bool(NEGATED_BEFORE.search(prefix.rstrip())), at
        assert before.question(at) == _question_by_prefix(sentence, at), at
        for lang in ("en", "zh"):
            assert before.scope(at, lang) == _scope_by_prefix(prefix, lang), at
        other = ZH_COMPARE_PREFIX.search(prefix)
        assert before.compared(at) == (other.group("other") if other else None), at
        assert before.stripped(at) == len(prefix.rstrip())


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 60), st.integers(1, 8)), max_size=20), st.data())
def test_spans_overlap_as_a_pass_over_them_all(pairs: list[tuple[int, int]], data: Any) -> None:
    spans, taken = Spans(), []
    for start, length in pairs:
        end = start + length
        overlaps = any(start < e and s < end for s, e in taken)
        assert spans.overlaps(start, end) == overlaps
        if not overlaps:
            spans.add(start, end)
            taken.append((start, end))
    start = data.draw(st.integers(0, 70))
    end = start + data.draw(st.integers(1, 10))
    assert spans.overlaps(start, end) == any(start < e and s < end for s, e in taken)


class _Counted:
    """A compiled pattern that counts the characters its searches are handed."""

    def __init__(self, rx: re.Pattern[str], tally: list[int]) -> None:
        self.rx, self.tally = rx, tally

    def _count(self, text: str, pos: int = 0, endpos: int | None = None) -> None:
        self.tally[0] += (len(text) if endpos is None else min(endpos, len(text))) - pos

    def search(self, text: str, pos: int = 0, endpos: int | None = None) -> Any:
        self._count(text, pos, endpos)
        return self.rx.search(text, pos, len(text) if endpos is None else endpos)

    def match(self, text: str, pos: int = 0, endpos: int | None = None) -> Any:
        self._count(text, pos, endpos)
        return self.rx.match(text, pos, len(text) if endpos is None else endpos)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.rx, name)


_PREFIX_READERS = [
    (before_module, "HYPOTHETICAL"),
    (before_module, "_NEGATOR_EN"),
    (before_module, "ZH_SCOPE_PREFIX"),
    (before_module, "ZH_COMPARE_PREFIX"),
    (before_module, "_EN_SCOPE_PREFIX"),
    (before_module, "_QUESTION_START"),
    (forms_module, "_REACTION"),
    (forms_module, "_FIRST_PERSON"),
]


def _searched(text: str, monkeypatch: pytest.MonkeyPatch) -> int:
    tally = [0]
    with monkeypatch.context() as m:
        for module, name in _PREFIX_READERS:
            m.setattr(module, name, _Counted(getattr(module, name), tally))
        forms_module._reaction.cache_clear()
        extract_atoms(text)
    forms_module._reaction.cache_clear()
    return tally[0]


@pytest.mark.parametrize(
    "clause",
    [
        "我喜欢喝咖啡，",  # one sentence of thousands of clauses, a liking in each
        "周末在家的时候我喜欢看书，",  # a scope before each
        "我的领导是张三，",
        "I love coffee, I don't think I like jazz, ",
        "我喜欢喝咖啡。",  # thousands of sentences
    ],
)
def test_what_is_read_before_each_match_grows_linearly(
    clause: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Twice the message, about twice the characters searched before its matches (a search
    of each whole prefix made it four times)."""
    short = _searched(clause * (2000 // len(clause)), monkeypatch)
    long = _searched(clause * (4000 // len(clause)), monkeypatch)
    assert short > 0
    assert long <= 2.5 * short, (short, long)


def test_the_patterns_counted_are_the_ones_read() -> None:
    """The counted names are those the readers use (a rename would count nothing)."""
    for module, name in _PREFIX_READERS:
        assert isinstance(getattr(module, name), re.Pattern), name
    assert extractor_module.Before is Before


def test_conditions_stacked_past_the_readers_depth_fail_no_message() -> None:
    """A thousand stacked conditions ("When I code, " repeated) give no rule, not an error
    (the reader of instructions recurses once a condition)."""
    text = "When I code, " * 1000
    assert [a for a in extract_atoms(text) if a.kind == "instruction"] == []


@pytest.mark.parametrize("clause", ["如果我喜欢茶，我不觉得我喜欢咖啡，", "When I code, "])
def test_stacked_conditions_are_read_in_linear_work(monkeypatch: Any, clause: str) -> None:
    # each condition used to hand the whole rest of its sentence to the instruction reader
    # (and an English one recursed once a condition): characters read grew with the square
    from langgraph_memory.extraction import instructions

    read: list[int] = []
    real = instructions.instruction_in

    def counting(text: str, scoped: bool) -> Any:
        read.append(len(text))
        return real(text, scoped)

    monkeypatch.setattr(forms_module, "instruction_in", counting)
    english = instructions._en_instruction  # recursive: a condition's rest is read again

    def counting_en(text: str, *args: Any) -> Any:
        read.append(len(text))
        return english(text, *args)

    monkeypatch.setattr(instructions, "_en_instruction", counting_en)

    def chars_read(n: int) -> int:
        read.clear()
        extract_atoms((clause * (n // len(clause) + 1))[:n])
        return sum(read)

    small, large = chars_read(4_000), chars_read(8_000)
    assert large <= 2.5 * small, (small, large)


def test_a_rule_is_said_in_a_sentence_not_a_page() -> None:
    from langgraph_memory.extraction.instructions import RULE_REACH, instruction_in

    rule = "from now on, answer in English"
    assert instruction_in(rule, False) is not None
    assert instruction_in(rule + " " * (RULE_REACH - len(rule)), False) is not None
    assert instruction_in(rule + " " * (RULE_REACH + 1 - len(rule)), False) is None
    # stacked conditions far past the reach: no error, and the last clause, read alone,
    # still says its rule
    atoms = extract_atoms("When I code, " * 200 + "use tabs.")
    assert [a.value for a in atoms if a.kind == "instruction"] == ["use tabs"]
