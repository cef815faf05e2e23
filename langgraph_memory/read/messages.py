"""The candidates of the message layer: the store's BM25 and dense rankings of one user's
messages, fused by the hybrid ranker (:mod:`~langgraph_memory.retrieval.hybrid`), and the
query's embedding.

Example:
    >>> from langgraph_memory import MemoryManager
    >>> from langgraph_memory.storage import InMemoryBackend
    >>> from langgraph_memory.embeddings import HashingEmbeddings
    >>> with MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings()) as mm:
    ...     _ = mm.add_message("ann", "s1", "user", "I keep bees in Lyon")
    ...     mm.flush()
    ...     [r.parts["bm25_rank"] for r in mm._read.retriever.rank("ann", "bees", 1)]
    [1.0]
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Literal, NamedTuple, TypeVar

from langgraph_memory.config import RetrievalSection
from langgraph_memory.core.filters import compile_filter
from langgraph_memory.core.records import MemoryHit, Message
from langgraph_memory.embeddings import EmbedderSource
from langgraph_memory.layers.index.passages import PassageHit, Passages
from langgraph_memory.read.request import Query, QueryVector
from langgraph_memory.retrieval.hybrid import HybridRanker
from langgraph_memory.storage.base import MemoryBackend

__all__ = ["MessageRetriever", "RankedMessage", "to_hit", "SEGMENT_RANKING"]

_T = TypeVar("_T")

#: The fusion's name of the ranking of messages reached through their mid-term segments.
SEGMENT_RANKING = "segment_page"


class RankedMessage(NamedTuple):
    """A message ranked for a query."""

    seq: int
    score: float
    #: The ranks and scores it was fused from (``bm25_rank``, ``dense_rank``, ``rrf``,
    #: ``bm25``, ``cosine``...), for explanations.
    parts: dict[str, float]
    #: Fused within the fusion depth (the turns around it join a context); ``False`` for
    #: a candidate past it, scored below every primary one.
    primary: bool = True


class MessageRetriever:
    """Ranks one user's messages for a query.

    Args:
        backend: The storage.
        embedder: Hands out the query embedder (may block on first use while the model
            loads).
        retrieval: Fusion and BM25 parameters.
        passages: The passages of long messages, whose best hit counts for its
            message (see :meth:`_with_passages`); ``None``: messages alone.
    """

    def __init__(
        self,
        backend: MemoryBackend,
        embedder: EmbedderSource,
        retrieval: RetrievalSection,
        passages: Passages | None = None,
    ) -> None:
        self.backend = backend
        self.embedder = embedder
        self.retrieval = retrieval
        self.passages = passages
        self.ranker = HybridRanker(
            rrf_k=retrieval.rrf_k,
            lexical_weight=retrieval.lexical_weight,
            dense_weight=retrieval.dense_weight,
        )
        self._threads: ThreadPoolExecutor | None = None
        self._threads_lock = threading.Lock()

    def query_vector(self, query: str, *, start: bool = False) -> QueryVector:
        """The query's embedding, made when first needed.

        Args:
            query: The query text.
            start: Begin embedding it now on one of the retriever's threads, so that
                the model runs while the caller reads what needs no vector (the model
                thread and the caller's reads overlap on two cores).
        """
        qvec = QueryVector(self.embedder, query)
        if start:
            self._pool().submit(qvec.get)  # a failure is raised again by the caller's get
        return qvec

    def run_all(self, calls: Sequence[Callable[[], _T]]) -> list[_T]:
        """The results of ``calls``, in order, run at once on the retriever's threads
        (a failure is raised again here)."""
        futures = [self._pool().submit(call) for call in calls]
        return [f.result() for f in futures]

    def _pool(self) -> ThreadPoolExecutor:
        with self._threads_lock:
            if self._threads is None:
                self._threads = ThreadPoolExecutor(4, thread_name_prefix="langgraph-memory-dense")
            return self._threads

    def _dense(
        self, user_id: str, qvec: QueryVector, pool: int, allowed: set[int] | None
    ) -> list[tuple[int, float]]:
        return self.backend.vector_search(user_id, qvec.get(), pool, allowed)

    def _submit_dense(
        self, user_id: str, qvec: QueryVector, pool: int, allowed: set[int] | None
    ) -> Future[list[tuple[int, float]]]:
        return self._pool().submit(self._dense, user_id, qvec, pool, allowed)

    def close(self) -> None:
        """Stop the threads of concurrent dense searches (made again when needed)."""
        with self._threads_lock:
            threads, self._threads = self._threads, None
        if threads is not None:
            threads.shutdown(wait=True)

    def rank(
        self,
        user_id: str,
        query: str | Query,
        k: int,
        flt: Mapping[str, Any] | None = None,
        *,
        pages: Sequence[tuple[int, float]] = (),
        fusion: Literal["convex", "rrf"] | None = None,
        allowed: set[int] | None = None,
    ) -> list[RankedMessage]:
        """The best ``k`` messages, best first.

        Args:
            user_id: Whose messages.
            query: The query value of a retrieval (its terms and its embedding, shared
                with the other rankings), or a text (made into one here).
            k: How many.
            flt: A metadata filter.
            pages: ``(seq, cosine)`` of messages reached through the query's mid-term
                segments, best first, added after the BM25 and dense rankings are fused
                as a ranking (``segment_page_rank``) of weight ``segment_page_weight``
                (see :meth:`_with_segment_pages`; ignored when the weight is 0).
            fusion: How the two rankings become one (default ``retrieval.fusion``).
            allowed: The seqs of the messages ``flt`` lets through, when the caller read
                them already (one retrieval ranks several texts with one filter; each
                read of them walks every message of the user); ``None``: read here.
        """
        q = query if isinstance(query, Query) else Query(query, self.query_vector(query))
        cfg = self.retrieval if q.dense else dataclasses.replace(self.retrieval, dense_weight=0.0)
        qvec = q.vector
        predicate = compile_filter(flt)  # a bad filter is refused even with ``allowed``
        if predicate is None:
            allowed = None
        elif allowed is None:
            allowed = self.backend.filter_seqs(user_id, predicate)
        if allowed is not None and not allowed:
            return []
        pool = max(k, cfg.candidate_pool)
        if k <= cfg.fusion_depth:
            # Fusion reads the best ``fusion_depth`` of each ranking; the deeper ones
            # only fill a result shorter than ``k``, which needs rankings shorter than
            # ``k``: ones that hold every match already. Same result, less to read (the
            # lexical search of a million messages reads far fewer for a top 15).
            pool = max(k, min(pool, cfg.fusion_depth))
        rankings: dict[str, list[tuple[int, float]]] = {}
        cosines: dict[int, float] = {}
        bm25: dict[int, float] = {}
        dense_future = None
        if cfg.dense_weight > 0 and cfg.lexical_weight > 0 and self.backend.parallel_reads:
            # The query's embedding and the vector search run while the lexical search
            # waits on the server.
            dense_future = self._submit_dense(user_id, qvec, pool, allowed)
        if cfg.lexical_weight > 0:
            try:
                lex = self.backend.lexical_search(
                    user_id, q.lexical, pool, allowed, k1=cfg.bm25_k1, b=cfg.bm25_b
                )
            except BaseException:
                if dense_future is not None:
                    dense_future.cancel()
                raise
            rankings["bm25"] = lex
            bm25 = dict(lex)
        convex = (fusion or cfg.fusion) == "convex" and cfg.dense_weight > 0 and bool(bm25)
        around: dict[int, list[Message]] = {}
        if convex and cfg.neighbor_smoothing > 0 and dense_future is None and not qvec.ready():
            # The query is still being embedded: the turns around the BM25 candidates,
            # which the smoothing reads, are read meanwhile.
            around = self.backend.neighbors_many(user_id, list(bm25), 1)
        if cfg.dense_weight > 0:
            dense = (
                dense_future.result()
                if dense_future is not None
                else self._dense(user_id, qvec, pool, allowed)
            )
            rankings["dense"] = dense
            cosines = dict(dense)
        passages: dict[int, PassageHit] = {}
        if self.passages is not None and rankings:
            dense_on = cfg.dense_weight > 0 and self.passages.dense
            passages = self.passages.best(
                user_id, q.term_set, qvec.get() if dense_on else None, allowed
            )
            if passages:
                bm25, cosines = self._with_passages(rankings, bm25, cosines, passages, pool)
        if (fusion or cfg.fusion) == "convex" and len(rankings) == 2:
            fused = self._convex(user_id, qvec, rankings, bm25, cosines, k, pool, around)
        else:
            # Past the fusion depth, the rest of both rankings follow, scored below every
            # primary candidate (and below their neighbours).
            fused = [
                RankedMessage(*f)
                for f in self.ranker.fuse(
                    rankings, depth=cfg.fusion_depth, k=k, tail_factor=cfg.tail_factor
                )
            ]
        if pages:
            routed = list(pages[:pool])
            if routed and cfg.segment_page_weight > 0:
                fused = self._with_segment_pages(fused, routed, set(cosines))
                for seq, cos in routed:
                    cosines.setdefault(seq, cos)
        fused = fused[:k]
        for seq, _, parts, _ in fused:
            if seq in bm25:
                parts["bm25"] = bm25[seq]
            if seq in cosines:
                parts["cosine"] = cosines[seq]
            hit = passages.get(seq)
            if hit is not None:
                parts["passage_start"], parts["passage_end"] = float(hit.start), float(hit.end)
                if hit.cosine is not None:
                    parts["passage_cosine"] = hit.cosine
        return fused

    @staticmethod
    def _with_passages(
        rankings: dict[str, list[tuple[int, float]]],
        bm25: dict[int, float],
        cosines: dict[int, float],
        passages: Mapping[int, PassageHit],
        pool: int,
    ) -> tuple[dict[int, float], dict[int, float]]:
        """The BM25 and dense rankings (and their scores) after each long message gains
        from its best passage; returns the new scores.

        - Dense: a message's cosine is the higher of its own and its best passage's
          (a message the dense ranking missed may enter it).
        - BM25: passage term scores are of another scale; the best passage's is scaled
          to the best message's BM25 score, and a message scores the higher of its own
          and its best passage's, so a long message whose one passage answers the query
          is no longer buried by its length.

        Each ranking is sorted again and cut at ``pool``. A message only BM25 ranks keeps
        its best passage's cosine (the convex fusion reads no other then).
        """
        if "bm25" in rankings:
            lex = {seq: h.lexical for seq, h in passages.items() if h.lexical > 0}
            if lex:
                scale = (max(bm25.values(), default=0.0) or 1.0) / max(lex.values())
                merged = dict(bm25)
                for seq, s in lex.items():
                    merged[seq] = max(merged.get(seq, 0.0), s * scale)
                rankings["bm25"] = sorted(merged.items(), key=lambda kv: -kv[1])[:pool]
                bm25 = dict(rankings["bm25"])
        if "dense" in rankings:
            close = {seq: h.cosine for seq, h in passages.items() if h.cosine is not None}
            if close:
                merged = dict(cosines)
                for seq, c in close.items():
                    merged[seq] = max(merged.get(seq, -1.0), c)
                rankings["dense"] = sorted(merged.items(), key=lambda kv: -kv[1])[:pool]
                cosines = dict(rankings["dense"])
                for seq in bm25:
                    if seq not in cosines and seq in close:
                        cosines[seq] = close[seq]
        return bm25, cosines

    def _convex(
        self,
        user_id: str,
        qvec: QueryVector,
        rankings: dict[str, list[tuple[int, float]]],
        bm25: dict[int, float],
        cosines: dict[int, float],
        k: int,
        pool: int,
        around: Mapping[int, list[Message]],
    ) -> list[RankedMessage]:
        """The candidates of both rankings (each cut at ``pool``) ranked by the weighted
        mean of their normalised BM25 score and cosine (:meth:`HybridRanker.combine`).

        - The cosine of a candidate only BM25 found is read from the store (``cosines``
          gains it); one only dense retrieval found has BM25 0.
        - Each ranking's weakest score normalises to 0 when the ranking was cut at the
          pool (a candidate below it is worth no more), else 0 does.
        - With ``neighbor_smoothing``, a turn gains from the turn it answers
          (:meth:`_smooth`).
        - A candidate of combined score ``s`` (the best 1) scores
          ``(lexical_weight + dense_weight) · s / (rrf_k + 1)``: the best scores as one
          ranked first by both rankings under RRF. One ranked ``r`` within
          ``fusion_depth`` by a ranking scores at least that ranking's reciprocal rank
          ``weight / (rrf_k + r)``, as RRF would credit it from that ranking alone: a
          strong match of one kind (rare words a multi-part question names, or a
          paraphrase) stays a primary candidate even when the other kind misses it.
        - The best ``fusion_depth`` by combined score, and those, are primary; the rest
          follow ``tail_factor`` times lower.
        """
        cfg = self.retrieval
        unseen = {seq for seq, _ in rankings["bm25"] if seq not in cosines}
        if unseen:
            cosines.update(self.backend.vector_search(user_id, qvec.get(), len(unseen), unseen))
        floors = {
            name: ranked[-1][1] if len(ranked) >= pool else min(0.0, ranked[-1][1])
            for name, ranked in rankings.items()
            if ranked
        }
        hybrid = self.ranker.combine({"bm25": bm25, "dense": cosines}, floors)
        if cfg.neighbor_smoothing > 0 and hybrid:
            hybrid = self._smooth(user_id, hybrid, around)
        ranks = {
            name: {seq: r for r, (seq, _) in enumerate(ranked, 1)}
            for name, ranked in rankings.items()
        }
        weights, depth = self.ranker.weights, cfg.fusion_depth
        # the best scores as one ranked first by both rankings under RRF
        top = (weights["bm25"] + weights["dense"]) / (cfg.rrf_k + 1)
        out = []
        for r, (seq, combined) in enumerate(hybrid, 1):
            primary = r <= depth
            score = top * combined * (1.0 if primary else cfg.tail_factor)
            parts = {"hybrid": combined, "hybrid_rank": float(r)}
            for name, rank in ranks.items():
                if seq in rank:
                    parts[f"{name}_rank"] = float(rank[seq])
                    if rank[seq] <= depth:
                        primary = True
                        score = max(score, weights[name] / (cfg.rrf_k + rank[seq]))
            parts["rrf"] = score
            out.append(RankedMessage(seq, score, parts, primary))
        out.sort(key=lambda x: -x.score)  # stable: ties keep their combined order
        return out[: max(k, depth)]

    def _smooth(
        self,
        user_id: str,
        ranked: list[tuple[int, float]],
        known: Mapping[int, list[Message]],
    ) -> list[tuple[int, float]]:
        """``ranked`` again after each candidate gains ``neighbor_smoothing`` times the
        combined score of the turn just before it in its session when that turn is a
        candidate too and another speaker's (the turn it replies to), scaled so the best
        scores 1: a reply is read with what it answers, so the answer to a relevant
        question outranks an equally good turn that answers nothing relevant.
        ``known``: the turns around some candidates, read already (the others are read
        here).
        """
        share = self.retrieval.neighbor_smoothing
        combined = dict(ranked)
        missing = [seq for seq in combined if seq not in known]
        around = {**known, **self.backend.neighbors_many(user_id, missing, 1)}
        smoothed = dict(combined)
        for seq in combined:
            before = [m for m in around.get(seq, ()) if m.seq < seq]
            if not before or before[-1].seq not in combined:
                continue
            prev = before[-1]
            # the turn itself, as the turn after its candidate predecessor (no extra read)
            turn = next((m for m in around.get(prev.seq, ()) if m.seq == seq), None)
            if turn is not None and _speaker(prev) != _speaker(turn):
                smoothed[seq] += share * combined[prev.seq]
        top = max(smoothed.values())
        scale = 1.0 / top if top > 0 else 1.0
        return sorted(((s, v * scale) for s, v in smoothed.items()), key=lambda kv: -kv[1])

    def _with_segment_pages(
        self,
        fused: list[RankedMessage],
        routed: list[tuple[int, float]],
        dense: set[int],
    ) -> list[RankedMessage]:
        """Add the ranking of messages reached through their segments to ``fused``.

        A message ranked ``r`` there (by cosine among the segments' pages) adds
        ``segment_page_weight / (rrf_k + r)`` (times ``tail_factor`` past the fusion
        depth, as a tail candidate), unless the dense ranking holds it already: its
        cosine counts once. So the segment reaches messages that the dense ranking
        missed, and does not re-weigh the ones it found.
        """
        cfg = self.retrieval
        depth = cfg.fusion_depth
        key = f"{SEGMENT_RANKING}_rank"
        at = {r.seq: i for i, r in enumerate(fused)}
        out = list(fused)
        for r, (seq, _) in enumerate(routed, start=1):
            if seq in dense:
                continue
            add = cfg.segment_page_weight / (cfg.rrf_k + r)
            if r > cfg.fusion_depth:
                add *= cfg.tail_factor
            i = at.get(seq)
            if i is None:
                at[seq] = len(out)
                out.append(RankedMessage(seq, add, {key: float(r), "rrf": add}, r <= depth))
            else:
                _, score, parts, primary = out[i]
                parts[key] = float(r)
                parts["rrf"] = parts.get("rrf", 0.0) + add
                # a primary candidate now when reached within the depth through its segment
                out[i] = RankedMessage(seq, score + add, parts, primary or r <= depth)
        out.sort(key=lambda x: -x.score)  # stable: ties keep their fused order
        return out

    def search(
        self,
        user_id: str,
        query: str | Query,
        k: int,
        flt: Mapping[str, Any] | None = None,
        *,
        pages: Sequence[tuple[int, float]] = (),
    ) -> list[MemoryHit]:
        """The best ``k`` messages as hits (arguments as for :meth:`rank`)."""
        ranked = self.rank(user_id, query, k, flt, pages=pages)
        msgs = self.backend.get_messages(user_id, [r.seq for r in ranked])
        return [to_hit(msgs[r.seq], r.score, r.parts) for r in ranked if r.seq in msgs]


def _speaker(msg: Message) -> tuple[str, str | None]:
    """Who said a message: its role and name."""
    return msg.role, msg.name


def to_hit(msg: Message, score: float, parts: dict[str, float]) -> MemoryHit:
    """A stored message as a search hit."""
    return MemoryHit(
        id=msg.id,
        layer="message",
        text=msg.content,
        score=score,
        score_parts=parts,
        source_ids=[msg.id],
        session_id=msg.session_id,
        timestamp=msg.timestamp,
        metadata=msg.metadata,
        name=msg.name,
        role=msg.role,
    )
