"""Secrets written after a label that names them: ``password: abc``, ``my password is
sunshine``, ``密码：abc``, ``我的密码是sunshine``, ``口令是 tiger``, ``api_key = "..."``,
``PIN码是 9527``.

A label is a word naming a password (``password``, ``passwd``, ``passphrase``,
``passcode``, ``pwd``, ``pw``, ``pass``, ``PIN``, ``密码``, ``密碼``, ``口令``,
``授权码``), a key or a token (``secret``, ``token``, ``api key``, ``access key``,
``private key``, ``密钥``, ``秘钥``, ``密鑰``, ``私钥``, ``令牌``...), or a one-time code
(``verification code``, ``one-time code``, ``2FA code``, ``OTP``, ``验证码``,
``校验码``). After it, perhaps an aside in brackets (``Password (new):``) or a comma
before ``is``/``是`` (``the PIN, is 8642``), comes a separator, then the value:

- **strong** separators, after which the next word is the value: ``:``, ``=``,
  ``=>``, ``->``, `` - ``, ``—``, ``is:``, and the Chinese verbs ``是``, ``为``, ``叫``,
  ``改成``, ``设置为``, ``重置为``... (``就是``, ``也是``, ``已经改为``, ``被改成了``); an
  English label may be qualified first (``password for the router is``, ``password
  for root:``);
- **weak** ones, after which prose may go on: ``is``, ``was``, ``to``, ``changed to``,
  ``'s``, ``? it's``;
- **none** but a space (``password sunshine22``, ``门锁密码 246810``).

The value is one token, a quoted phrase (``"correct horse battery staple"``), after
a Chinese label and a strong separator ASCII words up to the clause's end (at most
eight) or Chinese characters that do not read as prose (``口令：天王盖地虎``, not
``密码：见附件``; an idiom's or a verse's length, 4, 5 or 7, may hold common words:
``口令是山高水长``, not ``密码是公司名称``), or, after ``:`` at the end of a line, the next
line when it is one token. It is kept when it could be a secret:

- never a placeholder (``********``, ``<your-password>``, ``[REDACTED]``, ``${X}``,
  ``YOUR_API_KEY``, ``glpat-xxxxxxxx``, ``abc...xyz``, ``changeme``), code naming or
  reading a secret (``os.environ[...]``, ``process.env.X``, ``self.password``,
  ``password=password``, ``access_token``), a type (``str``), a length rule (``8-16
  位``, ``8 characters``), a description (``密码为 123456 的账号``) or a word of prose
  (``wrong``, ``the``, ``required``);
- after a password label (English or Chinese) or a Chinese key label and a strong
  separator or quotes: anything else of 3 characters or more (``password: abc``);
- after a weak separator: the same, but a plain word only when it does not read as
  prose (``sunshine``, not ``expired``, ``stolen`` or ``encrypted``); one hedge
  before it is skipped (``is literally password``);
- after an English key or token label: only what looks like a credential, a digit, a
  symbol or mixed case (``token: 4f9a2c7e1b``; not ``secret: practice``), but any value
  after ``=`` or in quotes (``SECRET=abc``: configuration and code); after ``is``, 8
  characters or more with letters and digits (``the API key is 3f7868...``);
- after only a space: letters and digits mixed (``password sunshine22``), or 4 to 12
  digits (``passcode 4821``, ``门禁密码 #2580``);
- a ``PIN`` (``PIN code``, ``PIN number``, ``PIN码``): 4 to 8 digits;
- a one-time code: 4 to 10 letters and digits with a digit (``G-482913`` too); a
  licence's key in groups (``激活码``, ``注册码``, ``卡密``, ``activation code``,
  ``registration code``: bought for one user, a secret), of capitals only too
  (``QWERT-ASDFG-ZXCVB``);
- after ``pass`` (a word too): a strong separator and a credential-like value.

Configuration and command lines are read too: the value of an XML element or of a
``key=/value=`` pair whose name names a secret (``<password>x</password>``,
``<add key="SmtpPassword" value="x"/>``) and the password of ``curl -u user:x``,
``mysql -px`` and ``sshpass -p x``.

Other languages' words for a password are labels too (``mot de passe``, ``contraseña``,
``Passwort``, ``senha``, ``пароль``, ``パスワード``, ``비밀번호``...): after a copula or a space
(``est``, ``es``, ``ist``) their value must mix letters and digits. Other written forms:
a ``PUK``; a code read out in groups (``55 21 90``) or in words (``six one nine two``,
``五三八二``) a few words after a code's name; a keypad's or alarm's code (``door keypad
0512``, ``alarm disarm 6021``); a dashed combination after a password word (``保险柜密码
18-27-09``); a shell variable's value (``PGPASSWORD=local_dev_pw psql``: a literal, even
when it reads like a name); what a password file ``contains``; a call's value after a
quoted secret name (``define('DB_PASSWORD', 'x')``); a connection string's value cut at
its next ``;Name=``; the cells under a table column headed by a password word
(Markdown, tab or comma rows); ``user / password`` after a console's name (``路由器后台``,
``dashboard``); ``redis-cli -a x``; a Chinese-named seed phrase (``助记词：海 星 ...``);
``，我的是 x``; ``wifi one is x``; a value said to hold a space (``Gjj@ 2026 中间有个空格``);
backup codes one a line or named with whose they are; a one-time code with its name in
brackets after it (``482913（动态码）``), given to verify (``use 482913 to verify``) or
said sent (``the code they texted me is 5519``); archive passwords (``zip -P x``, ``7z
-px``) and HTTPie's ``-a user:x``; app passwords in four groups of four letters; BitLocker
recovery keys; a lock's name then its code (``密码锁 1357#``) or three dials after a
luggage password word; a value given after how it is made (``pass is my dog's name plus
the year: x``, ``密码是生日 19900512``); ``address / password`` pairs. An instruction
where a value would stand is none (``密码：问前台``, ``password: call Sam``).

A label glued to letters before it (``PGPASSWORD=``, ``AppSecret 是``) counts before a
strong separator only, or before ``is`` when the name is in camel case (``AppSecret is
x``, ``dbPassword was x``); ``key`` is a label only in a compound (``api key``,
``secret_key``, ``private key``, ``license key``...).

The reader is in parts: the words naming a secret and the separators after them
(:mod:`~langgraph_memory.sensitivity.label_words`), what may stand as a value
(:mod:`~langgraph_memory.sensitivity.label_values`), markup
(:mod:`~langgraph_memory.sensitivity.markup`), command lines
(:mod:`~langgraph_memory.sensitivity.command_lines`), phrasings naming a secret apart from a
label (:mod:`~langgraph_memory.sensitivity.phrasings`) and the other written forms
(:mod:`~langgraph_memory.sensitivity.written_forms`); this module reads a label and its
value and gathers the parts' findings.

Detection is on the half-width copy of the text (``：`` is ``:``, ``　`` a space), so
full-width forms are covered.

Example:
    >>> [v for v in values("password: abc; 我的密码是sunshine; my password is wrong")]
    ['abc', 'sunshine']
    >>> values("Your secret is password: Tr0ub4dor&3x")
    ['Tr0ub4dor&3x']
    >>> values("password: ********, DB_PASSWORD=${DB_PASSWORD}, password: str")
    []
    >>> values("验证码: 482913, 5分钟内有效; the PIN, is 8642; 密码已经改为 Qwer1234 了")
    ['482913', '8642', 'Qwer1234']
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from langgraph_memory.sensitivity.below import values_below
from langgraph_memory.sensitivity.command_lines import command_line_secrets
from langgraph_memory.sensitivity.label_values import (
    BARE_HEX,
    BAREKEY_SEP,
    CODE_CHARS,
    CORRECTION,
    COUNTERSIGN,
    DIGITS,
    HEDGES,
    LETTER_GROUPS,
    NEWLINE,
    SPACED_COMBINATION,
    SPLIT_CODE,
    TOKEN,
    TRAILING,
    VERSION,
    WORD,
    accept,
    cjk_value,
    countersign_value,
    mixed_case_symbols,
    next_line_value,
    passphrase_words,
    phrase_label_end,
    read_value,
)
from langgraph_memory.sensitivity.label_words import (
    APPOSED,
    ASIDE,
    BARE,
    BARE_ZH,
    COMMA,
    FIELD_WORD,
    FOREIGN,
    FORM_SUFFIX,
    LABEL,
    PIN_QUALIFIER,
    QUALIFIER,
    STRONG,
    WEAK,
    foreign_label,
    label_matches,
    otp_labels,
    read_label,
)
from langgraph_memory.sensitivity.markup import markup_secrets
from langgraph_memory.sensitivity.no_value import (
    PROSE_WORDS,
    SHELL_CHECK,
    looks_like_credential,
    rejected,
)
from langgraph_memory.sensitivity.phrasings import (
    login_pairs,
    network_pairs,
    phrased_secrets,
)
from langgraph_memory.sensitivity.written_forms import (
    listed_wifi,
    other_forms,
)

__all__ = [
    "labelled_secrets",
    "values",
]

_SET = re.compile(r"(?i:set|change|changed|reset|update|updated|switch|switched)(?![a-z])")


def _in_query(text: str, start: int) -> bool:
    """Whether the name holding the label at ``start`` is a URL query's parameter."""
    i = start
    while i > 0 and (text[i - 1].isalnum() or text[i - 1] in "_-") and start - i < 32:
        i -= 1  # where the label's name starts (access_token, DB_PASSWORD)
    return text[i - 1 : i] in ("?", "&")


