"""Secrets named by the phrasing around them rather than by a label right before them
(for the label reader, :mod:`~langgraph_memory.sensitivity.labels`): a user and a password
after a word naming a login (``login for the NAS is admin / Nq7$vL2w``), a Wi-Fi network's
name then its password (``wifi: HomeNet / Moose2024``, ``SSID Cafe pass latte!42``), a
recovery phrase,
a code named after it or given to verify (``482913（动态码）``, ``use 482913 to verify``),
said sent (``the code they texted me is 5519``), sent apart from its name, or named after
the value (``it's x, the wifi password i mean``).

Example:
    >>> text = "login for the NAS is admin / Nq7$vL2w"
    >>> {text[a:b] for a, b, _ in login_pairs(text, text.lower())}
    {'Nq7$vL2w'}
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from langgraph_memory.sensitivity.label_values import (
    JOINED_WORDS,
    TOKEN,
    UNIT_AFTER,
    accept,
    mixed_case_symbols,
    passphrase_words,
    trimmed,
)
from langgraph_memory.sensitivity.markup import (
    MARKUP_MEASURE,
    MARKUP_NAME,
)
from langgraph_memory.sensitivity.nearby import shape_score
from langgraph_memory.sensitivity.no_value import (
    LENGTH_UNIT,
    looks_like_credential,
    rejected,
)
from langgraph_memory.sensitivity.written_forms import occurrences

__all__ = [
    "login_pairs",
    "network_pairs",
    "phrased_secrets",
]

# -- user and password pairs, corrections ---------------------------------------------------
#: ``login for the NAS is admin / Nq7$vL2w``, ``creds: root/Tr33house``, ``账号 lisi / 密码``:
#: a user name and a password after a word naming a login.
_PAIR = re.compile(
    r"(?:(?<![A-Za-z])(?i:log[ \-]?in|sign[ \-]?in|credentials?|creds|account|admin[ \t]+panel"
    r"|portal|console|dashboard|web[ \t]?ui)(?![A-Za-z])"
    r"|账号|帐号|账户|用户名|后台|後台|登录|登陆|登入)"
    r"(?:[ \t]+(?i:for|to|on|of)(?:[ \t]+[\w.\-]+){1,3}?"
    r"(?=[ \t]+(?i:is|are|was|were)[ \t]|[ \t]*:))?"
    r"[ \t]*(?:(?i:is|are|was|were)[ \t]+|[:=][ \t]*)?[\"'`]?"
    r"(?P<name>[^\s/:\"'`，。]{1,40})[ \t]*/[ \t]*(?P<value>[^\s/\"'`，。；]{4,64})"
)
#: Words where a user's name would stand that say where, not who (``admin panel at
#: /wp-admin``: a path).
_WHERE = frozenset("at in on from via under behind".split())


#: A value said reused (``i reused Kx9#mm21 on like 6 sites``): what people reuse across
#: sites is a password; taken when it has a password's strong shape (letters of both cases,
#: digits and a symbol; no dot: not a file or a host).
_REUSED = re.compile(
    r"(?<![A-Za-z])(?i:re-?us(?:ed?|ing))[ \t]+(?:(?i:the|my|same|this|that)[ \t]+)?"
    r"(?P<value>[\x21-\x7e]{6,64})"
)
_STRONG_SYMBOL = re.compile(r"[!@#$%^&*+=?~]")
#: A wallet's recovery phrase: 12 to 24 lower-case words after its name (what it is for and
#: an aside in brackets may come between: ``recovery phrase for the ledger (just store it):``).
_SEED = re.compile(
    r"(?i:(?:recovery|seed|mnemonic|backup|secret|wallet)[ \-]?phrase|mnemonic)"
    r"[^\n:=\"'(]{0,24}?(?:\([^()\n]{0,60}\))?(?:[ \t]*[:=]|[ \t]+(?:is|was))[ \t]*[\"'“]?"
    r"(?P<value>[a-z]{3,8}(?:[ \t]+[a-z]{3,8}){11,23})"
)
#: An SMS's code written before its name: ``482913 is your verification code``,
#: ``Use 552918 as your login code``, ``G-482913 is your Google code``.
_CODE_FIRST = re.compile(
    r"(?<![\w\-])(?P<value>(?:[A-Z]-)?\d{4,8})[ \t]+(?i:is|as)[ \t]+(?i:your)[ \t]+"
    r"(?:[\w.\-]+[ \t]+){0,3}?(?i:(?:verification|login|security|one[ \-]?time|2fa|mfa"
    r"|confirmation|sign[ \-]?in|authentication|access|auth)[ \t]+)?"
    r"(?i:code|passcode|otp|pin)(?![A-Za-z])"
)
_SIX_DIGITS = re.compile(r"\d{6}")
#: An SMS's code given with what to do with it: ``Use 068415 to finish signing in``,
#: ``Enter 551902 to verify your account`` (6 to 8 digits: no year, no count).
_CODE_TO = re.compile(
    r"(?<![\w\-])(?i:use|enter|type)[ \t]+(?P<value>\d{6,8})[ \t]+(?i:to)[ \t]+"
    r"(?:(?i:finish|complete|continue)[ \t]+)?"
    r"(?i:sign(?:ing)?[ \t\-]?in|log(?:ging)?[ \t\-]?in|verify|verifying|confirm|authenticate"
    r"|reset)(?![A-Za-z])"
)
#: A password manager's vault and its master password: ``1password vault master: x``,
#: ``the shared 1password vault is x``, ``bitwarden master is x``.
_MANAGER_NAMES = ("1password", "bitwarden", "lastpass", "keepass", "dashlane")
_MANAGERS = r"1password|bitwarden|lastpass|keepass(?:xc)?|dashlane"
_VAULT = re.compile(
    rf"(?i:(?:(?:{_MANAGERS})(?:[ \t]+vault)?|vault)[ \t]+master"
    r"(?:[ \t]+(?:password|passphrase|pw))?[ \t]*(?::|=|[ \t]is[ \t])"
    rf"|(?:{_MANAGERS})[ \t]+vault[ \t]+is[ \t])[ \t]*"
)
#: ``name: DB_PASSWORD`` then ``value: x`` (a Kubernetes env entry, a JSON pair list).
_NAME_VALUE = re.compile(
    r"[\"']?name[\"']?[ \t]*:[ \t]*[\"']?(?P<name>[A-Za-z_][\w.\-]{0,60})[\"']?[ \t]*,?[ \t]*"
    r"\n?[ \t\-]*[\"']?value[\"']?[ \t]*:[ \t]*(?P<q>[\"']?)(?P<value>[^\s\"',}]{1,200})(?P=q)"
)


#: A value written before the label it is: ``Maple-Leaf-31 is my work password``,
#: ``Qw9876er 是我的邮箱密码``.
_VALUE_FIRST = re.compile(
    r"(?<![^\s:：,，(（\"'])(?P<value>[\x21-\x7e]{4,64}?)[\"'.,;)]?[ \t]+"
    r"(?:(?i:is|was)|[—–\-][ \t]+(?i:that'?s|that[ \t]+is|that[ \t]+was|it'?s))[ \t]+"
    r"(?i:my|our|his|her|their|your|[a-z]+'s)[ \t]+(?:[\w\-]+[ \t]+){0,2}?"
    r"(?i:password|passcode|passphrase|pin|pin[ \t]+code)(?![A-Za-z])"
    r"(?![ \t]+(?i:policy|rules?|hint|manager|length|requirements?|reset|field|history))"
    r"|(?:(?<![\x21-\x7e])(?P<zh>[\x21-\x7e]{4,64}?)|「(?P<zq>[^」\n]{2,24})」)"
    r"[ \t]*(?:就是|也是|是)(?:我|你|他|她|我们|咱们|那个|這個|这个|那個)的?"
    r"[\u4e00-\u9fffA-Za-z0-9 ]{0,6}?(?:密码|密碼|口令)"
)
#: ``the code is 7316``, ``your code: 9052``: a plain ``code`` before digits, or before a
#: quoted word holding a dash or a digit (``the code is "alpaca-tornado"``).
_THE_CODE = re.compile(
    r"(?<![A-Za-z])(?i:the|your|my|our)[ \t]+(?:(?P<whose>[A-Za-z][\w\-]{1,20})[ \t]+)?(?i:code)"
    r"(?:[ \t]+(?i:to|for|of)[ \t]+(?i:the|my|our|your)[ \t]+"
    r"(?P<what>[\w'\-]+(?:[ \t]+[\w'\-]+)?))?"
    r"[ \t]*(?:(?i:is|was)[ \t]*:?|[:=])[ \t]*"
    r"(?:(?P<value>[#*]?\d{4,8}[#*]?)(?![\w\-/:])(?!\.\d)"
    r"|[\"“'](?=[A-Za-z0-9\-]*[\-0-9])(?P<quoted>[A-Za-z0-9][A-Za-z0-9\-]{5,39})[\"”'](?![\w]))"
)
#: What a code is for when it opens nothing (``the code for the discount``; a parcel's
#: pickup code, made to be shared like 取件码): no secret.
_NOT_OPENED = re.compile(
    r"(?i:(?:.*[ \t\-])?(?:discount|promo|coupon|voucher|referral|invite|invitation|zip|area"
    r"|error|status|country|product|course|class|tracking|order|event|dress|exercise|project|task"
    r"|bug|function|program|script|app|test|challenge|question|problem|source|qr|bar|morse|color"
    r"|colour|tax|sort|swift|bank|branch|module|exit|return|response|http"
    r"|airport|station|city|language|style|naming|cheat|house|version|build|release|year|item"
    r"|postal|region|currency|part|model|sku|batch|lot|serial"
    r"|pick-?up|collection|parcel|package|delivery|shipment))"
)


#: A one-time code with its name in brackets after it: ``【商城】482913（动态验证码）``,
#: ``553190 (login code)``.
_CODE_NAMED_AFTER = re.compile(
    r"(?<![\w\-.])(?P<value>\d{4,8})[ \t]*\([ \t]*(?:your[ \t]+|the[ \t]+|[\u4e00-\u9fff]{0,4})"
    r"(?:验证码|驗證碼|动态码|動態碼|校验码|校驗碼|短信码|登录码|(?i:(?:verification|login"
    r"|sign[ \-]?in|security|one[ \-]?time|2fa|mfa|sms|auth)[ \t]+code|otp|passcode))[ \t]*\)"
)
#: A code given to be used to prove who one is: ``use 482913 to verify your account``,
#: ``enter 7731 to sign in``.
_CODE_TO_VERIFY = re.compile(
    r"(?<![A-Za-z])(?i:use|enter|type|input)[ \t]+(?P<value>\d{4,8})[ \t]+(?i:to|for)[ \t]+"
    r"(?i:verify|verification|confirm[ \t]+(?:your|it'?s|that)|sign[ \-]?in|log[ \-]?in"
    r"|authenticate|complete[ \t]+(?:your[ \t]+)?(?:sign|log)[ \-]?in|reset[ \t]+your)(?![a-z])"
)
#: A code someone sent, then its value: ``the code they texted me is 5519``, ``the code
#: the bank sent was 882041`` (not a count: ``... is 4000 lines``).
_CODE_SENT = re.compile(
    r"(?<![A-Za-z])(?i:the|a|that)[ \t]+(?i:code|pin|otp)(?:[ \t]+(?i:that|which))?"
    r"(?:[ \t]+[\w']+){1,3}?[ \t]+(?i:texted|sent|emailed|messaged|gave|got|received|read)"
    r"(?:[ \t]+(?i:me|us|you|him|her|them|out))?(?:[ \t]+(?i:over|back|earlier|just now))?"
    r"[ \t]+(?i:is|was)[ \t]*:?[ \t]*(?P<value>\d{4,8})(?![\w.\-/:])"
)


def _codes_to_verify(text: str, low: str) -> Iterator[tuple[int, int, str]]:
    """:data:`_CODE_TO_VERIFY` matched around each `` to ``/`` for `` (at most 16 of
    each) rather than over the whole text."""
    for word in (" to ", " for "):
        i, seen = low.find(word), 0
        while i >= 0 and seen < 16:
            m = _CODE_TO_VERIFY.search(text, max(0, i - 20), i + 32)
            if m is not None:
                yield m.start("value"), m.end("value"), "keyword"
            i, seen = low.find(word, i + 1), seen + 1


def _named_codes(text: str, low: str) -> Iterator[tuple[int, int, str]]:
    """One-time codes around their names: in brackets after (``482913（动态码）``), given
    to verify (``use 482913 to verify``), said sent (``the code they texted me is 5519``)."""
    if "(" in text and ("码" in text or "code" in low or "otp" in low or "passc" in low):
        for i in occurrences(text, "("):  # 482913（动态码）: read before each bracket
            m = _CODE_NAMED_AFTER.search(text, max(0, i - 10), i + 40)
            if m is not None and m.start() < i:
                yield m.start("value"), m.end("value"), "keyword"
    if (
        (
            "verif" in low
            or "sign" in low
            or " log" in low
            or "confirm" in low
            or "authent" in low
            or "reset" in low
        )
        and ("use " in low or "enter " in low or "type " in low or "input " in low)
        and (" to " in low or " for " in low)
    ):
        yield from _codes_to_verify(text, low)
    if (
        (" code " in low or " pin " in low or " otp " in low)
        and (" is " in low or " was " in low)
        and (
            "sent" in low
            or "texted" in low
            or "emailed" in low
            or "messaged" in low
            or "gave" in low
            or "got" in low
            or "received" in low
            or "read" in low
        )
    ):
        for m in _CODE_SENT.finditer(text):
            if LENGTH_UNIT.match(text, m.end()) is None and UNIT_AFTER.match(text, m.end()) is None:
                yield m.start("value"), m.end("value"), "keyword"


def _vault_masters(text: str) -> Iterator[tuple[int, int, str]]:
    """A vault's master password after its name (:data:`_VAULT`): words (``Orchid Parade
    Tuesday``) or one token of a password's shape."""
    for m in _VAULT.finditer(text):
        token = TOKEN.match(text, m.end())
        if token is None:
            continue
        a, b = token.start(), token.start() + len(token.group().rstrip(".,;:!?)"))
        end = passphrase_words(text, a, b)
        if end > b:
            yield a, end, "passphrase"
        elif shape_score(text[a:b]) >= 3 and not rejected(text[a:b], ":", text, b):
            yield a, b, "keyword"


