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

The phrasings of the preference, instruction, update, contradiction, event_order and
summary pools were written by an author who did not read the extraction rules, so the
benchmark does not echo the wording the rules were tuned on.

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
api: Honestly, I'd write a tiny helper myself before pulling in yet another package.
  | Each new entry in requirements.txt makes me nervous; I like that list tiny.
  => Which HTTP client should talk to the payment provider? | How do we reach the shipping
  company's REST endpoints?
api: Raw SQL is my comfort zone, ORMs and query builders just get in my way.
  | I'd rather hand-write each statement against Postgres than fight an ORM's abstractions.
  => What's the neatest approach to loading invoices in Python? | How should the invoices data
  access layer be built?
mobile: Bright backgrounds give me a headache within the hour, so I run dark themes on
  everything. | Dark UI or nothing for me; glaring white wears my eyes out.
  => What palette suits the settings page? | Which colours should the profile view get?
pipeline: I trust battle-tested tools with a decade of production use, not whatever
  launched last month. | New and shiny doesn't impress me; give me something mature that has
  run for years.
  => Which message broker fits the ingestion job? | What should sit between the collectors
  and the warehouse loader?
thesis: Long meetings drain me; I'd much rather send a written note and get comments async.
  | Calls that drag past an hour are the worst, written check-ins suit me far better.
  => How should I keep my supervisor posted on progress? | What's a good rhythm for
  reporting to my advisor?
api: If a library's docs are thin I walk away, however clever it is; documentation is what
  I care about most. | Sparse documentation is a dealbreaker for me, no matter how elegant
  the code.
  => Which rate-limiting package should we adopt? | What should we pick for request
  throttling?
[instruction]
thesis: Going forward, format every reference in APA 7. | Stick to APA 7th edition for all
  citations from here on.
  => How should the sources in chapter two look? | What do the bibliography entries of the
  review need?
api: Skip the emojis in your answers, plain text only. | No emoji in your replies please, I
  paste them straight into tickets.
  => Draft a friendly release note for the beta testers. | Announce the new throttling limits
  to our partners.
api: Whenever the topic is deployment, lead with the exact shell commands before any
  explanation. | If I ask about deploying, commands first, prose afterwards.
  => How do we ship the new build to production? | What are the steps to roll out version
  2.3?
pipeline: Start each answer with a one-line TL;DR, then the details. | Please put a
  single-sentence summary at the very top of your replies.
  => Explain how the uploader's retry logic works. | Why does the backfill skip some
  partitions?
pipeline: In any SQL you hand me, keywords go in capitals. | Capitalised keywords in
  every query you draft for me, please.
  => List the customers who churned last quarter. | Show me the top ten products by revenue
  for March.
mobile: Annotate every Python function you give me with full type hints. | Type hints on all
  your Python signatures please, parameters included.
  => Build a helper that parses the CSV export into rows. | How would I read the exported
  spreadsheet into dicts?
[update]
api: Our p95 on the public endpoints sits around 400 ms at the moment.
  | Right now the slowest five percent of API calls take about 400 ms.
  // Since the Redis caching landed, tail latency is down to 250 ms.
  | Caching is live and the p95 has dropped to 250 ms.
  => How fast is the API responding these days? | What's the current tail latency?
thesis: My draft has to reach the committee by May 10.
  // Good news: my supervisor gave me until June 2 for the manuscript.
  => What's the current deadline for my draft? | By when do I need to hand in the chapters?
pipeline: The ETL kicks off every six hours. | Our loader runs four times a day, every six
  hours. // Rescheduled it: the job now fires at the top of every hour.
  => How frequently does the ETL run at present?
mobile: This week 97.1% of sessions were crash-free.
  // The hotfix pushed stability up to 99.4% crash-free.
  => How stable is the app right now?
api: Staging releases need a sign-off from Anna.
  // Anna moved to the data team, so Rui approves deploys to staging now.
  => Who has to approve a staging release these days?
pipeline: Cloud spend runs roughly $1200 per month.
  // Shut down the idle clusters and the AWS invoice fell to $900.
  // Reserved instances kicked in; we're paying $650 monthly now.
  => What do we currently pay for cloud infrastructure?
[contradiction]
mobile: Tablets are out of scope, full stop; phones only.
  // Scratch that, the pilot customer runs everything on iPads, so tablet layouts are in.
  => Does the app need to work on an iPad-sized screen?
api: Docker is completely new to me, I've never used it.
  // Back at my last job I was building and shipping containers with Docker every day.
  => Do I have any Docker experience?
api: The client assured us budget won't be a constraint.
  // Today the client said money is very tight and every hour has to be justified.
  => Does the client have money to spare?
thesis: Mornings are when I write best.
  // Truth is, I get the most done after midnight.
  => What time of day suits my writing?
pipeline: Nothing personally identifiable ever lands in the clickstream store.
  // Turns out the payload column of clickstream rows holds raw customer email addresses.
  => Do we keep PII in the clickstream?
