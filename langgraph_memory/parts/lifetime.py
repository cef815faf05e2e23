"""Whether a manager is still open: the manager and every part check it on each call."""

from __future__ import annotations

__all__ = ["Lifetime"]


class Lifetime:
    """Whether a manager is still open: every call of it and of its parts checks.

    Example:
        >>> life = Lifetime()
        >>> life.check(); life.close(); life.closed
        True
    """

    def __init__(self) -> None:
        self.closed = False

    def close(self) -> None:
        """Mark the manager closed."""
        self.closed = True

    def check(self) -> None:
        """Raise when the manager is closed.

        Raises:
            RuntimeError: When it is.
        """
        if self.closed:
            raise RuntimeError("this MemoryManager is closed")