def phrased_secrets(
    text: str, low: str, digits: bool = True, labelled: bool = True
) -> Iterator[tuple[int, int, str]]:
    """Recovery phrases, codes written before their name, and ``name:``/``value:`` pairs
    naming a secret (``low``: the text in lower case; ``labelled``: whether it holds a
    label word)."""
    if "phrase" in low or "mnemonic" in low:
        for m in _SEED.finditer(text):
            yield m.start("value"), m.end("value"), "passphrase"
    if "vault" in low or ("master" in low and any(w in low for w in _MANAGER_NAMES)):
        yield from _vault_masters(text)
    if "reus" in low or "re-us" in low:
        for m in _REUSED.finditer(text):
            a, b, value = trimmed(m, text)
            if shape_score(value) >= 5 and _STRONG_SYMBOL.search(value) and "." not in value:
                yield a, b, "keyword"  # "i reused Kx9#mm21 on 6 sites": what one reuses
    if " your " in low and (" code" in low or " otp" in low or " pin" in low or "passc" in low):
        for m in _CODE_FIRST.finditer(text):
            yield m.start("value"), m.end("value"), "keyword"
    if (
        digits
        and " to " in low
        and ("use " in low or "enter " in low or "type " in low)
        and _SIX_DIGITS.search(text)
    ):
        for m in _CODE_TO.finditer(text):
            yield m.start("value"), m.end("value"), "keyword"
    if " code" in low and (
        " code is" in low
        or " code:" in low
        or " code was" in low
        or " code=" in low
        or " code =" in low
        or " code to " in low
        or " code for " in low
        or " code of " in low
    ):
        for m in _THE_CODE.finditer(text):
            group = "value" if m.group("value") else "quoted"
            if all(
                m.group(g) is None or not _NOT_OPENED.fullmatch(m.group(g))
                for g in ("what", "whose")
            ) and (group == "value" or not rejected(m.group(group), ":", text, m.end(group))):
                yield m.start(group), m.end(group), "keyword"
    if (
        ("password" in low or "passcode" in low or "passphrase" in low or " pin" in low)
        and (" is " in low or " was " in low or "that" in low or "it's" in low)
        or ("密" in text or "口令" in text)
        and (
            "是我" in text
            or "是你" in text
            or "是他" in text
            or "是她" in text
            or "是咱" in text
            or "是那" in text
            or "是这" in text
            or "是這" in text
        )
    ):
        for m in _VALUE_FIRST.finditer(text):
            group = next(g for g in ("value", "zh", "zq") if m.group(g))
            a, b = m.span(group)
            a += len(text[a:b]) - len(text[a:b].lstrip("\"'`“‘("))  # ``x``, "x"
            value = text[a:b]
            digit = any(c.isdigit() for c in value)
            if (
                digit
                and (any(c.isalpha() for c in value) or value.isdigit())
                and not rejected(value, ":", text, b)
            ):
                yield a, b, "keyword"
    if "value" in low and ("name:" in low or 'name":' in low or "name':" in low):
        for m in _NAME_VALUE.finditer(text):
            a, b = m.span("value")
            value = text[a:b]
            if MARKUP_NAME.search(m.group("name")) and not MARKUP_MEASURE.search(m.group("name")):
                if not rejected(value, "=", text, b) and accept("pw", "assign", value, True):
                    yield a, b, "keyword"
    if digits:
        yield from _named_codes(text, low)
    if not labelled:
        return  # (the forms below need a label word)
    if "," in text and (
        (" password" in low or " pin" in low or " pw" in low or " pass" in low)
        and ("it" in low or "use " in low or "try " in low)
        or ("密码" in text or "密碼" in text or "口令" in text)
        and ("是" in text or "用" in text or "试" in text or "試" in text)
    ):
        yield from _named_after(text)  # it's x, the wifi password i mean
    if (
        "separate" in low
        or "apart" in low
        or " two " in low
        or " 2 " in low
        or "发" in text
        or "發" in text
    ):
        yield from _sent_apart(text)


