"""Long messages: recall of a fact planted deep in a 2,000-8,000-token message.

Usage:
    python benchmarks/long_messages.py [--per-position 10] [--ordinary 300] [--budget 2048]

The corpus is generated here (seeded). One user writes ``--ordinary`` short chat
messages and ``3 x --per-position`` long ones (a pasted log or a long answer, 2,000 to
8,000 tokens). Each long message holds one fact (a backup bucket, a rate limit, a gate,
an hourly rate...) planted at 10 %, 50 % or 90 % of its length; the thing the fact is
about (a cluster, an API, a person) is also named in short messages and in other long
messages without the fact, so its name alone does not single the message out. Every
fact gets one question, worded differently from the fact.

Two SQLite memories with the default embedder (all-MiniLM-L6-v2, whose window is the
first 256 word pieces) are filled with the same messages: passages on (the default)
and off (``max_passages=0``, as 0.1). For each question, ``build_context(user,
"qa", question, token_budget=--budget)`` is built, and printed per position:
- recall: the share of questions whose long message is cited by some context item;
- shown: the share whose context text holds the fact's answer (the excerpt showed it).
Also printed: passages indexed, and the time from the first ``add_message`` to the end
of ``flush()`` for each memory.
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
from dataclasses import dataclass

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from knowledge import pseudo_name  # noqa: E402  (benchmarks/ is on the path when run)

from langgraph_memory import MemoryConfig, MemoryManager  # noqa: E402
from langgraph_memory.core.tokens import count_tokens  # noqa: E402
from langgraph_memory.layers.index.passages import passage_spans  # noqa: E402

POSITIONS = (0.1, 0.5, 0.9)
CITIES = ("Lisbon", "Osaka", "Quito", "Tallinn", "Dakar", "Perth", "Bergen", "Cusco")
PEOPLE = ("Marta", "Jonas", "Ines", "Tomasz", "Aiko", "Rahul", "Leila", "Bruno", "Nadia")
LOG = (
    "INFO {name}-worker-{i}: handled batch {n} in {ms} ms",
    "DEBUG scheduler: queue depth {n}, {ms} ms since last tick",
    "WARN {name}-gateway: slow upstream response ({ms} ms) for request {n}",
    "INFO cache: evicted {n} keys, hit ratio 0.{ms}",
)
PROSE = (
    "In practice the team reviews the dashboards every morning and files tickets for "
    "anything that looks unusual. ",
    "The migration plan keeps both versions running side by side for a week, so that "
    "a rollback stays cheap. ",
    "Most of the configuration lives in the shared repository and is reviewed like "
    "any other change. ",
    "When the load grows, the autoscaler adds workers within a few minutes, and the "
    "alerts stay quiet unless latency doubles. ",
    "We documented the on-call rotation in the wiki, together with the escalation "
    "contacts for each service. ",
)
CHAT = (
    "I had lunch with {person} near the office today.",
    "The {name} dashboard looked fine this morning.",
    "Can you remind me to call {person} about the {name} project tomorrow?",
    "I think the {name} cluster needs a bigger disk soon.",
    "We watched a film about {city} last night, lovely views.",
    "{person} said the {name} API docs are out of date.",
    "My train to {city} was delayed again.",
)


@dataclass
class Planted:
    message_id: str
    position: float
    question: str
    answer: str


def _fact(rng: random.Random, name: str) -> tuple[str, str, str]:
    """(fact sentence, question, answer) about ``name``."""
    person, city = rng.choice(PEOPLE), rng.choice(CITIES)
    n = rng.randrange(100, 999)
    kind = rng.randrange(4)
    if kind == 0:
        bucket = f"s3://{name.lower()}-archive-{n}"
        return (
            f"The {name} cluster keeps its nightly backups in {bucket} for 30 days.",
            f"Where are the nightly backups of the {name} cluster stored?",
            bucket,
        )
    if kind == 1:
        return (
            f"The {name} API rate limit was raised to {n} requests per minute last week.",
            f"How many requests per minute does the {name} API allow now?",
            f"{n} requests",
        )
    if kind == 2:
        gate = f"{rng.choice('ABCD')}{n % 60}"
        return (
            f"For the {name} offsite, {person}'s flight to {city} leaves from gate {gate}.",
            f"Which gate does the flight to {city} for the {name} offsite depart from?",
            f"gate {gate}",
        )
    return (
        f"The contractor on the {name} project invoices {n} euros per hour.",
        f"What hourly rate does the {name} project's contractor charge?",
        f"{n} euros",
    )


def _filler(rng: random.Random, names: list[str], tokens: int, log: bool) -> list[str]:
    """Lines of a pasted log, or paragraphs of a long answer, of about ``tokens``."""
    out: list[str] = []
    used = 0
    while used < tokens:
        name = rng.choice(names)
        if log:
            line = rng.choice(LOG).format(
                name=name.lower(), i=rng.randrange(9), n=rng.randrange(10**5), ms=rng.randrange(99)
            )
        else:
            line = "".join(rng.sample(PROSE, 3)) + f"This also holds for {name}."
        out.append(line)
        used += count_tokens(line) + 1
    return out


def corpus(
    seed: int, per_position: int, ordinary: int
) -> tuple[list[tuple[str, str]], list[Planted]]:
    """``(message id, content)`` in writing order, and the planted facts."""
    rng = random.Random(seed)
    used: set[str] = set()
    names = [pseudo_name(rng, used) for _ in range(3 * per_position)]
    msgs: list[tuple[str, str]] = []
    planted: list[Planted] = []
    for i, name in enumerate(names):
        position = POSITIONS[i % 3]
        fact, question, answer = _fact(rng, name)
        lines = _filler(rng, names, rng.randrange(2000, 8000), log=i % 2 == 0)
        lines.insert(int(position * len(lines)), fact)
        mid = f"long-{i}"
        msgs.append((mid, "\n".join(lines)))
        planted.append(Planted(mid, position, question, answer))
    for j in range(ordinary):
        line = rng.choice(CHAT).format(
            person=rng.choice(PEOPLE), name=rng.choice(names), city=rng.choice(CITIES)
        )
        msgs.append((f"chat-{j}", line))
    rng.shuffle(msgs)
    return msgs, planted


def run(args: argparse.Namespace) -> None:
    msgs, planted = corpus(args.seed, args.per_position, args.ordinary)
    sizes = sorted(count_tokens(c) for m, c in msgs if m.startswith("long-"))
    print(
        f"{len(msgs)} messages: {len(planted)} long ({sizes[0]}-{sizes[-1]} tokens), "
        f"{len(msgs) - len(planted)} short; budget {args.budget} tokens"
    )
    print(f"{'passages':9} {'position':>8} {'recall':>7} {'shown':>6}")
    for label, max_passages in (("on", 256), ("off", 0)):
        cfg = MemoryConfig(write={"max_passages": max_passages})
        with tempfile.TemporaryDirectory(prefix="lgm-long-") as tmp:
            with MemoryManager(path=tmp, config=cfg) as mm:
                t0 = time.perf_counter()
                for mid, content in msgs:
                    mm.add_message("u", "s1", "user", content, message_id=mid)
                mm.flush()
                ingest = time.perf_counter() - t0
                stored = sum(
                    len(
                        passage_spans(
                            c, cfg.write.passage_chars, cfg.write.passage_overlap, max_passages
                        )
                    )
                    for _, c in msgs
                )
                found: dict[float, list[tuple[bool, bool]]] = {p: [] for p in POSITIONS}
                for p in planted:
                    ctx = mm.build_context("u", "qa", p.question, token_budget=args.budget)
                    cited = any(p.message_id in it.source_ids for it in ctx.items)
                    shown = any(
                        p.message_id in it.source_ids and p.answer in it.text for it in ctx.items
                    )
                    found[p.position].append((cited, shown))
                for pos in POSITIONS:
                    got = found[pos]
                    recall = sum(c for c, _ in got) / len(got)
                    shown_share = sum(s for _, s in got) / len(got)
                    print(f"{label:9} {pos:>7.0%} {recall:>7.3f} {shown_share:>6.3f}")
                print(f"{label:9} ingestion + flush {ingest:.1f} s, {stored} passages")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-position", type=int, default=10)
    parser.add_argument("--ordinary", type=int, default=300)
    parser.add_argument("--budget", type=int, default=2048)
    parser.add_argument("--seed", type=int, default=7)
    run(parser.parse_args(argv))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
