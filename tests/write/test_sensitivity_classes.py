"""Forms of writing a secret, or of showing one that is none, taken as classes (issue 38,
round of 2026-12-07 evening): a label named in camel case before ``is``, a value marked
as an example, licence and activation keys, corrections, countersigns, account numbers.
Phrasings of our own, English and Chinese."""

from __future__ import annotations

import pytest

from langgraph_memory.sensitivity.examples import marked_as_example
from langgraph_memory.sensitivity.policy import SensitivityFilter

FILTER = SensitivityFilter()


def _found(text: str) -> list[tuple[str, str]]:
    return [(f.kind, text[f.start : f.end]) for f in FILTER.scan(text)]


# -- a label in camel case, then "is" ------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("AppSecret is 9c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f", "9c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f"),
        ("the ClientSecret was Zq81Lm27Pw, rotate it", "Zq81Lm27Pw"),
        ("our AccessToken is Xk29LLp0QQ71zz", "Xk29LLp0QQ71zz"),
        ("dbPassword is hunter22", "hunter22"),
        ("我们的AppSecret就是9c1d2e3f4a5b6c7d8e9f0a1b", "9c1d2e3f4a5b6c7d8e9f0a1b"),
        ("小程序的 AppSecret 为 5e4d3c2b1a0f9e8d7c6b5a4f", "5e4d3c2b1a0f9e8d7c6b5a4f"),
    ],
)
def test_a_camel_case_label_before_is(text: str, value: str) -> None:
    assert _found(text) == [("secret", value)]


@pytest.mark.parametrize(
    "text",
    [
        "UserPassword is required",
        "the ClientSecret is stored in vault",
        "AppSecret is the one in the console",
        "the SecretKey is 32 bytes",
        "dbPassword hunter22",  # a name glued to a word, then only a space: no label
        "AppSecret 在控制台的开发设置里",
    ],
)
def test_a_camel_case_label_without_a_value(text: str) -> None:
    assert _found(text) == []


# -- values marked as examples -------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "password: P@ssw0rd (example only)",
        "password: P@ssw0rd — just an example",
        "password: hunter22 (sample)",
        "e.g. password: P@ssw0rd",
        "for example, password: Hunter22",
        "sample token: Zx81Qa77Lm",
        "密码：P@ssw0rd（示例）",
        "密码是 Abc12345，只是举个例子",
        "示例密码：Abc12345",
        "例如密码是 Abc12345",
        "比如密码设成 Abc12345 吧",
    ],
)
def test_a_value_marked_as_an_example_is_none(text: str) -> None:
    assert [k for k, _ in _found(text) if k == "secret"] == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("e.g. my password is Hunter22", "Hunter22"),
        ("for example when I set the password to Hunter22 it fails", "Hunter22"),
        ("比如我家wifi密码是 Qw12345678", "Qw12345678"),
        ("Here is an example. password: Qw12345!", "Qw12345!"),
        ("see the example config\npassword: Qw12345!", "Qw12345!"),
        ("我的密码是 Abc12345（真的）", "Abc12345"),
    ],
)
def test_an_owned_value_or_a_mark_in_another_sentence_stays_a_secret(text: str, value: str) -> None:
    assert ("secret", value) in _found(text)


def test_an_example_domain_is_no_mark() -> None:
    text = "admin@example.com password: Qw12345!"
    assert _found(text) == [("email", "admin@example.com"), ("secret", "Qw12345!")]
    assert not marked_as_example(text, text.index("Qw"), len(text))


# -- an account's number written like a landline ----------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "宽带账号 021-66778899，装机师傅要的",
        "account no. 212-555-0147 for the electricity bill",
        "电费户号 0755-83218899",
    ],
)
def test_an_account_number_is_no_phone(text: str) -> None:
    assert [k for k, _ in _found(text)] == []


@pytest.mark.parametrize(
    ("text", "phone"),
    [
        ("my cell is 415-555-0123", "415-555-0123"),
        ("电话 028-87654321，找李工", "028-87654321"),
        ("账号 13812345678 就是我手机号", "13812345678"),
        ("call 555-0199 today", "555-0199"),
    ],
)
def test_a_persons_number_stays_a_phone(text: str, phone: str) -> None:
    assert ("phone", phone) in _found(text)


