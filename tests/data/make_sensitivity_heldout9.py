# ruff: noqa: E501
"""Write ``sensitivity_heldout9.jsonl``: a ninth held-out set for the secret / PII detector,
written by an outside author who did not read the detector (``langgraph_memory/``), its
tests, its tuning corpus, the nearby sets or the lines of sets 2-8. Only
``benchmarks/sensitivity.py`` (how a set is read and scored, which kinds exist, what counts as
a secret), the makers of sets 7 and 8 (whose labelling rules, slot syntax, halves rule and
machinery this script keeps, and whose value makers it reuses), ``tests/data/heldout_values.py``,
``heldout_rows.py`` and ``heldout_maker.py`` were looked at. Every template is new; the value
makers add provider prefixes not used before (New Relic, Mailgun, Mailchimp, Heroku, Netlify,
Pulumi, Grafana Cloud, Buildkite, CircleCI, Together, Cerebras, ElevenLabs, RubyGems, JFrog,
PlanetScale, Neon, Resend, Brevo, Dynatrace, Shippo), unprefixed secrets in shapes of their
own (WireGuard keys, Telegram and Discord bot tokens, QQ mail authorisation codes, Windows
product keys, recovery phrases, base64 passwords of Kubernetes secrets, Laravel app keys,
Alipay private keys without a PEM frame, session cookies of PHP / Java / Express), one-time
codes spelled in words or in Chinese numerals, more countries' phones, IBANs and card
networks (Mir, Troy, 13-digit Visa), and look-alikes of their own (Twilio account SIDs,
WeChat / Alipay app ids, publishable Stripe keys, reCAPTCHA site keys, analytics ids, Go /
Nix hashes, transaction hashes, Solana addresses, AWS ARNs and resource ids, Apple serials,
train orders, flights, student and exam numbers, IMSIs, SSH fingerprints). Set 8's jsonl
joins the copy check. Own seed.

Usage:
    python tests/data/make_sensitivity_heldout9.py           # (re)write the jsonl
    python tests/data/make_sensitivity_heldout9.py --check   # verify rules and that the
                                                             # file matches; write nothing

Lines (``sensitivity_heldout9_lines.py``) are what people type or paste to an assistant, half
English and half Chinese, and about 45 % of them hold no span: chat with typos, voice input
without punctuation, tickets, config files in many formats, shell history, logs, forwarded
mail and SMS, Wi-Fi and door notes, bank, card, ID and phone details.

Slot syntax, kind codes, labelling rules and halves: exactly sets 7 and 8's (see the
docstring of ``make_sensitivity_heldout7.py``). Reminders: ``⟦kind=value⟧`` a hand-written
positive; ``⟦kind@gen⟧`` a positive drawn from generator ``gen``; ``⟦~gen⟧`` a look-alike
filler (no span). A value wrapped over a line break is one span with the break inside it;
gold values are minimal (a ``base64:`` or ``Bearer`` scheme word stays outside); a one-time
code spelled in words or Chinese numerals is labelled as written; account numbers, sort
codes, SWIFT codes, WeChat / QQ ids, passports, plates, addresses, order and booking numbers
are never labelled; public hotlines are not ``phone``; codes made to be shared (取件码,
邀请码, meeting numbers) and publishable keys made for browsers are not secrets. A line is
**held** when the SHA-256 of its final text (UTF-8) is odd, else **tune**.
"""

from __future__ import annotations

import base64
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
    B64URL,
    DIG,
    HEX,
    UPPER,
    card,
    cnid,
    cnmob,
    fullwidth,
    group,
    iban,
    non_luhn,
    pick,
    rng,
)
from make_sensitivity_heldout7 import wrapped  # noqa: E402
from make_sensitivity_heldout8 import GEN as GEN8  # noqa: E402  (sets 6-8's makers)
from make_sensitivity_heldout8 import _password  # noqa: E402

