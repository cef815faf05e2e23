"""Slots of the user's life said in passing, so a newer value can supersede an older one.

Where the user lives, works, what they do, who their manager is, who a person is to
them, how many of something they have, when an event is and what they plan: each is a
*slot* with one value at a time. People rarely say "I live in X" twice; the new value
comes in passing ("Our new place in Porto has a river view", "搬来深圳第一周",
"Tom took over as my boss", "老三出生了", "答辩提前到2月18号了"). This module reads such
statements, in English and Chinese, as ``fact`` atoms whose key names the slot:

=================  ==========================================================
key                slot
=================  ==========================================================
``location``       the city the user lives in
``employer``       who the user works for
``occupation``     what the user does, or their level
``manager``        who the user reports to
``department``     the team or department the user is in
``role of NAME``   who NAME is to the user
``number of X``    how many X the user has (children, cats, plants, books...)
``date of X``      when event X is (wedding, flight, defence, dentist...)
``plan``           what the user plans to do
=================  ==========================================================

The long-term layers keep one value per slot (see :func:`is_slot_key`): a new value
supersedes the old one, which stays marked as earlier.

Example:
    >>> said = "Last day at Shopify was Friday; I start at Stripe on Monday!"
    >>> [(k, v) for k, v, _ in slots_of(said)]
    [('employer', 'Stripe')]
    >>> [(k, v) for k, v, _ in slots_of("答辩提前到2月18号了，得抓紧。")]
    [('date of 答辩', '2月18号')]
    >>> [(k, v) for k, v, _ in slots_of("Baby number three is here!")]
    [('number of children', 'three')]
"""

from __future__ import annotations

import re
from collections.abc import Callable

from langgraph_memory.core.tokens import is_cjk_text, load_jieba
from langgraph_memory.extraction.changes import CHANGE_KEY, changes_of, ended_value
from langgraph_memory.extraction.clauses import is_question
from langgraph_memory.extraction.cues import Cued, possible
from langgraph_memory.extraction.entities import find_entities, sentence_spans
from langgraph_memory.extraction.events_zh import event_slots
from langgraph_memory.extraction.pronouns import resolved
from langgraph_memory.extraction.rules import PROFILE_KEYS
from langgraph_memory.extraction.whereabouts import not_lived_at
from langgraph_memory.extraction.workplaces import WORKPLACE_KEY, others_clauses, workplace_of

__all__ = [
    "slots_of",
    "about_others",
    "is_slot_key",
    "is_profile_key",
    "is_tentative",
    "names_date",
    "within_clause",
    "names_someone",
    "names_department",
    "event_named",
    "thing_counted",
    "SLOT_KEYS",
    "TENTATIVE",
]

#: The fixed slot keys (``role of``, ``number of`` and ``date of`` keys are open).
SLOT_KEYS = frozenset(
    {"location", "employer", "occupation", "manager", "department", "plan", CHANGE_KEY}
)
_OPEN = (
    "role of ", "number of ", "date of ", "age of ",
    "role_of_", "number_of_", "date_of_", "age_of_",
)  # fmt: skip


def is_slot_key(key: str) -> bool:
    """Whether a fact key names a slot with one value at a time.

    Example:
        >>> is_slot_key("number of cats"), is_slot_key("date_of_wedding"), is_slot_key("likes")
        (True, True, False)
    """
    k = key.strip().lower()
    return k in SLOT_KEYS or k.startswith(_OPEN)


def is_profile_key(key: str) -> bool:
    """Whether a fact with this key describes the user (and belongs in the profile): one
    of :data:`~langgraph_memory.extraction.rules.PROFILE_KEYS`, or a slot of their life.

    Example:
        >>> is_profile_key("location"), is_profile_key("number of cats"), is_profile_key("note")
        (True, True, False)
    """
    return key in PROFILE_KEYS or is_slot_key(key)


Slot = tuple[str, str, int]  # (key, value, offset in the text)

# -- shared lexicons ----------------------------------------------------------------------------
_NUM_EN = (
    r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
    r"fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|a dozen|dozen)"
)
_NUM_ZH = r"(?:[0-9]+|[一二两三四五六七八九十百]+)"
_NUM_BIG = r"(?:[0-9]+(?:\.[0-9]+)?|[一二两三四五六七八九十百千]+)[万千wWkK]?"
#: What is counted, by its kind: the key of a count ("number of children").
_COUNTED = [
    (
        r"kids?|child(?:ren)?|bab(?:y|ies)|sons?|daughters?|孩子|小孩|娃|宝宝|儿子|女儿|"
        r"老[二三四五]|[二三四]胎|[二三]宝",
        "children",
    ),
    (r"cats?|kittens?|猫咪?", "cats"),
    (r"dogs?|pupp(?:y|ies)|狗狗?", "dogs"),
    (r"plants?|ferns?|succulents?|flowers?|cacti|cactus|pots?|花|多肉|植物|绿植|盆栽|盆", "plants"),
    (r"books?|novels?|titles?|书|\d本$", "books"),
    (r"cars?|车", "cars"),
    (r"bikes?|bicycles?|自行车", "bikes"),
    (
        r"employees|people on (?:my|the) team|reports|direct reports|下属|员工|组员",
        "people on the team",
    ),
    (r"languages?|语言", "languages"),
    (r"followers|subscribers|粉丝|关注者|订阅", "followers"),
    (r"marathons?|马拉松", "marathons"),
]
#: Events a date belongs to, by kind (the key of a date: "date of wedding").
_EVENTS = [
    (r"wedding|婚礼|结婚|办酒", "wedding"),
    (r"flight|fly(?:ing)? out|fly|plane|航班|飞机|机票|起飞", "flight"),
    (r"defen[cs]e|viva|答辩", "答辩"),
    (r"dentist|dental|teeth|牙医|看牙|口腔|(?<![班西])牙(?!买加)", "dentist"),  # (not 西班牙)
    (r"doctor|check-?up|appointment|医生|体检|复查|看病|门诊", "appointment"),
    (r"interview|面试", "interview"),
    (r"exam|test|考试|驾考|科目[一二三四]", "exam"),
    (r"launch|release|ship date|deadline|上线|发布|截止|交付", "launch"),
    (r"meeting|会议|开会|周会|例会", "meeting"),
    (r"party|聚会|派对|生日会", "party"),
    (r"move|moving|搬家|搬(?!砖)|租到|住到|退租|\blease\b", "move"),
    (r"trip|vacation|holiday|旅行|旅游|度假|出差", "trip"),
    (r"surgery|operation|手术", "surgery"),
    (r"concert|show|演唱会|演出", "concert"),
    (r"birthday|生日", "birthday"),
]
_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_DATE_EN = (
    rf"(?:{_MONTH}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}|"
    rf"the\s+\d{{1,2}}(?:st|nd|rd|th)(?:\s+of\s+{_MONTH})?|(?:next\s+|this\s+)?(?:monday|tuesday|wednesday|thursday|friday|"
    r"saturday|sunday)(?:\s+(?:morning|afternoon|evening|at\s+\d{1,2}(?::\d\d)?\s*(?:am|pm)?))?|"
    rf"\d{{1,2}}/\d{{1,2}}(?:/\d{{2,4}})?|\d{{4}}-\d{{2}}-\d{{2}}|next (?:week|month|year)|"
    rf"(?:early|mid|late|end of)\s+{_MONTH})"
)
_DATE_ZH = (
    r"(?:(?:明年|今年|后年|下个?月|这个?月|本月)?(?:[0-9一二三四五六七八九十]{1,2}月"
    r"[0-9一二三四五六七八九十]{1,3}[号日]?|[0-9一二三四五六七八九十]{1,2}号|"
    r"[0-9一二三四五六七八九十]{1,2}月(?:底|初|中|份)?)|"
    r"(?:下下|下|这|本)?(?:周|星期|礼拜)[一二三四五六日天](?:[上下]午|早上|"
    r"晚上)?(?:[0-9一二三四五六七八九十]{1,2}点(?:半)?)?|明天|后天|"
    r"(?:下下|下)个?月|"
    r"(?:下下|下)周|月底|月初|年底|明年|下半年|春节后|国庆后)"
    # a date ends with its suffix or digits: never "6月15" of "6月15号"
    r"(?![号日0-9一二三四五六七八九十])"
)


def _compiled(patterns: list[str], flags: int = 0) -> list[Cued]:
    """The patterns compiled once (each message tries each of them), each behind the gate
    of its own cues (a sentence with none of its words skips it: :mod:`.cues`)."""
    return [Cued(re.compile(p, flags)) for p in patterns]


def _table(table: list[tuple[str, str]]) -> list[tuple[re.Pattern[str], str]]:
    return [(re.compile(rf"(?:{pattern})", re.I), kind) for pattern, kind in table]


_COUNTED_RX = _table(_COUNTED)
_EVENTS_RX = _table(_EVENTS)


def _kind_of(word: str, table: list[tuple[re.Pattern[str], str]]) -> str | None:
    for pattern, kind in table:
        if pattern.search(word):
            return kind
    return None


#: Events named only by their kind ("the appointment"): the sentence may say which.
_GENERIC_EVENTS = frozenset({"appointment", "meeting"})


def _event_of(named: str, text: str) -> str | None:
    """The event a date belongs to: the one ``named`` beside the date, unless that is a
    mere "appointment" and the sentence says which ("Dentist called, the appointment is
    now…": the dentist), so one event keeps one key however it is said."""
    event = _kind_of(named, _EVENTS_RX)
    in_text = _kind_of(text, _EVENTS_RX)
    if event is None or (event in _GENERIC_EVENTS and in_text is not None):
        return in_text
    return event


