"""SQLite's write-ahead log file read as SQLite's recovery reads it: its header, its
frames, and which frames are whole (no I/O: bytes in, tables out).

The log is a 32-byte header (magic, version, page size, checkpoint sequence, two salts,
a checksum of the header) and frames of a 24-byte header (page number, the database size
after a commit — 0 for a frame that ends no transaction —, the two salts, a checksum)
and a page. Each frame's checksum continues the one before it (the first continues the
header's) over its first 8 header bytes and its page, in the byte order the magic names
(`the format <https://www.sqlite.org/fileformat2.html#walformat>`_). On open SQLite reads
frames up to the first whose salts differ from the header's or whose checksum fails, and
uses the transactions committed before it; the rest is taken for an unfinished write.

The checksum is computed for every frame at once: one pair of words moves the pair
``(s0, s1)`` by ``s0 += w0 + s1; s1 += w1 + s0``, a linear map ``M = [[1, 1], [1, 2]]``
plus ``(w0, w0 + w1)``, so a frame of ``K`` pairs ends at ``M**K @ start + sum_j
M**(K-1-j) @ v_j`` (mod 2**32), a product of arrays (numpy's ``uint64`` wraps mod 2**64,
a multiple of 2**32).

Example:
    >>> header = new_header(512, 7, 9)
    >>> header.valid, header.page_size, header.order, header.salts.hex()
    (True, 512, '<', '0000000700000009')
    >>> frame = frame_bytes(header, 1, 1, bytes(512), header.checksum)
    >>> table = frame_table(header.raw + frame, 512, "<", header.checksum)
    >>> table.chained.tolist(), table.commit.tolist(), table.salts_of(header.salts).tolist()
    ([True], [True], [True])
"""

from __future__ import annotations

import functools
import struct
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "HEADER",
    "FRAME_HEADER",
    "MAGIC",
    "WalHeader",
    "FrameTable",
    "checksum",
    "wal_header",
    "new_header",
    "frame_bytes",
    "frame_table",
    "valid_page_size",
]

#: Bytes of the log's header, and of a frame's header before its page.
HEADER, FRAME_HEADER = 32, 24
#: The magic numbers: little-endian checksums, big-endian checksums.
MAGIC = (0x377F0682, 0x377F0683)
_MASK = 0xFFFFFFFF
#: Frames checksummed per numpy pass (bounds the memory a large log takes).
_CHUNK = 1024


def valid_page_size(size: int) -> bool:
    """Whether ``size`` is a page size SQLite writes (a power of two, 512 to 65536)."""
    return 512 <= size <= 65536 and not size & (size - 1)


