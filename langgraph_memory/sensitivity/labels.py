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

from langgraph_memory.sensitivity.no_value import (
    DATE,
    LENGTH_UNIT,
    PROSE_WORDS,
    SHELL_CHECK,
    ascii_letter,
    looks_like_credential,
    reads_as_prose,
    rejected,
)

__all__ = ["labelled_secrets", "values"]

# -- labels -------------------------------------------------------------------------------
_PASSWORD_ZH = "密码|密碼|密 码|口令|授权码|授權碼|暗号|暗號"
#: One-time codes: ``验证码：482913``, ``verification code is 482913``, ``OTP: 5531``.
_OTP_ZH = (
    "验证码|驗證碼|校验码|校驗碼|动态码|動態碼|提取码|提取碼"
    "|激活码|激活碼|解锁码|解鎖碼|门禁码|開門碼|开门码|配对码|配對碼|安全码|安全碼"
    "|登录码|登錄碼|登入码|登入碼|登陆码|解压码|解壓碼|撤防码|撤防碼|布防码|布防碼"
    "|注册码|註冊碼|卡密(?![码碼])|验正码|驗正碼"
)
_OTP_EN = (
    r"otp|(?:verification|one[ \-]?time|security|login|sign[ \-]?in|2fa|mfa|auth|door|gate"
    r"|garage|alarm|lock|locker|lockbox|safe|access|entry|entrance|building|keypad|backup"
    r"|recovery|unlock|pairing|activation|registration|licen[cs]e|pickup|pick-up|collection|pass"
    r"|key)[ \-]?code"
)
_KEY_ZH = "密钥|秘钥|密鑰|金鑰|金钥|私钥|私鑰|令牌|權杖|权杖"
#: The word of a label, searched in the lower-cased text (a plain alternation, which
#: the regex engine scans fast: most texts hold none). Compounds (``api key``,
#: ``client secret``, ``access_token``) end in one of these words.
_LABEL_ASCII = re.compile(
    r"pass(?:word|wd|phrase|code)?|pwd|pswd?|pw|psk|mima|pin|puk|secret|token|key"
)
_LABEL = re.compile(_LABEL_ASCII.pattern + "|" + _PASSWORD_ZH + "|" + _KEY_ZH + "|" + _OTP_ZH)
#: The word for a password in other languages (a lexicon built once; searched in the
#: lower-cased text): French, Spanish, Portuguese, Italian, German, Dutch, Nordic, Polish,
#: Turkish, Indonesian, Vietnamese, Russian, Ukrainian, Japanese, Korean.
_FOREIGN = re.compile(
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


def _foreign(low: str) -> bool:
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
_LABEL_ANY_CASE = re.compile(_LABEL.pattern, re.IGNORECASE)
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
    r"|貌似|估计|似乎|应该|解出来|解码出来|解码后|解密出来|解密后|解开后){0,3}"
    r"(?:是|为|為|叫做?|改成了?|改为|改為|换成了?|换为|设为|设成了?|设置为|设置成了?|设定为"
    r"|重置为|重置成了?|修改为|修改成了?|更改为|更改成了?|变成了?|变更为|定为)"
)
_STRONG = re.compile(
    r"[ \t]*[\"']?[ \t]*(?::=|=>|->|→|[:=])[ \t]*|[ \t]+-[ \t]+|[ \t]*[—–][ \t]*"
    r"|[ \t]*"
    + _CJK_VERB
    + r"[ \t]*(?:[:=][ \t]*)?(?:(?:那个|这个|那個|這個)[ \t]*(?=[\x21-\x7e]))?"
    r"|[ \t]+(?:is|was)[ \t]*:[ \t]*"
    r"|[ \t]*,[ \t]*(?:我的|我这个|我那个|我这边的?|我家的?)(?:是|为|為)[ \t]*(?:[:=][ \t]*)?"
    r"|[ \t]*,[ \t]*(?:mine|my[ \t]+one|ours)[ \t]+is[ \t]*:?[ \t]*"
    r"|[ \t]*(?:如下|在这里?|在此|发你了?|发给你了?|给你了?|贴这里?|写这里?)[ \t]*[:=][ \t]*",
    re.IGNORECASE,
)
_WEAK = re.compile(
    r"[ \t]+(?:(?:is|was|has[ \t]+been|had[ \t]+been|got|will[ \t]+be)[ \t]+)?"
    r"(?:changed|set|reset|updated|switched)[ \t]+to[ \t]+"
    r"|[ \t]+(?:is|was|to|will[ \t]+be|est|es|ist|lautet|é|è|era|war|это)[ \t]+"
    r"|[ \t]*(?:は|が)[ \t]*"
    r"|[ \t]*[?,][ \t]*(?:it'?s|it[ \t]+is|it[ \t]+was)[ \t]+"
    r"|'s[ \t]+(?:(?:been[ \t]+)?(?:changed|set|reset|updated)[ \t]+to[ \t]+)?",
    re.IGNORECASE,
)
#: ``password for the router is``, ``password for root:``: up to four words between.
_QUALIFIER = re.compile(
    r"[ \t]+(?:for|of|on|at|to|from|i|we|you|he|she|they|that|which|de|del|du|des|da|do|für"
    r"|von|van|för|для|от)(?:[ \t]+[\w'.@\-]+){1,6}?"
    r"(?=[ \t]*(?:[:=]|->|=>|→)|[ \t]+(?:is|was|est|es|ist|é|era|war)[ \t])",
    re.IGNORECASE,
)
#: A name's ending that says how the secret is written (``secret_key_base:``,
#: ``token_value=``, ``API_KEY_B64:``): the name still names the secret.
_FORM_SUFFIX = re.compile(
    r"[_\-](?i:base|value|b64|base64|hex|raw|str|string)(?=[\"']?[ \t]*[:=])", re.ASCII
)
#: The field a label names (``the password field is x``, ``password 字段是 x``): the
#: field's value is the secret's.
_FIELD_WORD = re.compile(
    r"[ \t]*(?:(?i:field)|字段|栏|欄)(?=[ \t]*(?:[:=]|是|为|為|填)|[ \t]+(?i:is|was)[ \t])"
)
#: ``Password (new):``, ``密码（新）：``: a short aside in brackets before the separator;
#: ``the password, and I know this is bad, is x``: one between commas before ``is``;
#: ``Password — yes I'll rotate it — x``: one between dashes (the second one separates).
_ASIDE = re.compile(
    r"[ \t]*\([^()\n]{1,24}\)(?=[ \t]*(?:[:=]|is[ \t]|是|为))"
    r"|[ \t]*,[^,\n]{1,48},(?=[ \t]*(?:is|was)[ \t])"
    r"|[ \t]*[—–][^—–\n]{1,64}(?=[—–])",
    re.IGNORECASE,
)
#: ``the PIN, is 8642``, ``密码，是 abc``: a comma before ``is`` or ``是``.
_COMMA = re.compile(r"[ \t]*,(?=[ \t]*(?:is|was)[ \t]|[ \t]*[是为為])", re.IGNORECASE)
_BARE = re.compile(r"[ \t]+")
#: A version (``v2.1.3``, ``1.4.0-rc1``).
_VERSION = re.compile(r"[vV]?\d+(?:\.\d+)+[\w.+\-]*")
#: A value set between commas after its label: ``the password, Tq#lake#77, comes apart``.
_APPOSED = re.compile(r"[ \t]*,[ \t]*(?=[^\s,]{6,64},)")
#: (a particle may close the label's clause first: ``wifi 密码啊 88886666``)
_BARE_ZH = re.compile(r"[ \t]*(?:[啊呀哈嘛][ \t]*(?=[\x21-\x7e]))?")

