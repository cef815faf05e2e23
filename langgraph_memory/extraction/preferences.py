"""Preferences recognised by their form, in English and Chinese.

Beside the likes and dislikes the rules read ("I love…", "我不喜欢…"), a taste is said
by **comparison** ("I'd take tea over coffee", "Podcasts > music", "X比Y好喝",
"宁可X也不Y", "与其X不如Y"), by **habit** ("Every morning I have a flat white", "Been
using vim for 12 years", "我一般不吃早饭", "星巴克我每次都点馥芮白", "黑色运动鞋我每年都买同一款"),
by **choice** ("my go-to is X", "I always go for X", "X is not my thing", "X是我的首选",
"我是咖啡控", "还得是X"), and by **opinion or feeling** ("X is overrated", "X makes me
happy", "X我吃不来", "X喝了睡不着", "无辣不欢").

A habit the user states about themselves is ``explicit`` whether it is categorical
("always", "every", "only", "每次", "一直") or hedged ("usually", "mostly", "一般", "平时"):
the user said it, so it rides along in the profile like any stated taste. Only the
dispreferred side of a comparison is ``inferred`` (never said, only implied). Someone
else's taste ("my roommate can't stand jazz",
"我女儿喜欢猫"), a habit that ended ("I used to…", "以前…戒了"), a choice for now only
("tonight", "这次") and hypotheticals give none.

Example:
    >>> preferences_of("I'd take tea over coffee.")
    [('tea', 1, 'explicit'), ('coffee', -1, 'inferred')]
    >>> preferences_of("我宁可走路也不坐公交。")
    [('走路', 1, 'explicit'), ('坐公交', -1, 'inferred')]
"""

from __future__ import annotations

import re

from langgraph_memory.core.tokens import is_cjk_text
from langgraph_memory.extraction.attachment import attachment_of, restated
from langgraph_memory.extraction.clauses import (
    EN_HYPOTHETICAL,
    EN_REPORTED,
    NOW_ONLY,
    ZH_HYPOTHETICAL,
    ZH_REPORTED,
    is_question,
    reported_zh,
    strip_particles,
    tidy_value,
)
from langgraph_memory.extraction.cues import Cued, open_entries
from langgraph_memory.extraction.leanings import leanings_of, refusal_of
from langgraph_memory.extraction.leanings import restated as parted
from langgraph_memory.extraction.spelling import plain_spelling
from langgraph_memory.extraction.stance import cleft_of, stance_of

__all__ = ["preferences_of"]