#: A secret said to come apart from its name (``I'll write the pin separately ... ok
#: here: 9034``, ``密码我分两条发。……\nZhuque-Gate-42``): the name, the announcement, then
#: one value after ``here:`` or alone on the last line.
_APART = re.compile(
    r"(?:(?i:password|passcode|pin|pw|code)(?![A-Za-z])|密码|密碼|口令|验证码)"
    r"[^\n]{0,60}?(?:(?i:separately|apart|in[ \t]+(?:two|2)[ \t]+(?:messages|parts|texts)"
    r"|in[ \t]+a[ \t]+(?:second|separate|different)[ \t]+message)"
    r"|分两条|分兩條|分开发|分開發|单独发|單獨發|另发|另發|下一条|下一條)"
)
_APART_VALUE = re.compile(
    r"(?:(?i:here|ok[ \t]+here|here[ \t]+it[ \t]+is)[ \t]*:|\n)[ \t]*"
    r"(?P<value>[\x21-\x7e]{4,40})[ \t]*$"
)


def _sent_apart(text: str) -> Iterator[tuple[int, int, str]]:
    """The value of a secret said to come apart from its name (:data:`_APART`)."""
    m = _APART.search(text)
    if m is None:
        return
    value = _APART_VALUE.search(text, m.end())  # (at the text's end)
    if value is None:
        return
    a, b, word = trimmed(value, text)
    if (
        len(word) >= 4
        and any(c.isdigit() for c in word)
        and (word.isdigit() and len(word) <= 8 or any(c.isalpha() for c in word))
        and not rejected(word, ":", text, b)
    ):
        yield a, b, "keyword"


