"""Our plain-Python WordPiece (``langgraph_memory.embeddings.wordpiece``) against Hugging
Face ``tokenizers``, on the packaged all-MiniLM-L6-v2 ``tokenizer.json``, truncation 256.

Run (from the repository root)::

    python benchmarks/libraries/run.py tokenizer [--reps 7] [--quick]

(a) identical ids: every LoCoMo turn, ~500 Chinese sentences, mixed text, random Unicode
(b) throughput on all LoCoMo turns: one text a call, and batches of 512; cold (fresh
    interpreter: import + load + first call, and the first full pass) and warm (in one
    process, interleaved, medians); HF with its default parallelism and with
    TOKENIZERS_PARALLELISM=false (1 thread)
(c) import time (marginal, after ``import langgraph_memory.embeddings``) and installed size
"""

from __future__ import annotations

import argparse
import json
import os
import random
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from common import added_footprint, all_turn_texts, fresh_python, import_seconds, med, missing
from common import subprocess_env as env_for

MAX_LEN = 256

CHINESE_BASE = [
    "我昨天去北京出差，住在王府井附近的一家酒店。",
    "下个月我打算带父母去云南旅游，先到昆明再去大理。",
    "你还记得我们上次在杭州西湖边吃的那家餐厅吗？",
    "我对花生过敏，所以点菜的时候一定要提醒服务员。",
    "最近工作压力很大，每天都要加班到晚上十点以后。",
    "我女儿今年九月上小学一年级了，她特别兴奋。",
    "周末我们一起去爬香山吧，听说红叶已经开始变色了。",
    "这本书讲的是人工智能如何改变医疗行业，非常有意思。",
    "我的新手机是去年双十一买的，电池续航还不错。",
    "他在上海浦东新区的一家外企做软件工程师。",
    "妈妈做的红烧肉是全世界最好吃的！",
    "请帮我预订明天早上八点从广州到深圳的高铁票。",
    "我养了一只橘猫，名字叫做“胖胖”，已经三岁了。",
    "今年春节我们全家在老家过年，放了很多烟花。",
    "医生说我需要多喝水、少熬夜，还要坚持锻炼身体。",
    "这家咖啡店的拿铁味道一般，但是环境很安静。",
    "我正在学习弹钢琴，每周上两次课。",
    "你觉得这个方案的预算是不是太高了？我们需要再讨论一下。",
    "她的生日是十二月二十五日，正好是圣诞节。",
    "我们公司下周三要开年度总结大会，所有人都必须参加。",
    "昨晚的足球比赛太精彩了，最后一分钟绝杀！",
    "我把钥匙忘在办公室了，只好打电话给物业开门。",
    "这部电影改编自一部很有名的科幻小说《三体》。",
    "我计划明年考研，目标是清华大学计算机系。",
    "外面下着大雨，记得带伞。",
    "他们结婚十周年的时候去了一趟日本京都。",
    "我每天早上六点半起床，先跑步半小时再吃早饭。",
    "这个周末有空吗？我想请你吃饭，顺便聊聊创业的想法。",
    "奶奶今年八十五岁了，身体还很硬朗。",
    "我最喜欢的季节是秋天，不冷不热，天高云淡。",
    "会议纪要已经发到大家的邮箱里了，请查收。",
    "他的中文说得很流利，完全听不出来是外国人。",
    "我们小区楼下新开了一家超市，买菜方便多了。",
    "孩子发烧三十八度五，我带他去儿童医院看了急诊。",
    "这台笔记本电脑的内存只有八个G，跑程序有点慢。",
    "龍的傳人、繁體中文也要測試一下：臺灣、香港、澳門。",
    "𠀀𠀁𠮷野家的牛丼很好吃（含扩展B区汉字）。",
    "我住在三里屯SOHO附近，离地铁站步行五分钟。",
    "请把这份PPT翻译成英文，明天下午三点前发给我。",
    "我用Python写了一个小工具，可以自动整理照片。",
    "他买了一辆特斯拉Model 3，续航大概五百公里。",
    "今天的气温是-5℃，风很大，注意保暖。",
    "这道菜需要：鸡蛋2个、西红柿3个、盐少许。",
    "哈哈哈，你说的太对了！！！",
    "嗯……让我想想，好像是2019年的事情。",
    "我的邮箱是 zhang.san@example.com，有事联系我。",
    "你好，世界。",
    "谢谢！",
    "明天见～",
    "我们约在星巴克见面，时间是下午两点一刻。",
]

