"""Detectors of PII and secrets used by :mod:`langgraph_memory.sensitivity.policy`.

Each detector is a function ``text -> iterable of (start, end, kind, detector)``.
Regular expressions find candidates; checksums and shape rules keep only the
real ones (a 16-digit order number is not a card unless it passes Luhn, an
18-digit number is not a Chinese ID unless its date and GB 11643 check
character agree).

Scanning happens on a copy of the text whose full-width ASCII characters
(``１３８``, ``＠``, ``＋``) are mapped to ASCII one for one, so offsets stay valid
and Chinese text typed with a full-width keyboard is covered too.

Example:
    >>> luhn_ok("4111 1111 1111 1111"), luhn_ok("4111 1111 1111 1112")
    (True, False)
    >>> cn_id_ok("11010519491231002X"), cn_id_ok("110105194912310021")
    (True, False)
    >>> iban_ok("GB82 WEST 1234 5698 7654 32")
    True
    >>> round(shannon_entropy("aaaa"), 2), round(shannon_entropy("abcd"), 2)
    (0.0, 2.0)
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache

__all__ = [
    "KINDS",
    "DETECTORS",
    "Span",
    "luhn_ok",
    "cn_id_ok",
    "iban_ok",
    "iban_check_digits",
    "cn_id_check_char",
    "shannon_entropy",
    "high_entropy_spans",
    "to_halfwidth",
    "IBAN_LENGTHS",
    "names_a_secret",
]

#: (start, end, kind, detector name)
Span = tuple[int, int, str, str]

#: Every kind the built-in detectors report, in order of priority (an earlier kind
#: wins when two findings of the same length cover the same characters).
KINDS = (
    "private_key",
    "api_key",
    "token",
    "email",
    "iban",
    "cn_id",
    "ssn",
    "card",
    "phone",
    "secret",
)

_FULLWIDTH = {0xFF01 + i: 0x21 + i for i in range(94)}
_FULLWIDTH[0x3000] = 0x20  # ideographic space


def to_halfwidth(text: str) -> str:
    """Map full-width ASCII forms to ASCII, one character for one (offsets are kept).

    Example:
        >>> to_halfwidth("电话：１３８　１２３４")
        '电话:138 1234'
    """
    return text.translate(_FULLWIDTH)


# -- checksums ------------------------------------------------------------------------------
def _digits(s: str) -> str:
    return "".join(ch for ch in s if ch.isdigit())


def _ascii_digits(text: str) -> int:
    """How many of 0-9 ``text`` holds (what the ASCII patterns' ``\\d`` can match)."""
    return sum(map(text.count, "0123456789"))


def luhn_ok(number: str) -> bool:
    """True when the digits of ``number`` pass the Luhn check (separators are ignored)."""
    digits = _digits(number)
    if not digits:
        return False
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = ord(ch) - 48
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


_CN_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_CN_CHECK = "10X98765432"


def cn_id_check_char(first17: str) -> str:
    """The GB 11643-1999 check character of the first 17 digits of a resident ID."""
    return _CN_CHECK[sum(int(c) * w for c, w in zip(first17, _CN_WEIGHTS, strict=True)) % 11]


def cn_id_ok(number: str) -> bool:
    """True for an 18-character Chinese resident ID with a valid check character."""
    if len(number) != 18 or not number[:17].isdigit():
        return False
    return cn_id_check_char(number[:17]) == number[17].upper()


#: IBAN length per country (ISO 13616 registry); other country codes are not accepted.
IBAN_LENGTHS = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22,
    "BR": 29, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DK": 18, "DO": 28, "EE": 20,
    "EG": 29, "ES": 24, "FI": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23, "GL": 18,
    "GR": 27, "GT": 28, "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IS": 26, "IT": 27, "JO": 30,
    "KW": 30, "KZ": 20, "LB": 28, "LI": 21, "LT": 20, "LU": 20, "LV": 21, "MC": 27, "MD": 24,
    "ME": 22, "MK": 19, "MR": 27, "MT": 31, "MU": 30, "NL": 18, "NO": 15, "PK": 24, "PL": 28,
    "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "SA": 24, "SE": 24, "SI": 19, "SK": 24,
    "SM": 27, "TN": 24, "TR": 26, "UA": 29, "VG": 24, "XK": 20,
}  # fmt: skip


