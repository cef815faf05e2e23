"""Semantic memory: documents split by headings into cited chunks, versioned, per user or
shared, ranked by the hybrid ranking and packed into the context (issue 24)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from langchain_core.documents import Document

from langgraph_memory import MemoryConfig, MemoryManager, MemoryRetriever
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.layers.knowledge.chunking import split_markdown, version_key
from langgraph_memory.layers.knowledge.documents import CHUNK_KIND, SHARED_OWNER
from langgraph_memory.sensitivity.policy import SensitiveContentError
from langgraph_memory.storage import MemoryBackend

GUIDE_V1 = """# Deploy Guide
How we ship the service.
## Install
Install the runner with pip install shiprunner on every build host.
## Rollback
### Database
To roll back the database, restore the nightly snapshot named orca-backup.
"""
GUIDE_V2 = """# Deploy Guide
How we ship the service.
## Install
Install the runner with uv tool install shiprunner on every build host.
## Rollback
### Database
To roll back the database, run migrate down to the previous revision.
"""


@pytest.fixture
def mm(backend: MemoryBackend) -> MemoryManager:
    m = MemoryManager(backend=backend, embeddings=HashingEmbeddings())
    yield m
    m.close()


def _texts(hits) -> list[str]:
    return [h.text for h in hits]


def test_markdown_is_split_by_headings_each_chunk_keeping_its_path() -> None:
    parts = split_markdown(GUIDE_V1, 200)
    assert [p.headings for p in parts] == [
        ["Deploy Guide"],
        ["Deploy Guide", "Install"],
        ["Deploy Guide", "Rollback", "Database"],
    ]
    long = split_markdown("# A\n" + "word " * 400, 300)
    assert len(long) > 3 and all(len(p.text) <= 300 and p.headings == ["A"] for p in long)


def test_versions_compare_by_their_numbers() -> None:
    assert version_key("1.10") > version_key("1.9") > version_key("1.2")
    assert version_key("v2") == version_key("2")
    assert version_key("2024-05-01") > version_key("2023-12-31")


def test_a_document_is_found_with_its_citation_and_sources(mm: MemoryManager) -> None:
    info = mm.documents.add(None, GUIDE_V1, document_id="deploy", version="1.2")
    assert (info.document_id, info.version, info.chunks, info.title) == (
        "deploy",
        "1.2",
        3,
        "Deploy Guide",
    )
    mm.flush()
    hits = mm.search("ann", "roll back the database snapshot", k=3, layers=["document"])
    top = hits[0]
    assert top.layer == "chunk"
    assert top.text.startswith("[doc: Deploy Guide § Deploy Guide > Rollback > Database, v1.2]")
    assert "orca-backup" in top.text
    assert top.source_ids[1] == "doc:deploy@1.2" and top.source_ids[0] == top.id
    assert top.metadata["headings"] == ["Deploy Guide", "Rollback", "Database"]
    assert top.metadata["shared"] is True and top.metadata["status"] == "active"


def test_a_new_version_archives_the_old_chunks(mm: MemoryManager) -> None:
    mm.documents.add(None, GUIDE_V1, document_id="deploy", version="1.0")
    mm.documents.add(None, GUIDE_V2, document_id="deploy", version="1.1")
    mm.flush()
    hits = mm.search("ann", "orca-backup snapshot restore", k=10, layers=["document"])
    assert hits and all(", v1.1]" in h.text for h in hits)
    assert not any("orca-backup" in t for t in _texts(hits))
    old = mm.search(
        "ann", "orca-backup snapshot", k=10, layers=["document"], filter={"status": "archived"}
    )
    assert old and "orca-backup" in old[0].text and ", v1.0]" in old[0].text
    by_version = mm.search("ann", "install", k=10, layers=["document"], filter={"version": "1.0"})
    assert by_version and all(h.metadata["version"] == "1.0" for h in by_version)
    [doc] = mm.documents.list(None)
    assert doc.version == "1.1" and [v["version"] for v in doc.versions] == ["1.0", "1.1"]


def test_versions_only_move_forward(mm: MemoryManager) -> None:
    mm.documents.add("ann", GUIDE_V1, document_id="deploy", version="2.0")
    with pytest.raises(ValueError, match="older"):
        mm.documents.add("ann", GUIDE_V2, document_id="deploy", version="1.9")
    with pytest.raises(ValueError, match="other text"):
        mm.documents.add("ann", GUIDE_V2, document_id="deploy", version="2.0")
    again = mm.documents.add("ann", GUIDE_V1, document_id="deploy", version="2.0")
    assert again.version == "2.0" and len(again.versions) == 1
    auto = mm.documents.add("ann", "# Notes\nfirst", document_id="notes")
    assert auto.version == "1"
    assert mm.documents.add("ann", "# Notes\nsecond", document_id="notes").version == "2"


def test_a_users_documents_are_theirs_shared_ones_everyones(mm: MemoryManager) -> None:
    mm.documents.add("ann", "# Diary\nAnn keeps the spare key under the blue flowerpot.")
    mm.documents.add(None, "# Office\nThe office opens at nine on weekdays.")
    mm.add_message("bob", "s1", "user", "hello")
    mm.flush()
    for user in ("bob", "carl"):
        hits = mm.search(user, "spare key blue flowerpot", k=10, layers=["document"])
        assert not any("flowerpot" in t for t in _texts(hits)), user
        ctx = mm.build_context(user, "s1", "where is the spare key under the flowerpot?")
        assert "flowerpot" not in ctx.to_prompt()
    assert "flowerpot" in mm.search("ann", "spare key flowerpot", k=1, layers=["document"])[0].text
    for user in ("ann", "bob"):
        hits = mm.search(user, "when does the office open", k=10, layers=["document"])
        assert any("nine on weekdays" in t for t in _texts(hits)), user
    assert [d.document_id for d in mm.documents.list("ann")] == ["Diary"]
    assert [d.document_id for d in mm.documents.list("bob")] == []
    assert [d.document_id for d in mm.documents.list(None)] == ["Office"]


def test_the_shared_owner_is_no_user_id(mm: MemoryManager) -> None:
    with pytest.raises(ValueError, match="control"):
        mm.add_message(SHARED_OWNER, "s1", "user", "hi")
    with pytest.raises(ValueError, match="control"):
        mm.search(SHARED_OWNER, "office")


def test_build_context_packs_chunks_with_their_citation(mm: MemoryManager) -> None:
    mm.documents.add(None, GUIDE_V1, document_id="deploy", version="1.2")
    mm.add_message("ann", "s1", "user", "we need to roll back the database today")
    mm.flush()
    ctx = mm.build_context("ann", "s2", "how do I roll back the database snapshot?", 400)
    chunk_items = [it for it in ctx.items if it.layer == "chunk"]
    assert chunk_items, str(ctx)
    assert any("§ Deploy Guide > Rollback > Database, v1.2]" in it.text for it in chunk_items)
    assert all("doc:deploy@1.2" in it.source_ids for it in chunk_items)
    assert ctx.to_prompt().count("[doc: Deploy Guide") == len(chunk_items)


def test_remove_document_takes_every_version(mm: MemoryManager, backend: MemoryBackend) -> None:
    mm.documents.add("ann", GUIDE_V1, document_id="deploy", version="1")
    mm.documents.add("ann", GUIDE_V2, document_id="deploy", version="2")
    mm.flush()
    assert mm.documents.remove("ann", "deploy") == 6
    assert backend.query_records(CHUNK_KIND, "ann") == []
    assert mm.documents.list("ann") == []
    hits = mm.search("ann", "roll back database", k=10, layers=["document"])
    hits += mm.search(
        "ann", "roll back database", k=10, layers=["document"], filter={"status": "archived"}
    )
    assert hits == []
    _, entries = backend.entries_since("ann", 0)
    live = [e for e in entries if e.key.startswith("chunk/") and e.text is not None]
    assert live == []
    assert mm.documents.remove("ann", "deploy") == 0


def test_delete_user_removes_their_documents(mm: MemoryManager, backend: MemoryBackend) -> None:
    mm.documents.add("ann", GUIDE_V1, document_id="deploy")
    mm.documents.add(None, "# Office\nThe office opens at nine.")
    mm.flush()
    mm.delete_user("ann")
    assert mm.documents.list("ann") == [] and backend.query_records(CHUNK_KIND, "ann") == []
    assert mm.search("ann", "roll back database", k=10, layers=["document"])[0].metadata["shared"]
    assert len(mm.documents.list(None)) == 1


def test_documents_go_through_the_sensitivity_gate(tmp_path: Path) -> None:
    from langgraph_memory.storage import InMemoryBackend

    with MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings()) as mm:
        mm.documents.add(
            "ann",
            "# Contacts\nWrite to ops@example.com, key sk-abcdefghijklmnopqrstuvwx1234",
            metadata={"owner": "ops@example.com"},
        )
        mm.flush()
        hit = mm.search("ann", "contacts write", k=1, layers=["document"])[0]
        assert "ops@example.com" not in hit.text and "[EMAIL]" in hit.text
        assert "ops@example.com" not in str(hit.metadata)
    cfg = MemoryConfig(write={"sensitivity": "refuse"})
    backend = InMemoryBackend()
    with MemoryManager(backend=backend, embeddings=HashingEmbeddings(), config=cfg) as mm:
        with pytest.raises(SensitiveContentError):
            mm.documents.add("ann", "# Contacts\nWrite to ops@example.com")
        assert mm.documents.list("ann") == [] and backend.query_records(CHUNK_KIND, "ann") == []


@pytest.mark.parametrize(
    ("source", "error", "match"),
    [
        (b"# Title\nbytes", TypeError, "not bytes"),
        (42, TypeError, "must be a str"),
        ("", ValueError, "empty"),
        ("   \n\t", ValueError, "empty"),
        ("# Only\n## Headings\n### Here\n", ValueError, "no text under its headings"),
        ("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" * 10, ValueError, "binary"),
        ([], TypeError, "non-empty list"),
    ],
)
def test_bad_documents_are_refused_and_nothing_changes(
    mm: MemoryManager, backend: MemoryBackend, source: object, error: type, match: str
) -> None:
    mm.documents.add("ann", "# Keep\nThis stays.", document_id="keep")
    with pytest.raises(error, match=match):
        mm.documents.add("ann", source)  # type: ignore[arg-type]
    assert [d.document_id for d in mm.documents.list("ann")] == ["keep"]
    assert len(backend.query_records(CHUNK_KIND, "ann")) == 1


def test_a_document_over_the_limit_is_refused(tmp_path: Path) -> None:
    from langgraph_memory.storage import InMemoryBackend

    big = "# Big\n" + "lorem ipsum dolor " * (50 * 1024 * 1024 // 18)  # 50 MB
    with MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings()) as mm:
        with pytest.raises(ValueError, match="max_document_chars"):
            mm.documents.add("ann", big)
        path = tmp_path / "big.md"
        path.write_text(big)
        with pytest.raises(ValueError, match="max_document_chars"):
            mm.documents.add("ann", path)
        binary = tmp_path / "blob.bin"
        binary.write_bytes(b"\x00\x01\x02" * 1000)
        with pytest.raises(ValueError, match="binary"):
            mm.documents.add("ann", binary)
        assert mm.documents.list("ann") == []


def test_files_and_langchain_documents_are_sources(mm: MemoryManager, tmp_path: Path) -> None:
    path = tmp_path / "faq.md"
    path.write_text("# FAQ\n## Parking\nVisitors park on level minus two.", "utf-8")
    info = mm.documents.add("ann", path)
    assert info.document_id == str(path) and info.title == "FAQ"
    pages = [
        Document("Chapter one talks about lighthouses.", metadata={"source": "b.pdf", "page": 1}),
        Document("Chapter two talks about harbours.", metadata={"source": "b.pdf", "page": 2}),
    ]
    book = mm.documents.add("ann", pages, metadata={"title": "Sea Book"})
    assert (book.document_id, book.title, book.chunks) == ("b.pdf", "Sea Book", 2)
    mm.flush()
    hit = mm.search("ann", "harbours chapter", k=1, layers=["document"])[0]
    assert hit.metadata["page"] == 2 and hit.text.startswith("[doc: Sea Book, v1]")
    hit = mm.search("ann", "visitors park level", k=1, layers=["document"])[0]
    assert "FAQ > Parking" in hit.text


def test_chunks_are_embedded_by_the_worker(mm: MemoryManager, backend: MemoryBackend) -> None:
    mm.documents.add(None, GUIDE_V1, document_id="deploy")
    mm.flush()
    assert backend.pending_entries(100) == []
    _, entries = backend.entries_since(SHARED_OWNER, 0)
    chunks = [e for e in entries if e.key.startswith("chunk/")]
    assert len(chunks) == 3 and all(e.vector is not None for e in chunks)


def test_the_retriever_serves_documents(mm: MemoryManager) -> None:
    mm.documents.add(None, GUIDE_V1, document_id="deploy", version="3")
    mm.add_message("ann", "s1", "user", "roll back the database please")
    mm.flush()
    retriever = MemoryRetriever(memory=mm, user_id="ann", k=2, layers=["document"])
    docs = retriever.invoke("roll back the database")
    assert docs and all(d.metadata["layer"] == "chunk" for d in docs)
    assert "orca-backup" in docs[0].page_content
    assert docs[0].metadata["metadata"]["document_id"] == "deploy"
    # "knowledge" names the same layer, as RAG code calls it
    alias = MemoryRetriever(memory=mm, user_id="ann", k=2, layers=["knowledge"])
    assert [d.page_content for d in alias.invoke("roll back the database")] == [
        d.page_content for d in docs
    ]
    with pytest.raises(ValueError, match="known layers"):
        MemoryRetriever(memory=mm, user_id="ann", layers=["knowlege"])


def test_async_twins(mm: MemoryManager) -> None:
    async def run() -> tuple[int, int, int]:
        info = await mm.aio.documents.add("ann", GUIDE_V1, document_id="deploy")
        listed = await mm.aio.documents.list("ann")
        gone = await mm.aio.documents.remove("ann", "deploy")
        return info.chunks, len(listed), gone

    assert asyncio.run(run()) == (3, 1, 3)
