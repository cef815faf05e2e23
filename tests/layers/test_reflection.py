"""Reflection: every completed task gets a lesson in the background (rules, or the LLM
with the rules as fallback), a success after failures learns from them, lessons of
similar tasks ride along with a task in progress, new memories past a threshold of
importance are reflected into insights citing their sources, and delete_user removes
all of it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel

from langgraph_memory import MemoryConfig, MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.storage import MemoryBackend

T0 = datetime(2024, 3, 1, 9, tzinfo=timezone.utc)


@pytest.fixture
def mm(backend: MemoryBackend) -> Iterator[MemoryManager]:
    with MemoryManager(backend=backend, embeddings=HashingEmbeddings()) as m:
        yield m


def run_task(
    mm: MemoryManager,
    request: str,
    steps: list[tuple[str, str, str]],
    outcome: str,
    summary: str,
    *,
    user: str = "ann",
    target: str = "",
) -> str:
    task = mm.tasks.start(user, "ops", request)
    for desc, status, result in steps:
        i = mm.tasks.step(user, task, desc, tool_name="shell")
        mm.tasks.update_step(user, task, i, status=status, result=result)
    return mm.tasks.complete(user, task, outcome=outcome, summary=summary, target=target).id


def test_a_failed_task_leaves_a_lesson_citing_it(mm: MemoryManager) -> None:
    ep = run_task(
        mm,
        "restart nginx",
        [("docker restart nginx", "failed", "port 80 already in use")],
        "failed",
        "nginx stayed down",
        target="nginx",
    )
    mm.flush()
    [lesson] = mm.tasks.lessons("ann")
    assert not lesson.success and lesson.outcome == "failed" and lesson.target == "nginx"
    assert "docker restart nginx" in lesson.lesson and "port 80 already in use" in lesson.lesson
    assert (
        lesson.source_episodes == [ep]
        and lesson.source_ids == mm.tasks.episodes("ann")[0].source_ids
    )
    assert lesson.tools == ["shell"] and lesson.written_by == "rules"
    assert mm.tasks.lessons("bob") == []


def test_a_success_after_a_failure_learns_from_it(mm: MemoryManager) -> None:
    first = run_task(
        mm,
        "restart nginx",
        [("docker restart nginx", "failed", "port 80 already in use")],
        "failed",
        "nginx stayed down",
        target="nginx",
    )
    second = run_task(
        mm,
        "restart nginx again",
        [("stop the old container", "completed", "ok"), ("docker start nginx", "completed", "up")],
        "success",
        "nginx is up",
        target="nginx",
    )
    mm.flush()
    lesson = next(x for x in mm.tasks.lessons("ann") if x.success)
    assert "docker restart nginx" in lesson.lesson  # what failed before
    assert "stop the old container" in lesson.lesson and "docker start nginx" in lesson.lesson
    assert lesson.source_episodes == [second, first]
    assert mm.tasks.success_rates("ann") == {"target": {"nginx": (1, 2)}, "tool": {"shell": (2, 3)}}


def test_chinese_tasks_get_chinese_lessons(mm: MemoryManager) -> None:
    run_task(
        mm,
        "重启 nginx 容器",
        [("docker restart nginx", "failed", "端口被占用")],
        "failed",
        "没有成功",
    )
    mm.flush()
    [lesson] = mm.tasks.lessons("ann")
    assert lesson.lesson.startswith("失败：重启 nginx 容器") and "端口被占用" in lesson.lesson
    assert lesson.text().startswith("经验")


def test_lessons_of_similar_tasks_ride_along_with_a_task_in_progress(mm: MemoryManager) -> None:
    run_task(
        mm,
        "restart the nginx container",
        [("docker restart nginx", "failed", "port 80 already in use")],
        "failed",
        "nginx stayed down",
        target="nginx",
    )
    run_task(
        mm, "rotate the TLS certificate", [("certbot renew", "completed", "ok")], "success", ""
    )
    mm.add_message("ann", "ops", "user", "Let's get going.", timestamp=T0)
    mm.flush()
    # no task in progress: nothing rides along for one
    ctx = mm.build_context("ann", "ops", "what should I do first?", 2000)
    assert not [it for it in ctx.items if "rides along with the task" in it.reason]
    mm.tasks.start("ann", "ops", "restart nginx container on the edge box")
    ctx = mm.build_context("ann", "ops", "what should I do first?", 2000)
    riding = [it for it in ctx.items if "rides along with the task" in it.reason]
    assert len(riding) == 1 and "port 80 already in use" in riding[0].text
    assert riding[0].layer == "lesson" and riding[0].source_ids
    # it is packed right after the task, before anything retrieved
    layers = [it.layer for it in ctx.items]
    assert layers.index("lesson") == layers.index("task") + 1


class ReflectingModel(FakeListChatModel):
    """Answers lesson prompts about nginx with a lesson, insight prompts with one insight
    citing statements 1 and 2, anything else with a malformed answer."""

    def _call(self, messages: Any, *args: Any, **kwargs: Any) -> str:
        prompt = str(messages[-1].content)
        if "lesson" in prompt and "nginx" in prompt:
            return json.dumps({"lesson": "Free port 80 before restarting nginx."})
        if "insights" in prompt:
            return json.dumps(
                {"insights": [{"insight": "Ann is moving abroad.", "sources": [1, 2]}]}
            )
        return "not json at all"


def test_the_llm_writes_lessons_and_insights_and_rules_catch_a_bad_answer(
    backend: MemoryBackend,
) -> None:
    llm = ReflectingModel(responses=["unused"])
    cfg = MemoryConfig(lifecycle={"reflection_threshold": 1.5, "insights": True})
    with MemoryManager(backend=backend, embeddings=HashingEmbeddings(), llm=llm, config=cfg) as mm:
        run_task(mm, "restart nginx", [("docker restart nginx", "failed", "port")], "failed", "")
        run_task(
            mm, "renew the TLS cert", [("certbot renew", "failed", "rate limit")], "failed", ""
        )
        for i, (rel, obj) in enumerate([("moving_to", "Lisbon"), ("selling", "the flat")]):
            mm._longterm.facts.add_fact("ann", "ann", rel, obj, valid_from=T0, source_ids=[f"m{i}"])
        mm.flush()
        by_task = {x.task: x for x in mm.tasks.lessons("ann")}
        assert by_task["restart nginx"].lesson == "Free port 80 before restarting nginx."
        assert by_task["restart nginx"].written_by == "llm"
        assert by_task["renew the TLS cert"].written_by == "rules"  # malformed answer
        [insight] = mm.profile.insights("ann")
        assert insight.content == "Ann is moving abroad." and insight.written_by == "llm"
        assert sorted(insight.source_ids) == ["m0", "m1"]


def test_insights_by_rule_once_new_memories_weigh_enough(backend: MemoryBackend) -> None:
    mm = MemoryManager(
        backend=backend,
        embeddings=HashingEmbeddings(),
        config=MemoryConfig(lifecycle={"insights": True}),
    )
    lt = mm._longterm
    facts = [
        ("works_on", "the billing service"),
        ("uses", "PostgreSQL 16"),
        ("lives_in", "Lisbon"),
        ("owns", "a grey cat"),
        ("plays", "the cello"),
        ("studies", "Japanese grammar"),
        ("drives", "an old Volvo"),
        ("reads", "Dune novels"),
        ("cooks", "mushroom risotto"),
        ("deploys_to", "k8s"),
    ]

    def add(i: int) -> None:
        rel, obj = facts[i]
        when = T0 + timedelta(days=i)
        lt.facts.add_fact(
            "ann", "ann", rel, obj, valid_from=when, source_ids=[f"m{i}"], confidence=1.0
        )

    for i in range(2):
        add(i)
    mm.flush()
    assert mm.profile.insights("ann") == []  # below the threshold
    for i in range(2, 10):
        add(i)
    mm.flush()
    # confidence 1.0 each, threshold 5: one insight per five facts, in the order written
    first, second = mm.profile.insights("ann")
    assert first.content.startswith("What was said about ann lately (5 statements)")
    assert "billing service" in first.content and "k8s" not in first.content
    assert "k8s" in second.content and "billing service" not in second.content
    assert sorted(first.source_ids) == ["m0", "m1", "m2", "m3", "m4"]
    assert first.written_by == "rules"
    # an insight is a long-term entry: it reaches a context
    ctx = mm.build_context("ann", "s1", "what was said about ann lately?", 2000)
    assert [it for it in ctx.items if it.layer == "insight"]
    mm.close()


def test_insights_are_off_by_default(mm: MemoryManager) -> None:
    for i in range(8):
        mm._longterm.facts.add_fact(
            "ann", "ann", f"rel_{i}", f"thing {i}", valid_from=T0, confidence=1.0
        )
    mm.flush()
    assert mm.profile.insights("ann") == []


def test_reflection_can_be_turned_off_and_delete_user_removes_it(backend: MemoryBackend) -> None:
    cfg = MemoryConfig(lifecycle={"reflect": False})
    with MemoryManager(backend=backend, embeddings=HashingEmbeddings(), config=cfg) as mm:
        run_task(mm, "restart nginx", [("docker restart nginx", "failed", "port")], "failed", "")
        mm.flush()
        assert mm.tasks.lessons("ann") == []
        lessons, _ = mm.maintenance.reflect("ann")  # on request it still runs
        assert len(lessons) == 1 and len(mm.tasks.lessons("ann")) == 1
        mm.delete_user("ann")
        assert mm.tasks.lessons("ann") == [] and mm.profile.insights("ann") == []
        assert mm._parts.read.entries.docs("ann") == []