def _iban_mod97(rearranged: str) -> int:
    return int("".join(str(int(ch, 36)) for ch in rearranged)) % 97


def iban_check_digits(country: str, bban: str) -> str:
    """The two check digits that make ``country + ?? + bban`` a valid IBAN."""
    return f"{98 - _iban_mod97((bban + country + '00').upper()):02d}"


def iban_ok(iban: str) -> bool:
    """True for an IBAN of a known country with its length and mod-97 check right."""
    s = re.sub(r"[ \-]", "", iban).upper()
    if not re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]+", s, re.ASCII):
        return False
    if IBAN_LENGTHS.get(s[:2]) != len(s):
        return False
    return _iban_mod97(s[4:] + s[:4]) == 1


def shannon_entropy(s: str) -> float:
    """Shannon entropy of the characters of ``s``, in bits per character."""
    if not s:
        return 0.0
    n = len(s)
    return sum(c / n * math.log2(n / c) for c in Counter(s).values())


# -- regex detectors --------------------------------------------------------------------------
_A = re.ASCII
_NB = r"(?<![A-Za-z0-9_])"  # no word character before
_NA = r"(?![A-Za-z0-9_])"  # no word character after
_NUM_END = r"(?![A-Za-z0-9_])(?![.\-]\d)"  # and not the middle of a longer dotted/dashed number

