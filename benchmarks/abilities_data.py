"""The seeded generator of bilingual project chats behind ``benchmarks/abilities.py``.

Ours, written for this benchmark: a stand-in for held-out project chats, built from
templates and vocabulary pools with a seeded ``random.Random`` (nothing is downloaded).
Each conversation has dated sessions of alternating user/assistant messages on four
project topics (a web API, a data pipeline, a thesis, a mobile app). Assistant replies
are 300-1500 tokens of explanation, bullet lists and Python/SQL/shell code. Among the
short user requests, evidence for each ability is planted, plus look-alike noise (other
people's preferences, hypotheticals), and each planted item gets a probing question.

Checks made while generating: preference and instruction questions share no content
word with their evidence; and no message other than a gold message carries half of
that gold message's content words (the credit rule), so a context cannot be credited
with evidence it does not hold. Filler that would be credited is drawn again; planted
text that would be raises ``ValueError``.

The pools are written as small text blocks: ``[section]`` opens a section, an indented
line continues the previous one, ``|`` separates variants, ``//`` the steps of an item
(messages planted in time order) and ``=>`` its probing question(s).

Example:
    >>> convs = generate(seed=0, n_convs=1)  # doctest: +SKIP
    >>> len(convs[0].messages) >= 300  # doctest: +SKIP
    True
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from itertools import product

from langgraph_memory.core.tokens import content_words, count_tokens

__all__ = ["ABILITIES", "Conversation", "Message", "Question", "generate"]

ABILITIES = (
    "preference",
    "instruction",
    "update",
    "contradiction",
    "event_order",
    "summary",
    "multi_session",
    "extraction",
    "temporal",
)
#: Abilities whose question must share no content word with the evidence.
DISJOINT = ("preference", "instruction")
#: Abilities whose gold is only the last planted message (the current value).
LATEST_ONLY = ("update",)
MIN_REPLY, MAX_REPLY = 300, 1500
NOISE_PER_CONV = 12


@dataclass
class Message:
    id: str
    session: str
    role: str
    text: str
    timestamp: datetime
    topic: str
    planted: bool = False


@dataclass
class Question:
    ability: str
    text: str
    gold: list[str]
    lang: str


@dataclass
class Conversation:
    id: str
    lang: str
    sessions: list[str]
    messages: list[Message] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)
    redraws: int = 0


def _sections(block: str, joiner: str) -> dict[str, list[str]]:
    """The logical lines of each ``[section]`` of a pool block."""
    out: dict[str, list[str]] = {}
    current: list[str] = []
    for raw in block.splitlines():
        if not raw.strip():
            continue
        if raw.startswith("["):
            current = out.setdefault(raw.strip()[1:-1], [])
        elif raw.startswith(" ") and current:
            current[-1] += joiner + raw.strip()
        else:
            current.append(raw.strip())
    return out


def _split(text: str, sep: str) -> list[str]:
    return [part.strip() for part in text.split(sep)]


# -- vocabulary per topic (slots of the templates) ----------------------------------------
VOCAB_EN = """
[api]
comp: auth middleware | rate limiter | request validator | serializer | connection pool | router
  | pagination helper | webhook handler | cache layer | error handler
obj: request payload | JSON response | access token | query string | webhook event | error body
  | session cookie | page cursor
action: validate the input | retry failed calls | paginate results | invalidate the cache
  | refresh tokens | log each request | version the endpoints | return consistent errors
metric: p99 latency | error rate | throughput | cache hit ratio | queue depth
tool: FastAPI | Pydantic | uvicorn | Redis | pytest | httpx
[pipeline]
comp: ingestion step | deduplication stage | schema checker | loader | partitioner
  | scheduler DAG | transform job | warehouse sync
obj: raw event batch | parquet file | staging table | watermark | late record | partition key
  | manifest
action: deduplicate events | backfill a partition | handle late data | compact small files
  | enforce the schema | track lineage
metric: rows per second | job runtime | data freshness | null ratio | consumer lag
tool: Airflow | dbt | Spark | DuckDB | pandas | Great Expectations
[thesis]
comp: literature review | methods chapter | results section | discussion | abstract | appendix
  | analysis script
obj: survey dataset | coding scheme | regression table | figure caption | research question
  | interview transcript
action: structure the argument | report effect sizes | plot the distributions
  | justify the sample size | link findings to theory
metric: word count | Cronbach's alpha | p-value | response rate
tool: LaTeX | R | statsmodels | Zotero | matplotlib
[mobile]
comp: login screen | offline cache | push notification service | settings screen
  | navigation stack | sync worker | image uploader
obj: auth state | local database | deep link | build number | crash report | view model
action: persist state offline | handle deep links | reduce app size | debounce user input
  | schedule background sync
metric: cold start time | frame drops | bundle size | memory footprint
tool: React Native | Kotlin | SwiftUI | Expo | Firebase | Gradle
"""
VOCAB_ZH = """
[api]
comp: 鉴权中间件 | 限流器 | 参数校验器 | 序列化器 | 连接池 | 路由层 | 分页工具
  | 回调处理器 | 缓存层 | 错误处理器
obj: 请求体 | JSON响应 | 访问令牌 | 查询参数 | 回调事件 | 错误信息 | 会话Cookie | 分页游标
action: 校验输入 | 重试失败的调用 | 对结果分页 | 让缓存失效 | 刷新令牌 | 记录每个请求
  | 给接口做版本管理 | 统一错误格式
