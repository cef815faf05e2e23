"""Extraction on every exchange: standing instructions become user anchors, preferences and
facts reach the profile and the fact store as the worker places each message, and what
rides along reaches a context whose query shares no word with it, citing its message."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel

from langgraph_memory import MemoryConfig, MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.layers.hierarchy.promotion import INSTRUCTION_SOURCE
from langgraph_memory.storage import MemoryBackend

T0 = datetime(2024, 3, 1, 9, tzinfo=timezone.utc)
FILLER = [
    ("How do I set the HTTP client timeout?", "Pass timeout=5 to the client and retry twice."),
    ("What does the retry adapter do on 503?", "It waits with backoff, then tries again."),
    ("Can you show the logging config?", "Use dictConfig with a JSON formatter."),
]


def manager(backend: MemoryBackend, **cfg: object) -> MemoryManager:
    return MemoryManager(
        backend=backend, embeddings=HashingEmbeddings(), config=MemoryConfig.flat(**cfg)
    )


@pytest.fixture
def mm(backend: MemoryBackend) -> Iterator[MemoryManager]:
    with manager(backend) as m:
        yield m


def say(mm: MemoryManager, user: str, text: str, *, session: str = "s1", day: int = 0) -> str:
    """One exchange; returns the user message's id."""
    ids = mm.add_turn(
        user, session, user=text, assistant="Noted.", timestamp=T0 + timedelta(days=day)
    )
    return ids[0]


def chat(mm: MemoryManager, user: str = "ann") -> None:
    for i, (u, a) in enumerate(FILLER):
        mm.add_turn(user, "s1", user=u, assistant=a, timestamp=T0 + timedelta(hours=i + 1))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("From now on, always use APA 7th edition for references.", "APA 7th edition"),
        ("When I ask about deployment, give me the shell commands first.", "shell commands"),
        ("Whenever you write Python, add type hints.", "type hints"),
        ("以后回答都用中文并附上代码注释", "代码注释"),
        ("每次给代码都加上类型注解", "类型注解"),
        ("当我问到部署的时候，请先给出命令", "先给出命令"),
    ],
)
def test_a_standing_instruction_rides_along_in_every_session(
    mm: MemoryManager, text: str, words: str
) -> None:
    mid = say(mm, "ann", text)
    chat(mm)
    mm.flush()
    [anchor] = mm.anchors.list("ann")
    assert words in anchor.text and anchor.metadata["source"] == INSTRUCTION_SOURCE
    assert anchor.metadata["source_ids"] == [mid]
    # a new session, a query that shares no word with the instruction
    ctx = mm.build_context("ann", "later", "What should chapter two look like?", 300)
    [item] = [it for it in ctx.items if it.layer == "anchor"]
    assert words in item.text and mid in item.source_ids
    assert "standing instruction" in item.reason
    assert mm.build_context("bob", "later", "chapter two", 300).items == []


def test_a_later_instruction_on_the_same_topic_replaces_the_earlier(mm: MemoryManager) -> None:
    say(mm, "ann", "From now on, always use emojis in your answers.", day=0)
    later = say(mm, "ann", "From now on, never use emojis in your answers.", day=3)
    mm.flush()
    [anchor] = mm.anchors.list("ann")
    assert "never use emojis" in anchor.text and anchor.metadata["source_ids"] == [later]


def test_questions_and_hypotheticals_are_no_instructions(mm: MemoryManager) -> None:
    say(mm, "ann", "Do you always use tabs?")
    say(mm, "ann", "If you always use tabs, the linter complains.")
    say(mm, "ann", "如果以后都用中文回答，会不会更慢？")
    say(mm, "ann", "What if you answered everything in haiku?")
    say(mm, "ann", "My boss always says never use emojis.")
    say(mm, "ann", "菜谱上说一定要用无盐黄油，真有区别吗？")
    mm.flush()
    assert mm.anchors.list("ann") == []


def test_a_polite_request_for_something_lasting_is_an_instruction(mm: MemoryManager) -> None:
    say(mm, "ann", "Could you stop apologising all the time?")
    say(mm, "bob", "Can you use tabs for this one?")  # a request for now only
    mm.flush()
    [anchor] = mm.anchors.list("ann")
    assert "apologising" in anchor.text
    assert mm.anchors.list("bob") == []


@pytest.mark.parametrize(
    "text", ["I prefer minimal dependencies in my projects.", "我喜欢简洁的代码风格。"]
)
def test_a_preference_reaches_the_profile_and_every_context(mm: MemoryManager, text: str) -> None:
    mid = say(mm, "ann", text)
    chat(mm)
    mm.flush()
    [entry] = mm._longterm.profile.list_preferences("ann")
    assert entry.source == "explicit" and entry.source_ids == [mid] and entry.quote == text
    ctx = mm.build_context("ann", "later", "Which libraries should I pick for HTTP?", 300)
    [item] = [it for it in ctx.items if it.layer == "profile"]
    assert text in item.text and item.source_ids == [mid]  # the user's own words, cited