# -- values -------------------------------------------------------------------------------
_QUOTES = {'"': '"', "'": "'", "`": "`", "“": "”", "‘": "’", "「": "」", "『": "』"}
#: A value's characters: printable ASCII, and Latin, Greek and Cyrillic letters
#: (``Pässwort9``, ``пароль2026``); not Chinese (its clause goes on after a value).
_TOKEN = re.compile(r"[\x21-\x7e\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff]{1,200}")
_WORD = re.compile(r"[ \t]+([\x21-\x7e\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff]{1,200})")
_TRAILING = ".,;:)]}>\"'`”’」』"
#: Hedges skipped before the value after a weak separator (``is literally x``).
_HEDGES = frozenset("literally just simply actually basically still now really always".split())
#: Names of hashes and encodings that follow a password word without being its value.
_NOT_BARE = re.compile(
    r"(?i)md5|sha-?\d+|base64|utf-?8|argon2(?:id|i|d)?|pbkdf2|2fa|mfa|v\d+|\d+(?:\.\d+)+"
)


#: A code of digits, perhaps with the keypad's ``#`` or ``*``: ``246810``, ``#2580``.
_CODE_CHARS = re.compile(r"[#*]?[A-Za-z0-9]+(?:-[A-Za-z0-9]+){0,5}[#*]?")
#: A code read out in groups: ``123 456``, ``4821 9930``, ``55 21 90``, ``12 34 56 78``.
_SPLIT_CODE = re.compile(
    r"(?:\d{2,4}(?:[ \t]\d{2,4}){2,3}|\d{3}[ \t]\d{3}|\d{4}[ \t]\d{4}|\d(?:[ \t]\d){3,9})"
    r"(?![\d\w.\-])"
)
#: A key in groups (``XKQ7-99PL-3MZ2``): an activation or licence code.
_GROUPED_KEY = re.compile(r"[A-Z0-9]{3,6}(?:-[A-Z0-9]{3,6}){2,5}")
#: (of capitals only, in three groups of four or more: ``QWERT-ASDFG-ZXCVB``)
_LETTER_KEY = re.compile(r"[A-Z]{4,6}(?:-[A-Z]{4,6}){2,5}")
_DIGITS = re.compile(r"[#*]?\d{4,12}[#*]?")
#: An app password as mail providers give it: four groups of four lower-case letters.
_LETTER_GROUPS = re.compile(r"[a-z]{4}(?:[ \t][a-z]{4}){3}(?![A-Za-z0-9])")


#: A count's unit after a number (``4000 lines``, ``200 ms``): no code.
_UNIT_AFTER = re.compile(
    r"[ \t]*(?i:lines?|ms|seconds?|minutes?|hours?|days?|times?|people|users?|items?|rows?)"
    r"(?![A-Za-z])"
)


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


#: The next ``Name=`` field of a connection string, after ``;``.
_NEXT_FIELD = re.compile(r";[ \t]*[A-Za-z][A-Za-z ]{0,30}=")


def _value(text: str, pos: int, phrase: bool) -> tuple[int, int, bool] | None:
    """The value at ``pos``: ``(start, end, quoted)``."""
    close = _QUOTES.get(text[pos : pos + 1])
    if close is not None:
        end = text.find(close, pos + 1, pos + 202)
        newline = text.find("\n", pos + 1, end) if end > 0 else -1
        if end > pos + 1 and newline < 0:
            return pos + 1, end, True
        pos += 1
    m = _TOKEN.match(text, pos)
    if m is None:
        return None
    end, words = m.end(), 1
    while phrase and words < 8 and text[end - 1] not in ",;.!?:":  # 密码：correct horse
        m = _WORD.match(text, end)
        if m is None:
            break
        end, words = m.end(), words + 1
    raw = text[pos:end].rstrip(_TRAILING)
    if raw[-1:] in ("(", "[") and end < len(text) and not text[end].isascii():
        raw = raw[:-1]  # "Ab12cd34（区分大小写）": the bracket opens the Chinese aside
    elif (
        (bracket := raw.find("(")) >= 4
        and ")" not in raw[bracket:]
        and (shut := text.find(")", end, end + 40)) > 0
        and "\n" not in text[end:shut]
    ):
        raw = raw[:bracket]  # "aHVudGVyMjI=（base64 的）": a bracket opens an aside the token cut
    elif end < len(text) and not text[end].isascii() and (cut := _COMMA_CLAUSE.fullmatch(raw)):
        raw = cut.group(1)  # "551902，30秒内有效": a full-width comma (made ",") ends the code
    return (pos, pos + len(raw), False) if raw else None


#: A code, a comma and the number opening a Chinese clause after it (``551902，30秒内``,
#: its full-width comma made ASCII): no thousands' group (``12,500元`` stays whole).
_COMMA_CLAUSE = re.compile(r"(\d{4,8}),(?!\d{3}$)\d{1,6}")


#: A line break, perhaps ``\r\n``, perhaps with one blank line after it.
_NEWLINE = re.compile(r"[ \t]*\r?\n(?:[ \t]*\r?\n)?")


def _next_line(text: str, sep: re.Match[str]) -> tuple[int, int, bool] | None:
    """A value alone on the line after ``password:`` (a form, a YAML or ``.netrc`` block)."""
    if not sep.group().rstrip().endswith(":"):
        return None
    newline = _NEWLINE.match(text, sep.end())
    if newline is None:
        return None
    start = newline.end()
    end = text.find("\n", start)
    end = len(text) if end < 0 else end
    line = text[start:end].strip(" \t")
    if not line or not _TOKEN.fullmatch(line) or len(line) > 128 or line.endswith(":"):
        return None  # (a key opening a block below: "Secret:\ndata:")
    a = text.index(line, start)
    return a, a + len(line), False


#: A value of Chinese characters after ``口令：`` or ``密码：``: the end of the clause.
_CJK_RUN = re.compile(r"[\u4e00-\u9fff]{2,12}(?=$|[\s,.;!?()\]，。；！？、（）【】…])")
_CJK_MIXED = re.compile(
    r"[\u4e00-\u9fff]{1,8}(?=[A-Za-z]*\d{2})[A-Za-z0-9!@#$%^&*._\-]{2,24}"
    r"(?=$|[\s,.;!?)\]，。；！？、）】…(（])"
)
#: Chinese that reads as prose or a rule, not as a value (``见附件``, ``请查看短信``,
#: ``至少 8 位``, ``你的生日``, ``错误``).
_CJK_PROSE = re.compile(
    "[见請请无空未已同与和为是在用由需不没暂略详参按默忘错正输设修重改找丢保至长包含你我他她它这那"
    "什多几怎哪如可要会能该必得被把给让使对啥谁]|的|吗|呢|了|么|码|位|次"
)
#: Words describing a password rather than giving it (``公司名称``, ``生日加姓名``,
#: ``手机后四位``, ``什么来着``): a Chinese run holding one is no passphrase.
_CJK_DESCRIBES = re.compile(
    "不知|不记|不清|不告|不能|不要|不用|没有|生日|出生|手机|手機|电话|電話|身份|名称|名稱|名字|姓名"
    "|缩写|拼音|全拼|首字母|年份|账号|帳號|用户|工号|学号|邮箱|密码|口令|默认|初始|统一|多少|几位"
    "|联系|管理员|附件|短信|前台|服务员|服務員|客服|房东|房東|物业|物業|老板|老闆|保安|店员|店員"
)
#: What an idiom's or a verse's length of Chinese cannot hold and be a passphrase:
#: pronouns, particles, requests.
_CJK_NOT_VERSE = re.compile(
    "[你我他她它您这那哪啥谁么吗呢吧了的得请請见見详参按忘错設设改找丢无無空未已位码碼号號同样跟]"
)


