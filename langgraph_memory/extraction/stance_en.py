"""The English reader of an evaluative stance: the user as subject ("I'm not much of a beer
drinker"), the thing as subject ("Podcasts are boring", "Musicals make me cringe"), a pick
("Give me tea any day"), a favourite said beside an episode and a verbless answer
("Mostly lo-fi hip hop").

:func:`en_stance` reads one English clause; :func:`.stance.stance_of` calls it for a
clause that is not Chinese (see :mod:`.stance` for the grammar it reads).

Example:
    >>> en_stance("Sci-fi is right up my alley.")
    [('Sci-fi', 1, 'explicit')]
    >>> en_stance("I'm not much of a beer drinker.")
    [('beer', -1, 'explicit')]
"""

from __future__ import annotations

import re

from langgraph_memory.extraction.clauses import tidy_value

__all__ = ["Stance", "en_stance"]

Stance = list[tuple[str, int, str]]

#: Where an English object ends: punctuation, or a clause joined after it.
_END = (
    r"(?=\s*(?:$|[,.;!?\n])|\s+(?:but|because|although|though|so|since|while|when|whenever|"
    r"and (?:i|i'm|it|it's|that|this|they)|any day|every time|for me|to me|these days|"
    r"nowadays|lately|honestly|personally)\b)"
)

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
    # "the only thing I eat" (not "…I won't eat": a refusal is no liking; see _EN_BAD's)
    r"a thrill|the only (?:\w+ )?I (?!(?:won't|can't|cannot|don't|never|wouldn't|hate)\b)\w+|"
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


def _kind(x: str, strict: bool = False) -> bool:
    """Whether ``x`` can be a liked kind of thing: no pronoun or filler first, and
    (``strict``, for a subject) a short phrase without a verb of its own."""
    x = x.strip()
    if len(x) < 2 or _EN_NOT_THING.match(x) or re.match(r"(?:your|ur|his|her|their)\b", x, re.I):
        return False  # "I love your turtles": a compliment, not a taste
    return not strict or (len(x.split()) <= 5 and not _EN_FINITE.search(x))


def en_stance(s: str) -> Stance:
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