metric: P99延迟 | 错误率 | 吞吐量 | 缓存命中率 | 队列长度
tool: FastAPI | Pydantic | Redis | pytest | httpx
[pipeline]
comp: 采集步骤 | 去重阶段 | 模式校验 | 加载器 | 分区器 | 调度DAG | 转换任务 | 数仓同步
obj: 原始事件批次 | Parquet文件 | 中间表 | 水位线 | 迟到数据 | 分区键 | 清单文件
action: 去除重复事件 | 回填某个分区 | 处理迟到数据 | 合并小文件 | 强制校验表结构
  | 追踪数据血缘
metric: 每秒行数 | 任务耗时 | 数据新鲜度 | 空值比例 | 消费延迟
tool: Airflow | dbt | Spark | DuckDB | pandas
[thesis]
comp: 文献综述 | 研究方法章节 | 结果部分 | 讨论部分 | 摘要 | 附录 | 分析脚本
obj: 问卷数据 | 编码方案 | 回归表 | 图注 | 研究问题 | 访谈记录
action: 梳理论证结构 | 报告效应量 | 画分布图 | 论证样本量 | 把发现和理论联系起来
metric: 字数 | 信度系数 | 显著性水平 | 回收率
tool: LaTeX | R | statsmodels | Zotero | matplotlib
[mobile]
comp: 登录页 | 离线缓存 | 推送服务 | 设置页 | 导航栈 | 同步任务 | 图片上传模块
obj: 登录状态 | 本地数据库 | 深层链接 | 构建号 | 崩溃报告 | 视图模型
action: 离线保存状态 | 处理深层链接 | 减小安装包体积 | 给用户输入做防抖 | 安排后台同步
metric: 冷启动时间 | 掉帧 | 包体积 | 内存占用
tool: React Native | Kotlin | SwiftUI | Flutter | Firebase
"""
CODE_NAMES = """
[api]
fn: get_order | list_invoices | refresh_token | validate_payload | paginate
cls: OrderClient | TokenStore | WebhookSender
table: orders | invoices | api_keys | customers
col: status | created_at | customer_id | amount | updated_at
cmd: uvicorn app.main:app --reload | pytest -q tests/api | docker compose up -d redis
  | curl -s localhost:8000/health | alembic upgrade head
[pipeline]
fn: dedupe_events | load_partition | check_schema | compact_files
cls: PartitionLoader | EventDeduper | LineageTracker
table: raw_events | stg_orders | fct_sales | dim_customer
col: event_id | event_time | partition_date | source | ingested_at
cmd: airflow dags trigger daily_load | dbt run --select staging | spark-submit jobs/compact.py
  | duckdb warehouse.db -c 'select 1'
[thesis]
fn: load_survey | fit_model | plot_distribution | code_transcripts
cls: SurveyCleaner | FigureBuilder | CodebookIndex
table: responses | participants | codes | transcripts
col: participant_id | score | wave | condition | age_group
cmd: latexmk -pdf thesis.tex | Rscript analysis/models.R | python scripts/figures.py
  | make clean all
[mobile]
fn: sync_pending | restore_session | upload_image | handle_deep_link
cls: SyncWorker | SessionStore | ImageUploader
table: pending_uploads | sessions | devices | drafts
col: device_id | synced_at | retry_count | user_id | build_number
cmd: npx expo start | ./gradlew assembleRelease | xcodebuild -scheme Tracker test
  | adb logcat -s Tracker
"""


def _vocab(block: str) -> dict[str, dict[str, list[str]]]:
    out = {}
    for topic, lines in _sections(block, " ").items():
        out[topic] = {k.strip(): _split(v, "|") for k, _, v in (x.partition(":") for x in lines)}
    return out


TOPICS = {"en": _vocab(VOCAB_EN), "zh": _vocab(VOCAB_ZH)}
NAMES = _vocab(CODE_NAMES)

# -- templates (slots: comp, comp2, obj, action, Action, metric, tool, n) -----------------
TEMPLATES_EN = """
[sentence]
The {comp} should {action} before the {comp2} sees the {obj}.
If the {metric} climbs above {n}, the {comp} is usually the first place to look.
A common mistake is to let the {comp} {action} on every call; batching keeps the {metric}
  predictable.
{tool} handles this well, but keep its configuration in one place so the {comp2} stays easy
  to test.
