"""What no secret's value after a label can be (the checks of the label reader,
:mod:`~langgraph_memory.sensitivity.labels`, shared with
:mod:`~langgraph_memory.sensitivity.structured`): a placeholder standing where a value
would go (``********``, ``<your-password>``, ``${DB_PASSWORD}``, ``YOUR_API_KEY``), code
naming or reading a secret (``os.environ[...]``, ``self.password``), a length rule (``8-16
位``, ``8 characters``), a date, a year or an amount (``2026 年``), a description
(``密码为 123456 的账号``), a word of prose (``wrong``, ``required``, ``expired``) and an
identifier naming a secret (``access_token``, ``dbPassword``).

Example:
    >>> [reads_as_no_value(v, ":", v, len(v)) for v in ("${DB_PASS}", "required", "Zx9!q")]
    [True, True, False]
"""

from __future__ import annotations

import re

__all__ = [
    "DATE",
    "LENGTH_UNIT",
    "PARCEL_LOCKER",
    "PROSE_WORDS",
    "SHELL_CHECK",
    "ascii_letter",
    "looks_like_credential",
    "reads_as_no_value",
    "reads_as_prose",
    "rejected",
]

#: A locker for parcels (``parcel locker``, ``Amazon locker``): its code is a pickup code.
PARCEL_LOCKER = re.compile(
    r"(?i:pick[ \-]?up|parcel|package|delivery|amazon|courier|post(?:al)?)[ \t\-]*(?i:locker)"
    r"|快递柜|快遞櫃|丰巢|豐巢|自提柜"
)
#: A value that stands where one would go: masked, bracketed, templated, an env name.
_PLACEHOLDER = re.compile(
    r"[*xX#?._\-×●•]+|.*\*\*\*.*|(?:示例|例如|比如|举例|舉例).*|ENC\[.*"  # (SOPS: encrypted)
    r"|[<\[{(].*|\$\{.*|\$[A-Za-z_]+|%\(?\w*\)?s|%[A-Za-z_]+%|![A-Za-z]+|.*\.\.\.$"
    r"|(?i:your)[_\-]?[A-Za-z_\-]*|[A-Z]+(?:_[A-Z]+)+|.*(?:x{6,}|X{6,}).*"
    r"|.*\.\.\..*|.*….*|(?i:change[_\-]?me|change[_\-]?it|replace[_\-]?me)"
    r"|[A-Za-z]{2,10}(?:[_\-][A-Za-z]{2,10})*[_\-](?:x{3,}|X{3,}|\*{3,})",  # sk-xxxx, ghp_XXX
)
#: Code that names or reads a secret: ``os.environ[...]``, ``self.password``, ``f(x)``.
#: The head of an SSH public key in base64 (its algorithm's name: ``ssh-rsa``,
#: ``ssh-ed25519``, ``ecdsa-sha2-nistp…``, ``ssh-dss``): public, no secret.
_SSH_PUBLIC_BLOB = re.compile(
    r"AAAA(?:B3NzaC1yc2E|C3NzaC1lZDI1NTE5|E2VjZHNhLXNoYTItbmlzdHA|B3NzaC1kc3M)"
)
_CODE = re.compile(
    r"[a-z_][a-z0-9_]*(?:\??\.[a-z_][a-z0-9_]*)+(?:[(\[].*)?|[A-Za-z_][A-Za-z0-9_.]*\(.*"
    r"|(?:process\.env|os\.environ|import\.meta\.env|settings|config|conf|cfg|self|this|env"
    r"|secrets|vars|ctx|context|params|request|req|args|opts|options)[.\[].*",
    re.ASCII,
)
#: An identifier naming a secret (``access_token``, ``dbPassword``, ``API_KEY``, ``pwd``).
_SECRETISH = re.compile(
    r"(?:[A-Za-z0-9]+[_\-])*(?i:pass(?:word|wd|phrase|code)?|pwd|pw|secret|token|key|apikey)"
    r"(?:[_\-][A-Za-z0-9]+)*|[a-z]+(?:Pass(?:word)?|Pwd|Secret|Token|Key)[A-Za-z]*"
)
#: A length rule after the value: ``8 characters``, ``8-16 位``, ``6 digits``.
LENGTH_UNIT = re.compile(
    r"[ \t]*(?:(?:random|unrelated|common|english|dictionary|simple|short|long)[ \t]+){0,2}"
    r"(?:位|个字符|個字元|个字|字符|字元|characters?|chars?|digits?|letters?|symbols?"
    r"|numbers?|words?|bytes?)(?![A-Za-z])",
    re.IGNORECASE,
)
#: Words that follow a label in prose, schemas and code, never as its value.
PROSE_WORDS = frozenset(
    """
    a an the this that these those it its it's is was are be been being to too of for on
    in at by with without from into onto about like as and or but not no nor so if then
    than my your his her our their mine yours hers ours theirs me you him them us we they
    he she what which who whom whose where when why how here there now still just only also
    even ever never always already again very quite rather really pretty simply literally
    actually basically probably definitely usually often sometimes
    wrong incorrect correct right valid invalid expired weak strong long short easy hard
    simple complex same different new old good bad fine ok okay great perfect safe unsafe
    secure insecure empty blank missing required optional mandatory needed necessary unknown
    forgotten lost hidden visible private public random generic default temporary common
    unique personal stronger weaker longer shorter better worse easier harder safer simpler
    enough sensitive case case-sensitive important relevant
    changed reset set unset saved stored encrypted hashed salted protected compromised
    leaked stolen shown known given taken written chosen broken sent kept made found done
    gone due something anything nothing everything someone somewhere whatever one
    null none nil undefined n/a na tbd todo redacted masked example placeholder sample
    below above attached following follows see check ask use enter type click choose pick
    call text ping dm message email front desk reception frontdesk
    unchanged expired disabled enabled revoked rotated removed deleted pending updated
    verified confirmed locked unlocked active inactive typed used asked reused
    create provide contact please via inside under behind within off true false yes
    str string int integer number bool boolean bytes text char varchar any object secretstr
    optional list dict field column input value param parameter variable argument attribute
    property prompt dialog box form length strength policy rules requirements hint manager
    recovery login reminder expiry expiration file files wifi wi-fi wlan ssid
    """.split()
)
#: Endings of words that read as prose after ``is`` (``expired``, ``expiring``, ``usable``).
_PROSE_END = ("ly", "ed", "ing", "able", "ible", "ful", "less", "ous", "ive", "ent")