# -- licence and activation keys: a key bought for one user, a secret ------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("激活码：QWERT-ASDFG-ZXCVB-HJKLM", "QWERT-ASDFG-ZXCVB-HJKLM"),
        ("activation code: ABCD-EFGH-IJKL", "ABCD-EFGH-IJKL"),
        ("软件注册码是 A1B2-C3D4-E5F6-G7H8", "A1B2-C3D4-E5F6-G7H8"),
        ("卡密：3K9X-PQ7M-2WZR，别发给别人", "3K9X-PQ7M-2WZR"),
        ("registration code: RX8Q-22LM-9KPT", "RX8Q-22LM-9KPT"),
        ("the license code is 7H2KQ9XX", "7H2KQ9XX"),
        ("registration key: 4C02-88Q1-7719-AB2Z", "4C02-88Q1-7719-AB2Z"),
    ],
)
def test_a_licence_or_activation_key_is_a_secret(text: str, value: str) -> None:
    assert _found(text) == [("secret", value)]


@pytest.mark.parametrize(
    "text",
    [
        "注册码在邮件里",
        "the registration code expires in 30 days",
        "serial number C02XK1ZJJG5H on the laptop",  # a device's serial names no secret
        "序列号 4C02-88Q1-7719，保修到明年三月",
        "取件码 5-2-1107 已经到柜",  # made to be shared
        "邀请码 ABCD-EFGH-IJKL 大家随便用",
    ],
)
def test_serials_and_codes_made_to_be_shared_are_none(text: str) -> None:
    assert [k for k, _ in _found(text) if k == "secret"] == []


def test_a_bank_card_password_is_not_read_as_a_card_secret_label() -> None:
    assert _found("银行卡密码是 135790") == [("secret", "135790")]


# -- a value set right, or named a password after it ---------------------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("the password I sent was wrong, the real one is Tiger-Lily-88", "Tiger-Lily-88"),
        ("the pw had a typo, the actual one is mossyStones!", "mossyStones!"),
        ("the password I sent was wrong, the correct one: Qz!pLm_wAv", "Qz!pLm_wAv"),
        ("密码刚才发错了，正确的是 Kx82mq!z", "Kx82mq!z"),
        ("wifi 密码发错了，真正的是 blue-Moon-77", "blue-Moon-77"),
    ],
)
def test_the_value_a_correction_gives(text: str, value: str) -> None:
    assert _found(text) == [("secret", value)]


@pytest.mark.parametrize(
    "text",
    [
        "the password field is the real one, trust me",
        "I'd use a password manager, the right one is Bitwarden",
    ],
)
def test_a_correction_without_a_credential(text: str) -> None:
    assert _found(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("it's maple-syrup, the guest password i mean", "maple-syrup"),
        ("try Tq#lake77, our router's password", "Tq#lake77"),
        ("是 blue-fox-9，我说的是wifi密码", "blue-fox-9"),
        ("就是 Kx82-mq，路由器密码啊", "Kx82-mq"),
    ],
)
def test_a_value_named_a_password_after_a_comma(text: str, value: str) -> None:
    assert _found(text) == [("secret", value)]


@pytest.mark.parametrize(
    "text",
    [
        "it's re-org time, the password policy changed",
        "use single-sign-on, the password is optional",
        "that's a-b-c-d-e-f, the password format",
    ],
)
def test_no_value_before_a_password_word_that_goes_on(text: str) -> None:
    assert _found(text) == []


# -- a countersign's phrase without a separator; a homophone of 验证码 --------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("门卫说暗号青山绿水就放你进去", "青山绿水"),
        ("暗号天王盖地虎，回答宝塔镇河妖", "天王盖地虎"),
        ("今晚的口令山高水长", "山高水长"),
        ("那个验正码是 6617，快输", "6617"),
    ],
)
def test_a_countersign_or_a_misspelt_code_name(text: str, value: str) -> None:
    assert _found(text) == [("secret", value)]


