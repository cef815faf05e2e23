"""Reflection: lessons from completed tasks (Reflexion) and insights over what was
remembered (Generative Agents), written in the background and citing their sources.

Seed 004's reflection memory keeps ``(task, outcome, is_success, lesson)`` and a
success rate; seed 003 adds the two mechanisms this module implements:

- **Lessons** (Reflexion): every completed episode gets a :class:`Lesson`. With a
  chat model it writes the lesson (structured output, falling back to the rules on a
  malformed or empty answer); the rules write what failed (the failed step and its
  result), what worked (the completed steps and the summary) and, for a success that
  follows failures on the same target, both side by side: the earlier attempt's
  failed step and the steps that worked. A lesson cites its episodes and their
  sources. Lessons are long-term entries: indexed, ranked by the read path beside
  facts and episodes, and riding along when a task in progress is like theirs
  (``lesson_share`` of the budget, see the read pipeline).
- **Insights** (Generative Agents): the importance of new facts (their confidence; the
  facts are the observations of this memory stream, episodes are reflected on by their
  lessons) is summed per user in the order they were written; when the sum passes
  ``reflection_threshold`` the facts since the last insight are reflected on. With a chat model it
  writes up to three insights, each citing the facts it rests on; the rules roll up
  each subject with at least ``reflection_min_facts`` recent facts into one
  :class:`Insight` ("What was said about the user lately: ...").
- :func:`success_rates`: successes per target and per tool over a user's episodes.

The :class:`Reflector` runs from the worker's idle hook and from ``flush`` for the
users whose long-term entries changed, reading only the entries changed since it
last looked (the entry index's revisions), so its cost follows what is new.

Example:
    >>> from langgraph_memory.layers.working.tasks import Episode, TaskStep
    >>> ep = Episode("e1", "s1", "ann", "user_request", "restart nginx",
    ...              [TaskStep("docker restart nginx", "shell", result="port 80 in use",
    ...                        status="failed")], "failed", "could not restart")
    >>> print(rule_lesson(ep, []))  # doctest: +NORMALIZE_WHITESPACE
    Failed: restart nginx. The step 'shell: docker restart nginx' failed (port 80 in use);
    do not repeat it as it was. Outcome: could not restart.
"""

from __future__ import annotations

import logging
import threading
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel, Field

from langgraph_memory.config import LifecycleSection
from langgraph_memory.core.llm import structured_call
from langgraph_memory.core.records import Record, from_data, to_data
from langgraph_memory.core.tokens import is_cjk_text
from langgraph_memory.layers.index.kinds import EntryView
from langgraph_memory.layers.long_term.facts import Fact
from langgraph_memory.layers.long_term.profile import stable_id
from langgraph_memory.layers.working.tasks import Episode
from langgraph_memory.storage.capabilities import EntryIndex, RecordStore

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

__all__ = [
    "Lesson",
    "Insight",
    "Reflector",
    "rule_lesson",
    "success_rates",
    "LESSON_KIND",
    "INSIGHT_KIND",
]

log = logging.getLogger(__name__)

LESSON_KIND = "lesson"
INSIGHT_KIND = "insight"
_STATE_KIND = "reflection_state"
_SUCCESS = {"success"}


def _now() -> datetime:
    return datetime.now(timezone.utc)


