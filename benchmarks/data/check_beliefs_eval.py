"""Validate ``beliefs_eval.jsonl`` and print its counts per kind, language and split.

The set is hand-written (see README.md in this folder); this script only checks
its shape, so an edit that breaks the schema or the split rule fails loudly::

    python benchmarks/data/check_beliefs_eval.py
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from collections import Counter
from pathlib import Path

PATH = Path(__file__).with_name("beliefs_eval.jsonl")
KINDS = {"instruction", "control", "preference", "update", "provenance", "confirmation"}
ROLES = {"user", "assistant", "tool"}
WHY = {"one-off", "question", "hypothetical", "third-party", "quoted", "ended", "joke"}
SLOTS = {"city", "employer", "job", "manager", "person", "count", "date", "plan"}
MINIMUM = {"instruction": 90, "control": 70, "preference": 80, "update": 55, "provenance": 45}
# Words too common to count as shared "content" between a statement and its probe.
STOP = set(
    """a an the i me my you your to of in on for at by with and or but if when not no never
    always ever any this that it is are be do does what how where which who should would could
    can will just pls please so as from up out about than then every one get give make want
    need go now time best good really also too much many tbh lol have has had got help""".split()
)

ZH_STOP = {
    "一下",
    "什么",
    "怎么",
    "我们",
    "这个",
    "那个",
    "一个",
    "有没",
    "没有",
    "可以",
    "的时",
    "时候",
}


def split_of(case_id: str, first_text: str) -> str:
    """Return the split a case belongs to; fixed by a hash, never chosen by hand."""
    digest = hashlib.sha256((case_id + first_text).encode()).hexdigest()
    return "heldback" if int(digest, 16) % 2 else "tune"


def _en_words(text: str) -> set[str]:
    words = re.findall(r"[a-z][a-z'\-]+", text.lower())
    return {w.rstrip("s") for w in words if w not in STOP and len(w) > 2}


def _zh_bigrams(text: str) -> set[str]:
    runs = re.findall(r"[\u4e00-\u9fff]+", text)
    grams = {run[i : i + 2] for run in runs for i in range(len(run) - 1)}
    return grams - ZH_STOP


def check(case: dict, problems: list[str]) -> None:
    """Append every schema problem of one case to ``problems``."""
    cid = case.get("id", "?")

    def bad(msg: str) -> None:
        problems.append(f"{cid}: {msg}")

    if case.get("lang") not in ("en", "zh"):
        bad("lang must be en or zh")
    kind = case.get("kind")
    if kind not in KINDS:
        bad(f"unknown kind {kind!r}")
        return
    turns = case.get("turns") or []
    if not turns or any(t.get("role") not in ROLES or not t.get("text") for t in turns):
        bad("turns need a role and a non-empty text each")
        return
    if case.get("split") != split_of(cid, turns[0]["text"]):
        bad("split does not follow the hash rule")
    text = "\n".join(t["text"] for t in turns)
    user_text = "\n".join(t["text"] for t in turns if t["role"] == "user")
    exp = case.get("expect") or {}
    if kind in ("instruction", "preference"):
        probe = exp.get("probe", "")
        if not probe:
            bad("probe missing")
        shared = (_en_words(user_text) & _en_words(probe)) | (
            _zh_bigrams(user_text) & _zh_bigrams(probe)
        )
        if shared:
            bad(f"probe shares content words with the statement: {sorted(shared)}")
    if kind == "instruction" and (exp.get("standing") is not True or not exp.get("gist")):
        bad("instruction needs standing=true and a gist")
    if kind == "control" and (exp.get("standing") is not False or exp.get("why") not in WHY):
        bad("control needs standing=false and a known why")
    if kind == "preference":
        if exp.get("polarity") not in ("like", "dislike") or not exp.get("domain"):
            bad("preference needs domain and like/dislike polarity")
        if exp.get("value", "\0") not in user_text:
            bad("preference value must appear in the user's text")
    if kind == "update":
        if exp.get("slot") not in SLOTS or not exp.get("question"):
            bad("update needs a known slot and a question")
        for key in ("old", "new"):
            if exp.get(key, "\0") not in user_text:
                bad(f"update {key} value must appear in the user's text")
        if user_text.find(exp.get("old", "")) > user_text.rfind(exp.get("new", "")):
            bad("old value should come before the new one")
    if kind in ("provenance", "confirmation"):
        key = "forbidden" if kind == "provenance" else "allowed"
        values = exp.get(key) or []
        if not values or any(v not in text for v in values):
            bad(f"{key} values must appear in the conversation")


def main() -> int:
    """Validate the file and print the count table; exit 1 on any problem."""
    problems: list[str] = []
    cases = []
    for n, line in enumerate(PATH.read_text(encoding="utf-8").splitlines(), 1):
        try:
            cases.append(json.loads(line))
        except json.JSONDecodeError as exc:
            problems.append(f"line {n}: not JSON ({exc})")
    ids = Counter(c.get("id") for c in cases)
    problems += [f"{i}: duplicate id" for i, n in ids.items() if n > 1]
    for case in cases:
        check(case, problems)
    table = Counter((c["kind"], c["lang"], c["split"]) for c in cases)
    print(f"{'kind':<13}{'en tune':>9}{'en held':>9}{'zh tune':>9}{'zh held':>9}{'total':>7}")
    for kind in sorted(KINDS):
        row = [table[(kind, lang, s)] for lang in ("en", "zh") for s in ("tune", "heldback")]
        print(f"{kind:<13}" + "".join(f"{n:>9}" for n in row) + f"{sum(row):>7}")
        if sum(row) < MINIMUM.get(kind, 0):
            problems.append(f"{kind}: only {sum(row)} cases, need {MINIMUM[kind]}")
    by_split = Counter(c["split"] for c in cases)
    print(f"total {len(cases)}  tune {by_split['tune']}  heldback {by_split['heldback']}")
    for p in problems:
        print("PROBLEM", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
