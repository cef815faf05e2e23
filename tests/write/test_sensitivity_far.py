"""Secrets a line or several words away from their label, and codes made to be shared
(issue 38, round det8): a password on the line below the words naming it, a Chinese
label then a clause of who or how (``密码我记得是 x``, ``门禁的密码我发你：x``), a password
typed into another field; a parcel's pickup code (取件码, ``pickup code``) is no secret, a
shared link's extraction code (提取码, 访问码, ``extraction code``) is; a password's hash
(``{SSHA}x``, ``md5 of the password: x``) and a variable (``%PASSWORD%``, ``$TOKEN@host``)
are none. Phrasings of our own, English and Chinese."""

from __future__ import annotations

import pytest

from langgraph_memory.sensitivity.below import values_below
from langgraph_memory.sensitivity.label_words import label_matches
from langgraph_memory.sensitivity.labels import labelled_secrets, values
from langgraph_memory.sensitivity.policy import SensitivityFilter

FILTER = SensitivityFilter()


def _found(text: str) -> list[tuple[str, str]]:
    return [(f.kind, text[f.start : f.end]) for f in FILTER.scan(text)]


# -- a line below its label ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("password for the NAS\nhunter22", "hunter22"),
        ("wifi password below\n\nMoose2024", "Moose2024"),
        (
            "Here is the root password for the staging box, use it carefully:\nTr0ub4dor&3",
            "Tr0ub4dor&3",
        ),
        ("the new wifi password is\nMoose2024", "Moose2024"),
        ("服务器root密码如下\nTr0ub4dor&3", "Tr0ub4dor&3"),
        ("家里路由器的密码\n\nqwer1234!", "qwer1234!"),
    ],
)
def test_a_password_on_the_line_below_its_label(text: str, value: str) -> None:
    assert _found(text) == [("secret", value)]
    below = list(values_below(text, label_matches(text, text.lower())))
    assert [text[a:b] for a, b, _ in below] == [value]


@pytest.mark.parametrize(
    "text",
    [
        "I forgot my password\nhelp2024",
        "Reset your password\nhttps://example.com/reset?t=abc123",
        "What's the wifi password?\nMoose2024",
        "password manager\n1Password",
        "The password is the same as before\nThanks!",
        "Your password must be at least 8 characters\nAbc12345",
        "password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256",
        "secret\nv1.2.3-beta",
        "密码忘了\nabc12345",
        "服务器密码\n/etc/shadow",
        "host,user,password\nweb1,deploy",  # a table's row: its cells are read apart
        "| host | password |\n|------|",
        "the password\nis hunter22 on the old box",  # not one token alone on its line
    ],
)
def test_no_password_below_a_label_that_talks_about_one(text: str) -> None:
    assert [k for k, _ in _found(text) if k == "secret"] == []


# -- several words away ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("密码我记得是 abc12345", "abc12345"),
        ("wifi密码我记得是 88886666", "88886666"),
        ("密码印象中是 qwer1234", "qwer1234"),
        ("门禁的密码我发你：2580#", "2580#"),
        ("密码我先发你：k8m2x9", "k8m2x9"),
        ("pw was typed into the username field: Cinnamon88", "Cinnamon88"),
        ("my password went into the search box by mistake: Lemon#4421", "Lemon#4421"),
    ],
)
def test_a_password_several_words_after_its_label(text: str, value: str) -> None:
    assert ("secret", value) in _found(text)


@pytest.mark.parametrize(
    "text",
    [
        "密码我记得是生日",
        "the password went into the notes app, model: RT-AC68U",
        "I pasted the token into the config, host: db01.internal",
        "the wifi password is in the router manual, model: RT-AC68U",
    ],
)
def test_another_fields_value_after_the_words_stays_none(text: str) -> None:
    assert [k for k, _ in _found(text) if k == "secret"] == []


# -- codes made to be shared, and codes that open a share -----------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "your pickup code is 482913",
        "Amazon locker pickup code: 552901",
        "Your parcel pickup code: 7731-22",
        "the collection code for the parcel is 44821",
        "快递柜取件码 48306145",
        "菜鸟驿站取件码：12-3-4456",
    ],
)
def test_a_parcels_pickup_code_is_none(text: str) -> None:
    assert _found(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("extraction code: k8mz", "k8mz"),
        ("the extraction code is 9q3w", "9q3w"),
        ("链接：https://pan.baidu.com/s/1aB 提取码: 9q3w", "9q3w"),
        ("访问码：4xp2", "4xp2"),
        ("网盘访问码是 7kq2", "7kq2"),
        ("the locker code is 4471", "4471"),  # a locker's own code opens it
    ],
)
def test_a_shared_links_code_or_a_lockers_own_code_is_a_secret(text: str, value: str) -> None:
    assert _found(text) == [("secret", value)]


