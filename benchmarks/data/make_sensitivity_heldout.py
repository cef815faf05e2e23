"""Writes ``tests/data/sensitivity_heldout.jsonl``: a fresh, wholly held-back set for the
sensitivity detector, written without looking at the detector or at its tuning corpus.

Usage:
    python benchmarks/data/make_sensitivity_heldout.py [--out PATH] [--check]

Each line is a hand-written chat message (English or Chinese) with slots the script fills
with values it generates (seeded, so the file is reproducible): Luhn-valid cards, Chinese
ID numbers with a valid check character, IBANs passing mod 97, SSNs in the issued ranges,
keys in the shapes providers hand out, JWTs, private key blocks. Negatives are filled the
same way with look-alikes that fail their check (non-Luhn numbers, wrong ID check
characters, wrong IBAN check digits) or are not secrets (UUIDs, SHAs, digests, order and
tracking numbers, public keys).

Slot syntax in a template:
    ``⟦kind|value⟧``  a positive span written by hand (``kind`` is the gold kind);
    ``⟦gen⟧``         a positive span from generator ``gen`` with its default kind;
    ``⟦gen>kind⟧``    the same with another gold kind;
    ``⟦~gen⟧``        a look-alike filler from generator ``gen``: no span.

Kind convention (the detector's kinds, chosen from the definitions in
``benchmarks/sensitivity.py``): ``api_key`` = a key whose provider prefix gives it away;
``token`` = a JWT or the credential of an HTTP ``Authorization``/``Cookie`` header;
``secret`` = a value written after a label naming a password, key, secret or token that
has no telling shape, and the password of a URL; ``private_key`` = the whole PEM/OpenSSH
block from ``-----BEGIN`` to the end line. Gold spans are minimal (the value without
quotes or the ``Bearer`` scheme); a finding covering more still counts.

``--check`` verifies every rule (spans occur at their offsets, check digits, negatives
free of valid look-alikes, no line copied from the tuning corpus) and writes nothing.
"""

# ruff: noqa: E501  (hand-written chat lines are kept whole, one per line)
from __future__ import annotations

import argparse
import base64
import json
import random
import re
import string
import sys
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "data" / "sensitivity_heldout.jsonl"
CORPUS = ROOT / "tests" / "data" / "sensitivity_corpus.jsonl"
SEED = 20261206

rng = random.Random(SEED)

ALNUM = string.ascii_letters + string.digits
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"
HEX = "0123456789abcdef"


def pick(chars: str, n: int) -> str:
    return "".join(rng.choice(chars) for _ in range(n))


def digits(n: int, first: str = "") -> str:
    return first + pick(string.digits, n - len(first))


# --- check rules -------------------------------------------------------------------------


def luhn_ok(number: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(number)):
        d = int(ch)
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def luhn_complete(partial: str) -> str:
    for d in string.digits:
        if luhn_ok(partial + d):
            return partial + d
    raise AssertionError(partial)


ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)


def id_check(first17: str) -> str:
    return "10X98765432"[sum(int(c) * w for c, w in zip(first17, ID_WEIGHTS, strict=True)) % 11]


def id_ok(value: str) -> bool:
    return (
        len(value) == 18
        and value[:17].isdigit()
        and id_check(value[:17]) == value[17].upper()
        and _date_ok(value[6:14])
    )


def _date_ok(yyyymmdd: str) -> bool:
    y, m, d = int(yyyymmdd[:4]), int(yyyymmdd[4:6]), int(yyyymmdd[6:])
    days = [
        31,
        29 if (y % 4 == 0 and y % 100) or y % 400 == 0 else 28,
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ]
    return 1900 <= y <= 2026 and 1 <= m <= 12 and 1 <= d <= days[m - 1]


def iban_mod(iban: str) -> int:
    compact = iban.replace(" ", "")
    moved = compact[4:] + compact[:4]
    return int("".join(str(int(c, 36)) for c in moved)) % 97


def iban_ok(iban: str) -> bool:
    return iban_mod(iban) == 1


# --- positive generators -----------------------------------------------------------------


def group(number: str, sizes: tuple[int, ...], sep: str) -> str:
    out, i = [], 0
    for s in sizes:
        out.append(number[i : i + s])
        i += s
    if i < len(number):
        out.append(number[i:])
    return sep.join(out)


def card(prefixes: list[str], length: int) -> str:
    while True:
        value = luhn_complete(digits(length - 1, rng.choice(prefixes)))
        if not id_like(value):
            return value


def id_like(value: str) -> bool:
    return len(value) == 18 and id_ok(value)


VISA = ["4"]
MC = ["51", "52", "53", "54", "55", "2221", "2389", "2720"]
AMEX = ["34", "37"]
DISCOVER = ["6011", "65"]
JCB = ["3528", "3540", "3589"]
UNIONPAY = ["622202", "621700", "622848", "621483", "621661", "623668", "622588"]


def fmt_card(value: str, style: str) -> str:
    sizes = (4, 6, 5) if len(value) == 15 else (4, 4, 4, 4)
    if style == "s":
        return group(value, sizes, " ")
    if style == "d":
        return group(value, sizes, "-")
    return value


REGIONS = [
    "110105",
    "310104",
    "440305",
    "330106",
    "510107",
    "420106",
    "320102",
    "610113",
    "370202",
    "350203",
    "430104",
    "120101",
    "500103",
    "210102",
]


def cnid(want_x: bool = False, bad: bool = False) -> str:
    for _ in range(10000):
        y = rng.randint(1958, 2012)
        m = rng.randint(1, 12)
        d = rng.randint(1, 28)
        first17 = f"{rng.choice(REGIONS)}{y:04d}{m:02d}{d:02d}{digits(3)}"
        check = id_check(first17)
        if want_x and check != "X":
            continue
        if bad:
            check = rng.choice([c for c in "0123456789" if c != check])
        value = first17 + check
        if value.isdigit() and luhn_ok(value):
            continue
        return value
    raise AssertionError("no id")


MOBILE = [
    "130",
    "131",
    "132",
    "133",
    "135",
    "136",
    "137",
    "138",
    "139",
    "150",
    "151",
    "152",
    "153",
    "155",
    "156",
    "157",
    "158",
    "159",
    "166",
    "173",
    "176",
    "177",
    "180",
    "181",
    "182",
    "183",
    "185",
    "186",
    "187",
    "188",
    "189",
    "191",
    "198",
    "199",
]


