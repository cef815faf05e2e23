"""The public surface: exports, typing marker and async twins."""

from __future__ import annotations

import importlib
import importlib.resources
import inspect
import subprocess
import sys

import langgraph_memory
from langgraph_memory import MemoryManager

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
        "Message",
        "MiniLMEmbeddings",
        "SQLiteBackend",
        "__version__",
        "count_tokens",
        "tokenize",
        "MemoryRetriever",
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

#: Public methods that are not I/O and have no async twin.
NO_TWIN = {"from_conn_string"}


def _public_methods() -> list[str]:
    return sorted(
        name
        for name, value in inspect.getmembers(MemoryManager, inspect.isfunction)
        if not name.startswith("_")
        and not inspect.iscoroutinefunction(value)
        and name not in NO_TWIN
    )


ASYNC_TWINS = _public_methods()


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


def test_async_twins_exist() -> None:
    for name in ASYNC_TWINS:
        sync = getattr(MemoryManager, name)
        twin = getattr(MemoryManager, f"a{name}", None)
        assert twin is not None, f"a{name} is missing"
        assert inspect.iscoroutinefunction(twin), f"a{name} is not async"
        assert callable(sync) and not inspect.iscoroutinefunction(sync)
        assert twin.__doc__ and name in twin.__doc__


def test_async_twins_repeat_every_parameter_of_the_sync_method() -> None:
    assert {"add_message", "search", "build_context", "start_task", "set_core_block"} <= set(
        ASYNC_TWINS
    )
    for name in ASYNC_TWINS:
        sync = inspect.signature(getattr(MemoryManager, name))
        twin = inspect.signature(getattr(MemoryManager, f"a{name}"))
        assert not any(
            p.kind in (p.VAR_KEYWORD, p.VAR_POSITIONAL) for p in twin.parameters.values()
        ), name
        expected = [(p.name, p.kind, p.default) for p in sync.parameters.values()][1:]
        got = [(p.name, p.kind, p.default) for p in twin.parameters.values()][1:]
        assert got == expected, name