def _env_name(text: str, start: int, end: int) -> bool:
    """Whether the label at ``start:end`` ends an environment variable's name set in a
    shell (``PGPASSWORD=x psql``, ``export DB_PASS=x``): its value is a literal."""
    i = start
    while i > 0 and (text[i - 1].isalnum() or text[i - 1] == "_") and start - i < 32:
        i -= 1
    name = text[i:end]
    return (
        name.isupper()
        and text.startswith("=", end)
        and (i == 0 or text[i - 1] in " \t\n;")
        and not text.startswith(('="', "='"), end)
    )


#: A hash's name before a label (``md5 of the password``, ``sha256 of my admin password``).
_HASH_OF = re.compile(
    r"(?<![a-z])(?:md5|sha-?\d*|hash|hashed|digest|checksum|bcrypt|hmac)[ \t]+(?:of|for)[ \t]+"
    r"(?:(?:the|my|your|our|this|that|his|her|their)[ \t]+)?(?:[\w\-]+[ \t]+)?$"
)
#: The next ``Name=`` field of a connection string, after ``;``.
_NEXT_FIELD = re.compile(r";[ \t]*[A-Za-z][A-Za-z ]{0,30}=")


def _alone(text: str, start: int, end: int, kind: str = "pw") -> tuple[int, int, str] | None:
    """A label alone on its line (``Password``, ``WiFi 密码``, ``PIN``) and a credential
    alone on the next one (a code of digits after a code's name): that value."""
    head = text[text.rfind("\n", 0, start) + 1 : start]
    if len(head) > 16 or len(head.split()) > 2:
        return None
    newline = NEWLINE.match(text, end)
    a = newline.end() if newline is not None else end + 1
    b = text.find("\n", a)
    b = len(text) if b < 0 else b
    value = text[a:b].strip()
    if kind in ("pin", "otp", "otpzh", "cvv", "seccode") and DIGITS.fullmatch(value):
        if rejected(value, ":", text, text.index(value, a) + len(value)):
            return None
        a = text.index(value, a)
        return a, a + len(value), "keyword"
    if not value or not TOKEN.fullmatch(value) or len(value) < 6 or len(value) > 64:
        return None
    if "://" in value or VERSION.fullmatch(value):
        return None  # "Reset your password" then a link; "secret" then "v1.2.3-beta"
    if "," in head and "," in value:
        return None  # a comma-separated table: its columns are read apart
    a = text.index(value, a)
    letters = any(c.isalpha() for c in value)
    digit = any(c.isdigit() for c in value)
    if not (letters and digit) or rejected(value, ":", text, a + len(value)):
        return None
    return a, a + len(value), "keyword"


