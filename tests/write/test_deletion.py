"""Deletion complete: ``delete_user`` leaves nothing of the user, not the store items
under the user's namespaces nor the cache rows of a batch embedded while it ran."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path

import pytest
from langchain_core.embeddings import Embeddings

from langgraph_memory import MemoryConfig, MemoryManager, MemoryStore
from langgraph_memory.embeddings import CachedEmbeddings, HashingEmbeddings
from langgraph_memory.storage import InMemoryBackend, SQLiteBackend

WORKER = "langgraph-memory-embed"  # the worker's threads (the ones embedding ahead too)


class Slow(Embeddings):
    """HashingEmbeddings that take ``delay`` seconds per call on the worker's threads."""

    def __init__(self, delay: float) -> None:
        self.inner = HashingEmbeddings()
        self.model_id = "slow-hashing"
        self.delay = delay

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if threading.current_thread().name.startswith(WORKER):
            time.sleep(self.delay)
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        return self.inner.embed_query(text)


def _cache_hashes(path: Path) -> set[str]:
    with sqlite3.connect(path / "memory.sqlite3") as con:
        return {h for (h,) in con.execute("SELECT hash FROM embedding_cache")}


@pytest.mark.parametrize("run", range(20))
def test_delete_user_during_ingestion_leaves_no_cache_rows(tmp_path: Path, run: int) -> None:
    """A batch embedded ahead (outside the writer lease) while the user is deleted is
    dropped, not cached: no row of the embedding cache holds a deleted text's hash."""
    cfg = MemoryConfig(write={"embed_batch_size": 4})
    with MemoryManager(tmp_path, embeddings=Slow(0.05), config=cfg) as mm:
        gone = [f"gone note {run}-{i} about the lake" for i in range(40)]
        for i, text in enumerate(gone):
            mm.add_message("gone", "s1", "user", text)
            mm.add_message("stay", "s1", "user", f"stay note {run}-{i} about tea")
        deadline = time.monotonic() + 30
        while mm.stats("gone")["embedded"] < 4 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert mm.delete_user("gone") == 40
        mm.flush(timeout=120)
        assert mm.stats("stay")["embedded"] == 40
    wanted = {CachedEmbeddings.content_hash(t) for t in gone}
    assert not wanted & _cache_hashes(tmp_path)
    files = b"".join(f.read_bytes() for f in tmp_path.glob("memory.sqlite3*") if f.is_file())
    assert b"gone note" not in files and b"stay note" in files
    assert not any(h.encode() in files for h in wanted)
    kept = {CachedEmbeddings.content_hash(f"stay note {run}-{i} about tea") for i in range(40)}
    assert kept <= _cache_hashes(tmp_path)  # the other user's are cached as before


@pytest.mark.parametrize("backend_kind", ["memory", "sqlite"])
def test_delete_user_removes_the_store_items_the_user_owns(
    tmp_path: Path, backend_kind: str
) -> None:
    backend = InMemoryBackend() if backend_kind == "memory" else SQLiteBackend(tmp_path / "db")
    with MemoryManager(backend=backend, embeddings=HashingEmbeddings()) as mm:
        store = MemoryStore(mm)
        store.put(("memories", "alice"), "food", {"likes": "tea"})
        store.put(("memories", "alice", "prefs"), "theme", {"mode": "dark"})
        store.put(("alice", "prefs"), "theme", {"mode": "light"})  # owned by "prefs"
        store.put(("memories", "bob"), "food", {"likes": "coffee"})
        store.put(("shared",), "alice-notes", {"who": "alice"})  # a key, not a label
        mm.add_message("alice", "s1", "user", "hello")
        mm.flush()
        mm.delete_user("alice")
        assert store.get(("memories", "alice"), "food") is None
        assert store.get(("memories", "alice", "prefs"), "theme") is None
        assert store.search(("memories", "alice")) == []
        assert store.get(("memories", "bob"), "food").value == {"likes": "coffee"}
        assert store.get(("shared",), "alice-notes") is not None
        assert store.get(("alice", "prefs"), "theme") is not None
        assert sorted(store.list_namespaces()) == [
            ("alice", "prefs"),
            ("memories", "bob"),
            ("shared",),
        ]


SECRET = "The vault code is zebrafish-41 and it opens the red door in the basement."


