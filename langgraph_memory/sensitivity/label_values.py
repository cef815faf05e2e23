"""What may stand as a secret's value after a label (for the label reader,
:mod:`~langgraph_memory.sensitivity.labels`): where the value ends (one token, a quoted
phrase, ASCII words up to the clause's end after a Chinese label, Chinese characters
that do not read as prose, the next line after a ``:`` ending a line), and whether a
value of its shape is kept after a label of its kind and a separator of its strength
(:func:`accept`).

Example:
    >>> text = 'password: "correct horse battery staple" and more'
    >>> a, b, quoted = read_value(text, 10, False)
    >>> text[a:b], quoted
    ('correct horse battery staple', True)
    >>> accept("pw", ":", "abc", False), accept("key", "is", "practice", False)
    (True, False)
"""

from __future__ import annotations

import re

from langgraph_memory.sensitivity.no_value import (
    PROSE_WORDS,
    looks_like_credential,
    reads_as_prose,
)

__all__ = [
    "BAREKEY_SEP",
    "BARE_HEX",
    "CODE_CHARS",
    "CORRECTION",
    "COUNTERSIGN",
    "DIGITS",
    "HEDGES",
    "JOINED_WORDS",
    "LETTER_GROUPS",
    "NEWLINE",
    "SPACED_COMBINATION",
    "SPLIT_CODE",
    "TOKEN",
    "TRAILING",
    "UNIT_AFTER",
    "VERSION",
    "WORD",
    "accept",
    "cjk_value",
    "countersign_value",
    "mixed_case_symbols",
    "next_line_value",
    "passphrase_words",
    "phrase_label_end",
    "read_value",
    "trimmed",
]

#: A version (``v2.1.3``, ``1.4.0-rc1``).
VERSION = re.compile(r"[vV]?\d+(?:\.\d+)+[\w.+\-]*")

# -- values -------------------------------------------------------------------------------
_QUOTES = {'"': '"', "'": "'", "`": "`", "“": "”", "‘": "’", "「": "」", "『": "』"}
#: A value's characters: printable ASCII, and Latin, Greek and Cyrillic letters
#: (``Pässwort9``, ``пароль2026``); not Chinese (its clause goes on after a value).
TOKEN = re.compile(r"[\x21-\x7e\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff]{1,200}")
WORD = re.compile(r"[ \t]+([\x21-\x7e\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff]{1,200})")
TRAILING = ".,;:)]}>\"'`”’」』"
#: Hedges skipped before the value after a weak separator (``is literally x``).
HEDGES = frozenset("literally just simply actually basically still now really always".split())
#: Names of hashes and encodings that follow a password word without being its value.
_NOT_BARE = re.compile(
    r"(?i)md5|sha-?\d+|base64|utf-?8|argon2(?:id|i|d)?|pbkdf2|2fa|mfa|v\d+|\d+(?:\.\d+)+"
)


#: A code of digits, perhaps with the keypad's ``#`` or ``*``: ``246810``, ``#2580``.
CODE_CHARS = re.compile(r"[#*]?[A-Za-z0-9]+(?:-[A-Za-z0-9]+){0,5}[#*]?")
#: A code read out in groups: ``123 456``, ``4821 9930``, ``55 21 90``, ``12 34 56 78``.
SPLIT_CODE = re.compile(
    r"(?:\d{2,4}(?:[ \t]\d{2,4}){2,3}|\d{3}[ \t]\d{3}|\d{4}[ \t]\d{4}|\d(?:[ \t]\d){3,9})"
    r"(?![\d\w.\-])"
)
#: A key in groups (``XKQ7-99PL-3MZ2``): an activation or licence code.
_GROUPED_KEY = re.compile(r"[A-Z0-9]{3,6}(?:-[A-Z0-9]{3,6}){2,5}")
#: (of capitals only, in three groups of four or more: ``QWERT-ASDFG-ZXCVB``)
_LETTER_KEY = re.compile(r"[A-Z]{4,6}(?:-[A-Z]{4,6}){2,5}")
DIGITS = re.compile(r"[#*]?\d{4,12}[#*]?")
#: An app password as mail providers give it: four groups of four lower-case letters.
LETTER_GROUPS = re.compile(r"[a-z]{4}(?:[ \t][a-z]{4}){3}(?![A-Za-z0-9])")