I would write a small test around the {obj} first, then refactor the {comp}.
Logging the {obj} at debug level makes the {comp} much easier to reason about.
Keep the {comp} stateless where you can; state belongs in the {comp2}.
The trade-off is between a simpler {comp} and a better {metric}.
Once the {obj} is validated, the rest of the flow is straightforward.
Document why the {comp} exists, not only what it does, so the next reader can {action} safely.
Measure the effect by comparing the {metric} before and after the change.
For edge cases such as an empty {obj}, return early and say so in the log.
Splitting out the step that does '{action}' gives the {comp} a single job.
Try it in a scratch environment first and watch the {metric} for a day.
{tool} has a sensible default here, so I would not tune it until the {metric} says so.
[opener]
Good question. Here is how I would approach it.
Sure, let's go through it step by step.
Short version: it depends on the {comp}, but here is a solid default.
Here is a practical way to handle that.
Let me break this down.
[closer]
Tell me if you want me to {action} next.
If it helps, I can also sketch the tests for the {comp}.
Happy to go deeper on the {obj} if that is the blocker.
[heading]
### {Action}
[context]
I'm working on the {comp} today and the {metric} looks off.
We changed the {comp2} last week and now the {obj} behaves differently.
The team wants to {action} before the next release.
I tried {tool} but I'm not convinced it fits the {comp}.
Right now the {comp} just passes the {obj} through untouched.
Tests for the {comp2} are green locally but flaky in CI.
My current idea is to {action} inside the {comp}.
This is blocking the {comp2} work, so it's a bit urgent.
[paste]
Here's what I have so far:
This is the current version:
The relevant bit looks like this:
[ask]
How should I structure the {comp}?
Can you show me how to {action} in the {comp}?
Why is the {metric} so high after the last change?
What's the cleanest way to test the {obj}?
Could you review my plan to {action}?
Any tips to {action} without breaking the {comp}?
Can you write a snippet to {action}?
What should the {comp} do with a malformed {obj}?
Is {tool} a good fit for the {comp}?
The {comp} keeps failing on the {obj}, any idea why?
"""
TEMPLATES_ZH = """
[sentence]
{comp}最好在{comp2}拿到{obj}之前先{action}。
如果{metric}超过{n}，通常先检查{comp}。
常见的错误是让{comp}每次调用都去{action}，批量处理能让{metric}更稳定。
{tool}可以很好地处理这件事，但配置要集中放在一处，这样{comp2}才容易测试。
我建议先围绕{obj}写一个小测试，然后再重构{comp}。
在调试级别记录{obj}，之后排查{comp}会轻松很多。
尽量让{comp}保持无状态，状态应该放在{comp2}里。
这里的取舍在于更简单的{comp}和更好的{metric}之间。
{obj}校验通过之后，后面的流程就很直接了。
最好也写清楚{comp}为什么存在，这样后来的人才能放心地{action}。
可以比较改动前后的{metric}来衡量效果。
遇到边界情况，比如空的{obj}，直接提前返回并在日志里说明。
把{action}这一步单独拆出来，{comp}的职责会更清晰。
先在临时环境里试一下，观察一天{metric}的变化。
{tool}在这里的默认值已经够用，除非{metric}出问题，否则不用调。
[opener]
好问题，我的思路如下。
可以，我们一步一步来。
简单来说，这取决于{comp}，不过下面是一个稳妥的默认做法。
下面是一个比较实用的处理方式。
我把这个问题拆开来说。
[closer]
需要的话，我可以接着帮你{action}。
如果有用，我也可以给{comp}补上测试。
[heading]
### 关于{comp}
[context]
我今天在弄{comp}，{metric}看起来不太对。
上周改了{comp2}，现在{obj}的表现不一样了。
团队想在下个版本之前{action}。
我试了{tool}，但不确定它适不适合{comp}。
现在{comp}只是把{obj}原样传下去。
{comp2}的测试在本地能过，在CI上时好时坏。
我现在的想法是在{comp}里{action}。
这个卡住了{comp2}的工作，有点急。
[paste]
这是我现在的代码：
现在的版本是这样的：
相关的部分如下：
[ask]
{comp}应该怎么设计比较好？
能演示一下在{comp}里怎么{action}吗？
上次改完之后{metric}为什么这么高？
测试{obj}最干净的办法是什么？
帮我看看我打算{action}的思路对不对？
怎么{action}才不会把{comp}搞坏？
能写一段代码来{action}吗？
{comp}遇到格式不对的{obj}应该怎么办？
{tool}适合用在{comp}上吗？
{comp}老是在{obj}上出错，知道为什么吗？
"""
TEMPLATES = {"en": _sections(TEMPLATES_EN, " "), "zh": _sections(TEMPLATES_ZH, "")}
CODE_TEXT = """@@ python
```python
def {fn}(rows: list[dict], limit: int = {n}) -> list[dict]:
    {comment}
    seen: set[str] = set()
    out: list[dict] = []
    for row in rows:
        key = str(row.get("{col}"))
        if key in seen or row.get("{col2}") is None:
            continue
        seen.add(key)
        out.append(row)
    return out[:limit]
```
@@ class
```python
class {cls}:
    {comment}

    def __init__(self, retries: int = {m}) -> None:
        self.retries = retries
        self.failures = 0

    def {fn}(self, payload: dict) -> dict:
        for attempt in range(self.retries):
            try:
                return self._send(payload)
            except TimeoutError:
                self.failures += 1
                time.sleep(2**attempt)
        raise RuntimeError("{fn} gave up")
```
@@ sql
```sql
SELECT {col}, COUNT(*) AS n
FROM {table}
WHERE {col2} >= CURRENT_DATE - INTERVAL '{n} days'
GROUP BY {col}
ORDER BY n DESC
LIMIT {m};
```
@@ index
```sql
CREATE INDEX IF NOT EXISTS idx_{table}_{col}
    ON {table} ({col}, {col2});
ANALYZE {table};
```
@@ shell
```bash
{cmd1}
{cmd2}
{cmd3}
```
"""
CODE = [part.split("\n", 1)[1].strip() for part in CODE_TEXT.split("@@ ")[1:]]

# -- planted evidence: "topic: step // step => question | variant" -------------------------
POOL_EN = """
[preference]
api: I prefer minimal dependencies in my projects. | I like to keep my projects light on
  dependencies, the fewer packages the better. | I'm a big believer in minimal
  dependencies, the fewer packages the better.
  => Which libraries should I use for the HTTP client? | What should I pull in to call the
  payment service over HTTP?
api: I really dislike ORMs; I'd rather write raw SQL by hand. | I'm not a fan of ORMs, raw
  SQL written by hand works better for me.
  => How should the data access layer for invoices be built? | What's the best way to query
  invoices from Python?
mobile: I'm a fan of dark mode everything, bright themes hurt my eyes. | Dark mode works
  best for me on every screen I use.
  => What colour scheme should the settings screen get?
