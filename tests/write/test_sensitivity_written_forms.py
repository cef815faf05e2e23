"""How people write secrets that the label reading missed on fresh sets (issue 38, second
round): lists of codes, credentials a line break cut, values around a code's name, command
lines of archives and logins; and what looks like a value and is none (a shell's message,
a block's key, another field's id). Phrasings of our own, English and Chinese."""

from __future__ import annotations

import pytest

from langgraph_memory.sensitivity.policy import SensitivityFilter

FILTER = SensitivityFilter()


def _found(text: str) -> list[tuple[str, str]]:
    return [(f.kind, text[f.start : f.end]) for f in FILTER.scan(text)]


def _values(text: str) -> list[str]:
    return [text[f.start : f.end] for f in FILTER.scan(text)]


# -- lists of backup codes ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "codes"),
    [
        (
            "recovery codes for the work mailbox: 3305 1298, 7741 0062",
            ["3305 1298", "7741 0062"],
        ),
        ("Dropbox backup codes\nq7w2e-9r4t1\nz8x3c-5v6b0", ["q7w2e-9r4t1", "z8x3c-5v6b0"]),
        ("恢复码：\n4k9d2-8s7f1\n3m6n5-2b1v9", ["4k9d2-8s7f1", "3m6n5-2b1v9"]),
        ("备用码：6011 4821 9930 2278 5518 0063", ["6011 4821", "9930 2278", "5518 0063"]),
    ],
)
def test_each_code_of_a_list_is_a_secret(text: str, codes: list[str]) -> None:
    assert _found(text) == [("secret", c) for c in codes]


@pytest.mark.parametrize(
    "text",
    [
        "recovery codes\nkeep them somewhere safe",
        "备用码\n都存在保险箱里了",
        "backup codes for the team: see the wiki",
    ],
)
def test_a_list_name_without_codes_holds_none(text: str) -> None:
    assert _found(text) == []


def test_a_card_number_not_after_a_code_list_is_still_a_card() -> None:
    assert _found("卡号 6011 4821 9930 2278，有效期 09/29") == [("card", "6011 4821 9930 2278")]


# -- credentials a line break cut ---------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "kind", "whole"),
    [
        (
            "pasted from tmux, it broke the line:\nsk-proj-Qa19Lm4XcV7bNz2Rt8Yu5Wp3\nKd6Hs0Jf2Lg9",
            "api_key",
            "sk-proj-Qa19Lm4XcV7bNz2Rt8Yu5Wp3\nKd6Hs0Jf2Lg9",
        ),
        (
            "钉钉把 key 折成两行：\nsk-7c1e9a3b5d2f4e60\n1b3d5f7a9c2e4b6d",
            "api_key",
            "sk-7c1e9a3b5d2f4e60\n1b3d5f7a9c2e4b6d",
        ),
        (
            "jwt below, the mail app wrapped it\n"
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJqb2UiLCJhZG1pbiI6dHJ1ZX0.\n"
            "Xq2Lm9Tz4Rb7Vn1Kc8Pw3Ys6Hd0Gf5Ja_Ue",
            "token",
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJqb2UiLCJhZG1pbiI6dHJ1ZX0.\n"
            "Xq2Lm9Tz4Rb7Vn1Kc8Pw3Ys6Hd0Gf5Ja_Ue",
        ),
    ],
)
def test_a_credential_cut_by_a_line_break_is_taken_whole(text: str, kind: str, whole: str) -> None:
    assert _found(text) == [(kind, whole)]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        (  # two keys, one a line: two findings
            "keys:\nsk-4e6a8c0b2d4f6a8c\nsk-9b7d5f3a1c8e6b4d",
            [("api_key", "sk-4e6a8c0b2d4f6a8c"), ("api_key", "sk-9b7d5f3a1c8e6b4d")],
        ),
        (  # a short word on the next line is no rest of the key
            "my key sk-4e6a8c0b2d4f6a8c\nthx4this",
            [("api_key", "sk-4e6a8c0b2d4f6a8c")],
        ),
        (  # a line of prose after the key
            "新的 key sk-4e6a8c0b2d4f6a8c\n明天过期",
            [("api_key", "sk-4e6a8c0b2d4f6a8c")],
        ),
    ],
)
def test_the_next_line_is_no_rest_of_a_credential(text: str, found: list) -> None:
    assert _found(text) == found