#: A value, then the password it is named after a comma: ``it's rainbow-cactus, the wifi
#: password i mean``, ``try Tq#lake77, our router's password``, ``是 blue-fox-9，我说的是
#: wifi 密码`` (the name ends its clause: not ``it's late, the password is x``).
_NAMED_AFTER = re.compile(
    r"(?:(?<![\w'])(?i:it'?s|it[ \t]+is|that'?s|use|try)[ \t]+[\"'`]?(?P<value>[\x21-\x7e]{4,64}?)"
    r"[\"'`]?,[ \t]*(?i:the|my|our|your|his|her|their)[ \t]+(?:[\w'\-]+[ \t]+){0,2}?"
    r"(?i:password|passcode|passphrase|pin|pw)(?:[ \t]+(?i:i[ \t]+mean|that[ \t]+is|btw))?"
    r"|(?:是|用|试试|試試)[ \t]*(?P<zh>[\x21-\x7e]{4,64}?)[ \t]*,[ \t]*"
    r"(?:我说的是|我說的是|我是说|我是說|说的是|說的是|指的是)?[\u4e00-\u9fffA-Za-z\- ]{0,8}?"
    r"(?:密码|密碼|口令)[啦啊呀哈]?)"
    r"[ \t]*(?=[.!;)]|$|,[ \t]*(?![\w \t]*(?:[:=]|(?i:is|was)[ \t])))"
)


