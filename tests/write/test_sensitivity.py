"""The sensitivity detector: kinds, policy, corpus precision/recall, property tests."""

from __future__ import annotations

import dataclasses
import importlib.util
import string
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scripts import load_script

from langgraph_memory import MemoryConfig
from langgraph_memory.sensitivity.patterns import (
    IBAN_LENGTHS,
    cn_id_check_char,
    high_entropy_spans,
    iban_check_digits,
    iban_ok,
    luhn_ok,
    names_a_secret,
)
from langgraph_memory.sensitivity.policy import (
    Finding,
    SensitiveContentError,
    SensitivityFilter,
    SensitivityPolicy,
)
from langgraph_memory.sensitivity.presidio import PresidioDetector

ROOT = Path(__file__).resolve().parents[2]
FILTER = SensitivityFilter()


def _bench():
    return load_script(ROOT / "benchmarks" / "sensitivity.py", "sensitivity_bench")


def kinds(text: str) -> list[str]:
    return [f.kind for f in FILTER.scan(text)]


# -- the corpus ---------------------------------------------------------------------------------
def test_corpus_meets_the_targets_on_both_halves() -> None:
    bench = _bench()
    halves = {h: bench.evaluate(bench.CORPUS, half=h) for h in ("tune", "held")}
    report = bench.evaluate(bench.CORPUS)
    assert report.lines >= 500 and report.gold >= 300
    tune, held = halves["tune"], halves["held"]
    # the trust issue's targets: 0.99 on the half the detector was tuned on; the
    # held-back half, never looked into while tuning, is held to what it measured
    # (precision 0.987, recall 0.981 at the Trust II widening: see benchmarks/RESULTS.md)
    assert tune.recall() >= 0.99 and tune.precision() >= 0.99, tune.errors
    assert held.recall() >= 0.98 and held.precision() >= 0.98, "held-back half regressed"
    assert report.recall() >= 0.985 and report.precision() >= 0.99
    for kind in ("email", "phone", "cn_id", "card", "iban", "api_key", "token", "secret"):
        assert report.recall(kind) >= 0.95, (kind, report.errors)
        assert report.precision(kind) >= 0.95, (kind, report.errors)
    assert report.leaks <= 0.01 * report.gold


def test_dev_set_meets_the_targets() -> None:
    """The development set written for the widening (benchmarks/data/make_sensitivity_dev.py:
    spoken secrets, one-time codes, national phone formats, many key providers, unusual
    addresses, and their hard negatives)."""
    bench = _bench()
    dev = ROOT / "tests" / "data" / "sensitivity_dev.jsonl"
    report = bench.evaluate(dev)
    assert report.lines >= 300 and report.gold >= 200
    assert report.recall() >= 0.99 and report.precision() >= 0.99, report.errors
    for kind in ("email", "phone", "card", "api_key", "secret"):
        assert report.recall(kind) >= 0.98, (kind, report.errors)
        assert report.precision(kind) >= 0.98, (kind, report.errors)


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("The PIN, is 8642", "secret", "8642"),
        ("验证码：482913，5分钟内有效", "secret", "482913"),
        ("密码已经改为 Qwer1234 了", "secret", "Qwer1234"),
        ("Password (new): K9m2Lq#", "secret", "K9m2Lq#"),
        ("<password>t0pS3cret</password>", "secret", "t0pS3cret"),
        ("curl -u admin:Adm1nPass https://api.example.com", "secret", "Adm1nPass"),
        ("口令：天王盖地虎", "secret", "天王盖地虎"),
        ("深圳分公司：0755-8888 6666", "phone", "0755-8888 6666"),
        ("UK office +44 (0)20 7946 0958", "phone", "+44 (0)20 7946 0958"),
        ("Call the vet at 555-0123 tomorrow.", "phone", "555-0123"),
        ("阿里云 AccessKey ID：LTAI5tQ8x2Lm9Np3Rs7Vw1Yz", "api_key", "LTAI5tQ8x2Lm9Np3Rs7Vw1Yz"),
        ("contact zhang [at] example [dot] org", "email", "zhang [at] example [dot] org"),
        ("o'connor@example.ie is Sean's", "email", "o'connor@example.ie"),
        ("card 4455.3547.5248.8653", "card", "4455.3547.5248.8653"),
    ],
)
def test_widened_forms_are_found(text: str, kind: str, value: str) -> None:
    found = [(f.kind, text[f.start : f.end]) for f in FILTER.scan(text)]
    assert (kind, value) in found