# -- what looks like a value and is none --------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "services:\n  db:\n    MYSQL_PASSWORD: ${MYSQL_PASSWORD:?export it first}",
        "api:\n  TOKEN: ${API_TOKEN:?缺少 token}",
        "the Secret:\nstringData:\n  note: see below",
        "k8s 的 Secret：\nmetadata:\n  name: app-db",
        "申请了 ClientId 和 ClientSecret，ClientId 是 cli8f2a9d7e3b41c6，secret 稍后发",
        "the token and user_id: usr4821xq9, the token comes later",
    ],
)
def test_no_value_where_a_value_would_stand(text: str) -> None:
    assert _found(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("db:\n  PASSWORD: ${DB_PASSWORD:-Dev#Pass42}", "Dev#Pass42"),
        ("AppSecret 是 Zk7#pq21mm，别外传", "Zk7#pq21mm"),
        ("[mongo]\nhost=10.1.2.3\nauth=Mongo_Ops_2026", "Mongo_Ops_2026"),
    ],
)
def test_values_next_to_those_forms_are_still_found(text: str, value: str) -> None:
    assert _values(text) == [value]


def test_a_bare_auth_key_outside_a_config_section_is_no_secret() -> None:
    assert _found("auth=oauth2") == []


# -- one-time and lock codes around their names -------------------------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("【顺丰】730418（短信验证码），五分钟内有效", "730418"),
        ("591027（登录码）别告诉别人", "591027"),
        ("SMS: 284610 (your login code). Do not share it.", "284610"),
        ("Enter 40917 to sign in to your bank", "40917"),
        ("please use 662301 to verify your email address", "662301"),
        ("the code the bank sent me was 880412", "880412"),
        ("the pin they texted over is 3371", "3371"),
        ("小区的布防码是7395", "7395"),
        ("行李箱的密码 472", "472"),
        ("my suitcase password is 905", "905"),
    ],
)
def test_a_code_named_around_its_value(text: str, value: str) -> None:
    assert _values(text) == [value]


@pytest.mark.parametrize(
    "text",
    [
        "order 2024553 (sms code sent separately)",
        "the code they sent me is 4000 lines long",
        "use 2024 to compare the years",
        "enter 3 to confirm",
        "密码 519",  # three digits after a password word: no lock's dials named
        "房间号 804（前台登记）",
    ],
)
def test_numbers_that_are_no_code(text: str) -> None:
    assert _found(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Visa ending 1111, exp 04/30, CSC: 907", "907"),
        ("Amex card, CID 4417", "4417"),
        ("信用卡背面三位数是 731", "731"),
    ],
)
def test_a_card_security_code_by_its_other_names(text: str, value: str) -> None:
    assert _values(text) == [value]


@pytest.mark.parametrize(
    "text", ["CID: 6613 for the support call", "the caller's CID is 2210", "三位数 518 是质数"]
)
def test_those_names_elsewhere_name_no_card_code(text: str) -> None:
    assert _found(text) == []


# -- command lines of archives, HTTP clients and logins -----------------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("zip -r -P Bluefin#42 out.zip notes/", "Bluefin#42"),
        ("unzip -P orca2077 发票.zip", "orca2077"),
        ("7z x 合同.7z -pQuartz_55 -o./out", "Quartz_55"),
        ("rar a -hpTide#9k 备份.rar D:/docs", "Tide#9k"),
        ("https -a bob:Lime-Tree7 POST api.local/v2/jobs", "Lime-Tree7"),
        ("podman login --username=ci-bot -p Reg1stry!x quay.io", "Reg1stry!x"),
    ],
)
def test_a_password_on_a_command_line(text: str, value: str) -> None:
    assert _values(text) == [value]


@pytest.mark.parametrize(
    "text",
    [
        "rar a -p- out.rar docs",  # "no password"
        "7z a -p out.7z docs",  # asked for at the prompt
        'unzip -P "$ZIP_PASS" a.zip',
        "zip -r -q out.zip dir",
        "ssh -p 2222 deploy@host",
        "http -a GET example.org",
        "pip install -P constraints.txt",
    ],
)
def test_no_password_on_those_command_lines(text: str) -> None:
    assert _found(text) == []


# -- values the label reading stopped short of --------------------------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("网盘的密码：海上生明月（全中文）", "海上生明月"),
        ("wifi密码是我爱你中国，就这么简单", "我爱你中国"),
        ("我的口令是 我爱上海外滩 四个字不对是六个", "我爱上海外滩"),
        ("my pin... no, my password is actually just summer42", "summer42"),
        ("the password is literally simply qwerty7", "qwerty7"),
    ],
)
def test_a_value_after_an_aside_a_slogan_or_hedges(text: str, value: str) -> None:
    assert _values(text) == [value]


@pytest.mark.parametrize(
    "text",
    [
        "密码是我爱人的生日",
        "密码是我爱好的东西",
        "口令：芝麻开门（开玩笑的，其实是 这个不能说）",
        "the password is just really long",
        "my password is literally just too weak",
    ],
)
def test_no_value_in_a_description_or_a_corrected_aside(text: str) -> None:
    assert _found(text) == []