#: A count's unit after a number (``4000 lines``, ``200 ms``): no code.
UNIT_AFTER = re.compile(
    r"[ \t]*(?i:lines?|ms|seconds?|minutes?|hours?|days?|times?|people|users?|items?|rows?)"
    r"(?![A-Za-z])"
)


def read_value(text: str, pos: int, phrase: bool) -> tuple[int, int, bool] | None:
    """The value at ``pos``: ``(start, end, quoted)``."""
    close = _QUOTES.get(text[pos : pos + 1])
    if close is not None:
        end = text.find(close, pos + 1, pos + 202)
        newline = text.find("\n", pos + 1, end) if end > 0 else -1
        if end > pos + 1 and newline < 0:
            return pos + 1, end, True
        pos += 1
    m = TOKEN.match(text, pos)
    if m is None:
        return None
    end, words = m.end(), 1
    while phrase and words < 8 and text[end - 1] not in ",;.!?:":  # 密码：correct horse
        m = WORD.match(text, end)
        if m is None:
            break
        end, words = m.end(), words + 1
    raw = text[pos:end].rstrip(TRAILING + " \t")  # ("x ，": a space before a comma)
    if raw[-1:] in ("(", "[") and end < len(text) and not text[end].isascii():
        raw = raw[:-1]  # "Ab12cd34（区分大小写）": the bracket opens the Chinese aside
    elif (
        (bracket := raw.find("(")) >= 4
        and ")" not in raw[bracket:]
        and (shut := text.find(")", end, end + 40)) > 0
        and "\n" not in text[end:shut]
    ):
        raw = raw[:bracket].rstrip(" \t")  # "aHVudGVyMjI=（base64 的）", "a b c (three words)":
        # a bracket opens an aside the token cut
    elif end < len(text) and not text[end].isascii() and (cut := _COMMA_CLAUSE.fullmatch(raw)):
        raw = cut.group(1)  # "551902，30秒内有效": a full-width comma (made ",") ends the code
    return (pos, pos + len(raw), False) if raw else None


#: The words after a passphrase's first (2 to 7 more, of letters; a number of 1 to 4
#: digits may end them), up to the clause's end: a line's end, a comma or a stop, a
#: bracket, Chinese.
_MORE_WORDS = re.compile(
    r"(?:[ \t]+[A-Za-z]{3,12}){2,7}(?:[ \t]+\d{1,4})?"
    r"(?=[ \t]*(?:$|\r?\n|[,.;:!?(\[]|[^\x00-\x7f]))"
)
#: A passphrase's name in Chinese after its password word (``口令短语``, ``密码 词组``).
_ZH_PHRASE = re.compile(r"[ \t]*(?:短语|短語|词组|詞組|短句)")


def phrase_label_end(text: str, low: str, start: int, end: int, kind: str) -> int | None:
    """Where the label ``text[start:end]`` ends when it names a passphrase (``passphrase``,
    ``pass phrase``, ``口令短语``, ``密码 词组``: its value may be words), else ``None``."""
    if "phrase" in low[start:end]:
        return end
    zh = _ZH_PHRASE.match(text, end) if kind == "pwzh" else None
    return zh.end() if zh is not None else None


def passphrase_words(text: str, a: int, b: int) -> int:
    """Where a passphrase of words ends when its first word is ``text[a:b]``: after 3 to
    8 words of letters of one case (all lower, or all capitalised), a number perhaps
    after them, that run to the clause's end, none a word of prose (``sonnet pickle
    harbor glacier``, ``orbit cobalt pickle harbor 77``, not ``sonnet and the rest``);
    else ``b``.

    Example:
        >>> text = "the passphrase is sonnet pickle harbor glacier"
        >>> text[18 : passphrase_words(text, 18, 24)]
        'sonnet pickle harbor glacier'
        >>> text = "the passphrase is sonnet for the drive"
        >>> text[18 : passphrase_words(text, 18, 24)]
        'sonnet'
    """
    first = text[a:b]
    more = _MORE_WORDS.match(text, b) if first.isascii() and first.isalpha() else None
    if more is None or len(first) < 3:
        return b
    words = [first, *(w for w in more.group().split() if not w.isdigit())]
    if any(w.lower() in PROSE_WORDS for w in words):
        return b
    if all(w.islower() for w in words) or all(w[0].isupper() and w[1:].islower() for w in words):
        return more.end()
    return b