_PRIVATE_KEY = re.compile(
    r"-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----.*?"
    r"(?:-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\Z)",
    _A | re.DOTALL,
)
_JWT = re.compile(_NB + r"eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}", _A)
_AUTH_HEADER = re.compile(
    r"\b(?i:bearer|basic|token)[ \t]+([A-Za-z0-9._~+/\-]{16,}={0,2})(?![A-Za-z0-9._~+/\-=])", _A
)
_API_KEYS = re.compile(
    r"(?<![A-Za-z0-9_\-])(?:"
    r"sk-(?:ant|proj|svcacct|admin)-[A-Za-z0-9_\-]{20,}"
    r"|sk-[A-Za-z0-9]{20,}"
    r"|(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}"
    r"|gh[pousr]_[A-Za-z0-9]{30,}"
    r"|github_pat_[A-Za-z0-9_]{30,}"
    r"|glpat-[A-Za-z0-9_\-]{20,}"
    r"|xox[bpars]-[A-Za-z0-9\-]{10,}"
    r"|(?:AKIA|ASIA)[0-9A-Z]{16}"
    r"|AIza[0-9A-Za-z_\-]{35}"
    r"|hf_[A-Za-z0-9]{30,}"
    r"|npm_[A-Za-z0-9]{36}"
    r"|pypi-AgE[A-Za-z0-9_\-]{50,}"
    r"|SG\.[A-Za-z0-9_\-]{20,24}\.[A-Za-z0-9_\-]{40,46}"
    r"|SK[0-9a-fA-F]{32}"
    r"|shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}"
    r"|dop_v1_[a-f0-9]{64}"
    r"|\d{8,10}:AA[A-Za-z0-9_\-]{33}"
    r")(?![A-Za-z0-9_\-])",
    _A,
)
_EMAIL = re.compile(
    r"(?<![A-Za-z0-9._%+\-])(?<!//)[A-Za-z0-9][A-Za-z0-9._%+\-]{0,63}@"
    r"(?:[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}"
    r"(?![A-Za-z0-9\-])(?!:[A-Za-z0-9~/])",  # not URL credentials, not a git remote
    _A,
)
#: An address with letters beyond ASCII (``user@exämple.com``, ``用户@例子.中国``): the
#: same shape, any letters; found only where the ASCII pattern finds nothing.
_EMAIL_INTL = re.compile(
    r"(?<![\w.%+\-])(?<!//)[^\W_][\w.%+\-]{0,63}@"
    r"(?:[^\W_](?:[\w\-]{0,61}[^\W_])?\.)+[^\W\d_]{2,24}(?![\w\-])(?!:[\w~/])"
)
#: A US Social Security number in its 3-2-4 form (area not 000, 666 or 9xx; group and
#: serial not zero).
_SSN = re.compile(
    r"(?<![A-Za-z0-9_.\-])(?!000|666|9)\d{3}-(?!00)\d{2}-(?!0000)\d{4}" + _NUM_END, _A
)
#: The password of a URL's credentials: ``postgres://user:PASSWORD@host``.
_URL_PASSWORD = re.compile(
    r"(?<![A-Za-z0-9+.\-])[A-Za-z][A-Za-z0-9+.\-]{1,20}://[^\s:/@]{0,64}:"
    r"(?P<value>[^\s@/]{1,128})@",
    _A,
)
#: Incoming-webhook URLs whose path is the credential (Slack, Discord).
_WEBHOOK = re.compile(
    r"https?://(?:hooks\.slack\.com/(?:services|workflows|triggers)"
    r"|(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks)/[A-Za-z0-9_/\-]{16,}",
    _A,
)
_IBAN = re.compile(_NB + r"[A-Za-z]{2}\d{2}(?:[ \-]?[A-Za-z0-9]){11,32}", _A)
_CN_ID = re.compile(
    _NB + r"[1-9]\d{5}(?:18|19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}[\dXx]" + _NA,
    _A,
)
_CARD = re.compile(r"(?<![A-Za-z0-9_.\-])[2-6]\d{3}(?:[ \-]?\d){9,15}" + _NUM_END, _A)
_PHONES = (
    # Chinese mobile: 1[3-9]x xxxx xxxx (or xxx xxxxx; spaces, dashes or dots), optionally
    # +86 / 0086 / 86
    re.compile(
        r"(?<![A-Za-z0-9_+])(?<!\d\.)(?:(?:\+|00)?86[ \-]?)?1[3-9]\d"
        r"(?:(?:[ .\-]?\d{4}){2}|[ .\-]\d{3}[ .\-]\d{5})" + _NUM_END,
        _A,
    ),
    # Chinese landline with its area code: 010-62751234, (0755)12345678
    re.compile(
        r"(?<![A-Za-z0-9_.\-])(?:\(0\d{2,3}\)|0\d{2,3}-)[ ]?[2-9]\d{6,7}" + _NUM_END,
        _A,
    ),
    # North American: (415) 555-0123, 415-555-0123, 415.555.0123, +1 415 555 0123
    re.compile(
        r"(?<![A-Za-z0-9_+\-.])(?:\+?1[ .\-]?)?(?:\([2-9]\d{2}\)[ ]?|[2-9]\d{2}[ .\-])"
        r"[2-9]\d{2}[ .\-]\d{4}" + _NUM_END,
        _A,
    ),
    # International / E.164: +44 20 7946 0958, +4915112345678 (8 to 15 digits)
    re.compile(
        r"(?<![A-Za-z0-9_+])\+[1-9]\d{0,3}(?:[ .\-]?\(?\d{1,5}\)?){1,6}" + _NUM_END,
        _A,
    ),
)