@dataclass(slots=True)
class Lesson:
    """What a completed task taught (Reflexion; seed 004's ``Reflection``).

    Attributes:
        id: One per episode (``lesson-…`` from the episode id).
        user_id: Whose.
        task: The request the task answered.
        target: What it acted on ("" when none was given).
        outcome: ``success``, ``partial`` or ``failed``.
        success: Whether the outcome was a success.
        lesson: The lesson, in the language of the task.
        tools: The tools its steps used.
        source_episodes: The episodes it rests on (its own, and an earlier failed one
            on the same target for a recovery).
        source_ids: Their sources (the citation trail).
        written_by: ``rules`` or ``llm``.
        agent_id: The agent whose task taught it (``None``: every agent's); it reaches
            only that agent's contexts.
    """

    id: str
    user_id: str
    task: str
    target: str
    outcome: str
    success: bool
    lesson: str
    tools: list[str] = field(default_factory=list)
    source_episodes: list[str] = field(default_factory=list)
    source_ids: list[str] = field(default_factory=list)
    written_by: str = "rules"
    created_at: datetime = field(default_factory=_now)
    updated_at: datetime = field(default_factory=_now)
    access_count: int = 0
    last_accessed_at: datetime | None = None
    agent_id: str | None = None

    #: Its record kind.
    KIND: ClassVar[str] = LESSON_KIND

    @classmethod
    def load(cls, data: dict[str, Any]) -> Lesson:
        return from_data(cls, data)

    def entry(self) -> EntryView | None:
        """What the read path ranks of it (:mod:`~langgraph_memory.layers.index.kinds`)."""
        extra: dict[str, Any] = {"target": self.target}
        if self.agent_id:  # the agent that learned it: other agents' contexts leave it out
            extra["agent"] = self.agent_id
        return EntryView(self.text(), self.source_ids, self.updated_at, extra)

    def text(self) -> str:
        """A one-line rendering for prompts and search."""
        on = f" [{self.target}]" if self.target else ""
        if is_cjk_text(self.lesson + self.task):
            return f"经验{on}：{self.lesson}"
        return f"Lesson{on}: {self.lesson}"


@dataclass(slots=True)
class Insight:
    """A higher-level statement reflected from several memories (Generative Agents).

    Attributes:
        id: Stable per subject and reflection window.
        user_id: Whose.
        subject: What it is about.
        content: The insight.
        source_facts: The facts it rests on.
        source_ids: Their source messages (the citation trail).
        written_by: ``rules`` or ``llm``.
    """

    id: str
    user_id: str
    subject: str
    content: str
    source_facts: list[str] = field(default_factory=list)
    source_ids: list[str] = field(default_factory=list)
    written_by: str = "rules"
    created_at: datetime = field(default_factory=_now)
    updated_at: datetime = field(default_factory=_now)
    access_count: int = 0
    last_accessed_at: datetime | None = None

    #: Its record kind.
    KIND: ClassVar[str] = INSIGHT_KIND

    @classmethod
    def load(cls, data: dict[str, Any]) -> Insight:
        return from_data(cls, data)

    def entry(self) -> EntryView | None:
        """What the read path ranks of it (:mod:`~langgraph_memory.layers.index.kinds`)."""
        return EntryView(self.text(), self.source_ids, self.updated_at)

    def text(self) -> str:
        """A rendering for prompts and search."""
        return self.content


# -- rules ------------------------------------------------------------------------------
def _step(s: Any) -> str:
    return (f"{s.tool_name}: " if s.tool_name else "") + s.description


def _clip(text: str | None, n: int = 160) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= n else text[: n - 1] + "…"


def rule_lesson(episode: Episode, earlier: Sequence[Episode]) -> str:
    """The lesson of an episode by rule (no LLM). ``earlier``: the user's earlier
    episodes on the same target, oldest first (a success after failures learns from
    them)."""
    zh = is_cjk_text(episode.trigger_summary + episode.outcome_summary)
    failed = [s for s in episode.steps if s.status == "failed"]
    worked = [s for s in episode.steps if s.status == "completed"] or (
        list(episode.steps) if episode.outcome in _SUCCESS else []
    )
    task = _clip(episode.trigger_summary, 120)
    summary = _clip(episode.outcome_summary)
    if episode.outcome in _SUCCESS:
        before = [e for e in earlier if e.outcome not in _SUCCESS]
        steps = " → ".join(_step(s) for s in worked[:6])
        if before:
            prev = before[-1]
            bad = [s for s in prev.steps if s.status == "failed"]
            what = (
                f"'{_step(bad[0])}' ({_clip(bad[0].result, 80) or '?'})"
                if bad
                else f"'{_clip(prev.outcome_summary, 80)}'"
            )
            if zh:
                return f"{task}：之前的尝试失败于 {what}；这次有效的做法：{steps or summary}。"
            return f"{task}: an earlier attempt failed at {what}; what worked: {steps or summary}."
        if zh:
            return (
                f"{task}：有效的做法：{steps or summary}"
                + (f"（{summary}）" if steps else "")
                + "。"
            )
        tail = f" ({summary})" if steps and summary else ""
        return f"What worked for {task}: {steps or summary}{tail}."
    if failed:
        s = failed[0]
        res = _clip(s.result, 100)
        if zh:
            why = f"（{res}）" if res else ""
            return f"失败：{task}。步骤“{_step(s)}”失败{why}，不要原样重复。结果：{summary}。"
        why = f" ({res})" if res else ""
        out = f"Failed: {task}. The step '{_step(s)}' failed{why}; do not repeat it as it was."
        return out + (f" Outcome: {summary}." if summary else "")
    if zh:
        return (
            f"{'部分成功' if episode.outcome == 'partial' else '失败'}：{task}。结果：{summary}。"
        )
    word = "Partly done" if episode.outcome == "partial" else "Failed"
    return f"{word}: {task}." + (f" Outcome: {summary}." if summary else "")