MIXED = [
    "Café naïve résumé coöperate façade Ångström Zürich São Paulo",
    "I moved to 上海 last year and now I work at 阿里巴巴 as a PM.",
    "Meeting at 3pm 😀👍 with José — bring the 报告!",
    "ＦＵＬＬＷＩＤＴＨ ｔｅｘｔ and ｎｕｍｂｅｒｓ １２３",
    "Ελληνικά κείμενο, русский текст, עברית, العربية, हिन्दी, ไทย",
    "tabs\tand\nnewlines\r\nand\x00nul\x07bell\u200bzero-width\ufeffbom",
    "[CLS] added tokens [SEP] inside text [MASK] [PAD] [UNK]",
    "supercalifragilisticexpialidocious" * 5 + " end",
    "ﬁne ligatures ß ẞ İstanbul ΣΊΣΥΦΟΣ",
    "日本語のテキストもあります。カタカナとひらがな。한국어도 있어요.",
    "emoji family 👨‍👩‍👧‍👦 flags 🇫🇷🇨🇳 skin 👍🏽",
    "math ∑∫√∞ ≤ ≥ ≠ ± × ÷ and currency €£¥₹₿",
    "A" * 300,
    " ".join(["word"] * 400),
    "",
    "   ",
    "combining e\u0301 a\u0300 o\u0302 n\u0303 and precomposed é à ô ñ",
]


def tokenizer_json() -> Path:
    from langgraph_memory.embeddings.minilm import default_model_dir

    return default_model_dir() / "tokenizer.json"