def _everything(mm: MemoryManager, user: str) -> str:
    """Every record of the user, every context item and hit, as one text."""
    from langgraph_memory.layers.hierarchy.erasure import DERIVED_KINDS

    backend = mm._backend
    kinds = (*DERIVED_KINDS, "stm", "segment", "segment_pages")
    records = [r for k in kinds for r in backend.list_records(k, user)]
    ctx = mm.build_context(user, "s9", "vault code red door basement Maria Lyon", 4000)
    hits = mm.search(user, "vault code red door basement", k=50)
    parts = [json.dumps(r.data, ensure_ascii=False) for r in records]
    parts += [it.text + " " + " ".join(it.source_ids) for it in ctx.items]
    parts += [h.text + " " + " ".join(h.source_ids) for h in hits]
    return "\n".join(parts)


def test_delete_one_message_and_what_was_made_from_it(mm: MemoryManager) -> None:
    said = [
        ("user", "I love green tea in the morning."),
        ("assistant", "Green tea is a fine start."),
        ("user", "My sister Maria lives in Lyon."),
        ("assistant", "Lyon is lovely."),
        ("user", "From now on, always answer in French."),
        ("assistant", "D'accord."),
        ("user", SECRET),
        ("assistant", "I will keep that in mind."),
        ("user", "Maria called me about Lyon again."),
        ("assistant", "How is she?"),
    ]
    ids = [mm.add_message("ann", "s1", role, text) for role, text in said]
    mm.add_message("bob", "s1", "user", "The vault code is 1111 for bob.")
    mm.flush()
    before = _everything(mm, "ann")
    assert "zebrafish" in before and "answer in French" in before and "Maria" in before
    assert [e.name for e in mm.profile.entities("ann") if e.name == "Maria"]
    maria = ids[2]
    assert mm.delete("ann", [ids[6], ids[4], maria]) == 3
    assert mm.delete("ann", ids[6]) == 0  # already gone
    after = _everything(mm, "ann")
    assert "zebrafish" not in after and "vault" not in after.lower()
    assert "answer in French" not in after  # the instruction and its anchor
    for gone in (ids[6], ids[4], maria):
        assert gone not in after
    assert "Maria lives in Lyon" not in after
    # what another message supports stays, citing that one
    entity = {e.name: e for e in mm.profile.entities("ann")}
    assert "Lyon" in entity and [m[0] for m in entity["Lyon"].mentions] == [ids[8]]
    assert mm.anchors.list("ann") == []
    assert any(
        "green tea" in str(e.value).lower() for e in mm._longterm.profile.list_preferences("ann")
    )
    assert mm.stats("ann")["messages"] == 7 and mm.stats("bob")["messages"] == 1
    assert [h.id for h in mm.search("bob", "vault code", k=3)][:1] != []
    # the session reads on without the gaps
    recent = [m.id for m in mm._backend.session_messages("ann", "s1")]
    assert recent == [i for i in ids if i not in (ids[6], ids[4], maria)]
    with pytest.raises(ValueError, match="message_id"):
        mm.delete("ann", "")
    with pytest.raises(TypeError, match="message_id"):
        mm.delete("ann", 7)  # type: ignore[arg-type]


def test_deleted_message_leaves_nothing_in_the_sqlite_files(tmp_path: Path) -> None:
    with MemoryManager(tmp_path, embeddings=HashingEmbeddings()) as mm:
        keep = mm.add_message("ann", "s1", "user", "I love green tea in the morning.")
        secret = mm.add_message("ann", "s1", "user", SECRET)
        for i in range(30):
            mm.add_message("ann", f"s{i % 3}", "user", f"note {i} about the garden")
        mm.flush()
        assert mm.delete("ann", secret) == 1
        for i in range(5):  # writes go on afterwards
            mm.add_message("ann", "s1", "user", f"later note {i}")
        mm.flush()
        assert mm.search("ann", "green tea", k=1)[0].id == keep
    files = b"".join(f.read_bytes() for f in tmp_path.glob("memory.sqlite3*") if f.is_file())
    assert b"zebrafish" not in files and b"vault" not in files and b"basement" not in files
    assert CachedEmbeddings.content_hash(SECRET).encode() not in files
    assert b"green tea" in files


@pytest.mark.parametrize("run", range(20))
def test_delete_during_ingestion_leaves_no_trace(tmp_path: Path, run: int) -> None:
    cfg = MemoryConfig(write={"embed_batch_size": 4})
    with MemoryManager(tmp_path, embeddings=Slow(0.02), config=cfg) as mm:
        secret = mm.add_message("ann", "s1", "user", f"{SECRET} ({run})")
        for i in range(24):
            mm.add_message("ann", "s1", "user", f"ann note {run}-{i} about tea")
            mm.add_message("bob", "s1", "user", f"bob note {run}-{i} about coffee")
        assert mm.delete("ann", secret) == 1  # the worker is mid-queue
        mm.flush(timeout=120)
        assert mm.stats("ann")["messages"] == 24 and mm.stats("ann")["embedded"] == 24
    files = b"".join(f.read_bytes() for f in tmp_path.glob("memory.sqlite3*") if f.is_file())
    assert b"zebrafish" not in files and b"vault" not in files
    assert CachedEmbeddings.content_hash(f"{SECRET} ({run})").encode() not in files


