"""The public surface: exports, typing marker, a small manager with parts, and one async
mechanism whose twins repeat every parameter."""

from __future__ import annotations

import importlib
import importlib.resources
import inspect
import subprocess
import sys

import langgraph_memory
from langgraph_memory import AsyncMemoryManager, MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.parts.anchors import Anchors, AsyncAnchors
from langgraph_memory.parts.documents import AsyncDocuments, Documents
from langgraph_memory.parts.inspect import AsyncInspect, Inspect
from langgraph_memory.parts.items import AsyncItems, Items
from langgraph_memory.parts.maintenance import AsyncMaintenance, Maintenance
from langgraph_memory.parts.profile import AsyncProfile, Profile
from langgraph_memory.parts.tasks import AsyncTasks, Tasks
from langgraph_memory.storage import InMemoryBackend

EXPECTED_ALL = sorted(
    [
        "Anchor",
        "CachedEmbeddings",
        "SensitivityPolicy",
        "SensitiveContentError",
        "StoreDamagedError",
        "MemoryCheckpointer",
        "MemoryStore",
        "create_memory_tools",
        "core_memory_blocks",
        "ContextItem",
        "HashingEmbeddings",
        "InMemoryBackend",
        "MemoryBackend",
        "MemoryConfig",
        "MemoryContext",
        "MemoryHit",
        "MemoryManager",
        "AsyncMemoryManager",
        "Message",
        "MiniLMEmbeddings",
        "SQLiteBackend",
        "__version__",
        "count_tokens",
        "tokenize",
        "MemoryRetriever",
        "RemoteMemory",
        "AsyncRemoteMemory",
        "recall_node",
        "remember_node",
        "trim_node",
        "memory_maintenance_node",
        "with_memory",
        "MemoryState",
        "MemoryMessagesState",
        "Episode",
        "TaskState",
        "TaskStep",
        "Knowledge",
        "ForgetReport",
    ]
)

#: The manager's parts and their async views.
PARTS = {
    "tasks": (Tasks, AsyncTasks),
    "anchors": (Anchors, AsyncAnchors),
    "profile": (Profile, AsyncProfile),
    "documents": (Documents, AsyncDocuments),
    "maintenance": (Maintenance, AsyncMaintenance),
    "items": (Items, AsyncItems),
    "inspect": (Inspect, AsyncInspect),
}
#: The manager's methods an async manager awaits (``from_conn_string`` makes one).
CORE_VERBS = {
    "add_message", "add_turn", "flush", "search", "build_context", "delete", "delete_user",
    "stats", "setup", "backup", "close",
}  # fmt: skip


def _public(cls: type) -> dict[str, object]:
    """The public methods and properties a class defines itself (no inherited ones)."""
    return {
        name: value
        for klass in cls.__mro__
        if klass is not object and klass.__module__.startswith("langgraph_memory")
        for name, value in vars(klass).items()
        if not name.startswith("_")
        and (callable(value) or isinstance(value, (property, classmethod, staticmethod)))
        and not isinstance(value, type)
    }


def test_all_is_pinned() -> None:
    assert sorted(langgraph_memory.__all__) == EXPECTED_ALL
    assert len(langgraph_memory.__all__) == len(set(langgraph_memory.__all__))


def test_every_exported_name_is_importable() -> None:
    module = importlib.import_module("langgraph_memory")
    for name in EXPECTED_ALL:
        assert getattr(module, name) is not None, name
    namespace: dict = {}
    exec("from langgraph_memory import *", namespace)
    assert set(EXPECTED_ALL) <= set(namespace)
    assert isinstance(langgraph_memory.__version__, str) and langgraph_memory.__version__


def _loaded_after(code: str, names: list[str]) -> list[str]:
    """Which of the modules ``names`` a fresh interpreter has loaded after ``code``."""
    probe = f"{code}\nimport sys\nprint([m for m in {names!r} if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return eval(out.stdout.strip().splitlines()[-1])


def test_importing_the_package_loads_its_names_on_first_use() -> None:
    heavy = [
        "numpy",
        "langchain_core",
        "langgraph",
        "langsmith",
        "pydantic",
        "langgraph_memory.manager",
    ]
    assert _loaded_after("import langgraph_memory", heavy) == []
    assert set(EXPECTED_ALL) <= set(dir(langgraph_memory))
    assert langgraph_memory.MemoryManager is MemoryManager


def test_importing_the_manager_loads_no_model_storage_or_langchain() -> None:
    """``from langgraph_memory import MemoryManager`` is light: the parts, the storage,
    numpy and LangChain load when a manager is made (README: import in about 0.1 s)."""
    heavy = [
        "numpy",
        "langchain_core",
        "langgraph_memory.parts.assembly",
        "langgraph_memory.storage.sqlite",
        "langgraph_memory.read.pipeline",
        "langgraph_memory.write.pipeline",
        "langgraph_memory.embeddings",
    ]
    assert _loaded_after("from langgraph_memory import MemoryManager", heavy) == []


