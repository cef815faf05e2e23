"""The cue gates of the slot and preference readers (``extraction/cues.py``): read off each
pattern, they never skip a search that would have matched."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from langgraph_memory.extraction import (
    clauses,
    forms,
    instructions,
    preferences,
    slot_words,
    slots,
    slots_en,
    slots_zh,
)
from langgraph_memory.extraction.cues import Cued, _present, cues_of, fold, open_entries, possible


def gated() -> list[Cued]:
    """Every gated pattern of the readers (and of the clause, form and instruction
    checks every sentence meets)."""
    out: list[Cued] = []
    for module in (
        slots,
        slot_words,
        slots_en,
        slots_zh,
        preferences,
        clauses,
        forms,
        instructions,
    ):
        for value in vars(module).values():
            if isinstance(value, Cued):
                out.append(value)
            elif isinstance(value, list):
                for item in value:
                    rx = item[0] if isinstance(item, tuple) else item
                    if isinstance(rx, Cued):
                        out.append(rx)
    return out


def test_the_readers_patterns_are_gated() -> None:
    patterns = gated()
    assert len(patterns) > 150
    # nearly every pattern names words a text needs (the rest are always searched)
    assert sum(p.cues is not None for p in patterns) >= len(patterns) - 5


def test_every_cue_of_every_pattern_is_found_by_the_gate() -> None:
    """A text that is just one cue opens its pattern's gate: every pattern's literals are
    in the lookup the gate reads (exactly, or ignoring case)."""
    for p in gated():
        for cue, icase in p.cues or ():
            for text in {cue, cue.upper(), f"x {cue} y"} if icase else {cue, f"x{cue}y"}:
                exact, folded = _present(text)
                assert (cue in folded) if icase else (cue in exact), (p.pattern, cue, text)
                assert p.may_match(text)


def test_cues_read_off_the_parse_tree() -> None:
    def cues(pattern: str, flags: int = 0) -> set[tuple[str, bool]] | None:
        found = cues_of(re.compile(pattern, flags))
        return None if found is None else set(found)

    assert cues(r"\b(?:moved|relocated)\s+to\b", re.I) == {("moved", True), ("relocated", True)}
    assert cues(r"(?i:Home) is here (?P<v>\w+)") == {(" is here ", False)}  # the longer one
    assert cues(r"(?i:Home is) (?P<v>\w+)") == {("home is", True)}
    assert cues(r"(?:住在|定居在?)(?P<v>\w+)") == {("住在", False), ("定居", False)}
    assert cues(r"(?:my\s+)?cat") == {("cat", False)}  # an optional part needs nothing
    assert cues(r"(?:abc)?\d+") is None
    assert cues(r"(?:a|\d)bc") == {("bc", False)}  # one branch without a literal
    assert cues(r"x(?=.*\bfoo)", re.I) == {("foo", True)}  # a lookahead's words are there
    assert cues(r"(?!foo)\w+") is None
    assert cues(r"(?:ab){2,}") == {("ab", False)}
    assert cues(r"fianc[ée]", re.I) == {("fianc", True)}
    assert cues(r"café", re.I) == {("caf", True)}  # a cased non-ASCII letter ends the cue


def test_folding_matches_the_engines_ignore_case() -> None:
    # characters that match an ASCII letter only ignoring case ("ſ" with "s", the Kelvin
    # sign with "k") open the gate as the engine matches them
    for word in ("ſtay", "\u212aid", "lıve", "İn"):
        rx = Cued(re.compile(r"\b(?:stay|kid|live|in)\b", re.I))
        assert (rx.search(word) is None) == (re.search(rx.pattern, word, re.I) is None), word
    assert fold("ſTAY") == "stay"


def test_no_character_beyond_the_basic_plane_matches_an_ascii_letter_ignoring_case() -> None:
    text = "".join(map(chr, range(0x10000, 0x110000)))
    assert re.search(r"[a-z]", text, re.I) is None


PIECES = sorted(
    {cue for p in gated() for cue, _ in p.cues or ()}
    | {" ", ".", ",", "I", "my", "My", "我", "了", "。", "Tom", "Porto", "3", "two"}
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=12), st.booleans())
def test_a_gated_search_finds_what_the_pattern_finds(pieces: list[str], upper: bool) -> None:
    text = " ".join(pieces)
    text = text.upper() if upper else text
    for p in gated():
        got, want = p.search(text), p.rx.search(text)
        assert (got and got.span()) == (want and want.span()), (p.pattern, text)
        assert [m.span() for m in p.finditer(text)] == [m.span() for m in p.rx.finditer(text)]


def _tables() -> list[list]:
    """The readers' tables of gated patterns (lists of Cued, or of tuples led by one)."""
    out = []
    for module in (slots, slots_en, slots_zh, preferences):
        for value in vars(module).values():
            if isinstance(value, list) and len(value) >= 4:
                first = value[0][0] if isinstance(value[0], tuple) else value[0]
                if isinstance(first, Cued):
                    out.append(value)
    return out