#: A code, a comma and the number opening a Chinese clause after it (``551902，30秒内``,
#: its full-width comma made ASCII): no thousands' group (``12,500元`` stays whole).
_COMMA_CLAUSE = re.compile(r"(\d{4,8}),(?!\d{3}$)\d{1,6}")


#: A line break, perhaps ``\r\n``, perhaps with one blank line after it.
NEWLINE = re.compile(r"[ \t]*\r?\n(?:[ \t]*\r?\n)?")


def next_line_value(text: str, sep: re.Match[str]) -> tuple[int, int, bool] | None:
    """A value alone on the line after ``password:`` (a form, a YAML or ``.netrc`` block)."""
    if not sep.group().rstrip().endswith(":"):
        return None
    newline = NEWLINE.match(text, sep.end())
    if newline is None:
        return None
    start = newline.end()
    end = text.find("\n", start)
    end = len(text) if end < 0 else end
    line = text[start:end].strip(" \t")
    if not line or not TOKEN.fullmatch(line) or len(line) > 128 or line.endswith(":"):
        return None  # (a key opening a block below: "Secret:\ndata:")
    a = text.index(line, start)
    return a, a + len(line), False


#: A value of Chinese characters after ``口令：`` or ``密码：``: the end of the clause.
_CJK_RUN = re.compile(r"[\u4e00-\u9fff]{2,12}(?=$|[\s,.;!?()\]，。；！？、（）【】…])")
_CJK_MIXED = re.compile(
    r"[\u4e00-\u9fff]{1,8}(?=[A-Za-z]*\d{2})[A-Za-z0-9!@#$%^&*._\-]{2,24}"
    r"(?=$|[\s,.;!?)\]，。；！？、）】…(（])"
)
#: Chinese that reads as prose or a rule, not as a value (``见附件``, ``请查看短信``,
#: ``至少 8 位``, ``你的生日``, ``错误``).
_CJK_PROSE = re.compile(
    "[见請请无空未已同与和为是在用由需不没暂略详参按默忘错正输设修重改找丢保至长包含你我他她它这那"
    "什多几怎哪如可要会能该必得被把给让使对啥谁]|的|吗|呢|了|么|码|位|次"
)
#: Words describing a password rather than giving it (``公司名称``, ``生日加姓名``,
#: ``手机后四位``, ``什么来着``): a Chinese run holding one is no passphrase.
_CJK_DESCRIBES = re.compile(
    "不知|不记|不清|不告|不能|不要|不用|没有|生日|出生|手机|手機|电话|電話|身份|名称|名稱|名字|姓名"
    "|缩写|拼音|全拼|首字母|年份|账号|帳號|用户|工号|学号|邮箱|密码|口令|默认|初始|统一|多少|几位"
    "|联系|管理员|附件|短信|前台|服务员|服務員|客服|房东|房東|物业|物業|老板|老闆|保安|店员|店員"
)
#: What an idiom's or a verse's length of Chinese cannot hold and be a passphrase:
#: pronouns, particles, requests.
_CJK_NOT_VERSE = re.compile(
    "[你我他她它您这那哪啥谁么吗呢吧了的得请請见見详参按忘错設设改找丢无無空未已位码碼号號同样跟]"
)


#: A phrase of place or state, which says where a password is or that there is none yet
#: (a direction, not a passphrase): a verb of putting then ``在``/``到`` and its place
#: (``写在纸上``, ``记在心里``), ``在`` and a place ending in a localiser (``在抽屉里面``),
#: or "not yet" (``还没想好``, ``未定``).
_CJK_DIRECTION = re.compile(
    "^[写贴放藏记存挂夹压锁留抄印刻标粘钉插收][在到于]"
    "|^[在于].*(?:[上下里内外中边旁后前底]|[里外背后前上下底侧]面|[旁这那]边|头)$"
    "|^[还尚仍暂]?[没未]"
)
#: A Chinese run that says whom to ask or where it is to be had (``问老王``, ``扫码获取``,
#: ``群里有``): an instruction, no passphrase (unless it has a verse's length and words).
_CJK_ASK = re.compile("^(?:[问問找扫掃]|咨询|諮詢|联系|聯繫|打给|打電話|打电话|私信|私聊)|有$")


