"""Congruence: one workload through MemoryManager on every backend, compared with in-memory.

The workload writes English and Chinese messages for two users, searches them
lexically, densely and hybridly (with and without metadata filters), deletes a
user, and runs the forget gate over completed tasks. The in-memory backend is
the reference: lexical results must be identical (ids and BM25 scores), vector
and hybrid results must overlap at least 95% in their top 10.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

from langgraph_memory import MemoryConfig, MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.storage import MemoryBackend

T0 = datetime(2024, 5, 1, 9, 0, tzinfo=timezone.utc)
OVERLAP = 0.95

TOPICS = {
    "travel": [
        "I moved to Lyon last spring and love the markets",
        "We are planning a trip to Kyoto in autumn",
        "The train from Paris to Lyon takes two hours",
        "我下个月要去北京出差",
        "旅行的时候我喜欢住在老城区",
    ],
    "food": [
        "I am allergic to peanuts, please remember that",
        "My favourite dish is ramen with a soft egg",
        "我对花生过敏，不能吃花生酱",
        "Tea with oat milk every morning",
        "周末我喜欢在家做饺子",
    ],
    "work": [
        "I started a new job at a bakery downtown",
        "The quarterly report is due on Friday",
        "我在一家面包店工作，每天早上五点起床",
        "My manager prefers short status updates",
        "Deploy the service with docker compose on Monday",
    ],
    "pets": [
        "My cat is called Miso and sleeps all day",
        "The dog chased the cat around the garden",
        "我的猫叫味噌，它很喜欢晒太阳",
        "Miso knocked a cup of tea off the table",
        "We adopted a second cat named Tofu",
    ],
}

QUERIES = [
    "where did I move",
    "peanut allergy",
    "花生",
    "cat named Miso",
    "猫 晒太阳",
    "job at the bakery",
    "trip to Kyoto in autumn",
    "tea",
    "面包店 工作",
    "docker deploy",
]

FILTERS: list[dict[str, Any] | None] = [
    None,
    {"topic": "food"},
    {"topic": {"$in": ["pets", "travel"]}},
    {"round": {"$gte": 2}},
    {"timestamp": {"$lt": (T0 + timedelta(days=20)).isoformat()}},
]

MODES = {
    "lexical": {"dense_weight": 0.0},
    "vector": {"lexical_weight": 0.0},
    "hybrid": {},
}


def _write(mm: MemoryManager) -> None:
    n = 0
    for rnd in range(4):
        for topic, texts in TOPICS.items():
            for i, text in enumerate(texts):
                for user in ("alice", "bob"):
                    mm.add_message(
                        user,
                        f"{topic}-{rnd % 2}",
                        "user" if i % 2 == 0 else "assistant",
                        f"{text} ({user} round {rnd})",
                        timestamp=T0 + timedelta(days=n // 4, minutes=n),
                        message_id=f"{user}-{topic}-{rnd}-{i}",
                        metadata={"topic": topic, "round": rnd, "i": i},
                    )
                    n += 1
    mm.flush()


def _searches(mm: MemoryManager, user: str) -> dict[tuple[str, int], list[tuple[str, float]]]:
    out = {}
    for query in QUERIES:
        for fi, flt in enumerate(FILTERS):
            hits = mm.search(user, query, k=10, filter=flt)
            # never another user's memory (a long-term entry cites the user's messages)
            assert all(s.startswith(user) for h in hits for s in h.source_ids or [h.id])
            out[(query, fi)] = [(h.id, h.score) for h in hits]
    return out


def _forget(mm: MemoryManager) -> tuple[int, list[tuple[str, float]]]:
    """Complete tasks of different importance and run the forget gate a year later."""
    summaries = {}
    for i, (outcome, trigger) in enumerate(
        [
            ("success", "user_request"),
            ("failed", "alert"),
            ("partial", "scheduled"),
            ("success", "scheduled"),
            ("failed", "user_request"),
        ]
    ):
        tid = mm.tasks.start("alice", "ops", f"task number {i}")
        step = mm.tasks.step("alice", tid, f"step of task {i}", tool_name="shell")
        mm.tasks.update_step("alice", tid, step, status="completed", result="done")
        ep = mm.tasks.complete(
            "alice",
            tid,
            outcome=outcome,
            summary=f"summary {i}",
            trigger_type=trigger,
            pinned=i == 3,
        )
        summaries[ep.id] = f"summary {i}"
    mm.flush()  # the background writes each episode's lesson before the gate runs
    report = mm.maintenance.forget(now=datetime.now(timezone.utc) + timedelta(days=365))
    gone = sorted((summaries[eid], round(score, 9)) for eid, score, _ in report.forgotten)
    return report.scored, gone


def _run(backend: MemoryBackend, mode: str) -> dict[str, Any]:
    config = MemoryConfig.flat(**MODES[mode])
    with MemoryManager(backend=backend, embeddings=HashingEmbeddings(), config=config) as mm:
        _write(mm)
        result: dict[str, Any] = {"alice": _searches(mm, "alice"), "bob": _searches(mm, "bob")}
        assert mm.delete_user("bob") == 80
        result["bob-after-delete"] = _searches(mm, "bob")
        result["alice-after-delete"] = _searches(mm, "alice")
        result["forget"] = _forget(mm)
        result["stats"] = {k: v for k, v in mm.stats().items() if k not in ("backend", "path")}
    return result


def _overlap(got: list[tuple[str, float]], ref: list[tuple[str, float]]) -> float:
    if not ref:
        return 1.0 if not got else 0.0
    return len({i for i, _ in got} & {i for i, _ in ref}) / len(ref)


@pytest.mark.parametrize("mode", list(MODES))
def test_every_backend_matches_the_in_memory_reference(
    mode: str,
    backend_factories: dict[str, Callable[..., MemoryBackend]],
    make_backend: Callable[[str], MemoryBackend],
) -> None:
    assert "memory" in backend_factories and len(backend_factories) >= 2
    ref = _run(make_backend("memory"), mode)
    searches = [ref[u] for u in ("alice", "bob", "alice-after-delete")]
    assert sum(len(hits) for s in searches for hits in s.values()) > 300  # not vacuous
    assert all(hits == [] for hits in ref["bob-after-delete"].values())
    assert ref["forget"][0] == 5 and ref["forget"][1]  # the gate scored and forgot some
    for name in backend_factories:
        if name == "memory":
            continue
        got = _run(make_backend(name), mode)
        assert got["forget"] == ref["forget"], name
        assert got["stats"] == ref["stats"], name
        for part in ("alice", "bob", "bob-after-delete", "alice-after-delete"):
            for key, want in ref[part].items():
                have = got[part][key]
                if mode == "lexical":
                    assert [i for i, _ in have] == [i for i, _ in want], (name, part, key)
                    assert [s for _, s in have] == pytest.approx([s for _, s in want], abs=1e-12)
                else:
                    assert _overlap(have, want) >= OVERLAP, (name, part, key, have, want)
