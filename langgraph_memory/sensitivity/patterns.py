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

import base64
import binascii
import re
from collections.abc import Callable, Iterable, Iterator

from langgraph_memory.core.held_texts import text_cache
from langgraph_memory.sensitivity.entropy import high_entropy_spans, shannon_entropy
from langgraph_memory.sensitivity.labels import labelled_secrets
from langgraph_memory.sensitivity.nearby import nearby_secrets
from langgraph_memory.sensitivity.prefixed_keys import api_keys
from langgraph_memory.sensitivity.structured import config_secrets

__all__ = [
    "KINDS",
    "DETECTORS",
    "SHAPED_DETECTORS",
    "Span",
    "luhn_ok",
    "cn_id_ok",
    "iban_ok",
    "iban_check_digits",
    "cn_id_check_char",
    "shannon_entropy",
    "high_entropy_spans",
    "to_halfwidth",
    "unescape",
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


#: A JSON string escape: ``\\u5bc6``, ``\\"``, ``\\\\``, ``\\/``, ``\\n``...
_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|([\"\\/bfnrt]))")
_ESCAPED = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


def unescape(text: str, depth: int = 3) -> tuple[str, list[int]] | None:
    """``text`` with its JSON string escapes decoded (``\\u5bc6\\u7801`` is ``密码``,
    ``\\"`` a quote; JSON written inside JSON too, up to ``depth`` levels), and where
    each of its characters starts in ``text`` (one more entry: ``len(text)``), so a span
    ``(a, b)`` found in it is ``(starts[a], starts[b])`` in ``text``. ``None`` when
    there is no escape to decode.

    Example:
        >>> plain, starts = unescape(r'{"\\u5bc6\\u7801": "x"}')
        >>> plain, plain.index("x"), starts[plain.index("x")]
        ('{"密码": "x"}', 8, 18)
    """
    starts: list[int] | None = None
    for _ in range(depth):
        if "\\" not in text:
            break
        out: list[str] = []
        here: list[int] = []
        pos = 0
        for m in _ESCAPE.finditer(text):
            out.append(text[pos : m.start()])
            here.extend(range(pos, m.start()))
            code, char = m.groups()
            out.append(chr(int(code, 16)) if code else _ESCAPED.get(char, char))
            here.append(m.start())
            pos = m.end()
        if not pos:
            break
        out.append(text[pos:])
        here.extend(range(pos, len(text) + 1))
        starts = here if starts is None else [starts[i] for i in here]
        text = "".join(out)
    return None if starts is None else (text, starts)


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
#: (its signature may stand on the next line, where a mail client or a terminal broke it)
_JWT = re.compile(
    _NB + r"eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\."
    r"(?:[A-Za-z0-9_\-]{8,}|\r?\n[A-Za-z0-9_\-]{8,}(?=[ \t]*(?:\r?\n|$)))",
    _A,
)
#: A credential after ``Bearer`` or ``token`` without a header name: long ones only
#: (the words are English too).
_AUTH_HEADER = re.compile(
    r"\b(?i:bearer|token)[ \t]+([A-Za-z0-9._~+/\-]{16,}={0,2})(?![A-Za-z0-9._~+/\-=])", _A
)
_EMAIL = re.compile(
    r"(?<![A-Za-z0-9._%+\-$])(?<![A-Za-z0-9]')(?<!//)[A-Za-z0-9](?:[A-Za-z0-9._%+\-]|'(?=[A-Za-z0-9])){0,63}@"
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
#: Endings of file names that follow ``@`` without being a domain (``icon@2x.png``).
_FILE_TLD = frozenset(
    "png jpg jpeg gif svg webp bmp ico tif tiff pdf txt json yaml yml toml lock csv tsv "
    "html htm css scss js mjs ts tsx jsx vue py pyc java kt cpp hpp wasm zip tar gz tgz "
    "mp3 mp4 mov wav".split()
)
#: Top-level domains an address written with a bare `` at `` must end in (prose has
#: ``at this dot product``).
_COMMON_TLD = frozenset(
    "com org net edu gov mil int io ai dev app co me info biz cn uk de fr jp kr hk tw sg au "
    "ca us in ru br it es nl se ch eu".split()
)
#: An address written against scrapers: ``john dot smith at gmail dot com``,
#: ``zhang [at] example [dot] org``, ``li(at)univ.edu.cn``. With a bracketed ``at`` any
#: domain; with a bare `` at `` the domain must be written with `` dot `` (or brackets).
_AT_BRACKET = r"[ \t]*[\[(<{][ \t]*at[ \t]*[\])>}][ \t]*"
_DOT_WORD = r"(?:[ \t]*[\[(<{][ \t]*dot[ \t]*[\])>}][ \t]*|[ \t]+dot[ \t]+)"
_LOCAL_WORD = r"[A-Za-z0-9][A-Za-z0-9_%+\-]*"
_AT_BRACKETED = re.compile(r"[\[(<{][ \t]*at[ \t]*[\])>}]", re.IGNORECASE | _A)
_AT_ANY = re.compile(_AT_BRACKETED.pattern + r"|[ \t]at[ \t]", re.IGNORECASE | _A)
_EMAIL_OBFUSCATED = re.compile(
    r"(?<![A-Za-z0-9._%+\-])"
    r"(?:" + _LOCAL_WORD + r"(?:(?:\.|" + _DOT_WORD + r")" + _LOCAL_WORD + r"){0,3}"
    r"(?:" + _AT_BRACKET + r"(?:[A-Za-z0-9\-]+(?:\.|" + _DOT_WORD + r"))+"
    r"|[ \t]+at[ \t]+(?:[A-Za-z0-9\-]+" + _DOT_WORD + r")+)"
    r"[A-Za-z]{2,24})(?![A-Za-z0-9\-])",
    re.IGNORECASE | _A,
)
#: A US Social Security number in its 3-2-4 form (area not 000, 666 or 9xx; group and
#: serial not zero).
_SSN = re.compile(
    r"(?<![A-Za-z0-9_.\-])(?!000|666|9)\d{3}-(?!00)\d{2}-(?!0000)\d{4}" + _NUM_END, _A
)
#: An SSN written with spaces (``219 09 9999``): after a word naming one.
_SSN_SPACED = re.compile(
    r"(?<![A-Za-z0-9_.\-])(?!000|666|9)\d{3} (?!00)\d{2} (?!0000)\d{4}" + _NUM_END, _A
)
#: An SSN written without separators (``665399537``): just after a word naming one.
_SSN_PLAIN = re.compile(
    r"(?<![A-Za-z0-9_.\-])(?!000|666|9)\d{3}(?!00)\d{2}(?!0000)\d{4}" + _NUM_END, _A
)
_SSN_WORD = re.compile(r"(?i:ssn|ss#|social[ \t]+security|社会安全号|社保号)")
#: A word naming some other number just before an SSN-shaped one (``claim no. 301-22-4471``,
#: ``order #``, ``工单号``): a reference, not an SSN (unless an SSN word is near too).
_REFERENCE_WORD = re.compile(
    r"(?i:claim|case|ref|reference|order|ticket|invoice|policy|tracking|confirmation|booking"
    r"|reservation|member|membership|part|model|serial|batch|lot|po|rma|incident|request)"
    r"(?:[ \t]*(?:no\.?|number|num|id|#))?[ \t]*[:#]?[ \t]*$"
    r"|(?:单号|编号|订单号?|工单号?|案件号?|理赔号?|保单号?|批号|型号|序列号)[ \t]*[:：]?[ \t]*$"
)
#: The password of a URL's credentials: ``postgres://user:PASSWORD@host``.
_URL_PASSWORD = re.compile(
    r"(?<![A-Za-z0-9+.\-])[A-Za-z][A-Za-z0-9+.\-]{1,20}://[^\s:/@]{0,64}:"
    r"(?P<value>[^\s@/]{1,128}(?:@[^\s@/]{1,64})*?)@(?=[^\s@/]+(?:[/?#\s]|$))",
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
#: An ID written in its groups (area, birth date, sequence and check): ``110105 19491231
#: 002X``, ``110105-19491231-002X``; the same separator twice.
_CN_ID_GROUPED = re.compile(
    _NB + r"[1-9]\d{5}(?P<sep>[ \-])(?:18|19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])"
    r"(?P=sep)\d{3}[\dXx]" + _NA + r"(?!-[A-Za-z0-9])",
    _A,
)
_CARD = re.compile(
    r"(?<![A-Za-z0-9_.\-])(?:[2-6]\d{3}|8[12]\d\d|9792)(?:(?:-| {1,2})?\d){9,15}"  # RuPay, Troy
    + _NUM_END,  # (two spaces: a PDF's)
    _A,
)
_PHONES = (
    # Chinese mobile: 1[3-9]x xxxx xxxx (or xxx xxxxx; spaces, dashes or dots), optionally
    # +86 / 0086 / 86
    re.compile(
        r"(?<![A-Za-z0-9_+])(?<!\d\.)(?:\(\+?86\)[ \-]?|(?:\+|00)?86[ \-]?)?1[3-9]\d"
        r"(?:(?:[ .\-]?\d{4}){2}|[ .\-]\d{3}[ .\-]\d{5})" + _NUM_END,
        _A,
    ),
    # Chinese landline with its area code: 010-62751234, (0755)12345678
    re.compile(
        r"(?<![A-Za-z0-9_.\-])(?:\(0\d{2,3}\)|0\d{2,3}-)[ ]?[2-9]\d{6,7}" + _NUM_END,
        _A,
    ),
    # National numbers with a trunk 0 and separated groups: 0755-8888 6666, (021) 6123-4567,
    # 020 7946 0958, 07700 900123, 010-6275 1234 (9 to 12 digits: checked below); after a UK
    # mobile's 07xxx the number may start with 0 or 1 (07381 169 721)
    re.compile(
        r"(?:\(0\d{1,4}\)[ \-]?|0(?<![A-Za-z0-9_.\-+]0)(?<!\d[ \-]0)\d{1,4}[ \-])"
        r"(?:[2-9]|(?<=07\d{3}[ \-])[01])\d{1,7}(?:[ \-]\d{3,4}){0,2}" + _NUM_END,
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
        r"(?<![A-Za-z0-9_+])(?:\(\+[1-9]\d{0,3}\)|\+[1-9]\d{0,3})(?:[ .\-]?\(?\d{1,5}\)?){1,6}"
        + _NUM_END,
        _A,
    ),
    # International with the 00 prefix and separated groups: 0044 20 7946 0958 (10 to 15)
    re.compile(
        r"0(?<![A-Za-z0-9_+.\-]0)(?<!\d[ \-]0)0[1-9]\d{0,2}(?:[ \-]\d{1,4}){2,5}" + _NUM_END,
        _A,
    ),
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


#: Cards in rarer forms, looked for only in texts that can hold one: glued to ``No.``,
#: or in dotted groups of four (``4111.1111.1111.1111``).
_CARD_RARE = re.compile(
    r"(?:(?<=[Nn][Oo]\.)[2-6]\d{3}(?:[ \-]?\d){9,15}"
    r"|(?<![A-Za-z0-9_.\-])[2-6]\d{3}(?:\.\d{4}){3}(?:\.\d{1,3})?)" + _NUM_END,
    _A,
)


#: Words before a number that say it is no card: a handset's IMEI (Luhn-checked too), an
#: order's, a parcel's or a payment's reference; a list of backup codes (``备用码：3791 5520
#: 8842 1067 ...``: codes in groups of four, each a secret of its own).
_NOT_CARD_BEFORE = re.compile(
    r"(?<![A-Za-z])(?i:imei|meid|tracking|order|serial|s/n|invoice|reference|ref|transaction"
    r"|parcel|(?:backup|recovery)[ \t]+codes?)(?![A-Za-z])"
    r"|订单|訂單|单号|單號|流水|交易号|運單|运单|快递|快遞|序列号|序號|发票|發票|备用码|备份码|恢复码|恢復碼"
)


def _cards(text: str) -> Iterator[Span]:
    if _ascii_digits(text) < 13:  # a card holds 13 digits or more (most texts: no scan)
        return
    matches = list(_CARD.finditer(text))
    if "o." in text or "O." in text or text.count(".") >= 3:
        matches += _CARD_RARE.finditer(text)
    for m in matches:
        raw = m.group()
        digits = _digits(raw)
        groups = re.split(r"[.\-]| {1,2}", raw)
        sizes = tuple(len(g) for g in groups)
        if len(set(re.findall(r"[ .\-]", raw))) > 1 and set(sizes) != {4}:
            continue  # mixed separators: only in 4-4-4-4 groups ("4111-1111 1111-1111")
        shaped = (
            len(groups) == 1  # bare digits
            or sizes in ((4, 6, 5), (4, 6, 4), (6, 13), (6, 10))  # Amex, Diners; BIN + rest
            or (set(sizes[:-1]) == {4} and 1 <= sizes[-1] <= 4)  # 4-4-4-4(-3)
        )
        # 13-16 and 19 digits: 17/18-digit runs are IDs, timestamps and IBAN tails
        if shaped and len(digits) in (13, 14, 15, 16, 19) and luhn_ok(digits):
            if not _NOT_CARD_BEFORE.search(text, max(0, m.start() - 20), m.start()):
                yield m.start(), m.end(), "card", "luhn"


#: An address that stands for anybody's: a generic local part at a domain reserved for
#: examples (RFC 2606): ``name@example.com``, ``you@example.org``.
_PLACEHOLDER_EMAIL = re.compile(
    r"(?i:name|user|username|user\.name|your|you|yourname|your[._]?name|your[._]?email|email"
    r"|e-?mail|someone|somebody|foo|bar|foobar|test|first\.last|firstname\.lastname|me|xxx|abc)"
    r"@(?i:example\.(?:com|org|net)|[a-z0-9.\-]+\.example)"
)


#: A remote shell's command line up to its ``user@host`` target (``ssh -p 2222 root@``).
#: Between them, options, ports and paths only (not ``ssh keys go to x@y``).
_REMOTE_LOGIN = re.compile(
    r"(?<![\w\-])(?:ssh|scp|sftp|rsync|mosh|ssh-copy-id)"
    r"(?:[ \t]+(?:-[\w\-=]+|\d+|[\w.~/:\-]*[./~][\w.~/:\-]*)){0,8}[ \t]+$"
)


def _emails(text: str) -> Iterator[Span]:
    if "@" not in text:  # every pattern below needs one (most texts: no scan at all)
        if " dot " in text or "t)" in text or "t]" in text or "T)" in text or "T]" in text:
            yield from _obfuscated_emails(text)
        elif " )" in text or " ]" in text or "t>" in text or " DOT " in text or " Dot " in text:
            yield from _obfuscated_emails(text)
        return
    # "postgres://user:pw@host" holds a password, not an address
    passwords = {m.start("value") for m in _URL_PASSWORD.finditer(text)}
    remote = "ssh" in text or "scp" in text or "sftp" in text or "rsync" in text or "mosh" in text
    found: list[tuple[int, int]] = []
    for m in _EMAIL.finditer(text):
        if _PLACEHOLDER_EMAIL.fullmatch(m.group()):
            continue  # name@example.com: a form's example, nobody's address
        if remote and _REMOTE_LOGIN.search(text, max(0, m.start() - 72), m.start()):
            continue  # ssh root@db.internal: a login on a host, no mailbox
        if m.start() not in passwords and m.group().rsplit(".", 1)[1].lower() not in _FILE_TLD:
            found.append(m.span())
            yield m.start(), m.end(), "email", "email"
    if not text.isascii():  # letters beyond ASCII: only where no ASCII address was found
        for m in _EMAIL_INTL.finditer(text):
            if (
                m.start() not in passwords
                and not any(a < m.end() and m.start() < b for a, b in found)
                and not _PLACEHOLDER_EMAIL.fullmatch(m.group())
            ):
                yield m.start(), m.end(), "email", "email_intl"
    yield from _obfuscated_emails(text)


def _obfuscated_emails(text: str) -> Iterator[Span]:
    """Addresses written against scrapers (see :data:`_EMAIL_OBFUSCATED`), looked for
    only around an ``at`` in brackets, or a bare `` at `` in a text holding `` dot ``."""
    dot = " dot " in text or " DOT " in text or " Dot " in text
    if not dot and _AT_BRACKETED.search(text) is None:
        return  # neither " dot " nor a bracketed "at"
    marks = _AT_ANY if dot else _AT_BRACKETED
    last = -1
    for at in marks.finditer(text):
        if at.start() < last:
            continue
        # the address starts at most 80 characters before its "at", at a word's start
        w0 = max(0, at.start() - 80)
        while w0 > 0 and not text[w0 - 1].isspace():
            w0 -= 1
        for m in _EMAIL_OBFUSCATED.finditer(text, w0, min(len(text), at.end() + 120)):
            if m.end() <= last or not (m.start() <= at.start() < m.end()):
                continue
            last = m.end()
            tld = re.split(r"[.\])>}\s]", m.group())[-1].lower()
            bare = not re.search(r"[\[(<{][ \t]*at", m.group(), re.IGNORECASE)
            if tld not in _FILE_TLD and (not bare or tld in _COMMON_TLD):
                yield m.start(), m.end(), "email", "email_obfuscated"


def _ssns(text: str) -> Iterator[Span]:
    if "-" in text:
        for m in _SSN.finditer(text):
            if _REFERENCE_WORD.search(text, max(0, m.start() - 24), m.start()) and not (
                _SSN_WORD.search(text, max(0, m.start() - 40), m.start())
            ):
                continue  # claim no. 301-22-4471
            yield m.start(), m.end(), "ssn", "ssn"
    if (
        "SSN" in text
        or "ssn" in text
        or "SS#" in text
        or "ss#" in text
        or "ocial" in text
        or "社会安全" in text
        or "社保" in text
    ) and _ascii_digits(text) >= 9:
        for m in _SSN_SPACED.finditer(text):
            if _SSN_WORD.search(text, max(0, m.start() - 40), m.start()):
                yield m.start(), m.end(), "ssn", "ssn_spaced"
        for m in _SSN_PLAIN.finditer(text):  # "ss# is 665399537": nine digits, just after
            if _SSN_WORD.search(text, max(0, m.start() - 16), m.start()):
                yield m.start(), m.end(), "ssn", "ssn_plain"


def _cn_ids(text: str) -> Iterator[Span]:
    if _ascii_digits(text) < 17:  # an id holds 17 digits and a check digit
        return
    for m in _CN_ID.finditer(text):
        if cn_id_ok(m.group()):
            yield m.start(), m.end(), "cn_id", "gb11643"
    for sep in (" 18", " 19", " 20", "-18", "-19", "-20"):  # 110105 19491231 002X: read
        i = text.find(sep)  # at each birth year after six digits
        while i >= 0:
            area = text[i - 6 : i] if i >= 6 else ""
            if area.isascii() and area.isdigit():
                g = _CN_ID_GROUPED.match(text, i - 6)
                if g is not None and cn_id_ok(g.group().replace(g.group("sep"), "")):
                    yield g.start(), g.end(), "cn_id", "gb11643"
            i = text.find(sep, i + 1)


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


#: A local number without its area code (``555-0123``): a phone only after a word that
#: says so (``call``, ``phone``, ``电话``...) in the 24 characters before it.
_LOCAL_NUMBER = re.compile(
    r"[2-9](?<![A-Za-z0-9_.\-+/:][2-9])\d{2}-\d{4}" + _NUM_END + r"(?!/)", _A
)
_PHONE_WORD = re.compile(
    r"(?i:call|phone|tel|mobile|cell|fax|ring|dial|text|whatsapp|extension|ext)(?![a-z])"
    r"|电话|電話|手机|手機|致电|拨打|撥打|座机|分机|联系方式"
)
_NATIONAL, _NANP, _OO = 2, 3, 5  # the indexes of the trunk-0, North American and 00
# patterns in _PHONES


#: What follows a number that is not a phone: the rest of a part number or SKU
#: (``212-555-0147-B``), or a currency (``13912345678 日元``).
_NOT_PHONE_AFTER = re.compile(
    r"-[A-Za-z0-9]|[ \t]?(?:元|日元|美元|欧元|港元|块|万|亿|円"
    r"|(?i:yuan|rmb|cny|usd|eur|jpy|dollars?)(?![A-Za-z]))"
)
#: A meeting's id just before a number (``会议号 845 221 0993``, ``Meeting ID: 845...``):
#: a room to join, no phone (a dial-in number, 会议号码, still is one).
_MEETING_ID = re.compile(
    r"(?:(?:会议|會議)(?:号|號|ID|id)(?!码|碼)|(?i:(?:meeting|webinar|zoom)[ \t]+id))"
    r"[ \t]*[:#]?[ \t]*$"
)
#: A service number that names nobody (``400-976-3666``, ``1-800-275-2273``): China's
#: 400 and 800 hotlines and North America's toll-free codes, in the North American shape.
_HOTLINE = re.compile(
    r"(?:\+?1[ .\-]?)?\(?(?:400|8(?:00|33|44|55|66|77|88))\)?[ .\-]?\d{3}[ .\-]\d{4}"
)
#: An account's name just before a number (``宽带账号 028-87654321``, ``account no.
#: 415-555-0123``): the account's number, written like a landline, no phone.
_ACCOUNT = re.compile(
    r"(?:账号|帐号|帳號|账户|帳戶|户号|戶號|会员号|會員號|客户号|客戶號"
    r"|(?i:account|acct)(?:[ \t]+(?i:no\.?|number|#))?)[ \t]*[:#]?[ \t]*$"
)
#: A Chinese mobile written digit by digit (``1 8 6 1 2 3 4 5 6 7 8``): after a phone word.
_SPACED_MOBILE = re.compile(r"(?<![\d ])1 [3-9](?: \d){9}(?![ ]?\d)", _A)


def _phones(text: str) -> Iterator[Span]:
    if _ascii_digits(text) < 7:  # a number needs 7 (most texts: no scan)
        return
    meeting = "会议" in text or "會議" in text or "eeting" in text or "ebinar" in text
    for i, pattern in enumerate(_PHONES):
        for m in pattern.finditer(text):
            n = len(_digits(m.group()))
            if (
                7 <= n <= 15
                and (i != _NATIONAL or 9 <= n <= 12)
                and (i != _OO or n >= 10)
                and not _NOT_PHONE_AFTER.match(text, m.end())
                and not (meeting and _MEETING_ID.search(text, max(0, m.start() - 24), m.start()))
                and not (i == _NANP and _HOTLINE.fullmatch(m.group()))
                and not (i != 0 and _ACCOUNT.search(text, max(0, m.start() - 16), m.start()))
            ):
                yield m.start(), m.end(), "phone", "phone"
    if "1 " in text and _PHONE_WORD.search(text) is not None:
        for m in _SPACED_MOBILE.finditer(text):
            if _PHONE_WORD.search(text, max(0, m.start() - 24), m.start()):
                yield m.start(), m.end(), "phone", "phone_spaced"
    if "-" in text:
        for m in _LOCAL_NUMBER.finditer(text):
            if _PHONE_WORD.search(text, max(0, m.start() - 24), m.start()) and not (
                _HOTLINE.fullmatch(text, max(0, m.start() - 6), m.end())
            ):
                yield m.start(), m.end(), "phone", "phone_local"


# -- HTTP credentials ------------------------------------------------------------------------
#: An ``Authorization`` (or ``Proxy-Authorization``) header, or a key of that name, up to
#: its value: ``Authorization: Basic ...``, ``"Authorization": "Bearer ..."``.
_AUTH_FIELD = re.compile(
    r"(?<![A-Za-z0-9_\-])(?:proxy-)?authori[sz]ation[\"']?[ \t]*[:=][ \t]*[\"']?[ \t]*",
    re.IGNORECASE | _A,
)
#: Schemes of the HTTP authentication registry (and common vendor ones).
_AUTH_SCHEMES = frozenset(
    "basic bearer digest token negotiate ntlm kerberos hoba mutual vapid scram-sha-1 "
    "scram-sha-256 privatetoken dpop gnap concealed oauth apikey api-key key sso-key hmac "
    "hmac-sha256 aws4-hmac-sha256 sharedkey sharedkeylite sharedaccesssignature signature "
    "hawk jwt otp".split()
)
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9_\-]*)[ \t]+", _A)
_PARAM = r"[A-Za-z0-9_\-]+[ \t]*=[ \t]*(?:\"[^\"\n]*\"|[^\s,\"'<>]+)"
#: Credentials: a comma-separated list of ``name=value`` (Digest, OAuth 1, AWS SigV4), or
#: one token68 (Basic, Bearer...).
_CREDENTIALS = re.compile(
    _PARAM + r"(?:[ \t]*,[ \t]*" + _PARAM + r")*|[A-Za-z0-9\-._~+/]+=*(?![^\s\"',;)}\]])", _A
)
#: Credentials without a scheme must look like a key: letters and digits, 8 or more.
_BARE_CREDENTIAL = re.compile(
    r"(?=[A-Za-z\-._~+/]*[0-9])(?=[0-9\-._~+/]*[A-Za-z])[A-Za-z0-9\-._~+/]{8,}=*", _A
)
#: A value standing for a credential in documentation: ``YOUR_ACCESS_TOKEN``, ``token``.
_CREDENTIAL_PLACEHOLDER = re.compile(
    r"(?i:[a-z]*[_\-]?(?:token|key|secret|credentials?|password|jwt|base64)s?)|[A-Z]+(?:_[A-Z]+)+"
    r"|[*xX.]+|.*\.\.\.|(?i:null|none|nil|undefined|empty|redacted)",
    _A,
)
#: ``Basic`` and credentials anywhere: base64 of ``user:password``.
_BASIC = re.compile(
    r"(?<![A-Za-z0-9_\-])(?i:basic)[ \t]+([A-Za-z0-9+/]{4,}={0,2})(?![A-Za-z0-9+/=])", _A
)
#: A ``Cookie`` or ``Set-Cookie`` header's ``name=value`` pairs (also logged as
#: ``cookie=session=x`` or printed as a dict: ``'cookie': 'sid=x'``).
_COOKIE = re.compile(
    r"(?<![A-Za-z0-9_\-])(?i:set-)?(?i:cookie)[\"']?[ \t]*[:=][ \t]*[\"']?"
    r"(?P<value>[^\s=;,\"']+=[^\s;,\"']+(?:;[ \t]*[^\s=;,\"']+=[^\s;,\"']*)*)",
    _A,
)

#: A web framework's session cookie by its name, outside a ``Cookie`` header (``登录 cookie 是
#: PHPSESSID=x``, a log's ``JSESSIONID=x``): PHP, Java, ASP.NET, Django, Express, Laravel,
#: Rails; a value of 16 characters or more with a digit.
_SESSION_COOKIE = re.compile(
    r"(?<![\w.\-])(?:PHPSESSID|JSESSIONID|ASP\.NET_SessionId|ASPSESSIONID[A-Z]{8}|sessionid"
    r"|connect\.sid|laravel_session|_[a-z0-9]+_session)=(?P<value>(?=[A-Za-z%._\-]*\d)"
    r"[A-Za-z0-9%._\-]{16,})(?![\w%.\-])",
    _A,
)
#: The attributes of a ``Set-Cookie`` header: settings, not credentials (``Max-Age=31536000``).
_COOKIE_ATTRIBUTES = frozenset(
    "path domain expires max-age samesite secure httponly priority version comment "
    "partitioned".split()
)


def _basic_ok(credentials: str) -> bool:
    """Whether ``credentials`` is base64 of printable ``user:password``."""
    try:
        raw = base64.b64decode(credentials + "=" * (-len(credentials) % 4), validate=True)
    except (binascii.Error, ValueError):
        return False
    try:
        plain = raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return ":" in plain and plain.isprintable()


def _credentials(text: str, pos: int) -> tuple[int, int] | None:
    """The credentials of an ``Authorization`` value starting at ``pos``."""
    scheme = _SCHEME.match(text, pos)
    if scheme is not None and scheme.group(1).lower() in _AUTH_SCHEMES:
        m = _CREDENTIALS.match(text, scheme.end())
        if m is None or _CREDENTIAL_PLACEHOLDER.fullmatch(m.group()):
            return None
        if scheme.group(1).lower() == "basic" and not _basic_ok(m.group()):
            return None
        return m.span()
    m = _BARE_CREDENTIAL.match(text, pos)
    return m.span() if m is not None else None


def _http_credentials(text: str) -> Iterator[Span]:
    """Credentials of HTTP authentication (``Authorization: Basic|Bearer|Digest|token
    ...``, of any length; ``Basic`` and base64 of ``user:password`` anywhere) and the
    pairs of a ``Cookie`` header; a session cookie by its name (``PHPSESSID=x``)."""
    low = text.lower()
    if "authori" in low:
        for m in _AUTH_FIELD.finditer(text):
            span = _credentials(text, m.end())
            if span is not None:
                yield span[0], span[1], "token", "auth_header"
    if "basic" in low:
        for m in _BASIC.finditer(text):
            if _basic_ok(m.group(1)):
                yield m.start(1), m.end(1), "token", "auth_header"
    if "cookie" in low:
        for m in _COOKIE.finditer(text):
            pairs = [
                v
                for k, _, v in (p.partition("=") for p in m.group("value").split(";"))
                if v and k.strip().lower() not in _COOKIE_ATTRIBUTES
            ]
            if any(len(v) >= 6 and any(c.isdigit() for c in v) for v in pairs):
                yield m.start("value"), m.end("value"), "token", "cookie"
    if "=" in text and (
        "SESS" in text
        or "essionid=" in text
        or "essionId=" in text
        or "_session=" in text
        or ".sid=" in text
    ):
        for m in _SESSION_COOKIE.finditer(text):
            yield m.start("value"), m.end("value"), "token", "cookie"


#: What stands where a URL's password would go in documentation and configuration: a
#: variable (``${PGPASS}``, ``$DB_PASS``, ``%PASSWORD%``, ``{{ db_password }}``), a slot
#: (``<password>``, ``[pass]``), or a word naming the field (``password``, ``secret``).
_URL_PLACEHOLDER = re.compile(
    r"\$\{[^}]*\}|\$\(?[A-Z_][A-Z0-9_]*\)?|%[A-Za-z_][A-Za-z0-9_]*%|\{\{.*\}\}|<.*>|\[.*\]"
    r"|(?i:(?:my|your|db|user|the)?[_\-]?(?:pass(?:wd|word)?|secret)s?)"
    r"|[*xX.]+",
    _A,
)


def _url_passwords(text: str) -> Iterator[Span]:
    """The password of a URL's credentials (``postgres://user:PASSWORD@host``), unless it
    is a placeholder (:data:`_URL_PLACEHOLDER`)."""
    if "://" not in text:
        return
    for m in _URL_PASSWORD.finditer(text):
        if not _URL_PLACEHOLDER.fullmatch(m.group("value")):
            yield m.start("value"), m.end("value"), "secret", "url_password"


#: The built-in regex/checksum detectors (the entropy detector is configured by the policy).
#: Those of credentials given away by their shape (keys, tokens, private keys).
SHAPED_DETECTORS: tuple[Callable[[str], Iterable[Span]], ...] = (
    _regex(_PRIVATE_KEY, "private_key", "pem", needs="-----BEGIN"),
    _regex(_JWT, "token", "jwt", needs="eyJ"),
    api_keys,
)
DETECTORS: tuple[Callable[[str], Iterable[Span]], ...] = (
    *SHAPED_DETECTORS,
    _regex(_AUTH_HEADER, "token", "auth_header", group=1),
    _http_credentials,
    _regex(_WEBHOOK, "api_key", "webhook", needs="://"),
    _emails,
    _url_passwords,
    _ssns,
    _ibans,
    _cn_ids,
    _cards,
    _phones,
    labelled_secrets,
    nearby_secrets,
    config_secrets,
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


@text_cache(maxsize=8192)
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
    if "\\" in key:  # a key written with JSON escapes: "\\u5bc6\\u7801"
        key = (unescape(key) or (key,))[0]
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", key)
    words = re.sub(r"[\s_\-.:/]+", " ", spaced).lower()
    return bool(_SECRET_NAME.search(words)) and not _MEASURE_NAME.search(words)
