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

import base64
import hashlib
import json
import random
import re
import string
import sys
import uuid
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from heldout_maker import run  # noqa: E402

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

rng = random.Random(SEED)
DIG = string.digits
HEX = "0123456789abcdef"
UPPER = string.ascii_uppercase
ALNUM = string.ascii_letters + string.digits
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"


def pick(alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


_FW = str.maketrans("0123456789", "０１２３４５６７８９")
_ASCII = {c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)}


def fullwidth(value: str) -> str:
    return value.translate(_FW)


# -- check digits --------------------------------------------------------------------------
def luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def luhn_complete(body: str) -> str:
    for d in DIG:
        if luhn_ok(body + d):
            return body + d
    raise AssertionError(body)


_W = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]


def id_check(first17: str) -> str:
    return "10X98765432"[sum(int(c) * w for c, w in zip(first17, _W, strict=True)) % 11]


def id_ok(value: str) -> bool:
    return bool(re.fullmatch(r"\d{17}[\dX]", value)) and id_check(value[:17]) == value[17]


def _iban_num(s: str) -> int:
    return int("".join(str(int(c, 36)) for c in s))


def iban_ok(value: str) -> bool:
    v = value.replace(" ", "")
    return (
        bool(re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]{10,30}", v))
        and _iban_num(v[4:] + v[:4]) % 97 == 1
    )


def iban(cc: str, bban: str) -> str:
    check = 98 - _iban_num(bban + cc + "00") % 97
    return f"{cc}{check:02d}{bban}"


def group(s: str, sizes: tuple[int, ...] | int, sep: str = " ") -> str:
    if isinstance(sizes, int):
        return sep.join(s[i : i + sizes] for i in range(0, len(s), sizes))
    out, i = [], 0
    for n in sizes:
        out.append(s[i : i + n])
        i += n
    return sep.join(out)


# -- PII -----------------------------------------------------------------------------------
REGIONS = "110105 110108 310115 310104 440305 440106 510107 330106 420111 320102 370202 610113 500103 350203 210102 430104".split()


def cnmob() -> str:
    return "1" + rng.choice("3456789") + pick(DIG, 9)


def cnid(last: str | None = None) -> str:
    while True:
        y = rng.randint(1956, 2004)
        m = rng.randint(1, 12)
        d = rng.randint(1, 28)
        body = f"{rng.choice(REGIONS)}{y}{m:02d}{d:02d}{pick(DIG, 3)}"
        v = body + id_check(body)
        if last is None or v[-1] == last:
            return v


def bad_cnid() -> str:
    while True:
        v = cnid()
        wrong = rng.choice([c for c in "0123456789X" if c != v[-1]])
        if not id_ok(v[:17] + wrong):
            return v[:17] + wrong


def ssn() -> str:
    while True:
        area = rng.randint(1, 899)
        if area != 666:
            return f"{area:03d}-{rng.randint(1, 99):02d}-{rng.randint(1, 9999):04d}"


def card(prefix: str, length: int) -> str:
    return luhn_complete(prefix + pick(DIG, length - len(prefix) - 1))


def non_luhn(prefix: str, length: int) -> str:
    while True:
        v = prefix + pick(DIG, length - len(prefix))
        if not luhn_ok(v):
            return v


def usphone(style: str) -> str:
    a = f"{rng.randint(2, 9)}{pick(DIG, 2)}"
    while True:
        b = f"{rng.randint(2, 9)}{pick(DIG, 2)}"
        if b != "555":
            break
    c = pick(DIG, 4)
    return {
        "p": f"({a}) {b}-{c}",
        "d": f"{a}-{b}-{c}",
        "i": f"+1 {a} {b} {c}",
        "dot": f"{a}.{b}.{c}",
    }[style]


_FIRST = "olivia.hart dmitri.k priya.n jonah_reyes lena.vogel marcus.tan aiko.sato b.osei fionnuala.m tk.nguyen rosa.delgado wenjie.zhao".split()
_FIRST += "liyang88 xiaomei.chen hu_jun wangqian2002 zhou.tian sunny.lu ma_rui kevin.ho".split()
_DOMS = "gmail.com hotmail.com proton.me qq.com 163.com 126.com foxmail.com icloud.com outlook.com sina.com yandex.ru web.de northwind-labs.com hzu.edu.cn".split()


def email() -> str:
    return rng.choice(_FIRST) + rng.choice(["", "", "", ".work", "77"]) + "@" + rng.choice(_DOMS)


