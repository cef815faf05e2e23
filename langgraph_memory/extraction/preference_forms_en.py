"""The forms of an English preference: comparison, choice, habit and feeling patterns.

Each entry is a compiled pattern and the polarity of its ``x`` group (a ``y`` group, when
there is one, is the other side of a comparison). :func:`.preferences.preferences_of`
reads them, each behind the gate of its own cues (:mod:`.cues`), and tidies what they find.

Example:
    >>> pattern, polarity = EN_PREFS[0]
    >>> pattern.search("I'd take tea over coffee.")["x"], polarity
    ('tea', 1)
"""

from __future__ import annotations

import re

__all__ = ["EN_FEELINGS", "EN_PREFS"]

_X = r"(?P<x>[^,.;!?\n]{1,60}?)"
_Y = r"(?P<y>[^,.;!?\n]{1,60}?)"
_END = r"(?=\s*(?:$|[,.;!?\n]|\b(?:any day|every time|for me|to me|personally|honestly|"
_END += r"though|anyway|all the way|hands down|by far|if I can|when I can|if possible)\b)|"
_END += r"\s+(?:but|because|although|though|so|since|while|and (?:i|i'm|it|it's|that|this|they|"
_END += r"he|she|we|my|you)|(?:-|—|–)\s)\b)"
EN_PREFS: list[tuple[re.Pattern[str], int]] = [
    # comparison: X over Y
    (
        re.compile(
            r"\bI(?:'d| would| will|'ll)?\s+(?:always\s+|usually\s+|definitely\s+|probably\s+)?"
            r"(?:take|pick|choose|go for|go with|opt for|have|order|get|want|grab|buy|drink|eat|"
            r"use|read|watch|play|listen to|wear|favou?r|prefer|like|love|enjoy|value)\s+"
            + _X
            + r"\s+(?:over|instead of|rather than|"
            r"before|ahead of|any day over)\s+" + _Y + _END,
            re.I,
        ),
        1,
    ),
    (
        re.compile(
            r"(?:^|\bfor me,?\s+|\bpersonally,?\s+)" + _X + r"\s*(?:>+|beats?|wins over|"
            r"trumps?|is better than|are better than)\s*" + _Y + _END,
            re.I,
        ),
        1,
    ),
    (
        re.compile(
            r"(?:^|\bI (?:think|find|feel)\s+(?:that\s+)?)" + _X + r"\s+(?:is|are|tastes?|feels?|"
            r"works?|sounds?|looks?)\s+(?:way\s+|much\s+|far\s+|a lot\s+|so much\s+)?"
            r"(?:better|nicer|tastier|more enjoyable|more fun|more comfortable|more relaxing|"
            r"preferable|superior|more my (?:style|speed|thing))\s+(?:for me\s+|to me\s+)?"
            r"(?:than|to)\s+" + _Y + _END,
            re.I,
        ),
        1,
    ),
    (  # "I'm way more into board games than clubbing"
        re.compile(
            r"\bI(?:'m|\s+am)\s+(?:way\s+|much\s+|far\s+|a lot\s+|so much\s+)?more\s+"
            r"(?:into|of a fan of|drawn to)\s+" + _X + r"\s+than\s+" + _Y + _END,
            re.I,
        ),
        1,
    ),
    (
        re.compile(
            r"(?:^|\bfor me,?\s+|\bpersonally,?\s+)(?!(?:give me|gimme|I'll|make it)\b)"
            + _X
            + r"\s+over\s+"
            + _Y
            + r",?\s+(?:any day|every time|hands down|for me|all day|always|every day)"
            + _END,
            re.I,
        ),
        1,
    ),
    (
        re.compile(
            r"^(?:give me|gimme|I'll take|I'll have|make it)\s+" + _X + r"\s+(?:over|instead of|"
            r"rather than|not)\s+" + _Y + _END,
            re.I,
        ),
        1,
    ),
    (
        re.compile(
            r"\bnothing\s+(?:tops|beats|compares to|comes close to|makes me (?:happier|happy)\s+"
            r"(?:than|like)|is better than|hits like)\s+" + _X + _END,
            re.I,
        ),
        1,
    ),
    (
        re.compile(
            r"\bI(?:'m| am)\s+(?:at my\s+)?(?:happiest|most relaxed|most productive|"
            r"in my element)\s+"
            r"(?:in|at|on|with|when|during)\s+" + _X + _END,
            re.I,
        ),
        1,
    ),
    (
        re.compile(
            r"\bI\s+(?:\w+ly\s+)?find\s+"
            + _X
            + r"\s+(?:so\s+|really\s+|very\s+|super\s+|quite\s+)?"
            r"(?:relaxing|calming|soothing|fun|delicious|tasty|amazing|great|enjoyable|comforting|"
            r"refreshing|beautiful|satisfying|addictive|cozy|cosy)\b",
            re.I,
        ),
        1,
    ),
    (
        re.compile(
            r"\bI\s+(?:\w+ly\s+)?find\s+" + _X + r"\s+(?:so\s+|really\s+|very\s+|super\s+|quite\s+|"
            r"pretty\s+)?(?:boring|annoying|tedious|stressful|exhausting|gross|disgusting|"
            r"overrated|unbearable|tiring|draining|overwhelming|bland)\b",
            re.I,
        ),
        -1,
    ),
    (
        re.compile(
            r"^(?:honestly,?\s+|tbh,?\s+)?(?:can't|cannot|can not)\s+(?:stand|bear|stomach|do)\s+"
            + _X
            + _END
            + r"|^(?:honestly,?\s+)?not\s+(?:a\s+|much of a\s+)?(?:big\s+|huge\s+)?"
            r"(?:fan of|into|big on|keen on)\s+" + _X.replace("?P<x>", "?P<x2>") + _END,
            re.I,
        ),
        -1,
    ),
    (
        re.compile(
            r"^(?!(?:I|I'd|I'm|I'll|I've|we|you|he|she|they|it|this|that)\b)"
            r"(?P<x>[A-Za-z][\w' -]{1,30}?),?\s+(?:any day(?: of the week)?|all the way|always|"
            r"every (?:single )?time|hands down|or nothing|forever|only|for life)"
            r"(?:,?\s+(?:please|pls|thanks|for me))?\s*[.!]*$",
            re.I,
        ),
        1,
    ),
    # opinions: the thing first, then how the user finds it
    (
        re.compile(
            r"^(?!(?:he|she|they|my \w+|his|her|their)\b)" + _X + r"\s+(?:is|are|'s)\s+"
            r"(?:\w+ly\s+|so\s+|just\s+|totally\s+|honestly\s+|still\s+)?(?:the best|the goat|"
            r"underrated|elite|unbeatable|the way to go|the only way|my happy place)"
            r"(?=\s*(?:$|[,.!;]|\b(?:hands down|by far|period|for me|imo|honestly)\b))",
            re.I,
        ),
        1,
    ),
    (
        re.compile(
            r"^(?!(?:he|she|they|my \w+|his|her|their|it|this|that)\b)"
            + _X
            + r"\s+(?:is|are|'s)\s+"
            r"(?:\w+ly\s+|so\s+|just\s+|totally\s+|honestly\s+|way\s+)?(?:overrated|a crime|"
            r"the worst|gross|disgusting|awful|terrible|trash|meh|not worth it|overpriced|"
            r"a nightmare|a no from me|a no-go|a hard pass|a hard no|the devil|evil|lost on me)\b",
            re.I,
        ),
        -1,
    ),
    (
        re.compile(
            r"^(?!(?:he|she|they|my (?:wife|husband|partner|friend|boss|mom|dad|kids?|son|"
            r"daughter)|"
            r"his|her|their|it|this|that|you)\b)"
            + _X
            + r"\s+(?:(?:really|just|always|totally|honestly|seriously|kind of|kinda)\s+)?"
            r"(?:make|makes|help|helps|relax|"
            r"relaxes|calm|calms|cheer|cheers|energi[sz]e|energi[sz]es)\s+me\s+(?:so\s+|really\s+)?"
            r"(?:happy|smile|calm|focus|relax|sleep|unwind|up|down|feel (?:good|better|alive))\b",
            re.I,
        ),
        1,
    ),
    (
        re.compile(
            r"^(?!(?:he|she|they|my (?:wife|husband|partner|friend|boss|mom|dad|kids?|son|"
            r"daughter)|"
            r"his|her|their|it|this|that|you)\b)"
            + _X
            + r"\s+(?:(?:really|just|always|totally|honestly|seriously|kind of|kinda)\s+)?"
            r"(?:"
            # a verb of feeling that is bad on its own: "X bores me", "X bugs me"
            r"(?:bore|annoy|irritate|bug|disgust|frustrate|exhaust|drain|repel|sicken|depress|"
            r"nauseate|infuriate)s?\s+me\b|"
            # one whose complement makes it bad: "X drives me nuts", "X gets on my nerves"
            r"(?:drain|stress|gross|exhaust|give|make|drive|freak|put|turn|get|wear)s?\s+me\s+"
            r"(?:out|off|down|to death|a headache|anxiety|the creeps|sick|nauseous|anxious|crazy|"
            r"nuts|mad|insane|bonkers|up the wall|round the bend)\b|"
            r"gets?\s+on\s+my\s+nerves\b)",
            re.I,
        ),
        -1,
    ),
    (
        re.compile(
            r"^(?!.*\b(?:isn't|is not|aren't|are not|not|never|no)\b)"
            + _X
            + r"\s+(?:for me|it is|all day|or bust)\b",
            re.I,
        ),
        1,
    ),
    # what a time of the user's life is about: "My weekends are all about hiking"
    (re.compile(r"\b(?:my\s+\w+\s+(?:is|are)|I'm|I am)\s+all about\s+" + _X + _END, re.I), 1),
    (
        re.compile(
            r"\bI\s+(?!(?:can't|cannot|couldn't|won't|didn't|can|could)\b)(?:\w+\s+)?"
            r"(?:stay away from|steer clear of|avoid|skip|pass on)\s+" + _X + _END,
            re.I,
        ),
        -1,
    ),
    # "Dark chocolate, the darker the better": more of it is better
    (re.compile(r"^" + _X + r",\s+the\s+\w+(?:er|more)\s+the\s+better\b", re.I), 1),
    (
        re.compile(
            r"\bI(?:'m| am)\s+(?:really\s+|just\s+)?not\s+(?:really\s+)?(?:much of\s+)?an?\s+"
            r"(?P<x>[\w-]+(?:\s[\w-]+)?)\s+(?:person|guy|girl|gal|type|fan)\b"
            r"|^(?:not|never been)\s+(?:really\s+)?(?:much of\s+)?an?\s+"
            r"(?P<x2>[\w-]+(?:\s[\w-]+)?)\s+(?:person|guy|girl|gal|type|fan)\b",
            re.I,
        ),
        -1,
    ),
    (re.compile(r"\bI(?:'m| am)\s+(?:much\s+|definitely\s+)?more of an?\s+" + _X + _END, re.I), 1),
    (
        re.compile(
            r"\bI\s+(?:always\s+|usually\s+|only\s+)?(?:drink|take|have|like|eat|order|"
            r"want)\s+my\s+"
            r"(?P<x>\w+(?:\s\w+)?\s+(?:black|strong|rare|medium(?:-rare)?|well done|plain|sweet|"
            r"iced|"
            r"hot|cold|with \w+|without \w+|extra \w+|no \w+))\b",
            re.I,
        ),
        1,
    ),
    (re.compile(r"^(?:so\s+|and\s+)?no\s+" + _X + r"\s+for me" + _END, re.I), -1),
    (
        re.compile(
            r"\bI\s+(?:don't|do not|never|no longer)\s+(?P<x>(?!(?:think|know|mind|care|remember|"
            r"understand|see|get|agree|like|love|want|need|have|believe|mean|worry|feel|wanna|"
            r"recall|remember)\b)[a-z]+)\s*(?=$|[,.;!]|\b(?:at all|anymore|any more)\b)",
            re.I,
        ),
        -1,
    ),
    (
        re.compile(
            r"\b(?:nothing beats|you can't beat|can't beat|there's nothing like)\s+" + _X + _END,
            re.I,
        ),
        1,
    ),
    (
        re.compile(
            r"\b(?:given the choice|if I (?:had|have) to (?:choose|pick)|if it's up to me|"
            r"when I (?:get|have) to choose|when in doubt),?\s+(?:I(?:'d| would| will|'ll)?\s+)?"
            r"(?:always\s+)?(?:take|pick|choose|go for|go with|opt for|have|order|get)\s+"
            + _X
            + _END,
            re.I,
        ),
        1,
    ),
    # choice: my go-to, my usual, X is my thing
    (
        re.compile(
            r"\bmy\s+(?:go-to|go to|usual|default|pick|choice|favou?rite|poison|staple|jam|"
            r"comfort food|guilty pleasure|weakness|top pick|first choice)"
            r"(?:\s+(?:\w+\s+){0,2}?)?\s+(?:is|are|has always been|would be)\s+" + _X + _END,
            re.I,
        ),
        1,
    ),
    (
        re.compile(
            r"(?:^|\bbut\s+|,\s*)" + _X + r"\s+(?:is|are|has always been|have always been)\s+"
            r"(?:totally\s+|definitely\s+|really\s+)?(?:my|our)\s+(?:(?:all-time|absolute|"
            r"very|real|true)\s+)?(?:go-to|go to|usual|default|thing|jam|"
            r"favou?rite|top pick|first choice|comfort food|guilty pleasure|weakness|staple|"
            r"cup of tea|kind of thing|style)"
            # what it is a favourite of: "my favourite thing to eat", "my go-to drink"
            r"(?:\s+(?!(?:but|and|so|because)\b)[\w'-]+){0,4}?" + _END,
            re.I,
        ),
        1,
    ),
    (
        re.compile(
            r"(?:^|\bbut\s+|,\s*)" + _X + r"\s+(?:(?:really|just|honestly|truly|simply)\s+)?"
            r"(?:is|are|isn't|aren't|is not|are not|'s not|"
            r"was never|were never)\s+(?:really\s+|just\s+|quite\s+)?(?:not\s+)?(?:my\s+(?:thing|"
            r"style|scene|cup of tea|kind of thing|jam)|for me)" + _END,
            re.I,
        ),
        -1,
    ),
    (
        re.compile(
            r"(?:^|\bbut\s+|,\s*)" + _X + r"\s+(?:is|are)\s+(?:way\s+|far\s+|a bit\s+|a little\s+|"
            r"much\s+)?too\s+(?:\w+)\s+for\s+(?:me|my taste)" + _END,
            re.I,
        ),
        -1,
    ),
    (
        re.compile(
            r"\bI(?:'m| am|'ve been| have been|\s+was always|'ve always been| have always been)\s+"
            r"(?:(?:really|totally|kind of|kinda|so|pretty|quite|very|super|"
            r"a bit|absolutely|just|lately|recently|big)\s+)?(?:obsessed with|crazy about|"
            r"mad about|hooked on|head over heels (?:for|about|in love with)|"
            r"addicted to|partial to|big on|keen on|passionate about|nuts about|all about|"
            r"a sucker for|a huge fan of|team|(?:a\s+)?(?:total|huge|big|real|complete)\s+"
            r"(?:sucker|fan|lover)\s+(?:for|of)|(?:much\s+|way\s+|a lot\s+)?more into|"
            r"(?:really\s+)?into)\s+" + _X + _END,
            re.I,
        ),
        1,
    ),
    (
        re.compile(
            r"\bI(?:'m| am)\s+(?:really\s+|just\s+|honestly\s+)?not\s+(?:really\s+|very\s+|"
            r"that\s+|too\s+|so\s+)?(?:into|big on|keen on|crazy about|fond of|a fan of|"
            r"a big fan of|a huge fan of|much of a fan of)\s+" + _X + _END,
            re.I,
        ),
        -1,
    ),
    (
        re.compile(
            r"\bI(?:'ll|\s+will)?\s+(?:swear by|can't live without|cannot live without|"
            r"can't get enough of|"
            r"live on|live off|always go for|usually go for|tend to go for|always go with|"
            r"usually go with|tend to go with|always opt for|stick to|stick with|stay with|"
            r"always pick|usually pick|always choose|usually choose|always order|usually order|"
            r"always say yes to|never say no to|"
            r"tend to order|always get|usually get|only ever)\s+" + _X + _END,
            re.I,
        ),
        1,
    ),
    (
        re.compile(
            r"\bI\s+(?:could (?:\w+ly\s+)?(?:do|live) without|can (?:\w+ly\s+)?(?:do|live) without|"
            r"pass on|always skip|usually skip|skip|"
            r"stay away from|keep away from|have no time for|have no patience for|"
            r"have zero interest in|have no interest in|am not interested in|'m not interested in)"
            r"\s+" + _X + _END,
            re.I,
        ),
        -1,
    ),
    (
        re.compile(
            r"\bI(?:'m| am)\s+(?:much\s+|definitely\s+|more of\s+|really\s+|very much\s+)?"
            r"(?:an?\s+)(?:(?:huge|big|total|massive|real|true|die-hard|diehard|great|complete|"
            r"absolute|lifelong|proper|hardcore|avid)\s+)?"
            r"(?P<x>(?!(?:huge|big|total|massive|real|true|great|very)\b)[\w-]+(?:\s[\w-]+)?)\s+"
            r"(?:person|guy|girl|gal|type|kind of person|drinker|eater|reader|watcher|player|"
            r"listener|gamer|cook|baker|runner|"
            r"fan|lover|enthusiast|junkie|addict|snob|fiend|nerd)\b",
            re.I,
        ),
        1,
    ),
    # habit: "Every morning I have a flat white", "I only drink decaf", "I never eat lunch"
    (
        re.compile(
            r"\bI\s+(?:almost\s+|nearly\s+|pretty much\s+)?(?:always|usually|normally|typically|"
            r"generally|mostly|often|regularly|habitually|tend to|only|mainly|basically|"
            r"religiously|invariably)\s+(?:(?:also|just|still|really|like to|love to|prefer to|"
            r"will|would)\s+)?(?P<x>(?!(?:think|feel|say|forget|wonder|guess|hold|keep|stop|"
            r"mean|hope|know|need|have to|want|try|am|was|get confused|do|did|go through)\b)"
            r"[a-z]+\b[^,.;!?\n]{1,60}?)" + _END,
            re.I,
        ),
        1,
    ),
    (
        re.compile(
            r"^(?:every|each|most)\s+(?:single\s+)?(?:morning|day|evening|night|weekend|week|"
            r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|lunch|breakfast|dinner|"
            r"summer|winter|time)s?,?\s+I\s+(?:\w+ly\s+)?(?P<x>[a-z]+\b[^,.;!?\n]{1,60}?)" + _END,
            re.I,
        ),
        1,
    ),
    (
        re.compile(
            r"^(?:on|at|for|in)\s+(?:the\s+)?(?:weekends?|mornings?|evenings?|nights?|breakfast|"
            r"lunch|dinner|work|home|holidays?|vacations?|trips?)\s*,?\s+I\s+(?:usually\s+|"
            r"always\s+|normally\s+|typically\s+|often\s+|mostly\s+|like to\s+|love to\s+)"
            r"(?P<x>[a-z]+\b[^,.;!?\n]{1,60}?)" + _END,
            re.I,
        ),
        1,
    ),
    (
        re.compile(
            r"\bI\s+(?:never|rarely|seldom|hardly ever|hardly|almost never|don't ever|"
            r"do not ever)\s+"
            r"(?P<x>(?!(?:think|said|say|forget|know|mean|thought|knew|expected|imagined|give up|"
            r"stop|quit|lose|miss|regret|get|got|understand|realized|realised|had|have|was|did)\b)"
            r"[a-z]+\b[^,.;!?\n]{1,60}?)" + _END,
            re.I,
        ),
        -1,
    ),
    (
        re.compile(
            r"\bI\s+(?:\w+\s+)?(?P<x>(?:drink|eat|have|run|swim|bike|cycle|walk|read|watch|play|"
            r"cook|meditate|train|work out|practice|practise|go)\b[^,.;!?\n]{0,50}?)\s+"
            r"(?:every|each)\s+(?:single\s+)?(?:morning|day|evening|night|weekend|week|"
            r"monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b",
            re.I,
        ),
        1,
    ),
]

