"""The current session's topic chains reach the context as summaries when its turns do
not all fit in the session's share, and heat weighs how mid-term segments rank."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from langgraph_memory import MemoryConfig, MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.storage import InMemoryBackend

T0 = datetime(2024, 3, 1, 9, tzinfo=timezone.utc)
GARDEN = [
    "I planted tomatoes and basil in the raised garden bed by the fence.",
    "The garden bed needs compost before the tomatoes go in, I think.",
    "Should the basil share the garden bed with the tomatoes or get a pot?",
]
TAXES = [
    "Now about my tax return: the deadline for the freelance income is in April.",
    "For the tax return I still need the invoices of the freelance work from March.",
    "Can the home office be deducted on the tax return this year?",
    "The tax advisor wants the freelance invoices and receipts by Friday.",
]


def test_chains_of_the_session_come_back_as_summaries() -> None:
    cfg = MemoryConfig(packing={"recent_messages": 40, "session_share": 0.2})
    with MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings(), config=cfg) as mm:
        for i, text in enumerate(GARDEN + TAXES):
            mm.add_turn(
                "ann", "s1", user=text, assistant="Sure, noted: " + text,
                timestamp=T0 + timedelta(minutes=2 * i),
            )  # fmt: skip
        mm.flush()
        chains = mm._parts.hierarchy.state("ann", "s1").chains
        assert any(c.summary for c in chains.values())
        # a budget whose session share holds the latest turns only
        ctx = mm.build_context("ann", "s1", "what next?", 1000)
        recent = [it for it in ctx.items if it.layer == "short_term"]
        summaries = [it for it in ctx.items if it.layer == "chain"]
        assert recent and summaries
        assert any("garden" in it.text.lower() for it in summaries)
        assert all(it.source_ids and "topic chain" in it.reason for it in summaries)
        # with room for every turn, nothing needs a summary
        ctx = mm.build_context("ann", "s1", "what next?", 8000)
        assert not [it for it in ctx.items if it.layer == "chain"]
        off = MemoryConfig(
            packing={"recent_messages": 40, "session_share": 0.2, "chain_share": 0.0}
        )
        mm2 = MemoryManager(backend=mm._backend, embeddings=HashingEmbeddings(), config=off)
        ctx = mm2.build_context("ann", "s1", "what next?", 1000)
        assert not [it for it in ctx.items if it.layer == "chain"]


def test_heat_weighs_segments_about_as_close() -> None:
    cfg = MemoryConfig(hierarchy={"stm_capacity_pages": 1, "segment_heat_weight": 0.5})
    with MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings(), config=cfg) as mm:
        topics = [
            ["harbour ferry: Sunday departures start early", "harbour ferry: weekend schedule"],
            ["harbour ferry: refunds of lost tickets", "harbour ferry: office opening hours"],
        ]
        for s, texts in enumerate(topics):
            for i, text in enumerate(texts):
                mm.add_message(
                    "ann", f"s{s}", "user", text, timestamp=T0 + timedelta(hours=s, minutes=i)
                )
        mm.flush()
        ranked = mm._parts.hierarchy.rank_segments(
            "ann", None, ["harbour", "ferry"], 5, visit=False
        )
        assert len(ranked) >= 2
        assert all(p["heat_factor"] >= 1.0 for _, _, p in ranked)
        cold = ranked[-1][0]
        for _ in range(30):  # retrievals warm one segment
            cold.visit(datetime.now(timezone.utc))
        again = mm._parts.hierarchy.rank_segments("ann", None, ["harbour", "ferry"], 5, visit=False)
        assert again[0][0].id == cold.id
        assert again[0][2]["heat_factor"] > 1.25