@pytest.mark.parametrize(
    "text",
    [
        "暗号对上了就行",
        "口令错误就会锁定",
        "发个口令红包",
        "口令验证失败请重试",
        "暗号要记住",
        "这个口令听起来很怪",
    ],
)
def test_a_countersign_word_in_prose(text: str) -> None:
    assert _found(text) == []


# -- a value holding a space to the line's end; a Wi-Fi key listed with other secrets -------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Password : s3cr#t phr4se here", "s3cr#t phr4se here"),
        ("password: p@ss w0rd", "p@ss w0rd"),
    ],
)
def test_a_password_of_symbols_then_a_word_with_digits_runs_to_the_lines_end(
    text: str, value: str
) -> None:
    assert _found(text) == [("secret", value)]


def test_words_of_prose_after_a_password_are_not_taken() -> None:
    assert _found("password: p@ss! for the router") == [("secret", "p@ss!")]


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("at the lake house: gate code 4411, wifi bluefinch, alarm off", ["4411", "bluefinch"]),
        ("门禁 0512，wifi moosetracks（冰箱上贴着）", ["0512", "moosetracks"]),
    ],
)
def test_a_wifi_key_listed_with_other_secrets(text: str, values: list[str]) -> None:
    assert _found(text) == [("secret", v) for v in values]


@pytest.mark.parametrize(
    "text",
    [
        "door keypad 0512, wifi included",
        "door keypad 0512, wifi password on the fridge",
        "the wifi moosetracks network is slow",  # no other secret: no list of them
    ],
)
def test_no_wifi_key_in_a_list_without_one(text: str) -> None:
    assert [v for k, v in _found(text) if v != "0512"] == []


# -- keys whose provider prefix gives them away (second list) ---------------------------------
_TAIL = "Q7mZ2xK9pL4vN8rT3wY6bC1dF5gH0jS"  # 31 letters and digits of no real key
_HEX = "3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c2e"


@pytest.mark.parametrize(
    "key",
    [
        f"tvly-{_TAIL}",
        f"nvapi-{_TAIL}{_TAIL}",
        f"glsa_{_TAIL}_{_HEX[:8]}",
        f"dp.st.prd.{_TAIL}{_TAIL[:12]}",
        f"hvs.{_TAIL[:26]}",
        f"fw_{_TAIL[:26]}",
        f"rnd_{_TAIL}",
        f"lsv2_pt_{_HEX}_{_HEX[:10]}",
        f"pcsk_{_TAIL}{_TAIL[:12]}",
        f"sq0atp-{_TAIL[:22]}",
        f"AKLT{_TAIL}{_TAIL[:10]}",
        f"bce-v3/ALTAK-{_TAIL[:20]}/{_HEX}{_HEX[:8]}",
        f"sb_secret_{_TAIL[:24]}",
    ],
)
def test_more_prefixed_keys_are_api_keys(key: str) -> None:
    assert _found(f"the key {key} is for staging") == [("api_key", key)]
    assert _found(f"新的 key：{key}，别外传") == [("api_key", key)]


# -- credentials a line break cut ------------------------------------------------------------
def test_a_prefixed_key_cut_by_a_line_break_is_found_whole() -> None:
    text = "GitHub token（微信换行了）：\nghp_Q7mZ2xK9pL4vN8rT3w\nY6bC1dF5gH0jSa2B"
    assert _found(text) == [("api_key", "ghp_Q7mZ2xK9pL4vN8rT3w\nY6bC1dF5gH0jSa2B")]


def test_a_jwt_cut_inside_its_payload_is_one_token() -> None:
    jwt = (
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3\n"
        "ODkwIiwiaWF0IjoxNzAwMDAwMDAwfQ.Q7mZ2xK9pL4vN8rT3wY6bC1dF5gH0jSa2B"
    )
    assert _found(f"bearer token from the console:\n{jwt}") == [("token", jwt)]


