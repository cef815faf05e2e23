"""Run a script in a child process and SIGKILL it a moment after it starts its work.

The harness of the crash tests (``test_atomic_deletion.py``, ``test_atomic_deletion_chroma.py``,
``test_crash_writes.py``) and their benchmarks: the child prints ``GO`` when its operation
begins (after opening the store) and ``DONE <seconds>`` when it ends.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def child_env() -> dict[str, str]:
    """The environment of a child: this checkout and its tests importable."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")])}


def run(script: str, args: list[str], timeout: float = 600) -> str:
    """Run ``script`` with ``args`` to its end (unkilled); its standard output."""
    return subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        env=child_env(),
        timeout=timeout,
        check=True,
    ).stdout


def seconds(out: str) -> float:
    """The seconds a child's ``DONE <seconds>`` line says its operation took."""
    return float(out.split("DONE", 1)[1].split()[0])


def run_and_kill(script: str, args: list[str], delay: float) -> float | None:
    """Run ``script`` with ``args`` and SIGKILL it ``delay`` s after its ``GO``; returns
    the seconds its operation took when it finished first, ``None`` when it was killed."""
    proc = subprocess.Popen(
        [sys.executable, "-c", script, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=child_env(),
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("GO"), (line, proc.stderr.read() if proc.stderr else "")
        try:
            proc.wait(timeout=delay)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=120)
            return None
        out = proc.stdout.read()
        return seconds(out) if "DONE" in out else 0.0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
