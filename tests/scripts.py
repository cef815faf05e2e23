"""Import a script of the repository (a benchmark, a graph file) by its path.

Scripts are not a package: each is loaded under a module name of the caller's choosing
and registered in ``sys.modules`` first, since dataclasses look their module up.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def load_script(path: Path, name: str) -> ModuleType:
    """The script at ``path`` (relative paths from the repository root), run as ``name``."""
    path = path if path.is_absolute() else ROOT / path
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