def _named_after(text: str) -> Iterator[tuple[int, int, str]]:
    """Values named a password after a comma (:data:`_NAMED_AFTER`): a credential's
    shape only (a digit, words joined by a symbol, or mixed case and a symbol)."""
    for m in _NAMED_AFTER.finditer(text):
        a, b, value = trimmed(m, text, "value" if m.group("value") else "zh")
        if (
            len(value) >= 6
            and (
                any(c.isdigit() for c in value)
                and any(c.isalpha() for c in value)
                or JOINED_WORDS.fullmatch(value) is not None
                or mixed_case_symbols(value)
            )
            and not rejected(value, ":", text, b)
        ):
            yield a, b, "keyword"


def login_pairs(text: str, low: str) -> Iterator[tuple[int, int, str]]:
    """Passwords of ``user / password`` pairs after a word naming a login, and values
    a label's sentence sets right (``... 其实是 x``, ``... actually x``)."""
    if "/" in text and (
        "login" in low
        or "log in" in low
        or "log-in" in low
        or "sign in" in low
        or "signin" in low
        or "sign-in" in low
        or "cred" in low
        or "account" in low
        or "账" in text
        or "帐" in text
        or "用户名" in text
        or "后台" in text
        or "後台" in text
        or "登" in text
        or "portal" in low
        or "console" in low
        or "dashboard" in low
        or "panel" in low
        or "web ui" in low
        or "webui" in low
    ):
        for m in _PAIR.finditer(text):
            a, b, value = trimmed(m, text)
            if m.group("name").lower() in _WHERE:
                continue
            if (
                len(value) >= 4
                and looks_like_credential(value)
                and any(c.isalpha() for c in value)
                + any(c.isdigit() for c in value)
                + any(not c.isalnum() for c in value)
                >= 2
                and not rejected(value, ":", text, b)
            ):
                yield a, b, "keyword"
    if "@" in text and "/" in text:
        for m in _EMAIL_PAIR.finditer(text):
            a, b, value = trimmed(m, text)
            if (
                any(c.isalpha() for c in value)
                and (any(c.isdigit() for c in value) or not value.isalnum())
                and not rejected(value, ":", text, b)
            ):
                yield a, b, "keyword"
    if "/" in text and _DEVICE.search(low):
        for m in _ADMIN_PAIR.finditer(text):
            a, b, value = trimmed(m, text)
            if (
                _DEVICE.search(low, max(0, m.start() - 40), m.start())
                and looks_like_credential(value)
                and not rejected(value, ":", text, b)
            ):
                yield a, b, "keyword"