def cnmob(style: str = "") -> str:
    n = rng.choice(MOBILE) + digits(8)
    if style == "s":
        return f"{n[:3]} {n[3:7]} {n[7:]}"
    if style == "d":
        return f"{n[:3]}-{n[3:7]}-{n[7:]}"
    if style == "86":
        return "+86 " + n
    if style == "86s":
        return f"+86 {n[:3]} {n[3:7]} {n[7:]}"
    return n


def iban(country: str, bad: bool = False) -> str:
    if country == "DE":
        bban = digits(8, rng.choice(["100", "370", "500", "200"])) + digits(10)
    elif country == "GB":
        bban = rng.choice(["NWBK", "BARC", "HBUK", "LOYD", "MIDL"]) + digits(6) + digits(8)
    elif country == "NL":
        bban = rng.choice(["ABNA", "INGB", "RABO", "TRIO"]) + digits(10)
    elif country == "FR":
        bank, branch, acct = digits(5), digits(5), digits(11)
        key = 97 - ((89 * int(bank) + 15 * int(branch) + 3 * int(acct)) % 97)
        bban = f"{bank}{branch}{acct}{key:02d}"
    elif country == "CH":
        bban = digits(5, "00") + digits(12)
    elif country == "AT":
        bban = digits(5, "1") + digits(11)
    else:
        raise ValueError(country)
    check = 98 - iban_mod(country + "00" + bban)
    if bad:
        check = (check + rng.randint(1, 9)) % 97 or 11
        if check in (0, 1):
            check = 13
    value = f"{country}{check:02d}{bban}"
    assert iban_ok(value) != bad, value
    return value


def fmt_iban(value: str, spaced: bool) -> str:
    return " ".join(value[i : i + 4] for i in range(0, len(value), 4)) if spaced else value


def ssn() -> str:
    while True:
        area = rng.randint(1, 899)
        if area != 666:
            break
    return f"{area:03d}-{rng.randint(1, 99):02d}-{rng.randint(1, 9999):04d}"


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


FIRST = ["alice", "wang.lei", "jdoe", "m.kowalski", "li_na", "svc-reporting", "zhao.min"]


def jwt() -> str:
    alg = rng.choice(["HS256", "HS256", "RS256", "HS512"])
    header = {"alg": alg, "typ": "JWT"}
    iat = rng.randint(1_760_000_000, 1_790_000_000)
    payload = {
        "sub": str(rng.randint(10_000, 9_999_999)),
        "name": rng.choice(FIRST),
        "iat": iat,
        "exp": iat + rng.choice([900, 3600, 7200, 86400]),
    }
    if rng.random() < 0.5:
        payload["scope"] = rng.choice(["read write", "orders:read", "admin"])
    sig_len = {"HS256": 32, "HS512": 64, "RS256": 256}[alg]
    sig = bytes(rng.getrandbits(8) for _ in range(sig_len))
    return ".".join(
        [
            b64url(json.dumps(header, separators=(",", ":")).encode()),
            b64url(json.dumps(payload, separators=(",", ":")).encode()),
            b64url(sig),
        ]
    )


def basic() -> str:
    user = rng.choice(FIRST)
    pw = pick(ALNUM, rng.randint(8, 14))
    return base64.b64encode(f"{user}:{pw}".encode()).decode()


def pem(label: str, lines: int, lead: str) -> str:
    body = lead + pick(B64, 64 * lines - len(lead) - rng.randint(0, 40))
    rows = [body[i : i + 64] for i in range(0, len(body), 64)]
    if not rows[-1].endswith("="):
        rows[-1] = rows[-1] + rng.choice(["", "=", "=="])
    return f"-----BEGIN {label}-----\n" + "\n".join(rows) + f"\n-----END {label}-----"


def pgp_private() -> str:
    body = "lQOYBG" + pick(B64, 64 * 14 - 6)
    rows = [body[i : i + 64] for i in range(0, len(body), 64)]
    return (
        "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n"
        + "\n".join(rows)
        + "\n="
        + pick(B64, 4)
        + "\n-----END PGP PRIVATE KEY BLOCK-----"
    )


