"""Secrets in configuration and credential files, read by their syntax rather than by
the phrasing around them.

A chat message often carries a piece of a file: an ``.env``, an INI or TOML section, a
YAML or docker-compose block, a Kubernetes ``Secret``, a ``.netrc`` or a ``.pgpass``.
Their secrets are found by the file's shape, whatever words surround it:

- **key/value lines** of any config syntax (``key = value``, ``key: value``,
  ``KEY=value``, ``export KEY=value``, ``- KEY=value`` in a YAML list, a quoted key):
  the key is split into words (``DB_PASSWORD``, ``smtpPass``, ``redis.auth``,
  ``数据库密码``) and names a secret when its **last** word is a secret word
  (``password``, ``passwd``, ``pass``, ``pwd``, ``psk``, ``secret``, ``token``,
  ``auth``, ``密码``, ``口令``, ``密钥``, ``令牌``...) or ``key`` after a word that makes it
  one (``api_key``, ``secret_access_key``, ``signingKey``): ``password_min_length``,
  ``POSTGRES_PASSWORD_FILE``, ``secretKeyRef`` and ``token_ttl`` name something else.
  The value is then judged by its shape: never empty, a placeholder, a reference
  (``${X}``, ``{{ .Values.x }}``), a path, a plain URL, a boolean, a type, a number
  under 4 digits, a hash (``$2b$...``), a word of prose or the name of a secret
  (``db-credentials``), or the name of a scheme (``scram-sha-256``); after ``auth`` it
  must look like a credential. A plain word (``pass: marigold``) is taken when the key
  is written as code (``smtp_pass``, ``AUTH_TOKEN``) or the text holds other lines of
  the same file (a section, another key/value line whose key is written as code): a
  lone ``Secret: practice`` or a list of labels (``Flight: AF123\\nPass: mobile``) is
  left to the label reader unless the value has a secret's shape;
- **Kubernetes Secrets**: in a YAML document (cut at ``---``) declaring ``kind:
  Secret`` (not ``SecretStore``), every base64 value of its ``data:`` block, whatever
  its key, and of its ``stringData:`` block but a plain word under a key that names no
  secret;
- **a value set at a key in code** (``$config['smtp_pass'] = 'x';``, ``app.config["SECRET_KEY"]
  = "x"``): the key and the value judged as a key/value line's;
- **.pgpass lines**, ``host:port:database:user:password`` (the port digits or ``*``,
  no field of an API path such as ``v1``): the fifth field;
- **.netrc entries**, ``machine host login user password value`` on one line or
  several: the word after ``password``, whatever its shape.
- **XML properties** named by an attribute or a ``<name>`` element (``<property
  name="password">x</property>``, ``<name>fs.s3a.secret.key</name><value>x</value>``);
- **Wi-Fi QR codes**: the ``P:`` field of ``WIFI:S:net;T:WPA;P:x;;``;
- **login pairs**: a password word after a user name (``用户名 root 密码 toor``,
  ``login: bob, pass: walnut``): its value whatever its shape, but not a word of prose
  (``user admin password required``); a password word with digits glued to it
  (``user@example.com password123``) is the value whole.
- **a password said to be a name**, the name given next (``the wifi password is the
  network name: TP-Link_8A2F``, ``wifi密码就是wifi名字 TP-LINK_FAST``): a network's name
  is a common password, and here the text says so.

Example:
    >>> text = "[smtp]\\nsmtp_user = alerts\\nsmtp_pass = marigold\\npass_min_len = 8"
    >>> [text[a:b] for a, b, _, _ in config_secrets(text)]
    ['marigold']
    >>> line = "db.example.com:5432:*:app:applepie"
    >>> [line[a:b] for a, b, _, _ in config_secrets(line)]
    ['applepie']
    >>> text = "machine github.com\\n  login bob\\n  password pickles"
    >>> [text[a:b] for a, b, _, _ in config_secrets(text)]
    ['pickles']
    >>> list(config_secrets("POSTGRES_PASSWORD_FILE=/run/secrets/db\\ntoken_ttl: 3600"))
    []
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from langgraph_memory.sensitivity.nearby import shape_score
from langgraph_memory.sensitivity.nearby_words import stem_starts
from langgraph_memory.sensitivity.no_value import reads_as_no_value, reads_as_prose

__all__ = ["config_secrets", "names_a_secret_key"]

# -- keys ---------------------------------------------------------------------------------
#: Words that name a secret when they end a key (``db_password``, ``AUTH_TOKEN``).
_SECRET_WORDS = frozenset(
    """password passwd passphrase passcode pass pwd pw psk secret token apikey authtoken
    accesstoken requirepass masterauth masterpassword credential""".split()
)
#: Suffixes that name a secret inside one word (``rpcpassword``, ``dbpass``, ``bindpw``).
_SECRET_SUFFIXES = ("password", "passwd", "passphrase", "secret", "token", "apikey", "pwd")
#: Words ending in ``pass`` that are not passwords.
_NOT_PASS = frozenset("bypass compass overpass surpass underpass trespass encompass".split())
#: Words before ``key`` that make it a secret's name (``api_key``, ``signingKey``).
_KEY_NAMES = frozenset(
    """api access secret private signing encryption decryption master license licence client
    app account shared auth hmac jwt session storage subscription consumer service crypt
    cipher aes wifi wpa admin root webhook""".split()
)
#: Words before the secret word that make the key name no secret (``page_token``,
#: ``existingSecret``, ``hashed_password``).
_NOT_BEFORE = frozenset(
    """page next continuation pagination cancellation sync max min num count total
    existing hashed hash encrypted public publishable sample example""".split()
)
#: Words before ``pass`` that make it a ticket, not a password (``boarding_pass``).
_TICKET_BEFORE = frozenset(
    """boarding season bus hall ski day week month year gym guest visitor parking press
    backstage transit metro rail train travel museum park event festival""".split()
)
#: Chinese words that end a key naming a secret (``数据库密码``, ``WiFi密码``).
_ZH_SECRET = (
    "密码",
    "密碼",
    "口令",
    "密钥",
    "秘钥",
    "密鑰",
    "私钥",
    "私鑰",
    "令牌",
    "暗号",
    "暗號",
)
#: The words of a key: camelCase humps, and runs between ``_ - . /`` and spaces.
_HUMP = re.compile(r"([a-z0-9])([A-Z])")
_SPLIT = re.compile(r"[\s_\-./]+")


def names_a_secret_key(key: str) -> str | None:
    """What a config key names, by its last word: ``"password"`` (a password word, or a
    Chinese one), ``"key"`` (a key, a token or a secret), ``"auth"`` (``redis_auth``:
    only a credential-like value), or ``None``.

    Example:
        >>> [names_a_secret_key(k) for k in ("DB_PASSWORD", "smtpPass", "api_key", "数据库密码")]
        ['password', 'password', 'key', 'password']
        >>> [names_a_secret_key(k) for k in ("password_min_length", "secretKeyRef", "monkey")]
        [None, None, None]
    """
    if key.endswith(_ZH_SECRET):
        return "password"
    words = [w for w in _SPLIT.split(_HUMP.sub(r"\1 \2", key).lower()) if w]
    if not words:
        return None
    last, before = words[-1], words[-2] if len(words) > 1 else ""
    if before in _NOT_BEFORE or (last == "pass" and before in _TICKET_BEFORE):
        return None
    if last == "auth":
        return "auth" if before else None
    if last == "key" or last.endswith("key") and last[:-3] in _KEY_NAMES:
        return "key" if last != "key" or before in _KEY_NAMES else None
    if last in _SECRET_WORDS or last.endswith(_SECRET_SUFFIXES):
        return "key" if last.endswith(("secret", "token", "apikey")) else "password"
    if last.endswith("pass") and last not in _NOT_PASS and len(last) > 4:
        return "password"  # dbpass, requirepass, smtppass
    return None


def _written_as_code(key: str) -> bool:
    """Whether a key of any meaning is written as code (``db_host``, ``TZ``, ``dbHost``,
    ``user``), not as a label of prose (``Flight``, ``Seat``, ``Monday``)."""
    return (
        any(c in key for c in "_.-")
        or _HUMP.search(key) is not None
        or (key.isascii() and (key.islower() or (key.isupper() and len(key) > 1)))
    )


def _code_like(key: str) -> bool:
    """Whether a key is written as code (``smtp_pass``, ``AUTH_TOKEN``, ``dbPass``,
    ``rpcpassword``), not as a word of prose (``Password``, ``secret``)."""
    if any(c in key for c in "_.-") or _HUMP.search(key):
        return True
    low = key.lower()
    return low not in _SECRET_WORDS and low != "auth" and key.isascii()


# -- values -------------------------------------------------------------------------------
#: Values that say nothing: booleans, nulls, types, YAML block markers.
_NOTHING = frozenset(
    """true false yes no on off null none nil ~ | > |- >- str string int bool bytes secret
    password token key required optional""".split()
)
#: A reference to where the value is kept: a path, a file, a URL without credentials.
_REFERENCE = re.compile(
    r"(?:/|\./|\.\./|~/|[A-Za-z]:\\|file:|https?://(?![^/\s]*@)).*"
    r"|.*\.(?:pem|key|crt|cer|txt|json|ya?ml|p12|pfx|jks|gpg|asc|env|conf|cfg|ini)",
    re.IGNORECASE,
)
#: Templates, tags and vault markers: ``{{ .Values.x }}``, ``!secret db_pw``, ``!vault |``,
#: ``ENC(...)`` (Jasypt), ``ENC[AES256_GCM,...]`` (SOPS), ``vault:...``.
_TEMPLATE = re.compile(
    r"\{\{.*|![A-Za-z]\w*[ \t].*|!vault.*|ENC[(\[].*|vault:.*|secretRef.*|valueFrom.*",
    re.IGNORECASE,
)
#: A password hash: ``$2b$12$...``, ``$apr1$...``, ``{SSHA}...``.
_HASH = re.compile(r"\$[0-9a-z]{1,8}\$.*|\{[A-Z0-9\-]+\}.*")
#: A secret word inside a value (``db-credentials``, ``redis-auth``): a name, unless it
#: holds two digits (``queue-pass-9921``).
_NAMES_SECRET = re.compile(r"(?i)pass|secret|token|cred|auth|key|pwd")
_TWO_DIGITS = re.compile(r"\d{2}")
#: The words of an authentication scheme or a hash algorithm's name (``cram-md5``,
#: ``SCRAM-SHA-512``, ``sha256_password``, ``oauth2``): a value made of them names how to
#: log in, not the credential.
_SCHEME_WORD = re.compile(
    r"(?:scram|cram|digest|sha|md|plain|login|gssapi|ntlm|kerberos|krb|x?oauth|oauthbearer"
    r"|basic|bearer|ldap|caching|native|password|external|anonymous|hmac|pbkdf|bcrypt|argon"
    r"|scrypt|aes|rsa|hs|rs|es|iam|aws|sigv|mtls|tls|ssl|cert|saml|oidc|jwt|spnego|negotiate"
    r"|auth|none|md5)\d*",
    re.IGNORECASE,
)
_SCHEME_PARTS = re.compile(r"[\-_]+")


def _names_a_scheme(value: str, kind: str) -> bool:
    """Whether ``value`` is the name of an authentication scheme or an algorithm: every
    part of it (cut at ``-``/``_``) a scheme word, perhaps with a number (``cram-md5``,
    ``scram-sha-256``, ``sha256_password``); after an ``auth`` key one part is enough
    (``plain``, ``oauth2``).

    Example:
        >>> [_names_a_scheme(v, "auth") for v in ("cram-md5", "SCRAM-SHA-512", "oauth2")]
        [True, True, True]
        >>> [_names_a_scheme(v, "password") for v in ("sha256_password", "plain", "Xk9_pw")]
        [True, False, False]
    """
    parts = [p for p in _SCHEME_PARTS.split(value) if p]
    if not parts or (len(parts) < 2 and kind != "auth"):
        return False
    return all(p.isdigit() or _SCHEME_WORD.fullmatch(p) for p in parts) and not all(
        p.isdigit() for p in parts
    )


#: Chinese that reads as prose or an instruction (``请联系管理员``, ``见附件``).
_ZH_PROSE = re.compile(
    "[见請请无空未已同与需不没暂略详参按默忘错输设修重改找丢保至你我他她这那什么吗呢了的问問扫掃]"
)


def _value_ok(kind: str, value: str, quoted: bool, text: str, end: int) -> bool:
    """Whether ``value`` (after a key of ``kind``) could be the secret itself."""
    low = value.lower()
    if not value or len(value) > 200 or low in _NOTHING:
        return False
    if _REFERENCE.fullmatch(value) or _TEMPLATE.fullmatch(value) or _HASH.fullmatch(value):
        return False
    if value.isdigit() and len(value) < 4:
        return False
    if _NAMES_SECRET.search(value) and not _TWO_DIGITS.search(value):
        return False
    if _names_a_scheme(value, kind):
        return False  # "smtp_auth: cram-md5": how to log in
    if not value.isascii():
        return not _ZH_PROSE.search(value) and " " not in value
    if " " in value and not quoted:
        return False  # "password: see the vault" reads as prose
    if reads_as_no_value(value, "=" if quoted else ":", text, end):
        return False
    if kind == "auth":
        return len(value) >= 6 and any(c.isdigit() for c in value)
    return len(value) >= 3


# -- lines --------------------------------------------------------------------------------
#: A key/value line: ``key = value``, ``key: value``, ``export KEY=value``, ``- KEY=value``,
#: ``"key": "value",``; the key quoted or bare, the value to the line's end.
_LINE = re.compile(
    r"^[ \t]*(?:-[ \t]+)?(?:export[ \t]+|set[ \t]+)?(?P<q>[\"']?)"
    r"(?P<key>[A-Za-z_\u4e00-\u9fff][\w.\-\u4e00-\u9fff]{0,63})(?P=q)"
    r"[ \t]*(?P<sep>=|:(?!//))[ \t]*(?P<value>[^\n]*)",
    re.MULTILINE,
)
#: A line of a config file other than a secret's: a section, a key/value line.
_SECTION = re.compile(r"^[ \t]*\[[^\]\n]{1,64}\][ \t]*$", re.MULTILINE)
#: Pieces of the secret words, looked for with ``in`` first (far faster than a regex
#: over every text; most texts hold none).
_STEMS_ZH = ("密", "口令", "令牌", "暗号", "暗號")
_STEMS = ("pass", "pw", "psk", "secret", "token", "key", "auth", "cred", *_STEMS_ZH)
#: A ``.pgpass`` line's port field, looked for before the line itself.
_PORT = re.compile(r":(?:\d{2,5}|\*):[^\s:]+:[^\s:]+:[^\s:]")
_COMMENT = re.compile(r"[ \t]+[#;].*$")
_QUOTES = {'"': '"', "'": "'", "`": "`"}


def _unquote(value: str, start: int) -> tuple[str, int, bool]:
    """A value without its quotes (or, unquoted, without a trailing comment): ``(value,
    start, quoted)``."""
    close = _QUOTES.get(value[:1])
    if close is not None:
        end = value.find(close, 1)
        if end > 0:
            return value[1:end], start + 1, True
        return "", start, True
    return _COMMENT.sub("", value), start, False


def _key_values(text: str, low: str) -> Iterator[tuple[int, int, str]]:
    """The secrets of key/value lines (see the module docs): only the lines where a
    secret word stands are parsed."""
    many: bool | None = None
    line_start = -1
    for at in stem_starts(low, _STEMS):
        if at < line_start:
            continue
        line_start = text.rfind("\n", 0, at) + 1
        m = _LINE.match(text, line_start)
        line_end = text.find("\n", at)
        line_start = len(text) if line_end < 0 else line_end  # one reading per line
        if m is None or m.end("key") < at:
            continue  # the word is in the value, not the key
        key = m.group("key")
        kind = names_a_secret_key(key)
        if kind is None and key.lower() == "auth" and _SECTION.search(text) is not None:
            kind = "auth"  # "[redis]\nauth=x": a service's section names what it opens
        if kind is None:
            continue
        if not (_code_like(key) or m.group("q") or m.group().startswith((" ", "\t"))):
            if many is None:
                many = _SECTION.search(text) is not None or any(
                    " " not in v["value"].strip() and _written_as_code(v["key"])
                    for v in _LINE.finditer(text)
                    if v.start() != m.start()
                )
            if not many and shape_score(_unquote(m["value"].strip(), 0)[0]) < 3:
                continue  # "Flight: AF123\nPass: mobile": labels of prose, the label reader's
        raw = m["value"].rstrip(" \t\r")
        raw = raw[:-1].rstrip(" \t") if raw.endswith(",") else raw  # "key": "value",
        value, start, quoted = _unquote(raw, m.start("value"))
        if not quoted and value.isalpha() and value.isascii():
            if reads_as_prose(value.lower()) or (kind != "password" and not _code_like(key)):
                continue  # "password: accepted"; "secret: santa" (a plain key, a plain word)
        if _value_ok(kind, value, quoted, text, start + len(value)):
            yield start, start + len(value), "config"


#: A ``.pgpass`` line: ``host:port:database:user:password`` (``*`` for any field).
_PGPASS = re.compile(
    r"(?<![\w:/.\-])(?:[A-Za-z0-9][\w.\-]*|\*):(?:\d{2,5}|\*):[^\s:]+:[^\s:]+:(?P<value>[^\s:]+)"
    r"(?![\w:])"
)
#: A field of a URL or an API path, not of a ``.pgpass`` line (``v1``, ``/users``).
_PATH_PART = re.compile(r"v\d+(?:\.\d+)*|.*/.*", re.IGNORECASE)
#: A ``.netrc`` entry's password: after ``machine host`` (or ``default``) and ``login``.
_NETRC = re.compile(
    r"(?<!\S)(?:machine[ \t]+\S+|default)\s+(?:(?:login|account|port)\s+\S+\s+)*"
    r"(?:password|passwd)\s+(?P<value>\S+)"
)


#: An XML property named by an attribute or a ``<name>`` element (``<property
#: name="password">x</property>``, Hadoop's ``<name>fs.s3a.secret.key</name><value>x``).
_XML_PROPERTY = re.compile(
    r"<(?P<tag>[\w:.\-]+)[^<>]*?\bname=[\"'](?P<key>[^\"'<>]{1,80})[\"'][^<>]*>"
    r"(?P<value>[^<>\n]{1,200})</(?P=tag)>"
    r"|<name>[ \t]*(?P<key2>[^<>\n]{1,80}?)[ \t]*</name>\s*"
    r"<value>(?P<value2>[^<>\n]{1,200})</value>"
)
#: A Wi-Fi QR code's payload: ``WIFI:S:MyNet;T:WPA;P:password;;``.
_WIFI_QR = re.compile(r"WIFI:(?:[A-Z]:(?:\\.|[^;\\])*;)*?P:(?P<value>(?:\\.|[^;\\])+);")
#: A user name, then a password word and its value, whatever its shape (``用户名 root 密码
#: toor``, ``账号 test01 密码 abc``, ``login: bob, pass: walnut``), or a password word
#: with digits glued to it, the value whole (``user@example.com password123``).
_LOGIN_PAIR = re.compile(
    r"(?:用户名|用戶名|账号|帳號|帐号|账户|帳戶|(?<![A-Za-z])(?i:user(?:name)?|login)"
    r"|(?<![A-Za-z])(?i:u)(?=[ \t]*:))"
    r"[ \t]*[:=]?[ \t]*(?P<name>[\x21-\x7e]{1,64}?)[ \t]*[,;，；]?[ \t]+"
    r"(?:(?i:and|&)[ \t]+)?"  # user 'editor' and pass x
    r"(?:(?:密码|密碼|口令|(?<![A-Za-z])(?i:password|passwd|pwd)(?![A-Za-z0-9]))[ \t]*[:=]?"
    r"|(?<![A-Za-z])(?i:pass|pw|p)[ \t]*[:=]|(?<![A-Za-z])(?=(?i:pass(?:word|wd)?|pwd)\d)"
    r"|(?<![A-Za-z])(?i:pass|pw)[ \t]+(?=[^\s]*\d))"
    r"[ \t]*(?P<value>[\x21-\x7e]{3,64})"
)


#: A password said to be a name, the name given next (``the wifi password is the network
#: name: TP-Link_8A2F``, ``wifi密码就是wifi名字 TP-LINK_FAST``): the name is the password.
_SAME_AS_NAME = re.compile(
    r"(?i:pass(?:word|code|phrase)?|pwd|pw)(?:[ \t]+[a-z]+){0,2}?[ \t]+(?i:is|=|equals)[ \t]+"
    r"(?:(?i:literally|just|simply|also)[ \t]+)?(?i:the[ \t]+)?"
    r"(?i:same[ \t]+as[ \t]+(?:the[ \t]+)?)?"
    r"(?:(?i:wi-?fi|network|router|hotspot|user)[ \t]+)?(?i:name|ssid|username)"
    r"|(?:密码|密碼|口令)(?:也|就|都)?(?:是|和|跟|与|與|=)"
    r"(?:(?i:wi-?fi)|无线|無線|网络|網絡|热点|熱點|路由器|用户|用戶)?的?"
    r"(?:名字|名称|名稱|网络名|網絡名|用户名|用戶名|账号|帳號|名|(?i:ssid))(?:一样|一樣|相同)?"
)
_NAME_GIVEN = re.compile(r"[ \t]*(?:[:,(=\-—]|->)?[ \t]*[\"'“(]?(?P<value>[\x21-\x7e]{3,64})")
#: Words one of which a login pair holds (looked for with ``in`` before the regex).
_USER_WORDS = ("user", "login", "u:", "用户", "用戶", "账", "帳")


def _pairs(text: str, low: str) -> Iterator[tuple[int, int, str]]:
    """Values named by an XML property, given as the name a password is said to be, or
    after a password word that follows a user name (a login pair)."""
    if "<" in text and "name" in text:
        for m in _XML_PROPERTY.finditer(text):
            key, group = (m["key"], "value") if m["key"] else (m["key2"], "value2")
            value = m[group].strip()
            kind = names_a_secret_key(key)
            if kind is not None and _value_ok(kind, value, True, text, m.end(group)):
                a = m.start(group) + m[group].index(value)
                yield a, a + len(value), "markup"
    named = "name" in low or "名" in low or "ssid" in low
    for m in _SAME_AS_NAME.finditer(text) if named else ():
        given = _NAME_GIVEN.match(text, m.end())
        if given is None:
            continue
        value = given["value"].rstrip(".,;:)\"'”")
        end = given.start("value") + len(value)
        if any(c.isalnum() for c in value) and not reads_as_no_value(value, ":", text, end):
            yield given.start("value"), end, "same_as_name"
    if not any(word in low for word in _USER_WORDS):
        return
    for m in _LOGIN_PAIR.finditer(text):
        value, start = m["value"].rstrip(".,;)"), m.start("value")
        if len(value) > 2 and value[0] in "\"'" and value.endswith(value[0]):
            value, start = value[1:-1], start + 1  # password="x": the quotes are no part
        end = start + len(value)
        if reads_as_no_value(m["name"].rstrip(",;"), ":", text, m.end("name")):
            continue  # "the user account password": no user's name
        if len(value) >= 3 and not reads_as_no_value(value, "=", text, end):
            yield start, end, "login_pair"


#: A Kubernetes ``Secret``'s ``data:`` or ``stringData:`` block: every value is a secret.
_K8S_DATA = re.compile(r"^(?P<indent>[ \t]*)(?P<block>data|stringData):[ \t]*\n", re.MULTILINE)
#: A line between two YAML documents, and a document's ``kind: Secret`` line.
_K8S_CUT = re.compile(r"^---[ \t]*\r?$", re.MULTILINE)
_K8S_KIND = re.compile(r"^kind:[ \t]*[\"']?Secret[\"']?[ \t]*\r?$", re.MULTILINE)
#: A base64 value: the alphabet, padded to a multiple of 4 characters.
_BASE64 = re.compile(r"(?=(?:.{4})+$)[A-Za-z0-9+/]+={0,2}", re.DOTALL)
#: A key naming who logs in (``username``, ``DB_USER``, ``login``): its value is no secret.
_USER_KEY = re.compile(r"(?i)(?:^|[_\-.])(?:user(?:name)?|login|email)$")
_K8S_ENTRY = re.compile(
    r"(?P<indent>[ \t]+)(?P<key>[\w.\-]{1,253}):[ \t]*(?P<value>[^\s#][^\n]*)?\n?"
)


def _k8s_documents(text: str) -> Iterator[tuple[int, int]]:
    """The spans of the YAML documents of ``text`` (cut at ``---`` lines) that declare
    ``kind: Secret`` (not ``SecretStore``, not a ``Secret`` in another document)."""
    start = 0
    for cut in [*_K8S_CUT.finditer(text), None]:
        end = len(text) if cut is None else cut.start()
        if _K8S_KIND.search(text, start, end) is not None:
            yield start, end
        start = len(text) if cut is None else cut.end()


def _k8s_secret(text: str) -> Iterator[tuple[int, int, str]]:
    """The values of a Kubernetes ``Secret``'s ``data:``/``stringData:`` entries (in a
    document declaring ``kind: Secret``), whatever their keys (``DB_URL: cG9zdGdy...``):
    under ``data:`` only base64, under ``stringData:`` anything but a plain word under a
    key that names no secret."""
    for first, last in _k8s_documents(text):
        doc = text[:last]
        for block in _K8S_DATA.finditer(doc, first):
            pos, indent = block.end(), len(block["indent"])
            while (m := _K8S_ENTRY.match(doc, pos)) is not None and len(m["indent"]) > indent:
                pos = m.end()
                if m["value"] is None:
                    continue
                value, start, quoted = _unquote(m["value"].rstrip(" \t\r"), m.start("value"))
                if not value or reads_as_no_value(value, "=", text, start + len(value)):
                    continue
                if block["block"] == "data" and not _BASE64.fullmatch(value):
                    continue  # "mode: production": a data: value is base64
                if _USER_KEY.search(m["key"]):
                    continue  # "username: cG9zdGdyZXM=": who logs in, not the secret
                if block["block"] == "stringData" and value.isalpha():
                    if names_a_secret_key(m["key"]) is None or reads_as_prose(value.lower()):
                        continue  # a plain word under a plain key
                yield start, start + len(value), "k8s_secret"


def _files(text: str) -> Iterator[tuple[int, int, str]]:
    """The secrets of Kubernetes Secrets, ``.pgpass`` lines, ``.netrc`` entries and Wi-Fi
    QR codes."""
    if "Secret" in text and "kind:" in text:
        yield from _k8s_secret(text)
    if "WIFI:" in text:
        for m in _WIFI_QR.finditer(text):
            yield m.start("value"), m.end("value"), "wifi_qr"
    if text.count(":") >= 4 and _PORT.search(text) is not None:
        for m in _PGPASS.finditer(text):
            head, _, db, user = m.group().split(":", 4)[:4]
            value = m.group("value").rstrip(".,;)")
            if (
                (any(c.isalpha() for c in head) or head == "*")
                and (db == "*" or any(c.isalpha() for c in db))
                and not any(_PATH_PART.fullmatch(field) for field in (db, user))
            ):
                if len(value) >= 3 and not reads_as_no_value(value, "=", text, m.end()):
                    yield m.start("value"), m.start("value") + len(value), "pgpass"
    if ("machine" in text or "default" in text) and ("password" in text or "passwd" in text):
        for m in _NETRC.finditer(text):
            value = m.group("value")
            if not reads_as_no_value(value, "=", text, m.end()):
                yield m.start("value"), m.end("value"), "netrc"


#: A value set at a mapping's key in code (``$config['smtp_pass'] = 'x';``,
#: ``app.config["SECRET_KEY"] = "x"``, ``env[DB_PASSWORD] = x``).
_SUBSCRIPT = re.compile(
    r"\[[ \t]*(?P<q>[\"']?)(?P<key>[A-Za-z_][\w.\-]{0,63})(?P=q)[ \t]*\][ \t]*=(?![=>])[ \t]*"
    r"(?P<value>\"[^\"\n]*\"|'[^'\n]*'|[^\s;,\"']+)"
)


def _subscripts(text: str) -> Iterator[tuple[int, int, str]]:
    """The values set at a key naming a secret in code (:data:`_SUBSCRIPT`), judged as a
    config line's value."""
    for m in _SUBSCRIPT.finditer(text):
        kind = names_a_secret_key(m.group("key"))
        if kind is None:
            continue
        value, start, quoted = _unquote(m.group("value"), m.start("value"))
        if not quoted and (value[:1] == "$" or any(c in value for c in "([{")):
            continue  # code reading a value: $_ENV['X'], os.getenv("X")
        if _value_ok(kind, value, quoted, text, start + len(value)):
            yield start, start + len(value), "config"


