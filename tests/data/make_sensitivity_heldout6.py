# ruff: noqa: E501
"""Write ``sensitivity_heldout6.jsonl``: a sixth held-out set for the secret / PII detector,
written by an outside author who did not read the detector (``langgraph_memory/sensitivity/``),
its tests, its tuning corpus or the lines of the earlier sets. Only ``benchmarks/sensitivity.py``
(how a set is read and scored, which kinds exist, what counts as a secret) and the structure
of set 5's scripts (a lines module + this maker, slot syntax) were looked at; the value
generators below are this set's own (own seed, own shapes).

Usage:
    python tests/data/make_sensitivity_heldout6.py           # (re)write the jsonl
    python tests/data/make_sensitivity_heldout6.py --check   # verify rules and that the
                                                             # file matches; write nothing

Lines (``sensitivity_heldout6_lines.py``) are what people type or paste to an assistant, half
English and half Chinese, and about 45 % of them hold no span (look-alikes: talk about a
password without one, placeholders, hashes and digests of public artefacts, order / tracking /
invoice numbers, versions, UUIDs of public resources, public keys and certificates, code that
only names a secret, masked values, numbers with a bad check digit, postal addresses).

Slot syntax: ``⟦kind=value⟧`` a hand-written positive; ``⟦kind@gen⟧`` a positive drawn from
generator ``gen``; ``⟦~gen⟧`` a look-alike filler from ``gen`` (no span). Kind codes: ``sec``
secret, ``ak`` api_key, ``tok`` token, ``pk`` private_key, ``em`` email, ``ph`` phone,
``id`` cn_id, ``ssn``, ``card``, ``iban``.

Labelling (from the definitions in ``benchmarks/sensitivity.py``'s docstring):
- ``secret``: a value written after (or before, or far from) a label naming a password,
  passphrase, PIN, passcode, one-time / verification / backup / recovery code, Wi-Fi key,
  door / safe code, 提取码, or a key / token / secret whose shape does not name a provider;
  a password inside a URL, DSN or connection string, or given by a command-line flag;
- ``api_key``: a key whose provider prefix gives it away (``sk-``, ``AKIA``, ``ghp_``,
  ``glpat-``, ``xoxb-``, ``AIza``, ``SG.``, ``hf_``, ``LTAI``, ...), wherever it stands;
- ``token``: a JWT anywhere, and the credential of an HTTP ``Authorization`` header
  (without the scheme word) or of a session cookie;
- ``private_key``: the block from ``-----BEGIN`` to the end line (or to the last body line
  when the paste was cut);
- ``email``, ``phone`` (as written, country code included), ``cn_id`` (valid check
  character), ``ssn``, ``card`` (Luhn-valid, as written), ``iban`` (valid check digits, as
  written). Full-width digits are labelled as written.
Gold values are minimal (no quotes, backticks, scheme word or trailing punctuation).
Postal addresses, WeChat / QQ ids, passport, plate, order and account numbers are no kind
of the format: never labelled (a line holding only those is a negative). Public hotlines
(400-/800- numbers, 10086, 95588) name nobody: not ``phone``. Codes made to be shared
(取件码, 邀请码, meeting ids, booking references) are not secrets.

Halves: a line is **held** when the SHA-256 of its final text (UTF-8) is odd, else **tune**
(the fixed rule of ``benchmarks/sensitivity.py``'s ``half_of``, which the benchmark itself
applies); each row carries ``half``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from heldout_maker import run  # noqa: E402
from heldout_rows import problems, render  # noqa: E402

OUT = HERE / "sensitivity_heldout6.jsonl"
SEED = 60612071
OTHER_SETS = [
    "sensitivity_corpus.jsonl",
    "sensitivity_dev.jsonl",
    "sensitivity_heldout.jsonl",
    "sensitivity_heldout2.jsonl",
    "sensitivity_heldout3.jsonl",
    "sensitivity_heldout4.jsonl",
    "sensitivity_heldout5.jsonl",
    "sensitivity_nearby_check.jsonl",
    "sensitivity_nearby_dev.jsonl",
]

from heldout_values import (  # noqa: E402
    GEN,
    rng,
)


def build() -> list[dict[str, Any]]:
    from sensitivity_heldout6_lines import EN, ZH  # noqa: PLC0415 (beside this script)

    rng.seed(SEED)
    return [render("en", t, GEN) for t in EN] + [render("zh", t, GEN) for t in ZH]


def main() -> int:
    others = [HERE / name for name in OTHER_SETS]
    return run(__doc__ or "", build, lambda rows: problems(rows, others), OUT)


if __name__ == "__main__":
    sys.exit(main())
