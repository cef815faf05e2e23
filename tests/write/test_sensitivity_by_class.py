"""The detector widened by class (issue 38, round det10): keys of more providers given
away by their prefix, and the classes below. Values and phrasings of our own, English and
Chinese, positives and look-alikes per class."""

from __future__ import annotations

import pytest

from langgraph_memory.sensitivity.policy import SensitivityFilter

FILTER = SensitivityFilter()


def _found(text: str) -> list[tuple[str, str]]:
    return [(f.kind, text[f.start : f.end]) for f in FILTER.scan(text)]


# -- keys given away by their provider's prefix ------------------------------------------
@pytest.mark.parametrize(
    "key",
    [
        "nfp_" + "Zk3Lq9Rm2TpX7vBn0Wc4" + "Hs8Jd1Fg5Ka6Yu7Io",  # Netlify personal access token
        "rubygems_" + "3e8d1c0a9b7f6e5d" * 3,  # RubyGems API key
        "re_Gh7Kq2Lm_" + "Tz9Xc4Vb8Nw1Pq6Ry3Sd5Fa2",  # Resend
        "xkeysib-" + "0a1b2c3d4e5f6789" * 4 + "-Qw3Er5Ty7Ui9Op1A",  # Brevo
        "CCIPAT_Mz4Nq8Rk2Lw6Tp0Xv3Bc7Y_" + "9c8b7a6f5e4d3c2b1a09" * 2,  # CircleCI
        "pul-" + "7e6d5c4b3a29180f" * 2 + "e1d2c3b4",  # Pulumi
        "napi_" + "k3m9q2x7w1z8p4r6" * 4,  # Neon
        "4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c-us21",  # Mailchimp, its data centre after it
        "pscale_tkn_" + "Qx8Rm2Lz0PtY7aKd93hQ0zTmR7pXw2Lq8Vn4Bc6Yt1Z",  # PlanetScale
        "HRKU-"
        + "Aa9Bb8Cc7Dd6Ee5Ff4Gg3Hh2Ii1Jj0Kk9Ll8Mm7Nn6Oo5Pp4Qq3Rr2Ss1Tt0Uu9Vv"[:60],  # Heroku
        "fo1_" + "Zq8Rm2Lx0PtY7aKd93hQ0zTmR7pXw2Lq8Vn4Bc6Yt1Zs"[:43],  # Fly.io
        "ATBB" + "k3m9q2x7W1z8p4r6T5n0v2b4c6d8f0h1",  # Bitbucket app password
        "pnu_" + "Zq8Rm2Lx0PtY7aKd93hQ0zTmR7pXw2Lq8Vn4",  # Prefect
        "sgp_" + "0a1b2c3d4e5f6789" * 2 + "0a1b2c3d",  # Sourcegraph
        "shippo_live_" + "0a1b2c3d4e5f6789" * 2 + "0a1b2c3d",  # Shippo
        "sk_" + "9f8e7d6c5b4a3210" * 3,  # ElevenLabs
        "NRII-" + "Zq8Rm2Lx0PtY7aKd93hQ0zTmR7pXw2Lq",  # New Relic insights
    ],
)
def test_more_provider_prefixes_are_api_keys(key: str) -> None:
    for text in (f"KEY={key}", f"这是我的 key：{key}", f"use {key} for the deploy"):
        assert _found(text) == [("api_key", key)]


@pytest.mark.parametrize(
    "text",
    [
        "rubygems_version is pinned in the Gemfile",
        "re_compile_the_pattern_for_each_request is slow",
        "pul-request template is in the repo",
        "napi_create_function is the N-API entry point",
        "the en-us locale and the de-de one",
        "see sl.2 and sl.3 of the slides",
        "fo1_test is the fixture name",
        "pul-" + "x" * 40,  # a placeholder's tail
    ],
)
def test_no_key_in_their_look_alikes(text: str) -> None:
    assert [k for k, _ in _found(text) if k == "api_key"] == []


