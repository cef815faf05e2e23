"""Standing instructions in Chinese, recognised by their form (see :mod:`.instructions`).

A clause is one when it is addressed to the assistant: a prohibition ("别用表情"), a modal
("你回答要简短"), a want whose object is the replies ("我要简短的回答"), a conditional whose
condition is about the conversation, said with or without a comma ("推荐餐厅的时候别推荐
有肉的", "不确定的时候先问我", "不知道就直说"), a part of the replies and its rule
("代码用 Tab 缩进", "语气保持中立", "结论段就不用了") or how to talk ("跟我说话像朋友一样").
Its own habits ("打游戏我永远玩奶妈"), others' words, favours between friends ("记得给我寄明信片")
and "你知道吗…" are none; so is what people in a chat say to each other: a modal of care
that names no part of the replies ("你要多注意休息"), a "别…了" that asks to stop now ("别说了"),
an unscoped reminder about someone ("提醒他…", "提醒我买礼物"), 回 as going back ("回，开车回去").

Example:
    >>> zh_instruction("用中文回答。")
    ('用中文回答', 1)
    >>> zh_instruction("帮我翻译一下这段话。") is None
    True
    >>> zh_instruction("你要注意身体啊。"), zh_instruction("别讲了，烦死了。")
    (None, None)
"""

from __future__ import annotations

import re

from langgraph_memory.extraction.clauses import (
    ZH_HYPOTHETICAL,
    ZH_REPORTED,
    is_question,
    reported_zh,
    strip_particles,
)
from langgraph_memory.extraction.instruction_lookalikes_zh import ADVICE as _ZH_ADVICE
from langgraph_memory.extraction.instruction_lookalikes_zh import ANNOUNCE as _ZH_ANNOUNCE
from langgraph_memory.extraction.instruction_lookalikes_zh import ASKS_HERE as _ZH_ASKS_HERE
from langgraph_memory.extraction.instruction_lookalikes_zh import COURTESY as _ZH_COURTESY
from langgraph_memory.extraction.instruction_lookalikes_zh import DEFER as _ZH_DEFER
from langgraph_memory.extraction.instruction_lookalikes_zh import MAYBE as _ZH_MAYBE
from langgraph_memory.extraction.instruction_lookalikes_zh import PAST_STORY as _ZH_PAST_STORY
from langgraph_memory.extraction.instruction_lookalikes_zh import SAME_AGAIN as _ZH_SAME_AGAIN
from langgraph_memory.extraction.instruction_lookalikes_zh import STATES as _ZH_STATES
from langgraph_memory.extraction.instruction_lookalikes_zh import WH as _ZH_WH

__all__ = [
    "zh_instruction",
    "zh_lasting_scope",
    "zh_made_said_of",
    "zh_one_thing",
    "zh_said_by_another",
]

