"""Working memory in Redis, against a real ``redis-server`` on loopback: the window, chain
summaries and anchors served from Redis equal the store's, are rebuilt when Redis loses
them, carry a TTL, are scoped per user, keep Chinese intact, and an unreachable Redis
never fails a write."""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from redis_scratch import RedisServer, free_port, redis_binary

from langgraph_memory import MemoryConfig, MemoryManager
from langgraph_memory.core.records import Message
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.layers.working.redis_cache import WorkingMemoryCache

pytestmark = pytest.mark.skipif(
    redis_binary() is None,
    reason="redis-server is not installed (apt-get install redis-server): working memory "
    "in Redis is tested against a real server only",
)
redis = pytest.importorskip("redis", reason="pip install 'langgraph-memory[redis]'")

TTL = 600
KEY = re.compile(
    r"^wm:(gen:[0-9a-f]{32}|(history|meta|summary|anchors):[0-9a-f]{32}:[0-9a-f]{32}:\d+)$"
)


@pytest.fixture(scope="module")
def server() -> Iterator[RedisServer]:
    s = RedisServer.start()
    yield s
    s.remove()


@pytest.fixture
def client(server: RedisServer) -> Iterator[Any]:
    if not server.ping():  # a test restarts it
        server.run()
    c = redis.Redis.from_url(server.url, decode_responses=True)
    c.flushall()
    yield c
    c.close()


def manager(path: Path, url: str) -> MemoryManager:
    cfg = MemoryConfig(
        write={"working_memory_url": url, "working_memory_ttl_seconds": TTL},
        packing={"chain_share": 0.1},
    )
    return MemoryManager(path, embeddings=HashingEmbeddings(), config=cfg)


def cache_of(mm: MemoryManager) -> WorkingMemoryCache:
    window = mm._parts.window
    assert window is not None
    window.retry_seconds = 0.2  # the tests wait for Redis to come back
    return window


def view(msgs: list[Message]) -> list[tuple[Any, ...]]:
    return [(m.id, m.seq, m.role, m.content, m.timestamp, m.metadata, m.name) for m in msgs]


def same_window(mm: MemoryManager, user: str, session: str) -> list[tuple[Any, ...]]:
    """The window served by the cache, checked equal to the store's at several sizes."""
    cache, store = cache_of(mm), mm._parts.storage
    for n in (1, 5, cache.window):
        got = view(cache.session_messages(user, session, last=n))
        assert got == view(store.session_messages(user, session, last=n)), n
    return view(cache.session_messages(user, session, last=cache.window))


def same_anchors(mm: MemoryManager, user: str, session: str) -> list[str]:
    """The anchors served by the cache, checked equal to the store's."""
    got = [(x.id, x.text, x.order) for x in cache_of(mm).anchors(user, session)]
    assert got == [(x.id, x.text, x.order) for x in mm.anchors.list(user, session)]
    return [text for _, text, _ in got]


TURNS = [
    ("I moved to Berlin last spring.", "Nice, how do you like Berlin?"),
    ("我对花生过敏，以后都用中文回答。", "好的，我会记住你对花生过敏。"),
    ("My sister Mia plays the cello.", "Does she play in an orchestra?"),
    ("周末我们去杭州西湖划船。", "听起来很惬意！"),
    ("I prefer green tea over coffee.", "Noted: green tea."),
    ("下周三我要去上海出差。", "祝出差顺利。"),
]


def talk(mm: MemoryManager, user: str, session: str, turns: list[tuple[str, str]]) -> None:
    for u, a in turns:
        mm.add_turn(user, session, user=u, assistant=a)


