"""What looks like a labelled value and is none, and the shapes that give a credential
away, found on a fresh set's tuning half (issue 38, third round): prose after a label
(a contraction, a count of words), a host and its port, code reading a value through
optional chaining, the ``passwd`` tool's own messages. Phrasings of our own, with the
values they must still find beside them."""

from __future__ import annotations

import pytest

from langgraph_memory.sensitivity.policy import SensitivityFilter

FILTER = SensitivityFilter()


def _found(text: str) -> list[tuple[str, str]]:
    return [(f.kind, text[f.start : f.end]) for f in FILTER.scan(text)]


# -- prose after a label ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "password — won't tell you here",
        "the vault password: can't remember it",
        "密码: don't know yet, ask Li",
        "my passphrase is seven random words, no more hints",
        "the password is three dictionary words",
    ],
)
def test_a_contraction_or_a_count_of_words_is_no_value(text: str) -> None:
    assert _found(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("the NAS password — Gull!73x — don't lose it", "Gull!73x"),
        ("password: dontpanic42", "dontpanic42"),
        ("my passphrase is seven", "seven"),
    ],
)
def test_a_value_beside_prose_is_still_found(text: str, value: str) -> None:
    assert _found(text) == [("secret", value)]


# -- where a secret is used, and code that reads one -------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "imap creds: imap.example.org:993",
        "api key: api.example.com:443",
        "let token = request.headers.authorization?.slice(7);",
        "const secret = process.env.APP_SECRET?.trim();",
        "token = session.auth?.token",
    ],
)
def test_a_host_and_port_or_code_is_no_value(text: str) -> None:
    assert _found(text) == []


def test_a_host_beside_a_password_leaves_the_password() -> None:
    text = "relay creds: relay.example.net:2525, user ops, pass Rl!8823q"
    assert _found(text) == [("secret", "Rl!8823q")]


# -- the passwd tool's messages ----------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "passwd: invalid option -- 'z'",
        "$ sudo passwd bob\npasswd: Authentication failure",
        "passwd: unknown user nobody2",
    ],
)
def test_the_passwd_tools_message_is_no_value(text: str) -> None:
    assert _found(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [("passwd: Tr0ub4dor&3", "Tr0ub4dor&3"), ("passwd: marigold", "marigold")],
)
def test_a_value_after_passwd_is_still_found(text: str, value: str) -> None:
    assert _found(text) == [("secret", value)]