# -- standing instructions (Chinese) ----------------------------------------------------------
_ZH_LEAD = re.compile(
    r"^\s*(?:(?:好的|好吧|好|嗯|哦|对了|另外|还有|"
    # "顺便说一下，…" announces; "顺便说一下大概热量" asks to mention it
    r"(?:顺便说一下|补充一下|再说一下|提醒一下|说一下)(?=[，,：:\s]|以后|今后|从|每次|你|我|别|不要|请|记)|"
    r"顺便|补充|麻烦|至少|起码|拜托|那|那么|然后|以及|最后|还有一点|一个要求|一个请求|规矩是|"
    r"以后|今后|往后|从现在开始|从现在起|从今以后|从今天起|从今往后|接下来|之后|每次|每回|"
    r"任何时候|无论什么时候|不管什么时候|记住|记得|请记住|请记得|注意|请注意|提醒你|说好了|"
    r"重要|一个规矩|还有个事|还有件事|所以|因此|因为这样)[，,：:]?\s*)+"
)
_ZH_SCOPE = re.compile(
    r"记住|记得|(?:^|[，,])(?:以后|之后)|(?:以后|之后)(?=都|请|你|也|就|别|不要)|今后|往后|从现在|从今|"
    r"每次|每回|每当|总是|始终|永远|一律|统一(?=用|成|按|写|改)|所有|凡是|任何时候|随时|一定要|务必|"
    r"千万|必须|尽量|都要|都用|都得|都请|都别|都不要|默认|不管什么|无论|再也|再"
)
#: A scope that lasts in time, as a polite question asks for it ("以后能不能…", "别再…").
_ZH_TIME_SCOPE = re.compile(r"以后|今后|往后|从现在|每次|每回|总是|一直|永远|再也|别再|不要再|老是")
#: A prohibition ("别…", "不要…"; not "别的", "别人": other ones, other people).
_ZH_PROHIBIT = re.compile(
    r"^(?:请|你|请你|你们|以后|今后|每次|都|也|千万|一定|永远|再也|就)*"
    r"(?P<neg>不要|别(?![的人处扭墅致针])|不许|不准|禁止|请勿|勿|不用|无需|不必|不需要|少|避免|停止|不能|不可以|不得)"
    r"(?:再|总是|老是|总|老|一直|给我)?"
)
_ZH_MODAL = re.compile(
    r"^(?:你|您|你们)(?:以后|今后|每次)?(?:都)?(?:应该|要|得|必须|需要|最好|一定要|务必|记得|可以)"
    r"(?P<neg>不要|别|不能|不用)?"
    r"|^(?:你的|您的|给我的|我的|你给我的)?(?:回答|回复|答复|答案|解释|代码|输出|说明|例子|示例|内容)"
    r"(?:里|中|的时候|时)?"
    r"(?:都|请|也)?(?:要|得(?!不错|很|挺|真|太|好|棒|非常|特别|蛮|还|对|清楚|漂亮|精彩|一般|不)|应该|"
    r"必须|需要|一定要|务必|尽量|最好|一律|统一|不要|别|不能|不用)"
    r"|^我(?:希望|想要|想让|要|需要|要求)(?:你|您)(?:以后|今后|每次)?(?:都)?(?:能)?(?P<neg2>不要|"
    r"别)?"
)
_ZH_COND = re.compile(
    r"^(?P<cond>(?:如果|要是|假如|当|每当|每次|每回|只要|一旦|凡是|遇到|碰到)[^，,。；;]{1,30}?"
    r"(?:的话|的时候|时候|时|之后|以后)?)(?:[，,]\s*(?:那么?|就|请|都|也|则|便)*|就|"
    r"(?<!顺)便)(?P<rest>.+)$"
    r"|^(?P<cond2>[^，,。；;]{1,30}?(?:的时候|时候|时))[，,]\s*(?P<rest2>.+)$"
    r"|^(?P<cond3>(?:你|在|每次|当|我让你|我叫你|我没有?(?=问)|我(?=问))*(?:推荐|给|写|回答|回复|解释|讲|说|提到|聊到|谈到|"
    r"说到|讲到|涉及|翻译|点评|评价|修改|改|算|计算|列|总结|举例|介绍|描述|分析|报|用|做|教|查|"
    r"引用|比较|问|跟我说|跟我讲|帮我|不确定|不知道|没把握|拿不准|不清楚|遇到|碰到|看|审|指出|检查|"
    r"评|聊|谈)[^，,。；;]{0,20}?(?:的时候|时候|时|之前|以前|之后|前|的地方))"
    r"[，,]?\s*(?:那么?|就|请|都|也|则|便)*(?P<rest3>(?!候)[^，,。；;].*)$"
    r"|^(?P<cond5>[^，,。；;]{2,30}?(?:的时候|时候))(?=你|您|请|就|都|别|不要)(?P<rest5>.+)$"
    r"|^(?P<cond4>(?:你|我|要是|如果)?(?:不确定|不知道|没把握|拿不准|不清楚|不会|答不上来|查不到|"
    r"没有(?:答案|把握|资料))[^，,。；;就]{0,12}?)(?:的话)?[，,]?\s*(?:那就|就|那)(?P<rest4>.+)$"
    r"|^(?P<cond6>[^，,。；;]{2,30}?的话)\s*(?:那么?|就|请|都|也|则|便)*(?P<rest6>[^，,。；;\s].*)$"
    r"|^(?P<cond7>(?:每次|每回|每当)[^，,。；;都]{1,20}?)(?P<rest7>都.+)$"
    # a topic the talk comes to, then 就 without a comma: "聊到吃的就顺便说一下热量"
    r"|^(?P<cond8>(?:你|我们|咱们)?(?:聊到|说到|提到|谈到|讲到|涉及到?|问到|遇到|碰到)[^，,。；;就]{1,12})"
    r"就(?P<rest8>.+)$"
    # a topic the talk comes to, then a comma: "说到吃的，推荐本地的店" (not "说到这个，…")
    r"|^(?P<cond9>(?:你|我们|咱们)?(?:聊到|说到|提到|谈到|讲到|涉及到?)(?![这那])[^，,。；;]{1,12})"
    r"[，,]\s*(?P<rest9>[^，,。；;].*)$"
)
#: Verbs of what the assistant does or makes, opening a Chinese imperative.
_ZH_VERBS = re.compile(
    r"^(?:请|你|记得|要|都|就|也|先|顺便|尽量|帮我|一定|务必|一律|统一|多|少|直接|总是|始终|永远|一直|只|同时|优先|"
    r"在[^，,。]{0,6}?(?:开头|结尾|最后|前面|后面|末尾|最前面|里|中)|[^，,。]{1,6}?地|跟我|对我|和我)*"
    r"(?:问我|问问我|直说|明说|核对|检查|验算|告诉我|给(?!他|她|它|别人|大家)|用|使用|回答|回复|答复|说|讲|写|给我|给出|列出|列|总结|概括|保持|控制|附上|附|加上|加|"
    r"标注|标明|注明|引用|解释|说明|翻译|叫我|称呼我|称我|推荐|建议|提醒|告诉我|输出|显示|展示|"
    r"按|按照|以|采用|带上|带|放(?![假心学弃松过])|把|换成|改成|改用|切换|分点|分条|分段|举例|举个例子|给个|提供|"
    r"省略|跳过|去掉|删掉|避免|注意|考虑|确认|标出|配上|换算|写成|说成|翻成|统一用|一律用|"
    r"保留|精简|简化|展开|详细|简短|简洁|直接|先说|先给|署名|签名|落款|称|换|转换|转成|折算|"
    r"四舍五入|精确到|写明|标|附|备注|剧透|指出|避开|安排|默认|回(?=我|消息|信息|邮件|信|微信|短信|评论|帖子|留言|私信|弹幕)|答)"
)
_ZH_MANNER = re.compile(
    r"回答|回复|答复|答案|解释|中文|英文|汉语|英语|日语|简体|繁体|普通话|粤语|简洁|简短|简单|"
    r"详细|啰嗦|废话|客套|长篇大论|要点|分点|列表|表格|代码|注释|类型注解|格式|markdown|"
    r"Markdown|表情|emoji|语气|口吻|正式|口语|幽默|礼貌|例子|示例|举例|引用|来源|出处|参考|"
    r"字数|字以内|字以下|一句话|句话|段落|标题|公制|英制|摄氏|华氏|公里|单位|日期|时间|时区|"
    r"货币|人民币|美元|价格|术语|专业|通俗|口诀|步骤|编号|总结|结论|先|开头|结尾|称呼|叫我|"
    r"名字|推荐|建议|提醒(?![我你他她它])|辣|素|Python|python|SQL|sql|客气|绕弯子|编造|瞎编|"
    r"英文|单词|拼音|翻译|长度|篇幅|问题|追问|确认|道歉|寒暄|客套|重复|废话|拼写|结尾|结论|"
    r"温度|距离|重量|金额|数字|缩进|空格|项目符号|形容词|被动句|句子|法语|德语|西班牙语|韩语|"
    r"俄语|书名号|标点|引号|括号|选项|背景|结论段|段落|语气|用词|措辞|人话|"
    r"用\s*[A-Za-z]"  # a language or a tool of its own: "用Go写", "用 TypeScript"
)
_ZH_ONE_OFF = re.compile(
    r"[这那]一?(?:个|家|本|部|首|篇|段|句|份|些|张|次|回|位|条|件|道|款|封|幅|场|间|台|里|题)|"
    r"上面|下面|刚才|"
    r"(?<![零一二三四五六七八九十百千万\d])以下|如下|(?<!都)(?<!一律)(?<!统一)(?<!全部)帮我|给我写|"
    r"现在就|马上|今天|明天|今晚|明早|明晚|"
    r"待会|等会|"
    r"(?:写|做|画|生成|编|起|列|给|找|推荐|讲|设计|翻译)(?:一|几|两|三|四|五|个)(?:个|篇|首|封|份|"
    r"段|张|条|些|下|句)?"
    r"(?:[^，,。]{0,8})?(?:函数|程序|脚本|代码|故事|诗|邮件|文章|笑话|方案|计划|名字|标题|例子|文案|总结|回复|说明|测试|接口|页面)"
)
#: What is one-off only when nothing gives it a lasting scope: "说一下", a count of a thing
#: ("推荐个零食", "推荐几本书"); "每次推荐书的时候顺便说一下评分" is a rule.
_ZH_SOFT_ONE_OFF = re.compile(
    r"一下|(?:推荐|写|做|画|生成|编|起|列|给|找|讲|设计|翻译|来|想|取|选|挑|出|带|举|说|发)"
    r"(?:一|几|两|三|四|五|六|七|八|九|十)?(?:个|本(?![地人身来])|部|首|篇|封|份|段|张|条|些|"
    # not "本地", "家常": words of their own
    r"家(?![常里人乡庭具])|道|款|种|句|套|杯|瓶|盒|件|首|部)"
)
#: A polite question after the part of the replies it is about: "你说话能不能别那么官方".
_ZH_POLITE_AFTER = re.compile(
    r"^(?P<topic>(?:你|您)?(?:说话|讲话|回答|回复|解释|聊天|写东西|写代码|讲东西)(?:的时候|时)?|"
    r"(?:你|您)?[^，,。？?你您我]{1,8}?(?:之前|以前|的时候|之后))"  # "算数之前能不能…"
    r"(?:能不能|能否|可不可以|可以不可以)(?:请|再)?"
)
#: A last clause that makes the rest last: "…，以后都这样", "…，以后就照这个来".
_ZH_KEEP_SO = re.compile(
    r"[，,]\s*(?:以后|今后|往后|之后|从现在起|从今以后|每次|一直)(?:也|都|就)*(?:这样|照这样|这么办|"
    r"这么来|照这个来|按这个来|如此)(?:吧|啊|哈|哦|了|呀|啦)*$"
)
_ZH_POLITE = re.compile(r"^(?:你|您)?(?:能不能|能否|可不可以|可以|能|麻烦你|麻烦)(?:请你|请|你)?")
#: Quoted speech: words after a speech verb, or in quotes a speech verb follows.
_ZH_QUOTED = re.compile(
    r"(?:说|道|写着|问|喊)[：:，,]?\s*[“「『\"]|[”」』\"]\s*(?:他|她|我妈|我爸|老板)?(?:说|道)"
)
_ZH_RULE_LABEL = re.compile(
    r"^(?:[一两三几]?条|我的|我们的|几个)?(?:规则|规矩|要求|约定|"
    r"原则)(?:是)?[：:]\s*(?P<rule>.{2,})$"
)
#: A condition about the conversation: what the user asks or says, what the reply holds.
_ZH_COND_ABOUT = re.compile(
    r"你|我|问|提到|说到|聊到|谈到|讲到|涉及|关于|有关|写|回答|回复|推荐|翻译|计算|算|"
    r"不确定|不知道|没把握|拿不准|不清楚|需要|遇到|碰到|出现"
)
#: A topic first, then the rule for it: "所有金额都…", "快捷键给我…", "代码一律…".
_ZH_TOPIC = re.compile(
    r"^(?!直接|先|尽量|一定|务必|必须|总是|一直|永远|只|再|还|多|少)"
    r"(?:所有的?|全部的?|凡是|每个|每一个|每封|每篇|每段|每次|任何)?"
    r"(?P<topic>[^，,。；;我你他她人们组]{1,8}?)"
    r"(?:(?:都|一律|统一|全部|全都|请|就|要|得|同时|也|只)(?=帮我|给我|给|用|写|说|按|换算|保留|加上|"
    r"附上|标注|写成|署名|签名|落款|放在|放(?![假心学弃松过])|列|翻译|不要|别|请勿|一律|统一)|"
    r"(?<![能会肯])(?=给我|别|不要|请勿|不许)"  # not "…能给我讲三遍": what one can do
    r"|优先(?=[\u4e00-\u9fff])"  # "出差行程优先安排高铁": a priority is a rule
    r"|(?<=代码|日期|时间|价格|金额|温度|距离|重量|单位|数字|回答|回复|标题|列表|注释|缩进|变量)"
    r"(?=用|写成|按|保留|加|标|以|统一|一律))"
)
#: How the assistant should talk, asked of it: "你说话直接一点", "回答简洁些", "您解释得通俗点".
_ZH_MANNER_ASK = re.compile(
    r"^(?:你|您)?(?:以后|平时|跟我)?(?:说话|讲话|聊天|回答|回复|解释|写东西|讲)(?:的时候)?(?:得|要|请|就|"
    r"可以|能|再|都)*(?P<how>直接|简洁|简短|简单|直白|正式|随意|客气|温柔|耐心|幽默|具体|详细|通俗|"
    r"口语化|严谨|专业|坦诚|实在|干脆|委婉|轻松|像[^，,。]{1,12}?一样)(?:一点|一些|些|点)?"
    r"(?:就行|就好|就可以|就成|吧)?$"
    r"|^(?:语气|口吻|措辞|用词|风格|篇幅|句子|格式|回答|回复|解释)(?:要|得|请|就|再|都|可以)*"
    r"(?:直接|简洁|简短|简单|直白|正式|随意|客气|温柔|耐心|幽默|具体|详细|通俗|口语化|严谨|专业|委婉|轻松)"
    r"(?:一点|一些|些|点)?(?:就行|就好|就可以|就成|吧)?$"
    r"|^(?:你)?(?:跟|和|对|同)我(?:说话|讲话|聊天|交流|沟通|讲|说)(?:的时候|时)?(?:要|得|请|就|都|可以)*"
    r"(?P<like>像|用|别|不要|直接|简单|随意|正式|客气|温柔|耐心)"
)
#: A prohibition or rule on what the assistant says: "别老说“好问题”", "不要写“综上所述”".
_ZH_SAY_NOT = re.compile(
    r"^(?:请|你)*(?:别|不要|不许|不准|少|不能|要|都|以后)*(?:再|老是?|总是?|一直)?(?:说|讲|写|用)"
    r"[：:，,]?\s*[“「『\"]"
)
#: A part of the replies spared: "结论段就不用了", "历史背景就省了吧".
_ZH_SPARE = re.compile(
    r"^(?P<what>[^，,。我你他她]{1,10}?)(?:就|也|都|可以)?(?:不用|不要|不需要|不必|省了|免了|省掉|"
    r"去掉|算了)(?:了|吧|啦)*$"
)
#: A user's want whose object is the replies: "我要简短的回答", "我需要更详细的解释".
_ZH_WANT = re.compile(
    r"^我(?:只|就|比较|更)?(?P<neg>不)?(?:要|想要|需要|希望)(?:你的?|您的?)?"
    r"(?P<what>[^，,。我]{0,10}的?(?:回答|回复|答复|答案|解释|说明|代码|例子|示例|总结))$"
)
#: The parts of a reply itself (not what it measures): "例子", "结尾", "步骤".
_ZH_REPLY_PART = re.compile(
    r"回答|回复|答案|解释|代码|例子|示例|步骤|结尾|开头|标题|列表|总结|建议|选项|注释|段落|句子|格式|"
    r"语气|表情|引用|来源|术语|单位|拼写|标点|命令|字数|篇幅"
)
#: An adverb that makes a statement about a part of the replies a rule for it.
_ZH_RULE_ADVERB = re.compile(
    # not 只要 before a quantity ("骑车只要十分钟": it only takes)
    r"(?:都|一律|尽量|务必|一定要|只(?!要[一二三四五六七八九十两几半\d])|最多|至少|统一|全部)"
    r"(?!很|挺|太|真|是|有|没|在|不错|可以|行|好)"
)
#: A verb right after a part of the replies: "语气保持中立".
_ZH_BARE_VERB = re.compile(
    r"保持|控制|用|写|放|加|标|按|以|统一|一律|不要|别|翻成|翻译成|换成|改成|写成|说成"
)
#: Favours between friends: "给我寄明信片", "回头给我打个电话".
_ZH_SOCIAL = re.compile(
    r"(?:给我|帮我|替我)?(?:寄|打电话|打个电话|回电话|回个电话|发消息|发微信|捎|带点|带些|带个|请我)"
)
#: What makes "你…" a request: "你犯错不用道歉", "你回答要短".
_ZH_YOU_MUST = r"不用|不要|别|不必|无需|不许|不能|要|得|应该|必须"
_ZH_STRONG_SCOPE = re.compile(r"以后|今后|每次|每回|每当|总是|始终|永远|一律|所有|凡是|任何时候")
#: A prohibition's first clause ending in 了 asks to stop now ("别说了", "别写了，早点睡"),
#: not for a rule: one only when it names a part of the replies or a lasting scope.
_ZH_STOP_NOW = re.compile(r"[^，,；;]*了[啊吧呀啦嘛哈]*(?:[，,；;]|$)")
#: How much or how long a reply runs: "别写那么长了" asks for a length, not a stop.
_ZH_HOW_MUCH = re.compile(r"那么[长多短]|这么[长多短]|太[长多短]|啰嗦|废话|复杂")
#: A verb and a complement of praise: "回答得不错", "写得真好" (not "回答得简洁点").
_ZH_DONE_WELL = re.compile(
    r"^(?:你)?[\u4e00-\u9fff]{1,3}得(?:不错|很|挺|真|太|好(?!一点|点|些)|棒|非常|特别|蛮|还行|"
    r"还可以|漂亮|精彩|一般|不好|不对|对)"
)
#: A request for something now: "给我点学习上的建议", "给我来些灵感".
_ZH_GIVE_NOW = re.compile(r"^(?:请|你)?给我(?:来)?一?(?:点|些|几个|几条)")
#: An ask embedded in a rule, not a question: "不要在回答末尾问我还有没有别的问题".
_ZH_EMBEDDED_ASK = re.compile(
    r"^[^，,。？?]*?(?:别|不要|不用|不必|无需|少)[^，,。？?]{0,10}?问(?:我|你)"
)
#: What the assistant makes for the user, as a topic: "帮我写的邮件", "给我推荐的菜" (a kind).
_ZH_MADE_FOR_ME = re.compile(
    r"^(?P<when>以后|今后|每次|每回)?(?:(?:你|您)?(?:帮我|给我|替我|为我)|(?:你|您)(?=给的))"
    r"(?:写|推荐|做|画|翻译|起草|整理|安排|生成|列|算|改|订|挑|选|找|给)"
    r"的(?!时候|时|话)(?=[\u4e00-\u9fff])"  # not "给我翻译的时候…": a condition
)
#: A word that makes a statement a rule: "都", "一律", "别", "要".
_ZH_RULE_WORD = re.compile(
    r"(?:都|一律|统一|全部)(?!很|挺|太|真|蛮|还|是|有|没|在|不错|可以|行|好|特别|非常)|一定|务必|必须|"
    r"别|不要|不许|不准|请勿|要(?!是)|尽量"
)
#: A tag asking for assent after a request: "…了好吗", "…，行不行".
_ZH_TAG = re.compile(r"[，,]?\s*(?:好吗|行吗|可以吗|成吗|好不好|行不行|好么|行么)[？?。！!～~]*$")
#: A request a tag may follow: a prohibition or a "以后…" to the listener.
_ZH_ASKS_OF_YOU = re.compile(
    r"^(?:至少|起码|请|你|您|以后|今后|每次|都)*(?:别|不要|不许|不准|少|都|一律)"
)
#: A question the assistant is to ask or answer, inside a rule: "先问我要不要详细版" (ask me
#: whether…), "先告诉我要不要去医院" (tell me whether…).
_ZH_ASK_WHETHER = re.compile(
    r"(?:问|告诉|提醒)(?:一下|一声)?我[^，,。？?]{0,6}?([\u4e00-\u9fff])[不没]\1"
)
#: How not to talk: "说话别那么官方", "回答不要太啰嗦".
_ZH_MANNER_NOT = re.compile(
    r"^(?:你)?(?:以后|平时|跟我)?(?:说话|讲话|聊天|回答|回复|解释|写东西|讲)(?:的时候)?"
    r"(?:别|不要|不用)(?:那么|这么|太|老是?|总是?)?(?P<how>[\u4e00-\u9fff]{1,4})$"
)
#: A rule for every item of a kind: "所有的行程安排都要留出半小时", "每封邮件一律加签名".
_ZH_EVERY = re.compile(
    r"^(?:所有的?|全部的?|凡是|每个|每一个|每次的?|每[封篇段条份])(?P<topic>[^，,。；;我你他她]{1,8}?)"
    r"(?:都|一律|全都|全部|统一)(?:要|得|请|必须|需要)?(?P<rest>[^，,。；;]{2,})$"
)
#: A trigger word the user defines: "当我说“收工”，你就…", "我一说“开工”就…".
_ZH_TRIGGER = re.compile(
    r"^(?:当|每当|只要|如果|要是|以后)?我(?:一)?(?:说|打|发|输入|喊)[“\"'「『](?P<word>[^”\"'」』]{1,12})"
    r"[”\"'」』](?:的时候|时)?[，,]?\s*(?:你就|你|就|那就|意思是|就是|是让你)(?P<rest>.+)$"
)