# -- English ------------------------------------------------------------------------------------
_CAP = r"(?P<v>[A-Z][\w&.'-]*(?:\s+(?:[A-Z][\w&.'-]*|de|da|do|of))*)"
_EN_CITY = [
    rf"\b(?i:new|our|my)\s+(?i:place|flat|apartment|house|home|neighbou?rhood)\s+in\s+{_CAP}",
    rf"\b(?i:greetings|hello|hi|writing)\s+from\s+{_CAP}",
    rf"\b(?i:settled|settling|relocated|relocating|moved|moving|landed|arrived)\s+(?i:in|into|to|"
    rf"down in)\s+{_CAP}",
    rf"\b(?i:live|living|based|staying)\s+in\s+{_CAP}",
    rf"\bI(?:'m| am)\s+(?:(?i:now|currently)\s+)?{_CAP}-based\b",  # "I'm Boston-based"
    rf"\b(?i:home is) (?:now\s+)?{_CAP}",
    rf"\b{_CAP}\s+is (?:home|my home) now\b",
    rf"\b(?i:here in) {_CAP}",
    rf"\b(?i:lease on|signed for|rented|bought|renting)\s+(?i:a|an|the|our|my)\s+"
    rf"(?i:apartment|flat|place|house|condo|room|studio)\s+(?i:in)\s+{_CAP}",
    rf"\b(?i:home in|now in|living in|life in)\s+{_CAP}",
    # a home named by its city: "the last boxes in our Glasgow flat"
    rf"\b(?i:our|my)\s+(?i:new\s+)?{_CAP}\s+(?i:flat|apartment|place|house|home|condo|studio)\b",
    rf"\b(?i:back in)\s+{_CAP}(?=[^.!?]{{0,60}}\b(?i:home|for good|moved|settled|now)\b)",
    rf"\b(?i:in)\s+{_CAP}\s+(?i:now|these days|for good)\b",
    # a move said by its chores: "Unpacking the last boxes in Galway", "lease in Seattle"
    rf"\b(?i:unpacking|unpacked|boxes|movers|lease|leased|house-?hunting|flat-?hunting|"
    rf"commute from|new neighbou?rs)\b[^.;!?]{{0,30}}?\b(?i:in|from)\s+{_CAP}",
]
_EN_EMPLOYER = [
    rf"\b(?i:start|started|starting|begin|began|joined|joining|join)\s+(?:at|with)?\s*{_CAP}",
    rf"\b(?i:job|position|role|offer|gig|internship)\s+(?:at|with)\s+{_CAP}",
    rf"\b(?i:work|working|worked)\s+(?:at|for)\s+{_CAP}",
    rf"\b(?i:hired by|employed by|signed with|offer from|contract with)\s+{_CAP}",
    rf"\b(?i:first|last)\s+(?:day|week)\s+at\s+{_CAP}",
    rf"\b(?i:our|my)\s+(?i:company|startup|firm|employer)\s+(?i:is\s+called|is\s+named)\s+{_CAP}",
    # "Our company is Acme Corp.": a name, never "is great" / "is hiring" (lower case)
    rf"\b(?i:our|my)\s+(?i:new\s+)?(?i:company|startup|firm|employer)\s+(?i:is|'s)\s+(?i:now\s+)?{_CAP}",
    rf"\b[Mm]y\s+{_CAP}\s+(?:badge|laptop|email|account|onboarding|contract|offer|team)",
    rf"\b{_CAP}'s\s+(?:cafeteria|canteen|office|campus|perks?|onboarding|HR)\b(?=.*\b(?:job|work|"
    rf"team|"
    r"colleagues|coworkers|perk)\b)",
]
#: Talk of a job, and "now at X": together, where the user works now.
_EN_WORK_TALK = Cued(
    re.compile(
        r"\b(?:jobs?|work(?:ing)?|employer|company|firm|role|position|hired|joined|switched|"
        r"offer|colleagues|office|team)\b",
        re.I,
    )
)
_EN_NOW_AT = (
    rf"\b(?:(?i:currently|now|these days|nowadays)|I'm|I am|I'm now|I am now)\s+(?i:at|with)\s+"
    rf"{_CAP}"
)
_EN_NOW_AT_RX = Cued(re.compile(_EN_NOW_AT))
_EN_FREELANCE = Cued(
    re.compile(
        r"\bI(?:'m| am)\s+(?:now\s+)?(?P<v>freelance|self-employed|a freelancer|unemployed)\b", re.I
    )
)
_EN_JOB = [
    r"\b(?:now that|since)\s+I(?:'m| am)\s+an?\s+(?P<v>[\w -]{3,40}?)(?=\s+(?:at|in|for|with)\b|"
    r"[,.;!]|$)",
    r"\bI(?:'m| am)\s+(?:now\s+)?(?:an?\s+)?(?P<v>(?:[\w-]+\s+){0,3}(?:teacher|developer|engineer|"
    r"designer|"
    r"analyst|manager|nurse|doctor|lawyer|accountant|consultant|scientist|researcher|writer|"
    r"student|intern|architect|chef|pharmacist|professor|lead|director|programmer|"
    r"administrator|officer|technician|editor|producer|salesperson|recruiter))\b",
    r"\b(?:made(?:\s+me)?|became|got promoted to|promoted to|now a|stepped up to|"
    r"moved up to)\s+(?P<v>(?:a\s+|an\s+)?"
    r"(?:senior|junior|lead|principal|staff|head|chief|manager|director|partner|associate|vp|"
    r"[\w-]+\s+(?:lead|manager|director|engineer|developer))"
    r"(?:\s+(?!(?:as|of|at|for|in|so|and|now|on|this|today)\b)[\w-]+)?)",
    r"\b(?:work|working)\s+as\s+(?:an?\s+)?(?P<v>[\w -]{3,30}?)(?=[,.;!]|\s+(?:at|in|for)\b|$)",
    r"\b(?:being|becoming|retrained as|trained as)\s+an?\s+(?P<v>(?:[\w-]+\s+){0,3}(?:teacher|"
    r"developer|engineer|designer|analyst|manager|nurse|doctor|lawyer|accountant|consultant|"
    r"scientist|researcher|writer|architect|chef|pharmacist|professor|programmer|editor|"
    r"producer|recruiter|postdoc|tester|coach|trainer))\b",
    r"\b(?:job|role|position|career)\s+as\s+(?:an?\s+)?(?P<v>[\w -]{3,30}?)(?=[,.;!]|\s+(?:at|in|"
    r"for|today|now)\b|$)",
    r"\bI(?:'ve| have)\s+been\s+an?\s+(?P<v>[\w -]{3,30}?)\s+for\b",
    r"\b(?:now|these days)\s+I\s+(?P<v>(?:teach|coach|tutor|write|design|code|nurse|"
    r"manage)\s+[\w -]{2,30}?)"
    r"(?=[,.;!]|\s+(?:full|part)[- ]time\b|$)",
]
#: "my team is Payments", "our department is Risk": the user's team, named.
_EN_DEPARTMENT = [
    rf"\b(?i:our|my)\s+(?i:new\s+)?(?i:team|department|dept|division|squad|group)\s+(?i:is|'s)\s+"
    rf"(?i:now\s+)?(?:the\s+)?{_CAP}",
    rf"\bI(?:'m| am)\s+(?i:now\s+)?(?i:on|in)\s+the\s+{_CAP}\s+(?i:team|department|dept|division|"
    rf"squad|group)\b",
]
#: What a possessive copula says of a boss or a company that names no one: "my boss is
#: annoying", "my company is great".
_NOT_NAMED = re.compile(
    r"(?:a|an|the|so|very|really|pretty|super|quite|too|not|never|always|kind|nice|great|good|"
    r"bad|cool|awesome|amazing|terrible|awful|horrible|strict|chill|lazy|crazy|busy|away|out|"
    r"off|sick|late|new|mean|fine|ok|okay|fair|smart|young|old|tough|nuts|hiring|remote|hybrid|"
    r"small|big|huge|tiny|here|there|back|gone|leaving|great|best|worst|the best|the worst|"
    r"[\w'-]+(?:ing|ed|'d|ful|ous|ive|able|ible|ic|less|ish))[.!]*",
    re.I,
)
#: How a description, not a name, opens: "so strict", "a nightmare", "kind of a jerk".
_NOT_NAMED_LEAD = re.compile(
    r"(?:so|very|really|pretty|super|quite|too|not|never|always|kind of|sort of|a bit|a|an|such|"
    r"the best|the worst)\s",
    re.I,
)
_EN_MANAGER = [
    r"\b[Mm]y\s+(?:new\s+)?(?:manager|boss|supervisor|team lead|lead|line manager)\s*(?:is|,|"
    r":)\s*(?:now\s+)?"
    r"(?P<v>(?:(?:Dr|Mr|Mrs|Ms)\.?\s+)?[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)",
    r"\b(?P<v>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)\s+(?:is|became|took over as|is now|has become|"
    r"will be|'ll be|is going to be|"
    r"stepped "
    r"in as)\s+my\s+(?:new\s+)?(?:manager|boss|supervisor|team lead|lead|line manager)",
    r"\bI(?:'m| am)?\s+(?:now\s+)?(?:report(?:ing)?|answer(?:ing)?)\s+to\s+"
    r"(?P<v>(?:(?:Dr|Mr|Mrs|Ms)\.?\s+)?[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)",
    r"\b[Tt]he new\s+(?:head of (?:the\s+)?department|manager|boss|supervisor|team lead|lead|"
    r"director),?\s+"
    r"(?P<v>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)",
    r"\b[Mm]y\s+(?:manager|boss|supervisor|team lead)\s+(?P<v>[A-Z][\w'-]+)",
    r"(?:^|[.;,]\s*|\b(?:now|I'm|I am)\s+)(?i:reporting|report)\s+(?i:directly\s+)?(?i:to)\s+"
    r"(?P<v>(?:(?:Dr|Mr|Mrs|Ms)\.?\s+)?[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)",
    r"\b(?P<v>[A-Z][\w'-]+)'s\s+(?:now\s+)?my\s+(?:new\s+)?(?:manager|boss|supervisor|team lead|"
    r"line manager)\b",
    r"\bI(?:'m| am)\s+(?:now\s+)?(?:under|working under|on)\s+(?P<v>[A-Z][\w'-]+)(?:'s team)?\b",
    # "I do my 1:1s with Greg now": whom the user's one-on-ones are with
    r"\b(?:my\s+)?(?:1:1s?|one-on-ones?|1-on-1s?)\s+(?:are\s+|is\s+)?(?:now\s+)?with\s+"
    r"(?P<v>[A-Z][\w'-]+)",
    # who runs the user's group: "Daniel is running our group now"
    r"\b(?P<v>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)\s+(?:is\s+(?:now\s+)?(?:running|leading|heading)|"
    r"runs|leads|heads|took over)\s+(?:our|my)\s+(?:group|team|department|squad|unit|org)\b",
    # "my boss is kevin": a name in lower case, one word ending its clause
    r"\b(?i:my|our)\s+(?i:new\s+)?(?i:manager|boss|supervisor|team lead|line manager)\s+"
    r"(?i:is|'s)\s+(?i:now\s+)?(?P<v>[a-z][a-z'-]+)(?=\s*(?:[,.;!]|$)|\s+(?:now|and|but|so)\b)",
]
_EN_ROLE = [
    r"\b[Mm]y\s+(?P<v>[\w -]{2,20}?)'s\s+name\s+is\s+(?P<who>[A-Z][\w'-]+)",
    r"\b(?P<who>[A-Z][\w'-]+)\b[^.;!?]{0,60}?\b(?:she|he|they)(?:'s|'re| is| are)\s+(?:now\s+|"
    r"just\s+|only\s+)*"
    r"(?:an?|my)\s+(?:new\s+)?(?P<v>[\w -]{2,30}?)(?:\s+now)?(?=[,.;!]|$|\s+(?:on|at|in|for)\b)",
    r"\b(?P<who>[A-Z][\w'-]+)\s+(?:and I|& I)\s+are\s+(?:now\s+)?(?P<v>roommates|flatmates|"
    r"housemates|engaged|married|dating|colleagues|co-?workers|co-?founders|business partners|"
    r"partners|neighbou?rs|teammates|exes|friends)\b",
    r"\b(?P<who>[A-Z][\w'-]+)\s+(?:got promoted|was promoted|moved up|stepped up|went from "
    r"[\w -]{2,30}? )\s*(?:to|into)\s+(?:an?\s+|my\s+)?(?P<v>[\w -]{2,30}?)"
    r"(?=[,.;!]|$|\s+(?:on|at|in|for)\b)",
    r"\b(?P<who>[A-Z][\w'-]+)\s+(?:became|has become|is now)\s+(?:an?|my|our)\s+(?:new\s+)?"
    r"(?P<v>[\w -]{2,30}?)(?=[,.;!]|$|\s+(?:on|at|in|for)\b)",
    r"\b(?P<who>[A-Z][\w'-]+)\s+is\s+(?:now\s+)?my\s+(?:new\s+)?(?P<v>[\w -]{2,30}?)(?:\s+now)?"
    r"(?=[,.;!]|$|\s+(?:on|at|in|for)\b)",
    r"\b(?P<who>[A-Z][\w'-]+)\b[^.;!?]{0,60}?\b(?:she|he|they)(?:'s|'re| is|"
    r" are)\s+(?:now\s+)?my\s+"
    r"(?:new\s+)?(?P<v>[\w -]{2,30}?)(?:\s+now)?(?=[,.;!]|$|\s+(?:on|at|in|for)\b)",
]
#: Who someone can be to the user.
_ROLE_WORDS = re.compile(
    r"(?:new\s+)?(?:assistant|co-?lead|colleague|co-?worker|partner|manager|boss|roommate|flatmate|"
    r"housemate|neighbou?r|landlord|landlady|tenant|doctor|dentist|therapist|teacher|tutor|"
    r"mentor|coach|student|intern|client|report|direct report|deputy|lead|team lead|friend|"
    r"best friend|ex|fianc[ée]e?|bestie|buddy|classmate|teammate|co-?founder|business partner|"
    r"accountant|lawyer|trainer|supervisor|advisor|adviser|wife|husband|girlfriend|boyfriend|"
    r"sister|brother|cousin|aunt|uncle|mom|dad|mother|father|son|daughter|nanny|babysitter|"
    r"employee|employer|editor|agent|secretary)",
    re.I,
)
#: A job or an employer that ended: "Lost my job at Door Dash", "I used to work for…".
_EN_JOB_ENDED = Cued(
    re.compile(
        r"\b(?:lost my job|laid off|fired|quit my job|left my job|used to|former|ex-|years ago|"
        r"back when|when I was)\b",
        re.I,
    )
)
_EN_COUNT = [
    rf"\b(?:I|we|We)(?:'ve| have)?\s+(?:got|have|own|read|finished|adopted|raised|rescued|"
    rf"took in)\s+"
    rf"(?P<v>{_NUM_EN}|a second|a third|a fourth|a fifth|another|an?)\s+(?:more\s+)?(?P<n>[a-z]+)",
    rf"\b(?P<n>[a-z]+)\s+number\s+(?P<v>{_NUM_EN})\b",
    rf"\b(?:number|no\.)\s+(?P<v>{_NUM_EN})\s+(?P<n>[a-z]+)",
    rf"\b(?:is|are|at|up to|now)\s+(?:at\s+)?(?P<v>{_NUM_EN})\s+(?:now|total|in total)\b",
    rf"\b(?P<v>{_NUM_EN})\s+(?P<n>[a-z]+)\s+(?:now|in total|total|altogether)\b",
    rf"\b(?P<v>{_NUM_EN})\s+(?P<n>[a-z]+)\s+on my\b",
    rf"\b(?:up to|now at|at|now have|now got)\s+(?P<v>{_NUM_EN})\s+(?P<n>[a-z]+)",
    # how many so far: "I've done five so far", "finished my sixth marathon"
    rf"\b(?:done|run|read|finished|completed|visited|climbed|written)\s+(?P<v>{_NUM_EN})\s+"
    r"(?:(?P<n>[a-z]+)\s+)?(?:so far|in total|total|already|now)\b",
    r"\bmy\s+(?P<v>second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|"
    r"\d+(?:st|nd|rd|th))\s+(?P<n>[a-z]+(?:\s+[a-z]+)?)",
]
#: "We launch the app on September 5": the date of what the user does, by its verb.
_EN_DATE_DOING = Cued(
    re.compile(
        rf"\b(?:we|I)(?:'re|'m| are| am)?\s+(?P<e>launch(?:ing)?|ship(?:ping)?|releas(?:e|ing)|"
        rf"fly(?:ing)?|mov(?:e|ing)|(?:get|getting) married)\b[^.;!?]{{0,25}}?\b(?:on|for)\s+"
        rf"(?P<v>{_DATE_EN})",
        re.I,
    )
)
_EN_DATE_SET = Cued(
    re.compile(
        rf"\b(?:the|my|our)?\s*(?P<e>[\w ]{{2,30}}?)\s+(?:is|was|'s)\s+(?:now\s+)?(?:on|for|"
        rf"scheduled for|set for|planned for|booked for)\s+(?P<v>{_DATE_EN})"
        # "the appointment is now March 10": a bare date once "now" says it changed
        rf"|\b(?:the|my|our)?\s*(?P<e2>[\w ]{{2,30}}?)\s+(?:is|'s)\s+now\s+(?P<v2>{_DATE_EN})",
        re.I,
    )
)
_EN_DATE_MOVED = Cued(
    re.compile(
        rf"\b(?:pushed|moved|postponed|rescheduled|delayed|bumped|brought|shifted|rebooked|changed|"
        rf"slipped|slips|slid|pulled|got pushed|was moved|is now|shifts|pushes|"
        rf"moves(?!\s+(?:in|out)\b))"
        rf"(?P<e>[\w ]{{0,40}}?)\s+(?:back\s+|forward\s+|up\s+)?(?:to|until|for)\s+"
        rf"(?P<v>{_DATE_EN})",
        re.I,
    )
)
_EN_DATE_NOW = Cued(
    re.compile(
        rf"\b(?P<e>fly|flying|fly out|leave|leaving)\b[^.;!?]{{0,20}}?\bon\s+(?P<v>{_DATE_EN})",
        re.I,
    )
)
#: When a trip is to be: "in May", "next week", "tomorrow", "on Friday", "for two weeks".
_EN_WHEN = (
    rf"(?:in\s+(?:{_MONTH}|(?:a|two|three|a few|\d+)\s+(?:days?|weeks?|months?))|"
    r"next\s+(?:week|weekend|month|year|summer|winter|spring|fall|autumn|\w+day)|"
    r"this\s+(?:weekend|summer|winter|spring|fall|autumn|\w+day)|tomorrow|tonight|soon|"
    r"on\s+\w+day|for\s+(?:a|two|three|a few|\d+)\s+(?:days?|weeks?|months?)|"
    r"over\s+the\s+(?:holidays|summer|break|weekend))"
)
#: A trip or a move to come, said by its movement: "I'm going to Japan in May", "I'll fly to
#: Rome next week", "We're heading back to Lisbon on Friday".
_EN_TRIP = (
    r"(?:going|heading|flying|travell?ing|driving|moving|off|going back|heading back|"
    r"flying back)\s+(?:back\s+)?to\s+(?-i:[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*)"
)
_EN_PLAN = [
    rf"\b(?:I'm|I am|we're|we are)\s+(?P<v>{_EN_TRIP}\s+{_EN_WHEN})",
    rf"\b(?:I'll|I will|we'll|we will|I'm gonna|we're gonna)\s+(?:be\s+)?"
    rf"(?P<v>(?:go|fly|head|travel|drive|going|flying|heading|travell?ing)\s+(?:back\s+)?to\s+"
    rf"(?-i:[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*)(?:\s+{_EN_WHEN})?)",
    r"\b(?:change of plans?|plans? changed|new plan)\b[,:;.!\s-]*(?:we(?:'re| are)|I(?:'m| am)|"
    r"we'll|I'll)?\s*"
    r"(?:now\s+)?(?:going to\s+|gonna\s+)?(?P<v>[^.;!?]{3,80}?)(?:\s+instead)?(?=[.;!?]|$)",
    r"(?:^|\b(?:I'm|I am|we're|we are|I|we)\s+)(?:planning|plan|planned|hoping)\s+to\s+"
    r"(?P<v>[^.;!?,]{3,60}?)(?=\s+(?:this|next|on)\s+(?:weekend|week|saturday|sunday|month|"
    r"summer)|[.;!?,]|$)",
    r"\b(?:I'm|I am|we're|we are)\s+going\s+to\s+(?P<v>[^.;!?,]{3,60}?)(?=\s+(?:this|next|on)\s+"
    r"(?:weekend|week|saturday|sunday|month|summer|winter|spring|fall|autumn|year|holiday)\b)",
    r"\b(?:we(?:'re| are)|I(?:'m| am))\s+(?P<v>[a-z]+ing\s+[^.;!?,]{3,60}?)\s+instead\b",
    r"\b(?:this|next)\s+(?:weekend|summer|winter|spring|fall|autumn|month|week|year|"
    r"holiday)\s*,?\s*"
    r"(?:we(?:'re| are)|I(?:'m| am))\s+(?:going\s+|heading\s+|"
    r"off\s+)?(?P<v>[^.;!?,]{3,60}?)(?=[.;!?,]|$)",
    r"\b(?:thinking of|considering|hoping to)\s+(?P<v>[a-z]+ing\s+[^.;!?,]{3,60}?)(?=[.;!?,]|$)",
    # "decided to fly instead", "we'll just stay home instead"
    r"\b(?:decided to|ended up|we'll|I'll|we will|I will|gonna|going to)\s+(?:just\s+)?"
    r"(?P<v>[a-z][^.;!?,]{3,60}?)\s+instead\b",
    r"\binstead(?:\s+of\s+[^,.;!?]{2,40})?,\s*(?:we|I)(?:'re|'ll|'m| are| will| am)?\s+"
    r"(?:now\s+)?(?:going\s+to\s+|gonna\s+)?(?P<v>[a-z][^.;!?,]{3,60}?)(?=[.;!?,]|$)",
    r"\b(?:scrapped|scrapping|cancelled|canceled|ditched|dropped|called off)\b"
    r"[^.;!?]{0,40}?[,;-]+\s*"
    r"(?:so\s+)?(?:we|I)(?:'re|'ll|'m| are| will| am)\s+(?:now\s+)?(?:going\s+to\s+)?"
    r"(?P<v>[a-z][^.;!?,]{3,60}?)(?=[.;!?,]|$)",
]