# -- feelings said in other words: a feeling verb or idiom and its object, by form ---------
_EN_INTENSE = (
    r"(?:really\s+|totally\s+|so\s+|completely\s+|kind of\s+|a bit\s+|just\s+|honestly\s+)*"
)
EN_FEELINGS: list[tuple[re.Pattern[str], int]] = [
    (  # "anything but decaf": everything else will do, not that
        re.compile(r"(?:^|[,;.]\s*)(?:anything|everything) but\s+" + _X + _END, re.I),
        -1,
    ),
    (  # "I basically live in hoodies": worn or used all the time (no place: not "in Rome")
        re.compile(
            r"\bI\s+(?:pretty much|basically|practically)\s+live\s+in\s+(?-i:(?![A-Z]))"
            + _X
            + _END,
            re.I,
        ),
        1,
    ),
    (
        re.compile(
            r"\b(?:nothing beats|can't get enough of|cannot get enough of|can't live without|"
            r"could live on)\s+(?:a\s+|an\s+|the\s+)?" + _X + _END,
            re.I,
        ),
        1,
    ),
    (
        re.compile(
            r"\bI(?:'m| am)\s+" + _EN_INTENSE + r"(?:obsessed with|hooked on|addicted to|"
            r"crazy about|mad about|big on|partial to|keen on|fond of|into|a sucker for|"
            r"all about)\s+" + _X + _END,
            re.I,
        ),
        1,
    ),
    (
        re.compile(
            r"\bmy\s+(?:all-time\s+)?favou?rite\s+(?:way to [\w ]{2,20}|thing(?: to do)?|"
            r"[\w ]{1,20}?)\s+(?:is|are)\s+(?:a\s+|an\s+|the\s+)?" + _X + _END,
            re.I,
        ),
        1,
    ),
    (
        re.compile(
            r"\bI(?:'ve| have)?\s+(?:never|not ever)\s+(?:really\s+)?(?:liked|enjoyed|loved|"
            r"been into|been a fan of|cared for|got into)\s+" + _X + _END,
            re.I,
        ),
        -1,
    ),
    (
        re.compile(
            r"\bI\s+(?:tend to\s+|try to\s+|always\s+|usually\s+)?(?:avoid|steer clear of|"
            r"stay away from)\s+(?:anything with\s+|anything\s+|eating\s+|drinking\s+)?"
            + _X
            + _END,
            re.I,
        ),
        -1,
    ),
    (
        re.compile(
            r"(?:^|[,;]\s*)" + _X + r"\s+(?:really\s+|just\s+|definitely\s+)?(?:isn't|is not|"
            r"aren't|are not|ain't)\s+(?:really\s+)?(?:my cup of tea|my thing|for me|my jam|"
            r"my style|my scene)",
            re.I,
        ),
        -1,
    ),
    (
        re.compile(
            r"(?:^|[,;]\s*)" + _X + r"\s+(?:doesn't|does not|don't|do not)\s+agree with me", re.I
        ),
        -1,
    ),
    (
        re.compile(
            r"(?:^|[,;]\s*)" + _X + r"\s+(?:is|are)\s+(?:really\s+|just\s+)?(?:the worst|"
            r"overrated|gross|disgusting|awful|unbearable|a nightmare)\b",
            re.I,
        ),
        -1,
    ),
    (
        re.compile(
            r"(?:^|[,;]\s*)" + _X + r"\s+(?:is|are)\s+(?:totally\s+|definitely\s+)?"
            r"(?:my guilty pleasure|my weakness|my jam|my happy place|my comfort)\b",
            re.I,
        ),
        1,
    ),
    (
        re.compile(
            r"(?:^|[,;]\s*)" + _X + r"\s+(?:is|are)\s+when I\s+(?:do my best|work best|"
            r"feel best|am most productive|'m most productive)",
            re.I,
        ),
        1,
    ),
    (
        re.compile(
            r"\b(?:whenever I can|when I can|if I can)\s*,?\s*I\s+(?P<x2>[a-z]+(?:\s+to\s+\w+)?)"
            + _END,
            re.I,
        ),
        1,
    ),
]
