"""Validate a ``split: dev`` belief set with the checks of ``check_beliefs_eval.py``.

The dev sets have no hash split, so that one rule is skipped; everything else of
``check_beliefs_eval.check`` runs on every case, and a few stricter rules are added:
unique ids, an opening user turn, ``old`` in the first user turn, ``old`` and ``new``
not substrings of one another, and update questions sharing no content word with the
user's turns. Usage::

    python benchmarks/data/check_beliefs_dev.py benchmarks/data/beliefs_dev9.jsonl
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from check_beliefs_eval import _en_words, _zh_bigrams, check  # noqa: E402


def problems_of(case: dict) -> list[str]:
    """Every problem of one dev case (the hash split rule aside)."""
    found: list[str] = []
    check(case, found)
    found = [p for p in found if "hash rule" not in p]
    cid = case.get("id", "?")
    turns = case.get("turns") or []
    if case.get("split") != "dev":
        found.append(f"{cid}: split should be dev")
    if not turns or turns[0].get("role") != "user":
        found.append(f"{cid}: the first turn should be the user's")
    exp = case.get("expect") or {}
    if case.get("kind") == "update":
        old, new = exp.get("old", ""), exp.get("new", "")
        users = [t["text"] for t in turns if t.get("role") == "user"]
        if users and old not in users[0]:
            found.append(f"{cid}: old value not in the first user turn")
        if old in new or new in old:
            found.append(f"{cid}: old and new are substrings of one another")
        text = "\n".join(users)
        question = exp.get("question", "")
        shared = (_en_words(text) & _en_words(question)) | (
            _zh_bigrams(text) & _zh_bigrams(question)
        )
        if shared:
            found.append(f"{cid}: question shares content words: {sorted(shared)}")
    return found


def main(argv: list[str]) -> int:
    """Check the file given and print counts per language, kind and slot or why."""
    path = Path(argv[0]) if argv else Path(__file__).with_name("beliefs_dev9.jsonl")
    cases = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    problems = [f"{i}: duplicate id" for i, n in Counter(c["id"] for c in cases).items() if n > 1]
    for case in cases:
        problems += problems_of(case)
    table = Counter((c["kind"], c["lang"]) for c in cases)
    print(f"{'kind':<13}{'en':>6}{'zh':>6}")
    for kind in sorted({k for k, _ in table}):
        print(f"{kind:<13}{table[(kind, 'en')]:>6}{table[(kind, 'zh')]:>6}")
    keys = ("slot", "why", "polarity")
    detail = Counter(
        (c["lang"], next(c["expect"][k] for k in keys if k in c["expect"]))
        for c in cases
        if c["kind"] in ("update", "control", "preference")
    )
    print(" ".join(f"{lang}:{what}={n}" for (lang, what), n in sorted(detail.items())))
    print(f"total {len(cases)}")
    for p in problems:
        print("PROBLEM", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