POS = {
    # cards
    "visa": ("card", lambda: card(VISA, 16)),
    "visa_s": ("card", lambda: fmt_card(card(VISA, 16), "s")),
    "visa_d": ("card", lambda: fmt_card(card(VISA, 16), "d")),
    "mc": ("card", lambda: card(MC, 16)),
    "mc_s": ("card", lambda: fmt_card(card(MC, 16), "s")),
    "mc_d": ("card", lambda: fmt_card(card(MC, 16), "d")),
    "amex_s": ("card", lambda: fmt_card(card(AMEX, 15), "s")),
    "amex": ("card", lambda: card(AMEX, 15)),
    "discover": ("card", lambda: card(DISCOVER, 16)),
    "jcb_s": ("card", lambda: fmt_card(card(JCB, 16), "s")),
    "up16": ("card", lambda: card(UNIONPAY, 16)),
    "up16_s": ("card", lambda: fmt_card(card(UNIONPAY, 16), "s")),
    "up19": ("card", lambda: card(UNIONPAY, 19)),
    "up19_s": ("card", lambda: group(card(UNIONPAY, 19), (4, 4, 4, 4), " ")),
    "up19_d": ("card", lambda: group(card(UNIONPAY, 19), (6, 13), " ")),
    # chinese ids and phones
    "cnid": ("cn_id", lambda: cnid()),
    "cnidX": ("cn_id", lambda: cnid(want_x=True)),
    "cnmob": ("phone", lambda: cnmob()),
    "cnmob_s": ("phone", lambda: cnmob("s")),
    "cnmob_d": ("phone", lambda: cnmob("d")),
    "cnmob_86": ("phone", lambda: cnmob("86")),
    "cnmob_86s": ("phone", lambda: cnmob("86s")),
    # banking, us
    "iban_de_s": ("iban", lambda: fmt_iban(iban("DE"), True)),
    "iban_de": ("iban", lambda: iban("DE")),
    "iban_gb": ("iban", lambda: iban("GB")),
    "iban_gb_s": ("iban", lambda: fmt_iban(iban("GB"), True)),
    "iban_nl_s": ("iban", lambda: fmt_iban(iban("NL"), True)),
    "iban_fr_s": ("iban", lambda: fmt_iban(iban("FR"), True)),
    "iban_ch": ("iban", lambda: iban("CH")),
    "iban_at_s": ("iban", lambda: fmt_iban(iban("AT"), True)),
    "ssn": ("ssn", ssn),
    # provider keys
    "openai": ("api_key", lambda: "sk-" + pick(ALNUM, 48)),
    "openai_proj": (
        "api_key",
        lambda: "sk-proj-" + pick(B64URL, 74) + "T3BlbkFJ" + pick(B64URL, 74),
    ),
    "sk_hex32": ("api_key", lambda: "sk-" + pick(HEX, 32)),
    "anthropic": ("api_key", lambda: "sk-ant-api03-" + pick(B64URL, 93) + "AA"),
    "aws_akid": ("api_key", lambda: "AKIA" + pick(string.ascii_uppercase + "234567", 16)),
    "ghp": ("api_key", lambda: "ghp_" + pick(ALNUM, 36)),
    "github_pat": ("api_key", lambda: "github_pat_11" + pick(ALNUM, 22) + "_" + pick(ALNUM, 59)),
    "slack_bot": (
        "api_key",
        lambda: f"xoxb-{digits(12, '7')}-{digits(13, '7')}-{pick(ALNUM, 24)}",
    ),
    "slack_user": (
        "api_key",
        lambda: f"xoxp-{digits(12, '4')}-{digits(12, '4')}-{digits(13, '5')}-{pick(HEX, 32)}",
    ),
    "stripe_sk": ("api_key", lambda: "sk_live_" + pick(ALNUM, rng.choice([24, 34, 99]))),
    "stripe_rk": ("api_key", lambda: "rk_live_" + pick(ALNUM, 24)),
    "google": ("api_key", lambda: "AIza" + pick(B64URL, 35)),
    "sendgrid": ("api_key", lambda: "SG." + pick(B64URL, 22) + "." + pick(B64URL, 43)),
    "hf": ("api_key", lambda: "hf_" + pick(ALNUM, 34)),
    "npm": ("api_key", lambda: "npm_" + pick(ALNUM, 36)),
    "glpat": ("api_key", lambda: "glpat-" + pick(B64URL, 20)),
    "dop": ("api_key", lambda: "dop_v1_" + pick(HEX, 64)),
    "shpat": ("api_key", lambda: "shpat_" + pick(HEX, 32)),
    "aliyun": ("api_key", lambda: "LTAI5t" + pick(ALNUM, 18)),
    "tencent": ("api_key", lambda: "AKID" + pick(ALNUM, 32)),
    # tokens
    "jwt": ("token", jwt),
    "opaque": ("token", lambda: pick(ALNUM + "-._", 40)),
    "opaque32": ("token", lambda: pick(HEX, 32)),
    "basic": ("token", basic),
    "hex40": ("token", lambda: pick(HEX, 40)),
    # label-only secrets
    "hex32": ("secret", lambda: pick(HEX, 32)),
    "awssecret": ("secret", lambda: pick(B64, 40)),
    "alnum30": ("secret", lambda: pick(ALNUM, 30)),
    # private keys
    "pem_rsa": ("private_key", lambda: pem("RSA PRIVATE KEY", 25, "MIIEow" + "IBAAKCAQEA")),
    "pem_ec": ("private_key", lambda: pem("EC PRIVATE KEY", 3, "MHcCAQEEI")),
    "pem_openssh": (
        "private_key",
        lambda: pem("OPENSSH PRIVATE KEY", 7, "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ"),
    ),
    "pem_pkcs8": (
        "private_key",
        lambda: pem("PRIVATE KEY", 26, "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC"),
    ),
    "pem_pgp": ("private_key", pgp_private),
}


# --- negative generators -----------------------------------------------------------------


def non_luhn(length: int, first: str = "") -> str:
    while True:
        value = digits(length, first)
        if not luhn_ok(value) and not id_like(value):
            return value


def bad_card(style: str) -> str:
    return fmt_card(non_luhn(16, rng.choice(["4", "5", "62"])), style)


def sshpub() -> str:
    if rng.random() < 0.5:
        return "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + pick(B64, 43) + " dev-laptop"
    return "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ" + pick(B64, 300) + " ci-runner"


NEG = {
    "badcard": lambda: bad_card(""),
    "badcard_s": lambda: bad_card("s"),
    "badcard_d": lambda: bad_card("d"),
    "badcnid": lambda: cnid(bad=True),
    "badiban_s": lambda: fmt_iban(iban("DE", bad=True), True),
    "uuid": lambda: str(uuid.UUID(int=rng.getrandbits(128), version=4)),
    "sha40": lambda: pick(HEX, 40),
    "sha7": lambda: pick(HEX, 7),
    "hex64": lambda: pick(HEX, 64),
    "order19": lambda: non_luhn(19, "2026"),
    "order12": lambda: non_luhn(12, "3"),
    "order10": lambda: non_luhn(10, "7"),
    "snowflake": lambda: non_luhn(19, "17"),
    "ups": lambda: "1Z" + pick(string.ascii_uppercase + string.digits, 6) + digits(10),
    "sf": lambda: "SF" + digits(13, "1"),
    "yt": lambda: "YT" + digits(13, "7"),
    "inv8": lambda: digits(8, "4"),
    "b64_43": lambda: pick(B64, 43),
    "sshpub": sshpub,
    "pubpem": lambda: pem("PUBLIC KEY", 6, "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA"),
    "cert": lambda: pem("CERTIFICATE", 12, "MIIDdzCCAl+gAwIBAgIE"),
    "png64": lambda: "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9h" + pick(B64, 60),
}

SLOT = re.compile(r"⟦([^⟦⟧]*)⟧")


def render(template: str) -> tuple[str, list[dict[str, Any]]]:
    out: list[str] = []
    spans: list[tuple[str, str, int]] = []
    pos = 0
    length = 0
    for m in SLOT.finditer(template):
        piece = template[pos : m.start()]
        out.append(piece)
        length += len(piece)
        body = m.group(1)
        if "|" in body:
            kind, value = body.split("|", 1)
            spans.append((kind, value, length))
        elif body.startswith("~"):
            value = NEG[body[1:]]()
        else:
            name, _, override = body.partition(">")
            kind, gen = POS[name]
            value = gen()
            spans.append((override or kind, value, length))
        out.append(value)
        length += len(value)
        pos = m.end()
    out.append(template[pos:])
    text = "".join(out)
    gold: list[dict[str, Any]] = []
    for kind, value, at in spans:
        assert text[at : at + len(value)] == value
        span: dict[str, Any] = {"kind": kind, "value": value}
        if text.find(value) != at:
            span["at"] = at
        gold.append(span)
    return text, gold


def build() -> list[dict[str, Any]]:
    rows = []
    for lang, template in LINES:
        text, spans = render(template)
        rows.append({"lang": lang, "text": text, "spans": spans, "note": ""})
    return rows


# --- the hand-written lines --------------------------------------------------------------

