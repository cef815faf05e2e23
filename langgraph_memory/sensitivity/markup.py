"""Secrets in markup: the value of an XML element or of a ``key=/value=`` pair whose name
names a secret (``<password>x</password>``, ``<add key="SmtpPassword" value="x"/>``);
names of a size or a rule (``<passwordLength>``) are none.

Example:
    >>> text = '<add key="SmtpPassword" value="Hunter2x"/> <password>s3cret!</password>'
    >>> [text[a:b] for a, b, _ in markup_secrets(text)]
    ['s3cret!', 'Hunter2x']
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from langgraph_memory.sensitivity.label_values import accept
from langgraph_memory.sensitivity.no_value import rejected

__all__ = [
    "MARKUP_MEASURE",
    "MARKUP_NAME",
    "markup_secrets",
]

# -- markup ---------------------------------------------------------------------------------
#: A name of a secret inside a markup name (``SmtpPassword``, ``api_key``, ``client-secret``).
MARKUP_NAME = re.compile(
    r"pass(?:word|wd|phrase|code)|pwd|secret|token|api[_\-]?key|access[_\-]?key"
    r"|private[_\-]?key|credential",
    re.IGNORECASE,
)
MARKUP_MEASURE = re.compile(r"count|length|len|max|min|size|type|expir|ttl|url|uri|file|path", re.I)
#: ``<password>x</password>`` and ``<add key="SmtpPassword" value="x" />``.
_ELEMENT = re.compile(
    r"<(?P<name>[A-Za-z_][\w.\-:]{0,40})(?:[ \t][^<>\n]{0,80})?>"
    r"(?P<value>[^<>\n]{1,200})</(?P=name)>"
)
_KEY_VALUE = re.compile(
    r"(?<![\w\-])(?:key|name)[ \t]*=[ \t]*(?P<q>[\"'])(?P<name>[^\"'<>\n]{1,60})(?P=q)[ \t]+"
    r"value[ \t]*=[ \t]*(?P<q2>[\"'])(?P<value>[^\"'\n]{1,200})(?P=q2)"
)


def markup_secrets(text: str) -> Iterator[tuple[int, int, str]]:
    """Values of XML elements and ``key=/value=`` attribute pairs whose name names a
    secret (configuration files: ``web.config``, Maven ``settings.xml``, ``.plist``)."""
    if "<" not in text and "value" not in text:
        return
    for pattern in (_ELEMENT, _KEY_VALUE):
        for m in pattern.finditer(text):
            name = m.group("name")
            if not MARKUP_NAME.search(name) or MARKUP_MEASURE.search(name):
                continue
            a, b = m.span("value")
            raw = text[a:b]
            a += len(raw) - len(raw.lstrip())
            b -= len(raw) - len(raw.rstrip())
            value = text[a:b]
            if value and not rejected(value, "=", text, b) and accept("pw", "assign", value, True):
                yield a, b, "markup"
