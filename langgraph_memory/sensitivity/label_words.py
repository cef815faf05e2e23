"""The words that name a secret, and the separators after them, for the label reader
(:mod:`~langgraph_memory.sensitivity.labels`): a password's, a key's or a token's name
(``password``, ``pwd``, ``PIN``, ``api key``, ``密码``, ``口令``, ``密钥``, ``令牌``), a
one-time code's (``verification code``, ``OTP``, ``验证码``), other languages' words for a
password (``mot de passe``, ``пароль``), and what may stand between a label and its value:
a strong separator (``:``, ``=``, ``是``), a weak one (``is``, ``was``), an aside in
brackets, a qualifier (``password for the router is``).

Example:
    >>> text = "My Password: abc, 验证码 482913"
    >>> [(m.group(), read_label(text, m)[0]) for m in label_matches(text, text.lower())]
    [('password', 'pw'), ('验证码', 'otpzh')]
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from langgraph_memory.sensitivity.no_value import PARCEL_LOCKER, ascii_letter

__all__ = [
    "APPOSED",
    "ASIDE",
    "BARE",
    "BARE_ZH",
    "COMMA",
    "FIELD_WORD",
    "FOREIGN",
    "FORM_SUFFIX",
    "LABEL",
    "PIN_QUALIFIER",
    "QUALIFIER",
    "STRONG",
    "WEAK",
    "foreign_label",
    "label_matches",
    "otp_labels",
    "read_label",
]

# -- labels -------------------------------------------------------------------------------
_PASSWORD_ZH = "密码|密碼|密 码|口令|授权码|授權碼|暗号|暗號"
#: One-time codes: ``验证码：482913``, ``verification code is 482913``, ``OTP: 5531``.
_OTP_ZH = (
    "验证码|驗證碼|校验码|校驗碼|动态码|動態碼|提取码|提取碼"
    "|激活码|激活碼|解锁码|解鎖碼|门禁码|開門碼|开门码|配对码|配對碼|安全码|安全碼"
    "|登录码|登錄碼|登入码|登入碼|登陆码|解压码|解壓碼|撤防码|撤防碼|布防码|布防碼"
    "|注册码|註冊碼|卡密(?![码碼])|验正码|驗正碼|访问码|訪問碼"
)
_OTP_EN = (
    r"otp|(?:verification|one[ \-]?time|security|login|sign[ \-]?in|2fa|mfa|auth|door|gate"
    r"|garage|alarm|lock|locker|lockbox|safe|access|entry|entrance|building|keypad|backup"
    r"|recovery|unlock|pairing|activation|registration|licen[cs]e|extraction|pass"
    r"|key|guard|authenticat(?:ion|or))[ \-]?code"  # (Steam Guard code)
)
_KEY_ZH = "密钥|秘钥|密鑰|金鑰|金钥|私钥|私鑰|令牌|權杖|权杖"
#: The word of a label, searched in the lower-cased text (a plain alternation, which
#: the regex engine scans fast: most texts hold none). Compounds (``api key``,
#: ``client secret``, ``access_token``) end in one of these words.
_LABEL_ASCII = re.compile(
    r"pass(?:word|wd|phrase|code)?|pwd|pswd?|pw|p/w|psk|mima|pin|puk|secret|token|key"
)
LABEL = re.compile(_LABEL_ASCII.pattern + "|" + _PASSWORD_ZH + "|" + _KEY_ZH + "|" + _OTP_ZH)
#: The word for a password in other languages (a lexicon built once; searched in the
#: lower-cased text): French, Spanish, Portuguese, Italian, German, Dutch, Nordic, Polish,
#: Turkish, Indonesian, Vietnamese, Russian, Ukrainian, Japanese, Korean.
FOREIGN = re.compile(
    r"(?<![a-z\u00c0-\u024f])(?:mots?[ \-]de[ \-]passe|contrase(?:ñ|n)as?"
    r"|claves?[ \t]+de[ \t]+acceso"
    r"|senhas?|palavra[ \-]passe|parola[ \t]+d'ordine|passwort|kennwort|wachtwoord|adgangskode"
    r"|l(?:ö|o)senord|salasana|has(?:ł|l)o|(?:ş|s)ifre(?:si)?|kata[ \t]+sandi"
    r"|m(?:ậ|a)t[ \t]+kh(?:ẩ|a)u"
    r"|парол[ьяи]|пароль|код[ \t]+доступа)(?![a-z\u00c0-\u024f\u0400-\u04ff])"
    r"|(?:wlan|wifi|wi-fi)[ \-]?schl(?:ü|u)ssel|cl(?:é|e)[ \t]+(?:wi-?fi|wpa)"
    r"|clave[ \t]+(?:del[ \t]+)?wi-?fi|パスワード|暗証番号|비밀번호|암호"
)
#: Pieces of those words, looked for before the regex is run (most texts hold none).
_FOREIGN_STEMS_ASCII = (
    "passe", "passw", "contrase", "clave", "senha", "kennw", "wacht", "haslo", "sifre",
)  # fmt: skip


#: The letters of those words outside ASCII: a text holding none needs only the ASCII stems.
_FOREIGN_LETTERS = re.compile("[ñłşẩéöüпдパ暗비암]")


def foreign_label(low: str) -> bool:
    """Whether ``low`` may hold a password word of another language (a look for pieces
    of them: cheaper than the regex, which most texts need not run). Written in ASCII
    only, the words of the most spoken of those languages are looked for."""
    if not low.isascii():
        return _FOREIGN_LETTERS.search(low) is not None or "passe" in low or "passw" in low
    for stem in _FOREIGN_STEMS_ASCII:
        if stem in low:
            return True
    return False


#: ``pass phrase``, ``pass-phrase``: after ``pass``.
_PHRASE = re.compile(r"[ \-]phrase(?![A-Za-z])", re.IGNORECASE)
_LABEL_ANY_CASE = re.compile(LABEL.pattern, re.IGNORECASE)
#: English names of one-time codes: searched apart, in texts holding ``code`` or ``otp``
#: (a group in the alternation above would slow its scan of every text).
_OTP_LABEL_END = re.compile(f"(?:{_OTP_EN})$", re.IGNORECASE)
#: What names a key before ``key`` (``key`` alone is too common a word to be a label).
_KEY_NAME = re.compile(
    r"(?:api|access|secret|private|account|signing|encryption|decryption|app|shared[_ \-]?access"
    r"|licen[cs]e|product|activation|registration|master|client|subscription|consumer|recovery|wi-?fi|wlan"
    r"|wpa2?|wep|network|router|bitlocker|serial|windows|office)[_ \-]?$",
    re.IGNORECASE,
)
#: Words before ``key`` that make it a name in data, not a secret (``primary key``).
_NOT_SECRET_KEY = re.compile(
    r"(?i:primary|foreign|unique|sort|partition|cache|hash|map|dict|object|row|lookup|idempotency"
    r"|composite|natural|surrogate|registry|the main|house|car|room|door|spare|music|piano"
    r"|answer|public|ssh-?rsa)[ _\-]?$"
)
#: Things that lock and open with a code (``the safe``, ``door``, ``保险箱``).
_LOCK = re.compile(
    r"(?i:safe|door|gate|garage|alarm|lock|locker|padlock|keypad|lockbox|vault)(?![a-z])"
    r"|保险箱|保险柜|保險箱|门禁|門禁|密码锁|密碼鎖"
)
_WORD_CODE = re.compile("code", re.IGNORECASE)
#: A parcel's pickup code (``locker pickup code``, like 取件码): made to be shared, no lock's.
_PICKUP = re.compile(r"(?i:pick[ \-]?up|collection|parcel|package|delivery)[ \t\-]*$")
_LOCK_AFTER = re.compile(
    r"[ \t]+(?:to|for|of)[ \t]+(?:the[ \t]+|my[ \t]+|our[ \t]+|your[ \t]+)?[\w \t]{0,16}?(?:"
    + _LOCK.pattern
    + ")"
)
_COMBO = re.compile("combination|combo", re.IGNORECASE)
_CVV = re.compile("cv[vc]2?", re.IGNORECASE)
#: Other names of a card's security code (``CID``, ``CSC``), read as one where a card is
#: talked about (``Exp``, ``card``, ``卡``): elsewhere a CID is a customer's or a call's.
_CARD_CODE = re.compile(r"(?<![A-Za-z])(?:CID|CSC|csc)(?![A-Za-z])")
_CARD_CONTEXT = re.compile(
    r"(?i:card|exp(?:iry|ires|iration)?|valid[ \t]+thru|visa|mastercard|amex)(?![a-z])|卡|有效期"
)
_PIN_CODE = re.compile(r"[ _\-]?(?:code|number|no\.?)(?![A-Za-z])", re.IGNORECASE)
_CJK_CODE = re.compile("[ \t]?(?:码|碼)")

# -- separators ---------------------------------------------------------------------------
_CJK_VERB = (
    r"(?:就|也|还|都|应该|一直|仍然|依然|其实|现在|则|已经|已|被|刚刚|刚|又|均|统一|好像|大概|可能"
    r"|貌似|估计|似乎|应该|解出来|解码出来|解码后|解密出来|解密后|解开后"
    r"|我记得|我記得|记得|記得|我猜|印象中){0,3}"
    r"(?:是|为|為|叫做?|改成了?|改为|改為|换成了?|换为|设为|设成了?|设置为|设置成了?|设定为"
    r"|重置为|重置成了?|修改为|修改成了?|更改为|更改成了?|变成了?|变更为|定为)"
)
STRONG = re.compile(
    r"[ \t]*[\"']?[ \t]*(?::=|=>|->|→|[:=])[ \t]*|[ \t]+-[ \t]+|[ \t]*[—–][ \t]*"
    r"|[ \t]*"
    + _CJK_VERB
    + r"[ \t]*(?:[:=][ \t]*)?(?:(?:那个|这个|那個|這個)[ \t]*(?=[\x21-\x7e]))?"
    r"|[ \t]+(?:is|was)[ \t]*:[ \t]*"
    r"|[ \t]*,[ \t]*(?:我的|我这个|我那个|我这边的?|我家的?)(?:是|为|為)[ \t]*(?:[:=][ \t]*)?"
    r"|[ \t]*,[ \t]*(?:mine|my[ \t]+one|ours)[ \t]+is[ \t]*:?[ \t]*"
    r"|[ \t]*(?:我|我先)?(?:如下|在这里?|在此|发你了?|发给你了?|给你了?|贴这里?|写这里?)"
    r"[ \t]*[:=][ \t]*",
    re.IGNORECASE,
)
WEAK = re.compile(
    r"[ \t]+(?:(?:is|was|has[ \t]+been|had[ \t]+been|got|will[ \t]+be)[ \t]+)?"
    r"(?:changed|set|reset|updated|switched)[ \t]+to[ \t]+"
    r"|[ \t]+(?:is|was|to|will[ \t]+be|est|es|ist|lautet|é|è|era|war|это)[ \t]+"
    r"|[ \t]+(?:is|was)[ \t]*,[ \t]*(?:as[ \t]+(?:always|usual|before)|still|again|now)"
    r"[ \t]*,[ \t]*"
    r"|[ \t]*(?:は|が)[ \t]*"
    r"|[ \t]*[?,][ \t]*(?:it'?s|it[ \t]+is|it[ \t]+was)[ \t]+"
    r"|'s[ \t]+(?:(?:been[ \t]+)?(?:changed|set|reset|updated)[ \t]+to[ \t]+)?",
    re.IGNORECASE,
)
#: ``password for the router is``, ``password for root:``: up to four words between (then
#: perhaps an aside: ``password for the wifi, which the landlord set, is x``).
QUALIFIER = re.compile(
    r"[ \t]+(?:for|of|on|at|to|from|i|we|you|he|she|they|that|which|de|del|du|des|da|do|für"
    r"|von|van|för|для|от)(?:[ \t]+[\w'.@\-]+){1,6}?"
    r"(?=[ \t]*(?:[:=]|->|=>|→)|[ \t]+(?:is|was|est|es|ist|é|era|war)[ \t]"
    r"|[ \t]+(?:is|was)[ \t]*,[ \t]*(?:as[ \t]+(?:always|usual|before)|still|again|now),"
    r"|[ \t]*\([^()\n]{1,48}\)[ \t]*[:=]|[ \t]*,[^,\n]{1,80},[ \t]*(?:is|was)[ \t])",
    re.IGNORECASE,
)
#: A PIN's qualifier then its digits after a space, ending the clause (``atm pin for the
#: travel card 6204, ...``; not ``pin for the 2024 tax return``).
PIN_QUALIFIER = re.compile(
    r"[ \t]+(?:for|of|on)(?:[ \t]+[A-Za-z][\w'.\-]*){1,5}?(?=[ \t]+\d{4,8}[ \t]*(?:$|[\n,.;!?)]))",
    re.IGNORECASE,
)
#: A name's ending that says how the secret is written (``secret_key_base:``,
#: ``token_value=``, ``API_KEY_B64:``): the name still names the secret.
FORM_SUFFIX = re.compile(
    r"[_\-](?i:base|value|b64|base64|hex|raw|str|string)(?=[\"']?[ \t]*[:=])", re.ASCII
)
#: The field a label names (``the password field is x``, ``password 字段是 x``): the
#: field's value is the secret's.
FIELD_WORD = re.compile(
    r"[ \t]*(?:(?i:field)|字段|栏|欄)(?=[ \t]*(?:[:=]|是|为|為|填)|[ \t]+(?i:is|was)[ \t])"
)
#: ``Password (new):``, ``密码（新）：``: a short aside in brackets before the separator;
#: ``the password, and I know this is bad, is x``: one between commas before ``is``;
#: (a longer one in brackets before ``:``: ``pw for the vpn (don't tell IT I sent this): x``);
#: ``Password — yes I'll rotate it — x``: one between dashes (the second one separates).
ASIDE = re.compile(
    r"[ \t]*\([^()\n]{1,24}\)(?=[ \t]*(?:[:=]|is[ \t]|是|为))"
    r"|[ \t]*\([^()\n]{25,48}\)(?=[ \t]*[:=])"
    r"|[ \t]*,[^,\n]{1,80},(?=[ \t]*(?:is|was)[ \t])"
    r"|[ \t]*[—–][^—–\n]{1,64}(?=[—–])",
    re.IGNORECASE,
)
#: ``the PIN, is 8642``, ``密码，是 abc``: a comma before ``is`` or ``是``.
COMMA = re.compile(r"[ \t]*,(?=[ \t]*(?:is|was)[ \t]|[ \t]*[是为為])", re.IGNORECASE)
BARE = re.compile(r"[ \t]+")
#: A value set between commas after its label: ``the password, Tq#lake#77, comes apart``.
APPOSED = re.compile(r"[ \t]*,[ \t]*(?=[^\s,]{6,64},)")
#: (a particle may close the label's clause first: ``wifi 密码啊 88886666``)
BARE_ZH = re.compile(r"[ \t]*(?:[啊呀哈嘛][ \t]*(?=[\x21-\x7e]))?")


#: Words glued before a label that make it name something else than the secret's value
#: (``existingSecret: db-creds``: the name of a Secret; ``hashedPassword``: a hash).
_NAME_OF_ANOTHER = re.compile(
    r"(?<![A-Za-z])(?i:existing|hashed|encrypted|public|publishable)[_\-.]?$"
)


def read_label(text: str, m: re.Match[str]) -> tuple[str, int, bool] | None:
    """The kind of the label word ``m`` (``pw``, ``pin``, ``key``, ``pwzh``, ``keyzh``),
    where its separator starts, and whether it is glued to letters before it
    (``PGPASSWORD``, ``AppSecret``); ``None`` when the word is part of another."""
    word, start, end = m.group().lower(), m.start(), m.end()
    if m.re is FOREIGN:  # mot de passe, contraseña, パスワード: a password's name
        return "pwx", end, False
    if not word.isascii():
        if word in ("安全码", "安全碼"):
            return "cvv", end, False
        if word in _OTP_ZH:
            return "otpzh", end, False
        return ("pwzh" if word in _PASSWORD_ZH else "keyzh"), end, False
    if ascii_letter(text, end):  # passwords, pinned, keyboard, tokens
        return None
    i = start
    while i > 0 and ascii_letter(text, i - 1):
        i -= 1
    if start - i > 12 or _NAME_OF_ANOTHER.search(text, max(0, start - 14), start):
        return None  # existingSecret, hashedPassword: a name or a hash, not the value
    bare_key = word == "key" and not _KEY_NAME.search(text, max(0, start - 24), start)
    if bare_key and (start > i or _NOT_SECRET_KEY.search(text, max(0, start - 16), start)):
        return None  # monkey, hotkey; a primary key, a cache key
    if word in ("pin", "puk"):
        code = _PIN_CODE.match(text, end)
        end = code.end() if code is not None else end
    if word in ("pin", "puk", "pw", "pwd", "psw", "pswd") or word.startswith("pass"):
        code = _CJK_CODE.match(text, end)  # PIN码, PUK码
        end = code.end() if code is not None else end
    if bare_key:
        return "barekey", end, False
    if word in ("combo", "combination"):
        return "combo", end, start > i
    if word.startswith("cv"):
        return "cvv", end, start > i
    if word in ("cid", "csc"):
        return ("cvv", end, False) if start == i else None
    if word == "otp" or word.endswith("code") and not word.startswith("pass"):
        kind = "seccode" if word.startswith("security") else "otp"
    elif word == "pass" and (phrase := _PHRASE.match(text, end)) is not None:
        return "pw", phrase.end(), start > i  # pass phrase: x
    elif word == "pass" and text[i:start].lower() in ("require", "master"):
        return "pw", end, False  # redis: requirepass x
    elif word == "pass":
        if start > i:  # bypass, compass
            return None
        kind = "pass"
    else:
        kind = (
            "pin"
            if word in ("pin", "puk")
            else "key"
            if word in ("secret", "token", "key")
            else "pw"
        )
    glued = start > i and not (word == "key" and _KEY_NAME.search(text, i, start))
    return kind, end, glued


def otp_labels(text: str) -> Iterator[re.Match[str]]:
    """The names of one-time codes in ``text``, found from each ``code`` and ``otp`` back
    (a scan of the whole text for them would cost every text it); a plain ``code`` a
    few words after a lock (``the locker at the gym — code 7316``); a lock's ``combo``."""
    low = text.lower()
    for word, back in (("code", 18), ("otp", 0), ("comb", 0), ("cv", 0), ("cid", 0), ("csc", 0)):
        if word in ("cid", "csc") and (word not in low or _CARD_CONTEXT.search(text) is None):
            continue
        i = low.find(word)
        while i >= 0:
            m = _OTP_LABEL_END.search(text, max(0, i - back), i + len(word))
            if (
                m is None
                and word == "code"
                and (_LOCK.search(text, max(0, i - 32), i) or _LOCK_AFTER.match(text, i + 4))
                and _PICKUP.search(text, max(0, i - 16), i) is None
            ):
                m = _WORD_CODE.match(text, i)
            elif m is None and word == "comb":
                m = _COMBO.match(text, i)
            elif m is None and word == "cv":
                m = _CVV.match(text, i)
            elif m is None and word in ("cid", "csc"):
                m = _CARD_CODE.match(text, i)
            if m is not None and not (
                word == "code" and PARCEL_LOCKER.search(text, max(0, i - 48), i)
            ):
                yield m  # (not a parcel locker's code: a pickup code, made to be shared)
            i = low.find(word, i + len(word))


def label_matches(text: str, low: str) -> list[re.Match[str]]:
    """The label words of ``text`` (:data:`LABEL`), found once for every rule. An ASCII
    text is searched for the ASCII words only: the same matches, found three times as
    fast (the Chinese words slow the regex engine's skip over every position)."""
    if len(low) != len(text):
        return list(_LABEL_ANY_CASE.finditer(text))
    return list((_LABEL_ASCII if low.isascii() else LABEL).finditer(low))
