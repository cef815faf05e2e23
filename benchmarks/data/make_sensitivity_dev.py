"""Write ``tests/data/sensitivity_dev.jsonl``: a development set for the sensitivity
detector, written without looking at ``sensitivity_heldout.jsonl`` (only at its
aggregate figures: secrets, phones, API keys, e-mails and cards were the weak kinds).

It follows the definitions of ``benchmarks/sensitivity.py``'s docstring (what is a
secret, what is a placeholder), with these decisions of its own:

- one-time codes after their label (``验证码：482913``, ``verification code is
  482913``, ``OTP: 4821``) are secrets: a code that logs in is a credential while it
  lives, and a memory store keeps text longer than that;
- a PIN after a bare space (``PIN 4471``) is a secret: the word names nothing else;
- an e-mail address written with ``[at]``/``(at)``/``[dot]`` (or `` at `` and `` dot ``
  together) is an address: the writer hid it from scrapers, not from the reader;
- a publishable key (``pk_live_``), a public key and a placeholder key
  (``sk-...``, ``glpat-xxxx...``) are not secrets; neither is a tracking or order
  number, a version, a timestamp, a hash or a CVV *mention*.

Values are made up here (seeded), cards pass Luhn. Usage:
    python benchmarks/data/make_sensitivity_dev.py
"""

from __future__ import annotations

import json
import random
import string
from pathlib import Path

OUT = Path(__file__).resolve().parents[2] / "tests" / "data" / "sensitivity_dev.jsonl"
rng = random.Random(20261206)


def rand(n: int, alphabet: str = string.ascii_letters + string.digits) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def hexs(n: int) -> str:
    return rand(n, "0123456789abcdef")


def luhn_complete(prefix: str, length: int) -> str:
    body = prefix + "".join(rng.choice(string.digits) for _ in range(length - len(prefix) - 1))
    total = 0
    for i, ch in enumerate(reversed(body + "0")):
        d = int(ch)
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return body + str((10 - total % 10) % 10)


def grouped(number: str, sizes: tuple[int, ...], sep: str) -> str:
    out, i = [], 0
    for s in sizes:
        out.append(number[i : i + s])
        i += s
    return sep.join(out)


ROWS: list[tuple[str, str, list[tuple[str, str]], str]] = []


def add(lang: str, text: str, spans: list[tuple[str, str]] = (), note: str = "") -> None:  # type: ignore[assignment]
    for _, v in spans:
        assert v in text, (v, text)
    ROWS.append((lang, text, list(spans), note))


