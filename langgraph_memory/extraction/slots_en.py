"""The English slot reader: where the user lives and works, what they do, whom they report
to and which team they are in, who someone is to them, how many of a thing they have, when
an event is, what they plan and how old a child or a pet is.

:func:`en_slots` reads the statements of one English message into ``(key, value, offset)``
slots, each pattern behind the gate of its own cues (:mod:`.cues`); :func:`.slots.slots_of`
calls it and drops what is someone else's.

Example:
    >>> en_slots("Last day at Shopify was Friday; I start at Stripe on Monday!")
    [('employer', 'Stripe', 43)]
"""

from __future__ import annotations

import re

from langgraph_memory.extraction.cues import Cued
from langgraph_memory.extraction.slot_words import (
    COUNTED_RX,
    DATE_EN,
    MONTH,
    NOT_NAMED,
    NUM_EN,
    Slot,
    compiled,
    event_of,
    first_value,
    kind_of,
    last_value,
    within_clause,
)
from langgraph_memory.extraction.whereabouts import not_lived_at

__all__ = ["en_slots"]

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
    rf"(?P<v>{NUM_EN}|a second|a third|a fourth|a fifth|another|an?)\s+(?:more\s+)?(?P<n>[a-z]+)",
    rf"\b(?P<n>[a-z]+)\s+number\s+(?P<v>{NUM_EN})\b",
    rf"\b(?:number|no\.)\s+(?P<v>{NUM_EN})\s+(?P<n>[a-z]+)",
    rf"\b(?:is|are|at|up to|now)\s+(?:at\s+)?(?P<v>{NUM_EN})\s+(?:now|total|in total)\b",
    rf"\b(?P<v>{NUM_EN})\s+(?P<n>[a-z]+)\s+(?:now|in total|total|altogether)\b",
    rf"\b(?P<v>{NUM_EN})\s+(?P<n>[a-z]+)\s+on my\b",
    rf"\b(?:up to|now at|at|now have|now got)\s+(?P<v>{NUM_EN})\s+(?P<n>[a-z]+)",
    # how many so far: "I've done five so far", "finished my sixth marathon"
    rf"\b(?:done|run|read|finished|completed|visited|climbed|written)\s+(?P<v>{NUM_EN})\s+"
    r"(?:(?P<n>[a-z]+)\s+)?(?:so far|in total|total|already|now)\b",
    r"\bmy\s+(?P<v>second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|"
    r"\d+(?:st|nd|rd|th))\s+(?P<n>[a-z]+(?:\s+[a-z]+)?)",
]
#: "We launch the app on September 5": the date of what the user does, by its verb.
_EN_DATE_DOING = Cued(
    re.compile(
        rf"\b(?:we|I)(?:'re|'m| are| am)?\s+(?P<e>launch(?:ing)?|ship(?:ping)?|releas(?:e|ing)|"
        rf"fly(?:ing)?|mov(?:e|ing)|(?:get|getting) married)\b[^.;!?]{{0,25}}?\b(?:on|for)\s+"
        rf"(?P<v>{DATE_EN})",
        re.I,
    )
)
_EN_DATE_SET = Cued(
    re.compile(
        rf"\b(?:the|my|our)?\s*(?P<e>[\w ]{{2,30}}?)\s+(?:is|was|'s)\s+(?:now\s+)?(?:on|for|"
        rf"scheduled for|set for|planned for|booked for)\s+(?P<v>{DATE_EN})"
        # "the appointment is now March 10": a bare date once "now" says it changed
        rf"|\b(?:the|my|our)?\s*(?P<e2>[\w ]{{2,30}}?)\s+(?:is|'s)\s+now\s+(?P<v2>{DATE_EN})",
        re.I,
    )
)
_EN_DATE_MOVED = Cued(
    re.compile(
        rf"\b(?:pushed|moved|postponed|rescheduled|delayed|bumped|brought|shifted|rebooked|changed|"
        rf"slipped|slips|slid|pulled|got pushed|was moved|is now|shifts|pushes|"
        rf"moves(?!\s+(?:in|out)\b))"
        rf"(?P<e>[\w ]{{0,40}}?)\s+(?:back\s+|forward\s+|up\s+)?(?:to|until|for)\s+"
        rf"(?P<v>{DATE_EN})",
        re.I,
    )
)
_EN_DATE_NOW = Cued(
    re.compile(
        rf"\b(?P<e>fly|flying|fly out|leave|leaving)\b[^.;!?]{{0,20}}?\bon\s+(?P<v>{DATE_EN})",
        re.I,
    )
)
#: When a trip is to be: "in May", "next week", "tomorrow", "on Friday", "for two weeks".
_EN_WHEN = (
    rf"(?:in\s+(?:{MONTH}|(?:a|two|three|a few|\d+)\s+(?:days?|weeks?|months?))|"
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

#: Who the job is for, named after it: "a regulatory writer at Pfizer", "an engineer for Arup".
_EN_JOB_AT = re.compile(
    r"\s+(?:at|for|with)\s+(?P<v>(?:the\s+)?[A-Z][\w&'.-]*(?:\s+(?:[A-Z][\w&'.-]*|of|&)){0,3})"
    r"(?=\s*(?:[,.;!?)]|$|\s+(?:now|since|these|currently|for|in|and|but|as|so|lol)\b))"
)
_EN_STUDENT = re.compile(r"\b(?:student|pupil|undergrad\w*|freshman|sophomore|phd|grad)\b", re.I)
_EN_CITY_RX = compiled(_EN_CITY)
_EN_EMPLOYER_RX = compiled(_EN_EMPLOYER)
_EN_JOB_RX = compiled(_EN_JOB, re.I)
_EN_MANAGER_RX = compiled(_EN_MANAGER)
_EN_DEPARTMENT_RX = compiled(_EN_DEPARTMENT)
_EN_ROLE_RX = compiled(_EN_ROLE)
_EN_COUNT_RX = compiled(_EN_COUNT, re.I)
_EN_PLAN_RX = compiled(_EN_PLAN, re.I)


def en_slots(text: str) -> list[Slot]:
    out: list[Slot] = []

    def add(key: str, value: str, at: int) -> None:
        value = _EN_TIME_TAIL.sub("", within_clause(value.strip(" ,.;:!'\""))).strip(" ,")
        if value and not any(k == key for k, _, _ in out):
            out.append((key, value, at))

    lives = first_value(text, _EN_CITY_RX)
    if lives and not_lived_at(text, lives[1]):
        lives = None  # "moving to Denver next month", "I used to live in Rome", "went to Paris"
    if lives and re.fullmatch(
        rf"{MONTH}|(?:mon|tues|wednes|thurs|fri|satur|sun)day", lives[0], re.I
    ):
        lives = None  # "moved to Thursday": a date
    if lives:
        add("location", lives[0], lives[1])
    ended = _EN_JOB_ENDED.search(text)
    free = _EN_FREELANCE.search(text)
    # "Last day at Shopify… I start at Stripe": the latter
    works = last_value(text, _EN_EMPLOYER_RX)
    if works is None and _EN_WORK_TALK.search(text):  # "switched jobs, currently at KPMG"
        works = last_value(text, [_EN_NOW_AT_RX])
    if ended:
        works = None
    if works and NOT_NAMED.fullmatch(works[0]):
        works = None  # "Our company is Hiring": no name
    if works and not re.match(r"(?:I|The|My|We|Monday|Friday|Today)$", works[0]):
        add("employer", works[0], works[1])
    elif free and not ended:
        add("employer", free["v"].replace("a freelancer", "freelance"), free.start("v"))
    job = None if ended else first_value(text, _EN_JOB_RX)
    if job:
        add("occupation", re.sub(r"^(?:a|an)\s+", "", job[0], flags=re.I), job[1])
        employer_named = _EN_JOB_AT.match(text, job[1] + len(job[0]))  # "a nurse at St Mary's"
        if (
            employer_named
            and not works
            and not NOT_NAMED.fullmatch(employer_named["v"])
            and not _EN_STUDENT.search(job[0])  # "a student at MIT": a school, no employer
        ):
            add("employer", employer_named["v"], employer_named.start("v"))
    boss = last_value(text, _EN_MANAGER_RX, lambda m: not NOT_NAMED.fullmatch(m["v"]))
    if boss:
        add("manager", boss[0], boss[1])
    team = last_value(text, _EN_DEPARTMENT_RX, lambda m: not NOT_NAMED.fullmatch(m["v"]))
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
            kind = kind_of(noun, COUNTED_RX) if noun else kind_of(text, COUNTED_RX)
            if kind:
                counts.append((kind, m["v"], m.start("v")))
    # a number said outright ("three cats now") beats one implied ("another kitten"), and
    # a later one an earlier one ("two more, so five now")
    counts.sort(key=lambda c: (not re.fullmatch(NUM_EN, c[1], re.I), -c[2]))
    if counts:
        add(f"number of {counts[0][0]}", counts[0][1], counts[0][2])
    for rx in (_EN_DATE_MOVED, _EN_DATE_SET, _EN_DATE_NOW, _EN_DATE_DOING):
        m = rx.search(text)
        if m is None:
            continue
        at, named = ("v", m["e"]) if m["v"] else ("v2", m["e2"])  # the "is now <date>" form
        event = event_of(named or "", text)
        if event:
            add(f"date of {event}", m[at], m.start(at))
            break
    plan = first_value(text, _EN_PLAN_RX)
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
        rf"\b(?:is|'s|turned|turns|just turned)\s+(?P<v>{NUM_EN})"
        r"(?:\s+(?:years?|months?)\s+old)?\b"
    )
)
