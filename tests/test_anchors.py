"""Session anchors: instructions that ride along, per session or for every session of a user."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from langgraph_memory import MemoryConfig, MemoryManager, SensitiveContentError
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.layers.working.tasks import ANCHOR_KIND, Anchor


def texts(anchors: list[Anchor]) -> list[str]:
    return [a.text for a in anchors]


def test_session_and_user_wide_anchors_in_insertion_order(mm: MemoryManager) -> None:
    a1 = mm.add_anchor("ann", "Answer in French.")
    a2 = mm.add_anchor("ann", "Use metric units.", session_id="s1")
    a3 = mm.add_anchor("ann", "Be brief.", session_id="s2", anchor_id="brief")
    a4 = mm.add_anchor("ann", "Cite sources.", metadata={"origin": "settings"})
    assert a3 == "brief" and len({a1, a2, a3, a4}) == 4
    assert texts(mm.anchors("ann", "s1")) == [
        "Answer in French.",
        "Use metric units.",
        "Cite sources.",
    ]
    assert texts(mm.anchors("ann", "s2")) == ["Answer in French.", "Be brief.", "Cite sources."]
    assert texts(mm.anchors("ann", "s3")) == ["Answer in French.", "Cite sources."]
    assert texts(mm.anchors("ann")) == ["Answer in French.", "Cite sources."]  # user-wide only
    [first, _, last] = mm.anchors("ann", "s1")
    assert (first.id, first.user_id, first.session_id) == (a1, "ann", None)
    assert last.metadata == {"origin": "settings"} and first.created_at <= last.created_at


def test_same_id_replaces_and_keeps_its_place(mm: MemoryManager) -> None:
    mm.add_anchor("ann", "Answer in French.", anchor_id="lang")
    mm.add_anchor("ann", "Be brief.")
    assert mm.add_anchor("ann", "Answer in German.", anchor_id="lang") == "lang"
    assert texts(mm.anchors("ann", "s1")) == ["Answer in German.", "Be brief."]
    mm.add_anchor("ann", "Answer in Italian.", anchor_id="lang", session_id="s1")
    assert texts(mm.anchors("ann", "s1")) == ["Answer in Italian.", "Be brief."]
    assert texts(mm.anchors("ann", "s2")) == ["Be brief."]  # it moved to s1 only
    assert mm._backend.count_records(ANCHOR_KIND, "ann") == 2


def test_remove_anchor(mm: MemoryManager) -> None:
    aid = mm.add_anchor("ann", "Answer in French.")
    keep = mm.add_anchor("ann", "Be brief.", session_id="s1")
    assert mm.remove_anchor("bob", aid) is False  # another user's id removes nothing
    assert mm.remove_anchor("ann", aid) is True
    assert mm.remove_anchor("ann", aid) is False
    assert [a.id for a in mm.anchors("ann", "s1")] == [keep]


def test_users_are_isolated_even_with_the_same_anchor_id(mm: MemoryManager) -> None:
    mm.add_anchor("ann", "Ann's rule.", anchor_id="rule")
    mm.add_anchor("bob", "Bob's rule.", anchor_id="rule", session_id="s1")
    assert texts(mm.anchors("ann", "s1")) == ["Ann's rule."]
    assert texts(mm.anchors("bob", "s1")) == ["Bob's rule."]
    assert mm.anchors("carol", "s1") == []
    assert mm.remove_anchor("bob", "rule")
    assert texts(mm.anchors("ann", "s1")) == ["Ann's rule."]


def test_delete_user_removes_anchors(mm: MemoryManager) -> None:
    mm.add_anchor("ann", "Answer in French.")
    mm.add_anchor("ann", "Be brief.", session_id="s1")
    mm.add_anchor("bob", "Bob's rule.")
    mm.add_message("ann", "s1", "user", "hello")
    mm.delete_user("ann")
    assert mm.anchors("ann", "s1") == [] and mm.anchors("ann") == []
    assert mm._backend.count_records(ANCHOR_KIND, "ann") == 0
    assert texts(mm.anchors("bob", "s1")) == ["Bob's rule."]


def test_working_items_are_anchors_and_the_open_task(mm: MemoryManager) -> None:
    assert mm.working_items("ann", "s1") == ([], None)
    mm.add_anchor("ann", "Answer in French.")
    mm.add_anchor("ann", "Be brief.", session_id="s2")
    done = mm.start_task("ann", "s1", "restart nginx")
    mm.complete_task("ann", done, outcome="success", summary="restarted")
    assert mm.working_items("ann", "s1")[1] is None  # a completed task is no longer open
    tid = mm.start_task("ann", "s1", "rotate the logs")
    mm.start_task("ann", "s2", "other session's task")
    anchors, task = mm.working_items("ann", "s1")
    assert texts(anchors) == ["Answer in French."]
    assert task is not None and (task.id, task.original_request) == (tid, "rotate the logs")
    with pytest.raises(TypeError, match="session_id"):
        mm.working_items("ann", None)  # type: ignore[arg-type]


def test_anchors_persist_across_reopen(tmp_path: Path) -> None:
    path = tmp_path / "mem"
    with MemoryManager(path, embeddings=HashingEmbeddings()) as mm:
        mm.add_anchor("ann", "Answer in French.", anchor_id="lang", metadata={"n": 1})
        mm.add_anchor("ann", "Be brief.", session_id="s1")
    with MemoryManager(path, embeddings=HashingEmbeddings()) as mm:
        got = mm.anchors("ann", "s1")
        assert texts(got) == ["Answer in French.", "Be brief."]
        assert got[0].id == "lang" and got[0].metadata == {"n": 1}
        mm.add_anchor("ann", "Cite sources.")  # continues the order after reopening
        assert texts(mm.anchors("ann", "s1"))[-1] == "Cite sources."
        assert mm.remove_anchor("ann", "lang")
    with MemoryManager(path, embeddings=HashingEmbeddings()) as mm:
        assert texts(mm.anchors("ann", "s1")) == ["Be brief.", "Cite sources."]


@pytest.mark.parametrize(
    ("kwargs", "error", "field"),
    [
        ({"user_id": 3}, TypeError, "user_id"),
        ({"user_id": " "}, ValueError, "user_id"),
        ({"text": None}, TypeError, "text"),
        ({"text": "  "}, ValueError, "text"),
        ({"text": "x" * 101}, ValueError, "text"),
        ({"session_id": ""}, ValueError, "session_id"),
        ({"session_id": 5}, TypeError, "session_id"),
        ({"anchor_id": "a\nb"}, ValueError, "anchor_id"),
        ({"metadata": ["x"]}, TypeError, "metadata"),
        ({"metadata": {"x": {1, 2}}}, ValueError, "metadata"),
    ],
)
def test_bad_input_is_refused_and_nothing_is_stored(
    tmp_path: Path, kwargs: dict, error: type[Exception], field: str
) -> None:
    cfg = MemoryConfig(write={"max_content_chars": 100})
    with MemoryManager(tmp_path / "m", embeddings=HashingEmbeddings(), config=cfg) as mm:
        args = {"user_id": "ann", "text": "Be brief."} | kwargs
        user, text = args.pop("user_id"), args.pop("text")
        with pytest.raises(error, match=field):
            mm.add_anchor(user, text, **args)
        assert mm._backend.count_records(ANCHOR_KIND) == 0


def test_bad_ids_in_reads_and_removal(mm: MemoryManager) -> None:
    with pytest.raises(TypeError, match="user_id"):
        mm.anchors(None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="session_id"):
        mm.anchors("ann", "")
    with pytest.raises(ValueError, match="anchor_id"):
        mm.remove_anchor("ann", "")
    mm.close()
    with pytest.raises(RuntimeError, match="closed"):
        mm.add_anchor("ann", "Be brief.")


def test_sensitivity_gate_applies_to_anchors(tmp_path: Path) -> None:
    with MemoryManager(tmp_path / "a", embeddings=HashingEmbeddings()) as mm:
        mm.add_anchor(
            "ann", "Send reports to li.lei@example.com.", metadata={"cc": "x@example.org"}
        )
        [a] = mm.anchors("ann")
        assert a.text == "Send reports to [EMAIL]." and a.metadata == {"cc": "[EMAIL]"}
    cfg = MemoryConfig(write={"sensitivity": {"email": "refuse"}})
    with MemoryManager(tmp_path / "b", embeddings=HashingEmbeddings(), config=cfg) as mm:
        with pytest.raises(SensitiveContentError, match="text"):
            mm.add_anchor("ann", "Send reports to li.lei@example.com.")
        assert mm.anchors("ann") == []
    cfg = MemoryConfig(write={"sensitivity": "allow"})
    with MemoryManager(tmp_path / "c", embeddings=HashingEmbeddings(), config=cfg) as mm:
        mm.add_anchor("ann", "Send reports to li.lei@example.com.")
        assert texts(mm.anchors("ann")) == ["Send reports to li.lei@example.com."]


def test_async_twins(mm: MemoryManager) -> None:
    async def go() -> None:
        aid = await mm.aadd_anchor("ann", "Answer in French.", session_id="s1")
        assert texts(await mm.aanchors("ann", "s1")) == ["Answer in French."]
        anchors, task = await mm.aworking_items("ann", "s1")
        assert [a.id for a in anchors] == [aid] and task is None
        assert await mm.aremove_anchor("ann", aid)
        assert await mm.aanchors("ann", "s1") == []

    asyncio.run(go())