# -- credentials ---------------------------------------------------------------------------
def jwt(alg: str = "HS256") -> str:
    head = b64url(json.dumps({"alg": alg, "typ": "JWT"}, separators=(",", ":")).encode())
    claims = {
        "sub": str(rng.randint(10**5, 10**9)),
        "iat": rng.randint(1_760_000_000, 1_790_000_000),
        rng.choice(["role", "scope", "name", "tid"]): rng.choice(
            ["admin", "read:all", "service_role", "w" + pick(DIG, 5)]
        ),
    }
    body = b64url(json.dumps(claims, separators=(",", ":")).encode())
    return f"{head}.{body}.{pick(B64URL, 43 if alg == 'HS256' else 86)}"


def pem(label: str, start: str, lines: int) -> str:
    body = start + pick(B64, 64 * lines - len(start) - rng.randint(4, 30))
    rows = [body[i : i + 64] for i in range(0, len(body), 64)]
    return f"-----BEGIN {label}-----\n" + "\n".join(rows) + f"\n-----END {label}-----"


AK = {
    "openai": lambda: "sk-" + pick(ALNUM, 48),
    "openai_proj": lambda: "sk-proj-" + pick(B64URL, 74) + "T3BlbkFJ" + pick(B64URL, 74),
    "anthropic": lambda: "sk-ant-api03-" + pick(B64URL, 93) + "AA",
    "deepseek": lambda: "sk-" + pick(HEX, 32),
    "aws_id": lambda: "AKIA" + pick(UPPER + "234567", 16),
    "aws_sts": lambda: "ASIA" + pick(UPPER + "234567", 16),
    "ghp": lambda: "ghp_" + pick(ALNUM, 36),
    "gho": lambda: "gho_" + pick(ALNUM, 36),
    "github_pat": lambda: "github_pat_11" + pick(UPPER + DIG, 20) + "_" + pick(ALNUM, 59),
    "glpat": lambda: "glpat-" + pick(B64URL, 20),
    "xoxb": lambda: f"xoxb-{pick(DIG, 12)}-{pick(DIG, 13)}-{pick(ALNUM, 24)}",
    "xoxp": lambda: f"xoxp-{pick(DIG, 12)}-{pick(DIG, 12)}-{pick(DIG, 13)}-{pick(HEX, 32)}",
    "stripe_sk": lambda: "sk_live_" + pick(ALNUM, 99),
    "stripe_rk": lambda: "rk_live_" + pick(ALNUM, 58),
    "whsec": lambda: "whsec_" + pick(ALNUM, 32),
    "aiza": lambda: "AIza" + pick(B64URL, 35),
    "sendgrid": lambda: "SG." + pick(B64URL, 22) + "." + pick(B64URL, 43),
    "npm": lambda: "npm_" + pick(ALNUM, 36),
    "pypi": lambda: "pypi-AgEIcHlwaS5vcmc" + pick(B64URL, 120),
    "hf": lambda: "hf_" + pick(string.ascii_letters, 34),
    "shpat": lambda: "shpat_" + pick(HEX, 32),
    "dop": lambda: "dop_v1_" + pick(HEX, 64),
    "ltai": lambda: "LTAI5t" + pick(ALNUM, 18),
    "akid": lambda: "AKID" + pick(ALNUM, 32),
    "dckr": lambda: "dckr_pat_" + pick(B64URL, 27),
    "lin": lambda: "lin_api_" + pick(ALNUM, 40),
    "pmak": lambda: f"PMAK-{pick(HEX, 24)}-{pick(HEX, 34)}",
    "gsk": lambda: "gsk_" + pick(ALNUM, 52),
    "xai": lambda: "xai-" + pick(ALNUM, 80),
    "r8": lambda: "r8_" + pick(ALNUM, 37),
    "figd": lambda: "figd_" + pick(B64URL, 40),
    "sq": lambda: "sq0atp-" + pick(B64URL, 22),
    "age": lambda: "AGE-SECRET-KEY-1" + pick("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L".upper(), 58),
}

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