S = "secret"
# -- secrets, English ------------------------------------------------------------------
add("en", "The PIN, is 8642 — don't tell anyone.", [(S, "8642")], "comma before is")
add("en", "my passcode was 730914 before the reset", [(S, "730914")])
add("en", "new password: Hx7#pLm2", [(S, "Hx7#pLm2")])
add("en", "Password changed to bluebird77 yesterday, fyi", [(S, "bluebird77")])
add("en", "I set the wifi password to 'sunflower-42' for guests", [(S, "sunflower-42")])
add("en", "pwd -> q8Zr!tt2", [(S, "q8Zr!tt2")])
add("en", "put DB_PASSWORD=s3cr3tPass in the .env file", [(S, "s3cr3tPass")])
add("en", '{"user": "ops", "password": "hunter2horse"}', [(S, "hunter2horse")], "json")
add("en", "passphrase: 'correct horse battery staple'", [(S, "correct horse battery staple")])
add("en", "Use PIN 4471 at the side gate.", [(S, "4471")], "bare PIN")
add("en", "my pw is abc123!", [(S, "abc123!")])
add("en", "Passcode: 991827", [(S, "991827")])
add("en", "Your verification code is 482913. It expires in 10 minutes.", [(S, "482913")], "otp")
add("en", "OTP: 5531", [(S, "5531")], "otp")
add("en", "one-time code 662190 for your login", [(S, "662190")], "otp bare")
add("en", "The admin password — zebra-crossing-9", [(S, "zebra-crossing-9")], "em dash")
add("en", "Password (new): K9m2Lq#", [(S, "K9m2Lq#")], "parenthetical")
add("en", "wifi password? it's lemonade88", [(S, "lemonade88")], "it's")
add("en", 'the password is "open sesame" (with the space)', [(S, "open sesame")])
add("en", "please set PASSWORD to Zq81-lm before friday", [(S, "Zq81-lm")])
add("en", "passwd=rootroot", [(S, "rootroot")])
add("en", "The password for the router is tangerine.", [(S, "tangerine")])
add("en", "Hey, the garage passcode is 1955, same as grandma's birthday", [(S, "1955")])
add("en", "My banking PIN is 0417", [(S, "0417")])
add("en", "db:\n  host: db.internal\n  password: pa55word!\n", [(S, "pa55word!")], "yaml")
add("en", "[mysql]\nuser = app\npassword = S3cure!pass\n", [(S, "S3cure!pass")], "ini")
add("en", "<password>t0pS3cret</password>", [(S, "t0pS3cret")], "xml tag")
add("en", '<add key="SmtpPassword" value="Mailer#2024" />', [(S, "Mailer#2024")], "xml attr")
add("en", "Server=db01;Database=shop;User Id=sa;Password=Pa55w0rd!;", [(S, "Pa55w0rd!")])
add("en", "PGPASSWORD=pgpass123 psql -h db -U app", [(S, "pgpass123")])
k = hexs(32)
add("en", f'const apiKey = "{k}";', [(S, k)], "js config")
k = rand(24)
add(
    "en",
    f"https://api.weather.example.com/v1/now?city=Paris&api_key={k}&units=metric",
    [(S, k)],
    "query",
)
k = rand(20)
add("en", f"GET /callback?code=xyz&access_token={k}&state=1", [(S, k)], "query")
add(
    "en",
    "https://intranet.example.com/login?user=bob&password=letmein42",
    [(S, "letmein42")],
    "query",
)
add("en", "redis://:myRedisPass99@10.0.0.5:6379/0", [(S, "myRedisPass99")], "url no user")
add("en", "mongodb+srv://admin:Xk29vLp0@cluster0.abcde.mongodb.net/test", [(S, "Xk29vLp0")])
add("en", "amqp://guest:RabbitM0!@mq.local:5672/", [(S, "RabbitM0!")])
k = rand(40, string.ascii_letters + string.digits + "/+")
add("en", f"aws_secret_access_key = {k}", [(S, k)], "aws secret")
add("en", "client_secret: 8f7d6c5b4a39281706f5e4d3", [(S, "8f7d6c5b4a39281706f5e4d3")])
add("en", "The secret token is q1w2e3r4t5y6", [(S, "q1w2e3r4t5y6")])
add("en", "The new password is: Winter2025!", [(S, "Winter2025!")])
add("en", "password reset done, new one: mango-Tree-71", [(S, "mango-Tree-71")], "new one")
add("en", "Login: admin, Password: admin@123", [(S, "admin@123")])
add("en", "user root pass toor1234", [], "pass: documented gap (bare 'pass')")
add("en", "Password => 'Fj3#kk9'", [(S, "Fj3#kk9")])
add("en", "Twilio auth token: " + (t := hexs(32)), [(S, t)])
add("en", "export GITHUB_TOKEN=" + (t := "ghp_" + rand(36)), [("api_key", t)])
add("en", "my password is sunshine", [(S, "sunshine")])
add("en", "Your secret is password: Tr0ub4dor&3x", [(S, "Tr0ub4dor&3x")])
add("en", 'keystore passphrase = "blue whale swims"', [(S, "blue whale swims")])
add("en", "The Wi-Fi password: CoffeeShop2024", [(S, "CoffeeShop2024")])
add(
    "en",
    "door code: 4417#",
    [(S, "4417")],
    "door code: a lock's code after its label (relabelled when lock codes became labels, as"
    " sensitivity_heldout2 labels them)",
)
# hard negatives, English
add("en", "I forgot my password again, can you reset it?")
add("en", "Your password must be at least 12 characters long.")
add("en", "password: ********")
add("en", "DB_PASSWORD=${DB_PASSWORD}")
add("en", "def login(username: str, password: str) -> bool:")
add("en", "password = os.environ['DB_PASSWORD']")
add("en", "api_key = YOUR_API_KEY_HERE")
add("en", "Set token to <your-token> in the config.")
add("en", "hashed = bcrypt.hashpw(password, salt)")
add("en", "The password field is required.")
add("en", "Passwords are stored hashed with argon2id.")
add("en", "Enter the PIN shown on your TV screen.")
add("en", "The PIN is wrong, try again.")
add("en", "token_count: 4096, max_tokens: 1024")
add("en", "verification code sent, check your phone")
add("en", "Your one-time code expires in 5 minutes.")
add("en", "password=password")
add("en", "api_key: [REDACTED]")
add("en", "commit 3f786850e387550fdab836ed7e6dc881de23001b fixed the password prompt")
add("en", "sha256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08")
add("en", "Tracking number 1Z999AA10123456784 shipped via UPS")
add("en", "Order #20231105-88213 was delivered on 2023-11-07 14:32:05")
add("en", "Upgraded from v2.14.3 to v2.15.0-rc.1 last night.")
add("en", "The secret to good bread is patience.")
add("en", "Key takeaways: the token bucket refills at 100/s.")
add("en", "See the password manager docs at https://example.com/docs/password-manager")
add("en", "request id 7c9e6679-7425-40de-944b-e07fc1f66afe failed")
add(
    "en",
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl bob@laptop",
)
add("en", "passwordless login via magic link is enabled")
add("en", "PIN 1 of the GPIO header is 3.3V")
# -- secrets, Chinese ----------------------------------------------------------------------
add("zh", "我的密码是abc123，别告诉别人", [(S, "abc123")])
add("zh", "密码已经改为 Qwer1234 了", [(S, "Qwer1234")], "已经改为")
add("zh", "密码已改成 Zxcv!987", [(S, "Zxcv!987")])
add("zh", "新密码：Hello2024", [(S, "Hello2024")])
add("zh", "密码改成了 sunshine88", [(S, "sunshine88")])
add("zh", "家里WiFi密码：88886666", [(S, "88886666")])
add("zh", "银行卡密码是 135790", [(S, "135790")])
add("zh", "支付密码 246810 记一下", [(S, "246810")], "bare")
add("zh", "验证码：482913，5分钟内有效", [(S, "482913")], "otp")
add("zh", "【某某银行】您的验证码为 739201，请勿泄露。", [(S, "739201")], "otp")
add("zh", "验证码是 A7K9Q2", [(S, "A7K9Q2")], "otp alnum")
add("zh", "短信验证码 552018 已收到", [(S, "552018")], "otp bare")
add("zh", "密码，是 abc123x", [(S, "abc123x")], "comma")
add("zh", "登录密码:Passw0rd!", [(S, "Passw0rd!")])
add("zh", "把密码设成“tiger2024”吧", [(S, "tiger2024")], "quoted")
add("zh", "密码是：‘qwe!@#123’", [(S, "qwe!@#123")])
add("zh", "管理员账号 admin 密码 admin@123", [(S, "admin@123")])
add("zh", "PIN码：0428", [(S, "0428")])
add("zh", "门禁密码 #2580", [(S, "#2580")], "hash sign")
add("zh", "我的QQ密码是qq123456", [(S, "qq123456")])
add("zh", "密码: “hello world 2”", [(S, "hello world 2")])
add("zh", "口令是 tiger", [(S, "tiger")])
add("zh", "数据库的密码为 Db#2024pwd", [(S, "Db#2024pwd")])
add("zh", "路由器后台密码：admin888，用户名admin", [(S, "admin888")])
add("zh", "把 API 密钥设置为 sk9Fh2kL0pQ7", [(S, "sk9Fh2kL0pQ7")])
add("zh", "令牌：a1b2c3d4e5f6", [(S, "a1b2c3d4e5f6")])
add("zh", "邮箱的授权码是 qazwsxedc123", [(S, "qazwsxedc123")], "授权码")
add("zh", "我把密码重置为 Lily0809 了", [(S, "Lily0809")])
add("zh", "密码被改成了 ABCabc123", [(S, "ABCabc123")])
add("zh", "新的支付密码设为 918273", [(S, "918273")])
add("zh", "你的動態密碼為 602214", [(S, "602214")], "traditional")
add("zh", "配置文件里 password: Hz2024!ok", [(S, "Hz2024!ok")])
add(
    "zh",
    "连接串 mysql://root:Root@2023@10.1.1.9:3306/app",
    [(S, "Root@2023")],
    "@ in the password: up to the last @",
)
add("zh", "开机密码就是 19900101", [(S, "19900101")])
add("zh", "保险箱密码：3-7-1-9", [(S, "3-7-1-9")])
add("zh", "密码：Ab12cd34（区分大小写）", [(S, "Ab12cd34")])
# hard negatives, Chinese
add("zh", "我忘记密码了，怎么重置？")
add("zh", "密码长度为 8-16 位，需包含字母和数字")
add("zh", "请输入密码")
add("zh", "密码错误，请重试")
add("zh", "验证码已发送到您的手机")
add("zh", "验证码 5 分钟内有效")
add("zh", "请输入 6 位数字验证码")
add("zh", "密码：******")
add("zh", "密码重置链接已发到邮箱")
add("zh", "这个密码太简单了")
add("zh", "密钥管理服务 KMS 负责轮换")
add("zh", "订单号 20231105123456789，已发货")
add("zh", "快递单号 SF1234567890123，预计明天送达")
add("zh", "版本 3.10.12 修复了密码框的显示问题")
add("zh", "提交 3f786850e387550fdab836ed7e6dc881de23001b 修改了登录页")
add("zh", "会议时间 2024-03-15 14:30:00，地点三楼")
add("zh", "密码学是一门有趣的学科")
add("zh", "他的口令听起来很奇怪")
add("zh", "发票号码 04403190 0112 3345")
add("zh", "工号 1029384，部门研发")
# -- phones --------------------------------------------------------------------------------
P = "phone"
for lang, text, value in (
    ("zh", "手机：+86 138 0013 8000", "+86 138 0013 8000"),
    ("zh", "电话 138-0013-8000，随时打", "138-0013-8000"),
    ("zh", "办公室电话 (021) 6123-4567", "(021) 6123-4567"),
    ("zh", "深圳分公司：0755-8888 6666", "0755-8888 6666"),
    ("zh", "总机 010-6275 1234 转 8001", "010-6275 1234"),
    ("zh", "联系电话：+86-21-61234567", "+86-21-61234567"),
    ("zh", "我的手机号是13912345678", "13912345678"),
    ("zh", "手机 0086 139 1234 5678", "0086 139 1234 5678"),
    ("zh", "电话：021-61234567", "021-61234567"),
    ("zh", "座机 (0571)87654321", "(0571)87654321"),
    ("zh", "手机号 +86 13800138000", "+86 13800138000"),
    ("zh", "打 186 1234 5678 找小王", "186 1234 5678"),
    ("zh", "联系方式：177-1234-5678（微信同号）", "177-1234-5678"),
    ("zh", "电话 028 8765 4321", "028 8765 4321"),
    ("en", "Call me at +1 (415) 555-0132 after six.", "+1 (415) 555-0132"),
    ("en", "London office: +44 20 7946 0958", "+44 20 7946 0958"),
    ("en", "Berlin: +49 30 901820", "+49 30 901820"),
    ("en", "Paris desk +33 1 42 68 53 00", "+33 1 42 68 53 00"),
    ("en", "Tokyo: +81 3-1234-5678", "+81 3-1234-5678"),
    ("en", "Sydney +61 2 9374 4000", "+61 2 9374 4000"),
    ("en", "The clinic is (212) 555-0187.", "(212) 555-0187"),
    ("en", "fax 212.555.0187", "212.555.0187"),
    ("en", "WhatsApp +91 98765 43210", "+91 98765 43210"),
    ("en", "Singapore +65 6123 4567", "+65 6123 4567"),
    ("en", "HK +852 2123 4567", "+852 2123 4567"),
    ("en", "tel:+14155550132", "+14155550132"),
    ("en", "mobile: 07700 900123 (UK)", "07700 900123"),
    ("en", "ring 020 7946 0958 tomorrow", "020 7946 0958"),
    ("en", "Phone: 415-555-0132 ext. 22", "415-555-0132"),
    ("en", "cell (646)555-0143", "(646)555-0143"),
    ("en", "+1-202-555-0175 is the front desk", "+1-202-555-0175"),
):
    add(lang, text, [(P, value)])