#: A phrase of place or state, which says where a password is or that there is none yet
#: (a direction, not a passphrase): a verb of putting then ``在``/``到`` and its place
#: (``写在纸上``, ``记在心里``), ``在`` and a place ending in a localiser (``在抽屉里面``),
#: or "not yet" (``还没想好``, ``未定``).
_CJK_DIRECTION = re.compile(
    "^[写贴放藏记存挂夹压锁留抄印刻标粘钉插收][在到于]"
    "|^[在于].*(?:[上下里内外中边旁后前底]|[里外背后前上下底侧]面|[旁这那]边|头)$"
    "|^[还尚仍暂]?[没未]"
)
#: A Chinese run that says whom to ask or where it is to be had (``问老王``, ``扫码获取``,
#: ``群里有``): an instruction, no passphrase (unless it has a verse's length and words).
_CJK_ASK = re.compile("^(?:[问問找扫掃]|咨询|諮詢|联系|聯繫|打给|打電話|打电话|私信|私聊)|有$")


#: A slogan of love for something (``我爱北京天安门``, ``我爱你中国``): a common password
#: though it opens with ``我``; not one saying whose something it is (``我爱人的生日``).
_SLOGAN = re.compile("我爱[\u4e00-\u9fff]{1,8}")
_SLOGAN_NOT = re.compile("[的了吗呢吧啊么]|爱人|爱好")


def _verse(run: str) -> bool:
    """Whether a Chinese run has an idiom's or a verse's length (4, 5 or 7 characters:
    ``山高水长``, ``春眠不觉晓``) and nothing that reads as prose about a password; such a
    run is a passphrase though its characters be common words (``长``, ``不``). A phrase
    of place or state (``写在纸上``, ``在抽屉里面``, ``还没想好``) is a direction, no verse.

    Example:
        >>> [_verse(run) for run in ("山高水长", "春眠不觉晓", "在天愿作比翼鸟")]
        [True, True, True]
        >>> [_verse(run) for run in ("写在纸上", "在抽屉里面", "还没想好", "贴在路由器背面")]
        [False, False, False, False]
    """
    return (
        len(run) in (4, 5, 7)
        and _CJK_NOT_VERSE.search(run) is None
        and _CJK_DIRECTION.search(run) is None
    )


def _cjk_value(text: str, pos: int, kind: str, sep: str) -> tuple[int, int, bool] | None:
    """A passphrase in Chinese characters (``口令：天王盖地虎``) after a Chinese password
    label and ``:`` (or after ``口令`` and ``是``), unless it reads as prose."""
    if kind != "pwzh" or not (
        ":" in sep or "是" in sep or "口令" in text[max(0, pos - len(sep) - 2) : pos]
    ):
        return None
    mixed = _CJK_MIXED.match(text, pos)
    if mixed is not None:  # 我爱你1314: Chinese and digits, a value whatever the words
        return mixed.start(), mixed.end(), False
    m = _CJK_RUN.match(text, pos)
    if m is None or _CJK_DESCRIBES.search(m.group()):
        return None
    if _CJK_ASK.search(m.group()) and not _verse(m.group()):
        return None  # 密码：问前台
    if text.startswith("(", m.end()) and _CORRECTION.search(text, m.end(), m.end() + 24):
        return None  # 口令：芝麻开门（说笑的，其实是 x）: the aside sets it right
    if _SLOGAN.fullmatch(m.group()) and _SLOGAN_NOT.search(m.group()) is None:
        return m.start(), m.end(), False  # 我爱北京天安门: a slogan said as a password
    if (_CJK_PROSE.match(m.group()) or _CJK_PROSE.search(m.group(), 1)) and not _verse(m.group()):
        return None
    return m.start(), m.end(), False


#: Words for a phrase said to be let in (``暗号``, ``口令``): a phrase may follow them
#: without a separator, up to the clause's end or a ``就`` (``暗号蓝色雨伞就把东西给他``).
_COUNTERSIGN = frozenset(("暗号", "暗號", "口令"))
#: A predicate's first character: a verb or an adverb saying something of the word.
_PREDICATE = re.compile(
    "[听聽看说說记記忘太很好真也都又还還已被要会會能可得不没沒错錯对對是有在用]"
)
_COUNTERSIGN_RUN = re.compile(r"[\u4e00-\u9fff]{4,8}?(?=[就便才]|[,.;!?\s，。；！？]|$)")


def _countersign(text: str, pos: int) -> tuple[int, int, bool] | None:
    """A phrase right after a countersign's word, when it reads as one (see
    :func:`_cjk_value`): ``暗号天王盖地虎，...``, not ``暗号对上了就行``."""
    m = _COUNTERSIGN_RUN.match(text, pos)
    if m is None or not _verse(m.group()) or _PREDICATE.match(m.group()):
        return None  # 口令听起来怪: what is said of it
    if _CJK_DESCRIBES.search(m.group()) or _CJK_ASK.search(m.group()):
        return None
    if (_CJK_PROSE.match(m.group()) or _CJK_PROSE.search(m.group(), 1)) and not _verse(m.group()):
        return None
    return m.start(), m.end(), False


_BAREKEY_SEP = re.compile(r"[ \t]*(?:[:=]|(?:is|was)[ \t]|是|为|為)", re.IGNORECASE)
_KEY_CHARS = re.compile(r"[A-Za-z0-9+/=_.\-]+")
_COMBINATION = re.compile(r"\d{1,3}(?:[-–/]\d{1,3}){2,4}|\d{1,3}(?:[ \t]\d{1,3}){2,4}|\d{3,8}")
#: A combination's dials read out with spaces: ``12 34 56``, ``7 22 3``.
_SPACED_COMBINATION = re.compile(r"\d{1,3}(?:[ \t]\d{1,3}){2,4}(?![\d\w.\-])")
_DASHED_COMBINATION = re.compile(r"\d{1,3}(?:[-–]\d{1,3}){2,4}")
#: Words joined by a symbol, a capital among them (``ChinaNet-abcd``, ``Home_Guest``):
#: after a Chinese password word and a space, a value (a password is often its network's
#: name); not ``see-below``.
_JOINED_WORDS = re.compile(r"(?=.{6})[A-Za-z]+(?:[\-_.@!#][A-Za-z]+)+")


#: A key or secret as many services issue it: 32 to 64 hex digits, letters among them
#: (not a number); after a key label and a space, that key (not a commit's short SHA).
_HEX_SECRET = re.compile(r"(?=[0-9]*[a-fA-F])(?=[a-fA-F]*[0-9])(?:[0-9a-f]{32,64}|[0-9A-F]{32,64})")
_BARE_HEX = re.compile(r"[ \t]+" + _HEX_SECRET.pattern + r"(?![A-Za-z0-9_\-])")


def _random_letters(value: str) -> bool:
    """Whether ``value`` is a run of 12 or more lower-case letters drawn at random (an app
    password or an authorisation code: ``jkdlwpqmzhxnbvcr``), not a word: 10 different
    letters or more, and few vowels."""
    if not (12 <= len(value) <= 32 and value.isascii() and value.isalpha() and value.islower()):
        return False
    vowels = sum(value.count(v) for v in "aeiou")
    return len(set(value)) >= 10 and vowels * 4 < len(value)