def chinese_sentences(n: int = 500, seed: int = 1) -> list[str]:
    """The hand-written sentences, plus sentences composed of jieba dictionary words
    (frequency-weighted) with Chinese punctuation, up to ``n``."""
    import jieba

    path = os.path.join(os.path.dirname(jieba.__file__), "dict.txt")
    words, freqs = [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 2 and int(parts[1]) >= 50:
                words.append(parts[0])
                freqs.append(int(parts[1]))
    rng = random.Random(seed)
    out = list(CHINESE_BASE)
    punct = "，。！？、；：“”（）《》"
    while len(out) < n:
        ws = rng.choices(words, weights=freqs, k=rng.randint(4, 30))
        s = ""
        for w in ws:
            s += w
            if rng.random() < 0.15:
                s += rng.choice(punct)
        out.append(s + rng.choice("。！？"))
    return out


def random_unicode(n: int = 300, seed: int = 2) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        chars = []
        for _ in range(rng.randint(1, 40)):
            r = rng.random()
            if r < 0.5:
                cp = rng.randint(0x20, 0x7E)
            elif r < 0.8:
                cp = rng.randint(0xA0, 0x2FFF)
            elif r < 0.95:
                cp = rng.randint(0x3000, 0x9FFF)
            else:
                cp = rng.randint(0x10000, 0x2FFFF)
            if 0xD800 <= cp <= 0xDFFF:
                cp = 0x41
            chars.append(chr(cp))
        out.append("".join(chars))
    return out


def ours() -> Any:
    from langgraph_memory.embeddings.wordpiece import WordPieceTokenizer

    return WordPieceTokenizer.from_file(tokenizer_json(), max_length=MAX_LEN)


def hf() -> Any:
    from tokenizers import Tokenizer

    t = Tokenizer.from_file(str(tokenizer_json()))
    t.enable_truncation(MAX_LEN)
    t.no_padding()
    return t


# One fresh interpreter: import + load, the first query, then one full pass.
COLD = r"""
import json, sys, time
which, texts_path, tok_path, mode = sys.argv[1:5]
texts = json.load(open(texts_path))
import langgraph_memory.embeddings  # both sides run inside the package's embedder process
t1 = time.perf_counter()
if which == "ours":
    from langgraph_memory.embeddings.wordpiece import WordPieceTokenizer
    tok = WordPieceTokenizer.from_file(tok_path, max_length=256)
    one = tok.encode
    many = tok.encode_batch
else:
    from tokenizers import Tokenizer
    tok = Tokenizer.from_file(tok_path); tok.enable_truncation(256); tok.no_padding()
    one = lambda s: tok.encode(s).ids
    many = lambda b: [e.ids for e in tok.encode_batch(b)]
t2 = time.perf_counter()
one("What did Caroline research for her adoption plans?")
t3 = time.perf_counter()
if mode == "single":
    for s in texts: one(s)
else:
    for i in range(0, len(texts), 512): many(texts[i:i+512])
t4 = time.perf_counter()
print(json.dumps({"import_load": t2 - t1, "first_query": t3 - t2, "first_pass": t4 - t3}))
"""


def cold_runs(texts: list[str], reps: int) -> dict[tuple[str, str], list[dict[str, float]]]:
    cases = [
        ("ours", "ours", {}),
        ("hf", "hf", {}),
        ("hf_1thread", "hf", {"TOKENIZERS_PARALLELISM": "false", "RAYON_NUM_THREADS": "1"}),
    ]
    res: dict[tuple[str, str], list[dict[str, float]]] = {
        (c, m): [] for c, _, _ in cases for m in ("single", "batch")
    }
    with tempfile.TemporaryDirectory(prefix="lgm-libbench-") as tmp:
        path = os.path.join(tmp, "turns.json")
        with open(path, "w") as f:
            json.dump(texts, f)
        for _ in range(reps):
            for mode in ("single", "batch"):
                for label, which, extra in cases:
                    out = fresh_python(
                        COLD, which, path, str(tokenizer_json()), mode, env=env_for(**extra)
                    )
                    res[(label, mode)].append(json.loads(out))
    return res


def identical_ids(o: Any, h: Any, texts: list[str]) -> None:
    print("== (a) identical ids (ours vs tokenizers, truncation 256) ==")
    sets = {
        "LoCoMo turns": texts,
        "Chinese sentences": chinese_sentences(),
        "mixed/edge text": MIXED,
        "random Unicode": random_unicode(),
    }
    for name, items in sets.items():
        diff = [s for s in items if o.encode(s) != h.encode(s).ids]
        same = len(items) - len(diff)
        print(f"  {name:18s}: {len(items):5d} texts, {same:5d} identical, {len(diff)} differ")
        for s in diff[:3]:
            a, b = o.encode(s), h.encode(s).ids
            pairs = enumerate(zip(a, b, strict=False))
            i = next((j for j, (x, y) in pairs if x != y), min(len(a), len(b)))
            print(f"     e.g. {s[:60]!r}: first diff at {i}: ours {a[i : i + 4]} hf {b[i : i + 4]}")
    # the batch paths agree with the single ones
    assert o.encode_batch(texts[:600]) == [e.ids for e in h.encode_batch(texts[:600])]
    n_tok = sum(len(x) for x in o.encode_batch(texts))
    print(f"  ({len(texts)} turns -> {n_tok} ids, mean {n_tok / len(texts):.1f})")


def warm_throughput(o: Any, h: Any, texts: list[str], reps: int, queries: int) -> None:
    print(f"\n== (b) warm throughput, {len(texts)} LoCoMo turns per pass, median of {reps} ==")

    def single_o(tok: Any) -> None:
        for s in texts:
            tok.encode(s)

    def single_h(tok: Any) -> None:
        for s in texts:
            tok.encode(s).ids  # noqa: B018

    def batch_o(tok: Any) -> None:
        for i in range(0, len(texts), 512):
            tok.encode_batch(texts[i : i + 512])

    def batch_h(tok: Any) -> None:
        for i in range(0, len(texts), 512):
            [e.ids for e in tok.encode_batch(texts[i : i + 512])]

    cases: Sequence[tuple[str, Callable[[Any], None], Callable[[], Any]]] = (
        ("ours single (word cache warm)", single_o, lambda: o),
        ("ours single (fresh tokenizer, cache empty)", single_o, ours),
        ("hf single", single_h, lambda: h),
        ("ours batch512 (word cache warm)", batch_o, lambda: o),
        ("ours batch512 (fresh tokenizer, cache empty)", batch_o, ours),
        ("hf batch512 (default parallelism)", batch_h, lambda: h),
    )
    for fn, tok in ((single_o, o), (single_h, h), (batch_o, o), (batch_h, h)):  # warm-up
        fn(tok)
    times: dict[str, list[float]] = {}
    for _ in range(reps):
        for label, fn, make in cases:
            tok = make()
            t = time.perf_counter()
            fn(tok)
            times.setdefault(label, []).append(time.perf_counter() - t)
    for label, v in times.items():
        m = med(v)
        print(f"  {label:46s}: {m * 1e3:8.1f} ms/pass  {len(texts) / m:9.0f} texts/s")
    # single-query latency: a typical question
    qs = ["What did Caroline research for her adoption plans?", "When did Melanie paint a sunrise?"]
    lat: dict[str, list[float]] = {"ours": [], "hf": []}
    for _ in range(queries):
        for q in qs:
            t = time.perf_counter()
            o.encode(q)
            lat["ours"].append(time.perf_counter() - t)
            t = time.perf_counter()
            h.encode(q).ids  # noqa: B018
            lat["hf"].append(time.perf_counter() - t)
    print(
        f"  one short query, warm: ours {med(lat['ours']) * 1e6:.1f} us, "
        f"hf {med(lat['hf']) * 1e6:.1f} us (medians)"
    )


def cold(texts: list[str], reps: int) -> None:
    print(
        "\n== (b) cold: fresh interpreter per run (after `import langgraph_memory.embeddings`), "
        f"median of {reps} =="
    )
    for (label, mode), rows in cold_runs(texts, reps).items():
        m = {k: med([r[k] for r in rows]) for k in rows[0]}
        print(
            f"  {label:11s} {mode:6s}: import+load {m['import_load'] * 1e3:6.1f} ms, "
            f"first query {m['first_query'] * 1e3:5.2f} ms, "
            f"first full pass {m['first_pass'] * 1e3:7.1f} ms "
            f"({len(texts) / m['first_pass']:.0f} texts/s)"
        )


def imports_and_size(reps: int) -> None:
    print(
        "\n== (c) import time (fresh interpreter, after `import langgraph_memory.embeddings`), "
        f"median of {reps} =="
    )
    pre = "import langgraph_memory.embeddings"
    load = f"WordPieceTokenizer.from_file({str(tokenizer_json())!r}, max_length=256)"
    imp = import_seconds(
        [
            ("ours: import wordpiece", pre, "from langgraph_memory.embeddings import wordpiece"),
            ("tokenizers: import tokenizers", pre, "import tokenizers"),
            (
                "ours: import + from_file",
                pre,
                f"from langgraph_memory.embeddings.wordpiece import WordPieceTokenizer\n{load}",
            ),
            (
                "tokenizers: import + from_file",
                pre,
                f"from tokenizers import Tokenizer\nTokenizer.from_file({str(tokenizer_json())!r})",
            ),
        ],
        repeat=reps,
    )
    for k, v in imp.items():
        print(f"  {k:34s}: {v * 1e3:6.1f} ms")
    import tokenizers

    import langgraph_memory.embeddings.wordpiece as wp

    own, added, names = added_footprint("tokenizers")
    print("\n== (c) installed size ==")
    kb = os.path.getsize(wp.__file__) / 1e3
    print(f"  ours: wordpiece.py {kb:.1f} kB source, no dependency")
    print(
        f"  tokenizers {tokenizers.__version__}: {own / 1e6:.1f} MB itself; {added / 1e6:.1f} MB "
        f"with what it pulls in that [embed] lacks: {', '.join(names)}"
    )


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--reps", type=int, help="repetitions (default 7; --quick 1)")


def run(args: argparse.Namespace) -> None:
    if missing("tokenizers"):
        print("tokenizers is not installed (pip install tokenizers): comparison skipped")
        return
    reps = args.reps or (1 if args.quick else 7)
    texts = all_turn_texts()
    o, h = ours(), hf()
    identical_ids(o, h, texts)
    warm_throughput(o, h, texts, reps, 200 if args.quick else 2000)
    cold(texts, reps)
    imports_and_size(reps)
