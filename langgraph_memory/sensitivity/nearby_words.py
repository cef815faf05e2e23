"""The secret words the nearby reader (:mod:`~langgraph_memory.sensitivity.nearby`)
starts from, in English and Chinese, typos included (``password``, ``pasword``, ``pw``,
``PIN``, ``secret``, ``token``, ``api key``, ``door code``, ``wifi``, ``密码``, ``口令``,
``密钥``, ``验证码``, ``登录``...), their kinds, and where they may start in a text.

Example:
    >>> low = "the wifi password is x"
    >>> [(low[a:a + 8], word_kind(SECRET_WORDS.match(low, a), low)) for a in word_starts(low)
    ...  if SECRET_WORDS.match(low, a)]
    [('wifi pas', 'use'), ('password', 'pw')]
"""

from __future__ import annotations

import re

from langgraph_memory.sensitivity.no_value import PARCEL_LOCKER

__all__ = ["GLUED_AFTER", "GLUED_BEFORE", "SECRET_WORDS", "stem_starts", "word_kind", "word_starts"]

# -- secret words -------------------------------------------------------------------------
#: Password words (typos included), searched in the lower-cased text.
_PW = (
    r"pass(?:wor[dt]|wrod|owrd|wrd|word|wd|ord|phrase|code)s?|pa?sword|pssword|pwd|pw"
    r"|pin(?:[ \-]?(?:code|number))?|psk|mima"
)
#: Words naming a key or a token (``key`` itself is read with the word before it).
_KEY = r"secrets?|tokens?|credentials?|creds"
#: Words naming where a secret is used: their values need a stronger shape.
_USE = r"log[ \-]?ins?|logons?|sign[ \-]?ins?|wi-?fi|wlan"
#: Where a word may start: pieces of the words, looked for with ``str.find`` (far faster
#: than a regex over every text; most texts hold none); the word itself is matched there.
_STEMS = (
    "pas", "pss", "psw", "pw", "pin", "secret", "token", "key", "cred", "log", "sign", "wifi",
    "wi-fi", "wlan", "code", "psk", "mima",
)  # fmt: skip
_ZH_PW = (
    "密码|密碼|口令|暗号|暗號|验证码|驗證碼|动态码|校验码|门禁码|開門碼|开门码|恢复码|恢復碼"
    "|备用码|備用碼|激活码|激活碼|提取码|提取碼|配对码|配對碼|安全码|安全碼|解锁码|解鎖碼"
    "|登录码|登錄碼|登入码|登入碼|登陆码|解压码|解壓碼|撤防码|撤防碼|布防码|布防碼|注册码|註冊碼|验正码|驗正碼"
    "|访问码|訪問碼"
)
_ZH_KEY = "密钥|秘钥|密鑰|金鑰|金钥|私钥|私鑰|令牌|凭证|凭据|憑證|憑據"
_ZH_USE = "登录|登陆|登入|登錄"
#: A code named by its count of digits (a card's ``背面三位码``): 3 to 8 digits.
_ZH_DIGITS = (
    "三位码|三位碼|四位码|四位碼|六位码|六位碼"
    "|背面三位码|背面三位碼|背面三位数|背面三位數|背面三位|背后三位码|背后三位数|背後三位數|背后三位"
    "|背面的三位数|背面四位码|背面四位数|背面四位"
)
SECRET_WORDS = re.compile(
    rf"(?P<pw>{_PW})|(?P<key>{_KEY})|(?P<use>{_USE})|(?P<bkey>keys?)|(?P<pass>pass)"
    rf"|(?P<code>codes?)|(?P<zpw>{_ZH_PW})|(?P<zkey>{_ZH_KEY})|(?P<zuse>{_ZH_USE})"
    rf"|(?P<digits>{_ZH_DIGITS})"
)
#: The first characters of the Chinese words.
_STEM_ZH = re.compile(
    "["
    + "".join(sorted({w[0] for w in f"{_ZH_PW}|{_ZH_KEY}|{_ZH_USE}|{_ZH_DIGITS}".split("|")}))
    + "]"
)
#: Words before ``key`` that name a secret (``api key``, ``wifi key``).
_KEY_NAME = frozenset(
    """api access secret private app wifi wi-fi wlan wpa wpa2 license licence product master
    encryption signing client account activation registration""".split()
)
#: Words before ``code`` that make it a secret (``door code``, ``backup code``).
_CODE_NAME = frozenset(
    """door gate garage alarm lock locker lockbox safe access entry keypad backup recovery
    verification security one-time otp 2fa mfa auth login sign-in unlock pairing pin pass
    wifi wi-fi""".split()
)
#: The word before ``key`` (``api key``, ``api_key``, ``wi-fi key``).
_LAST_WORD = re.compile(r"([a-z0-9]+(?:-[a-z0-9]+)?)[ \t_\-]?$")
#: What may not touch an English word: before it, after it.
GLUED_BEFORE = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_.-")
GLUED_AFTER = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")
#: Words before ``key`` that make it no secret's name.
_NOT_SECRET_KEY = frozenset(
    """public publishable primary foreign unique sort partition cache hash map dict object row
    lookup idempotency composite natural surrogate registry house car room door spare music
    piano answer ssh gpg pgp host deploy the a""".split()
)


def word_kind(m: re.Match[str], low: str) -> str | None:
    """The kind of a secret word: ``pw``, ``key``, ``use``, ``pass``; ``None`` for a
    ``key`` that names no secret (``public key``, ``primary key``)."""
    group = m.lastgroup or ""
    if group == "code":  # a code that opens something: "door code", "backup code"
        last = _LAST_WORD.search(low, max(0, m.start() - 24), m.start())
        if last and last.group(1).endswith(("digit", "digits")):
            return "digits"  # "the 4 digit code": a PIN, a card's security code
        if (
            last
            and last.group(1) == "locker"
            and PARCEL_LOCKER.search(low, m.start() - 48, m.start())
        ):
            return None  # a parcel locker's code: a pickup code, made to be shared
        return "pw" if last and last.group(1) in _CODE_NAME else None
    if group == "bkey":
        last = _LAST_WORD.search(low, max(0, m.start() - 24), m.start())
        word = last.group(1) if last else ""
        if word in _KEY_NAME:
            return "key"
        return None if word in _NOT_SECRET_KEY else "bkey"
    return {"zpw": "pw", "zkey": "key", "zuse": "use"}.get(group, group)


def stem_starts(low: str, stems: tuple[str, ...]) -> list[int]:
    """Where each of ``stems`` occurs in ``low`` (every occurrence), in order.

    Example:
        >>> stem_starts("pass: x, passwd: y", ("pass", "pw"))
        [0, 9]
    """
    out = []
    for stem in stems:
        i = low.find(stem)
        while i >= 0:
            out.append(i)
            i = low.find(stem, i + 1)
    return sorted(out)


def word_starts(low: str) -> list[int]:
    """Where a secret word may start in ``low``, in order."""
    out = stem_starts(low, _STEMS)
    if not low.isascii():
        out += [m.start() for m in _STEM_ZH.finditer(low)]
    return sorted(set(out))
