"""Consolidation: episodes that share a target become one piece of knowledge.

With an LLM, the knowledge is written by the model (structured output, the
design documents' prompt); without one, or when its answer is malformed, a
deterministic merge writes it: the outcomes counted, the most common steps as
key points, confidence from the success rate (0.5 to 1.0).

Example:
    >>> from langgraph_memory.storage import InMemoryBackend
    >>> from langgraph_memory.layers.working.tasks import WorkingMemory
    >>> wm = WorkingMemory(InMemoryBackend())
    >>> for _ in range(3):
    ...     t = wm.start_task("u", "s", "nginx returns 502")
    ...     _ = wm.add_step("u", t, "check upstream service")
    ...     _ = wm.complete_task("u", t, outcome="success", summary="restarted upstream",
    ...                          target="nginx")
    >>> [k.topic for k in Consolidator(wm).run()]
    ['nginx']
"""

from __future__ import annotations

import uuid
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel, Field

from langgraph_memory.config import LifecycleSection
from langgraph_memory.core.llm import structured_call
from langgraph_memory.core.records import Record, from_data, to_data
from langgraph_memory.core.tokens import is_cjk_text
from langgraph_memory.layers.index.kinds import EntryView
from langgraph_memory.layers.working.tasks import Episode, WorkingMemory
from langgraph_memory.storage.capabilities import atomic

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

__all__ = ["Knowledge", "KnowledgeDraft", "Consolidator"]


class KnowledgeDraft(BaseModel):
    """What the LLM is asked to write."""

    topic: str = Field(max_length=500, description="a short topic")
    content: str = Field(
        max_length=16_000, description="the consolidated knowledge: common problems and fixes"
    )
    key_points: list[str] = Field(max_length=20, description="3-5 key points")
    confidence: float = Field(allow_inf_nan=False, description="0.5 to 1.0")  # clamped


@dataclass(slots=True)
class Knowledge:
    """General knowledge distilled from several episodes."""

    id: str
    user_id: str
    topic: str
    content: str
    key_points: list[str]
    source_episodes: list[str]
    confidence: float
    target: str = ""
    access_count: int = 0
    last_accessed_at: datetime | None = None
    created_at: datetime = field(default_factory=lambda: datetime.now(timezone.utc))
    updated_at: datetime = field(default_factory=lambda: datetime.now(timezone.utc))
    written_by: str = "rules"
    #: The agent whose episodes it rests on (``None``: every agent's).
    agent_id: str | None = None

    #: Its record kind.
    KIND: ClassVar[str] = "knowledge"

    @classmethod
    def load(cls, data: dict[str, Any]) -> Knowledge:
        return from_data(cls, data)

    def entry(self) -> EntryView | None:
        """What the read path ranks of it (:mod:`~langgraph_memory.layers.index.kinds`)."""
        extra = {"agent": self.agent_id} if self.agent_id else {}
        return EntryView(self.text(), self.source_episodes, self.updated_at, extra)

    def text(self) -> str:
        """A rendering for prompts and search (in Chinese when the content is)."""
        if is_cjk_text(self.content):
            points = "；".join(self.key_points)
            text = f"{self.topic}：{self.content.rstrip('。. ')}。"
            return text + (f"要点：{points}。" if points else "")
        points = "; ".join(self.key_points)
        text = f"{self.topic}: {self.content.rstrip('. ')}."
        return text + (f" Key points: {points}." if points else "")


PROMPT = """Consolidate the following {n} records about "{target}" into one piece of knowledge.
请根据以下关于 "{target}" 的 {n} 条操作记录，整合生成一条通用知识。

{records}

Return topic (short), content (common problems and their solutions), key_points (3-5), and
confidence (0.5-1.0)."""