#: A slogan of love for something (``我爱北京天安门``, ``我爱你中国``): a common password
#: though it opens with ``我``; not one saying whose something it is (``我爱人的生日``).
_SLOGAN = re.compile("我爱[\u4e00-\u9fff]{1,8}")
_SLOGAN_NOT = re.compile("[的了吗呢吧啊么]|爱人|爱好")


def _verse(run: str) -> bool:
    """Whether a Chinese run has an idiom's or a verse's length (4, 5 or 7 characters:
    ``山高水长``, ``春眠不觉晓``) and nothing that reads as prose about a password; such a
    run is a passphrase though its characters be common words (``长``, ``不``). A phrase
    of place or state (``写在纸上``, ``在抽屉里面``, ``还没想好``) is a direction, no verse.

    Example:
        >>> [_verse(run) for run in ("山高水长", "春眠不觉晓", "在天愿作比翼鸟")]
        [True, True, True]
        >>> [_verse(run) for run in ("写在纸上", "在抽屉里面", "还没想好", "贴在路由器背面")]
        [False, False, False, False]
    """
    return (
        len(run) in (4, 5, 7)
        and _CJK_NOT_VERSE.search(run) is None
        and _CJK_DIRECTION.search(run) is None
    )


def cjk_value(text: str, pos: int, kind: str, sep: str) -> tuple[int, int, bool] | None:
    """A passphrase in Chinese characters (``口令：天王盖地虎``) after a Chinese password
    label and ``:`` (or after ``口令`` and ``是``), unless it reads as prose."""
    if kind != "pwzh" or not (
        ":" in sep or "是" in sep or "口令" in text[max(0, pos - len(sep) - 2) : pos]
    ):
        return None
    mixed = _CJK_MIXED.match(text, pos)
    if mixed is not None:  # 我爱你1314: Chinese and digits, a value whatever the words
        return mixed.start(), mixed.end(), False
    m = _CJK_RUN.match(text, pos)
    if m is None or _CJK_DESCRIBES.search(m.group()):
        return None
    if _CJK_ASK.search(m.group()) and not _verse(m.group()):
        return None  # 密码：问前台
    if text.startswith("(", m.end()) and CORRECTION.search(text, m.end(), m.end() + 24):
        return None  # 口令：芝麻开门（说笑的，其实是 x）: the aside sets it right
    if _SLOGAN.fullmatch(m.group()) and _SLOGAN_NOT.search(m.group()) is None:
        return m.start(), m.end(), False  # 我爱北京天安门: a slogan said as a password
    if (_CJK_PROSE.match(m.group()) or _CJK_PROSE.search(m.group(), 1)) and not _verse(m.group()):
        return None
    return m.start(), m.end(), False


#: Words for a phrase said to be let in (``暗号``, ``口令``): a phrase may follow them
#: without a separator, up to the clause's end or a ``就`` (``暗号蓝色雨伞就把东西给他``).
COUNTERSIGN = frozenset(("暗号", "暗號", "口令"))
#: A predicate's first character: a verb or an adverb saying something of the word.
_PREDICATE = re.compile(
    "[听聽看说說记記忘太很好真也都又还還已被要会會能可得不没沒错錯对對是有在用]"
)
_COUNTERSIGN_RUN = re.compile(r"[\u4e00-\u9fff]{4,8}?(?=[就便才]|[,.;!?\s，。；！？]|$)")


def countersign_value(text: str, pos: int) -> tuple[int, int, bool] | None:
    """A phrase right after a countersign's word, when it reads as one (see
    :func:`cjk_value`): ``暗号天王盖地虎，...``, not ``暗号对上了就行``."""
    m = _COUNTERSIGN_RUN.match(text, pos)
    if m is None or not _verse(m.group()) or _PREDICATE.match(m.group()):
        return None  # 口令听起来怪: what is said of it
    if _CJK_DESCRIBES.search(m.group()) or _CJK_ASK.search(m.group()):
        return None
    if (_CJK_PROSE.match(m.group()) or _CJK_PROSE.search(m.group(), 1)) and not _verse(m.group()):
        return None
    return m.start(), m.end(), False