#: A Wi-Fi network named before a plain ``key``: then the network's key (``wifi ...,
#: key is x``, ``SSID: Home5G key: x``, ``路由器 ... key 是 x``).
_NETWORK = re.compile(
    r"(?<![A-Za-z])(?i:wi-?fi|wlan|ssid|network|router|hotspot)(?![A-Za-z])|路由|网络|热点"
)


def _camel(text: str, start: int) -> bool:
    """Whether the label word at ``start`` ends a name in camel case (``AppSecret``,
    ``clientSecret``, ``AccessToken``, ``dbPassword``): a lower-case letter, then the
    word's capital."""
    return start > 0 and text[start].isupper() and text[start - 1].islower()


def _start(m: re.Match[str]) -> int:
    return m.start()


def _find(text: str, low: str, labels: list[re.Match[str]]) -> Iterator[tuple[int, int, str]]:
    """``(start, end, detector)`` of each labelled value in ``text`` (``low``: in lower
    case; ``labels``: its label words)."""
    words: Iterable[re.Match[str]] = labels
    if (
        "code" in low
        or "otp" in low
        or "comb" in low
        or "cv" in low
        or "cid" in low
        or "csc" in low
    ):
        words = sorted([*words, *otp_labels(text)], key=_start)
    foreign = list(FOREIGN.finditer(low)) if len(low) == len(text) and foreign_label(low) else []
    if foreign:
        words = sorted([*words, *foreign], key=_start)
    correct: bool | None = None  # whether the text sets a value right: asked once
    for m in words:
        label = read_label(text, m)
        if label is None or (
            m.start() > 4 and _HASH_OF.search(low, max(0, m.start() - 32), m.start())
        ):
            continue  # "md5 of the password: x": a hash of it, no secret
        kind, pos, glued = label
        phrase_end = phrase_label_end(text, low, m.start(), pos, kind)  # passphrase, 口令短语
        pos = phrase_end or pos
        if correct is None:
            correct = _may_correct(text, low)
        if correct and (fixed := _corrected(text, m.end())) is not None:
            yield fixed
        if kind == "barekey" and BAREKEY_SEP.match(text, pos) is None:
            if BARE_HEX.match(text, pos) is None:
                continue  # "the key is x", "key: x" only (a plain "key" is mostly prose or code)
        elif kind == "barekey" and _NETWORK.search(text, max(0, m.start() - 48), m.start()):
            kind = "pw"  # "wifi at grandma's: network TP-LINK_8F2A, key is x": its Wi-Fi key
        if glued and kind == "pin":
            continue
        if not kind.endswith("zh"):
            q = QUALIFIER.match(text, pos) or FORM_SUFFIX.match(text, pos)
            q = q or (PIN_QUALIFIER.match(text, pos) if kind == "pin" else None)  # pin for x 6204
            if q is not None:
                pos = q.end()
        for skip in (FIELD_WORD, ASIDE, COMMA):
            q = skip.match(text, pos)
            if q is not None:
                pos = q.end()
        if text.startswith(("\n", "\r\n"), pos) and not glued:  # "密码" alone, value below
            alone = _alone(text, m.start(), pos, kind)
            if alone is not None:
                yield alone
            continue
        sep = "strong"
        s = STRONG.match(text, pos)
        if s is not None and s.group().rstrip().endswith("="):
            sep = "assign"
        if s is None and not glued and (s := APPOSED.match(text, pos)) is not None:
            sep = "apposed"
        bare = not glued or BARE_HEX.match(text, pos) is not None
        if s is None and (bare or _camel(text, m.start())):
            # PGPASSWORD=x, AppSecret 是 x: a strong one only, or a space before hex digits;
            # a name in camel case is a label before "is" too (AppSecret is x, dbPassword was x)
            s, sep = WEAK.match(text, pos), "weak"
            if s is None and bare:
                s, sep = (BARE_ZH if kind.endswith("zh") else BARE).match(text, pos), "bare"
        if s is None and text.startswith("\n", pos) and not glued:
            alone = _alone(text, m.start(), pos, kind)
            if alone is not None:
                yield alone
            continue
        if s is None or s.end() >= len(text):
            continue
        phrase = (
            sep != "weak"
            and sep != "bare"
            and (kind in ("pwzh", "keyzh") or low.startswith("passphrase", m.start()))
        )
        found = read_value(text, s.end(), phrase)
        if found is None and sep != "weak" and sep != "bare":
            found = next_line_value(text, s) or cjk_value(text, s.end(), kind, s.group())
        elif found is None and sep == "bare" and m.group() in COUNTERSIGN:
            found, sep = countersign_value(text, s.end()), "strong"  # 暗号蓝色雨伞就给他
        if found is None:
            continue
        a, b, quoted = found
        if kind == "combo" and not quoted and (dials := SPACED_COMBINATION.match(text, a)):
            b = dials.end()  # the safe combo is 12 34 56
        elif kind in ("pin", "otp", "otpzh", "cvv", "seccode") and not quoted:  # ends at a digit
            code = CODE_CHARS.match(text, a, b)
            b = code.end() if code is not None else a
            split = SPLIT_CODE.match(text, a)
            if split is not None:  # 2FA: 123 456; PIN: 7 3 9 1
                b = split.end()
        elif kind in ("pwzh", "pw") and not quoted and text[a:b].isdigit():
            split = SPLIT_CODE.match(text, a)  # 取款密码 661 233
            if split is not None and sep != "weak":
                b = split.end()
        elif kind in ("pwzh", "pw") and not quoted and (group := LETTER_GROUPS.match(text, a)):
            b = group.end()  # app password: abcd efgh ijkl mnop (one password, not one word)
        if sep == "assign" and "&" in text[a:b] and _in_query(text, m.start()):
            b = text.index("&", a, b)  # ?user=x&password=y&port=5432: one parameter
        if sep == "assign" and ";" in text[a:b]:
            field = _NEXT_FIELD.search(text, a, b)  # Password=x;Encrypt=true: a connection string
            b = field.start() if field is not None else b
        if text[a : a + 1] in ("-", "=") and SHELL_CHECK.search(text, max(0, a - 80), a):
            a += 1  # "${DB_PASSWORD:-x}": the value the shell falls back to
        value = text[a:b]
        if kind == "barekey" and (len(value) < 8 or not any(c.isdigit() for c in value)):
            continue  # what accept would refuse: spare rejected the look
        if (
            kind == "pw"
            and sep == "strong"
            and not quoted
            and value.isascii()
            and (rest := _PHRASE_REST.match(text, b)) is not None
            and not rejected(value, s.group(), text, b)
        ):
            rest_words = rest.group().split()
            if (
                value.isalpha()
                and any(c.isdigit() for c in rest.group())
                and not any(w.strip(TRAILING).lower() in PROSE_WORDS for w in rest_words)
            ) or (not value.isalnum() and _KEY_PIECE.fullmatch(rest_words[0])):
                # password is: tomato soup 99; Password : p@ss w0rd with spaces (a value
                # of symbols, then a word mixing letters and digits: words to the line's end)
                b = rest.end()
                value = text[a:b]
        hedges = 0
        while sep == "weak" and value.lower() in HEDGES and hedges < 2:  # "is literally x"
            w = WORD.match(text, b)
            if w is None:
                break
            a, b = w.start(1), w.start(1) + len(w.group(1).rstrip(TRAILING))
            value, hedges = text[a:b], hedges + 1
        if value.lower() in HEDGES:
            continue
        phrased = bool(phrase_end) or kind in ("pw", "pwzh") and sep != "bare"  # of words
        if phrased and not quoted and (end := passphrase_words(text, a, b)) > b:
            if not rejected(value, s.group(), text, b) and (
                phrase_end or accept(kind, sep, value, quoted)
            ):
                yield a, end, "passphrase"  # passphrase is: sonnet pickle harbor
            continue
        literal = sep == "assign" and _env_name(text, m.start(), m.end())
        if not value or rejected(value, "" if literal else s.group(), text, b, literal):
            continue
        if (
            sep == "weak"
            and s.group().strip().lower() == "to"
            and not (looks_like_credential(value) or quoted)
            and not _SET.search(text, max(0, m.start() - 24), m.start())
        ):
            continue  # "no password to share": a verb (not "set my password to x")
        if kind == "pass" and sep == "strong" and _in_login_block(text, m.start()):
            kind = "pw"  # "user: root\npass: toor": a login's fields, one a line
        if (
            kind in ("pw", "pwzh")
            and len(value) == 3
            and value.isdigit()
            and _LOCK_BEFORE.search(text, max(0, m.start() - 16), m.start()) is not None
        ):
            yield a, b, "keyword"  # 行李箱密码 519, suitcase password 372: a lock's dials
            continue
        if accept(kind, sep, value, quoted):
            yield a, b, "passphrase" if quoted or " " in value else "keyword"


