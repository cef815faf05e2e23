"""Working memory → episodes → knowledge, and the forget gate, on every backend."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st
from langchain_core.language_models.fake_chat_models import FakeListChatModel

from langgraph_memory import MemoryConfig, MemoryManager
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.layers.working.forgetting import importance
from langgraph_memory.layers.working.tasks import Episode, TaskStep
from langgraph_memory.storage import InMemoryBackend

NOW = datetime(2025, 6, 1, tzinfo=timezone.utc)


def episode(**kw) -> Episode:
    base = dict(
        id="e",
        session_id="s",
        user_id="u",
        trigger_type="user_request",
        trigger_summary="t",
        steps=[],
        outcome="partial",
        outcome_summary="",
        created_at=NOW,
    )
    base.update(kw)
    return Episode(**base)


def run_task(
    mm: MemoryManager, user: str, target: str, outcome: str = "success", steps: int = 1, **kw
) -> Episode:
    tid = mm.tasks.start(user, "s1", f"fix {target}")
    for i in range(steps):
        j = mm.tasks.step(user, tid, f"step {i} on {target}", tool_name="shell", args={"n": i})
        mm.tasks.update_step(user, tid, j, status="completed", result="ok")
    return mm.tasks.complete(
        user, tid, outcome=outcome, summary=f"{target} fixed", target=target, **kw
    )


# -- importance: the seed's formula --------------------------------------------------------
def test_importance_examples() -> None:
    assert importance(episode(), NOW) == pytest.approx(0.5)
    assert importance(episode(outcome="success"), NOW) == pytest.approx(0.6)
    assert importance(episode(outcome="failed"), NOW) == pytest.approx(0.45)
    assert importance(episode(trigger_type="alert"), NOW) == pytest.approx(0.65)
    steps = [TaskStep(f"s{i}") for i in range(4)]
    assert importance(episode(steps=steps), NOW) == pytest.approx(0.6)
    assert importance(episode(), NOW + timedelta(days=30)) == pytest.approx(0.4)
    assert importance(episode(), NOW + timedelta(days=3000)) == pytest.approx(0.2)  # decay ≤ 0.3
    assert importance(episode(access_count=2), NOW) == pytest.approx(0.6)
    assert importance(episode(access_count=50), NOW) == pytest.approx(0.7)  # bonus ≤ 0.2


@given(
    age=st.floats(0, 5000),
    access=st.integers(0, 1000),
    outcome=st.sampled_from(["success", "partial", "failed"]),
    trigger=st.sampled_from(["user_request", "alert", "scheduled"]),
    n_steps=st.integers(0, 8),
)
def test_importance_properties(age, access, outcome, trigger, n_steps) -> None:
    ep = episode(
        access_count=access, outcome=outcome, trigger_type=trigger, steps=[TaskStep("x")] * n_steps
    )
    now = NOW + timedelta(days=age)
    score = importance(ep, now)
    assert 0.0 <= score <= 1.0
    # older never scores higher; more accesses never score lower
    assert importance(ep, now + timedelta(days=1)) <= score
    ep.access_count += 1
    assert importance(ep, now) >= score


# -- tasks and episodes -------------------------------------------------------------------
def test_task_lifecycle_makes_an_episode(mm: MemoryManager) -> None:
    tid = mm.tasks.start("alice", "s1", "restart the nginx container", context={"host": "web1"})
    i = mm.tasks.step(
        "alice", tid, "docker restart nginx", tool_name="shell", args={"cmd": "restart"}
    )
    step = mm.tasks.update_step("alice", tid, i, status="completed", result="nginx is up")
    assert step.status == "completed" and step.completed_at is not None
    assert mm.tasks.get("alice", tid).steps[0].result == "nginx is up"
    ep = mm.tasks.complete(
        "alice", tid, outcome="success", summary="restarted", target="nginx", tags=["ops"]
    )
    assert (ep.trigger_summary, ep.outcome, ep.target, ep.tags) == (
        "restart the nginx container",
        "success",
        "nginx",
        ["ops"],
    )
    assert ep.importance == pytest.approx(0.6)
    assert [e.id for e in mm.tasks.episodes("alice")] == [ep.id]
    assert mm.tasks.get("alice", tid).status == "completed"
    with pytest.raises(ValueError, match="already completed"):
        mm.tasks.step("alice", tid, "too late")
    assert mm.stats("alice")["layers"]["episode"] == 1


def test_task_bad_input(mm: MemoryManager) -> None:
    with pytest.raises(ValueError, match="request"):
        mm.tasks.start("alice", "s1", "  ")
    tid = mm.tasks.start("alice", "s1", "x")
    with pytest.raises(KeyError):
        mm.tasks.step("alice", "no-such-task", "x")
    with pytest.raises(IndexError):
        mm.tasks.update_step("alice", tid, 3, status="completed")
    i = mm.tasks.step("alice", tid, "y")
    with pytest.raises(ValueError, match="status"):
        mm.tasks.update_step("alice", tid, i, status="done")
    with pytest.raises(ValueError, match="outcome"):
        mm.tasks.complete("alice", tid, outcome="great")
    with pytest.raises(ValueError, match="trigger_type"):
        mm.tasks.complete("alice", tid, trigger_type="whim")
    assert mm.tasks.get("alice", tid).status == "in_progress"  # nothing changed by the failures
    assert mm.tasks.episodes("alice") == []


def test_tasks_persist_across_reopen(tmp_path) -> None:
    with MemoryManager(tmp_path, embeddings=HashingEmbeddings()) as mm:
        tid = mm.tasks.start("alice", "s1", "migrate the database")
        mm.tasks.step("alice", tid, "pg_dump")
    with MemoryManager(tmp_path, embeddings=HashingEmbeddings()) as mm:
        assert mm.tasks.get("alice", tid).steps[0].description == "pg_dump"
        ep = mm.tasks.complete("alice", tid, summary="done", target="postgres")
    with MemoryManager(tmp_path, embeddings=HashingEmbeddings()) as mm:
        assert mm.tasks.episodes("alice")[0].id == ep.id


# -- forget gate ---------------------------------------------------------------------------
def test_forget_gate_rules(mm: MemoryManager) -> None:
    failed = run_task(mm, "alice", "a", outcome="failed")  # 0.45 now, 0.15 after 300 days
    partial = run_task(mm, "alice", "b", outcome="partial")  # 0.5 → 0.2
    pinned = run_task(mm, "alice", "c", outcome="failed", pinned=True)
    success = run_task(mm, "alice", "d")  # 0.6 → 0.3: stays
    bob = run_task(mm, "bob", "e", outcome="failed")
    later = datetime.now(timezone.utc) + timedelta(days=300)
    dry = mm.maintenance.forget(dry_run=True, user_id="alice", now=later)
    assert {eid for eid, _, _ in dry.forgotten} == {failed.id, partial.id}
    assert all("importance" in why for _, _, why in dry.forgotten)
    assert len(mm.tasks.episodes("alice")) == 4  # dry run deletes nothing
    report = mm.maintenance.forget(user_id="alice", now=later)
    assert report.kept == 2
    assert {e.id for e in mm.tasks.episodes("alice")} == {pinned.id, success.id}
    assert [e.id for e in mm.tasks.episodes("bob")] == [bob.id]  # other users untouched
    # young episodes are never forgotten, however unimportant
    young = run_task(mm, "alice", "f", outcome="failed")
    assert young.id not in {e for e, _, _ in mm.maintenance.forget(dry_run=True).forgotten}


def test_forget_gate_cap(backend) -> None:
    cfg = MemoryConfig(lifecycle={"max_episodes": 2})
    with MemoryManager(backend=backend, embeddings=HashingEmbeddings(), config=cfg) as mm:
        eps = [run_task(mm, "alice", f"t{i}", steps=i) for i in range(4)]  # more steps: higher
        later = datetime.now(timezone.utc) + timedelta(days=8)
        report = mm.maintenance.forget(now=later)
        assert {e.id for e in mm.tasks.episodes("alice")} == {eps[3].id, eps[2].id} or len(
            mm.tasks.episodes("alice")
        ) == 2
        assert all("cap" in why for _, _, why in report.forgotten)
        assert len(report.forgotten) == 2


# -- consolidation -----------------------------------------------------------------------
def test_consolidation_without_llm(mm: MemoryManager) -> None:
    for _ in range(2):
        run_task(mm, "alice", "nginx")
    assert mm.maintenance.consolidate("alice") == []  # below min_episodes (3)
    run_task(mm, "alice", "nginx", outcome="failed")
    run_task(mm, "alice", "redis")
    [k] = mm.maintenance.consolidate()
    assert (k.topic, k.target, k.written_by) == ("nginx", "nginx", "rules")
    assert k.confidence == pytest.approx(0.5 + 0.5 * 2 / 3)
    assert len(k.source_episodes) == 3 and "step 0 on nginx" in k.key_points[0]
    assert all(e.consolidated for e in mm.tasks.episodes("alice") if e.target == "nginx")
    assert mm.maintenance.consolidate() == []  # consolidated episodes are not used twice
    assert [x.id for x in mm.tasks.knowledge("alice")] == [k.id]


def test_consolidation_cut_between_its_writes_resumes_without_a_second_knowledge(
    mm: MemoryManager,
) -> None:
    """The knowledge record is the commit point: episodes it cites but a crash left
    unmarked (a backend without grouped writes) are marked by the next run, not
    consolidated again (``tests/test_crash_writes.py`` kills real runs on SQLite)."""
    for _ in range(6):
        run_task(mm, "alice", "nginx")
    [k] = mm.maintenance.consolidate("alice")
    working = mm._parts.working  # undo the marks as a crash after the record would
    for ep in working.episodes("alice"):
        ep.consolidated = False
        working.save_episode(ep)
    assert mm.maintenance.consolidate("alice") == []
    assert [x.id for x in mm.tasks.knowledge("alice")] == [k.id]
    assert all(e.consolidated for e in mm.tasks.episodes("alice"))


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
def test_consolidation_with_llm_and_malformed_fallback(kind: str, tmp_path) -> None:
    def manager(llm: FakeListChatModel, name: str) -> MemoryManager:
        if kind == "memory":
            return MemoryManager(backend=InMemoryBackend(), embeddings=HashingEmbeddings(), llm=llm)
        return MemoryManager(tmp_path / name, embeddings=HashingEmbeddings(), llm=llm)

    good = (
        '{"topic": "nginx ops", "content": "Restart upstream on 502.", '
        '"key_points": ["check upstream", "restart"], "confidence": 1.7}'
    )
    with manager(FakeListChatModel(responses=[good]), "a") as mm:
        for _ in range(3):
            run_task(mm, "alice", "nginx")
        [k] = mm.maintenance.consolidate("alice")
        assert (k.topic, k.written_by, k.confidence) == ("nginx ops", "llm", 1.0)  # clamped
        assert k.key_points == ["check upstream", "restart"]
    with manager(FakeListChatModel(responses=["I'd rather not answer in JSON."]), "b") as mm:
        for _ in range(3):
            run_task(mm, "bob", "redis")
        [k] = mm.maintenance.consolidate("bob")
        assert (k.topic, k.written_by) == ("redis", "rules")


def test_delete_user_removes_tasks_episodes_knowledge(mm: MemoryManager) -> None:
    for _ in range(3):
        run_task(mm, "alice", "nginx")
    run_task(mm, "bob", "nginx")
    mm.maintenance.consolidate()
    mm.delete_user("alice")
    assert mm.tasks.episodes("alice") == [] and mm.tasks.knowledge("alice") == []
    assert set(mm.stats("alice")["layers"].values()) == {0}
    assert len(mm.tasks.episodes("bob")) == 1


def test_async_twins(mm: MemoryManager) -> None:
    async def go() -> tuple:
        tid = await mm.aio.tasks.start("alice", "s1", "deploy")
        i = await mm.aio.tasks.step("alice", tid, "kubectl apply")
        await mm.aio.tasks.update_step("alice", tid, i, status="completed")
        ep = await mm.aio.tasks.complete("alice", tid, target="k8s")
        report = await mm.aio.maintenance.forget(True)
        made = await mm.aio.maintenance.consolidate("alice")
        return ep, report, made

    ep, report, made = asyncio.run(go())
    assert ep.target == "k8s" and report.dry_run and made == []


def test_memory_maintenance_node_in_a_graph(mm: MemoryManager) -> None:
    from langgraph.graph import END, START, StateGraph

    from langgraph_memory import MemoryMessagesState, memory_maintenance_node

    for _ in range(3):
        run_task(mm, "alice", "nginx")
    run_task(mm, "bob", "nginx")
    builder = StateGraph(MemoryMessagesState)
    builder.add_node("maintenance", memory_maintenance_node(mm))
    builder.add_edge(START, "maintenance")
    builder.add_edge("maintenance", END)
    graph = builder.compile()
    out = graph.invoke({"messages": []}, {"configurable": {"user_id": "alice"}})
    assert len(out["memory_maintenance"]["knowledge"]) == 1
    assert mm.tasks.knowledge("bob") == []  # only the run's user
    again = asyncio.run(graph.ainvoke({"messages": []}, {"configurable": {"user_id": "alice"}}))
    assert again["memory_maintenance"]["knowledge"] == []
    with pytest.raises(ValueError, match="user_id"):
        graph.invoke({"messages": []}, {"configurable": {}})


def test_chinese_episodes_consolidate_in_chinese_and_are_retrieved_and_counted(
    mm: MemoryManager,
) -> None:
    """Episodes told in Chinese give Chinese knowledge; a query made only of words every
    episode shares still finds them; what a context includes has its access counted
    (by the worker, off the read path), which raises its forget-gate importance."""
    for _ in range(3):
        tid = mm.tasks.start("zh", "s1", "重启 nginx 容器")
        j = mm.tasks.step("zh", tid, "执行 docker restart", tool_name="shell")
        mm.tasks.update_step("zh", tid, j, status="completed", result="好")
        mm.tasks.complete("zh", tid, outcome="success", summary="已重启，状态正常", target="nginx")
    [k] = mm.maintenance.consolidate("zh")
    assert k.content.startswith("关于 nginx 的 3 次经历（成功 3 次）")
    assert "有效做法：已重启，状态正常" in k.content
    assert k.key_points == ["shell: 执行 docker restart（3 次中 3 次）"]
    assert k.text().startswith("nginx：关于") and "要点：" in k.text()
    ctx = mm.build_context("zh", "s2", "重启 nginx 容器", token_budget=500)
    used = {it.layer for it in ctx.items}
    assert {"episode", "knowledge"} <= used
    before = {e.id: importance(e, NOW) for e in mm.tasks.episodes("zh")}
    mm.flush()
    counted = [e for e in mm.tasks.episodes("zh") if e.access_count]
    assert len(counted) == sum(1 for it in ctx.items if it.layer == "episode") >= 1
    for e in counted:
        assert e.access_count == 1 and e.last_accessed_at is not None
        assert importance(e, NOW) == pytest.approx(before[e.id] + 0.05)
    assert mm.tasks.knowledge("zh")[0].access_count == 1
    mm.build_context("zh", "s2", "重启 nginx 容器", token_budget=500)
    mm.flush()
    assert mm.tasks.knowledge("zh")[0].access_count == 2
    mm.build_context("zh", "s2", "重启 nginx 容器", token_budget=500)  # counted, not saved yet
    mm.delete_user("zh")
    mm.flush()  # nothing of the deleted user comes back through its access counts
    assert mm.tasks.episodes("zh") == [] and mm.tasks.knowledge("zh") == []


def test_importance_and_confidence_constants_live_in_memory_config(tmp_path) -> None:
    """The seed's values are MemoryConfig's defaults, and the manager uses what is set."""
    from langgraph_memory.config import ImportanceRule

    rule, lt = MemoryConfig().lifecycle.importance, MemoryConfig().long_term
    assert (rule.base, rule.age_step, rule.age_days) == (0.5, 0.1, 30.0)
    assert (rule.age_cap, rule.access_step, rule.access_cap) == (0.3, 0.05, 0.2)
    assert (rule.success, rule.failure, rule.alert) == (0.1, 0.05, 0.15)
    assert (rule.complex_bonus, rule.complex_steps) == (0.1, 3)
    assert (lt.explicit_confidence, lt.inferred_confidence, lt.preference_threshold) == (
        1.0,
        0.6,
        0.7,
    )
    assert (lt.reinforce_step, lt.correct_step) == (0.2, 0.4)
    ep = episode(outcome="success", created_at=NOW - timedelta(days=45))
    assert importance(ep, NOW) == pytest.approx(0.5 - 0.15 + 0.1)
    assert importance(ep, NOW, ImportanceRule(success=0.3, age_step=0.0)) == pytest.approx(0.8)
    with pytest.raises(ValueError, match="ImportanceRule.base"):
        MemoryConfig(lifecycle={"importance": {"base": 1.5}})
    with pytest.raises(ValueError, match="correct_step"):
        MemoryConfig(long_term={"correct_step": -0.1})

    custom = MemoryConfig(
        long_term={"inferred_confidence": 0.75}, lifecycle={"importance": {"success": 0.3}}
    )
    with MemoryManager(
        backend=InMemoryBackend(), embeddings=HashingEmbeddings(), config=custom
    ) as mm:
        assert run_task(mm, "ann", "nginx").importance == pytest.approx(0.8)
        assert mm._longterm.config.inferred_confidence == 0.75
        assert mm._longterm.config.preference_threshold == 0.7
        later = datetime.now(timezone.utc) + timedelta(days=400)
        report = mm.maintenance.forget(now=later)
        assert report.scored == 1 and report.forgotten == []
        # age takes its cap (0.3), success gives 0.3 here (0.1 by default: 0.3 in all)
        assert mm.tasks.episodes("ann")[0].importance == pytest.approx(0.5)