BAREKEY_SEP = re.compile(r"[ \t]*(?:[:=]|(?:is|was)[ \t]|是|为|為)", re.IGNORECASE)
_KEY_CHARS = re.compile(r"[A-Za-z0-9+/=_.\-]+")
_COMBINATION = re.compile(r"\d{1,3}(?:[-–/]\d{1,3}){2,4}|\d{1,3}(?:[ \t]\d{1,3}){2,4}|\d{3,8}")
#: A combination's dials read out with spaces: ``12 34 56``, ``7 22 3``.
SPACED_COMBINATION = re.compile(r"\d{1,3}(?:[ \t]\d{1,3}){2,4}(?![\d\w.\-])")
_DASHED_COMBINATION = re.compile(r"\d{1,3}(?:[-–]\d{1,3}){2,4}")
#: Words joined by a symbol, a capital among them (``ChinaNet-abcd``, ``Home_Guest``):
#: after a Chinese password word and a space, a value (a password is often its network's
#: name); not ``see-below``.
JOINED_WORDS = re.compile(r"(?=.{6})[A-Za-z]+(?:[\-_.@!#][A-Za-z]+)+")


#: A key or secret as many services issue it: 32 to 64 hex digits, letters among them
#: (not a number); after a key label and a space, that key (not a commit's short SHA).
_HEX_SECRET = re.compile(r"(?=[0-9]*[a-fA-F])(?=[a-fA-F]*[0-9])(?:[0-9a-f]{32,64}|[0-9A-F]{32,64})")
BARE_HEX = re.compile(r"[ \t]+" + _HEX_SECRET.pattern + r"(?![A-Za-z0-9_\-])")


def _random_letters(value: str) -> bool:
    """Whether ``value`` is a run of 12 or more lower-case letters drawn at random (an app
    password or an authorisation code: ``jkdlwpqmzhxnbvcr``), not a word: 10 different
    letters or more, and few vowels."""
    if not (12 <= len(value) <= 32 and value.isascii() and value.isalpha() and value.islower()):
        return False
    vowels = sum(value.count(v) for v in "aeiou")
    return len(set(value)) >= 10 and vowels * 4 < len(value)


def accept(kind: str, sep: str, value: str, quoted: bool) -> bool:
    """Whether ``value`` could be the secret a ``kind`` label names after ``sep``."""
    digit = any(c.isdigit() for c in value)
    if sep == "apposed":  # between commas: a credential's shape only (not "email, name,")
        return (
            kind in ("pw", "pwzh")
            and digit
            and not value.isalnum()
            and len(value) >= 6
            and VERSION.fullmatch(value) is None
        )
    if kind == "pin":
        plain = value.replace(" ", "").replace("\t", "")
        return plain.isdigit() and 4 <= len(plain) <= 8
    if kind == "cvv":  # a card's security code: 3 or 4 digits
        return value.isdigit() and 3 <= len(value) <= 4
    if kind == "combo":  # a lock's combination: 12-07-33, 0427
        return bool(_COMBINATION.fullmatch(value))
    if kind in ("pwzh", "pw") and SPLIT_CODE.fullmatch(value) and " " in value:
        return 4 <= len(value.replace(" ", "")) <= 12
    if kind in ("pw", "pwzh", "pwx") and _DASHED_COMBINATION.fullmatch(value):
        return True  # 保险柜密码 18-27-09, locker password 3-9-1
    if kind == "pwx":  # another language's word: its prose is not known, so after a
        # copula or a space only a value that mixes letters and digits (or digits alone),
        # after ":" one that looks like a credential (not "clé WiFi : voir le routeur")
        if sep in ("weak", "bare"):
            return (4 <= len(value) <= 12 and value.isdigit()) or (
                len(value) >= 5 and digit and any(c.isalpha() for c in value)
            )
        return len(value) >= 4 and (quoted or looks_like_credential(value))
    if kind == "barekey":  # "the key is Xk29-LLp0-QQ71": only what could be nothing else
        letters = any(c.isalpha() for c in value)
        if sep == "bare":  # "the key 9c1d...": 32 hex digits or more only
            return _HEX_SECRET.fullmatch(value) is not None
        return (
            _KEY_CHARS.fullmatch(value) is not None
            and len(value) >= 8
            and digit
            and letters
            and not _NOT_BARE.match(value)
            and (not value.isalnum() or not value[1:].islower() or len(value) >= 16)
        )
    if kind == "pass":  # "pass" is a word too: after ":" or "=", a credential-like value
        if sep == "weak":  # "the hotel wifi pass is lobby5521" (not "the pass is valid")
            return len(value) >= 6 and digit and any(c.isalpha() for c in value)
        return sep in ("strong", "assign") and len(value) >= 4 and looks_like_credential(value)
    if kind == "seccode" and value.isdigit() and len(value) == 3:
        return True  # "security code on the back is 271": a card's
    if kind in ("otp", "otpzh", "seccode"):  # a one-time code: 4 to 10 letters and digits
        if _DASHED_COMBINATION.fullmatch(value):
            return True  # "the code for the padlock: 3-3-7"
        plain = value.replace("-", "").replace(" ", "").strip("#*")  # G-4829, 5-2-1107, #2580
        if _GROUPED_KEY.fullmatch(value):  # a licence's groups may be letters only
            return digit or _LETTER_KEY.fullmatch(value) is not None
        return digit and plain.isalnum() and value.isascii() and 4 <= len(plain) <= 10
    if sep == "bare":
        if _NOT_BARE.fullmatch(value):
            return False
        letters = any(c.isalpha() for c in value)
        if kind == "pwzh" and JOINED_WORDS.fullmatch(value) and not value.islower():
            return True  # "WiFi密码 ChinaNet-abcd": words joined as a network's name is
        if _random_letters(value):
            return kind in ("pwzh", "keyzh", "pw")  # 邮箱授权码 jkdlwpqmzhxnbvcr
        if kind in ("key", "keyzh") and _HEX_SECRET.fullmatch(value):
            return True  # "AppSecret 9c1d...": a key label, then a key of 32 hex digits
        if kind in ("pwzh", "keyzh"):
            return bool(DIGITS.fullmatch(value)) or (digit and letters and len(value) >= 4)
        if kind == "pw" and value.isdigit():  # passcode 4821
            return 4 <= len(value) <= 12
        return kind == "pw" and digit and letters and len(value) >= 5
    if kind == "key":  # an English key or token label: it must look like one
        if sep == "weak":
            return len(value) >= 8 and digit and any(c.isalpha() for c in value)
        code = quoted or sep == "assign"  # token="abc", SECRET=abc: code or config
        return len(value) >= 3 and (code or looks_like_credential(value))
    if len(value) < 3:
        return False
    if sep == "weak" and value.rstrip("!?").isalpha():
        return not reads_as_prose(value.rstrip("!?").lower())
    return True