PEM = {
    "pem_rsa": lambda: pem("RSA PRIVATE KEY", "MIIEowIBAAKCAQEA", 6),
    "pem_ec": lambda: pem("EC PRIVATE KEY", "MHcCAQEEI", 3),
    "pem_p8": lambda: pem("PRIVATE KEY", "MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQ", 5),
    "pem_ssh": lambda: pem(
        "OPENSSH PRIVATE KEY",
        "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW",
        5,
    ),
    "pem_enc": lambda: pem(
        "ENCRYPTED PRIVATE KEY", "MIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkqhkiG9w0BBQwwHAQI", 4
    ),
    "pgp": lambda: (
        "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n"
        + "\n".join(pick(B64, 64) for _ in range(4))
        + "\n="
        + pick(B64, 4)
        + "\n-----END PGP PRIVATE KEY BLOCK-----"
    ),
    "pem_esc": lambda: pem("PRIVATE KEY", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", 4).replace(
        "\n", "\\n"
    ),
    "pem_cut": lambda: (
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
        + pick(B64, 64)
    ),
    "pem_rsa_cut": lambda: (
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEpQIBAAKCAQEA" + pick(B64, 48) + "\n" + pick(B64, 64)
    ),
}


def _iban_gen(cc: str) -> str:
    bban = {
        "DE": lambda: pick(DIG, 18),
        "GB": lambda: rng.choice(["NWBK", "BARC", "HBUK", "LOYD", "MIDL"]) + pick(DIG, 14),
        "FR": lambda: pick(DIG, 10) + pick(UPPER + DIG, 11) + pick(DIG, 2),
        "NL": lambda: rng.choice(["ABNA", "INGB", "RABO", "TRIO"]) + pick(DIG, 10),
        "ES": lambda: pick(DIG, 20),
        "CH": lambda: pick(DIG, 5) + pick(UPPER + DIG, 12),
        "IT": lambda: rng.choice(UPPER) + pick(DIG, 10) + pick(DIG, 12),
        "BE": lambda: pick(DIG, 12),
        "PL": lambda: pick(DIG, 24),
    }[cc]()
    return iban(cc, bban)


def bad_iban() -> str:
    while True:
        v = _iban_gen(rng.choice(["DE", "GB", "NL", "FR"]))
        w = v[:2] + f"{(int(v[2:4]) + rng.randint(1, 9)) % 100:02d}" + v[4:]
        if not iban_ok(w):
            return group(w, 4)


def backup_code() -> str:
    return rng.choice(
        [
            lambda: pick(DIG, 4) + "-" + pick(DIG, 4),
            lambda: (
                pick("abcdefghjkmnpqrstuvwxyz23456789", 5)
                + "-"
                + pick("abcdefghjkmnpqrstuvwxyz23456789", 5)
            ),
            lambda: pick(DIG, 8),
        ]
    )()