#: A lock of three dials just before a password word (``行李箱密码``, ``suitcase
#: password``): its code is three digits.
_LOCK_BEFORE = re.compile(
    r"(?:行李箱|旅行箱|拉杆箱|密码箱|密碼箱|箱子|挂锁|掛鎖|车锁|車鎖|自行车锁|(?i:luggage|suitcase"
    r"|padlock|bike[ \t]+lock|cable[ \t]+lock|briefcase)(?![a-z]))[ \t]*(?:的)?[ \t]*$"
)
#: A word mixing letters and digits (``w0rd``, ``2026ab``): a piece of a credential.
_KEY_PIECE = re.compile(r"(?=[^\d]*\d)(?=[^A-Za-z]*[A-Za-z])[A-Za-z0-9@#$%&!*._\-]{3,24}")
#: The rest of a line after a plain word given as a password (``password: tomato soup
#: 99``): up to four more words, to the line's end.
_PHRASE_REST = re.compile(r"(?:[ \t]+[\x21-\x7e]{1,24}){1,4}(?=[ \t]*(?:\r?\n|$))")
#: A line naming a user: ``user: root``, ``username = admin``, ``用户名：x``.
_USER_LINE = re.compile(
    r"(?im)^[ \t]*(?:user(?:[ _]?name)?|login|account|用户名?|账号)[ \t]*[:=][ \t]*\S"
)