def success_rates(episodes: Sequence[Episode]) -> dict[str, dict[str, tuple[int, int]]]:
    """``{"target": {t: (successes, tasks)}, "tool": {tool: (steps completed, steps
    ended)}}`` over episodes.

    Example:
        >>> from langgraph_memory.layers.working.tasks import Episode, TaskStep
        >>> eps = [Episode(str(i), "s", "u", "user_request", "x",
        ...                [TaskStep("run", "shell", status=st)], out, "", target="db")
        ...        for i, (st, out) in enumerate([("failed", "failed"), ("completed", "success")])]
        >>> success_rates(eps)
        {'target': {'db': (1, 2)}, 'tool': {'shell': (1, 2)}}
    """
    targets: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    tools: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for e in episodes:
        if e.target:
            targets[e.target][0] += e.outcome in _SUCCESS
            targets[e.target][1] += 1
        for s in e.steps:
            if s.tool_name and s.status in ("completed", "failed"):
                tools[s.tool_name][0] += s.status == "completed"
                tools[s.tool_name][1] += 1
    return {
        "target": {k: (v[0], v[1]) for k, v in sorted(targets.items())},
        "tool": {k: (v[0], v[1]) for k, v in sorted(tools.items())},
    }


def rule_insights(facts: Sequence[Fact], min_facts: int) -> list[tuple[str, str, list[Fact]]]:
    """``(subject, content, facts)`` rolling up each subject with at least ``min_facts``
    of ``facts`` (the latest eight of it, oldest first)."""
    by_subject: dict[str, list[Fact]] = defaultdict(list)
    for f in facts:
        by_subject[f.subject_key].append(f)
    out = []
    for _, group in sorted(by_subject.items()):
        if len(group) < min_facts:
            continue
        group = sorted(group, key=lambda f: (f.valid_from, f.id))[-8:]
        subject = group[-1].subject
        # as stated when first stored: a later re-assertion changes a fact's quote, and
        # an insight must not depend on when it was written
        texts = [replace(f, quote=None, valid_to=None, superseded_by=None).text() for f in group]
        if is_cjk_text("".join(texts)):
            content = f"最近关于{subject}的{len(group)}条信息：" + "；".join(texts) + "。"
        else:
            content = f"What was said about {subject} lately ({len(group)} statements): " + (
                "; ".join(t.rstrip(". ") for t in texts) + "."
            )
        out.append((subject, content, group))
    return out


# -- the LLM ------------------------------------------------------------------------------
class LessonDraft(BaseModel):
    """An LLM's lesson of one task."""

    lesson: str = Field(
        max_length=16_000, description="One or two sentences: what to do or avoid next time"
    )


class InsightDraft(BaseModel):
    """One insight and the numbers of the statements it rests on."""

    insight: str = Field(max_length=16_000)
    sources: list[int] = Field(default_factory=list, max_length=100)


class InsightsDraft(BaseModel):
    """An LLM's insights over recent statements."""

    insights: list[InsightDraft] = Field(default_factory=list, max_length=50)


LESSON_PROMPT = """A task an assistant ran has ended. Write the lesson to remember for
similar tasks: what to do or to avoid next time, concrete, in the task's language.

Task: {task}
Target: {target}
Steps: {steps}
Outcome: {outcome}: {summary}
Earlier attempts on the same target: {earlier}"""

INSIGHT_PROMPT = """Here are recent statements about a user, numbered. Write at most three
high-level insights they support (patterns, goals, what matters to the user), each with
the numbers of the statements it rests on. Only what the statements support.

{statements}"""