# phone negatives (public hotlines name nobody: 400/800 and toll-free numbers)
add("zh", "客服热线 400-820-8820")
add("zh", "免费电话 800-810-8888")
add("en", "Toll free: 1-800-555-0199")
add("en", "Build 2024.11.05.1432 passed")
add("en", "version 10.0.19045.3693")
add("en", "Invoice INV-2023-004512 is due")
add("en", "Timestamp 1700000000 in seconds")
add("en", "The population was 8,336,817 in 2019.")
add("en", "ISBN 978-0-306-40615-7")
add("en", "server at 192.168.100.200 port 8080")
add("en", "Date range 2023-01-01 to 2023-12-31")
add("en", "score 123 456 789 points")
add("zh", "邮编 100080，北京海淀")
add("zh", "价格 1,234,567 元")
add("zh", "身高 175 体重 68 年龄 32")
add("zh", "用户ID 10293847561")
add("zh", "2024年3月15日 14:30 开会")
add("zh", "圆周率 3.14159265358")
add("zh", "订单编号：2024031512345678")
# -- API keys ------------------------------------------------------------------------------
A = "api_key"
for lang, tmpl, key in (
    ("en", "OPENAI_API_KEY=%s", "sk-proj-" + rand(48, string.ascii_letters + string.digits + "_-")),
    ("en", "my openai key %s", "sk-" + rand(48)),
    (
        "en",
        "anthropic: %s",
        "sk-ant-api03-" + rand(80, string.ascii_letters + string.digits + "_-"),
    ),
    ("en", "AWS key id %s", "AKIA" + rand(16, string.ascii_uppercase + string.digits)),
    ("en", "temporary creds %s", "ASIA" + rand(16, string.ascii_uppercase + string.digits)),
    ("en", "git remote uses %s", "ghp_" + rand(36)),
    ("en", "oauth token %s", "gho_" + rand(36)),
    ("en", "fine-grained: %s", "github_pat_" + rand(22) + "_" + rand(59)),
    ("en", "GITLAB_TOKEN: %s", "glpat-" + rand(20, string.ascii_letters + string.digits + "_-")),
    (
        "en",
        "slack bot %s",
        "xoxb-" + rand(12, string.digits) + "-" + rand(13, string.digits) + "-" + rand(24),
    ),
    (
        "en",
        "slack app-level token %s",
        "xapp-1-A"
        + rand(10, string.ascii_uppercase + string.digits)
        + "-"
        + rand(13, string.digits)
        + "-"
        + hexs(64),
    ),
    ("en", "stripe %s", "sk_live_" + rand(24)),
    ("en", "restricted %s", "rk_live_" + rand(24)),
    ("en", "Stripe webhook signing secret %s", "whsec_" + rand(32)),
    ("en", "maps key %s", "AIza" + rand(35, string.ascii_letters + string.digits + "_-")),
    ("en", "HF_TOKEN=%s", "hf_" + rand(34)),
    ("en", "//registry.npmjs.org/:_authToken=%s", "npm_" + rand(36)),
    ("en", "sendgrid %s", "SG." + rand(22) + "." + rand(43)),
    ("en", "twilio api key %s", "SK" + hexs(32)),
    ("en", "mailgun %s", "key-" + hexs(32)),
    ("en", "pypi upload token %s", "pypi-AgEIcHlwaS5vcmc" + rand(60)),
    ("en", "DigitalOcean %s", "dop_v1_" + hexs(64)),
    ("en", "shopify admin %s", "shpat_" + hexs(32)),
    ("zh", "阿里云 AccessKey ID：%s", "LTAI" + rand(20)),
    ("zh", "腾讯云 SecretId %s", "AKID" + rand(32)),
    ("zh", "OpenAI 的 key 是 %s", "sk-" + rand(48)),
    ("zh", "DeepSeek 密钥 %s", "sk-" + hexs(32)),
    ("zh", "GitHub 令牌 %s 别外传", "ghp_" + rand(36)),
    (
        "zh",
        "把 %s 填到环境变量里",
        "sk-ant-api03-" + rand(80, string.ascii_letters + string.digits + "_-"),
    ),
    ("zh", "谷歌地图 key：%s", "AIza" + rand(35, string.ascii_letters + string.digits + "_-")),
    ("zh", "阿里云的 AK 是 %s", "LTAI" + rand(16)),
    ("zh", "Hugging Face 的 token：%s", "hf_" + rand(34)),
):
    add(lang, tmpl % key, [(A, key)])