@pytest.mark.parametrize(
    "text",
    [
        "GITLAB_TOKEN=glpat-xxxxxxxxxxxxxxxxxxxx",
        "Stripe publishable key pk_live_51HxYzAbCdEfGhIjKlMnOpQr is public",
        "密码为 123456 的账号很危险",
        "密码：见附件",
        "验证码 5 分钟内有效",
        "password: process.env.DB_PASS",
        "Use the icon@2x.png asset",
        "look at this dot product",
        "流水 7788 0012 3456 7890 已入账",
    ],
)
def test_widening_keeps_hard_negatives_clean(text: str) -> None:
    assert FILTER.scan(text) == []


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("my password, just so you know, is Kiwi!2024", "secret", "Kiwi!2024"),
        ("Password — yes, I'll change it — plumtree51", "secret", "plumtree51"),
        ("The password I use for everything is Tigger1990", "secret", "Tigger1990"),
        ("password reset done, new one: Lemon-Sky-84", "secret", "Lemon-Sky-84"),
        ("the hotel wifi pass is lobby5521", "secret", "lobby5521"),
        ("the gate code is 4520", "secret", "4520"),
        ("the locker at the gym — code 7316, don't lose it", "secret", "7316"),
        ("the code to the lockbox is 3321", "secret", "3321"),
        ("bike lock combo is 12-07-33", "secret", "12-07-33"),
        ("login for the NAS is admin / Nq7$vL2w", "secret", "Nq7$vL2w"),
        ("docker login -u deployer -p Reg!stry99 registry.example.org", "secret", "Reg!stry99"),
        ("psql --password=pgSecret8 -h db", "secret", "pgSecret8"),
        ("  - name: DB_PASSWORD\n    value: k8s-db-pw-11", "secret", "k8s-db-pw-11"),
        ("Use 552918 as your verification code", "secret", "552918"),
        ("G-482913 is your Google verification code", "secret", "G-482913"),
        ("WORKER_PASS=queue-pass-9921", "secret", "queue-pass-9921"),
        ("Password\nSn0wfall-77", "secret", "Sn0wfall-77"),
        ("requirepass Zq8vR2mT", "secret", "Zq8vR2mT"),
        ("seed phrase: " + " ".join(["ocean"] * 6 + ["river"] * 6), "secret", "ocean"),
        ("网盘提取码：q7w2", "secret", "q7w2"),
        ("密 码：Mm_123456", "secret", "Mm_123456"),
        ("暗号是天王盖地虎", "secret", "天王盖地虎"),
        ("他的银行卡密码好像是 661233", "secret", "661233"),
        ("数据库密码在这：Db_Pwd_2026", "secret", "Db_Pwd_2026"),
        ("激活码：XKQ7-99PL-3MZ2", "secret", "XKQ7-99PL-3MZ2"),
        ("口令：芝麻开门（说笑的，其实是 zmkm2026）", "secret", "zmkm2026"),
        ("https://x.example/cb?access_token=abc123XYZ&expires_in=3600", "secret", "abc123XYZ"),
        ("cvv: 4417 and the expiry 09/29", "secret", "4417"),
        ("密码发你了：Fa2026ni", "secret", "Fa2026ni"),
        ("密码：我爱你1314", "secret", "我爱你1314"),
        ("verification code 482 913", "secret", "482 913"),
        ("Maple-Leaf-31 is my work password", "secret", "Maple-Leaf-31"),
        ("the safe combination is 36-24-12", "secret", "36-24-12"),
        ("SSN 219 09 9999 on the form", "ssn", "219 09 9999"),
        ("手机：1 3 9 1 0 2 7 4 4 5 8", "phone", "1 3 9 1 0 2 7 4 4 5 8"),
    ],
)
def test_labels_with_asides_locks_pairs_and_config_forms_are_found(
    text: str, kind: str, value: str
) -> None:
    found = [(f.kind, text[f.start : f.end]) for f in FILTER.scan(text)]
    assert any(k == kind and value in v for k, v in found), found


