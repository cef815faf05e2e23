"""Random-looking tokens (a key, a secret pasted without a label): the entropy detector,
and what keeps look-alikes out of it (hashes and digests, ids of objects, public keys and
addresses, links, a SOPS value, a JWT's unsigned segments).

Example:
    >>> [s[2] for s in high_entropy_spans("key: 9fQ2xLr8TbV1mZk4PwS7nHc3")]
    ['secret']
    >>> round(shannon_entropy("aaaa"), 2), round(shannon_entropy("abcd"), 2)
    (0.0, 2.0)
"""

from __future__ import annotations

import base64
import binascii
import math
import re
from collections import Counter
from collections.abc import Iterator

__all__ = ["high_entropy_spans", "shannon_entropy"]

#: (start, end, kind, detector name), as :data:`langgraph_memory.sensitivity.patterns.Span`
Span = tuple[int, int, str, str]

_A = re.ASCII


def shannon_entropy(s: str) -> float:
    """Shannon entropy of the characters of ``s``, in bits per character."""
    if not s:
        return 0.0
    n = len(s)
    return sum(c / n * math.log2(n / c) for c in Counter(s).values())


# -- high-entropy strings ---------------------------------------------------------------------
_CANDIDATE = re.compile(
    r"(?<![A-Za-z0-9+/_\-=.@])[A-Za-z0-9+/_\-]{20,}={0,2}(?![A-Za-z0-9+/_\-=@])", _A
)
_URL = re.compile(r"(?:https?|ftp|s3|git|ssh)://[^\s<>\"'，。）)]+|www\.[^\s<>\"'，。）)]+", _A)
#: A password hash in the modular crypt format (``$apr1$salt$hash``, ``$2b$12$...``,
#: ``$6$salt$hash``, ``$argon2id$...``): random-looking, but a hash, not the password.
_CRYPT_HASH = re.compile(
    r"\$(?:1|2[abxy]?|5|6|7|y|gy|apr1|md5|sha1|argon2(?:id|i|d)|scrypt|pbkdf2(?:-sha\d+)?)"
    r"\$[A-Za-z0-9+/=.,$_\-]{8,}",
    _A,
)
_SOPS = re.compile(r"ENC\[[A-Z0-9_]+,[^\]\n]*\]", _A)
_UUID = re.compile(r"[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}", _A)
_WORDY = re.compile(r"[A-Z]?[a-z]{3,}|[A-Z]{2,}(?![a-z])", _A)
#: Public keys and certificates: random-looking, but not secret.
_PUBLIC_KEY = re.compile(
    r"(?:ssh-(?:rsa|dss|ed25519|ed448)|ecdsa-sha2-nistp\d+|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)"
    r"@openssh\.com)[ \t]+AAAA[A-Za-z0-9+/]+={0,3}"
    r"|-----BEGIN (?:RSA |EC |DSA |SSH2 )?(?:PUBLIC KEY|CERTIFICATE)-----.*?"
    r"(?:-----END[^-]*-----|\Z)",
    _A | re.DOTALL,
)


#: A hash algorithm's name just before a value (``SHA256:VzHt...``, ``sha384-oqVu...``, a
#: Go module's ``h1:`` hash in ``go.sum``).
_DIGEST_NAME = r"(?:(?i:sha(?:1|224|256|384|512)|md5|blake2[bs]?)[:\-]|h1:)"
_DIGEST_PREFIX = re.compile(_DIGEST_NAME + "$", _A)
_DIGEST_HEAD = re.compile(_DIGEST_NAME, _A)
#: A password hash's scheme in braces before it (LDAP's ``{SSHA}x``, Dovecot's
#: ``{SHA512-CRYPT}x``): a hash, no secret.
_HASH_SCHEME = re.compile(
    r"\{(?i:s?sha\d*|s?md5|crypt|bcrypt|blf-crypt|sha\d+-crypt|pbkdf2[\w\-]*|argon2\w*)\}$", _A
)
#: Words naming a session's credential: a random value after one is a ``token``.
_SESSION_WORD = re.compile(r"cookie|session|sessid|csrf|xsrf")


#: Prefixes of keys that are public by design (Stripe publishable keys).
_PUBLISHABLE = ("pk_live_", "pk_test_")


def _json_segment(token: str) -> bool:
    """Whether ``token`` is base64url of a JSON object (a JWT's header or claims)."""
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        return raw.decode("utf-8").rstrip().endswith("}")
    except (binascii.Error, ValueError):
        return False


