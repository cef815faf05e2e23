"""The query's embedding leaves out the names of the user's speakers, and so does the
message ranking's BM25 while the speaker boost (which keeps them) is on
(:mod:`langgraph_memory.read.speakers`)."""

from __future__ import annotations

import pytest
from langchain_core.embeddings import Embeddings

from langgraph_memory import MemoryConfig, MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.read.query import Retrieval
from langgraph_memory.read.speakers import SpeakerNames, lexical_terms, without_speakers
from langgraph_memory.storage import InMemoryBackend


@pytest.mark.parametrize(
    ("query", "names", "expected"),
    [
        ("What does Melanie paint?", {"Melanie"}, "What does paint?"),
        ("what did melanie say about Caroline's trip?", {"Melanie", "Caroline"},
         "what did say about trip?"),
        ("When did Ann Lee move?", {"Ann Lee", "Ann"}, "When did move?"),  # longest first
        ("Is the Annual report done?", {"Ann"}, None),  # whole words only
        ("小明上周去了哪里？", {"小明"}, "上周去了哪里？"),  # Chinese names anywhere
        ("Melanie?", {"Melanie"}, None),  # nothing left to embed
        ("What did I say to Jo?", {"I", "Jo"}, "What did I say to?"),  # one letter is kept
        ("Where is my sister Anna?", {"Melanie"}, None),  # not a speaker: content
    ],
)  # fmt: skip
def test_without_speakers(query: str, names: set[str], expected: str | None) -> None:
    assert without_speakers(query, names) == expected


class _Source:
    def __init__(self) -> None:
        self.calls: list[int] = []
        self.rows: list[tuple[int, str]] = [(1, "Ann"), (2, "Bob")]

    def speaker_names(self, user_id: str, after: int = 0) -> tuple[set[str], int]:
        self.calls.append(after)
        later = [(s, n) for s, n in self.rows if s > after]
        return {n for _, n in later}, max((s for s, _ in later), default=after)


def test_names_are_read_whole_once_then_only_since_after_the_refresh() -> None:
    src = _Source()
    names = SpeakerNames(src, refresh_seconds=0.0)
    assert names.get("u") == {"Ann", "Bob"}
    src.rows.append((3, "Cy"))
    assert names.get("u") == {"Ann", "Bob", "Cy"}
    assert src.calls == [0, 2]  # the second read asked only for what came after seq 2
    names.forget("u")
    assert names.get("u") == {"Ann", "Bob", "Cy"} and src.calls[-1] == 0
    cached = SpeakerNames(src, refresh_seconds=3600)
    cached.get("u")
    src.rows.append((4, "Di"))
    assert "Di" not in cached.get("u") and len(src.calls) == 4  # trusted until refreshed


def _dense_query(mm: MemoryManager, user: str, query: str) -> str:
    return Retrieval(mm._read, user, query).dense_query


def test_the_dense_query_of_a_user_without_names_is_the_query() -> None:
    with MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings()) as mm:
        mm.add_message("u", "s", "user", "Always answer in French")
        mm.add_message("v", "s", "user", "Ann here, hello", name="Ann")
        assert _dense_query(mm, "u", "What did Ann ask?") == "What did Ann ask?"
        assert _dense_query(mm, "v", "What did Ann ask?") == "What did ask?"
        mm.delete_user("v")
        assert _dense_query(mm, "v", "What did Ann ask?") == "What did Ann ask?"
    off = MemoryConfig(retrieval={"dense_without_speakers": False})
    with MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings(), config=off) as mm:
        mm.add_message("v", "s", "user", "Ann here, hello", name="Ann")
        assert _dense_query(mm, "v", "What did Ann ask?") == "What did Ann ask?"


TURNS = [
    ("Caroline", "Hey Melanie! Long time no see, how have you been?"),
    ("Melanie", "Hi Caroline! Busy week with the kids, but good."),
    ("Caroline", "Melanie, you always manage to stay so positive."),
    ("Melanie", "Thanks Caroline, that means a lot to me."),
    ("Caroline", "I went to a yoga retreat to unwind last month."),
    ("Melanie", "Painting landscapes by the lake helps me unwind after a long week."),
    ("Caroline", "Melanie, did you see the news about the bridge?"),
    ("Melanie", "Yes, I saw it this morning. Crazy stuff!"),
    ("Caroline", "Talk soon, Melanie!"),
    ("Melanie", "Bye Caroline, take care!"),
]
QUERIES = [
    "What does Melanie do to relax?",
    "How does Melanie unwind?",
    "What hobbies does Melanie have?",
    "What does Melanie like to do on weekends?",
]


def _firsts(model: Embeddings, **cfg: object) -> tuple[list[str], list[str]]:
    """The first search hit and the first context item's source of each query, dense
    ranking alone (no BM25)."""
    config = MemoryConfig.flat(lexical_weight=0.0, **cfg)  # type: ignore[arg-type]
    with MemoryManager(backend=InMemoryBackend(), embeddings=model, config=config) as mm:
        for i, (name, text) in enumerate(TURNS):
            role = "user" if name == "Caroline" else "assistant"
            mm.add_message("u", "s", role, text, name=name, message_id=f"m{i}")
        mm.flush()
        hits = [mm.search("u", q, k=3)[0].id for q in QUERIES]
        items = [mm.build_context("u", "s2", q, token_budget=60).items[0] for q in QUERIES]
        return hits, [it.source_ids[0] for it in items]


