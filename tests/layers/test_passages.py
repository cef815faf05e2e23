"""Passages of long messages: a message longer than the embedder's window is indexed as
overlapping passages too; a hit on one counts for its message, shows as an excerpt
around it, and goes with the message (issue 24 item 3)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from langgraph_memory import MemoryConfig, MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.layers.index.passages import PASSAGE_KIND, passage_spans
from langgraph_memory.read.excerpts import excerpt
from langgraph_memory.storage import InMemoryBackend, MemoryBackend

FACT = "The staging database password rotates every Tuesday at noon."
QUERY = "when does the staging database password rotate?"


def log_with_fact(at: float, lines: int = 400) -> str:
    """A pasted log of ``lines`` lines with :data:`FACT` at ``at`` (0..1) of its length."""
    body = [f"INFO worker {i}: handled request batch {i} in {i % 97} ms" for i in range(lines)]
    body.insert(int(at * lines), FACT)
    return "\n".join(body)


def short_messages(mm: MemoryManager, n: int = 30) -> None:
    """Short messages that share the query's common words (rank above a long message
    whose only match is one line deep inside it, unless its passage counts)."""
    for i in range(n):
        mm.add_message("ann", "s1", "user", f"The database for project {i} is on staging")


#: Passages are on by default for the user's messages (``MemoryConfig.max_passages``).
ON = MemoryConfig()


def test_passages_are_on_by_default_for_the_users_messages_only() -> None:
    write = MemoryConfig().write
    assert write.max_passages == 256 and write.passage_roles == ("user",)
    assert MemoryConfig(write={"passage_roles": ["human", "ai", "user"]}).write.passage_roles == (
        "user",
        "assistant",
    )
    with pytest.raises(ValueError, match="passage_roles"):
        MemoryConfig(write={"passage_roles": ("boss",)})
    with pytest.raises(TypeError, match="passage_roles"):
        MemoryConfig(write={"passage_roles": "user"})  # type: ignore[arg-type]
    long = " ".join(f"line {i} of the pasted build log" for i in range(200))
    for roles, replies in ((("user",), False), (("user", "assistant"), True)):
        cfg = MemoryConfig(write={"passage_roles": roles})
        with MemoryManager(
            backend=InMemoryBackend(), embeddings=HashingEmbeddings(), config=cfg
        ) as mm:
            mine = mm.add_message("ann", "s1", "user", long)
            reply = mm.add_message("ann", "s1", "assistant", long + " (quoted back)")
            passages = mm._parts.write.passages
            assert passages.of("ann", mine)
            assert bool(passages.of("ann", reply)) is replies


@pytest.fixture
def mm(backend: MemoryBackend) -> MemoryManager:
    m = MemoryManager(backend=backend, embeddings=HashingEmbeddings(), config=ON)
    yield m
    m.close()


# -- spans ----------------------------------------------------------------------------------
@given(
    n=st.integers(0, 60_000),
    chars=st.integers(50, 2000),
    overlap_share=st.floats(0, 0.9),
    cap=st.integers(1, 300),
)
def test_spans_cover_the_text_within_the_cap(
    n: int, chars: int, overlap_share: float, cap: int
) -> None:
    text = "abcd " * (n // 5)
    overlap = int(chars * overlap_share)
    spans = passage_spans(text, chars, overlap, cap)
    if len(text) <= chars:
        assert spans == []
        return
    assert 1 <= len(spans) <= cap
    assert all(0 <= s < e <= len(text) and e - s <= chars for s, e in spans)
    assert spans[0][0] == 0
    if cap > 1:
        assert spans[-1][1] == len(text)  # the tail is never left out
    needed = 1 + -(-(len(text) - chars) // max(chars - overlap, 1))
    if needed <= cap:  # contiguous: each passage starts before the previous one ends
        assert all(b[0] <= a[1] for a, b in zip(spans, spans[1:], strict=False))


def test_short_messages_have_no_passages(mm: MemoryManager) -> None:
    mm.add_message("ann", "s1", "user", "a" * 999)
    mm.flush()
    assert mm._parts.write.passages.texts("ann") == []


# -- reading --------------------------------------------------------------------------------
@pytest.mark.parametrize("at", [0.1, 0.5, 0.9])
def test_a_passage_hit_counts_for_its_message(mm: MemoryManager, at: float) -> None:
    text = log_with_fact(at)
    mid = mm.add_message("ann", "s1", "user", text)
    short_messages(mm)
    mm.flush()
    hits = mm.search("ann", QUERY, k=3, layers=["message"])
    assert hits[0].id == mid
    parts = hits[0].score_parts
    span = text[int(parts["passage_start"]) : int(parts["passage_end"])]
    assert FACT in span  # the passage that matched holds the fact


class WindowedHashing(HashingEmbeddings):
    """Hashing embeddings that read the first 1,000 characters only, as MiniLM reads its
    first 256 word pieces."""

    def __init__(self) -> None:
        super().__init__()
        self.model_id = "hashing-window-1000"

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return super().embed_documents([t[:1000] for t in texts])


@pytest.mark.parametrize("passages", [256, 0])
def test_dense_retrieval_reads_past_the_window(backend: MemoryBackend, passages: int) -> None:
    """Dense retrieval alone, with an embedder that reads a text's start only: the long
    message's cosine is its best passage's (the one holding the fact), above that of
    its own vector; without passages (``max_passages=0``, 0.1's behaviour) its own."""
    cfg = MemoryConfig(
        write={"max_passages": passages, "passage_chars": 400, "passage_overlap": 100},
        retrieval={"lexical_weight": 0.0},
    )
    emb = WindowedHashing()
    text = log_with_fact(0.9)
    own = float(np.dot(emb.embed_query(QUERY), emb.embed_documents([text])[0]))
    with MemoryManager(backend=backend, embeddings=emb, config=cfg) as mm:
        mid = mm.add_message("ann", "s1", "user", text)
        for i in range(30):
            mm.add_message("ann", "s1", "user", f"I brewed green tea number {i} this morning")
        mm.flush()
        hit = next(h for h in mm.search("ann", QUERY, k=40, layers=["message"]) if h.id == mid)
        parts = hit.score_parts
        if passages:
            assert parts["cosine"] == parts["passage_cosine"] > own + 0.05
            assert FACT in text[int(parts["passage_start"]) : int(parts["passage_end"])]
        else:
            assert parts["cosine"] == pytest.approx(own, abs=1e-4)
            assert "passage_start" not in parts


def test_the_context_shows_the_passage_that_matched(mm: MemoryManager) -> None:
    mid = mm.add_message("ann", "s1", "user", log_with_fact(0.9))
    short_messages(mm)
    mm.flush()
    ctx = mm.build_context("ann", "s2", QUERY, token_budget=1500)
    item = next(it for it in ctx.items if mid in it.source_ids)
    assert item.source_ids == [mid]
    assert FACT in item.text and "excerpt_of_tokens" in item.score_parts
    assert item.tokens <= mm.config.packing.excerpt_tokens + 10


def test_excerpt_prefers_the_focus() -> None:
    text = log_with_fact(0.5).replace("\n", ". ")
    at = text.index(FACT)
    # no query term: without a focus, the excerpt is the opening alone
    assert FACT not in excerpt(text, frozenset({"zzz"}), 100)
    assert FACT in excerpt(text, frozenset({"zzz"}), 100, (at - 50, at + 100))
    one_piece = "x" * 5000 + FACT + "y" * 5000
    cut = excerpt(one_piece, frozenset(), 40, (5000, 5100))
    assert cut.startswith("…") and FACT[:20] in cut


def test_a_filter_applies_to_passages(mm: MemoryManager) -> None:
    mid = mm.add_message("ann", "s1", "user", log_with_fact(0.9), metadata={"kind": "log"})
    short_messages(mm)
    mm.flush()
    assert mm.search("ann", QUERY, k=3, filter={"kind": "log"})[0].id == mid
    hits = mm.search("ann", QUERY, k=50, filter={"kind": "chat"})
    assert mid not in [h.id for h in hits]


# -- deleting -------------------------------------------------------------------------------
def test_delete_takes_the_passages(mm: MemoryManager) -> None:
    mid = mm.add_message("ann", "s1", "user", log_with_fact(0.9))
    keep = mm.add_message("ann", "s1", "user", log_with_fact(0.1))
    mm.flush()
    passages = mm._parts.write.passages
    assert passages.of("ann", mid) and passages.of("ann", keep)
    assert mm.delete("ann", mid) == 1
    assert passages.of("ann", mid) == []
    assert passages.of("ann", keep)
    index = mm._read.entries
    left = {d.meta["message_id"] for d in index.docs("ann") if d.layer == PASSAGE_KIND}
    assert left == {keep}
    mm.delete_user("ann")
    assert passages.texts("ann") == []
    assert not [d for d in index.docs("ann") if d.layer == PASSAGE_KIND]


# -- limits ---------------------------------------------------------------------------------
def test_a_megabyte_paste_is_stored_with_bounded_passages(tmp_path) -> None:
    from langgraph_memory.storage import SQLiteBackend

    cfg = ON
    assert cfg.write.max_content_chars >= 1_000_000
    big = log_with_fact(0.97, lines=20_000)
    big = (big + "\n" + "pad " * 250_000)[: cfg.write.max_content_chars]
    with MemoryManager(
        backend=SQLiteBackend(tmp_path / "s"), embeddings=HashingEmbeddings(), config=cfg
    ) as mm:
        mid = mm.add_message("ann", "s1", "user", big)
        mm.flush()
        assert mm._parts.write.passages.of("ann", mid).__len__() == cfg.write.max_passages
        assert mm.search("ann", "staging password rotates", k=1)[0].id == mid
        with pytest.raises(ValueError, match="over the limit of 1000000"):
            mm.add_message("ann", "s1", "user", big + "!")


def test_passage_settings_are_validated() -> None:
    with pytest.raises(ValueError, match="passage_overlap"):
        MemoryConfig(write={"passage_chars": 100, "passage_overlap": 100})
    with pytest.raises(ValueError, match="max_passages"):
        MemoryConfig(write={"max_passages": -1})
    cfg = MemoryConfig().replace(passage_chars=500)
    assert cfg.write.passage_chars == 500


def test_in_memory_read_before_the_worker_embeds() -> None:
    """A read right after the write (passages without vectors yet) still finds it."""
    with MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings(), config=ON) as mm:
        mid = mm.add_message("ann", "s1", "user", log_with_fact(0.9))
        short_messages(mm)
        hits = mm.search("ann", QUERY, k=3, layers=["message"])
        assert mid in [h.id for h in hits]


def test_delete_reads_as_if_the_long_message_was_never_written(
    backend: MemoryBackend, make_backend, request: pytest.FixtureRequest
) -> None:
    """Searching after ``delete`` ranks and scores as a store never given the message."""
    fresh = make_backend(request.node.callspec.params["backend"])

    def fill(b: MemoryBackend, long: bool) -> MemoryManager:
        mm = MemoryManager(backend=b, embeddings=HashingEmbeddings())
        for i in range(12):
            mm.add_message(
                "ann", "s1", "user", f"The database {i} runs on staging", message_id=f"c{i}"
            )
            if i == 5 and long:
                mm.add_message("ann", "s1", "user", log_with_fact(0.5), message_id="long")
        mm.flush()
        return mm

    with fill(backend, True) as mm, fill(fresh, False) as ref:
        assert mm.search("ann", QUERY, k=1)[0].id == "long"
        mm.delete("ann", "long")
        for query in (QUERY, "staging database", "worker batch"):
            got = [(h.id, round(h.score, 9)) for h in mm.search("ann", query, 12, ["message"])]
            want = [(h.id, round(h.score, 9)) for h in ref.search("ann", query, 12, ["message"])]
            assert got == want
