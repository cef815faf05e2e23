"""Query terms for lexical search: question words dropped, common slots expanded (in
Chinese and English), comparisons kept on both sides; and their effect on what a search
finds, with the real model and store."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from langchain_core.embeddings import Embeddings

from langgraph_memory import MemoryManager
from langgraph_memory.core.lexicon import OWN_WEIGHT, QUESTION_WORDS, query_terms, slots
from langgraph_memory.core.tokens import tokenize
from langgraph_memory.storage import InMemoryBackend

T0 = datetime(2024, 3, 1, 9, tzinfo=timezone.utc)


def test_question_words_do_not_count() -> None:
    terms = query_terms("赵磊的睡眠怎么样？")
    assert terms == ("赵磊", "睡眠")
    assert not set(query_terms("你住在哪里呢？")) & QUESTION_WORDS


def test_a_slot_question_gets_the_words_its_answer_uses() -> None:
    work = query_terms("我在哪里工作？")
    assert {"工程师", "上班", "公司", "护士"} <= set(work)
    assert work.count("工作") == OWN_WEIGHT and work.count("公司") == 1
    child = set(query_terms("我的孩子多大了？"))
    assert {"女儿", "儿子"} <= child
    # every Chinese age ends in a term "<digit>岁" (jieba's search mode: 六十五岁 → 五岁)
    assert {"六岁", "五岁", "岁"} <= child and "五岁" in tokenize("她六十五岁了")
    assert {"son", "daughter", "age"} <= set(query_terms("How old is my kid?"))


def test_expansion_keeps_to_the_query_language() -> None:
    assert not any(t.isascii() for t in query_terms("我的孩子多大了？"))
    assert all(t.isascii() for t in query_terms("Where does Caroline work?"))


def test_a_query_without_a_slot_is_its_words() -> None:
    assert query_terms("What did Ann say about the zoo?") == tuple(
        tokenize("What did Ann say about the zoo?")
    )
    assert query_terms("谁？") == ("谁",)  # nothing but question words: kept


def test_a_comparison_keeps_both_sides_and_drops_its_markers() -> None:
    terms = query_terms("李明老家和王芳老家哪个更冷？")
    assert {"李明", "王芳", "老家", "冷"} <= set(terms)
    assert terms.count("李明") == terms.count("王芳")
    assert "更" not in terms and "哪个" not in terms
    assert "大" in query_terms("谁的孩子年纪更大？")  # 更大 → 大


def test_the_lexicon_is_bilingual_and_well_formed() -> None:
    loaded = slots()
    assert len(loaded) >= 15 and len({s.name for s in loaded}) == len(loaded)
    for slot in loaded:
        assert slot.cjk_cues and slot.cjk_words and slot.latin_words, slot.name


def test_a_chinese_slot_question_finds_its_answer(minilm: Embeddings) -> None:
    said = [
        "周末我们去香山爬山了，风景很好。",
        "我是一名软件工程师，在一家做支付的公司写代码。",
        "昨天晚上吃了火锅，有点辣。",
        "我女儿今年六岁了，下个月上小学。",
        "最近天气越来越冷了。",
        "我在哪里都睡不好，换了枕头也没用。",
        "你觉得这部电影怎么样？",
        "我们家楼下新开了一家咖啡店。",
    ]
    with MemoryManager(backend=InMemoryBackend(), embeddings=minilm) as mm:
        ids = [
            mm.add_message("u", "s", "user", text, timestamp=T0 + timedelta(hours=i))
            for i, text in enumerate(said)
        ]
        mm.flush()
        for query, answer in (("我在哪里工作？", 1), ("我的孩子多大了？", 3)):
            # the question shares no word with its answer: only the slot words match it
            assert not set(tokenize(query)) & set(tokenize(said[answer]))
            [best] = mm.search("u", query, k=1)
            assert ids[answer] in [best.id, *best.source_ids], (query, best.text)


def test_an_english_only_model_leaves_chinese_queries_to_their_terms(minilm: Embeddings) -> None:
    said = [
        "我是一名软件工程师，在一家做支付的公司写代码。",
        "I work as a nurse at the city hospital.",
    ]
    with MemoryManager(backend=InMemoryBackend(), embeddings=minilm) as mm:
        for i, text in enumerate(said):
            mm.add_message("u", "s", "user", text, timestamp=T0 + timedelta(hours=i))
        mm.flush()
        zh = [h for h in mm.search("u", "我在哪里工作？", k=2) if h.layer == "message"]
        en = [h for h in mm.search("u", "Where do I work?", k=2) if h.layer == "message"]
    assert zh and all("cosine" not in h.score_parts for h in zh)
    assert en and any("cosine" in h.score_parts for h in en)


def test_a_model_that_reads_chinese_keeps_ranking_chinese_queries() -> None:
    from langgraph_memory.embeddings import HashingEmbeddings

    with MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings(dim=64)) as mm:
        mm.add_message("u", "s", "user", "我是一名软件工程师。", timestamp=T0)
        mm.flush()
        hits = [h for h in mm.search("u", "工程师", k=1) if h.layer == "message"]
    assert hits and "cosine" in hits[0].score_parts
