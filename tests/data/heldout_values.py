# ruff: noqa: E501
"""The value makers the held-out detector sets 6 and 7 share (``make_sensitivity_heldout6.py``
and ``…7.py``): alphabets, check digits (Luhn, the Chinese ID's, IBAN), PII and key
generators. One random source, :data:`rng`, which each maker seeds in its ``build``: a
set comes out the same whichever maker ran before it in the process."""

from __future__ import annotations

import base64
import json
import random
import re
import string
import uuid
from typing import Any

rng = random.Random()
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
    # look-alikes (never labelled)
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