#: An object's id as APIs write it, its type's prefix first (``req_rUnSBaMoWwBLNH9O``,
#: ``msg_01XFDUDYJgAACzvnptvVoYEL``, ``evt_1NG8Du2eZvKYlo2C``): no secret after an id's word.
_OBJECT_ID = re.compile(r"[a-z]{2,8}_[A-Za-z0-9]{14,40}", _A)
_ID_WORD = re.compile(r"(?<![A-Za-z])(?i:id|ids|identifier)[ \t]*[:=#]?[ \t]*(?:is[ \t]+)?$", _A)


_CREDENTIAL_WORD = re.compile(r"token|key|secret|pass|pw|auth|cred|session|cookie|sess")
#: A wallet's address in base58 (Bitcoin's ``1...``/``3...``, Solana's 32 to 44 characters)
#: after a word naming one, no credential's word between: public.
_BASE58_ADDRESS = re.compile(r"[1-9A-HJ-NP-Za-km-z]{25,44}", _A)
_COIN_WORD = re.compile(r"(?i:bitcoin|btc|wallet|address|addr)|地址|钱包|錢包")
_SECRET_BETWEEN = re.compile(r"(?i:key|secret|pass|seed|private|phrase)|私钥|密码|密钥|助记词|口令")
#: A value under a public key's label (WireGuard's ``PublicKey = ...``, ``pubkey: ...``,
#: ``公钥：...``): public by definition.
_PUBLIC_LABEL = re.compile(
    r"(?:(?i:public|pub)[ \t_\-]?(?i:key)[\"']?[ \t]*[:=][ \t]*[\"']?|公钥[ \t]*[：:=]?[ \t]*)$"
)
#: Public ids shaped like secrets: a Twilio account's id (``AC`` then 32 hex digits: the auth
#: token is the secret), an Ethereum address (``0x`` then 40 hex digits, mixed case as its
#: checksum writes it), an IPFS content id (``Qm`` then 44 base58 characters).
#: The head of an SSH public key in base64 (its algorithm's name, ``ssh-ed25519``...).
_SSH_PUBLIC_BLOB = re.compile(
    r"AAAA(?:B3NzaC1yc2E|C3NzaC1lZDI1NTE5|E2VjZHNhLXNoYTItbmlzdHA|B3NzaC1kc3M)"
)
_ACCOUNT_SID = re.compile(r"AC[0-9a-f]{32}|0x[0-9a-fA-F]{40}|Qm[1-9A-HJ-NP-Za-km-z]{44}", _A)


def _public(tok: str, text: str, start: int) -> bool:
    """Whether ``tok`` is a public value shaped like a secret: a wallet's address after a
    word naming one (``bitcoin address 1A1zP1...``, ``Solana 地址 HFH7...``), a value under a
    public key's label, a Twilio account's id, an Ethereum address, an IPFS content id."""
    if _PUBLIC_LABEL.search(text, max(0, start - 24), start) or _ACCOUNT_SID.fullmatch(tok):
        return True
    if tok.startswith("AAAA") and _SSH_PUBLIC_BLOB.match(tok):
        return True  # an SSH public key's base64 without its type's name before it
    if _BASE58_ADDRESS.fullmatch(tok) is None:
        return False
    ends = [w.end() for w in _COIN_WORD.finditer(text, max(0, start - 40), start)]
    return bool(ends) and not _SECRET_BETWEEN.search(text, ends[-1], start)


_WORD_AFTER = re.compile(r"[ \t]+([A-Za-z]{2,})", _A)
_WORD_BEFORE = re.compile(r"([A-Za-z]+)(?:[ \t]+([A-Za-z]+))?[ \t]*[:=#]?[ \t]*$", _A)


def _abbreviates(prefix: str, first: str, second: str | None) -> bool:
    """Whether an id's type prefix (``cus``, ``pi``, ``seti``) abbreviates the word(s) next
    to it: its letters in order from the first letter of the nearer word (``customer``,
    ``request``, ``event``) or of two words (``payment intent``, ``setup intent``)."""
    for name in (second or first, f"{first}{second}" if second else ""):
        letters = iter(name.lower())
        if name[:1].lower() == prefix[:1] and all(c in letters for c in prefix):
            return True
    return False