_EN_TIME_TAIL = re.compile(
    r"(?:\s+(?:last|this|next)\s+(?:week|month|year|weekend|\w+day)|\s+(?:yesterday|today|tonight|"
    r"now|already|again|finally|at last|lol|haha|these days|nowadays|currently|at the moment|"
    r"for now)|\s+(?:last|this|next))+$",
    re.I,
)

_EN_CITY_RX = _compiled(_EN_CITY)
_EN_EMPLOYER_RX = _compiled(_EN_EMPLOYER)
_EN_JOB_RX = _compiled(_EN_JOB, re.I)
_EN_MANAGER_RX = _compiled(_EN_MANAGER)
_EN_DEPARTMENT_RX = _compiled(_EN_DEPARTMENT)
_EN_ROLE_RX = _compiled(_EN_ROLE)
_EN_COUNT_RX = _compiled(_EN_COUNT, re.I)
_EN_PLAN_RX = _compiled(_EN_PLAN, re.I)


def _en(text: str) -> list[Slot]:
    out: list[Slot] = []

    def add(key: str, value: str, at: int) -> None:
        value = _EN_TIME_TAIL.sub("", within_clause(value.strip(" ,.;:!'\""))).strip(" ,")
        if value and not any(k == key for k, _, _ in out):
            out.append((key, value, at))

    lives = _first(text, _EN_CITY_RX)
    if lives and not_lived_at(text, lives[1]):
        lives = None  # "moving to Denver next month", "I used to live in Rome", "went to Paris"
    if lives and re.fullmatch(
        rf"{_MONTH}|(?:mon|tues|wednes|thurs|fri|satur|sun)day", lives[0], re.I
    ):
        lives = None  # "moved to Thursday": a date
    if lives:
        add("location", lives[0], lives[1])
    ended = _EN_JOB_ENDED.search(text)
    free = _EN_FREELANCE.search(text)
    works = _last(text, _EN_EMPLOYER_RX)  # "Last day at Shopify… I start at Stripe": the latter
    if works is None and _EN_WORK_TALK.search(text):  # "switched jobs, currently at KPMG"
        works = _last(text, [_EN_NOW_AT_RX])
    if ended:
        works = None
    if works and _NOT_NAMED.fullmatch(works[0]):
        works = None  # "Our company is Hiring": no name
    if works and not re.match(r"(?:I|The|My|We|Monday|Friday|Today)$", works[0]):
        add("employer", works[0], works[1])
    elif free and not ended:
        add("employer", free["v"].replace("a freelancer", "freelance"), free.start("v"))
    job = None if ended else _first(text, _EN_JOB_RX)
    if job:
        add("occupation", re.sub(r"^(?:a|an)\s+", "", job[0], flags=re.I), job[1])
    boss = _last(text, _EN_MANAGER_RX, lambda m: not _NOT_NAMED.fullmatch(m["v"]))
    if boss:
        add("manager", boss[0], boss[1])
    team = _last(text, _EN_DEPARTMENT_RX, lambda m: not _NOT_NAMED.fullmatch(m["v"]))
    if team:
        add("department", team[0], team[1])
    for pattern in _EN_ROLE_RX:
        m = pattern.search(text)
        said_role = m["v"].strip() if m else ""
        if m and not (
            _ROLE_WORDS.fullmatch(said_role)
            or _ROLE_WORDS.fullmatch(said_role[:-1])  # "roommates"
            or said_role.lower() in ("engaged", "married", "dating")
        ):
            continue  # "Dance is my passion", "Iron Man is my top pick": no one
        if m and not re.match(r"(?:manager|boss|supervisor|lead)$", m["v"].strip(), re.I):
            if m["who"] not in ("I", "It", "This", "That", "He", "She", "They", "There"):
                add(f"role of {m['who']}", m["v"], m.start("v"))
                break
    counts = []
    for pattern in _EN_COUNT_RX:
        for m in pattern.finditer(text):  # "adopted another dog, so now we have three"
            noun = m.groupdict().get("n") or ""
            kind = _kind_of(noun, _COUNTED_RX) if noun else _kind_of(text, _COUNTED_RX)
            if kind:
                counts.append((kind, m["v"], m.start("v")))
    # a number said outright ("three cats now") beats one implied ("another kitten"), and
    # a later one an earlier one ("two more, so five now")
    counts.sort(key=lambda c: (not re.fullmatch(_NUM_EN, c[1], re.I), -c[2]))
    if counts:
        add(f"number of {counts[0][0]}", counts[0][1], counts[0][2])
    for rx in (_EN_DATE_MOVED, _EN_DATE_SET, _EN_DATE_NOW, _EN_DATE_DOING):
        m = rx.search(text)
        if m is None:
            continue
        at, named = ("v", m["e"]) if m["v"] else ("v2", m["e2"])  # the "is now <date>" form
        event = _event_of(named or "", text)
        if event:
            add(f"date of {event}", m[at], m.start(at))
            break
    plan = _first(text, _EN_PLAN_RX)
    if plan:
        add("plan", re.sub(r"\s+(?:this|next)\s+weekend$", "", plan[0]), plan[1])
    age = _EN_AGE.search(text)
    if age:
        add(f"age of {age['who'].lower()}", age["v"], age.start("v"))
    return out


