"""Passwords given on a command line: ``curl -u user:x``, ``mysql -px``, ``sshpass -p x``,
``redis-cli -a x``, archive passwords (``zip -P x``, ``7z -px``), HTTPie's ``-a user:x``,
``htpasswd -b file user x``, other tools' password options (``keytool -storepass x``,
``sqlcmd -P x``, ``ldapsearch -w x``, ``openssl enc -k x``, ``xfreerdp /p:x``, ``net use
... /user:bob x``, ``rclone config create ... pass x``), a password piped to ``sudo -S``,
``chpasswd`` or a tool's ``--password-stdin``, SQL's ``IDENTIFIED BY 'x'``, and a directive
setting a variable named for a secret (``SetEnv DB_PASS x``, a Dockerfile's ``ENV API_TOKEN
x``). A name-like word given to a password option is the password itself (``openssl enc -k
backup_key``).

Example:
    >>> text = "run mysql -u root -pS3cr3t! then curl -u admin:hunter22 https://x.io"
    >>> [text[a:b] for a, b, _ in command_line_secrets(text)]
    ['hunter22', 'S3cr3t!']
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from langgraph_memory.sensitivity.label_values import TRAILING
from langgraph_memory.sensitivity.no_value import rejected
from langgraph_memory.sensitivity.structured import names_a_secret_key

__all__ = [
    "command_line_secrets",
]

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

#: Other tools' password options: ``keytool -storepass x -keypass y``, ``rdesktop -p x``,
#: ``sqlcmd -U sa -P x``, ``ldapsearch -D cn=admin -w x``, ``openssl enc -k x``,
#: ``smbclient -U user%x``.
_CLI_TOOL = re.compile(
    r"(?<![\w\-.])(?:rdesktop\b[^\n]{0,120}?[ \t]-p[ \t]+"
    r"|(?:sqlcmd|bcp|osql)\b[^\n]{0,120}?[ \t]-P[ \t]+"
    r"|ldap(?:search|add|modify|delete|whoami|passwd|compare|modrdn|exop)\b"
    r"[^\n]{0,120}?[ \t]-w[ \t]+"
    r"|openssl\b[^\n]{0,160}?[ \t]-k[ \t]+"
    r"|smbclient\b[^\n]{0,120}?[ \t]-U[ \t]+[\"']?[^\s%\"']{1,64}%)"
    r"(?P<value>[^\s\"'$\-][^\s\"']{2,127})"
)
#: ``rclone config create remote sftp host h user u pass x`` (a remote's options: name value).
_RCLONE = re.compile(
    r"(?<![\w\-.])rclone[ \t]+config[ \t]+(?:create|update)\b[^\n]{0,160}?[ \t]pass(?:word)?[ \t]+"
    r"(?P<value>[^\s\"'$\-][^\s\"']{2,127})"
)
#: ``keytool ... -storepass x -keypass y`` (a key store's and its key's passwords).
_KEYTOOL_PASS = re.compile(
    r"(?<![^ \t])-(?:src|dest|new)?(?:store|key)pass[ \t]+(?P<value>[^\s\"'$\-][^\s\"']{2,127})"
)
#: Windows' slash options: ``xfreerdp /u:admin /p:x``, ``net use Z: \\\\nas\\share /user:bob x``;
#: a password piped in: ``echo "x" | sudo -S ...``, ``echo 'bob:x' | chpasswd``, ``echo x |
#: docker login -u bob --password-stdin`` (helm, podman, oras...: any tool's stdin option).
_CLI_SLASH = re.compile(
    r"(?<![\w\-.])(?:[wx]freerdp|wlfreerdp)\b[^\n]{0,160}?[ \t]/p:(?P<q>[\"']?)"
    r"(?P<value>[^\s\"'$][^\s\"']{2,127})(?P=q)"
    r"|(?i:net[ \t]+use)\b[^\n]{0,160}?[ \t]/user:[^\s/]{1,64}[ \t]+"
    r"(?P<value2>[^\s\"'/*$][^\s\"']{2,127})"
    r"|(?<![\w\-.])echo[ \t]+(?P<q3>[\"']?)(?:(?P<user>[^\s:\"']{1,32}):)?"
    r"(?P<value3>[^\s\"'$][^\s\"']{2,127})(?P=q3)[ \t]*\|[ \t]*(?:sudo[ \t]+(?P<s>-S)"
    r"|(?:sudo[ \t]+)?chpasswd|(?P<stdin>[^\n|]{0,120}?[ \t]--password-stdin\b))"
)


#: ``htpasswd -b .htpasswd admin x``, ``htpasswd -nbB admin x`` (``-n``: no file), ``htpasswd
#: -b -c file admin x`` (options apart).
_CLI_HTPASSWD = re.compile(
    r"(?<![\w\-.])htpasswd(?P<flags>(?:[ \t]+-[A-Za-z]{1,6}){1,4})[ \t]+"
    r"(?P<args>\S+(?:[ \t]+\S+){1,2})"
)
_ARG = re.compile(r"\S+")
#: SQL setting a user's password: ``ALTER USER 'app'@'%' IDENTIFIED BY 'x'``, ``CREATE
#: USER u IDENTIFIED WITH mysql_native_password BY 'x'``.
_SQL_IDENTIFIED = re.compile(
    r"(?i:identified)[ \t]+(?:(?i:with)[ \t]+\w+[ \t]+)?(?i:by)[ \t]+"
    r"(?:(?i:password)[ \t]*\(?[ \t]*)?(?P<q>['\"])(?P<value>[^'\"\n]{1,128})(?P=q)"
)

#: A directive setting a variable by its name then its value, no ``=`` between: Apache's
#: ``SetEnv DB_PASS x``, a Dockerfile's ``ENV DB_PASSWORD x``, csh's ``setenv API_TOKEN x``,
#: nginx's ``fastcgi_param DB_PASS x;``.
_DIRECTIVE = re.compile(
    r"(?m)^[ \t]*(?:SetEnv|ENV|setenv|fastcgi_param)[ \t]+(?P<key>[A-Za-z_][\w.\-]{0,63})[ \t]+"
    r"(?:(?P<q>[\"'])(?P<quoted>[^\"'\n]{1,128})(?P=q)|(?P<value>[^\s\"';]{1,128}))"
)


def _directives(text: str) -> Iterator[tuple[int, int, str]]:
    """Values set by a directive (:data:`_DIRECTIVE`) at a key naming a secret; a name-like
    word there is the value itself (``SetEnv DB_PASS ap4che-db-pw``)."""
    for m in _DIRECTIVE.finditer(text):
        group = "quoted" if m.group("quoted") else "value"
        a, b = m.span(group)
        if names_a_secret_key(m.group("key")) in ("password", "key") and not rejected(
            text[a:b], "=", text, b, literal=True
        ):
            yield a, b, "keyword"


def command_line_secrets(text: str) -> Iterator[tuple[int, int, str]]:
    """Passwords given to a command line's options (see the patterns above), set by SQL
    (``IDENTIFIED BY 'x'``) and by a directive (``SetEnv DB_PASS x``)."""
    if "nv " in text or "NV " in text or "fastcgi_param" in text:  # SetEnv, setenv, ENV
        yield from _directives(text)
    if "dentified" in text or "DENTIFIED" in text:
        for m in _SQL_IDENTIFIED.finditer(text):
            a, b = m.span("value")
            if not rejected(text[a:b], "=", text, b):
                yield a, b, "keyword"
    if ("/" in text and ("/p:" in text or "/user:" in text or "/USER:" in text)) or (
        "|" in text and "echo" in text
    ):
        for m in _CLI_SLASH.finditer(text):
            if m.group("value3") and bool(m.group("user")) == bool(
                m.group("s") or m.group("stdin")
            ):
                continue  # echo x | sudo -S (a password alone); echo user:x | chpasswd
            group = next(g for g in ("value", "value2", "value3") if m.group(g))
            a, b = m.span(group)
            if not rejected(text[a:b], "=", text, b):
                yield a, b, "keyword"
    if "rclone" in text:
        for m in _RCLONE.finditer(text):
            a, b = m.span("value")
            if not rejected(text[a:b], "=", text, b, literal=True):
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
    if " -" in text and (
        "rdesktop" in text
        or " -P " in text
        or " -w " in text
        or " -k " in text
        or "smbclient" in text
    ):
        more.append(_CLI_TOOL)
    if "keytool" in text and "pass " in text:
        more.append(_KEYTOOL_PASS)
    if "-pass" in text:
        more.append(_CLI_PASSWORD)
    for pattern in more:
        for m in pattern.finditer(text):
            a, b = m.span("value")
            b = a + len(text[a:b].rstrip(TRAILING))  # --password=PASS, in a sentence
            value = text[a:b]
            if value and not (value.isalpha() and value.isupper()) and not value.isdigit():
                # not --password PASS; not a port (-u root -p 5432); a name-like word
                # given to a password option is the password (-k backup_key)
                if not rejected(value, "=", text, b, literal=True):
                    yield a, b, "keyword"