# -- preferences (English) --------------------------------------------------------------------
_X = r"(?P<x>[^,.;!?\n]{1,60}?)"
_Y = r"(?P<y>[^,.;!?\n]{1,60}?)"
_END = r"(?=\s*(?:$|[,.;!?\n]|\b(?:any day|every time|for me|to me|personally|honestly|"
_END += r"though|anyway|all the way|hands down|by far|if I can|when I can|if possible)\b)|"
_END += r"\s+(?:but|because|although|though|so|since|while|and (?:i|i'm|it|it's|that|this|they|"
_END += r"he|she|we|my|you)|(?:-|—|–)\s)\b)"
_EN_PREFS: list[tuple[re.Pattern[str], int]] = [
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
            r"preferable|superior|more my (?:style|speed|thing))\s+(?:than|to)\s+" + _Y + _END,
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
_EN_FEELINGS: list[tuple[re.Pattern[str], int]] = [
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


# -- preferences (Chinese) --------------------------------------------------------------------
_ZX = r"(?P<x>[^，,。.!！?？;；\n]{1,20}?)"
_ZY = r"(?P<y>[^，,。.!！?？;；\n]{1,20}?)"
_ZEND = r"(?=$|[，,。.!！?？;；\n~～]|了|啦|哦|呀|吧)"
_ZH_ADJ = (
    r"(?:可爱|漂亮|酷|帅|美|爽|实在|安全|干净|便宜|快|暖和|凉快|安静|"
    r"好|好吃|好喝|好看|好听|好用|好玩|舒服|有意思|有趣|香|方便|适合我|合我口味|顺手|实用|"
    r"靠谱|过瘾|带劲|清爽|健康|划算|自在|轻松|喜欢|有感觉|有意思|有味道|有氛围|方便|省心|省事|"
    r"省力|放心|踏实|自由)"
    r"(?:多了|得多|一点|一些|太多)?"
)
_ZH_PREFS: list[tuple[re.Pattern[str], int, bool]] = [
    # (pattern, polarity of x, y is the other side)
    (
        re.compile(
            r"(?:我觉得|我认为|对我来说|我看)?"
            + _ZX
            + r"比"
            + _ZY
            + r"(?:更|还|要|更加)?"
            + _ZH_ADJ
            + _ZEND
        ),
        1,
        True,
    ),
    (
        re.compile(r"宁(?:可|愿)" + _ZX + r"(?:也|都)(?:不|不想|不愿意?|不会)" + _ZY + _ZEND),
        1,
        True,
    ),
    (re.compile(r"与其" + _ZY + r"[，,]?\s*(?:还)?不如" + _ZX + _ZEND), 1, True),
    (
        re.compile(
            r"与其" + _ZY + r"[，,]?\s*我?(?:还是|倒)?(?:宁可|宁愿|更愿意|更想|还是)" + _ZX + _ZEND
        ),
        1,
        True,
    ),
    # a choice when asked to choose, or the one the user would make: "要我选的话，我选日料",
    # "科幻片和爱情片比，我选科幻片", "我会选靠窗的位置"
    (
        re.compile(
            r"(?:(?:要|让|叫)我(?:来)?(?:选|挑)(?:的话)?|非要(?:选|挑)(?:一个)?(?:的话)?|"
            r"(?P<y>[^，,。我]{1,10}?)(?:和|跟)[^，,。我]{1,10}?(?:比|相比|之间|里面?))[，,]?\s*"
            r"我?(?:肯定|一定|还是|当然|会|都|一般)*(?:选|挑|要|选择)" + _ZX + _ZEND
        ),
        1,
        False,
    ),
    (re.compile(r"^我(?:肯定|一定|还是|当然|一般)?会(?:选|挑|选择)" + _ZX + _ZEND), 1, False),
    (
        re.compile(
            r"(?:相比(?:于|起)?|比起|跟|和)"
            + _ZY
            + r"(?:相比|比)?[，,]?\s*我?(?:还是)?更(?:喜欢|爱|想|愿意|倾向于?|偏向)?"
            + _ZX
            + _ZEND
        ),
        1,
        True,
    ),
    (re.compile(_ZX + r"(?:胜过|好过|强过|优于)" + _ZY + _ZEND), 1, True),
    # what the user cannot resist or never tires of: "我对猫毫无抵抗力", "我怎么吃都吃不腻火锅"
    (
        re.compile(
            r"我(?:真的|实在|完全|根本|一直)?(?:对" + _ZX + r"(?:毫无|没有|没啥|一点)抵抗力|"
            r"(?:无法|没法|不能)抗拒(?P<x2>[^，,。.!！?？;；\n]{1,20}?)|"
            r"(?:怎么|天天|每天)?[吃喝看听玩]?都?[吃喝看听玩]不(?:腻|厌|够)(?P<x3>[^，,。.!！?？;；\n]{1,20}?))"
            + _ZEND
        ),
        1,
        False,
    ),
    (
        re.compile(
            r"我(?:还是|更|比较|一般|通常|每次|总是|都)*(?:选|挑|会选|会挑|选择)"
            + _ZX
            + r"(?:而不是|而非|不选|不要)"
            + _ZY
            + _ZEND
        ),
        1,
        True,
    ),
    # choice
    (
        re.compile(
            r"(?:^|[，,]\s*)"
            + _ZX
            + r"(?:不是我的菜|不适合我|不太适合我|我不感冒|我不太感冒|我没兴趣|我受不了|我接受不了|"
            r"我吃不惯|我喝不惯|我用不惯|我不太行)" + _ZEND
        ),
        -1,
        False,
    ),
    (
        re.compile(
            r"^(?:我)?(?P<x>[^，,。我你他她]{1,6}?)(?:我|的话)?(?:是|真的|真|实在|完全|一般|基本上?|"
            r"都|也|就|从来|确实|根本|压根|一点都|一口都|一点也|一口也)*"
            r"(?:不行|不碰|碰都不碰|吃不来|喝不来|吃不了|喝不了|受不了|不感冒|无感|不太行|吃不惯|"
            r"喝不惯|用不惯|"
            r"待不惯|住不惯|看不惯|听不惯|没兴趣|不来电|就算了|免了|(?:喝|吃|用|"
            r"坐)了(?:就)?(?:睡不着|心慌|头疼|头晕|"
            r"胃疼|肚子疼|拉肚子|难受|不舒服|过敏))(?:的)?" + _ZEND
        ),
        -1,
        False,
    ),
    # a fan of it: "我是铁杆的湖人球迷", "我是资深猫奴", "我是周杰伦的粉丝"
    (
        re.compile(
            r"我(?:是|算是)(?:个|一个|一名)?(?:铁杆|忠实|死忠|资深|骨灰级|狂热)?(?:的)?"
            r"(?P<x>[\u4e00-\u9fffA-Za-z]{1,8}?)(?:的)?(?:球迷|粉丝|歌迷|影迷|书迷|迷|粉|控|党|"
            r"爱好者|发烧友)" + _ZEND
        ),
        1,
        False,
    ),
    # interest: "我对科幻片没什么兴趣", "我对摄影特别感兴趣"
    (
        re.compile(
            r"我对(?P<x>[^，,。！!？?]{1,10}?)(?:一直|从来|真的|实在)?(?:没(?:什么|啥|多大)?兴趣|"
            r"不(?:太|怎么|是很)?感兴趣|提不起(?:兴趣|劲)|无感|一点(?:儿)?兴趣(?:都|也)没有)"
            + _ZEND
        ),
        -1,
        False,
    ),
    (
        re.compile(
            r"我对(?P<x>[^，,。！!？?]{1,10}?)(?:一直|特别|非常|很|超|挺|真的|最)(?:感兴趣|着迷|上头)"
            + _ZEND
        ),
        1,
        False,
    ),
    # what the user fears or cannot bear, said of the user: "我很怕冷", "我特别怕吵"
    (
        re.compile(
            r"^我(?:这人)?(?:很|特别|超|最|比较|有点|非常)?怕(?![他她你我它别大家人])(?P<x>[\u4e00-\u9fff]{1,6})"
            + _ZEND
        ),
        -1,
        False,
    ),
    (
        re.compile(
            r"我(?:的)?(?:口味|口感|穿衣风格|风格|审美)?(?:一般|比较|"
            r"一直)?偏(?P<x>[\u4e00-\u9fff]{1,4})" + _ZEND
        ),
        1,
        False,
    ),
    (
        re.compile(r"我(?:比较|很|特别|挺|超)?能(?:吃|喝)(?P<x>[\u4e00-\u9fff]{1,3})" + _ZEND),
        1,
        False,
    ),
    (re.compile(r"必(?:带|点|喝|吃|买|去|选|备)" + _ZX + _ZEND), 1, False),
    (re.compile(r"能(?!不)" + _ZX + r"(?:就)?(?:绝不|决不|就不|绝对不)" + _ZY + _ZEND), 1, True),
    (
        re.compile(r"(?P<x>[\u4e00-\u9fff]{1,4}?)(?:控|党|迷)(?:一枚|一个|本控|本党)" + _ZEND),
        1,
        False,
    ),
    (
        re.compile(
            _ZX + r"(?:yyds|YYDS|永远的神|才是王道|天下第一|是真的香|真香|太香了|绝了|最棒|无敌|"
            r"好吃到哭|是我的爱|戒不掉|离不开)" + _ZEND
        ),
        1,
        False,
    ),
    (re.compile(r"(?:还得是|还是得|必须是|只认)" + _ZX + _ZEND), 1, False),
    (
        re.compile(
            r"(?:^|[，,]\s*)"
            + _ZX
            + r"我(?:是|真的|实在|完全)?(?:不行|真不行|接受不了|一口都不碰|碰都不碰|无感|不感冒|"
            r"没兴趣|不吃|不喝|不用|不碰)" + _ZEND
        ),
        -1,
        False,
    ),
    (
        re.compile(
            r"(?:^|[，,]\s*)"
            + _ZX
            + r"(?:太难吃|太难喝|太难用|真难吃|踩雷|劝退|就算了|免了|不太行)"
            + _ZEND
        ),
        -1,
        False,
    ),
    (re.compile(r"我这(?:个)?人(?:就|特别|比较|很|最)?(?:爱|喜欢|好)" + _ZX + _ZEND), 1, False),
    (
        re.compile(
            r"(?P<y>[^，,。我]{1,6}?)的话[，,]?\s*我(?:一般|通常|都|只|就|主要)?(?:喝|吃|用|选|点|"
            r"买|听|看|穿|坐|开)" + _ZX + _ZEND
        ),
        1,
        False,
    ),
    (re.compile(r"宁(?:可|愿)" + _ZY + r"也要" + _ZX + _ZEND), 1, False),
    (
        re.compile(
            r"我是(?:个|一个|那种)?(?:十足的|彻头彻尾的|资深|铁杆|忠实的?)?(?P<x>夜猫子|早起的人|吃货|宅男|宅女|社恐|e人|i人|E人|I人|猫奴|"
            r"狗奴|果粉|米粉|素食者|肉食动物|甜食控|咖啡控|"
            r"奶茶控)" + _ZEND
        ),
        1,
        False,
    ),
    (
        re.compile(_ZX + r"是我的(?:首选|最爱|心头好|必点|必备|标配|日常|菜|偶像|本命|命)" + _ZEND),
        1,
        False,
    ),
    (re.compile(r"我的(?:首选|最爱|心头好|必点|标配)(?:一直)?是" + _ZX + _ZEND), 1, False),
    (
        re.compile(
            r"^(?:这种|这类|那种|那类)?" + _ZX + r"(?:很|特别|挺|超|最|真|太|非常|一直|都|就)*"
            r"(?:对|合)(?:我|我的)(?:胃口|口味)的?" + _ZEND
        ),
        1,
        False,
    ),
    (
        re.compile(
            r"^(?:也|还|就)?最(?:爱|喜欢)(?:吃|喝|看|听|玩|去)?(?P<x>(?!什么|哪|谁)[^，,。！!？?]{1,12}?)"
            + _ZEND
        ),
        1,
        False,
    ),
    # "羽毛球是我最喜欢的运动", "芒果是我最爱吃的水果": the thing first, then what it is
    (
        re.compile(
            _ZX + r"(?:一直|就)?是我(?:最|最最|特别|超级)(?:喜欢|爱|钟爱|偏爱|中意)(?:的|"
            r"[\u4e00-\u9fff]{1,2}的)[\u4e00-\u9fff]{0,6}" + _ZEND
        ),
        1,
        False,
    ),
    (
        re.compile(
            r"我(?:一般|通常|每次|总是|平时|基本|基本上|一向|向来)?(?:都)?只(?:喝|吃|用|穿|看|听|"
            r"买|点|玩|读|坐|开|选)" + _ZX + _ZEND
        ),
        1,
        False,
    ),
    (
        re.compile(
            # a short topic may come between: "我买咖啡总是要燕麦奶"
            r"我(?:[买点喝吃用穿订][\u4e00-\u9fff]{1,4}?)?(?:每次|一般|通常|总是|平时|基本上?|向来|一向)"
            r"(?:都|也)?(?:会)?(?:点|选|挑|要|买)" + _ZX + _ZEND
        ),
        1,
        False,
    ),
    (
        re.compile(
            r"我是(?:个|一个|一名|资深|铁杆)?"
            + r"(?P<x>[^，,。.!！?？;；\n的]{1,8}?)(?:党|控|迷|粉|爱好者|发烧友)"
            + _ZEND
        ),
        1,
        False,
    ),
    (
        re.compile(
            r"我对"
            + _ZX
            + r"(?:情有独钟|很着迷|特别着迷|上瘾|很上瘾|爱不释手|很感兴趣|特别感兴趣|非常感兴趣)"
            + _ZEND
        ),
        1,
        False,
    ),
    (
        re.compile(
            r"我(?:很|特别|非常|超级?|真的)?(?:偏爱|偏向|钟情于?|离不开|迷上了?|爱上了?|沉迷于?|"
            r"着迷于?|热衷于?|痴迷于?|酷爱)" + _ZX + _ZEND
        ),
        1,
        False,
    ),
    (
        re.compile(
            r"我对"
            + _ZX
            + r"(?:真的|实在|完全|一点都|一点也)?(?:不太|不怎么|没啥|没什么|不是很)?(?:不感兴趣|"
            r"没兴趣|感兴趣|兴趣不大|不感冒|感冒|无感|提不起兴趣|"
            r"没感觉)" + _ZEND
        ),
        -1,
        False,
    ),
    (
        re.compile(
            r"我最(?:爱|喜欢)(?:吃|喝|看|听|玩|用|去|穿)?的(?:[\u4e00-\u9fff]{1,4})?(?:是|就是)"
            + _ZX
            + _ZEND
        ),
        1,
        False,
    ),
    (
        re.compile(
            r"我?(?:不太|不怎么|不大|完全)?(?:不能|(?<=[太么大])能|没法|受不了|接受不了)(?:吃|喝|"
            r"碰|用|看|听)?"
            + _ZX
            + _ZEND
            + r"|(?:吃|喝|碰)不了"
            + _ZX.replace("?P<x>", "?P<x2>")
            + _ZEND
        ),
        -1,
        False,
    ),
    (
        re.compile(
            r"(?:^|[，,]\s*)我?(?P<y>[^，,。我你他她]{1,6}?)(?:必须|一定要|一定得|非得|只能|"
            r"只要)(?:是|要|加|用)?" + _ZX + _ZEND
        ),
        1,
        False,
    ),
    (
        re.compile(
            r"我(?:最近|现在|这阵子|近来|这两年)?(?:很|特别|非常|超级?|真的)?(?:迷上|爱上|喜欢上|"
            r"沉迷|上头)了?" + _ZX + _ZEND
        ),
        1,
        False,
    ),
    (
        re.compile(
            r"我(?:还是|一直|真心)?觉得"
            + _ZX
            + r"(?:更|最|很|挺|特别|比较)?(?:好用|好吃|好喝|好看|好听|不错|顺手|舒服|靠谱)"
            + _ZEND
        ),
        1,
        False,
    ),
    (
        re.compile(r"(?:^|[，,]\s*)" + _ZX + r"对我来说(?:太|有点|有些)\S{1,4}?了" + _ZEND),
        -1,
        False,
    ),
    # habit
    (
        re.compile(
            r"我(?:平时|通常|一般|每天|每周|每晚|每早|每个周末|周末|早上|晚上|经常|总是|常常|往往|"
            r"习惯|基本上?|向来|一向|大多|多半|天天)+(?:早上|晚上|中午|都|会|要|就|也|还|习惯)*"
            r"(?P<x>(?!不|没|很|是|在|有点|觉得|认为|想|知道|"
            r"说)[\u4e00-\u9fff][^，,。.!！?？;；\n]{1,20}?)" + _ZEND
        ),
        1,
        False,
    ),
    (
        re.compile(
            r"(?:每天|每周|每晚|每个周末|周末|平时|早上|晚上)(?:早上|晚上)?我?(?:都|一般|通常|总是|"
            r"会)+"
            r"(?P<x>(?!不|没)[\u4e00-\u9fff][^，,。.!！?？;；\n]{1,20}?)" + _ZEND
        ),
        1,
        False,
    ),
    (
        re.compile(
            r"我(?:平时|通常|一般|每天|基本上?|向来|一向|从来|从|几乎|很少|基本)*(?:都)?"
            r"(?:不|从不|很少|几乎不|基本不|从来不|没怎么|不怎么|不太)"
            r"(?P<x>(?:吃|喝|用|看|听|玩|穿|去|买|点|坐|开|抽|碰|熬夜|运动|跑步|早起|加班|"
            r"打游戏|刷|追|逛|做饭|喝酒|抽烟)[^，,。.!！?？;；\n]{0,20}?)" + _ZEND
        ),
        -1,
        False,
    ),
]

#: A feeling verb of the user's and its object, said in other words (Chinese).
_ZH_INTENSE = r"(?:也|都|还|真的?|是)?(?:很|特别|超级?|挺|非常|比较|最|实在|一直|蛮|贼)?"
_ZH_FEELINGS: list[tuple[re.Pattern[str], int]] = [
    # "海鲜我也很喜欢": the thing first, then the user's feeling
    (
        re.compile(
            r"(?:^|[，,])(?P<x>[^，,。.!！?？;；\n我]{1,12}?)我"
            + _ZH_INTENSE
            + r"(?:喜欢|爱吃|爱喝|爱看|爱|享受|迷恋|钟爱|偏爱)"
            + _ZEND
        ),
        1,
    ),
    (
        re.compile(
            r"(?:^|[，,])(?P<x>[^，,。.!！?？;；\n我]{1,12}?)我"
            + _ZH_INTENSE
            + r"(?:讨厌|受不了|不喜欢|不爱|吃不来|喝不惯|不感冒)"
            + _ZEND
        ),
        -1,
    ),
    (
        re.compile(
            r"(?:^|[，,])(?P<x>[^，,。.!！?？;；\n我]{1,12}?)我?(?:是)?(?:一口都不|一点都不|"
            r"从来不|从不|绝对不|坚决不)(?:吃|喝|碰|看|听|用|穿)"
        ),
        -1,
    ),
    (
        re.compile(
            r"我" + _ZH_INTENSE + r"(?:享受|迷恋|痴迷|钟爱|偏爱|热爱|着迷于?|沉迷于?|"
            r"更愿意|更想|更爱|爱吃|爱喝|超爱|最爱)" + _ZX + _ZEND
        ),
        1,
    ),
    (
        re.compile(
            r"我" + _ZH_INTENSE + r"(?:烦|讨厌|反感|受不了|不喜欢|不爱|不怎么喜欢|不太喜欢|"
            r"不爱吃|不爱喝|讨厌吃)" + _ZX + _ZEND
        ),
        -1,
    ),
    (
        re.compile(
            r"对(?P<x>[^，,。.!！?？;；\n]{1,12}?)(?:实在|真的?|完全|一直|有点|比较)?"
            r"(?:爱不起来|喜欢不起来|没兴趣|不感冒|无感|过敏|敏感)"
        ),
        -1,
    ),
    (
        re.compile(
            r"(?:一般|平时|基本|通常)(?:都)?不(?P<x>(?:吃|喝|用|看|坐|穿)[^，,。.!！?？;；\n]{1,10}?)"
            + _ZEND
        ),
        -1,
    ),
    (re.compile(r"我?(?:一定要|必须|都要|总要|非得)(?P<x>[^，,。.!！?？;；\n]{1,12}?)" + _ZEND), 1),
    (
        re.compile(
            r"我?(?:一直都是|向来都是|一向是|从来都是)(?P<x>[^，,。.!！?？;；\n]{1,12}?)" + _ZEND
        ),
        1,
    ),
]


#: Words a liked thing never starts with: pronouns, fillers, conjunctions, verbs' helpers.
_EN_NOT_THING = re.compile(
    r"(?:your|ur|you|you're|it|it's|its|that|that's|this|there|there's|we|we're|we'll|they|they're|"
    r"he|she|our|their|his|her|those|these|yes|yeah|yep|so|as|and|but|plus|or|really|also|just|"
    r"great|having|being|knowing|then|now|well|oh|wow|thanks|thank|hey|hi|ok|okay|sure|what|"
    r"which|who|how|why|when|where|if|because|since|while|though|although|can't|cannot|don't|"
    r"won't|isn't|aren't|not|no|nothing|everything|something|anything|someone|everyone|"
    r"tough|hard|hectic|busy|here|let's|let|keep|i|i'm|i'll|i've|i'd|me|my|mine)\b",
    re.I,
)
_EN_FINITE = re.compile(
    r"\b(?:is|are|was|were|am|be|been|being|have|has|had|will|would|can|could|should|shall|"
    r"must|do|does|did|can't|don't|won't|'s|'re|'ve|'ll|'d)\b|'(?:s|re|ve|ll|d)\b",
    re.I,
)


def _thing(x: str, strict: bool) -> bool:
    """Whether ``x`` can be a liked thing: not opening with a pronoun or a filler, and
    (``strict``, for a thing said first) a short phrase without a verb of its own."""
    if not x or _EN_NOT_THING.match(x):
        return False
    return not strict or (len(x.split()) <= 5 and not _EN_FINITE.search(x))


_EN_PREF_BLOCK = re.compile(
    r"\b(?:my|his|her|their|our)\s+(?:\w+\s+)?(?:says?|thinks?|likes?|prefers?)\b|"
    r"^(?:he|she|they|my (?:wife|husband|partner|friend|sister|brother|mom|dad|mother|father|"
    r"boss|son|daughter|kids?|colleague|roommate)\b|[A-Z][a-z]+\s+(?:(?:always|usually|never|only|"
    r"really)\b(?!\s+(?:is|isn't|are|aren't|was|wasn't|'s|\w+\s+me)\b)|(?:likes?|loves?|prefers?|hates?|"
    r"would|'d|says|thinks|enjoys?)\b))",
)
_ZH_PREF_BLOCK = re.compile(
    r"^(?:他|她|他们|她们|我(?:妈|爸|老婆|老公|朋友|同事|女儿|儿子|哥|姐|弟|妹)|"
    r"(?:很多|不少|好多|大部分|多数|有些|一些|别|有|大家|年轻|老)人|大家)"
)


def _split_other(value: str, lang: str) -> str:
    return tidy_value(value, lang)


# -- habits and choices said in any words -----------------------------------------------------
#: A categorical frequency: the habit is stated, not guessed.
_EN_ALWAYS = re.compile(
    r"\b(?:always|every\s+(?:single\s+)?\w+|each\s+\w+|whenever|never|only|religiously|"
    r"without fail|"
    r"as usual|as always|like always|I always do|all the time|daily|nightly|"
    r"for (?:\d+|many|several|ten|twenty) (?:years|decades)|rain or shine|can't live without|"
    r"(?:once|twice|three times|four times|five times|\d+ times|\w+ times) (?:a|per|every) "
    r"(?:day|week|month|year)|everywhere|every single time)\b",
    re.I,
)
_EN_HEDGED = re.compile(
    r"\b(?:usually|normally|typically|generally|mostly|mainly|often|regularly|tend to|"
    r"most (?:days|mornings|nights|evenings|weekends|of the time)|on weekends|weekly)\b",
    re.I,
)
#: A habit that ended, or is joked about: no preference now.
_EN_ENDED = re.compile(
    r"\b(?:used to|back in|back when|in my (?:twenties|thirties|teens|youth|twenties)|when I was|"
    r"those days|anymore|any more|haven't|hasn't|quit|stopped|gave up|gonna|going to|"
    r"wish|lmao|jk|kidding)\b|🙄|😂|🤣",
    re.I,
)
_EN_NOT_HABIT = re.compile(
    r"(?:am|'m|was|were|is|are|think|thought|feel|felt|say|said|guess|know|knew|mean|hope|"
    r"need|have to|has to|want|wanted|try|tried|forget|forgot|wonder|get|got|can|could|"
    r"should|must|go through|worry|worried|miss|missed|lose|lost|hate|hated|be|remember|"
    r"believe|keep|love|like|enjoy|appreciate|cherish|treasure|agree|hold|look|find|see|let|"
    r"bet|wonder|hope|wish|try|tried|make|made|put|give|gave|tell|told|ask|asked|call|called|"
    r"carry|carrying|support|help|helped|push|pushed|stick around|stay|stayed|feel)",
    re.I,
)
_EN_PAST = re.compile(
    r"(?:\w+ed|ran|went|ate|drank|took|bought|had|made|saw|chose|wore|drove|rode|swam|read|wrote|"
    r"got|picked)",
    re.I,
)
_EN_HABIT = re.compile(
    # (a clause of when, with no comma: "Whenever we travel I book window seats")
    r"(?:^|[,;]\s*|\b(?:and|but|so)\s+|"
    r"\b(?:whenever|every time|each time)\s+[^,;]{1,40}?\s+(?=I\b))"
    r"(?:(?:honestly|mostly|usually|normally|basically|generally|typically|every\s+\w+|"
    r"each\s+\w+|on\s+\w+|at\s+\w+)\s*,?\s+)*"
    r"(?:I(?:'d|'ll|\s+would|\s+will)?\s+|(?:I(?:'ve|\s+have)\s+)?(?=been\s+\w+ing\b))"
    r"(?:(?:always|usually|normally|"
    r"typically|"
    r"generally|mostly|mainly|often|regularly|only|still|just|also|almost always|pretty much|"
    r"basically|tend to|been|have been|'ve been|never|rarely|seldom|hardly ever|almost never|"
    r"nearly always|almost)\s+)*(?P<verb>[a-z]+(?:\s+(?:with|to|for|as|on|up|out|in))?)(?![\w'’])"
    r"(?:\s+(?P<x>[^,.;!?\n]{1,60}))?",
    re.I,
)
_EN_GENERIC_OBJECT = re.compile(
    r"^(?:the same(?: \w+)?|it|them|one|that|this|those|these|a lot|too much|so much|think|"
    r"not|nothing|anything|something)\b",
    re.I,
)
_EN_HABIT_CUT = re.compile(
    r"\s+(?:every|each|again|as usual|as always|like always|always|daily|religiously|"
    r"without fail|for (?:\d+|many|several|ten|twenty) (?:years|decades)|while|when|whenever|"
    r"before|after|because|since|so|but|and I|on (?:my|the|weekends)|at (?:the|work|home)|"
    r"in the (?:morning|evening)|rain or shine|no matter)\b.*$",
    re.I,
)


def _en_habit(clause: str) -> list[tuple[str, int, str]]:
    """A first-person habit or choice ("I run every morning", "I went with the window seat
    again, as usual", "Been using vim for 12 years") as a liking of what it is about."""
    s = clause.strip()
    explicit = _EN_ALWAYS.search(s)
    if not (explicit or _EN_HEDGED.search(s)) or _EN_ENDED.search(s):
        return []
    m = _EN_HABIT.search(s)
    if m is None:
        nominal = re.match(
            r"^(?P<x>[A-Za-z][\w' -]{2,30}?)\s+(?:every|each)\s+(?:single\s+)?(?:morning|day|"
            r"night|evening|week|weekend|year|month|time|\w+day)s?\b",
            s,
        )  # "Cold showers every morning, can't live without them"
        if nominal and _thing(nominal["x"], strict=True) and not re.search(r"ing\b", nominal["x"]):
            return [(tidy_value(nominal["x"], "en"), 1, "explicit")]
        return []
    verb = m["verb"]
    if _EN_NOT_HABIT.fullmatch(verb.split()[0]):
        return []
    if _EN_PAST.fullmatch(verb.split()[0]) and not re.search(
        r"as usual|as always|like always|I always do|every time|again,? as", s, re.I
    ):
        return []
    x = _EN_HABIT_CUT.sub("", " " + (m["x"] or "")).strip()
    x = re.sub(r"^(?:mostly|mainly|largely|primarily|usually|only|just)\s+", "", x, flags=re.I)
    x = re.sub(r"^(?:the same|my usual|my|the|a|an|some)\s+", "", x, flags=re.I)
    if not x or _EN_GENERIC_OBJECT.match(x):
        x = verb.split()[0]
    neg = re.search(r"\b(?:never|rarely|seldom|hardly)\b", s[m.start() : m.start("verb")], re.I)
    polarity = -1 if neg else 1
    return [(tidy_value(x, "en"), polarity, "explicit")]


_ZH_FREQ = (
    r"(?:每天|每周|每年|每月|每晚|每早|每次|每回|每个[\u4e00-\u9fff]{1,2}|一直|总是|永远|一般|通常|"
    r"平时|经常|常常|向来|一向|天天|基本上?|老是|往往|都是|又|还是|也|都|只|什么都|从来都|一年四季|"
    r"早上|晚上|周末|平常|平日|日常|一周|一个星期|一个月|主要|大多|多数|大部分时候)"
)
_ZH_ALWAYS = re.compile(r"每|一直|总是|永远|向来|一向|天天|只|都是|什么都|从来都|无\S不欢|越\S越好")
_ZH_ENDED = re.compile(
    r"以前|小时候|曾经|那时候|那会儿|上大学|读书的时候|戒了|不再|早就不|现在不|早不|已经不|"
    r"不玩了|不喝了|不吃了|开玩笑|说笑|😂|🤣|🙄|如果|要是|万一|假如|打算|准备|想要?试试"
)
_ZH_HABIT_VERBS = (
    r"(?:喝|吃|用|听|看|玩|买|点|穿|选|挑|开|坐|骑车|骑|跑步|跑|冲|泡|加|睡|读|写|做|去|逛|追|刷|"
    r"戴|带|订|住|走路|走|游泳|练|打)"
)
_ZH_HABIT = re.compile(
    rf"(?P<pre>[^，,。；;！!？?]{{0,16}}?)(?:(?<![们的])我(?![们的妈爸女儿子婆公朋同室老哥姐弟妹家])|"
    rf"^(?=每天|每周|每晚|每个|周末|平时|平常|早上|晚上|上午|下午|夏天|冬天|春天|秋天|假期|工作日|"
    rf"通勤|出门|在家|上班))"
    rf"[^，,。；;我]{{0,14}}?{_ZH_FREQ}+(?:早上|晚上|中午)?(?:都|也|会|是|只|要)*"
    rf"[^，,。；;]{{0,6}}?(?P<verb>{_ZH_HABIT_VERBS})了?(?P<x>[^，,。；;！!？?]{{0,14}})"
)
#: Someone other than the user, said first: "小王", "我哥", "他们", "老板".
_ZH_PERSON = re.compile(
    r"他|她|它们|[\u4e00-\u9fff]{0,2}(?:哥|姐|弟|妹|妈|爸|叔|姨|舅|总|老师|同学|同事|朋友|老板|"
    r"领导|室友|儿子|女儿|老婆|老公|孩子|宝宝|闺蜜|男友|女友|对象|家人|爷爷|奶奶|外婆|外公)|"
    r"小[\u4e00-\u9fff](?![时时候])|老[王李张刘陈杨赵黄周吴]|公司|学校|单位|部门"
)
_ZH_GENERIC_OBJECT = re.compile(r"^(?:同一款|同一个|一样的|这个|那个|它|这些|那些|这样|那样)")


def _zh_habit(clause: str) -> list[tuple[str, int, str]]:
    """A habit or choice said in Chinese ("我一直用 vim", "星巴克我每次都点馥芮白",
    "黑色运动鞋我每年都买同一款", "周末都是睡到自然醒") as a liking of what it is about."""
    s = clause.strip()
    if _ZH_ENDED.search(s) or _ZH_PREF_BLOCK.match(s):
        return []
    out: list[tuple[str, int, str]] = []
    idiom = re.search(
        r"无(?P<x>[\u4e00-\u9fff])不欢|(?P<y>[\u4e00-\u9fff]{1,4}?)(?:的)?越\S越好", s
    )
    if idiom:
        out.append((idiom["x"] or idiom["y"], 1, "explicit"))
    best = re.search(
        r"(?P<x>[^，,。；;！!？?我]{2,12}?)(?:效率最高|最舒服|最合适|最有感觉|最香|最好用|最顺手)",
        s,
    )
    if best:
        out.append((strip_particles(best["x"]), 1, "explicit"))
    out += _zh_habit_of(s[best.end() :] if best else s)  # the time it is best at is read
    weekly = re.search(
        r"我(?:一周|每周|一个星期|一天|每天|一个月|"
        r"每月)(?P<x>[\u4e00-\u9fff]{1,6}?)[一二三四五六七两几\d]+次",
        s,
    )
    if weekly:
        out.append((weekly["x"], 1, "explicit"))
    without = re.search(
        r"我[^，,。]{0,6}?(?:从来|一般|平时|都)?不(?:加|放)(?P<x>[\u4e00-\u9fff]{1,4})", s
    )
    if without and not out:
        out.append((without["x"], -1, "explicit"))
    unused = re.search(r"(?:用|吃|喝|穿|住|睡|看|听)不惯(?P<x>[^，,。；;！!？?]{1,10})", s)
    if unused:
        out.append((strip_particles(unused["x"]), -1, "explicit"))
    return out


#: A hypothetical or a time that is over: no taste now ("以前…", "之前一直…后来换了").
_ZH_NOT_NOW = r"如果|要是|假如|以前|过去|曾经|小时候|之前|原来|以往|那时候|后来(?:换|改|不)"


def _zh_habit_of(s: str) -> list[tuple[str, int, str]]:
    m = _ZH_HABIT.search(s)
    if m is None or not re.search(_ZH_FREQ, s):
        return []
    if re.search(r"(?:我们|他|她|他们|老板|同事)[^，,。]{0,4}" + _ZH_FREQ, s[: m.start("verb")]):
        return []
    if _ZH_PERSON.search(
        s[: m.start("verb")].split("我")[0]
        if "我" in s[: m.start("verb")]
        else s[: m.start("verb")]
    ):
        return []  # someone else's habit
    source = "explicit"  # a habit the user states, hedged or not
    polarity = -1 if re.search(r"(?:不|从不|很少|没)\S?$", s[: m.start("verb")]) else 1
    x = strip_particles(
        re.sub(r"(?:比较多|最多|居多|多一些|多一点|比较多一些)$", "", m["x"].strip())
    )
    if not x or _ZH_GENERIC_OBJECT.match(x):
        topic = strip_particles(re.sub(r"我.*$", "", m["pre"]).strip())
        x = topic if len(topic) >= 2 else m["verb"] + x
    elif len(x) <= 1:
        x = m["verb"] + x
    if len(x) < 2:
        return []
    return [(x, polarity, source)]


#: A request to the assistant ("Cite this article in APA for me", "给我列五个周末去处"): a
#: task for now, not a taste (a choice said so, "give me X any day", is one).
_EN_REQUEST = re.compile(
    r"^(?:please\s+|can you\s+|could you\s+)?(?:cite|write|make|find|book|get|fix|send|translate|"
    r"summari[sz]e|draft|check|show|tell|list|order|buy|plan|create|draw|explain|rewrite|edit|"
    r"proofread|format|convert|calculate|look up|search|give)\b"
    r"(?!.*\b(?:any day|any ?time|every time|over|instead of|rather than)\b)",
    re.I,
)
_ZH_REQUEST = re.compile(r"^(?:请|麻烦你?|你)?(?:给我|帮我|替我|帮忙)")
#: A demonstrative and a measure word first: one particular thing ("那家店的…", "这部电影…").
_ZH_DEICTIC = re.compile(r"^(?:这|那)(?:一)?[家个碗杯次部本首件款位场顿道份辆间]")
#: A time that is over: what was liked then was an episode ("昨天那碗汤太难喝了").
_ZH_PAST = re.compile(r"昨天|前天|昨晚|上次|刚才|那天|上周|上个月|去年")
#: The patterns, each behind the gate of its own cues (:mod:`.cues`): a clause holding none
#: of a pattern's words skips its search.
_EN_PREFS_RX = [(Cued(rx), pol) for rx, pol in _EN_PREFS]
_EN_FEELINGS_RX = [(Cued(rx), pol) for rx, pol in _EN_FEELINGS]
_ZH_PREFS_RX = [(Cued(rx), pol, other) for rx, pol, other in _ZH_PREFS]
_ZH_FEELINGS_RX = [(Cued(rx), pol) for rx, pol in _ZH_FEELINGS]
#: "nothing beats X", "I avoid X": read before any comparison or habit.
_EN_FIRST = [
    (rx, pol) for rx, pol in _EN_FEELINGS_RX if re.search(r"nothing beats|avoid", rx.pattern)
]
#: Those first, then the comparisons and habits: one table, so its cue index is built once.
_EN_FIRST_PREFS = _EN_FIRST + _EN_PREFS_RX


def preferences_of(clause: str) -> list[tuple[str, int, str]]:
    """``(value, polarity, source)`` of each preference ``clause`` states by comparison,
    habit or choice (the dispreferred side of a comparison is ``inferred``).

    Example:
        >>> preferences_of("Every morning I have a flat white.")  # a categorical habit: stated
        [('have a flat white', 1, 'explicit')]
        >>> preferences_of("Mostly I listen to 90s hip hop while coding.")  # hedged, still said
        [('90s hip hop', 1, 'explicit')]
        >>> preferences_of("Spicy food is not my thing.")
        [('Spicy food', -1, 'explicit')]
        >>> preferences_of("比起米饭，我更喜欢面条。")
        [('面条', 1, 'explicit'), ('米饭', -1, 'inferred')]
        >>> preferences_of("If I liked jazz I'd go.")
        []
    """
    s = plain_spelling(clause.strip())
    if not s or is_question(s) or NOW_ONLY.search(s):
        return []
    zh = is_cjk_text(s)
    if zh:
        if (
            ZH_HYPOTHETICAL.search(s)
            or ZH_REPORTED.search(s)
            or _ZH_PREF_BLOCK.match(s)
            or reported_zh(s)
        ):
            return []
        if re.search(_ZH_NOT_NOW, s) or _ZH_REQUEST.match(s):
            return []
        if (_ZH_PAST.search(s) or _ZH_DEICTIC.match(s)) and not re.search(
            r"我|每次|每天|一直|总是|经常|常常", s
        ):
            return []  # "昨天那碗汤太难喝了": one thing met once, not a kind
        cleft = cleft_of(s) or refusal_of(s)  # "加班是我最讨厌的事", "榴莲我闻都不能闻"
        if cleft:
            return cleft
        stance = stance_of(s)  # the grammar of a stance before any single phrasing
        for _, (pattern, pol, other) in open_entries(_ZH_PREFS_RX, s):
            m = pattern.search(s)
            if m is None:
                continue
            if stance and not other:  # only a comparison says more (its other side)
                return stance
            g = m.groupdict()
            x = tidy_value(g.get("x") or g.get("x2") or g.get("x3") or "", "zh")
            if not x or re.fullmatch(r"[你您他她它]们?|这个|那个|这样|那样|什么|哪个", x):
                continue
            if _ZH_DEICTIC.match(x):  # "这个方案我接受不了": one particular thing, not a kind
                continue
            out = [(x, pol, "explicit")]  # stated by the user, hedged or not
            if other and m.group("y"):
                y = tidy_value(m.group("y"), "zh")
                if y:
                    out.append((y, -pol, "inferred"))
            return out
        for _, (pattern, pol) in open_entries(_ZH_FEELINGS_RX, s):
            m = pattern.search(s)
            x = tidy_value(m.group("x"), "zh") if m else ""
            x = (
                re.sub(r"^(?:吃|喝)(?=.{2})", "", x)
                if pol < 0 and m and "不(?P<x>" in m.re.pattern
                else x
            )
            if x and not re.match(r"[你您他她它]们?|这个|那个|这样|那样|什么|哪个|的|了", x):
                return stance or [(x, pol, "explicit")]
        return (
            stance
            or _zh_habit(s)
            or attachment_of(s, True)
            or _restated(s, True)
            or leanings_of(s)  # "手机只用苹果", "我还是偏粤菜", "安卓用不惯"
        )
    if EN_HYPOTHETICAL.search(s) and not re.search(r"given the choice|if I had to", s, re.I):
        return []
    if re.search(r"\b(?:if|unless|suppose|used to|once|when I was)\b", s, re.I) and not re.search(
        r"given the choice|if I (?:had|have) to (?:choose|pick)|if it's up to me", s, re.I
    ):
        return []
    if EN_REPORTED.search(s) or _EN_PREF_BLOCK.search(s) or _EN_REQUEST.match(s):
        return []
    # "nothing beats X", "I avoid X": said before any comparison or habit reads them
    first = _EN_FIRST
    for i, (pattern, pol) in open_entries(_EN_FIRST_PREFS, s):  # the others find nothing
        if (pattern, pol) in first:
            m = pattern.search(s)
            x = tidy_value(m.group("x"), "en") if m else ""
            x = re.sub(r"^(?:the|a|an|some|my)\s+", "", x, flags=re.I)
            if (
                x
                and _thing(x, strict=False)
                and not re.fullmatch(r"it|them|that|this|those", x, re.I)
            ):
                return [(x, pol, "explicit")]
            continue
        i -= len(first)
        m = pattern.search(s)
        if m is None:
            continue
        x = tidy_value(m.group("x") or m.groupdict().get("x2") or "", "en")
        x = re.sub(r"^(?:the|a|an|some|my)\s+", "", x, flags=re.I) if i < 3 else x
        x = re.sub(r"^(?:give me|gimme)\s+(?:(?:a|an|the)\s+)?", "", x, flags=re.I)
        if not _thing(x, strict=m.start("x" if m.group("x") else "x2") <= 2):
            continue
        if not x or re.match(
            r"(?:it|that|this|them|those|these|you|one|ones|so|too|what|which|much|more|less|"
            r"sure|know|think|mean|do|did|not|can't|cannot|nothing|no one|nobody|there|he|she|"
            r"they|we|I)(?:\s|$)",
            x,
            re.I,
        ):
            continue
        out = [(x, pol, "explicit")]  # stated by the user, hedged or not
        if "y" in m.re.groupindex and m.group("y"):
            y = tidy_value(m.group("y"), "en")
            y = re.sub(r"^(?:the|a|an|some|my)\s+", "", y, flags=re.I)
            if y:
                out.append((y, -pol, "inferred"))
        return out
    for _, (pattern, pol) in open_entries(_EN_FEELINGS_RX, s):
        m = pattern.search(s)
        if m is None:
            continue
        x = tidy_value(m.groupdict().get("x") or m.groupdict().get("x2") or "", "en")
        x = re.sub(r"^(?:honestly|really|just|the|a|an|some|my)\s+", "", x, flags=re.I)
        if (
            x
            and _thing(x, strict=False)
            and not re.match(
                r"(?:it|that|this|them|you|he|she|they|we|I|there|what|which)(?:\s|$)", x, re.I
            )
        ):
            return [(x, pol, "explicit")]
    return (
        stance_of(s)
        or _restated(s, False)
        or _en_habit(s)
        or attachment_of(s, False)
        or leanings_of(s)  # "jazz is what I put on when I work"
    )


def _restated(s: str, zh: bool) -> list[tuple[str, int, str]]:
    """The preferences of ``s`` restated in a shape the readers know (a fronted adverbial
    off, a dropped Chinese subject back; :func:`.attachment.restated`)."""
    for again in (restated(s, zh), parted(s) if zh else None):  # "我坐车喜欢…": 我喜欢…
        found = preferences_of(again) if again and again != s else []
        if found:
            return found
    return []