_PASSWORD_WORDS = r"password|passwd|passphrase|passcode|pwd|pin|密码|口令"
_SECRET_WORDS = (
    r"secret|client[_ ]secret|secret[_ ]key|api[_ \-]?key|access[_ ]?key|auth[_ ]?token"
    r"|access[_ ]?token|refresh[_ ]?token|token|private[_ ]?key|account[_ ]?key"
    r"|shared[_ ]?access[_ ]?key|sas[_ ]?token|(?:webhook|signing)[_ ]?secret"
)
_CJK_WORDS = r"密码|口令|密钥|秘钥|令牌|私钥"
#: Separators after which the next word is the value itself ("password: x", "密码是x").
_STRONG_SEP = r"[:=：]|是|为|為|改成了?|改为|设为|设置为"
_KEYWORD_SECRET = re.compile(
    r"(?P<word>(?<![A-Za-z])(?:" + _PASSWORD_WORDS + "|" + _SECRET_WORDS + r")(?![A-Za-z])"
    r"|" + _CJK_WORDS + ")"
    r"(?:[ \t]*\"?[ \t]*(?P<strong>" + _STRONG_SEP + r")[ \t]*"
    r"|[ \t]+(?:is|was|to|changed to|set to)[ \t]+)"
    r"[\"'`“]?(?P<value>[\x21-\x7e]{4,200})",
    re.IGNORECASE,
)
_TRAILING = ".,;:)]}>\"'`"
#: Words that follow "password is" in a sentence without being the password.
_NOT_A_VALUE = frozenset(
    "wrong incorrect correct expired invalid required missing weak strong too not the a an "
    "reset changed same different empty blank set saved stored secure safe hidden none null "
    "unknown forgotten lost long short ok okay fine new old here there below above this that "
    "needed mandatory optional case-sensitive".split()
)


def _regex(
    pattern: re.Pattern[str], kind: str, name: str, group: int = 0, needs: str = ""
) -> Callable:
    """A detector of ``pattern``'s matches; ``needs`` is text every match holds (a text
    without it is not scanned: most are not, and a scan costs a few µs)."""

    def detect(text: str) -> Iterator[Span]:
        if needs not in text:
            return
        for m in pattern.finditer(text):
            yield m.start(group), m.end(group), kind, name

    return detect


def _cards(text: str) -> Iterator[Span]:
    for m in _CARD.finditer(text):
        raw = m.group()
        digits = _digits(raw)
        groups = re.split(r"[ \-]", raw)
        sizes = tuple(len(g) for g in groups)
        if len(set(re.findall(r"[ \-]", raw))) > 1 and set(sizes) != {4}:
            continue  # mixed separators: only in 4-4-4-4 groups ("4111-1111 1111-1111")
        shaped = (
            len(groups) == 1  # bare digits
            or sizes in ((4, 6, 5), (4, 6, 4))  # Amex, Diners
            or (set(sizes[:-1]) == {4} and 1 <= sizes[-1] <= 4)  # 4-4-4-4(-3)
        )
        # 13-16 and 19 digits: 17/18-digit runs are IDs, timestamps and IBAN tails
        if shaped and len(digits) in (13, 14, 15, 16, 19) and luhn_ok(digits):
            yield m.start(), m.end(), "card", "luhn"


def _emails(text: str) -> Iterator[Span]:
    if "@" not in text:  # every pattern below needs one (most texts: no scan at all)
        return
    # "postgres://user:pw@host" holds a password, not an address
    passwords = {m.start("value") for m in _URL_PASSWORD.finditer(text)}
    for pattern, name in ((_EMAIL, "email"), (_EMAIL_INTL, "email_intl")):
        for m in pattern.finditer(text):
            if m.start() not in passwords:
                yield m.start(), m.end(), "email", name


def _cn_ids(text: str) -> Iterator[Span]:
    if _ascii_digits(text) < 17:  # an id holds 17 digits and a check digit
        return
    for m in _CN_ID.finditer(text):
        if cn_id_ok(m.group()):
            yield m.start(), m.end(), "cn_id", "gb11643"


def _ascii_alnum(ch: str) -> bool:
    return ch.isascii() and ch.isalnum()