def zh_instruction(
    clause: str, scoped: bool = False, addressed: bool = False
) -> tuple[str, int] | None:
    """``(what, polarity)`` when a Chinese clause is a standing instruction to the assistant
    (``scoped``: words before it gave it a lasting scope; ``addressed``: a condition about
    the replies did), else ``None``."""
    s = clause.strip().rstrip("。.!！…~～ ")
    if not s:
        return None
    tag = _ZH_TAG.search(s)  # "你别在周末给我发提醒了好吗": a request, its assent asked
    if tag is not None and _ZH_ASKS_OF_YOU.match(s):
        s = clause = s[: tag.start()]
    trigger = _ZH_TRIGGER.match(s)
    if trigger:  # a word of the user's that stands for a request: lasting by its nature
        return f"“{trigger['word']}”：{strip_particles(trigger['rest'].strip(' ，,'))}", 1
    keep = _ZH_KEEP_SO.search(s)
    if keep is not None and keep.start() > 0:  # "说话随意点就行，以后都这样": the rest lasts
        return _kept_so(s[: keep.start()], addressed)
    soft_ok = scoped or addressed or bool(_ZH_STRONG_SCOPE.search(s))  # "每次…说一下…"
    if _ZH_ANNOUNCE.match(s) or (_ZH_PAST_STORY.search(s) and not re.search(r"你|您|以后|今后", s)):
        return None  # the user's own next words, or a story of their past
    if _ZH_STATES.search(s) and not soft_ok and not _ZH_ASKS_HERE.search(s):
        return None  # where someone's things are, what the user's number is: a statement
    asked = _ZH_POLITE_AFTER.match(s)  # "你说话能不能别那么官方": asked of how it talks
    if asked is not None:
        s = asked["topic"] + re.sub(
            r"(?:好吗|行吗|可以吗|好不好|行不行|吗|呢)?[?？。]*$", "", s[asked.end() :]
        )
    polite = _ZH_POLITE.match(s)
    lead = _ZH_LEAD.match(s)
    if polite is None and lead and _ZH_POLITE.match(s[lead.end() :]):  # "以后能不能别再…？"
        s = s[lead.end() :]
        polite, scoped = _ZH_POLITE.match(s), scoped or bool(_ZH_SCOPE.search(lead.group(0)))
    if (
        is_question(clause)
        and asked is None
        and not (
            (_ZH_EMBEDDED_ASK.match(s) or _ZH_ASK_WHETHER.search(s))
            and not clause.rstrip().endswith(("？", "?"))
        )
    ):
        if polite is None:
            return None
        s = re.sub(r"(?:好吗|行吗|可以吗|好不好|行不行|吗|呢)?[?？。]*$", "", s[polite.end() :])
    elif polite is not None:
        s = s[polite.end() :]
    if _ZH_WH.search(s) and not (scoped or addressed or _ZH_STRONG_SCOPE.search(s)):
        return None  # "推荐啥软件": a question without its mark
    quoted = _ZH_QUOTED.search(s) and not _ZH_SAY_NOT.match(s)  # "别老说“好问题”": its own words
    if ZH_HYPOTHETICAL.search(s) or ZH_REPORTED.search(s) or quoted or reported_zh(s):
        return None
    lead = _ZH_LEAD.match(s)
    if lead:
        scoped = scoped or bool(_ZH_SCOPE.search(lead.group(0)))
        back = 2 if re.search(r"(?:每次|每回)$", lead.group(0)) else 0
        back = back if back and _ZH_COND.match(s[lead.end() - back :]) else 0
        s = s[lead.end() - back :]  # "每次我发…，先…": a condition, kept whole
    if _ZH_DEFER.match(s):
        return None  # "嗯，再说吧", "以后再说": the talk put off, no rule
    if scoped and _ZH_SAME_AGAIN.match(s):  # "以后都这样": the request before, made standing
        return clause.strip().rstrip("。.!！…~～ "), 1
    made = _ZH_MADE_FOR_ME.match(s)  # "帮我写的邮件落款统一用…": what it makes for me
    if made is not None and zh_made_said_of(s):
        return None  # "给我推荐的书都挺好看的": what it made, said of, not a rule
    if made is not None and not _ZH_ONE_OFF.search(s[made.end() :]):
        s, addressed, scoped = s[made.end() :], True, scoped or bool(made["when"])
    label = _ZH_RULE_LABEL.match(s)
    if label:
        return strip_particles(label["rule"]), 1
    spare = _ZH_SPARE.match(s)
    if spare and _ZH_MANNER.search(spare["what"]) and not _ZH_ONE_OFF.search(s):
        return strip_particles(spare["what"]), -1
    if re.match(r"(?:你)?还?别说[，,]", s):
        return None  # "你别说，火锅是真好吃": "you know what", not a prohibition
    want = _ZH_WANT.match(s)
    if want and not _ZH_ONE_OFF.search(s):  # "我要简短的回答", "我不要太长的解释"
        return strip_particles(want["what"]), -1 if want["neg"] else 1
    if _ZH_MANNER_ASK.match(s) and not _ZH_ONE_OFF.search(s):  # how to talk, no one-off object
        return s, 1
    if _ZH_MANNER_NOT.match(s):  # "说话别那么官方": how not to talk
        return s, 1
    if _ZH_GIVE_NOW.match(s) and not scoped and not addressed:
        return None  # "给我点建议": something wanted now
    every = _ZH_EVERY.match(s)
    ours = every and (_ZH_VERBS.match(every["rest"]) or _ZH_MANNER.search(every["topic"]))
    if every and re.match(r"每[次回]", every.group(0)) and not ours:
        every = None  # "每次去超市都买太多东西": what happens each time, not a rule
    if every and (scoped or ours):
        inner = _ZH_PROHIBIT.match(every["rest"])
        rest = every["rest"][inner.end() :] if inner else every["rest"]
        return strip_particles(rest), -1 if inner else 1
    cond = _ZH_COND.match(s)
    if cond:
        c = next((cond[f"cond{n}"] for n in ("", *range(2, 10)) if cond[f"cond{n}"]), "")
        rest = next((cond[f"rest{n}"] for n in ("", *range(2, 10)) if cond[f"rest{n}"]), "")
        c, rest = c or "", rest or ""
        if cond.group("cond3") or cond["cond4"] or _ZH_COND_ABOUT.search(c) or _ZH_MANNER.search(c):
            to_us = bool(cond.group("cond3") or _ZH_MANNER.search(c))  # "看我代码的时候…"
            got = zh_instruction(rest, True, to_us)
            if got is not None or not cond.group("cond3"):
                return got
        elif not (cond["cond3"] or cond["cond6"] or cond["cond7"]):
            return None  # "下雨的话…": a condition not about us; "画图的话一律用…" is read on
    scoped = scoped or bool(_ZH_SCOPE.search(s))
    polarity, kind, body = 1, "imperative", s
    said_of = ""  # the part of the replies a rule is for: "代码" of "代码用 Tab 缩进"
    prohibit = _ZH_PROHIBIT.match(s)
    modal = None if prohibit else _ZH_MODAL.match(s)
    if prohibit:
        polarity, kind, body = -1, "prohibit", s[prohibit.end() :]
        scoped = scoped or "再" in prohibit.group(0) or "永远" in prohibit.group(0)
    elif modal:
        kind, body, said_of = "modal", s[modal.end() :], modal.group(0)  # "例子尽量短一点"
        # a part of the replies as the subject: "内容一定要适合小朋友" is said of them
        addressed = addressed or not re.match(r"(?:你|您|我(?!的))", modal.group(0))
        if (
            modal.group("neg")
            or modal.group("neg2")
            or re.search(r"(?:不要|别|不能|不用)$", modal.group(0))
        ):
            polarity = -1
        inner = _ZH_PROHIBIT.match(body)
        if inner:
            polarity, body = -1, body[inner.end() :]
    else:
        body = re.sub(r"^(?:请你|请|你|您)+", "", s)
        if "请" in s[: len(s) - len(body)] or (body != s and re.search(_ZH_YOU_MUST, body)):
            kind = "please"  # a bare "你…" is no request: "你知道吗，我超爱吃辣"
            inner = re.match(r"(?:[^，,。]{1,6}?)(?:不用|不要|别|不必|无需|不许|不能)(?=.)", body)
            if inner and not _ZH_VERBS.match(body):  # "你犯错不用道歉": when, then what not
                polarity, body = -1, body[inner.end() :]
    # a bare "你" then a topic tells the listener of their own life: "你每周只用跑三天"
    bare_you = kind == "imperative" and body != s
    topic = _ZH_TOPIC.match(body)  # "所有金额都换算成人民币"
    if topic and bare_you and not _ZH_MANNER.search(topic.group(0)):
        topic = None  # "你每周只用跑三天" is no rule; "你所有金额都换算成人民币" is
    if topic and kind != "prohibit":
        inner = _ZH_PROHIBIT.match(body[topic.end() :])
        if inner:
            polarity, kind = -1, "prohibit"
            body, said_of = body[topic.end() + inner.end() :], topic["topic"]
        elif _ZH_VERBS.match(body[topic.end() :]):
            body, said_of = body[topic.end() :], topic["topic"]
            scoped = scoped or bool(re.search(r"都|一律|统一|全|所有|每|优先", topic.group(0)))
    if kind == "imperative" and not said_of and not _ZH_VERBS.match(body):
        for i in range(1, min(9, len(body))):  # "语气保持中立", "数字用汉字写"
            if _ZH_REPLY_PART.search(body[:i]) and _ZH_BARE_VERB.match(body[i:]):
                body, said_of = body[i:], body[:i]
                break
    stop_now = kind == "prohibit" and bool(_ZH_STOP_NOW.match(body))
    stop_now = stop_now and not _ZH_HOW_MUCH.search(body)  # "别写那么长了": a rule of length
    body = strip_particles(body.strip(" ，,"))
    if not body or _ZH_ADVICE.match(body) or _ZH_COURTESY.match(body):
        return None
    if _ZH_MAYBE.match(body):
        return None  # "说不定会爱上纳豆": what might be, not what to do
    if re.match(r"(?:我|我们|他|她|它|他们|咱们)(?!们)", body) and kind != "modal":
        return None  # the user's own doing, not the assistant's
    if re.search(
        r"我(?:基本上?|主要|大多)?(?:每|一直|总是|永远|一般|通常|平时|都|也|又|还是|只|就用)", s
    ):
        return None  # "打游戏我永远玩奶妈": the user's habit
    if _one_off(s) and not _ZH_STRONG_SCOPE.search(clause):  # "每次…帮我总结": each time
        return None
    if _ZH_SOFT_ONE_OFF.search(s) and not soft_ok:
        return None  # "推荐个办公室零食", "说一下你的看法": something now
    if bare_you and re.match(r"[^，,。都]{1,4}的", body) and not _ZH_RULE_ADVERB.search(body):
        return None  # "你推荐的电影很好看": what it did, said of, not a rule
    verb = bool(_ZH_VERBS.match(body))
    manner = bool(_ZH_MANNER.search(body) or _ZH_MANNER.search(said_of))
    if (polite is not None or asked is not None) and not (scoped or _ZH_TIME_SCOPE.search(clause)):
        return None
    if kind in ("imperative", "please") and re.search(r"[\u4e00-\u9fff]了(?!解)", body):
        return None  # "用了预留实例", "启用了限流": what happened, not what to do
    ruled = _ZH_REPLY_PART.search(said_of + body) and _ZH_RULE_ADVERB.search(
        s
    )  # "例子尽量短一点", "结尾都加一句总结"
    if _ZH_SOCIAL.match(body):
        return None  # "记得给我寄明信片": a favour between friends, not a rule for the replies
    if _ZH_DONE_WELL.match(body) and not scoped:
        return None  # "回答得不错": praise for what was done, not how to do it
    if kind == "imperative" and not (verb and (manner or scoped)) and not ruled and not addressed:
        return None
    if kind == "please" and not ((verb or manner) and (manner or scoped)):
        return None
    if kind in ("prohibit", "modal") and not (
        verb or manner or addressed or (scoped and kind == "prohibit")
    ):
        return None
    if kind == "modal" and not (manner or scoped or addressed):
        return None  # "你要多注意休息": care for the listener, not a rule for the replies
    if stop_now and not (manner or scoped or addressed):
        return None  # "别说了", "别哭了": stop it now, not a rule for the replies
    return body, polarity


