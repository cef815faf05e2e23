"""LangChain's standard retriever tests (``langchain-tests``) for :class:`MemoryRetriever`.

The retriever searches a real SQLite memory filled with two users' conversations.
The standard suite's one async test runs through the ``anyio`` marker on the
asyncio backend only (LangChain's async API is asyncio's), so pytest-asyncio can
stay in strict mode and no other test changes how it runs.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.retrievers import BaseRetriever
from langchain_tests.integration_tests import RetrieversIntegrationTests

from langgraph_memory import MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.integrations.retriever import MemoryRetriever
from langgraph_memory.storage import SQLiteBackend

#: (user, assistant) turns of the user the retriever reads; more than any k the suite asks.
ALICE_TURNS = [
    ("I love cooking Italian food, especially fresh pasta.", "Fresh pasta is a great skill!"),
    ("On Sundays I cook risotto for my family.", "Risotto takes patience; nice tradition."),
    ("My favourite dish to cook is lasagne.", "Lasagne is a classic."),
    ("I am learning to cook Thai curry.", "Thai curry pastes are fun to make."),
    ("I moved to Lyon last spring.", "Lyon is known for its food."),
    ("I bake sourdough bread every weekend.", "Sourdough needs a good starter."),
]
#: Another user's similar turns: never returned for Alice.
BOB_TURNS = [
    ("I love cooking Mexican food.", "Tacos are great."),
    ("My favourite dish to cook is chili.", "Chili is warming."),
]


@pytest.mark.anyio
class TestMemoryRetrieverStandard(RetrieversIntegrationTests):
    """The standard suite over a filled SQLite memory (shared by the class, closed after it)."""

    memory: MemoryManager

    @pytest.fixture(scope="class")
    def anyio_backend(self) -> str:
        """Run the async standard test on asyncio only (trio may be installed too)."""
        return "asyncio"

    @pytest.fixture(scope="class", autouse=True)
    def _filled_memory(
        self, request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
    ) -> Iterator[MemoryManager]:
        path = tmp_path_factory.mktemp("retriever-standard")
        mm = MemoryManager(backend=SQLiteBackend(path), embeddings=HashingEmbeddings())
        for i, (user, assistant) in enumerate(ALICE_TURNS):
            mm.add_turn("alice", f"s{i % 2}", user=user, assistant=assistant)
        for user, assistant in BOB_TURNS:
            mm.add_turn("bob", "s0", user=user, assistant=assistant)
        mm.flush()
        request.cls.memory = mm
        yield mm
        mm.close()

    @property
    def retriever_constructor(self) -> type[BaseRetriever]:
        return MemoryRetriever

    @property
    def retriever_constructor_params(self) -> dict[str, Any]:
        return {"memory": self.memory, "user_id": "alice"}

    @property
    def retriever_query_example(self) -> str:
        return "What do I like to cook?"
