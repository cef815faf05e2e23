"""The long writes are all or nothing under SIGKILL, and resume to the same end.

Three operations beside deletion (``tests/test_atomic_deletion.py``) change many rows
at once: adding a new version of a document (chunks written, the old version
archived), the background pass that embeds messages and extracts beliefs from them,
and consolidation of episodes into knowledge. A child process runs one of them over
a copy of a seeded SQLite store and is killed with SIGKILL at a random moment of it.
Reopening the store (and, for the background pass and consolidation, letting it
finish) must give exactly the state an unkilled run gives: a document at its old
version or at its new one, never a mix; every belief extracted once (no duplicate,
none missing); the same knowledge, each topic once. ``benchmarks/crash_writes.py``
runs the same check over many more kills.
"""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path
from typing import Any

import pytest
import sigkill

pytestmark = [pytest.mark.slow, pytest.mark.skipif(os.name != "posix", reason="needs SIGKILL")]

OPS = ("document", "extract", "consolidate")

#: Statements the rules extract beliefs from (facts, preferences, relations), in both
#: languages; numbered so that they are distinct messages.
STATEMENTS = (
    "I live in Lyon near the old town.",
    "My sister Marie works at Airbus in Toulouse.",
    "I prefer green tea over coffee in the morning.",
    "I'm allergic to peanuts.",
    "I work at Acme as a data engineer.",
    "我住在上海浦东。",
    "我喜欢吃海鲜。",
    "我女儿今年六岁了。",
)


def document(version: int, sections: int) -> str:
    parts = [f"# Guide v{version}"]
    for i in range(sections):
        parts.append(f"## Part {i}\nStep {i} of version {version}: check valve {i} and gauge {i}.")
    return "\n\n".join(parts)


SEED = r"""
import os, sys, time
from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from tests.test_crash_writes import STATEMENTS, document

class Stalled(HashingEmbeddings):
    '''Embeds the model's probe, stalls on messages: the seed leaves them queued.'''
    def embed_documents(self, texts):
        if any("#" in t for t in texts):
            time.sleep(3600)
        return super().embed_documents(texts)

path = sys.argv[1]
with MemoryManager(path, embeddings=HashingEmbeddings()) as mm:
    mm.documents.add("ann", document(1, 6), document_id="guide")
    for i in range(240):
        mm.tasks.complete("ann", mm.tasks.start("ann", f"s{i % 3}", f"fix service {i % 40}"),
                          outcome="success" if i % 5 else "failed",
                          summary=f"restarted service {i % 40}", target=f"service-{i % 40}")
    for i in range(20):
        mm.add_message("bob", "s0", "user", f"Bob's note {i} about coffee.")
    mm.flush(timeout=300)
mm = MemoryManager(path, embeddings=Stalled())
for i in range(240):
    text = STATEMENTS[i % len(STATEMENTS)]
    mm.add_message("ann", f"s{i % 4}", "user", f"{text} #{i}")
os._exit(0)  # the messages are stored and queued; none is embedded or extracted
"""

CHILD = r"""
import sys, time
from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from tests.test_crash_writes import document
path, op = sys.argv[1], sys.argv[2]
mm = MemoryManager(path, embeddings=HashingEmbeddings())
print("GO", flush=True)
t = time.perf_counter()
if op == "document":
    mm.documents.add("ann", document(2, 120), document_id="guide")
elif op == "extract":
    mm.flush(timeout=600)
else:
    mm.maintenance.consolidate("ann")
print(f"DONE {time.perf_counter() - t:.4f}", flush=True)
mm.close()
"""


def seed(path: Path) -> None:
    """A store with Ann's document (version 1), 240 completed tasks over 40 targets
    and 240 queued messages holding statements, and Bob's 20 embedded messages."""
    sigkill.run(SEED, [str(path)])


def op_seconds(path: Path, op: str) -> float:
    """How long ``op`` takes over ``path`` in a child, unkilled (it is run)."""
    return sigkill.seconds(sigkill.run(CHILD, [str(path), op]))


def run_and_kill(path: Path, op: str, delay: float) -> bool:
    """Run ``op`` in a child over ``path`` and SIGKILL it ``delay`` s after it starts;
    returns whether it was killed before it finished."""
    return sigkill.run_and_kill(CHILD, [str(path), op], delay) is None


def state(path: Path, op: str) -> Any:
    """What ``op`` wrote, read back after reopening the store; the background pass and
    consolidation are let finish first (a killed one resumes)."""
    from langgraph_memory import MemoryManager
    from langgraph_memory.embeddings import HashingEmbeddings

    with MemoryManager(path, embeddings=HashingEmbeddings()) as mm:
        if op == "document":
            info = mm.documents.list("ann")
            (doc,) = [d for d in info if d.document_id == "guide"]
            return (
                doc.version,
                doc.chunks,
                [(v["version"], v["chunks"]) for v in doc.versions],
                [(c.body, c.status) for c in mm.documents.chunks("ann", "guide")],
                [c.status for c in mm.documents.chunks("ann", "guide", version="1")],
            )
        mm.flush(timeout=600)
        if op == "consolidate":
            mm.maintenance.consolidate("ann")
            return sorted(
                (
                    k.topic,
                    tuple(sorted(k.source_episodes)),
                    round(k.confidence, 6),
                    tuple(k.key_points),
                )
                for k in mm.tasks.knowledge("ann")
            )
        assert not mm.maintenance.failed("ann")
        facts = sorted(
            (f.id, f.subject_key, f.relation_key, f.object, f.superseded_by, tuple(f.source_ids))
            for f in mm.profile.facts("ann")
        )
        prefs = sorted(
            (p.id, p.key, str(p.value), tuple(p.source_ids)) for p in mm.profile.preferences("ann")
        )
        stats = mm.stats("ann")
        return facts, prefs, stats.get("messages"), stats.get("pending")


def reference(seeded: Path, work: Path, op: str) -> tuple[float, Any, Any]:
    """``op`` run unkilled over a copy of ``seeded``: how long it took, the state it
    ends in, and (for a document) the state before it."""
    full = work / f"{op}-full"
    shutil.copytree(seeded, full)
    took = op_seconds(full, op)
    want = state(full, op)
    before = None
    if op == "document":
        untouched = work / f"{op}-untouched"
        shutil.copytree(seeded, untouched)
        before = state(untouched, op)
    return took, want, before


def outcome(path: Path, op: str, want: Any, before: Any) -> str:
    """``"end"`` (the state of an unkilled run), ``"none"`` (the state before it: a
    document only, the other two resume) or ``"half-done"``."""
    got = state(path, op)
    if got == want:
        return "end"
    return "none" if before is not None and got == before else "half-done"


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("seed") / "mem"
    seed(path)
    return path


@pytest.mark.parametrize("op", OPS)
def test_a_long_write_killed_at_any_moment_ends_as_an_unkilled_one(
    seeded: Path, tmp_path: Path, op: str
) -> None:
    took, want, before = reference(seeded, tmp_path, op)
    if op == "document":
        assert want[0] == "2" and want[1] == 120 and before is not None and before[0] == "1"
    elif op == "extract":
        assert want[0] and want[1] and want[3] in (0, None)  # beliefs made, nothing left
    else:
        assert len(want) == 40
    rng = random.Random(11)
    outcomes = []
    for n in range(3):
        path = tmp_path / f"kill{n}"
        shutil.copytree(seeded, path)
        killed = run_and_kill(path, op, rng.uniform(0.0, took))
        outcomes.append((killed, outcome(path, op, want, before)))
    assert all(o != "half-done" for _, o in outcomes), outcomes
