"""Run code in a fresh interpreter: offline, with nothing of this process's environment
but ``PATH`` (so no test's imports or settings leak in)."""

from __future__ import annotations

import subprocess
import sys


def run_clean(code: str) -> str:
    """The standard output of ``python -c code`` in a fresh interpreter (raises
    ``CalledProcessError`` when it fails)."""
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"HF_HUB_OFFLINE": "1", "PATH": "/usr/bin:/bin"},
    ).stdout
