"""No secret reaches storage: the raw SQLite files (database, WAL, shared memory) are
grepped for every secret written through :class:`MemoryManager`."""

from __future__ import annotations

from pathlib import Path

import pytest

from langgraph_memory import MemoryConfig, MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.sensitivity.policy import SensitiveContentError

#: (secret, how it is written in a message)
SECRETS = {
    "email": "zhang.wei.private@example.com",
    "phone_cn": "139-8765-4321",
    "phone_intl": "+44 20 7946 0958",
    "cn_id": "11010519491231002X",
    "card": "4532 0151 1283 0366",
    "iban": "DE89 3704 0044 0532 0130 00",
    "openai": "sk-proj-PtYgjmUhBel31iEl2hpChYgCfrL1spNxnyVmihA-2O76UMFx",
    "github": "ghp_zdmenCkhvMdgaKjIg8xNbe3nNyjOq9wMxEhh",
    "aws": "AKIAUQ80IDW3706I8J76",
    "jwt": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0."
    "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    "password": "Tr0ub4dor&3x",
    "entropy": "6GKFSufrdZSlB5er8bOfZqfM2oeq3hDavJA76rNi",
    "pem_body": "MIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM9Oi2Ob7kz0gZ9t7bSPe2y0cQ5vXj",
}
PEM = f"-----BEGIN RSA PRIVATE KEY-----\n{SECRETS['pem_body']}\n-----END RSA PRIVATE KEY-----"

MESSAGES = [
    f"My email is {SECRETS['email']} and my phone {SECRETS['phone_cn']}.",
    f"我的身份证号是{SECRETS['cn_id']}，银行卡号 {SECRETS['card']}，记住了吗？",
    f"London number {SECRETS['phone_intl']}; wire rent to {SECRETS['iban']}",
    f"OPENAI_API_KEY={SECRETS['openai']} and the GitHub token {SECRETS['github']}",
    f"aws_access_key_id = {SECRETS['aws']}\nAuthorization: Bearer {SECRETS['jwt']}",
    f"wifi password: {SECRETS['password']} — backup code {SECRETS['entropy']}",
    f"deploy key:\n{PEM}\nkeep it safe",
]


def _variants(secret: str) -> set[bytes]:
    """The secret as written, lower-cased, without separators, and every 12-character
    window of those (so a partly redacted secret or a lexical term of it is found too)."""
    bare = "".join(c for c in secret if c.isalnum())
    forms = {secret, secret.lower(), bare, bare.lower()}
    out: set[bytes] = set()
    for form in forms:
        out.add(form.encode())
        out.update(form[i : i + 12].encode() for i in range(max(len(form) - 11, 0)))
    return out


def _raw(directory: Path) -> bytes:
    files = sorted(directory.glob("memory.sqlite3*"))
    assert files, "no database file"
    return b"".join(f.read_bytes() for f in files)


def _leaks(data: bytes) -> dict[str, list[bytes]]:
    found = {name: [v for v in _variants(s) if v in data] for name, s in SECRETS.items()}
    return {k: v for k, v in found.items() if v}


def _write_everything(mm: MemoryManager) -> list[str]:
    ids = [mm.add_message("alice", "s1", "user", m) for m in MESSAGES]
    ids += mm.add_turn(
        "alice",
        "s2",
        user=f"my card again: {SECRETS['card']}",
        assistant=f"Noted, I will mail {SECRETS['email']}.",
        metadata={"contact": SECRETS["email"], "nested": {"key": [SECRETS["aws"], 1]}},
    )
    ids.append(
        mm.add_message(
            "alice",
            "s3",
            "user",
            "see metadata",
            metadata={"token": SECRETS["openai"], "phone": SECRETS["phone_intl"]},
        )
    )
    mm.flush(timeout=60)
    return ids


def test_redact_policy_leaves_no_secret_on_disk(tmp_path: Path) -> None:
    directory = tmp_path / "mem"
    with MemoryManager(directory, embeddings=HashingEmbeddings()) as mm:  # default: redact
        ids = _write_everything(mm)
        s = mm.stats("alice")
        assert (s["messages"], s["pending"]) == (len(ids), 0)
        assert list(directory.glob("memory.sqlite3-wal")), "expected a WAL while open"
        assert _leaks(_raw(directory)) == {}  # database + WAL while the store is open
        stored = mm._backend.get_message("alice", ids[1])
        assert stored is not None
        assert stored.content == "我的身份证号是[CN_ID]，银行卡号 [CARD]，记住了吗？"
        last = mm._backend.get_message("alice", ids[-1])
        assert last is not None and last.metadata == {"token": "[SECRET]", "phone": "[PHONE]"}
        hits = mm.search("alice", "身份证号 银行卡号", k=3)
        assert hits and hits[0].id == ids[1]
        assert "[CN_ID]" in hits[0].text
    assert _leaks(_raw(directory)) == {}  # and after close