_KIN_EN = r"(?:son|daughter|kid|baby|boy|girl|dog|cat|puppy|kitten)"
#: How old someone of the user's is: "my daughter is 3 years old", "my son turned 4".
_EN_AGE = Cued(
    re.compile(
        rf"\b[Mm]y\s+(?:little\s+|eldest\s+|youngest\s+)?(?P<who>{_KIN_EN})\b[^.;!?]{{0,20}}?"
        rf"\b(?:is|'s|turned|turns|just turned)\s+(?P<v>{_NUM_EN})"
        r"(?:\s+(?:years?|months?)\s+old)?\b"
    )
)
_ZH_AGE = Cued(
    re.compile(
        r"(?P<who>女儿|儿子|孩子|宝宝|闺女|大宝|二宝|狗狗?|猫咪?)(?:今年|今天|已经|刚)*(?:满了?|过了)?"
        r"(?P<v>[0-9一二两三四五六七八九十]+(?:岁半?|个月))"
    )
)


Keep = Callable[["re.Match[str]"], bool]


def _first(text: str, patterns: list[Cued], keep: Keep | None = None) -> tuple[str, int] | None:
    for pattern in possible(patterns, text):
        for m in pattern.finditer(text):
            if keep is None or keep(m):
                return m["v"], m.start("v")
            # a match ``keep`` turns down: a later one of the same pattern may hold
    return None


def _last(text: str, patterns: list[Cued], keep: Keep | None = None) -> tuple[str, int] | None:
    best: tuple[str, int] | None = None
    for pattern in possible(patterns, text):
        for m in pattern.finditer(text):
            if (best is None or m.start("v") > best[1]) and (keep is None or keep(m)):
                best = (m["v"], m.start("v"))
    return best