class Consolidator:
    """Turns groups of unconsolidated episodes into :class:`Knowledge`.

    Args:
        working: Where episodes live (knowledge is stored beside them).
        llm: Optional chat model that writes the knowledge.
        config: ``consolidation_min_episodes``: how many unconsolidated episodes a
            target needs (3).
    """

    def __init__(
        self,
        working: WorkingMemory,
        llm: BaseChatModel | None = None,
        config: LifecycleSection | None = None,
    ) -> None:
        self.working = working
        self.llm = llm
        self.min_episodes = (config or LifecycleSection()).consolidation_min_episodes

    def knowledge(self, user_id: str | None = None) -> list[Knowledge]:
        """Stored knowledge of a user (or everyone), oldest first."""
        return [
            Knowledge.load(r.data) for r in self.working.records.list_records("knowledge", user_id)
        ]

    def touch(self, user_id: str, knowledge_id: str, n: int, when: datetime) -> bool:
        """Count ``n`` retrievals of a piece of knowledge; False when it is gone."""
        rec = self.working.records.get_record("knowledge", knowledge_id, user_id)
        if rec is None:
            return False
        k = Knowledge.load(rec.data)
        k.access_count += n
        k.last_accessed_at = when
        self.working.records.put_record(
            Record("knowledge", k.id, user_id, to_data(k), k.created_at, k.updated_at)
        )
        return True

    def run(self, user_id: str | None = None) -> list[Knowledge]:
        """Consolidate every target with enough unconsolidated episodes; returns new knowledge."""
        # The knowledge record is the commit point: an episode it cites is consolidated
        # even when a crash came before the episode was marked (no second knowledge of
        # the same episodes), on every backend; where the store has transactions, the
        # record and the marks commit together anyway. One agent's episodes are
        # consolidated apart from another's (and from the shared ones).
        cited = {e for k in self.knowledge(user_id) for e in k.source_episodes}
        groups: dict[tuple[str, str, str], list[Episode]] = {}
        for ep in self.working.episodes(user_id):
            if not ep.target:
                continue
            if ep.consolidated or ep.id in cited:
                if not ep.consolidated:  # finish what a crash left half-done
                    ep.consolidated = True
                    self.working.save_episode(ep)
                continue
            groups.setdefault((ep.user_id, ep.target, ep.agent_id or ""), []).append(ep)
        made = []
        for (uid, target, _), eps in sorted(groups.items()):
            if len(eps) < self.min_episodes:
                continue
            k = self._write(uid, target, eps)
            with atomic(self.working.records):
                self.working.records.put_record(
                    Record("knowledge", k.id, uid, to_data(k), k.created_at, k.updated_at)
                )
                for ep in eps:
                    ep.consolidated = True
                    self.working.save_episode(ep)
            made.append(k)
        return made

    def _write(self, user_id: str, target: str, eps: list[Episode]) -> Knowledge:
        base: dict[str, Any] = {
            "id": uuid.uuid4().hex,
            "user_id": user_id,
            "source_episodes": [e.id for e in eps],
            "target": target,
            "agent_id": eps[0].agent_id,
        }
        if self.llm is not None:
            records = "\n\n".join(
                f"### {i}\n- trigger: {e.trigger_summary}\n- outcome: {e.outcome}: "
                f"{e.outcome_summary}\n- steps: {' → '.join(s.description for s in e.steps)}"
                for i, e in enumerate(eps, start=1)
            )
            draft = structured_call(
                self.llm, KnowledgeDraft, PROMPT.format(n=len(eps), target=target, records=records)
            )
            if draft is not None and draft.topic.strip() and draft.content.strip():
                return Knowledge(
                    **base,
                    topic=draft.topic.strip(),
                    content=draft.content.strip(),
                    key_points=[p.strip() for p in draft.key_points if p.strip()][:8],
                    confidence=min(max(float(draft.confidence), 0.5), 1.0),
                    written_by="llm",
                )
        return Knowledge(**base, **merge(target, eps))


_OUTCOMES_ZH = {"success": "成功", "failed": "失败", "partial": "部分成功"}


# The wording of a deterministic merge, per language of the episodes.
_MERGE_EN: dict[str, Any] = {
    "outcomes": {},
    "count": "{n} {o}",
    "sep": ", ",
    "content": "{n} episodes about {target} ({counts}). Requests: ",
    "list": "; ",
    "worked": ". What worked: ",
    "point": "{d} (in {n} of {of})",
}
_MERGE_ZH: dict[str, Any] = {
    "outcomes": _OUTCOMES_ZH,
    "count": "{o} {n} 次",
    "sep": "，",
    "content": "关于 {target} 的 {n} 次经历（{counts}）。请求：",
    "list": "；",
    "worked": "。有效做法：",
    "point": "{d}（{of} 次中 {n} 次）",
}


def merge(target: str, eps: list[Episode]) -> dict[str, Any]:
    """The deterministic consolidation of episodes (no LLM)."""
    outcomes = Counter(e.outcome for e in eps)
    steps = Counter(
        (f"{s.tool_name}: " if s.tool_name else "") + s.description for e in eps for s in e.steps
    )
    fixes = list(
        dict.fromkeys(
            e.outcome_summary for e in eps if e.outcome == "success" and e.outcome_summary
        )
    )
    requests = list(dict.fromkeys(e.trigger_summary for e in eps))
    lang = _MERGE_ZH if is_cjk_text(" ".join(requests + fixes)) else _MERGE_EN
    counts = lang["sep"].join(
        lang["count"].format(o=lang["outcomes"].get(o, o), n=n) for o, n in sorted(outcomes.items())
    )
    content = lang["content"].format(n=len(eps), target=target, counts=counts) + lang["list"].join(
        requests[:5]
    )
    if fixes:
        content += lang["worked"] + lang["list"].join(fixes[:3])
    points = [lang["point"].format(d=d, n=n, of=len(eps)) for d, n in steps.most_common(5)]
    return {
        "topic": target,
        "content": content,
        "key_points": points or fixes[:3],
        "confidence": 0.5 + 0.5 * outcomes.get("success", 0) / len(eps),
    }