# -- public values shaped like secrets -----------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "golang.org/x/net v0.21.0 h1:Xq8Rk2Lm7Tz9Wc4Vb1Np6Qs3Fd5Gh0Jk8Lz2Xc7Vb4=",  # go.sum
        "go.sum 里这一行 h1:Kd93hQ0zTmR7pXw2Lq8Vn4Bc6Yt1Zs9Wa3Ef5Gh7Jk= 校验失败",
        "[Peer]\nPublicKey = Zq8Rm2Lx0PtY7aKd93hQ0zTmR7pXw2Lq8Vn4Bc6Yt1Zs=\nAllowedIPs = 0/0",
        "my wireguard pubkey: Zq8Rm2Lx0PtY7aKd93hQ0zTmR7pXw2Lq8Vn4Bc6Yt1Zs=",
        "服务端公钥：Zq8Rm2Lx0PtY7aKd93hQ0zTmR7pXw2Lq8Vn4Bc6Yt1Zs=",
        "send the SOL to my wallet address 7Hq2mZ9kTpR4wXc8Vb3Nf6Jd1Ls5Gy2Ua9Qe4Rt7Wz",
        "Solana 钱包地址 9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin 收款",
        "the Twilio account SID is AC0f1e2d3c4b5a69788796a5b4c3d2e1f0, the token is elsewhere",
    ],
)
def test_a_public_value_is_no_secret(text: str) -> None:
    assert _found(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (
            "[Interface]\nPrivateKey = Zq8Rm2Lx0PtY7aKd93hQ0zTmR7pXw2Lq8Vn4Bc6Yt1Zs=",
            "Zq8Rm2Lx0PtY7aKd93hQ0zTmR7pXw2Lq8Vn4Bc6Yt1Zs=",
        ),
        (
            "wallet seed 7Hq2mZ9kTpR4wXc8Vb3Nf6Jd1Ls5Gy2Ua9Qe4Rt7Wz keep it safe",
            "7Hq2mZ9kTpR4wXc8Vb3Nf6Jd1Ls5Gy2Ua9Qe4Rt7Wz",
        ),
        (
            "钱包私钥 9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin 别外传",
            "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin",
        ),
    ],
)
def test_a_private_value_near_a_public_word_is_still_found(text: str, value: str) -> None:
    assert value in [v for _, v in _found(text)]


def test_who_logs_in_is_no_secret_in_a_kubernetes_secret() -> None:
    text = (
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ntype: Opaque\ndata:\n"
        "  username: YXBwX3VzZXI=\n  DB_USER: YWRtaW4=\n  password: S3E4I1ZtMnBMeA=="
    )
    assert _found(text) == [("secret", "S3E4I1ZtMnBMeA==")]


# -- a secret a line break cut ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("wifi password, the window cut it:\nQz4#Lm8\nRt2xVb9Kw", "Qz4#Lm8\nRt2xVb9Kw"),
        ("路由器密码（复制的时候断行了）：\nHk7&Pq2w\nZx5Cv8", "Hk7&Pq2w\nZx5Cv8"),
        (
            "the signing secret\n0f9e8d7c6b5a49382\n7e6d5c4b3a\nthanks",
            "0f9e8d7c6b5a49382\n7e6d5c4b3a",
        ),
        (
            "client = connect(user='svc', password='Zq8Rm2Lx0PtY7a\nKd93hQ0zTm')",
            "Zq8Rm2Lx0PtY7a\nKd93hQ0zTm",
        ),
    ],
)
def test_a_secret_cut_at_a_line_break_is_found_whole(text: str, value: str) -> None:
    assert _found(text) == [("secret", value)]


