"""Ownership by construction: every ``MemoryStore`` item belongs to the user its
namespace names (``WriteSection.store_owner_label``) or is shared; ``delete_user``
deletes what a user owns, never by matching a label anywhere in a namespace."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import pytest

from langgraph_memory import MemoryConfig, MemoryManager, MemoryStore
from langgraph_memory.core.records import Record
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.parts.items import STORE_KIND, store_scope
from langgraph_memory.storage import MemoryBackend


def _keys(store: MemoryStore, prefix: tuple[str, ...]) -> set[tuple[tuple[str, ...], str]]:
    return {(tuple(i.namespace), i.key) for i in store.search(prefix, limit=100)}


def _fill(store: MemoryStore) -> None:
    for user in ("alice", "bob", "memories", "prefs"):
        store.put(("memories", user), "k", {"text": f"{user} likes tea"})
        store.put(("memories", user, "prefs"), "k", {"text": f"{user} prefers mornings"})
    store.put(("memories",), "shared", {"text": "everyone: office closes at 6"})
    store.put(("alice",), "root", {"text": "a namespace whose root is a user id"})
    store.put(("prefs", "memories"), "k", {"text": "memories's prefs, rooted elsewhere"})


def test_delete_user_deletes_only_what_the_user_owns(backend: MemoryBackend) -> None:
    with MemoryManager(backend=backend, embeddings=HashingEmbeddings()) as mm:
        store = MemoryStore(mm)
        _fill(store)
        everything = _keys(store, ())
        assert len(everything) == 11
        mm.delete_user("memories")  # a label of every user's namespace
        gone = {(("memories", "memories"), "k"), (("memories", "memories", "prefs"), "k")}
        gone.add((("prefs", "memories"), "k"))  # owned by "memories" (label 1)
        assert _keys(store, ()) == everything - gone
        mm.delete_user("prefs")  # a label of other users' namespaces, at position 2
        gone |= {(("memories", "prefs"), "k"), (("memories", "prefs", "prefs"), "k")}
        assert _keys(store, ()) == everything - gone
        mm.delete_user("alice")
        gone |= {(("memories", "alice"), "k"), (("memories", "alice", "prefs"), "k")}
        assert _keys(store, ()) == everything - gone
        # shared items and a root that happens to be a user id are never a user's
        assert (("memories",), "shared") in _keys(store, ())
        assert (("alice",), "root") in _keys(store, ())
        assert _keys(store, ("memories", "bob")) == {
            (("memories", "bob"), "k"),
            (("memories", "bob", "prefs"), "k"),
        }


def test_an_owned_item_is_kept_with_its_user(tmp_path: Path) -> None:
    """The record of ("memories", "alice") items belongs to alice: the store's own
    delete_user removes it in the same transaction as the rest of her memory."""
    with MemoryManager(tmp_path, embeddings=HashingEmbeddings()) as mm:
        store = MemoryStore(mm)
        store.put(("memories", "alice"), "k", {"text": "tea"})
        store.put(("memories",), "shared", {"text": "tea for all"})
        owned = mm.items.get(("memories", "alice"), "k")
        shared = mm.items.get(("memories",), "shared")
        assert owned is not None and owned.user_id == "alice"
        assert shared is not None and shared.user_id == store_scope("memories")
        assert mm.items.owner(("memories", "alice", "x")) == "alice"
        assert mm.items.owner(("memories",)) is None


def test_the_owner_label_is_configured(backend: MemoryBackend) -> None:
    config = MemoryConfig(write={"store_owner_label": 0})  # ("{user_id}", "memories")
    with MemoryManager(backend=backend, embeddings=HashingEmbeddings(), config=config) as mm:
        store = MemoryStore(mm)
        store.put(("alice", "memories"), "k", {"text": "tea"})
        store.put(("bob", "memories"), "k", {"text": "coffee"})
        mm.delete_user("alice")
        assert _keys(store, ()) == {(("bob", "memories"), "k")}
    with pytest.raises(ValueError, match="store_owner_label"):
        MemoryConfig(write={"store_owner_label": -1})
    with pytest.raises(TypeError, match="store_owner_label"):
        MemoryConfig(write={"store_owner_label": "1"})


def test_no_owner_label_shares_every_item(backend: MemoryBackend) -> None:
    config = MemoryConfig(write={"store_owner_label": None})
    with MemoryManager(backend=backend, embeddings=HashingEmbeddings(), config=config) as mm:
        store = MemoryStore(mm)
        store.put(("memories", "alice"), "k", {"text": "tea"})
        mm.delete_user("alice")
        assert _keys(store, ()) == {(("memories", "alice"), "k")}


def test_items_written_before_owners_are_adopted_once(tmp_path: Path) -> None:
    """A store whose items were all kept under their root's scope (0.2): opening it moves
    each to its owner, once."""
    with MemoryManager(tmp_path, embeddings=HashingEmbeddings()) as mm:
        store = MemoryStore(mm)
        store.put(("memories", "alice"), "k", {"text": "tea"})
        store.put(("memories",), "shared", {"text": "tea for all"})
        rec = mm.items.get(("memories", "alice"), "k")
        assert rec is not None
        backend = mm._backend
        # as 0.2 kept it: under the root's scope
        backend.delete_records(STORE_KIND, [rec.id], "alice")
        now = datetime.now(timezone.utc)
        backend.put_record(Record(STORE_KIND, rec.id, store_scope("memories"), rec.data, now, now))
        backend.set_meta("store_items_owner_label", "")
    with MemoryManager(tmp_path, embeddings=HashingEmbeddings()) as mm:
        moved = mm.items.get(("memories", "alice"), "k")
        assert moved is not None and moved.user_id == "alice"
        assert json.loads(moved.id) == ["memories", "alice", "k"]
        assert mm.items.adopt() == 0  # once
        mm.delete_user("alice")
        assert mm.items.get(("memories", "alice"), "k") is None
        assert mm.items.get(("memories",), "shared") is not None
