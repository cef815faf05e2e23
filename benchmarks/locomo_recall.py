"""LoCoMo evidence recall under a token budget, for langgraph_memory and plain baselines.

Usage:
    python benchmarks/locomo_recall.py [DATA.json] [--budgets 256 512 1024] [--limit N]
        [--backend onnx|torch] [--int8] [--model NAME] [--calibration]

DATA defaults to ``../shared/bench/locomo_dev.json`` (beside the repository).
Without it: LoCoMo is published by snap-research (repository "LoCoMo",
``data/locomo10.json``, CC BY-NC 4.0); pass that file's path.

Protocol (``../shared/bench/README.md``): every turn is written in order
(``message_id`` = dia_id, ``name`` = speaker, ``timestamp`` = session date; a turn
that shares an image carries its caption: ``text + " [shares " + caption + "]"``); for
each question of categories 1-4, context is built with each budget, and each
gold dia_id counts as recalled when some context item's text carries at least
half of that turn's content words. Tokens: a CJK character = 1, other text 4
characters = 1. Baselines in the same run rank raw turns by BM25 (the library's
terms), plain BM25 over jieba's words (``bm25-jieba``: ``jieba.lcut``, no stopwords,
the usual Chinese baseline), dense cosine (the same model) and RRF of the first and
the third, and pack turn texts best-first. ``--model`` picks the packaged model
(``WriteSection.embedding_model``: all-MiniLM-L6-v2 by default, or a multilingual one).
Samples that carry a ``"split"`` field (e.g. ``tune`` / ``heldback``) are also
reported per split; without one, per half (the first half of the conversations,
where the read path was tuned, and the second, held back).

Also printed: ingestion turns/s (every ``add_message``, then one ``flush``)
against the raw embedding throughput of the same model on the same texts (timed
before the ingestion and again at the end, both together),
``add_message`` p95, and ``build_context`` p50/p95, both for the first budget of
each question (the query is embedded) and for the others (its vector is cached),
and each memory layer's share of the credited evidence (the layer of the first
context item that carries each credited gold turn).

With ``--calibration``: how well the one relevance in [0, 1] that every search hit
(``MemoryHit.score``) and context item (``ContextItem.relevance``; the ranking score
on a build without it) carries tells evidence from the rest. For each question,
``search(k=20)`` over every layer and the context at the first budget are scored; an
item is gold when it carries a gold turn (as credited above). Printed per half of the
conversations (the first half the calibration was tuned on, the second held back):
the AUC of the score for gold against other items, the share of gold items scoring at
least 0.5 and of the others below 0.5.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

from langgraph_memory import MemoryConfig, MemoryManager
from langgraph_memory.config import EMBEDDING_MODELS
from langgraph_memory.core.tokens import content_words, count_tokens, load_jieba, tokenize
from langgraph_memory.embeddings import MiniLMEmbeddings
from langgraph_memory.embeddings.multilingual import embedding_model
from langgraph_memory.retrieval.bm25 import bm25_scores
from langgraph_memory.retrieval.fusion import rrf_fuse

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "bench" / "locomo_dev.json"
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
_DIA_RE = re.compile(r"D\s*:?\s*(\d+)\s*:\s*(\d+)")


def normalise_evidence(evidence: list[str]) -> list[str]:
    """Split malformed evidence strings ("D8:6; D9:17", "D:11:26", "D30:05") into dia_ids."""
    out: list[str] = []
    for ev in evidence:
        for m in _DIA_RE.finditer(ev):
            out.append(f"D{int(m.group(1))}:{int(m.group(2))}")
    return list(dict.fromkeys(out))


def turn_text(turn: dict) -> str:
    """A turn as written and credited: its text, and the caption of an image it shares
    (``text + " [shares " + caption + "]"``, as ``../shared/bench/README.md`` says)."""
    caption = turn.get("blip_caption")
    return f"{turn['text']} [shares {caption}]" if caption else turn["text"]


def load_conversations(path: Path) -> list[dict]:
    """Turns and questions of each sample."""
    samples = json.loads(path.read_text("utf-8"))
    convs = []
    for sample in samples:
        conv = sample["conversation"]
        turns = []
        n = 1
        while f"session_{n}" in conv:
            date = conv.get(f"session_{n}_date_time")
            for i, t in enumerate(conv[f"session_{n}"]):
                turns.append(
                    {
                        "dia_id": t["dia_id"],
                        "speaker": t["speaker"],
                        "text": turn_text(t),
                        "session": f"session_{n}",
                        "date": date,
                        "index": i,
                        "role": "user" if t["speaker"] == conv["speaker_a"] else "assistant",
                    }
                )
            n += 1
        questions = [
            {
                "question": q["question"],
                "category": q["category"],
                "evidence": normalise_evidence(q.get("evidence", [])),
            }
            for q in sample["qa"]
            if q.get("category") in CATEGORIES
        ]
        convs.append(
            {
                "id": sample["sample_id"],
                "split": sample.get("split", ""),
                "turns": turns,
                "questions": [q for q in questions if q["evidence"]],
            }
        )
    return convs


class Credit:
    """Decides which gold turns a list of item texts carries."""

    def __init__(self, turns: list[dict]) -> None:
        self.words = {t["dia_id"]: content_words(t["text"]) for t in turns}
        self.text = {t["dia_id"]: t["text"] for t in turns}

    def carried(self, gold: list[str], items: list[str]) -> int:
        return sum(c is not None for c in self.carriers(gold, items))

    def carriers(self, gold: list[str], items: list[str]) -> list[int | None]:
        """For each gold turn, the index of the first item carrying it (None: not carried)."""
        item_words = [content_words(x) for x in items]
        out: list[int | None] = []
        for g in gold:
            words = self.words.get(g)
            if words is None:
                out.append(None)
            elif not words:
                out.append(next((i for i, x in enumerate(items) if self.text[g] in x), None))
            else:
                need = len(words) / 2
                out.append(
                    next((i for i, iw in enumerate(item_words) if len(words & iw) >= need), None)
                )
        return out


def pack_texts(ranked_texts: list[str], budget: int) -> list[str]:
    """Baseline packing: best first, skip what does not fit, never over budget."""
    out, left = [], budget
    for text in ranked_texts:
        cost = count_tokens(text)
        if cost <= left:
            out.append(text)
            left -= cost
    return out


def percentile(values: list[float], q: float) -> float:
    return float(np.percentile(np.asarray(values), q)) if values else float("nan")


def auc(pos: list[float], neg: list[float]) -> float:
    """The probability that a gold item outscores another (ties count half)."""
    if not pos or not neg:
        return float("nan")
    n = np.asarray(sorted(neg))
    lo = np.searchsorted(n, pos, "left")
    hi = np.searchsorted(n, pos, "right")
    wins = float(np.sum(lo + 0.5 * (hi - lo)))
    return float(wins) / (len(pos) * len(neg))


def calibration_rows(scores: dict[tuple[str, str], dict[bool, list[float]]]) -> list[tuple]:
    """``(what, half, n gold, n other, AUC, gold >= 0.5, other < 0.5)`` per list."""
    rows = []
    for (what, half), by in sorted(scores.items()):
        pos, neg = by[True], by[False]
        rows.append(
            (
                what,
                half,
                len(pos),
                len(neg),
                auc(pos, neg),
                sum(x >= 0.5 for x in pos) / max(len(pos), 1),
                sum(x < 0.5 for x in neg) / max(len(neg), 1),
            )
        )
    return rows


def run(args: argparse.Namespace) -> dict:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    convs = load_conversations(Path(args.data))
    if args.limit:
        convs = convs[: args.limit]
    n_turns = sum(len(c["turns"]) for c in convs)
    n_q = sum(len(c["questions"]) for c in convs)
    console.print(
        f"[bold]LoCoMo[/bold] {len(convs)} conversations, {n_turns} turns, "
        f"{n_q} questions (categories 1-4); budgets {args.budgets}"
    )

    if args.model == "all-MiniLM-L6-v2":
        model = MiniLMEmbeddings(backend=args.backend, quantize=args.int8)
    else:
        model = embedding_model(args.model)  # type: ignore[assignment]
    all_texts = [f"{t['speaker']}: {t['text']}" for c in convs for t in c["turns"]]
    model.embed_documents(all_texts[:64])  # warm up
    t0 = time.perf_counter()
    raw_vecs = np.asarray(model.embed_documents(all_texts), dtype=np.float32)
    raw_s = [time.perf_counter() - t0]

    systems = ["langgraph_memory", "bm25", "bm25-jieba", "dense", "rrf"]
    recall: dict[str, dict[int, list[float]]] = {s: defaultdict(list) for s in systems}
    # (system, split, budget) -> recalls (a sample's split, or its half).
    per_split: dict[tuple[str, str, int], list[float]] = defaultdict(list)
    per_cat: dict[tuple[str, int, int], list[float]] = defaultdict(list)
    # Which layer's item carried each credited gold turn, per budget.
    layer_share: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    add_ms: list[float] = []
    ctx_ms: list[float] = []
    tmp = tempfile.mkdtemp(prefix="lgm-locomo-")
    overrides = {}
    for item in args.set:
        name, _, value = item.partition("=")
        overrides[name] = json.loads(value)
    cfg = MemoryConfig.flat(**overrides)
    mm = MemoryManager(tmp, embeddings=model, config=cfg)
    # Write every turn of every conversation in order, then wait for the background
    # worker once: ingestion throughput is turns / (first add_message .. end of flush).
    t_start = time.perf_counter()
    for conv in convs:
        for t in conv["turns"]:
            a = time.perf_counter()
            mm.add_message(
                conv["id"],
                t["session"],
                t["role"],
                t["text"],
                name=t["speaker"],
                timestamp=_turn_time(t),
                message_id=t["dia_id"],
            )
            add_ms.append((time.perf_counter() - a) * 1e3)
    mm.flush()
    ingest_s = time.perf_counter() - t_start
    offset = 0
    cold_ms: list[float] = []
    calib: dict[tuple[str, str], dict[bool, list[float]]] = defaultdict(
        lambda: {True: [], False: []}
    )
    tuned = {c["id"] for c in convs[: (len(convs) + 1) // 2]}
    for conv in convs:
        user = conv["id"]
        turns = conv["turns"]
        credit = Credit(turns)
        texts = [f"{t['speaker']}: {t['text']}" for t in turns]
        vecs = raw_vecs[offset : offset + len(turns)]
        offset += len(turns)
        docs_terms = [tokenize(x) for x in texts]
        postings: dict[str, list[tuple[int, int]]] = defaultdict(list)
        for i, terms in enumerate(docs_terms):
            counts: dict[str, int] = defaultdict(int)
            for term in terms:
                counts[term] += 1
            for term, tf in counts.items():
                postings[term].append((i, tf))
        doc_len = {i: len(x) for i, x in enumerate(docs_terms)}
        avg = sum(doc_len.values()) / max(len(doc_len), 1)
        jb_terms = [jieba_words(x) for x in texts]
        jb_post: dict[str, list[tuple[int, int]]] = defaultdict(list)
        for i, terms in enumerate(jb_terms):
            for term, tf in Counter(terms).items():
                jb_post[term].append((i, tf))
        jb_len = {i: len(x) for i, x in enumerate(jb_terms)}
        jb_avg = sum(jb_len.values()) / max(len(jb_len), 1)
        for q in conv["questions"]:
            gold = q["evidence"]
            qterms = tokenize(q["question"])
            bm = [
                i
                for i, _ in bm25_scores(
                    {t: postings.get(t, []) for t in set(qterms)},
                    n_docs=len(texts),
                    avg_len=avg,
                    doc_len=doc_len,
                )
            ]
            jq = Counter(jieba_words(q["question"]))
            jb = [
                i
                for i, _ in bm25_scores(
                    {t: jb_post.get(t, []) for t in jq},
                    n_docs=len(texts),
                    avg_len=jb_avg,
                    doc_len=jb_len,
                    query_counts=jq,
                )
            ]
            qv = np.asarray(model.embed_query(q["question"]), dtype=np.float32)
            dense = list(np.argsort(-(vecs @ qv), kind="stable"))
            rrf = [d for d, _, _ in rrf_fuse({"bm25": bm[:100], "dense": dense[:100]}, k=60)]
            for j, budget in enumerate(args.budgets):
                a = time.perf_counter()
                ctx = mm.build_context(user, "locomo-qa", q["question"], token_budget=budget)
                (cold_ms if j == 0 else ctx_ms).append((time.perf_counter() - a) * 1e3)
                assert ctx.tokens <= budget, "context over budget"
                results = {
                    "langgraph_memory": [it.text for it in ctx.items],
                    "bm25": pack_texts([texts[i] for i in bm], budget),
                    "bm25-jieba": pack_texts([texts[i] for i in jb], budget),
                    "dense": pack_texts([texts[i] for i in dense], budget),
                    "rrf": pack_texts([texts[i] for i in rrf], budget),
                }
                for c in credit.carriers(gold, results["langgraph_memory"]):
                    if c is not None:
                        layer_share[budget][ctx.items[c].layer] += 1
                if args.calibration and j == 0:
                    half = "tuned" if user in tuned else "held-back"
                    hits = mm.search(user, q["question"], k=20)
                    hit_texts = [f"{h.name}: {h.text}" if h.name else h.text for h in hits]
                    for lst, scores, items in (
                        ("search", [h.score for h in hits], hit_texts),
                        (
                            "context",
                            [getattr(it, "relevance", it.score) for it in ctx.items],
                            [it.text for it in ctx.items],
                        ),
                    ):
                        for x, text in zip(scores, items, strict=True):
                            is_gold = any(c is not None for c in credit.carriers(gold, [text]))
                            calib[(lst, half)][is_gold].append(float(x))
                for name, items in results.items():
                    r = credit.carried(gold, items) / len(gold)
                    recall[name][budget].append(r)
                    per_cat[(name, budget, q["category"])].append(r)
                    # samples without a split: the first half of the conversations (where
                    # the read path was tuned) and the second, held back
                    split = conv["split"] or ("tuned" if user in tuned else "held-back")
                    per_split[(name, split, budget)].append(r)
    ingest_tps = n_turns / ingest_s
    mm.close()
    # The raw ceiling again, the manager closed: both timings together (texts over
    # time), as the machine's speed drifts within a run (see benchmarks/latency.py).
    t0 = time.perf_counter()
    model.embed_documents(all_texts)
    raw_s.append(time.perf_counter() - t0)
    raw_tps = len(all_texts) * len(raw_s) / sum(raw_s)

    table = Table(title="Evidence recall under a token budget (mean per question)")
    table.add_column("system")
    for b in args.budgets:
        table.add_column(f"@{b}", justify="right")
    for s in systems:
        table.add_row(s, *(f"{statistics.fmean(recall[s][b]):.3f}" for b in args.budgets))
    console.print(table)
    splits = sorted({sp for _, sp, _ in per_split})
    for sp in splits:
        n = len(per_split[("langgraph_memory", sp, args.budgets[0])])
        sp_table = Table(title=f"Split {sp!r} ({n} questions)")
        sp_table.add_column("system")
        for b in args.budgets:
            sp_table.add_column(f"@{b}", justify="right")
        for s in systems:
            sp_table.add_row(
                s, *(f"{statistics.fmean(per_split[(s, sp, b)]):.3f}" for b in args.budgets)
            )
        console.print(sp_table)
    cat_table = Table(title="Per category (langgraph_memory / rrf)")
    cat_table.add_column("category")
    for b in args.budgets:
        cat_table.add_column(f"@{b}", justify="right")
    for c, cname in CATEGORIES.items():
        row = []
        for b in args.budgets:
            ours = per_cat.get(("langgraph_memory", b, c), [])
            base = per_cat.get(("rrf", b, c), [])
            row.append(
                f"{statistics.fmean(ours):.3f} / {statistics.fmean(base):.3f}" if ours else "-"
            )
        n = len(per_cat.get(("langgraph_memory", args.budgets[0], c), []))
        cat_table.add_row(f"{c} {cname} (n={n})", *row)
    console.print(cat_table)
    layers = sorted({layer for shares in layer_share.values() for layer in shares})
    share_table = Table(title="Share of the credited evidence by layer (langgraph_memory)")
    share_table.add_column("layer")
    for b in args.budgets:
        share_table.add_column(f"@{b}", justify="right")
    for layer in layers:
        share_table.add_row(
            layer,
            *(
                f"{layer_share[b][layer] / max(sum(layer_share[b].values()), 1):.3f}"
                for b in args.budgets
            ),
        )
    console.print(share_table)
    calibration = calibration_rows(calib) if args.calibration else []
    if calibration:
        cal = Table(title="Relevance calibration (gold-carrying items vs the rest)")
        for col in ("list", "half", "gold", "other", "AUC", "gold >= 0.5", "other < 0.5"):
            cal.add_column(col, justify="right")
        for what, half, npos, nneg, a, p, n in calibration:
            cal.add_row(what, half, str(npos), str(nneg), f"{a:.3f}", f"{p:.3f}", f"{n:.3f}")
        console.print(cal)
    perf = {
        "raw_embedding_turns_per_s": raw_tps,
        "ingestion_turns_per_s": ingest_tps,
        "ingestion_vs_raw": ingest_tps / raw_tps,
        "add_message_p95_ms": percentile(add_ms, 95),
        "build_context_p50_ms (query embedded)": percentile(cold_ms, 50),
        "build_context_p95_ms (query embedded)": percentile(cold_ms, 95),
        "build_context_p50_ms (query cached)": percentile(ctx_ms, 50),
        "build_context_p95_ms (query cached)": percentile(ctx_ms, 95),
    }
    for k, v in perf.items():
        console.print(f"{k:>40}: {v:.3f}")
    return {
        "recall": {s: {b: statistics.fmean(recall[s][b]) for b in args.budgets} for s in systems},
        "per_category": {f"{s}@{b}/{c}": statistics.fmean(v) for (s, b, c), v in per_cat.items()},
        "per_split": {f"{s}@{b}/{sp}": statistics.fmean(v) for (s, sp, b), v in per_split.items()},
        "layer_share": {b: dict(v) for b, v in layer_share.items()},
        "calibration": [list(row) for row in calibration],
        "performance": perf,
    }


def jieba_words(text: str) -> list[str]:
    """Plain jieba words of a text (``jieba.lcut``, lower-cased, no stopwords), without
    spaces and punctuation: the baseline's terms."""
    load_jieba()
    import jieba

    return [w for w in jieba.lcut(text.lower()) if any(ch.isalnum() for ch in w)]


