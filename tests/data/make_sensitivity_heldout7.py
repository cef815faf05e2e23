# ruff: noqa: E501
"""Write ``sensitivity_heldout7.jsonl``: a seventh held-out set for the secret / PII detector,
written by an outside author who did not read the detector (``langgraph_memory/sensitivity/``),
its tests, its tuning corpus, the nearby sets or the lines of sets 1-6. Only
``benchmarks/sensitivity.py`` (how a set is read and scored, which kinds exist, what counts as
a secret), set 6's maker (whose machinery and labelling rules this script keeps: slot syntax,
render, halves, check-digit generators, ``--check``) and ``tests/data/heldout_maker.py`` were
looked at. Every template is new; the value generators add new provider prefixes
(OpenRouter, Perplexity, Tavily, NVIDIA, LangSmith, Pinecone, Notion, Grafana, Vault,
Doppler, Supabase, Databricks, Volcengine, Baidu Qianfan, Atlassian, Fireworks, Render),
values wrapped over a line break, and look-alikes of their own (trace ids, pod names, parcel
and order numbers). Set 6's jsonl joins the copy check. Own seed.

Usage:
    python tests/data/make_sensitivity_heldout7.py           # (re)write the jsonl
    python tests/data/make_sensitivity_heldout7.py --check   # verify rules and that the
                                                             # file matches; write nothing

Lines (``sensitivity_heldout7_lines.py``) are what people type or paste to an assistant, half
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
A value wrapped over a line break (a paste cut by a terminal or a chat window) is one span
with the break inside it (this set's only addition; it follows from "the value as written").
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

OUT = HERE / "sensitivity_heldout7.jsonl"
SEED = 71207155
OTHER_SETS = [
    "sensitivity_corpus.jsonl",
    "sensitivity_dev.jsonl",
    "sensitivity_heldout.jsonl",
    "sensitivity_heldout2.jsonl",
    "sensitivity_heldout3.jsonl",
    "sensitivity_heldout4.jsonl",
    "sensitivity_heldout5.jsonl",
    "sensitivity_heldout6.jsonl",
    "sensitivity_nearby_check.jsonl",
    "sensitivity_nearby_dev.jsonl",
]

from heldout_values import (  # noqa: E402
    AK,
    ALNUM,
    B64URL,
    DIG,
    HEX,
    PEM,
    UPPER,
    card,
    cnmob,
    fullwidth,
    group,
    iban,
    jwt,
    pick,
    rng,
)
from heldout_values import GEN as GEN6  # noqa: E402  (set 6's value makers)

AK = {**AK}  # set 6's, and the prefixes new in set 7
AK.update(
    {
        "openrouter": lambda: "sk-or-v1-" + pick(HEX, 64),
        "pplx": lambda: "pplx-" + pick(ALNUM, 48),
        "tvly": lambda: "tvly-" + pick(ALNUM, 32),
        "nvapi": lambda: "nvapi-" + pick(B64URL, 64),
        "lsv2": lambda: "lsv2_pt_" + pick(HEX, 32) + "_" + pick(HEX, 10),
        "pcsk": lambda: "pcsk_" + pick(ALNUM, 6) + "_" + pick(ALNUM, 64),
        "ntn": lambda: "ntn_" + pick(ALNUM, 46),
        "glsa": lambda: "glsa_" + pick(ALNUM, 32) + "_" + pick(HEX, 8),
        "hvs": lambda: "hvs." + pick(ALNUM, 24),
        "ghs": lambda: "ghs_" + pick(ALNUM, 36),
        "doppler": lambda: "dp.st.prd." + pick(ALNUM, 43),
        "sbp": lambda: "sbp_" + pick(HEX, 40),
        "sb_secret": lambda: "sb_secret_" + pick(B64URL, 32),
        "dapi": lambda: "dapi" + pick(HEX, 32),
        "aklt": lambda: "AKLT" + pick(ALNUM, 42),
        "qianfan": lambda: "bce-v3/ALTAK-" + pick(ALNUM, 21) + "/" + pick(HEX, 40),
        "atatt": lambda: "ATATT3xFfGF0" + pick(B64URL, 170) + "=" + pick(HEX, 8).upper(),
        "fw": lambda: "fw_" + pick(ALNUM, 24),
        "rnd": lambda: "rnd_" + pick(ALNUM, 32),
        "ant_admin": lambda: "sk-ant-admin01-" + pick(B64URL, 93) + "AA",
        "dashscope": lambda: "sk-" + pick(HEX, 32),
    }
)


def wrapped(value: str, at: int) -> str:
    """A value cut over a line break ``at`` characters in."""
    return value[:at] + "\n" + value[at:]


GEN: dict[str, Any] = {
    **GEN6,  # set 6's makers, then the new ones
    "openai_wrap": lambda: wrapped(AK["openai"](), 27),
    "proj_wrap": lambda: wrapped(AK["openai_proj"](), 80),
    "jwt_wrap": lambda: wrapped(jwt(), 60),
    "ghp_wrap": lambda: wrapped(AK["ghp"](), 22),
    "hex64_wrap": lambda: wrapped(pick(HEX, 64), 32),
    "fw_card": lambda: fullwidth(card("4", 16)),
    "fw_mob_sp": lambda: fullwidth(group(cnmob(), (3, 4, 4))),
    "mob_dot": lambda: group(cnmob(), (3, 4, 4), "."),
    "sg_ph": lambda: "+65 " + rng.choice("89") + pick(DIG, 3) + " " + pick(DIG, 4),
    "jp_ph": lambda: "+81 90-" + pick(DIG, 4) + "-" + pick(DIG, 4),
    "fr_ph": lambda: "+33 6 " + " ".join(pick(DIG, 2) for _ in range(4)),
    "iban_at": lambda: group(iban("AT", pick(DIG, 16)), 4),
    "iban_ie": lambda: group(iban("IE", "AIBK" + pick(DIG, 14)), 4),
    "iban_se": lambda: iban("SE", pick(DIG, 20)),
    "iban_pt": lambda: group(iban("PT", pick(DIG, 21)), 4),
    "trace": lambda: pick(HEX, 32),
    "span16": lambda: pick(HEX, 16),
    "pod": lambda: (
        f"{rng.choice(['api', 'worker', 'gateway', 'billing'])}-{pick('bcdf6789', 9)}-{pick('bcdfghjklmnpqrstvwxz2456789', 5)}"
    ),
    "img12": lambda: pick(HEX, 12),
    "jd": lambda: pick(DIG, 12),
    "pdd": lambda: "2512" + pick(DIG, 2) + "-" + pick(DIG, 15),
    "zto": lambda: "7" + pick(DIG, 13),
    "ems": lambda: "E" + pick(UPPER, 1) + pick(DIG, 9) + "CN",
    "semver_rc": lambda: (
        f"v{rng.randint(1, 5)}.{rng.randint(0, 40)}.{rng.randint(0, 9)}-rc.{rng.randint(1, 6)}"
    ),
    "req": lambda: "req_" + pick(ALNUM, 24),
    "ulid": lambda: "01J" + pick("0123456789ABCDEFGHJKMNPQRSTVWXYZ", 23),
    "cid": lambda: "bafybei" + pick("abcdefghijklmnopqrstuvwxyz234567", 52),
    "amount": lambda: f"{rng.randint(1, 99)},{pick(DIG, 3)}.{pick(DIG, 2)}",
}
GEN.update(AK)
GEN.update(PEM)


def build() -> list[dict[str, Any]]:
    from sensitivity_heldout7_lines import EN, ZH  # noqa: PLC0415 (beside this script)

    rng.seed(SEED)
    return [render("en", t, GEN) for t in EN] + [render("zh", t, GEN) for t in ZH]


def main() -> int:
    others = [HERE / name for name in OTHER_SETS]
    return run(__doc__ or "", build, lambda rows: problems(rows, others), OUT)


if __name__ == "__main__":
    sys.exit(main())
