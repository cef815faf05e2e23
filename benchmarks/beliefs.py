"""What a conversation teaches the memory: standing instructions, preferences, updates.

Usage:
    python benchmarks/beliefs.py [benchmarks/data/beliefs_eval.jsonl] [--budget 2048]
    python benchmarks/beliefs.py --failures          # list the *tune* cases that fail
    python benchmarks/beliefs.py --json beliefs.json

The set (``benchmarks/data/beliefs_eval.jsonl``, written apart from the rules; see the
README beside it) has six kinds of cases, each in English or Chinese and in the
``tune`` or ``heldback`` split. Every case's turns go through the public API — one
``MemoryManager`` (in memory, the packaged all-MiniLM-L6-v2), a user per case,
``add_message`` per turn a day apart, one ``flush`` — and then:

- ``instruction``: **capture** — a standing instruction (an anchor read from the user's
  message) was made; **reach** — ``build_context(probe)`` carries it.
- ``control``: **false positive** — an anchor, a preference or a fact was made from a
  look-alike (one-off request, question, hypothetical, someone else's words, quote, joke,
  a habit that ended).
- ``preference``: **capture** — a preference entry was made (and, stricter, one whose
  value overlaps the expected value with the expected polarity); **reach** —
  ``build_context(probe)`` carries the value; *via profile*: in a profile or anchor item;
  **reach_domain** — with ``--distractors`` other tastes of the same user in the profile
  (one per domain, said plainly) and a ``--domain-budget`` context, the preference is
  among the profile items the context holds for the probe (which shares no word with it).
- ``update``: **current first** — in ``build_context(question)`` the new value appears,
  before the old one if that is shown; **old marked** — the old value is not shown, or a
  line shows it marked as earlier.
- ``provenance`` / ``confirmation`` (reported for completeness): a forbidden value became a
  belief (profile entry, fact or anchor) / the confirmed value did.

Figures are printed per kind, language and split. The held-back half is printed as
aggregates only: tune on ``tune``; ``--failures`` lists failing tune cases, never
held-back ones.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import defaultdict
from collections.abc import Iterable
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import MiniLMEmbeddings
from langgraph_memory.storage import InMemoryBackend

HERE = Path(__file__).resolve().parent
DEFAULT = HERE / "data" / "beliefs_eval.jsonl"
T0 = datetime(2024, 3, 1, 9, 0, tzinfo=timezone.utc)
#: A line shows a value as an earlier one when it says so.
EARLIER = re.compile(
    r"earlier|previously|formerly|superseded|used to|until \d|before:|was:|"
    r"此前|之前|以前|曾|已被取代|原来|至 \d",
    re.I,
)


def load(path: Path) -> list[dict[str, Any]]:
    """The cases of a JSONL file."""
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _norm(text: str) -> str:
    return " ".join(str(text).casefold().split())


def _has(text: str, value: str) -> bool:
    return bool(value) and _norm(value) in _norm(text)


def _overlaps(a: str, b: str) -> bool:
    """Whether two values share a word (a CJK bigram in Chinese), or one holds the other."""
    a, b = _norm(a), _norm(b)
    if not a or not b:
        return False
    if a in b or b in a:
        return True
    if re.search(r"[\u4e00-\u9fff]", a + b):
        grams = {a[i : i + 2] for i in range(len(a) - 1)}
        return any(b[i : i + 2] in grams for i in range(len(b) - 1))
    stop = {"the", "a", "an", "my", "of", "to", "and", "in", "for", "with", "i"}
    wa = {w for w in re.findall(r"[a-z0-9']+", a) if w not in stop}
    wb = {w for w in re.findall(r"[a-z0-9']+", b) if w not in stop}
    return bool(wa & wb)


#: Other tastes a user has, said plainly (every release's rules read them), one per
#: domain: with them in the profile, a small budget holds only the entries closest to a
#: question, so a preference must reach a question about its domain by more than luck.
DISTRACTORS = {
    "en": [
        "I love jazz.",
        "I prefer window seats.",
        "I hate horror movies.",
        "I love hiking.",
        "I prefer Python.",
        "I love science fiction novels.",
        "I hate crowded buses.",
        "I prefer cotton shirts.",
        "I love cats.",
        "I prefer early meetings.",
        "I love board games.",
        "I prefer Android phones.",
    ],
    "zh": [
        "我喜欢爵士乐。",
        "我喜欢靠窗的座位。",
        "我讨厌恐怖片。",
        "我喜欢爬山。",
        "我喜欢用Python。",
        "我喜欢科幻小说。",
        "我讨厌挤公交。",
        "我喜欢棉质衬衫。",
        "我喜欢猫。",
        "我喜欢早上开会。",
        "我喜欢桌游。",
        "我喜欢安卓手机。",
    ],
}


class Run:
    """One memory holding every case (a user per case) and the checks."""

    def __init__(self, cases: list[dict[str, Any]], budget: int, distractors: int = 0) -> None:
        self.cases = cases
        self.budget = budget
        self.distractors = distractors
        self.mm = MemoryManager(backend=InMemoryBackend(), embeddings=MiniLMEmbeddings())
        self.ids: dict[str, dict[str, str]] = {}  # case id -> message id -> role

    def ingest(self) -> float:
        t = time.perf_counter()
        for case in self.cases:
            uid = case["id"]
            roles: dict[str, str] = {}
            start = T0
            value = case["expect"].get("value", "")
            others = [d for d in DISTRACTORS[case["lang"]] if not _overlaps(d, value)]
            for j, text in enumerate(others[: self.distractors]):
                self.mm.add_message(uid, "s0", "user", text, timestamp=T0 + timedelta(hours=j))
                start = T0 + timedelta(days=1)
            for i, turn in enumerate(case["turns"]):
                mid = self.mm.add_message(
                    uid, "s1", turn["role"], turn["text"], timestamp=start + timedelta(days=i)
                )
                roles[mid] = turn["role"]  # the case's own messages (not the distractors)
            self.ids[uid] = roles
        self.mm.flush()
        return time.perf_counter() - t

    def domain_reach(self, case: dict[str, Any]) -> bool:
        """Whether, among the distractors, the case's preference is in a profile or anchor
        item of the context for its probe."""
        ctx = self.context(case["id"], case["expect"]["probe"])
        held = [it.text for it in ctx.items if it.layer in ("profile", "anchor")]
        return any(_has(t, case["expect"]["value"]) for t in held)

    # -- what the memory made of a case ----------------------------------------------------
    def instructions(self, uid: str) -> list[Any]:
        return [a for a in self.mm.anchors.list(uid) if a.metadata.get("source") == "instruction"]

    def from_user(self, uid: str, source_ids: Iterable[str]) -> bool:
        roles = self.ids[uid]
        return any(roles.get(s) == "user" for s in source_ids)

    def beliefs(self, uid: str) -> list[str]:
        """Every belief about the user, as text: preferences, facts, anchors."""
        out = [f"{p.key} {p.value} {p.quote or ''}" for p in self.mm.profile.preferences(uid)]
        out += [f"{f.subject} {f.relation} {f.object}" for f in self.mm.profile.facts(uid)]
        out += [a.text for a in self.instructions(uid)]
        return out

    def context(self, uid: str, query: str) -> Any:
        return self.mm.build_context(uid, "probe", query, token_budget=self.budget)

    # -- checks ----------------------------------------------------------------------------
    def check(self, case: dict[str, Any]) -> dict[str, bool]:
        uid, kind, exp = case["id"], case["kind"], case["expect"]
        if kind == "instruction":
            made = [
                a
                for a in self.instructions(uid)
                if self.from_user(uid, a.metadata.get("source_ids", []))
            ]
            ctx = self.context(uid, exp["probe"])
            texts = [it.text for it in ctx.items if it.layer == "anchor"]
            return {
                "capture": bool(made),
                "reach": any(a.text in t for a in made for t in texts),
            }
        if kind == "control":
            made = bool(self.instructions(uid)) or bool(self.mm.profile.preferences(uid))
            made = made or bool(self.mm.profile.facts(uid))
            return {"false_positive": made}
        if kind == "preference":
            prefs = [p for p in self.mm.profile.preferences(uid) if p.polarity is not None]
            prefs = [p for p in prefs if self.from_user(uid, p.source_ids)]
            want = "negative" if exp.get("polarity") == "dislike" else "positive"
            value = exp["value"]
            right = [p for p in prefs if p.polarity == want and _overlaps(str(p.value), value)]
            ctx = self.context(uid, exp["probe"])
            text = ctx.to_prompt()
            held = [it.text for it in ctx.items if it.layer in ("profile", "anchor")]
            return {
                "capture": bool(prefs),
                "capture_value": bool(right),
                "reach": _has(text, value),
                "reach_profile": any(_has(t, value) for t in held),
            }
        if kind == "update":
            text = self.context(uid, exp["question"]).to_prompt()
            new, old = _norm(exp["new"]), _norm(exp["old"])
            low = _norm(text)
            at_new, at_old = low.find(new), low.find(old)
            first = at_new >= 0 and (at_old < 0 or at_new < at_old or old in new)
            lines = [_norm(line) for line in text.splitlines() if old in _norm(line)]
            marked = at_old < 0 or old in new or any(EARLIER.search(line) for line in lines)
            return {"current_first": first, "old_marked": first and marked}
        if kind == "provenance":
            beliefs = self.beliefs(uid)
            bad = any(_has(b, f) for b in beliefs for f in exp["forbidden"])
            return {"turned_into_belief": bad}
        if kind == "confirmation":
            beliefs = self.beliefs(uid)
            return {"kept": any(_has(b, v) for b in beliefs for v in exp["allowed"])}
        return {}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("path", nargs="?", default=str(DEFAULT))
    ap.add_argument("--budget", type=int, default=2048, help="build_context token budget")
    ap.add_argument(
        "--failures", action="store_true", help="list failing cases (never held-back ones)"
    )
    ap.add_argument("--kinds", nargs="*", default=None)
    ap.add_argument("--json", default=None, help="write the figures here")
    ap.add_argument(
        "--distractors",
        type=int,
        default=12,
        help="other tastes each preference case's user has, for preference.reach_domain (0: skip)",
    )
    ap.add_argument(
        "--domain-budget", type=int, default=600, help="build_context budget for reach_domain"
    )
    args = ap.parse_args(argv)
    path = Path(args.path)
    if not path.exists():
        print(f"no evaluation set at {path}; pass its path", file=sys.stderr)
        return 2
    cases = [c for c in load(path) if args.kinds is None or c["kind"] in args.kinds]
    run = Run(cases, args.budget)
    took = run.ingest()
    # (kind, measure, lang, split) -> [passes]
    got: dict[tuple[str, str, str, str], list[bool]] = defaultdict(list)
    fails: list[str] = []
    t = time.perf_counter()
    for case in cases:
        result = run.check(case)
        for measure, ok in result.items():
            got[(case["kind"], measure, case["lang"], case["split"])].append(ok)
        bad = {"false_positive", "turned_into_belief"}
        if case["split"] != "heldback" and any(ok == (m in bad) for m, ok in result.items()):
            fails.append(f"{case['id']}: {result} {json.dumps(case, ensure_ascii=False)[:600]}")
    run.mm.close()
    prefs = [c for c in cases if c["kind"] == "preference"]
    if args.distractors > 0 and prefs:  # the same preferences among other tastes
        crowd = Run(prefs, args.domain_budget, args.distractors)
        took += crowd.ingest()
        for case in prefs:
            got[("preference", "reach_domain", case["lang"], case["split"])].append(
                crowd.domain_reach(case)
            )
        crowd.mm.close()
    checked = time.perf_counter() - t

    def rate(kind: str, measure: str, lang: str | None, split: str) -> tuple[float, int]:
        vals = [
            v
            for (k, m, lg, sp), vs in got.items()
            if k == kind and m == measure and sp == split and (lang is None or lg == lang)
            for v in vs
        ]
        return (sum(vals) / len(vals) if vals else float("nan")), len(vals)

    print(f"Beliefs benchmark: {len(cases)} cases from {path.name}, budget {args.budget}")
    print(f"ingest {took:.1f} s, checks {checked:.1f} s")
    splits = sorted({c["split"] for c in cases}, key=lambda s: (s == "heldback", s))
    head = f"{'kind':13} {'measure':19}" + "".join(
        f"{sp + ' ' + (lg or 'all'):>15}" for sp in splits for lg in ("en", "zh", None)
    )
    print(head)
    print("-" * len(head))
    measures = sorted({(k, m) for k, m, _, _ in got}, key=lambda x: (x[0], x[1]))
    figures: dict[str, Any] = {}
    for kind, measure in measures:
        cells = []
        for split in splits:
            for lang in ("en", "zh", None):
                r, n = rate(kind, measure, lang, split)
                cells.append(f"{r:9.3f} ({n:3d})")
                figures[f"{kind}.{measure}.{split}.{lang or 'all'}"] = {"rate": r, "n": n}
        print(f"{kind:13} {measure:19}" + "".join(f"{c:>15}" for c in cells))
    if args.failures:
        print(f"\nfailing tune cases ({len(fails)}):")
        for line in fails:
            print("  " + line)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
