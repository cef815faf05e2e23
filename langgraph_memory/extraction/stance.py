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

import re

from langgraph_memory.core.tokens import is_cjk_text
from langgraph_memory.extraction.clauses import strip_particles, tidy_value

__all__ = ["cleft_of", "stance_of"]

Stance = list[tuple[str, int, str]]

#: Where an English object ends: punctuation, or a clause joined after it.
_END = (
    r"(?=\s*(?:$|[,.;!?\n])|\s+(?:but|because|although|though|so|since|while|when|whenever|"
    r"and (?:i|i'm|it|it's|that|this|they)|any day|every time|for me|to me|these days|"
    r"nowadays|lately|honestly|personally)\b)"
)
#: Where a Chinese object ends.
_ZEND = r"(?=$|[，,。.!！?？;；\n~～]|了|啦|哦|呀|吧)"

# -- English: the user as subject ---------------------------------------------------------------
#: Adverbs that may stand between the subject and its predicate.
_EN_ADV = (
    r"(?:(?:really|totally|absolutely|just|always|generally|usually|kind of|kinda|sort of|"
    r"definitely|honestly|truly|genuinely|seriously|pretty much|still|also|actually|"
    r"tend to|ever|much|so|quite|very|increasingly|slowly|secretly|personally|simply|"
    r"certainly|totally|all|way|been)\s+)*"
)
#: Negations; a negated predicate has the opposite polarity.
_EN_NEG = (
    r"(?P<neg>not|never|don't|do not|can't|cannot|won't|wouldn't|didn't|doesn't|am not|"
    r"'m not|have never|'ve never|could never|would never|'d never)\s+"
)
#: Evaluative predicates taking the liked or disliked thing as their object.
_EN_LIKE = (
    r"lov(?:e|ing)|lik(?:e|ing)|enjoy(?:ing)?|ador(?:e|ing)|prefer|fancy|dig(?:ging)?|appreciate|"
    r"relish|savou?r|cherish|always (?:preferred|loved|liked|enjoyed|adored)|"
    r"gravitate (?:towards?|to)|lean (?:towards?|to)|go for|have a soft spot for|"
    r"had a soft spot for|have a thing for|have a weakness for|have a sweet tooth for|"
    r"in on|into|a (?:big |huge |massive )?fan of|a sucker for|partial to|keen on|fond of|one for|"
    r"big on|crazy about|mad about|nuts about|obsessed with|hooked on|drawn to|passionate about|"
    r"addicted to|happiest (?:with|in|at|on)|at home (?:in|with)|can't resist|cannot resist|"
    r"can't get enough of|live for|swear by|could eat|could watch|could listen to|"
    r"would happily \w+|'d happily \w+|happily \w+"
)
_EN_DISLIKE = (
    r"hate|dislike|detest|loathe|despise|can't stand|cannot stand|can't bear|can't stomach|"
    r"avoid|go out of my way to avoid|steer clear of|stay away from|get bored (?:by|of|with)|"
    r"tired of|sick of|fed up with|could do without|pass on|say no to|turned off by|"
    r"put off by|not (?:much|big) (?:of a|on)|not a (?:big |huge )?fan of|allergic to the idea of|"
    r"no (?:big )?fan of|not one for|no lover of|have (?:zero|no|little) interest in"
)
_EN_SUBJECT = re.compile(
    r"^(?:(?:honestly|personally|frankly|generally|really|well|tbh|to be honest|"
    r"in general|oh|yeah|yes|no|nah)\s*,?\s+)*"
    r"I(?:'m|'ve|'d|'ll| am| have| would| will)?\s+"
    + _EN_ADV
    + r"(?:"
    + _EN_NEG
    + r")?"
    + _EN_ADV
    + r"(?:(?:am|'m|be|was|get|got)\s+)?"
    + r"(?:(?P<like>"
    + _EN_LIKE
    + r")|(?P<dislike>"
    + _EN_DISLIKE
    + r"))\s+(?:a\s+|an\s+|the\s+|some\s+|any\s+|anything with\s+|anything\s+|"
    r"stuff like\s+|things like\s+)?(?P<x>[^,.;!?]{2,50}?)" + _END,
    re.I,
)
#: "a beer drinker", "a morning person": the thing the user is a person of.
_EN_PERSON_OF = re.compile(
    r"^(?P<x>.+?)\s+(?:person|people|guy|girl|type|drinker|eater|fan|lover|kind of person)$", re.I
)
#: "I'm way happier in small towns than big cities".
_EN_BETTER_OFF = re.compile(
    r"^I(?:'m| am)\s+" + _EN_ADV + r"(?:happier|more comfortable|more at home|better off|"
    r"more relaxed|more productive|more myself)\s+(?:in|with|at|on|by|around)\s+(?:a\s+|an\s+|"
    r"the\s+)?(?P<x>[^,.;!?]{2,40}?)\s+than\s+(?:in\s+|with\s+|at\s+|on\s+)?(?:a\s+|an\s+|the\s+)?"
    r"(?P<y>[^,.;!?]{2,40}?)\s*[.!]?\s*$",
    re.I,
)
#: "Count me out for anything with mushrooms", "count me in for karaoke".
_EN_COUNT_ME = re.compile(
    r"^count me (?P<io>in|out)\s+(?:for|of|on)\s+(?:anything with\s+|anything\s+|any\s+|the\s+)?"
    r"(?P<x>[^,.;!?]{2,40}?)\s*[.!]?\s*$",
    re.I,
)


