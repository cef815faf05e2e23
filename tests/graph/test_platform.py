"""LangGraph Platform: a real ``langgraph dev`` server (langgraph-cli[inmem]) on loopback
serves the example graphs with this library as the deployment's store and checkpointer
(``langgraph.json``), driven through ``langgraph-sdk``."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from langgraph_memory import MemoryManager, MemoryStore
from langgraph_memory.embeddings import HashingEmbeddings

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow

sdk = pytest.importorskip("langgraph_sdk")
pytest.importorskip("langgraph_api")


def _absolute(path: str) -> str:
    return str(ROOT / path) if path.startswith("./") else path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    cli = shutil.which("langgraph") or str(Path(sys.executable).parent / "langgraph")
    if not Path(cli).exists():
        pytest.skip("langgraph-cli is not installed: pip install 'langgraph-cli[inmem]'")
    work = tmp_path_factory.mktemp("platform")
    memory = work / "memory"
    port = _free_port()
    env = {
        **os.environ,
        "LANGGRAPH_MEMORY_PATH": str(memory),
        "LANGGRAPH_MEMORY_EMBEDDINGS": "hashing",
        "LANGGRAPH_MEMORY_CHAT_MODEL": "",
        "LANGSMITH_TRACING": "false",
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",
    }
    # the repository's langgraph.json, its paths made absolute (the server resolves the
    # store's and checkpointer's paths against its working directory, kept out of the repo)
    config = json.loads((ROOT / "langgraph.json").read_text())
    config["graphs"] = {k: _absolute(v) for k, v in config["graphs"].items()}
    for key in ("store", "checkpointer"):
        config[key]["path"] = _absolute(config[key]["path"])
    (work / "langgraph.json").write_text(json.dumps(config))
    log = (work / "server.log").open("w")
    proc = subprocess.Popen(
        [
            cli,
            "dev",
            "--config",
            str(work / "langgraph.json"),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--no-browser",
            "--no-reload",
        ],
        cwd=work,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    client = sdk.get_sync_client(url=url)
    deadline = time.monotonic() + 120
    while True:
        try:
            client.assistants.search(limit=1)
            break
        except Exception:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                log.close()
                tail = (work / "server.log").read_text()[-4000:]
                raise RuntimeError(f"langgraph dev did not start:\n{tail}") from None
            time.sleep(0.5)
    try:
        yield url, memory
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def _ask(client: Any, thread: str, user: str, text: str) -> dict[str, Any]:
    return client.runs.wait(
        thread,
        "chat",
        input={"messages": [{"role": "user", "content": text}]},
        config={"configurable": {"user_id": user}},
    )


def test_recall_across_threads_isolation_and_the_platform_store(
    server: tuple[str, Path],
) -> None:
    url, memory = server
    client = sdk.get_sync_client(url=url)
    a, b, c = (client.threads.create()["thread_id"] for _ in range(3))
    _ask(client, a, "alice", "I'm allergic to peanuts and I live in Lyon.")
    deadline = time.monotonic() + 60
    while True:  # the server's worker indexes the message in the background
        state = _ask(client, b, "alice", "Which snacks should I avoid, given my allergy?")
        if "peanuts" in state.get("memory_context", "") or time.monotonic() > deadline:
            break
        time.sleep(1)
    assert "peanuts" in state["memory_context"]
    other = _ask(client, c, "bob", "Which snacks should I avoid, given my allergy?")
    assert "peanuts" not in other.get("memory_context", "")
    # the thread's checkpoints come from the custom checkpointer, which keeps them on disk
    history = client.threads.get_state(a)["values"]["messages"]
    assert any("peanuts" in m["content"] for m in history)
    assert (memory / "checkpoints.sqlite").exists()
    # the platform's store API reaches the same memory
    client.store.put_item(["memories", "alice"], "diet", {"text": "Alice is vegetarian"})
    found = client.store.search_items(["memories", "alice"], query="what does alice eat?")
    assert found["items"][0]["value"] == {"text": "Alice is vegetarian"}
    assert client.store.get_item(["memories", "alice"], "diet")["value"]["text"] == (
        "Alice is vegetarian"
    )
    with MemoryManager(memory, embeddings=HashingEmbeddings()) as mm:
        assert MemoryStore(mm).get(("memories", "alice"), "diet").value == {
            "text": "Alice is vegetarian"
        }
        assert any("peanuts" in h.text for h in mm.search("alice", "peanuts allergy", k=5))
        assert not any("peanuts" in h.text for h in mm.search("bob", "peanuts allergy", k=5))