@pytest.mark.parametrize(
    "text",
    [
        "the part number is 212-555-0147-B",
        "预算 13912345678 日元",
        "type an address like you@example.org in the box",
        "IMEI 352099001761481 on the box",
        "口令 2026 年起停用",
        "上次修改密码是 2026-10-02",
        "no password to share",
        "mysql -u root -p mydb",
        "error code 7316 on the printer",
        "a combination of factors",
        "the key is to stay calm",
        "primary key: user_id2024",
        "account/profile settings",
        "密码是多少？",
        "CVV on the back, I'll text it",
        "password123 is the most common password",
        "1234 is the default PIN for many devices",
        'key = f"lgm_{key_id}_{secrets.token_urlsafe(32)}"',
        "use --password PASS, never a real one",
        "取件码会短信通知",
        "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hyBP9QsJkE1i5IZ",
    ],
)
def test_new_label_forms_keep_look_alikes_clean(text: str) -> None:
    assert FILTER.scan(text) == [], FILTER.scan(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # a password's name in other languages (a lexicon), then the value
        ("le mot de passe du routeur est Lune#4471", "Lune#4471"),
        ("Passwort: Kaffee2025!", "Kaffee2025!"),
        ("senha do banco: Pao9de4acucar", "Pao9de4acucar"),
        ("пароль от почты: Zima2026x", "Zima2026x"),
        ("wachtwoord = Fiets88brug", "Fiets88brug"),
        ("ログインのパスワード：mizu-2291-k", "mizu-2291-k"),
        ("비밀번호: hana4821!", "hana4821!"),
        ("la contraseña es girasol77", "girasol77"),
        # PUK codes; codes read out in groups or in words
        ("my PUK code is 48120977", "48120977"),
        ("PUK码：20481377", "20481377"),
        ("the verification code: 12 34 56", "12 34 56"),
        ("your sign-in code is 7310 2284", "7310 2284"),
        ("she said the PIN was four four one nine", "four four one nine"),
        (
            "the code out loud: seven, two, eight, eight, one, zero",
            "seven, two, eight, eight, one, zero",
        ),
        ("验证码念给我是五三八二九一", "五三八二九一"),
        # keypads and alarms; combinations after a password word
        ("garage keypad 7391, side gate is open", "7391"),
        ("to disarm the alarm punch disarm code 4096 then wait", "4096"),
        ("更衣柜密码 4-1-7，别忘了", "4-1-7"),
        ("locker password: 12-30-08", "12-30-08"),
        # shell variables, files holding a secret, calls naming one, connection strings
        ("MYSQL_PWD=backup_only mysqldump shop > x.sql", "backup_only"),
        ("export REDIS_PASSWORD=cache_dev_secret && npm start", "cache_dev_secret"),
        ("the token file only holds: tk_live_9a8b7c6d", "tk_live_9a8b7c6d"),
        ("os.environ.setdefault('SMTP_PASSWORD', 'MailMe#2026')", "MailMe#2026"),
        ("Data Source=db;User ID=sa;Password=Sa!2026pw;TrustServerCertificate=True", "Sa!2026pw"),
        ("redis-cli -p 6380 -a Sess10nCache! ping", "Sess10nCache!"),
        ("mongosh -u app -p M0ngoApp9 shop", "M0ngoApp9"),
        # table columns, user / password pairs after a console's name, seed phrases
        ("| site | user | password |\n|---|---|---|\n| gitlab | ops | Gl4b!ops |", "Gl4b!ops"),
        ("host\tuser\tpwd\nnas01\troot\tNasRoot#9", "NasRoot#9"),
        ("服务器,用户,密码\nweb1,deploy,Dep10y!x", "Dep10y!x"),
        ("NAS 管理后台 admin / Syn0logy#1", "Syn0logy#1"),
        ("grafana dashboard: viewer / graf4na!", "graf4na!"),
        ("助记词是 山 水 云 花 鸟 鱼 虫 草 木 金 银 铜", "山 水 云 花 鸟 鱼 虫 草 木 金 银 铜"),
        # separators: "mine is", "解码后是"; Wi-Fi; a value said to hold a space
        ("银行卡密码，我的是 902318", "902318"),
        ("vault 里的 secret 解码后是 prod-db-pw-77", "prod-db-pw-77"),
        ("the wifi one is Gr33nTea-77", "Gr33nTea-77"),
        ("家里wifi code: h0me-net-88", "h0me-net-88"),
        ("my password: blue moon77 (with a space)", "blue moon77"),
        # 2FA setup keys in groups, lists of backup codes, "respectively"
        ("the 2FA seed is JBSW Y3DP EHPK 3PXP", "JBSW Y3DP EHPK 3PXP"),
        ("authenticator setup key: abcd efgh ijkl mnop qrst uvwx", "abcd efgh ijkl mnop qrst uvwx"),
        ("backup codes: 1234-5678, 2345-6789, 3456-7890", "2345-6789"),
        ("recovery codes 8f3k2n9d 7d8sk2l1 p0q9w8e7", "p0q9w8e7"),
        ("GitHub 恢复码：a1b2c-3d4e5 f6g7h-8i9j0", "f6g7h-8i9j0"),
        ("登录密码和支付密码分别是 Qq123456 和 889900", "889900"),
        # codes spaced digit by digit; a lock's name before ":"; labels alone on a line
        ("the PIN for my debit card is 7 3 9 1", "7 3 9 1"),
        ("储蓄卡取款密码 661 233", "661 233"),
        ("garage: 8812, back door: 4417", "4417"),
        ("门禁：2580#", "2580#"),
        ("Password\n\nSn0wfall-77", "Sn0wfall-77"),
        ("密码\n9f8e7d6c", "9f8e7d6c"),
        # more languages and separators
        ("WLAN-Schlüssel: Haus4Garten7", "Haus4Garten7"),
        ("Kennwort lautet Tanne77Wald", "Tanne77Wald"),
        ("暗証番号は 4821 です", "4821"),
        ("パスワードはsakuraA12です", "sakuraA12"),
        # values below their label (CRLF, a blank line), rows of a name and its value
        ("Password:\r\nHunt3r-22x", "Hunt3r-22x"),
        ("Username: ops\nPassword:\n\nHunt3r22x", "Hunt3r22x"),
        ("PIN\n4821", "4821"),
        ("验证码\n482913", "482913"),
        ("| Password | Hunt3r22x |", "Hunt3r22x"),
        ("| 密码 | zs@2026ab |", "zs@2026ab"),
        # lock combinations after a code's name, keycodes, a card's security code
        ("the code for the padlock: 3-3-7", "3-3-7"),
        ("keycode 5521", "5521"),
        ("security code on the back is 271", "271"),
    ],
)
def test_more_written_forms_of_a_secret_are_found(text: str, value: str) -> None:
    found = [(f.kind, text[f.start : f.end]) for f in FILTER.scan(text)]
    assert ("secret", value) in found, found