EN_POSITIVE = [
    "Wifi at the cabin: network is PineLodge5G, password is ⟦secret|moosetracks1988⟧ — case sensitive.",
    "my password is ⟦secret|sunflower⟧ lol please don't judge me",
    "password: ⟦secret|Qz7!mR2#vL⟧",
    "Login for the staging admin panel -> user: ops, pass: ⟦secret|Glacier-Tide-209⟧",
    "The router's admin pw is ⟦secret|admin1234⟧, I never changed it from the default.",
    "Can you remember this for me? Netflix password = ⟦secret|couchpotato!22⟧",
    "I just reset it, the new password is ⟦secret|Wint3r_is_c0ming⟧ so update the shared vault.",
    "```\nDB_HOST=10.0.3.14\nDB_USER=app\nDB_PASSWORD=⟦secret|v9Lk2xPq4sWz⟧\n```",
    'passphrase for the backup drive is "⟦secret|correct horse battery staple⟧"',
    "Here's my config:\n\nspring.datasource.password=⟦secret|Tr0mb0ne#88⟧\nspring.datasource.username=billing",
    "The zip is encrypted, pw ⟦secret|orchid42⟧",
    '{"username": "kmiller", "password": "⟦secret|Saffron&Sage19⟧", "remember": true}',
    "my bank login password's ⟦secret|Marigold2019⟧ if you need to check the statement for me",
    "Jenkins creds for the nightly job: username deploy-bot, password ⟦secret|f8Gh2Kw9Tq⟧",
    "The test account's password is literally ⟦secret|abc⟧, so don't use it anywhere real.",
    "mysql -u root --password=⟦secret|Rootbeer77⟧ shop < dump.sql",
    "The OAuth app's client_secret is ⟦hex32⟧ and the client id is 8841-webapp.",
    "The weather service API key is ⟦hex32⟧, it's on the free tier so whatever.",
    "SECRET_KEY = '⟦secret|django-insecure-7#k2p!x@q9m$w4z&v1r8t^y6u3e0h5⟧'",
    "Grandma's email password is ⟦secret|Rosebud1952⟧, she asked me to help her set up the new phone.",
    "smtp_pass: ⟦secret|Hx4#pL9v⟧\nsmtp_host: mail.internal",
    "redis.conf on the cache box:\n```\nbind 0.0.0.0\nrequirepass ⟦secret|q6ZtV3mNa8⟧\n```",
    "The vault unseal passphrase is ⟦secret|amber-lantern-quiet-river⟧.",
    "PGPASSWORD=⟦secret|pg_Sp4rrow⟧ psql -h db.internal -U reporting",
    "Password for the shared PDF: ⟦secret|Q3-budget-final⟧",
    "Hey, the password for the conference wifi is ⟦secret|TechSummit2026⟧ (all one word).",
    "temp password: ⟦secret|Kp3$vN8q⟧ — you'll be asked to change it on first login",
    "git clone https://deploy:⟦secret|Ght7pQ2wLz⟧@git.example.org/team/infra.git",
    "DATABASE_URL=postgres://app_user:⟦secret|N0rth-Star-55⟧@db.prod.internal:5432/orders",
    "REDIS_URL=redis://:⟦secret|r3d1sP4ss⟧@cache-01:6379/0",
    "The analytics job reads mongodb+srv://analytics:⟦secret|Mango2Tango9⟧@cluster0.ab1cd.mongodb.net/events?retryWrites=true",
    "broker url is amqp://worker:⟦secret|rabbit-Hole-31⟧@mq.local:5672/%2F",
    "old uploads are at ftp://jdoe:⟦secret|ftp4jdoe⟧@files.example.net/uploads/",
    "pass=⟦secret|letmein99⟧",
    "My gym locker app password is ⟦secret|kettlebell⟧ and I keep forgetting it, so store it please.",
    "The keystore password is ⟦secret|changeit42⟧; the alias is tomcat.",
    "PASSWORD: ⟦secret|ZEBRA-crossing-7⟧",
    "FYI the office printer admin password is now ⟦secret|Pr1nt3r!Q4⟧",
    'config.json has "db_password": "⟦secret|ssh-Otter-88⟧" in plain text, is that bad?',
    "the API secret is ⟦alnum30⟧",
    "export OPENAI_API_KEY=⟦openai_proj⟧",
    'Can you check why this fails? client = OpenAI(api_key="⟦openai⟧")',
    "anthropic key for the eval runner: ⟦anthropic⟧",
    "[default]\naws_access_key_id = ⟦aws_akid⟧\naws_secret_access_key = ⟦awssecret⟧\nregion = eu-west-1",
    "I accidentally pushed ⟦ghp⟧ to the public repo, how do I revoke it?",
    "GH_TOKEN=⟦github_pat⟧ gh pr list --state open",
    "The Slack bot token is ⟦slack_bot⟧, channel is #deploys.",
    'stripe.api_key = "⟦stripe_sk⟧"',
    "Maps key is ⟦google⟧ — restricted to our domain though",
    "SENDGRID_API_KEY='⟦sendgrid⟧'",
    "huggingface-cli login --token ⟦hf⟧",
    "My .npmrc has //registry.npmjs.org/:_authToken=⟦npm⟧",
    'curl --header "PRIVATE-TOKEN: ⟦glpat⟧" https://gitlab.example.com/api/v4/projects',
    "doctl auth init -t ⟦dop⟧",
    "X-Shopify-Access-Token: ⟦shpat⟧",
    "The restricted key ⟦stripe_rk⟧ only has read access to charges.",
    "here's the user token for the export script: ⟦slack_user⟧",
    "My key is ⟦openai⟧, is it still valid?",
    "use ⟦anthropic⟧ for the batch job tonight, mine is rate limited",
    "AKIA key leaked in the logs: ⟦aws_akid⟧ — who owns it?",
    "Authorization: Bearer ⟦jwt⟧",
    'curl -H "Authorization: Bearer ⟦opaque⟧" https://api.example.com/v2/me',
    "The request had header Authorization: Basic ⟦basic⟧ and still got 401.",
    "My id_token is ⟦jwt⟧ — can you decode the exp claim?",
    "fetch(url, { headers: { Authorization: `Bearer ⟦opaque⟧` } })",
    'headers = {"Authorization": "Token ⟦hex40⟧"}',
    "After login the browser lands on https://app.example.com/callback#access_token=⟦jwt⟧&token_type=bearer&expires_in=3600",
    "Cookie: sessionid=⟦opaque32⟧",
    "Proxy-Authorization: Basic ⟦basic⟧",
    "the refresh token ⟦jwt⟧ expired yesterday, why didn't the client renew it?",
    "Here's the deploy key, add it to the runner:\n⟦pem_openssh⟧",
    "server.key contents:\n⟦pem_rsa⟧\nand the cert is attached separately",
    "ec key for the test signer: ⟦pem_ec⟧",
    "```\n⟦pem_pkcs8⟧\n```",
    "My old GPG key, import it on the new laptop:\n⟦pem_pgp⟧",
    "Card number is ⟦visa_s⟧, exp 09/28.",
    "Please charge ⟦mc_d⟧ for the deposit.",
    "amex ⟦amex_s⟧ is the corporate card",
    "Use ⟦discover⟧ for the hotel, it has no foreign transaction fee.",
    "Billing: Visa ⟦visa⟧",
    "JCB card ⟦jcb_s⟧ is my backup for Japan.",
    "new card arrived: ⟦mc_s⟧ — old one is cancelled",
    "my debit card: ⟦visa_d⟧",
    "Call me on ⟦phone|+1 (415) 867-2290⟧ after 6pm.",
    "Her cell is ⟦phone|646-555-0187⟧.",
    "UK office line: ⟦phone|+44 20 7946 0321⟧",
    "whatsapp me at ⟦phone|+49 151 23456789⟧",
    "Text ⟦phone|+33 6 12 34 56 78⟧ when you land in Paris.",
    "My mobile changed to ⟦phone|07700 900457⟧.",
    "Reach the site lead at ⟦phone|+61 412 345 678⟧ (Sydney time).",
    "his number: ⟦phone|(312) 847-2291⟧",
    "⟦phone|+91 98765 43210⟧ is my dad's number, call him if I don't pick up.",
    "Tel: ⟦phone|+81 90-1234-5678⟧",
    "Call ⟦phone|212.555.0143⟧ and ask for Maria.",
    "You can forward it to ⟦email|priya.nair@outlook.com⟧.",
    "my uni email is ⟦email|t.okafor@student.ed.ac.uk⟧",
    "reply-to: ⟦email|billing-team@northwind.io⟧",
    "Add ⟦email|chen.wei+newsletter@gmail.com⟧ to the mailing list",
    "Contact: Luis Ortega <⟦email|lortega@ortega-consulting.mx⟧>",
    "Wire the refund to ⟦iban_de_s⟧ (Sparkasse).",
    "IBAN: ⟦iban_gb⟧",
    "My Dutch account is ⟦iban_nl_s⟧, name M. de Vries.",
    "Payment details — IBAN ⟦iban_fr_s⟧, BIC BNPAFRPPXXX",
    "Swiss account for the rent: ⟦iban_ch⟧",
    "Pay the Vienna invoice to ⟦iban_at_s⟧ please",
    "My SSN is ⟦ssn⟧, needed for the W-9.",
    "social security number: ⟦ssn⟧",
    "SSN ⟦ssn⟧ — please don't store this anywhere",
    "Name: Dana Whitfield, email ⟦email|dana.whitfield@proton.me⟧, phone ⟦phone|+1 503 555 0119⟧",
    "New hire: SSN ⟦ssn⟧, personal email ⟦email|jmarsh1990@yahoo.com⟧",
    "My Chinese ID is ⟦cnid⟧ for the visa form.",
]