def _accept(kind: str, sep: str, value: str, quoted: bool) -> bool:
    """Whether ``value`` could be the secret a ``kind`` label names after ``sep``."""
    digit = any(c.isdigit() for c in value)
    if sep == "apposed":  # between commas: a credential's shape only (not "email, name,")
        return (
            kind in ("pw", "pwzh")
            and digit
            and not value.isalnum()
            and len(value) >= 6
            and _VERSION.fullmatch(value) is None
        )
    if kind == "pin":
        plain = value.replace(" ", "").replace("\t", "")
        return plain.isdigit() and 4 <= len(plain) <= 8
    if kind == "cvv":  # a card's security code: 3 or 4 digits
        return value.isdigit() and 3 <= len(value) <= 4
    if kind == "combo":  # a lock's combination: 12-07-33, 0427
        return bool(_COMBINATION.fullmatch(value))
    if kind in ("pwzh", "pw") and _SPLIT_CODE.fullmatch(value) and " " in value:
        return 4 <= len(value.replace(" ", "")) <= 12
    if kind in ("pw", "pwzh", "pwx") and _DASHED_COMBINATION.fullmatch(value):
        return True  # 保险柜密码 18-27-09, locker password 3-9-1
    if kind == "pwx":  # another language's word: its prose is not known, so after a
        # copula or a space only a value that mixes letters and digits (or digits alone),
        # after ":" one that looks like a credential (not "clé WiFi : voir le routeur")
        if sep in ("weak", "bare"):
            return (4 <= len(value) <= 12 and value.isdigit()) or (
                len(value) >= 5 and digit and any(c.isalpha() for c in value)
            )
        return len(value) >= 4 and (quoted or looks_like_credential(value))
    if kind == "barekey":  # "the key is Xk29-LLp0-QQ71": only what could be nothing else
        letters = any(c.isalpha() for c in value)
        if sep == "bare":  # "the key 9c1d...": 32 hex digits or more only
            return _HEX_SECRET.fullmatch(value) is not None
        return (
            _KEY_CHARS.fullmatch(value) is not None
            and len(value) >= 8
            and digit
            and letters
            and not _NOT_BARE.match(value)
            and (not value.isalnum() or not value[1:].islower() or len(value) >= 16)
        )
    if kind == "pass":  # "pass" is a word too: after ":" or "=", a credential-like value
        if sep == "weak":  # "the hotel wifi pass is lobby5521" (not "the pass is valid")
            return len(value) >= 6 and digit and any(c.isalpha() for c in value)
        return sep in ("strong", "assign") and len(value) >= 4 and looks_like_credential(value)
    if kind == "seccode" and value.isdigit() and len(value) == 3:
        return True  # "security code on the back is 271": a card's
    if kind in ("otp", "otpzh", "seccode"):  # a one-time code: 4 to 10 letters and digits
        if _DASHED_COMBINATION.fullmatch(value):
            return True  # "the code for the padlock: 3-3-7"
        plain = value.replace("-", "").replace(" ", "").strip("#*")  # G-4829, 5-2-1107, #2580
        if _GROUPED_KEY.fullmatch(value):  # a licence's groups may be letters only
            return digit or _LETTER_KEY.fullmatch(value) is not None
        return digit and plain.isalnum() and value.isascii() and 4 <= len(plain) <= 10
    if sep == "bare":
        if _NOT_BARE.fullmatch(value):
            return False
        letters = any(c.isalpha() for c in value)
        if kind == "pwzh" and _JOINED_WORDS.fullmatch(value) and not value.islower():
            return True  # "WiFi密码 ChinaNet-abcd": words joined as a network's name is
        if _random_letters(value):
            return kind in ("pwzh", "keyzh", "pw")  # 邮箱授权码 jkdlwpqmzhxnbvcr
        if kind in ("key", "keyzh") and _HEX_SECRET.fullmatch(value):
            return True  # "AppSecret 9c1d...": a key label, then a key of 32 hex digits
        if kind in ("pwzh", "keyzh"):
            return bool(_DIGITS.fullmatch(value)) or (digit and letters and len(value) >= 4)
        if kind == "pw" and value.isdigit():  # passcode 4821
            return 4 <= len(value) <= 12
        return kind == "pw" and digit and letters and len(value) >= 5
    if kind == "key":  # an English key or token label: it must look like one
        if sep == "weak":
            return len(value) >= 8 and digit and any(c.isalpha() for c in value)
        code = quoted or sep == "assign"  # token="abc", SECRET=abc: code or config
        return len(value) >= 3 and (code or looks_like_credential(value))
    if len(value) < 3:
        return False
    if sep == "weak" and value.rstrip("!?").isalpha():
        return not reads_as_prose(value.rstrip("!?").lower())
    return True


def _label(text: str, m: re.Match[str]) -> tuple[str, int, bool] | None:
    """The kind of the label word ``m`` (``pw``, ``pin``, ``key``, ``pwzh``, ``keyzh``),
    where its separator starts, and whether it is glued to letters before it
    (``PGPASSWORD``, ``AppSecret``); ``None`` when the word is part of another."""
    word, start, end = m.group().lower(), m.start(), m.end()
    if m.re is _FOREIGN:  # mot de passe, contraseña, パスワード: a password's name
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
    if start - i > 12:
        return None
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


def _alone(text: str, start: int, end: int, kind: str = "pw") -> tuple[int, int, str] | None:
    """A label alone on its line (``Password``, ``WiFi 密码``, ``PIN``) and a credential
    alone on the next one (a code of digits after a code's name): that value."""
    head = text[text.rfind("\n", 0, start) + 1 : start]
    if len(head) > 16 or len(head.split()) > 2:
        return None
    newline = _NEWLINE.match(text, end)
    a = newline.end() if newline is not None else end + 1
    b = text.find("\n", a)
    b = len(text) if b < 0 else b
    value = text[a:b].strip()
    if kind in ("pin", "otp", "otpzh", "cvv", "seccode") and _DIGITS.fullmatch(value):
        if rejected(value, ":", text, text.index(value, a) + len(value)):
            return None
        a = text.index(value, a)
        return a, a + len(value), "keyword"
    if not value or not _TOKEN.fullmatch(value) or len(value) < 6 or len(value) > 64:
        return None
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


def _otp_labels(text: str) -> Iterator[re.Match[str]]:
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
            ):
                m = _WORD_CODE.match(text, i)
            elif m is None and word == "comb":
                m = _COMBO.match(text, i)
            elif m is None and word == "cv":
                m = _CVV.match(text, i)
            elif m is None and word in ("cid", "csc"):
                m = _CARD_CODE.match(text, i)
            if m is not None:
                yield m
            i = low.find(word, i + len(word))