def test_an_uppercase_key_cut_at_a_line_break_is_found_whole() -> None:
    text = "NEW_RELIC_API_KEY=NRAK-Q7W2E9R4T\nY6U1I3O8P5A0S2D4F <- wrapped, still valid?"
    assert _found(text) == [("api_key", "NRAK-Q7W2E9R4T\nY6U1I3O8P5A0S2D4F")]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("password:\nKx9mm21\nusername: bob", "Kx9mm21"),  # a field of its own
        ("password:\nKx9mm21\nthanks a lot", "Kx9mm21"),  # words
        ("recovery codes\n4f2a1-9c3e7\n7b0d2-e5a18\n1c9f4-3a6b2", None),  # a list
        ("the password is Kx9mm21\nQ3rT8pLm2x", "Kx9mm21"),  # not alone on its line
    ],
)
def test_no_wrap_where_the_next_line_is_no_rest(text: str, value: str | None) -> None:
    assert all("\n" not in v for _, v in _found(text))
    if value is not None:
        assert ("secret", value) in _found(text)


# -- a value after an aside, a hedge or a pause ------------------------------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        (
            "the password is, wait, let me check the sticky note, Rq4-Lantern-Vx ok?",
            "Rq4-Lantern-Vx",
        ),
        (
            "pw for the shed laptop is his name and year, Biscuit#0412, fyi",
            "Biscuit#0412",
        ),
        ("my password is like sunnyday77 and it still fails", "sunnyday77"),
        ("the wifi password is basically bluehouse2019", "bluehouse2019"),
        ("what did i set the router pw to... found it in my notes: 8Gh%tPz2Wq!x", "8Gh%tPz2Wq!x"),
    ],
)
def test_a_value_after_an_aside_a_hedge_or_a_pause_is_found(text: str, value: str) -> None:
    assert _found(text) == [("secret", value)]


@pytest.mark.parametrize(
    "text",
    [
        "my password is expired, Chrome2024 keeps autofilling the old one",
        "I reset my password... Tomorrow2024 is the day we migrate",
        "the password is like ten characters long",
        "the password is, as always, in the vault",
        "the password is, honestly, too long, MacBookPro2021 keeps rejecting it",
    ],
)
def test_no_value_after_an_aside_without_a_strong_value(text: str) -> None:
    assert _found(text) == []


# -- a lock's dials after its name ------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("bike lock: 4-2-7-1\ngym locker: 12", "4-2-7-1"),
        ("suitcase lock = 0-8-5", "0-8-5"),
        ("padlock: 14-32-07 (the shed)", "14-32-07"),
        ("combination lock: 5193", "5193"),
    ],
)
def test_a_locks_dials_after_its_name_are_found(text: str, value: str) -> None:
    assert _found(text) == [("secret", value)]


@pytest.mark.parametrize(
    "text",
    ["door: 12-07-2023 installed", "bike lock: 3-9 is broken", "bike lock: 2-3 hours to fix"],
)
def test_no_dials_in_a_date_or_a_short_range(text: str) -> None:
    assert _found(text) == []


# -- cards of more networks ------------------------------------------------------------------
@pytest.mark.parametrize(
    "number", ["9792 1234 5678 9018", "8112 3456 7890 1239", "9792123456789018"]
)
def test_troy_and_rupay_cards_are_found(number: str) -> None:
    from langgraph_memory.sensitivity.patterns import luhn_ok

    assert luhn_ok(number)
    assert _found(f"card: {number}") == [("card", number)]


def test_a_troy_shaped_number_failing_luhn_is_no_card() -> None:
    assert _found("card: 9792123456789017") == []


# -- a directive setting a variable named for a secret --------------------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("<VirtualHost *:80>\n  SetEnv SMTP_PASS mail-relay-pw\n</VirtualHost>", "mail-relay-pw"),
        ("FROM python:3.12\nENV API_TOKEN tk-build-server-9\nRUN make", "tk-build-server-9"),
        ('setenv DB_PASSWORD "Lq7-orchard"', "Lq7-orchard"),
        ("fastcgi_param APP_SECRET php-fpm-secret;", "php-fpm-secret"),
    ],
)
def test_a_directive_setting_a_secret_is_found(text: str, value: str) -> None:
    assert _found(text) == [("secret", value)]


