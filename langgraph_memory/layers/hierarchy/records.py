"""How the hierarchy is kept: session states and segments as records of the store.

One record per session (kind :data:`STM_KIND`: its short-term pages and chains) and
one per segment (kind :data:`SEGMENT_KIND`). A segment's pages past each full block
of :data:`BLOCK_PAGES` are sealed into a record of their own (kind
:data:`SEGMENT_PAGES_KIND`), so saving a segment no longer grows with it.

Example:
    >>> from langgraph_memory.storage import InMemoryBackend
    >>> from langgraph_memory.layers.short_term.sessions import SessionState
    >>> kept = HierarchyRecords(InMemoryBackend())
    >>> kept.save_state(SessionState("ann", "s1"))
    >>> kept.load_state("ann", "s1").session_id, kept.session_ids("ann")
    ('s1', ['s1'])
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timezone
from typing import TYPE_CHECKING

from langgraph_memory.core.records import Record
from langgraph_memory.layers.mid_term.segments import Segment
from langgraph_memory.layers.short_term.pages import Page
from langgraph_memory.layers.short_term.sessions import SessionState

if TYPE_CHECKING:
    from langgraph_memory.storage.capabilities import RecordStore

__all__ = [
    "HierarchyRecords",
    "STM_KIND",
    "SEGMENT_KIND",
    "SEGMENT_PAGES_KIND",
    "BLOCK_PAGES",
    "stm_record_id",
]

#: Record kinds the hierarchy keeps.
STM_KIND = "stm"
SEGMENT_KIND = "segment"
#: A sealed block of a segment's pages (id ``"<segment id>#<block number>"``).
SEGMENT_PAGES_KIND = "segment_pages"
#: Pages per sealed block. A segment record holds only its pages after its sealed
#: blocks, so saving a segment no longer grows with it (it used to rewrite every page
#: on every save: most of the load time of a 100k-message user).
BLOCK_PAGES = 256


def _now() -> datetime:
    return datetime.now(timezone.utc)


def stm_record_id(user_id: str, session_id: str) -> str:
    """Record ids are unique per kind across users: the session's is derived from both."""
    digest = hashlib.sha1(f"{user_id}\x00{session_id}".encode()).hexdigest()[:20]
    return f"stm-{digest}"


class HierarchyRecords:
    """Loads and saves session states and segments through a record store.

    Args:
        records: Where they are kept.
    """

    def __init__(self, records: RecordStore) -> None:
        self.records = records

    # -- session states -----------------------------------------------------------------
    def load_state(self, user_id: str, session_id: str) -> SessionState:
        """A session's short-term state (an empty one when it was never saved)."""
        rec = self.records.get_record(STM_KIND, stm_record_id(user_id, session_id), user_id)
        return SessionState.load(user_id, rec.data) if rec else SessionState(user_id, session_id)

    def save_state(self, st: SessionState) -> None:
        """Save a session's short-term state."""
        now = _now()
        rid = stm_record_id(st.user_id, st.session_id)
        self.records.put_record(Record(STM_KIND, rid, st.user_id, st.dump(), now, now))

    def session_ids(self, user_id: str | None = None) -> list[str]:
        """The sessions with a saved state: one user's, or everyone's (oldest first)."""
        return [r.data["session_id"] for r in self.records.list_records(STM_KIND, user_id)]

    def sessions(self, user_id: str | None = None) -> list[tuple[str, str]]:
        """``(user_id, session_id)`` of the sessions with a saved state, oldest first."""
        return [
            (r.user_id, r.data["session_id"]) for r in self.records.list_records(STM_KIND, user_id)
        ]

    # -- segments -----------------------------------------------------------------------
    def load_segments(self, user_id: str) -> dict[str, Segment]:
        """Every segment of a user by id, archived ones included, with all their pages.

        Raises:
            RuntimeError: When a sealed block of pages is missing or damaged.
        """
        segs = {
            r.id: Segment.load(user_id, r.data)
            for r in self.records.list_records(SEGMENT_KIND, user_id)
        }
        if any(seg.sealed for seg in segs.values()):
            self._load_blocks(user_id, segs)
        return segs

    def _load_blocks(self, user_id: str, segs: dict[str, Segment]) -> None:
        """Put the pages of sealed blocks back in front of each segment's own pages.

        Only the blocks a segment's record counts are used: a block written by a save
        that died before its segment record is ignored (that record still holds those
        pages itself) and overwritten by the next save.
        """
        blocks: dict[tuple[str, int], list[Page]] = {}
        for r in self.records.list_records(SEGMENT_PAGES_KIND, user_id):
            seg_id, _, block_no = r.id.rpartition("#")
            blocks[(seg_id, int(block_no))] = [Page.load(p) for p in r.data["pages"]]
        for seg in segs.values():
            if not seg.sealed:
                continue
            front: list[Page] = []
            for number in range(seg.sealed // BLOCK_PAGES):
                block = blocks.get((seg.id, number))
                if block is None or len(block) != BLOCK_PAGES:
                    raise RuntimeError(
                        f"segment {seg.id!r} of user {user_id!r}: sealed page block "
                        f"{number} is missing or damaged"
                    )
                front += block
            seg.pages = front + seg.pages

    def rewrite_segment(self, seg: Segment) -> None:
        """Save a segment whose sealed pages changed: every block written again (and
        the blocks it no longer fills deleted), then its record."""
        before = seg.sealed // BLOCK_PAGES
        seg.sealed = 0
        self.save_segment(seg)
        stale = [f"{seg.id}#{n}" for n in range(seg.sealed // BLOCK_PAGES, before)]
        if stale:
            self.records.delete_records(SEGMENT_PAGES_KIND, stale, seg.user_id)

    def save_segment(self, seg: Segment) -> None:
        """Save a segment: its full blocks of pages sealed once each, then its record."""
        now = _now()
        while len(seg.pages) - seg.sealed >= BLOCK_PAGES:  # seal full blocks, once each
            number = seg.sealed // BLOCK_PAGES
            pages = seg.pages[seg.sealed : seg.sealed + BLOCK_PAGES]
            data = {"segment": seg.id, "pages": [p.dump(with_vector=False) for p in pages]}
            rid = f"{seg.id}#{number}"
            self.records.put_record(Record(SEGMENT_PAGES_KIND, rid, seg.user_id, data, now, now))
            seg.sealed += BLOCK_PAGES
        data = seg.dump(from_page=seg.sealed)
        self.records.put_record(Record(SEGMENT_KIND, seg.id, seg.user_id, data, now, now))