# -- a value before its label --------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("kx2026ab 这个就是我邮箱的密码", "kx2026ab"),
        ("lotus2288 它就是公司wifi的密码", "lotus2288"),
        ("cedar42 = password for the garage pc", "cedar42"),
        ("orbit909 -> password of my old laptop", "orbit909"),
    ],
)
def test_a_value_written_before_its_label(text: str, value: str) -> None:
    assert _values(text) == [value]


@pytest.mark.parametrize(
    "text",
    [
        "tmp1 = password",
        "item7 = password;",
        "hash2 = password_hash(raw)",
        "order2024 这个是我的订单号",
        "v2 = password for the db",
    ],
)
def test_no_value_before_a_label_in_code_or_other_fields(text: str) -> None:
    assert _found(text) == []


# -- an instruction where a value would stand ---------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "wifi密码：问前台",
        "WiFi密码：问一下店员",
        "会议室密码：找行政要",
        "密码：扫码获取",
        "密码：群里有",
        "口令：私聊我",
        "guest wifi password: ask the barista",
        "password: front desk has it",
        "door code: call Sam",
        "the vpn password: text me",
    ],
)
def test_an_instruction_after_a_label_is_no_value(text: str) -> None:
    assert _found(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("口令：问君能有几多愁", "问君能有几多愁"),  # a verse opening with 问
        ("wifi密码：Front#desk8", "Front#desk8"),
        ("password: Text2024!", "Text2024!"),
    ],
)
def test_values_that_look_like_instructions_are_still_found(text: str, value: str) -> None:
    assert _values(text) == [value]


# -- shapes of generated passwords and recovery keys --------------------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Yahoo app password: wxyz lmno pqrs tuvb", "wxyz lmno pqrs tuvb"),
        ("邮箱的应用密码是 hjkl qwer zxcv bnmt", "hjkl qwer zxcv bnmt"),
        ("163邮箱授权码 qzwxkvbnmjhgfdtp", "qzwxkvbnmjhgfdtp"),
        ("psw: Gr4nite!", "Gr4nite!"),
        (
            "BitLocker 恢复密钥 402105-661232-508134-219087-330561-779203-118382-640090",
            "402105-661232-508134-219087-330561-779203-118382-640090",
        ),
        ("储物柜密码锁 2468#", "2468#"),
        ("锁屏 8520", "8520"),
    ],
)
def test_a_generated_secret_by_its_shape_after_its_name(text: str, value: str) -> None:
    assert _values(text) == [value]


@pytest.mark.parametrize(
    "text",
    [
        "密码 administrator",  # a word, no random letters
        "密码 internationalization",
        "密码锁 2000 元",
        "门锁 1357 号房",
        "the psw file is in the repo",
        "order ids 402105-661232-508134",
    ],
)
def test_those_shapes_elsewhere_are_no_secret(text: str) -> None:
    assert _found(text) == []


# -- a value given after a description of how it is made ----------------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("the zip password is her birthday ddmmyy, so for you 140392", "140392"),
        ("my pin is our anniversary: 0921", "0921"),
        ("pass is the cat's name plus the year: mochi2021", "mochi2021"),
        ("密码是生日加名字缩写 19870304lj", "19870304lj"),
        ("口令就是我的工号 A10234", "A10234"),
    ],
)
def test_a_value_after_how_it_is_made(text: str, value: str) -> None:
    assert _values(text) == [value]


@pytest.mark.parametrize(
    "text",
    [
        "the password is your name plus the year",
        "the pin is your birth year, e.g. the year you were born",
        "password is the date: 2024-05-01",
        "密码是生日，你自己试试",
        "password: unchanged",
        "wifi password: rotated",
    ],
)
def test_a_description_alone_or_a_status_is_no_value(text: str) -> None:
    assert _found(text) == []


# -- an account written as address / password, a value used as one -----------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Spotify: kim.lee@mail.com / Tr0mbone!", "Tr0mbone!"),
        ("公司邮箱 wang.wei@corp.cn / Ww#2026abc，别外传", "Ww#2026abc"),
        ("I typed river88 as my password", "river88"),
        ("我用 qaz123wsx 当作登录密码", "qaz123wsx"),
        ("初始密码为身份证后六位，也就是 30521X", "30521X"),
    ],
)
def test_an_account_pair_or_a_value_used_as_a_password(text: str, value: str) -> None:
    assert value in _values(text)


@pytest.mark.parametrize(
    "text",
    [
        "mail me at amy@mail.com / or call",
        "contact li@x.cn / wang@x.cn",
        "amy@mail.com / 2024",
        "I used v2 as the password field",
        "we set x86 as the password policy",
    ],
)
def test_no_password_in_address_lists_or_settings(text: str) -> None:
    assert [k for k, _ in _found(text) if k == "secret"] == []


def test_url_credentials_are_no_address_pair() -> None:
    text = "MONGO=mongodb+srv://app:Str0ng2026@c0.x1.mongodb.net/db?retryWrites=true"
    assert _found(text) == [("secret", "Str0ng2026")]


