"""Write ``sensitivity_heldout3.jsonl``: a third held-out set for the PII and secret
detector (issue 38), written by an outside author who had not read the detector, its
tests or its other corpora (only the benchmark's loader, its list of kinds, and the
second set's generator, whose value makers are reused here).

Run: ``python tests/data/make_sensitivity_heldout3.py`` (seeded; rewrites the file).

Lines (in ``sensitivity_heldout3_lines.py``) are literal chat messages a user of an AI
assistant would send: dev-ops pastes, config files, ``.env`` files, shell history,
JSON / YAML / INI, markdown tables, forwarded e-mails, filled-in forms, support chats,
family logistics, banking and travel, half in English and half in Chinese. Values are
marked ``⟦kind:value⟧``; placeholders ``§NAME§`` are filled with freshly generated
values of the right shape (``make_sensitivity_heldout2``'s makers plus a few here), so
no value is a real one. The script strips the markers, records each value with its
offset ``at`` and checks that the text at that offset is the value.

Halves (fixed now, before any figure was seen): a line is in the **held** half when
the SHA-256 of its final text (UTF-8) is odd, else in **tune** (the rule of
``benchmarks/sensitivity.py``'s ``half_of``). Each row carries its half in ``half``.

Kinds and labelling, as in the second set, with this set's emphasis on ``secret``:
- ``secret``: any value written after (or under, or in the column of) a label naming a
  password, passphrase, passcode, PIN, PUK, one-time / verification / login / backup /
  recovery code, a card's security code (CVV / CVC), an access code or combination
  (door, gate, alarm, safe, locker), a 2FA seed, a wallet seed phrase, a key, token or
  secret (in any language: ``密码``, ``口令``, ``验证码``, ``Passwort``, ``mot de
  passe``, ``contraseña``, ``パスワード``...), including a value split from its label
  by a line break or a table column, a value given with a command-line password flag
  (``-p``, ``--password``, ``PGPASSWORD=``), and the password inside a URL or
  connection string. Codes read out with spaces or words are labelled as written.
- ``api_key``: a credential whose prefix names its provider, wherever it is written
  (also inside a URL or after an ``Authorization`` scheme).
- ``token``: a JWT anywhere, and the credential of an HTTP ``Authorization`` header
  without the scheme word (when it has no provider prefix).
- ``private_key``: a whole PEM / OpenSSH private key block.
- ``email``, ``phone`` (as written), ``cn_id`` (valid check character), ``ssn``,
  ``card`` (Luhn-valid, as written), ``iban`` (valid check digits, as written).
Negatives (no spans): placeholders and masked values, variable references, code naming
a secret, talk about passwords and PINs, password hashes, public keys, order /
tracking / booking / meeting / claim / serial numbers, promo codes, error codes, zip
codes, hashes, UUIDs, versions, IP and MAC addresses, ``user@host`` SSH targets,
non-Luhn card-like numbers, IDs with a bad check character, IBANs with bad check
digits. Health-insurance and passport numbers are not a kind: never labelled.
"""

from __future__ import annotations

import json
import random
import string
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import make_sensitivity_heldout2 as h2  # noqa: E402

OUT = Path(__file__).with_name("sensitivity_heldout3.jsonl")
SEED = 20261207


def _bad_iban(country: str) -> str:
    good = h2._iban(country, False)
    check = f"{(int(good[2:4]) + h2.rng.randint(1, 50)) % 97 + 2:02d}"
    if check == good[2:4]:
        check = f"{(int(check) + 1) % 97 + 2:02d}"
    return good[:2] + check + good[4:]


def _base32(n: int) -> str:
    return h2._rand(string.ascii_uppercase + "234567", n)


GEN = {
    **h2.GEN,
    "BADIBANDE": lambda: _bad_iban("DE"),
    "BADIBANGB": lambda: _bad_iban("GB"),
    "B32": lambda: _base32(32),
    "B16": lambda: _base32(16),
    "RAND40": lambda: h2._rand(h2.ALNUM, 40),
    "RAND16": lambda: h2._rand(h2.ALNUM, 16),
    "DIG6": lambda: h2._rand(string.digits, 6),
}


def build(lang: str, raw: str) -> dict:
    """One row from a marked message (the second set's builder with this set's makers);
    every value is also checked to carry no surrounding space."""
    row = h2.build(lang, raw, GEN)
    for s in row["spans"]:
        assert s["value"] and s["value"] == s["value"].strip(), raw
    return row


def main() -> None:
    from sensitivity_heldout3_lines import EN, ZH  # noqa: PLC0415 (beside this script)

    h2.rng.seed(SEED)
    random.seed(SEED)
    rows = [build("en", s) for s in EN] + [build("zh", s) for s in ZH]
    texts = [r["text"] for r in rows]
    assert len(set(texts)) == len(texts), "duplicate line"
    OUT.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    pos = sum(1 for r in rows if r["spans"])
    print(f"{len(rows)} lines ({len(EN)} en, {len(ZH)} zh, {pos} with spans) -> {OUT.name}")


if __name__ == "__main__":
    main()
