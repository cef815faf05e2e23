# ruff: noqa: E501
"""Write ``sensitivity_heldout8.jsonl``: an eighth held-out set for the secret / PII detector,
written by an outside author who did not read the detector (``langgraph_memory/``), its
tests, its tuning corpus, the nearby sets or the lines of sets 2-7. Only
``benchmarks/sensitivity.py`` (how a set is read and scored, which kinds exist, what counts as
a secret), set 7's maker (whose labelling rules, slot syntax, halves rule and machinery this
script keeps, and whose value makers it reuses), ``tests/data/heldout_values.py``,
``heldout_rows.py`` and ``heldout_maker.py`` were looked at. Every template is new; the value
makers add provider prefixes not used before (Langfuse, Slack app tokens, Tailscale, Sentry
user tokens, Airtable, Terraform Cloud, GitLab runner / deploy tokens, Shopify shared
secrets, DigitalOcean OAuth, Stripe test keys, Anthropic OAuth), Google OAuth access tokens
and Basic credentials in ``Authorization`` headers, unprefixed keys of Chinese clouds
(Zhipu, Qiniu), more countries' phones and IBANs, personal landlines, and look-alikes of
their own (SWIFT codes, UK sort code + account, US routing numbers, VINs, company credit
codes, booking references, meeting numbers, age / GPG / Bitcoin public identifiers, masked
cards and phones, Stripe object ids, SIM ICCIDs). Set 7's jsonl joins the copy check. Own
seed.

Usage:
    python tests/data/make_sensitivity_heldout8.py           # (re)write the jsonl
    python tests/data/make_sensitivity_heldout8.py --check   # verify rules and that the
                                                             # file matches; write nothing

Lines (``sensitivity_heldout8_lines.py``) are what people type or paste to an assistant, half
English and half Chinese, and about 45 % of them hold no span: chat with typos, voice input
without punctuation, tickets, config files in many formats (.env, YAML, TOML, INI, JSON, HCL,
compose, k8s, Helm, GitHub Actions, nginx / Apache, .npmrc, .pypirc, pip.conf, Maven,
rclone / s3cmd / AWS credentials, PHP / Java properties), shell history, logs, forwarded
mail and SMS, Wi-Fi and door notes, bank, card, ID and phone details.

Slot syntax, kind codes, labelling rules and halves: exactly set 7's (see the docstring of
``make_sensitivity_heldout7.py``). Reminders: ``⟦kind=value⟧`` a hand-written positive;
``⟦kind@gen⟧`` a positive drawn from generator ``gen``; ``⟦~gen⟧`` a look-alike filler (no
span). A value wrapped over a line break is one span with the break inside it; gold values
are minimal; account numbers, sort codes, SWIFT codes, WeChat / QQ ids, passports, plates,
addresses, order and booking numbers are never labelled; public hotlines are not ``phone``;
codes made to be shared (取件码, 邀请码, meeting numbers) are not secrets. A line is **held**
when the SHA-256 of its final text (UTF-8) is odd, else **tune**.
"""

from __future__ import annotations

import base64
import sys
import uuid
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from heldout_maker import run  # noqa: E402
from heldout_rows import problems, render  # noqa: E402
from heldout_values import (  # noqa: E402
    ALNUM,
    B64,
    B64URL,
    DIG,
    HEX,
    UPPER,
    card,
    cnmob,
    fullwidth,
    group,
    iban,
    non_luhn,
    pick,
    rng,
)
from make_sensitivity_heldout7 import GEN as GEN7  # noqa: E402  (sets 6 and 7's makers)
from make_sensitivity_heldout7 import wrapped  # noqa: E402

OUT = HERE / "sensitivity_heldout8.jsonl"
SEED = 80812731
OTHER_SETS = [
    "sensitivity_corpus.jsonl",
    "sensitivity_dev.jsonl",
    "sensitivity_heldout.jsonl",
    "sensitivity_heldout2.jsonl",
    "sensitivity_heldout3.jsonl",
    "sensitivity_heldout4.jsonl",
    "sensitivity_heldout5.jsonl",
    "sensitivity_heldout6.jsonl",
    "sensitivity_heldout7.jsonl",
    "sensitivity_nearby_check.jsonl",
    "sensitivity_nearby_dev.jsonl",
]

LOWER32 = "abcdefghijklmnopqrstuvwxyz234567"
BECH = "qpzry9x8gf2tvdw0s3jn54khce6mual7"
PW = ALNUM + "!#%*+=?~"


