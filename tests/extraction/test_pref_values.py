"""A preference's value ends with its clause, and a description of the user is no taste
(issue 39). Sentences are the helper's own."""

from __future__ import annotations

import pytest

from langgraph_memory.extraction.clauses import taste_in_clause
from langgraph_memory.extraction.extractor import extract_atoms


def tastes(text: str) -> list[tuple[str, int]]:
    return [(a.value, a.polarity) for a in extract_atoms(text) if a.kind == "preference"]


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("I adore cocoa, e.g. the Dutch kind.", [("cocoa", 1)]),  # the splitter's "e" is no part
        ("I hate queues, let me tell you.", [("queues", -1)]),  # a request after it
        ("I hate night buses, the train is so much calmer.", [("night buses", -1)]),
        ("I love cocoa, it calms me down.", [("cocoa", 1)]),
        ("I love cocoa, chai and mulled cider.", [("cocoa, chai and mulled cider", 1)]),  # a list
        ("我晚上喜欢听播客", [("听播客", 1)]),  # a time between 我 and the verb is not the value
        ("我平时讨厌排队", [("排队", -1)]),  # and the stance keeps its polarity
        ("我周末不太爱出门", [("出门", -1)]),
        ("我口味偏咸", [("咸", 1)]),  # a lean of taste stays
    ],
)
def test_the_value_ends_with_its_clause(text: str, want: list[tuple[str, int]]) -> None:
    assert tastes(text) == want


@pytest.mark.parametrize("text", ["我偏胖", "我个子偏矮", "我皮肤偏黑", "我同事平时讨厌开会"])
def test_a_description_of_the_user_or_someone_elses_taste_is_none(text: str) -> None:
    assert tastes(text) == []


def test_the_key_follows_the_cut_value() -> None:
    [atom] = [a for a in extract_atoms("I hate queues, let me tell you.") if a.kind == "preference"]
    assert atom.key == "queues"
    assert taste_in_clause("noodles; they're quick") == "noodles"


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("Decaf is an abomination.", [("Decaf", -1)]),  # evaluative nouns, both ways
        ("Kale tastes like cardboard to me.", [("Kale", -1)]),
        ("Folk music is peak.", [("Folk music", 1)]),
        ("Sour candy is my entire personality.", [("Sour candy", 1)]),
        ("Talk radio makes me want to scream.", [("Talk radio", -1)]),
        ("the week was long, and group chats are genuinely a disgrace", [("group chats", -1)]),
        ("Trams are way better for me than buses.", [("Trams", 1), ("buses", -1)]),
        ("I'm way more into chess than poker.", [("chess", 1), ("poker", -1)]),
        ("Anything but decaf, please.", [("decaf", -1)]),
        ("I pretty much live in cardigans.", [("cardigans", 1)]),
        ("香肠真的是我的克星，一口都吃不下", [("香肠", -1)]),  # a degree is no thing
        ("我巨讨厌排队", [("排队", -1)]),
        ("我从小就喜欢围棋", [("围棋", 1)]),
        ("绿豆汤比酸梅汤好喝十倍", [("绿豆汤", 1), ("酸梅汤", -1)]),
        ("Night mode on everything.", [("Night mode", 1)]),  # a verbless pick
        ("说实话长途开车让我很累", [("长途开车", -1)]),  # a cause and how the user feels
        ("晚会总会让我很烦", [("晚会", -1)]),  # 会 of 晚会 stays in the value
        ("游泳让我很放松", [("游泳", 1)]),  # not "游泳让", the topic reader's cut
    ],
)
def test_more_forms_of_a_taste(text: str, want: list[tuple[str, int]]) -> None:
    assert tastes(text) == want


@pytest.mark.parametrize(
    "text",
    ["It was anything but easy.", "The talk was peak quality", "I basically live in Lyon now"],
)
def test_their_look_alikes(text: str) -> None:
    assert [v for v, _ in tastes(text) if v in ("easy", "peak quality", "Lyon")] == []


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("文档不全的库我基本不用", [("文档不全的库", -1)]),  # the topic, not the bare verb
        ("平板布局必须做", []),  # a verb done to nothing said: no thing liked
        ("现在每月只要650", []),  # an amount alone
        ("再巧妙也不行", []),  # the degree of a concession
    ],
)
def test_a_chinese_value_names_a_thing(text: str, want: list[tuple[str, int]]) -> None:
    assert tastes(text) == want
