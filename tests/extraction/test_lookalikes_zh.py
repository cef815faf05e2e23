"""Chinese look-alikes make no belief: a request for one message (就这一封), a habit the
user says ended (后来再没…了), a liking said in jest before "说正经的"; the standing
instruction beside an ended habit stays (langgraph_memory.extraction.forms, .clauses)."""

from __future__ import annotations

import pytest

from langgraph_memory.extraction.extractor import extract_atoms


@pytest.mark.parametrize(
    "said",
    [
        "就这一封邮件，写得正式一点，是给校长的。",
        "以前每周日都会去爬山，后来膝盖受伤就再没去过了。",
        "我之前是个果粉，用了十年苹果，换工作以后就没再用了。",
        "我最爱加班了，加班使我快乐😅 好了说正经的，加班费怎么算？",
        "I adore Mondays. But seriously, how do I file overtime?",
    ],
)
def test_no_belief_from_a_lookalike(said: str) -> None:
    beliefs = {"preference", "instruction", "fact", "task"}
    assert [a for a in extract_atoms(said) if a.kind in beliefs] == []


def test_an_instruction_beside_an_ended_habit_stays() -> None:
    atoms = extract_atoms("以前我总让你用英文，现在改了，以后都用中文回答。")
    assert [(a.kind, a.value) for a in atoms] == [("instruction", "用中文回答")]


def test_a_standing_rule_for_such_messages_stays() -> None:
    atoms = extract_atoms("这封邮件以后都按这个格式写。")
    assert [a.kind for a in atoms] == ["instruction"]