# -- the reflector --------------------------------------------------------------------------
class Reflector:
    """Writes lessons and insights for users whose long-term entries changed (see the
    module docs).

    Args:
        records: Where episodes, facts, lessons and insights are kept (the indexed
            record store: what it writes is indexed too).
        index: The entry index whose revisions tell what changed.
        llm: An optional chat model; the rules otherwise (and as its fallback).
        config: ``reflection_threshold`` (summed confidence of new facts that triggers
            insights), ``reflection_min_facts`` (facts of one subject an insight by rule
            rolls up at least) and ``insights`` (whether new facts are reflected into
            insights; lessons are written either way).
    """

    def __init__(
        self,
        records: RecordStore,
        index: EntryIndex,
        llm: BaseChatModel | None = None,
        config: LifecycleSection | None = None,
    ) -> None:
        config = config or LifecycleSection()
        self.with_insights = config.insights
        self.records = records
        self.index = index
        self.llm = llm
        self.threshold = config.reflection_threshold
        self.min_facts = config.reflection_min_facts
        self._lock = threading.Lock()

    # -- running -------------------------------------------------------------------------
    def run(self, user_id: str) -> tuple[list[Lesson], list[Insight]]:
        """Reflect on what changed for ``user_id`` since the last run; returns the
        lessons and insights written."""
        with self._lock:
            state = self._state(user_id)
            _, changed = self.index.entries_since(user_id, int(state["rev"]))
            lessons: list[Lesson] = []
            insights: list[Insight] = []
            new_facts: list[str] = list(state.get("facts", []))
            since = tuple(state.get("since") or ("", ""))
            born: list[tuple[str, str, float]] = []  # facts created since the last run
            for entry in changed:
                layer, _, entry_id = entry.key.partition("/")
                if entry.text is None:
                    continue
                if layer == "episode":
                    lesson = self._lesson(user_id, entry_id)
                    if lesson is not None:
                        lessons.append(lesson)
                elif (
                    layer == "fact"
                    and self.with_insights
                    and (entry.doc.get("created", ""), entry_id) > since
                ):
                    conf = float(entry.doc.get("confidence") or 0.5)
                    born.append((str(entry.doc.get("created", "")), entry_id, conf))
            # Each fact counts once, in the order facts were created, and insights come
            # at the fact that crosses the threshold: the windows do not depend on when
            # this runs (a fact re-asserted later is not new).
            for created, entry_id, conf in sorted(born):
                new_facts.append(entry_id)
                state["importance"] += conf
                state["since"] = [created, entry_id]
                if state["importance"] >= self.threshold:
                    insights += self._insights(user_id, new_facts)
                    state["importance"], new_facts = 0.0, []
            if changed:
                state["rev"] = max(state["rev"], max(e.rev for e in changed))
            state["facts"] = new_facts[-200:]
            self._save_state(user_id, state)
            return lessons, insights

    def _state(self, user_id: str) -> dict[str, Any]:
        rec = self.records.get_record(_STATE_KIND, stable_id("refl", user_id), user_id)
        if rec is None:
            return {"rev": 0, "importance": 0.0, "facts": [], "since": None}
        return dict(rec.data)

    def _save_state(self, user_id: str, state: dict[str, Any]) -> None:
        now = _now()
        rid = stable_id("refl", user_id)
        self.records.put_record(Record(_STATE_KIND, rid, user_id, state, now, now))

    # -- lessons ------------------------------------------------------------------------------
    def _lesson(self, user_id: str, episode_id: str) -> Lesson | None:
        lid = stable_id("lesson", episode_id)
        if self.records.get_record(LESSON_KIND, lid, user_id) is not None:
            return None
        rec = self.records.get_record("episode", episode_id, user_id)
        if rec is None:
            return None
        ep = Episode.load(rec.data)
        earlier = []
        if ep.target:
            earlier = [
                e
                for e in (
                    Episode.load(r.data)
                    for r in self.records.query_records(
                        "episode", user_id, where={"target": ep.target}
                    )
                )
                if e.created_at < ep.created_at and e.id != ep.id and e.agent_id == ep.agent_id
            ]
        text, by = self._write_lesson(ep, earlier), "rules"
        if isinstance(text, tuple):
            text, by = text
        cited = [ep] + ([earlier[-1]] if earlier and ep.outcome in _SUCCESS else [])
        lesson = Lesson(
            id=lid,
            user_id=user_id,
            task=ep.trigger_summary,
            target=ep.target,
            outcome=ep.outcome,
            success=ep.outcome in _SUCCESS,
            lesson=text,
            tools=sorted({s.tool_name for s in ep.steps if s.tool_name}),
            source_episodes=[e.id for e in cited],
            source_ids=list(dict.fromkeys(i for e in cited for i in e.source_ids)),
            written_by=by,
            agent_id=ep.agent_id,
        )
        self.records.put_record(
            Record(LESSON_KIND, lid, user_id, to_data(lesson), lesson.created_at, lesson.updated_at)
        )
        return lesson

    def _write_lesson(self, ep: Episode, earlier: list[Episode]) -> str | tuple[str, str]:
        if self.llm is not None:
            prompt = LESSON_PROMPT.format(
                task=ep.trigger_summary,
                target=ep.target or "-",
                steps="; ".join(f"{_step(s)} [{s.status}] {s.result or ''}" for s in ep.steps)
                or "-",
                outcome=ep.outcome,
                summary=ep.outcome_summary or "-",
                earlier="; ".join(f"{e.outcome}: {e.outcome_summary}" for e in earlier[-3:]) or "-",
            )
            draft = structured_call(self.llm, LessonDraft, prompt)
            if draft is not None and draft.lesson.strip():
                return _clip(draft.lesson, 600), "llm"
            log.info("the LLM gave no usable lesson; the rules write it")
        return rule_lesson(ep, earlier)

    # -- insights ---------------------------------------------------------------------------
    def _insights(self, user_id: str, fact_ids: list[str]) -> list[Insight]:
        facts = []
        for fid in fact_ids:
            rec = self.records.get_record("fact", fid, user_id)
            if rec is not None:  # as stated: one superseded since still counts
                facts.append(Fact.load(rec.data))
        if not facts:
            return []
        window = stable_id("win", *sorted(f.id for f in facts))
        made: list[tuple[str, str, list[Fact], str]] = []
        if self.llm is not None:
            numbered = "\n".join(f"{i}. {f.quote or f.text()}" for i, f in enumerate(facts, 1))
            draft = structured_call(
                self.llm, InsightsDraft, INSIGHT_PROMPT.format(statements=numbered)
            )
            for d in (draft.insights if draft is not None else [])[:3]:
                cited = [facts[i - 1] for i in d.sources if 1 <= i <= len(facts)]
                if d.insight.strip() and cited:
                    made.append((cited[0].subject, _clip(d.insight, 600), cited, "llm"))
            if not made:
                log.info("the LLM gave no usable insight; the rules write them")
        if not made:
            made = [(s, c, fs, "rules") for s, c, fs in rule_insights(facts, self.min_facts)]
        out = []
        for subject, content, cited, by in made:
            iid = stable_id("insight", window, subject)
            ins = Insight(
                id=iid,
                user_id=user_id,
                subject=subject,
                content=content,
                source_facts=[f.id for f in cited],
                # each fact's first source: the message that stated it
                source_ids=list(dict.fromkeys(f.source_ids[0] for f in cited if f.source_ids)),
                written_by=by,
            )
            self.records.put_record(
                Record(INSIGHT_KIND, iid, user_id, to_data(ins), ins.created_at, ins.updated_at)
            )
            out.append(ins)
        return out

    # -- reading -----------------------------------------------------------------------------
    def lessons(self, user_id: str) -> list[Lesson]:
        """The user's lessons, oldest first."""
        return [Lesson.load(r.data) for r in self.records.list_records(LESSON_KIND, user_id)]

    def insights(self, user_id: str) -> list[Insight]:
        """The user's insights, oldest first."""
        return [Insight.load(r.data) for r in self.records.list_records(INSIGHT_KIND, user_id)]

    def success_rates(self, user_id: str) -> dict[str, dict[str, tuple[int, int]]]:
        """:func:`success_rates` over the user's episodes."""
        return success_rates(
            [Episode.load(r.data) for r in self.records.list_records("episode", user_id)]
        )
