"""How the BM25 and dense rankings of messages become one: the convex combination of
their normalised scores (the default) against reciprocal rank fusion."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.embeddings import Embeddings

from langgraph_memory import MemoryConfig, MemoryManager
from langgraph_memory.retrieval.hybrid import HybridRanker
from langgraph_memory.storage import InMemoryBackend


class Fixed(Embeddings):
    """Vectors chosen per text: the query (:data:`QUERY`) is ``[1, 0, 0]``, a text of
    cosine ``c`` with it ``[c, sqrt(1 - c^2), 0]``; any other text is orthogonal to it."""

    def __init__(self, cosine: dict[str, float]) -> None:
        self.cosine = {QUERY: 1.0, **cosine}

    def _vec(self, text: str) -> list[float]:
        c = self.cosine.get(text)
        if c is None:
            return [0.0, 0.0, 1.0]
        return [c, math.sqrt(max(0.0, 1 - c * c)), 0.0]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._vec(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._vec(text)


def manager(cosine: dict[str, float], **cfg) -> MemoryManager:
    return MemoryManager(
        backend=InMemoryBackend(), embeddings=Fixed(cosine), config=MemoryConfig.flat(**cfg)
    )


QUERY = "kyoto lamp"
STRONG = "the kyoto lamp and the kyoto lantern"  # both query words, the rare one twice
WEAK = "a lamp"  # one common query word
FILLER = [f"note number {i} about the weather" for i in range(8)]


def ranked(mm: MemoryManager, query: str) -> dict[str, tuple[int, float, dict]]:
    """Message id -> (rank, score, parts) of the message ranking."""
    out = {}
    for rank, r in enumerate(mm._read.retriever.rank("u", query, 20), 1):
        msg = mm._backend.get_messages("u", [r.seq])[r.seq]
        out[msg.content] = (rank, r.score, r.parts)
    return out


@pytest.mark.parametrize("fusion", ["convex", "rrf"])
def test_scores_tell_a_close_second_from_a_distant_one(fusion: str) -> None:
    """STRONG is first by BM25 and a close second by cosine (0.50 against 0.51); WEAK is
    first by cosine and a distant second by BM25. Ranks alone tie them; scores do not."""
    cosine = {STRONG: 0.50, WEAK: 0.51, **dict.fromkeys(FILLER, 0.1)}
    with manager(cosine, fusion=fusion, neighbor_smoothing=0.0) as mm:
        mm.add_message("u", "s", "user", STRONG)
        for i, text in enumerate(FILLER):
            mm.add_message("u", f"f{i}", "user", text)
        mm.add_message("u", "w", "user", WEAK)
        mm.flush()
        got = ranked(mm, QUERY)
    (r_strong, s_strong, p_strong), (_, s_weak, p_weak) = got[STRONG], got[WEAK]
    assert (p_strong["bm25_rank"], p_strong["dense_rank"]) == (1, 2)
    assert (p_weak["bm25_rank"], p_weak["dense_rank"]) == (2, 1)
    if fusion == "rrf":
        assert s_strong == pytest.approx(s_weak)  # 1/61 + 1/62 each
    else:
        assert r_strong == 1 and s_strong > s_weak
        assert p_strong["hybrid"] == pytest.approx(1.0, abs=0.02)
        assert p_weak["hybrid"] < 0.8


def test_a_strong_match_of_one_kind_stays_a_primary_candidate() -> None:
    """A message BM25 ranks second but whose cosine is below every other message's is
    kept a primary candidate and scores at least its reciprocal rank by BM25."""
    cosine = {STRONG: 0.9, WEAK: -0.2, **dict.fromkeys(FILLER, 0.3)}
    with manager(cosine, neighbor_smoothing=0.0) as mm:
        for text in [STRONG, WEAK, *FILLER]:
            mm.add_message("u", text[:6], "user", text)
        mm.flush()
        got = ranked(mm, QUERY)
        weak = next(
            r for r in mm._read.retriever.rank("u", QUERY, 20) if r.parts.get("bm25_rank") == 2
        )
    rank, score, parts = got[WEAK]
    assert parts["bm25_rank"] == 2 and parts["hybrid"] < 0.5
    assert weak.primary
    assert score >= 1 / (60 + 2) - 1e-12
    assert rank < got[FILLER[0]][0]  # ahead of turns sharing no word, closer by meaning


def test_a_reply_is_read_with_what_it_answers() -> None:
    """Two equally good turns: the one answering a relevant question outranks the one
    following an unrelated turn; a relevant turn gains nothing from the turn after it."""
    question = "which lamp did you buy in kyoto?"
    answer = "a paper one, it glows"
    lone = "a paper one, it shines"
    cosine = {question: 0.8, answer: 0.6, lone: 0.6, **dict.fromkeys(FILLER, 0.0)}
    with manager(cosine) as mm:
        mm.add_message("u", "a", "user", question)
        mm.add_message("u", "a", "assistant", answer)
        mm.add_message("u", "b", "user", FILLER[0])
        mm.add_message("u", "b", "assistant", lone)
        mm.flush()
        smooth = ranked(mm, QUERY)
    with manager(cosine, neighbor_smoothing=0.0) as plain_mm:
        for session, role, text in [
            ("a", "user", question),
            ("a", "assistant", answer),
            ("b", "user", FILLER[0]),
            ("b", "assistant", lone),
        ]:
            plain_mm.add_message("u", session, role, text)
        plain_mm.flush()
        plain = ranked(plain_mm, QUERY)
    assert plain[answer][2]["hybrid"] == pytest.approx(plain[lone][2]["hybrid"])
    assert smooth[answer][0] < smooth[lone][0]
    assert smooth[answer][2]["hybrid"] > smooth[lone][2]["hybrid"]
    assert smooth[question][0] == 1


@settings(max_examples=200, deadline=None)
@given(
    scores=st.dictionaries(
        st.sampled_from(["bm25", "dense"]),
        st.dictionaries(
            st.integers(0, 20), st.floats(-1, 30, allow_nan=False), min_size=1, max_size=12
        ),
        min_size=1,
    ),
    bump=st.floats(0, 5),
)
def test_combine_is_bounded_and_monotone(scores: dict, bump: float) -> None:
    """Every combined score is within [0, 1]; raising one candidate's score in one
    ranking never lowers its combined score (the others' normalisation held fixed)."""
    ranker = HybridRanker()
    floors = {name: min(0.0, *s.values()) for name, s in scores.items()}
    before = dict(ranker.combine(scores, floors))
    assert all(-1e-9 <= v <= 1 + 1e-9 for v in before.values())
    name = sorted(scores)[0]
    key = sorted(scores[name])[0]
    raised = {n: dict(s) for n, s in scores.items()}
    top = max(raised[name].values())
    raised[name][key] = min(raised[name][key] + bump, top)  # the span stays
    after = dict(ranker.combine(raised, floors))
    assert after[key] >= before[key] - 1e-9


def test_combine_floor_and_weights() -> None:
    ranker = HybridRanker(lexical_weight=3.0, dense_weight=1.0)
    got = dict(
        ranker.combine(
            {"bm25": {"a": 4.0, "b": 2.0}, "dense": {"b": 0.9, "c": 0.5}}, {"dense": 0.5}
        )
    )
    assert got == pytest.approx({"a": 0.75, "b": 0.75 * 0.5 + 0.25, "c": 0.0})


@pytest.mark.parametrize(
    ("cfg", "exc", "field"),
    [
        ({"fusion": "sum"}, ValueError, "fusion"),
        ({"neighbor_smoothing": -0.1}, ValueError, "neighbor_smoothing"),
        ({"neighbor_smoothing": "0.1"}, TypeError, "neighbor_smoothing"),
    ],
)
def test_fusion_settings_are_checked(cfg: dict, exc: type[Exception], field: str) -> None:
    with pytest.raises(exc, match=field):
        MemoryConfig.flat(**cfg)