def ascii_letter(text: str, i: int) -> bool:
    """Whether ``text[i]`` is an ASCII letter."""
    return 0 <= i < len(text) and text[i].isascii() and text[i].isalpha()


def reads_as_prose(word: str) -> bool:
    """Whether a plain word (lower case) reads as prose rather than a value: a word of
    :data:`PROSE_WORDS` or one with a prose ending (``accepted``, ``pending``, ``usable``).

    Example:
        >>> [reads_as_prose(w) for w in ("accepted", "required", "marigold")]
        [True, True, False]
    """
    return word in PROSE_WORDS or (len(word) >= 6 and word.endswith(_PROSE_END))


def looks_like_credential(value: str) -> bool:
    """A digit, a symbol, or upper case after the first letter: ``4f9a``, ``Zx9``."""
    return any(c.isdigit() for c in value) or not value.isalpha() or not value[1:].islower()


#: A value that qualifies a noun (``密码为 123456 的账号很危险``).
#: (or names a kind the value is an example of: ``不是 123456 这种``, ``x 之类的``)
_ATTRIBUTIVE = re.compile(r"[ \t]*(?:的|这种|這種|这类|這類|之类|之類|那种|那種|这样的|這樣的)")


#: Numbers written as words (a count before a unit: ``four words``).
_COUNT_WORDS = frozenset(
    "two three four five six seven eight nine ten eleven twelve sixteen twenty".split()
)
#: A negated or shortened verb (``don't``, ``won't``, ``I'll``): prose after a label.
_CONTRACTION = re.compile(
    r"[a-z]{2,5}n['’]t|(?:i|you|we|they|he|she|there|what)['’](?:m|ll|re|ve|d|s)"
)
#: A host and its port (``mail.example.org:587``): where a secret is used, not one.
_HOST_PORT = re.compile(r"[a-z0-9\-]+(?:\.[a-z0-9\-]+)+:\d{1,5}", re.IGNORECASE)
#: ``passwd:`` opening a line: the password tool's own message (``passwd: invalid option``).
_TOOL_MESSAGE = re.compile(r"(?:^|\n)[ \t]*passwd:[ \t]*$")


