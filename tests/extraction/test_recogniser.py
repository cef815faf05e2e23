"""The learned second opinion on instructions and preferences (issue 39)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from langgraph_memory.extraction import recogniser
from langgraph_memory.extraction.forms import form_atoms
from langgraph_memory.extraction.recogniser import DIM, KINDS, Model, features, model


@pytest.fixture
def settings() -> Iterator[dict[str, bool]]:
    saved = dict(recogniser.SETTINGS)
    yield recogniser.SETTINGS
    recogniser.SETTINGS.update(saved)
    recogniser.use(None)


def test_the_packaged_weights_load() -> None:
    m = model()
    assert m.weights.shape == (len(KINDS), DIM)
    assert 0.0 < m.add["instruction"] <= 1.0
    assert np.isfinite(m.weights).all()


def test_features_are_the_same_on_every_call() -> None:
    a, b = features("Always answer in English."), features("Always answer in English.")
    assert a == b and max(a) < DIM and all(isinstance(i, int) for i in a)
    assert len(features("以后都用中文回答")) > 10  # Chinese: character n-grams


def test_features_hash_by_crc32_not_by_the_process() -> None:
    # str hashes change with each process (PYTHONHASHSEED); the weights need fixed indices
    import subprocess
    import sys

    code = "from langgraph_memory.extraction.recogniser import features as f; print(f('Hi you'))"
    runs = {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            env={**__import__("os").environ, "PYTHONHASHSEED": seed},
            check=True,
        ).stdout
        for seed in ("1", "2")
    }
    assert runs == {f"{features('Hi you')}\n"}


def test_the_score_matches_the_weights() -> None:
    m = model()
    z = float(m.weights[0, features("Never use emojis.")].astype(np.float64).sum())
    assert m.score("Never use emojis.") == pytest.approx(1 / (1 + np.exp(-z)), abs=1e-6)


@pytest.mark.parametrize(
    "sentence",
    ["From now on, always answer me in British English.", "以后回答我的时候都用简体中文。"],
)
def test_a_clear_instruction_scores_above_the_threshold(sentence: str) -> None:
    assert recogniser.scores(sentence)[0] >= model().add["instruction"]


def test_a_plain_statement_scores_below_it() -> None:
    assert recogniser.scores("We went to the beach last weekend.")[0] < model().add["instruction"]


def test_the_hook_adds_for_the_user_and_never_reads_an_assistant(
    settings: dict[str, bool],
) -> None:
    always = Model(weights=np.zeros((len(KINDS), DIM), dtype=np.float32), add={"instruction": 0.0})
    recogniser.use(always)  # p = 0.5 everywhere: every sentence it is asked about is one
    said = "All of the garden is green."
    settings["add_instruction"] = False
    assert form_atoms(said, [], "user") == []  # off: nothing added
    settings["add_instruction"] = True
    got = [a for _, a in form_atoms(said, [], "user")]
    assert [(a.kind, a.text) for a in got] == [("instruction", said)]
    for role in ("assistant", "tool"):
        assert form_atoms(said, [], role) == []
        assert form_atoms("From now on, always answer in English.", [], role) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "Whenever you get a chance, call your mum.",  # the addressee's own life
        "每次算账的时候我都头疼。",  # the user tells, asks nothing
        "That way your videos don't flop when you post them.",
        "Sometimes it's hard when things don't go my way, but I'm sure if I keep pushing, "
        "I'll reach my dreams!",
        "以后你都用东北话回我 开玩笑的 别当真",  # said in jest
        "We went to the beach last weekend.",  # nothing speaks to anyone
    ],
)
def test_a_sentence_not_said_to_the_assistant_is_never_put_to_the_model(
    settings: dict[str, bool], sentence: str
) -> None:
    recogniser.use(
        Model(weights=np.zeros((len(KINDS), DIM), dtype=np.float32), add={"instruction": 0.0})
    )
    settings["add_instruction"] = True
    assert not recogniser.considered(sentence)
    assert all(a.kind != "instruction" for _, a in form_atoms(sentence, [], "user"))


def test_a_taste_the_rules_read_is_not_turned_into_an_instruction(
    settings: dict[str, bool],
) -> None:
    recogniser.use(
        Model(weights=np.zeros((len(KINDS), DIM), dtype=np.float32), add={"instruction": 0.0})
    )
    settings["add_instruction"] = True
    got = [a.kind for _, a in form_atoms("I really love spicy food, always have.", [], "user")]
    assert "preference" in got and "instruction" not in got


def test_a_new_model_is_not_answered_from_the_old_ones_scores(settings: dict[str, bool]) -> None:
    settings["add_instruction"] = True
    said = "From now on, always answer me in British English."
    assert recogniser.instruction_said(said)
    never = Model(weights=np.zeros((len(KINDS), DIM), dtype=np.float32), add={"instruction": 0.9})
    recogniser.use(never)  # p = 0.5 < 0.9: the cached score of the packaged model is dropped
    assert not recogniser.instruction_said(said)


def test_the_hook_leaves_questions_alone(settings: dict[str, bool]) -> None:
    recogniser.use(
        Model(weights=np.zeros((len(KINDS), DIM), dtype=np.float32), add={"instruction": 0.0})
    )
    settings["add_instruction"] = True
    assert form_atoms("Could you answer in English?", [], "user") == []


def test_a_reminder_asked_for_is_no_standing_instruction() -> None:
    # the rules read a task from it: one request, which the model is not asked about
    from langgraph_memory.extraction.extractor import extract_atoms

    said = "好。还有李明生日三月十八号，你提醒我买礼物，预算一千以内。"
    assert [a.kind for a in extract_atoms(said) if a.kind in ("task", "instruction")] == ["task"]