def _turn_time(turn: dict) -> str | None:
    """The session date; turns within a session get one second each to keep order."""
    from datetime import timedelta

    from langgraph_memory.core.validation import parse_timestamp

    if not turn["date"]:
        return None
    return (parse_timestamp(turn["date"]) + timedelta(seconds=turn["index"])).isoformat()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", nargs="?", default=str(DEFAULT_DATA))
    parser.add_argument("--budgets", type=int, nargs="+", default=[256, 512, 1024])
    parser.add_argument("--limit", type=int, default=0, help="only the first N conversations")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument(
        "--backend", choices=["onnx", "torch"], default=None, help="the model's backend"
    )
    parser.add_argument("--int8", action="store_true", help="the int8 model (ONNX backend)")
    parser.add_argument(
        "--calibration",
        action="store_true",
        help="also print how well relevance separates evidence from the rest",
    )
    parser.add_argument(
        "--model",
        choices=list(EMBEDDING_MODELS),
        default="all-MiniLM-L6-v2",
        help="the packaged embedding model (WriteSection.embedding_model)",
    )
    parser.add_argument(
        "--set",
        nargs="*",
        default=[],
        metavar="FIELD=VALUE",
        help="override MemoryConfig fields, e.g. --set segment_boost=0.3",
    )
    args = parser.parse_args(argv)
    if not Path(args.data).is_file():
        print(
            f"LoCoMo data not found at {args.data}.\n"
            "Get data/locomo10.json from the snap-research LoCoMo repository "
            "(CC BY-NC 4.0) and pass its path.",
            file=sys.stderr,
        )
        return 2
    result = run(args)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