def test_the_readers_parts_keep_the_labels_entry_points() -> None:
    text = "password: abc; 我的密码是sunshine"
    assert values(text) == ["abc", "sunshine"]
    assert [d for *_, d in labelled_secrets(text)] == ["keyword", "keyword"]


# -- hashes and references written where a value would stand ---------------------------
@pytest.mark.parametrize(
    "text",
    [
        "userPassword: {SSHA}5en6G6MezRroT3XKqkdPOmY/BfQ=",
        "md5 of the password: 5f4dcc3b5aa765d61d8327deb882cf99",
        "sha256 of my admin password is " + "ef92b778bafe771e89245b89ecbc08a4" * 2,
        "set PASSWORD=%PASSWORD%",
        "git clone https://oauth2:$GITLAB_TOKEN@gitlab.com/x/y.git",
    ],
)
def test_a_hash_or_a_variable_where_a_value_would_stand_is_none(text: str) -> None:
    assert _found(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("password: Hunter22 (md5 of the password is stored)", "Hunter22"),
        ("the password of the md5 tool is Hunter22", "Hunter22"),
        ("password: %Tr0ub4dor%", "%Tr0ub4dor%"),
    ],
)
def test_a_value_beside_a_hash_word_stays_a_secret(text: str, value: str) -> None:
    assert _found(text) == [("secret", value)]


def test_an_address_after_a_dollar_sign_is_no_email_but_one_alone_is() -> None:
    assert _found("mail me at bob@example.org") == [("email", "bob@example.org")]


# -- other tools' password options --------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "values_"),
    [
        (
            "keytool -genkey -keystore ks.jks -storepass St0rePass1 -keypass K3yPass22",
            ["St0rePass1", "K3yPass22"],
        ),
        ("rdesktop -u admin -p Rd9Pass22 10.0.0.5", ["Rd9Pass22"]),
        ("用这个命令连：sqlcmd -S db -U sa -P SqlP4ss2026", ["SqlP4ss2026"]),
        ("ldapsearch -x -D cn=admin -w Ld4pPass22 -b dc=x", ["Ld4pPass22"]),
        ("openssl enc -aes-256-cbc -k Op3nSslPw -in a -out b", ["Op3nSslPw"]),
        ("smbclient //nas/share -U bob%Smb2026pw", ["Smb2026pw"]),
        ("xfreerdp /u:admin /p:Fr33Rdp2026 /v:10.0.0.5", ["Fr33Rdp2026"]),
        ("挂载共享盘：net use Z: \\\\server\\share /user:bob N3tUse2026", ["N3tUse2026"]),
        ('echo "Pw2026x" | sudo -S apt update', ["Pw2026x"]),
        ("echo 'bob:Ch4ngeMe2026' | sudo chpasswd", ["Ch4ngeMe2026"]),
    ],
)
def test_a_password_given_to_a_tools_option(text: str, values_: list[str]) -> None:
    assert _found(text) == [("secret", v) for v in values_]


@pytest.mark.parametrize(
    "text",
    [
        "sqlcmd -S db -U sa -P $SQLPW",
        "rdesktop -u admin -p - 10.0.0.5",
        "keytool -list -keystore ks.jks -storepass:env KS_PASS",
        "net use Z: \\\\nas\\share /user:bob *",
        "xfreerdp /u:admin /p:$RDP_PW /v:h",
        'echo "deb http://x stable main" | sudo tee /etc/apt/sources.list',
        "ping -w 5 host",
        "echo $PW | sudo -S apt update",
    ],
)
def test_an_option_asking_for_the_password_or_reading_a_variable_is_none(text: str) -> None:
    assert _found(text) == []


# -- a qualifier, then an aside ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        (
            "the password for the wifi, which my landlord set up last year and never changed, "
            "is Moose2024",
            "Moose2024",
        ),
        ("pw for the vpn (don't tell IT I sent this over chat): Vpn#2026x", "Vpn#2026x"),
        ("the password to the shared drive is, as always, Drive2026", "Drive2026"),
        ("银行卡取款密码（千万别外传）：135790", "135790"),
        ("VPN的密码我跟你说过，是 Vpn#2026x", "Vpn#2026x"),
    ],
)
def test_a_password_after_a_qualifier_and_an_aside(text: str, value: str) -> None:
    assert _found(text) == [("secret", value)]


@pytest.mark.parametrize(
    "text",
    [
        "the password for the account, which expired last week, is no longer valid",
        "the password is, as always, the problem",
        "the password for the router, as I said, is printed on the back",
        "the password is, still, wrong",
    ],
)
def test_an_aside_then_prose_is_none(text: str) -> None:
    assert _found(text) == []
