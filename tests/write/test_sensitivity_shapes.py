"""Readings that keep non-secrets out and give random values their kind: URL password
placeholders, cookie attributes, base64 digests after a hash name, session tokens, and
secret words inside an assigned value."""

from __future__ import annotations

import re

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from langgraph_memory.sensitivity.policy import SensitivityFilter

FILTER = SensitivityFilter()


def kinds(text: str) -> list[tuple[str, str]]:
    return [(f.kind, text[f.start : f.end]) for f in FILTER.scan(text)]


@pytest.mark.parametrize(
    "placeholder",
    ["${DB_PASS}", "$PGPASSWORD", "%PASSWORD%", "{{ db_password }}", "<password>", "[pass]"]
    + ["password", "PASSWORD", "your_password", "secret", "****", "xxx"],
)
@pytest.mark.parametrize("scheme", ["postgres", "mysql", "redis", "amqp", "mongodb+srv"])
def test_a_url_password_placeholder_is_no_secret(placeholder: str, scheme: str) -> None:
    text = f"{scheme}://app:{placeholder}@db.internal:5432/app"
    assert not [k for k in kinds(text) if k[0] == "secret"], text


@given(
    st.text(
        "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789!#%^*", min_size=6, max_size=20
    )
)
@settings(max_examples=60, deadline=None)
def test_a_real_url_password_is_still_found(value: str) -> None:
    # (a word naming the field, "SECRET", "passwords", or x's, stands for the value)
    assume(re.fullmatch(r"(?i:(?:pass(?:wd|word)?|secret)s?|[*xX.]+)", value) is None)
    text = f"postgres://app:{value}@db.internal:5432/app"
    assert ("secret", value) in kinds(text) or not any(c.isalnum() for c in value)


@pytest.mark.parametrize("value", ["KBncnhEQxPW!kx", "abPWD#zz12", "q7Pass^x9k", "zzToken*4Rt"])
@pytest.mark.parametrize("scheme", ["postgres", "redis", "amqp"])
def test_a_label_word_inside_a_url_password_is_part_of_it(value: str, scheme: str) -> None:
    # a camel-case "PW" or "Pass" inside the password is a piece of it, not its label
    assert ("secret", value) in kinds(f"{scheme}://app:{value}@db.internal:5432/app")


@pytest.mark.parametrize("value", ["pw", "$ecret1", "hunter2", "Passw0rd!"])
def test_short_or_plain_url_passwords_are_secrets(value: str) -> None:
    assert ("secret", value) in kinds(f"mysql://root:{value}@localhost/db")


@pytest.mark.parametrize(
    "attrs",
    [
        "Path=/; Max-Age=31536000",
        "Domain=example.com; Expires=Wed, 21 Oct 2026 07:28:00 GMT",
        "Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=86400",
    ],
)
@pytest.mark.parametrize("pair", ["theme=dark", "lang=zh-CN", "consent=yes"])
def test_cookie_attributes_are_not_credentials(pair: str, attrs: str) -> None:
    assert kinds(f"Set-Cookie: {pair}; {attrs}") == []


def test_a_cookie_with_a_session_value_is_still_a_token() -> None:
    text = "Set-Cookie: sid=9f8a7b6c5d4e3f21; Path=/; Max-Age=3600"
    assert [k for k, _ in kinds(text)] == ["token"]


B64 = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ0123456789+/"


@given(st.text(B64, min_size=40, max_size=64))
@settings(max_examples=60, deadline=None)
def test_a_base64_digest_after_a_hash_name_is_no_secret(digest: str) -> None:
    for text in (
        f"SSH key fingerprint SHA256:{digest}",
        f'<script integrity="sha384-{digest}" crossorigin>',
        f"checksum md5:{digest}",
    ):
        assert not [k for k in kinds(text) if k[0] == "secret"], text


def test_the_same_value_without_a_hash_name_is_still_a_secret() -> None:
    value = "VzHtdW7iGYj0eJQZqkGY7HITdcMMJuwTQSllFwIAbZf"
    assert kinds(f"deploy credential {value}") == [("secret", value)]


@pytest.mark.parametrize(
    "template",
    [
        "session cookie value {v} - is it expired?",
        "cookies={{'sessionid': '{v}'}}",
        "my csrf value is {v}",
        "浏览器里的 session 值 {v}",
    ],
)
def test_a_random_value_after_a_session_word_is_a_token(template: str) -> None:
    value = "lmrqWMJDFB5DvQO_IT13oIK5aPx51cyHNp6xDnVEVr"
    assert ("token", value) in kinds(template.format(v=value))


@pytest.mark.parametrize("name", ["ShopPw", "MyPin", "AppSecret", "DevToken", "WifiKey"])
@pytest.mark.parametrize(
    "form",
    ["jdbc:mysql://db/shop?user=shop&password={n}#1&ssl=false", "DB_PASSWORD={n}#1\nDB_HOST=db"],
)
def test_a_secret_word_inside_an_assigned_value_is_not_a_label(name: str, form: str) -> None:
    text = form.format(n=name)
    assert kinds(text) == [("secret", f"{name}#1")], text


@pytest.mark.parametrize(
    "template", ["his ss# is {n}", "SSN: {n}", "social security {n}", "社保号 {n}"]
)
def test_nine_digits_just_after_an_ssn_word_are_an_ssn(template: str) -> None:
    text = template.format(n="665399537")
    assert ("ssn", "665399537") in kinds(text)