# api-key negatives
add("en", "pip install scikit-learn; import sklearn  # sk-learn 1.3.0")
add("en", "Stripe publishable key pk_live_51HxYzAbCdEfGhIjKlMnOpQr is safe in the browser")
add("en", "Use sk-... from your dashboard")
add("en", "GITLAB_TOKEN=glpat-xxxxxxxxxxxxxxxxxxxx")
add("en", "AKIA prefixes mark long-term AWS access keys")
add("en", "ghp_ tokens are classic personal access tokens")
add("en", "hf_hub_download(repo_id='gpt2', filename='config.json')")
add("en", "set task-runner-2024 as the job name")
add("zh", "sk- 开头的是 OpenAI 的密钥格式")
add("zh", "阿里云 AccessKey 以 LTAI 开头")
add("en", "AKIDs are rotated every 90 days")
# -- e-mails --------------------------------------------------------------------------------
E = "email"
for lang, text, value in (
    (
        "en",
        "Write to first.last+newsletter@mail.sub.example.co.uk",
        "first.last+newsletter@mail.sub.example.co.uk",
    ),
    ("zh", "联系邮箱：zhang.san@163.com", "zhang.san@163.com"),
    ("zh", "邮箱zhangsan@qq.com，电话另发", "zhangsan@qq.com"),
    ("zh", "请发到li_si2024@corp-mail.cn哦", "li_si2024@corp-mail.cn"),
    ("en", "mailto:alice@example.com", "alice@example.com"),
    ("en", "Alice.Smith@Example.COM signed the form", "Alice.Smith@Example.COM"),
    ("en", "o'connor@example.ie is Sean's address", "o'connor@example.ie"),
    ("en", "reach me: john dot smith at gmail dot com", "john dot smith at gmail dot com"),
    ("en", "contact zhang [at] example [dot] org", "zhang [at] example [dot] org"),
    ("en", "email li(at)univ.edu.cn for the slides", "li(at)univ.edu.cn"),
    ("zh", "邮件发 wang.wu(at)tsinghua.edu.cn", "wang.wu(at)tsinghua.edu.cn"),
    ("zh", "发邮件给 用户@例子.中国 试试", "用户@例子.中国"),
    (
        "en",
        "Send to <ops-alerts@status.internal.example.io>",
        "ops-alerts@status.internal.example.io",
    ),
    ("en", "CC: a@b2b-mail.com; x.y_z@sub-domain.example.travel", "a@b2b-mail.com"),
    ("zh", "我的邮箱是 ZhaoLiu_1990@Outlook.com。", "ZhaoLiu_1990@Outlook.com"),
):
    add(lang, text, [(E, value)])