def test_control_allow_policy_does_store_the_secrets(tmp_path: Path) -> None:
    """Proves the grep above can see secrets: with the gate off they are on disk."""
    directory = tmp_path / "mem"
    cfg = MemoryConfig(write={"sensitivity": "allow"})  # type: ignore[arg-type]
    with MemoryManager(directory, embeddings=HashingEmbeddings(), config=cfg) as mm:
        _write_everything(mm)
    assert set(_leaks(_raw(directory))) == set(SECRETS)


@pytest.mark.parametrize(
    "policy", ["refuse", {"card": "refuse"}, {"default": "allow", "card": "refuse"}]
)
def test_refuse_policy_raises_and_stores_nothing(tmp_path: Path, policy: object) -> None:
    directory = tmp_path / "mem"
    cfg = MemoryConfig(write={"sensitivity": policy})  # type: ignore[arg-type]
    with MemoryManager(directory, embeddings=HashingEmbeddings(), config=cfg) as mm:
        with pytest.raises(SensitiveContentError, match="card") as info:
            mm.add_message("alice", "s1", "user", f"卡号 {SECRETS['card']}")
        assert info.value.kinds == ("card",) and isinstance(info.value, ValueError)
        with pytest.raises(SensitiveContentError, match="assistant"):  # the field is named
            mm.add_turn("alice", "s1", user="fine", assistant=f"card {SECRETS['card']}")
        with pytest.raises(SensitiveContentError, match="metadata"):
            mm.add_message("alice", "s1", "user", "fine", metadata={"c": SECRETS["card"]})
        mm.flush(timeout=30)
        assert mm.stats("alice")["messages"] == 0  # not even the turn's user message
        assert mm.stats()["messages"] == 0
    data = _raw(directory)
    assert not [v for v in _variants(SECRETS["card"]) if v in data]
    assert b"fine" not in data


#: Trust II: the short secrets the detector missed, each as it reaches storage.
SHORT = {
    "basic": "dXNlcjpwYXNz",  # Authorization: Basic, base64 of user:pass
    "bearer": "tok_7Hq9x",
    "sk_short": "sk-abc123def456ghi789",
    "escaped_key": "hunter2hunter",
    "plain_word": "sunshinepassword",
}


def test_document_metadata_source_with_http_credentials_leaves_none_on_disk(
    tmp_path: Path,
) -> None:
    """A loader's ``Document.metadata["source"]`` reaches the store three ways: as the
    document's id (when none is given), in each chunk's metadata and in the entries
    indexed from them. Every one goes through the gate (the path was sound; the
    detector did not know short ``Basic`` credentials)."""
    from langchain_core.documents import Document

    directory = tmp_path / "mem"
    sources = [
        f"Authorization: Basic {SHORT['basic']}",
        f"GET /api with Authorization: Bearer {SHORT['bearer']}",
        f"key {SHORT['sk_short']}",
        f'{{"\\u5bc6\\u7801": "{SHORT["escaped_key"]}"}}',
        f"my password is {SHORT['plain_word']}",
    ]
    with MemoryManager(directory, embeddings=HashingEmbeddings()) as mm:
        for i, source in enumerate(sources):
            doc = Document(
                page_content=f"# Notes {i}\n\nThe API is called with basic auth.",
                metadata={"source": source, "page": i},
            )
            info = mm.documents.add("alice", doc)
            assert "[" in info.document_id  # the source, its secret pseudonymised
        mm.flush(timeout=60)
        chunk = mm.documents.chunks("alice", info.document_id)[0]
        assert chunk.source_metadata["source"] == "my password is [SECRET]"
        mm.build_context("alice", "s1", "api basic auth notes", token_budget=400)
    data = _raw(directory)
    leaks = {k: v for k, v in SHORT.items() if [x for x in _variants(v) if x in data]}
    assert leaks == {}