#: Words that start a new clause after a value: "住在北京并且在字节上班".
_ZH_NEXT = r"并且|而且|然后|但是|不过|所以|因为|同时|可是"
#: Where a value's clause ends: a conjunction that starts a new verb phrase ("Boston and
#: work at Google", "Stripe but I hate it", "Berlin, which…"; "并且在字节上班", "，然后…"). A
#: value reads up to there, so a slot never holds the next clause.
_CLAUSE_END = re.compile(
    r"\s*[,;]?\s*\b(?i:and|&|or|so|plus|then)\s+(?:(?i:also|then|now|still|just|currently|"
    r"really|even)\s+)*(?:I|I'm|I've|I'd|I'll|we|we're|he|she|they|it|you|my|our|(?:work|works|"
    r"working|worked|live|lives|living|lived|love|loves|like|likes|enjoy|enjoys|hate|"
    r"have|has|had|am|is|are|was|were|do|does|did|go|goes|going|went|move|moved|moving|start|"
    r"started|starting|study|studies|studying|teach|teaches|teaching|commute|commuting|drive|"
    r"drives|run|runs|play|plays|get|gets|got|spend|spends|spent|want|wants|need|needs|miss|"
    r"take|takes|took|report|reports|manage|manages|head|heading|plan|planning|hope|hoping)\b)"
    r"|\s*[,;]?\s*\b(?i:but|which|who|because|although|though|while|whereas|where|yet)\b"
    # a clause with a subject of its own: "Boston and Cambridge is nearby"
    r"|\s*[,;]?\s*\b(?i:and)\s+(?:the\s+)?[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?\s+(?:is|are|was|were|"
    r"has|have|will|would|can|could|isn't|aren't|wasn't)\b"
    rf"|\s*[，,]?\s*(?:{_ZH_NEXT}|并在|并去)"
)


def names_someone(value: str) -> bool:
    """Whether ``value``, what a possessive copula says a boss, a company or a team is,
    names one ("kevin", "Acme Corp", "字节跳动"), not what it is like ("annoying", "great",
    "是个工作狂", "做电商的").

    Example:
        >>> names_someone("kevin"), names_someone("annoying"), names_someone("个工作狂")
        (True, False, False)
    """
    v = value.strip()
    return (
        bool(v)
        and not _NOT_NAMED.fullmatch(v)
        and not _NOT_NAMED_LEAD.match(v)
        and not _ZH_NOT_NAMED.match(v)
    )


def names_department(value: str) -> bool:
    """Whether ``value`` names a department or team ("用户增长部", "推荐组"), not a
    direction, a part of the body or a club ("东北部", "俱乐部").

    Example:
        >>> names_department("用户增长部"), names_department("俱乐部"), names_department("字节")
        (True, False, False)
    """
    return bool(_ZH_DEPARTMENT_END.search(value)) and not _ZH_NOT_DEPARTMENT.search(value)


def within_clause(value: str) -> str:
    """``value`` up to where its clause ends (:data:`_CLAUSE_END`).

    Example:
        >>> within_clause("Boston and work at Google"), within_clause("北京并且在字节上班")
        ('Boston', '北京')
        >>> within_clause("Boston and Cambridge"), within_clause("salt and pepper")
        ('Boston and Cambridge', 'salt and pepper')
    """
    m = _CLAUSE_END.search(value)
    return value[: m.start()].rstrip(" ,，;") if m and m.start() > 0 else value


