"""An evaluative stance: how the user finds a kind of thing, read by its grammar.

A preference is a first-person evaluative stance. This module reads it from the shape of
a clause, with small closed lexicons rather than sentence patterns:

- **the user as subject** — ``I`` / ``我`` + adverbs (intensifiers, frequency, hedges) +
  an optional negation + an evaluative predicate from a closed list + its object
  ("I've always had a soft spot for old cartoons", "I'm not much of a beer drinker",
  "I'd never say no to a cheese plate", "我真心不喜欢人多的地方", "我向来讨厌迟到").
  A negation flips the predicate's polarity ("never say no to" is a liking);
- **the thing as subject** — a bare noun phrase (a kind, not "the movie" or "my
  commute") + a copula or a sense verb + intensifiers + an evaluative adjective or noun
  ("Podcasts are boring", "Sci-fi is right up my alley", "香菜是我的噩梦",
  "跑步对我来说太枯燥了"), or a stimulus and the feeling it gives the user ("Musicals
  make me cringe", "养花让我特别放松");
- **the topic first**, the user's stance after it ("火锅我是来者不拒", "电子书我看不进去",
  "川菜我百吃不厌", "运动我首选游泳").

Tense and reference keep episodes out: a past tense ("was", "昨天") or a particular
thing ("the hotel breakfast", "那家店的咖啡") is an event, not a taste. Questions,
hypotheticals and other people's words are filtered by the caller
(:func:`~langgraph_memory.extraction.preferences.preferences_of`).

The English reader is :mod:`.stance_en`, the Chinese one :mod:`.stance_zh`; this module
picks one by the clause's language.

Example:
    >>> stance_of("Sci-fi is right up my alley.")
    [('Sci-fi', 1, 'explicit')]
    >>> stance_of("I'm not much of a beer drinker.")
    [('beer', -1, 'explicit')]
    >>> stance_of("我真心不喜欢人多的地方。")
    [('人多的地方', -1, 'explicit')]
    >>> stance_of("The hotel breakfast was terrible.")
    []
"""

from __future__ import annotations

from langgraph_memory.core.tokens import is_cjk_text
from langgraph_memory.extraction.stance_en import Stance, en_stance
from langgraph_memory.extraction.stance_zh import cleft_of, zh_stance

__all__ = ["cleft_of", "stance_of"]


def stance_of(clause: str) -> Stance:
    """``(value, polarity, source)`` of the evaluative stance ``clause`` states, if any
    (see the module docs); the caller has ruled out questions, hypotheticals and other
    people's words.

    Example:
        >>> stance_of("Musicals make me cringe.")
        [('Musicals', -1, 'explicit')]
        >>> stance_of("电子书我看不进去。")
        [('电子书', -1, 'explicit')]
    """
    s = clause.strip()
    if not s:
        return []
    return zh_stance(s) if is_cjk_text(s) else en_stance(s)