#: A word named by its quote: "“亲”这个字", "“好问题”这种话" (the word, not one thing at hand).
_ZH_NAMED_WORD = re.compile(
    r"[”」』\"]\s*(?:这|那)(?:一)?(?:个|种|类|句)?(?:字|词|词语|说法|称呼|表达|话|口头禅|开头|结尾)"
)


def _one_off(s: str) -> bool:
    """Whether a Chinese clause names a one-off object ("这段话", "帮我…一下"), a word named
    by its quote ("别再用“亲”这个字") aside."""
    return bool(_ZH_ONE_OFF.search(_ZH_NAMED_WORD.sub("”", s)))


def _kept_so(s: str, addressed: bool) -> tuple[str, int] | None:
    """The rule of ``s`` when its last clause said it lasts ("…，以后都这样"): the whole of it,
    read lasting, or the first of its clauses that is a rule; else ``None``."""
    clauses = [c for c in re.split(r"[，,；;]", s) if c.strip()]
    if len(clauses) == 1:
        return zh_instruction(s, True, addressed)
    if any(zh_instruction(c, True, addressed) for c in clauses):
        return strip_particles(s.strip(" ，,")), 1  # the rule as said, its "别" in it
    return None


def zh_made_said_of(s: str) -> bool:
    """Whether a Chinese sentence says something of what the assistant made for the user,
    with no word that makes it a rule ("给我推荐的书都挺好看的", not "帮我写的邮件都要署名").

    Example:
        >>> zh_made_said_of("你给我推荐的电影很好看"), zh_made_said_of("帮我写的邮件都要署名")
        (True, False)
    """
    made = _ZH_MADE_FOR_ME.match(s)
    return made is not None and not _ZH_RULE_WORD.search(s[made.end() :])


