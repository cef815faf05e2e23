"""Speed of the rule extractor (texts per CPU second), and a dump of everything it reads, to
check that a change to it keeps its output the same.

Usage:
    python benchmarks/extraction_speed.py [--repeat 3] [--dump FILE] [--check FILE] [--store]

The corpus is every turn of the LoCoMo conversations (``../shared/bench/locomo_dev.json``
beside the repository, ``--locomo`` for another), of ``data/zh_daily.json`` and of
``data/beliefs_eval.jsonl`` + ``data/beliefs_dev2.jsonl``: about 5,000 English and Chinese
messages of both roles. Each is read as the write path reads it: the public extractor
(:func:`~langgraph_memory.extraction.extractor.extract_atoms`, entities included), and,
for an assistant's words, the user-voice rules the promotion reads them with; beside that
:func:`slots_of` and :func:`preferences_of` on the whole text.

``--long N`` times one message of N characters of each of a few repeated clauses (one
sentence of thousands of clauses, thousands of sentences), at N and 2N, to show that the
time grows linearly with the message.

``--synthetic N`` times ``latency.py``'s N synthetic messages instead (what the write path
reads there). Prints the extractor's throughput over the corpus, in texts per CPU second of
this process (other processes share the machine): ``--repeat`` passes, best and median.
``--dump FILE`` writes every atom, slot and preference found (one JSON line per message);
``--check FILE`` compares this run's output with such a dump and exits 1 on the first
difference. ``--store`` also ingests every LoCoMo and ``zh_daily`` conversation through a
:class:`~langgraph_memory.MemoryManager` (in memory, the hashing embedder, fixed
timestamps, one user each) and adds their stored facts, profile entries, traits and anchors
to the dump, ids and wall-clock times aside — so a change to the fact layer can be checked
the same way.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import statistics
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DEFAULT_LOCOMO = HERE.parents[1] / "shared" / "bench" / "locomo_dev.json"
T0 = datetime(2026, 1, 5, 9, tzinfo=timezone.utc)


def _conversation_turns(path: Path) -> list[tuple[str, str]]:
    """``(role, text)`` of every turn of LoCoMo-format samples (speaker A is the user)."""
    out = []
    for sample in json.loads(path.read_text("utf-8")):
        conv = sample["conversation"]
        n = 1
        while f"session_{n}" in conv and n < 1000:
            for t in conv[f"session_{n}"]:
                caption = t.get("blip_caption")
                text = f"{t['text']} [shares {caption}]" if caption else t["text"]
                out.append(("user" if t["speaker"] == conv["speaker_a"] else "assistant", text))
            n += 1
    return out


def corpus(locomo: Path) -> list[tuple[str, str]]:
    """``(role, text)`` of every message of the corpus (see the module docs)."""
    texts = _conversation_turns(locomo) if locomo.exists() else []
    texts += _conversation_turns(HERE / "data" / "zh_daily.json")
    for name in ("beliefs_eval.jsonl", "beliefs_dev2.jsonl"):
        for line in (HERE / "data" / name).read_text("utf-8").splitlines():
            if line.strip():
                texts += [(t["role"], t["text"]) for t in json.loads(line)["turns"]]
    return texts


def read_one(role: str, text: str) -> dict[str, Any]:
    """Everything the extraction reads in one message."""
    from langgraph_memory.extraction.extractor import Extractor, extract_atoms
    from langgraph_memory.extraction.preferences import preferences_of
    from langgraph_memory.extraction.provenance import in_user_voice
    from langgraph_memory.extraction.slots import slots_of

    out: dict[str, Any] = {
        "atoms": [dataclasses.astuple(a) for a in extract_atoms(text, role=role)],
        "slots": slots_of(text),
        "prefs": preferences_of(text),
    }
    if role != "user":
        voiced = Extractor(entities=False).rules(in_user_voice(text))
        out["voiced"] = [dataclasses.astuple(a) for a in voiced]
    return out


def speed(texts: list[tuple[str, str]], repeat: int) -> list[float]:
    """Texts per CPU second of the public extractor over ``texts``, one figure per pass."""
    from langgraph_memory.extraction.extractor import extract_atoms

    rates = []
    for _ in range(repeat):
        t0 = time.process_time()  # CPU seconds: other processes share the machine
        for role, text in texts:
            extract_atoms(text, role=role)
        rates.append(len(texts) / (time.process_time() - t0))
    return rates


#: Clauses a long message repeats (``--long``).
LONG_CLAUSES = (
    "我喜欢喝咖啡，",
    "我住在上海，",
    "周末在家的时候我喜欢看书，",
    "我的领导是张三，",
    "我喜欢喝咖啡。",
    "I love coffee, I don't think I like jazz, ",
    "如果我喜欢茶，我不觉得我喜欢咖啡，",
    "When I code, ",
)


def long_messages(chars: int) -> None:
    """CPU seconds of the public extractor on a message of ``chars`` and ``2 * chars``
    characters of each of :data:`LONG_CLAUSES` repeated."""
    from langgraph_memory.extraction.entities import load_chinese
    from langgraph_memory.extraction.extractor import extract_atoms, load_rules

    load_chinese()  # one-time loads stay out of the timing
    load_rules()
    for clause in LONG_CLAUSES:
        took = []
        for n in (chars, 2 * chars):
            text = (clause * (n // len(clause) + 1))[:n]
            t0 = time.process_time()
            extract_atoms(text)
            took.append(time.process_time() - t0)
        print(f"  {clause!r:<48} {chars:>6}: {took[0]:6.2f} s   {2 * chars:>6}: {took[1]:6.2f} s")


_CLOCK = ("created_at", "updated_at", "last_accessed_at")


def stored_state(paths: list[Path]) -> list[Any]:
    """The long-term rows after each conversation of ``paths`` (LoCoMo format) went
    through a manager, one user each, with ids replaced by stable labels and wall-clock
    times left out."""
    from langgraph_memory import MemoryManager
    from langgraph_memory.embeddings import HashingEmbeddings
    from langgraph_memory.storage import InMemoryBackend

    samples = [s for p in paths for s in json.loads(p.read_text("utf-8"))]
    labels: dict[str, str] = {}
    rows: list[tuple[str, dict[str, Any]]] = []
    with MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings()) as mm:
        for sample in samples:
            conv, user = sample["conversation"], f"user-{sample['sample_id']}"
            n, i = 1, 0
            while f"session_{n}" in conv and n < 1000:
                for t in conv[f"session_{n}"]:
                    role = "user" if t["speaker"] == conv["speaker_a"] else "assistant"
                    when = T0 + timedelta(minutes=i)
                    mid = mm.add_message(user, f"s{n}", role, t["text"], timestamp=when)
                    labels[mid] = f"m{i}"
                    i += 1
                n += 1
            mm.flush()
            lt = mm._longterm
            rows += [("fact", dataclasses.asdict(f)) for f in lt.facts.list_facts(user)]
            rows += [("profile", dataclasses.asdict(e)) for e in lt.profile.list_preferences(user)]
            rows += [("trait", dataclasses.asdict(t)) for t in lt.list_traits(user)]
            rows += [("anchor", {"text": a.text, **a.metadata}) for a in mm.anchors.list(user)]
    for kind, row in rows:  # rows get labels by their content
        if "id" in row:
            what = [row.get(k) for k in ("subject", "relation", "object", "key", "value", "scope")]
            labels.setdefault(row["id"], f"{kind}:{what}:{row.get('valid_from', '')}")

    def scrub(value: Any) -> Any:
        if isinstance(value, str):
            return labels.get(value, value)
        if isinstance(value, dict):
            return {k: scrub(v) for k, v in value.items() if k not in _CLOCK and k != "id"}
        if isinstance(value, (list, tuple)):
            return [scrub(v) for v in value]
        if isinstance(value, datetime):
            return value.isoformat()
        return value

    out = [[kind, scrub(row)] for kind, row in rows]
    return sorted(out, key=lambda r: json.dumps(r, sort_keys=True, ensure_ascii=False))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--locomo", type=Path, default=DEFAULT_LOCOMO)
    parser.add_argument("--repeat", type=int, default=3, help="timed passes over the corpus")
    parser.add_argument("--dump", type=Path, help="write every output to this file")
    parser.add_argument("--check", type=Path, help="compare every output with this dump")
    parser.add_argument("--store", action="store_true", help="add the stored state (LoCoMo)")
    parser.add_argument(
        "--synthetic", type=int, default=0, help="time latency.py's N synthetic messages instead"
    )
    parser.add_argument(
        "--long", type=int, default=0, help="time messages of N and 2N characters instead"
    )
    args = parser.parse_args(argv)
    if args.long:
        print(f"long messages: CPU seconds of extract_atoms at {args.long} and {2 * args.long}")
        long_messages(min(args.long, 200_000))
        return 0
    texts = corpus(args.locomo)
    if args.synthetic:
        from latency import synth

        rng = random.Random(7)
        texts = [
            ("user" if i % 2 == 0 else "assistant", synth(rng, i))
            for i in range(min(args.synthetic, 100_000))
        ]
    from langgraph_memory.extraction.entities import load_chinese
    from langgraph_memory.extraction.extractor import load_rules

    load_chinese()  # one-time loads stay out of the timing
    load_rules()
    found = (
        "synthetic"
        if args.synthetic
        else "LoCoMo " + ("found" if args.locomo.exists() else "missing")
    )
    print(f"messages: {len(texts)} ({found})")
    if args.repeat > 0:
        rates = speed(texts, max(1, min(args.repeat, 20)))
        each = ", ".join(f"{r:.1f}" for r in rates)
        print(
            f"extract_atoms texts per CPU second: best {max(rates):.1f}, "
            f"median {statistics.median(rates):.1f} ({each})"
        )
    if not (args.dump or args.check):
        return 0
    lines = [
        json.dumps({"role": role, "text": text, **read_one(role, text)}, ensure_ascii=False)
        for role, text in texts
    ]
    if args.store:
        convs = [p for p in (args.locomo, HERE / "data" / "zh_daily.json") if p.exists()]
        lines.append(json.dumps({"stored": stored_state(convs)}, ensure_ascii=False))
    if args.dump:
        args.dump.write_text("\n".join(lines) + "\n", "utf-8")
        print(f"dumped {len(lines)} lines to {args.dump}")
    if args.check:
        saved = args.check.read_text("utf-8").splitlines()
        for n, (a, b) in enumerate(zip(saved, lines, strict=False)):
            if a != b:
                print(f"DIFFERENT at line {n + 1}:\n  saved: {a[:600]}\n  now:   {b[:600]}")
                return 1
        if len(saved) != len(lines):
            print(f"DIFFERENT: {len(saved)} saved lines, {len(lines)} now")
            return 1
        print(f"identical: {len(lines)} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
