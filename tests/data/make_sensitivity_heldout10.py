# ruff: noqa: E501
"""Write ``sensitivity_heldout10.jsonl``: a tenth held-out set for the secret / PII detector,
written by an outside author who did not read the detector (``langgraph_memory/``), its
tests, its tuning corpus, the nearby sets or the lines of sets 2-9. Only
``benchmarks/sensitivity.py`` (how a set is read and scored, which kinds exist, what counts as
a secret), set 9's maker (whose labelling rules, slot syntax, halves rule and machinery this
script keeps, and whose value makers it reuses, with set 7's docstring it points to),
``tests/data/heldout_values.py``, ``heldout_rows.py`` and ``heldout_maker.py`` were looked at.
Every template is new. This set leans on what a user types in a hurry on a phone (Chinese
IME slips, pinyin labels such as ``mima``, full-width and half-width digits mixed inside one
value, spaces inside values), secrets inside URLs and connection strings of many schemes,
JSON / YAML nested several levels, values in markdown / CSV / TSV tables, Chinese bank,
social-security, medical-insurance, passport and Hong Kong / Macau permit details, and hard
look-alikes (hashes, UUIDs, build ids, order and tracking numbers, versions, invented card and
ID numbers that fail their check, passwords talked about without a value). Sets 8 and 9's
jsonl join the copy check. Own seed.

Usage:
    python tests/data/make_sensitivity_heldout10.py           # (re)write the jsonl
    python tests/data/make_sensitivity_heldout10.py --check   # verify rules and that the
                                                              # file matches; write nothing

Slot syntax, kind codes, labelling rules and halves: exactly sets 7-9's (see the docstring
of ``make_sensitivity_heldout7.py``). Reminders: ``⟦kind=value⟧`` a hand-written positive;
``⟦kind@gen⟧`` a positive drawn from generator ``gen``; ``⟦~gen⟧`` a look-alike filler (no
span). Gold values are minimal and as written (full-width digits, inner spaces and a line
break inside a wrapped value stay in the span). A password spelled as a pinyin label's value
(``mima``, ``yanzhengma``) is a secret like any other. Passport, Hong Kong / Macau permit,
social-security card, medical-insurance, account, order and tracking numbers are never
labelled; a social-security number that *is* a valid Chinese ID number is ``cn_id``. A line
is **held** when the SHA-256 of its final text (UTF-8) is odd, else **tune**.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from heldout_maker import run  # noqa: E402
from heldout_rows import problems, render  # noqa: E402
from heldout_values import (  # noqa: E402
    ALNUM,
    B64,
    DIG,
    HEX,
    UPPER,
    card,
    cnid,
    cnmob,
    fullwidth,
    group,
    non_luhn,
    pick,
    rng,
)
from make_sensitivity_heldout9 import GEN as GEN9  # noqa: E402  (sets 6-9's makers)

OUT = HERE / "sensitivity_heldout10.jsonl"
SEED = 10_20261208
OTHER_SETS = [
    "sensitivity_corpus.jsonl",
    "sensitivity_dev.jsonl",
    "sensitivity_heldout.jsonl",
    *(f"sensitivity_heldout{n}.jsonl" for n in range(2, 10)),
    "sensitivity_nearby_check.jsonl",
    "sensitivity_nearby_dev.jsonl",
]


def _mixfw(value: str) -> str:
    """Some digits full-width and some not, as an IME left them mid-typing."""
    return "".join(fullwidth(c) if c.isdigit() and rng.random() < 0.5 else c for c in value)


GEN: dict[str, Any] = {
    **GEN9,
    # positives in hurried forms
    "mob_mixfw": lambda: _mixfw(cnmob()),
    "mob_38": lambda: group(cnmob(), (3, 8)),
    "mob_434": lambda: group(cnmob(), (4, 3, 4)),
    "fw_mob_434": lambda: fullwidth(group(cnmob(), (4, 3, 4))),
    "cnid_mixfw": lambda: _mixfw(cnid()),
    "cnid_4s": lambda: group(cnid(), (4, 4, 4, 6)),
    "up19_667": lambda: group(card("6217", 19), (6, 6, 7)),
    "up19_mixfw": lambda: _mixfw(card("6228", 19)),
    "up16_44s": lambda: group(card("6259", 16), 8),
    "visa_mixfw": lambda: _mixfw(group(card("4", 16), 4)),
    "mc_d": lambda: group(card("5", 16), 4, "-"),
    "otp_sp": lambda: " ".join(pick(DIG, 6)),
    "otp_mixfw": lambda: _mixfw(pick(DIG, 6)),
    "hex32_up": lambda: pick("0123456789ABCDEF", 32),
    "b64_88pw": lambda: pick(B64, 86) + "==",
    # look-alikes (never labelled)
    "hkmo_permit": lambda: "C" + pick(DIG, 8),
    "passport_cn": lambda: rng.choice("EG") + pick(DIG, 8),
    "sscard": lambda: rng.choice(UPPER) + pick(DIG, 8),
    "medins": lambda: rng.choice(["YB", "H"]) + pick(DIG, 12),
    "build_id": lambda: (
        f"{rng.randint(2024, 2026)}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}.{rng.randint(1, 40)}"
    ),
    "run_id": lambda: str(rng.randint(10**9, 10**10)),
    "jd_order": lambda: non_luhn("3", 12),
    "pdd_order": lambda: f"{rng.randint(240101, 261231)}-{pick(DIG, 15)}",
    "meituan": lambda: non_luhn("27", 19),
    "card16_bad_fw": lambda: fullwidth(group(non_luhn("6222", 16), 4)),
    "card19_bad": lambda: group(non_luhn("6217", 19), (4, 4, 4, 4, 3)),
    "upc": lambda: pick(DIG, 12),
    "commit12": lambda: pick(HEX, 12),
    "req_id": lambda: pick(HEX, 8) + "-" + pick(HEX, 4),
    "alnum20": lambda: pick(ALNUM, 20),
    "ver4": lambda: (
        f"{rng.randint(1, 20)}.{rng.randint(0, 9)}.{rng.randint(0, 99)}.{rng.randint(1000, 9999)}"
    ),
    "hex40u": lambda: pick(HEX.upper(), 40),
}


def build() -> list[dict[str, Any]]:
    from sensitivity_heldout10_lines import EN, ZH  # noqa: PLC0415 (beside this script)

    rng.seed(SEED)
    return [render("en", t, GEN) for t in EN] + [render("zh", t, GEN) for t in ZH]


def main() -> int:
    others = [HERE / name for name in OTHER_SETS]
    return run(__doc__ or "", build, lambda rows: problems(rows, others), OUT)


if __name__ == "__main__":
    sys.exit(main())
