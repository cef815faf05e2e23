"""What the held-out set makers (``make_sensitivity_heldout4/5/6.py``) share: the counts
they print and their command line (write the set, or ``--check`` that the file is what
the maker writes and that its rules hold)."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

Rows = list[dict[str, Any]]


def counts(rows: Rows) -> str:
    """Lines per language and half, positive and negative, and spans per kind."""
    lines = Counter((r["lang"], r["half"], bool(r["spans"])) for r in rows)
    kinds = Counter((s["kind"], r["lang"], r["half"]) for r in rows for s in r["spans"])
    out = [f"{len(rows)} lines, {sum(1 for r in rows if not r['spans'])} without a span"]
    for lang in ("en", "zh"):
        for half in ("tune", "held"):
            out.append(
                f"  {lang} {half}: {lines[lang, half, True]} positive, "
                f"{lines[lang, half, False]} negative lines"
            )
    out.append("spans per kind (en tune / en held / zh tune / zh held):")
    for kind in sorted({k for k, _, _ in kinds}):
        per = [kinds[kind, lang, half] for lang in ("en", "zh") for half in ("tune", "held")]
        out.append(f"  {kind:<12} {sum(per):>4}  " + " / ".join(map(str, per)))
    return "\n".join(out)


def run(
    doc: str, build: Callable[[], Rows], problems: Callable[[Rows], list[str]], out: Path
) -> int:
    """A maker's command line: build the rows, check them, write ``out`` (or, with
    ``--check``, only verify it); the exit status is 1 on any problem."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="verify only; write nothing")
    args = ap.parse_args()
    rows = build()
    errs = problems(rows)
    data = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    if args.check and (not out.exists() or out.read_text("utf-8") != data):
        errs.append(f"{out.name} differs from what this script writes")
    for e in errs:
        print(e, file=sys.stderr)
    if errs:
        return 1
    if not args.check:
        out.write_text(data, "utf-8")
    print(counts(rows))
    return 0