def _uuid() -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def _basic() -> str:
    user = rng.choice(["admin", "deploy", "ci-bot", "grafana", "ops", "elastic", "scraper"])
    return base64.b64encode(f"{user}:{pick(ALNUM, 14)}".encode()).decode()


def _password() -> str:
    """A generated password: letters, digits and a few symbols, never at an edge."""
    return pick(ALNUM, 1) + pick(PW, rng.randint(10, 16)) + pick(ALNUM, 1)


def _words() -> str:
    words = "amber ladder quiet falcon tundra velvet orbit maple cobalt harbor pickle zebra sonnet glacier".split()
    return " ".join(rng.sample(words, 4))


AK8: dict[str, Any] = {
    "lf_sk": lambda: "sk-lf-" + _uuid(),
    "xapp": lambda: f"xapp-1-A0{pick(UPPER + DIG, 9)}-{pick(DIG, 13)}-{pick(HEX, 64)}",
    "tskey": lambda: "tskey-auth-k" + pick(ALNUM, 10) + "CNTRL-" + pick(ALNUM, 33),
    "sntryu": lambda: "sntryu_" + pick(HEX, 64),
    "airtable": lambda: "pat" + pick(ALNUM, 14) + "." + pick(HEX, 64),
    "tfc": lambda: pick(ALNUM, 14) + ".atlasv1." + pick(ALNUM, 67),
    "glrt": lambda: "glrt-" + pick(B64URL, 20),
    "gldt": lambda: "gldt-" + pick(B64URL, 20),
    "shpss": lambda: "shpss_" + pick(HEX, 32),
    "doo": lambda: "doo_v1_" + pick(HEX, 64),
    "sk_test": lambda: "sk_test_51" + pick(ALNUM, 97),
    "ant_oat": lambda: "sk-ant-oat01-" + pick(B64URL, 93) + "AA",
    "moonshot": lambda: "sk-" + pick(ALNUM, 48),
}