def test_two_managers_share_the_window_and_it_equals_the_store(
    client: Any, server: RedisServer, tmp_path: Path
) -> None:
    with manager(tmp_path / "mem", server.url) as a, manager(tmp_path / "mem", server.url) as b:
        talk(a, "ann", "s1", TURNS * 2)
        first = same_window(b, "ann", "s1")
        assert len(first) == 24 and cache_of(b).counts["rebuilds"] >= 1
        hits = cache_of(b).counts["hits"]
        rebuilds = cache_of(b).counts["rebuilds"]
        a.add_message("ann", "s1", "user", "再加一条：我养了一只猫。")  # pushed by a, read by b
        later = same_window(b, "ann", "s1")
        assert later[-1][3] == "再加一条：我养了一只猫。" and later[:-1] == first
        assert cache_of(b).counts["hits"] > hits and cache_of(b).counts["rebuilds"] == rebuilds
        # a context built on b holds the same session turns as one built by the store alone
        a.flush()
        with MemoryManager(tmp_path / "mem", embeddings=HashingEmbeddings()) as plain:
            q = "What do I drink?"
            mine = [
                i.text for i in b.build_context("ann", "s1", q).items if i.layer == "short_term"
            ]
            base = [
                i.text for i in plain.build_context("ann", "s1", q).items if i.layer == "short_term"
            ]
            assert mine and mine == base
            s_cache = cache_of(b).session_summaries("ann", "s1")
            s_store = plain._parts.hierarchy.state("ann", "s1")
            assert [
                (c.id, c.summary, c.summary_source_ids, c.keywords(4))
                for c in s_cache.chains.values()
            ] == [
                (c.id, c.summary, c.summary_source_ids, c.keywords(4))
                for c in s_store.chains.values()
            ]


def test_rebuilt_after_flushall_and_after_a_restart(
    client: Any, server: RedisServer, tmp_path: Path
) -> None:
    with manager(tmp_path / "mem", server.url) as mm:
        talk(mm, "ann", "s1", TURNS)
        mm.anchors.add("ann", "以后都用中文回答。", session_id="s1")
        mm.flush()  # the instructions the worker reads from the turns are anchors too
        before = same_window(mm, "ann", "s1")
        anchors = same_anchors(mm, "ann", "s1")
        client.flushall()
        rebuilds = cache_of(mm).counts["rebuilds"]
        assert same_window(mm, "ann", "s1") == before
        assert same_anchors(mm, "ann", "s1") == anchors
        assert cache_of(mm).counts["rebuilds"] > rebuilds
        assert client.keys("wm:history:*")  # filled again
        server.restart()
        client.connection_pool.disconnect()
        assert same_window(mm, "ann", "s1") == before  # from the store while it reconnects
        deadline = time.monotonic() + 5
        while not client.keys("wm:history:*") and time.monotonic() < deadline:
            time.sleep(0.1)
            same_window(mm, "ann", "s1")
        assert client.keys("wm:history:*"), "the window was not rebuilt after the restart"
        assert same_window(mm, "ann", "s1") == before


def test_every_key_has_a_ttl_and_names_no_id(
    client: Any, server: RedisServer, tmp_path: Path
) -> None:
    with manager(tmp_path / "mem", server.url) as mm:
        talk(mm, "ann", "s1", TURNS)
        mm.anchors.add("ann", "Answer in German.", session_id="s1")
        mm.flush()
        mm.build_context("ann", "s1", "where do I live?")
        keys = sorted(client.scan_iter("*"))
        kinds = {k.split(":")[1] for k in keys}
        assert kinds == {"gen", "history", "meta", "summary", "anchors"}
        for key in keys:
            assert KEY.match(key), key
            assert 0 < client.ttl(key) <= TTL, key
            assert "ann" not in key and "s1" not in key


def test_users_with_the_same_session_id_never_share_a_window(
    client: Any, server: RedisServer, tmp_path: Path
) -> None:
    with manager(tmp_path / "mem", server.url) as mm:
        talk(mm, "ann", "s1", TURNS[:2])
        talk(mm, "bob", "s1", [("I am Bob and I love sailing.", "Sailing is great.")])
        ann = same_window(mm, "ann", "s1")
        bob = same_window(mm, "bob", "s1")
        mm.add_message("bob", "s1", "user", "Bob again.")  # pushed onto bob's list only
        assert same_window(mm, "ann", "s1") == ann
        bob = same_window(mm, "bob", "s1")
        mm.anchors.add("ann", "Only for Ann: answer in French.", session_id="s1")
        assert [r[3] for r in bob] == [
            "I am Bob and I love sailing.",
            "Sailing is great.",
            "Bob again.",
        ]
        assert not {r[0] for r in ann} & {r[0] for r in bob}
        assert cache_of(mm).anchors("bob", "s1") == []
        ctx = mm.build_context("bob", "s1", "answer in French?")
        assert all("Ann" not in it.text and "花生" not in it.text for it in ctx.items)


