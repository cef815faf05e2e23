"""Other written forms of a secret (for the label reader,
:mod:`~langgraph_memory.sensitivity.labels`): a keypad's, a lock's or an alarm's code
(``door keypad 0512``, ``密码锁 1357#``), a code read out in groups or in words (``six one
nine two``, ``五三八二``), the cells under a table column headed by a password word
(:mod:`~langgraph_memory.sensitivity.tables`), what a password file ``contains``, backup
codes in a list, a Wi-Fi key listed with other secrets, a value said to hold a space, a
Chinese-named seed phrase, BitLocker recovery keys and a value given after how it is made
(``密码是生日 19900512``).

Example:
    >>> text = "alarm disarm 6021; 密码锁 1357#"
    >>> [text[a:b] for a, b, _ in other_forms(text, text.lower(), False, True)]
    ['6021', '1357#']
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from langgraph_memory.sensitivity.label_values import (
    trimmed,
)
from langgraph_memory.sensitivity.markup import (
    MARKUP_MEASURE,
    MARKUP_NAME,
)
from langgraph_memory.sensitivity.no_value import (
    DATE,
    looks_like_credential,
    reads_as_prose,
    rejected,
)
from langgraph_memory.sensitivity.tables import comma_header, table_cells

__all__ = [
    "listed_wifi",
    "occurrences",
    "other_forms",
]

# -- other written forms ---------------------------------------------------------------------
#: A keypad's or an alarm's code after the thing it opens: ``door keypad 0512``,
#: ``alarm disarm 6021``, ``keypad: #2580``.
_LOCK_VALUE = re.compile(
    r"(?<![A-Za-z])(?i:keypad|key[ \-]pad|disarm(?:ing)?|arm/disarm)(?:[ \t]+(?i:code|pin|number))?"
    r"[ \t]*(?:(?i:is|was)[ \t]+|[:=][ \t]*|[ \t])[ \t]*(?P<value>[#*]?\d{4,8}[#*]?)(?![\w.\-/:])"
)
#: A lock's name as the label of its code, before ``:`` or ``=``: ``garage: 8812``,
#: ``safe = 0427#``, ``bike lock: 3-9-1-6`` (its dials), ``门禁：2580`` (not ``alarm: 0630``,
#: a time, nor ``locker: 1205`` or ``gate: 2051``, which number lockers and gates as often).
_LOCK_LABEL = re.compile(
    r"(?<![a-z])(?:door|front[ \t]door|garage|garage[ \t]door|safe|lockbox|padlock"
    r"|key[ \t]?safe|(?:bike|bicycle|cable|luggage|suitcase|combination)[ \t]lock)"
    r"[ \t]*[:=][ \t]*(?P<value>[#*]?\d{4,8}[#*]?|\d{1,2}(?:-\d{1,2}){2,5})"
    r"(?![\w.\-/:])(?![ \t]*(?:am|pm|h|hrs?)(?![a-z]))"
    r"|(?:门禁|門禁|保险箱|保险柜|保險箱|保險櫃)[ \t]*[:=][ \t]*(?P<zh>[#*]?\d{4,8}[#*]?)"
    r"(?![\w.\-/:点點])"
)
#: A lock and the code it was set to: ``the safe, I set it to 1066``, ``changed the door
#: code to 4821``.
_LOCK_SET = re.compile(
    r"(?<![a-z])(?:door|garage|safe|lockbox|padlock|locker|key[ \t]?safe|keypad)(?![a-z])"
    r"[^\n.;!?]{0,30}?(?<![a-z])(?:set|changed|reset)[ \t]+"
    r"(?:it|the[ \t]+(?:code|combo|combination|pin)|its[ \t]+code)?[ \t]*to[ \t]+"
    r"(?P<value>[#*]?\d{4,8}[#*]?)(?![\w.\-/:])"
    r"(?![ \t]*(?:am|pm|h|hrs?|o'clock|min|minutes|seconds|degrees)(?![a-z]))"
)
#: A 2FA setup key written in groups of four (base32): ``JBSW Y3DP EHPK 3PXP``,
#: after a word naming one.
_SETUP_KEY = re.compile(
    r"(?i:2fa|mfa|totp|otp|authenticator|setup[ \t]+key|secret[ \t]+key|seed|secret|密钥|秘钥|种子)"
    r"[^\n]{0,24}?(?:[:=][ \t]*|[ \t]+(?i:is|was)[ \t]+|是[ \t]*|[ \t]+)"
    r"(?P<value>[A-Za-z2-7]{4}(?:[ \t][A-Za-z2-7]{4}){3,15})(?![A-Za-z0-9])"
)
#: Lists of backup or recovery codes: ``backup codes: 1234-5678, 2345-6789``,
#: ``恢复码：a1b2c-3d4e5 f6g7h-8i9j0``: each code is a secret. The name may say whose
#: codes they are before ``:`` (``backup codes for my mail account:``), and the codes may
#: stand one a line under it.
_CODE_LIST = re.compile(
    r"(?i:(?:backup|recovery|rescue|emergency|one[ \-]?time|2fa|mfa)[ \t]+codes?)"
    r"(?:[ \t]+(?i:for|of|on|to)(?:[ \t]+[\w.\-']+){1,4}?(?=[ \t]*:))?"
    r"(?:[ \t]+(?i:are|were))?[ \t]*:?[ \t]*(?:\r?\n[ \t]*)?"
    r"|(?:备用码|备份码|恢复码|恢復碼|救援码|备用验证码)[ \t]*(?:是|为|:)?[ \t]*(?:\r?\n[ \t]*)?"
)
_LISTED_CODE = re.compile(
    r"\d{4}[ \t]\d{4}(?!\d)|[A-Z0-9]{3,6}(?:-[A-Z0-9]{3,6}){2,5}(?![A-Za-z0-9\-])"
    r"|[A-Za-z0-9]{4,12}(?:-[A-Za-z0-9]{3,12})?"
)
#: An item's number or bullet opening a line of a list: ``1.``, ``2)``, ``-``, ``*``, ``•``.
_LIST_ITEM = re.compile(r"(?:\d{1,2}[.)]|[\-*•])[ \t]+")
_LIST_SEP = re.compile(r"[ \t]*(?:,|;|、|/|[ \t]and[ \t]|[ \t]和[ \t]?|和|\r?\n)?[ \t]*")
#: ``登录密码和支付密码分别是 x 和 y``, ``PIN and PUK are 1234 and 56781234 respectively``.
_RESPECTIVELY = re.compile(
    r"(?:密码|口令|(?i:passwords?|pins?|puk|passcodes?))[^\n]{0,24}?"
    r"(?:分别是|分别为|分別是|分別為|(?i:are|were)(?=[^\n]{0,60}respectively))[ \t]*:?[ \t]*"
    r"(?P<a>[\x21-\x7e]{4,64}?)[ \t]*(?:和|与|跟|,|、|/|[ \t](?i:and)[ \t])[ \t]*"
    r"(?P<b>[\x21-\x7e]{4,64}?)(?=$|[\s,.;，。；]|[ \t]*(?i:respectively))"
)
#: ``the vault password file just contains x``, ``the token file reads: x``.
_CONTAINS = re.compile(
    r"(?<![a-z])(?:password|passwd|passphrase|passcode|secret|token|pin|key)"
    r"(?:[ \t]+(?:file|txt|note|entry|field|line))?[ \t]+(?:(?:just|only|simply|now)[ \t]+)?"
    r"(?:contains|holds|reads|says)[ \t]*:?[ \t]*[\"'`]?(?P<value>[\x21-\x7e]{6,128})"
)
#: A call naming a secret, then its value: ``define('DB_PASSWORD', 'x')``,
#: ``setenv("API_TOKEN", "x")``, ``config.set('smtp_password', 'x')``.
_ARGUMENTS = re.compile(
    r"(?P<q>[\"'])(?P<name>[A-Za-z_][\w.\-]{0,60})(?P=q)[ \t]*,[ \t]*"
    r"(?P<q2>[\"'])(?P<value>[^\"'\n]{1,200})(?P=q2)"
)
#: A Wi-Fi network named for its password: ``the wifi one is x``, ``wifi pw: x``, ``wifi
#: code is x``. ``WiFi: x`` alone is not enough: it names the network as often (``WiFi：
#: CMCC-8F2A``); nor is a band or a standard (``5GHz``, ``802.11ax``).
_WIFI = re.compile(
    r"(?<![A-Za-z])(?i:wi-?fi|wlan)[ \t]+(?i:one|pw|pwd|code|login|thing|bit|info)"
    r"(?:[ \t]*[:=][ \t]*|[ \t]+(?i:is|was)[ \t]+|'s[ \t]+)[\"'`]?(?P<value>[\x21-\x7e]{6,64})"
)
_NOT_WIFI = re.compile(
    r"(?i)\d+(?:\.\d+)?[ \-]?(?:ghz|mhz|mbps|gbps|kbps|ms|dbm?|%|x)|802\.11\w*|wpa\d?\w*|wi-?fi\d"
    r"|.*[_\-]?[256]g(?:hz)?|v?\d+(?:\.\d+)+"
)
#: A password said to hold a space, and written with it: ``密码 Gjj@ 2026 中间有个空格``,
#: ``password: blue moon77 (with a space)``.
_SPACED_VALUE = re.compile(
    r"(?:密码|密碼|口令|(?i:password|passphrase|passcode|pwd))[^\n]{0,6}?"
    r"(?:[ \t]*[:=是为為][ \t]*|[ \t]+)"
    r"(?P<value>[\x21-\x7e]{1,40}[ \t][\x21-\x7e]{1,40}?)[ \t,，(（]*"
    r"(?:中间有个?空格|中间带空格|中間有空格|含空格|有个空格|带空格|(?i:with[ \t]+a[ \t]+space"
    r"|(?:there'?s|it[ \t]+has|has)[ \t]+a[ \t]+space))"
)
#: A wallet's recovery phrase named in Chinese (``助记词：海 星 灯 ...``): 12 to 24 words,
#: Chinese characters or English ones.
_SEED_ZH = re.compile(
    r"(?:助记词|助記詞|恢复短语|恢復短語|种子短语|種子短語|备份短语|備份短語|钱包短语|錢包短語)"
    r"[^\n:=]{0,8}?(?:[ \t]*[:=]|[ \t]*(?:是|为|為)|[ \t]+)[ \t]*"
    r"(?P<value>[\u4e00-\u9fff](?:[ \t]+[\u4e00-\u9fff](?![\u4e00-\u9fff])){11,23}"
    r"|[a-z]{3,8}(?:[ \t]+[a-z]{3,8}){11,23})"
)
_DIGIT_WORDS_EN = "zero|oh|one|two|three|four|five|six|seven|eight|nine|niner"
#: A code read out in words: ``six one nine two zero four``, ``五三八二九一``.
_SPOKEN = re.compile(
    r"(?<![A-Za-z])(?i:(?:"
    + _DIGIT_WORDS_EN
    + r")(?:[ \t]*[ ,\-][ \t]*(?:"
    + _DIGIT_WORDS_EN
    + r")){3,11})(?![A-Za-z])"
    r"|(?:(?<![\u4e00-\u9fff])|(?<=[是为為码碼]))"  # not the end of a word: 标记四四一七
    r"[零〇一二三四五六七八九幺](?:[ \t]*[零〇一二三四五六七八九幺]){3,11}"
)
#: A name of a code or password a few words before a code read out in words.
_SPOKEN_LABEL = re.compile(
    r"(?i:code|pin|puk|passcode|password|otp|cvv|cvc)(?![A-Za-z])|密码|密碼|口令|验证码|驗證碼|码|碼"
)


#: A digit's word next to a code's name, looked for before :data:`_SPOKEN` is run.
_SPOKEN_HINT = re.compile(
    r"(?:code|pin|puk|pass|otp|cv[vc]|码|碼|口令)[^\n]{0,40}?(?:zero|one|two|three|four|five|six"
    r"|seven|eight|nine|[零〇一二三四五六七八九幺][ \t]*[零〇一二三四五六七八九幺])"
)


def _spoken(text: str) -> Iterator[tuple[int, int, str]]:
    """Codes read out in words after a label (``the code ... as six one nine two zero four``)."""
    for m in _SPOKEN.finditer(text):
        before = text[max(0, m.start() - 40) : m.start()]
        if "\n" not in before and _SPOKEN_LABEL.search(before):
            yield m.start(), m.end(), "keyword"


def _contains(low: str) -> Iterator[re.Match[str]]:
    """:data:`_CONTAINS` matched around each ``contains``/``holds``/``reads``/``says``
    (at most 16 of each) rather than over the whole text."""
    for verb in ("contains", "holds", "reads", "says"):
        i, seen = low.find(verb), 0
        while i >= 0 and seen < 16:
            m = _CONTAINS.search(low, max(0, i - 48), i + len(verb) + 140)
            if m is not None and m.start() < i:
                yield m
            i, seen = low.find(verb, i + 1), seen + 1


def _listed_codes(text: str) -> Iterator[tuple[int, int, str]]:
    """Each code of a list of backup or recovery codes (at most 16), after its name."""
    for m in _CODE_LIST.finditer(text):
        pos, count = m.end(), 0
        while count < 16:
            if text[pos - 1 : pos] == "\n" and (item := _LIST_ITEM.match(text, pos)):
                pos = item.end()  # "1. 0806 1100", "- x8k2m-4pq7z": a list's item mark
            code = _LISTED_CODE.match(text, pos)
            if code is None:
                break
            plain = code.group().replace("-", "").replace(" ", "")
            if len(plain) < 6 or not any(c.isdigit() for c in plain):
                break  # "backup codes 2024 update", "recovery codes are ...": no code
            end = code.end()
            if end < len(text) and (text[end].isalnum() or text[end] in "_@."):
                break
            yield code.start(), end, "keyword"
            count += 1
            sep = _LIST_SEP.match(text, end)
            pos = sep.end() if sep is not None else end
            if pos == end and pos < len(text) and not text[pos].isspace():
                break


_LOCK_WORDS = ("door", "garage", "safe", "lock")
_LOCK_WORDS_ZH = ("door", "garage", "safe", "lock", "门禁", "門禁", "保险", "保險")


def _before_sep(low: str, words: tuple[str, ...]) -> bool:
    """Whether one of ``words`` (or a word they start) is followed by ``:`` or ``=``
    (a look at 64 occurrences of each at most)."""
    for word in words:
        i, seen = low.find(word), 0
        while i >= 0 and seen < 64:
            j = i + len(word)
            while j < len(low) and j - i < len(word) + 12 and (low[j].isalpha() or low[j] in " \t"):
                j += 1  # garage door, 保险箱, key safe
            if low.startswith((":", "="), j):
                return True
            i, seen = low.find(word, i + 1), seen + 1
    return False


def other_forms(
    text: str, low: str, labelled: bool, digits: bool = True
) -> Iterator[tuple[int, int, str]]:
    """Keypad and alarm codes, files that hold a secret, calls naming one, Chinese-named
    recovery phrases, codes read out in words and table columns of secrets (each looked
    for only in texts holding a word it needs: most hold none; ``labelled``: whether the
    text holds a label word)."""
    zh = not low.isascii()
    if digits:  # the forms whose values hold a digit
        yield from _digit_forms(text, low, zh, labelled)
    elif "setup" in low or "authenticator" in low:  # a setup key may hold no digit
        yield from _setup_keys(text)
    if zh and ("助记" in text or "助記" in text or "短语" in text or "短語" in text):
        for m in _SEED_ZH.finditer(text):
            yield m.start("value"), m.end("value"), "passphrase"
    if "空格" in text or "space" in low:
        for m in _SPACED_VALUE.finditer(text):
            a, b = m.span("value")
            if not rejected(text[a:b].split()[0], ":", text, b):
                yield a, b, "passphrase"
    if (
        labelled or "code" in low or "otp" in low or "cv" in low or zh and ("码" in text)
    ) and _SPOKEN_HINT.search(low):
        yield from _spoken(text)
    if labelled:
        commas = "\n" in text and "," in text and comma_header(text, low)
        if commas or text.count("|") >= 2 or ("\n" in text and "\t" in text):
            yield from table_cells(text, commas)


def _setup_keys(text: str) -> Iterator[tuple[int, int, str]]:
    """2FA setup keys in groups of four (:data:`_SETUP_KEY`)."""
    for m in _SETUP_KEY.finditer(text):
        value = m.group("value")
        if any(c.isdigit() for c in value) or "setup" in m.group().lower():
            yield m.start("value"), m.end("value"), "passphrase"


def _digit_forms(text: str, low: str, zh: bool, labelled: bool) -> Iterator[tuple[int, int, str]]:
    """The forms of :func:`other_forms` whose values hold a digit (``labelled``: whether the
    text holds a label word: ``key``, ``secret``, ``password``...)."""
    if labelled and ("keypad" in low or "key pad" in low or "key-pad" in low) or "disarm" in low:
        for m in _LOCK_VALUE.finditer(text):
            yield m.start("value"), m.end("value"), "keyword"
    if (
        (":" in text or "=" in text)
        and len(low) == len(text)
        and _before_sep(low, _LOCK_WORDS_ZH if zh else _LOCK_WORDS)
    ):
        for m in _LOCK_LABEL.finditer(low):
            group = "value" if m.group("value") else "zh"
            yield m.start(group), m.end(group), "keyword"
    if " to " in low and ("set" in low or "chang" in low) and len(low) == len(text):
        for m in _LOCK_SET.finditer(low):  # "hotel safe, i set it to 1066"
            yield m.start("value"), m.end("value"), "keyword"
    if (
        "secret" in low
        or "seed" in low
        or "setup" in low
        or "authenticator" in low
        or "2fa" in low
        or "mfa" in low
        or "otp" in low
        or zh
        and ("密钥" in text or "秘钥" in text or "种子" in text)
    ):
        yield from _setup_keys(text)
    if (
        "code" in low
        and (" codes" in low or " code:" in low)
        or zh
        and (
            "备用" in text
            or "备份码" in text
            or "恢复码" in text
            or "恢復碼" in text
            or "救援码" in text
        )
    ):
        yield from _listed_codes(text)
    if text.count("-") >= 7 and sum(map(text.count, "0123456789")) >= 48:  # 8 groups of 6
        for m in _BITLOCKER.finditer(text):
            yield m.start(), m.end(), "keyword"
    if zh and ("锁" in text or "鎖" in text or "门禁" in text or "門禁" in text or "保" in text):
        for m in _LOCK_BARE_ZH.finditer(text):
            a, b = m.span("value" if m.group("value") else "dials")
            if not rejected(text[a:b], ":", text, b):
                yield a, b, "keyword"
    if (
        labelled
        and ("pass" in low or "pwd" in low or "pin" in low or "密" in text or "口令" in text)
        and _DESCRIBING.search(low) is not None
    ):
        yield from _described(text)
    if "respectively" in low or zh and ("分别" in text or "分別" in text):
        for m in _RESPECTIVELY.finditer(text):
            for group in ("a", "b"):
                a, b, value = trimmed(m, text, group)
                if any(c.isdigit() for c in value) and not rejected(value, ":", text, b):
                    yield a, b, "keyword"
    if labelled and ("contains" in low or "holds" in low or "reads" in low or "says" in low):
        for m in _contains(low) if len(low) == len(text) else ():
            a, b, value = trimmed(m, text)
            if any(c.isalpha() for c in value) and not rejected(value, ":", text, b):
                if any(c.isdigit() for c in value):
                    yield a, b, "keyword"
    if (
        labelled
        and ("'," in text or '",' in text or "' ," in text or '" ,' in text)
        and MARKUP_NAME.search(text)
    ):
        for m in _ARGUMENTS.finditer(text):
            name = m.group("name")
            if MARKUP_NAME.search(name) and not MARKUP_MEASURE.search(name):
                a, b = m.span("value")
                value = text[a:b]
                if (
                    len(value) >= 4
                    and looks_like_credential(value)
                    and not rejected(value, "=", text, b)
                ):
                    yield a, b, "keyword"
    if "wifi" in low or "wi-fi" in low or "wlan" in low:
        for m in _WIFI.finditer(text):
            a, b, value = trimmed(m, text)
            if (
                len(value) >= 6
                and any(c.isdigit() for c in value)
                and any(c.isalpha() for c in value)
                and not _NOT_WIFI.fullmatch(value)
                and not rejected(value, ":", text, b)
            ):
                yield a, b, "keyword"


#: A BitLocker recovery key: eight groups of six digits.
_BITLOCKER = re.compile(r"(?<![\d\-])\d{6}(?:-\d{6}){7}(?![\d\-])")
#: A lock's name then its code after a space (``密码锁 1357#``, ``屏幕锁 1478``, ``密码锁
#: 3-7-1-9``: its digits one by one); a safe's name then its dials (``保险箱 36-12-48``).
_LOCK_BARE_ZH = re.compile(
    r"(?:密码锁|密碼鎖|门锁|門鎖|屏幕锁|屏幕鎖|锁屏|鎖屏|指纹锁|指紋鎖|门禁|門禁)(?:密码|密碼)?"
    r"[ \t]*(?:是|为|為)?[ \t]*"
    r"(?P<value>[#*]?(?:\d{4,8}|\d(?:-\d){3,7})[#*]?)(?![\w.\-/:点點])"  # 1357#, 3-7-1-9
    r"|(?:保险箱|保险柜|保險箱|保險櫃)(?:密码|密碼)?[ \t]*(?:是|为|為)?[ \t]*"
    r"(?P<dials>\d{1,2}(?:-\d{1,2}){2,4})(?![\w.\-/:])"  # 保险箱 36-12-48: its dials
)


#: A word of a description (:data:`_DESCRIBED`), looked for in the lower-cased text before
#: the pattern runs: one scan instead of one per word.
_DESCRIBING = re.compile(
    "birth|name|year|date|anniversary|number|digits|dd|yy"
    "|生日|名字|年份|手机|电话|拼音|缩写|工号|学号|出生|身份|证件"
)


#: A password described by how it is made, then given (``the PDF password is your
#: birthday ddmmyyyy, so for you 17031988``, ``pass is my cat's name plus the year:
#: mochi2019``, ``密码是生日 19900512``): the value after the description.
_DESCRIBED = re.compile(
    r"(?i:password|passcode|pass|pwd|pin)(?:[ \t]+[\w']+){0,3}?[ \t]*(?:[ \t]is|[ \t]was|=|:)"
    r"[ \t]+(?P<desc>[^\n.;:!?]{0,40}?(?i:birthday|birthdate|birth[ \t]date|name|year|date"
    r"|anniversary|number|digits|dd/?mm/?yy(?:yy)?|mm/?dd/?yy(?:yy)?|yyyy/?mm/?dd)"
    r"[^\n.;:!?]{0,24}?)[ \t]*(?::|,[ \t]*(?i:so|i\.e\.|ie|which[ \t]+is|that'?s)"
    r"(?:[ \t]+(?i:for[ \t]+you|here|it'?s|its|mine|me))?|[ \t]+(?i:so|i\.e\.))[ \t]*"
    r"[\"'`]?(?P<value>[\x21-\x7e]{4,40})"
    r"|(?:密码|密碼|口令)(?:就是|是|为|為)(?P<zdesc>[\u4e00-\u9fff]{0,6}?"
    r"(?:生日|出生日期|名字|年份|手机号|手機號|电话|電話|拼音|缩写|工号|学号|身份证|身份證|证件号)"
    r"[\u4e00-\u9fff]{0,6}?)"
    r"[ \t,:=(]*(?:也就是|即|就是)?[ \t]*(?P<zvalue>[\x21-\x7e]{4,40})"
)


def occurrences(text: str, word: str, most: int = 16) -> Iterator[int]:
    """Where ``word`` occurs in ``text`` (the first ``most`` times)."""
    i, seen = text.find(word), 0
    while i >= 0 and seen < most:
        yield i
        i, seen = text.find(word, i + 1), seen + 1


def _described(text: str) -> Iterator[tuple[int, int, str]]:
    """Values given after a description of how they are made (:data:`_DESCRIBED`), read
    from each password word (at most 16 of each) rather than over the whole text."""
    low = text.lower() if text.isascii() else text
    starts = sorted(
        i
        for word in ("pass", "pwd", "pin", "密码", "密碼", "口令")
        for i in occurrences(low if word.isascii() else text, word)
    )
    end = -1
    for i in starts:
        if i < end:
            continue
        m = _DESCRIBED.match(text, i)
        if m is None:
            continue
        end = m.end()
        group = "value" if m.group("value") else "zvalue"
        a, b, value = trimmed(m, text, group)
        if (
            any(c.isdigit() for c in value)
            and len(value) >= 4
            and not DATE.fullmatch(value)
            and not rejected(value, ":", text, b)
        ):
            yield a, b, "keyword"


#: ``door keypad 0512, wifi moosetracks (...)``: a Wi-Fi network's key as an item of a
#: list of access details (the list holds another secret: see :func:`listed_wifi`).
_WIFI_ITEM = re.compile(
    r"(?:^|[,;/][ \t]*)(?i:wi-?fi|wlan)[ \t]+[\"'`]?(?P<value>[A-Za-z0-9][\x21-\x7e]{5,40}?)[\"'`]?"
    r"[ \t]*(?=[,;(]|$|\.(?:\s|$))"
)
#: What follows ``wifi`` in prose: its parts and states, not its key.
_WIFI_WORDS = frozenset(
    """network networks name password passwords router signal speed connection hotspot
    extender settings setting card adapter calling direct access works working issue issues
    problem problems sucks dropped down everywhere included available there here""".split()
)


def listed_wifi(text: str) -> Iterator[tuple[int, int, str]]:
    """A Wi-Fi key given as an item of a list of access details whose other items hold a
    secret (``door keypad 0512, wifi moosetracks``): any word that is not prose."""
    for m in _WIFI_ITEM.finditer(text):
        a, b, value = trimmed(m, text)
        word = value.lower()
        if (
            len(value) >= 6
            and word not in _WIFI_WORDS
            and not reads_as_prose(word)
            and not _NOT_WIFI.fullmatch(value)
            and not rejected(value, ":", text, b)
        ):
            yield a, b, "keyword"