def _each_gate(table: list, text: str) -> list[int]:
    """The entries whose gates ``text`` opens, each gate tested on its own."""
    return [i for i, e in enumerate(table) if (e[0] if isinstance(e, tuple) else e).may_match(text)]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=12), st.booleans())
def test_a_tables_cue_index_opens_what_each_gate_opens(pieces: list[str], upper: bool) -> None:
    text = " ".join(pieces)
    text = text.upper() if upper else text
    tables = _tables()
    assert tables
    for table in tables:
        want = _each_gate(table, text)
        if isinstance(table[0], tuple):
            assert [i for i, _ in open_entries(table, text)] == want
        else:
            assert possible(table, text) == [table[i].rx for i in want]


def test_a_table_that_grows_is_indexed_again() -> None:
    table = [Cued(re.compile(w)) for w in ("apple", "pear", "plum", "fig")]
    assert possible(table, "a fig and a kiwi") == [table[3].rx]
    table.append(Cued(re.compile("kiwi")))
    assert possible(table, "a kiwi and a fig") == [table[3].rx, table[4].rx]
    # a short list (made for one call) is tested gate by gate
    assert possible(table[:2], "pears") == [table[1].rx]


def _fresh(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """``text``'s cues from a pass over it alone (no earlier scan to read them off)."""
    from langgraph_memory.extraction import cues

    for lookup in (cues._EXACT, cues._FOLDED):
        for trie in (lookup.ascii, lookup.other):
            trie._whole = ("", [])
    cues._last = ("", frozenset(), frozenset())
    return _present(text)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.sampled_from(PIECES), max_size=14),
    st.booleans(),
    st.integers(0, 200),
    st.integers(0, 200),
)
def test_a_parts_cues_read_off_the_whole_texts_scan_are_its_own(
    pieces: list[str], upper: bool, a: int, b: int
) -> None:
    from langgraph_memory.extraction.cues import scan

    text = " ".join(pieces)
    text = text.upper() if upper else text
    part = text[min(a, b) : max(a, b)]
    want = _fresh(part)
    scan(text)
    assert _present(part) == want  # a cue cut at the part's end is not in it
    scan(text)
    assert _present(text) == _fresh(text)


def test_a_scan_reads_the_cues_of_the_sentences_of_a_message() -> None:
    from langgraph_memory.extraction.cues import scan

    rx = Cued(re.compile(r"\bmoved to (\w+)", re.I))
    scan("Hi there. We MOVED to Porto. 我们搬到了波尔图。")
    assert rx.may_match("We MOVED to Porto") and not rx.may_match("Hi there.")
    assert not rx.may_match("We MOVED t")  # the cue does not end within the part
    assert rx.search("We MOVED to Porto")[1] == "Porto"


def test_a_gate_made_after_a_text_was_read_opens_on_that_text() -> None:
    from langgraph_memory.extraction.cues import scan

    text = "My zebrafinch sings at dawn."
    scan(text)
    assert _present(text)  # the text's cues, read before the new gate's words were known
    rx = Cued(re.compile(r"\bzebrafinch\b"))
    assert rx.may_match(text) and rx.may_match("My zebrafinch")