@pytest.mark.parametrize(
    "text",
    [
        "le mot de passe doit contenir 12 caractères",
        "¿olvidaste tu contraseña? haz clic aquí",
        "Passwort vergessen? Kein Problem",
        "パスワードを忘れた場合はこちら",
        "비밀번호를 변경하세요",
        "la contraseña es incorrecta",
        "the PUK is printed on the card holder",
        "order 55 21 90 items by Friday",
        "the code review took 12 34 minutes",
        "the keypad is broken again",
        "set the alarm for 0630 please",
        "one two three four, here we go",
        "the code has one or two bugs",
        "我们一二三四五六七八个人一起去",
        "验证码发了三四次都没收到",
        "the code word is 海豚标记五五二一",
        "DB_PASSWORD=$DB_PASSWORD docker compose up",
        "the password field contains an error",
        "the token says expired in the log",
        "t('auth.password', 'Password')",
        "logger.info('token', 'refreshed')",
        "版本号 2-4-1 发布了",
        "| name | password policy |\n|---|---|\n| bob | strong |",
        "| 系统 | 密码 |\n|---|---|\n| 堡垒机 | 见邮件 |",
        "user,password\nbob,******",
        "后台 首页 / 设置",
        "助记词很重要，千万不要截图",
        "redis-cli -a $REDIS_PASS ping",
        "the wifi is 5GHz only",
        "wifi: HomeNet_5G",
        "WiFi：CMCC-8F2A，密码在路由器背面",
        "wifi is 802.11ax",
        "wifi name is Cafe2026",
        "the password can have a space",
        "claim no. 301-22-4471 is pending",
        "case #412-55-1290 closed",
        "工单号 301-22-4471 已关闭",
        "admin:$2y$10$abcdefghijABCDEFGHIJ0123456789abcdefghijABCDEFGHIJ0 is the hash",
        "Server=db;Database=shop;Encrypt=true",
        "set the alarm: 0630 tomorrow",
        "Boarding gate: 2051",
        "locker: 1205 is mine",
        "backup codes 2024 update",
        "recovery codes are stored in the vault",
        "SECRET: THIS WILL MAKE YOUR DAY",
        "the secret is that they have been here all week",
        "パスワードは8文字以上",
        "the passwords are weak and short respectively",
        "价格和数量分别是 1999 和 3",
        "the PIN is 4 digits",
        "pin 1 of 2 is loose",
        "Password\n\nForgot it?",
        "密码\n\n2026年3月改过",
        "Kennwort lautet falsch",
        "clé WiFi : voir le routeur",
        "| Password | Token |",
        "| 密码 | 备注 |",
        "if (e.keyCode == 13) submit()",
        "PIN\nForgot it? Reset below",
        "security code is 4 digits",
    ],
)
def test_more_written_forms_keep_look_alikes_clean(text: str) -> None:
    assert FILTER.scan(text) == [], FILTER.scan(text)


def test_an_ssn_word_still_wins_over_a_reference_word() -> None:
    text = "claim form: SSN 219-09-9999"
    assert [(f.kind, text[f.start : f.end]) for f in FILTER.scan(text)] == [("ssn", "219-09-9999")]


def test_a_credential_inside_a_labelled_value_is_reported_as_itself() -> None:
    jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJlLXZhbHVl"
    text = f"token: {jwt}&expires_in=3600"
    assert [(f.kind, text[f.start : f.end]) for f in FILTER.scan(text)] == [("token", jwt)]
    # what the label's value held before the credential stays a secret
    text = "口令是 Zq8tiger the key sk-Zx81Ka02Lm93Qp"
    found = [(f.kind, text[f.start : f.end]) for f in FILTER.scan(text)]
    assert found == [("secret", "Zq8tiger the key"), ("api_key", "sk-Zx81Ka02Lm93Qp")]
    assert "Zq8tiger" not in FILTER.redact(text)


@pytest.mark.parametrize(
    ("args", "refused"),
    [
        (["--heldout", "h.jsonl", "--half", "held", "--errors"], True),
        (["--heldout", "h.jsonl", "--errors"], True),
        (["--heldout", "h.jsonl", "--half", "tune", "--errors", "all"], True),
        (["--half", "tune"], True),
        (["--heldout", "h.jsonl", "--half", "tune", "--errors"], False),
        (["--heldout", "h.jsonl", "--half", "held"], False),
    ],
)
def test_the_benchmark_never_lists_a_held_halfs_lines(args: list[str], refused: bool) -> None:
    bench = _bench()
    get = {a.lstrip("-"): b for a, b in zip(args, [*args[1:], "tune"], strict=True)}
    heldout = Path(get["heldout"]) if "heldout" in get else None
    errors = get.get("errors") if "--errors" in args else None
    if errors is not None and errors.startswith("-"):
        errors = "tune"
    reason = bench.heldout_refusal(heldout, get.get("half"), errors)
    assert (reason is not None) == refused


def test_corpus_halves_follow_a_fixed_rule() -> None:
    bench = _bench()
    rows = bench.load()
    assert len({r["text"] for r in rows}) == len(rows)  # a text is in one half only
    for half in ("tune", "held"):
        mine = [r for r in rows if bench.half_of(r["text"]) == half]
        assert len(mine) >= 250
        assert sum(len(r["spans"]) for r in mine) >= 150
        assert sum(r["lang"] == "zh" for r in mine) >= 90
        assert sum(not r["spans"] for r in mine) >= 100
    # the rule: the parity of the SHA-256 of the text, nothing else
    assert bench.half_of("my password is sunshine") == "held"
    assert bench.half_of("password: abc") == "tune"


def test_corpus_has_every_secret_kind_in_both_languages() -> None:
    rows = _bench().load()
    for kind in ("private_key", "api_key", "token", "secret", "email", "phone", "card"):
        for lang in ("en", "zh"):
            assert any(
                r["lang"] == lang and kind in {s["kind"] for s in r["spans"]} for r in rows
            ), (kind, lang)
    notes = " ".join(r["note"] for r in rows)
    for negative in ("placeholder", "environment variable", "type annotation", "length"):
        assert negative in notes, negative


