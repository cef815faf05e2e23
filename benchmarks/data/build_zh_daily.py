"""Build ``zh_daily.json`` (LoCoMo schema) from the hand-written sources in ``zh_daily_src/``.

Usage:
    python benchmarks/data/build_zh_daily.py [--check]

Source format (one file per conversation, UTF-8):
    #id zh-01
    #split tune
    #a 林晓
    #b 周敏
    ## 1:56 pm on 8 May, 2023          <- starts a session, LoCoMo date format
    A: 一句话 {label}                   <- a turn of speaker a (B: speaker b); {label} optional
    Q4 问题 | 答案 | label1 label2      <- a question: category digit, question, answer, evidence

Labels keep the questions independent of turn numbering; the builder turns them into
``D<session>:<turn>`` dia_ids, fails on an unknown or duplicate label, and prints the
counts per category and split.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
SRC = HERE / "zh_daily_src"
OUT = HERE / "zh_daily.json"
DATE_RE = re.compile(r"^\d{1,2}:\d{2} [ap]m on \d{1,2} [A-Z][a-z]+, \d{4}$")
LABEL_RE = re.compile(r"\s*\{([\w-]+)\}\s*$")


def parse(path: Path) -> dict:
    meta: dict[str, str] = {}
    sessions: list[tuple[str, list[dict]]] = []
    labels: dict[str, str] = {}
    qa: list[dict] = []
    for lineno, raw in enumerate(path.read_text("utf-8").splitlines(), 1):
        line = raw.strip()
        where = f"{path.name}:{lineno}"
        if not line or line.startswith("//"):
            continue
        if line.startswith("## "):
            date = line[3:].strip()
            if not DATE_RE.match(date):
                raise SystemExit(f"{where}: bad date {date!r}")
            sessions.append((date, []))
        elif line.startswith("#"):
            key, _, value = line[1:].partition(" ")
            meta[key] = value.strip()
        elif line[:2] in ("A:", "B:"):
            if not sessions:
                raise SystemExit(f"{where}: turn before the first session")
            text = line[2:].strip()
            m = LABEL_RE.search(text)
            turns = sessions[-1][1]
            dia_id = f"D{len(sessions)}:{len(turns) + 1}"
            if m:
                label = m.group(1)
                if label in labels:
                    raise SystemExit(f"{where}: duplicate label {label}")
                labels[label] = dia_id
                text = text[: m.start()].rstrip()
            speaker = meta["a"] if line[0] == "A" else meta["b"]
            turns.append({"speaker": speaker, "dia_id": dia_id, "text": text})
        elif re.match(r"^Q[1-4] ", line):
            parts = [p.strip() for p in line[3:].split("|")]
            if len(parts) != 3:
                raise SystemExit(f"{where}: a question needs 'question | answer | labels'")
            question, answer, ev = parts
            qa.append(
                {
                    "question": question,
                    "answer": answer,
                    "evidence": ev.split(),
                    "category": int(line[1]),
                    "_where": where,
                }
            )
        else:
            raise SystemExit(f"{where}: cannot read {line!r}")
    for q in qa:
        missing = [e for e in q["evidence"] if e not in labels]
        if missing or not q["evidence"]:
            raise SystemExit(f"{q['_where']}: unknown evidence labels {missing}")
        q["evidence"] = [labels[e] for e in q["evidence"]]
        del q["_where"]
    conv: dict = {"speaker_a": meta["a"], "speaker_b": meta["b"]}
    for n, (date, turns) in enumerate(sessions, 1):
        conv[f"session_{n}_date_time"] = date
        conv[f"session_{n}"] = turns
    return {"sample_id": meta["id"], "split": meta["split"], "conversation": conv, "qa": qa}


def main() -> int:
    samples = [parse(p) for p in sorted(SRC.glob("*.txt"))]
    for s in samples:
        conv = s["conversation"]
        turns = {
            t["dia_id"]: t
            for k, v in conv.items()
            if k.startswith("session_") and isinstance(v, list)
            for t in v
        }
        n_sessions = sum(1 for k in conv if k.endswith("_date_time"))
        cats = Counter(q["category"] for q in s["qa"])
        for q in s["qa"]:
            if not q["evidence"] or any(e not in turns for e in q["evidence"]):
                raise SystemExit(f"{s['sample_id']}: evidence not in the conversation: {q}")
        print(
            f"{s['sample_id']} {s['split']:8} sessions={n_sessions} turns={len(turns)} "
            f"qa={len(s['qa'])} by category={dict(sorted(cats.items()))}"
        )
    for split in ("tune", "heldback"):
        part = [q for s in samples if s["split"] == split for q in s["qa"]]
        cats = Counter(q["category"] for q in part)
        print(f"{split}: {len(part)} questions, by category {dict(sorted(cats.items()))}")
    total = sum(len(s["qa"]) for s in samples)
    print(f"total: {len(samples)} conversations, {total} questions")
    if "--check" not in sys.argv:
        OUT.write_text(json.dumps(samples, ensure_ascii=False, indent=1) + "\n", "utf-8")
        print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
