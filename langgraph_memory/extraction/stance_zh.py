"""The Chinese reader of an evaluative stance: the user as subject ("我真心不喜欢人多的地方"),
the topic first ("电子书我看不进去"), the user's taste, side and first choice, a thing and
how it is for the user ("香菜是我的噩梦", "养花让我特别放松"), and the cleft
("加班是我最讨厌的事").

:func:`zh_stance` reads one Chinese clause; :func:`.stance.stance_of` calls it for a
Chinese clause (see :mod:`.stance` for the grammar it reads).

Example:
    >>> zh_stance("我真心不喜欢人多的地方。")
    [('人多的地方', -1, 'explicit')]
    >>> zh_stance("火锅我是来者不拒")
    [('火锅', 1, 'explicit')]
"""

from __future__ import annotations

import re

from langgraph_memory.extraction.clauses import strip_particles
from langgraph_memory.extraction.stance_en import Stance

__all__ = ["cleft_of", "zh_stance"]

#: Where a Chinese object ends.
_ZEND = r"(?=$|[，,。.!！?？;；\n~～]|了|啦|哦|呀|吧)"
_ZH_FAVOURITE_BESIDE = re.compile(
    r"(?:个|份|杯|碗|块|盒|些|了|点)(?P<x>(?![个份杯碗块盒些了点])[\u4e00-\u9fffA-Za-z]{2,6})[，,！!—]+\s*"
    r"(?:这|那)?(?:可是|真是|就是|是)?我的(?:最爱|心头好|心头肉|命)"
)

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
#: The topic taken up again by a demonstrative ("榴莲这玩意儿我…", "榴莲那个味儿我…",
#: "健身房那种氛围我…"): the topic is the thing.
_RESUMED = r"(?:这|那)(?:个|种|类)?(?:玩意儿?|东西|味儿|味道|气味|事儿?)|那种|这种|这类|那类"
#: The topic first, then the user's stance: "X我最爱了", "电子书我看不进去", "火锅我来者不拒".
_ZH_TOPIC = re.compile(
    r"^(?P<x>[^，,。；;！!？?我你他她它这那]{1,10}?)(?:之类的?|" + _RESUMED + r")?(?:的话|呢|嘛)?"
    r"(?<![让令使叫])(?:我|我是|我就|我也|我都)"  # "瑜伽让我放松": a cause (_ZH_FEELS)
    + _ZH_ADV
    # "隔着三米都受不了", "闻一下都…": how little of it is enough, then the stance
    + r"(?:[^，,。；;！!？?我你他她它]{1,6}?都)?"
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
            r"^(?!一\S就)(?P<x>[^，,。；;！!？?我]{1,10}?)我?(?:真的|可以|能|都)*(?:百\S不厌|"
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


def zh_stance(s: str) -> Stance:
    """A kind of thing and how the user finds it, in Chinese."""
    frame = _ZH_FRAME.match(s)
    if frame:  # "周末我就爱宅家打游戏": the stance said after the time it holds at
        return zh_stance(s[frame.end() :])
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