OUT = HERE / "sensitivity_heldout9.jsonl"
SEED = 90913377
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
    "sensitivity_heldout8.jsonl",
    "sensitivity_nearby_check.jsonl",
    "sensitivity_nearby_dev.jsonl",
]

LOWER = "abcdefghijklmnopqrstuvwxyz"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
BIP39 = (
    "abandon ability absorb access actress adapt alcohol alpha anchor armor autumn bamboo "
    "banner basket bench bicycle blanket bounce bridge bubble cabin cactus canyon carbon "
    "castle cherry cinnamon citizen coconut copper cradle cricket crystal dolphin eagle "
    "elbow ember fabric falcon festival fiction garlic ginger glimpse harvest hedgehog "
    "island jungle kettle lantern lemon lizard marble meadow mirror noodle orchard oyster"
).split()
ZH_DIGITS = "零一二三四五六七八九"
EN_DIGITS = "zero one two three four five six seven eight nine".split()


def _discord() -> str:
    uid = str(rng.randint(10**17, 2 * 10**18))
    return (
        base64.b64encode(uid.encode()).decode().rstrip("=")
        + "."
        + pick(B64URL, 6)
        + "."
        + pick(B64URL, 38)
    )


def _k8s_pw() -> str:
    return base64.b64encode(_password().encode()).decode()


AK9: dict[str, Any] = {
    "nrak": lambda: "NRAK-" + pick(UPPER + DIG, 27),
    "mailgun": lambda: "key-" + pick(HEX, 32),
    "mailchimp": lambda: pick(HEX, 32) + "-us" + str(rng.randint(2, 21)),
    "heroku": lambda: "HRKU-AA" + pick(B64URL, 58),
    "nfp": lambda: "nfp_" + pick(ALNUM, 36),
    "pulumi": lambda: "pul-" + pick(HEX, 40),
    "glc": lambda: "glc_eyJvIjoi" + pick(ALNUM, 110) + "fQ==",
    "bkua": lambda: "bkua_" + pick(HEX, 40),
    "ccipat": lambda: "CCIPAT_" + pick(ALNUM, 22) + "_" + pick(HEX, 40),
    "together": lambda: "tgp_v1_" + pick(B64URL, 43),
    "cerebras": lambda: "csk-" + pick(LOWER + DIG, 48),
    "eleven": lambda: "sk_" + pick(HEX, 48),
    "rubygems": lambda: "rubygems_" + pick(HEX, 48),
    "jfrog": lambda: "cmVmdGtuOjAxOj" + pick(ALNUM, 50),
    "pscale": lambda: "pscale_tkn_" + pick(ALNUM, 43),
    "neon": lambda: "napi_" + pick(LOWER + DIG, 64),
    "resend": lambda: "re_" + pick(ALNUM, 8) + "_" + pick(ALNUM, 24),
    "brevo": lambda: "xkeysib-" + pick(HEX, 64) + "-" + pick(ALNUM, 16),
    "dt0c01": lambda: "dt0c01." + pick(UPPER + DIG, 24) + "." + pick(UPPER + DIG, 64),
    "shippo": lambda: "shippo_live_" + pick(HEX, 40),
}

