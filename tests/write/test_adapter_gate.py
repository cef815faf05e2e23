"""Every write of the graph adapters goes through the sensitivity gate: store items
(``MemoryStore.put``), core blocks (the memory tools and ``set_core_block``) and tasks
(request, context, steps, results, the episode's summary, target and tags). The raw
SQLite files are grepped for every secret, as for messages."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_sensitivity_storage import MESSAGES, SECRETS, _leaks, _raw

from langgraph_memory import MemoryConfig, MemoryManager, MemoryStore
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.integrations.graph.tools import create_memory_tools, set_core_block
from langgraph_memory.sensitivity.policy import SensitiveContentError


def _write_through_adapters(mm: MemoryManager) -> dict[str, str]:
    """Write every secret through each adapter path; returns ids to look things up by."""
    store = MemoryStore(mm)
    for i, text in enumerate(MESSAGES):
        store.put(("memories", "alice"), f"note-{i}", {"text": text, "tags": [SECRETS["aws"]]})
    tools = {t.name: t for t in create_memory_tools(mm, user_id="alice")}
    for text in MESSAGES[:4]:
        tools["core_memory_append"].invoke({"label": "human", "content": text})
    tools["core_memory_replace"].invoke(
        {"label": "human", "old_content": "My email", "new_content": f"Mail {SECRETS['email']}"}
    )
    set_core_block(mm, "alice", "persona", " ".join(MESSAGES[4:]))
    tid = mm.tasks.start(
        "alice", "s1", MESSAGES[0], context={"login": f"password: {SECRETS['password']}"}
    )
    i = mm.tasks.step("alice", tid, MESSAGES[3], tool_name="shell", args={"key": SECRETS["openai"]})
    mm.tasks.update_step("alice", tid, i, status="completed", result=MESSAGES[4])
    ep = mm.tasks.complete(
        "alice",
        tid,
        summary=MESSAGES[5],
        target=f"host {SECRETS['phone_intl']}",
        tags=[SECRETS["github"], PEM_LINE],
    )
    mm.anchors.add("alice", MESSAGES[1], metadata={"iban": SECRETS["iban"]})
    mm.flush(timeout=60)
    return {"task": tid, "episode": ep.id}


PEM_LINE = SECRETS["pem_body"]


def test_adapter_writes_leave_no_secret_on_disk(tmp_path: Path) -> None:
    directory = tmp_path / "mem"
    with MemoryManager(directory, embeddings=HashingEmbeddings()) as mm:  # default: redact
        ids = _write_through_adapters(mm)
        assert _leaks(_raw(directory)) == {}  # database + WAL while the store is open
        store = MemoryStore(mm)
        item = store.get(("memories", "alice"), "note-0")
        assert item is not None and "[EMAIL]" in item.value["text"]
        assert item.value["tags"] == ["[API_KEY]"]
        found = store.search(("memories", "alice"), query="email phone", limit=1)
        assert found and "[PHONE]" in found[0].value["text"]
        human = mm.items.core_block("alice", "human")
        assert "[EMAIL]" in human and "[CARD]" in human
        task = mm.tasks.get("alice", ids["task"])
        assert "[EMAIL]" in task.original_request and task.context == {
            "login": "password: [SECRET]"
        }
        assert task.steps[0].args == {"key": "[API_KEY]"}
        [episode] = mm.tasks.episodes("alice")
        assert episode.target == "host [PHONE]" and "[API_KEY]" in episode.tags
    assert _leaks(_raw(directory)) == {}  # and after close


def test_control_allow_policy_stores_what_the_adapters_were_given(tmp_path: Path) -> None:
    """Proves the grep sees each adapter's writes: with the gate off, every secret is on
    disk (each is written only through the adapters here)."""
    directory = tmp_path / "mem"
    cfg = MemoryConfig(write={"sensitivity": "allow"})  # type: ignore[arg-type]
    with MemoryManager(directory, embeddings=HashingEmbeddings(), config=cfg) as mm:
        _write_through_adapters(mm)
    assert set(_leaks(_raw(directory))) == set(SECRETS)


def test_refuse_policy_refuses_every_adapter_write(tmp_path: Path) -> None:
    directory = tmp_path / "mem"
    cfg = MemoryConfig(write={"sensitivity": {"card": "refuse"}})
    card = f"card {SECRETS['card']}"
    with MemoryManager(directory, embeddings=HashingEmbeddings(), config=cfg) as mm:
        store = MemoryStore(mm)
        with pytest.raises(SensitiveContentError, match="card"):
            store.put(("memories", "alice"), "k", {"text": card})
        assert store.get(("memories", "alice"), "k") is None
        tools = {t.name: t for t in create_memory_tools(mm, user_id="alice")}
        answer = tools["core_memory_append"].invoke({"label": "human", "content": card})
        assert answer.startswith("Error: nothing was changed") and "card" in answer
        assert mm.items.core_block("alice", "human") == ""
        with pytest.raises(SensitiveContentError):
            set_core_block(mm, "alice", "persona", card)
        with pytest.raises(SensitiveContentError, match="request"):
            mm.tasks.start("alice", "s1", card)
        tid = mm.tasks.start("alice", "s1", "fine")
        with pytest.raises(SensitiveContentError, match="description"):
            mm.tasks.step("alice", tid, card)
        with pytest.raises(SensitiveContentError, match="summary"):
            mm.tasks.complete("alice", tid, summary=card)
        assert (
            mm.tasks.get("alice", tid).steps == []
            and mm.tasks.get("alice", tid).status == "in_progress"
        )
    data = _raw(directory)
    assert SECRETS["card"].encode() not in data
    assert SECRETS["card"].replace(" ", "").encode() not in data