EN_NEGATIVE = [
    "I forgot my password again, can you send the reset link?",
    "Password must be at least 12 characters and include a number and a symbol.",
    "the form shows password: ************ and a little eye icon to reveal it",
    "Set DB_PASSWORD=${DB_PASSWORD} in the compose file and let the CI inject it.",
    "Replace <your-password> with the one from the vault before running the script.",
    "export OPENAI_API_KEY=YOUR_API_KEY",
    "Logs show `Authorization: Bearer [REDACTED]` so the masking works.",
    "def login(username: str, password: str) -> Session:",
    "user.password_hash = bcrypt.hashpw(password.encode(), bcrypt.gensalt())",
    'api_key = os.environ["STRIPE_API_KEY"]',
    "conn = psycopg.connect(host=host, user=user, password=password)",
    'token = request.headers.get("Authorization", "").removeprefix("Bearer ")',
    "Order #⟦~order10⟧ shipped today, tracking ⟦~ups⟧.",
    "The build id is ⟦~uuid⟧, can you look at its logs?",
    "Fixed in commit ⟦~sha40⟧, cherry-pick it to release/2.4.",
    "Bump requests to 2.32.3 and urllib3 to 2.2.2.",
    "The invoice total is $1,284.50, due 2026-01-15.",
    "Event timestamp 1733456789123 is in milliseconds.",
    "Reference number ⟦~badcard_s⟧ is printed on the bank slip.",
    "Here's my public key for the server: ⟦~sshpub⟧",
    "Our public signing key:\n⟦~pubpem⟧",
    "The password reset email never arrived.",
    "We rotate the API key every 90 days; the current one lives in 1Password.",
    "Is it safe to store a token in localStorage?",
    "My password is too short according to the signup form.",
    "The password is incorrect, it says, even though I just changed it.",
    "Docker image digest: sha256:⟦~hex64⟧",
    "Meeting ID 845 2291 0037, no passcode needed.",
    "The key is in the drawer next to the printer.",
    "Our password policy: 8–64 characters, no reuse of the last 5.",
    "Use `git config credential.helper store` so you don't have to type the token every time.",
    "sk-... keys from the old org no longer work, generate new ones.",
    "Set `api_key: <OPENAI_API_KEY>` in config.yaml.",
    'password = getpass.getpass("Password: ")',
    "if not verify_password(plain_password, user.hashed_password): raise HTTPException(401)",
    "The JWT has three parts: header.payload.signature, each base64url-encoded.",
    "Error: invalid_grant (refresh token expired)",
    "Flight BA0287 departs 14:35 from Terminal 5, seat 32K.",
    "Version 3.11.9 fixed the crash; 3.12.0rc2 still has it.",
    "Server IP is 192.168.1.42, gateway 192.168.1.1.",
    "MAC address 3C:22:FB:9A:10:7E is the office printer.",
    "The part number ⟦~badcard_d⟧ doesn't match the catalogue.",
    "ISBN 978-0-13-468599-1 is the edition I meant.",
    "Tracking: ⟦~sf⟧ via SF Express, should arrive Thursday.",
    "The SHA-1 of the release tarball is ⟦~sha40⟧.",
    "uuid4() gave me ⟦~uuid⟧ for the new tenant.",
    "Price went from €2,499.00 to €2,199.00 on 2026-11-27.",
    "Run id 20261205-231455-7781 failed at step 4.",
    "git show ⟦~sha7⟧ --stat",
    "Our Slack workspace requires SSO, so there's no password to share.",
    "Don't paste secrets here — use the vault link instead.",
    "The token field in the response is null when the session is anonymous.",
    "`Authorization: Bearer <token>` is the expected header format.",
    "PASSWORD_MIN_LENGTH = 12",
    "The API key header is called X-API-Key.",
    "Employee ID E-204871 starts Monday.",
    "The SSN field should be formatted as XXX-XX-XXXX.",
    "Phone: +1 (___) ___-____",
    "npm install lodash@4.17.21 @types/node@20.11.5",
    "@dataclass(frozen=True)\nclass Settings:\n    password: SecretStr\n    api_token: SecretStr",
    "The favicon is inlined as data:image/png;base64,⟦~png64⟧",
    "Kubernetes secret name is `db-credentials`, key `password` — mount it as a file.",
    "Confirmation code for the restaurant booking is BX7K2Q, table for four.",
    "Error code 0x80070005 means access denied.",
    "Timestamp 2026-12-06T03:27:59Z in the logs, right before the crash.",
    "Serial number SN-7731-0042-9985 is on the back of the router.",
    "I changed my password yesterday so the old one won't work.",
    "Login failed: wrong password (attempt 3 of 5).",
    "The IBAN field accepts up to 34 characters.",
    "The bank rejected IBAN ⟦~badiban_s⟧ as invalid, I must have copied it wrong.",
    "The card ending in 4242 was declined.",
    "Ticket JIRA-4821: rotate the Stripe key after the incident.",
    "Example token: eyJhbGciOi... (truncated in the docs)",
    "Your password was changed on 2026-11-30 at 21:14 from Chrome on macOS.",
    "How long should an API key be? Is 32 random bytes enough?",
    "secrets.token_urlsafe(32) is what we use to mint the tokens.",
    "The old credentials were revoked, nothing to rotate now.",
    "Can you explain how bearer tokens differ from API keys?",
    "Invoice INV-2026-004417 is for $312.40, PO 4500087213.",
    "Tracking number 9400 1000 0000 0000 0000 00 is the USPS format example, not a real one.",
    "Build 2026.12.05.1842 is the release candidate.",
    'curl -u "$USER:$PASS" https://ci.example.com/api/json',
    "Set password_expiry_days: 90 and lockout_threshold: 5 in the policy file.",
    "Host key fingerprint SHA256:⟦~b64_43⟧ — verify it before connecting.",
    "The cert we serve:\n⟦~cert⟧",
]

