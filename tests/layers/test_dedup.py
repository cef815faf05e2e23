"""Write-gate dedup of extracted facts: the same text, then cosine > 0.95 within 7 days."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta, timezone

import numpy as np
import pytest

from langgraph_memory import MemoryConfig, MemoryManager
from langgraph_memory.config import LongTermSection
from langgraph_memory.layers.long_term.memory import LongTermMemory
from langgraph_memory.storage import InMemoryBackend

T0 = datetime(2024, 5, 1, tzinfo=timezone.utc)


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


def table_embed(table: dict[str, list[float]]):
    """Embeds from a lookup table (unknown texts: a vector of their own)."""
    calls: list[list[str]] = []

    def embed(texts: Sequence[str]) -> np.ndarray:
        calls.append(list(texts))
        rows = []
        for t in texts:
            if t in table:
                rows.append(table[t])
            else:
                v = np.zeros(4)
                v[hash(t) % 4] = 1.0
                rows.append(v)
        return np.asarray(rows, dtype=float)

    embed.calls = calls  # type: ignore[attr-defined]
    return embed


def make(embed=None, **cfg) -> tuple[LongTermMemory, Clock]:
    clock = Clock()
    return LongTermMemory(
        InMemoryBackend(), LongTermSection(**cfg), clock=clock, embed=embed
    ), clock


def test_same_text_refreshes_without_an_embedder() -> None:
    lt, clock = make()
    a = lt.facts.add_fact("u", "user", "likes", "green tea", source_ids=["m1"])
    clock.now += timedelta(days=1)
    b = lt.facts.add_fact("u", "User", "likes", "Green  Tea", source_ids=["m2"])
    assert b.id == a.id and b.source_ids == ["m1", "m2"] and b.updated_at == clock.now
    assert len(lt.facts.list_facts("u")) == 1


def test_near_duplicate_by_cosine_refreshes_the_old_fact() -> None:
    table = {
        "user likes green tea": [1.0, 0.0, 0.0, 0.0],
        "user likes green teas": [0.99, 0.1, 0.0, 0.0],  # cosine 0.995
        "user likes green apples": [0.8, 0.6, 0.0, 0.0],  # cosine 0.8
    }
    lt, clock = make(table_embed(table))
    a = lt.facts.add_fact("u", "user", "likes", "green tea", source_ids=["m1"], confidence=0.6)
    b = lt.facts.add_fact("u", "user", "likes", "green teas", source_ids=["m2"], confidence=0.9)
    assert b.id == a.id and b.source_ids == ["m1", "m2"] and b.confidence == 0.9
    c = lt.facts.add_fact("u", "user", "likes", "green apples", source_ids=["m3"])
    assert c.id != a.id
    assert sorted(f.object for f in lt.facts.list_facts("u")) == ["green apples", "green tea"]


def test_only_facts_within_the_window_absorb_a_duplicate() -> None:
    table = {"user likes green tea": [1.0, 0, 0, 0], "user likes green teas": [0.99, 0.1, 0, 0]}
    lt, clock = make(table_embed(table), dedup_window_days=7)
    a = lt.facts.add_fact("u", "user", "likes", "green tea")
    clock.now += timedelta(days=8)
    b = lt.facts.add_fact("u", "user", "likes", "green teas")
    assert b.id != a.id and len(lt.facts.list_facts("u")) == 2


def test_a_new_value_of_a_functional_relation_is_never_a_duplicate() -> None:
    same = [1.0, 0.0, 0.0, 0.0]  # even an embedder calling them identical
    lt, _ = make(table_embed({"user lives in Paris": same, "user lives in Paris 2": same}))
    paris = lt.facts.add_fact("u", "user", "lives_in", "Paris", valid_from=T0)
    later = lt.facts.add_fact("u", "user", "lives_in", "Paris 2", valid_from=T0 + timedelta(days=1))
    assert later.id != paris.id
    old = next(f for f in lt.facts.list_facts("u") if f.id == paris.id)
    assert old.superseded_by == later.id  # the contradiction is kept, not merged


def test_words_in_common_gate_the_embedder() -> None:
    embed = table_embed({})
    lt, _ = make(embed)
    lt.facts.add_fact("u", "user", "likes", "green tea")
    lt.facts.add_fact("u", "Bob", "works_at", "Acme Corp")  # no words in common: no embedding
    assert embed.calls == []  # type: ignore[attr-defined]


def test_another_users_fact_is_never_a_duplicate() -> None:
    lt, _ = make(table_embed({}))
    a = lt.facts.add_fact("u1", "user", "likes", "green tea")
    b = lt.facts.add_fact("u2", "user", "likes", "green tea")
    assert a.id != b.id and len(lt.facts.list_facts("u1")) == len(lt.facts.list_facts("u2")) == 1


@pytest.mark.slow
def test_manager_dedups_paraphrased_facts_with_the_real_model(tmp_path) -> None:
    with MemoryManager(tmp_path, config=MemoryConfig(long_term={"dedup_threshold": 0.95})) as mm:
        a = mm._longterm.facts.add_fact("u", "user", "likes", "green tea", source_ids=["m1"])
        b = mm._longterm.facts.add_fact("u", "user", "likes", "green teas", source_ids=["m2"])
        c = mm._longterm.facts.add_fact(
            "u", "user", "enjoys", "hiking in the Alps", source_ids=["m3"]
        )
        assert b.id == a.id and c.id != a.id
        assert [f.source_ids for f in mm._longterm.facts.list_facts("u") if f.id == a.id] == [
            ["m1", "m2"]
        ]


def test_config_validates_dedup_fields() -> None:
    with pytest.raises(ValueError, match="dedup_threshold"):
        MemoryConfig(long_term={"dedup_threshold": 1.5})
    with pytest.raises(ValueError, match="dedup_window_days"):
        MemoryConfig(long_term={"dedup_window_days": -1.0})
    with pytest.raises(ValueError, match="dedup_threshold"):
        LongTermSection(dedup_threshold=-0.1)


def test_dedup_embeddings_leave_nothing_in_the_cache_table(tmp_path) -> None:
    """Fact texts embedded for dedup are cached in the process only: the persistent
    cache holds message vectors, which ``delete_user`` finds again and removes."""
    import sqlite3

    from langgraph_memory.embeddings import HashingEmbeddings

    with MemoryManager(tmp_path, embeddings=HashingEmbeddings()) as mm:
        misses = mm.embeddings.cache_misses
        mm._longterm.facts.add_fact("u", "user", "likes", "green tea", source_ids=["m1"])
        mm._longterm.facts.add_fact("u", "user", "likes", "green teas", source_ids=["m2"])
        assert mm.embeddings.cache_misses > misses  # the dedup did embed
        mm.flush()
        db = mm.path
        assert db is not None
        with sqlite3.connect(db) as con:
            assert con.execute("SELECT COUNT(*) FROM embedding_cache").fetchone()[0] == 0
