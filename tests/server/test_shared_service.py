"""``graphs/shared_service.py``: two graphs in two processes share one service.

A real service (uvicorn in a thread, on loopback) over a SQLite store; process A (the
intake graph, ``recall_node``/``remember_node`` over ``RemoteMemory``) tells a fact;
process B (another graph — a ``create_agent`` agent with ``MemoryMiddleware`` — in a
separate Python process) recalls it; B with another tenant's key recalls nothing. Every
process has a bounded timeout.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from live_service import Tenants, serving

from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.integrations.server import create_app

pytestmark = pytest.mark.timeout(180)
EXAMPLE = Path(__file__).resolve().parents[2] / "graphs" / "shared_service.py"


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    root: Path = tmp_path_factory.mktemp("shared")
    tenants = Tenants(root)
    with MemoryManager(root / "mem", embeddings=HashingEmbeddings()) as mm:
        with serving(create_app(mm, keys=tenants.keys), log_level="warning") as url:
            yield {"url": url, "t": tenants, "mm": mm}


def _start(service: dict[str, Any], key: str, step: str, text: str) -> subprocess.Popen[str]:
    """Start one step of the example in a process of its own."""
    env = {**os.environ, "LANGGRAPH_MEMORY_URL": service["url"], "LANGGRAPH_MEMORY_API_KEY": key}
    env.pop("LANGGRAPH_MEMORY_PATH", None)
    return subprocess.Popen(
        [sys.executable, str(EXAMPLE), step, text, "--user", "alice"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _result(proc: subprocess.Popen[str]) -> dict[str, Any]:
    """The JSON line a step printed (waits at most two minutes)."""
    try:
        stdout, stderr = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:  # pragma: no cover - a hung process fails the test
        proc.kill()
        proc.communicate(timeout=30)
        raise
    assert proc.returncode == 0, stderr[-2000:]
    out: dict[str, Any] = json.loads(stdout.strip().splitlines()[-1])
    return out


def test_a_fact_told_to_one_process_is_recalled_by_another(service: dict[str, Any]) -> None:
    t = service["t"]
    told = "I'm allergic to peanuts, and I live in Lyon. 我喜欢喝龙井茶。"
    a = _result(_start(service, t.acme, "tell", told))
    assert "peanuts" not in a["memory_context"]  # nothing known before A told it
    # A has exited; B (acme's key) and B' (globex's key, the same user name) run side by side
    question = "Can you suggest a snack near home? 我喜欢喝什么茶？"
    b, other = (
        _result(p) for p in [_start(service, k, "ask", question) for k in (t.acme, t.globex)]
    )
    assert "peanuts" in b["memory_context"] and "Lyon" in b["memory_context"]
    assert "龙井" in b["memory_context"]
    assert b["reply"]  # the agent answered
    assert "peanuts" not in other["memory_context"] and "Lyon" not in other["memory_context"]
    assert "龙井" not in other["memory_context"]
    # both processes wrote to the service's store, under acme's alice only
    mm: MemoryManager = service["mm"]
    assert mm.stats("acme:alice")["messages"] >= 4  # A's exchange and B's
    assert mm.stats("alice")["messages"] == 0
    assert mm.stats("globex:alice")["messages"] == 2  # only the globex run's own exchange
