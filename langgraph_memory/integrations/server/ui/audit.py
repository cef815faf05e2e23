"""The inspector's audit list: every correction made through the pages, newest first.

One JSON line per correction in ``service_ui_audit.jsonl`` beside the keys file (made
0600), appended under a lock. A line names the tenant, the user, the key id that made
it, the action and its target ids, never the text it touched (a deleted message's words
must not outlive it here). Reading walks the file backwards from a byte offset in
blocks, so a page of one user's entries reads what it shows and a bounded stretch more,
never the whole file.

Example:
    >>> import tempfile, pathlib
    >>> log = AuditLog(pathlib.Path(tempfile.mkdtemp()) / "audit.jsonl")
    >>> _ = log.add("acme", "alice", "k1", "delete-message", "m1", "1 record deleted")
    >>> [e.action for e in log.page("acme", "alice").entries]
    ['delete-message']
    >>> log.page("globex", "alice").entries
    []
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path

__all__ = ["AuditLog", "AuditEntry", "AuditPage", "AUDIT_FILE"]

#: The audit file's name, beside the keys file.
AUDIT_FILE = "service_ui_audit.jsonl"
_BLOCK = 64 * 1024
#: Most bytes one page read walks back over (a page may end early; its cursor goes on).
MAX_SCAN_BYTES = 4 * 1024 * 1024


@dataclass(frozen=True)
class AuditEntry:
    """One correction.

    Attributes:
        at: When (ISO 8601, UTC).
        tenant: The tenant of the key that made it.
        user_id: The tenant's user it changed.
        key_id: The public id of the key used.
        action: ``delete-message``, ``retire-belief`` or ``preference-feedback``.
        target: The id it acted on.
        outcome: What happened, in words (ids and counts only).
    """

    at: str
    tenant: str
    user_id: str
    key_id: str
    action: str
    target: str
    outcome: str


@dataclass
class AuditPage:
    """A page of entries and where the next (older) page starts (``None``: no more)."""

    entries: list[AuditEntry] = field(default_factory=list)
    next_offset: int | None = None


class AuditLog:
    """An append-only JSON-lines file of corrections.

    Args:
        path: The file.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()

    def add(
        self, tenant: str, user_id: str, key_id: str, action: str, target: str, outcome: str
    ) -> AuditEntry:
        """Append one entry and return it."""
        entry = AuditEntry(
            datetime.now(timezone.utc).isoformat(timespec="seconds"),
            tenant,
            user_id,
            key_id,
            action,
            target,
            outcome,
        )
        line = json.dumps(asdict(entry), ensure_ascii=False) + "\n"
        with self._lock:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                os.write(fd, line.encode("utf-8"))
            finally:
                os.close(fd)
        return entry

    def page(
        self, tenant: str, user_id: str, *, before: int | None = None, limit: int = 50
    ) -> AuditPage:
        """The newest ``limit`` entries of one tenant's user that start before byte
        ``before`` (default: the end of the file)."""
        try:
            size = self.path.stat().st_size
        except FileNotFoundError:
            return AuditPage()
        end = size if before is None else max(0, min(before, size))
        out: list[AuditEntry] = []
        pos, carry, scanned = end, b"", 0
        with open(self.path, "rb") as f:
            while pos > 0 and scanned < MAX_SCAN_BYTES:
                start = max(0, pos - _BLOCK)
                f.seek(start)
                buf = f.read(pos - start) + carry
                scanned += pos - start
                cut = buf.find(b"\n") + 1 if start > 0 else 0
                if start > 0 and cut == 0:  # one line longer than a block: read on
                    pos, carry = start, buf
                    continue
                carry, whole, at = buf[:cut], buf[cut:], start + cut
                lines: list[tuple[int, bytes]] = []
                for raw in whole.split(b"\n"):
                    lines.append((at, raw))
                    at += len(raw) + 1
                for line_start, raw in reversed(lines):
                    entry = _entry(raw)
                    if entry is None or entry.tenant != tenant or entry.user_id != user_id:
                        continue
                    out.append(entry)
                    if len(out) == limit:
                        return AuditPage(out, line_start or None)
                pos = start
        return AuditPage(out, (pos + len(carry)) or None)


def _entry(raw: bytes) -> AuditEntry | None:
    raw = raw.strip()
    if not raw:
        return None
    try:
        data = json.loads(raw)
        return AuditEntry(**data)
    except (ValueError, TypeError):  # a torn or foreign line is skipped
        return None
