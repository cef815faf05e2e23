"""Evidence recall per memory ability under a token budget, on generated project chats.

Usage:
    python benchmarks/abilities.py [--seed 0] [--convs 4] [--budgets 1024 2048 4096]
    python benchmarks/abilities.py --convs 1 --limit-questions 9      # a quick smoke run
    python benchmarks/abilities.py --set routing=false --json abilities.json
    python benchmarks/abilities.py --sessions 6 --turns 80            # longer chats

The conversations come from our own seeded generator (``benchmarks/abilities_data.py``), a
stand-in for held-out project chats; nothing is downloaded. Each has four dated sessions
(days to weeks apart) of 50 user requests and 50 assistant replies, English and Chinese
in turn, about four projects (a web API, a data pipeline, a thesis, a mobile app). Most
requests are one-liners, some carry context or pasted code; replies are 300-1500 tokens
of explanation, lists and code. Planted among the user messages is the evidence for nine
abilities, three probing questions each per conversation:

- ``preference`` / ``instruction``: a stated taste or standing instruction, probed by a
  situation where it applies; the question shares no content word with the evidence;
- ``update``: a value that changes later; gold is the latest message only;
- ``contradiction``: a statement and a later one that contradicts it; gold is both;
- ``event_order``: three or four dated events on one topic; gold is all of them;
- ``summary``: four to eight messages on one topic; gold is all of them;
- ``multi_session``: a fact whose parts are said in different sessions;
- ``extraction`` / ``temporal``: one plain fact / one dated event.

Look-alike noise (other people's preferences, hypotheticals) is planted as well.

Protocol (as ``benchmarks/locomo_recall.py`` and ``../shared/bench/README.md``): every
message is written in order with its id, session and timestamp, then one ``flush``; for
each question and budget, ``build_context`` runs in a new session, and a gold message
counts as recalled when some context item's text carries at least half of its content
words. Tokens: a CJK character = 1, other text 4 characters = 1. Baselines in the same run
rank the raw messages by BM25, dense cosine (the same all-MiniLM-L6-v2) and their RRF and
pack them best-first. Printed: recall per ability, overall and per language (mean over
questions) and the tokens each system used; for langgraph_memory, each layer's share of
the credited evidence (the layer of the first context item carrying each credited gold
message) and of the context tokens; ingestion and query timings.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from abilities_data import ABILITIES, Conversation, Question, generate  # noqa: E402
from locomo_recall import Credit, pack_texts, percentile  # noqa: E402

from langgraph_memory import MemoryConfig, MemoryManager  # noqa: E402
from langgraph_memory.core.tokens import count_tokens, tokenize  # noqa: E402
from langgraph_memory.embeddings import MiniLMEmbeddings  # noqa: E402
from langgraph_memory.retrieval.bm25 import bm25_scores  # noqa: E402
from langgraph_memory.retrieval.fusion import rrf_fuse  # noqa: E402

SYSTEMS = ("langgraph_memory", "bm25", "dense", "rrf")
SHORT = {"langgraph_memory": "lgm", "bm25": "bm25", "dense": "dense", "rrf": "rrf"}


@dataclass
class Results:
    """Recall per (system, budget) of every question, and the layers that carried gold."""

    budgets: list[int]
    questions: list[dict] = field(default_factory=list)
    layer_count: dict[int, dict[str, int]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(int))
    )
    layer_tokens: dict[int, dict[str, int]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(int))
    )
    tokens: dict[tuple[str, int], list[int]] = field(default_factory=lambda: defaultdict(list))
    cold_ms: list[float] = field(default_factory=list)
    warm_ms: list[float] = field(default_factory=list)

    def mean(self, system: str, budget: int, keep: dict[str, str] | None = None) -> float:
        rows = [
            q["recall"][system][budget]
            for q in self.questions
            if all(q[k] == v for k, v in (keep or {}).items())
        ]
        return statistics.fmean(rows) if rows else float("nan")

    def count(self, keep: dict[str, str] | None = None) -> int:
        return sum(all(q[k] == v for k, v in (keep or {}).items()) for q in self.questions)


class LexicalIndex:
    """BM25 over one conversation's raw messages (the baseline's own postings)."""

    def __init__(self, texts: list[str]) -> None:
        self.postings: dict[str, list[tuple[int, int]]] = defaultdict(list)
        self.doc_len: dict[int, int] = {}
        for i, text in enumerate(texts):
            terms = tokenize(text)
            self.doc_len[i] = len(terms)
            counts: dict[str, int] = defaultdict(int)
            for term in terms:
                counts[term] += 1
            for term, tf in counts.items():
                self.postings[term].append((i, tf))
        self.avg_len = sum(self.doc_len.values()) / max(len(texts), 1)

    def rank(self, query: str) -> list[int]:
        scores = bm25_scores(
            {t: self.postings.get(t, []) for t in set(tokenize(query))},
            n_docs=len(self.doc_len),
            avg_len=self.avg_len,
            doc_len=self.doc_len,
        )
        return [i for i, _ in scores]


def baseline_rankings(
    index: LexicalIndex, vecs: np.ndarray, qv: np.ndarray, query: str
) -> dict[str, list[int]]:
    """Message indices best-first for BM25, dense cosine and their RRF (top 100 of each)."""
    bm = index.rank(query)
    dense = [int(i) for i in np.argsort(-(vecs @ qv), kind="stable")]
    rrf = [d for d, _, _ in rrf_fuse({"bm25": bm[:100], "dense": dense[:100]}, k=60)]
    return {"bm25": bm, "dense": dense, "rrf": rrf}


def interleave(questions: list[Question], limit: int) -> list[Question]:
    """Abilities taken in turn (so a small ``limit`` still covers each), at most ``limit``."""
    by_ability: dict[str, list[Question]] = defaultdict(list)
    for q in questions:
        by_ability[q.ability].append(q)
    rounds = max((len(v) for v in by_ability.values()), default=0)
    out = [by_ability[a][r] for r in range(rounds) for a in ABILITIES if r < len(by_ability[a])]
    return out[:limit] if limit else out


def parse_overrides(items: list[str]) -> dict:
    """``FIELD=VALUE`` pairs; VALUE is read as JSON when it parses, else as a string."""
    out = {}
    for item in items:
        name, _, value = item.partition("=")
        try:
            out[name] = json.loads(value)
        except json.JSONDecodeError:
            out[name] = value
    return out


def ingest(mm: MemoryManager, convs: list[Conversation]) -> tuple[float, list[float]]:
    """Write every message in order, then flush once: (seconds, add_message ms each)."""
    add_ms: list[float] = []
    start = time.perf_counter()
    for conv in convs:
        for m in conv.messages:
            a = time.perf_counter()
            mm.add_message(
                conv.id, m.session, m.role, m.text, timestamp=m.timestamp, message_id=m.id
            )
            add_ms.append((time.perf_counter() - a) * 1e3)
    mm.flush()
    return time.perf_counter() - start, add_ms


def contexts(
    mm: MemoryManager,
    conv: Conversation,
    q: Question,
    ranked: dict[str, list[int]],
    budget: int,
    results: Results,
) -> tuple[dict[str, list[str]], list[str]]:
    """Each system's context texts for one question at one budget, and the layer of each
    langgraph_memory item (records tokens used and layer tokens)."""
    texts = [m.text for m in conv.messages]
    a = time.perf_counter()
    ctx = mm.build_context(conv.id, f"{conv.id}-probe", q.text, token_budget=budget)
    first = budget == results.budgets[0]
    (results.cold_ms if first else results.warm_ms).append((time.perf_counter() - a) * 1e3)
    assert ctx.tokens <= budget, "context over budget"
    out = {"langgraph_memory": [it.text for it in ctx.items]}
    results.tokens["langgraph_memory", budget].append(ctx.tokens)
    for it in ctx.items:
        results.layer_tokens[budget][it.layer] += it.tokens
    for name, order in ranked.items():
        out[name] = pack_texts([texts[i] for i in order], budget)
        results.tokens[name, budget].append(sum(count_tokens(t) for t in out[name]))
    return out, [it.layer for it in ctx.items]


def evaluate_conversation(
    mm: MemoryManager,
    model: MiniLMEmbeddings,
    conv: Conversation,
    vecs: np.ndarray,
    results: Results,
    limit: int,
) -> None:
    """Every question of one conversation at every budget, for every system."""
    credit = Credit([{"dia_id": m.id, "text": m.text} for m in conv.messages])
    index = LexicalIndex([m.text for m in conv.messages])
    for q in interleave(conv.questions, limit):
        qv = np.asarray(model.embed_query(q.text), dtype=np.float32)
        ranked = baseline_rankings(index, vecs, qv, q.text)
        recall: dict[str, dict[int, float]] = {s: {} for s in SYSTEMS}
        for budget in results.budgets:
            items, layers = contexts(mm, conv, q, ranked, budget, results)
            for c in credit.carriers(q.gold, items["langgraph_memory"]):
                if c is not None:  # the layer of the first item carrying that gold message
                    results.layer_count[budget][layers[c]] += 1
            for name in SYSTEMS:
                recall[name][budget] = credit.carried(q.gold, items[name]) / len(q.gold)
        results.questions.append(
            {
                "conversation": conv.id,
                "lang": q.lang,
                "ability": q.ability,
                "question": q.text,
                "gold": q.gold,
                "recall": recall,
            }
        )


def recall_table(results: Results) -> str:
    """Rows: abilities, overall and per language; columns: budget x system."""
    cell = 6
    group = "  ".join(f"{SHORT[s]:>{cell}}" for s in SYSTEMS)
    width = len(group)
    lines = [
        f"{'':<16}{'n':>4}  " + " | ".join(f"{'@' + str(b):^{width}}" for b in results.budgets),
        f"{'ability':<16}{'':>4}  " + " | ".join(group for _ in results.budgets),
    ]
    rows: list[tuple[str, dict[str, str]]] = [(a, {"ability": a}) for a in ABILITIES]
    rows += [("overall", {}), ("  English", {"lang": "en"}), ("  Chinese", {"lang": "zh"})]
    for label, keep in rows:
        n = results.count(keep)
        if not n:
            continue
        cells = [
            "  ".join(f"{results.mean(s, b, keep):>{cell}.3f}" for s in SYSTEMS)
            for b in results.budgets
        ]
        if label == "overall":
            lines.append("-" * len(lines[1]))
        lines.append(f"{label:<16}{n:>4}  " + " | ".join(cells))
    used = [
        "  ".join(f"{statistics.fmean(results.tokens[s, b]):>{cell}.0f}" for s in SYSTEMS)
        for b in results.budgets
    ]
    lines.append(f"{'tokens used':<16}{'':>4}  " + " | ".join(used))
    return "\n".join(lines)


def shares(counts: dict[int, dict[str, int]]) -> dict[int, dict[str, float]]:
    """Per budget, each layer's share of the counts."""
    out = {}
    for b, per_layer in counts.items():
        total = max(sum(per_layer.values()), 1)
        out[b] = {layer: n / total for layer, n in sorted(per_layer.items())}
    return out