#: ``口令：芝麻开门（说笑的，其实是 zmkm2026）``: a label's value set right; ``密码改了，新的
#: x，...``: a clause opening with 新的 and an ASCII value ending at a boundary.
CORRECTION = re.compile(
    r"(?:其实是|实际上是|實際上是|其實是|不对[,，]?是|不對[,，]?是|应该是|應該是"
    r"|不是[^,，。;；\n]{1,40}[,，][ \t]*(?:而|其实|其實|实际上|實際上)?是"  # 不是 x，是 y
    r"|(?<![A-Za-z])(?i:actually,?[ \t]+it'?s|actually|i[ \t]+mean|sorry,?[ \t]+it'?s"
    r"|(?:the[ \t]+)?new[ \t]+one(?:[ \t]+is|[ \t]*[:=]|[ \t]+will[ \t]+be)"
    r"|(?:the[ \t]+)?(?:actual|real|correct|right|proper)[ \t]+one(?:[ \t]+(?:is|was)|[ \t]*[:=]))"
    r"|新的是|新的为|新的:|正确的是|正確的是|真正的是|对的是|對的是"
    r"|(?<=[,; \t])新的(?=[ \t]*[A-Za-z0-9][\x21-\x7e]*(?:[\s,;.!?)]|$))"
    r"|(?:我|又|已经|已經)?(?:改成|改为|改為|换成|換成)了?)[ \t]*"
)


def mixed_case_symbols(value: str) -> bool:
    """Whether ``value`` mixes lower case, capitals and symbols (``fernsAreFriends!``)."""
    return (
        any(c.islower() for c in value)
        and any(c.isupper() for c in value)
        and any(not c.isalnum() for c in value)
    )


def trimmed(m: re.Match[str], text: str, group: str = "value") -> tuple[int, int, str]:
    """A match's group as ``(start, end, value)`` without its trailing punctuation."""
    a, b = m.span(group)
    value = text[a:b].rstrip(TRAILING)
    return a, a + len(value), value
