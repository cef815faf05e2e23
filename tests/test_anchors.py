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
    a1 = mm.anchors.add("ann", "Answer in French.")
    a2 = mm.anchors.add("ann", "Use metric units.", session_id="s1")
    a3 = mm.anchors.add("ann", "Be brief.", session_id="s2", anchor_id="brief")
    a4 = mm.anchors.add("ann", "Cite sources.", metadata={"origin": "settings"})
    assert a3 == "brief" and len({a1, a2, a3, a4}) == 4
    assert texts(mm.anchors.list("ann", "s1")) == [
        "Answer in French.",
        "Use metric units.",
        "Cite sources.",
    ]
    assert texts(mm.anchors.list("ann", "s2")) == [
        "Answer in French.",
        "Be brief.",
        "Cite sources.",
    ]
    assert texts(mm.anchors.list("ann", "s3")) == ["Answer in French.", "Cite sources."]
    assert texts(mm.anchors.list("ann")) == ["Answer in French.", "Cite sources."]  # user-wide only
    [first, _, last] = mm.anchors.list("ann", "s1")
    assert (first.id, first.user_id, first.session_id) == (a1, "ann", None)
    assert last.metadata == {"origin": "settings"} and first.created_at <= last.created_at


def test_same_id_replaces_and_keeps_its_place(mm: MemoryManager) -> None:
    mm.anchors.add("ann", "Answer in French.", anchor_id="lang")
    mm.anchors.add("ann", "Be brief.")
    assert mm.anchors.add("ann", "Answer in German.", anchor_id="lang") == "lang"
    assert texts(mm.anchors.list("ann", "s1")) == ["Answer in German.", "Be brief."]
    mm.anchors.add("ann", "Answer in Italian.", anchor_id="lang", session_id="s1")
    assert texts(mm.anchors.list("ann", "s1")) == ["Answer in Italian.", "Be brief."]
    assert texts(mm.anchors.list("ann", "s2")) == ["Be brief."]  # it moved to s1 only
    assert mm._backend.count_records(ANCHOR_KIND, "ann") == 2


def test_remove_anchor(mm: MemoryManager) -> None:
    aid = mm.anchors.add("ann", "Answer in French.")
    keep = mm.anchors.add("ann", "Be brief.", session_id="s1")
    assert mm.anchors.remove("bob", aid) is False  # another user's id removes nothing
    assert mm.anchors.remove("ann", aid) is True
    assert mm.anchors.remove("ann", aid) is False
    assert [a.id for a in mm.anchors.list("ann", "s1")] == [keep]


def test_users_are_isolated_even_with_the_same_anchor_id(mm: MemoryManager) -> None:
    mm.anchors.add("ann", "Ann's rule.", anchor_id="rule")
    mm.anchors.add("bob", "Bob's rule.", anchor_id="rule", session_id="s1")
    assert texts(mm.anchors.list("ann", "s1")) == ["Ann's rule."]
    assert texts(mm.anchors.list("bob", "s1")) == ["Bob's rule."]
    assert mm.anchors.list("carol", "s1") == []
    assert mm.anchors.remove("bob", "rule")
    assert texts(mm.anchors.list("ann", "s1")) == ["Ann's rule."]


def test_delete_user_removes_anchors(mm: MemoryManager) -> None:
    mm.anchors.add("ann", "Answer in French.")
    mm.anchors.add("ann", "Be brief.", session_id="s1")
    mm.anchors.add("bob", "Bob's rule.")
    mm.add_message("ann", "s1", "user", "hello")
    mm.delete_user("ann")
    assert mm.anchors.list("ann", "s1") == [] and mm.anchors.list("ann") == []
    assert mm._backend.count_records(ANCHOR_KIND, "ann") == 0
    assert texts(mm.anchors.list("bob", "s1")) == ["Bob's rule."]