def test_words_that_name_a_secret_keep_their_counts_and_the_store_reopens(tmp_path) -> None:
    """A chat about auth tokens and cookies: the segments' and chains' keyword counts of
    ``token``, ``auth``, ``cookie``, ``令牌`` are counts, not secrets (they were stored
    as ``[SECRET]``, and a reopened store failed in ``build_context``)."""
    from langgraph_memory import MemoryConfig, MemoryManager
    from langgraph_memory.embeddings import HashingEmbeddings

    config = MemoryConfig(hierarchy={"stm_capacity_pages": 2})
    texts = [
        "The auth token expires after an hour; refresh the token with the cookie.",
        "Our auth flow stores the session cookie and an access token per device.",
        "令牌过期以后要刷新令牌，cookie 里也有 token。",
    ]
    with MemoryManager(tmp_path, embeddings=HashingEmbeddings(), config=config) as mm:
        for i in range(24):
            mm.add_message("ann", f"s{i % 2}", "user", f"{texts[i % 3]} Note {i}.")
        mm.flush(timeout=120)
    with MemoryManager(tmp_path, embeddings=HashingEmbeddings(), config=config) as mm:
        ctx = mm.build_context("ann", "s9", "how does the auth token refresh work?")
        assert "token" in ctx.to_prompt()
        segments = mm._parts.storage.list_records("segment", "ann")
        sessions = mm._parts.storage.list_records("stm", "ann")  # their topic chains
        assert segments and sessions
        counts = [r.data.get("keyword_counts", {}) for r in segments] + [
            c.get("keyword_counts", {}) for r in sessions for c in r.data.get("chains", [])
        ]
        assert any("token" in c for c in counts)
        assert all(type(v) is int for c in counts for v in c.values()), counts


def test_items_of_a_list_are_walked_again_when_they_change() -> None:
    """A mapping in a list (a segment's page) that passed is not walked again while it
    is unchanged; any change to it, a secret or a type (a count under a word naming a
    secret is kept, the same word's flag in the caller's mapping is not hidden), is."""
    from datetime import datetime, timezone

    from langgraph_memory.core.records import Record
    from langgraph_memory.sensitivity.policy import SensitivityFilter
    from langgraph_memory.storage import InMemoryBackend
    from langgraph_memory.storage.guard import GuardedStore

    store = GuardedStore(InMemoryBackend(), SensitivityFilter())
    now = datetime.now(timezone.utc)

    def put(pages: list[dict[str, object]]) -> list[dict[str, object]]:
        store.put_record(Record("segment", "seg-1", "ann", {"pages": pages}, now, now))
        got = store.get_record("segment", "seg-1", "ann")
        assert got is not None
        return got.data["pages"]

    page = {"id": "m1", "keywords": ["tea", "cake"], "tokens": 3}
    assert put([page]) == [page]
    assert put([page, page]) == [page, page]  # unchanged: passes as it is
    changed = {**page, "keywords": ["tea", SECRETS["email"]]}
    assert put([page, changed])[1]["keywords"] == ["tea", "[EMAIL]"]
    flag = {"metadata": {"token": True}}  # a flag passes, the number under it is hidden
    assert put([flag])[0] == flag
    assert put([{"metadata": {"token": 1}}])[0] == {"metadata": {"token": "[SECRET]"}}


def test_a_list_of_ids_is_checked_again_when_one_is_new() -> None:
    """A page's message ids found clean pass as they are; a new id among them is checked
    (a secret in it is pseudonymised in the background, refused in a caller's write)."""
    import threading
    from datetime import datetime, timezone

    from langgraph_memory.core.concurrency import mark_background
    from langgraph_memory.core.records import Record
    from langgraph_memory.sensitivity.policy import SensitivityFilter
    from langgraph_memory.storage import InMemoryBackend
    from langgraph_memory.storage.guard import GuardedStore

    store = GuardedStore(InMemoryBackend(), SensitivityFilter())
    now = datetime.now(timezone.utc)

    def put(ids: list[str]) -> list[str]:
        page = {"id": "p1", "message_ids": ids}
        store.put_record(Record("segment", "seg-1", "ann", {"pages": [page]}, now, now))
        got = store.get_record("segment", "seg-1", "ann")
        assert got is not None
        return got.data["pages"][0]["message_ids"]

    assert put(["m-1", "m-2"]) == ["m-1", "m-2"]
    assert put(["m-1", "m-2"]) == ["m-1", "m-2"]  # found clean: passes as it is
    with pytest.raises(SensitiveContentError):
        put(["m-1", "m-2", SECRETS["email"]])
    done: list[list[str]] = []

    def background() -> None:
        mark_background()
        done.append(put(["m-1", SECRETS["email"]]))

    t = threading.Thread(target=background)
    t.start()
    t.join()
    assert done and done[0][0] == "m-1" and SECRETS["email"] not in done[0][1]