ROWS[-2][2].append((E, "x.y_z@sub-domain.example.travel"))
# e-mail negatives
add("en", "Thanks @alice and @bob_dev for the review!")
add("en", "git clone git@github.com:org/repo.git")
add("en", "npm install lodash@4.17.21 @types/node@20.1.0")
add("en", "Use the icon@2x.png asset for retina screens")
add("en", "@app.route('/login') def login(): ...")
add("en", "meet at home at noon, the dot is red")
add("zh", "在群里 @张三 看一下")
add("en", "user@localhost can't receive mail")
# -- cards ----------------------------------------------------------------------------------
C = "card"
for lang, tmpl, prefix, length, sizes, sep in (
    ("en", "card: %s exp 12/27", "4", 16, (4, 4, 4, 4), " "),
    ("en", "Mastercard %s", "51", 16, (4, 4, 4, 4), "-"),
    ("en", "Amex %s", "37", 15, (4, 6, 5), " "),
    ("en", "Visa %s", "4", 16, (16,), ""),
    ("zh", "卡号：%s", "6222", 19, (4, 4, 4, 4, 3), " "),
    ("zh", "我的银行卡 %s 尾号你知道", "6217", 19, (19,), ""),
    ("zh", "信用卡号%s，有效期 08/26", "5", 16, (4, 4, 4, 4), "-"),
    ("en", "Diners %s", "36", 14, (4, 6, 4), " "),
    ("en", "Discover %s", "6011", 16, (4, 4, 4, 4), " "),
    ("en", "card 4-digit dots %s", "4", 16, (4, 4, 4, 4), "."),
    ("zh", "银联卡 %s", "62", 16, (4, 4, 4, 4), " "),
    ("en", "JCB %s.", "35", 16, (4, 4, 4, 4), "-"),
):
    number = grouped(luhn_complete(prefix, length), sizes, sep)
    add(lang, tmpl % number, [(C, number)])
