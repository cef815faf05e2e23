"""A turn back to earnest ("but seriously", "说正经的") takes back what was said before it,
not what follows; and a habit told as past is no rule."""

from __future__ import annotations

import pytest

from langgraph_memory.extraction.extractor import extract_atoms


def _kinds(text: str) -> set[tuple[str, str]]:
    return {(a.kind, str(a.value)) for a in extract_atoms(text, role="user")}


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("Jokes aside, I'm allergic to peanuts.", "fact", "peanuts"),
        ("lol I love Mondays. But seriously, I'm vegetarian.", "fact", "vegetarian"),
        ("说正经的，我对青霉素过敏。", "fact", "青霉素"),
        ("But seriously, always answer in English.", "instruction", "answer in English"),
        ("说正经的，以后回答都用中文。", "instruction", "回答都用中文"),
        ("我对花生过敏。说正经的，以后回答都用中文。", "instruction", "回答都用中文"),
    ],
)
def test_what_follows_the_turn_is_kept(text: str, kind: str, value: str) -> None:
    assert (kind, value) in _kinds(text)


def test_what_was_said_before_the_turn_is_taken_back() -> None:
    got = _kinds("我最爱加班了哈哈哈，说正经的，我喜欢喝茶")
    assert ("preference", "喝茶") in got
    assert not any("加班" in value for _, value in got)


def test_the_turn_itself_is_no_instruction() -> None:
    assert not any(kind == "instruction" for kind, _ in _kinds("说正经的，我对青霉素过敏。"))


def test_a_past_habit_is_no_positive_rule() -> None:
    atoms = [a for a in extract_atoms("以前你老用英文，现在不要用英文了。", role="user")]
    rules = [a for a in atoms if a.kind == "instruction"]
    assert rules and all(a.polarity < 0 for a in rules)


def test_an_idiom_with_mei_is_no_ended_habit() -> None:
    atoms = extract_atoms("以后别再没完没了地道歉了", role="user")
    rules = [a for a in atoms if a.kind == "instruction"]
    assert rules