# -- kinds, one by one ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("write to 王芳 at wang.fang@example.cn today", ["email"]),
        ("手机 13812345678", ["phone"]),
        ("手机 138 1234 5678", ["phone"]),
        ("call +44 20 7946 0958", ["phone"]),
        ("call (415) 555-0123", ["phone"]),
        ("身份证 11010519491231002X", ["cn_id"]),
        ("card 4111 1111 1111 1111", ["card"]),
        ("IBAN GB29 NWBK 6016 1331 9268 19", ["iban"]),
        ("AKIAIOSFODNN7EXAMPLE", ["api_key"]),
        ("Authorization: Bearer abcdefghijklmnop1234", ["token"]),
        ("-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----", ["private_key"]),
        ("密码：Passw0rd!", ["secret"]),
        # look-alikes
        ("身份证 110105194912310021", []),  # wrong check character
        ("order 4111 1111 1111 1112", []),  # not Luhn
        ("IBAN GB29 NWBK 6016 1331 9268 18", []),  # wrong mod-97
        ("v1.2.3 on 2024-05-08 12:30, $1,234.56", []),
        ("id 123e4567-e89b-12d3-a456-426614174000", []),
        ("sha 3f786850e387550fdab836ed7e6dc881de23001b", []),
        ("the password is wrong", []),
    ],
)
def test_kinds(text: str, expected: list[str]) -> None:
    assert kinds(text) == expected


def found(text: str) -> list[tuple[str, str]]:
    """``(kind, the text it covers)`` of each finding."""
    return [(f.kind, text[f.start : f.end]) for f in FILTER.scan(text)]


# -- Trust II: the detector misses, as classes ------------------------------------------------
@pytest.mark.parametrize(
    ("text", "secret"),
    [
        # a short value after a label that names a secret
        ("password: abc", "abc"),
        ("pwd=xyz", "xyz"),
        ("passwd: abc", "abc"),
        ('{"password": "abc"}', "abc"),
        ("PGPASSWORD=abc123 psql", "abc123"),
        ("login --password=abc", "abc"),
        ("Password for root: toor", "toor"),
        ("SECRET=abc", "abc"),
        ("X-API-Key: abc123xyz", "abc123xyz"),
        ("PIN码是 9527", "9527"),
        # a plain word after "is", "was", "to"
        ("my password is sunshine", "sunshine"),
        ("Her password was dragon, sadly", "dragon"),
        ("I set my password to sunflower yesterday", "sunflower"),
        ("the password for the router is letmein", "letmein"),
        ("my password is literally password", "password"),
        # a label after another secret word
        ("Your secret is password: Tr0ub4dor&3x", "Tr0ub4dor&3x"),
        # only a space between, a value that mixes letters and digits
        ("wifi: HomeNet, password sunshine22", "sunshine22"),
        ("run it with --password hunter22", "hunter22"),
        # Chinese forms: full-width colon and spaces, 是/叫/改成/设置成, every label word
        ("密码：abc", "abc"),
        ("WiFi 密码\u3000：\u3000abc", "abc"),
        ("我的密码是sunshine", "sunshine"),
        ("口令是 tiger", "tiger"),
        ("口令：open", "open"),
        ("秘钥：abc", "abc"),
        ("密钥是 k3y", "k3y"),
        ("令牌：xyz789", "xyz789"),
        ("私钥：mykey1", "mykey1"),
        ("我的邮箱密码叫 monkey", "monkey"),
        ("我把密码改成了 dragon", "dragon"),
        ("登录密码设置成 sunflower 了", "sunflower"),
        ("门禁密碼是 5566", "5566"),
        ("工号 1024，密码 mima888", "mima888"),
        ("给你我家wifi密码：１２３ａｂｃ", "１２３ａｂｃ"),
        ("路由器密码：correct horse battery staple", "correct horse battery staple"),
    ],
)
def test_a_value_after_a_secret_label_is_found(text: str, secret: str) -> None:
    assert ("secret", secret) in found(text), found(text)
    assert FILTER.redact(text).count(secret) == text.count(secret) - 1


@pytest.mark.parametrize(
    "text",
    [
        "I forgot my password again, can you help?",
        "Click the password reset link in the email we sent.",
        "The password field is required.",
        "password_hash = bcrypt.hashpw(password.encode(), salt)",
        "password: ********",
        "password: <your-password>",
        "Password: [REDACTED]",
        "DB_PASSWORD=${DB_PASSWORD}",
        "password = os.environ['DB_PASSWORD']",
        "class Login(BaseModel):\n    password: str",
        "connect(host, user=user, password=password)",
        "my password is too short",
        "Your password is incorrect. Please try again.",
        "Her password was stolen in the breach last year.",
        "the password is 12 characters long",
        "api_key: YOUR_API_KEY",
        "token: null",
        "The secret to good bread is time.",
        "The token is invalid or expired.",
        "Enter your PIN to continue.",
        "我忘了密码，怎么办",
        "密码重置链接已发送到您的邮箱",
        "密码：******",
        "密码：<你的密码>",
        "密码为 8-16 位字母和数字组合",
        "密码不能为空",
        "令牌过期了，请重新登录",
        "wifi 密码是多少？",
        "Authorization: Bearer <token>",
        "Authorization: Bearer $TOKEN",
        "Authorization: Basic base64(user:pass)",
        "authorization: pending manager approval",
        "We turned off basic authentication last week.",
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl bob@host",
        "pip install sk-video and scikit-learn",
    ],
)
def test_talk_about_secrets_without_one_is_left_alone(text: str) -> None:
    assert found(text) == []


