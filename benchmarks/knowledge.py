"""Semantic memory: section recall over a generated Markdown corpus, versions, ingestion.

Usage:
    python benchmarks/knowledge.py [--pages 30] [--versioned 10] [--repeat 3]

The corpus is generated here (seeded): ``--pages`` product manuals, each an H1 with an
introduction, four H2 chapters each with an introduction and two H3 sections
(``--pages`` x 13 sections; 390 by default). Every H3 section states facts of its own
(a port, a path, a schedule...) among sentences every section shares. ``--versioned``
pages get a version 2 that changes their port and backup schedule. Everything is added
as shared knowledge (``user_id=None``) to a SQLite memory with the default embedder
(MiniLMEmbeddings), and a user asks one question per H3 section, worded differently
from the section.

Prints, all measured in this run:
- section recall@5: the share of questions whose section (document and heading path) is
  among the first five hits of ``search(user, question, k=5, layers=["document"])``;
- archived hits: hits of an archived chunk (the versioned pages' version 1) among every
  question's hits, by default (goal: 0);
- right version cited: for the questions on a changed section, the share whose best hit
  of that section cites version 2 and holds its new value;
- ingestion throughput: chunks per second from the first ``add_document`` to the end of
  ``flush()`` (chunks split, gated, stored, indexed and embedded by the background
  worker), divided by the same model embedding the same chunk texts in one call (timed
  before and after the ingestion, pooled); ``--repeat`` fresh memories, the median.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from dataclasses import dataclass

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from langgraph_memory import MemoryManager  # noqa: E402
from langgraph_memory.embeddings import MiniLMEmbeddings  # noqa: E402

CHAPTERS = {
    "Installation": ("Requirements", "Upgrades"),
    "Configuration": ("Network", "Storage"),
    "Operations": ("Backups", "Monitoring"),
    "Security": ("Access Control", "Certificates"),
}
FILLER = (
    "This section applies to every deployment of the product. ",
    "Contact the platform team when something here is unclear. ",
    "Settings are read once at start-up and logged at info level. ",
)
SYLLABLES = "ka lo mi ra ven tor sel ush ar dri quo zen fal bri nox tal mer oss vin gar".split()
OSES = ("Debian 12", "Alpine 3.19", "Rocky Linux 9", "Ubuntu 24.04", "FreeBSD 14")
GROUPS = ("ops-core", "sre-oncall", "infra-admins", "db-owners", "edge-team", "root-council")
CAS = ("Vault PKI", "Let's Encrypt", "the corporate CA", "cert-manager", "Smallstep")


@dataclass
class Question:
    page: str
    headings: list[str]
    text: str
    answer: str
    versioned: bool = False


def pseudo_name(rng: random.Random, used: set[str]) -> str:
    """A made-up name of three syllables, not in ``used`` (added to it)."""
    while True:
        name = "".join(rng.choice(SYLLABLES) for _ in range(3)).capitalize()
        if name not in used:
            used.add(name)
            return name


def _facts(rng: random.Random, p: str, v2: bool = False) -> dict[str, tuple[str, str, str]]:
    """Per H3 section: (its text, a question on it, the answer's value)."""
    port = str(rng.randrange(2000, 9999) + (11 if v2 else 0))
    hour = f"{rng.randrange(0, 6) + (12 if v2 else 0):02d}:{rng.choice(['00', '15', '30'])}"
    gb, days, keep, every = rng.randrange(2, 64), rng.randrange(20, 90), rng.randrange(7, 60), 3
    tool = f"{p.lower()}-prepare-{rng.randrange(10, 99)}.sh"
    path = f"/metrics/{p.lower()}/{rng.randrange(100, 999)}"
    data_dir = f"/srv/{p.lower()}/data{rng.randrange(1, 9)}"
    group, ca, os_ = rng.choice(GROUPS), rng.choice(CAS), rng.choice(OSES)
    return {
        "Requirements": (
            f"{p} needs at least {gb} GB of memory and runs on {os_}.",
            f"How much RAM should a {p} host have?",
            f"{gb} GB",
        ),
        "Upgrades": (
            f"Before upgrading {p}, stop the worker daemon and run the {tool} script.",
            f"What must I run before I upgrade {p}?",
            tool,
        ),
        "Network": (
            f"{p} listens on port {port} by default; change it with the bind_port setting.",
            f"Which TCP port does {p} use out of the box?",
            port,
        ),
        "Storage": (
            f"{p} keeps its data under {data_dir} and compacts it every {every} hours.",
            f"In which directory are the files of {p} saved?",
            data_dir,
        ),
        "Backups": (
            f"Backups of {p} run nightly at {hour} and are kept for {keep} days.",
            f"At what time is {p} backed up?",
            hour,
        ),
        "Monitoring": (
            f"{p} exports its metrics at {path}; alert when queue depth exceeds 500.",
            f"Where can Prometheus scrape {p} metrics?",
            path,
        ),
        "Access Control": (
            f"Only members of the {group} group may administer {p}.",
            f"Who is allowed to do admin work on {p}?",
            group,
        ),
        "Certificates": (
            f"The TLS certificates of {p} rotate every {days} days through {ca}.",
            f"How often are {p} TLS certs renewed?",
            f"{days} days",
        ),
    }


def _page(rng: random.Random, p: str, facts: dict[str, tuple[str, str, str]]) -> str:
    lines = [f"# {p}", f"{p} is one of the services of the platform. {rng.choice(FILLER)}", ""]
    for chapter, sections in CHAPTERS.items():
        lines += [f"## {chapter}", f"How {p} handles {chapter.lower()}.", ""]
        for section in sections:
            filler = "".join(rng.sample(FILLER, 2))
            lines += [f"### {section}", facts[section][0] + " " + filler, ""]
    return "\n".join(lines)


def corpus(pages: int, versioned: int, seed: int = 7):
    """``(v1 pages, v2 pages, questions)``: pages as ``{id: markdown}``."""
    rng = random.Random(seed)
    used: set[str] = set()
    v1, v2, questions = {}, {}, []
    for i in range(pages):
        p = pseudo_name(rng, used)
        facts = _facts(random.Random(f"{seed}-{p}"), p)
        v1[p] = _page(random.Random(f"{seed}-{p}-page"), p, facts)
        if i < versioned:
            new = _facts(random.Random(f"{seed}-{p}"), p, v2=True)  # a new port and hour
            v2[p] = _page(random.Random(f"{seed}-{p}-page"), p, new)
            facts = new
        for chapter, sections in CHAPTERS.items():
            for section in sections:
                _, q, answer = facts[section]
                changed = p in v2 and section in ("Network", "Backups")
                questions.append(Question(p, [p, chapter, section], q, answer, changed))
    return v1, v2, questions


def ingest(model: MiniLMEmbeddings, v1: dict, v2: dict) -> tuple[MemoryManager, float, int]:
    """A fresh SQLite memory holding the corpus; returns it, the seconds and the chunks."""
    path = tempfile.mkdtemp(prefix="lgm-knowledge-")
    mm = MemoryManager(path, embeddings=model)
    mm.embeddings.embed_query("warm up")
    t0 = time.perf_counter()
    chunks = 0
    for p, text in v1.items():
        chunks += mm.documents.add(None, text, document_id=p, version="1").chunks
    for p, text in v2.items():
        chunks += mm.documents.add(None, text, document_id=p, version="2").chunks
    mm.flush()
    return mm, time.perf_counter() - t0, chunks


def chunk_texts(mm: MemoryManager, ids: list[str]) -> list[str]:
    """The texts the worker embedded (every version's chunks)."""
    docs = mm._parts.documents  # noqa: SLF001 - the benchmark reads what was indexed
    return [c.text() for p in ids for c in docs.chunks(None, p)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=int, default=30)
    ap.add_argument("--versioned", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    v1, v2, questions = corpus(args.pages, args.versioned)
    sections = args.pages * (1 + len(CHAPTERS) + sum(len(s) for s in CHAPTERS.values()))
    print(f"corpus: {len(v1)} pages, {sections} sections, {len(v2)} with a version 2; "
          f"{len(questions)} questions")  # fmt: skip
    model = MiniLMEmbeddings()
    model.embed_documents(["warm up"] * 8)
    ratios, runs = [], []
    texts: list[str] = []
    raw_s: list[float] = []
    mm = None
    for r in range(args.repeat):
        if mm is not None:
            mm.close()
        if texts:
            t = time.perf_counter()
            model.embed_documents(texts)
            raw_s.append(time.perf_counter() - t)
        mm, seconds, chunks = ingest(model, v1, v2)
        if not texts:
            texts = chunk_texts(mm, list(v1))
            assert len(texts) == chunks, (len(texts), chunks)
        t = time.perf_counter()
        model.embed_documents(texts)
        raw_s.append(time.perf_counter() - t)
        raw = len(texts) / statistics.mean(raw_s[-2:])
        ingest_rate = chunks / seconds
        ratios.append(ingest_rate / raw)
        runs.append((ingest_rate, raw))
        print(f"run {r + 1}: {chunks} chunks, ingestion {ingest_rate:.0f} chunks/s, "
              f"raw {raw:.0f} texts/s, ratio {ratios[-1]:.3f}")  # fmt: skip
    assert mm is not None
    found, archived, hits_total, cited, changed = 0, 0, 0, 0, 0
    for q in questions:
        hits = mm.search("reader", q.text, k=5, layers=["document"])
        hits_total += len(hits)
        archived += sum(h.metadata.get("status") != "active" for h in hits)
        match = [
            h
            for h in hits
            if h.metadata.get("document_id") == q.page and h.metadata.get("headings") == q.headings
        ]
        found += bool(match)
        if q.versioned:
            changed += 1
            if match and match[0].metadata["version"] == "2" and ", v2]" in match[0].text:
                cited += q.answer in match[0].text
    mm.close()
    print(f"section recall@5: {found / len(questions):.3f} ({found}/{len(questions)})")
    print(f"archived hits by default: {archived} of {hits_total}")
    print(f"right version cited: {cited / max(changed, 1):.3f} ({cited}/{changed})")
    print(f"ingestion / raw embedding: median {statistics.median(ratios):.3f} "
          f"({', '.join(f'{x:.3f}' for x in ratios)})")  # fmt: skip


if __name__ == "__main__":
    main()