def test_chinese_round_trips_as_characters(
    client: Any, server: RedisServer, tmp_path: Path
) -> None:
    text = "我对花生过敏，请记住。😀 «guillemets» ü"
    with manager(tmp_path / "mem", server.url) as mm:
        mm.add_message("王小明", "会话一", "user", text, name="小明", metadata={"话题": "健康"})
        [row] = same_window(mm, "王小明", "会话一")
        assert row[3] == text and row[5] == {"话题": "健康"} and row[6] == "小明"
        [raw] = client.lrange(next(client.scan_iter("wm:history:*")), 0, -1)
        assert text in raw  # stored as characters, not \\u escapes


def test_deletes_and_anchor_changes_reach_every_manager(
    client: Any, server: RedisServer, tmp_path: Path
) -> None:
    with manager(tmp_path / "mem", server.url) as a, manager(tmp_path / "mem", server.url) as b:
        talk(a, "ann", "s1", TURNS[:3])
        gone = a.add_message("ann", "s1", "user", "My PIN hint is the cat's name.")
        assert gone in {r[0] for r in same_window(b, "ann", "s1")}
        assert a.delete("ann", gone) == 1
        assert gone not in {r[0] for r in same_window(b, "ann", "s1")}
        # (the worker may add the standing instruction "以后都用中文回答" meanwhile)
        aid = a.anchors.add("ann", "Use metric units.")
        assert "Use metric units." in same_anchors(b, "ann", "s1")
        a.anchors.remove("ann", aid)
        assert "Use metric units." not in same_anchors(b, "ann", "s1")
        a.delete_user("ann")
        assert same_window(b, "ann", "s1") == []


def test_unreachable_redis_never_fails_a_write_and_reads_fall_back(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    url = f"redis://127.0.0.1:{free_port()}/0"  # nobody listens there
    with caplog.at_level(logging.WARNING), manager(tmp_path / "mem", url) as mm:
        talk(mm, "ann", "s1", TURNS[:3])
        mm.anchors.add("ann", "Answer in German.", session_id="s1")
        assert len(same_window(mm, "ann", "s1")) == 6
        ctx = mm.build_context("ann", "s1", "where do I live?")
        assert "Answer in German." in [it.text for it in ctx.items]
        assert any(it.layer == "short_term" for it in ctx.items)
        assert cache_of(mm).counts["fallbacks"] > 0 and cache_of(mm).counts["hits"] == 0
    assert "Redis unreachable" in caplog.text


def test_a_write_that_timed_out_is_not_lost_from_the_window(
    client: Any, server: RedisServer, tmp_path: Path
) -> None:
    with manager(tmp_path / "mem", server.url) as mm:
        talk(mm, "ann", "s1", TURNS[:2])
        same_window(mm, "ann", "s1")  # warm
        client.client_pause(1500, all=False)  # writes wait: the push times out
        try:
            mid = mm.add_message("ann", "s1", "user", "写入时 Redis 卡住了。")
        finally:
            client.client_unpause()
        time.sleep(0.3)  # past the cache's retry delay
        rows = same_window(mm, "ann", "s1")
        assert rows[-1][0] == mid and len({r[0] for r in rows}) == len(rows) == 5


def test_bad_urls_are_refused_by_name() -> None:
    with pytest.raises(ValueError, match="working_memory_url must be a redis://"):
        MemoryConfig(write={"working_memory_url": "http://localhost:6379"})