def layer_table(results: Results) -> str:
    """Each layer's share of the credited gold and of the context tokens, per budget."""
    gold, toks = shares(results.layer_count), shares(results.layer_tokens)
    layers = sorted({layer for s in (*gold.values(), *toks.values()) for layer in s})
    head = "".join(f"{'@' + str(b):>9}" for b in results.budgets)
    lines = [
        f"{'layer':<16}{head} {'':3}{head}",
        f"{'':<16}{'of credited gold':>27}    {'of context tokens':>27}",
    ]
    for layer in layers:
        g = "".join(f"{gold.get(b, {}).get(layer, 0.0):>9.3f}" for b in results.budgets)
        t = "".join(f"{toks.get(b, {}).get(layer, 0.0):>9.3f}" for b in results.budgets)
        lines.append(f"{layer:<16}{g}    {t}")
    totals = "".join(f"{sum(results.layer_count[b].values()):>9}" for b in results.budgets)
    lines.append(f"{'(gold credited)':<16}{totals}")
    return "\n".join(lines)


def describe(convs: list[Conversation]) -> str:
    msgs = [m for c in convs for m in c.messages]
    replies = [count_tokens(m.text) for m in msgs if m.role == "assistant"]
    langs = ", ".join(f"{c.id} ({len(c.messages)} msgs, {len(c.sessions)} sessions)" for c in convs)
    return (
        f"{len(convs)} conversations: {langs}\n"
        f"{len(msgs)} messages, {sum(count_tokens(m.text) for m in msgs):,} tokens; "
        f"assistant replies {min(replies)}-{max(replies)} tokens "
        f"(mean {statistics.fmean(replies):.0f}); "
        f"{sum(len(c.questions) for c in convs)} questions; "
        f"filler redrawn to keep gold unambiguous: {sum(c.redraws for c in convs)}"
    )