def _en_subject(s: str) -> Stance:
    """The user as subject of an evaluative predicate, negation flipping it."""
    better = _EN_BETTER_OFF.match(s)
    if better:
        return [
            (tidy_value(better["x"], "en"), 1, "explicit"),
            (tidy_value(better["y"], "en"), -1, "inferred"),
        ]
    count = _EN_COUNT_ME.match(s)
    if count:
        return [(tidy_value(count["x"], "en"), 1 if count["io"] == "in" else -1, "explicit")]
    m = _EN_SUBJECT.match(s)
    if m is None:
        return []
    x = re.sub(
        r"\s+(?:too|either|as well|a lot|so much|very much)$", "", m["x"].strip(), flags=re.I
    )
    person = _EN_PERSON_OF.match(x)  # "not much of a beer drinker": beer
    if person:
        x = person["x"]
    if not _kind(x):
        return []
    pol = 1 if m["like"] else -1
    if m["neg"]:
        if re.match(r"can|won|couldn|did", m["neg"], re.I):
            return []  # "I can't avoid rush hour": what the user can or did do, no stance
        pol = -pol
    return [(tidy_value(x, "en"), pol, "explicit")]


# -- English: the thing as subject --------------------------------------------------------------
#: Evaluative adjectives and nouns, by polarity: a closed lexicon, not sentence patterns.
_EN_GOOD = (
    r"great|amazing|awesome|wonderful|fantastic|lovely|delightful|satisfying|relaxing|fun|"
    r"enjoyable|soothing|calming|comforting|therapeutic|addictive|underrated|the best|perfect|"
    r"brilliant|heavenly|heaven|divine|irresistible|unbeatable|essential|a must|a must-have|"
    r"a joy|a delight|a treat|a blessing|a lifesaver|a game changer|bliss|my favou?rite|"
    r"my (?:daily driver|go-to|staple|thing|jam|happy place|weakness|comfort)|life|everything|"
    r"where it's at|my idea of (?:fun|heaven|bliss|a good \w+|a perfect \w+|a great \w+)|"
    r"right up my (?:alley|street)|my kind of \w+|my cup of tea|my vibe|a blast|a hoot|a riot|"
    r"a thrill|the only (?:\w+ )?I (?:\w+)|"
    r"the (?:highlight|best part) of my \w+|"
    r"something I (?:could|can|would) \w+ (?:for hours|all day|forever|every day)|"
    r"peak|my (?:whole|entire) personality|a godsend|unmatched|top tier|chef's kiss"
)
_EN_BAD = (
    r"boring|tedious|dull|miserable|pointless|useless|overrated|overpriced|annoying|irritating|"
    r"awful|terrible|horrible|dreadful|exhausting|draining|stressful|unbearable|intolerable|"
    r"gross|disgusting|revolting|nasty|meh|tiresome|a pain|a chore|a nightmare|torture|hell|"
    r"a waste of (?:time|money)|the worst|not worth it|too much|not for me|not my thing|"
    r"a no-go|a dealbreaker|a deal-breaker|garbage|trash|rubbish|wrong|cringe|the pits|"
    r"insufferable|a drag|not my (?:scene|style|vibe|kind of \w+)|the bane of my \w+|"
    r"too \w+ for my (?:taste|liking)|"
    r"an abomination|a crime|a disgrace|a scam|evil|the devil|"
    r"like (?:soap|cardboard|dirt|feet|rubber|plastic|medicine|nothing)"
)
_EN_THING_IS = re.compile(
    r"^(?:(?:honestly|personally|for me|to me|frankly|man|ugh|oh|wow|and|but|plus|also)\s*,?\s+)*"
    r"(?P<x>[A-Za-z][\w'-]*(?:\s+[\w'-]+){0,4}?)\s+(?:(?:just|really|honestly|always|totally|"
    r"definitely|simply|truly)\s+)?(?:(?:is|are|'s|'re)(?:\s+(?:getting|becoming))?|feels?|"
    r"seems?|sounds?|looks?|tastes?|smells?|gets?|remains?)\s+"
    r"(?:(?:so|really|very|just|pretty|truly|super|kind of|kinda|sort of|honestly|\w+ly|"
    r"such|a bit|way too|too|always|still|plain|quite|rather|"
    r"the most|most|genuinely|seriously)\s+)*"
    rf"(?:(?P<good>{_EN_GOOD})|(?P<bad>{_EN_BAD}))\b",
    re.I,
)
#: "Musicals make me cringe", "Wine does nothing for me", "Seafood and I don't get along".
_EN_THING_DOES = re.compile(
    r"^(?P<x>[A-Za-z][\w'-]*(?:\s+[\w'-]+){0,4}?)\s+(?:(?:really|just|always|honestly|totally|"
    r"kind of|kinda)\s+)?(?:(?:makes?|gets?) me\s+(?:so\s+|really\s+|feel\s+)?(?:(?P<good>happy|"
    r"smile|calm|relaxed|joyful|excited|hungry)|(?P<bad>cringe|sick|anxious|nervous|bored|gag|"
    r"want to (?:scream|cry|gag|puke|hurl|leave|quit|die|throw (?:\w+ )?\w+)|"
    r"sleepy|sad|nauseous|queasy|miserable|angry|irritable|uncomfortable))|"
    r"(?P<bad2>does nothing for me|do nothing for me|and I don't get along|and I do not get along|"
    r"doesn't agree with me|don't agree with me|bores? me|annoys? me|wears? me out|"
    r"(?:doesn't|don't) sit well with me|stress(?:es)? me out|gross(?:es)? me out|"
    r"drives? me (?:crazy|nuts|mad|up the wall)|gets? on my nerves|exhausts? me|"
    r"puts? me to sleep|makes? my skin crawl|turns? me off|grates? on me|"
    # "Mushrooms are the one thing I won't eat": the one kind the user refuses
    r"(?:is|are) the (?:one|only|last) thing I (?:won't|will not|can't|cannot|don't|never|"
    r"refuse to) \w+)|"
    r"(?P<good2>never gets old|never get old|cheers? me up|relax(?:es)? me|calms? me down|"
    r"keeps? me (?:sane|going|happy|grounded|calm|balanced)))\b",
    re.I,
)
#: A determiner or possessive first: a particular thing ("the movie", "my commute"), not a kind.
_EN_PARTICULAR = re.compile(
    r"^(?:the|this|that|these|those|my|our|his|her|their|your|its|it|there|here|he|she|they|"
    r"we|you|I|everything|nothing|something|anything|life|work|today|tonight|tomorrow|things|"
    r"stuff|people|everyone|everybody|someone|somebody|nobody|school|weather|traffic|news|"
    r"world|times|business|which|what|who|my \w+|[A-Z][a-z]+ (?:and|&) [A-Z])\b",
    re.I,
)
#: "Nothing relaxes me like X", "Give me X any day", "I've grown to love X": X is the pick.
_EN_PICK = re.compile(
    r"^(?:nothing|no\s+\w+)\s+(?:\w+s)\s+me\s+(?:\w+\s+)?(?:like|more than|as much as)\s+"
    r"(?:a\s+|an\s+|the\s+|some\s+|good\s+|long\s+)*(?P<x>[^,.;!?]{2,40}?)\s*[.!]?\s*$"
    r"|^give me\s+(?:a\s+|an\s+|the\s+|some\s+|good\s+)*(?P<y>[^,.;!?]{2,40}?)\s+"
    r"(?:any day|every time|anytime|any time|over anything)\b"
    r"|^I(?:'ve| have)?\s+(?:slowly\s+|really\s+)?"
    r"(?:grown|come|learned|learnt|started|begun)\s+to\s+"
    r"(?:love|like|enjoy|appreciate|adore)\s+(?P<z>[^,.;!?]{2,40}?)\s*[.!]?\s*$"
    r"|^(?:you )?can't beat\s+(?:a\s+|an\s+|the\s+|some\s+|good\s+)*"
    r"(?P<w>[^,.;!?]{2,40}?)\s*[.!]?\s*$",
    re.I,
)
#: "I can't get into audiobooks": a liking the user cannot find.
_EN_CANT = re.compile(
    r"^I\s+(?:just\s+|really\s+|honestly\s+)?(?:can't|cannot|can not|could never|never could)\s+"
    r"(?:really\s+)?(?:get into|get behind|warm up to|get used to|get excited about)\s+"
    r"(?P<x>[^,.;!?]{2,40}?)\s*[.!]?\s*$",
    re.I,
)
#: Pronouns, fillers and verb helpers: not a thing one likes.
_EN_NOT_THING = re.compile(
    r"^(?:it|that|this|them|those|these|you|one|ones|so|too|what|which|much|more|less|sure|"
    r"know|think|mean|do|did|not|nothing|no one|nobody|there|he|she|they|we|I|me|him|her|us|"
    r"how|when|where|why|if|to|going|doing|being|having)\b",
    re.I,
)
_EN_FINITE = re.compile(
    r"\b(?:is|are|was|were|am|be|been|have|has|had|will|would|can|could|should|do|does|did|"
    r"can't|don't|won't)\b|'(?:s|re|ve|ll|d)\b",
    re.I,
)