thesis: I won't use any qualitative material in the thesis.
  // The interviews are going to be a core part of the analysis after all.
  => Does my thesis rely on qualitative data?
[event_order]
mobile: Uploaded the first build to TestFlight this morning.
  // Testers hit a crash on the login screen; it's patched as of this afternoon.
  // We're live on the Play Store since this morning.
  => What was the sequence of the TestFlight upload, the login crash patch and the store
  release?
thesis: The ethics application went off to the review board.
  // Approval came through with a few small edits requested.
  // Sat down with the first three participants this afternoon.
  // All twelve recordings are transcribed now.
  => Which came first among the ethics approval, the interviews and the transcripts?
pipeline: Airflow is installed on the new VM that IT gave us.
  // The full 2023 backfill finished overnight.
  // Old cron jobs are switched off for good.
  => In what order did the Airflow install, the 2023 backfill and the cron retirement happen?
api: v1 docs are published for external developers.
  // Throttling is switched on for all third-party callers.
  // We retired the v0 routes this morning.
  => Put the v1 docs, the throttling switch-on and the v0 deprecation in order.
[summary]
api: Database migration started today, users table first.
  // The script blew up on rows with a null email.
  // Added a step that writes placeholder addresses before copying.
  // Users done; orders next, we booked a two-hour maintenance window.
  // Copying orders took three hours because a foreign-key index blocked writes.
  // Dropped that index and rebuilt it concurrently later.
  // Migration complete, the legacy MySQL box is shut down.
  => Give me the story of the database move. | Walk me through how the migration went.
thesis: Literature search across three databases gave about 400 hits.
  // Inclusion criteria cut that to 62 papers.
  // Supervisor wants the theoretical framework as its own section.
  // First complete review draft is done, around 12,000 words.
  // Dropped two outdated research streams after feedback.
  // Merged my coding categories into four themes.
  => How has the literature review progressed?
mobile: Onboarding redesign kicked off with five user interviews.
  // Prototype one trims the flow from five steps to three.
  // A/B results: completion is up 18% with the new flow.
  // Animations lag on older Android phones, replacing them with static illustrations.
  // The new first-run experience is rolled out to 100% of installs.
  => Recap the onboarding rework for me.
pipeline: Monday's dashboard showed order counts doubling overnight.
  // Root cause: a config change made dedup silently skip.
  // Reprocessed three days of partitions, numbers look right again.
  // Added a row-count guard that alerts when totals drift more than 5%.
  // Postmortem agreed on two follow-up actions.
  => Summarize the data-quality incident. | What happened with the bad numbers last week?
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
api: 能自己写几行解决的，我就不想多引一个包。 | 依赖越少我越安心，requirements 里能删就删。
  => 对接支付服务用什么HTTP客户端？ | 调物流商的接口，用哪个库合适？
api: ORM 用着别扭，我还是习惯直接手写 SQL 语句。 | 比起ORM那套封装，我更愿意自己一条条写查询。
  => 发票模块的数据访问层怎么搭？ | 从Python里取发票数据，最干净的做法是什么？
mobile: 白底界面我盯久了就头疼，所有屏幕都给我开暗色。 | 亮色主题太刺眼，我一律用黑色背景。
  => 设置页的配色怎么定？ | 个人资料页配什么颜色方案？
pipeline: 我只信那些在生产上跑了很多年的老牌工具，新出的再火也不碰。
  | 新潮的技术我不感冒，成熟、久经考验的才放心。
  => 数据导入任务该配什么消息队列？ | 采集端和数仓加载之间放个什么中间件？
thesis: 开长会太耗人了，我更愿意写个书面进展然后异步收意见。
  | 一开会就一两个小时，受不了，还是文字异步沟通适合我。
  => 怎么让导师及时了解我的进度？ | 跟导师汇报多久一次比较好？
api: 文档不全的库我基本不用，再巧妙也不行，文档对我来说最重要。
  | 说明写得稀烂的开源项目，代码再漂亮我也不碰。
  => 限流该选哪个组件？ | 请求节流用什么方案好？
[instruction]
thesis: 以后参考文献全部按GB/T 7714来排。 | 引用格式今后统一用国标 GB/T 7714。
  => 第二章里那些资料的出处怎么列？ | 综述部分的书目该怎么写？
api: 回答里别放表情符号，纯文字就好。 | 不要给我用 emoji，我要直接贴到工单里。
  => 给内测用户拟一段更新说明。 | 新的限流规则需要发个公告，帮我起草。
pipeline: 每次回答先用一句话给个结论，再展开细节。 | 你的回复开头先放一行总结。
  => 讲讲上传模块的重试逻辑是怎么工作的。 | 回填为什么会跳过一些分区？
api: 只要问到上线部署，先把命令行步骤列出来，解释放后面。 | 涉及发布的问题，先给命令再讲道理。
  => 新版本怎么推上生产环境？ | 2.3版要怎么放出去？
