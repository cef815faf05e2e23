"""The forget gate: score episodes by importance and drop the ones that no longer matter.

Importance follows the design documents: a base of 0.5, minus age decay (0.1 per
30 days, at most 0.3), plus an access bonus (0.05 per retrieval, at most 0.2),
plus 0.1 for a success or minus 0.05 for a failure, plus 0.15 when an alert
triggered it, plus 0.1 for more than three steps; clamped to [0, 1]. An episode
goes when its importance is below the threshold, it is older than the minimum
age and it is not pinned; then, while more than ``max_episodes`` remain, the
least important unpinned ones go.

Example:
    >>> from datetime import datetime, timedelta, timezone
    >>> from langgraph_memory.layers.working.tasks import Episode
    >>> now = datetime(2025, 1, 1, tzinfo=timezone.utc)
    >>> ep = Episode("e1", "s", "u", "user_request", "restart nginx", [], "success", "ok",
    ...              created_at=now - timedelta(days=60))
    >>> round(importance(ep, now), 3)
    0.4
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from langgraph_memory.config import ImportanceRule, LifecycleSection
from langgraph_memory.layers.working.tasks import Episode, WorkingMemory

__all__ = ["importance", "ForgetGate", "ForgetReport"]


def importance(ep: Episode, now: datetime, rule: ImportanceRule | None = None) -> float:
    """The seed's importance score of an episode at time ``now`` (clamped to [0, 1])."""
    r = rule or _DEFAULT_RULE
    score = r.base
    age_days = max((now - ep.created_at).total_seconds() / 86_400, 0.0)
    score -= min(age_days / r.age_days * r.age_step, r.age_cap)
    score += min(ep.access_count * r.access_step, r.access_cap)
    if ep.outcome == "success":
        score += r.success
    elif ep.outcome == "failed":
        score -= r.failure
    if ep.trigger_type == "alert":
        score += r.alert
    if len(ep.steps) > r.complex_steps:
        score += r.complex_bonus
    return max(0.0, min(1.0, score))


_DEFAULT_RULE = ImportanceRule()


@dataclass(slots=True)
class ForgetReport:
    """What a forget-gate run did (or, with ``dry_run``, would do).

    Attributes:
        dry_run: Whether anything was actually deleted.
        scored: Episodes scored.
        forgotten: ``(episode id, importance, why)`` of each episode that goes.
        kept: How many stay.
    """

    dry_run: bool
    scored: int = 0
    forgotten: list[tuple[str, float, str]] = field(default_factory=list)
    kept: int = 0


class ForgetGate:
    """Applies the importance rule to stored episodes.

    Args:
        working: Where episodes live.
        config: Its threshold (0.25), minimum age (7 days), cap on the episodes kept per
            user (10,000) and importance rule (the seed's by default).
    """

    def __init__(
        self,
        working: WorkingMemory,
        config: LifecycleSection | None = None,
    ) -> None:
        config = config or LifecycleSection()
        self.rule = config.importance
        self.working = working
        self.threshold = config.forget_threshold
        self.min_age = timedelta(days=config.forget_min_age_days)
        self.max_episodes = config.max_episodes

    def run(
        self, user_id: str | None = None, *, now: datetime, dry_run: bool = False
    ) -> ForgetReport:
        """Re-score every episode, then forget what the rule says (per user)."""
        report = ForgetReport(dry_run=dry_run)
        by_user: dict[str, list[Episode]] = {}
        for ep in self.working.episodes(user_id):
            by_user.setdefault(ep.user_id, []).append(ep)
        for uid, episodes in by_user.items():
            report.scored += len(episodes)
            gone: dict[str, tuple[float, str]] = {}
            for ep in episodes:
                ep.importance = importance(ep, now, self.rule)
                if ep.pinned or now - ep.created_at < self.min_age:
                    continue
                if ep.importance < self.threshold:
                    gone[ep.id] = (
                        ep.importance,
                        f"importance {ep.importance:.2f} < {self.threshold}",
                    )
            left = [ep for ep in episodes if ep.id not in gone]
            excess = len(left) - self.max_episodes
            if excess > 0:
                for ep in sorted(
                    (e for e in left if not e.pinned), key=lambda e: (e.importance, e.created_at)
                )[:excess]:
                    gone[ep.id] = (ep.importance, f"over the cap of {self.max_episodes}")
            report.forgotten += [(eid, imp, why) for eid, (imp, why) in gone.items()]
            report.kept += len(episodes) - len(gone)
            if not dry_run:
                for ep in episodes:
                    if ep.id not in gone:
                        self.working.save_episode(ep)
                self.working.records.delete_records("episode", list(gone), uid)
        return report