#: A kind named with no verb, and how often the user picks it: the user's answer to "what
#: do you usually…?" ("Mostly lo-fi hip hop", "Tea, always", "VS Code for everything").
#: An adverb opening one only when it opens the sentence (its capital): after a clause it
#: qualifies that clause ("I'm freelancing as a photographer, mostly weddings").
_EN_VERBLESS = re.compile(
    r"^(?:(?-i:Mostly|Usually|Always|Generally|Almost always|Nearly always)\s+"
    r"(?P<x>[A-Za-z][\w'&+.-]*(?:\s+[\w'&+.-]+){0,3}?)"
    r"(?:\s*,?\s*(?:honestly|really|though|for sure|these days))?"
    r"|(?P<y>[A-Za-z][\w'&+.-]*(?:\s+[\w'&+.-]+){0,3}?)\s*,?\s+"
    r"(?:always|every (?:time|day)|all the way|for everything|any day|forever|hands down))"
    r"\s*[.!]*\s*$",
    re.I,
)
#: What a verbless answer names that is no kind of thing ("Mostly fine", "Always the same").
_EN_NO_KIND = re.compile(
    r"^(?:fine|good|ok|okay|great|busy|tired|same|the same|yes|no|sure|true|not|nothing|"
    r"never|sometimes|alone|here|there|home|now|then|me|you|thanks|thank you|cheers|sorry|"
    r"around|about|at|by|on|in|before|after|until|like|just|\d)\b|"
    r"^[a-z]+(?:less|ful|ous|ive|able|ible|ish|ed)$",  # a state, not a thing: "harmless"
    re.I,
)


