"""What the library comparisons share: the LoCoMo data, synthetic chat messages made from
it, percentiles, timings in fresh interpreters, and installed sizes of distributions.

The data is ``../shared/bench/locomo_dev.json`` beside the repository (see
:data:`DEFAULT_DATA`); ``run.py --data PATH`` points elsewhere.
"""

from __future__ import annotations

import json
import os
import random
import re
import statistics
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import metadata
from pathlib import Path

#: The repository this folder sits in (benchmarks/libraries/ -> the root).
REPO = Path(__file__).resolve().parents[2]
#: LoCoMo, where the project keeps it: ``shared/bench`` beside the repository.
DEFAULT_DATA = REPO.parent / "shared" / "bench" / "locomo_dev.json"

_DIA_RE = re.compile(r"D\s*:?\s*(\d+)\s*:\s*(\d+)")
_data = DEFAULT_DATA

#: One LoCoMo turn: (dia_id, speaker, text, session number).
Turn = tuple[str, str, str, int]
#: One question: (question, gold dia_ids, category).
Question = tuple[str, list[str], int]
#: A message to store: (user, message id, session, text, terms).
Row = tuple[str, str, str, str, list[str]]


@dataclass(frozen=True)
class Conversation:
    """One LoCoMo sample: its turns in order and its questions of categories 1-4."""

    name: str
    turns: list[Turn]
    questions: list[Question]


def use_data(path: str | Path) -> None:
    """Read LoCoMo from ``path`` (exits with a message saying where to get it if missing)."""
    global _data
    p = Path(path).expanduser()
    if not p.is_file():
        raise SystemExit(
            f"LoCoMo data not found at {p}.\n"
            "These comparisons read ../shared/bench/locomo_dev.json beside the repository. "
            "Put it there, or get data/locomo10.json from the snap-research LoCoMo "
            "repository (CC BY-NC 4.0) and pass --data PATH."
        )
    _data = p


def normalise_evidence(evidence: Sequence[str]) -> list[str]:
    """Split malformed evidence strings ("D8:6; D9:17", "D:11:26") into dia_ids."""
    out: list[str] = []
    for ev in evidence:
        for m in _DIA_RE.finditer(ev):
            out.append(f"D{int(m.group(1))}:{int(m.group(2))}")
    return list(dict.fromkeys(out))


def turn_text(turn: dict) -> str:
    """A turn's text, with the caption of an image it shares."""
    caption = turn.get("blip_caption")
    return f"{turn['text']} [shares {caption}]" if caption else turn["text"]


@lru_cache(maxsize=2)
def _conversations(path: Path) -> tuple[Conversation, ...]:
    samples = json.loads(path.read_text("utf-8"))
    convs = []
    for sample in samples:
        conv = sample["conversation"]
        turns: list[Turn] = []
        n = 1
        while f"session_{n}" in conv:
            for t in conv[f"session_{n}"]:
                turns.append((t["dia_id"], t["speaker"], turn_text(t), n))
            n += 1
        qs: list[Question] = [
            (q["question"], normalise_evidence(q.get("evidence") or []), q["category"])
            for q in sample["qa"]
            if q.get("category") in (1, 2, 3, 4)
        ]
        convs.append(Conversation(sample.get("sample_id", str(len(convs))), turns, qs))
    return tuple(convs)


def load_conversations() -> list[Conversation]:
    """The LoCoMo conversations of the data file (see :func:`use_data`)."""
    return list(_conversations(_data))


def all_turn_texts() -> list[str]:
    return [t[2] for c in load_conversations() for t in c.turns]


def all_questions() -> list[Question]:
    return [q for c in load_conversations() for q in c.questions]


def synthetic_rows(turns: Sequence[Turn], n: int, seed: int, user: str, prefix: str) -> list[Row]:
    """``n`` messages of ``user`` made by varying the given turns: a turn, joined with a
    piece of another one (40%) or its words shuffled (20%), a numbered token added (30%),
    so the texts differ while the vocabulary and lengths stay chat-like; 20 a session."""
    from langgraph_memory.core.tokens import tokenize

    rng = random.Random(seed)
    texts = [t[2] for t in turns]
    out: list[Row] = []
    for i in range(n):
        a = texts[i % len(texts)]
        r = rng.random()
        if r < 0.4:
            b = texts[rng.randrange(len(texts))].split()
            a = a + " " + " ".join(b[: rng.randrange(1, max(2, len(b)))])
        elif r < 0.6:
            w = a.split()
            rng.shuffle(w)
            a = " ".join(w)
        if rng.random() < 0.3:
            a += f" item{rng.randrange(5000)}"
        out.append((user, f"{prefix}{i}", f"s{i // 20}", a, tokenize(a)))
    return out