def run(args: argparse.Namespace) -> dict:
    t_run = time.perf_counter()
    convs = generate(args.seed, args.convs, turns=args.turns, n_sessions=args.sessions)
    print(f"Abilities benchmark, seed {args.seed}, budgets {args.budgets}")
    print(describe(convs))

    model = MiniLMEmbeddings()
    texts = [m.text for c in convs for m in c.messages]
    model.embed_documents(texts[:32])  # warm up
    t0 = time.perf_counter()
    all_vecs = np.asarray(model.embed_documents(texts), dtype=np.float32)
    raw_s = time.perf_counter() - t0

    overrides = parse_overrides(args.set)
    results = Results(list(args.budgets))
    with tempfile.TemporaryDirectory(prefix="lgm-abilities-") as tmp:
        mm = MemoryManager(tmp, embeddings=model, config=MemoryConfig.flat(**overrides))
        try:
            ingest_s, add_ms = ingest(mm, convs)
            offset = 0
            for conv in convs:
                vecs = all_vecs[offset : offset + len(conv.messages)]
                offset += len(conv.messages)
                evaluate_conversation(mm, model, conv, vecs, results, args.limit_questions)
        finally:
            mm.close()

    print("\nEvidence recall under a token budget (mean per question; lgm = langgraph_memory)")
    print(recall_table(results))
    print("\nlanggraph_memory by layer: share of the credited gold, share of the context")
    print(layer_table(results))
    timing = {
        "raw_embedding_s": raw_s,
        "raw_embedding_msgs_per_s": len(texts) / raw_s,
        "ingestion_s": ingest_s,
        "ingestion_msgs_per_s": len(texts) / ingest_s,
        "add_message_p95_ms": percentile(add_ms, 95),
        "build_context_p50_ms (query embedded)": percentile(results.cold_ms, 50),
        "build_context_p95_ms (query embedded)": percentile(results.cold_ms, 95),
        "build_context_p50_ms (query cached)": percentile(results.warm_ms, 50),
        "build_context_p95_ms (query cached)": percentile(results.warm_ms, 95),
        "total_s": time.perf_counter() - t_run,
    }
    print(
        f"\nIngestion: {len(texts)} messages in {ingest_s:.1f} s ({len(texts) / ingest_s:.1f}/s; "
        f"raw MiniLM embedding of the same texts {raw_s:.1f} s, {len(texts) / raw_s:.1f}/s)"
    )
    for k, v in timing.items():
        if k.endswith("_ms") or k.endswith(")"):
            print(f"{k:>40}: {v:.2f}")
    print(f"Total run time: {timing['total_s']:.1f} s")
    return {
        "seed": args.seed,
        "sessions": args.sessions,
        "turns": args.turns,
        "conversations": [c.id for c in convs],
        "messages": len(texts),
        "budgets": results.budgets,
        "overrides": overrides,
        "recall": {
            s: {
                b: {
                    **{a: results.mean(s, b, {"ability": a}) for a in ABILITIES},
                    "overall": results.mean(s, b),
                    "en": results.mean(s, b, {"lang": "en"}),
                    "zh": results.mean(s, b, {"lang": "zh"}),
                }
                for b in results.budgets
            }
            for s in SYSTEMS
        },
        "tokens_used": {
            s: {b: statistics.fmean(results.tokens[s, b]) for b in results.budgets} for s in SYSTEMS
        },
        "layer_share": shares(results.layer_count),
        "layer_token_share": shares(results.layer_tokens),
        "layer_count": {b: dict(v) for b, v in results.layer_count.items()},
        "timing": timing,
        "questions": results.questions,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0, help="generator seed (default 0)")
    parser.add_argument("--convs", type=int, default=4, help="conversations, en/zh in turn")
    parser.add_argument("--budgets", type=int, nargs="+", default=[1024, 2048, 4096])
    parser.add_argument("--sessions", type=int, default=4, help="dated sessions per conversation")
    parser.add_argument("--turns", type=int, default=50, help="user turns per session")
    parser.add_argument(
        "--limit-questions",
        type=int,
        default=0,
        metavar="N",
        help="at most N questions per conversation (abilities in turn)",
    )
    parser.add_argument("--json", help="also write every figure to this file")
    parser.add_argument(
        "--set",
        nargs="*",
        default=[],
        metavar="FIELD=VALUE",
        help="override MemoryConfig fields, e.g. --set routing=false",
    )
    args = parser.parse_args(argv)
    result = run(args)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2, ensure_ascii=False), "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