def _ibans(text: str) -> Iterator[Span]:
    for m in _IBAN.finditer(text):
        raw = m.group()
        want = IBAN_LENGTHS.get(raw[:2].upper())
        if want is None:
            continue
        count = 0
        for i, ch in enumerate(raw):  # cut the candidate after the country's length
            if ch.isalnum():
                count += 1
                if count == want:
                    end = m.start() + i + 1
                    if not _ascii_alnum(text[end : end + 1]) and iban_ok(raw[: i + 1]):
                        yield m.start(), end, "iban", "mod97"
                    break


def _phones(text: str) -> Iterator[Span]:
    if _ascii_digits(text) < 7:  # a number needs 7 (most texts: no scan)
        return
    for pattern in _PHONES:
        for m in pattern.finditer(text):
            if 7 <= len(_digits(m.group())) <= 15:
                yield m.start(), m.end(), "phone", "phone"


#: A password word, a separator, then a quoted passphrase (spaces allowed):
#: ``password: 'correct horse battery staple'``, ``密码是“a b c”``.
_QUOTED_SECRET = re.compile(
    r"(?<![A-Za-z])(?:" + _PASSWORD_WORDS + r"|" + _CJK_WORDS + r")(?![A-Za-z])"
    r"[ \t]*(?:" + _STRONG_SEP + r"|[ \t](?:is|was))[ \t]*"
    r"['\"`“‘「『](?P<value>[^'\"`”’」』\n]{4,200})['\"`”’」』]",
    re.IGNORECASE,
)
#: A Chinese password word and a strong separator, then ASCII words: up to the clause's
#: end, or the first Chinese character, and at most eight (``密码：correct horse battery
#: staple``; a phrase that runs on in English is cut at eight words, more than it could
#: hold, rather than let a passphrase through).
_CJK_PHRASE = re.compile(
    r"(?:" + _CJK_WORDS + r")[ \t]*(?:" + _STRONG_SEP + r")[ \t]*"
    r"(?P<value>[\x21-\x7e]+(?:[ \t]+[\x21-\x7e]+){1,7})",
)


#: A Chinese password word right before digits: ``门锁密码 246810``.
_CJK_DIGITS = re.compile(r"(?:" + _CJK_WORDS + r")[ \t]?(?P<value>\d{4,12})(?!\d)")


def _quoted_secrets(text: str) -> Iterator[Span]:
    for pattern in (_QUOTED_SECRET, _CJK_PHRASE, _CJK_DIGITS):
        for m in pattern.finditer(text):
            value = m.group("value").strip().rstrip(_TRAILING)
            if len(value) >= 4 and value.lower().strip(".") not in _NOT_A_VALUE:
                start = m.start("value") + (len(m.group("value")) - len(m.group("value").lstrip()))
                yield start, start + len(value), "secret", "passphrase"


def _keyword_secrets(text: str) -> Iterator[Span]:
    for m in _KEYWORD_SECRET.finditer(text):
        word, raw = m.group("word").lower(), m.group("value")
        value = raw.rstrip(_TRAILING)
        if not value:
            continue
        if value.lower().strip(".") in _NOT_A_VALUE or value.startswith("["):
            continue
        has_digit = any(c.isdigit() for c in value)
        if word == "pin":
            ok = value.isdigit() and 4 <= len(value) <= 8
        elif re.fullmatch(_PASSWORD_WORDS, word):
            # after "is/was/to" prose goes on ("...is something"): then a digit is needed
            plain = value.isalpha()
            ok = len(value) >= 4 and (has_digit or not plain or bool(m.group("strong")))
        else:  # a key or a token: must look like one
            ok = len(value) >= 8 and has_digit and any(c.isalpha() for c in value)
        if ok:
            yield m.start("value"), m.start("value") + len(value), "secret", "keyword"