def test_the_profile_closest_to_the_query_goes_first(backend: MemoryBackend) -> None:
    # words only (no embeddings): closeness is the share of the query's terms
    with manager(backend, dense_weight=0.0, profile_share=0.06) as mm:
        say(mm, "ann", "I love long walks in the mountains.")
        say(mm, "ann", "I prefer espresso over filter coffee.")
        mm.flush()
        ctx = mm.build_context("ann", "later", "what coffee should I order?", 400)
        profile = [it for it in ctx.items if it.layer == "profile"]
        assert "espresso" in profile[0].text
        assert profile[0].score_parts["closeness"] > 0
        assert len(profile) == 1  # the share holds one: the closest


def test_scoped_preferences_use_the_session_scope(mm: MemoryManager) -> None:
    mid = mm.add_message("ann", "s1", "user", "For the thesis I cite in APA.", timestamp=T0)
    mm._longterm.profile.upsert_preference(
        "ann", "citation", "APA", source="explicit", scope="thesis", source_ids=[mid]
    )
    mm.flush()

    def profile(ctx: object) -> list[str]:
        return [it.text for it in ctx.items if it.layer == "profile"]  # type: ignore[attr-defined]

    assert not any("APA" in t for t in profile(mm.build_context("ann", "x", "citations", 300)))
    scoped = mm.build_context("ann", "x", "citations", 300, scope="thesis")
    assert any("APA" in t for t in profile(scoped))
    # the session's own scope, from its latest message's metadata
    mm.add_message("ann", "w", "user", "Back to the thesis.", metadata={"scope": "thesis"})
    mm.flush()
    assert any("APA" in t for t in profile(mm.build_context("ann", "w", "citations", 300)))


def test_facts_get_the_time_they_were_said(mm: MemoryManager) -> None:
    first = say(mm, "ann", "I live in Lyon.", day=0)
    second = say(mm, "ann", "I moved to Berlin.", day=30)
    mm.flush()
    facts = {f.object: f for f in mm._longterm.facts.list_facts("ann", relation="location")}
    assert facts["Lyon"].valid_from == T0 and facts["Lyon"].source_ids == [first]
    assert facts["Lyon"].valid_to == T0 + timedelta(days=30)  # superseded, kept
    assert facts["Berlin"].is_open and facts["Berlin"].source_ids == [second]


def test_only_on_promotion_when_asked(backend: MemoryBackend) -> None:
    with manager(backend, extract_every_turn=False) as mm:
        say(mm, "ann", "From now on, always use APA 7th edition for references.")
        say(mm, "ann", "I prefer minimal dependencies in my projects.")
        mm.flush()
        assert mm.anchors.list("ann") == [] and mm._longterm.profile.list_preferences("ann") == []


def test_no_secret_reaches_what_is_extracted(mm: MemoryManager) -> None:
    say(mm, "ann", "From now on, always send the report to ann.lee@example.com please.")
    say(mm, "ann", "I prefer the token sk-live-4eC39HqLyjWDarjtT1zdp7dc for tests.")
    mm.flush()
    stored = [a.text for a in mm.anchors.list("ann")] + [
        e.text() for e in mm._longterm.profile.list_preferences("ann")
    ]
    assert stored and not any("example.com" in t or "4eC39HqLyjWD" in t for t in stored)


def test_delete_user_removes_everything_extracted(mm: MemoryManager) -> None:
    say(mm, "ann", "From now on, always use APA 7th edition for references.")
    say(mm, "ann", "I prefer minimal dependencies. I live in Lyon.")
    say(mm, "bob", "From now on, always answer in French.")
    mm.flush()
    assert mm.anchors.list("ann") and mm._longterm.profile.list_preferences("ann")
    mm.delete_user("ann")
    assert mm.anchors.list("ann") == [] and mm._longterm.profile.list_preferences("ann") == []
    assert mm._longterm.facts.list_facts("ann") == []
    assert len(mm.anchors.list("bob")) == 1


class ExtractingModel(FakeListChatModel):
    """Answers extraction prompts about bullets with an instruction atom, anything else
    with a malformed answer."""

    def _call(self, messages: Any, *args: Any, **kwargs: Any) -> str:
        prompt = str(messages[-1].content)
        if "bullets" not in prompt:
            return "not json at all"
        atom = {
            "kind": "instruction",
            "key": "format",
            "value": "answer in bullet points",
            "text": "keep it to bullets",
        }
        return json.dumps({"atoms": [atom]})


def test_the_llm_extracts_on_every_turn_and_rules_catch_a_bad_answer(
    backend: MemoryBackend,
) -> None:
    llm = ExtractingModel(responses=["unused"])
    with MemoryManager(backend=backend, embeddings=HashingEmbeddings(), llm=llm) as mm:
        mid = say(mm, "ann", "Going forward keep it to bullets.")
        say(mm, "cy", "From now on, always use APA 7th edition for references.")
        mm.flush()
        [anchor] = mm.anchors.list("ann")
        assert "keep it to bullets" in anchor.text and anchor.metadata["source_ids"] == [mid]
        # a malformed answer: the rules read the message instead
        assert ["APA" in a.text for a in mm.anchors.list("cy")] == [True]