def _an_id(tok: str, text: str, start: int) -> bool:
    """Whether ``tok`` is an object's id: after an id's word (``versioning id x``, ``req id
    req_...``; not a session's id, a credential), or with its type's prefix after the name
    of its type (``request req_...``, ``customer cus_...``, ``payment intent pi_...``)."""
    before = text[max(0, start - 32) : start]
    if _ID_WORD.search(before) and not _SESSION_WORD.search(before[-16:].lower()):
        return True
    if _OBJECT_ID.fullmatch(tok) is None:
        return False
    prefix = tok.split("_", 1)[0]
    after = _WORD_AFTER.match(text, start + len(tok))
    if (
        after is not None
        and not _CREDENTIAL_WORD.search(after.group(1).lower())
        and _abbreviates(prefix, after.group(1), None)
    ):
        return True  # "sub_1Mow... subscription": its type named after it
    w = _WORD_BEFORE.search(before)
    if w is None or _CREDENTIAL_WORD.search(w.group().lower()):
        return False  # "access token at_...": a credential's name, not a type's
    return _abbreviates(prefix, w.group(1), w.group(2))


def high_entropy_spans(text: str, threshold: float = 3.5, min_length: int = 20) -> Iterator[Span]:
    """Random-looking tokens of at least ``min_length`` characters (likely secrets).

    A candidate is a run of base64/URL-safe characters. It is reported when all
    of these hold, which is what keeps hashes, ids and ordinary words out:

    - its Shannon entropy is at least ``threshold`` bits per character;
    - it mixes at least three of: lower case, upper case, digits, ``+/_-``, and
      has both cases (so hex digests, git SHAs, UUIDs, ``snake_case`` and
      ``kebab-case`` names and plain numbers never qualify);
    - it is not a string of short dash/slash/underscore-separated parts (at least
      three, shorter than 8 characters on average: ``ms-marco-MiniLM-L-6-v2``,
      ``Get/Put/Search``, ``alice-UNIQUE-USER-5521``);
    - less than 70 % of it is made of word-like runs (``Camel``, ``case``,
      ``HTTP``), which leaves out ``CamelCase`` identifiers and compound names;
    - it is not inside a URL (links carry ids and slugs; a secret passed as
      ``?token=...`` is found by the keyword rule instead), an SSH public key or a
      PEM public key or certificate.

    Example:
        >>> [s[2] for s in high_entropy_spans("key: 9fQ2xLr8TbV1mZk4PwS7nHc3")]
        ['secret']
        >>> list(high_entropy_spans("commit 3f786850e387550fdab836ed7e6dc881de23001b"))
        []
    """
    urls = [m.span() for m in _URL.finditer(text)]
    if "AAAA" in text or "-----BEGIN" in text:
        urls += [m.span() for m in _PUBLIC_KEY.finditer(text)]
    if "$" in text:
        urls += [m.span() for m in _CRYPT_HASH.finditer(text)]
    if "ENC[" in text:  # a value encrypted by SOPS: ENC[AES256_GCM,data:...,iv:...]
        urls += [m.span() for m in _SOPS.finditer(text)]
    for m in _CANDIDATE.finditer(text):
        tok = m.group().rstrip("=")
        if len(tok) < min_length or _UUID.fullmatch(tok) or tok.startswith(_PUBLISHABLE):
            continue
        if tok.startswith("eyJ") and _json_segment(tok):
            continue  # one segment of a JWT (a header, claims): no signature, no credential
        if any(a <= m.start() < b for a, b in urls) or text.endswith("base64,", 0, m.start()):
            continue  # a link; a data: URI's content (an inlined image)
        if _DIGEST_HEAD.match(tok) or _DIGEST_PREFIX.search(text, max(0, m.start() - 8), m.start()):
            continue  # a digest in base64 (an SSH fingerprint, a subresource integrity hash)
        if text[m.start() - 1 : m.start()] == "}" and _HASH_SCHEME.search(
            text, max(0, m.start() - 24), m.start()
        ):
            continue  # a password hash: userPassword: {SSHA}x
        lower = any(c.islower() for c in tok)
        upper = any(c.isupper() for c in tok)
        classes = lower + upper + any(c.isdigit() for c in tok) + any(c in "+/_-" for c in tok)
        if not (lower and upper) or classes < 3:
            continue
        parts = re.split(r"[-_/+]", tok)
        if len(parts) >= 3 and len(tok) < 8 * len(parts):  # model-name-v2, a/b/c, user-ID-12
            continue
        wordy = sum(len(w) for w in _WORDY.findall(tok))
        if wordy >= 0.7 * len(tok) or shannon_entropy(tok) < threshold:
            continue
        if _public(tok, text, m.start()):
            continue  # "bitcoin address 1A1zP1...", "PublicKey = ...": public values
        if _an_id(tok, text, m.start()):
            continue  # "req id req_rUnSB...", "customer cus_Jd...": an object's id
        line = text[max(0, m.start() - 40, text.rfind("\n", 0, m.start()) + 1) : m.start()]
        kind = "token" if _SESSION_WORD.search(line.lower()) else "secret"
        yield m.start(), m.start() + len(tok), kind, "entropy"
