"""Our BM25 over SQLite posting lists (``SQLiteBackend.lexical_search``) vs SQLite FTS5
``bm25()`` over the same pre-tokenised text (``langgraph_memory.core.tokens.tokenize``, terms
joined by spaces; FTS5 ``unicode61`` with ``remove_diacritics 0`` and ``'`` as a token
character, so FTS5 re-splits nothing: checked below by comparing every term's document
frequency).

Run (from the repository root)::

    python benchmarks/libraries/run.py fts5 [--part locomo|multi|single] [--n 100000]
        [--rounds 4] [--quick]

Parts (all three by default):

- ``locomo``: 5 LoCoMo conversations = 5 users (2,760 turns): evidence recall@10/@20 of
  ours, FTS5 one table for the 5 users (``user_id UNINDEXED``, filtered), FTS5 one table
  per conversation; top-10 overlap; the term statistics check; latency, inserts, sizes.
- ``multi``: 10 users x ``n / 10`` in one table (user i built from conversation i % 5):
  inserts, sizes, and for users 0 and 1 latency and FTS5's table-wide statistics against
  our per-user ones.
- ``single``: ``n`` synthetic messages of one user (LoCoMo turns repeated and varied):
  insert throughput, size on disk, latency p50/p95 at k=50 over 200 LoCoMo questions,
  top-10 overlap.

Ours: ``SQLiteBackend.insert_message`` (one commit each, as ``add_message`` does), then
``index_pending`` (the worker's postings). FTS5 variant: the same backend given no terms
(so no postings) and an FTS5 row written in the same commit (``grouped_writes``), in its
own file; also FTS5 alone bulk-loaded 512 rows a transaction. Queries: both get the same
term list; ours ``lexical_search(user, terms, 50)``; FTS5 ``SELECT rowid, bm25(f) FROM f
WHERE f MATCH '"t1" OR "t2" ...' AND user_id = ? ORDER BY rank LIMIT 50`` on a plain
sqlite3 connection to the same file. Rounds interleave the sides per query.
``--quick``: ``n`` = 5,000 and 2 rounds (the locomo part keeps its size).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sqlite3
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from datetime import datetime, timezone

from common import Row, load_conversations, med, pct, synthetic_rows

FTS_DDL = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS f USING fts5(terms, user_id UNINDEXED, "
    "tokenize=\"unicode61 remove_diacritics 0 tokenchars ''''\")"
)
TS = datetime(2024, 1, 1, tzinfo=timezone.utc)
K = 50

Hits = list[tuple[int, float]]
Search = Callable[[str, list[str]], Hits]


def match_expr(terms: Sequence[str]) -> str:
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)


class Stores:
    """Ours and the FTS5 variant side by side (separate files in one temporary folder)."""

    def __init__(self, root: str) -> None:
        from langgraph_memory.storage import SQLiteBackend

        self.root = root
        self.ours = SQLiteBackend(os.path.join(root, "ours.sqlite3"))
        self.fts = SQLiteBackend(os.path.join(root, "fts.sqlite3"))
        with self.fts.grouped_writes():
            self.fts._conn.execute(FTS_DDL)
        self.bulk_path = os.path.join(root, "bulk.sqlite3")
        self.bulk = sqlite3.connect(self.bulk_path, isolation_level=None)
        self.bulk.execute("PRAGMA journal_mode=WAL")
        self.bulk.execute("PRAGMA synchronous=NORMAL")
        self.bulk.execute(FTS_DDL)
        self.t: Counter[str] = Counter()
        self.n = 0
        self._rng = random.Random(1)

    def add(self, rows: Sequence[Row]) -> None:
        """Store ``rows`` on each side, each timed, in a random order of the sides."""
        from langgraph_memory.core.records import Message

        order = ["ours", "fts", "bulk"]
        self._rng.shuffle(order)
        for side in order:
            t = time.perf_counter()
            if side == "ours":
                for u, mid, sess, text, terms in rows:
                    self.ours.insert_message(Message(mid, u, sess, "user", text, TS), terms)
                t1 = time.perf_counter()
                self.t["ours_insert"] += t1 - t
                while self.ours.index_pending(4096):
                    pass
                self.t["ours_index"] += time.perf_counter() - t1
            elif side == "fts":
                for u, mid, sess, text, terms in rows:
                    with self.fts.grouped_writes():
                        self.fts.insert_message(Message(mid, u, sess, "user", text, TS), [])
                        self.fts._conn.execute(
                            "INSERT INTO f (terms, user_id) VALUES (?, ?)", (" ".join(terms), u)
                        )
                self.t["fts_insert"] += time.perf_counter() - t
            else:
                for i in range(0, len(rows), 512):
                    self.bulk.execute("BEGIN")
                    self.bulk.executemany(
                        "INSERT INTO f (terms, user_id) VALUES (?, ?)",
                        [(" ".join(r[4]), r[0]) for r in rows[i : i + 512]],
                    )
                    self.bulk.execute("COMMIT")
                self.t["bulk_insert"] += time.perf_counter() - t
        self.n += len(rows)

    def fts_reader(self) -> sqlite3.Connection:
        return sqlite3.connect(os.path.join(self.root, "fts.sqlite3"), isolation_level=None)

    def close(self) -> None:
        self.ours.close()
        self.fts.close()
        self.bulk.close()


def fts_search(
    conn: sqlite3.Connection, user: str, terms: Sequence[str], k: int = K, tiebreak: bool = False
) -> Hits:
    if not terms:
        return []
    order = "rank, rowid" if tiebreak else "rank"
    rows = conn.execute(
        f"SELECT rowid, bm25(f) FROM f WHERE f MATCH ? AND user_id = ? ORDER BY {order} LIMIT ?",
        (match_expr(terms), user, k),
    ).fetchall()
    return [(r, -s) for r, s in rows]


def sizes(path: str) -> dict[str, int]:
    """Bytes by table (dbstat), after a WAL checkpoint; ``(file)``: the whole file."""
    c = sqlite3.connect(path)
    c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    out = dict(c.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name").fetchall())
    c.close()
    out["(file)"] = os.path.getsize(path)
    return out


def overlap(a: Sequence[tuple[object, float]], b: Sequence[tuple[object, float]]) -> float:
    """Shared share of the two top 10s."""
    sa, sb = {x for x, _ in a[:10]}, {x for x, _ in b[:10]}
    if not sa and not sb:
        return 1.0
    return len(sa & sb) / max(len(sa), len(sb))


def time_queries(
    stores: Stores,
    conn: sqlite3.Connection,
    queries: Sequence[tuple[str, list[str]]],
    rounds: int,
    extra: dict[str, Search] | None = None,
) -> tuple[list[dict[str, list[float]]], tuple[list[Hits], list[Hits]]]:
    """Per round, the latency of each side, interleaved per query (the order rotating);
    round 1 starts with our posting cache empty. ``extra``: more FTS5 variants. Returns the
    rounds' seconds by side and the last round's (ours, FTS5) results."""
    sides: dict[str, Search] = {
        "ours": lambda u, t: stores.ours.lexical_search(u, t, K),
        "FTS5": lambda u, t: fts_search(conn, u, t),
    }
    sides.update(extra or {})
    names = list(sides)
    per = []
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
    return per, (res["ours"], res["FTS5"])


def report_latency(per: list[dict[str, list[float]]]) -> None:
    names = list(per[0])

    def ms(v: float) -> str:
        return f"{v * 1e3:.2f}"

    for r, times in enumerate(per, 1):
        cells = " | ".join(
            f"{n} p50 {ms(pct(times[n], 50))} p95 {ms(pct(times[n], 95))} ms" for n in names
        )
        print(f"    round {r}{' (our posting cache empty)' if r == 1 else ''}: {cells}")
    warm = per[1:] or per
    cells = " | ".join(
        f"{n} {ms(med([pct(t[n], 50) for t in warm]))}/{ms(med([pct(t[n], 95) for t in warm]))} ms"
        for n in names
    )
    print(f"    warm rounds (2..), median of the rounds' p50/p95: {cells}")


def report_inserts(st: Stores) -> None:
    n, t = st.n, st.t
    ours = t["ours_insert"] + t["ours_index"]
    index_rate = n / t["ours_index"]
    print(f"  insert {n:,} messages (terms precomputed, one commit per message):")
    print(
        f"    ours  insert_message {n / t['ours_insert']:,.0f} msg/s + index_pending "
        f"{index_rate:,.0f} msg/s = {n / ours:,.0f} msg/s overall ({ours:.1f} s)"
    )
    print(
        "    FTS5  insert_message (no terms) + FTS5 row, same commit: "
        f"{n / t['fts_insert']:,.0f} msg/s ({t['fts_insert']:.1f} s)"
    )
    print(
        "    FTS5 alone, 512 rows a transaction (what a worker batch could do): "
        f"{n / t['bulk_insert']:,.0f} msg/s ({t['bulk_insert']:.1f} s)  "
        f"[vs ours index_pending alone: {index_rate:,.0f} msg/s]"
    )


def report_sizes(st: Stores) -> None:
    so = sizes(os.path.join(st.root, "ours.sqlite3"))
    sf = sizes(os.path.join(st.root, "fts.sqlite3"))
    sb = sizes(st.bulk_path)
    post = so.get("postings", 0) + so.get("user_stats", 0)
    fidx = sum(v for k, v in sf.items() if k in ("f_data", "f_idx", "f_docsize", "f_config"))
    print("  size on disk (dbstat, after checkpoint):")
    print(
        f"    ours: postings + user_stats {post / 1e6:.1f} MB; whole file "
        f"{so['(file)'] / 1e6:.1f} MB (messages {so.get('messages', 0) / 1e6:.1f} MB)"
    )
    print(
        f"    FTS5: index (f_data+f_idx+f_docsize+f_config) {fidx / 1e6:.1f} MB + stored copy "
        f"of the terms (f_content) {sf.get('f_content', 0) / 1e6:.1f} MB; whole file "
        f"{sf['(file)'] / 1e6:.1f} MB (messages {sf.get('messages', 0) / 1e6:.1f} MB); "
        f"bulk-loaded FTS5 file {sb['(file)'] / 1e6:.1f} MB"
    )


def stats_check(st: Stores, users: Sequence[str]) -> None:
    """Per user: does FTS5 see the same terms as ours? (the document frequencies of an FTS5
    table holding only that user, against our postings)."""
    c = sqlite3.connect(":memory:")
    c.execute(FTS_DDL)
    c.execute("CREATE VIRTUAL TABLE v USING fts5vocab(f, row)")
    bad = total = 0
    src = sqlite3.connect(os.path.join(st.root, "fts.sqlite3"))
    for u in users:
        c.execute("DELETE FROM f")
        c.executemany(
            "INSERT INTO f (terms, user_id) VALUES (?, ?)",
            src.execute("SELECT terms, user_id FROM f WHERE user_id = ?", (u,)).fetchall(),
        )
        fts_df = dict(c.execute("SELECT term, doc FROM v").fetchall())
        ours_df = dict(
            st.ours._conn.execute(
                "SELECT term, COUNT(*) FROM postings WHERE user_id = ? GROUP BY term", (u,)
            ).fetchall()
        )
        keys = set(fts_df) | set(ours_df)
        total += len(keys)
        diff = [k for k in keys if fts_df.get(k) != ours_df.get(k)]
        bad += len(diff)
        if diff:
            print(f"    {u}: terms whose df differs: {diff[:8]}")
    src.close()
    c.close()
    print(
        f"  term statistics check: {total:,} (user, term) pairs, {bad} differ between FTS5 and ours"
    )


def part_locomo(rounds: int) -> None:
    from langgraph_memory.core.tokens import tokenize

    convs = load_conversations()
    root = tempfile.mkdtemp(prefix="lgm-fts5-")
    try:
        st = Stores(root)
        rows: list[Row] = []
        for ci, conv in enumerate(convs):
            for dia, _speaker, text, sess in conv.turns:
                rows.append((f"conv{ci}", dia, f"s{sess}", text, tokenize(text)))
        st.add(rows)
        # map ids: both sides assign increasing ids in insertion order
        o_seq = {
            (u, i): s for s, u, i in st.ours._conn.execute("SELECT seq, user_id, id FROM messages")
        }
        f_rowids = [r for (r,) in st.fts._conn.execute("SELECT rowid FROM f ORDER BY rowid")]
        dia_by_rowid, dia_by_seq = {}, {}
        for (u, mid, *_), rid in zip(rows, f_rowids, strict=True):
            dia_by_rowid[rid] = mid
            dia_by_seq[o_seq[(u, mid)]] = mid
        # per-conversation FTS5 tables (per-user statistics, as ours), in memory
        per = sqlite3.connect(":memory:")
        for ci in range(len(convs)):
            per.execute(FTS_DDL.replace(" f USING", f" f{ci} USING"))
        rid_map = {}
        for u, mid, _sess, _text, terms in rows:
            ci = int(u[4:])
            cur = per.execute(
                f"INSERT INTO f{ci} (terms, user_id) VALUES (?, ?)", (" ".join(terms), u)
            )
            rid_map[(ci, cur.lastrowid)] = mid
        print(f"== LoCoMo: {len(rows)} turns, {len(convs)} conversations as {len(convs)} users ==")
        stats_check(st, [f"conv{i}" for i in range(len(convs))])
        conn = st.fts_reader()

        def per_conv(ci: int, terms: list[str], k: int) -> list[tuple[str, float]]:
            if not terms:
                return []
            got = per.execute(
                f"SELECT rowid, bm25(f{ci}) FROM f{ci} WHERE f{ci} MATCH ? "
                "ORDER BY rank, rowid LIMIT ?",
                (match_expr(terms), k),
            ).fetchall()
            return [(rid_map[(ci, r)], -s) for r, s in got]

        # evidence recall@10/@20 over all questions of categories 1-4 with evidence
        names = ("ours", "fts5 5-user table", "fts5 per-conversation")
        rec: dict[str, dict[int, list[float]]] = {n: {10: [], 20: []} for n in names}
        ov: dict[str, list[float]] = {"5-user table": [], "per-conversation": []}
        exact_scores = []
        n_q = 0
        for ci, conv in enumerate(convs):
            u = f"conv{ci}"
            for q, gold, _cat in conv.questions:
                if not gold:
                    continue
                n_q += 1
                terms = tokenize(q)
                a = [(dia_by_seq[s], v) for s, v in st.ours.lexical_search(u, terms, 20)]
                b = [(dia_by_rowid[r], v) for r, v in fts_search(conn, u, terms, 20, True)]
                c = per_conv(ci, terms, 20)
                ov["5-user table"].append(overlap(a, b))
                ov["per-conversation"].append(overlap(a, c))
                if a and c:
                    exact_scores.append(max(abs(x[1] - y[1]) for x, y in zip(a, c, strict=False)))
                for name, res in zip(names, (a, b, c), strict=True):
                    for k in (10, 20):
                        ids = {d for d, _ in res[:k]}
                        rec[name][k].append(sum(g in ids for g in gold) / len(gold))
        print(
            f"  evidence recall over {n_q} questions (cat 1-4 with evidence; "
            "mean per question of gold turns in top k):"
        )
        for name, d in rec.items():
            r10, r20 = sum(d[10]) / len(d[10]), sum(d[20]) / len(d[20])
            print(f"    {name:24s}: recall@10 {r10:.4f}  recall@20 {r20:.4f}")
        shared, alone = ov["5-user table"], ov["per-conversation"]
        print(
            f"  top-10 overlap with ours: FTS5 5-user table {sum(shared) / n_q:.4f}, "
            f"FTS5 per-conversation {sum(alone) / n_q:.4f}; identical top-10 sets: "
            f"{sum(x == 1.0 for x in shared)}/{n_q} and {sum(x == 1.0 for x in alone)}/{n_q}"
        )
        if exact_scores:
            print(
                "  score difference ours vs FTS5 per-conversation (same rank positions): "
                f"max {max(exact_scores):.2e}"
            )

        # latency on this small store, 200 questions (40 per conversation)
        queries = [
            (f"conv{ci}", tokenize(q))
            for ci, conv in enumerate(convs)
            for q, _, _ in conv.questions[:40]
        ]
        per_r, _ = time_queries(st, conn, queries, rounds)
        print(
            f"  query latency, k={K}, {len(queries)} questions, ~550 turns per user "
            "(5-user table for FTS5):"
        )
        report_latency(per_r)
        report_inserts(st)
        report_sizes(st)
        conn.close()
        per.close()
        st.close()
    finally:
        shutil.rmtree(root, ignore_errors=True)


def part_single(n: int, rounds: int) -> None:
    from langgraph_memory.core.tokens import tokenize

    convs = load_conversations()
    turns = [t for c in convs for t in c.turns]
    rows = synthetic_rows(turns, n, 11, "solo", "m")
    root = tempfile.mkdtemp(prefix="lgm-fts5-")
    try:
        st = Stores(root)
        print(f"== one user, {len(rows):,} synthetic messages (LoCoMo turns varied) ==")
        for i in range(0, len(rows), 5000):
            st.add(rows[i : i + 5000])
        report_inserts(st)
        report_sizes(st)
        for name in ("ours", "fts"):
            out = os.path.join(st.root, f"{name}.vacuumed")
            c = sqlite3.connect(os.path.join(st.root, f"{name}.sqlite3"))
            c.execute("VACUUM INTO ?", (out,))
            c.close()
            z = sizes(out)
            print(
                f"    after VACUUM: {name} file {z['(file)'] / 1e6:.1f} MB, "
                f"messages {z.get('messages', 0) / 1e6:.1f} MB"
            )
        stats_check(st, ["solo"])
        conn = st.fts_reader()
        queries = [("solo", tokenize(q)) for conv in convs for q, _, _ in conv.questions[:40]]

        def no_filter(u: str, terms: list[str]) -> Hits:
            if not terms:
                return []
            sql = "SELECT rowid, bm25(f) FROM f WHERE f MATCH ? ORDER BY rank LIMIT ?"
            return [(r, -s) for r, s in conn.execute(sql, (match_expr(terms), K))]

        t = time.perf_counter()
        st.bulk.execute("INSERT INTO f (f) VALUES ('optimize')")
        took, mb = time.perf_counter() - t, sizes(st.bulk_path)["(file)"] / 1e6
        print(
            "  FTS5 'optimize' of the bulk-loaded table (one b-tree segment): "
            f"{took:.1f} s; file then {mb:.1f} MB"
        )
        extra: dict[str, Search] = {
            "FTS5 no user filter": no_filter,
            "FTS5 optimized": lambda u, t: fts_search(st.bulk, u, t),
        }
        per_r, (ro, _rf) = time_queries(st, conn, queries, rounds, extra)
        print(f"  query latency, k={K}, {len(queries)} LoCoMo questions:")
        report_latency(per_r)
        tb = [fts_search(conn, u, t, 10, tiebreak=True) for u, t in queries]
        ov = [overlap(a, b) for a, b in zip(ro, tb, strict=True)]
        print(
            f"  top-10 overlap with ours (FTS5 ties by rowid): {sum(ov) / len(ov):.4f}; "
            f"identical top-10 sets {sum(x == 1.0 for x in ov)}/{len(ov)}"
        )
        conn.close()
        st.close()
    finally:
        shutil.rmtree(root, ignore_errors=True)


def part_multi(n: int, rounds: int) -> None:
    from langgraph_memory.core.tokens import tokenize

    convs = load_conversations()
    rows: list[Row] = []
    for u in range(10):
        rows.extend(synthetic_rows(convs[u % 5].turns, n // 10, 100 + u, f"user{u}", f"u{u}m"))
    random.Random(5).shuffle(rows)  # users write interleaved
    root = tempfile.mkdtemp(prefix="lgm-fts5-")
    try:
        st = Stores(root)
        print(f"== 10 users x {n // 10:,} in one table (user i from conversation i % 5) ==")
        for i in range(0, len(rows), 5000):
            st.add(rows[i : i + 5000])
        report_inserts(st)
        report_sizes(st)
        conn = st.fts_reader()
        # rowid order in f is insertion order, and so is messages' seq order in fts.sqlite3
        f_ids = dict(
            zip(
                [r for (r,) in st.fts._conn.execute("SELECT rowid FROM f ORDER BY rowid")],
                [i for (i,) in st.fts._conn.execute("SELECT id FROM messages ORDER BY seq")],
                strict=True,
            )
        )
        # FTS5 with the user as an indexed token column (weight 0 in bm25), in the bulk file
        st.bulk.execute(
            FTS_DDL.replace(" f USING fts5(terms, user_id UNINDEXED,", " g USING fts5(terms, u,")
        )
        # ORDER BY rank with u weighted 0
        st.bulk.execute("INSERT INTO g (g, rank) VALUES ('rank', 'bm25(1.0, 0.0)')")
        st.bulk.execute("BEGIN")
        st.bulk.executemany(
            "INSERT INTO g (rowid, terms, u) VALUES (?, ?, ?)",
            conn.execute("SELECT rowid, terms, 'u_' || user_id FROM f").fetchall(),
        )
        st.bulk.execute("COMMIT")

        def token_col(u: str, terms: list[str]) -> Hits:
            if not terms:
                return []
            q = f'u : "u_{u}" AND terms : ({match_expr(terms)})'
            sql = "SELECT rowid, bm25(g, 1.0, 0.0) FROM g WHERE g MATCH ? ORDER BY rank LIMIT ?"
            return [(r, -s) for r, s in st.bulk.execute(sql, (q, K))]

        for uid, ci in (("user0", 0), ("user1", 1)):
            queries = [(uid, tokenize(q)) for q, _, _ in convs[ci].questions[:200]]
            per_r, (ro, _rf) = time_queries(
                st, conn, queries, rounds, {"FTS5 user token column": token_col}
            )
            print(f"  {uid}: query latency, k={K}, {len(queries)} questions of conversation {ci}:")
            report_latency(per_r)
            # rankings: the shared table's statistics against per-user ones (FTS5 rowids
            # and our seqs differ: mapped by message id)
            o_ids = dict(
                st.ours._conn.execute("SELECT seq, id FROM messages WHERE user_id = ?", (uid,))
            )
            # an FTS5 table holding only this user (per-user statistics, as ours)
            solo = sqlite3.connect(":memory:")
            solo.execute(FTS_DDL)
            solo.executemany(
                "INSERT INTO f (rowid, terms, user_id) VALUES (?, ?, ?)",
                conn.execute(
                    "SELECT rowid, terms, user_id FROM f WHERE user_id = ?", (uid,)
                ).fetchall(),
            )
            ov_shared, ov_solo, top1, ov_tok = [], [], [], []
            for (u, terms), a in zip(queries, ro, strict=True):
                a10 = [(o_ids[s], v) for s, v in a[:10]]
                b10 = [(f_ids[r], v) for r, v in fts_search(conn, u, terms, 10, tiebreak=True)]
                c10 = []
                if terms:
                    c10 = [
                        (f_ids[r], -s)
                        for r, s in solo.execute(
                            "SELECT rowid, bm25(f) FROM f WHERE f MATCH ? AND user_id = ? "
                            "ORDER BY rank, rowid LIMIT 10",
                            (match_expr(terms), u),
                        ).fetchall()
                    ]
                ov_shared.append(overlap(a10, b10))
                ov_solo.append(overlap(a10, c10))
                ov_tok.append(overlap(a10, [(f_ids[r], v) for r, v in token_col(u, terms)[:10]]))
                top1.append(bool(a10) and bool(b10) and a10[0][0] == b10[0][0])
            solo.close()
            nq = len(queries)
            print(
                f"    top-10 overlap with ours: FTS5 shared 10-user table "
                f"{sum(ov_shared) / nq:.4f} (identical sets {sum(x == 1.0 for x in ov_shared)}/"
                f"{nq}, same top-1 {sum(top1)}/{nq}); FTS5 table of this user alone "
                f"{sum(ov_solo) / nq:.4f} (identical sets {sum(x == 1.0 for x in ov_solo)}/{nq}); "
                f"FTS5 user token column {sum(ov_tok) / nq:.4f}"
            )
        conn.close()
        st.close()
    finally:
        shutil.rmtree(root, ignore_errors=True)


PARTS = ("locomo", "multi", "single")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--part", choices=PARTS, action="append", help="a part (default: all)")
    parser.add_argument("--n", type=int, help="messages of multi and single (default 100,000)")
    parser.add_argument("--rounds", type=int, help="query rounds (default 4; --quick 2)")


def run(args: argparse.Namespace) -> None:
    n = args.n or (5_000 if args.quick else 100_000)
    rounds = args.rounds or (2 if args.quick else 4)
    for i, part in enumerate(args.part or PARTS):
        if i:
            print()
        if part == "locomo":
            part_locomo(rounds)
        elif part == "multi":
            part_multi(n, rounds)
        else:
            part_single(n, rounds)
