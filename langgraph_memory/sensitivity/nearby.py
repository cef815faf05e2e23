"""Secrets found by their shape near a secret word: a second reading beside
:mod:`~langgraph_memory.sensitivity.labels`, which reads label-and-value phrasings.

That reader knows how labels are written; this one knows what a secret looks like and
only asks that a word naming one be close, whatever the words between. It finds:

- **secret words** from a bilingual lexicon, with common inflections and typos:
  ``password`` (``passwd``, ``pasword``, ``passwrod``, ``passowrd``...), ``passcode``,
  ``passphrase``, ``pwd``, ``pw``, ``PIN``, ``secret``, ``key``, ``token``,
  ``credentials``, ``creds``, ``login``, ``wifi``, ``pass`` (only before ``:`` or
  ``=``), ``密码``, ``口令``, ``密钥``, ``秘钥``, ``验证码``, ``令牌``, ``登录``/``登陆``...;
- **candidate values** within a short window after the word (the same sentence, a few
  words) or just before it: one token of 4 to 128 characters;
- **links** between them: a copula, a colon, an arrow or a verb of setting
  (``is``, ``was``, ``:``, ``=``, ``->``, ``—``, ``to``, ``being``, ``是``, ``为``,
  ``改成``, ``设成``, ``变成``, ``用的``...). Words naming what the secret is for may
  come before the link (``password for the shared drive? It's x``, ``密码，我记得是 x``)
  and fillers after it (``still the old one,``, ``now it's``, ``已经``); one user name
  before a pair separator is skipped (``admin / x``, ``admin and x``). With no link, the
  value must follow the word at once and have a strong shape (``密码 db#Pass2024``).
  Before the word, the value opens its clause and a copula follows it
  (``R7t!pp90 is the new password``, ``Xk9#mm21 是新的密码``).

A candidate is **scored by its shape**: a point each for lower case, upper case, digits
and symbols, one for 8 characters or more and one for 12 or more; it needs letters with
a digit or a symbol, and 3 points (4 with no link, or after a word that only names
where a secret is used: ``login``, ``wifi``, ``登录``). Digits alone are a value after a
password or code word (``PIN``, ``passcode``, ``验证码``): 4 to 10 of them, not a count
followed by its unit. What is never a value: a plain word, a number with a unit, a date,
a time, a price, a version, a percentage, a UUID, a hex digest, an order or ticket
number (``INC-20931``, ``DD20260314001``), a host name, a path, a URL, an e-mail
address, code (``getToken()``, ``self.secret``), a placeholder (``YOUR_TOKEN``,
``xxxx``, ``<token>``, ``******``).

A secret word with no value after it is left alone: ``I forgot my password``, ``reset
the key``, ``password manager``, ``密码要至少8位``.

Example:
    >>> text = "the login for the NAS is admin and Vx9!kq2m, don't lose it"
    >>> [text[a:b] for a, b, _, _ in nearby_secrets(text)]
    ['Vx9!kq2m']
    >>> text = "口令换了，现在是 Tiger#2026; R7t!pp90 is the new password"
    >>> [text[a:b] for a, b, _, _ in nearby_secrets(text)]
    ['Tiger#2026', 'R7t!pp90']
    >>> list(nearby_secrets("I forgot my password again; the token expires in 3600 seconds"))
    []
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from langgraph_memory.sensitivity.nearby_words import (
    GLUED_AFTER,
    GLUED_BEFORE,
    SECRET_WORDS,
    word_kind,
    word_starts,
)

__all__ = ["nearby_secrets", "shape_score"]

# -- tokens -------------------------------------------------------------------------------
#: A Chinese run, one piece of CJK punctuation, or a run of anything else but spaces.
_TOKENS = re.compile(
    r"[\u4e00-\u9fff]+|[\u3000-\u303f\u2014\u2015\u2026\uff0c\uff1b]"
    r"|[^\s\u4e00-\u9fff\u3000-\u303f\u2014\u2015\u2026\uff0c\uff1b]+"
)
#: Where a clause ends: the window never crosses it.
_END = re.compile(r"\n|[。；;]|(?<!\.\.)\.(?=\s|$)")  # (an ellipsis is a pause: "pw to... x")
_WINDOW = 90
_MAX_WORDS = 11
_STRIP_HEAD = "\"'`“‘「『([,"
_STRIP_TAIL = ".,;:)]}>\"'`”’」』?"
_QUOTE_PAIRS = {'"': '"', "'": "'", "`": "`", "“": "”", "‘": "’", "「": "」", "『": "』"}

# -- links and fillers --------------------------------------------------------------------
_LINKS = frozenset(
    """
    is was are were be being been becomes became = : := -> => → <- <-- ← - -- — —— to it's its
    that's here's heres is: was: equals reads 's set changed reset updated switched
    ? try use enter type input
    """.split()
)
_FILLERS = frozenset(
    """
    the a my our your his her their this that new old current same one ones still already
    just again now then currently actually literally simply also , " ' it's its it is
    here's here up like basically probably prob kinda
    """.split()
)
#: Words that join a user name to its password (``admin / x``, ``admin and x``).
_PAIR = frozenset(("/", "and", "&", "|", ":", ",", "+", "、", "，", "pass", "password", "pw"))
#: Words saying a secret is talked about, not given (``the most common password``).
_TALKED_ABOUT = frozenset(
    """most common commonest weakest worst popular typical default example sample famous
    leaked weak bad classic""".split()
)
#: Words joining a value to another part of a login before it (``email and x as the pw``).
_AND = frozenset(("and", "&", "plus", "with"))
#: Verbs of using a value before it (``use x as the password``, ``用 x 登录``).
_USED = re.compile(
    r"^(?:use|using|used|try|tried|enter|entered|type|typed|put|set)$|用$|输入$|輸入$|填$|填写$"
)
#: Words before the field a secret was put in (``typed into the username field: x``): that
#: field holds the secret, and its name is no other field's.
_INTO = frozenset(("into", "onto"))
#: Names of other fields: a link after one of them is its own (``wifi name: x``).
_FIELDS = frozenset(
    """
    id user username usr name email e-mail mail account acct host hostname server port url
    address addr phone tel mobile number ssid network region zone model version order
    ticket date time expiry expires type length size count limit fingerprint hash
    """.split()
)
#: A name of an identifier field written as code (``AppID``, ``clientId``, ``user_id``):
#: another field, whose value is an id, not the secret's.
_ID_FIELD = re.compile(r"[A-Za-z]*[a-z](?:ID|Id)|[A-Za-z]+[_\-](?i:id)")
_FIELDS_ZH = re.compile(
    r"(?:号|號|号码|號碼|账号|帳號|账户|帳戶|用户名|用戶名|邮箱|郵箱|地址|电话|電話|手机|手機|名称|名稱"
    r"|名字|编号|編號|长度|長度|时间|時間|日期|指纹|指紋|版本|型号|型號)$"
)
#: Chinese links, anywhere in a run (``我改成了``, ``现在是``, ``我一直用的``).
_ZH_LINK = re.compile(
    r"(?:是|为|為|叫做?|改成|改为|改為|换成|換成|换为|设成|设为|設為|设置为|设置成|设定为"
    r"|重置为|重置成|修改为|修改成|更改为|变成|變成|变为|用的|用|输入|輸入|填|给你|發你|发你|如下|贴在这|写在这)"
)
#: What may follow a Chinese link in its run (``了``, ``的``, ``如下``).
_ZH_TAIL = re.compile(r"(?:了|的|啦|吧|哈|呢|如下|一下|下|过来|过去|在这里?|这个|这个吧)*")
#: A Chinese run before a value: a link opening it, then words naming what it is for.
_ZH_BEFORE = re.compile(
    r"(?:就|也|才|便|即)?(?:是|为|為|作为|作為|当|當)[\u4e00-\u9fff]{0,10}?(?:的)?|[\u4e00-\u9fff]{0,6}的"
)
#: A Chinese run pointing back at the value before it and linking it (``这个是我``,
#: ``它就是``, ``也是``): ``abc123456 这个是我QQ的密码``.
_ZH_POINTER = re.compile(
    r"(?:这个|這個|这|這|它|那个|那個)?(?:就|也|才)?(?:是|为|為|当|當)[\u4e00-\u9fff]{0,6}"
)
#: A link said in the negative: the value after it is said to be wrong (``密码不是 x，是 y``,
#: ``the password is not x, it is y``, ``isn't x``).
_NEGATED_ZH = re.compile(r"(?:不|并不|並不|可不)(?:是|为|為)(?:了)?$")
_NEGATED = frozenset(("isn't", "isnt", "wasn't", "wasnt", "aint", "ain't"))
#: An aside opening after a value (``maple77 (my bank password)``): a filler or a link.
_ASIDE_OPEN = re.compile(r"\((?:my|the|our|that's|thats|it's|its|=)?$")

# -- what a value is not ------------------------------------------------------------------
_NOT_VALUE = re.compile(
    r"v?\d+(?:\.\d+)+[\w.+\-]*"  # a version, an IP address, a decimal
    r"|\d{1,4}[\-/.]\d{1,2}[\-/.]\d{1,4}(?:[tT ]\d.*)?"  # a date
    r"|\d{1,2}:\d{2}(?::\d{2})?(?:am|pm)?"  # a time
    r"|[$¥€£]\S*|\S*[%‰]|\d[\d,.]*(?:k|m|b|g|gb|mb|kb|tb|ms|s|h|x|px|min|hrs?|st|nd|rd|th)"
    r"|[0-9a-f]{7,}|[0-9A-F]{7,}|[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}"
    r"|#?[A-Z]{1,6}[\-_]?\d[\d\-]*|#?\d+|\d+[\-/]\d+"  # order and ticket numbers
    r"|[\w.+\-]+@[\w\-]+\.[\w.\-]+|[A-Za-z._\-]+@[A-Za-z._\-]+"  # e-mail, user@host
    r"|\w+://\S*|www\.\S*|[~.]?/\S*|(?:[\w.\-]+/)+[\w.\-]*|.*\\.*"  # URL, path, escapes
    r"|[a-z0-9\-]+(?:\.[a-z0-9\-]+)+(?::\d{1,5})?|[A-Za-z_]\w*(?:\??\.\w+)+|.*[()\[\]{}<>].*"
    r"|.*\.(?:py|js|ts|json|ya?ml|toml|txt|md|csv|log|env|sh|cfg|ini|conf|pem|key)"
    r"|-.*|[A-Za-z_][\w\-]*[=:].*|(?i:(?:pass|pwd|secret|token).*)"  # flags, name=value
    r"|\$\S*|%\w*%?|[A-Z0-9]+(?:_[A-Z0-9]+)+|(?i:your|my|the)[_\-].*|(?i:x{3,}|\*+|#+|\.+|-+)"
    r"|pk_(?:live|test)_.*|.*\*{3,}.*|.*(?:x{4,}|X{4,}).*|.*\.\.\..*"  # public keys, masks
    r"|(?i:change[_\-]?me|example\w*|dummy\w*|test123)",
)
#: Units after a number (``3600 seconds``, ``8 位``, ``5 次``): a count, not a value.
_UNIT = re.compile(
    r"[ \t]*(?:[年月日号號点點分秒次天个個元岁歲楼樓层層室位字条條遍人台部]"
    r"|(?i:seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?|times?"
    r"|characters?|chars?|digits?|letters?|bytes?|bits?|tokens?|words?|requests?|users?"
    r"|items?|people|percent|dollars?|usd|rmb|yuan|ms|gb|mb|kb|am|pm|px)(?![a-z]))"
)
#: (or names a kind the value is an example of: ``不是 123456 这种``, ``x 之类的``)
_ATTRIBUTIVE = re.compile(r"[ \t]*(?:的|这种|這種|这类|這類|之类|之類|那种|那種|这样的|這樣的)")
#: A name glued to its value: ``ID:LTAI...``, ``pwd=x``.
_NAMED = re.compile(r"[A-Za-z][\w\-]{0,15}(?:[:=]|->|=>)(?=\S)")
#: Lower-case words and numbers joined by dashes, dots or underscores: a model, a region.
_SLUG = re.compile(r"[a-z0-9]+(?:[\-._][a-z0-9]+)+")
_HEAD = re.compile(r"(?:\([^()\s]{0,20}\))?(?:[:=]|->|=>)+")
_DIGIT = re.compile(r"\d")
_SYMBOL = re.compile(r"[!@#$%^&*+=?~|;<>]")


def _classes(value: str) -> int:
    """How many of lower case, upper case, digits and symbols ``value`` holds."""
    return (
        (value != value.upper())
        + (value != value.lower())
        + (_DIGIT.search(value) is not None)
        + (_SYMBOL.search(value) is not None)
    )


def shape_score(value: str) -> int:
    """How much ``value`` looks like a secret: a point each for lower case, upper case,
    digits and symbols (``!@#$%^&*+=?~``...), one for 8 characters or more, one for 12
    or more; 0 when it has no letters, or no digit and no symbol (a word, a name).

    Example:
        >>> shape_score("Vx9!kq2m"), shape_score("sunshine"), shape_score("AX3000")
        (5, 0, 2)
    """
    if value.isalpha() or value.isdigit() or value == value.upper() == value.lower():
        return 0  # a word or a number alone, or no letters at all
    if _DIGIT.search(value) is None and _SYMBOL.search(value) is None:
        return 0
    return _classes(value) + (len(value) >= 8) + (len(value) >= 12)


def _value_ok(text: str, start: int, end: int, kind: str, linked: bool) -> bool:
    """Whether ``text[start:end]`` is a value after (or before) a secret word of
    ``kind`` (``pw``, ``key``, ``use``, ``pass``), with a link between them or not."""
    value = text[start:end]
    if kind == "digits":  # a code named by its count of digits: digits only
        return (
            value.isdigit()
            and 3 <= len(value) <= 8
            and _UNIT.match(text, end) is None
            and _ATTRIBUTIVE.match(text, end) is None
        )
    if not 4 <= len(value) <= 128 or not value.isascii() or value[0] == "}":
        return False  # ("}}@host": the end of a template variable, "{{ db_password }}")
    if value.isdigit():
        return (
            kind == "pw"
            and len(value) <= 8
            and (linked or not value.startswith(("19", "20")) or len(value) != 4)
            and _UNIT.match(text, end) is None
            and _ATTRIBUTIVE.match(text, end) is None
        )
    if _NOT_VALUE.fullmatch(value) or _ATTRIBUTIVE.match(text, end):
        return False  # not a value's shape; "密码为 123456 的账号": a description
    if kind in ("key", "bkey") and _SLUG.fullmatch(value):
        return False  # "gpt-4o-2024-08-06", "us-east-1": a name, not a key's value
    if linked and kind in ("pw", "key"):
        return shape_score(value) >= 3
    if kind == "quoted":  # quoted before its link: letters with a digit or a symbol
        return shape_score(value) >= 2
    if kind == "use":  # a word naming where a secret is used: a user or network name is near
        score = shape_score(value)
        return score >= 4 and (_SYMBOL.search(value) is not None or score >= 5)
    return shape_score(value) >= 4 and _classes(value) >= 3  # no link; "key" alone


def _clean(text: str, a: int, b: int) -> tuple[int, int]:
    """A token's span without its quotes, brackets and trailing punctuation."""
    while a < b and text[a] in _STRIP_HEAD:
        a += 1
    while b > a and text[b - 1] in _STRIP_TAIL:
        b -= 1
    cut = text.find("(", a, b)
    if cut > a and text[b - 1] != ")":
        b = cut  # "jiayou2026(全小写)": the bracket opens an aside
    return a, b


def _is_link(tok: str, word: str) -> bool:
    """Whether a token links a secret word to its value (``is``, ``:``, ``改成了``)."""
    if word in _LINKS or (word.endswith((":", "=")) and len(word) <= 16):
        return True
    if _cjk(tok):
        return any(_ZH_TAIL.fullmatch(tok, m.end()) for m in _ZH_LINK.finditer(tok))
    return False


def _after(text: str, pos: int, kind: str) -> tuple[int, int] | None:
    """The value after a secret word ending at ``pos``, if one is linked to it."""
    stop = _END.search(text, pos, pos + _WINDOW + 128)
    limit = stop.start() if stop else min(len(text), pos + _WINDOW + 128)
    linked = other = aside = into = held = comma = negated = False
    free = True  # one word (a user name) may stand between a link and the value
    for words, m in enumerate(_TOKENS.finditer(text, pos, limit)):
        tok = m.group()
        after_aside, comma = held and comma, tok.endswith((",", "，"))
        a, b = m.span()
        if words >= _MAX_WORDS or a > pos + _WINDOW:
            return None  # (a token starting in the window is read whole)
        if (
            a == pos
            and text[pos - 1].isascii()
            and (tok[0].isascii() and tok[0].isalnum() or tok[0] in "_-.@/%}")
        ):
            return None  # the word goes on: "passwords_file", "tokenizer", "%PASSWORD%"
        head = _HEAD.match(tok) or (_NAMED.match(tok) if linked or words == 0 else None)
        if head and len(tok) > head.end() and not _cjk(tok):
            linked, a = True, a + head.end()  # "password:abc", "=x"
            tok = text[a:b]
            if other or head.group().rstrip(":=->").lower() in _FIELDS:
                return None  # "ID:LTAI...", "身份证号：x": another field's value
        ca, cb = _clean(text, a, b)
        if linked and free and _pair_next(text, b, limit, ("/", "|")):
            free = False  # a user name before "/": "admin@db01 / x"
            continue
        if after_aside and cb > ca and shape_score(text[ca:cb]) >= 5 and not _acts(text, b):
            linked = True  # "is, hold on, reading it off the card, Kq7-Marble-Ox"
        if cb > ca and (linked or words == 0) and _value_ok(text, ca, cb, kind, linked):
            if negated:  # "密码不是 x 而是 y", "is not x, it is y": x is said to be wrong
                linked = negated = False
                continue
            return (ca, cb) if linked or kind != "pass" else None
        if negated and not (tok.lower() in _NEGATED or tok.lower() == "not"):
            negated = False  # "isn't strong enough: x": the "not" was of something else
        if _cjk(tok) and _NEGATED_ZH.search(tok):
            linked, negated = True, True  # "不是", "并不是": a value said not to be it
            continue
        if tok.lower() in _NEGATED or (linked and tok.lower() == "not"):
            linked, negated = True, True  # "is not", "isn't"
            continue
        word = tok.lower().strip("\"'`,()[]")
        aside = (aside or tok.startswith("(")) and ")" not in tok  # "(expires Friday):"
        if word in _INTO:
            into = True  # "pw was typed into the username field: x": where it went
            continue
        if into and tok.endswith((",", ";", ".")):
            into = False  # (up to the clause's end)
        if (
            not aside
            and not into
            and ")" not in tok
            and (
                word.rstrip(":=") in _FIELDS
                or "id" in word
                and _ID_FIELD.fullmatch(tok.strip("\"'`,()[]").rstrip(":=")) is not None
            )
            or (_cjk(tok) and _FIELDS_ZH.search(tok))
        ):
            other = True  # "wifi name: x", "密码重置时需要身份证号：x": another field's label
            if word.endswith((":", "=")):
                return None
        elif into and word not in _FILLERS and not _is_link(tok, word):
            continue  # the field the secret went into ("the username field", "the chat box")
        elif _is_link(tok, word) or (word == "with" and kind == "use"):
            if other:
                return None
            linked, free = True, True
        elif word in _FILLERS or not word.strip(".-—"):
            continue
        elif kind == "pass" and not linked:
            return None  # "pass" is a word too: only "pass: x" and "pass = x"
        elif linked and word in _PAIR and not free:
            continue  # "admin / x": the separator after the user name
        elif linked and free and _pair_next(text, b, limit):
            free = False  # a user name: "admin / x", "admin and x"
        elif cb > ca and shape_score(text[ca:cb]) >= 3:
            return None  # a value-like word with no link: not this word's value
        else:
            held = held or linked  # an aside up to a comma may stand before the value
            linked = False  # "the key was rotated on ...": a new link is needed
    return None


#: Verbs after a word that make it the subject of a clause (``MacBookPro2021 keeps
#: rejecting it``): a thing doing something, no value given.
_ACTS = frozenset(
    """is was keeps kept says said does did doesn't didn't won't will can can't asks asked
    shows showed rejects rejected wants needs has had""".split()
)


def _acts(text: str, end: int) -> bool:
    """Whether the word after ``end`` is a verb of which the token before is the subject."""
    nxt = _TOKENS.match(text, _skip_space(text, end))
    return nxt is not None and nxt.group().lower().rstrip(",.") in _ACTS


def _cjk(tok: str) -> bool:
    return "\u4e00" <= tok[0] <= "\u9fff"


def _pair_next(
    text: str, end: int, limit: int, joins: frozenset[str] | tuple[str, ...] = _PAIR
) -> bool:
    """Whether the token after ``end`` joins a user name to a password."""
    nxt = _TOKENS.match(text, _skip_space(text, end), limit)
    return nxt is not None and nxt.group().lower() in joins


def _skip_space(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t":
        i += 1
    return i


def _before(text: str, start: int, kind: str) -> tuple[int, int] | None:
    """The value just before a secret word starting at ``start`` (``x is the new
    password``, ``x 是新的密码``): it opens its clause and a copula follows it."""
    lo = max(0, start - 60)
    toks = [m.span() for m in _TOKENS.finditer(text, lo, start)]
    linked = equated = arrow = as_link = False
    for i in range(len(toks) - 1, max(-1, len(toks) - 7), -1):
        a, b = toks[i]
        tok = text[a:b]
        low = tok.lower()
        if "\u4e00" <= tok[0] <= "\u9fff" and not linked and b == start:
            if _ZH_POINTER.fullmatch(tok) is not None:
                linked = True  # "tq2026 这个就是我网盘的密码": a pointer back, then a link
                continue
            if _ZH_BEFORE.fullmatch(tok) is None:
                return None
            linked = tok.startswith(
                ("是", "为", "為", "就", "也", "才", "便", "即", "作", "当", "當")
            )
            continue
        if "\u4e00" <= tok[0] <= "\u9fff" and not linked and _ZH_POINTER.fullmatch(tok):
            linked = True  # "abc123456 这个是我QQ的密码"
            continue
        if not linked and _ASIDE_OPEN.fullmatch(low):
            linked = True  # "maple77 (my bank password)"
            continue
        if low in _LINKS or low in ("is", "was", "that's", "as", "是", "就是", "作为", "當", "当"):
            linked = True
            equated = low in _EQUALS
            arrow = low in ("<-", "<--", "←")
            as_link = low == "as"
            continue
        if low in _TALKED_ABOUT:
            return None  # "password123 is the most common password": an example, not one
        if low in _FILLERS or low.isalpha() and low.isascii() and not linked and len(low) < 12:
            if linked:
                return None  # "x test is the password": the value must touch its link
            continue  # "the new wifi", "for the build box" (a qualifier before the word)
        used = i > 0 and _USED.search(text[toks[i - 1][0] : toks[i - 1][1]].lower()) is not None
        if not linked and not used:
            return None
        ca, cb = _clean(text, a, b)
        j = a
        while j > 0 and text[j - 1] in " \t":
            j -= 1
        joined = as_link and i > 0 and text[toks[i - 1][0] : toks[i - 1][1]].lower() in _AND
        if j > 0 and text[j - 1] not in "\n.;:!?,(—-\u3001\u3002" and not used and not joined:
            return None  # the value opens its clause: "R7t!pp90 is the new password"
        # (or is the second of a pair: "the usual email and x as the pw")
        if cb > ca and _value_ok(text, ca, cb, kind, True):
            return ca, cb
        if (
            arrow
            and kind == "use"
            and shape_score(text[ca:cb]) >= 3
            and _value_ok(text, ca, cb, "quoted", True)
            and not _FIELD_AFTER.match(text, _word_end(text, start))
        ):
            return ca, cb  # "hunter-lake-93 <- wifi": an arrow names what the value is
        if (
            equated
            and kind == "pw"
            and cb - ca >= 6
            and shape_score(text[ca:cb]) >= 2
            and _FOR_WHAT.match(text, _word_end(text, start)) is not None
            and _value_ok(text, ca, cb, "quoted", True)
        ):
            return ca, cb  # "maple77 = password for the NAS": set equal, then what it opens
        if used and cb > ca and _quoted(text, ca, cb) and _value_ok(text, ca, cb, "quoted", True):
            return ca, cb  # "use 'tiger42' as the password": quoted after a verb of using
        if (
            used
            and linked
            and kind == "pw"
            and cb - ca >= 5
            and shape_score(text[ca:cb]) >= 2
            and _value_ok(text, ca, cb, "quoted", True)
        ):
            return ca, cb  # "I typed hunter2 as my password": used as it, letters and digits
        return None
    return None


#: Links that set a value equal to a secret word (``x = password for the NAS``).
_EQUALS = frozenset(("=", "->", "=>", "→", "<-", "←", "==", "equals"))
#: What a secret word is for, after it (``for the NAS``, ``of the router``): prose, not code.
_FOR_WHAT = re.compile(r"[ \t]+(?i:for|of|to|on|at)[ \t]+(?:the[ \t]+|my[ \t]+|our[ \t]+)?\w")


#: Another field's name after a word (``wifi name``, ``wifi ssid``): the value is its.
_FIELD_AFTER = re.compile(r"[ \t]*(?i:name|ssid|network|id|user(?:name)?)(?![a-z])")


def _word_end(text: str, start: int) -> int:
    """Where the word starting at ``start`` ends."""
    i = start
    while i < len(text) and (text[i].isalnum() or text[i] in "-_"):
        i += 1
    return i


def _quoted(text: str, a: int, b: int) -> bool:
    """Whether ``text[a:b]`` stands in quotes."""
    close = _QUOTE_PAIRS.get(text[a - 1 : a])
    return close is not None and text[b : b + 1] == close


def _camel(text: str, i: int) -> bool:
    """Whether a word starts at ``i`` inside a camel-case name (``AppSecret``, ``apiKey``)."""
    return text[i].isupper() and text[i - 1].islower()


def _in_value(text: str, i: int) -> bool:
    """Whether the word at ``i`` is the inside of an assigned value (``password=ShopPw#1``)
    or of a value holding symbols (``0000@aPW``), not a name."""
    j = i
    while j > 0 and i - j < 64 and text[j - 1].isalnum():
        j -= 1
    return j > 0 and text[j - 1] in "=@#$%^&*!~+"


#: A URL's credentials: ``scheme://user:password@host`` (the password's span is group 1).
_URL_USERINFO = re.compile(r"[a-z][\w+.-]*://[^\s:/@]*:([^\s@/]+)@", re.I)


def _in_url_password(text: str, i: int) -> bool:
    """Whether ``i`` lies inside the password of a URL's credentials
    (``postgres://app:KBnhQxPW!kx@db``): a piece of that value, not a name."""
    a = max(text.rfind(" ", 0, i), text.rfind("\n", 0, i)) + 1
    m = _URL_USERINFO.match(text, a)
    return m is not None and m.start(1) <= i < m.end(1)


def nearby_secrets(text: str) -> Iterator[tuple[int, int, str, str]]:
    """Spans ``(start, end, "secret", "nearby")`` of values of a secret's shape linked
    to a secret word close to them (see the module docs). ``text`` is the half-width
    copy the detectors scan."""
    low = text.lower()
    if len(low) != len(text):  # a letter whose lower case is longer ("İ"): keep offsets
        low = "".join(c if len(c.lower()) != 1 else c.lower() for c in text)
    seen: set[int] = set()
    last = 0
    for at in word_starts(low):
        m = SECRET_WORDS.match(low, at) if at >= last else None
        if m is None:
            continue
        start, end = m.span()
        last = end
        if low[start].isascii() and (
            (start and low[start - 1] in GLUED_BEFORE and not _camel(text, start))
            or (end < len(low) and low[end] in GLUED_AFTER)
        ):
            continue  # inside a longer word: "bypass", "pinned", "monkey", "tokenizer"
        if (
            start
            and _camel(text, start)
            and (_in_value(text, start) or _in_url_password(text, start))
        ):
            continue  # a piece of a value: "password=ShopPw#1", "//app:KBnhQxPW!kx@db"
        if start and low[start - 1] in "+/" and low[end : end + 1] in ("+", "/", "="):
            continue  # a piece of base64: "...0+PW+0Aa"
        kind = word_kind(m, low)
        if kind is None or low[start - 1 : start] in ("?", "&", "/", "#"):
            continue  # a key that names no secret; a URL's parameter or path
        found = _after(text, end, kind)
        if found is None and kind != "pass":
            found = _before(text, start, kind)
        if found is not None and found[0] not in seen:
            seen.add(found[0])
            yield found[0], found[1], "secret", "nearby"