pipeline: Personally I'd always go with boring, proven technology over anything shiny and new.
  | Boring, proven technology matters more to me than anything shiny and new.
  => Which message queue would suit the ingestion job?
thesis: I hate long meetings; async written updates work much better for me. | I tend to
  avoid long meetings; async written updates are a must for me.
  => How should I keep my supervisor informed about progress?
[instruction]
thesis: From now on, always use APA 7th edition for references.
  => How should I format the sources in chapter 2? | What style do the citations in the
  literature review need?
api: Never use emojis in your answers, keep it plain text.
  => Write a friendly release note for the beta testers.
api: When I ask about deployment, give me the shell commands first.
  => How do we ship the new build to production?
pipeline: Please always open your answers with a short TL;DR line.
  => Explain how the retry logic for the uploader works.
pipeline: For any SQL you write for me, stick to uppercase keywords.
  => Give me a query listing customers who churned last quarter.
mobile: Whenever you show Python, include type hints on every function.
  => Write a helper that parses the CSV export into rows.
[update]
api: The API response time is 400 ms at p95 right now.
  // After the caching work, p95 latency dropped to 250 ms.
  => What is the current response time of the API?
thesis: The thesis draft is due on May 10.
  // My supervisor moved the deadline: the draft now goes in on June 2.
  => When is the thesis draft due now?
pipeline: We run the ETL job every 6 hours. // We changed the schedule, the ETL now runs hourly.
  => How often does the ETL run these days?
mobile: The app's crash-free rate is 97.1% this week.
  // After the hotfix, crash-free sessions are up to 99.4%.
  => What's our crash-free rate now?
api: The team is three developers for now. // We hired two more people, so we're five engineers
  now. => How many people are on the team currently?
pipeline: The cloud bill is around 1200 dollars a month.
  // We trimmed the cloud spend down to 900 dollars. // With reserved instances we now pay 650
  a month. => How much is our monthly cloud cost at the moment?
[contradiction]
mobile: We will never support tablets, this app is phones only.
  // Turns out the pilot customer needs iPad support, so they're in scope now.
  => Does the app support tablets?
api: I've never touched Docker before.
  // At my previous company I shipped containers with Docker daily.
  => Have I used Docker before?
api: The client said money is no issue for this project.
  // The client told us today the budget is extremely tight. => Is the client short on budget?
thesis: I do my best work early in the morning. // Honestly I'm most productive late at night.
  => When am I most productive?
pipeline: We store every timestamp in UTC.
  // Oops, the clickstream rows carry Berlin wall-clock hours.
  => What timezone are our timestamps stored in?
[event_order]
mobile: We submitted the build to TestFlight today.
  // Beta testers hit a crash on the login screen; patched it this afternoon.
  // The app went live on the Play Store this morning.
  => In what order did the TestFlight submission, the login crash fix and the store launch
  happen?
thesis: I sent the ethics application off to the review board.
  // The ethics board approved the study with minor changes.
  // Interviewed the first three participants this afternoon.
  // Finished transcribing all twelve interviews.
  => What happened first: the interviews, the ethics approval, or the transcription?
pipeline: Installed Airflow on the fresh VM from IT.
  // The historical reload of 2023 wrapped up.
  // We switched off the old cron scripts for good.
  => In what order did we do the Airflow setup, the 2023 reload and the cron shutdown?
api: Published the v1 docs for outside developers. // Rate limiting now applies to all
  clients. // We deprecated the v0 endpoints today.
  => Which came first: rate limiting, the v1 docs, or deprecating v0?
[summary]
api: Kicked off the database migration today, starting with the users table.
  // The migration script choked on rows where the email column is null.
  // I added a backfill step that fills missing emails with placeholders.
  // Users are migrated; orders are next, we planned a two-hour window.
  // The orders copy took three hours because a foreign-key index locked writes.
  // We rolled back that index and rebuilt it concurrently afterwards.
  // Migration finished and we shut down the legacy MySQL instance.
  => Summarize how the database migration went.
thesis: Searched three databases for the literature review, about 400 hits.
  // After applying the inclusion criteria only 62 papers are left.
  // My supervisor suggested giving the theoretical framework its own part.
  // First full draft of the review is done, roughly 12,000 words.
  // Cut two outdated research streams after the feedback round.
  // Merged the review's coding categories into four themes.
  => How did the literature review come along overall?
mobile: We started the onboarding redesign with five user interviews.
  // First prototype cuts the onboarding from five steps to three.
  // The A/B test shows an 18% higher completion rate for the new flow.
  // Onboarding animations stutter on older Android phones, swapping them for static
  illustrations. // The redesigned onboarding is now rolled out to everyone.
  => Give me a recap of the onboarding redesign.
pipeline: On Monday the dashboard showed order counts doubled overnight.
  // Root cause: dedup was silently skipped after a config change.
  // We reran three days of partitions and the numbers are back to normal.
  // A row-tally guard now pages us when totals drift over 5%.
  // The incident postmortem produced two follow-up action items.
  => Summarize the data quality incident for me.
[multi_session]
thesis: My co-supervisor is Dr. Lena Hartmann from the statistics department.
  // Hartmann expects my methodology write-up by June 20.
  => When does my co-supervisor want the methods chapter?
api: Karim owns the payments integration end to end.
  // Heads-up: Karim is on holiday until the 14th. => When is the person who owns payments back?
pipeline: The nightly export writes its files to the bucket acme-exports-eu.
  // Our retention rule on acme-exports-eu deletes objects after 30 days.
  => How long are the nightly export files kept?