def zh_said_by_another(s: str) -> bool:
    """Whether a Chinese sentence reports someone else's words: "老师说…", "菜谱上说…"."""
    return bool(ZH_REPORTED.search(s) or reported_zh(s.strip()))


def zh_lasting_scope(prefix: str) -> bool:
    """Whether the Chinese words before a clause give it a lasting scope ("以后，…")."""
    return bool(
        _ZH_STRONG_SCOPE.search(prefix)
        or re.search(r"记住|记得", prefix)
        or re.search(r"我(?:一)?(?:说|打|发|输入|喊)[“\"'「『][^”\"'」』]{1,12}[”\"'」』]", prefix)
    )  # a trigger word the user defines lasts: "当我说“收工”，…"


def zh_one_thing(sentence: str) -> bool:
    """Whether a Chinese sentence opens on one thing ("这题…", "那封邮件…") and gives no
    lasting scope: every clause of it is about that thing ("这题直接给答案，不用解释").

    Example:
        >>> zh_one_thing("这题直接给答案，不用解释"), zh_one_thing("这类题以后都不用解释")
        (True, False)
    """
    first = re.split(r"[，,；;。]", sentence.strip(), maxsplit=1)[0]
    demonstrative = re.search(r"[这那]一?[\u4e00-\u9fff]", first[:6])
    return bool(
        demonstrative
        and _ZH_ONE_OFF.search(first)
        and not _ZH_STRONG_SCOPE.search(sentence)
        and not re.search(r"[这那](?:种|类|样)", first)
    )