@pytest.mark.parametrize(
    "text",
    [
        "SetEnv APP_ENV production",
        "ENV PASSWORD_MIN_LENGTH 12",
        "SetEnv DB_PASS ${DB_PASS}",
        "ENV SECRET_KEY_FILE /run/secrets/app_key",
    ],
)
def test_no_secret_in_a_directive_setting_no_secret(text: str) -> None:
    assert _found(text) == []


# -- a value said to be wrong -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("wifi 密码不是 Heron2023 而是 Heron2024", "Heron2024"),
        ("密码不是 Vb55#qt 了，现在是 Vb66#qt", "Vb66#qt"),
        ("the password is not Vb55#qt, it is Vb66#qt", "Vb66#qt"),
        ("the password isn't Vb55#qt anymore, now it's Vb66#qt", "Vb66#qt"),
        # the "not" of something else: the value after it is the secret
        ("my password isn't strong enough: Tr0ub4dor&3x", "Tr0ub4dor&3x"),
        ("the wifi password isn't working: Kx9pq2Lm7zz", "Kx9pq2Lm7zz"),
        ("the password isn't x anymore, now it's Tr0ub4dor&3x", "Tr0ub4dor&3x"),
    ],
)
def test_the_value_said_wrong_is_left_and_the_right_one_found(text: str, value: str) -> None:
    assert _found(text) == [("secret", value)]


def test_a_value_said_wrong_alone_is_no_secret() -> None:
    assert _found("密码不是 Vb55#qt，你记错了") == []


# -- a session cookie by its name, outside a Cookie header ------------------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("抓到的 PHPSESSID=k2m9q7x1w8z3p4r6t0v5 帮我看看", "k2m9q7x1w8z3p4r6t0v5"),
        (
            "the log shows JSESSIONID=9F8E7D6C5B4A39281706F5E4D3C2B1A0 expired",
            "9F8E7D6C5B4A39281706F5E4D3C2B1A0",
        ),
        (
            "curl -b connect.sid=s%3Aq8Rm2Lx0PtY7aKd93hQ0zTm.abc https://x.io",
            "s%3Aq8Rm2Lx0PtY7aKd93hQ0zTm.abc",
        ),
    ],
)
def test_a_session_cookie_by_its_name_is_a_token(text: str, value: str) -> None:
    assert ("token", value) in _found(text)


@pytest.mark.parametrize(
    "text",
    ["sessionid=abc", "set session_timeout=3600 in the config", "PHPSESSID=<your-session-id>"],
)
def test_no_session_cookie_without_a_value_of_its_shape(text: str) -> None:
    assert [k for k, _ in _found(text) if k == "token"] == []


def test_a_quoted_password_of_a_login_pair_is_found_without_its_quotes() -> None:
    text = 'PlainLoginModule required username="billing" password="Rk4vN8qLz2Tw";'
    assert _found(text) == [("secret", "Rk4vN8qLz2Tw")]


def test_a_passphrase_before_an_aside_ends_before_the_space() -> None:
    text = "Passphrase for the NAS backup: heron lantern quartz meadow (four words, all lower)"
    assert _found(text) == [("secret", "heron lantern quartz meadow")]


# -- an SMS's code given with what to do with it ---------------------------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Your bank passcode\n\n> Use 40718253 to finish signing in. Don't share it.", "40718253"),
        ("Enter 318604 to verify your new device", "318604"),
        ("type 770913 to log in, it expires in 10 minutes", "770913"),
    ],
)
def test_an_sms_code_with_what_to_do_is_found(text: str, value: str) -> None:
    assert _found(text) == [("secret", value)]


@pytest.mark.parametrize(
    "text", ["use 3 to 5 words", "enter 20 to 30 characters to sign in", "use 1 to log in"]
)
def test_no_code_with_what_to_do_in_its_look_alikes(text: str) -> None:
    assert _found(text) == []