ZH_POSITIVE = [
    "我的密码是⟦secret|qwe123456⟧，你帮我记一下",
    "邮箱登录密码：⟦secret|Lx@2024!ok⟧",
    "家里WiFi密码是⟦secret|88886666⟧，网络名叫ChinaNet-5G",
    "服务器root密码为⟦secret|Zh#7821kq⟧，改完记得通知我",
    "支付密码⟦secret|135790⟧千万别告诉别人",
    "初始密码：⟦secret|Abc@123456⟧，首次登录后请修改。",
    "公司VPN口令是⟦secret|dragon2026⟧",
    "登录口令：⟦secret|P9vK3mQx⟧ 账号：zhangsan",
    "保险箱的密码是⟦secret|芝麻开门⟧，别外传",
    "把数据库密码改成了⟦secret|Db_pass_0912⟧，配置文件里也要同步",
    "我QQ密码：⟦secret|woaini1314⟧",
    "管理员账号admin，密码⟦secret|Admin@2025⟧",
    "Redis 的密码设置为 ⟦secret|redis_Yz8k⟧ 了",
    "压缩包解压密码：⟦secret|jy2026⟧",
    "这个PDF的打开密码是 ⟦secret|hetong0615⟧",
    "微信支付密码是⟦secret|258369⟧，帮我付一下",
    "路由器后台密码 ⟦secret|tplink8899⟧",
    "接口密钥：⟦hex32⟧（签名用，别发到群里）",
    "小程序的 AppSecret 是 ⟦hex32⟧，AppID 是 wx8f2a61c0d3b4e597",
    "数据库连接串：mysql://root:⟦secret|Mysql_2026x⟧@10.0.0.8:3306/shop",
    "报表库连接地址 postgresql://report:⟦secret|bao8biao⟧@pg.company.cn:5432/bi",
    "git remote 地址是 https://liwei:⟦secret|Gitee2026pw⟧@gitee.com/liwei/demo.git",
    "密码:⟦secret|abc⟧（测试环境，随便用）",
    "你记住，门禁系统的管理密码是⟦secret|0520⟧",
    "新密码设好了：⟦secret|Hz.Spring-88⟧",
    "口令 ⟦secret|shanhai-2026⟧ 已经发到群里了",
    '{"用户名": "wangfang", "密码": "⟦secret|wf@19900815⟧"}',
    "配置文件里写着 password: ⟦secret|Jx8#kLm2⟧ ，这样安全吗？",
    "账号⟦cnmob⟧，密码⟦secret|lm147258⟧，帮我登一下看看订单",
    "我的银行卡密码是⟦secret|661024⟧，卡号⟦up19⟧",
    "我的密码是⟦secret|1qaz2wsx⟧，你试试能不能登上去",
    "老王说数据库密码：⟦secret|laowang@db⟧",
    "测试账号 test01 / 密码 ⟦secret|Test@0101⟧",
    "密码是 ⟦secret|Passw0rd!⟧ ，注意大小写",
    "门锁密码设置成了⟦secret|739164⟧",
    "备份盘的加密口令：「⟦secret|月光下的猫2026⟧」",
    "环境变量 MYSQL_ROOT_PASSWORD=⟦secret|RootPw_5566⟧",
    "邮箱SMTP密码 ⟦secret|smtpQ8w2⟧ 发件人 ⟦email|noreply@shop-demo.cn⟧",
    "阿里云 AccessKeyId：⟦aliyun⟧，AccessKeySecret：⟦alnum30⟧",
    "家里电脑的开机密码是⟦secret|xiaomao⟧，帮我记着",
    "Wi-Fi：Office-2F，密码：⟦secret|work8866!⟧",
    "我把 Jenkins 的登录密码改成 ⟦secret|Jk_2026_ci⟧ 了",
    "这是我的 OpenAI key：⟦openai_proj⟧，帮我看看额度",
    "把 ⟦anthropic⟧ 配到环境变量里就行",
    "GitHub token 泄露了：⟦ghp⟧，赶紧吊销",
    "DeepSeek 的 key 是 ⟦sk_hex32⟧",
    "腾讯云 SecretId：⟦tencent⟧",
    "HF_TOKEN=⟦hf⟧ 写在 .bashrc 里了",
    "Stripe 的 ⟦stripe_sk⟧ 不小心提交到仓库了",
    "谷歌地图 key：⟦google⟧",
    "npm 发布用的 ⟦npm⟧ 放到 CI 变量里",
    "GitLab 的访问令牌是 ⟦glpat⟧",
    "请求头里带上 Authorization: Bearer ⟦jwt⟧ 就能调通",
    "这个 token 过期了吗？⟦jwt⟧",
    "用 curl -H 'Authorization: Basic ⟦basic⟧' 调接口返回 403",
    "登录后拿到的 access_token 是 ⟦jwt⟧，有效期两小时",
    "Cookie: SESSIONID=⟦opaque⟧ 复制到浏览器就能登录我的账号",
    "Authorization: Bearer ⟦opaque⟧ 这个是测试环境的",
    'curl https://api.example.cn/v1/orders -H "Authorization: Bearer ⟦opaque⟧"',
    "私钥发你了：\n⟦pem_rsa⟧",
    "服务器的 id_ed25519 内容如下\n⟦pem_openssh⟧",
    "SSH 私钥如下，帮我看看格式对不对：⟦pem_ec⟧",
    "我的银行卡号是⟦up19⟧，工商银行",
    "卡号：⟦up16_s⟧ 招商银行一卡通",
    "退款请打到 ⟦up19_s⟧（建设银行，户名李娜）",
    "信用卡 ⟦visa_s⟧ 有效期 11/29",
    "借记卡⟦up16⟧可以用吗",
    "帮我记下这张卡：⟦mc⟧",
    "农行卡号 ⟦up19_d⟧",
    "工资卡⟦up16_s⟧，开户行中国银行北京分行",
    "新办的信用卡⟦mc_s⟧，额度五万",
    "银行卡号⟦up19⟧ 户名张伟 开户行招商银行",
    "我手机号⟦cnmob⟧，有事打我",
    "联系人：王强，电话 ⟦cnmob_s⟧",
    "快递员电话⟦cnmob_d⟧，下午送到",
    "手机：⟦cnmob_86⟧",
    "我换号了，新号码是⟦cnmob_86s⟧",
    "房东的电话是⟦cnmob⟧，你直接跟他约看房时间",
    "我家座机⟦phone|021-6437 2856⟧，晚上打这个",
    "老师的手机是 ⟦cnmob⟧ 。",
    "微信同号：⟦phone|(+86) 139 0211 4478⟧",
    "手机号码: ⟦cnmob⟧ 验证码发到这个号",
    "收货人：赵敏 ⟦cnmob⟧ 北京市海淀区中关村大街27号",
    "身份证号：⟦cnid⟧",
    "我的身份证号码是⟦cnidX⟧，帮我填一下表",
    "乘机人：刘洋，证件号⟦cnid⟧",
    "身份证 ⟦cnid⟧ 姓名 陈静 手机 ⟦cnmob⟧",
    "办理入住需要身份证号，我的是⟦cnid⟧。",
    "孩子的身份证号⟦cnidX⟧，报名用",
    "我身份证⟦cnid⟧，银行卡⟦up16⟧，手机⟦cnmob⟧，帮我开户",
    "客户资料：李明，⟦cnid⟧，⟦cnmob_s⟧",
    "我的邮箱是⟦email|zhangwei1988@163.com⟧，简历发这里",
    "联系邮箱：⟦email|hr-recruit@xiaomi-partner.cn⟧",
    "抄送给⟦email|lina.chen@qq.com⟧就行",
    "我的工作邮箱⟦email|wang.qiang@bytedance.com⟧和私人邮箱⟦email|wq_sky@126.com⟧都可以",
    "发票请发到 ⟦email|caiwu2024@sina.cn⟧ 。",
    "邮箱：⟦email|8457219@qq.com⟧",
    "海外汇款的IBAN是⟦iban_de_s⟧，收款人是我德国的同学",
    "英国账户 IBAN：⟦iban_gb⟧",
    "美国同事的 SSN 是 ⟦ssn⟧，填表要用",
]