def _in_login_block(text: str, start: int) -> bool:
    """Whether the label at ``start`` opens its line and a user's line is next to it."""
    line = text.rfind("\n", 0, start) + 1
    if text[line:start].strip():
        return False
    before = text.rfind("\n", 0, max(0, line - 1)) + 1
    after = text.find("\n", start)
    after = text.find("\n", after + 1) if after >= 0 else -1
    return _USER_LINE.search(text, before, len(text) if after < 0 else after) is not None


def _may_correct(text: str, low: str) -> bool:
    """Whether ``text`` holds a word that sets a value right (most texts: none)."""
    return (
        "其实" in text
        or "不是" in text
        or "其實" in text
        or "实际" in text
        or "實際" in text
        or "不对" in text
        or "不對" in text
        or "应该" in text
        or "應該" in text
        or "新的" in text
        or "actual" in low
        or "real one" in low
        or "correct one" in low
        or "right one" in low
        or "proper one" in low
        or "正确的" in text
        or "正確的" in text
        or "真正的" in text
        or "对的是" in text
        or "對的是" in text
        or "mean" in low
        or "sorry" in low
        or "new one" in low
        or "改成" in text
        or "改为" in text
        or "改為" in text
        or "换成" in text
        or "換成" in text
    )


#: The change verbs of :data:`CORRECTION` (``改成了 x`` sets right an old value before it).
_CHANGED = re.compile("改成|改为|改為|换成|換成")
_DIGIT = re.compile(r"\d")