#: A thing, then said to be the user's favourite beside it: "Friends got me a cheesecake —
#: definitely my absolute favourite —", "闺蜜送了个提拉米苏，我的最爱！". The episode is
#: past; the taste said beside it holds.
_EN_FAVOURITE_BESIDE = re.compile(
    r"\b(?:a|an|the|some|of|got|had|ordered|made|bought)\s+"
    r"(?P<x>[\w'-]+(?:\s+[\w'-]+){0,2}?)\s*(?:[—–-]+|,)\s*(?:\w+ly\s+)?"
    r"(?:my|the user's) (?:absolute |all-time |total |forever |ultimate )?favou?rite\b(?!\s+\w)",
    re.I,
)
_ZH_FAVOURITE_BESIDE = re.compile(
    r"(?:个|份|杯|碗|块|盒|些|了|点)(?P<x>(?![个份杯碗块盒些了点])[\u4e00-\u9fffA-Za-z]{2,6})[，,！!—]+\s*"
    r"(?:这|那)?(?:可是|真是|就是|是)?我的(?:最爱|心头好|心头肉|命)"
)


def _kind(x: str, strict: bool = False) -> bool:
    """Whether ``x`` can be a liked kind of thing: no pronoun or filler first, and
    (``strict``, for a subject) a short phrase without a verb of its own."""
    x = x.strip()
    if len(x) < 2 or _EN_NOT_THING.match(x) or re.match(r"(?:your|ur|his|her|their)\b", x, re.I):
        return False  # "I love your turtles": a compliment, not a taste
    return not strict or (len(x.split()) <= 5 and not _EN_FINITE.search(x))


