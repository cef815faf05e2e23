"""Write ``sensitivity_heldout2.jsonl``: a second held-out set for the PII and secret
detector, written by an outside author who had not read the detector, its tests or
its other corpora (only the benchmark's loader, its list of kinds and the format).

Run: ``python tests/data/make_sensitivity_heldout2.py`` (seeded; rewrites the file).

Lines are literal chat messages with marked values, ``⟦kind:value⟧``; the script
strips the markers and records each value with its offset (``at``). Placeholders
``§NAME§`` are filled with freshly generated values of the right shape (Luhn-valid
cards, checksum-valid Chinese ID numbers and IBANs, random keys and JWTs, PEM blocks),
so no value is a real one.

Halves (fixed now, before any figure was seen): a line is in the **held** half when
the SHA-256 of its final text (UTF-8) is odd, else in **tune**: the same rule as
``benchmarks/sensitivity.py``'s ``half_of``. Only the tune half may guide tuning.
Each row carries its half in ``half`` for convenience.

Kinds (the benchmark's own list) and how this author labels them:
- ``private_key``: a whole PEM / OpenSSH private key block, BEGIN to END line.
- ``api_key``: a credential whose prefix names its provider (``sk-``, ``sk_live_``,
  ``AKIA``, ``ghp_``, ``github_pat_``, ``glpat-``, ``xoxb-``, ``AIza``, ``hf_``,
  ``npm_``, ``SG.``, ``sk-ant-``...), wherever it is written.
- ``token``: a JWT, and the credential of an HTTP ``Authorization`` header
  (``Bearer``/``Basic``/``token`` value), without the scheme word.
- ``secret``: any other value written after a label naming a password, passphrase,
  PIN, one-time / verification code, key, token or secret (in English or Chinese),
  and the password inside a URL / connection string.
- ``email``, ``phone`` (as written, with its country code and separators), ``cn_id``
  (18-character Chinese resident ID with a valid check character), ``ssn`` (US),
  ``card`` (Luhn-valid payment card, as written), ``iban`` (valid check digits, as
  written, spaced or compact).
Negatives (no spans): placeholders, code naming a secret, talk about passwords,
order / tracking / room / version / ISBN numbers, hashes, UUIDs, prices, dates,
non-Luhn card-like numbers, IDs with a bad check character, public keys.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import re
import string
from pathlib import Path

OUT = Path(__file__).with_name("sensitivity_heldout2.jsonl")
KINDS = {
    "pk": "private_key",
    "ak": "api_key",
    "tok": "token",
    "em": "email",
    "iban": "iban",
    "id": "cn_id",
    "ssn": "ssn",
    "card": "card",
    "ph": "phone",
    "sec": "secret",
}
rng = random.Random(20261206)
ALNUM = string.ascii_letters + string.digits
B64 = ALNUM + "+/"


def _rand(chars: str, n: int) -> str:
    return "".join(rng.choice(chars) for _ in range(n))


def _luhn_digit(body: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return str((10 - total % 10) % 10)


def _card(prefix: str, length: int) -> str:
    body = prefix + _rand(string.digits, length - len(prefix) - 1)
    return body + _luhn_digit(body)


def _bad_card(prefix: str, length: int) -> str:
    good = _card(prefix, length)
    return good[:-1] + str((int(good[-1]) + rng.randint(1, 9)) % 10)


def _group(s: str, sizes: list[int], sep: str) -> str:
    out, i = [], 0
    for n in sizes:
        out.append(s[i : i + n])
        i += n
    return sep.join(out)


ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
ID_CHECK = "10X98765432"
REGIONS = ["110105", "310104", "440305", "330106", "510107", "320102", "420111", "370202"]


def _cn_id(valid: bool = True) -> str:
    year = rng.randint(1958, 2004)
    body = (
        rng.choice(REGIONS)
        + f"{year}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}"
        + _rand(string.digits, 3)
    )
    check = ID_CHECK[sum(int(c) * w for c, w in zip(body, ID_WEIGHTS, strict=True)) % 11]
    if not valid:
        check = rng.choice([c for c in ID_CHECK if c != check])
    return body + check


IBAN_BBAN = {"DE": (18, "n"), "GB": (18, "gb"), "FR": (23, "n"), "NL": (14, "nl"), "ES": (20, "n"),
             "IT": (23, "it"), "CH": (17, "n"), "BE": (12, "n"), "AT": (16, "n")}  # fmt: skip


def _iban(country: str, spaced: bool) -> str:
    length, style = IBAN_BBAN[country]
    if style == "gb":
        bban = rng.choice(["NWBK", "BARC", "LOYD", "HBUK"]) + _rand(string.digits, 14)
    elif style == "nl":
        bban = rng.choice(["ABNA", "INGB", "RABO"]) + _rand(string.digits, 10)
    elif style == "it":
        bban = rng.choice(string.ascii_uppercase) + _rand(string.digits, 22)
    else:
        bban = _rand(string.digits, length)
    num = "".join(str(int(c, 36)) for c in bban + country + "00")
    check = f"{98 - int(num) % 97:02d}"
    iban = country + check + bban
    return " ".join(iban[i : i + 4] for i in range(0, len(iban), 4)) if spaced else iban


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _jwt() -> str:
    head = _b64url(json.dumps({"alg": rng.choice(["HS256", "RS256"]), "typ": "JWT"}).encode())
    body = _b64url(
        json.dumps(
            {"sub": str(rng.randint(10000, 99999)), "iat": 1764900000 + rng.randint(0, 9999)}
        ).encode()
    )
    return f"{head}.{body}.{_b64url(rng.randbytes(32))}"


def _pem(kind: str) -> str:
    lines = [_rand(B64, 64) for _ in range(rng.randint(3, 6))] + [_rand(B64, 40) + "=="]
    label = {"rsa": "RSA PRIVATE KEY", "ec": "EC PRIVATE KEY", "p8": "PRIVATE KEY",
             "ssh": "OPENSSH PRIVATE KEY", "pub": "PUBLIC KEY"}[kind]  # fmt: skip
    return f"-----BEGIN {label}-----\n" + "\n".join(lines) + f"\n-----END {label}-----"


GEN = {
    "CARD": lambda: _group(_card(rng.choice(["4", "51", "53", "55"]), 16), [4] * 4, " "),
    "CARDC": lambda: _card(rng.choice(["4", "52", "54"]), 16),
    "CARDD": lambda: _group(_card("4", 16), [4] * 4, "-"),
    "UPAY": lambda: _group(
        _card(rng.choice(["622202", "621700", "622848"]), 19), [4, 4, 4, 4, 3], " "
    ),
    "UPAYC": lambda: _card(rng.choice(["622588", "621483", "625908"]), 16),
    "AMEX": lambda: _group(_card(rng.choice(["34", "37"]), 15), [4, 6, 5], " "),
    "BADCARD": lambda: _group(_bad_card("4", 16), [4] * 4, " "),
    "BADCARDC": lambda: _bad_card("6", 16),
    "CNID": lambda: _cn_id(),
    "BADID": lambda: _cn_id(valid=False),
    "IBANDE": lambda: _iban("DE", True),
    "IBANGB": lambda: _iban("GB", True),
    "IBANFR": lambda: _iban("FR", True),
    "IBANNL": lambda: _iban("NL", False),
    "IBANES": lambda: _iban("ES", True),
    "IBANIT": lambda: _iban("IT", False),
    "IBANCH": lambda: _iban("CH", True),
    "IBANBE": lambda: _iban("BE", False),
    "IBANAT": lambda: _iban("AT", False),
    "JWT": _jwt,
    "PKRSA": lambda: _pem("rsa"),
    "PKEC": lambda: _pem("ec"),
    "PK8": lambda: _pem("p8"),
    "PKSSH": lambda: _pem("ssh"),
    "PUB": lambda: _pem("pub"),
    "SSHPUB": lambda: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + _rand(ALNUM, 43),
    "OPENAI": lambda: "sk-proj-" + _rand(ALNUM + "-_", 48),
    "OPENAI2": lambda: "sk-" + _rand(ALNUM, 48),
    "ANTH": lambda: "sk-ant-api03-" + _rand(ALNUM + "-_", 93) + "AA",
    "AKIA": lambda: "AKIA" + _rand(string.ascii_uppercase + "234567", 16),
    "AWSSEC": lambda: _rand(ALNUM + "/+", 40),
    "GHP": lambda: "ghp_" + _rand(ALNUM, 36),
    "GHPAT": lambda: "github_pat_" + _rand(ALNUM, 22) + "_" + _rand(ALNUM, 59),
    "GLPAT": lambda: "glpat-" + _rand(ALNUM + "-_", 20),
    "SLACK": lambda: (
        f"xoxb-{rng.randint(10**10, 10**11)}-{rng.randint(10**12, 10**13)}-" + _rand(ALNUM, 24)
    ),
    "GOOG": lambda: "AIza" + _rand(ALNUM + "-_", 35),
    "STRIPE": lambda: "sk_live_" + _rand(ALNUM, 24),
    "STRIPER": lambda: "rk_live_" + _rand(ALNUM, 24),
    "HF": lambda: "hf_" + _rand(ALNUM, 34),
    "NPM": lambda: "npm_" + _rand(ALNUM, 36),
    "SG": lambda: "SG." + _rand(ALNUM + "-_", 22) + "." + _rand(ALNUM + "-_", 43),
    "RAND32": lambda: _rand(ALNUM, 32),
    "RAND24": lambda: _rand(ALNUM, 24),
    "HEX32": lambda: _rand("0123456789abcdef", 32),
    "HEX40": lambda: _rand("0123456789abcdef", 40),
    "HEX64": lambda: _rand("0123456789abcdef", 64),
    "UUID": lambda: "-".join(_rand("0123456789abcdef", n) for n in (8, 4, 4, 4, 12)),
    "BASIC": lambda: base64.b64encode(
        f"{rng.choice(['deploy', 'ci-bot', 'admin', 'wang.lei'])}:{_rand(ALNUM, 14)}".encode()
    ).decode(),
}
MARK = re.compile(r"⟦(\w+):(.*?)⟧", re.S)
PLACE = re.compile(r"§([A-Z0-9]+)§")


def build(lang: str, raw: str, gen: dict | None = None) -> dict:
    """One row from a marked sentence: placeholders filled (by ``gen``'s makers, this
    script's by default), markers stripped, spans placed."""
    makers = GEN if gen is None else gen
    raw = PLACE.sub(lambda m: makers[m.group(1)](), raw)
    text, spans, pos = "", [], 0
    for m in MARK.finditer(raw):
        text += raw[pos : m.start()]
        kind, value = KINDS[m.group(1)], m.group(2)
        spans.append({"kind": kind, "value": value, "at": len(text)})
        text += value
        pos = m.end()
    text += raw[pos:]
    assert "⟦" not in text and "⟧" not in text and "§" not in text, raw
    for s in spans:
        assert text[s["at"] : s["at"] + len(s["value"])] == s["value"]
    half = "held" if int(hashlib.sha256(text.encode("utf-8")).hexdigest(), 16) % 2 else "tune"
    return {"lang": lang, "text": text, "spans": spans, "note": "", "half": half}


def main() -> None:
    from sensitivity_heldout2_lines import EN, ZH  # noqa: PLC0415 (beside this script)

    rows = [build("en", s) for s in EN] + [build("zh", s) for s in ZH]
    texts = [r["text"] for r in rows]
    assert len(set(texts)) == len(texts), "duplicate line"
    OUT.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    print(f"{len(rows)} lines -> {OUT.name}")


if __name__ == "__main__":
    main()