def test_feedback_follows_the_seed_rule(mm: MemoryManager) -> None:
    mid = say(mm, "ann", "I prefer espresso.")
    mm.flush()
    [entry] = mm._longterm.profile.list_preferences("ann")
    [low] = mm.profile.feedback("ann", entry.id, "corrected", source_ids=[mid])
    assert low.confidence == pytest.approx(0.6)  # -0.4: out of the context (<= 0.7)
    [back] = mm.profile.feedback("ann", entry.key, "followed")
    assert back.confidence == pytest.approx(0.8)  # +0.2
    [now] = mm.profile.feedback("ann", entry.key, "corrected", value="flat white")
    assert (now.value, now.source, now.confidence) == ("flat white", "explicit", 1.0)
    assert [e.value for e in mm._longterm.profile.list_preferences("ann")] == ["flat white"]
    with pytest.raises(KeyError, match="no preference"):
        mm.profile.feedback("ann", "tea", "followed")
    with pytest.raises(ValueError, match="signal"):
        mm.profile.feedback("ann", entry.key, "liked")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="value"):
        mm.profile.feedback("ann", entry.key, "followed", value="x")


def test_a_bad_scope_in_metadata_is_passed_over(mm: MemoryManager) -> None:
    mm.add_message("ann", "w", "user", "I prefer tabs.", metadata={"scope": {"not": "a str"}})
    mm.add_message("ann", "w", "user", "Hi again.", metadata={"scope": "bad\x07scope"})
    mm.flush()
    ctx = mm.build_context("ann", "w", "indentation?", 300)
    assert any(it.layer == "profile" for it in ctx.items)  # the global preference, no error


@pytest.mark.parametrize(
    ("before", "unrelated", "correction", "old", "new"),
    [
        (
            "I prefer green tea.",
            "I love jazz.",
            "No, I prefer black tea.",
            "green tea",
            "black tea",
        ),
        ("我喜欢喝咖啡。", "我喜欢爵士乐。", "不对，我喜欢喝绿茶。", "喝咖啡", "喝绿茶"),
    ],
)
def test_a_correction_lowers_the_preference_it_corrects(
    mm: MemoryManager, before: str, unrelated: str, correction: str, old: str, new: str
) -> None:
    say(mm, "ann", before)
    say(mm, "ann", unrelated, day=1)
    mm.flush()
    was = {str(e.value): e.confidence for e in mm._longterm.profile.list_preferences("ann")}
    mid = say(mm, "ann", correction, day=2)
    mm.flush()
    by_value = {str(e.value): e for e in mm._longterm.profile.list_preferences("ann")}
    corrected = by_value[old]
    assert corrected.confidence == pytest.approx(was[old] - mm.config.long_term.correct_step)
    assert mid in corrected.source_ids  # the correction is cited
    assert by_value[new].confidence >= mm.config.long_term.preference_threshold
    others = [v for v in by_value if v not in (old, new)]
    assert others and all(by_value[v].confidence == was[v] for v in others)
    shown = [e.value for e in mm._longterm.profile.for_context("ann")]
    assert new in shown and old not in shown  # below the threshold: out of the context


def test_a_statement_that_is_no_correction_lowers_nothing(mm: MemoryManager) -> None:
    say(mm, "ann", "I prefer green tea.")
    say(mm, "ann", "I prefer black tea.", day=1)  # a second taste, not a correction
    say(mm, "ann", "No, I prefer jazz.", day=2)  # a correction related to nothing stored
    mm.flush()
    assert len(mm._longterm.profile.list_preferences("ann")) == 3
    assert all(e.confidence >= 0.9 for e in mm._longterm.profile.list_preferences("ann"))


class OtherUserModel(FakeListChatModel):
    """Answers every extraction prompt with an atom about the store's user 'bob'."""

    def _call(self, messages: Any, *args: Any, **kwargs: Any) -> str:
        atom = {"kind": "fact", "subject": "Bob", "key": "drink", "value": "green tea"}
        return json.dumps({"atoms": [atom]})


def test_an_llm_answer_naming_another_user_falls_back_to_the_rules(
    backend: MemoryBackend, caplog: pytest.LogCaptureFixture
) -> None:
    llm = OtherUserModel(responses=["unused"])
    with MemoryManager(backend=backend, embeddings=HashingEmbeddings(), llm=llm) as mm:
        mm.add_message("bob", "s1", "user", "Hello there.", timestamp=T0)
        mm.flush()
        with caplog.at_level("WARNING", logger="langgraph_memory.layers.hierarchy.promotion"):
            say(mm, "ann", "I live in Lisbon and I prefer green tea.")
            mm.flush()
        facts = mm._longterm.facts.list_facts("ann")
        assert [f.object for f in facts if f.relation == "location"] == ["Lisbon"]
        assert not [f for f in facts if f.subject == "Bob"]
        assert "names another user" in caplog.text