def _en_stance(s: str) -> Stance:
    """A kind of thing and how the user finds it, in English."""
    pick = _EN_PICK.match(s)
    if pick:
        x = tidy_value(pick["x"] or pick["y"] or pick["z"] or pick["w"], "en")
        return [(x, 1, "explicit")] if _kind(x) else []
    cant = _EN_CANT.match(s)
    if cant and _kind(cant["x"]):
        return [(tidy_value(cant["x"], "en"), -1, "explicit")]
    got = _en_subject(s)
    if got:
        return got
    beside = _EN_FAVOURITE_BESIDE.search(s)
    # (the words after the last determiner: "got me a cheesecake": cheesecake)
    x = re.split(r"\b(?:a|an|the|some|me|us)\s+", beside["x"], flags=re.I)[-1] if beside else ""
    if x and _kind(x, strict=True) and not _EN_PARTICULAR.match(x):
        return [(tidy_value(x, "en"), 1, "explicit")]
    if re.search(r"\b(?:was|were|had|used to)\b", s, re.I):
        return []  # one that is over: an episode, not a taste
    for pattern in (_EN_THING_IS, _EN_THING_DOES):
        m = pattern.match(s)
        if m is None or _EN_PARTICULAR.match(m["x"]) or not _kind(m["x"], strict=True):
            continue
        good = m["good"] or m.groupdict().get("good2")
        return [(tidy_value(m["x"], "en"), 1 if good else -1, "explicit")]
    m = _EN_VERBLESS.match(s)
    x = (m["x"] or m["y"] or "") if m else ""
    if x and _kind(x, strict=True) and not (_EN_NO_KIND.match(x) or _EN_PARTICULAR.match(x)):
        return [(tidy_value(x, "en"), 1, "explicit")]
    return []