@pytest.mark.parametrize(
    "key", ["sk-abc123def456ghi789", "sk-Zx81Ka02Lm93Qp", "sk-proj-abc123XYZ789def",
            "sk-ant-api03-abc123def456", "sk_test_abc123def456"],
)  # fmt: skip
def test_short_openai_style_keys(key: str) -> None:
    assert found(f"key {key}, thanks") == [("api_key", key)]
    assert found(f"试试这个：{key}") == [("api_key", key)]


def test_short_keys_need_a_digit_and_a_letter() -> None:
    assert found("the sk- prefix, sk-learn, sk-abcdefghijklmnop, sk-1234567890123") == []


@pytest.mark.parametrize(
    ("text", "credential"),
    [
        ("Authorization: Basic dXNlcjpwYXNz", "dXNlcjpwYXNz"),
        ("authorization: basic dXNlcjpwYXNz", "dXNlcjpwYXNz"),
        ("Proxy-Authorization: Basic Ym9iOnNlY3JldA==", "Ym9iOnNlY3JldA=="),
        ("curl -H 'Authorization: Bearer abc123' https://x.io", "abc123"),
        ('headers = {"Authorization": "Bearer 7f3a9c"}', "7f3a9c"),
        ("请求头：Authorization：Bearer tok_live_7Hq", "tok_live_7Hq"),
        ("Authorization: token ghp_short123", "ghp_short123"),
        (
            'Authorization: Digest username="bob", nonce="dcd98b71", response="6629fae4"',
            'username="bob", nonce="dcd98b71", response="6629fae4"',
        ),
        ("the service sends Basic dXNlcjpwYXNz with every call", "dXNlcjpwYXNz"),
        ("Cookie: sessionid=8f2k1m9x; csrftoken=Zk92La", "sessionid=8f2k1m9x; csrftoken=Zk92La"),
    ],
)
def test_http_credentials_of_any_length(text: str, credential: str) -> None:
    assert ("token", credential) in found(text), found(text)


def test_basic_credentials_must_be_base64_of_user_and_password() -> None:
    assert found("Basic training starts on Monday, basic dGVzdA== is not a pair") == []


# -- JSON written with escapes ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (r'{"\u5bc6\u7801": "hunter2"}', "hunter2"),
        (r'{"user": "bob", "\u53e3\u4ee4": "abc"}', "abc"),
        (r'"\u6211\u7684\u5bc6\u7801\u662fsunshine"', "sunshine"),
        (r'{"\u0070\u0061\u0073\u0073\u0077\u006f\u0072\u0064": "hunter2"}', "hunter2"),
        (r"{\"password\": \"hunter2\"}", "hunter2"),
        (r'"{\\\"\\u5bc6\\u7801\\\": \\\"abc\\\"}"', "abc"),  # JSON in JSON in JSON
        (r'{"\u4ee4\u724c": "tok_9f8e7d"}', "tok_9f8e7d"),
    ],
)
def test_json_escapes_are_decoded_before_detection(text: str, secret: str) -> None:
    assert ("secret", secret) in found(text), found(text)
    assert secret not in FILTER.redact(text)


def test_escaped_findings_map_back_to_the_escaped_characters() -> None:
    text = r'mail {"to": "zhang\u0040example.com", "\u5bc6\u7801": "\u0061bc"}'
    assert found(text) == [("email", r"zhang\u0040example.com"), ("secret", r"\u0061bc")]
    assert FILTER.redact(text) == r'mail {"to": "[EMAIL]", "\u5bc6\u7801": "[SECRET]"}'


@given(
    st.sampled_from(["密码", "口令", "密钥", "令牌", "password", "api_key"]),
    st.text(string.ascii_letters + string.digits + "!@#%&-_", min_size=3, max_size=24),
    st.integers(1, 3),
)
def test_a_secret_in_json_dumped_any_number_of_times_is_found(
    label: str, value: str, times: int
) -> None:
    """``json.dumps`` writes Chinese as ``\\u`` escapes; dumped again, as escaped escapes."""
    import json

    value = "Zq9" + value  # a credential for every label (a digit, mixed case)
    text = json.dumps({"user": "bob", label: value})
    for _ in range(times - 1):
        text = json.dumps(text)
    clean = FILTER.redact(text)
    assert value not in clean, (text, clean)


def test_a_mapping_key_written_with_escapes_names_a_secret() -> None:
    assert names_a_secret(r"\u5bc6\u7801") and names_a_secret(r"db_\u53e3\u4ee4")
    assert FILTER.apply_value({r"\u5bc6\u7801": "hunter2"}) == {r"\u5bc6\u7801": "[SECRET]"}


def test_overlaps_keep_the_longest() -> None:
    # an ID number contains digit runs that look like phone numbers: one finding only
    text = "证件 44030519900101123X 电话 13912345678"
    assert [f.kind for f in FILTER.scan(text)] == ["cn_id", "phone"]


def test_findings_hold_offsets_not_secrets() -> None:
    text = "key sk-proj-PtYgjmUhBel31iEl2hpChYgCfrL1spNx"
    (f,) = FILTER.scan(text)
    assert f == Finding("api_key", 4, len(text), "redact", "prefix")
    assert "PtYg" not in repr(f)