GEN: dict[str, Any] = {
    # PII
    "mob": cnmob,
    "mob_sp": lambda: group(cnmob(), (3, 4, 4)),
    "mob_d": lambda: group(cnmob(), (3, 4, 4), "-"),
    "mob86": lambda: "+86 " + cnmob(),
    "mob86c": lambda: "+86" + cnmob(),
    "mob86sp": lambda: "+86 " + group(cnmob(), (3, 4, 4)),
    "fw_mob": lambda: fullwidth(cnmob()),
    "usp": lambda: usphone("p"),
    "usd": lambda: usphone("d"),
    "usi": lambda: usphone("i"),
    "usdot": lambda: usphone("dot"),
    "uk": lambda: "+44 7" + pick(DIG, 3) + " " + pick(DIG, 6),
    "uk0": lambda: "07" + pick(DIG, 3) + " " + pick(DIG, 3) + " " + pick(DIG, 3),
    "de_ph": lambda: "+49 15" + pick(DIG, 1) + " " + pick(DIG, 8),
    "hk_ph": lambda: "+852 " + rng.choice("569") + pick(DIG, 3) + " " + pick(DIG, 4),
    "email": email,
    "cnid": cnid,
    "cnid_x": lambda: cnid("X"),
    "cnid_xl": lambda: cnid("X")[:17] + "x",
    "fw_cnid": lambda: fullwidth(cnid()),
    "cnid_sp": lambda: group(cnid(), (6, 8, 4)),
    "ssn": ssn,
    "ssn9": lambda: ssn().replace("-", ""),
    "ssn_sp": lambda: ssn().replace("-", " "),
    "visa": lambda: card("4", 16),
    "visa_s": lambda: group(card("4", 16), 4),
    "visa_d": lambda: group(card("4", 16), 4, "-"),
    "mc": lambda: card(rng.choice(["51", "52", "53", "54", "55"]), 16),
    "mc_s": lambda: group(card(rng.choice(["51", "53", "55", "2221", "2720"]), 16), 4),
    "amex": lambda: group(card(rng.choice(["34", "37"]), 15), (4, 6, 5)),
    "amex_c": lambda: card(rng.choice(["34", "37"]), 15),
    "up16": lambda: card("62", 16),
    "up16_s": lambda: group(card("622", 16), 4),
    "up19": lambda: card("62", 19),
    "up19_s": lambda: group(card("621", 19), (4, 4, 4, 4, 3)),
    "fw_up16": lambda: fullwidth(card("62", 16)),
    "jcb": lambda: group(card("35", 16), 4),
    "disc": lambda: group(card("6011", 16), 4, "-"),
    "iban_de": lambda: group(_iban_gen("DE"), 4),
    "iban_dec": lambda: _iban_gen("DE"),
    "iban_gb": lambda: group(_iban_gen("GB"), 4),
    "iban_gbc": lambda: _iban_gen("GB"),
    "iban_fr": lambda: group(_iban_gen("FR"), 4),
    "iban_nl": lambda: _iban_gen("NL"),
    "iban_es": lambda: group(_iban_gen("ES"), 4),
    "iban_ch": lambda: group(_iban_gen("CH"), 4),
    "iban_it": lambda: _iban_gen("IT"),
    "iban_be": lambda: group(_iban_gen("BE"), 4),
    "iban_pl": lambda: group(_iban_gen("PL"), 4),
    # credentials
    "jwt": jwt,
    "jwt_rs": lambda: jwt("RS256"),
    "hex32": lambda: pick(HEX, 32),
    "hex40": lambda: pick(HEX, 40),
    "hex64": lambda: pick(HEX, 64),
    "b64_40": lambda: pick(B64, 40),
    "b64_88": lambda: pick(B64, 86) + "==",
    "alnum24": lambda: pick(ALNUM, 24),
    "alnum32": lambda: pick(ALNUM, 32),
    "b32": lambda: pick(UPPER + "234567", 32),
    "b32_16": lambda: group(pick(UPPER.lower() + "234567", 32), 4),
    "cookie": lambda: pick(B64URL, 40),
    "backup": backup_code,
    "otp6": lambda: pick(DIG, 6),
    "fw_otp6": lambda: fullwidth(pick(DIG, 6)),
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
    # look-alikes (never labelled)
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
    "sha40": lambda: pick(HEX, 40),
    "sha7": lambda: pick(HEX, 7),
    "sha256": lambda: pick(HEX, 64),
    "md5": lambda: pick(HEX, 32),
    "digest": lambda: "sha256:" + pick(HEX, 64),
    "integrity": lambda: "sha512-" + pick(B64, 86) + "==",
    "uuid": lambda: str(uuid.UUID(int=rng.getrandbits(128), version=4)),
    "order16": lambda: non_luhn(rng.choice(["2025", "2026"]), 16),
    "order19": lambda: non_luhn("2026", 19),
    "order18": lambda: bad_cnid()[:17] + rng.choice(DIG),
    "badcnid": bad_cnid,
    "badluhn16": lambda: group(non_luhn("4", 16), 4),
    "badluhn_up": lambda: non_luhn("62", 19),
    "badiban": bad_iban,
    "ts": lambda: str(rng.randint(1_700_000_000, 1_790_000_000)),
    "tsms": lambda: str(rng.randint(1_700_000_000_000, 1_790_000_000_000)),
    "ip": lambda: f"10.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}",
    "mac": lambda: ":".join(pick(HEX, 2) for _ in range(6)),
    "ver": lambda: f"{rng.randint(0, 9)}.{rng.randint(0, 30)}.{rng.randint(0, 20)}",
    "sf": lambda: "SF" + pick(DIG, 13),
    "yt": lambda: "YT" + pick(DIG, 15),
    "ups": lambda: "1Z" + pick(UPPER + DIG, 16),
    "ssh_pub": lambda: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + pick(B64, 43),
    "rsa_pub": lambda: "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ" + pick(B64, 80),
    "pem_pub": lambda: pem("PUBLIC KEY", "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA", 4),
    "pem_cert": lambda: pem("CERTIFICATE", "MIIDdzCCAl+gAwIBAgIE", 5),
    "mtg": lambda: f"{rng.randint(100, 999)} {pick(DIG, 3)} {pick(DIG, 3)}",
    "pickup": lambda: f"{rng.randint(1, 30)}-{rng.randint(1, 9)}-{pick(DIG, 4)}",
    "invoice": lambda: pick(DIG, 20),
    "hotline": lambda: "400-" + pick(DIG, 3) + "-" + pick(DIG, 4),
    "price": lambda: f"{rng.randint(12, 9999)}.{pick(DIG, 2)}",
    "isbn": lambda: "978-7-" + pick(DIG, 3) + "-" + pick(DIG, 5) + "-" + pick(DIG, 1),
    "eth_addr": lambda: "0x" + pick(HEX, 40),
}
GEN.update(AK)
GEN.update(PEM)

