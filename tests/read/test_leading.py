"""The current value leads a latest statement that opens on the value it replaced."""

from __future__ import annotations

import pytest

from langgraph_memory.read.leading import clauses, current_leads

# (latest statement, an older one on the same question, the question, what leads, the
# clauses about the earlier value)
TURNED = [
    ("陈教授退休了，我转到了李老师组里。", "我的导师是陈教授，做材料的。", "谁在带我做研究？",
     "我转到了李老师组里。", "陈教授退休了"),
    ("小雨怀孕了不练了，现在我跟同事阿珍一起去。", "我每周和闺蜜小雨一起去健身。",
     "我和谁一起健身？", "现在我跟同事阿珍一起去。", "小雨怀孕了不练了"),
    ("Jake moved away, so my new gym partner is my neighbour Sam.",
     "My best friend Jake is my gym buddy.", "Who do I work out with?",
     "my new gym partner is my neighbour Sam.", "Jake moved away"),
    ("Scrap the grey, we're going with sage green after all.",
     "Planning to paint the living room grey this weekend.",
     "What colour is the living room getting?", "we're going with sage green after all.",
     "Scrap the grey"),
    ("Okafor moved practices so I'm seeing Dr. Lindqvist from now on.", "My doctor is Dr. Okafor.",
     "Who is my doctor?", "I'm seeing Dr. Lindqvist from now on.", "Okafor moved practices"),
    ("I left Acme and joined Globex last month.", "I work at Acme.", "Where do I work?",
     "joined Globex last month.", "I left Acme"),
]  # fmt: skip

# statements that already lead with the current value, or name the old one last
KEPT = [
    ("I moved from Lisbon to Porto.", "I live in Lisbon.", "Where do I live?"),
    ("We're doing Portugal instead, Japan was too pricey.", "Trip to Japan in October.",
     "Where am I going?"),
    ("现在住在深圳，杭州的房子卖了。", "我住在杭州。", "我住在哪？"),
    # a new number in the first clause may be the new value; a word of one character
    # (号) names none
    ("场地只有9月20号有空，婚礼就定那天。", "婚礼定在6月14号。", "婚礼是哪天？"),
    # the earlier clause's shared word is said again later: no clause is about it alone
    ("Lisbon was fun, but Lisbon is home now.", "I live in Lisbon.", "Where do I live?"),
]  # fmt: skip


@pytest.mark.parametrize("case", TURNED, ids=[c[3][:12] for c in TURNED])
def test_the_current_value_leads_and_the_earlier_one_is_said_to_be_earlier(case) -> None:
    said, older, question, lead, back = case
    shown = current_leads(said, [older], question)
    assert shown == f"{lead} (on the earlier one: {back})"


@pytest.mark.parametrize("case", KEPT, ids=[c[0][:12] for c in KEPT])
def test_a_statement_that_does_not_open_on_the_earlier_value_is_kept(case) -> None:
    said, older, question = case
    assert current_leads(said, [older], question) == said


def test_clauses_keep_names_titles_and_numbers_whole() -> None:
    assert clauses("Lena and I split up. Her name's Ava.") == [
        "Lena and I split up.",
        "Her name's Ava.",
    ]
    assert clauses("The team has 1,200 people, Dr. Wu says.") == [
        "The team has 1,200 people,",
        "Dr. Wu says.",
    ]


def test_a_dot_inside_an_address_or_a_version_cuts_no_clause() -> None:
    got = current_leads(
        "I dropped gmail.com, my email is now sam@proton.me for everything.",
        ["My email is sam@gmail.com"],
        "What's my email?",
    )
    assert "sam@proton.me for everything." in got
    assert clauses("We use v20.x now... and globex.dev is home") == [
        "We use v20.x now...",
        "and globex.dev is home",
    ]


@pytest.mark.parametrize(
    ("text", "older"),
    [
        ("I still live in Lisbon, but I work in Porto now.", ["I live in Lisbon."]),
        ("我还在腾讯，字节给了offer但我没去", ["我在腾讯上班"]),
    ],
)
def test_a_value_that_still_holds_is_not_called_earlier(text: str, older: list[str]) -> None:
    assert current_leads(text, older) == text


@pytest.mark.parametrize(
    ("text", "lead"),
    [
        ("I left Acme, now I'm at Globex and I never look back.", "now I'm at Globex"),
        ("I was still at Acme in May, but I joined Globex in June.", "I joined Globex in June."),
        ("我一直在腾讯，上个月跳槽去了字节", "上个月跳槽去了字节"),
        ("腾讯那边离职了，现在去了字节，周末都不去加班了", "现在去了字节"),
    ],
)
def test_a_negation_or_a_past_still_does_not_undo_a_change(text: str, lead: str) -> None:
    older = ["I work at Acme."] if text.isascii() else ["我在腾讯上班"]
    assert current_leads(text, older).startswith(lead)


@pytest.mark.parametrize(
    ("text", "older", "query", "lead", "back"),
    [
        # a name the segmenter cuts into a prefix or surname and a word (小 陈, 赵 阿姨)
        ("小陈调走了，现在带我的是老周", ["我师傅是小陈，人很好"], "谁带我？",
         "现在带我的是老周", "小陈调走了"),
        ("赵阿姨回老家了，现在请的是孙阿姨", ["我家请的是赵阿姨"], "我家请的阿姨是谁？",
         "现在请的是孙阿姨", "赵阿姨回老家了"),
    ],
)  # fmt: skip
def test_a_chinese_name_cut_by_the_segmenter_still_names_the_earlier_value(
    text: str, older: list[str], query: str, lead: str, back: str
) -> None:
    assert current_leads(text, older, query) == f"{lead} (on the earlier one: {back})"


@pytest.mark.parametrize(
    ("said", "parts"),
    [
        ("老周被优化了😅 现在孙经理直接管我们", ["老周被优化了😅", "现在孙经理直接管我们"]),
        ("芝麻走了🐹新来的叫汤圆", ["芝麻走了🐹", "新来的叫汤圆"]),
        ("日语放弃了 改学韩语", ["日语放弃了", "改学韩语"]),
        ("I moved 😅 to Porto", ["I moved 😅 to Porto"]),  # a Latin clause stays whole
    ],
)
def test_an_emoji_or_a_space_between_chinese_words_ends_a_clause(
    said: str, parts: list[str]
) -> None:
    assert clauses(said) == parts


def test_the_current_value_leads_a_statement_opening_with_an_emoji_clause() -> None:
    lead = current_leads("老周被优化了😅 现在孙经理直接管我们", ["我们主管是老周。"], "主管是谁？")
    assert lead.index("孙经理") < lead.index("老周")