def test_fullwidth_digits_are_found_and_offsets_kept() -> None:
    text = "电话：１３８１２３４５６７８。"
    clean, (f,) = FILTER.apply(text)
    assert clean == "电话：[PHONE]。" and text[f.start : f.end] == "１３８１２３４５６７８"


def test_entropy_rule_skips_ids_and_words() -> None:
    for text in (
        "getUserAccountBalanceV2Handler",
        "https://example.com/AbCdEf1234GhIjKl5678MnOp",
        "DEADBEEFDEADBEEF0123456789ABCDEF",
        "supercalifragilisticexpialidocious",
        "cross-encoder/ms-marco-MiniLM-L-6-v2",
        "alice-UNIQUE-USER-5521",
    ):
        assert list(high_entropy_spans(text)) == [], text
    assert len(list(high_entropy_spans("X9gy1CJdObOIRpFqaDZeV7G5IfQH"))) == 1


# -- policy ---------------------------------------------------------------------------------
def test_default_policy_redacts_every_kind() -> None:
    clean, found = FILTER.apply("a@b.io 13812345678 4111111111111111")
    assert clean == "[EMAIL] [PHONE] [CARD]"
    assert [f.action for f in found] == ["redact"] * 3


def test_refuse_names_the_kind_and_keeps_the_secret_out_of_the_message() -> None:
    flt = SensitivityFilter(SensitivityPolicy(actions={"cn_id": "refuse"}))
    with pytest.raises(SensitiveContentError) as info:
        flt.apply("我的身份证 11010519491231002X", field="content")
    err = info.value
    assert isinstance(err, ValueError)
    assert err.kinds == ("cn_id",) and err.field == "content"
    assert "Chinese resident ID" in str(err) and "11010519491231002X" not in str(err)
    # other kinds are still redacted under that policy
    assert flt.redact("a@b.io") == "[EMAIL]"


def test_allow_keeps_text_and_reports_it() -> None:
    flt = SensitivityFilter(SensitivityPolicy(actions={"email": "allow"}))
    clean, found = flt.apply("a@b.io, 13812345678")
    assert clean == "a@b.io, [PHONE]"
    assert [(f.kind, f.action) for f in found] == [("email", "allow"), ("phone", "redact")]
    off = SensitivityFilter(SensitivityPolicy(default="allow"))
    assert not off.active and off.redact("a@b.io") == "a@b.io"


def test_placeholder_and_metadata() -> None:
    flt = SensitivityFilter(SensitivityPolicy(placeholder="<{kind}>"))
    assert flt.redact("mail a@b.io") == "mail <EMAIL>"
    meta = {"from": "a@b.io", "nested": {"cards": ["4111111111111111", 7]}, "ok": True}
    assert flt.apply_value(meta) == {
        "from": "<EMAIL>",
        "nested": {"cards": ["<CARD>", 7]},
        "ok": True,
    }


def test_policy_validation_and_coercion() -> None:
    with pytest.raises(ValueError, match="one of"):
        SensitivityPolicy(default="drop")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="card"):
        SensitivityPolicy(actions={"card": "hide"})  # type: ignore[dict-item]
    with pytest.raises(ValueError, match="kind"):
        SensitivityPolicy(placeholder="***")
    with pytest.raises(TypeError):
        SensitivityPolicy.coerce(3)
    p = SensitivityPolicy.coerce({"default": "refuse", "email": "allow"})
    assert p is not None and p.action_for("email") == "allow" and p.action_for("iban") == "refuse"
    assert SensitivityPolicy.coerce("allow") == SensitivityPolicy(default="allow")
    assert hash(p) == hash(SensitivityPolicy(default="refuse", actions={"email": "allow"}))
    with pytest.raises(TypeError):
        p.actions["card"] = "allow"  # type: ignore[index]


def test_memory_config_field() -> None:
    assert MemoryConfig().write.sensitivity == SensitivityPolicy()
    cfg = MemoryConfig(write={"sensitivity": {"card": "refuse"}})  # type: ignore[arg-type]
    assert isinstance(cfg.write.sensitivity, SensitivityPolicy)
    assert cfg.write.sensitivity.action_for("card") == "refuse"
    assert cfg.replace(rrf_k=10).write.sensitivity == cfg.write.sensitivity
    assert hash(cfg) == hash(dataclasses.replace(cfg))
    with pytest.raises(TypeError):
        MemoryConfig(write={"sensitivity": 42})  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        MemoryConfig(write={"sensitivity": "maybe"})  # type: ignore[arg-type]


# -- property tests -------------------------------------------------------------------------
def _luhn_complete(prefix: str) -> str:
    return next(prefix + d for d in "0123456789" if luhn_ok(prefix + d))


@st.composite
def card_numbers(draw) -> tuple[str, str]:
    length = draw(st.sampled_from([13, 15, 16, 19]))
    first = draw(st.sampled_from("3456"))
    body = draw(st.text("0123456789", min_size=length - 2, max_size=length - 2))
    digits = _luhn_complete(first + body)
    if length == 15:
        shown = draw(st.sampled_from([digits, f"{digits[:4]} {digits[4:10]} {digits[10:]}"]))
    else:
        sep = draw(st.sampled_from(["", " ", "-"]))
        shown = sep.join(digits[i : i + 4] for i in range(0, length, 4))
    return digits, shown


