"""Write ``sensitivity_heldout4.jsonl``: a fourth held-out set for the secret / PII detector
(issue 38), written by an outside author who did not read the detector
(``langgraph_memory/sensitivity/``), its tests, its tuning corpus or the earlier sets' lines.
Only ``benchmarks/sensitivity.py`` (scoring, kinds) and the value generators of
``benchmarks/data/make_sensitivity_heldout.py`` (imported, reseeded here) were read.

Usage:
    python tests/data/make_sensitivity_heldout4.py           # (re)write the jsonl
    python tests/data/make_sensitivity_heldout4.py --check   # verify rules and that the
                                                             # file matches; write nothing

Lines (``sensitivity_heldout4_lines.py``) are chat messages a user types to an assistant,
half English and half Chinese: values said in prose, with typos, lowercase, no
punctuation, fillers, the value before its label, quoted values, values in JSON / YAML /
``.env`` / URLs / shell commands / logs, full-width punctuation and mixed zh/en; and a
large share of negatives (a secret word with no value, placeholders, public keys, hashes,
UUIDs, order numbers, versions, prices, dates, code identifiers, "password manager",
"reset my PIN", look-alikes that fail their check).

Slot syntax: ``⟦kind=value⟧`` a hand-written positive; ``⟦kind@gen⟧`` a positive from
generator ``gen``; ``⟦~gen⟧`` a look-alike filler from ``gen`` (no span). Kind codes:
``sec`` secret, ``ak`` api_key, ``tok`` token, ``pk`` private_key, ``em`` email,
``ph`` phone, ``id`` cn_id, ``ssn``, ``card``, ``iban``.

Labelling (from the definitions in ``benchmarks/sensitivity.py``, fixed before any
figure was seen):
- ``secret``: a value written after (or just before) a label naming a password, passphrase,
  PIN, passcode, verification / backup / recovery code, card security code, door / gate /
  safe / alarm code, Wi-Fi key, a key, token or secret without a telling shape; a
  password given by a command-line flag or inside a URL / connection string / DSN;
- ``api_key``: a key whose provider prefix gives it away, wherever it is written;
- ``token``: a JWT anywhere, and the credential of an HTTP ``Authorization`` header (without
  the scheme word) or of a session cookie;
- ``private_key``: the whole block from ``-----BEGIN`` to the end line (also JSON-escaped);
- ``email``, ``phone`` (as written, ``+86`` included), ``cn_id`` (valid check character),
  ``ssn``, ``card`` (Luhn-valid, as written), ``iban`` (valid check digits, as written).
Gold values are minimal (no quotes, no scheme word, no trailing punctuation). Postal
addresses, account / order / passport numbers are not a kind: never labelled.

Halves: a line is **held** when the SHA-256 of its final text (UTF-8) is odd, else
**tune** (``benchmarks/sensitivity.py``'s ``half_of``); each row carries ``half``.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "benchmarks" / "data"))
sys.path.insert(0, str(HERE))
import make_sensitivity_heldout as h1  # noqa: E402
from heldout_maker import run  # noqa: E402

OUT = HERE / "sensitivity_heldout4.jsonl"
SEED = 20261208
OTHER_SETS = [
    "sensitivity_corpus.jsonl",
    "sensitivity_dev.jsonl",
    "sensitivity_heldout.jsonl",
    "sensitivity_heldout2.jsonl",
    "sensitivity_heldout3.jsonl",
]
KIND = {
    "sec": "secret",
    "ak": "api_key",
    "tok": "token",
    "pk": "private_key",
    "em": "email",
    "ph": "phone",
    "id": "cn_id",
    "ssn": "ssn",
    "card": "card",
    "iban": "iban",
}

_NAMES = (
    "maya.lindqvist tom.okafor chen.yue r.alvarez jwong88 liu_fang sam.k.patel hannah.b".split()
)
_NAMES += "zhangwei1990 kowalczyk.p ines.moreau wu.hao".split()
_DOMAINS = "gmail.com outlook.com proton.me 163.com qq.com icloud.com fastmail.com".split()
_DOMAINS += "yahoo.co.uk 126.com acme-labs.io".split()


def _email() -> str:
    return (
        h1.rng.choice(_NAMES)
        + h1.rng.choice(["", "", "+work", "2"])
        + "@"
        + h1.rng.choice(_DOMAINS)
    )


def _bcrypt() -> str:
    return "$2b$12$" + h1.pick("./" + h1.ALNUM, 53)


def _meeting() -> str:
    return f"{h1.digits(3, '8')} {h1.digits(3)} {h1.digits(3)}"


def _escaped_pem() -> str:
    return h1.pem("PRIVATE KEY", 26, "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC").replace("\n", "\\n")


GEN = {name: fn for name, (_, fn) in h1.POS.items()}
GEN.update(h1.NEG)
GEN.update(
    {
        "email": _email,
        "ssn9": lambda: h1.ssn().replace("-", ""),
        "cookie": lambda: h1.pick(h1.B64URL, h1.rng.randint(32, 48)),
        "hex64s": lambda: h1.pick(h1.HEX, 64),
        "hex40s": lambda: h1.pick(h1.HEX, 40),
        "opaque_s": lambda: h1.pick(h1.ALNUM, 36),
        "pem_pkcs8_esc": _escaped_pem,
        "bcrypt": _bcrypt,
        "mtg": _meeting,
    }
)

SLOT = re.compile(r"⟦([^⟦⟧]*)⟧")
BODY = re.compile(r"^(\w+)([=@])(.*)$", re.S)


def half_of(text: str) -> str:
    return "held" if int(hashlib.sha256(text.encode("utf-8")).hexdigest(), 16) % 2 else "tune"


def render(lang: str, template: str) -> dict[str, Any]:
    """One row: the template's slots filled, each positive recorded with its offset."""
    out: list[str] = []
    spans: list[dict[str, Any]] = []
    pos = length = 0
    for m in SLOT.finditer(template):
        piece = template[pos : m.start()]
        out.append(piece)
        length += len(piece)
        body = m.group(1)
        if body.startswith("~"):
            value = GEN[body[1:]]()
        else:
            b = BODY.match(body)
            assert b and b.group(1) in KIND, template
            value = b.group(3) if b.group(2) == "=" else GEN[b.group(3)]()
            spans.append({"kind": KIND[b.group(1)], "value": value, "at": length})
        out.append(value)
        length += len(value)
        pos = m.end()
    out.append(template[pos:])
    text = "".join(out)
    return {"lang": lang, "text": text, "spans": spans, "note": "", "half": half_of(text)}