# -- Chinese ------------------------------------------------------------------------------------
_ZPLACE = r"(?P<v>[\u4e00-\u9fff]{2,5}?)"
_ZH_CITY = [
    r"(?P<verb>住在|定居在?|安家在|落户)"
    + _ZPLACE
    + rf"(?=[，,。！!；;了\s]|$|这边|那边|的|{_ZH_NEXT})",
    r"(?P<verb>搬来|搬到|搬去|搬回|回到|回|来到|到了|落脚)"
    + _ZPLACE
    + rf"(?=[，,。！!；;\s]|$|以后|之后|第|了|后|的|这边|那边|定居|生活|安顿|{_ZH_NEXT})",
    r"在" + _ZPLACE + r"(?:安顿|定居|生活|住下|落脚|扎根|租了房|买了房)",
    r"(?:^|[，,。])"
    + _ZPLACE
    + r"这边(?=[^，,。]{0,12}(?:冬天|夏天|天气|气候|房租|空气|下雨|干|冷|热|潮))",
    r"我在" + _ZPLACE + r"住了",
]
#: What a possessive copula of a company or a boss says that names none: "我们公司是做电商的",
#: "我的领导是个工作狂", "我们公司是一家创业公司".
_ZH_NOT_NAMED_WORDS = (
    r"(?:个|一个|一位|一家|一名|家|做|搞|卖|干|在|很|挺|太|非常|比较|特别|超|真|好|不|没|有|最|"
    r"那种|这种|外企|国企|私企|大厂|小厂|创业公司|上市公司)"
)
_ZH_NOT_NAMED = re.compile("^" + _ZH_NOT_NAMED_WORDS)
_ZH_EMPLOYER = [
    r"(?P<verb>入职|加入|跳槽到|跳到|去了|"
    r"进了)(?:了)?(?P<v>[\u4e00-\u9fffA-Za-z]{2,8}?)(?=[，,。！!；;\s]|$|了|啦|工作|上班)",
    r"(?P<v>[\u4e00-\u9fffA-Za-z]{2,6}?)的(?:工牌|offer|Offer|食堂|工位|同事|年终奖|团建|入职|电脑)",
    r"(?:^|[，,])在(?P<v>[\u4e00-\u9fffA-Za-z]{2,6}?)的第一(?:天|周|个月|年)",
    r"新(?:东家|公司|单位)(?:是|叫)?(?P<v>[\u4e00-\u9fffA-Za-z]{2,8}?)(?=[，,。！!；;\s]|$|了|啦)",
    r"我(?:们|的)?(?:公司|单位|创业公司)(?:名字)?叫(?!个|了|人来|人去|人修|我|你|他|她|外卖|车)(?P<v>[\u4e00-\u9fffA-Za-z]{2,8}?)(?=[，,。！!；;\s]|$|了|啦)",
    # "我们公司是字节跳动": a name, not what the company is like or does (_ZH_NOT_NAMED)
    r"我(?:们|的)(?:公司|单位|东家)(?:现在)?是(?!"
    + _ZH_NOT_NAMED_WORDS
    + r")(?P<v>[\u4e00-\u9fffA-Za-z]{2,8}?)(?=[，,。！!；;\s]|$|啦)",
    r"(?:在|去)(?P<v>[\u4e00-\u9fffA-Za-z]{2,6}?)(?:搬砖|打工|上班了|报到)",
    # "我在一家外企，西门子，做工程师": the kind of company, then its name
    r"我(?:现在)?在一家[\u4e00-\u9fff]{1,4}[，,](?P<v>[\u4e00-\u9fffA-Za-z]{2,8}?)[，,]",
    r"(?:我|我现在|我目前|(?:^|[，,])(?:现在|目前|如今)|并且|而且|同时)在(?P<v>[\u4e00-\u9fffA-Za-z]{2,8}?)"
    r"(?:工作|上班|任职|实习|[做当](?=[\u4e00-\u9fff]{2}))",
]
_ZH_JOB = [
    r"我(?:现在)?是(?:一名|一个|个)?(?P<v>(?:初级|中级|高级|资深|首席)?[\u4e00-\u9fffA-Za-z]{0,4}(?:开发|"
    r"工程师|程序员|"
    r"老师|教师|设计师|产品经理|运营|会计|医生|护士|律师|分析师|研究员|经理|总监|实习生|学生))",
    r"(?P<verb>升到|升为|升成|升|当上了?|转成|转为|晋升为?|评上了?|被评为|考上了?|转正为?)(?!职|级|值)(?P<v>(?:初级|中级|高级|资深|"
    r"首席)?[\u4e00-\u9fff]{1,6}?)"
    r"(?=[，,。！!；;\s]|$|了|啦)",
    r"(?:转行|改行)(?:去)?(?:做|当|成了?|干)(?P<v>[\u4e00-\u9fff]{2,6}?)(?=[，,。！!；;\s]|$|了|啦)",
    # "现在做自由撰稿人", "目前当产品经理", "现在全职做自媒体博主", "我在做外卖骑手": what
    # names a trade (…人, …师, …员)
    r"(?:现在|目前|如今|我在|我是)(?:在)?(?:全职|兼职|专职)?(?:做|当|干)(?:了)?(?P<v>[\u4e00-\u9fff]{1,6}?(?:师|员|者|手|家|(?<!手)工|人|练|司机|"
    r"经理|总监|老师|医生|护士|运营|开发|销售|会计|律师|博主|主播|自由职业))(?=[，,。！!；;\s]|$|了|啦)",
    # "普通程序员一枚": a trade said of oneself, by its measure word
    r"(?:^|[，,。！!；;\s])(?:普通|小小|资深|一名|一个)?(?P<v>[\u4e00-\u9fffA-Za-z]{0,4}?(?:师|员|狗|"
    r"经理|总监|运营|开发|销售|会计|律师|博主|主播|学生|研究生|博士))一枚",
]
_ZH_ROLE = [
    r"(?P<who>[\u4e00-\u9fff]{2,3}?)(?:升职|升了|调岗|换岗|转岗)[^。]{0,6}?(?:现在|已经)?(?:是|"
    r"成了|当了)我的?"
    r"(?P<v>[\u4e00-\u9fff]{1,4}?)(?=[，,。！!；;\s]|$|了|啦)",
    r"(?P<who>[\u4e00-\u9fff]{2,3}?)是我的?(?P<v>[\u4e00-\u9fff]{1,4}?)(?=[，,。！!；;\s]|$|了|啦)",
    r"(?P<who>[\u4e00-\u9fff]{2,3}?)(?:现在|已经|如今|也)+(?:是|成了|变成了?|当上了?|升成了?|升为|做了)"
    r"我(?:们)?的?(?P<v>[\u4e00-\u9fff]{1,4}?)(?=[，,。！!；;\s]|$|了|啦)",
    r"(?P<who>[\u4e00-\u9fff]{2,3}?)(?:成了|变成了?|当上了?|升成了?|升为)我(?:们)?的?"
    r"(?P<v>[\u4e00-\u9fff]{1,4}?)(?=[，,。！!；;\s]|$|了|啦)",
]
_ZH_MANAGER = [
    r"我们?(?:的)?(?:新|直属|顶头|直接|现在的|新的)?(?:领导|上级|老板|经理|主管|组长|上司|leader)"
    r"(?:现在)?(?:是|叫|"
    r"换成了?)(?P<v>[\u4e00-\u9fff]{1,4}?)"
    r"(?=[，,。！!；;\s]|$|了|啦)",
    r"(?:现在)?我?归(?P<v>[\u4e00-\u9fff]{1,4}?)管",
    r"(?:现在|目前|以后)?(?:我|我们)?(?:直接)?(?:向|跟|给)(?P<v>[\u4e00-\u9fff]{1,4}?)(?:汇报|报告)",
    r"(?:现在)?带我的(?:人|领导)?(?:是|换成了?|变成了?)(?P<v>[\u4e00-\u9fff]{1,4}?)(?=[，,。！!；;\s]|$|了|啦)",
    r"(?:领导|上级|老板|经理|主管|组长|上司|leader)(?:换成了?|变成了?|换了?(?:个|一个)?人?[，,]?"
    r"(?:是|叫)?)(?P<v>[\u4e00-\u9fff]{2,4}?)(?=[，,。！!；;\s]|$|了|啦)",
    r"(?P<v>[\u4e00-\u9fff]{2,4}?)(?:成了|是|当了|接任)我(?:的)?(?:新)?(?:领导|上级|老板|经理|主管|"
    r"组长|上司)",
    r"(?:新来的|新)(?:领导|上级|老板|经理|主管|组长|上司)(?:是)?(?P<v>[\u4e00-\u9fff]{2,3})"
    r"(?=[，,。！!；;\s]|$|了|啦)",
    r"(?:领导|上级|老板|经理|主管|组长|上司)(?:换成了?|变成了?)?(?:姓|"
    r"叫)(?P<v>[\u4e00-\u9fff]{1,3}?)(?=[，,。！!；;\s]|$|了)",
]
#: "我在用户增长部", "我现在在推荐组": the user's department or team.
_ZH_DEPARTMENT = Cued(
    re.compile(
        r"我(?:现在|目前|已经)?(?:调到了?|转到了?|在|去了)(?P<v>[\u4e00-\u9fffA-Za-z]{2,8}?"
        r"(?:事业部|部门|部|组|团队))(?=[，,。！!；;\s]|$|了|啦|工作|上班|做|当|干|实习)"
    )
)
#: What a department is not: a direction, a part of the body, a club, a part or a whole
#: ("东北部", "腹部", "俱乐部", "内部"), a group around a teacher ("李老师组").
_ZH_NOT_DEPARTMENT = re.compile(
    r"^(?:[东西南北中]|东北|西北|东南|西南|华东|华南|华北|华中|内|外|全|头|腹|背|腿|脸|底|顶|局|"
    r"一|这个|那个|哪个)(?:部|组)$|俱乐部|老师|教授|小组$"
)
_ZH_COUNT = [
    rf"(?:我家|我们家|家里|我)(?:有|养了|养着|一共|现在)?(?P<v>{_NUM_ZH}[只个盆本辆条位名棵])"
    rf"(?P<n>[\u4e00-\u9fff]{{1,3}})",
    rf"(?:一共|总共|现在|目前|共)(?:有|是|养了|"
    rf"种了)?(?P<v>{_NUM_ZH}[只个盆本辆条位名棵])(?P<n>[\u4e00-\u9fff]{{0,3}})",
    rf"(?:养了|有|种了|生了|读了|看了|"
    rf"买了)(?P<v>{_NUM_ZH}[只个盆本辆条位名棵])(?P<n>[\u4e00-\u9fff]{{1,3}})",
    # "第三个孩子", not "第4次" (the fourth time: a count of nothing the user has)
    rf"(?P<v>第{_NUM_ZH}(?![0-9一二两三四五六七八九十百]*[次遍回趟])(?:[只个盆本辆条位名棵]|(?![只个盆本辆条位名棵])))"
    rf"(?P<n>[\u4e00-\u9fff]{{1,3}})",
    r"(?P<v>老[二三四五六]|[二三四]胎|[二三]宝)(?:出生|来了|生了|落地|报到)",
    # "刚看完第15本": an ordinal with its measure word counts what the measure counts
    rf"(?P<v>第{_NUM_ZH}[本辆])(?P<n>)(?=[，,。！!；;\s]|$|了)",
    # "才3000个粉丝", "粉丝直接涨到1万了": an audience, counted by thousands
    rf"(?P<v>{_NUM_BIG})个?(?P<n>粉丝|关注者|订阅者?)",
    rf"(?P<n>粉丝|关注者|订阅)数?[^，,。！!]{{0,4}}?(?:涨到了?|达到了?|破了?|到了|变成了?|有)"
    rf"(?P<v>{_NUM_BIG})",
]
_ZH_DATE_MOVED = Cued(
    re.compile(
        rf"(?P<e>[\u4e00-\u9fff]{{0,8}}?)(?:改到|改成|改在|挪到|推迟到|推到|延期到|延到|提前到|调到|"
        rf"换到|改签到|改签成)了?(?P<v>{_DATE_ZH})"
    )
)
_ZH_DATE_SET = Cued(
    re.compile(
        rf"(?P<e>[\u4e00-\u9fff]{{1,8}}?)(?:安排在|定在|约在|定于|是在|在|(?<=现在|目前|已经|最后|还是)[定约])(?P<v>{_DATE_ZH})"
        rf"|(?P<v2>{_DATE_ZH})(?:(?P<e2>[\u4e00-\u9fff]{{1,6}})|(?=[，,。！!；;]))"
    )
)
_ZH_PLAN = [
    # a trip to come, said by its movement: "下个月去日本", "五一回老家"
    # (the user's: said with no subject, or with 我/我们 around the time)
    r"(?:^|[，,。！!；;\s]|我们?|我(?:跟|和)[\u4e00-\u9fff]{1,3})(?:今年|明年)?"
    r"(?:下个?月|下周|下星期|明年|明天|后天|这周末|下周末|周末|月底|年底|国庆|春节|五一|十一|暑假|寒假|"
    r"过几天|[0-9一二三四五六七八九十]{1,2}月(?:份|底|初|中)?)(?:我|我们)?(?:要|会|准备|打算|就)?"
    r"(?P<v>(?P<verb>去|回|飞|飞去|出发去)(?![0-9一二两三四五六七八九十几半]+个?(?:天|周|星期|礼拜|月))"
    r"[\u4e00-\u9fff]{2,8}?)"
    r"(?=[，,。！!；;\s]|$|玩|旅游|旅行|出差|度假|看|参加|过年|待)",
    r"(?P<verb>计划|打算|准备|想)(?:这个|下个)?(?:周末|假期|月|明年|今年|年底)?(?P<v>(?:去|回(?![你复答信消电话])|开车|坐|"
    r"带|在家|学(?=[\u4e00-\u9fff]{2})|考(?=[研公编博]))[^，,。！!；;？?]{1,24})",
    r"(?:计划有变|改主意了?|行程有变)[了，,]?\s*(?:改成|改为|改)?(?P<v>[^，,。！!；;？?]{2,24})",
    r"(?:改成|改为|改)(?P<v>去[^，,。！!；;？?]{2,24})",
    r"不[去回][^，,。]{0,10}了[，,]?\s*(?:改|换|还是|直接)?(?:成)?"
    r"(?P<v>(?:去|在|坐|开|带)[^，,。！!；;？?]{2,24})",
    r"(?:决定|最后还是|还是决定)(?P<v>(?:去|在家|坐|开车|带|考(?=[研公编博]))[^，,。！!；;？?]{1,24})",
    r"(?:改成|改为|换成)(?P<v>(?:坐|开车|在家|带|去)[^，,。！!；;？?]{1,20})",
]

_ZH_CITY_RX = _compiled(_ZH_CITY)
_ZH_EMPLOYER_RX = _compiled(_ZH_EMPLOYER)
_ZH_JOB_RX = _compiled(_ZH_JOB)
_ZH_MANAGER_RX = _compiled(_ZH_MANAGER)
_ZH_ROLE_RX = _compiled(_ZH_ROLE)
_ZH_COUNT_RX = _compiled(_ZH_COUNT)
#: A going said in the past of its clause ("去年去了日本", "上个月去了趟成都"): a trip.
_ZH_WENT = re.compile(r"(?:去年|前年|上个?月|上周|上次|那年|以前|之前|小时候)[^，,。！!；;]*去了$")
#: A home said by a thing of it, after its city ("大连新房子", "合肥的住处"); and the words
#: before one that name no city (whose home it is, or which).
_HOME_THING = re.compile(r"的?(?:新)?(?:房子|住处|新家|出租屋|公寓)")
_NOT_HOME_OF = re.compile(
    r"[我你他她们自己家友妈爸哥姐弟妹事板司人的这那个租买卖看旧新老大小了住到搬换去来回]$|"
    r"^[在从把去到回的这那对现]|附近|楼下|对面|隔壁|学校|公司|单位|酒店|宾馆|民宿"
)
_HOME_OF_AFTER = re.compile(r"(?:^|[，,。！!；;\s]|[把从在])$")
_WORK_THING = re.compile(r"的(?:工牌|offer|Offer|食堂|工位|同事|年终奖|团建|入职|电脑)")
_ZH_DEPARTMENT_END = re.compile(r"(?:事业部|部门|部|组|团队)$")
_ZH_PLAN_RX = _compiled(_ZH_PLAN)