#: An e-mail address then a password after ``/`` (``iCloud: jo@icloud.com / Bl0ssom!``):
#: an account's login written as a pair.
_EMAIL_PAIR = re.compile(
    r"(?<![\w.+\-:/])[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+(?:[ \t]+/[ \t]*|/[ \t]+)"
    r"(?P<value>[^\s/\"'`，。；,@]{4,64})(?![/\w@])"
)
#: A device with an admin console (its login: ``router: admin/Netgear_Home1``), a server
#: (``服务器 root / x``).
_DEVICE = re.compile(
    r"(?<![a-z])(?:router|modem|nas|gateway|camera|nvr|dvr|printer|firewall|idrac|ilo|ipmi"
    r"|switch|access point|server|vps|host)(?![a-z])|路由|光猫|摄像头|交换机|防火墙|服务器|服務器"
    r"|主机|主機|云主机"
)
#: An administrator's name and a password after ``/``: ``admin/x``, ``root / x``.
_ADMIN_PAIR = re.compile(
    r"(?<![\w\-./@])(?P<user>(?i:admin|administrator|root|ubnt|pi|sa|supervisor|管理员))"
    r"[ \t]*/[ \t]*(?P<value>[^\s/\"'`，。；,]{4,64})(?![/\w])"
)


#: A Wi-Fi network's name then its password: after ``/`` (``wifi: HomeNet / Moose2024``,
#: ``WiFi：CMCC-8F2A/jz8vN2kq``) or after ``pass`` (``SSID Cafe-Guest pass latte!42``).
_NETWORK_PAIR = re.compile(
    r"(?<![A-Za-z])(?i:wi-?fi|wlan|ssid|wireless|network)(?![A-Za-z])(?:[ \t]*(?i:name))?"
    r"[ \t]*[:=]?[ \t]*(?P<name>[^\s/:\"'`，。,;]{2,40})"
    r"(?:[ \t]*/[ \t]*|,?[ \t]+(?i:pass|pw|pwd|psk)[ \t]*[:=]?[ \t]+)"
    r"(?P<value>[^\s/\"'`:;,\u0080-\uffff]{4,64})(?![/\w])"
    r"|(?:无线|网络)[ \t]*[:：]?[ \t]*(?P<name2>[^\s/:：\"'`，。,;]{2,40})[ \t]*/[ \t]*"
    r"(?P<value2>[^\s/\"'`:;,\u0080-\uffff]{4,64})(?![/\w])"
)
#: A band or a second network after the ``/`` (``2.4G / 5G``, ``HomeNet / HomeNet-5G``).
_BAND = re.compile(r"(?i:\d+(?:\.\d+)?[ \t]*g(?:hz)?|5g|wpa\d?|wep|open)")


def network_pairs(text: str, low: str) -> Iterator[tuple[int, int, str]]:
    """Passwords given after a Wi-Fi network's name (see :data:`_NETWORK_PAIR`): not a band,
    not the name again (``HomeNet / HomeNet-5G``), and looking like a credential (asked
    of texts holding a ``/`` or a label word: ``pass``, ``pw``, ``psk``)."""
    if not (
        "wifi" in low
        or "wi-fi" in low
        or "ssid" in low
        or "wlan" in low
        or "wireless" in low
        or "network" in low
        or "无线" in text
    ):
        return
    for m in _NETWORK_PAIR.finditer(text):
        group = "value" if m.group("value") else "value2"
        a, b, value = trimmed(m, text, group)
        name = m.group("name") or m.group("name2")
        if (
            len(value) >= 4
            and not _BAND.fullmatch(value)
            and not value.lower().startswith(name.lower())
            and looks_like_credential(value)
            and not rejected(value, ":", text, b)
        ):
            yield a, b, "keyword"