def test_the_open_task_of_a_session(mm: MemoryManager) -> None:
    assert (mm.anchors.list("ann", "s1"), mm.tasks.current("ann", "s1")) == ([], None)
    mm.anchors.add("ann", "Answer in French.")
    mm.anchors.add("ann", "Be brief.", session_id="s2")
    done = mm.tasks.start("ann", "s1", "restart nginx")
    mm.tasks.complete("ann", done, outcome="success", summary="restarted")
    assert mm.tasks.current("ann", "s1") is None  # a completed task is no longer open
    tid = mm.tasks.start("ann", "s1", "rotate the logs")
    mm.tasks.start("ann", "s2", "other session's task")
    anchors, task = mm.anchors.list("ann", "s1"), mm.tasks.current("ann", "s1")
    assert texts(anchors) == ["Answer in French."]
    assert task is not None and (task.id, task.original_request) == (tid, "rotate the logs")
    with pytest.raises(TypeError, match="session_id"):
        mm.tasks.current("ann", None)  # type: ignore[arg-type]


def test_anchors_persist_across_reopen(tmp_path: Path) -> None:
    path = tmp_path / "mem"
    with MemoryManager(path, embeddings=HashingEmbeddings()) as mm:
        mm.anchors.add("ann", "Answer in French.", anchor_id="lang", metadata={"n": 1})
        mm.anchors.add("ann", "Be brief.", session_id="s1")
    with MemoryManager(path, embeddings=HashingEmbeddings()) as mm:
        got = mm.anchors.list("ann", "s1")
        assert texts(got) == ["Answer in French.", "Be brief."]
        assert got[0].id == "lang" and got[0].metadata == {"n": 1}
        mm.anchors.add("ann", "Cite sources.")  # continues the order after reopening
        assert texts(mm.anchors.list("ann", "s1"))[-1] == "Cite sources."
        assert mm.anchors.remove("ann", "lang")
    with MemoryManager(path, embeddings=HashingEmbeddings()) as mm:
        assert texts(mm.anchors.list("ann", "s1")) == ["Be brief.", "Cite sources."]


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
            mm.anchors.add(user, text, **args)
        assert mm._backend.count_records(ANCHOR_KIND) == 0


def test_bad_ids_in_reads_and_removal(mm: MemoryManager) -> None:
    with pytest.raises(TypeError, match="user_id"):
        mm.anchors.list(None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="session_id"):
        mm.anchors.list("ann", "")
    with pytest.raises(ValueError, match="anchor_id"):
        mm.anchors.remove("ann", "")
    mm.close()
    with pytest.raises(RuntimeError, match="closed"):
        mm.anchors.add("ann", "Be brief.")


def test_sensitivity_gate_applies_to_anchors(tmp_path: Path) -> None:
    with MemoryManager(tmp_path / "a", embeddings=HashingEmbeddings()) as mm:
        mm.anchors.add(
            "ann", "Send reports to li.lei@example.com.", metadata={"cc": "x@example.org"}
        )
        [a] = mm.anchors.list("ann")
        assert a.text == "Send reports to [EMAIL]." and a.metadata == {"cc": "[EMAIL]"}
    cfg = MemoryConfig(write={"sensitivity": {"email": "refuse"}})
    with MemoryManager(tmp_path / "b", embeddings=HashingEmbeddings(), config=cfg) as mm:
        with pytest.raises(SensitiveContentError, match="text"):
            mm.anchors.add("ann", "Send reports to li.lei@example.com.")
        assert mm.anchors.list("ann") == []
    cfg = MemoryConfig(write={"sensitivity": "allow"})
    with MemoryManager(tmp_path / "c", embeddings=HashingEmbeddings(), config=cfg) as mm:
        mm.anchors.add("ann", "Send reports to li.lei@example.com.")
        assert texts(mm.anchors.list("ann")) == ["Send reports to li.lei@example.com."]


def test_async_twins(mm: MemoryManager) -> None:
    async def go() -> None:
        aid = await mm.aio.anchors.add("ann", "Answer in French.", session_id="s1")
        assert texts(await mm.aio.anchors.list("ann", "s1")) == ["Answer in French."]
        anchors = await mm.aio.anchors.list("ann", "s1")
        task = await mm.aio.tasks.current("ann", "s1")
        assert [a.id for a in anchors] == [aid] and task is None
        assert await mm.aio.anchors.remove("ann", aid)
        assert await mm.aio.anchors.list("ann", "s1") == []

    asyncio.run(go())