def _label_words(text: str, low: str) -> list[re.Match[str]]:
    """The label words of ``text`` (:data:`_LABEL`), found once for every rule. An ASCII
    text is searched for the ASCII words only: the same matches, found three times as
    fast (the Chinese words slow the regex engine's skip over every position)."""
    if len(low) != len(text):
        return list(_LABEL_ANY_CASE.finditer(text))
    return list((_LABEL_ASCII if low.isascii() else _LABEL).finditer(low))


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
        words = sorted([*words, *_otp_labels(text)], key=_start)
    foreign = list(_FOREIGN.finditer(low)) if len(low) == len(text) and _foreign(low) else []
    if foreign:
        words = sorted([*words, *foreign], key=_start)
    correct: bool | None = None  # whether the text sets a value right: asked once
    for m in words:
        label = _label(text, m)
        if label is None:
            continue
        kind, pos, glued = label
        if correct is None:
            correct = _may_correct(text, low)
        if correct and (fixed := _corrected(text, m.end())) is not None:
            yield fixed
        if kind == "barekey" and _BAREKEY_SEP.match(text, pos) is None:
            if _BARE_HEX.match(text, pos) is None:
                continue  # "the key is x", "key: x" only (a plain "key" is mostly prose or code)
        elif kind == "barekey" and _NETWORK.search(text, max(0, m.start() - 48), m.start()):
            kind = "pw"  # "wifi at grandma's: network TP-LINK_8F2A, key is x": its Wi-Fi key
        if glued and kind == "pin":
            continue
        if not kind.endswith("zh"):
            q = _QUALIFIER.match(text, pos) or _FORM_SUFFIX.match(text, pos)
            if q is not None:
                pos = q.end()
        for skip in (_FIELD_WORD, _ASIDE, _COMMA):
            q = skip.match(text, pos)
            if q is not None:
                pos = q.end()
        if text.startswith(("\n", "\r\n"), pos) and not glued:  # "密码" alone, value below
            alone = _alone(text, m.start(), pos, kind)
            if alone is not None:
                yield alone
            continue
        sep = "strong"
        s = _STRONG.match(text, pos)
        if s is not None and s.group().rstrip().endswith("="):
            sep = "assign"
        if s is None and not glued and (s := _APPOSED.match(text, pos)) is not None:
            sep = "apposed"
        bare = not glued or _BARE_HEX.match(text, pos) is not None
        if s is None and (bare or _camel(text, m.start())):
            # PGPASSWORD=x, AppSecret 是 x: a strong one only, or a space before hex digits;
            # a name in camel case is a label before "is" too (AppSecret is x, dbPassword was x)
            s, sep = _WEAK.match(text, pos), "weak"
            if s is None and bare:
                s, sep = (_BARE_ZH if kind.endswith("zh") else _BARE).match(text, pos), "bare"
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
        found = _value(text, s.end(), phrase)
        if found is None and sep != "weak" and sep != "bare":
            found = _next_line(text, s) or _cjk_value(text, s.end(), kind, s.group())
        elif found is None and sep == "bare" and m.group() in _COUNTERSIGN:
            found, sep = _countersign(text, s.end()), "strong"  # 暗号蓝色雨伞就给他
        if found is None:
            continue
        a, b, quoted = found
        if kind == "combo" and not quoted and (dials := _SPACED_COMBINATION.match(text, a)):
            b = dials.end()  # the safe combo is 12 34 56
        elif kind in ("pin", "otp", "otpzh", "cvv", "seccode") and not quoted:  # ends at a digit
            code = _CODE_CHARS.match(text, a, b)
            b = code.end() if code is not None else a
            split = _SPLIT_CODE.match(text, a)
            if split is not None:  # 2FA: 123 456; PIN: 7 3 9 1
                b = split.end()
        elif kind in ("pwzh", "pw") and not quoted and text[a:b].isdigit():
            split = _SPLIT_CODE.match(text, a)  # 取款密码 661 233
            if split is not None and sep != "weak":
                b = split.end()
        elif kind in ("pwzh", "pw") and not quoted and (group := _LETTER_GROUPS.match(text, a)):
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
            continue  # what _accept would refuse: spare rejected the look
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
                and not any(w.strip(_TRAILING).lower() in PROSE_WORDS for w in rest_words)
            ) or (not value.isalnum() and _KEY_PIECE.fullmatch(rest_words[0])):
                # password is: tomato soup 99; Password : p@ss w0rd with spaces (a value
                # of symbols, then a word mixing letters and digits: words to the line's end)
                b = rest.end()
                value = text[a:b]
        hedges = 0
        while sep == "weak" and value.lower() in _HEDGES and hedges < 2:  # "is literally x"
            w = _WORD.match(text, b)
            if w is None:
                break
            a, b = w.start(1), w.start(1) + len(w.group(1).rstrip(_TRAILING))
            value, hedges = text[a:b], hedges + 1
        if value.lower() in _HEDGES:
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
        if _accept(kind, sep, value, quoted):
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


# -- markup ---------------------------------------------------------------------------------
#: A name of a secret inside a markup name (``SmtpPassword``, ``api_key``, ``client-secret``).
_MARKUP_NAME = re.compile(
    r"pass(?:word|wd|phrase|code)|pwd|secret|token|api[_\-]?key|access[_\-]?key"
    r"|private[_\-]?key|credential",
    re.IGNORECASE,
)
_MARKUP_MEASURE = re.compile(
    r"count|length|len|max|min|size|type|expir|ttl|url|uri|file|path", re.I
)
#: ``<password>x</password>`` and ``<add key="SmtpPassword" value="x" />``.
_ELEMENT = re.compile(
    r"<(?P<name>[A-Za-z_][\w.\-:]{0,40})(?:[ \t][^<>\n]{0,80})?>"
    r"(?P<value>[^<>\n]{1,200})</(?P=name)>"
)
_KEY_VALUE = re.compile(
    r"(?<![\w\-])(?:key|name)[ \t]*=[ \t]*(?P<q>[\"'])(?P<name>[^\"'<>\n]{1,60})(?P=q)[ \t]+"
    r"value[ \t]*=[ \t]*(?P<q2>[\"'])(?P<value>[^\"'\n]{1,200})(?P=q2)"
)


def _markup(text: str) -> Iterator[tuple[int, int, str]]:
    """Values of XML elements and ``key=/value=`` attribute pairs whose name names a
    secret (configuration files: ``web.config``, Maven ``settings.xml``, ``.plist``)."""
    if "<" not in text and "value" not in text:
        return
    for pattern in (_ELEMENT, _KEY_VALUE):
        for m in pattern.finditer(text):
            name = m.group("name")
            if not _MARKUP_NAME.search(name) or _MARKUP_MEASURE.search(name):
                continue
            a, b = m.span("value")
            raw = text[a:b]
            a += len(raw) - len(raw.lstrip())
            b -= len(raw) - len(raw.rstrip())
            value = text[a:b]
            if value and not rejected(value, "=", text, b) and _accept("pw", "assign", value, True):
                yield a, b, "markup"