SLOT = re.compile(r"⟦([^⟦⟧]*)⟧")
BODY = re.compile(r"^(\w+)([=@])(.*)$", re.S)


def half_of(text: str) -> str:
    return "held" if int(hashlib.sha256(text.encode("utf-8")).hexdigest(), 16) % 2 else "tune"


def _innocent(value: str) -> bool:
    """A filler value that no check would take for a card, an ID or a mobile number."""
    asc = value.translate(_ASCII)
    runs = re.findall(r"\d+", asc) + [
        re.sub(r"[ -]", "", g) for g in re.findall(r"\d{4}(?:[ -]\d{4}){3}(?:[ -]\d{1,3})?", asc)
    ]
    if any(13 <= len(r) <= 19 and luhn_ok(r) for r in runs):
        return False
    if any(id_ok(m) for m in re.findall(r"\d{17}[\dX]", asc)):
        return False
    return not re.search(r"(?<!\d)1[3-9]\d{9}(?!\d)", asc)


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
            for _ in range(100):  # a look-alike must not pass the checks by chance
                value = GEN[body[1:]]()
                if _innocent(value):
                    break
            else:
                raise AssertionError(template)
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
    for s in spans:  # every offset computed, then checked against the final text
        assert text[s["at"] : s["at"] + len(s["value"])] == s["value"], (template, s)
    return {"lang": lang, "text": text, "spans": spans, "note": "", "half": half_of(text)}


def build() -> list[dict[str, Any]]:
    from sensitivity_heldout7_lines import EN, ZH  # noqa: PLC0415 (beside this script)

    rng.seed(SEED)
    return [render("en", t) for t in EN] + [render("zh", t) for t in ZH]


# -- rules ---------------------------------------------------------------------------------
_EDGE = set(" \t\n'\"`“”‘’「」『』,;，。；、：:()（）<>[]")
_PREFIXES = re.compile(
    r"(?<![\w-])(sk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}|AKIA[A-Z2-7]{16}|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_\w{40,}|glpat-[\w-]{20}|xox[bpa]-[\w-]{20,}|sk_live_\w{20,}|AIza[\w-]{35}|SG\.[\w-]{22}\.|hf_[A-Za-z]{30,}|LTAI\w{12,}|AKID\w{30,}|eyJ[\w-]{10,}\.eyJ|-----BEGIN [A-Z ]*PRIVATE KEY)"
)


def _outside(text: str, spans: list[tuple[int, int]], m: re.Match) -> bool:
    return not any(a <= m.start() and m.end() <= b for a, b in spans)