def _corrected(text: str, end: int) -> tuple[int, int, str] | None:
    """The value a label ending at ``end`` is set right to in the words after it
    (``口令：芝麻开门（说笑的，其实是 zmkm2026）``, ``password reset, new one: x``)."""
    m = CORRECTION.search(text, end, end + 60)
    if m is not None and _CHANGED.search(m.group()):
        between = text[end : m.start()]
        if not _DIGIT.search(between) or LABEL.search(between.lower()):
            return (
                None  # "密码已经改为 x": the label's own value; "PIN 8642; 密码改为 x": another's
            )
    found = read_value(text, m.end(), False) if m is not None else None
    if found is None:
        return None
    a, b, _ = found
    value = text[a:b]
    if (
        len(value) >= 4
        and (
            any(c.isdigit() for c in value)
            and (
                any(c.isalpha() for c in value)
                or value.isdigit()
                and len(value) <= 8
                and m is not None
                and not m.group().isascii()  # 改成了 582046
            )
            or len(value) >= 8
            and mixed_case_symbols(value)  # the actual one is fernsAreFriends!
        )
        and not rejected(value, ":", text, b)
    ):
        return a, b, "keyword"
    return None


_ANY_DIGIT = re.compile(r"\d")


def labelled_secrets(text: str) -> Iterator[tuple[int, int, str, str]]:
    """Spans ``(start, end, "secret", detector)`` of the values written after a label
    that names a secret (see the module docs); ``detector`` is ``keyword``, or
    ``passphrase`` for a quoted value or one of several words."""
    low = text.lower()
    labels = label_matches(text, low)
    digits = _ANY_DIGIT.search(text) is not None
    found = False
    for spans in (
        _find(text, low, labels),
        markup_secrets(text),
        command_line_secrets(text),
        login_pairs(text, low),
        network_pairs(text, low) if labels or "/" in text else (),
        phrased_secrets(text, low, digits, bool(labels)),
        other_forms(text, low, bool(labels), digits),
        values_below(text, labels) if labels and "\n" in text else (),
    ):
        for a, b, name in spans:
            found = True
            yield a, b, "secret", name
    if found and ("wifi" in low or "wi-fi" in low or "wlan" in low):
        for a, b, name in listed_wifi(text):  # door keypad 0512, wifi moosetracks
            yield a, b, "secret", name


def values(text: str) -> list[str]:
    """The labelled values of ``text``, as text (for examples and tests)."""
    return [text[a:b] for a, b, _, _ in labelled_secrets(text)]