def build() -> list[dict[str, Any]]:
    from sensitivity_heldout4_lines import EN, ZH  # noqa: PLC0415 (beside this script)

    h1.rng.seed(SEED)
    return [render("en", t) for t in EN] + [render("zh", t) for t in ZH]


_EDGE = set(" \t\n'\"`“”‘’「」『』,;，。；、：:")


def problems(rows: list[dict[str, Any]]) -> list[str]:
    """Every rule a row must keep (on top of the first set's checks: check digits,
    no valid look-alike outside the spans, no duplicate)."""
    errs = h1.problems(
        [
            {
                **r,
                "spans": [
                    {"kind": s["kind"], "value": s["value"]}
                    if r["text"].find(s["value"]) == s["at"]
                    else s
                    for s in r["spans"]
                ],
            }
            for r in rows
        ]
    )
    others: set[str] = set()
    for name in OTHER_SETS:
        path = HERE / name
        if path.exists():
            with path.open(encoding="utf-8") as f:
                others |= {json.loads(line)["text"] for line in f if line.strip()}
    for n, row in enumerate(rows, 1):
        text = row["text"]
        if text in others:
            errs.append(f"{n}: line copied from an earlier set")
        if row["half"] != half_of(text):
            errs.append(f"{n}: wrong half")
        ends: list[tuple[int, int]] = []
        for s in row["spans"]:
            v, at = s["value"], s["at"]
            if not v or v[0] in _EDGE or v[-1] in _EDGE:
                errs.append(f"{n}: value {v!r} is not minimal")
            if text[at : at + len(v)] != v:
                errs.append(f"{n}: {v!r} not at {at}")
            if s["kind"] == "ssn" and not re.fullmatch(r"\d{3}[- ]?\d{2}[- ]?\d{4}", v):
                errs.append(f"{n}: ssn {v!r} malformed")
            ends.append((at, at + len(v)))
        ends.sort()
        if any(a[1] > b[0] for a, b in zip(ends, ends[1:], strict=False)):
            errs.append(f"{n}: overlapping spans")
    return errs


def main() -> int:
    return run(__doc__ or "", build, problems, OUT)


if __name__ == "__main__":
    sys.exit(main())