# -- a lock's dials read with spaces, an entry gate's code --------------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("the locker combo is 8 16 24", "8 16 24"),
        ("bike lock combination: 3 9 1 7", "3 9 1 7"),
        ("单元门禁 #2580", "#2580"),
        ("公司门禁密码 041296", "041296"),
    ],
)
def test_dials_and_gate_codes(text: str, value: str) -> None:
    assert _values(text) == [value]


@pytest.mark.parametrize(
    "text",
    ["combo meal 2 for 12 dollars", "the combo is 3 4", "门禁 2024 年更换", "门禁卡 1234 张已发"],
)
def test_no_dials_or_gate_code(text: str) -> None:
    assert _found(text) == []


# -- a passphrase of plain words to the line's end ----------------------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("ok so the password is: violet ocean 42", "violet ocean 42"),
        ("Password: marble staircase 7\nUser: kim", "marble staircase 7"),
    ],
)
def test_plain_words_and_a_number_to_the_line_end(text: str, value: str) -> None:
    assert _values(text) == [value]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("password: hunter for the 2 of us", "hunter"),  # prose goes on: the word alone
        ("password: sunshine", "sunshine"),
    ],
)
def test_a_plain_word_alone_when_no_phrase_follows(text: str, value: str) -> None:
    assert _values(text) == [value]


def test_a_placeholder_before_a_number_is_still_none() -> None:
    assert _found("password: changeme 123") == []


# -- a wifi password by a vague noun or an arrow ------------------------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("so the wifi thing is lemonbar42 i believe", "lemonbar42"),
        ("cedar-loft-58 <- wifi", "cedar-loft-58"),
        ("Quill-Path-3x ← wifi（家里的）", "Quill-Path-3x"),
    ],
)
def test_a_wifi_password_by_a_vague_noun_or_an_arrow(text: str, value: str) -> None:
    assert _values(text) == [value]


@pytest.mark.parametrize(
    "text",
    ["the wifi thing is broken again", "CMCC-8F2A <- wifi name", "office-net-5g = wifi"],
)
def test_no_wifi_password_in_a_status_or_a_network_name(text: str) -> None:
    assert _found(text) == []


# -- Chinese fillers around a value -------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("口令就是这个 Moon#2026", "Moon#2026"),
        ("快记下 wifi 密码呀 55667788", "55667788"),
        ("孩子生日 0315 也是我的支付密码", "0315"),
    ],
)
def test_a_value_around_chinese_fillers(text: str, value: str) -> None:
    assert _values(text) == [value]


@pytest.mark.parametrize(
    "text", ["密码就是那个啊", "密码是那个 2024 年的", "密码啊 我忘了", "密码呀 8 位"]
)
def test_fillers_without_a_value(text: str) -> None:
    assert _found(text) == []


# -- the code to a thing it opens ---------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("the code to the storage unit is 6620", "6620"),
        ("our code for the boathouse: 1188#", "1188#"),
    ],
)
def test_the_code_to_what_it_opens(text: str, value: str) -> None:
    assert _values(text) == [value]


@pytest.mark.parametrize(
    "text",
    [
        "the code for the discount is 4471",
        "the code for the event is 2026",
        "my code for the exercise is 1234 lines",
        "the code of the error is 5003",
    ],
)
def test_a_code_that_opens_nothing(text: str) -> None:
    assert _found(text) == []


# -- short login pairs, a qualifier before an arrow ---------------------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("u: mara p: M4ra!cloud", "M4ra!cloud"),
        ("user kim pass kimchi2026", "kimchi2026"),
        ("bike lock combo at the station → 7-31-12", "7-31-12"),
        ("wifi password at the cabin -> Pine#cone5", "Pine#cone5"),
    ],
)
def test_short_pairs_and_a_qualified_label_before_an_arrow(text: str, value: str) -> None:
    assert _values(text) == [value]


@pytest.mark.parametrize(
    "text", ["user alice pass the salt", "u: 3 p: 4", "menu: soup p: 12", "user bob pass 2 tickets"]
)
def test_no_pair_in_prose_or_menus(text: str) -> None:
    assert _found(text) == []


# -- a service's code -----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Your Bolt code is 4417. Don't share it.", "4417"),
        ("the new code is 5599", "5599"),
        ("the secret code is 8023", "8023"),
    ],
)
def test_a_services_code(text: str, value: str) -> None:
    assert _values(text) == [value]


@pytest.mark.parametrize(
    "text",
    [
        "your zip code is 94107.",
        "my error code is 5521",
        "the version code is 2026.",
        "the product code is 4471",
        "the code is 1234.5",
    ],
)
def test_a_code_that_names_no_secret(text: str) -> None:
    assert _found(text) == []