GEN: dict[str, Any] = {
    **GEN7,
    **AK8,
    # credentials
    "ant_wrap": lambda: wrapped(GEN7["anthropic"](), 41),
    "xoxb_wrap": lambda: wrapped(GEN7["xoxb"](), 30),
    "pem_ec_ind": lambda: GEN7["pem_ec"]().replace("\n", "\n    "),  # in a YAML block
    "aws_sk": lambda: pick(ALNUM + "+/", 39) + pick(ALNUM, 1),
    "aws_sk_wrap": lambda: wrapped(pick(ALNUM, 40), 17),
    "aws_sess": lambda: "IQoJb3JpZ2luX2VjE" + pick(ALNUM + "+/", 280) + pick(ALNUM, 3),
    "ya29": lambda: "ya29.a0" + pick(B64URL, 150),
    "basic": _basic,
    "zhipu": lambda: pick(HEX, 32) + "." + pick(ALNUM, 16),
    "qiniu": lambda: pick(B64URL, 39) + pick(ALNUM, 1),
    "pw": _password,
    "words": _words,
    "hex48": lambda: pick(HEX, 48),
    "b64_32": lambda: pick(ALNUM, 31) + "=",
    "sess40": lambda: pick(HEX, 40),
    "djkey": lambda: "django-insecure-" + pick(ALNUM + "!#%^&*-+=", 48) + pick(ALNUM, 2),
    "otp8": lambda: pick(DIG, 8),
    "otp4": lambda: pick(DIG, 4),
    "totp_b32": lambda: pick(UPPER + "234567", 32),
    # PII
    "au_ph": lambda: "+61 4" + pick(DIG, 2) + " " + pick(DIG, 3) + " " + pick(DIG, 3),
    "in_ph": lambda: "+91 9" + pick(DIG, 4) + " " + pick(DIG, 5),
    "kr_ph": lambda: "+82 10-" + pick(DIG, 4) + "-" + pick(DIG, 4),
    "tw_ph": lambda: "+886 9" + pick(DIG, 2) + "-" + pick(DIG, 3) + "-" + pick(DIG, 3),
    "br_ph": lambda: "+55 11 9" + pick(DIG, 4) + "-" + pick(DIG, 4),
    "mob86d": lambda: "+86-" + group(cnmob(), (3, 4, 4), "-"),
    "mob_paren": lambda: "(+86) " + group(cnmob(), (3, 4, 4)),
    "fw_mob86": lambda: "＋８６ " + fullwidth(cnmob()),
    "cn_land": lambda: (
        rng.choice(["010-", "021-", "0755-", "020-", "0571-"])
        + str(rng.randint(2, 8))
        + pick(DIG, 7)
    ),
    "mc2_d": lambda: group(card(rng.choice(["2221", "2305", "2720"]), 16), 4, "-"),
    "up19_d": lambda: group(card("6217", 19), (4, 4, 4, 4, 3), "-"),
    "diners": lambda: group(card("36", 14), (4, 6, 4)),
    "fw_visa_s": lambda: fullwidth(group(card("4", 16), 4)),
    "up16_sp2": lambda: group(card("6228", 16), 4, "  "),
    "iban_dk": lambda: iban("DK", pick(DIG, 14)),
    "iban_no": lambda: group(iban("NO", pick(DIG, 11)), 4),
    "iban_fi": lambda: group(iban("FI", pick(DIG, 14)), 4),
    "iban_lu": lambda: group(iban("LU", pick(DIG, 3) + pick(UPPER + DIG, 13)), 4),
    "iban_hu": lambda: group(iban("HU", pick(DIG, 24)), 4),
    "iban_ae": lambda: iban("AE", pick(DIG, 19)),
    # look-alikes (never labelled)
    "bic": lambda: (
        pick(UPPER, 4)
        + rng.choice(["DE", "GB", "CN", "HK", "SG", "NL"])
        + pick(UPPER + DIG, 2)
        + rng.choice(["", "XXX"])
    ),
    "sortcode": lambda: f"{pick(DIG, 2)}-{pick(DIG, 2)}-{pick(DIG, 2)}",
    "acct8": lambda: pick(DIG, 8),
    "routing": lambda: "0" + pick(DIG, 8),
    "acct_us": lambda: pick(DIG, 10),
    "vin": lambda: pick("ABCDEFGHJKLMNPRSTUVWXYZ0123456789", 17),
    "credit_code": lambda: (
        "91" + pick(DIG, 6) + pick(UPPER.replace("I", "").replace("O", "") + DIG, 10)
    ),
    "pnr": lambda: pick("ABCDEFGHJKLMNPQRSTUVWXYZ", 2) + pick(UPPER + DIG, 4),
    "tmeet": lambda: f"{pick(DIG, 3)}-{pick(DIG, 3)}-{pick(DIG, 3)}",
    "age_pub": lambda: "age1" + pick(BECH, 58),
    "gpg_fp": lambda: group(pick("0123456789ABCDEF", 40), 4),
    "btc": lambda: "bc1q" + pick(BECH, 38),
    "card_mask": lambda: "**** **** **** " + pick(DIG, 4),
    "mob_mask": lambda: "1" + rng.choice("3456789") + pick(DIG, 1) + "****" + pick(DIG, 4),
    "id_mask": lambda: (
        rng.choice(["110105", "310104", "440305", "510107"])
        + "********"
        + pick(DIG, 3)
        + rng.choice(DIG + "X")
    ),
    "cus": lambda: "cus_" + pick(ALNUM, 14),
    "pi": lambda: "pi_3" + pick(ALNUM, 23),
    "iccid": lambda: "89860" + pick(DIG, 15),
    "oid": lambda: pick(HEX, 24),
    "sri384": lambda: "sha384-" + pick(B64, 64),
    "corp_acct": lambda: group(non_luhn(rng.choice(["3100", "1001", "4420"]), 19), 4),
    "tb_order": lambda: non_luhn(rng.choice(["2", "3", "4"]), 19),
    "sto": lambda: "77" + pick(DIG, 13),
    "passport": lambda: "E" + pick(DIG, 8),
    "wxid": lambda: "wxid_" + pick("abcdefghijklmnopqrstuvwxyz0123456789", 14),
    "qq": lambda: str(rng.randint(20000000, 2999999999)),
    "ipv6": lambda: "2001:db8:" + ":".join(pick(HEX, 4) for _ in range(3)) + "::" + pick(HEX, 3),
    "slack_ch": lambda: "C0" + pick(UPPER + DIG, 9),
    "amzn": lambda: f"11{rng.randint(1, 4)}-{pick(DIG, 7)}-{pick(DIG, 7)}",
    "b32_pub": lambda: pick(LOWER32, 52),
}


def build() -> list[dict[str, Any]]:
    from sensitivity_heldout8_lines import EN, ZH  # noqa: PLC0415 (beside this script)

    rng.seed(SEED)
    return [render("en", t, GEN) for t in EN] + [render("zh", t, GEN) for t in ZH]


def main() -> int:
    others = [HERE / name for name in OTHER_SETS]
    return run(__doc__ or "", build, lambda rows: problems(rows, others), OUT)


if __name__ == "__main__":
    sys.exit(main())