ZH_NEGATIVE = [
    "我忘记密码了，怎么找回？",
    "密码长度8-16位，必须包含字母和数字",
    "密码重置链接已经发到你的邮箱了",
    "密码：********",
    "请把 <你的密码> 替换成实际的密码再运行",
    "订单号：⟦~order19⟧，请尽快发货",
    "快递单号 ⟦~sf⟧，顺丰",
    "京东订单 ⟦~order12⟧ 还没到",
    "发票号码 ⟦~inv8⟧，开票日期2026年11月3日",
    "版本号 v2.8.3 已经发布",
    "价格是 ¥1,299.00，双十一再降200",
    "会议时间 2026-12-08 14:30，地点 3 楼会议室",
    "时间戳 1733456789 换算成北京时间是多少？",
    "这个身份证号 ⟦~badcnid⟧ 校验位不对，系统提示无效",
    "积分卡号 ⟦~badcard⟧ 查不到积分",
    "提交记录 ⟦~sha40⟧ 引入了这个 bug",
    "请求 ID：⟦~uuid⟧，麻烦帮查下日志",
    "密码错误，请重新输入（还剩2次机会）",
    "password_hash 字段不要返回给前端",
    '代码里用 os.getenv("DB_PASSWORD") 读取密码，不要写死',
    "配置里写 api_key: ${OPENAI_API_KEY}，部署时注入",
    "把 YOUR_API_KEY 换成你自己的 key",
    "我的公钥：⟦~sshpub⟧",
    "公钥如下：\n⟦~pubpem⟧",
    "密码是对的，但是一直提示登录失败",
    "支付密码忘了，只能去柜台重置",
    "建议每90天修改一次密码",
    "工号 20190347，部门 研发二部",
    "学号 2023214507 的同学请到办公室",
    "邮编 100080",
    "航班 CA1831 明天 08:05 起飞",
    "房间号 1208，门禁卡在前台领",
    "车次 G1234 二等座 05车12F",
    "快递柜取件码 8-3-0457",
    "Token 过期了，需要重新登录",
    "令牌桶算法的容量设成 100，每秒补充 10 个",
    "密钥长度至少 2048 位",
    "密码学课程下周考试",
    "这个接口需要在 Header 里带 Authorization，格式是 Bearer 加空格加 token",
    "私钥千万不要上传到 GitHub",
    "雪花 ID 比如 ⟦~snowflake⟧ 适合做主键吗？",
    "身份证号的最后一位是校验码，可能是 X",
    "手机号格式校验的正则是 ^1[3-9]\\d{9}$",
    "这台服务器的 IP 是 10.12.0.45，端口 8080",
    "安装包 sha256 校验值：⟦~hex64⟧",
    "银行卡号后四位 6217，是你的吗？",
    "金额：￥36,800.00 元，大写叁万陆仟捌佰元整",
    "Docker 镜像 sha256:⟦~hex64⟧ 拉不下来",
    "npm 包 @vue/cli@5.0.8 装不上",
    "密码框里显示的是 ●●●●●●●●，看不到原文",
    "把密码改成 8 位以上",
    "def check_password(raw_password: str) -> bool: 这个函数怎么写单测？",
    "Git 提交 ⟦~sha7⟧ 之后就开始报错",
    "水费户号 3100456721，每月自动扣款",
    "日志里的 token=*** 是脱敏后的",
    "开发者文档说 AppSecret 不能放在前端代码里",
    "这个订单的物流单号是 ⟦~yt⟧",
    "我的邮箱密码忘了",
    "护照号码格式是一个字母加八位数字",
    "坐标 39.9042, 116.4074",
    "错误码 E10086，请联系管理员",
    "股票代码 600519，今天收盘价 1,689.00",
    "QQ 群号 834567291，进群备注姓名",
    "请在 .env 里设置 SECRET_KEY=<随机字符串>",
    "JWT 由 header、payload 和 signature 三段组成，用点号分隔",
    "银行卡校验用的是 Luhn 算法",
    "验证码已发送，5分钟内有效",
    "身份证号：[已隐藏]",
    "新版 3.2.0-beta.4 修复了登录问题",
    "订单 ⟦~order19⟧ 的退款金额 ¥89.90",
    "运单号 ⟦~sf⟧ 显示已签收",
    "这个数字 ⟦~badcnid⟧ 不是合法的身份证号",
    "Key 在 Vault 里，路径 secret/data/prod/db",
    "密码：[REDACTED]",
    "上次修改密码是 2026-10-02，系统提示该改了",
    "密码强度：弱，建议加上特殊字符",
    "令牌已失效，请重新获取",
    "请输入6位数字支付密码",
    "这个 API 的 key 要去控制台申请，申请后 24 小时生效",
    "合同编号 HT-2026-0415，金额 ¥128,000.00",
    "航班订单 ⟦~order12⟧ 已出票",
    "密钥管理服务 KMS 每年自动轮换一次",
    "PASSWORD_MAX_LENGTH = 64  # 密码最大长度",
    "生日 1990年8月15日，属马",
    "api_key: 'sk-xxxxxxxxxxxxxxxx'  # 换成你的",
]