#: What no place name holds: a pronoun, a demonstrative, a measure ("回一下这条").
#: A length of time ("一个月", "三年", "半年"): never a place, employer or job.
_ZH_SPAN = re.compile(r"[0-9一二两三四五六七八九十几半多]+个?(?:多)?(?:月|天|年|周|星期|小时|礼拜)")
#: What names a person, a group or a room, never the city the user lives in.
_NOT_CITY = re.compile(
    r"^[不没]|老师|教授|经理|总监|主管|组|部门|科室|实验室|课题|团队|老家|陪|里$|"
    r"医院|公司|集团|大学|学院|银行|中学|小学|研究院|研究所"  # an organisation ("换到了华山医院")
)
#: A negation right before a move ("没回郑州", "不搬去上海了"): no move made.
_NOT_MOVED = re.compile(r"(?:没|没有|不|未|别)(?:再)?[\u4e00-\u9fff]{0,2}$")
#: A kind of place, not the name of an employer ("我在医院当护士", "在网上当博主").
_GENERIC_PLACE = re.compile(
    r"网上|线上|医院|学校|家里|家|公司|工厂|厂里|店里|单位|外面|国外|国内|本地|老家|城里|村里|工地"
)
_NO_PLACE = re.compile(r"^(?:家|公司|单位|学校|一)|这|那|哪|些|我|你|他|她|条|趟|次")


#: Going home, said as one word by the segmenter ("回老家"): a trip of its verb.
_HOMEWARD = ("回老家", "回娘家", "回婆家")


def _word_bounds(text: str) -> set[int]:
    """The offsets in ``text`` where a word starts or ends, by jieba's segmentation."""
    import jieba

    load_jieba()
    bounds, at = {0}, 0
    for word in jieba.cut(text, HMM=False):
        at += len(word)
        bounds.add(at)
    return bounds


def _zh(text: str) -> list[Slot]:
    out: list[Slot] = []

    def add(key: str, value: str, at: int) -> None:
        value = re.sub(
            r"^(?:今天|昨天|前天|刚刚|刚|终于|已经|正式)*(?:领了|拿到了?|收到了?|签了|去了)?",
            "",
            within_clause(value.strip()),
        )
        value = re.sub(r"^(?:[拿收领签]?到了|了|在|的)|(?:了|啦|的|吧)$", "", value)
        value = re.sub(r"(?:现在|已经|如今|目前|也|又)+$", "", value)  # "小王现在是我老板"
        if _ZH_SPAN.fullmatch(value) and not key.startswith(("date", "number", "age")):
            return  # "入职一个月了": how long, not where
        if key == "location":  # "到了厦门才发现…": the place, not what was found there
            value = re.split(r"才|就|发现|以后|之后|这边|那边|也", value)[0]
            if _NOT_CITY.search(value):  # "转到了李老师组里": a group, not a city
                return
        if value and not any(k == key for k, _, _ in out):
            out.append((key, value, at))

    found: list[set[str]] = []

    def places() -> set[str]:
        """The places named in ``text``, found when first asked: the entity pass runs
        jieba's part-of-speech tagger, and most messages never need it here."""
        if not found:
            found.append({name for _, name, kind in find_entities(text) if kind == "place"})
        return found[0]

    words: list[set[int]] = []

    def whole(m: re.Match[str]) -> bool:
        """Whether the verb of ``m`` is a word of its own, not a part of a longer one
        ("回答", "回复", "想到了", "过去了", "去年": no "回"/"到了"/"去了" of a move), by
        jieba's segmentation of ``text`` (cut when first asked)."""
        if "verb" not in m.re.groupindex or m.group("verb") is None:
            return True
        if not words:
            words.append(_word_bounds(text))
        return m.start("verb") in words[0] and m.end("verb") in words[0]

    def homeward(m: re.Match[str]) -> bool:
        """:func:`whole`, or a trip home the segmenter keeps as one word ("五一回老家")."""
        if "verb" in m.re.groupindex and text.startswith(_HOMEWARD, m.start("verb") or 0):
            return whole(m) or m.start("verb") in words[0]
        return whole(m)

    city = _last(text, _ZH_CITY_RX, whole)
    if city and _NOT_MOVED.search(text[max(0, city[1] - 4) : city[1]]):
        city = None  # "年后没回郑州": no move there
    if city and not_lived_at(text, city[1]):
        city = None  # "下个月搬去成都", "上周回北京出差": a plan or a trip, no home
    if city and not _NO_PLACE.search(city[0]):
        add("location", city[0], city[1])
    home = re.search(r"我们?家?(?:在|住)(?P<v>[\u4e00-\u9fff]{2,5}?)(?=[，,。！!；;\s]|$)", text)
    if not city and home and home["v"] in places():
        add("location", home["v"], home.start("v"))
    if (
        not city
        and re.search(r"搬过来|搬来这|搬家过来|来了之后|过来之后|定居|安顿", text)
        and places()
    ):
        name = min(places(), key=text.find)
        add("location", name, text.find(name))
    for thing in [] if city else _HOME_THING.finditer(text):  # "大连新房子的宽带", "合肥的住处"
        if not words:
            words.append(_word_bounds(text))
        start = max((b for b in words[0] if thing.start() - 4 < b < thing.start() - 1), default=-1)
        name = text[start : thing.start()] if start >= 0 else ""
        if (
            re.fullmatch(r"[\u4e00-\u9fff]{2,3}", name)
            and not _NOT_HOME_OF.search(name)
            and _HOME_OF_AFTER.search(text[:start])  # "把大连新房子", "从合肥的住处", "东莞房子"
        ):
            if not not_lived_at(text, start):  # a home there, tentatively (if it replaces one)
                add(f"{TENTATIVE}place", name, start)
                break
    work = _last(text, _ZH_EMPLOYER_RX, whole)
    if work and work[0] in places() and _ZH_WENT.search(text[max(0, work[1] - 16) : work[1]]):
        pass  # "去年去了日本": a trip there once, no home
    elif work and work[0] in places() and not _WORK_THING.match(text, work[1] + len(work[0])):
        # "我在新加坡工作": where the user is (not "京东的食堂": a workplace's)
        add("location", work[0], work[1])
    elif work and _ZH_DEPARTMENT_END.search(work[0]):  # "我在用户增长部工作": a department
        if names_department(work[0]):  # (not 俱乐部: then neither a department nor whom for)
            add("department", work[0], work[1])
    elif (
        work
        and not re.match(r"^(?:我|你|他|她|这|那|家里|公司|一?趟|一?次|一下)", work[0])
        and not _GENERIC_PLACE.fullmatch(work[0])  # "我在网上当博主": where, not whom for
    ):
        add("employer", work[0], work[1])
    team = _ZH_DEPARTMENT.search(text)
    if team and names_department(team["v"]):
        add("department", team["v"], team.start("v"))
    job = _last(text, _ZH_JOB_RX, whole)
    if job and len(job[0]) >= 2:  # "升走了": no trade in one character
        add("occupation", job[0], job[1])
    boss = _last(  # (not where from: "新来的经理是上海人，叫老林")
        text, _ZH_MANAGER_RX, lambda m: not _ZH_NOT_NAMED.match(m["v"]) and m["v"][-1] != "人"
    )
    if boss:
        add("manager", boss[0], boss[1])
    for pattern in _ZH_ROLE_RX:
        m = pattern.search(text)
        if (
            m
            and not re.match(r"我|你|他|她|这|那|现在|目前|已经|如今", m["who"])
            and not re.search(r"领导|上级|老板|经理|主管|上司", m["v"])
        ):
            add(f"role of {m['who']}", m["v"], m.start("v"))
            break
    for pattern in _ZH_COUNT_RX:
        m = pattern.search(text)
        if m is None:
            continue
        kind = _kind_of((m.groupdict().get("n") or "") + m["v"], _COUNTED_RX) or _kind_of(
            text, _COUNTED_RX
        )
        if kind:
            add(f"number of {kind}", m["v"], m.start("v"))
            break
    for rx in (_ZH_DATE_MOVED, _ZH_DATE_SET):
        m = rx.search(text)
        if m is None:
            continue
        value = m["v"] or m.groupdict().get("v2") or ""
        event = _event_of((m["e"] or "") + (m.groupdict().get("e2") or ""), text)
        if event and value:
            add(f"date of {event}", value, text.find(value))
            break
    plan = _first(text, _ZH_PLAN_RX, homeward)
    if plan and re.search(r"(?<!我)说", re.split(r"[。！!；;]", text[: plan[1]])[-1]):
        plan = None  # "浩浩说…想学围棋": someone else's plan, reported
    if plan:
        add("plan", plan[0], plan[1])
    age = _ZH_AGE.search(text)
    if age:
        add(f"age of {age['who']}", age["v"], age.start("v"))
    for key, value, at in event_slots(text):  # "现在孙经理直接管我们", "让我当店长了"
        add(key, value, at)
    return out


#: A sentence about someone else's things: "His flight is on…", "同学的论文截止日期推到了九月".
_THEIRS = Cued(
    re.compile(
        r"\s*(?:his|her|their|[A-Z][a-z]+'s)\s+(?:\w+\s+)?(?:flight|wedding|birthday|interview|exam|"
        r"party|appointment|project|thesis|defen[cs]e|trip|move|surgery)|\s*(?:他|她|他们|她们|同学|同事|朋友|室友|老板|领导|"
        r"[\u4e00-\u9fff]{1,3}(?:组|部门|公司))的?(?:论文|项目|婚礼|航班|工作|生日|会|面试|考试)",
        re.I,
    )
)


#: Slots of one person's own life (a relative's move is not the user's; a family's
#: wedding date or count of children is shared).
_PERSONAL = frozenset(
    {"location", "employer", "occupation", "manager", "department", WORKPLACE_KEY}
)


def about_others(said: str) -> bool:
    """Whether a user's statement is about someone else's life rather than the user's
    (:data:`_OTHERS`): a relative or friend is its subject, not an object after the user
    ("I live with my parents in Cork", "我和我妈住在一起" are the user's).

    Example:
        >>> about_others("My sister plays the cello."), about_others("我妹妹喜欢拉大提琴。")
        (True, True)
        >>> about_others("I play the cello."), about_others("I live with my parents in Cork.")
        (False, False)
        >>> about_others("Jake moved away, so my new gym partner is my neighbour Sam.")
        False
    """
    m = _OTHERS.search(said)
    if m is None:
        return False
    return not _USER_BEFORE.search(said[: m.start()])