@pytest.mark.parametrize("how", ["delete_user", "delete"])
def test_a_deletion_leaves_no_text_in_the_tokenizer(how: str) -> None:
    # add_message holds a queued message's terms by its text for the worker; a deletion
    # drops every text the tokenizer holds, so none of a deleted message stays in memory
    from langgraph_memory.core import tokens

    mm = MemoryManager(backend=InMemoryBackend(), embeddings=Slow(0.2))
    try:
        text = "my locker number at the climbing gym is 4471 " + "x" * 2100
        mid = mm.add_message("ann", "s", "user", text)  # long: past the recent-text cache
        assert any("4471" in held for held in tokens._queued)
        if how == "delete_user":
            mm.delete_user("ann")
        else:
            mm.delete("ann", mid)
        assert tokens._queued == {} and tokens._queued_chars == 0
        assert tokens._tokenize_cached.cache_info().currsize == 0
        mm.flush()
    finally:
        mm.close()


#: The package's ``lru_cache`` functions that hold no user text: files, tables, constants.
NOT_TEXTS = {
    "langgraph_memory.core.tokens.stopwords",
    "langgraph_memory.core.lexicon",  # the word lists (any function of the module)
    "langgraph_memory.core.records._field_kinds",
    "langgraph_memory.extraction.cues._twins",
    "langgraph_memory.storage.sqlite.wal._powers",
    "langgraph_memory.embeddings.minilm_onnx._tokenizer_spec",
}


def _package_caches() -> dict[str, object]:
    """Every ``lru_cache`` / ``cache`` function defined at the top of a module of the
    package (modules whose optional dependencies are missing are skipped)."""
    import importlib
    import pkgutil

    import langgraph_memory

    found: dict[str, object] = {}
    for info in pkgutil.walk_packages(langgraph_memory.__path__, "langgraph_memory."):
        try:
            module = importlib.import_module(info.name)
        except Exception:  # an integration whose extra is not installed
            continue
        for value in vars(module).values():
            if not (hasattr(value, "cache_clear") and hasattr(value, "cache_info")):
                continue
            name = f"{value.__module__}.{value.__qualname__}"
            if name.startswith("langgraph_memory."):
                found[name] = value
    return found


def test_every_cache_of_the_package_is_emptied_by_a_deletion_or_holds_no_text() -> None:
    from langgraph_memory.core.held_texts import registered

    caches = _package_caches()
    assert "langgraph_memory.core.tokens._tokenize_cached" in caches  # the walk works
    emptied = set(registered())
    for name in caches:
        if any(name == n or name.startswith(n + ".") for n in NOT_TEXTS):
            continue
        assert name in emptied, f"{name} caches texts a deletion does not drop"


@pytest.mark.parametrize("how", ["delete_user", "delete"])
def test_a_deletion_leaves_no_text_in_any_reader_cache(how: str) -> None:
    # the extraction's readers (sentences, cues, words, reactions, instructions), the
    # entry ranking's terms, the profile's keys: every cache of texts is emptied
    from langgraph_memory.extraction import cues

    caches = {
        n: c for n, c in _package_caches().items() if not any(n.startswith(x) for x in NOT_TEXTS)
    }
    mm = MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings())
    try:
        ids = [
            mm.add_message("ann", "s", "user", text)
            for text in (
                "I moved to Zorvath last spring. Please always answer in French!",
                "我搬到了佐尔瓦斯，以后回答都用中文。我不喜欢香菜。",
                "Wow, that's amazing! My manager is Quillon Brask.",
            )
        ]
        mm.flush()
        mm.build_context("ann", "s", "where do I live? who is my manager?", token_budget=400)
        assert any(c.cache_info().currsize for c in caches.values())  # they were used
        if how == "delete_user":
            mm.delete_user("ann")
        else:
            mm.delete("ann", ids)
        held = {n: c.cache_info().currsize for n, c in caches.items()}
        assert not any(held.values()), {n: k for n, k in held.items() if k}
        assert not cues._seen
        assert all(
            t._whole[0] == "" for lk in (cues._EXACT, cues._FOLDED) for t in (lk.ascii, lk.other)
        )
    finally:
        mm.close()