# -- Chinese ------------------------------------------------------------------------------------
_ZH_ADV = (
    r"(?:真心|真的|实在|确实|一向|向来|一直|从来|本来|其实|特别|非常|很|挺|超级|超|蛮|比较|有点|有些|巨|贼|"
    r"从小就?|打小就?|"
    r"最|更|还是|也|都|就|总是|始终|压根|根本|完全|尤其|格外|相当|十分|极其|打心底|由衷地?|是|真)*"
)
_ZH_NEG = r"(?P<neg>不太|不怎么|不是很|不是特别|没那么|不大|并不|从不|从来不|一点也不|一点都不|不)"
_ZH_LIKE = (
    r"喜欢|爱|偏好|偏爱|钟爱|热爱|喜爱|享受|痴迷|着迷|迷上了|迷上|迷|中意|青睐|倾向于|倾向|偏向|"
    r"看重|好这一口|爱好"
)
_ZH_DISLIKE = r"讨厌|烦|反感|害怕|怕|受不了|抵触|排斥|嫌弃|厌倦|厌恶|腻|恨|头疼"
_ZH_SUBJECT = re.compile(
    r"^(?:我|我这人|我这个人|本人|我个人|(?=(?:超级?|特别|很|最|真心|非常|巨)(?:喜欢|爱)[^，,。]{1,6}$))"
    + _ZH_ADV
    + r"(?:"
    + _ZH_NEG
    + r")?"
    + _ZH_ADV
    + r"(?:(?P<like>"
    + _ZH_LIKE
    + r")|(?P<dislike>"
    + _ZH_DISLIKE
    + r"))"
    # a degree complement is no part of the thing: "我烦死排队了", "我爱死火锅了"
    r"(?:上了|上|死了?|透了?|惨了?)?(?P<x>[^，,。；;！!？?]{1,14})"
    + r"(?=$|[，,。.!！?？;；\n~～])"
)
#: The topic first, then the user's stance: "X我最爱了", "电子书我看不进去", "火锅我来者不拒".
_ZH_TOPIC = re.compile(
    r"^(?P<x>[^，,。；;！!？?我你他她它这那]{1,10}?)(?:那种|这种|这类|那类|之类的?)?(?:的话|呢|嘛)?"
    r"(?<![让令使叫])(?:我|我是|我就|我也|我都)"  # "瑜伽让我放松": a cause (_ZH_FEELS)
    + _ZH_ADV
    + r"(?:(?P<like>来者不拒|百\S不厌|[吃喝看听玩]不腻|\S+都不腻|最爱|超爱|最喜欢|很喜欢|"
    r"特别喜欢|喜欢|爱|好这一口|"
    r"(?:会|就)?(?:很|特别|超|超级)?(?:兴奋|开心|快乐|放松|来劲|来精神))|"
    r"(?P<dislike>(?:不太|不怎么|不)?能?[吃喝看听用玩穿坐住读学做去待]不(?:进去|下去|来|惯|了|动)|"
    r"不太能[吃喝看听用玩穿坐]|不怎么能[吃喝看听用玩穿坐]|讨厌|受不了|不喜欢|不爱|最烦|最讨厌|"
    # what the user cannot bear, dares not touch, or has had enough of ("接受不了",
    # "不太敢吃", "玩腻了")
    r"(?:接受|忍|适应|欣赏)不(?:了|来)|吃不消|(?:不太|不怎么|不大|不)敢[吃喝看听用玩碰坐]|"
    r"[吃喝看听玩用穿]?腻了|烦了|头大|头疼))"
)
#: A time the user's stance holds at, said first ("周末我就爱宅家打游戏", "平时我不怎么喝酒"):
#: a frame, not the thing.
_ZH_FRAME = re.compile(
    r"^(?:周末|平时|平常|平日|晚上|早上|白天|假期|放假|节假日|下班后?|每天|闲下来|有空|没事)"
    r"(?:的时候|时)?(?:呢|的话)?(?=我)"
)
#: "运动我首选游泳", "我首选高铁": the user's first choice.
_ZH_FIRST_CHOICE = re.compile(
    r"我(?:一般|通常|都|总是|还是)?(?:首选|优先选|优先考虑|必选)(?P<x>[^，,。；;！!？?]{1,12})"
)
#: "我口味比较清淡", "我的审美偏简约": the user's taste, then what it runs to.
_ZH_TASTE = re.compile(
    r"^我的?(?:口味|品味|审美|风格|穿衣风格|饮食|胃口)" + _ZH_ADV + r"(?:偏向于?|偏|是|属于)?"
    r"(?P<x>[^，,。；;！!？?]{1,10}?)(?:一点|一些|一类|的|型|风)?" + _ZEND
)
#: "我属于早睡早起型的", "我是个猫派", "我是咖啡党": the user's side.
_ZH_SIDE = re.compile(
    r"^我(?:是|属于|算是)(?:个|一个|那种|典型的)?(?P<x>[\u4e00-\u9fffA-Za-z]{1,8}?)"
    r"(?:派|型|族|党|控)(?:的)?(?:人)?" + _ZEND
)
#: "我对甜品没有抵抗力", "我对数码产品特别上心": the user's attachment.
_ZH_TOWARD = re.compile(
    r"^我对(?P<x>[^，,。；;！!？?]{1,10}?)"
    + _ZH_ADV
    + r"(?:(?P<good>没有?抵抗力|毫无抵抗力|情有独钟|上心|着迷|痴迷|上头|来劲)|"
    r"(?P<bad>提不起(?:兴趣|劲)|无感|没(?:什么|啥)?感觉|过敏|反感|抵触))"
)
#: "养花让我特别放松": a stimulus and the feeling it gives the user.
_ZH_FEELS = re.compile(
    r"^(?:说实话|老实说|讲真|其实|坦白说|说真的)?[，,]?(?P<x>[^，,。；;！!？?我你他她它这那]{2,10}?)(?:总是|总会|总|就会|都会|就|真的|都)?(?:让|令|使|叫)我"
    + _ZH_ADV
    + r"(?:(?P<good>放松|开心|快乐|舒服|愉快|平静|兴奋|幸福|满足|安心|治愈|有成就感|心情好)|"
    r"(?P<bad>烦|心烦|头疼|头大|焦虑|紧张|难受|崩溃|烦躁|无聊|犯困|恶心|不舒服|受不了|心累|累|疲惫))"
)
#: "咸豆花才是正道", "还得是X": the one true choice.
_ZH_TRUE_ONE = re.compile(
    r"^(?P<x>[^，,。；;！!？?我你他她它这那]{2,10}?)才是(?:正道|王道|真理|yyds|YYDS|永远的神|最好的|最棒的|"
    r"真爱|首选)"
)
#: A thing, then how it is for the user (a closed list of evaluative nouns and adjectives).
_ZH_GOOD = (
    r"最爱|享受|幸福|快乐|治愈|解压|减压|爱好|心头好|心头肉|宝藏|必需品|标配|精神食粮|续命|"
    r"灵魂|天堂|快乐源泉|最大的乐趣|乐趣|命根子|本命"
)
_ZH_BAD = (
    r"折磨|噩梦|煎熬|枯燥|无聊|乏味|痛苦|受罪|负担|灾难|雷区|地狱|酷刑|浪费时间|没意思|天敌|克星|"
    r"反人类|黑暗料理|智商税"
)
_ZH_THING_IS = re.compile(
    r"^(?P<x>[^，,。；;！!？?我你他她它这那]{1,10}?)(?:对我来说|对我而言|于我而言|在我看来)?"
    r"(?:真的|实在|简直|就|完全|绝对|可|太|很|挺|特别|超|非常|最|是|算是|就是|一种|种|个|我的|"
    r"我最大的|最大的|我|每天的|每日的|日常的)*(?:(?P<good>"
    + _ZH_GOOD
    + r")|(?P<bad>"
    + _ZH_BAD
    + r"))"
)
_ZH_PICK: list[tuple[re.Pattern[str], int]] = [
    # "我挺迷日本动漫的", "我离不开音乐", "我钟爱…": a verb of attachment
    (
        re.compile(
            r"我(?:这个人|这人)?(?:挺|很|超|特别|非常|真的|一直|完全|有点)?"
            r"(?:离不开|迷恋|上瘾)(?:上|于)?了?(?P<x>[^，,。；;！!？?]{1,12}?)(?:的)?" + _ZEND
        ),
        1,
    ),
    # "川菜我百吃不厌", "X我能逛一整天": doing it without tiring of it
    (
        re.compile(
            r"^(?P<x>[^，,。；;！!？?我]{1,10}?)我?(?:真的|可以|能|都)*(?:百\S不厌|"
            r"怎么\S都不腻|\S(?:一整天|一整晚|一下午|一晚上|好几个小时)(?:都不腻|都行)?)"
        ),
        1,
    ),
    # "能坐高铁就坐高铁": the user's pick whenever there is one
    (re.compile(r"能(?P<v>[\u4e00-\u9fff])(?P<x>[^，,。；;！!？?就]{1,8}?)就(?P=v)(?P=x)?"), 1),
    (re.compile(r"能不(?P<v>[\u4e00-\u9fff])(?P<x>[^，,。；;！!？?就]{0,8}?)就不(?P=v)"), -1),
    # "我一看到数学题就头疼", "一听到爵士乐就放松": what the user feels at the thing
    (
        re.compile(
            r"我?一(?:看到|听到|想到|闻到|吃到|喝到|提到|说到|碰到|见到)(?P<x>[^，,。；;！!？?就]{1,10}?)"
            r"就(?:头疼|头大|烦|心烦|想吐|犯困|犯愁|难受|崩溃|害怕|紧张|焦虑|受不了|抓狂|烦躁|起鸡皮疙瘩)"
        ),
        -1,
    ),
    (
        re.compile(
            r"我?一(?:看到|听到|想到|闻到|吃到|喝到|见到)(?P<x>[^，,。；;！!？?就]{1,10}?)"
            r"就(?:开心|高兴|兴奋|放松|流口水|走不动|停不下来|来劲|来精神)"
        ),
        1,
    ),
    # "广场舞那种歌一听就头大", "榴莲我一闻就想吐": the thing first, then what the user
    # feels at the first touch of it
    (
        re.compile(
            r"^(?P<x>[^，,。；;！!？?我你他她它]{2,10}?)(?:那种|这种|这类|那类)?我?"
            r"一(?:听|看|吃|喝|闻|碰|想|提|见)(?:到)?就(?:头疼|头大|烦|心烦|想吐|犯困|难受|崩溃|"
            r"受不了|抓狂|烦躁|恶心|闹肚子|过敏|想跑|起鸡皮疙瘩)"
        ),
        -1,
    ),
    (
        re.compile(
            r"^(?P<x>[^，,。；;！!？?我你他她它]{2,10}?)(?:那种|这种|这类|那类)?我?"
            r"一(?:听|看|吃|喝|闻|见)(?:到)?就(?:开心|高兴|兴奋|放松|流口水|走不动|停不下来|来劲|来精神)"
        ),
        1,
    ),
    # "周末钓鱼太惬意了": a mild pleasure, said with an intensifier
    (
        re.compile(
            r"^(?P<x>[^，,。；;！!？?我你他她它这那]{2,10}?)(?:真的|实在|简直)?(?:太|真|好|特别|超|超级)"
            r"(?:惬意|舒服|过瘾|开心|舒坦|带劲|爽|解压|治愈|享受)了"
        ),
        1,
    ),
    # "周末最享受的就是看书": what the user enjoys most
    (
        re.compile(
            r"最(?:享受|喜欢|爱|开心|快乐|放松)的(?:事|事情|时刻|时候)?(?:就)?(?:是|莫过于)"
            r"(?P<x>[^，,。；;！!？?]{2,14}?)" + _ZEND
        ),
        1,
    ),
]
#: "加班是我最讨厌的事", "羽毛球是我最喜欢的运动": a thing, then the user's feeling for it.
_ZH_CLEFT = re.compile(
    r"^(?P<x>[^，,。；;！!？?我你他她这那]{2,10}?)(?:真的|就|可)?是我(?:最|很|特别|超|一直)?"
    r"(?:(?P<bad>讨厌|烦|怕|受不了|反感|头疼|不喜欢)|喜欢|爱|享受|期待|热爱)的"
    r"(?:事|事情|东西|活动|运动|食物|菜|饮料|地方|一件事|环节|时刻|时候|颜色|季节|水果|城市)?"
    + _ZEND
)
_ZH_NOT_THING = re.compile(r"^(?:[你您他她它]们?|这个|那个|这样|那样|什么|哪个|的|了|吃|喝|看|用)$")
#: A particular thing: "那家店的咖啡", "这部电影" (an episode, not a kind).
_ZH_PARTICULAR = re.compile(r"^(?:这|那)(?:一)?[家个碗杯次部本首件款位场顿道份辆间]")