def problems(rows: list[dict[str, Any]]) -> list[str]:
    """Every rule a row must keep."""
    errs: list[str] = []
    others: set[str] = set()
    for name in OTHER_SETS:  # exact-copy check only; the other sets' lines are not shown
        path = HERE / name
        if path.exists():
            with path.open(encoding="utf-8") as f:
                others |= {json.loads(line).get("text", "") for line in f if line.strip()}
    seen: set[str] = set()
    for n, row in enumerate(rows, 1):
        text = row["text"]
        asc = text.translate(_ASCII)
        if text in others:
            errs.append(f"{n}: line copied from an earlier set")
        if text in seen:
            errs.append(f"{n}: duplicate line")
        seen.add(text)
        if row["half"] != half_of(text):
            errs.append(f"{n}: wrong half")
        if "⟦" in text or "⟧" in text:
            errs.append(f"{n}: unfilled slot")
        ends: list[tuple[int, int]] = []
        for s in row["spans"]:
            v, at, kind = s["value"], s["at"], s["kind"]
            a = v.translate(_ASCII)
            d = re.sub(r"[ -]", "", a)
            if not v or (v[0] in _EDGE and not (kind == "phone" and v[0] == "(")) or v[-1] in _EDGE:
                errs.append(f"{n}: value {v!r} is not minimal")
            if text[at : at + len(v)] != v:
                errs.append(f"{n}: {v!r} not at {at}")
            if kind == "card" and not (re.fullmatch(r"\d{13,19}", d) and luhn_ok(d)):
                errs.append(f"{n}: card {v!r} not Luhn-valid")
            if kind == "cn_id" and not id_ok(a.replace(" ", "").upper()):
                errs.append(f"{n}: cn_id {v!r} has a bad check character")
            if kind == "iban" and not iban_ok(a):
                errs.append(f"{n}: iban {v!r} has bad check digits")
            if kind == "ssn" and not re.fullmatch(
                r"(?!000|666|9)\d{3}[- ]?(?!00)\d{2}[- ]?(?!0000)\d{4}", a
            ):
                errs.append(f"{n}: ssn {v!r} malformed")
            if kind == "email" and not re.fullmatch(r"[\w.+-]+@[\w-]+(\.[\w-]+)+", v):
                errs.append(f"{n}: email {v!r} malformed")
            if kind == "phone" and not 7 <= len(re.sub(r"\D", "", a)) <= 15:
                errs.append(f"{n}: phone {v!r} malformed")
            if kind == "private_key" and not v.startswith("-----BEGIN "):
                errs.append(f"{n}: private key {v!r} does not start at BEGIN")
            ends.append((at, at + len(v)))
        ends.sort()
        if any(x[1] > y[0] for x, y in zip(ends, ends[1:], strict=False)):
            errs.append(f"{n}: overlapping spans")
        # no valid look-alike left outside the spans
        for m in re.finditer(r"(?<![\dA-Za-z])\d{13,19}(?![\dA-Za-z])", asc):
            if _outside(asc, ends, m) and luhn_ok(m.group()):
                errs.append(f"{n}: Luhn-valid {m.group()} outside a span")
        for m in re.finditer(r"(?<!\d)\d{4}(?:[ -]\d{4}){3}(?:[ -]\d{1,3})?(?!\d)", asc):
            if _outside(asc, ends, m) and luhn_ok(re.sub(r"\D", "", m.group())):
                errs.append(f"{n}: Luhn-valid {m.group()} outside a span")
        for m in re.finditer(r"(?<![\dA-Za-z])\d{17}[\dXx](?![\dA-Za-z])", asc):
            if _outside(asc, ends, m) and id_ok(m.group().upper()):
                errs.append(f"{n}: valid ID {m.group()} outside a span")
        for m in re.finditer(r"(?<![\dA-Za-z])1[3-9]\d{9}(?!\d)", asc):
            if _outside(asc, ends, m):
                errs.append(f"{n}: mobile-like {m.group()} outside a span")
        for m in re.finditer(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){3,7}(?: ?[A-Z0-9]{1,3})?\b", asc):
            if _outside(asc, ends, m) and iban_ok(m.group()):
                errs.append(f"{n}: valid IBAN {m.group()} outside a span")
        for m in re.finditer(r"[A-Za-z0-9_.+-]+@[A-Za-z0-9-]+\.[A-Za-z]{2,}", asc):
            if not any(a < m.end() and m.start() < b for a, b in ends) and not re.search(
                r"\.(png|jpg|svg|webp)$", m.group()
            ):
                errs.append(f"{n}: e-mail {m.group()} outside a span")
        for m in _PREFIXES.finditer(asc):
            if _outside(asc, ends, m):
                errs.append(f"{n}: credential shape {m.group()[:20]!r} outside a span")
    en = sum(1 for r in rows if r["lang"] == "en")
    zh = len(rows) - en
    neg = sum(1 for r in rows if not r["spans"])
    if len(rows) < 600:
        errs.append(f"only {len(rows)} lines (< 600)")
    if abs(en - zh) > len(rows) * 0.02:
        errs.append(f"languages unbalanced: {en} en / {zh} zh")
    if not 0.40 <= neg / max(len(rows), 1) <= 0.50:
        errs.append(f"negatives {neg}/{len(rows)} not about 45 %")
    for lang in ("en", "zh"):
        lr = [r for r in rows if r["lang"] == lang]
        ln = sum(1 for r in lr if not r["spans"])
        if not 0.38 <= ln / max(len(lr), 1) <= 0.52:
            errs.append(f"{lang}: negatives {ln}/{len(lr)} not about 45 %")
    missing = set(KIND.values()) - {s["kind"] for r in rows for s in r["spans"]}
    if missing:
        errs.append(f"kinds without a positive: {sorted(missing)}")
    return errs


def main() -> int:
    return run(__doc__ or "", build, problems, OUT)


if __name__ == "__main__":
    sys.exit(main())