def test_the_cli_search_loads_no_langgraph(tmp_path) -> None:
    """The CLI's search needs LangChain's ``Embeddings`` base class, not LangGraph, chat
    models or runnables."""
    from langgraph_memory import HashingEmbeddings

    with MemoryManager(tmp_path, embeddings=HashingEmbeddings()) as mm:
        mm.add_message("u", "s", "user", "I moved to Lyon last spring.")
        mm.flush()
    code = (
        "from langgraph_memory.integrations.cli.commands import main\n"
        f"main(['--path', {str(tmp_path)!r}, '--hashing', 'search', '--user', 'u', 'Lyon'])"
    )
    heavy = [
        "langgraph",
        "langchain_core.language_models.base",
        "langchain_core.language_models.chat_models",
        "langchain_core.runnables.base",
    ]
    assert _loaded_after(code, heavy) == []


def test_py_typed_ships() -> None:
    marker = importlib.resources.files("langgraph_memory").joinpath("py.typed")
    assert marker.is_file()


def test_packaged_data_ships() -> None:
    stop = importlib.resources.files("langgraph_memory").joinpath("data/stopwords.txt")
    words = stop.read_text("utf-8").split()
    assert "the" in words and "的" in words


def test_the_manager_is_small_and_the_rest_are_parts() -> None:
    own = _public(MemoryManager)
    assert len(own) <= 15, sorted(own)
    assert CORE_VERBS | {"from_conn_string"} <= set(own)
    with MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings()) as mm:
        for name, (part, _) in PARTS.items():
            assert isinstance(getattr(mm, name), part), name
            assert len(_public(part)) <= 12, (name, sorted(_public(part)))


def test_no_mixins_anywhere() -> None:
    """Every class of the package has at most one base of its own (a Protocol, an ABC or
    a generic helper aside): no facade built from mixins."""
    import pkgutil

    offenders = []
    for info in pkgutil.walk_packages(langgraph_memory.__path__, "langgraph_memory."):
        if info.name.startswith(
            ("langgraph_memory.storage.postgres", "langgraph_memory.storage.chroma")
        ):
            continue
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != module.__name__:
                continue
            own = [b for b in cls.__bases__ if b.__module__.startswith("langgraph_memory")]
            concrete = [
                b for b in own if "Protocol" not in str(b.__mro__) and not inspect.isabstract(b)
            ]
            if len(concrete) > 1 or "Mixin" in cls.__name__:
                offenders.append(f"{cls.__module__}.{cls.__name__}")
    assert not offenders, offenders


def test_every_part_and_the_manager_have_async_twins_with_the_same_parameters() -> None:
    pairs = [(MemoryManager, AsyncMemoryManager, CORE_VERBS)]
    pairs += [(sync, aio, set(_public(sync))) for sync, aio in PARTS.values()]
    for sync, aio, names in pairs:
        assert set(_public(sync)) - {"from_conn_string", "embeddings", "aio", "closed"} <= (
            set(_public(aio)) | {"from_conn_string"}
        ), (sync.__name__, sorted(set(_public(sync)) - set(_public(aio))))
        for name in names:
            twin = getattr(aio, name)
            assert inspect.iscoroutinefunction(twin), (aio.__name__, name)
            want = inspect.signature(getattr(sync, name)).parameters
            got = inspect.signature(twin).parameters
            assert not any(p.kind in (p.VAR_KEYWORD, p.VAR_POSITIONAL) for p in got.values())
            expected = [(p.name, p.kind, p.default) for p in want.values()][1:]
            assert [(p.name, p.kind, p.default) for p in got.values()][1:] == expected, name


def test_the_async_surface_runs_on_a_loop(tmp_path) -> None:
    import asyncio

    async def go() -> tuple[str, list[str], int]:
        async with AsyncMemoryManager(tmp_path, embeddings=HashingEmbeddings()) as amm:
            await amm.add_turn("ann", "s1", user="I moved to Lyon.", assistant="Nice!")
            await amm.flush()
            tid = await amm.tasks.start("ann", "s1", "book a train")
            await amm.tasks.complete("ann", tid, summary="booked", target="train")
            hits = await amm.search("ann", "where do I live?", k=1)
            ctx = await amm.build_context("ann", "s2", "Lyon", 200)
            await amm.maintenance.verify()
            return hits[0].text, [e.target for e in await amm.tasks.episodes("ann")], len(ctx.items)

    text, targets, items = asyncio.run(go())
    assert text == "I moved to Lyon." and targets == ["train"] and items > 0
    with MemoryManager(tmp_path, embeddings=HashingEmbeddings()) as mm:
        assert mm.aio is mm.aio and mm.aio.sync is mm
        assert asyncio.run(mm.aio.stats("ann"))["messages"] == 2
    assert mm.closed


def test_a_closed_manager_refuses_its_parts(tmp_path) -> None:
    import pytest

    mm = MemoryManager(tmp_path, embeddings=HashingEmbeddings())
    mm.close()
    for call in (
        lambda: mm.add_message("u", "s", "user", "x"),
        lambda: mm.tasks.episodes("u"),
        lambda: mm.anchors.list("u"),
        lambda: mm.profile.preferences("u"),
        lambda: mm.documents.list(None),
        lambda: mm.maintenance.users(),
        lambda: mm.items.core_block("u", "human"),
    ):
        with pytest.raises(RuntimeError, match="closed"):
            call()