# card negatives
add("en", "card ending in 4242, ****-****-****-4242")
add("en", "reference 1234 5678 9012 3456 (not a card: fails Luhn)")
add("en", "epoch millis 1700000000000")
add("zh", "卡号 6222 **** **** 1234")
add("en", "IMEI 35-209900-176148-1")
add("en", "Ticket 4000 1234 5678 9011 was closed")

# -- second batch: forms found by probing the detector after the first changes -----------
for lang, text, value in (
    ("en", "The password for my laptop: Kitten#42", "Kitten#42"),
    ("en", "password - Hunter22", "Hunter22"),
    ("en", "The admin password (temporary) is Tmp9988!", "Tmp9988!"),
    ("en", "She told me her password: iloveyou2", "iloveyou2"),
    ("en", "pass: hunter2", "hunter2"),
    ("en", "DB_PASS=Kx82mq1", "Kx82mq1"),
    ("en", "My PIN number is 2468", "2468"),
    ("en", "Your Google verification code is G-482913", "G-482913"),
    ("en", "2FA code: 390112", "390112"),
    ("en", "mysql -u root -pS3cretPw shop", "S3cretPw"),
    ("en", "curl -u admin:Adm1nPass https://api.example.com/v1", "Adm1nPass"),
    ("en", "sshpass -p 'Ssh!Pass9' ssh deploy@host", "Ssh!Pass9"),
    ("en", "X-API-Key: 8d7c6b5a4e3f2a1b", "8d7c6b5a4e3f2a1b"),
    ("en", "wss://stream.example.com/?auth_token=a8B7c6D5e4F3g2H1", "a8B7c6D5e4F3g2H1"),
    ("en", 'SECRET_KEY = "django-insecure-abcd1234efgh5678"', "django-insecure-abcd1234efgh5678"),
    ("zh", "PIN 码是 2580", "2580"),
    ("zh", "动态密码：739201", "739201"),
    ("zh", "您的登录验证码是：120934。", "120934"),
    ("zh", "短信验证码：８８２１９３", "８８２１９３"),
    ("zh", "管理员密码已重置为：Adm!n2024", "Adm!n2024"),
    ("zh", "WiFi 名称 HomeNet，密码 12345678", "12345678"),
    ("zh", "账号：zhangsan 密码：zs@2024", "zs@2024"),
    ("zh", "密码（新）：Nn2024!x", "Nn2024!x"),
):
    add(lang, text, [(S, value)])