@pytest.mark.parametrize(
    "text", ["order 665399537 shipped", "SSN forms take weeks; ticket 665399537", "id 987654321"]
)
def test_nine_digits_without_an_ssn_word_just_before_are_no_ssn(text: str) -> None:
    assert "ssn" not in [k for k, _ in kinds(text)]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ('network={\n    ssid="HomeNet"\n    psk="kitchen-table-lamp"\n}', "kitchen-table-lamp"),
        ("wpa_passphrase: x; psk: Tiger#2026", "Tiger#2026"),
        ("mima: lele0521", "lele0521"),
        ("mima是lele0521，拼音加生日", "lele0521"),
        ("my mima is Tiger#2026", "Tiger#2026"),
    ],
)
def test_psk_and_pinyin_mima_are_password_words(text: str, value: str) -> None:
    assert ("secret", value) in kinds(text), text


@pytest.mark.parametrize("word", ["pwd", "password", "passcode", "mima"])
@pytest.mark.parametrize("link", ["是", "为", "改成了"])
def test_an_english_word_glued_to_a_chinese_link(word: str, link: str) -> None:
    text = f"{word}{link}lele0521，别忘了"
    assert ("secret", "lele0521") in kinds(text), text


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("card 4111 exp 06/30, the 4 digit code is 5821", "5821"),
        ("the 3-digit code: 612", "612"),
        ("6 digit code is 482913", "482913"),
        ("信用卡 有效期 08/29 背面三位码 612", "612"),
        ("四位码是 0917", "0917"),
    ],
)
def test_a_code_named_by_its_digits(text: str, value: str) -> None:
    assert ("secret", value) in kinds(text), text


@pytest.mark.parametrize(
    "text",
    [
        "enter the 6 digit code sent to your phone",
        "a 4 digit code of 2 numbers",
        "the 4 digit code is 2 minutes old",
        "三位码 的卡",
    ],
)
def test_a_digit_code_without_digits_after_it_is_nothing(text: str) -> None:
    assert [k for k, _ in kinds(text) if k == "secret"] == [], text


@pytest.mark.parametrize("user", ["user: root", "username = admin", "login: pi", "用户名: 张三"])
@pytest.mark.parametrize("value", ["toor", "raspberry", "letmein"])
def test_pass_in_a_login_block_takes_a_plain_value(user: str, value: str) -> None:
    for text in (f"{user}\npass: {value}\nhost: 10.0.0.5", f"host: db\npass: {value}\n{user}"):
        assert ("secret", value) in kinds(text), text


@pytest.mark.parametrize(
    "text",
    [
        "user: root\nthe pass: valid until May",
        "pass: valid\nhost: 10.0.0.5",
        "user: root, day pass: included",
        "boarding pass: ready\n\n\nuser: me",
    ],
)
def test_pass_outside_a_login_block_still_needs_a_credential(text: str) -> None:
    assert [k for k, _ in kinds(text) if k == "secret"] == [], text


@pytest.mark.parametrize("device", ["router", "the NAS", "camera", "光猫", "firewall"])
@pytest.mark.parametrize("value", ["Netgear_Home1", "P@ssw0rd", "x7kq9m2p"])
def test_an_admin_pair_after_a_device_is_a_password(device: str, value: str) -> None:
    text = f"{device}: admin/{value}"
    assert ("secret", value) in kinds(text), text


@pytest.mark.parametrize(
    "text",
    [
        "router: admin/settings page",
        "the router admin/Settings page",
        "see https://example.com/admin/Dashboard2 on the router",
        "admin/Netgear_Home1 is the branch name",
    ],
)
def test_an_admin_path_is_no_password(text: str) -> None:
    assert [k for k, _ in kinds(text) if k == "secret"] == [], text


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("hotel safe, i set it to 1066", "1066"),
        ("the garage door: I changed the code to 4821 yesterday", "4821"),
        ("lockbox by the gate, reset it to #2580", "#2580"),
    ],
)
def test_a_lock_set_to_a_code(text: str, value: str) -> None:
    assert ("secret", value) in kinds(text), text


@pytest.mark.parametrize(
    "text",
    [
        "the door is safe, I set the alarm to 0630 am",
        "safe mode: set it to 30 minutes",
        "I set the thermostat to 2150 for the night",
    ],
)
def test_no_lock_code_without_a_lock_and_a_code(text: str) -> None:
    assert [k for k, _ in kinds(text) if k == "secret"] == [], text


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("保险箱默认密码 000000，我改成了 582046", "582046"),
        ("wifi 密码改成了 Qwer1234", "Qwer1234"),
        ("门禁密码原来是 1234，换成了 8866", "8866"),
    ],
)
def test_a_password_changed_to_a_value_in_chinese(text: str, value: str) -> None:
    assert ("secret", value) in kinds(text), text


@pytest.mark.parametrize(
    "text",
    [
        "密码改成了 8 位以上",
        "密码太短，改成了 2026 年的规则",
        "my password is wrong, actually 2024 was the year",
    ],
)
def test_a_change_to_a_rule_or_a_year_is_no_password(text: str) -> None:
    assert [k for k, _ in kinds(text) if k == "secret"] == [], text


HEX = "3003c33e32115a6a1183e851e78918ad9b78103f7a2df0d1227c49ce0f93b79c"


@pytest.mark.parametrize(
    "text",
    [f"secret_key_base: {HEX}", f"SECRET_KEY_HEX={HEX}", "API_KEY_B64=Xk29LLp0QQ71aa"]
    + ['token_value: "abc123xyz"'],
)
def test_a_secret_name_with_a_form_ending_still_names_a_secret(text: str) -> None:
    assert "secret" in [k for k, _ in kinds(text)], text


@pytest.mark.parametrize(
    "text",
    ["password_hash: $2b$12$abc", "token_type: bearer", "key_value: 12", f"commit_sha: {HEX}"],
)
def test_other_endings_name_no_secret(text: str) -> None:
    assert [k for k, _ in kinds(text) if k == "secret"] == [], text
