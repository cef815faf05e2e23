"""Pages of a user's messages, sessions and records on PostgreSQL, newest first, each one
indexed range read (keyset pagination, see :mod:`langgraph_memory.storage.sqlite.pages`).

The messages by ``lgm_messages_user (user_id, seq)``, a session's by
``lgm_messages_session (user_id, session_id, pos)``, those holding some terms by the
``tsvector`` GIN index (every term, ``&``) checked against the message's term counts (and
the few messages without a ``tsvector`` by theirs alone), the sessions by walking the
newest messages and keeping each session's latest, the records by ``lgm_records_user
(user_id, kind, created_at)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from langgraph_memory.core.records import Message, Record
from langgraph_memory.storage.base import NO_SEQ, MessageCounts, SessionRow
from langgraph_memory.storage.postgres import sql as q
from langgraph_memory.storage.postgres.conn import PostgresConnection

if TYPE_CHECKING:
    from psycopg import Connection

__all__ = ["PostgresPages"]


class PostgresPages(PostgresConnection):
    """:meth:`message_page`, :meth:`session_page`, :meth:`message_counts` and
    :meth:`record_page` by index ranges."""

    def message_page(
        self,
        user_id: str,
        *,
        session_id: str | None = None,
        terms: Sequence[str] = (),
        before: int | None = None,
        limit: int = 50,
    ) -> list[Message]:
        top = NO_SEQ if before is None else int(before)
        limit = max(int(limit), 0)
        terms = [t for t in dict.fromkeys(terms) if "\x00" not in t]
        if limit == 0:
            return []
        sql = f"SELECT {q.MSG_COLS} FROM lgm_messages WHERE user_id = %(user_id)s"
        params: dict[str, object] = {"user_id": user_id, "top": top, "limit": limit}
        if session_id is not None:
            sql += (
                " AND session_id = %(session_id)s AND pos < COALESCE((SELECT pos FROM "
                "lgm_messages WHERE seq = %(top)s AND user_id = %(user_id)s AND "
                "session_id = %(session_id)s), 2147483647)"
            )
            params["session_id"] = session_id
        sql += " AND seq < %(top)s"
        if terms:
            sql += " AND (tsv @@ %(query)s::tsquery OR tsv IS NULL) AND tf ?& %(terms)s::text[]"
            params["query"] = " & ".join(q.tsquery_text([t]) for t in terms)
            params["terms"] = terms
        sql += " ORDER BY seq DESC LIMIT %(limit)s"
        rows = self._read(lambda c: c.execute(sql, params).fetchall())
        return [q.row_to_message(r) for r in rows]

    #: Messages a sessions page walks before it lists every session's latest instead
    #: (see :meth:`langgraph_memory.storage.sqlite.pages.SQLitePages.session_page`).
    SESSION_WALK = 2000

    def session_page(
        self, user_id: str, *, before: int | None = None, limit: int = 20
    ) -> list[SessionRow]:
        top = NO_SEQ if before is None else int(before)
        limit = max(int(limit), 0)
        if limit == 0:
            return []
        walk = (
            "SELECT m.session_id, m.pos + 1, m.ts, m.ts_offset, m.seq, f.ts, f.ts_offset "
            "FROM lgm_messages AS m LEFT JOIN lgm_messages AS f ON f.user_id = m.user_id "
            "AND f.session_id = m.session_id AND f.pos = 0 "
            "WHERE m.user_id = %(u)s AND m.seq < %(top)s AND m.seq > %(floor)s "
            "AND NOT EXISTS (SELECT 1 FROM lgm_messages AS n WHERE n.user_id = m.user_id "
            "AND n.session_id = m.session_id AND n.pos > m.pos) "
            "ORDER BY m.seq DESC LIMIT %(limit)s"
        )
        every = (
            "WITH RECURSIVE s(sid) AS ("
            "SELECT MIN(session_id) FROM lgm_messages WHERE user_id = %(u)s "
            "UNION ALL SELECT (SELECT session_id FROM lgm_messages WHERE user_id = %(u)s "
            "AND session_id > s.sid ORDER BY session_id LIMIT 1) "
            "FROM s WHERE s.sid IS NOT NULL), "
            "l AS (SELECT s.sid, (SELECT seq FROM lgm_messages WHERE user_id = %(u)s "
            "AND session_id = s.sid ORDER BY pos DESC LIMIT 1) AS seq "
            "FROM s WHERE s.sid IS NOT NULL) "
            "SELECT l.sid, m.pos + 1, m.ts, m.ts_offset, m.seq, f.ts, f.ts_offset "
            "FROM l JOIN lgm_messages AS m ON m.seq = l.seq "
            "LEFT JOIN lgm_messages AS f ON f.user_id = m.user_id "
            "AND f.session_id = m.session_id AND f.pos = 0 "
            "WHERE l.seq < %(top)s ORDER BY l.seq DESC LIMIT %(limit)s"
        )
        params: dict[str, object] = {"u": user_id, "top": top, "limit": limit}

        def page(c: Connection) -> list[tuple]:
            floor = c.execute(
                "SELECT seq FROM lgm_messages WHERE user_id = %(u)s AND seq < %(top)s "
                "ORDER BY seq DESC LIMIT 1 OFFSET %(walk)s",
                {**params, "walk": self.SESSION_WALK},
            ).fetchone()
            rows = c.execute(walk, {**params, "floor": floor[0] if floor else 0}).fetchall()
            if len(rows) < limit and floor is not None:  # the walk could not fill it
                rows = c.execute(every, params).fetchall()
            return rows

        out = []
        for sid, n, ts, off, seq, fts, foff in self._read(page):
            last = q.from_db_time(ts, off)
            first = last if fts is None else q.from_db_time(fts, foff)
            out.append(SessionRow(sid, int(n), first, last, int(seq)))
        return out

    def message_counts(self, user_id: str) -> MessageCounts:
        sql = (
            "SELECT (SELECT n_docs FROM lgm_user_stats WHERE user_id = %(u)s), "
            "(SELECT COUNT(*) FROM lgm_messages WHERE NOT embedded AND user_id = %(u)s), "
            "(WITH RECURSIVE s(sid) AS ("
            "SELECT MIN(session_id) FROM lgm_messages WHERE user_id = %(u)s "
            "UNION ALL SELECT (SELECT session_id FROM lgm_messages WHERE user_id = %(u)s "
            "AND session_id > s.sid ORDER BY session_id LIMIT 1) "
            "FROM s WHERE s.sid IS NOT NULL) SELECT COUNT(sid) FROM s)"
        )
        row = self._read(lambda c: c.execute(sql, {"u": user_id}).fetchone())
        assert row is not None
        return MessageCounts(int(row[0] or 0), int(row[1] or 0), int(row[2] or 0))

    def record_page(
        self,
        kind: str,
        user_id: str,
        *,
        before: tuple[str, str] | None = None,
        limit: int = 50,
    ) -> list[Record]:
        sql = f"SELECT {q.REC_COLS} FROM lgm_records WHERE user_id = %s AND kind = %s"
        params: list[object] = [user_id, kind]
        if before is not None:
            sql += " AND (created_at, id) < (%s::timestamptz, %s)"
            params += [datetime.fromisoformat(before[0]), before[1]]
        sql += " ORDER BY created_at DESC, id DESC LIMIT %s"
        params.append(max(int(limit), 0))
        rows = self._read(lambda c: c.execute(sql, params).fetchall())
        return [q.row_to_record(r) for r in rows]
