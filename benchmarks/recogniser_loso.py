"""Does the learned second opinion generalise to an author it never saw? Leave one set out.

Usage:
    python benchmarks/recogniser_loso.py                   # dev3..dev9, every variant
    python benchmarks/recogniser_loso.py --sets 7 8 --variants rules both

For each of ``beliefs_dev3..9`` in turn: train the recogniser on the other six
(:func:`train_recogniser.build`: the weights on all six and the background chat, the
thresholds on their out-of-fold scores, so nothing is chosen on the set left out), then
run the beliefs
benchmark's own checks (:class:`beliefs.Run`) on the left-out set's instruction,
preference and control cases with

- ``rules``: the rules alone (the recogniser off);
- ``add``: the recogniser adds an instruction the rules missed (``p >= t``);
- ``veto``: it drops a rule's instruction or preference it scores very low (``p < v``);
- ``both``.

and prints instruction capture and reach, preference capture, capture with the right
value, and controls turned into beliefs, per set and on average. Adopt a variant only if
it raises capture on the left-out sets on average without raising controls.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import beliefs  # noqa: E402
import train_recogniser as tr  # noqa: E402

from langgraph_memory.extraction import recogniser  # noqa: E402

VARIANTS = {
    "rules": {"add_instruction": False, "veto": False},
    "add": {"add_instruction": True, "veto": False},
    "veto": {"add_instruction": False, "veto": True},
    "both": {"add_instruction": True, "veto": True},
}
COLUMNS = (
    ("instruction", "capture"),
    ("instruction", "reach"),
    ("preference", "capture"),
    ("preference", "capture_value"),
    ("control", "false_positive"),
)


def figures(n: int) -> dict[tuple[str, str], float]:
    """The beliefs benchmark's checks on dev set ``n`` (instruction, preference, control)."""
    cases = [c for c in tr.load_set(n) if c["kind"] in ("instruction", "preference", "control")]
    run = beliefs.Run(cases, 2048)
    run.ingest()
    got: dict[tuple[str, str], list[bool]] = {}
    for case in cases:
        for measure, ok in run.check(case).items():
            got.setdefault((case["kind"], measure), []).append(ok)
    run.mm.close()
    return {k: sum(v) / len(v) for k, v in got.items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", type=int, nargs="*", default=list(tr.SETS))
    ap.add_argument("--variants", nargs="*", default=list(VARIANTS), choices=list(VARIANTS))
    args = ap.parse_args(argv)
    cache: dict[int | str, list[tr.Sentence]] = {}
    rows: dict[str, list[list[float]]] = {v: [] for v in args.variants}
    head = f"{'set':5} {'variant':8}" + "".join(f"{k[:5] + '.' + m:>20}" for k, m in COLUMNS)
    print(head + f"{'thresholds':>12}")
    print("-" * (len(head) + 12))
    saved = dict(recogniser.SETTINGS)
    try:
        for n in args.sets:
            model = tr.build([*(m for m in tr.SETS if m != n), *tr.BACKGROUND], cache)
            recogniser.use(model)
            note = f"add {model.add['instruction']:.2f} veto i{model.veto['instruction']:.3f}"
            note += f" p{model.veto['preference']:.3f}"
            for variant in args.variants:
                recogniser.SETTINGS.update(VARIANTS[variant])
                f = figures(n)
                cells = [f.get(c, float("nan")) for c in COLUMNS]
                rows[variant].append(cells)
                line = f"dev{n:<2} {variant:8}" + "".join(f"{x:20.3f}" for x in cells)
                print(line + (f"  {note}" if variant == args.variants[0] else ""), flush=True)
    finally:
        recogniser.SETTINGS.update(saved)
        recogniser.use(None)
    print("-" * (len(head) + 12))
    for variant, got in rows.items():
        mean = [sum(r[i] for r in got) / len(got) for i in range(len(COLUMNS))]
        print(f"{'mean':5} {variant:8}" + "".join(f"{x:20.3f}" for x in mean))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