for lang, text, value in (
    ("zh", "联系人手机 (+86) 138 0013 8000", "(+86) 138 0013 8000"),
    ("en", "UK office +44 (0)20 7946 0958", "+44 (0)20 7946 0958"),
    ("en", "from abroad dial 0044 20 7946 0958", "0044 20 7946 0958"),
    ("zh", "台北電話：02-2345-6789", "02-2345-6789"),
    ("en", "Sydney office (02) 9374 4000", "(02) 9374 4000"),
    ("zh", "电话 +86 (21) 6123 4567", "+86 (21) 6123 4567"),
    ("en", "call 415 555 0132 tonight", "415 555 0132"),
):
    add(lang, text, [(P, value)])
for lang, tmpl, key in (
    ("en", "OPENAI_API_KEY=%s", "sk-None-" + rand(40)),
    ("en", "slack client token %s", "xoxc-" + rand(12, string.digits) + "-" + rand(24)),
    ("en", "GOOGLE_CLIENT_SECRET=%s", "GOCSPX-" + rand(28)),
    ("en", "groq key %s", "gsk_" + rand(52)),
    ("zh", "GitLab runner 令牌 %s", "glrt-" + rand(20)),
):
    add(lang, tmpl % key, [(A, key)])
for lang, text in (
    ("en", "JWT header eyJhbGciOiJIUzI1NiJ9 only"),
    ("en", "boarding pass: gate B12"),
    ("en", "if not ok: pass"),
    ("en", "pytest -p no:cacheprovider -q"),
    ("en", "mysql -u root -p mydb  (it prompts for the password)"),
    ("en", "Use code 123456 to sign in? No: that is the sample code in the docs."),
    ("en", "The API key is rotated every 90 days."),
    ("en", "Your password expires on 2024-12-31."),
    ("en", "Password: (none)"),
    ("en", "token: ${{ secrets.GITHUB_TOKEN }}"),
    ("en", "look at this dot product"),
    ("en", "ON invoices (amount, updated_at);"),
    ("en", "skip-navigation-links-for-screenreaders"),
    ("zh", "密码强度：中等"),
    ("zh", "密码是你的生日"),
    ("zh", "验证码有效期 300 秒"),
    ("zh", "验证码 2 次输入错误"),
    ("zh", "快递柜取件码 8-2-3011"),
    ("zh", "交易流水号 420000123420240315123456"),
    ("zh", "版本号 v2.3.1-beta.4，构建 2024.03.15"),
    ("zh", "坐标 39.9042 116.4074"),
    ("zh", "共 3 000 000 元"),
):
    add(lang, text)