@st.composite
def cn_ids(draw) -> str:
    region = draw(st.integers(110000, 659999))
    year = draw(st.integers(1900, 2024))
    month = draw(st.integers(1, 12))
    day = draw(st.integers(1, 28))
    seq = draw(st.integers(0, 999))
    first17 = f"{region}{year}{month:02d}{day:02d}{seq:03d}"
    return first17 + cn_id_check_char(first17)


@st.composite
def ibans(draw) -> tuple[str, str]:
    country = draw(st.sampled_from(sorted(IBAN_LENGTHS)))
    alphabet = string.digits + string.ascii_uppercase
    bban = draw(
        st.text(alphabet, min_size=IBAN_LENGTHS[country] - 4, max_size=32).map(
            lambda s: s[: IBAN_LENGTHS[country] - 4]
        )
    )
    iban = country + iban_check_digits(country, bban) + bban
    grouped = draw(
        st.sampled_from([iban, " ".join(iban[i : i + 4] for i in range(0, len(iban), 4))])
    )
    return iban, grouped


CONTEXTS = st.sampled_from(
    ["my number is {} thanks", "卡号：{}，请查收", "{}", "({})", "pay to {}.", "号码{}已登记"]
)


def _assert_redacted(text: str, secret: str, kind: str) -> None:
    clean, found = FILTER.apply(text)
    assert kind in [f.kind for f in found], (text, found)
    assert secret not in clean
    # the contexts hold no digits: none of the secret's digits may survive redaction
    assert not any(c.isdigit() for c in clean), clean


@given(card_numbers(), CONTEXTS)
def test_valid_cards_are_detected_and_redacted(card: tuple[str, str], context: str) -> None:
    digits, shown = card
    assert luhn_ok(digits)
    _assert_redacted(context.format(shown), shown, "card")


@given(cn_ids(), CONTEXTS)
def test_valid_cn_ids_are_detected_and_redacted(number: str, context: str) -> None:
    _assert_redacted(context.format(number), number, "cn_id")


@given(ibans(), CONTEXTS)
def test_valid_ibans_are_detected_and_redacted(iban: tuple[str, str], context: str) -> None:
    plain, shown = iban
    assert iban_ok(plain)
    _assert_redacted(context.format(shown), shown, "iban")


@given(cn_ids(), st.integers(1, 10))
def test_a_wrong_check_character_is_not_an_id(number: str, shift: int) -> None:
    wrong = "10X98765432"[("10X98765432".index(number[-1]) + shift) % 11]
    assert "cn_id" not in kinds(f"编号 {number[:17]}{wrong}")


@given(st.text(max_size=200))
def test_any_text_scans_to_ordered_spans(text: str) -> None:
    clean, found = FILTER.apply(text)
    assert all(0 <= f.start < f.end <= len(text) for f in found)
    assert all(a.end <= b.start for a, b in zip(found, found[1:], strict=False))
    if not found:
        assert clean == text


# -- Presidio -------------------------------------------------------------------------------
class _Result:
    def __init__(self, entity_type: str, start: int, end: int, score: float) -> None:
        self.entity_type, self.start, self.end, self.score = entity_type, start, end, score


class _FakeAnalyzer:
    """Stands in for presidio's AnalyzerEngine (same ``analyze`` signature)."""

    def analyze(self, text: str, language: str, entities=None, score_threshold=0.0):
        assert language == "en"
        i = text.find("Alice")
        return [_Result("PERSON", i, i + 5, 0.85), _Result("LOCATION", 0, 3, 0.2)]


def test_presidio_adapter_maps_findings_into_the_policy() -> None:
    flt = SensitivityFilter(
        SensitivityPolicy(actions={"person": "redact"}),
        detectors=[PresidioDetector(analyzer=_FakeAnalyzer())],
    )
    clean, found = flt.apply("Ask Alice at a@b.io")
    assert clean == "Ask [PERSON] at [EMAIL]"
    assert [(f.kind, f.detector) for f in found] == [("person", "presidio"), ("email", "email")]


def test_presidio_engine_when_installed() -> None:
    pytest.importorskip("presidio_analyzer", reason="presidio-analyzer is not installed")
    try:
        detector = PresidioDetector()
    except ImportError as exc:  # the spaCy model cannot be fetched offline
        pytest.skip(f"Presidio's spaCy model is unavailable: {exc}")
    spans = list(detector("Contact Alice Smith at alice@example.com"))
    assert ("email" in [s[2] for s in spans]) and all(s[3] == "presidio" for s in spans)


def test_presidio_missing_is_a_clear_import_error() -> None:
    if importlib.util.find_spec("presidio_analyzer") is not None:
        pytest.skip("presidio-analyzer is installed")
    with pytest.raises(ImportError, match="presidio-analyzer"):
        SensitivityFilter(SensitivityPolicy(presidio=True))


def test_redaction_is_idempotent_on_the_corpus() -> None:
    """Nothing is found in the gate's own marks: a text cleaned twice (a document's id
    looked up again, a record written again) is the text cleaned once."""
    flt = SensitivityFilter()  # no memory of what it gave out
    for row in _bench().load():
        once = flt.pseudonym(row["text"])
        assert flt.pseudonym(once) == once, row["text"]
        clean = SensitivityFilter().redact(row["text"])
        assert SensitivityFilter().redact(clean) == clean, row["text"]
