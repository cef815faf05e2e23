"""Provenance of beliefs on the bilingual belief evaluation set: what the assistant or a tool
says (and the user does not confirm) must make no belief; what the user explicitly confirms
may, citing both messages.

Usage:
    python benchmarks/provenance.py [--data benchmarks/data/beliefs_eval.jsonl] [--hashing]
    python benchmarks/provenance.py --show-tune     # list the tune split's failures

The set (``benchmarks/data/beliefs_eval.jsonl``, see its README) is written by an author who
did not read the extraction rules; its ``split`` is fixed by a hash. Only the kinds
``provenance`` and ``confirmation`` are read here. Protocol: each case is a new user of one
``MemoryManager``; its turns go through ``add_message`` in order (one session, a second
apart), then ``flush``. Then every belief of the user is read: profile entries (key and
value), facts (subject, relation, object), agent traits, anchors (their text) and entities
(their name).

Printed, per split (``tune`` / ``heldback``) and language:

- ``provenance``: beliefs holding a ``forbidden`` value (target 0), the cases with any, the
  kinds of those beliefs, and how many of them cite a message that is not the user's
  (an assistant or tool message: what the provenance gate must stop; the others were
  read from the user's own words, e.g. a place the user names);
- ``confirmation``: cases where an ``allowed`` value became a belief whose sources cite both
  an assistant message and a user message (the confirmation), over the cases.

Failures are listed for the ``tune`` split only (``--show-tune``); the held-back half is
reported in aggregate and never tuned on.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from langgraph_memory import MemoryManager
from langgraph_memory.storage import InMemoryBackend

HERE = Path(__file__).resolve().parent
T0 = datetime(2026, 11, 2, 9, tzinfo=timezone.utc)


@dataclass(slots=True)
class Belief:
    kind: str
    text: str
    source_ids: list[str]


@dataclass(slots=True)
class Tally:
    cases: int = 0
    bad_cases: int = 0
    bad_beliefs: int = 0
    bad_not_users: int = 0
    confirmed: int = 0
    by_kind: dict[str, int] = field(default_factory=lambda: defaultdict(int))


def beliefs(mm: MemoryManager, user: str) -> list[Belief]:
    """Every belief of ``user`` (what the memory holds about the user as true)."""
    lt = mm._longterm
    out = [
        Belief("profile", f"{e.key} {e.value}", list(e.source_ids))
        for e in lt.profile.list_preferences(user)
    ]
    out += [
        Belief("fact", f"{f.subject} {f.relation} {f.object}", list(f.source_ids))
        for f in lt.facts.list_facts(user)
    ]
    out += [
        Belief("trait", f"{t.trait} {t.value}", list(t.source_ids)) for t in lt.list_traits(user)
    ]
    out += [
        Belief("anchor", a.text, list(a.metadata.get("source_ids", [])))
        for a in mm.anchors.list(user)
    ]
    out += [Belief("entity", e.name, list(e.source_ids)) for e in mm._parts.entities.entities(user)]
    return out


def has(text: str, value: str) -> bool:
    return value.casefold() in text.casefold()


def run_case(mm: MemoryManager, case: dict[str, Any]) -> tuple[list[Belief], dict[str, str]]:
    user = case["id"]
    roles: dict[str, str] = {}
    for i, turn in enumerate(case["turns"]):
        mid = mm.add_message(
            user, "s1", turn["role"], turn["text"], timestamp=T0 + timedelta(seconds=i)
        )
        roles[mid] = turn["role"]
    mm.flush()
    return beliefs(mm, user), roles


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(HERE / "data" / "beliefs_eval.jsonl"))
    ap.add_argument("--hashing", action="store_true", help="the toy hashing embedder (faster)")
    ap.add_argument("--show-tune", action="store_true", help="list the tune split's failures")
    args = ap.parse_args()
    path = Path(args.data)
    if not path.exists():
        sys.exit(f"{path} is missing: it lands from its own branch (see its README)")
    cases = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    cases = [c for c in cases if c["kind"] in ("provenance", "confirmation")]
    embeddings = None
    if args.hashing:
        from langgraph_memory.embeddings import HashingEmbeddings

        embeddings = HashingEmbeddings()
    tallies: dict[tuple[str, str, str], Tally] = defaultdict(Tally)
    failures: list[str] = []
    started = time.perf_counter()
    with MemoryManager(backend=InMemoryBackend(), embeddings=embeddings) as mm:
        for case in cases:
            found, roles = run_case(mm, case)
            t = tallies[(case["kind"], case["split"], case["lang"])]
            t.cases += 1
            if case["kind"] == "provenance":
                bad = [b for b in found if any(has(b.text, v) for v in case["expect"]["forbidden"])]
                t.bad_beliefs += len(bad)
                # a belief citing a message that is not the user's (the gate's failure)
                t.bad_not_users += sum(
                    1 for b in bad if any(roles.get(i) != "user" for i in b.source_ids)
                )
                t.bad_cases += bool(bad)
                for b in bad:
                    t.by_kind[b.kind] += 1
                if bad and case["split"] == "tune":
                    failures.append(
                        f"{case['id']}: " + "; ".join(f"{b.kind}: {b.text}" for b in bad)
                    )
            else:
                ok = [
                    b
                    for b in found
                    if any(has(b.text, v) for v in case["expect"]["allowed"])
                    and {roles.get(i) for i in b.source_ids} >= {"assistant", "user"}
                ]
                t.confirmed += bool(ok)
                if not ok and case["split"] == "tune":
                    failures.append(
                        f"{case['id']}: not confirmed; beliefs: "
                        + "; ".join(f"{b.kind}: {b.text}" for b in found)
                    )
    elapsed = time.perf_counter() - started

    print(f"{len(cases)} cases ({path.name}), {elapsed:.1f} s")
    print(f"{'kind':<13}{'split':<10}{'lang':<6}{'cases':>6}  result")
    for split in ("tune", "heldback"):
        for kind in ("provenance", "confirmation"):
            total = Tally()
            for lang in ("en", "zh"):
                t = tallies.get((kind, split, lang))
                if t is None:
                    continue
                _line(kind, split, lang, t)
                total.cases += t.cases
                total.bad_cases += t.bad_cases
                total.bad_beliefs += t.bad_beliefs
                total.bad_not_users += t.bad_not_users
                total.confirmed += t.confirmed
                for k, n in t.by_kind.items():
                    total.by_kind[k] += n
            _line(kind, split, "all", total)
    if args.show_tune:
        print("\ntune failures:")
        for f in failures:
            print("  " + f)


def _line(kind: str, split: str, lang: str, t: Tally) -> None:
    if kind == "provenance":
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(t.by_kind.items())) or "-"
        result = (
            f"forbidden beliefs {t.bad_beliefs} (target 0) in {t.bad_cases}/{t.cases} cases"
            f" [{kinds}]; citing a non-user message {t.bad_not_users}"
        )
    else:
        share = t.confirmed / t.cases if t.cases else 0.0
        result = f"confirmed with both sources {t.confirmed}/{t.cases} = {share:.3f}"
    print(f"{kind:<13}{split:<10}{lang:<6}{t.cases:>6}  {result}")


if __name__ == "__main__":
    main()