mobile: The mobile app talks to the gateway at api.fernhill.io.
  // Note that api.fernhill.io is capped at 50 requests per second.
  => What rate limit applies to the host the mobile app calls?
mobile: The design review for the app is run by Sofia. // Sofia sits in building C, room 214.
  // The design review moved to Thursday at 3 pm.
  => Where and when do I go for the design review?
[extraction]
api: Our staging server is called orion-7, in case you need it for configs.
  => What's the staging server's name?
api: The production database is named ledger_prod and lives on db-east.
  => What's the name of the production database?
thesis: For the university forms: my student ID is 20417736. => What's my student ID?
mobile: The app's bundle identifier is io.fernhill.tracker on both platforms.
  => What bundle identifier does the app use?
api: Team secrets live under the vault path kv/team-atlas.
  => Where in Vault are the team secrets kept?
pipeline: Pipeline alerts go to the Slack channel #pipeline-pager.
  => Which Slack channel receives the pipeline alerts?
[temporal]
api: We finally moved the orders service from SQLite to Postgres today.
  => When did we switch to Postgres?
thesis: I defended my thesis proposal in front of the committee this morning.
  => When was my proposal defence?
api: We rotated the partner integration credentials on {date}.
  => When were the partner credentials rotated?
api: Our first paying customer, a bakery chain from Leeds, signed up yesterday.
  => When did we get the first paying customer?
pipeline: The Kafka cluster behind the pipeline was down for two hours last night.
  => When did the Kafka outage happen?
[noise]
api: My teammate Priya swears by big frameworks with batteries included.
mobile: Marco from the other squad uses light themes everywhere, weird.
thesis: A friend's lab insists on Chicago style for every citation.
api: Hypothetically, if we moved to MongoDB, what would break first?
api: At my old company the API took 900 ms per call, it was painful.
api: The other team named their staging box vega-2.
mobile: Suppose the client wanted Windows support, how much work would that be?
pipeline: My flatmate always writes her SQL in lowercase, drives me nuts.
pipeline: Imagine the ETL had to fire each minute, would Airflow cope?
thesis: A colleague's thesis deadline got pushed to September.
api: Some people on forums say ORMs are always a mistake.
thesis: What if my supervisor asked for Harvard referencing instead?
api: Another startup I follow landed their first customer in week two.
mobile: My old manager wanted emoji reactions on every pull request.
"""
POOL_ZH = """
[preference]
api: 我比较喜欢依赖少的方案，第三方库能不用就不用。 | 对我来说，依赖少最重要，第三方库能不用就不用。
  => 调用支付接口的HTTP客户端选哪个好？
api: 我不太喜欢ORM，宁愿自己手写SQL。 | 我习惯自己手写SQL，不太用ORM。
  => 发票模块的数据访问层怎么搭？
mobile: 我习惯所有界面都用深色主题，浅色看久了眼睛累。
  | 深色主题对我来说特别重要，浅色看久了眼睛累。
  => 设置页面的配色怎么定？
pipeline: 我偏爱成熟稳定的技术，不追新潮的东西。 => 数据导入任务该选哪个消息队列？
thesis: 我讨厌开长会，更喜欢异步的书面沟通。 | 我尽量避开长会，更喜欢异步的书面沟通。
  => 怎么让导师及时了解我的进展？
[instruction]
api: 以后回答都用中文并附上代码注释。 => 帮我写一个读取配置文件的函数。
pipeline: 每次给代码都加上类型注解。 => 写个函数把订单列表按日期分组。
thesis: 参考文献一律按GB/T 7714格式排。 => 第二章引用的资料怎么整理？
mobile: 以后别在回答里用表情符号。 => 帮我给内测用户写一段更新说明。
api: 问到部署的时候，先给我命令行步骤。 => 新版本怎么上线？
pipeline: 回答开头先用一句话总结。 => 解释一下上传模块的重试逻辑。
[update]
api: 接口目前的P95响应时间大约是400毫秒。 // 加了缓存之后，延迟已经降到250毫秒了。
  => 接口现在的响应时间是多少？
thesis: 论文初稿要在5月10号之前交。 // 导师把截止日期推迟了，现在6月2号交稿就行。
  => 论文初稿现在什么时候交？
pipeline: ETL任务每6小时跑一次。 // 调度改过了，现在ETL每个整点执行。 => ETL现在多久运行一次？
mobile: App目前的崩溃率是2.9%。 // 修复发布后，崩溃比例降到了0.6%。 => App现在的崩溃率是多少？
api: 团队现在只有三个开发。 // 又招了两位，现在总共五名工程师。 => 团队现在有多少人？
pipeline: 云服务账单每月大约1200美元。 // 优化之后云账单降到了900美元。
  // 用了预留实例以后，每个月只付650。 => 我们现在每月云费用是多少？
[contradiction]
mobile: 我们绝对不会支持平板，只做手机。 // 试点客户需要iPad，所以平板也要适配。
  => App支持平板吗？
api: 我以前从来没用过Docker。 // 我上一份工作天天都在用Docker部署。 => 我之前用过Docker吗？
api: 客户说预算不是问题。 // 客户今天告诉我们经费非常紧张。 => 客户在钱方面有压力吗？
thesis: 我早上工作效率最高。 // 说实话我深夜的时候最高效。 => 我什么时候效率最高？
pipeline: 我们所有时间戳都按UTC存。 // 事件表里有一部分时间其实存的是北京时间。
  => 我们的时间戳是哪个时区？