def config_secrets(text: str) -> Iterator[tuple[int, int, str, str]]:
    """Spans ``(start, end, "secret", detector)`` of the secrets in pieces of config and
    credential files (see the module docs); ``detector`` is ``config``, ``markup``,
    ``login_pair``, ``same_as_name``, ``k8s_secret``, ``pgpass``, ``netrc`` or
    ``wifi_qr``."""
    low = text.lower()
    if len(low) != len(text):  # a letter whose lower case is longer ("İ"): keep offsets
        low = "".join(c if len(c.lower()) != 1 else c.lower() for c in text)
    if (  # (one expression of "in" tests: a generator over _STEMS costs a tenth of a scan)
        "pass" in low
        or "pw" in low
        or "secret" in low
        or "token" in low
        or "key" in low
        or "auth" in low
        or "cred" in low
        or "psk" in low
        or ("u:" in low and "p:" in low)  # u: alice p: x
        or (not low.isascii() and any(stem in low for stem in _STEMS_ZH))
    ):
        for a, b, name in _key_values(text, low):
            yield a, b, "secret", name
        for a, b, name in _pairs(text, low):
            yield a, b, "secret", name
        if "]" in text:
            for a, b, name in _subscripts(text):
                yield a, b, "secret", name
    for a, b, name in _files(text):
        yield a, b, "secret", name