def test_a_recovery_phrase_after_an_aside_is_found() -> None:
    words = "maple river stone cloud pepper violin garden tunnel orange silver basket window"
    text = f"seed phrase for the cold wallet (yes I know, just keep it): {words}"
    assert _found(text) == [("secret", words)]
    assert _found("seed phrase for the wallet (twelve words): see the paper in the safe") == []


@pytest.mark.parametrize("number", ["07912 104 386", "07455 018233"])
def test_a_uk_mobile_whose_number_starts_with_0_or_1_is_a_phone(number: str) -> None:
    assert _found(f"text me on {number} after six") == [("phone", number)]


def test_a_landline_number_starting_with_1_after_its_area_code_is_still_no_phone() -> None:
    assert _found("see page 0 1 of 02 13") == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("NAS 管理后台\n密码写在机器底部 我拍照了\nzq~7Lm#Rt2!vX", "zq~7Lm#Rt2!vX"),
        ("password for the printer admin page\nHk8~pw!Qz4", "Hk8~pw!Qz4"),
    ],
)
def test_a_password_below_its_label_may_hold_a_tilde(text: str, value: str) -> None:
    assert _found(text) == [("secret", value)]


def test_a_home_path_below_a_password_label_is_no_password() -> None:
    assert _found("password for the NAS\n~/notes/nas-pw.txt") == []


@pytest.mark.parametrize(
    ("text", "value"),
    [("my steam guard code 7KX2M hurry", "7KX2M"), ("authenticator code: 604172", "604172")],
)
def test_a_guard_or_authenticator_code_is_a_one_time_code(text: str, value: str) -> None:
    assert _found(text) == [("secret", value)]


@pytest.mark.parametrize(
    "text", ["the coast guard code of conduct", "the confirmation code for your order is 3344"]
)
def test_no_one_time_code_in_a_guards_rules_or_a_booking(text: str) -> None:
    assert _found(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("the passphrase is lantern quartz meadow heron 42", "lantern quartz meadow heron 42"),
        ("the password is Copper Falcon Monday 7", "Copper Falcon Monday 7"),
    ],
)
def test_a_passphrase_of_words_ending_in_a_number_is_found_whole(text: str, value: str) -> None:
    assert _found(text) == [("secret", value)]  # (main found its first word only)


# -- a password manager's vault and its master password --------------------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("the family bitwarden vault master: violet canyon ember 12", "violet canyon ember 12"),
        (
            "ok so, sorry for pasting here, the keepass vault is Silver Otter Lantern",
            "Silver Otter Lantern",
        ),
        ("lastpass master password is Qm7!rTz9pL", "Qm7!rTz9pL"),
    ],
)
def test_a_vaults_master_password_is_found(text: str, value: str) -> None:
    assert _found(text) == [("secret", value)]


@pytest.mark.parametrize(
    "text",
    [
        "the vault master is in the other room",
        "our 1password vault is shared with the team",
        "the 1password vault is Engineering Shared",
        "who is the vault master for the finance team?",
    ],
)
def test_no_master_password_in_talk_about_a_vault(text: str) -> None:
    assert _found(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "send it to 0x8ba1f109551bD432803012645Ac136ddd64DBA72 on mainnet",  # an Ethereum address
        "pinned on IPFS: QmT5NvUtoM5nWFfrQdVrFtvGfKFmG7AHE8P34isapyhCxX",  # a content id
        "server host key: AAAAC3NzaC1lZDI1NTE5AAAAIK8xQ2mZr7Lw4TpN9vYc3Hs6Jd1Fg5Ka0Bn",
        "known_hosts has AAAAB3NzaC1yc2EAAAADAQABAAABAQDk8xQ2mZr7Lw4TpN9vYc3Hs6Jd1F",
    ],
)
def test_a_public_address_content_id_or_ssh_key_is_no_secret(text: str) -> None:
    assert _found(text) == []


def test_a_private_key_in_hex_after_its_label_is_still_found() -> None:
    key = "0x" + "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"
    assert _found(f"private key: {key}") == [("secret", key)]