def _zh_value(x: str) -> str:
    x = re.sub(r"^(?:吃|喝)(?=[\u4e00-\u9fff]{2})", "", x.strip())
    if not re.search(r"[酒网贴书水氧]吧$", x):  # "酒吧" is a place, not a particle
        x = strip_particles(x)
    return re.sub(r"^在家里?(?=.{2})", "", x) if len(x) > 4 else x


def _zh_ok(x: str) -> bool:
    return len(x) >= 1 and not _ZH_NOT_THING.match(x) and not _ZH_PARTICULAR.match(x)


#: "我真心觉得X很无聊": the user's opinion frame, then the stance it holds.
_ZH_OPINION = re.compile(r"^我(?:真心|真的|一直|个人|其实|始终)?(?:觉得|认为|感觉|发现)")
#: Evaluative adjectives a frame may hold ("我觉得X很无聊").
_ZH_ADJ_GOOD = r"有意思|有趣|好玩|好吃|好喝|好听|好看|舒服|过瘾|解压|治愈|享受|棒|赞"
_ZH_ADJ_BAD = r"无聊|没意思|没劲|难吃|难喝|难听|难看|折磨|痛苦|枯燥|乏味|累人|烦人|讨厌"
_ZH_OPINED = re.compile(
    r"^(?P<x>[^，,。；;！!？?我你他她它这那]{2,10}?)(?:真的|实在|简直)?(?:很|太|挺|特别|超|非常|蛮|好|真)"
    r"(?:(?P<good>" + _ZH_ADJ_GOOD + r")|(?P<bad>" + _ZH_ADJ_BAD + r"))"
)


