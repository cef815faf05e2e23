"""Readings added for recall on untuned text (issue 38): Chinese passphrases of an idiom's
or a verse's length, values before their label, login codes, network-named passwords."""

from __future__ import annotations

import pytest

from langgraph_memory.sensitivity.labels import values
from langgraph_memory.sensitivity.policy import SensitivityFilter

FILTER = SensitivityFilter()


def _found(text: str) -> list[str]:
    return [text[f.start : f.end] for f in FILTER.scan(text)]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("口令是山高水长", "山高水长"),
        ("保险箱密码是 春眠不觉晓", "春眠不觉晓"),
        ("我的密码：床前明月光", "床前明月光"),
        ("暗号是长长久久", "长长久久"),
    ],
)
def test_a_chinese_passphrase_of_a_verse_length_is_a_value(text: str, value: str) -> None:
    assert _found(text) == [value]


@pytest.mark.parametrize(
    "text",
    ["密码是公司名称", "密码是生日加姓名", "密码是不知道啊", "密码：不告诉你", "密码是手机后四位"],
)
def test_chinese_describing_a_password_is_no_passphrase(text: str) -> None:
    assert _found(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "密码：写在纸上",
        "密码：贴在门上",
        "密码：还没想好",
        "密码：在抽屉里面",
        "密码是写在纸上",
        "密码：贴在路由器背面",
        "口令：藏在床下",
    ],
)
def test_a_direction_of_place_or_state_is_no_passphrase(text: str) -> None:
    assert _found(text) == []


def test_an_idiom_holding_zai_is_still_a_passphrase() -> None:
    assert _found("口令：远在天边") == ["远在天边"]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("use 'tiger42' as the password", "tiger42"),
        ("maple77x! (my bank password)", "maple77x!"),
        ("Zq8!rT2w <- wifi password", "Zq8!rT2w"),
        ("xyz123456 这个是我QQ的密码", "xyz123456"),
        ("我一般都用 Qq123456 当密码", "Qq123456"),
        ("use 0000@aPW as the password", "0000@aPW"),
    ],
)
def test_a_value_before_its_label(text: str, value: str) -> None:
    assert _found(text) == [value]


@pytest.mark.parametrize(
    "text",
    [
        "'sunshine' is the most common password",
        "use 'v2' as the password",
        "see section 4.2 (the password rules)",
        "v2.0 这个是新的密码策略",
    ],
)
def test_no_value_before_a_label(text: str) -> None:
    assert _found(text) == []


def test_a_login_code_is_a_one_time_code() -> None:
    assert values("登录码 839201") == ["839201"]
    assert _found("你的登录码是：552901，5分钟内有效") == ["552901"]
    assert _found("登录码已发送到手机") == []
    assert _found("解压码：zip2026") == ["zip2026"]
    assert _found("解压码在群公告里") == []


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("WiFi 密码 ChinaNet-abcd", ["ChinaNet-abcd"]),
        ("wifi密码 Home_Guest", ["Home_Guest"]),
        ("忘记密码 see-below", []),
    ],
)
def test_a_password_named_like_its_network_after_a_chinese_word(
    text: str, found: list[str]
) -> None:
    assert _found(text) == found


@pytest.mark.parametrize(
    "text",
    [
        "checksum md5:000000000000000000000000000000000+PW+0Aa",
        "SSH key fingerprint SHA256:abcdefghijkmnpqrstuvwxyz0123/PW/0Aa",
    ],
)
def test_a_secret_word_inside_base64_is_no_label(text: str) -> None:
    assert _found(text) == []