[event_order]
mobile: 今天把构建提交到TestFlight了。 // 内测那边闪退的问题，下午已经修好。
  // 今天上午App在应用商店正式上线。
  => 提交TestFlight、修复闪退、商店上线，这几件事的先后顺序是什么？
thesis: 伦理审查申请已经递交上去了。 // 伦理委员会批准了，只要小改。
  // 第一批受访者访谈做完了。 // 十二个访谈全部转录完了。 => 伦理审批、访谈和转录，哪个先发生？
pipeline: 在新虚拟机上搭好了Airflow调度。 // 2023年数据的第一次全量回填跑完了。
  // 旧的cron脚本今天彻底下线。 => 搭Airflow、全量回填、下线cron，按什么顺序进行的？
api: 公开API的v1文档发布了。 // 所有客户端都启用了限流。 // v0接口今天正式废弃。
  => v1文档、限流、废弃v0，哪个最先？
[summary]
api: 迁移今天正式开工，第一张是账号表。 // 迁移脚本在邮箱为空的行上报错了。
  // 加了一个回填步骤，先给空邮箱填占位值。 // 用户表迁完了，下一步是订单表，计划停机两小时。
  // 订单表迁移花了三小时，因为外键索引锁住了写入。 // 我们回滚了那个索引，之后在线重建。
  // 迁移结束，旧的MySQL实例已经下线。 => 总结一下数据库迁移的经过。
thesis: 文献综述先检索了三个数据库，初筛出四百篇。 // 按纳入标准筛完只剩六十二篇。
  // 导师觉得理论框架应该独立成一节。 // 综述初稿写完了，一万两千字。
  // 根据反馈删掉了两个过时的研究流派。 => 文献综述这部分是怎么推进的？
mobile: 新手引导页改版开始，先做了五场用户访谈。 // 第一版原型把步骤从五步减到三步。
  // A/B测试显示新版完成率高了18%。 // 安卓旧机型上引导动画卡顿，换成了静态插画。
  // 新流程已经全量上线。 => 引导页改版整体情况怎么样？
pipeline: 周一发现仪表盘上的订单数一夜之间翻倍了。 // 根因找到了：某次参数变更让去重逻辑被绕开了。
  // 我们补跑了三天的分区，数据恢复正常。 // 新增行数比对，偏差大于5%就告警。
  // 事故复盘会定了两个后续行动项。 => 总结一下那次数据质量事故。
[multi_session]
thesis: 我的副导师是统计系的哈特曼博士。 // 哈特曼希望6月20号前看到研究方法那一章。
  => 副导师要我什么时候交研究方法章节？
api: 支付对接从头到尾都是卡里姆负责。 // 提醒一下：卡里姆休假到14号。
  => 负责支付的人什么时候回来？
pipeline: 每晚的导出任务把文件写到 acme-exports-eu 这个桶。
  // acme-exports-eu 上的保留规则是30天后删除对象。 => 每晚导出的文件能保留多久？
mobile: App 调用的网关地址是 api.fernhill.io。 // api.fernhill.io 的上限是每秒50个请求。
  => App 调用的那个地址限流是多少？
[extraction]
api: 预发布服务器的名字叫 orion-7，配置里会用到。 => 预发布服务器叫什么名字？
api: 生产数据库的名字是 ledger_prod，放在 db-east 这台机器上。 => 生产数据库叫什么？
thesis: 填学校表格要用：我的学号是 20417736。 => 我的学号是多少？
mobile: App 在两个平台上的包名都是 io.fernhill.tracker。 => App 的包名是什么？
api: 团队的密钥都放在 Vault 的 kv/team-atlas 路径下。 => 团队密钥放在 Vault 的哪个路径？
pipeline: 数据管道的告警会发到 Slack 的 #pipeline-pager 频道。 => 管道告警发到哪个 Slack 频道？
[temporal]
api: 今天终于把订单服务从 SQLite 迁到了 Postgres。 => 我们是什么时候换成 Postgres 的？
thesis: 今天上午我在答辩委员会面前完成了开题答辩。 => 我的开题答辩是哪天？
api: {date}我们把合作方的接入凭证全部轮换了一遍。 => 合作方的凭证是什么时候轮换的？
api: 第一个付费客户昨天签约了，是一家连锁面包店。 => 第一个付费客户是什么时候来的？
pipeline: 昨晚数据管道后面的 Kafka 集群宕机了两个小时。 => Kafka 故障是哪天发生的？
[noise]
api: 我同事小王特别喜欢大而全的框架。
mobile: 隔壁组的人都用浅色主题。
thesis: 朋友的实验室要求用MLA格式引用。
api: 假设我们换成MongoDB，会先出什么问题？
api: 我之前公司的接口一次要900毫秒，很痛苦。
api: 另一个团队把他们的测试机命名为vega-2。
mobile: 如果客户要Windows版本，工作量大概多少？
pipeline: 我室友写SQL总是全小写。
pipeline: 如果ETL要每分钟跑一次，Airflow扛得住吗？
thesis: 同学的论文截止日期推到了九月。
api: 网上有人说用ORM永远是个错误。
thesis: 要是导师要求改成哈佛引用格式怎么办？
"""

#: One planted item: its topic, its steps (each a list of variants), its questions.
Item = tuple[str, list[list[str]], list[str]]


def _items(lines: list[str]) -> list[Item]:
    """Parse ``topic: step // step => question | variant`` lines (noise has no question)."""
    out: list[Item] = []
    for line in lines:
        topic, _, rest = line.partition(":")
        steps, _, questions = rest.partition("=>")
        variants = [_split(step, "|") for step in _split(steps, "//")]
        out.append((topic.strip(), variants, _split(questions, "|") if questions else []))
    return out