LINES = (
    [("en", t) for t in EN_POSITIVE]
    + [("en", t) for t in EN_NEGATIVE]
    + [("zh", t) for t in ZH_POSITIVE]
    + [("zh", t) for t in ZH_NEGATIVE]
)

# --- verification ------------------------------------------------------------------------

KINDS = {
    "api_key",
    "card",
    "cn_id",
    "email",
    "iban",
    "phone",
    "private_key",
    "secret",
    "ssn",
    "token",
}
NUM_RUN = re.compile(r"(?<![\dA-Za-z])\d(?:[ -]?\d){12,18}(?![\dA-Za-z])")
ID_RUN = re.compile(r"(?<![\dA-Za-z])\d{17}[\dXx](?![\dA-Za-z])")
MOBILE_RUN = re.compile(r"(?<!\d)1[3-9]\d{9}(?!\d)")
EMAIL_RUN = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}")
IBAN_RUN = re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){3,7}(?: ?[A-Z0-9]{1,4})?\b")


def problems(rows: list[dict[str, Any]]) -> list[str]:
    errs = []
    seen: set[str] = set()
    corpus = set()
    if CORPUS.exists():
        with CORPUS.open(encoding="utf-8") as f:
            corpus = {json.loads(line)["text"] for line in f if line.strip()}
    for n, row in enumerate(rows, 1):
        text = str(row["text"])
        if text in seen:
            errs.append(f"{n}: duplicate text")
        seen.add(text)
        if text in corpus:
            errs.append(f"{n}: copied from the tuning corpus")
        rest = text
        for span in row["spans"]:
            kind, value = span["kind"], span["value"]
            at = span.get("at", text.find(value))
            if kind not in KINDS:
                errs.append(f"{n}: unknown kind {kind}")
            if at < 0 or text[at : at + len(value)] != value:
                errs.append(f"{n}: span {value!r} not in text")
            if "at" in span and text.find(value) == at:
                errs.append(f"{n}: 'at' on a first occurrence")
            compact = re.sub(r"[ -]", "", value)
            if kind == "card" and not (compact.isdigit() and luhn_ok(compact)):
                errs.append(f"{n}: card {value} fails Luhn")
            if kind == "cn_id" and not id_ok(value):
                errs.append(f"{n}: cn_id {value} fails its check")
            if kind == "iban" and not iban_ok(value):
                errs.append(f"{n}: iban {value} fails mod 97")
            rest = rest.replace(value, " ")
        # what is left must hold no valid look-alike
        for m in NUM_RUN.finditer(rest):
            run = re.sub(r"[ -]", "", m.group())
            if luhn_ok(run):
                errs.append(f"{n}: Luhn-valid run {m.group()} outside spans")
        for m in ID_RUN.finditer(rest):
            if id_ok(m.group()):
                errs.append(f"{n}: valid ID {m.group()} outside spans")
        for m in MOBILE_RUN.finditer(rest):
            errs.append(f"{n}: mobile-like {m.group()} outside spans")
        for m in EMAIL_RUN.finditer(rest):
            errs.append(f"{n}: email-like {m.group()} outside spans")
        for m in IBAN_RUN.finditer(rest):
            if iban_ok(m.group()):
                errs.append(f"{n}: valid IBAN {m.group()} outside spans")
    return errs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--check", action="store_true", help="verify only; write nothing")
    args = ap.parse_args()
    rows = build()
    errs = problems(rows)
    for e in errs:
        print(e, file=sys.stderr)
    if errs:
        return 1
    if not args.check:
        with args.out.open("w", encoding="utf-8") as f:
            for row in rows:
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
    pos = sum(1 for r in rows if r["spans"])
    print(f"{len(rows)} lines, {pos} positive, {len(rows) - pos} negative")
    return 0


if __name__ == "__main__":
    sys.exit(main())
