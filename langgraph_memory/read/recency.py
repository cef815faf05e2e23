"""Updates shown current-first, whatever words the change was said in.

When a user moves city, changes job, pushes a date back or has one more child, the
context often holds both statements: the old one ("I live in Lisbon") and the new one
("Our new place in Porto has a river view"). A context lists messages in the order they
were said, so the old value came first, and nothing said it was an earlier one unless
the write path had read the change from its words (:mod:`~langgraph_memory.extraction.changes`
knows a list of cues: "moved to", "now", "换", "改到"...).

This reads the change by what the statements are about instead of how they are worded.
Among the user's own statements in a packed context (a question is none, nor a statement
about someone else's life: "My sister plays the cello", "我妹妹喜欢…"), the one closest
to the query answers it; another of the user's statements, said before or after it, is
about the same thing when, judged against the context itself, its similarity to the
answering one and its similarity to the query stand out from the context's other
messages' (together :data:`MARGIN` standard deviations above their means, the first at
least :data:`FLOOR`), and it is not a repeat (:data:`REPEAT` or closer). It is no update
when the later one adds a value ("I also have two cats": :data:`ADDITION`), or when the
write path read the two into entries of their own (a profile line or fact cites the
later one and another only the earlier one: "I'm allergic to peanuts", "I can't stand
coriander" both hold). The similarities are the cosines of the messages' stored vectors,
read from the embedding cache (nothing is embedded again; a multilingual model judges
Chinese as it judges English); for a query the model does not read (Chinese with the
English-only default model, whose Chinese query has no vector) the cosines of their sets
of words (:func:`term_similarities`).

What changes in the context (nothing is dropped, no item is added):

- the newest statement of the group is shown as ``latest (2024-03-07): user: ...`` after
  the lines that open the prompt (anchors, profile lines, facts) and before all dated
  lines;
- every older one, and every profile line or fact drawn only from older ones, reads
  ``earlier (2024-03-01): ...`` (the profile lines and facts after the latest statement);
- a statement of the user's naming the value a profile line or fact says it replaced
  ("location: Wuxi; earlier: Suzhou"), said before the line's sources, reads ``earlier``
  too, whatever the similarities say: the write path saw that slot change.

A mark that would take the prompt over its budget is not made. The hook is one call at the
end of :meth:`~langgraph_memory.read.pipeline.ReadPipeline.build_context`.

Example:
    >>> from datetime import datetime, timezone
    >>> from langgraph_memory.core.context import ContextItem
    >>> it = ContextItem("message", "user: I live in Lisbon.", 7, 1.0, {}, ["m1"], "",
    ...                  timestamp=datetime(2024, 3, 1, tzinfo=timezone.utc))
    >>> earlier(it).text
    'earlier (2024-03-01): user: I live in Lisbon.'
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

import numpy as np

from langgraph_memory.core.context import ContextItem, MemoryContext, item_tokens
from langgraph_memory.core.records import Message, index_text
from langgraph_memory.core.tokens import is_cjk_text
from langgraph_memory.embeddings.cache import CachedEmbeddings
from langgraph_memory.extraction.changes import says_change
from langgraph_memory.extraction.slots import about_others, thing_counted
from langgraph_memory.read.candidates import MESSAGE_ITEM_LAYERS
from langgraph_memory.read.handovers import handover, handover_lead
from langgraph_memory.read.leading import current_leads
from langgraph_memory.read.recounts import recounted
from langgraph_memory.read.reschedules import rescheduled
from langgraph_memory.read.similarities import lifts, term_similarities
from langgraph_memory.read.slot_types import (
    asked_type,
    own_part,
    said_before_asking,
    states_a,
    typed,
)
from langgraph_memory.read.timeline import is_statement
from langgraph_memory.retrieval.vectors import cosines

__all__ = [
    "Update",
    "find_update",
    "current_first",
    "stored_vectors",
    "earlier",
    "latest",
    "FLOOR",
    "MARGIN",
]

#: A later statement is about the same thing as the answering one when its cosine with
#: it is at least this ...
FLOOR = 0.15
#: ... and, summed, its similarity to the answering one and to the query stand this many
#: standard deviations above the context's other messages' (see
#: :func:`~langgraph_memory.read.similarities.lifts`).
MARGIN = 2.0
#: A later statement that adds a value rather than replacing one ("I also have two cats",
#: "I can't stand coriander either", "我也养了猫", "另外我对芒果过敏"): the earlier one stands.
#: (A change said "too" is none: "工位也换了"; nor a move to "another" team or town.)
ADDITION = re.compile(
    r"\b(?:also|too|as well|either|(?<!to )(?<!for )(?<!at )(?<!in )another|in addition|"
    r"besides|additionally)\b|"
    r"也(?![换变改搬调])|另外|还有",
    re.I,
)
#: An ending said beside the addition word: the "also" is of the new value, not beside
#: the old one ("离职手续办完了，在京东也干了半个月了", "Left Acme; I'm also at Globex now").
_ENDED = re.compile(
    r"离职|辞职|辞了|不干了|退休|\b(?:quit|resigned|retired|left (?:my|the|at)|last day)\b", re.I
)


def adds(said: str) -> bool:
    """Whether a later statement adds a value rather than replacing one (:data:`ADDITION`
    in a sentence of the user's own life, with no ending said beside it). An addition word
    in a message that tells another's news first is said beside theirs ("My friend runs
    every day. I've also bumped mine up to 5", "我哥升总监了。我呢，也转去做市场策划了").

    Example:
        >>> adds("I also have two cats."), adds("我同事天天去。我现在也改成一周五次了")
        (True, False)
        >>> adds("离职手续办完了，在京东也干了半个月了")
        False
    """
    own = own_part(said)
    if own.split() != said.split() or _ENDED.search(own):
        return False
    return ADDITION.search(own) is not None


#: A later statement this close to the answering one repeats it (no new value).
REPEAT = 0.97
#: The other messages needed to judge the margin (with fewer, the floor alone is too
#: weak a test).
MIN_OTHERS = 2

#: Layers whose items are drawn from the user's statements (marked with their sources).
DRAWN_LAYERS = frozenset({"profile", "fact"})


@dataclass(frozen=True, slots=True)
class Update:
    """Statements of the user's on one question: ``newest`` answers it now, ``older``
    (indices into the same list of messages) answered it before."""

    newest: int
    older: tuple[int, ...]


def find_update(
    msgs: Sequence[Message],
    close: np.ndarray,
    near: Callable[[int], np.ndarray],
    others: bool = False,
) -> Update | None:
    """The group of statements answering the query at different times, if any (see the
    module docs). ``close``: each message's similarity to the query; ``near(i)``: every
    message's similarity to message ``i`` (in the same order); ``others``: the query asks
    about someone else's life ("Where does my sister live?"), so statements about others
    answer it too.

    Example:
        >>> from datetime import datetime, timezone
        >>> t = datetime(2024, 3, 1, tzinfo=timezone.utc)
        >>> said = [("user", "I live in Lisbon."), ("assistant", "Nice."),
        ...         ("user", "Any film tips?"), ("assistant", "Try Dune."),
        ...         ("user", "Our new place in Porto has a river view.")]
        >>> m = [Message(f"m{i}", "u", "s", role, text, t, seq=i)
        ...      for i, (role, text) in enumerate(said)]
        >>> v = np.array([[1, 0, 0.2], [0.3, 1, 0], [0, 0.2, 1], [0, 0.3, 1], [0.7, 0.1, 0.6]])
        >>> v = v / np.linalg.norm(v, axis=1, keepdims=True)
        >>> find_update(m, v @ np.array([1.0, 0, 0]), lambda i: v @ v[i])
        Update(newest=4, older=(0,))
    """
    said = [
        i for i, m in enumerate(msgs) if is_statement(m) and (others or own_part(m.content).strip())
    ]
    if len(said) < 2 or len(msgs) < 2 + MIN_OTHERS:
        return None
    answer = max(said, key=lambda i: (close[i], msgs[i].seq))
    row = np.asarray(near(answer), dtype=np.float64)
    # judged against the user's other messages: an assistant's reply echoes the statement
    # it answers ("That's a big team to manage."), and would make every statement on the
    # question look ordinary
    own = [i for i, m in enumerate(msgs) if m.role == "user"]
    if len(own) < 2 + MIN_OTHERS:
        own = list(range(len(msgs)))
    pos = {i: k for k, i in enumerate(own)}
    lift = np.full(len(msgs), -np.inf)
    lift[own] = lifts(row[own], pos[answer]) + lifts(
        np.asarray(close, dtype=np.float64)[own], pos[answer]
    )
    when = {i: (msgs[i].timestamp, msgs[i].seq) for i in said}
    same = []
    for i in said:
        if i == answer or row[i] >= REPEAT or row[i] < FLOOR or lift[i] < MARGIN:
            continue
        if adds(msgs[max(i, answer, key=when.__getitem__)].content):
            continue  # "I also have two cats": one more value, the earlier one stands
        same.append(i)
    if not same:
        return None
    group = sorted([answer, *same], key=when.__getitem__)
    return Update(group[-1], tuple(group[:-1]))


def typed_update(msgs: Sequence[Message], kind: str, query: str = "") -> Update | None:
    """Without a query vector: the user's statements holding a value of the ``kind`` the
    question (``query``) asks for (:func:`~langgraph_memory.read.slot_types.states_a`),
    when there are two or more and the newest adds none (:data:`ADDITION`); the words of
    a new value may share nothing with the old one's ("我住在杭州", "来昆明三个月了"). A newest
    one that says a change outright (:func:`~langgraph_memory.extraction.changes.says_change`)
    replaces, whatever it adds besides. An older one may be said before a question ("I'm
    in a one-bedroom in Dayton, does it cover bikes?": :func:`~.slot_types.said_before_asking`)."""
    said = [i for i, m in enumerate(msgs) if states_a(m, kind, query)]
    said.sort(key=lambda i: (msgs[i].timestamp, msgs[i].seq))
    if said:  # the user's questions before the newest statement, stating a value first
        last = (msgs[said[-1]].timestamp, msgs[said[-1]].seq)
        asked = [
            i
            for i, m in enumerate(msgs)
            if (m.timestamp, m.seq) < last and said_before_asking(m, kind, query)
        ]
        said = sorted({*said, *asked}, key=lambda i: (msgs[i].timestamp, msgs[i].seq))
    newest = msgs[said[-1]].content if said else ""
    # (a change said outright is one, whatever else it adds: "现在换成张阿姨帮忙带娃了，做饭也好吃")
    if len(said) < 2 or adds(newest) and not says_change(newest):
        return None
    return Update(said[-1], tuple(said[:-1]))


def _members(update: Update) -> tuple[int, ...]:
    """The statements of ``update``, the newest first."""
    return (update.newest, *update.older)


def _day(when: datetime | None) -> str:
    return when.strftime("%Y-%m-%d") if when is not None else "before"


def earlier(item: ContextItem, said: datetime | None = None) -> ContextItem:
    """``item`` marked as an earlier statement, with the date it was ``said`` (default:
    its own); a profile line or a fact goes after the latest statement (see
    :func:`latest`)."""
    text = f"earlier ({_day(said or item.timestamp)}): {item.text}"
    return _copy(item, text, item.group, item.order if item.group is not None else 1)


def latest(item: ContextItem) -> ContextItem:
    """``item`` marked as the latest statement, placed after the lines that open the
    prompt (anchors, profile lines, facts: what the write path read says it in fewer
    words) and before those of them marked earlier (message seqs start at 1: the
    prompt's dated lines follow)."""
    text = f"latest ({_day(item.timestamp)}): {item.text}"
    return _copy(item, text, None, 0)


def _lead(item: ContextItem, said: str, lead: str) -> ContextItem:
    """``item`` showing the latest statement ``said`` as ``lead`` (its current value
    first: :func:`~langgraph_memory.read.leading.current_leads`), where it quotes it."""
    if lead == said or said not in item.text:
        return item
    text = item.text.replace(said, lead)
    return dataclasses.replace(item, text=text, tokens=item_tokens(text))


def _copy(item: ContextItem, text: str, group: str | None, order: int) -> ContextItem:
    return ContextItem(
        item.layer,
        text,
        item_tokens(text),
        item.score,
        {**item.score_parts, "update_mark": 1.0},
        list(item.source_ids),
        item.reason + "; marked by the latest statement on the same question",
        timestamp=item.timestamp,
        session_id=item.session_id,
        group=group,
        order=order,
        relevance=item.relevance,
    )


def current_first(
    items: list[ContextItem],
    budget: int,
    messages: Callable[[list[int]], dict[int, Message]],
    vectors: Callable[[list[str]], np.ndarray | None] | None,
    query: str,
    query_vector: Callable[[], np.ndarray],
) -> Update | None:
    """Mark, in place, the user's statements in ``items`` that answer the query at
    different times: the newest first, the older ones (and profile lines and facts drawn
    only from them) as earlier; nothing when that would take the prompt over ``budget``.

    Args:
        items: The packed context.
        budget: Its token budget.
        messages: The stored messages of these seqs (by seq).
        vectors: The stored vectors of these texts (None when they cannot be read), or
            None when the model does not read the query: then the texts are compared by
            their terms (:func:`term_similarities`).
        query: The query.
        query_vector: The query's vector (read only with ``vectors``).

    Returns:
        The group marked (indices into the context's message items), or None (the
        statements the entries say were replaced are marked all the same).
    """
    at = [k for k, it in enumerate(items) if it.layer in MESSAGE_ITEM_LAYERS]
    at = [k for k in at if len(items[k].source_ids) == 1]
    found = messages([items[k].order for k in at])
    at = [k for k in at if items[k].order in found]
    msgs = [found[items[k].order] for k in at]
    try:
        return _mark_update(items, budget, at, msgs, vectors, query, query_vector)
    finally:  # on every way out, whether an update was marked or not
        _entries_say_earlier(items, budget, at, msgs)
        _entries_of_the_type_earlier(items, budget, at, msgs, query)


def _mark_update(
    items: list[ContextItem],
    budget: int,
    at: list[int],
    msgs: list[Message],
    vectors: Callable[[list[str]], np.ndarray | None] | None,
    query: str,
    query_vector: Callable[[], np.ndarray],
) -> Update | None:
    """The body of :func:`current_first` for the message items at ``at`` (their
    messages ``msgs``): the update found and marked, or None."""
    kind = asked_type(query)
    if len(msgs) < (2 if kind and vectors is None else 2 + MIN_OTHERS):
        return None
    texts = [index_text(m) for m in msgs]
    by_type = None
    if vectors is None:
        close, terms = term_similarities(texts, query)
        update = find_update(msgs, close, terms.__getitem__, about_others(query))
        if update is None and kind is not None:  # the user's statements of the type asked for
            update = by_type = typed_update(msgs, kind, query)
    else:
        vecs = vectors(texts)
        if vecs is None or len(vecs) != len(msgs) or not np.isfinite(vecs).all():
            return None
        close = cosines(vecs, query_vector())
        update = find_update(msgs, close, lambda i: cosines(vecs, vecs[i]), about_others(query))
        if update is None and kind is not None:  # the user's statements of the type asked for
            update = by_type = typed_update(msgs, kind, query)
    if update is None and kind == "person":  # "Gwen retired. Dario took over the floor"
        found = handover(msgs)
        update = by_type = Update(*found) if found else None
    if update is None and kind in ("date", "count"):  # "约在12号" … "提前到28号"; "加到七门"
        found = rescheduled(msgs, query, own_part) if kind == "date" else recounted(msgs, own_part)
        update = by_type = Update(*found) if found else None
    if update is None:
        return None
    # the write path read both statements, as entries of their own: two things, both true
    # ("I'm allergic to peanuts", "I can't stand coriander"), not one value replaced,
    # unless the later one says a change ("Started at PwC on Monday", "I'm dating Sophie
    # now"): then the entries are two readings of one slot's values
    drawn = [it.source_ids for it in items if it.layer in DRAWN_LAYERS]
    new_id = msgs[update.newest].id
    # (statements of the one type asked for answer one question: no exception for them,
    # whether typed_update or the similarities grouped them: "我现在是销售专员" read as a
    # change, "刚升了销售主管" as an occupation are two readings of the user's job)
    if (
        update is not by_type
        and not (kind and all(states_a(msgs[i], kind, query) for i in _members(update)))
        and any(new_id in ids for ids in drawn)
        and not says_change(msgs[update.newest].content)
    ):
        kept = [i for i in update.older if not any(ids == [msgs[i].id] for ids in drawn)]
        if not kept:
            return None
        update = Update(update.newest, tuple(kept))
    old = {msgs[i].id: msgs[i] for i in update.older}
    marked = list(items)
    said = msgs[update.newest].content
    older = [msgs[i].content for i in update.older]
    # (a handover's own reading first: who came leads, who went follows)
    lead = handover_lead(said, older)
    lead = current_leads(said, older, query) if lead == said else lead
    marked[at[update.newest]] = latest(_lead(items[at[update.newest]], said, lead))
    for i in update.older:
        marked[at[i]] = earlier(items[at[i]])
    for k, it in enumerate(items):
        cited = [old[s] for s in it.source_ids if s in old]
        if it.layer in DRAWN_LAYERS and cited and new_id not in it.source_ids:
            marked[k] = earlier(it, min(m.timestamp for m in cited))
        elif marked[k] is it and (it.layer not in DRAWN_LAYERS or new_id in it.source_ids):
            # its quote of the latest statement too (an entry's, an entity's summary's)
            marked[k] = _lead(it, said, lead)
    if MemoryContext(marked, budget).tokens > budget:
        return None
    items[:] = marked
    return update


#: The value a profile line or fact says it replaced (their ``text()``: "; earlier: X",
#: "；此前：X").
_EARLIER_VALUE = re.compile(r"(?:; earlier: |；此前：)([^()（）;；,，]+)")


#: A value that is a number alone names no slot in a statement ("Paid 30 bucks").
_NUMBER = re.compile(r"[\d.,:/-]+")
#: The thing a count entry counts ("number of children: 3", "User number of cats 2").
_COUNTED = re.compile(r"number of (\w+)")


def _names(text: str, value: str) -> bool:
    """Whether ``text`` names ``value`` as a word of its own ("30" is not in "300", nor
    "Paris" in "Parisian"); a value in CJK characters is found wherever it stands."""
    if is_cjk_text(value):
        return value in text
    return re.search(rf"(?<!\w){re.escape(value)}(?!\w)", text) is not None


def _entries_say_earlier(
    items: list[ContextItem], budget: int, at: list[int], msgs: list[Message]
) -> None:
    """Mark, in place, the user's statements that the write path already read as replaced:
    a profile line or fact in the context says which value it replaced ("location:
    Wuxi; earlier: Suzhou"); a statement of the user's said before the line's own
    sources that names that value, and is no source of the line, is an earlier one
    (nothing when that would take the prompt over ``budget``). ``at``: the message items'
    indices in ``items``; ``msgs``: their messages. Whatever the similarities say, the
    write path saw the slot's value change."""
    when = {m.id: (m.timestamp, m.seq) for m in msgs}
    marked = list(items)
    for it in items:
        found = _EARLIER_VALUE.search(it.text) if it.layer in DRAWN_LAYERS else None
        value = found[1].strip().casefold() if found else ""
        cited = [when[s] for s in it.source_ids if s in when]
        # "30" is any price; a number is the count's only beside the thing counted
        # ("number of children: 3; earlier: 2": "I've got 2 kids")
        counted = _COUNTED.search(it.text) if _NUMBER.fullmatch(value) else None
        if not value or not cited or (len(value) < 2 or _NUMBER.fullmatch(value)) and not counted:
            continue
        for k, m in zip(at, msgs, strict=True):
            if (
                m.role == "user"
                and m.id not in it.source_ids
                and when[m.id] < min(cited)
                and _names(m.content.casefold(), value)
                and (counted is None or thing_counted(m.content) == counted[1].strip())
                and "update_mark" not in marked[k].score_parts
            ):
                marked[k] = earlier(items[k])
    if marked != items and MemoryContext(marked, budget).tokens <= budget:
        items[:] = marked
    _replacing_first(items)


def _replacing_first(items: list[ContextItem]) -> None:
    """Move, in place, each entry saying which value it replaced before the entries
    that quote that value and say nothing replaced ("occupation: 护士" quoting "我在协和医院
    当护士" follows "employer: 朝阳医院; earlier: 协和医院"): an entry of another slot drawn
    from the old statement would show the old value first."""
    for it in list(items):
        found = _EARLIER_VALUE.search(it.text) if it.layer in DRAWN_LAYERS else None
        value = found[1].strip().casefold() if found else ""
        if len(value) < 2 or _NUMBER.fullmatch(value):
            continue
        k = items.index(it)
        ahead = [
            j
            for j, other in enumerate(items[:k])
            if other.layer in DRAWN_LAYERS
            and not _EARLIER_VALUE.search(other.text)
            and _names(other.text.casefold(), value)
        ]
        if ahead:
            items.insert(ahead[0], items.pop(k))


#: The user's words an entry quotes ('About the user (employer: Acme): "I'm at Acme."',
#: "关于用户（employer：阿里）：“我在阿里上班”").
_QUOTE = re.compile(r"[\"“](.+)[\"”]")


def _entries_of_the_type_earlier(
    items: list[ContextItem], budget: int, at: list[int], msgs: list[Message], query: str
) -> None:
    """Mark, in place, the profile lines and facts that quote an older statement of the
    type the query asks for (:func:`~langgraph_memory.read.slot_types.asked_type`) as
    earlier, when the context holds a newer statement of the user's of that type: the
    write path may have read the old value and missed the new one ("我在阿里上班" read,
    "离职手续办完了，在京东干了半个月了" not), and its line would open the prompt with the
    old value. The newest statement is marked the latest (nothing when that would take
    the prompt over ``budget``). ``at``: the message items' indices in ``items``;
    ``msgs``: their messages."""
    kind = asked_type(query)
    if kind is None:
        return
    said = [
        (m.timestamp, m.seq, k, m)
        for k, m in zip(at, msgs, strict=True)
        if m.role == "user" and states_a(m, kind, query)
    ]
    if not said:
        return
    when, _, newest_at, newest = max(said, key=lambda t: t[:3])
    # (an entry's time is when it was written: its sources in the context say when they
    # were said; one the context does not hold is taken for older than the newest)
    sent = {m.id: (m.timestamp, m.seq) for m in msgs}
    marked = list(items)
    for k, it in enumerate(items):
        quote = _QUOTE.search(it.text) if it.layer in DRAWN_LAYERS else None
        if (
            quote is None
            or newest.id in it.source_ids
            or "update_mark" in it.score_parts
            or any(i in sent and sent[i][0] >= when for i in it.source_ids)
            or quote[1].strip() == newest.content.strip()
            or not typed(quote[1], kind, query)
        ):
            continue
        cited = [sent[i][0] for i in it.source_ids if i in sent]
        if cited:
            marked[k] = earlier(it, min(cited))
        else:  # said before the newest, on a day the context does not show
            text = f"earlier (before {_day(when)}): {it.text}"
            marked[k] = _copy(it, text, it.group, it.order if it.group is not None else 1)
    if marked == items:
        return
    if "update_mark" not in items[newest_at].score_parts:
        marked[newest_at] = latest(items[newest_at])
    if MemoryContext(marked, budget).tokens <= budget:
        items[:] = marked


def stored_vectors(embedder: CachedEmbeddings, texts: list[str]) -> np.ndarray | None:
    """The stored messages' vectors, from the embedding cache they were put in when the
    messages were embedded (None when the model fails on one)."""
    try:
        return embedder.embed_array(texts)
    except Exception:  # a message the worker quarantined: no mark rather than no context
        return None