def _pool(block: str, joiner: str) -> dict[str, list[Item]]:
    return {name: _items(lines) for name, lines in _sections(block, joiner).items()}


POOLS = {"en": _pool(POOL_EN, " "), "zh": _pool(POOL_ZH, "")}
MONTHS = "January February March April May June July August September October November December"


# -- filler ------------------------------------------------------------------------------
def _slots(rng: random.Random, lang: str, topic: str) -> dict[str, str]:
    vocab = TOPICS[lang][topic]
    comp, comp2 = rng.sample(vocab["comp"], 2)
    action = rng.choice(vocab["action"])
    return {
        "comp": comp,
        "comp2": comp2,
        "obj": rng.choice(vocab["obj"]),
        "action": action,
        "Action": action[:1].upper() + action[1:],
        "metric": rng.choice(vocab["metric"]),
        "tool": rng.choice(vocab["tool"]),
        "n": str(rng.choice([5, 10, 30, 50, 100, 200, 500])),
    }


def _render(rng: random.Random, lang: str, topic: str, template: str) -> str:
    text = template.format(**_slots(rng, lang, topic))
    return text[:1].upper() + text[1:] if lang == "en" else text


def _fill(rng: random.Random, lang: str, topic: str, kind: str) -> str:
    return _render(rng, lang, topic, rng.choice(TEMPLATES[lang][kind]))


def _paragraph(rng: random.Random, lang: str, topic: str) -> str:
    """3-6 different sentences."""
    picks = rng.sample(TEMPLATES[lang]["sentence"], rng.randint(3, 6))
    return (" " if lang == "en" else "").join(_render(rng, lang, topic, t) for t in picks)


def _bullets(rng: random.Random, lang: str, topic: str) -> str:
    colon = ": " if lang == "en" else "："
    comps = rng.sample(TOPICS[lang][topic]["comp"], rng.randint(3, 5))
    return "\n".join(f"- **{c}**{colon}{_fill(rng, lang, topic, 'sentence')}" for c in comps)


def _code(rng: random.Random, lang: str, topic: str) -> str:
    names = NAMES[topic]
    col, col2 = rng.sample(names["col"], 2)
    cmd1, cmd2, cmd3 = rng.sample(names["cmd"], 3)
    return rng.choice(CODE).format(
        fn=rng.choice(names["fn"]),
        cls=rng.choice(names["cls"]),
        table=rng.choice(names["table"]),
        col=col,
        col2=col2,
        cmd1=cmd1,
        cmd2=cmd2,
        cmd3=cmd3,
        n=rng.choice([7, 14, 30, 90]),
        m=rng.choice([3, 5, 10, 20]),
        comment="# " + rng.choice(TOPICS[lang][topic]["action"]),
    )


def _section(rng: random.Random, lang: str, topic: str) -> str:
    """A heading and its paragraph."""
    return f"{_fill(rng, lang, topic, 'heading')}\n\n{_paragraph(rng, lang, topic)}"


def assistant_reply(rng: random.Random, lang: str, topic: str) -> str:
    """A 300-1500 token technical reply: paragraphs, headings, bullets, code."""
    target = rng.randint(MIN_REPLY, MAX_REPLY)
    makers = [_paragraph, _paragraph, _paragraph, _bullets, _code, _section]
    text = f"{_fill(rng, lang, topic, 'opener')}\n\n{_code(rng, lang, topic)}"
    closer = _fill(rng, lang, topic, "closer")
    while count_tokens(text) < target:
        candidate = f"{text}\n\n{rng.choice(makers)(rng, lang, topic)}"
        if count_tokens(f"{candidate}\n\n{closer}") > MAX_REPLY:
            break
        text = candidate
    return f"{text}\n\n{closer}"


def user_ask(rng: random.Random, lang: str, topic: str) -> str:
    """A request: a one-liner, or with a few lines of context, or with pasted code."""
    ask, sep = _fill(rng, lang, topic, "ask"), " " if lang == "en" else ""
    kind = rng.random()
    if kind < 0.45:
        return ask
    if kind < 0.8:
        picks = rng.sample(TEMPLATES[lang]["context"], rng.randint(1, 3))
        return sep.join([*(_render(rng, lang, topic, t) for t in picks), ask])
    return f"{ask}\n\n{_fill(rng, lang, topic, 'paste')}\n\n{_code(rng, lang, topic)}"


# -- conversation layout -----------------------------------------------------------------
Pos = tuple[int, int]  # (session index, user turn index)


def _schedule(
    rng: random.Random, conv_id: str, n_sessions: int, turns: int, start: datetime
) -> list[list[tuple[str, datetime]]]:
    """Per session, the (session id, time) of each user turn; sessions days apart."""
    out, day = [], start
    for s in range(n_sessions):
        t = day.replace(hour=rng.randint(9, 16), minute=rng.randint(0, 59))
        slots = []
        for _ in range(turns):
            slots.append((f"{conv_id}-s{s + 1}", t))
            t += timedelta(seconds=rng.randint(150, 300))  # the reply comes in between
        out.append(slots)
        day += timedelta(days=rng.randint(3, 20))
    return out


def _date_text(lang: str, when: datetime) -> str:
    if lang == "zh":
        return f"{when.month}月{when.day}日"
    return f"{MONTHS.split()[when.month - 1]} {when.day}"