def _tool_message(value: str, text: str, start: int, end: int) -> bool:
    """Whether ``value`` opens a message the ``passwd`` tool printed: a word of letters
    after ``passwd:`` at a line's start, more words after it."""
    return (
        value.isalpha()
        and text[end : end + 1] == " "
        and ascii_letter(text, end + 1)
        and _TOOL_MESSAGE.search(text, max(0, start - 40), start) is not None
    )


_CJK_UNIT = re.compile("[ \t]?[年月日号號点點分秒次天个個元岁歲楼樓层層室位]")
DATE = re.compile(r"(?:19|20)\d{2}([\-/.])\d{1,2}\1\d{1,2}|\d{1,2}([\-/.])\d{1,2}\2(?:19|20)\d{2}")
#: Two digits or more: a value holding them is not an identifier (``queue-pass-9921``,
#: ``db_pw_007``; ``token_v2`` still is one).
_DIGIT_RUN = re.compile(r"\d{2}")


#: A shell expansion's name up to ``:`` (``${DB_PASSWORD:?message}``): what follows is
#: a message or a default, not a value written there.
SHELL_CHECK = re.compile(r"\$\{[A-Za-z_][A-Za-z0-9_]*:$")


def rejected(value: str, sep: str, text: str, end: int, literal: bool = False) -> bool:
    """What no label's value can be (see the module docs); ``literal``: a value set in a
    shell, where a name-like word (``local_dev_pw``) is the value itself."""
    word = value.rstrip("!?").lower()
    head = re.split(r"[\[(<]", word, maxsplit=1)[0]
    if not word or word in PROSE_WORDS or head in PROSE_WORDS or _PLACEHOLDER.fullmatch(value):
        return True
    if _CODE.fullmatch(value) or LENGTH_UNIT.match(text, end):
        return True
    if value.startswith("AAAA") and _SSH_PUBLIC_BLOB.match(value):
        return True  # "host key: AAAAC3NzaC1lZDI1NTE5...": an SSH public key, base64
    first, _, rest = word.partition(" ")
    if _CONTRACTION.fullmatch(first) or _HOST_PORT.fullmatch(value):
        return True  # "password: don't know", "creds: smtp.example.org:587"
    if rest and (first.isdigit() or first in _COUNT_WORDS) and LENGTH_UNIT.match(" " + rest):
        return True  # "passphrase: four words from the list": a count, not the words
    start = end - len(value)
    if _tool_message(value, text, start, end):
        return True
    if value[:1] == "?" and SHELL_CHECK.search(text, max(0, start - 80), start):
        return True  # "${DB_PASSWORD:?set it in .env}": the shell's message when it is unset
    if value.startswith(("//", "}")) or text.startswith(("...", "…"), end):
        return True  # a URL's rest ("password at https://..."), an example cut short ("sk-..."),
        # a template variable's end ("{{ db_password }}@host")
    if value.isdigit() and _CJK_UNIT.match(text, end):
        return True  # "口令 2026 年起停用": a year, a count, an amount
    if DATE.fullmatch(value):
        return True  # "上次修改密码是 2026-10-02": when, not what
    if _ATTRIBUTIVE.match(text, end):
        return True  # "密码为 123456 的账号": a description of passwords, not one
    if literal:
        return value.startswith("$")
    if (
        _SECRETISH.fullmatch(value)
        and (not value.isalpha() or value.isupper() or not value[1:].islower())
        and _DIGIT_RUN.search(value) is None
        and (not any(c.isdigit() for c in value) or value.islower() or value.isupper())
    ):
        return True  # an identifier: access_token, API_KEY, dbPassword
    # after "=", code: password=password, password=pwd, password=form_data
    return (
        sep.rstrip().endswith("=")
        and _DIGIT_RUN.search(value) is None
        and (bool(_SECRETISH.fullmatch(value)) or bool(re.fullmatch(r"[a-z]+(?:_[a-z]+)+", value)))
    )


def reads_as_no_value(value: str, sep: str, text: str, end: int) -> bool:
    """Whether ``value``, ending at ``end`` of ``text`` after the separator ``sep``, is
    what no secret's value can be: a placeholder, code, a length rule, a date, a word of
    prose, an identifier naming a secret (the checks of the label reader, shared with
    :mod:`~langgraph_memory.sensitivity.structured`).

    Example:
        >>> [reads_as_no_value(v, ":", v, len(v)) for v in ("${DB_PASS}", "required", "Zx9!q")]
        [True, True, False]
    """
    return rejected(value, sep, text, end)
