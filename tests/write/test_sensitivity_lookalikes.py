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
        "passphrase: four words from the list",
        "passphrase: 6 words, all lower case",
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
        ("passphrase: four seasons hotel 88", "four seasons hotel 88"),
        ("passphrase: ten little indians", "ten little indians"),
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


# -- shapes that give a credential away --------------------------------------------------------
_AGE = "AGE-SECRET-KEY-1" + "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L" + "7AUM6ECHK45NJ3S0WDVT2FG8X9"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (
            "registry login: dckr_pat_Zx81kQ2mPa9LbTcWvYn3Rd7Hs",
            "dckr_pat_Zx81kQ2mPa9LbTcWvYn3Rd7Hs",
        ),
        (f"sops 的身份：{_AGE}", _AGE),
    ],
)
def test_a_docker_token_and_an_age_identity_are_api_keys(text: str, value: str) -> None:
    assert _found(text) == [("api_key", value)]


@pytest.mark.parametrize(
    "text", ["dckr_pat_xxxxxxxxxxxxxxxxxxxxxxxx", "AGE-SECRET-KEY-1" + "X" * 58]
)
def test_their_placeholders_are_none(text: str) -> None:
    assert _found(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("恢复码 K7QM-4XZP-2WRT-8NVB 收好", "K7QM-4XZP-2WRT-8NVB"),
        ("recovery code H2JD-9QWE-77RT-MN4K, keep it offline", "H2JD-9QWE-77RT-MN4K"),
        (
            "公众号 AppSecret 9c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f 别外传",
            "9c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f",
        ),
        ("地图服务 key 0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d", "0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d"),
    ],
)
def test_a_grouped_recovery_code_and_a_hex_key_after_a_space(text: str, value: str) -> None:
    assert _found(text) == [("secret", value)]


@pytest.mark.parametrize(
    "text",
    [
        "commit key 3f9a2c1 fixed it",
        "the key fingerprint 0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d",
        "key 12345678901234567890123456789012",
    ],
)
def test_a_short_sha_a_fingerprint_or_a_number_after_key_is_no_value(text: str) -> None:
    assert _found(text) == []


# -- lists of codes, a short label, an ID in its groups -------------------------------------
@pytest.mark.parametrize(
    ("text", "codes"),
    [
        (
            "备份码：41906623、70215548、x8k2m-4pq7z，用过作废",
            ["41906623", "70215548", "x8k2m-4pq7z"],
        ),
        (
            "Slack backup codes\n1. 41906623\n2. 70215548\n3. 5521-0098",
            ["41906623", "70215548", "5521-0098"],
        ),
        ("backup codes:\n- 41906623\n- 70215548", ["41906623", "70215548"]),
    ],
)
def test_codes_named_backup_or_numbered_one_a_line(text: str, codes: list[str]) -> None:
    assert _found(text) == [("secret", c) for c in codes]


def test_a_numbered_list_of_words_under_codes_is_none() -> None:
    assert _found("recovery codes\n1. print them\n2. keep them offline") == []


@pytest.mark.parametrize(
    ("text", "value"), [("pswd: zebra77x lol", "zebra77x"), ("the pswd is zebra77x", "zebra77x")]
)
def test_pswd_is_a_label(text: str, value: str) -> None:
    assert _found(text) == [("secret", value)]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("身份证 110105 19491231 002X 核对一下", "110105 19491231 002X"),
        ("ID 110105-19491231-002X", "110105-19491231-002X"),
    ],
)
def test_an_id_in_its_groups(text: str, value: str) -> None:
    assert _found(text) == [("cn_id", value)]


@pytest.mark.parametrize(
    "text", ["号码 110105 19491231 0021", "part 110105-19491231-002X-7", "110105 19491231-002X"]
)
def test_groups_with_a_bad_check_or_mixed_separators_are_no_id(text: str) -> None:
    assert [k for k, _ in _found(text)] != ["cn_id"]


# -- a full-width comma after a code ------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [("一次性口令 551902，30秒内有效", "551902"), ("动态码 4821，5分钟有效", "4821")],
)
def test_a_code_ends_at_a_full_width_comma_before_a_number(text: str, value: str) -> None:
    assert _found(text) == [("secret", value)]


@pytest.mark.parametrize("text", ["密码 12,500元", "密码 123456,789元"])
def test_an_amount_with_a_thousands_group_is_no_code(text: str) -> None:
    assert _found(text) == []


# -- the new one, after a change -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("邮箱密码改了，新的Tiger-2031，旧的作废", "Tiger-2031"),
        ("wifi密码换了 新的 Tiger2031", "Tiger2031"),
    ],
)
def test_the_new_value_after_a_change(text: str, value: str) -> None:
    assert _found(text) == [("secret", value)]


