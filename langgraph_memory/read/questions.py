"""What a question asks for, by its form: whoever it names the user as, whatever words it
says the slot in.

A question about one of the user's everyday slots is asked in many ways: by the user
("Where do I live?", "我住哪？"), by an assistant or a reviewer about the user ("Where does
she live these days?", "这位用户现居何处？", "他目前生活在哪里？"), and with the slot said by
a verb or by a noun ("Who supervises my PhD?", "Whose team is he on?", "她的雇主是哪家？",
"他如今做什么行当？"). :func:`as_users_own` reads a question about "she", "he", "they",
"the user", "this person" (他, 她, 这位用户, 这个人) as the user's own; :func:`asked_by_form`
reads the type of its answer from two parts of its form rather than from whole phrases:

- what the question is about: a concept word of a slot, a verb or a noun ("employs",
  "company", "雇主", "上班" for an organisation; "position", "title", "身份", "行当" for a
  job; "plan", "training for", "打算", "出路" for a plan; "live", "reside", "定居", "落脚" for
  a place);
- its question word, when no concept decides: "who", "whose", 谁, 哪位 ask for a person;
  "when", "what day", 哪天, 几月, 日期 for a date; "how many", "how often", 几, 多少, 频率
  for a count; "called", 叫什么 for a name.

Concepts are tried before question words ("Who employs me?", "我现在的雇主是谁？" ask for
an organisation), in the order of :data:`_FORMS`.

Example:
    >>> as_users_own("Where does she live these days?")
    'Where do I live these days?'
    >>> as_users_own("这位用户现在向谁汇报？")
    '我现在向谁汇报？'
    >>> [asked_by_form(q) for q in ("Who employs me?", "我目前是什么身份？", "我的宝宝几月出生？")]
    ['org', 'job', 'date']
    >>> asked_by_form("What should I cook tonight?"), asked_by_form("Who wrote Hamlet?")
    (None, None)
"""

from __future__ import annotations

import re

__all__ = ["as_users_own", "asked_by_form"]

#: The user named in the third person, with the verb said of them ("does she" → "do I",
#: "is he" → "am I"); each pair is a pattern and its first-person form.
_THIRD = (
    (
        re.compile(
            r"\b(?:her(?=\s+(?!(?:now|then|today|these|this|at|in|on|to|for|with|from|and|or|"
            r"so|again|still|back|up|out)\b)\w)|his|their|the user's|the person's|"
            r"this person's)\b",
            re.I,
        ),
        lambda m: "my",
    ),
    (
        re.compile(
            r"\b(?:does|did) (?:she|he|they|the user|the person|this person|this user)\b", re.I
        ),
        lambda m: m[0].split()[0].replace("does", "do").replace("Does", "Do") + " I",
    ),
    (
        re.compile(r"\b(?:is|are) (?:she|he|they|the user|the person|this person)\b", re.I),
        lambda m: ("Am" if m[0][0].isupper() else "am") + " I",
    ),
    (re.compile(r"\b(?:she|he)'s\b", re.I), lambda m: "I'm"),
    (
        re.compile(r"\b(?:she|he|they|the user|the person|this person|this user)\b", re.I),
        lambda m: "I",
    ),
    (re.compile(r"\b(?:him|them|her)\b", re.I), lambda m: "me"),
    (
        # (not 他们, 她们: a group, as often the people of a story the user tells)
        re.compile(r"这位用户|该用户|这个用户|这个人|此人|这位|(?<![其吉])(?:他|她)(?!们)"),
        lambda m: "我",
    ),
)


#: A name inside an English question (a capitalised word other than its first and "I"):
#: its "she" and "her" are that person's.
_NAMED = re.compile(r"(?<!^)(?<![.?!]\s)\b(?!I\b)[A-Z][a-z]+")


def as_users_own(query: str) -> str:
    """``query`` asked in the user's own words: the user named in the third person ("she",
    "the person", 他, 这位用户) read as "I" (a question about someone the user names, "Where
    does my sister live?", keeps its "my sister"; one naming someone, "When did Gina open
    her store?", is about them: left as it is)."""
    if _NAMED.search(query):
        return query
    out = query
    for rx, first in _THIRD:
        out = rx.sub(first, out)
    return out