#: A sentence whose subject is a third person and that names the user nowhere ("He moved to
#: Denver", "他从广州搬到深圳了"): where it says someone lives or works, and a change it tells,
#: are not the user's; not what he is to the user ("He's my new boss", 他是我老板) nor what
#: they did to the user ("They promoted me", 他们让我当店长了). Slots only: the read path
#: still reads "they called, the dentist is Thursday now" as the user's news.
_THIRD_PERSON = re.compile(
    r"\s*(?:(?:he|she|they)\b(?!\s*(?:is|are|was|were|'s|'re)\b)"
    r"(?!.*\b(?:i|i'm|i've|i'd|me|my|mine|we|us|our)\b)"
    r"|(?:他|她)们?(?![是的])(?!.*[我咱]))",
    re.I | re.S,
)


#: The user as the subject before a relative is named ("I live with", "we visited"; not
#: "I think my sister…"), a relative named after a copula (what the subject is: "my gym
#: partner is my neighbour Sam"), or a Chinese preposition that makes the relative an object
#: ("和我妈", "给我爸", "跟我老公").
_USER_BEFORE = re.compile(
    r"\b(?:I|I'm|I've|I'd|we|we're|we've)\b(?!.*\b(?:think|thought|heard|hear|guess|said|say|"
    r"says|told|tell|know|knew|hope|wish|feel|believe|suppose)\b)|"
    r"\b(?:is|are|was|were)\s+$|"  # "my new gym partner is my neighbour Sam": what it is
    r"\bme\s+(?:and|&)\s+$|"  # "Me and my wife moved to Porto": the user too
    r"(?:给|送给|和|跟|陪|带|替|帮|与)$",
    re.I,
)


def slots_of(text: str) -> list[Slot]:
    """``(key, value, offset)`` of each slot ``text`` (one user message) gives a value
    to (see the module docs); questions and hypotheticals give none.

    Example:
        >>> slots_of("Tom took over as my boss after the reorg.")
        [('manager', 'Tom', 0)]
        >>> slots_of("Where do I work now?")
        []
    """
    if not text or not text.strip():
        return []
    body = text.strip()
    if re.search(r"[?？]\s*$", body) and len(re.findall(r"[.!。！；;]", body)) == 0:
        return []  # a question
    if re.search(
        r"\b(?:if|imagine|suppose|what if|would|wish)\b|如果|假如|要是|万一|假设", body, re.I
    ):
        return []
    spans = sentence_spans(body)
    # the statements about the user, not questions or others' doings
    parts = [t for _, t in spans if not is_question(t) and not _THEIRS.match(t)]
    said = " ".join(parts)
    if not said.strip():
        return []
    found = _zh(said) if is_cjk_text(said) else _en(said)
    named = None if any(k == "employer" for k, _, _ in found) else workplace_of(said)
    if named:  # "米哈游这边氛围挺好", "Netflix's first all-hands": where, if it replaces one
        found.append((WORKPLACE_KEY, *named))
    # where someone else lives or works is no slot of the user's ("我妹妹住在杭州")
    theirs, at, third = [], 0, False
    for t in parts:  # (or whose subject is a third person: "他从广州搬到深圳了")
        by_third = _THIRD_PERSON.match(t) is not None
        third = third or by_third
        if by_third:
            theirs.append((at, at + len(t)))
        elif about_others(t):  # a Chinese sentence, clause by clause: "我老公还在华为，我已经…"
            theirs += [(at + a, at + b) for a, b in others_clauses(t, about_others)]
        at += len(t) + 1
    found = [f for f in found if f[0] not in _PERSONAL or not any(a <= f[2] < b for a, b in theirs)]
    found = resolved(said, found)  # "现在我每周一向他汇报": whom 他 stands for, or nothing
    # a value the statement says ended is not its new value ("my last day at Shopify")
    found = [f for f in found if not ended_value(said, f[1])]
    # someone else's change is none of the user's ("my sister moved…", "他搬到深圳了")
    others = third or _OTHERS.search(said)
    if not found and not others:  # a change said in other words, slot unnamed
        found = changes_of(said)
    if not found and not others and _ARRIVAL.search(said):
        found = _tentative(said)
    return found


#: The key of a tentative value: kept only when it changes a value the user's slot of the
#: same kind holds (see :func:`is_tentative`).
TENTATIVE = "maybe "
#: Words that say something is new or current: "finally came through", "first day", "新…".
_ARRIVAL = Cued(
    re.compile(
        r"\b(?:new|now|first|finally|moved|start(?:ed|ing|s)?|since|after|these days|here|"
        r"officially|just|came through|arrived|settled|got the|landed|done)\b|"
        r"新|现在|第一|终于|之后|以后|这边|安顿|入职|搬|来了|到了|正式|刚",
        re.I,
    )
)
_NAME_EN = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-zA-Z&'-]+(?:\s+[A-Z][a-zA-Z&'-]+)*")
_NOT_NAME = re.compile(
    rf"(?:I|I'm|I've|I'd|I'll|My|Our|The|We|It|This|That|OK|Ok|Lol|LOL|Mr|Mrs|Ms|Dr|"
    rf"{_MONTH}|(?:mon|tues|wednes|thurs|fri|satur|sun)day)$",
    re.I,
)


def _tentative(said: str) -> list[Slot]:
    """Names a statement that says something is new holds ("My Amazon badge finally came
    through", "到了厦门才发现…"), keyed ``maybe place`` or ``maybe name``: the long-term
    facts keep one only where it replaces the value of the user's slot of that kind."""
    out: list[Slot] = []
    # a name in a trip, a plan or a past story is no new value ("下个月搬去成都", "landed in
    # Tokyo for the conference"); one after a home verb is ("lived in Tokyo since the conference")
    if is_cjk_text(said):
        for at, name, kind in find_entities(said):
            if (
                kind in ("place", "org", "other")
                and len(name) >= 2
                and not _NO_PLACE.search(name)
                and not not_lived_at(said, at)
            ):
                out.append((f"{TENTATIVE}{'place' if kind == 'place' else 'name'}", name, at))
    else:
        for m in _NAME_EN.finditer(said):
            words = [w for w in m[0].split() if not _NOT_NAME.match(w)]
            if words and not not_lived_at(said, m.start()):
                out.append((f"{TENTATIVE}name", " ".join(words), m.start()))
    numbers = _NUM_ZH_RX if is_cjk_text(said) else _NUM_EN_RX
    counted = _kind_of(said, _COUNTED_RX)
    num = numbers.search(said)
    if counted and num:  # "we're a family of five now": a count of what the sentence names
        out.append((f"{TENTATIVE}number of {counted}", num[0], num.start()))
    date = (_DATE_ZH_RX if is_cjk_text(said) else _DATE_EN_RX).search(said)
    event = _kind_of(said, _EVENTS_RX)
    if date and event:  # "the wedding … September 20": a date of what the sentence names
        out.append((f"{TENTATIVE}date of {event}", date[0], date.start()))
    return out[:4]


_NUM_EN_RX = re.compile(
    rf"\b{_NUM_EN}\b(?!\s*(?:am|pm|%|percent|times|o'clock|minutes|hours))", re.I
)
_NUM_ZH_RX = re.compile(rf"(?:第|老)?{_NUM_ZH}[只个盆本辆条位名棵口人]")
_DATE_EN_RX = re.compile(rf"\b{_DATE_EN}\b", re.I)
_DATE_ZH_RX = re.compile(_DATE_ZH)


def names_date(text: str) -> bool:
    """Whether ``text`` names a date or a day ("下周一早上", "March 3", "next Friday").

    Example:
        >>> names_date("航班改签到下周一早上。"), names_date("The wedding is on June 12.")
        (True, True)
        >>> names_date("我的航班很早。")
        False
    """
    return bool((_DATE_ZH_RX if is_cjk_text(text) else _DATE_EN_RX).search(text))


def event_named(text: str) -> str | None:
    """The kind of event ``text`` names ("wedding", "flight", "答辩"...), if any: the key a
    date of it has (``date of <kind>``).

    Example:
        >>> event_named("婚礼改到十月了"), event_named("My flight got moved."), event_named("hi")
        ('wedding', 'flight', None)
    """
    return _kind_of(text, _EVENTS_RX)


def thing_counted(text: str) -> str | None:
    """The kind of thing ``text`` counts ("children", "cats"...), if any: the key a number
    of it has (``number of <kind>``).

    Example:
        >>> thing_counted("我有几个孩子？"), thing_counted("How many cats do I have?")
        ('children', 'cats')
    """
    return _kind_of(text, _COUNTED_RX)


def is_tentative(key: str) -> bool:
    """Whether a fact key names a tentative value (see :func:`slots_of`).

    Example:
        >>> is_tentative("maybe name"), is_tentative("employer")
        (True, False)
    """
    return key.strip().lower().replace("_", " ").startswith(TENTATIVE)


#: A statement about someone else's life: "My brother moved to Denver", "我朋友搬到成都了".
_OTHERS = Cued(
    re.compile(
        r"\b(?:my|our)\s+(?:brother|sister|friend|mom|mum|dad|mother|father|son|daughter|cousin|"
        r"colleague|coworker|roommate|neighbou?r|wife|husband|parents|kids?|uncle|aunt|friend's)\s+"
        r"(?!is\b|'s\b|name|and I\b|& I\b|and me\b)[a-z]+|"
        r"(?:我|我的)(?:朋友|同事|哥哥?|姐姐?|弟弟?|妹妹?|爸爸?|妈妈?|室友|邻居|表[哥姐弟妹]|堂[哥姐弟妹]|"
        r"闺蜜|发小|同学|舍友|哥们|"
        # not the user beside them ("我爸妈和我搬到了深圳"), but one telling the user of
        # their own life ("我老婆跟我说她搬到深圳了")
        r"老公|老婆|儿子|女儿|父母)"
        r"(?![爸妈哥姐弟妹]{0,2}(?:是|(?:和|跟)我(?!说|讲|聊)|陪我|带我|和咱))",
        re.I,
    )
)
