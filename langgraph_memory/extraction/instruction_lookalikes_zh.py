"""What looks like a Chinese standing instruction and is none, or stands for one made
before (see :mod:`.instructions_zh`).

Thanks and assent (:data:`COURTESY`: "谢啦"), advice between people (:data:`ADVICE`: "别担心"),
a guess (:data:`MAYBE`: "说不定会…"), the user announcing their own next words
(:data:`ANNOUNCE`: "问你个问题"), the talk put off (:data:`DEFER`: "再说吧", "以后再说"), a
question without its mark (:data:`WH`: "推荐啥软件"), a story of the user's past
(:data:`PAST_STORY`: "以前每周日都会去爬山，后来…"); and a pro-form for the request made
before, after a lasting scope (:data:`SAME_AGAIN`: "(以后)都这样").

Example:
    >>> bool(DEFER.match("再说吧")), bool(DEFER.match("再说一遍"))
    (True, False)
    >>> bool(WH.search("推荐啥软件")), bool(WH.search("不管什么问题都用中文"))
    (True, False)
"""

from __future__ import annotations

import re

__all__ = [
    "ADVICE",
    "ANNOUNCE",
    "ASKS_HERE",
    "COURTESY",
    "DEFER",
    "MAYBE",
    "PAST_STORY",
    "SAME_AGAIN",
    "STATES",
    "WH",
]

#: Thanks and assent after a clause, not a rule: "…，谢啦", "…，好的".
COURTESY = re.compile(r"(?:谢|多谢|感谢|辛苦|好的|好吧|好嘞|嗯|哈|哦|啊|行吧|收到)")
ADVICE = re.compile(
    r"^(?:担心|着急|急|害怕|怕|难过|生气|客气|放弃|紧张|慌|灰心|多想|想太多|在意|介意|管|理|"
    r"忘了|忘记|熬夜|喝酒|吸烟|抽烟|迟到|哭)(?!着)"
)


#: A guess opening a clause: "说不定会…", "可能会…", "大概…" (what might be, not a rule).
MAYBE = re.compile(r"^(?:说不定|不一定|可能|也许|或许|大概|估计|恐怕|没准|指不定|八成)")
#: The user announcing their own next words: "先说个事儿", "问你个问题", "跟你说件事".
ANNOUNCE = re.compile(
    r"^(?:我)?(?:先|再|就|想|要)?(?:说|问|讲|聊|提|跟你说|和你说|问你|跟你讲|告诉你)(?:一)?"
    r"(?:个|件|下|几个|两个|几件)(?:小)?(?:事|事儿|事情|问题|消息|想法|情况)"
)
#: Putting a talk off: "再说吧", "以后再说", "回头再聊" (later, not a rule for the replies).
DEFER = re.compile(
    r"^(?:以后|之后|回头|改天|到时候?|下次|过两天|有空|等等|等会儿?|先)?再(?:说|讲|聊|看|议|商量|考虑)"
    r"(?:吧|啦|了|呗|哈|呀)*(?:[，,；;]|$)"
)
#: A pro-form for the request before, after a lasting scope: "(以后)都这样", "(每次)就照这个来".
SAME_AGAIN = re.compile(
    r"^(?:也|都|就|还|继续)*(?:这样|照这样|这么办|这么来|照这个来|按这个来|如此|照此|这么写|这么做)"
    r"(?:吧|啊|哈|哦|呀|就行|就好)*$"  # not "都这样了": what has become of it
)
#: A question word, not of a free choice ("不管什么…", "什么…都") nor of what to tell
#: ("直接说怎么做"): "推荐啥软件".
WH = re.compile(
    r"(?<!不管)(?<!无论)(?<!不论)(?<![说讲问道诉])"  # not "直接说怎么做": what to tell
    r"(?:啥|什么|哪(?:个|些|里|儿|家|种|位)|怎么|怎样|为什么|为啥|多少)"
    r"(?![^，,。；;]*[都也])"
)
#: A story of the user's past: "以前每周日都会去爬山，后来…", "小时候我…" (what was, not a rule).
PAST_STORY = re.compile(r"(?:^|[，,我])(?:以前|之前|曾经|过去|小时候|那时候|当年)|后来")
#: A statement of how things are, said of a person's or a group's things ("团队的密钥都放在
#: Vault 路径下", "我的代码都放在 GitHub 上") or giving the user's own value ("…：我的学号是
#: 20417736"); not what the assistant writes ("代码的注释都用英文写": a rule).
STATES = re.compile(
    r"^(?:我|我们|咱们|团队|公司|组里|部门|家里|他|她|他们|她们|老板|同事|客户)的[^，,。；;]{1,10}?"
    r"(?:都|全都|全部|已经|一直|还)"
    r"|我的[^，,。；;]{1,6}?(?:是|叫)\s*[\w-]"
)
#: What asks something of the assistant, whatever statement is around it.
ASKS_HERE = re.compile(r"给我|帮我|请|麻烦|记得|记住|别|不要|你")
