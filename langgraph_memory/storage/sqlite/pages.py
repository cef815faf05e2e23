"""Pages of a user's messages and sessions on SQLite, newest first, read by an index.

Each page is one indexed range of at most ``limit`` rows (keyset pagination on ``seq``),
so the first page and the thousandth cost the same and no call reads a user's messages
whole: the messages by ``messages_user (user_id, seq)`` (migration 6), a session's by
``messages_session (user_id, session_id, pos)``, those holding some terms by the posting
lists' primary key ``(user_id, term, seq)`` (with the few messages whose postings the
worker has not written yet read from their rows), the sessions by walking the newest
messages and keeping each session's latest.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime

from langgraph_memory.core.records import Message
from langgraph_memory.storage.base import NO_SEQ, MessageCounts, SessionRow
from langgraph_memory.storage.sqlite import sql as q
from langgraph_memory.storage.sqlite.lexical import SQLiteLexicalIndex

__all__ = ["SQLitePages"]

#: The message columns, qualified by the alias ``m``.
_M_COLS = ", ".join(f"m.{c.strip()}" for c in q.MSG_COLS.split(","))
#: A term's postings counted up to this many to pick the rarest term to walk.
_DF_CAP = 4096


class SQLitePages(SQLiteLexicalIndex):
    """:meth:`message_page` and :meth:`session_page` by index ranges."""

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
        if limit == 0:
            return []
        terms = list(dict.fromkeys(terms))
        with self._snapshot() as c:
            if terms:
                rows = self._term_page(c, user_id, session_id, terms, top, limit)
            elif session_id is None:
                rows = c.execute(
                    f"SELECT {q.MSG_COLS} FROM messages INDEXED BY messages_user "
                    "WHERE user_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?",
                    (user_id, top, limit),
                ).fetchall()
            else:
                # pos follows seq within a session: the page ends before the cursor's
                # place (looked up by its seq) when it is still there
                rows = c.execute(
                    f"SELECT {q.MSG_COLS} FROM messages INDEXED BY messages_session "
                    "WHERE user_id = ? AND session_id = ? AND seq < ? AND pos < COALESCE("
                    "(SELECT pos FROM messages WHERE seq = ? AND +user_id = ? "
                    "AND +session_id = ?), 9223372036854775807) "
                    "ORDER BY pos DESC LIMIT ?",
                    (user_id, session_id, top, top, user_id, session_id, limit),
                ).fetchall()
        return [q.row_to_message(r) for r in rows]

    def _term_page(
        self,
        c: sqlite3.Connection,
        user_id: str,
        session_id: str | None,
        terms: list[str],
        top: int,
        limit: int,
    ) -> list[tuple]:
        """The rows of the page of messages holding every term: first those whose
        postings wait in their rows (the newest), then the indexed ones, walking the
        rarest term's posting list backwards and checking the others by key (or, within
        a session smaller than that list, the session's messages backwards)."""
        upto, waiting = self._unindexed(c, user_id)
        fresh = [
            seq
            for seq, counts, _ in reversed(waiting)
            if seq < top and all(t in counts for t in terms)
        ]
        rows: list[tuple] = []
        if fresh:
            marks = ",".join("?" * len(fresh))
            sess = " AND session_id = ?" if session_id is not None else ""
            rows = c.execute(
                f"SELECT {q.MSG_COLS} FROM messages WHERE seq IN ({marks}) AND +user_id = ?"
                f"{sess} ORDER BY seq DESC LIMIT ?",
                (*fresh, user_id, *([session_id] if session_id is not None else []), limit),
            ).fetchall()
        if len(rows) >= limit:
            return rows
        df = {
            t: c.execute(
                "SELECT COUNT(*) FROM (SELECT 1 FROM postings WHERE user_id = ? AND term = ? "
                "LIMIT ?)",
                (user_id, t, _DF_CAP),
            ).fetchone()[0]
            for t in terms
        }
        if min(df.values()) == 0:
            return rows
        lead, *rest = sorted(terms, key=lambda t: df[t])
        if session_id is not None:
            size = c.execute(  # its latest message's place + 1 (pos closes up on delete)
                "SELECT pos + 1 FROM messages INDEXED BY messages_session WHERE user_id = ? "
                "AND session_id = ? ORDER BY pos DESC LIMIT 1",
                (user_id, session_id),
            ).fetchone()
            if size is not None and size[0] < df[lead]:  # walk the session instead
                checks = "".join(
                    " AND EXISTS (SELECT 1 FROM postings o WHERE o.user_id = m.user_id "
                    "AND o.term = ? AND o.seq = m.seq)"
                    for _ in terms
                )
                rows += c.execute(
                    f"SELECT {q.MSG_COLS} FROM messages m INDEXED BY messages_session "
                    f"WHERE m.user_id = ? AND m.session_id = ? AND m.seq < ?{checks} "
                    "ORDER BY m.pos DESC LIMIT ?",
                    (user_id, session_id, min(top, upto + 1), *terms, limit - len(rows)),
                ).fetchall()
                return rows
        checks = "".join(
            " AND EXISTS (SELECT 1 FROM postings o WHERE o.user_id = p.user_id "
            "AND o.term = ? AND o.seq = p.seq)"
            for _ in rest
        )
        sess = " AND m.session_id = ?" if session_id is not None else ""
        rows += c.execute(
            f"SELECT {_M_COLS} FROM postings p JOIN messages m ON m.seq = p.seq "
            f"WHERE p.user_id = ? AND p.term = ? AND p.seq < ?{checks}{sess} "
            "ORDER BY p.seq DESC LIMIT ?",
            (
                user_id,
                lead,
                min(top, upto + 1),
                *rest,
                *([session_id] if session_id is not None else []),
                limit - len(rows),
            ),
        ).fetchall()
        return rows

    def message_counts(self, user_id: str) -> MessageCounts:
        """The user's message count kept for BM25 (``user_stats``), the pending ones by
        the queue's partial index (as long as the worker's backlog), the sessions by
        skipping from one session id to the next in ``messages_session`` (one seek
        each: 3 ms for 2,000 sessions, where counting distinct ids read all 100,000
        index entries, 15 ms)."""
        with self._snapshot() as c:
            n = c.execute("SELECT n_docs FROM user_stats WHERE user_id = ?", (user_id,)).fetchone()
            pending = c.execute(
                "SELECT COUNT(*) FROM messages INDEXED BY messages_pending "
                "WHERE embedded = 0 AND user_id = ?",
                (user_id,),
            ).fetchone()[0]
            sessions = c.execute(
                "WITH RECURSIVE s(sid) AS ("
                "SELECT MIN(session_id) FROM messages WHERE user_id = ?1 "
                "UNION ALL SELECT (SELECT session_id FROM messages INDEXED BY messages_session "
                "WHERE user_id = ?1 AND session_id > s.sid ORDER BY session_id LIMIT 1) "
                "FROM s WHERE s.sid IS NOT NULL) SELECT COUNT(sid) FROM s",
                (user_id,),
            ).fetchone()[0]
        return MessageCounts(int(n[0]) if n else 0, int(pending), int(sessions))

    def session_page(
        self, user_id: str, *, before: int | None = None, limit: int = 20
    ) -> list[SessionRow]:
        """Walk the user's newest messages (below ``before``) keeping each session's
        latest, reading at most :attr:`SESSION_WALK` of them; when that is not enough
        (one long session's run of messages between the page's sessions), list every
        session's latest message instead, one seek per session (see :meth:`_every_session`).
        Either way a page costs at most a few thousand index seeks."""
        top = NO_SEQ if before is None else int(before)
        limit = max(int(limit), 0)
        if limit == 0:
            return []
        # a session's latest message is one with no later one in its session (by pos,
        # which follows seq); its pos + 1 is the session's size (pos closes up on delete)
        with self._snapshot() as c:
            # the walk's floor: the seq of the message SESSION_WALK places down (none: the
            # walk reaches the user's oldest message)
            floor = c.execute(
                "SELECT seq FROM messages INDEXED BY messages_user WHERE user_id = ? "
                "AND seq < ? ORDER BY seq DESC LIMIT 1 OFFSET ?",
                (user_id, top, self.SESSION_WALK),
            ).fetchone()
            rows = c.execute(
                "SELECT m.session_id, m.pos + 1, m.ts, m.seq, "
                "(SELECT f.ts FROM messages f WHERE f.user_id = m.user_id "
                "AND f.session_id = m.session_id AND f.pos = 0) "
                "FROM messages m INDEXED BY messages_user "
                "WHERE m.user_id = ? AND m.seq < ? AND m.seq > ? AND NOT EXISTS (SELECT 1 "
                "FROM messages n WHERE n.user_id = m.user_id AND n.session_id = m.session_id "
                "AND n.pos > m.pos) ORDER BY m.seq DESC LIMIT ?",
                (user_id, top, floor[0] if floor else 0, limit),
            ).fetchall()
            if len(rows) < limit and floor is not None:
                rows = self._every_session(c, user_id, top, limit)
        return [
            SessionRow(
                sid,
                int(n),
                datetime.fromisoformat(first or last),
                datetime.fromisoformat(last),
                int(seq),
            )
            for sid, n, last, seq, first in rows
        ]

    #: Messages a sessions page walks before it lists every session's latest instead.
    SESSION_WALK = 2000

    @staticmethod
    def _every_session(c: sqlite3.Connection, user_id: str, top: int, limit: int) -> list[tuple]:
        """The page from every session's latest message: skip from one session id to the
        next in ``messages_session``, and seek each one's last and first message."""
        return c.execute(
            "WITH RECURSIVE s(sid) AS ("
            "SELECT MIN(session_id) FROM messages WHERE user_id = ?1 "
            "UNION ALL SELECT (SELECT session_id FROM messages INDEXED BY messages_session "
            "WHERE user_id = ?1 AND session_id > s.sid ORDER BY session_id LIMIT 1) "
            "FROM s WHERE s.sid IS NOT NULL), "
            "l AS (SELECT s.sid, (SELECT seq FROM messages INDEXED BY messages_session "
            "WHERE user_id = ?1 AND session_id = s.sid ORDER BY pos DESC LIMIT 1) AS seq "
            "FROM s WHERE s.sid IS NOT NULL) "
            "SELECT l.sid, m.pos + 1, m.ts, m.seq, (SELECT f.ts FROM messages f "
            "WHERE f.user_id = ?1 AND f.session_id = l.sid AND f.pos = 0) "
            "FROM l JOIN messages m ON m.seq = l.seq WHERE l.seq < ?2 "
            "ORDER BY l.seq DESC LIMIT ?3",
            (user_id, top, limit),
        ).fetchall()
