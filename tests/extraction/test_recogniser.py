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
    assert (a == b).all() and a.max() < DIM
    assert len(features("以后都用中文回答")) > 10  # Chinese: character n-grams


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
    said = "The garden is green."
    settings["add_instruction"] = False
    assert form_atoms(said, [], "user") == []  # off: nothing added
    settings["add_instruction"] = True
    got = [a for _, a in form_atoms(said, [], "user")]
    assert [(a.kind, a.text) for a in got] == [("instruction", said)]
    for role in ("assistant", "tool"):
        assert form_atoms(said, [], role) == []
        assert form_atoms("From now on, always answer in English.", [], role) == []


def test_the_hook_leaves_questions_alone(settings: dict[str, bool]) -> None:
    recogniser.use(
        Model(weights=np.zeros((len(KINDS), DIM), dtype=np.float32), add={"instruction": 0.0})
    )
    settings["add_instruction"] = True
    assert form_atoms("Could you answer in English?", [], "user") == []
