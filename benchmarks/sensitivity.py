"""Precision and recall of the sensitivity detector on its labelled corpus.

Usage:
    python benchmarks/sensitivity.py [--corpus tests/data/sensitivity_corpus.jsonl] [--errors]

The corpus (JSON lines: ``text``, ``spans`` of ``{"kind", "value"}``, ``lang``,
``note``) holds positives in realistic English and Chinese contexts and
negatives that look alike (order numbers, dates, UUIDs, SHAs, versions, prices,
timestamps, non-Luhn numbers, IDs with a bad check character).

Scoring, per kind and overall (micro-averaged):
- a finding is a true positive when it has the gold span's kind and covers the
  whole gold span (a partial redaction would leak the rest); each gold span
  matches at most one finding;
- ``leaks`` counts gold spans that no finding of any kind covers entirely (what
  would reach storage under the redact-everything policy).

Prints a table and the overall figures; ``--errors`` also lists every miss and
false alarm. Targets (issue 6): recall >= 0.95, precision >= 0.9.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from langgraph_memory.sensitivity.patterns import KINDS
from langgraph_memory.sensitivity.policy import Finding, SensitivityFilter

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "data" / "sensitivity_corpus.jsonl"


@dataclass
class Report:
    """Counts per kind, and the errors behind them."""

    tp: Counter = field(default_factory=Counter)
    fp: Counter = field(default_factory=Counter)
    fn: Counter = field(default_factory=Counter)
    leaks: int = 0
    lines: int = 0
    gold: int = 0
    seconds: float = 0.0
    errors: list[str] = field(default_factory=list)

    def precision(self, kind: str | None = None) -> float:
        tp, fp = self._counts(kind)[:2]
        return tp / (tp + fp) if tp + fp else 1.0

    def recall(self, kind: str | None = None) -> float:
        tp, _, fn = self._counts(kind)
        return tp / (tp + fn) if tp + fn else 1.0

    def _counts(self, kind: str | None) -> tuple[int, int, int]:
        if kind is None:
            return sum(self.tp.values()), sum(self.fp.values()), sum(self.fn.values())
        return self.tp[kind], self.fp[kind], self.fn[kind]


def gold_spans(text: str, spans: list[dict]) -> list[tuple[int, int, str]]:
    """Offsets of each labelled value (repeated values take successive occurrences)."""
    out: list[tuple[int, int, str]] = []
    seen: Counter = Counter()
    for s in spans:
        start = -1
        for _ in range(seen[s["value"]] + 1):
            start = text.index(s["value"], start + 1)
        seen[s["value"]] += 1
        out.append((start, start + len(s["value"]), s["kind"]))
    return out


def score_line(
    report: Report, text: str, gold: list[tuple[int, int, str]], found: list[Finding]
) -> None:
    """Add one line's matches, misses and false alarms to ``report``."""
    unused = list(found)
    for start, end, kind in gold:
        match = next(
            (f for f in unused if f.kind == kind and f.start <= start and f.end >= end), None
        )
        if match is not None:
            unused.remove(match)
            report.tp[kind] += 1
        else:
            report.fn[kind] += 1
            report.errors.append(f"MISS {kind:<11} {text[start:end]!r} in {text[:70]!r}")
        if not any(f.start <= start and f.end >= end for f in found):
            report.leaks += 1
    for f in unused:
        report.fp[f.kind] += 1
        report.errors.append(f"FALSE {f.kind:<10} {text[f.start : f.end]!r} in {text[:70]!r}")


def evaluate(corpus: Path = CORPUS, flt: SensitivityFilter | None = None) -> Report:
    """Run the detector over the corpus and score it."""
    flt = flt or SensitivityFilter()
    report = Report()
    rows = [json.loads(line) for line in corpus.read_text("utf-8").splitlines() if line.strip()]
    t0 = time.perf_counter()
    found = [flt.scan(r["text"]) for r in rows]
    report.seconds = time.perf_counter() - t0
    for row, f in zip(rows, found, strict=True):
        gold = gold_spans(row["text"], row["spans"])
        report.lines += 1
        report.gold += len(gold)
        score_line(report, row["text"], gold, f)
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--errors", action="store_true", help="list misses and false alarms")
    args = parser.parse_args()
    r = evaluate(args.corpus)
    print(f"corpus: {r.lines} lines, {r.gold} labelled spans; scanned in {r.seconds * 1e3:.1f} ms")
    print(f"{'kind':<12} {'gold':>5} {'found':>6} {'tp':>4} {'precision':>10} {'recall':>7}")
    for kind in [*KINDS, *sorted((set(r.tp) | set(r.fp) | set(r.fn)) - set(KINDS))]:
        tp, fp, fn = r.tp[kind], r.fp[kind], r.fn[kind]
        if tp + fp + fn:
            print(
                f"{kind:<12} {tp + fn:>5} {tp + fp:>6} {tp:>4} "
                f"{r.precision(kind):>10.3f} {r.recall(kind):>7.3f}"
            )
    print(
        f"{'overall':<12} {r.gold:>5} {sum(r.tp.values()) + sum(r.fp.values()):>6} "
        f"{sum(r.tp.values()):>4} {r.precision():>10.3f} {r.recall():>7.3f}"
    )
    print(f"leaks (gold spans not fully covered by any finding): {r.leaks}")
    if args.errors:
        print("\n".join(r.errors))


if __name__ == "__main__":
    main()