def test_a_hex_secret_over_two_lines_is_one_secret() -> None:
    value = "3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c2e\n8b1d3f5a7c9e0b2d4f6a8c1e3b5d7f9a"
    assert _found(f"the signing secret\n{value}\nkeep it safe") == [("secret", value)]


@pytest.mark.parametrize(
    "text",
    [
        "OPENAI_API_KEY=sk-proj-Q7mZ2xK9pL4vN8rT3wY6bC1dF5gH0jS\nOPENAI_ORG=org-team",
        "阿里云 AccessKey ID：LTAI5tIRnu8QKLiYNB3FvBxe\nAccessKey Secret：4stGEgA9WlGoNoRY",
    ],
)
def test_a_whole_key_does_not_take_the_next_line(text: str) -> None:
    assert all("\n" not in value for _, value in _found(text))


# -- set by SQL or htpasswd; a network's key; cookies logged; ids with a type's prefix ---------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("ALTER USER 'svc'@'%' IDENTIFIED BY 'Lantern#Bay9';", "Lantern#Bay9"),
        ("create user bob identified with mysql_native_password by 'tiger2026'", "tiger2026"),
        ("htpasswd -b .htpasswd ops Zq8-vault-77", "Zq8-vault-77"),
        ("先 htpasswd -nbB admin Tr0ub4dor-77 生成一行", "Tr0ub4dor-77"),
        ("wifi at the cabin: network TP-LINK_3C9D, key is juniper2031", "juniper2031"),
        ("路由器 TP-LINK_3C9D，key 是 juniper2031", "juniper2031"),
    ],
)
def test_passwords_set_by_commands_and_a_networks_key(text: str, value: str) -> None:
    assert _found(text) == [("secret", value)]


@pytest.mark.parametrize(
    "text",
    [
        "htpasswd -c .htpasswd admin",  # asked for, not given
        "ALTER USER app IDENTIFIED BY '${APP_DB_PASSWORD}';",
        "the network key is required",
        "my house key is under the mat",
        "req id req_Q7mZ2xK9pL4vN8rT3wY6 returned 500",
        "the message id: msg_01Q7mZ2xK9pL4vN8rT3wY6",
    ],
)
def test_no_secret_in_a_prompt_a_placeholder_a_door_key_or_an_id(text: str) -> None:
    assert _found(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "GET /v2/orders cookie=session=Q7mZ2xK9pL4vN8rT3wY6bC1d; theme=dark 200",
        "event={'headers': {'cookie': 'sid=Q7mZ2xK9pL4vN8rT3wY6bC1d'}}",
    ],
)
def test_a_cookie_logged_or_printed_is_a_token(text: str) -> None:
    assert [k for k, v in _found(text) if "Q7mZ2xK9pL4vN8rT3wY6bC1d" in v] == ["token"]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ('She said the code is "maple-thunder" — dash included.', "maple-thunder"),
        ("the code was 'otter-42' last time", "otter-42"),
    ],
)
def test_a_quoted_code_word(text: str, value: str) -> None:
    assert _found(text) == [("secret", value)]


@pytest.mark.parametrize(
    "text",
    [
        'the code is "print_hello" in main.py',
        'the code is "python"',
        "the error code is 'E-TIMEOUT-42'",
        "pw was typed into the wrong box",
    ],
)
def test_no_code_word_in_code_or_prose(text: str) -> None:
    assert _found(text) == []


# -- a secret sent apart from its name -------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("sending the PIN separately, as you asked ... here: 5561", "5561"),
        ("口令我分两条发。\n……\nQingshan-77", "Qingshan-77"),
        ("我把密码单独发你\nKx82mq77", "Kx82mq77"),
    ],
)
def test_a_secret_sent_apart_from_its_name(text: str, value: str) -> None:
    assert _found(text) == [("secret", value)]


@pytest.mark.parametrize(
    "text",
    [
        "I'll send the password separately",
        "password separately; the meeting is at 2026-03-01",
        "密码我单独发，别急",
    ],
)
def test_an_announcement_without_the_value(text: str) -> None:
    assert _found(text) == []