def _disjoint_pair(rng: random.Random, item: Item) -> tuple[str, str]:
    """An (evidence, question) variant pair sharing no content word (ValueError if none)."""
    pairs = list(product(item[1][0], item[2]))
    rng.shuffle(pairs)
    for ev, q in pairs:
        if not content_words(ev) & content_words(q):
            return ev, q
    raise ValueError(f"every question variant shares words with its evidence: {item}")


def _positions(rng: random.Random, free: list[set[int]], k: int) -> list[Pos]:
    """k free positions in time order, in distinct sessions when k allows."""
    n = len(free)
    sessions = sorted(rng.sample(range(n), k) if k <= n else rng.choices(range(n), k=k))
    out = []
    for s in sessions:
        if not free[s]:
            raise ValueError("not enough user turns for the planted evidence: raise turns")
        t = rng.choice(sorted(free[s]))
        free[s].discard(t)
        out.append((s, t))
    return sorted(out)


def _plant(
    rng: random.Random, lang: str, free: list[set[int]], per_ability: int
) -> tuple[dict[Pos, tuple[str, str]], list[tuple[str, str, list[Pos]]]]:
    """Planted texts by position, and each question's (ability, text, gold positions)."""
    planted: dict[Pos, tuple[str, str]] = {}
    questions = []
    for ability in ABILITIES:
        pool = POOLS[lang][ability]
        for topic, steps, qs in rng.sample(pool, min(per_ability, len(pool))):
            if ability == "summary":
                keep = sorted(rng.sample(range(len(steps)), rng.randint(4, min(8, len(steps)))))
                steps = [steps[i] for i in keep]
            texts = [rng.choice(variants) for variants in steps]
            question = rng.choice(qs)
            if ability in DISJOINT:
                texts[0], question = _disjoint_pair(rng, (topic, steps, qs))
            positions = _positions(rng, free, len(texts))
            for p, text in zip(positions, texts, strict=True):
                planted[p] = (topic, text)
            gold = positions[-1:] if ability in LATEST_ONLY else positions
            questions.append((ability, question, gold))
    noise = POOLS[lang]["noise"]
    for topic, steps, _ in rng.sample(noise, min(NOISE_PER_CONV, len(noise))):
        (p,) = _positions(rng, free, 1)
        planted[p] = (topic, steps[0][0])
    return planted, questions


def _conversation(
    rng: random.Random, index: int, lang: str, turns: int, n_sessions: int, per_ability: int
) -> Conversation:
    conv_id = f"{lang}{index}"
    start = datetime(2025, 1, 6, tzinfo=timezone.utc) + timedelta(days=7 * index)
    schedule = _schedule(rng, conv_id, n_sessions, turns, start)
    planted, qs = _plant(rng, lang, [set(range(turns)) for _ in schedule], per_ability)
    topics = list(TOPICS[lang])
    conv = Conversation(conv_id, lang, [slots[0][0] for slots in schedule])
    ids: dict[Pos, str] = {}
    for s, slots in enumerate(schedule):
        focus = rng.choice(topics)  # each session leans to one project
        for t, (session, when) in enumerate(slots):
            if (s, t) in planted:
                topic, text = planted[s, t]
                text = text.replace("{date}", _date_text(lang, when))
            else:
                topic = focus if rng.random() < 0.5 else rng.choice(topics)
                text = user_ask(rng, lang, topic)
            ids[s, t] = f"{session}-{t:02d}u"
            conv.messages.append(
                Message(ids[s, t], session, "user", text, when, topic, (s, t) in planted)
            )
            reply = assistant_reply(rng, lang, topic)
            at = when + timedelta(seconds=rng.randint(60, 120))
            conv.messages.append(
                Message(f"{session}-{t:02d}a", session, "assistant", reply, at, topic)
            )
    conv.questions = [Question(a, q, [ids[p] for p in gold], lang) for a, q, gold in qs]
    _redraw_collisions(rng, conv)
    return conv


def _carried(words: set[str], gold_words: dict[str, set[str]], own_id: str) -> str | None:
    """The first gold message (other than ``own_id``) that ``words`` carries by the rule."""
    for gid, gw in gold_words.items():
        if gid != own_id and gw and len(words & gw) >= len(gw) / 2:
            return gid
    return None


def _redraw_collisions(rng: random.Random, conv: Conversation) -> None:
    """No message but a gold one may carry half of its content words: redraw filler."""
    gold_ids = {g for q in conv.questions for g in q.gold}
    gold_words = {m.id: content_words(m.text) for m in conv.messages if m.id in gold_ids}
    for m in conv.messages:
        for _ in range(50):
            hit = _carried(content_words(m.text), gold_words, m.id)
            if hit is None:
                break
            if m.planted:
                raise ValueError(f"{m.id} {m.text!r} carries gold {hit}: rephrase the pools")
            conv.redraws += 1
            maker = assistant_reply if m.role == "assistant" else user_ask
            m.text = maker(rng, conv.lang, m.topic)
        else:
            raise ValueError(f"could not redraw {m.id} clear of the gold messages")


def generate(
    seed: int = 0,
    n_convs: int = 4,
    *,
    turns: int = 50,
    n_sessions: int = 4,
    per_ability: int = 3,
) -> list[Conversation]:
    """``n_convs`` conversations, English and Chinese in turn, of ``2 * turns``
    messages per session, with ``per_ability`` probing questions per ability."""
    if n_sessions < 3:
        raise ValueError("the abilities need at least three sessions")
    convs = []
    for i in range(n_convs):
        rng = random.Random(f"abilities-{seed}-{i}")
        convs.append(_conversation(rng, i, ("en", "zh")[i % 2], turns, n_sessions, per_ability))
    return convs