# -- high-entropy strings ---------------------------------------------------------------------
_CANDIDATE = re.compile(
    r"(?<![A-Za-z0-9+/_\-=.@])[A-Za-z0-9+/_\-]{20,}={0,2}(?![A-Za-z0-9+/_\-=@])", _A
)
_URL = re.compile(r"(?:https?|ftp|s3|git|ssh)://[^\s<>\"'，。）)]+|www\.[^\s<>\"'，。）)]+", _A)
_UUID = re.compile(r"[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}", _A)
_WORDY = re.compile(r"[A-Z]?[a-z]{3,}|[A-Z]{2,}(?![a-z])", _A)


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
      ``?token=...`` is found by the keyword rule instead).

    Example:
        >>> [s[2] for s in high_entropy_spans("key: 9fQ2xLr8TbV1mZk4PwS7nHc3")]
        ['secret']
        >>> list(high_entropy_spans("commit 3f786850e387550fdab836ed7e6dc881de23001b"))
        []
    """
    urls = [m.span() for m in _URL.finditer(text)]
    for m in _CANDIDATE.finditer(text):
        tok = m.group().rstrip("=")
        if len(tok) < min_length or _UUID.fullmatch(tok):
            continue
        if any(a <= m.start() < b for a, b in urls):
            continue
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
        yield m.start(), m.start() + len(tok), "secret", "entropy"


#: The built-in regex/checksum detectors (the entropy detector is configured by the policy).
DETECTORS: tuple[Callable[[str], Iterable[Span]], ...] = (
    _regex(_PRIVATE_KEY, "private_key", "pem", needs="-----BEGIN"),
    _regex(_JWT, "token", "jwt", needs="eyJ"),
    _regex(_AUTH_HEADER, "token", "auth_header", group=1),
    _regex(_API_KEYS, "api_key", "prefix"),
    _regex(_WEBHOOK, "api_key", "webhook", needs="://"),
    _emails,
    _regex(_URL_PASSWORD, "secret", "url_password", group=1, needs="://"),
    _regex(_SSN, "ssn", "ssn", needs="-"),
    _ibans,
    _cn_ids,
    _cards,
    _phones,
    _keyword_secrets,
    _quoted_secrets,
)


# -- keys that name a secret ------------------------------------------------------------
_SECRET_NAME = re.compile(
    r"(?<![a-z])(?:password|passwd|passphrase|passcode|pwd|pin|secret|token|api ?key"
    r"|access ?key|private ?key|secret ?key|signing ?key|auth|authorization|cookie|cookies"
    r"|credential|credentials|session ?key|otp|cvv|cvc)(?![a-z])"
    r"|密码|口令|令牌|密钥|秘钥|私钥|验证码|凭证|凭据"
)
# a key that names a measure of a secret, not the secret ("token_count", "max_tokens")
_MEASURE_NAME = re.compile(
    r"(?<![a-z])(?:count|usage|used|limit|len|length|max|min|num|size|total|type|expires"
    r"|expiry|ttl|at)(?![a-z])"
)


@lru_cache(maxsize=8192)
def names_a_secret(key: str) -> bool:
    """Whether a mapping key names a secret (its value is then stored as ``[SECRET]``):
    ``password``, ``passwd``, ``token``, ``secret``, ``api key``, ``authorization``,
    ``cookie``, ``密码``, ``口令``, ``令牌``, ``密钥`` ... in any case and with any
    separator (``API-Key``, ``apiKey``, ``db_password``), but not a key that names a
    measure of one (``token_count``, ``max_tokens``).

    Example:
        >>> [names_a_secret(k) for k in ("DB_Password", "apiKey", "x-api-key", "用户密码")]
        [True, True, True, True]
        >>> [names_a_secret(k) for k in ("topic", "token_count", "pinned", "author")]
        [False, False, False, False]
    """
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", key)
    words = re.sub(r"[\s_\-.:/]+", " ", spaced).lower()
    return bool(_SECRET_NAME.search(words)) and not _MEASURE_NAME.search(words)