pipeline: 给我写的 SQL，关键字一律大写。 | 以后你出的查询语句，SELECT、WHERE这些都用大写。
  => 拉一下上季度流失的客户名单。 | 三月份营收最高的十个商品是哪些？
mobile: 给我的 Python 函数都要带完整的类型注解。 | 发给我的Python代码，参数和返回值都标上类型。
  => 做个小工具把导出的CSV解析成行。 | 怎么把导出的表格读成字典？
[update]
api: 公开接口的P95现在大概在400毫秒。 | 目前最慢那5%的接口调用大约要400毫秒。
  // Redis缓存上线之后，尾延迟降到了250毫秒。 | 缓存开了，P95掉到250毫秒。
  => 接口现在响应有多快？ | 尾部延迟现在是多少？
thesis: 初稿得在5月10号之前交给委员会。 // 好消息，导师宽限到6月2号了。
  => 我的稿子现在最晚哪天交？
pipeline: ETL每六个小时跑一轮。 | 加载任务一天跑四次，间隔六小时。
  // 调度调整了，现在每个整点触发一次。 => ETL目前多久执行一次？
mobile: 本周无崩溃会话比例是97.1%。 // 热修复发出去以后，稳定性到了99.4%。
  => App现在稳定性如何？
api: 预发布环境上线要安娜签字。 // 安娜调去数据组了，现在预发布的发布审批归小芮。
  => 现在谁来批预发布环境的上线？
pipeline: 云上的开销每月1200美元左右。 // 关掉闲置集群后，账单降到900美元。
  // 预留实例生效了，现在每月只要650。 => 我们每个月云服务花多少钱？
[contradiction]
mobile: 平板不在范围内，只做手机端。 // 推翻之前的说法：试点客户全用iPad，平板布局必须做。
  => App要不要适配大屏的iPad？
api: Docker我完全没碰过。 // 上家公司我每天都用Docker打包发布容器。
  => 我有Docker经验吗？
api: 甲方表示预算完全不用担心。 // 今天客户说经费非常紧张，每个工时都要有理由。
  => 客户手头宽裕吗？
thesis: 我一般上午写东西最顺。 // 说实话，我过了半夜才最能出活。
  => 我一天中什么时段效率最好？
pipeline: 事件表里不存任何个人信息。 // 结果发现事件的payload字段里存着客户的原始邮箱。
  => 事件表有没有个人数据？
thesis: 论文里我不打算用任何访谈这类质性材料。 // 访谈最后还是成了分析的核心部分。
  => 我的论文会用到定性数据吗？
[event_order]
mobile: 今天上午把第一个构建传到了TestFlight。 // 内测发现登录页闪退，下午已经修好。
  // 从今天早上起，应用在商店正式上架。
  => TestFlight上传、闪退修复、商店上架，先后顺序是什么？
thesis: 伦理审查材料已经递交给委员会。 // 伦理批下来了，只需小修。
  // 今天访完了头三位受访者。 // 十二份录音都转成文字了。
  => 伦理审批、访谈、转录，哪个先？
pipeline: IT给的新虚拟机上装好了Airflow。 // 2023年的全量回填一夜跑完。
  // 老的cron任务彻底停掉了。
  => 装Airflow、全量回填、停cron，顺序是怎样的？
api: 面向外部开发者的v1文档发布了。 // 所有客户端都开始受限流约束。 // v0接口今天宣布废弃。
  => v1文档、限流、v0废弃，按时间排一下。
[summary]
api: 数据库迁移今天开工，先动用户表。 // 脚本遇到邮箱为空的行就崩了。
  // 加了一步，复制前先写入占位地址。 // 用户表搞定，下一个是订单表，约了两小时维护窗口。
  // 订单表复制了三小时，外键索引把写入锁住了。 // 把那个索引删了，之后在线重建。
  // 迁移完成，旧的MySQL机器关掉了。
  => 数据库搬迁整个过程讲一下。 | 说说这次迁库是怎么走下来的。
thesis: 在三个数据库里检索文献，初步命中四百篇左右。 // 按纳入标准筛完剩62篇。
  // 理论框架那块，老板让我拆出来单写一节。 // 综述初稿写完，大约一万两千字。
  // 根据反馈砍掉了两个过时的研究流派。 // 编码类别合并成了四个主题。
  => 文献综述目前进展如何？
mobile: 新手引导改版从五场用户访谈开始。 // 第一版原型把流程从五步压到三步。
  // A/B测试结果：新流程完成率高18%。 // 老安卓机上动画卡顿，换成静态插图。
  // 新的首次启动流程已经百分之百放量。
  => 给我回顾一下引导页重做的情况。
pipeline: 周一仪表盘上的订单量一夜翻倍。 // 根因：一次配置变更让去重被悄悄跳过。
  // 重跑了三天的分区，数字恢复正常。 // 加了行数核对，偏差超5%就告警。
  // 复盘会定了两个后续行动项。
  => 那次数据质量事故怎么回事，概括一下。 | 上周数字出错那件事，给我讲个大概。
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