@pytest.mark.parametrize(
    "text", ["密码改了，我买了新的iPhone15", "密码改了，新的iPhone15密码还没设"]
)
def test_a_new_thing_bought_is_no_value(text: str) -> None:
    assert _found(text) == []


# -- a value between commas ----------------------------------------------------------------------
def test_a_value_set_between_commas_after_its_label() -> None:
    text = "the password, Tq#lake#77, comes in a separate mail"
    assert _found(text) == [("secret", "Tq#lake#77")]


@pytest.mark.parametrize(
    "text",
    [
        "password, username, email are required",
        "password, 8-16 chars, mixed case",
        "the password, v2.1.3, hmm",
    ],
)
def test_fields_a_rule_or_a_version_between_commas_are_none(text: str) -> None:
    assert _found(text) == []


# -- the field a label names; an aside a token cut ----------------------------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("the password field is aHVudGVyMjI=", "aHVudGVyMjI="),
        ("password 字段是 aHVudGVyMjI=（base64 的）", "aHVudGVyMjI="),
        ("密码字段是 Zx81!kq", "Zx81!kq"),
    ],
)
def test_the_value_of_a_password_field(text: str, value: str) -> None:
    assert _found(text) == [("secret", value)]


@pytest.mark.parametrize(
    "text",
    [
        "the password field is required",
        "密码栏是空的",
        "password field: empty",
        "the password field is hidden by default",
        "password 字段是必填的",
    ],
)
def test_talk_about_a_password_field_is_no_value(text: str) -> None:
    assert _found(text) == []


# -- a value before its label ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("spring4ever — that's mom's bank password, don't tell", "spring4ever"),
        ("hunter22 - it's my wifi password", "hunter22"),
        ("「春天的花88」就是我邮箱的密码", "春天的花88"),
        ("「春天的花88」就是那个公用账号的密码", "春天的花88"),
    ],
)
def test_a_value_pointed_at_by_that_s_or_in_corner_quotes(text: str, value: str) -> None:
    assert _found(text) == [("secret", value)]


@pytest.mark.parametrize(
    "text",
    [
        "「春天的花」就是我最喜欢的歌，密码另说",
        "v2.0 — that's my password manager's version",
        "that's my password",
        "这个就是我的密码",
    ],
)
def test_no_value_pointed_at(text: str) -> None:
    assert _found(text) == []


# -- a login on a host ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "ssh root@db.internal",
        "ssh -i ~/.ssh/k.pem -p 2222 ubuntu@bastion.example.net",
        "rsync -avz ./site deploy@web1.acme.io:/var/www",
        "mosh alice@dev.acme.io",
    ],
)
def test_a_remote_shells_target_is_no_address(text: str) -> None:
    assert _found(text) == []


@pytest.mark.parametrize(
    "text", ["I use ssh daily; mail me at lily@acme.io", "ssh keys go to lily@acme.io"]
)
def test_an_address_in_a_sentence_naming_ssh_is_one(text: str) -> None:
    assert _found(text) == [("email", "lily@acme.io")]


# -- an example of a kind; a meeting's id ---------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "取款密码不是 123456 这种",
        "密码 Zx81kq 之类的都行",
        "会议号 845 221 0993",
        "Meeting ID: 845 221 0993",
        "电话会议号码 800 820 8820 免费",  # a toll-free hotline names nobody
        "客服热线 400-976-3666",
        "Toll free: 1-800-275-2273",
    ],
)
def test_an_example_of_a_kind_or_a_meeting_id_is_none(text: str) -> None:
    assert _found(text) == []


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("密码是 Zx81kq，这种很弱", [("secret", "Zx81kq")]),
        ("电话会议号码 021 6123 4567 免费", [("phone", "021 6123 4567")]),
        ("call me 415 555 0199, meeting id later", [("phone", "415 555 0199")]),
    ],
)
def test_a_value_before_a_new_clause_and_a_dial_in_number_stay(
    text: str, found: list[tuple[str, str]]
) -> None:
    assert _found(text) == found


# -- a key's prefix before a mask ------------------------------------------------------------------
@pytest.mark.parametrize("text", ["API_KEY=sk-xxxx", "token: ghp_XXXXXXXX", "key: sk-proj-****"])
def test_a_prefix_before_a_mask_is_a_placeholder(text: str) -> None:
    assert _found(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [("key=sk-live-abc123xyz", "sk-live-abc123xyz"), ("password: xxx-yyy-123", "xxx-yyy-123")],
)
def test_a_value_holding_other_characters_stays(text: str, value: str) -> None:
    assert _found(text) == [("secret", value)]


@pytest.mark.parametrize(
    "text",
    ["密码：××××××", "密码：●●●●●●", "password: ••••••", "密码：示例123", "密码：比如 abc123"],
)
def test_a_mask_of_dots_or_crosses_and_an_example_are_placeholders(text: str) -> None:
    assert _found(text) == []