def checksum(data: bytes, s0: int, s1: int, order: str) -> tuple[int, int]:
    """SQLite's WAL checksum of ``data`` (a multiple of 8 bytes), continued from ``s0, s1``."""
    words = struct.unpack(f"{order}{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & _MASK
        s1 = (s1 + words[i + 1] + s0) & _MASK
    return s0, s1


class WalHeader(NamedTuple):
    """A log's header as read (``valid``: its magic, page size and checksum hold)."""

    raw: bytes
    magic: int
    page_size: int
    salts: bytes
    checksum: tuple[int, int]
    valid: bool

    @property
    def order(self) -> str:
        """The checksums' byte order (``struct``'s ``>`` or ``<``)."""
        return ">" if self.magic & 1 else "<"


def wal_header(data: bytes) -> WalHeader:
    """The header at the start of a log's bytes (its first 32 at least)."""
    head = bytes(data[:HEADER])
    magic, _, page_size = struct.unpack(">III", head[:12])
    stored = struct.unpack(">II", head[24:32])
    valid = magic in MAGIC and valid_page_size(page_size)
    if valid:
        order = ">" if magic & 1 else "<"
        valid = checksum(head[:24], 0, 0, order) == stored
    return WalHeader(head, magic, page_size, head[16:24], stored, valid)


def new_header(page_size: int, salt1: int, salt2: int, *, big_endian: bool = False) -> WalHeader:
    """A log's header as SQLite writes it (for tests and examples)."""
    head = struct.pack(">IIIIII", MAGIC[big_endian], 3007000, page_size, 0, salt1, salt2)
    s0, s1 = checksum(head, 0, 0, ">" if big_endian else "<")
    return wal_header(head + struct.pack(">II", s0, s1))


def frame_bytes(
    header: WalHeader, page: int, commit: int, data: bytes, previous: tuple[int, int]
) -> bytes:
    """A frame as SQLite writes it (for tests and examples): page number, database size
    after the commit (0: none), the header's salts, the checksum continued from
    ``previous``, then the page."""
    head = struct.pack(">II", page, commit)
    s0, s1 = checksum(head + data, *previous, header.order)
    return head + header.salts + struct.pack(">II", s0, s1) + data


class FrameTable(NamedTuple):
    """The frames of a log, one entry each (numpy arrays, frame ``i`` at index ``i``)."""

    #: The page number of each frame (0 in no valid frame).
    page: np.ndarray
    #: Whether the frame ends a transaction (its database size is set).
    commit: np.ndarray
    #: The two salts of each frame, as 8 raw bytes a row.
    salts: np.ndarray
    #: Whether the frame's checksum continues the stored checksum of the frame before it
    #: (the first frame: the start given, if any): the frame is whole, whatever came before.
    chained: np.ndarray

    def salts_of(self, salts: bytes) -> np.ndarray:
        """Whether each frame carries these salts (belongs to that log generation)."""
        import numpy as np

        return np.all(self.salts == np.frombuffer(salts, dtype=np.uint8), axis=1)


@functools.lru_cache(maxsize=16)
def _powers(pairs: int) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """For a frame of ``pairs`` word pairs: the entries ``(a, b, c, d)`` of
    ``M**(pairs-1-j)`` for each pair ``j`` (a ``(pairs, 4)`` array), and ``M**pairs``."""
    import numpy as np

    powers = [(1, 0, 0, 1)]
    for _ in range(pairs):
        a, b, c, d = powers[-1]
        powers.append(((a + b) & _MASK, (a + 2 * b) & _MASK, (c + d) & _MASK, (c + 2 * d) & _MASK))
    coefficients = np.array(powers[pairs - 1 :: -1], dtype=np.uint64)
    return coefficients, powers[pairs]


def frame_table(
    data: bytes, page_size: int, order: str, start: tuple[int, int] | None
) -> FrameTable:
    """The whole frames of a log's bytes (header included), read with this page size and
    byte order; ``start`` is the header's checksum the first frame continues (``None``:
    the first frame cannot be checked and counts as not chained)."""
    import numpy as np

    size = FRAME_HEADER + page_size
    count = max(0, (len(data) - HEADER) // size)
    frames = np.frombuffer(data, dtype=np.uint8, count=count * size, offset=HEADER)
    frames = frames.reshape(count, size)
    fields = frames[:, :24].copy().view(">u4")  # page, commit, salt 1, salt 2, checksum
    stored = fields[:, 4:6].astype(np.uint64)
    coefficients, (ma, mb, mc, md) = _powers(1 + page_size // 8)
    chained = np.zeros(count, dtype=bool)
    for lo in range(0, count, _CHUNK):
        chunk = frames[lo : lo + _CHUNK]
        words = np.concatenate([chunk[:, :8], chunk[:, FRAME_HEADER:]], axis=1)
        words = words.view(f"{order}u4").astype(np.uint64).reshape(len(chunk), -1, 2)
        v0 = words[:, :, 0]
        v1 = v0 + words[:, :, 1]
        c0 = v0 @ coefficients[:, 0] + v1 @ coefficients[:, 1]
        c1 = v0 @ coefficients[:, 2] + v1 @ coefficients[:, 3]
        previous = stored[max(lo - 1, 0) : lo + len(chunk) - 1]
        if lo == 0:
            first = np.array([start or (0, 0)], dtype=np.uint64)
            previous = np.concatenate([first, previous]) if count else first[:0]
        p0, p1 = previous[:, 0], previous[:, 1]
        e0 = (np.uint64(ma) * p0 + np.uint64(mb) * p1 + c0) & np.uint64(_MASK)
        e1 = (np.uint64(mc) * p0 + np.uint64(md) * p1 + c1) & np.uint64(_MASK)
        chained[lo : lo + len(chunk)] = (e0 == stored[lo : lo + len(chunk), 0]) & (
            e1 == stored[lo : lo + len(chunk), 1]
        )
    if start is None and count:
        chained[0] = False
    return FrameTable(
        page=fields[:, 0].astype(np.int64),
        commit=fields[:, 1] != 0,
        salts=frames[:, 8:16],
        chained=chained,
    )