#: The type of answer by what a question is about (a concept of a slot, said by a verb or
#: a noun), then by its question word, in the order tried.
_FORMS = (
    # (one who is over the user, though asked with a workplace: "我在单位归哪位领导？")
    (
        "person",
        re.compile(
            r"(?:哪位|谁)[^？?]{0,4}(?:领导|上级|上司|主管)|(?:领导|上级|上司|主管)[^？?]{0,3}(?:哪位|谁)|"
            r"\bwho(?:'s| is)\b[^?]*\b(?:manager|boss|supervisor)\b",
            re.I,
        ),
    ),
    (
        "org",
        re.compile(
            r"\bemploy(?:s|er|ed)?\b|\b(?:company|firm|organi[sz]ation)\b|"
            r"\bwork(?:ing)? (?:at|for)\b|\b(?:where|which \w+)\b[^?]*\b(?:do|am) i\b[^?]*\bwork|"
            r"雇主|东家|公司|单位|就职|任职|供职|机构|企业|上班|打工|做事|哪家|在哪(?:儿|里)?(?:工作|干)",
            re.I,
        ),
    ),
    (
        "job",
        re.compile(
            r"\b(?:position|title|role|job|occupation|profession|career|stage)\b|"
            r"\b(?:line|kind) of work\b|\bwork as\b|\bwhat do i do\b|"
            r"\b(?:earn|make) (?:a|my) living\b|\bfor a living\b|"
            r"身份|行当|职业|职位|职务|岗位|工作是什么|什么工作|做什么的|干什么的|谋生|营生|差事",
            re.I,
        ),
    ),
    ("person", re.compile(r"\bwho(?:m|se)?\b|谁|哪位", re.I)),
    (
        "date",
        re.compile(
            r"\bwhen\b|\b(?:what|which) day\b|\bdate\b|"
            r"哪天|哪一天|什么时候|何时|几号|几月|几点|日期|哪一?年",
            re.I,
        ),
    ),
    (
        "count",
        re.compile(
            r"\bhow (?:many|much|often|far|big|large)\b|\bheadcount\b|\bnumber of\b|"
            r"几|多少|频率|多大|多远|数量|人数|次数",
            re.I,
        ),
    ),
    (
        "plan",
        re.compile(
            r"\b(?:plan|plans|planning|intend|intends|going to|preparing for|training for|"
            r"getting|buying|studying|learning|enrol(?:l)?(?:ing)?)\b|"
            r"打算|计划|准备|出路|要怎么|怎么花|学什么|学哪|在学|去哪|报了",
            re.I,
        ),
    ),
    (
        "place",
        re.compile(
            r"\b(?:live|lives|living|reside|resides|based|home|city|town|metro|country|"
            r"settled|located|address)\b|住|生活|定居|落脚|安家|落户|城市|哪座城|现居|何处|在哪|哪里|哪儿",
            re.I,
        ),
    ),
    ("person", re.compile(r"\bcalled\b|\bname\b|叫什么|叫啥|名字", re.I)),
)
#: A question asks for a value (not a request, "Tell me where I live" being one too).
_ASKS = re.compile(
    r"[?？]\s*$|^\s*(?:who|whom|whose|what|which|where|when|how|in which|on what)\b|"
    r"谁|哪|什么|啥|几|多少|何",
    re.I,
)


#: A question about the user (in the user's own words, :func:`as_users_own`): one about
#: the world ("Who wrote Hamlet?", "《红楼梦》作者是谁？") asks for no slot of theirs.
_OF_USER = re.compile(r"\b(?:I|I'm|[Mm]y|[Mm]e|[Mm]ine|[Ww]e|[Oo]ur|us)\b|我|咱")


def asked_by_form(query: str) -> str | None:
    """The type of value ``query`` (asked in the user's own words) asks for, read by its
    form (see the module docs): a concept of a slot, then its question word; None when it
    asks none of them, is no question, or is about no one's life but the world's."""
    if not _ASKS.search(query) or not _OF_USER.search(query):
        return None
    for kind, rx in _FORMS:
        if rx.search(query):
            return kind
    return None