def pct(values: Sequence[float], p: float) -> float:
    """The ``p``-th percentile (nearest rank)."""
    v = sorted(values)
    if not v:
        return float("nan")
    i = min(len(v) - 1, max(0, int(round(p / 100 * (len(v) - 1)))))
    return v[i]


def med(values: Sequence[float]) -> float:
    return statistics.median(values)


def subprocess_env(**extra: str) -> dict[str, str]:
    """This process's environment for a fresh interpreter, with the ``langgraph_memory``
    imported here first on its path (so both sides measure the same code)."""
    import langgraph_memory

    root = str(Path(langgraph_memory.__file__).resolve().parents[1])
    path = os.environ.get("PYTHONPATH", "")
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (root, path) if p), **extra}


def fresh_python(code: str, *args: str, env: dict[str, str] | None = None) -> str:
    """Run ``code`` in a fresh interpreter; its last line of output (exits on failure)."""
    p = subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        env=env or subprocess_env(),
        check=False,
    )
    if p.returncode:
        raise SystemExit(f"a fresh interpreter failed:\n{p.stderr[-2000:]}")
    return p.stdout.strip().splitlines()[-1]


def import_seconds(cases: Sequence[tuple[str, str, str]], repeat: int) -> dict[str, float]:
    """Median seconds of each ``(label, pre, stmt)``: ``stmt`` timed inside a fresh
    interpreter after ``pre`` ran untimed; cases interleaved, one warm-up round."""
    vals: dict[str, list[float]] = {label: [] for label, _, _ in cases}
    for i in range(repeat + 1):
        for label, pre, stmt in cases:
            code = f"{pre}\nimport time\nt=time.perf_counter()\n{stmt}\n"
            code += "print(time.perf_counter()-t)"
            out = fresh_python(code)
            if i:
                vals[label].append(float(out))
    return {k: statistics.median(v) for k, v in vals.items()}


def dist_size(name: str) -> int:
    """Bytes of the files an installed distribution lists (its RECORD)."""
    dist = metadata.distribution(name)
    total = 0
    for f in dist.files or []:
        p = Path(str(dist.locate_file(f)))
        if p.is_file():
            total += p.stat().st_size
    return total


def dep_closure(name: str) -> list[str]:
    """The installed distributions ``name`` pulls in (itself included), by their
    unconditional requirements (extras and markers that do not apply are skipped)."""
    from packaging.requirements import Requirement

    seen: dict[str, str | None] = {}
    todo = [name]
    while todo:
        n = todo.pop()
        key = n.lower().replace("_", "-")
        if key in seen:
            continue
        try:
            dist = metadata.distribution(n)
        except metadata.PackageNotFoundError:
            seen[key] = None
            continue
        seen[key] = dist.metadata["Name"]
        for r in dist.requires or []:
            req = Requirement(r)
            if req.marker is not None and not req.marker.evaluate({"extra": ""}):
                continue
            todo.append(req.name)
    return [v for v in seen.values() if v]


#: What the default install (``[embed]``) brings: the package's dependencies and ORT.
BASE = [
    "langchain-core",
    "langchain-text-splitters",
    "langgraph",
    "pydantic",
    "numpy",
    "jieba",
    "threadpoolctl",
    "onnxruntime",
]


def added_footprint(name: str) -> tuple[int, int, list[str]]:
    """(own bytes, bytes of its closure that the default install lacks, those names)."""
    have: set[str] = set()
    for b in BASE:
        have.update(x.lower().replace("_", "-") for x in dep_closure(b))
    names = [n for n in dep_closure(name) if n.lower().replace("_", "-") not in have]
    return dist_size(name), sum(dist_size(n) for n in names), names


def missing(module: str) -> bool:
    """Whether ``module`` cannot be imported here (checked without importing it)."""
    from importlib.util import find_spec

    return find_spec(module) is None
