"""Secrets read by the syntax of config and credential files (sensitivity.structured)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from langgraph_memory.sensitivity.policy import SensitivityFilter
from langgraph_memory.sensitivity.structured import config_secrets, names_a_secret_key


def _found(text: str) -> list[str]:
    return [text[f.start : f.end] for f in SensitivityFilter().scan(text) if f.kind == "secret"]


def _config(text: str) -> list[str]:
    return [text[a:b] for a, b, _, _ in config_secrets(text)]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("[smtp]\nsmtp_user = alerts\nsmtp_pass = marigold", "marigold"),
        ("mail:\n  user: ops\n  pass: seashell", "seashell"),
        ("environment:\n  - RABBITMQ_DEFAULT_PASS=bunnyhop\n  - TZ=UTC", "bunnyhop"),
        ("DB_PASS=letmein\nDB_HOST=localhost", "letmein"),
        ("signing_secret: lighthouse", "lighthouse"),
        ('redis_auth = "8Hj2kLq9"', "8Hj2kLq9"),
        ("[wifi]\n无线密码 = 风吹麦浪", "风吹麦浪"),
    ],
)
def test_a_secret_key_of_a_config_line_names_its_value(text: str, value: str) -> None:
    assert value in _config(text)
    assert value in _found(text)


@pytest.mark.parametrize(
    "text",
    [
        "password_min_length = 12\npassword_expiry_days = 90",
        "token_ttl: 3600\nsecret_name: db-creds",
        "environment:\n  - POSTGRES_PASSWORD_FILE=/run/secrets/db_password",
        "password: ${DB_PASSWORD}\ntoken: '{{ .Values.token }}'",
        "secretKeyRef:\n  name: db\n  key: password",
        "auth:\n  enabled: true\n  auth: basic",
        "hashed_password = $2b$12$abcdefghijklmnopqrstuv\nuser = x",
        "PASSWORD=\nUSERNAME=\nHOST=localhost",
        "existingSecret: redis-auth\nkey_file: /etc/ssl/key.pem",
        "Secret Santa:\nsecret: santa\ngift_limit: 20",
        "results:\n  login: success\n  db_password: accepted",
    ],
)
def test_what_a_config_line_names_without_holding_a_secret(text: str) -> None:
    assert _config(text) == []


def test_a_lone_line_of_prose_is_left_to_the_label_reader() -> None:
    assert _config("Secret: practice") == []
    assert _config("Token: tomorrow") == []


@pytest.mark.parametrize(
    ("key", "kind"),
    [
        ("DB_PASSWORD", "password"),
        ("smtpPass", "password"),
        ("requirepass", "password"),
        ("secret_access_key", "key"),
        ("client.secret", "key"),
        ("AUTH_TOKEN", "key"),
        ("redis_auth", "auth"),
        ("登录密码", "password"),
        ("password_min_length", None),
        ("page_token", None),
        ("public_key", None),
        ("bypass", None),
        ("auth", None),
    ],
)
def test_a_key_names_a_secret_by_its_last_word(key: str, kind: str | None) -> None:
    assert names_a_secret_key(key) == kind


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("localhost:5432:mydb:postgres:s3cretPg", "s3cretPg"),
        ("my ~/.pgpass has *:*:*:app:applepie", "applepie"),
        ("machine github.com\n  login bob\n  password pickles", "pickles"),
        ("default login me password nosecret", "nosecret"),
    ],
)
def test_pgpass_and_netrc_entries_hold_their_password(text: str, value: str) -> None:
    assert _config(text) == [value]


@pytest.mark.parametrize(
    "text",
    [
        "the time is 10:30:45 and the ratio 4:3:2",
        "aa:bb:cc:dd:ee:ff is the MAC",
        "machine learning: the login page has a password field",
        "localhost:5432 is where postgres listens",
        "error at main.py:42:10:warn:deprecated",
    ],
)
def test_colons_and_words_that_are_no_credential_file(text: str) -> None:
    assert _config(text) == []


@settings(max_examples=40, deadline=None)
@given(head=st.text(alphabet="abcdefghjkmnpqrsuvwzABCDEFGH23456789!%", min_size=4, max_size=20))
def test_any_value_of_a_compose_password_line_is_found(head: str) -> None:
    value = head + "42"  # two digits: a value even when it spells a secret word ("pass42")
    text = f"services:\n  db:\n    environment:\n      - MYSQL_ROOT_PASSWORD={value}\n"
    assert value in _config(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ('<property name="password">saffron</property>', "saffron"),
        ("<property>\n  <name>fs.s3a.secret.key</name>\n  <value>wJalrXUtnF</value>", "wJalrXUtnF"),
        ("WIFI:S:MyNet;T:WPA;P:heliotrope;;", "heliotrope"),
        ("用户名 root 密码 toor", "toor"),
        ("账号 test01 密码 abc", "abc"),
        ("login: bob, pass: walnut", "walnut"),
    ],
)
def test_markup_qr_codes_and_login_pairs_name_their_value(text: str, value: str) -> None:
    assert _config(text) == [value]


@pytest.mark.parametrize(
    "text",
    [
        '<entry name="password_length">12</entry>',
        "user name and password required",
        "the user account password expired",
        "login page password field",
        "user group pass rate",
    ],
)
def test_no_value_in_markup_or_login_words(text: str) -> None:
    assert _config(text) == []


def test_a_parcel_pickup_code_is_no_secret() -> None:
    assert _found("取件码 3391，到驿站取") == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("the wifi password is literally the network name: TP-Link_8A2F", "TP-Link_8A2F"),
        ("the wifi password is the same as the network name, MyHome", "MyHome"),
        ("wifi密码就是wifi名字 TP-LINK_FAST", "TP-LINK_FAST"),
        ("密码和用户名一样：zhangsan", "zhangsan"),
    ],
)
def test_a_password_said_to_be_a_name_is_the_name_given(text: str, value: str) -> None:
    assert _found(text) == [value]


@pytest.mark.parametrize(
    "text",
    [
        "the password is the name of my dog",
        "my password is the network name",
        "密码就是wifi名字",
        "密码是名字的拼音",
    ],
)
def test_a_password_said_to_be_a_name_with_no_name_given(text: str) -> None:
    assert _found(text) == []


def test_every_value_of_a_kubernetes_secrets_data_block_is_a_secret() -> None:
    text = (
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\ndata:\n"
        "  DB_URL: cG9zdGdyZXM6Ly9hcHA=\n  API_HOST: YXBpLmV4YW1wbGU=\ntype: Opaque\n"
    )
    assert _config(text) == ["cG9zdGdyZXM6Ly9hcHA=", "YXBpLmV4YW1wbGU="]
    assert _config("kind: ConfigMap\ndata:\n  DB_URL: cG9zdGdyZXM6Ly9hcHA=") == []
    assert _config("kind: Secret\nstringData:\n  mode: production") == []


@pytest.mark.parametrize(
    "text",
    [
        "kind: ConfigMap\ndata:\n  log_level: debug\n  region: eu\n"
        "---\nkind: Secret\ndata:\n  pw: aHVudGVy",
        "kind: SecretStore\nspec:\n  provider:\n    data:\n      region: us-east-1\n",
        "kind: SecretProviderClass\nspec:\n  data:\n    region: us-east-1\n",
        "kind: Secret\ndata:\n  mode: production\n",
    ],
)
def test_a_kubernetes_secret_is_read_per_document_and_its_data_as_base64(text: str) -> None:
    found = _found(text)
    assert [v for v in found if v != "aHVudGVy"] == []
    assert ("aHVudGVy" in found) == ("pw: aHVudGVy" in text)


@pytest.mark.parametrize(
    "text",
    [
        "smtp_auth: cram-md5",
        "db_auth = scram-sha-256",
        "kafka_auth: SCRAM-SHA-512",
        "mysql_auth: sha256_password",
        "imap_auth: plain\nimap_host: mail",
        "Flight: AF123\nSeat: 12A\nPass: mobile",
        "Monday: gym\nTuesday: yoga\nPass: Thursday",
        "Flight: AF123\nSeat: 12A\nboarding_pass: mobile",
        "localhost:8080:api:v1:users",
    ],
)
def test_a_scheme_a_ticket_or_an_api_path_is_no_secret(text: str) -> None:
    assert _found(text) == []


def test_a_strong_value_under_a_label_of_prose_is_still_a_secret() -> None:
    assert _config("Flight: AF123\nSeat: 12A\nPass: X9k!mq2Z") == ["X9k!mq2Z"]
    assert _config("user: ops\npass: seashell") == ["seashell"]


def test_a_password_word_with_digits_glued_is_redacted_whole() -> None:
    text = "user@example.com password123"
    assert _found(text) == ["password123"]
    assert "123" not in SensitivityFilter().redact(text)