# -- command lines ----------------------------------------------------------------------------
#: ``curl -u user:PASSWORD``, ``--user user:PASSWORD``; ``mysql ... -pPASSWORD``,
#: ``sshpass -p PASSWORD``.
_CLI_USER = re.compile(
    r"-(?<![^ \t]-)(?:u|-user)[ \t=]+[\"']?[^\s:\"']{1,64}:(?P<value>[^\s\"']{1,128})"
)
_CLI_P = re.compile(
    r"\b(?:mysql\w*|mariadb\w*)\b[^\n]{0,80}?[ \t]-p(?P<value>[^\s\"'-][^\s\"']{2,127})"
    r"|\bsshpass[ \t]+-p[ \t]*(?:(?P<q>[\"'])(?P<quoted>[^\"'\n]{3,128})(?P=q)"
    r"|(?P<value2>[^\s\"'-][^\s\"']{2,127}))"
    r"|\bredis-(?:cli|benchmark)\b[^\n]{0,80}?[ \t]-a[ \t]+(?P<value3>[^\s\"'-][^\s\"']{2,127})"
)
#: ``docker login -u USER -p PASS`` (podman, helm registry...: a user, then its password),
#: ``--password=PASS``, ``--passwd PASS``, ``--db-password PASS``.
_CLI_LOGIN = re.compile(
    r"\b(?:login|mongo|mongosh|rabbitmqadmin)\b[^\n]{0,40}?"
    r"(?<![^ \t])(?:-u[ \t]+|--user(?:name)?[ \t=]+)"
    r"[^\s\"'-][^\s\"']{0,63}[ \t]+-p[ \t]+"
    r"(?P<value>[^\s\"'$-][^\s\"']{2,127})"
)
#: An archive's password on the command line: ``zip -P x``, ``unzip -P x``, ``7z a -px``,
#: ``unrar x f.rar -px``, ``rar a -hpx`` (``-p-``: no password; ``-p`` alone: asked for).
_CLI_ARCHIVE = re.compile(
    r"(?<![\w\-.])(?:zip|unzip|zipcloak|7z|7za|7zz|7zr|rar|unrar|winrar)(?:\.exe)?[ \t]"
    r"[^\n]{0,120}?(?<![^ \t])(?:-P[ \t]+(?P<spaced>[^\s\"'$-][^\s\"']{2,127})"
    r"|-h?p(?P<glued>[^\s\"'$-][^\s\"']{2,127}))"
)
#: HTTPie's credentials: ``http -a user:x GET ...``, ``https --auth user:x``.
_CLI_AUTH = re.compile(
    r"(?<![\w\-.])(?:http|https|xh|xhs)[ \t][^\n]{0,80}?(?<![^ \t])(?:-a|--auth)[ \t=]+[\"']?"
    r"[^\s:\"']{1,64}:(?P<value>[^\s\"']{1,128})"
)
_CLI_PASSWORD = re.compile(
    r"(?<![^ \t])--(?:[a-z]+-)?pass(?:word|wd)?(?:[ \t]+|=)(?P<q>[\"']?)"
    r"(?P<value>[^\s\"'$-][^\s\"']{2,127})(?P=q)"
)


#: ``htpasswd -b .htpasswd admin x``, ``htpasswd -nbB admin x`` (``-n``: no file).
_CLI_HTPASSWD = re.compile(
    r"(?<![\w\-.])htpasswd[ \t]+-(?P<flags>[A-Za-z]{1,6})[ \t]+(?P<args>\S+(?:[ \t]+\S+){1,2})"
)
_ARG = re.compile(r"\S+")
#: SQL setting a user's password: ``ALTER USER 'app'@'%' IDENTIFIED BY 'x'``, ``CREATE
#: USER u IDENTIFIED WITH mysql_native_password BY 'x'``.
_SQL_IDENTIFIED = re.compile(
    r"(?i:identified)[ \t]+(?:(?i:with)[ \t]+\w+[ \t]+)?(?i:by)[ \t]+"
    r"(?:(?i:password)[ \t]*\(?[ \t]*)?(?P<q>['\"])(?P<value>[^'\"\n]{1,128})(?P=q)"
)


def _command_lines(text: str) -> Iterator[tuple[int, int, str]]:
    """Passwords given to a command line's options (see the patterns above) and set by
    SQL (``IDENTIFIED BY 'x'``)."""
    if "dentified" in text or "DENTIFIED" in text:
        for m in _SQL_IDENTIFIED.finditer(text):
            a, b = m.span("value")
            if not rejected(text[a:b], "=", text, b):
                yield a, b, "keyword"
    if "-" not in text:
        return  # every option below is written with a dash
    if "htpasswd" in text:
        for m in _CLI_HTPASSWD.finditer(text):
            args = list(_ARG.finditer(text, m.start("args"), m.end("args")))
            place = 1 if "n" in m.group("flags") else 2  # -n: a user then a password
            if "b" not in m.group("flags") or len(args) <= place:
                continue  # without -b the password is asked for
            a, b = args[place].span()
            if not rejected(text[a:b], "=", text, b):
                yield a, b, "keyword"
    if " -u" in text or "--user" in text:
        for m in _CLI_USER.finditer(text):
            a, b = m.span("value")
            if not rejected(text[a:b], "=", text, b):
                yield a, b, "keyword"
    if (" -p" in text and ("mysql" in text or "mariadb" in text or "sshpass" in text)) or (
        " -a " in text and "redis-" in text
    ):
        for m in _CLI_P.finditer(text):
            group = next(g for g in ("value", "value2", "value3", "quoted") if m.group(g))
            a, b = m.span(group)
            if not rejected(text[a:b], "=", text, b):
                yield a, b, "keyword"
    if "-p" in text or "-P" in text or "-hp" in text:
        for m in (
            _CLI_ARCHIVE.finditer(text)
            if ("zip " in text or "7z" in text or "rar " in text or ".exe " in text)
            else ()
        ):
            group = "spaced" if m.group("spaced") else "glued"
            a, b = m.span(group)
            if not rejected(text[a:b], "=", text, b):
                yield a, b, "keyword"
    if (" -a" in text or "--auth" in text) and ("http" in text or "xh" in text):
        for m in _CLI_AUTH.finditer(text):
            a, b = m.span("value")
            if not rejected(text[a:b], "=", text, b):
                yield a, b, "keyword"
    more = [_CLI_LOGIN] if " -p " in text and ("login" in text or "mongo" in text) else []
    if "-pass" in text:
        more.append(_CLI_PASSWORD)
    for pattern in more:
        for m in pattern.finditer(text):
            a, b = m.span("value")
            b = a + len(text[a:b].rstrip(_TRAILING))  # --password=PASS, in a sentence
            value = text[a:b]
            if value and not (value.isalpha() and value.isupper()) and not value.isdigit():
                # not --password PASS; not a port (-u root -p 5432)
                if not rejected(value, "=", text, b):
                    yield a, b, "keyword"


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
    r"[^\s/:\"'`，。]{1,40}[ \t]*/[ \t]*(?P<value>[^\s/\"'`，。；]{4,64})"
)
#: ``口令：芝麻开门（说笑的，其实是 zmkm2026）``: a label's value set right; ``密码改了，新的
#: x，...``: a clause opening with 新的 and an ASCII value ending at a boundary.
_CORRECTION = re.compile(
    r"(?:其实是|实际上是|實際上是|其實是|不对[,，]?是|不對[,，]?是|应该是|應該是"
    r"|(?<![A-Za-z])(?i:actually,?[ \t]+it'?s|actually|i[ \t]+mean|sorry,?[ \t]+it'?s"
    r"|(?:the[ \t]+)?new[ \t]+one(?:[ \t]+is|[ \t]*[:=]|[ \t]+will[ \t]+be)"
    r"|(?:the[ \t]+)?(?:actual|real|correct|right|proper)[ \t]+one(?:[ \t]+(?:is|was)|[ \t]*[:=]))"
    r"|新的是|新的为|新的:|正确的是|正確的是|真正的是|对的是|對的是"
    r"|(?<=[,; \t])新的(?=[ \t]*[A-Za-z0-9][\x21-\x7e]*(?:[\s,;.!?)]|$))"
    r"|(?:我|又|已经|已經)?(?:改成|改为|改為|换成|換成)了?)[ \t]*"
)


