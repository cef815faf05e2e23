"""A sentence opening on someone else can still say what the user likes, in a later
clause of the user's own (issue 39). Sentences are the helper's own."""

from __future__ import annotations

import pytest

from langgraph_memory.extraction.clauses import other_subject
from langgraph_memory.extraction.extractor import extract_atoms


def tastes(text: str) -> list[tuple[str, int]]:
    return [(a.value, a.polarity) for a in extract_atoms(text) if a.kind == "preference"]


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # the user's own clause after "We…"
        ("We always order from the Thai place, I'm a sucker for green curry", [("green curry", 1)]),
        # "them"/"they" of the user's clause is what the other one was said to like
        ("the husband loves westerns but honestly I find them tedious", [("westerns", -1)]),
        (
            "everyone's obsessed with escape rooms but they just make me anxious",
            [("escape rooms", -1)],
        ),
        ("The kids love slime, I find it gross", [("slime", -1)]),
        # a dropped topic in Chinese
        ("大家都爱看恐怖片，我看了只会失眠，不适合我", [("恐怖片", -1)]),
    ],
)
def test_the_users_clause_after_someone_elses_says_the_users_taste(
    text: str, want: list[tuple[str, int]]
) -> None:
    assert tastes(text) == want


@pytest.mark.parametrize(
    "text",
    [
        "My roommate can't stand techno, so I only play it with headphones",  # "it": theirs
        "We went bowling, I loved it",  # one outing, not a kind
        "My brother loves sushi and my sister hates it",  # no clause of the user's
        "他们都喜欢吃火锅",
    ],
)
def test_no_taste_of_the_user_without_a_clause_of_the_users(text: str) -> None:
    assert tastes(text) == []


def test_a_sentence_about_others_only_stays_theirs() -> None:
    assert other_subject("We always eat out on Fridays")
    assert not other_subject("We always eat out, I'm a sucker for pho")


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("Zed all day. I tried Emacs for a month and hated it.", [("Zed", 1), ("Emacs", -1)]),
        ("I tried bouldering last week and loved it", [("bouldering", 1)]),
        ("I gave Wordle a go and loved it", [("Wordle", 1)]),
    ],
)
def test_what_the_user_tried_and_then_says_how_it_went(
    text: str, want: list[tuple[str, int]]
) -> None:
    assert tastes(text) == want


@pytest.mark.parametrize(
    "text", ["My sister tried keto and hated it", "If I tried it and hated it I'd stop"]
)
def test_someone_elses_trial_or_a_hypothetical_one_is_none(text: str) -> None:
    assert tastes(text) == []
