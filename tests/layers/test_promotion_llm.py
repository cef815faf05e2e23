"""Promotion end to end with an LLM: a hot segment's pages become long-term memory through the
model's structured output, and a malformed answer falls back to the rules."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta, timezone
from typing import Any

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field

from langgraph_memory import MemoryConfig, MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.extraction.extractor import extract_atoms
from langgraph_memory.layers.mid_term.segments import Segment
from langgraph_memory.storage import MemoryBackend

#: Long ago: recency adds ~0 to heat, so heat = visits + pages and the test controls it.
T0 = datetime(2023, 3, 1, 9, tzinfo=timezone.utc)
EXTRACT = "Extract the key facts"
SUMMARY = "LLM: Ann's pottery at Clayworks with Mireille."

# One topic, so that every page joins one segment. The LLM reads facts the rules cannot.
STUDIO = "Pottery news: Tuesdays are for the wheel at Clayworks, pottery clears my head."
TEACHER = "Pottery tip: Mireille showed me how to centre the clay on the pottery wheel."
TURNS = [
    (STUDIO, "Pottery on Tuesdays sounds lovely."),
    ("Pottery again: my glaze cracked, pottery is hard.", "Pottery glazes crack often."),
    (TEACHER, "Pottery teachers help a lot."),
    ("Pottery talk: the pottery kiln was hot today.", "Pottery kilns are hot indeed."),
    ("Pottery question: more pottery glaze tips?", "Pottery glaze: thin coats."),
]
#: What the model extracts, by a fragment of the message it reads.
LLM_ATOMS: dict[str, list[dict[str, Any]]] = {
    "Clayworks": [
        {
            "kind": "preference",
            "key": "hobby",
            "value": "pottery",
            "text": "pottery clears my head",
        },
        {"kind": "fact", "key": "pottery_studio", "value": "Clayworks", "text": "at Clayworks"},
    ],
    "Mireille": [
        {"kind": "relation", "key": "pottery_teacher", "value": "Mireille", "text": "Mireille"},
    ],
}


class StructuredFake(GenericFakeChatModel):
    """A fake chat model with tool calling: it answers each structured-output request
    (extraction, summaries) by a tool call built from the prompt, and records the prompts."""

    prompts: list[str] = Field(default_factory=list)
    malformed: bool = False

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> StructuredFake:
        return self

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> ChatResult:
        prompt = str(messages[-1].content)
        self.prompts.append(prompt)
        if self.malformed:  # a wrong schema as a tool call, then no JSON in the text
            reply = AIMessage(
                content='Sure! {"atoms": [{"kind": "opinion"',
                tool_calls=[{"name": "ExtractionDraft", "args": {"atoms": "?"}, "id": "x"}],
            )
        elif EXTRACT in prompt:
            text = prompt.rsplit("Message: ", 1)[1]
            atoms = [a for frag, found in LLM_ATOMS.items() if frag in text for a in found]
            reply = AIMessage(
                content="",
                tool_calls=[{"name": "ExtractionDraft", "args": {"atoms": atoms}, "id": "e"}],
            )
        else:
            args = {"summary": SUMMARY, "keywords": ["pottery"]}
            reply = AIMessage(
                content="", tool_calls=[{"name": "SummaryDraft", "args": args, "id": "s"}]
            )
        return ChatResult(generations=[ChatGeneration(message=reply)])

    def extraction_prompts(self) -> list[str]:
        return [p for p in self.prompts if EXTRACT in p]


def manager(backend: MemoryBackend, llm: StructuredFake) -> MemoryManager:
    # Two pages stay short-term; the older pages move to mid-term (one page = one interaction).
    # Extraction waits for promotion here (the 0.1 behaviour, still an option).
    cfg = MemoryConfig(
        hierarchy={"stm_capacity_pages": 2, "heat_threshold": 5.0, "segment_threshold": 0.3},
        long_term={"extract_every_turn": False},
    )
    return MemoryManager(backend=backend, embeddings=HashingEmbeddings(), llm=llm, config=cfg)


def ingest(mm: MemoryManager, turns: list[tuple[str, str]]) -> list[str]:
    ids: list[str] = []
    for i, (user, assistant) in enumerate(turns):
        ts = T0 + timedelta(minutes=i)
        ids += mm.add_turn("ann", "s1", user=user, assistant=assistant, timestamp=ts)
    mm.flush()
    return ids


def the_segment(mm: MemoryManager) -> Segment:
    [seg] = mm._parts.hierarchy.segments("ann").values()
    return seg


def warm_until_promoted(mm: MemoryManager, seg: Segment) -> None:
    """Retrievals warm the segment (one visit each) until its heat passes τ = 5."""
    assert seg.promotions == 0 and 3 <= seg.heat() < 4  # three pages: not hot yet
    mm.build_context("ann", "s2", "pottery glaze wheel", token_budget=300)
    assert seg.visits == 1 and seg.heat() < 5
    mm.flush()
    assert seg.promotions == 0
    mm.build_context("ann", "s2", "pottery glaze wheel", token_budget=300)  # heat 5.0002
    mm.flush()  # the worker (or this flush) runs the due promotion
    assert seg.promotions == 1 and seg.visits == 0


def test_llm_extraction_reaches_long_term_and_context(backend: MemoryBackend) -> None:
    # The rules keep nothing of these messages (entities only): what appears is the LLM's.
    assert {a.kind for t in (STUDIO, TEACHER) for a in extract_atoms(t)} == {"entity"}
    llm = StructuredFake(messages=iter([]))
    with manager(backend, llm) as mm:
        ids = ingest(mm, TURNS)
        seg = the_segment(mm)
        assert seg.summary == SUMMARY  # the segment summary is the LLM's too
        assert llm.extraction_prompts() == []  # nothing extracted before promotion
        warm_until_promoted(mm, seg)
        # Every user message of the segment's pages was read by the model (the assistant's
        # only support what the user said: the rules read them, see test_provenance).
        read = {p.rsplit("Message: ", 1)[1] for p in llm.extraction_prompts()}
        msgs = [mm._backend.get_message("ann", m) for m in seg.message_ids()]
        assert read == {m.content for m in msgs if m.role == "user"} and len(msgs) == 6
        studio_id, teacher_id = ids[0], ids[4]

        [hobby] = mm._longterm.profile.for_context("ann")
        assert (hobby.key, hobby.value, hobby.source, hobby.confidence) == (
            "hobby",
            "pottery",
            "explicit",
            1.0,
        )
        assert hobby.source_ids == [studio_id]
        facts = {(f.subject, f.relation, f.object): f for f in mm._longterm.facts.list_facts("ann")}
        assert set(facts) == {
            ("user", "pottery_studio", "Clayworks"),
            ("user", "pottery_teacher", "Mireille"),
        }
        assert facts[("user", "pottery_studio", "Clayworks")].source_ids == [studio_id]
        assert facts[("user", "pottery_teacher", "Mireille")].source_ids == [teacher_id]
        assert facts[("user", "pottery_studio", "Clayworks")].valid_from == T0

        ctx = mm.build_context("ann", "s3", "Where is my pottery studio, Clayworks?", 600)
        profile = [it for it in ctx.items if it.layer == "profile"]
        assert [it.source_ids for it in profile] == [[studio_id]]
        assert "pottery" in profile[0].text
        # Facts rank in long-term search (in a context, an item whose sources another item
        # already cites, here the profile entry, is not repeated).
        hits = mm.search("ann", "Who is my pottery teacher, Mireille?", k=3, layers=["long_term"])
        assert hits[0].layer == "fact" and "Mireille" in hits[0].text
        assert hits[0].source_ids == [teacher_id]


# Messages whose rule atoms are known (see test_extraction.py): a fact, a preference.
RULE_TURNS = [
    ("Pottery snacks: I'm allergic to peanuts.", "Pottery and peanuts, noted."),
    ("Pottery music: I love jazz while doing pottery.", "Pottery with jazz, nice."),
    *TURNS[1:4],
]


def test_malformed_llm_answers_fall_back_to_the_rules(backend: MemoryBackend) -> None:
    llm = StructuredFake(messages=iter([]), malformed=True)
    with manager(backend, llm) as mm:
        ids = ingest(mm, RULE_TURNS)
        seg = the_segment(mm)
        assert seg.summary and seg.summary != SUMMARY  # extractive summary instead
        assert set(seg.summary_source_ids) <= set(ids)
        warm_until_promoted(mm, seg)
        assert llm.extraction_prompts()  # the model was asked, and its answers discarded
        allergy_id, jazz_id = ids[0], ids[2]
        prefs = {(e.key, e.value, e.scope): e for e in mm._longterm.profile.list_preferences("ann")}
        assert set(prefs) == {("allergy", "peanuts", None), ("jazz", "jazz", "while doing pottery")}
        assert prefs[("allergy", "peanuts", None)].source_ids == [allergy_id]
        assert prefs[("jazz", "jazz", "while doing pottery")].source_ids == [jazz_id]
        facts = [(f.relation, f.object) for f in mm._longterm.facts.list_facts("ann")]
        assert ("allergy", "peanuts") in facts
        ctx = mm.build_context("ann", "s3", "Which snack is safe for my allergy?", 600)
        [allergy] = [it for it in ctx.items if it.layer == "profile"]  # jazz is scoped
        assert "peanuts" in allergy.text and allergy.source_ids == [allergy_id]