#: A wallet's recovery phrase: 12 to 24 lower-case words after its name.
_SEED = re.compile(
    r"(?i:(?:recovery|seed|mnemonic|backup|secret|wallet)[ \-]?phrase|mnemonic)"
    r"[^\n:=\"']{0,24}?(?:[ \t]*[:=]|[ \t]+(?:is|was))[ \t]*[\"'“]?"
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
#: What a code is for when it opens nothing (``the code for the discount``): no secret.
_NOT_OPENED = re.compile(
    r"(?i:(?:.*[ \t\-])?(?:discount|promo|coupon|voucher|referral|invite|invitation|zip|area"
    r"|error|status|country|product|course|class|tracking|order|event|dress|exercise|project|task"
    r"|bug|function|program|script|app|test|challenge|question|problem|source|qr|bar|morse|color"
    r"|colour|tax|sort|swift|bank|branch|module|exit|return|response|http"
    r"|airport|station|city|language|style|naming|cheat|house|version|build|release|year|item"
    r"|postal|region|currency|part|model|sku|batch|lot|serial))"
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
        for i in _occurrences(text, "("):  # 482913（动态码）: read before each bracket
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
            if (
                LENGTH_UNIT.match(text, m.end()) is None
                and _UNIT_AFTER.match(text, m.end()) is None
            ):
                yield m.start("value"), m.end("value"), "keyword"


def _phrases(
    text: str, low: str, digits: bool = True, labelled: bool = True
) -> Iterator[tuple[int, int, str]]:
    """Recovery phrases, codes written before their name, and ``name:``/``value:`` pairs
    naming a secret (``low``: the text in lower case; ``labelled``: whether it holds a
    label word)."""
    if "phrase" in low or "mnemonic" in low:
        for m in _SEED.finditer(text):
            yield m.start("value"), m.end("value"), "passphrase"
    if " your " in low and (" code" in low or " otp" in low or " pin" in low or "passc" in low):
        for m in _CODE_FIRST.finditer(text):
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
            if _MARKUP_NAME.search(m.group("name")) and not _MARKUP_MEASURE.search(m.group("name")):
                if not rejected(value, "=", text, b) and _accept("pw", "assign", value, True):
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
    a, b, word = _trimmed(value, text)
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
        a, b, value = _trimmed(m, text, "value" if m.group("value") else "zh")
        if (
            len(value) >= 6
            and (
                any(c.isdigit() for c in value)
                and any(c.isalpha() for c in value)
                or _JOINED_WORDS.fullmatch(value) is not None
                or _mixed(value)
            )
            and not rejected(value, ":", text, b)
        ):
            yield a, b, "keyword"


def _pairs(text: str, low: str) -> Iterator[tuple[int, int, str]]:
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
            a, b, value = _trimmed(m, text)
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
            a, b, value = _trimmed(m, text)
            if (
                any(c.isalpha() for c in value)
                and (any(c.isdigit() for c in value) or not value.isalnum())
                and not rejected(value, ":", text, b)
            ):
                yield a, b, "keyword"
    if "/" in text and _DEVICE.search(low):
        for m in _ADMIN_PAIR.finditer(text):
            a, b, value = _trimmed(m, text)
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
#: A device with an admin console (its login: ``router: admin/Netgear_Home1``).
_DEVICE = re.compile(
    r"(?<![a-z])(?:router|modem|nas|gateway|camera|nvr|dvr|printer|firewall|idrac|ilo|ipmi"
    r"|switch|access point)(?![a-z])|路由|光猫|摄像头|交换机|防火墙"
)
#: An administrator's name and a password after ``/``: ``admin/x``, ``root / x``.
_ADMIN_PAIR = re.compile(
    r"(?<![\w\-./@])(?P<user>(?i:admin|administrator|root|ubnt|pi|sa|supervisor|管理员))"
    r"[ \t]*/[ \t]*(?P<value>[^\s/\"'`，。；,]{4,64})(?![/\w])"
)


def _may_correct(text: str, low: str) -> bool:
    """Whether ``text`` holds a word that sets a value right (most texts: none)."""
    return (
        "其实" in text
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


#: The change verbs of :data:`_CORRECTION` (``改成了 x`` sets right an old value before it).
_CHANGED = re.compile("改成|改为|改為|换成|換成")
_DIGIT = re.compile(r"\d")


def _mixed(value: str) -> bool:
    """Whether ``value`` mixes lower case, capitals and symbols (``fernsAreFriends!``)."""
    return (
        any(c.islower() for c in value)
        and any(c.isupper() for c in value)
        and any(not c.isalnum() for c in value)
    )


def _corrected(text: str, end: int) -> tuple[int, int, str] | None:
    """The value a label ending at ``end`` is set right to in the words after it
    (``口令：芝麻开门（说笑的，其实是 zmkm2026）``, ``password reset, new one: x``)."""
    m = _CORRECTION.search(text, end, end + 60)
    if m is not None and _CHANGED.search(m.group()):
        between = text[end : m.start()]
        if not _DIGIT.search(between) or _LABEL.search(between.lower()):
            return (
                None  # "密码已经改为 x": the label's own value; "PIN 8642; 密码改为 x": another's
            )
    found = _value(text, m.end(), False) if m is not None else None
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
            and _mixed(value)  # the actual one is fernsAreFriends!
        )
        and not rejected(value, ":", text, b)
    ):
        return a, b, "keyword"
    return None


# -- other written forms ---------------------------------------------------------------------
#: A keypad's or an alarm's code after the thing it opens: ``door keypad 0512``,
#: ``alarm disarm 6021``, ``keypad: #2580``.
_LOCK_VALUE = re.compile(
    r"(?<![A-Za-z])(?i:keypad|key[ \-]pad|disarm(?:ing)?|arm/disarm)(?:[ \t]+(?i:code|pin|number))?"
    r"[ \t]*(?:(?i:is|was)[ \t]+|[:=][ \t]*|[ \t])[ \t]*(?P<value>[#*]?\d{4,8}[#*]?)(?![\w.\-/:])"
)
#: A lock's name as the label of its code, before ``:`` or ``=``: ``garage: 8812``,
#: ``safe = 0427#``, ``门禁：2580`` (not ``alarm: 0630``, a time, nor ``locker: 1205`` or
#: ``gate: 2051``, which number lockers and gates as often).
_LOCK_LABEL = re.compile(
    r"(?<![a-z])(?:door|front[ \t]door|garage|garage[ \t]door|safe|lockbox|padlock"
    r"|key[ \t]?safe)"
    r"[ \t]*[:=][ \t]*(?P<value>[#*]?\d{4,8}[#*]?)(?![\w.\-/:])(?![ \t]*(?:am|pm|h|hrs?)(?![a-z]))"
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


#: A table's header cell naming a secret (``密码``, ``Password``, ``API key``).
_HEADER = re.compile(
    r"(?:[\w .]{0,12}?)(?:密码|密碼|口令|密钥|秘钥|令牌|(?i:password|passwd|pwd|passcode|pin"
    r"|secret|token|api[ _\-]?key))(?:[\w .]{0,8})"
)


def _cells(line: str, delimiter: str) -> list[tuple[int, int]]:
    """The spans of a table row's cells within ``line`` (stripped of spaces)."""
    spans, a = [], 0
    inner = line.strip()
    base = line.index(inner) if inner else 0
    if delimiter == "|":
        inner = inner[1:] if inner.startswith("|") else inner
        base += 1 if line.strip().startswith("|") else 0
        inner = inner[:-1] if inner.endswith("|") else inner
    for part in inner.split(delimiter):
        raw_a, raw_b = a, a + len(part)
        stripped = part.strip()
        start = raw_a + (part.index(stripped) if stripped else 0)
        spans.append((base + start, base + start + len(stripped)))
        a = raw_b + 1
    return spans


_HEADER_WORDS = re.compile("pass|pwd|pin|secret|token|key|密|口令|令牌")


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


def _comma_header(text: str, low: str) -> bool:
    """Whether a comma touches a password's name (``name,password``, ``密码,备注``): what a
    comma-separated table's header holds, and prose rarely does (``, password``)."""
    return (
        ",pass" in low
        or "pass," in low
        or "password," in low
        or ",pwd" in low
        or "pwd," in low
        or ",pin" in low
        or "pin," in low
        or ",secret" in low
        or "secret," in low
        or ",token" in low
        or "token," in low
        or "key," in low
        or ",密" in text
        or "码," in text
        or "碼," in text
        or ",口令" in text
        or "口令," in text
    )


def _tables(text: str, commas: bool = True) -> Iterator[tuple[int, int, str]]:
    """The cells under a table column whose header names a secret (Markdown, tab- or
    comma-separated rows when ``commas``): ``| 系统 | 账号 | 密码 |`` then
    ``| Jenkins | admin | x |``."""
    offset, column, delimiter, width = 0, -1, "", 0
    for n, line in enumerate(text.split("\n")):
        if n > 400:
            break
        start = offset
        offset += len(line) + 1
        if column < 0 and "|" not in line and "\t" not in line and not (commas and "," in line):
            continue
        named = column >= 0 or _HEADER_WORDS.search(line.lower()) is not None
        if not named:
            continue
        if line.count("|") >= 2:  # | Password | x |: a name and its value in one row
            cells = _cells(line, "|")
            for i in range(len(cells) - 1):
                a, b = cells[i]
                c, d = cells[i + 1]
                value = line[c:d]
                if (
                    _HEADER.fullmatch(line[a:b])
                    and len(value) >= 4
                    and _TOKEN.fullmatch(value)
                    and looks_like_credential(value)
                    and not rejected(value, ":", text, start + d)
                ):
                    yield start + c, start + d, "keyword"
        if column < 0:
            delimiter = "|" if line.count("|") >= 2 else "\t" if "\t" in line else ","
            cells = _cells(line, delimiter)
            names = [line[a:b] for a, b in cells]
            if len(cells) < 2 or any(len(c) > 24 for c in names):
                continue
            column = next((i for i, c in enumerate(names) if _HEADER.fullmatch(c)), -1)
            width = len(cells)
            continue
        if re.fullmatch(r"[\s|:\-+]*", line):
            continue  # |---|---|
        cells = _cells(line, delimiter)
        if len(cells) != width:
            column = -1
            continue
        a, b = cells[column]
        value = line[a:b]
        if (
            len(value) >= 4
            and _TOKEN.fullmatch(value)
            and looks_like_credential(value)
            and not rejected(value, ":", text, start + b)
        ):
            yield start + a, start + b, "keyword"


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


_ANY_DIGIT = re.compile(r"\d")


def _forms(
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
        commas = "\n" in text and "," in text and _comma_header(text, low)
        if commas or text.count("|") >= 2 or ("\n" in text and "\t" in text):
            yield from _tables(text, commas)


def _setup_keys(text: str) -> Iterator[tuple[int, int, str]]:
    """2FA setup keys in groups of four (:data:`_SETUP_KEY`)."""
    for m in _SETUP_KEY.finditer(text):
        value = m.group("value")
        if any(c.isdigit() for c in value) or "setup" in m.group().lower():
            yield m.start("value"), m.end("value"), "passphrase"


def _digit_forms(text: str, low: str, zh: bool, labelled: bool) -> Iterator[tuple[int, int, str]]:
    """The forms of :func:`_forms` whose values hold a digit (``labelled``: whether the
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
    if zh and ("锁" in text or "鎖" in text or "门禁" in text or "門禁" in text):
        for m in _LOCK_BARE_ZH.finditer(text):
            a, b = m.span("value")
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
                a, b, value = _trimmed(m, text, group)
                if any(c.isdigit() for c in value) and not rejected(value, ":", text, b):
                    yield a, b, "keyword"
    if labelled and ("contains" in low or "holds" in low or "reads" in low or "says" in low):
        for m in _contains(low) if len(low) == len(text) else ():
            a, b, value = _trimmed(m, text)
            if any(c.isalpha() for c in value) and not rejected(value, ":", text, b):
                if any(c.isdigit() for c in value):
                    yield a, b, "keyword"
    if (
        labelled
        and ("'," in text or '",' in text or "' ," in text or '" ,' in text)
        and _MARKUP_NAME.search(text)
    ):
        for m in _ARGUMENTS.finditer(text):
            name = m.group("name")
            if _MARKUP_NAME.search(name) and not _MARKUP_MEASURE.search(name):
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
            a, b, value = _trimmed(m, text)
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
#: A lock's name then its code after a space (``密码锁 1357#``, ``屏幕锁 1478``).
_LOCK_BARE_ZH = re.compile(
    r"(?:密码锁|密碼鎖|门锁|門鎖|屏幕锁|屏幕鎖|锁屏|鎖屏|指纹锁|指紋鎖|门禁|門禁)(?:密码|密碼)?"
    r"[ \t]*(?:是|为|為)?[ \t]*"
    r"(?P<value>[#*]?\d{4,8}[#*]?)(?![\w.\-/:点點])"
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


def _occurrences(text: str, word: str, most: int = 16) -> Iterator[int]:
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
        for i in _occurrences(low if word.isascii() else text, word)
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
        a, b, value = _trimmed(m, text, group)
        if (
            any(c.isdigit() for c in value)
            and len(value) >= 4
            and not DATE.fullmatch(value)
            and not rejected(value, ":", text, b)
        ):
            yield a, b, "keyword"


#: ``door keypad 0512, wifi moosetracks (...)``: a Wi-Fi network's key as an item of a
#: list of access details (the list holds another secret: see :func:`_listed_wifi`).
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


def _listed_wifi(text: str) -> Iterator[tuple[int, int, str]]:
    """A Wi-Fi key given as an item of a list of access details whose other items hold a
    secret (``door keypad 0512, wifi moosetracks``): any word that is not prose."""
    for m in _WIFI_ITEM.finditer(text):
        a, b, value = _trimmed(m, text)
        word = value.lower()
        if (
            len(value) >= 6
            and word not in _WIFI_WORDS
            and not reads_as_prose(word)
            and not _NOT_WIFI.fullmatch(value)
            and not rejected(value, ":", text, b)
        ):
            yield a, b, "keyword"


def _trimmed(m: re.Match[str], text: str, group: str = "value") -> tuple[int, int, str]:
    """A match's group as ``(start, end, value)`` without its trailing punctuation."""
    a, b = m.span(group)
    value = text[a:b].rstrip(_TRAILING)
    return a, a + len(value), value


def labelled_secrets(text: str) -> Iterator[tuple[int, int, str, str]]:
    """Spans ``(start, end, "secret", detector)`` of the values written after a label
    that names a secret (see the module docs); ``detector`` is ``keyword``, or
    ``passphrase`` for a quoted value or one of several words."""
    low = text.lower()
    labels = _label_words(text, low)
    digits = _ANY_DIGIT.search(text) is not None
    found = False
    for spans in (
        _find(text, low, labels),
        _markup(text),
        _command_lines(text),
        _pairs(text, low),
        _phrases(text, low, digits, bool(labels)),
        _forms(text, low, bool(labels), digits),
    ):
        for a, b, name in spans:
            found = True
            yield a, b, "secret", name
    if found and ("wifi" in low or "wi-fi" in low or "wlan" in low):
        for a, b, name in _listed_wifi(text):  # door keypad 0512, wifi moosetracks
            yield a, b, "secret", name


def values(text: str) -> list[str]:
    """The labelled values of ``text``, as text (for examples and tests)."""
    return [text[a:b] for a, b, _, _ in labelled_secrets(text)]