GEN: dict[str, Any] = {
    **GEN8,
    **AK9,
    # credentials without a provider prefix
    "wg": lambda: pick(B64, 42) + rng.choice("AEIMQUYcgkosw048") + "=",
    "tg_bot": lambda: f"{rng.randint(5 * 10**9, 7 * 10**9)}:AA{pick(B64URL, 33)}",
    "discord": _discord,
    "qqauth": lambda: pick(LOWER, 16),
    "winkey": lambda: "-".join(pick("BCDFGHJKMPQRTVWXY2346789", 5) for _ in range(5)),
    "mnemonic": lambda: " ".join(rng.sample(BIP39, 12)),
    "k8s_pw": _k8s_pw,
    "lara": lambda: pick(B64, 43) + "=",
    "alipay_priv": lambda: "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ" + pick(B64, 330),
    "rclone_pw": lambda: pick(B64URL, 34),
    "phpsess": lambda: pick(LOWER + DIG, 26),
    "jsess": lambda: pick("0123456789ABCDEF", 32),
    "connect_sid": lambda: "s%3A" + pick(B64URL, 32) + "." + pick(ALNUM, 43),
    "otp_zh": lambda: "".join(rng.choice(ZH_DIGITS) for _ in range(6)),
    "otp_words": lambda: " ".join(rng.choice(EN_DIGITS) for _ in range(6)),
    "otp5": lambda: pick(DIG, 5),
    "otp7": lambda: pick(DIG, 7),
    "pw_wrap": lambda: wrapped(_password(), 7),
    "hex32_wrap": lambda: wrapped(pick(HEX, 32), 19),
    "nrak_wrap": lambda: wrapped(AK9["nrak"](), 14),
    "alnum40": lambda: pick(ALNUM, 40),
    "alnum16": lambda: pick(ALNUM, 16),
    "azsecret": lambda: pick(ALNUM, 3) + "8Q~" + pick(ALNUM + "-_.~", 34),
    # PII
    "mx_ph": lambda: "+52 1 55 " + pick(DIG, 4) + " " + pick(DIG, 4),
    "es_ph": lambda: "+34 6" + pick(DIG, 2) + " " + pick(DIG, 3) + " " + pick(DIG, 3),
    "it_ph": lambda: "+39 3" + pick(DIG, 2) + " " + pick(DIG, 3) + " " + pick(DIG, 4),
    "ru_ph": lambda: f"+7 9{pick(DIG, 2)} {pick(DIG, 3)}-{pick(DIG, 2)}-{pick(DIG, 2)}",
    "vn_ph": lambda: "+84 9" + pick(DIG, 1) + " " + pick(DIG, 3) + " " + pick(DIG, 4),
    "th_ph": lambda: "+66 8" + pick(DIG, 1) + "-" + pick(DIG, 3) + "-" + pick(DIG, 4),
    "idn_ph": lambda: "+62 812-" + pick(DIG, 4) + "-" + pick(DIG, 4),
    "phl_ph": lambda: "+63 917 " + pick(DIG, 3) + " " + pick(DIG, 4),
    "ng_ph": lambda: "+234 803 " + pick(DIG, 3) + " " + pick(DIG, 4),
    "za_ph": lambda: "+27 82 " + pick(DIG, 3) + " " + pick(DIG, 4),
    "my_ph": lambda: "+60 12-" + pick(DIG, 3) + " " + pick(DIG, 4),
    "mo_ph": lambda: "+853 6" + pick(DIG, 3) + " " + pick(DIG, 4),
    "tr_ph": lambda: f"+90 5{pick(DIG, 2)} {pick(DIG, 3)} {pick(DIG, 2)} {pick(DIG, 2)}",
    "nl_ph": lambda: "+31 6 " + pick(DIG, 8),
    "us1": lambda: "1-" + GEN8["usd"](),
    "mob0086": lambda: "0086 " + cnmob(),
    "mob86p": lambda: "(86)" + cnmob(),
    "fw_mob_d": lambda: fullwidth(group(cnmob(), (3, 4, 4), "-")),
    "cn_land_sp": lambda: (
        rng.choice(["0755 ", "021 ", "010 ", "028 "])
        + str(rng.randint(2, 8))
        + pick(DIG, 3)
        + " "
        + pick(DIG, 4)
    ),
    "fw_cnid_x": lambda: fullwidth(cnid("X")).replace("X", "Ｘ"),
    "mir": lambda: group(card("2202", 16), 4),
    "troy": lambda: card("9792", 16),
    "visa13": lambda: card("4", 13),
    "amex_d": lambda: group(card("37", 15), (4, 6, 5), "-"),
    "jcb_c": lambda: card("3566", 16),
    "disc_c": lambda: card("65", 16),
    "fw_up19_s": lambda: fullwidth(group(card("6222", 19), (4, 4, 4, 4, 3))),
    "maestro": lambda: group(card("6759", 19), (4, 4, 4, 4, 3)),
    "iban_cz": lambda: group(iban("CZ", pick(DIG, 20)), 4),
    "iban_ro": lambda: iban("RO", rng.choice(["BTRL", "RNCB", "BRDE"]) + pick(UPPER + DIG, 16)),
    "iban_gr": lambda: group(iban("GR", pick(DIG, 23)), 4),
    "iban_tr": lambda: group(iban("TR", pick(DIG, 5) + "0" + pick(DIG, 16)), 4),
    "iban_sa": lambda: iban("SA", pick(DIG, 20)),
    "iban_il": lambda: group(iban("IL", pick(DIG, 19)), 4),
    "iban_ee": lambda: iban("EE", pick(DIG, 16)),
    "iban_lt": lambda: group(iban("LT", pick(DIG, 16)), 4),
    "iban_hr": lambda: iban("HR", pick(DIG, 17)),
    "iban_si": lambda: group(iban("SI", pick(DIG, 15)), 4),
    # look-alikes (never labelled)
    "twilio_sid": lambda: "AC" + pick(HEX, 32),
    "wx_appid": lambda: "wx" + pick(HEX, 16),
    "ali_appid": lambda: non_luhn("2021", 16),
    "pk_live": lambda: "pk_live_51" + pick(ALNUM, 97),
    "recaptcha_site": lambda: "6L" + pick(B64URL, 38),
    "ga4": lambda: "G-" + pick(UPPER + DIG, 10),
    "gosum": lambda: "h1:" + pick(B64, 43) + "=",
    "nixhash": lambda: "sha256-" + pick(B64, 43) + "=",
    "eth_tx": lambda: "0x" + pick(HEX, 64),
    "sol_addr": lambda: pick(B58, 44),
    "acct12": lambda: str(rng.randint(2 * 10**11, 9 * 10**11)),
    "subnet": lambda: "subnet-0" + pick(HEX, 16),
    "ami": lambda: "ami-0" + pick(HEX, 16),
    "sgid": lambda: "sg-0" + pick(HEX, 16),
    "cf_dist": lambda: "E" + pick(UPPER + DIG, 13),
    "apple_sn": lambda: pick(UPPER + DIG, 12),
    "train_order": lambda: "E" + pick(DIG, 9),
    "flight": lambda: rng.choice(["CA", "MU", "CZ", "HU", "3U", "ZH"]) + pick(DIG, 4),
    "student": lambda: "2023" + pick(DIG, 8),
    "exam": lambda: non_luhn("26", 14),
    "imsi": lambda: "46000" + pick(DIG, 10),
    "ssh_fp": lambda: "SHA256:" + pick(B64, 43),
    "txref": lambda: "FT" + pick(DIG, 5) + pick(UPPER + DIG, 5),
    "plate": lambda: (
        rng.choice(["粤B", "沪A", "京N", "浙A", "川A"]) + pick("ABCDEFGHJKLMNPQRSTUVWXYZ" + DIG, 5)
    ),
    "zip6": lambda: pick(DIG, 6),
    "hex12": lambda: pick(HEX, 12),
}


def build() -> list[dict[str, Any]]:
    from sensitivity_heldout9_lines import EN, ZH  # noqa: PLC0415 (beside this script)

    rng.seed(SEED)
    return [render("en", t, GEN) for t in EN] + [render("zh", t, GEN) for t in ZH]


def main() -> int:
    others = [HERE / name for name in OTHER_SETS]
    return run(__doc__ or "", build, lambda rows: problems(rows, others), OUT)


if __name__ == "__main__":
    sys.exit(main())