def test_the_turn_about_the_question_beats_chit_chat_naming_the_speaker(
    minilm: Embeddings,
) -> None:
    # "Painting landscapes ... helps me unwind" (m5) answers all four; with the name in
    # the embedded query, turns that only greet or address Melanie come first for some
    # (the turns' own vectors hold no name: index_text is the content).
    hits, items = _firsts(minilm)
    assert hits == ["m5"] * 4 and items == ["m5"] * 4
    hits_off, items_off = _firsts(minilm, dense_without_speakers=False)
    assert hits_off.count("m5") < 4 and items_off.count("m5") < 4


CAMPING = [
    ("Caroline", "Hey! How was your week?"),
    ("Melanie", "Busy! We finally went camping at the lake with the kids."),
    ("Caroline", "Melanie, camping sounds lovely, I wish I had time for trips this summer!"),
    ("Melanie", "You should come along next time."),
    ("Caroline", "I would love to, my schedule is packed though."),
    ("Melanie", "Work has been hectic for me as well."),
    ("Caroline", "Did you see the news about the bridge?"),
    ("Melanie", "Not yet, what happened?"),
    ("Caroline", "It closed for repairs until the spring."),
    ("Melanie", "That will make the commute longer."),
    ("Caroline", "Talk soon, take care!"),
    ("Melanie", "Bye, see you!"),
]


@pytest.mark.parametrize("query", ["Where did Melanie go camping?", "When did Melanie go camping?"])
def test_bm25_leaves_a_named_speaker_to_the_speaker_boost(query: str) -> None:
    # "melanie" is in the text only of a turn of Caroline's addressing her: as a rare
    # query term it would rank "Melanie, camping sounds lovely, ..." (m2) above Melanie's
    # own turn about camping (m1) in BM25, and every turn addressing her alike.
    with MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings()) as mm:
        for i, (name, text) in enumerate(CAMPING):
            role = "user" if name == "Caroline" else "assistant"
            mm.add_message("u", "s", role, text, name=name, message_id=f"m{i}")
        mm.flush()
        assert Retrieval(mm._read, "u", query).q.lexical == ("go", "camping")
        first = mm.search("u", query, k=2)[0]
        assert first.id == "m1" and first.score_parts["bm25_rank"] == 1.0
        ctx = mm.build_context("u", "s2", query, token_budget=40)
        assert [it.source_ids for it in ctx.items if it.layer == "message"][0] == ["m1"]


@pytest.mark.parametrize(
    "cfg", [{"speaker_boost": 0.0}, {"dense_weight": 0.0}], ids=["no boost", "terms alone"]
)
def test_bm25_reads_the_names_without_the_boost_or_a_dense_ranking(cfg: dict) -> None:
    # without the boost the name is matched by nothing else; ranked by its terms alone
    # (e.g. Chinese with the English-only model) the query keeps its ranking as before
    config = MemoryConfig.flat(**cfg)
    with MemoryManager(
        backend=InMemoryBackend(), embeddings=HashingEmbeddings(), config=config
    ) as mm:
        mm.add_message("u", "s", "user", "Hey Melanie", name="Caroline")
        q = Retrieval(mm._read, "u", "Where did Melanie go camping?").q
        assert q.lexical == q.terms == ("melanie", "go", "camping")


def test_a_query_the_model_cannot_read_keeps_the_names(minilm: Embeddings) -> None:
    # Chinese with the English-only model is ranked by its terms alone: as before
    with MemoryManager(backend=InMemoryBackend(), embeddings=minilm) as mm:
        mm.add_message("v", "s", "user", "周敏你好", name="林晓")
        mm.add_message("v", "s", "assistant", "你好", name="周敏")
        mm.add_message("v", "s", "user", "Hi Jon", name="Gina")
        mm.add_message("v", "s", "assistant", "Hi", name="Jon")
        assert Retrieval(mm._read, "v", "周敏的瑜伽年卡多少钱？").q.lexical[0] == "周敏"
        assert "jon" not in Retrieval(mm._read, "v", "What did Jon open?").q.lexical


def test_lexical_terms_keep_other_names_and_a_query_of_only_a_name() -> None:
    assert lexical_terms(("ann", "lee", "paris"), {"Ann Lee"}) == ("paris",)
    assert lexical_terms(("ann", "paris"), {"Ann Lee"}) == ("ann", "paris")  # not all of it
    assert lexical_terms(("anna", "work"), {"Melanie"}) == ("anna", "work")  # content
    assert lexical_terms(("melanie", "melanie", "kid", "child"), {"Melanie"}) == ("kid", "child")
    assert lexical_terms(("melanie",), {"Melanie"}) == ("melanie",)  # nothing else to read