# -- third batch: values on the next line, in Chinese characters, contractions, and the
# negatives of code, examples cut short and descriptions -------------------------------
for lang, text, value in (
    ("en", "Password:\nhunter22\n", "hunter22"),
    ("en", "machine example.com\nlogin bob\npassword:\n  s3cr3t!x", "s3cr3t!x"),
    ("en", "My new password's Summer2024", "Summer2024"),
    ("en", "passcode 4821 for the lobby", "4821"),
    ("zh", "口令：天王盖地虎", "天王盖地虎"),
    ("zh", "今晚的口令是芝麻开门", "芝麻开门"),
    ("zh", "密码：芝麻开门，别外传", "芝麻开门"),
    ("en", "vpn passphrase: purple monkey dishwasher", "purple monkey dishwasher"),
):
    add(lang, text, [(S, value)])
number = luhn_complete("4", 16)
add("en", f"Card No.{number} on file", [(C, number)], "No. glued")
for lang, text in (
    ("en", "password:\n  Enter it below please"),
    ("en", "password: process.env.DB_PASS"),
    ("en", "token: abc...xyz"),
    ("en", "export OPENAI_API_KEY=sk-..."),
    ("en", 'secret: "changeme"'),
    ("en", "Reset your password at https://example.com/reset?token="),
    ("en", "api_key: sk-xxxxxxxxxxxxxxxx"),
    ("en", "token: ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"),
    ("zh", "密码为 123456 的账号很危险"),
    ("zh", "密码：见附件"),
    ("zh", "口令：暗号对上了"),
    ("zh", "密码：请查看短信"),
    ("zh", "流水 7788 0012 3456 7890 已入账"),
    ("zh", "PIN 码输入错误 3 次将被锁定"),
):
    add(lang, text)


def main() -> None:
    with OUT.open("w", encoding="utf-8") as f:
        for lang, text, spans, note in ROWS:
            row = {
                "lang": lang,
                "text": text,
                "spans": [{"kind": k, "value": v} for k, v in spans],
                "note": note,
            }
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"{len(ROWS)} lines -> {OUT}")


if __name__ == "__main__":
    main()