def _zh_stance(s: str) -> Stance:
    """A kind of thing and how the user finds it, in Chinese."""
    frame = _ZH_FRAME.match(s)
    if frame:  # "周末我就爱宅家打游戏": the stance said after the time it holds at
        return _zh_stance(s[frame.end() :])
    beside = _ZH_FAVOURITE_BESIDE.search(s)
    if beside and _zh_ok(beside["x"]):
        return [(_zh_value(beside["x"]), 1, "explicit")]
    opinion = _ZH_OPINION.match(s)
    if opinion:
        m = _ZH_OPINED.match(s[opinion.end() :])
        x = _zh_value(m["x"]) if m else ""
        if m and len(x) >= 2 and _zh_ok(x):
            return [(x, 1 if m["good"] else -1, "explicit")]
    m = _ZH_SUBJECT.match(s)
    if m:
        x = _zh_value(m["x"])
        pol = 1 if m["like"] else -1
        if m["neg"]:
            if pol < 0:
                return []  # "我不讨厌X": no stance said
            pol = -1
        if _zh_ok(x) and not re.match(r"[你您他她]", x):
            return [(x, pol, "explicit")]
    for pattern in (_ZH_TOPIC, _ZH_FIRST_CHOICE, _ZH_TASTE, _ZH_SIDE, _ZH_TRUE_ONE):
        m = pattern.search(s) if pattern is _ZH_FIRST_CHOICE else pattern.match(s)
        if m is None:
            continue
        x = _zh_value(m["x"])
        pol = -1 if "dislike" in pattern.groupindex and m["dislike"] else 1
        if _zh_ok(x) and (len(x) >= 2 or pattern in (_ZH_TOPIC, _ZH_SIDE)):
            return [(x, pol, "explicit")]
    for pattern in (_ZH_TOWARD, _ZH_FEELS, _ZH_THING_IS):
        m = pattern.match(s)
        if m is None:
            continue
        x = _zh_value(m["x"])
        if len(x) >= 2 and _zh_ok(x) and not re.match(r"今天|明天|刚才|这次|工作|生活|人生", x):
            return [(x, 1 if m["good"] else -1, "explicit")]
    for pattern, pol in _ZH_PICK:
        m = pattern.search(s)
        if m is None:
            continue
        x = strip_particles(m["x"] or "")
        if "v" in pattern.groupindex and (pol < 0 or len(x) < 2):
            x = m["v"] + x
        x = _zh_value(x)
        if len(x) >= 2 and _zh_ok(x):
            return [(x, pol, "explicit")]
    return []


def cleft_of(clause: str) -> Stance:
    """A Chinese cleft, "X是我最讨厌的事": ``X`` with the feeling's polarity (the
    head noun, "事", is not the thing).

    Example:
        >>> cleft_of("加班是我最讨厌的事。")
        [('加班', -1, 'explicit')]
    """
    m = _ZH_CLEFT.match(clause.strip())
    if m is None or _ZH_PARTICULAR.match(m["x"]):
        return []
    return [(strip_particles(m["x"]), -1 if m["bad"] else 1, "explicit")]


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
    return _zh_stance(s) if is_cjk_text(s) else _en_stance(s)
