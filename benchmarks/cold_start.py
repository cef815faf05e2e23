"""Cold start: package import and CLI search against a bare interpreter, and the default
model on ONNX Runtime against torch.

Usage:
    python benchmarks/cold_start.py [--repeat 5] [--texts 1000] [--no-torch]

Prints, all measured in this run, each timing in a fresh interpreter (a subprocess that
imports the ``langgraph_memory`` of this checkout) and as the median of ``--repeat``
runs after one warm-up run:
- the wall time of ``python -c pass`` (the floor), of ``python -c "import
  langgraph_memory"`` and of ``python -c "from langgraph_memory import MemoryManager"``,
  each also less the floor; the import as timed inside the interpreter too;
- the first embedding: ``MiniLMEmbeddings(backend=...)`` loading the model, then
  one ``embed_query`` (the package already imported);
- the CLI's wall time for ``langgraph-memory --path DIR search --user
  alice "trip to Kyoto"`` (what the ``langgraph-memory`` command runs) on a store of 20
  messages (made here with the default model), start of the interpreter to exit; the
  torch run calls the same ``main`` with the torch backend in place of the default model;
- the targets of issue 25: ``import langgraph_memory`` within 0.5 s and the CLI search
  within 1.5 s (wall medians);
- embedding throughput (texts/s) of torch, ONNX fp32 and ONNX int8 on the same
  synthetic messages (``benchmarks/latency.py``'s), each in its own process after a
  warm-up, the median of ``--repeat`` passes.

``--no-torch`` leaves out every torch figure (and needs no torch installed).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: Subprocesses import the package of this checkout, whatever is installed.
ENV = {
    **os.environ,
    "PYTHONPATH": os.pathsep.join(
        p for p in (str(HERE.parent), os.environ.get("PYTHONPATH", "")) if p
    ),
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
}
#: Issue 25's targets (wall medians, seconds).
IMPORT_TARGET = 0.5
CLI_TARGET = 1.5

IMPORT = """
import time
t = time.perf_counter()
import langgraph_memory
print(time.perf_counter() - t)
"""

IMPORT_MANAGER = "from langgraph_memory import MemoryManager"

FIRST_EMBED = """
import sys, time
import langgraph_memory
from langgraph_memory.embeddings import MiniLMEmbeddings
t = time.perf_counter()
MiniLMEmbeddings(backend=sys.argv[1]).embed_query("trip to Kyoto")
print(time.perf_counter() - t)
"""

# The CLI's main with the torch backend as the default model.
TORCH_CLI = """
import sys
from langgraph_memory.embeddings import MiniLMEmbeddings
from langgraph_memory.write import embedder
embedder.default_embeddings = lambda: MiniLMEmbeddings(backend="torch")
from langgraph_memory.integrations.cli.commands import main
sys.exit(main(sys.argv[1:]))
"""

THROUGHPUT = """
import statistics, sys, time, random
sys.path.insert(0, sys.argv[4])
from latency import synth
from langgraph_memory.embeddings import MiniLMEmbeddings
model = MiniLMEmbeddings(backend=sys.argv[1], quantize=sys.argv[2] == "int8")
rng = random.Random(7)
texts = [synth(rng, i) for i in range(int(sys.argv[3]))]
model.embed_array(texts[:200])
rates = []
for _ in range(int(sys.argv[5])):
    t = time.perf_counter()
    model.embed_array(texts)
    rates.append(len(texts) / (time.perf_counter() - t))
print(statistics.median(rates))
"""

MESSAGES = [
    "I am planning a trip to Kyoto in April with my sister.",
    "We want to see the cherry blossoms at the Philosopher's Path.",
    "My sister is vegetarian, so we need restaurants with tofu dishes.",
    "I booked a ryokan near Gion for four nights.",
    "The flight lands at Kansai airport at 7 am.",
    "我们想去伏见稻荷大社看千本鸟居。",
    "I am allergic to peanuts.",
    "My budget for the whole trip is about 2000 dollars.",
    "I'd like to try a tea ceremony in Uji.",
    "Last year we went to Lisbon and loved the tram rides.",
]


def timed(cmd: list[str], repeat: int, *, stdout_value: bool) -> float:
    """Median seconds of ``cmd`` over ``repeat`` runs after a warm-up: the value it
    prints, or its wall time."""
    import time

    values = []
    for i in range(repeat + 1):
        t = time.perf_counter()
        out = subprocess.run(cmd, capture_output=True, text=True, check=True, env=ENV)
        wall = time.perf_counter() - t
        if i:  # the first run warms the disk cache
            values.append(float(out.stdout.strip().splitlines()[-1]) if stdout_value else wall)
    return statistics.median(values)


def make_store(path: str) -> None:
    from langgraph_memory import MemoryManager

    with MemoryManager(path) as mm:
        for i in range(20):
            role = "user" if i % 2 == 0 else "assistant"
            mm.add_message("alice", "s1", role, MESSAGES[i % len(MESSAGES)] + f" ({i})")
        mm.flush()


def verdict(seconds: float, target: float) -> str:
    return f"target <= {target} s: {'met' if seconds <= target else 'MISSED'}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--texts", type=int, default=1000, help="texts per throughput pass")
    parser.add_argument("--no-torch", dest="torch", action="store_false", help="no torch runs")
    args = parser.parse_args(argv)
    os.environ.update(HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    sys.path.insert(0, str(HERE.parent))  # the store is made by this checkout too
    py = sys.executable
    n = args.repeat
    backends = ("onnx", "torch") if args.torch else ("onnx",)

    print(f"medians of {n} runs after a warm-up, each in a fresh interpreter")
    floor = timed([py, "-c", "pass"], n, stdout_value=False)
    print(f"python -c pass, wall: {floor * 1e3:.0f} ms")
    walls = {}
    for name, code in (
        ("import langgraph_memory", "import langgraph_memory"),
        ("from langgraph_memory import MemoryManager", IMPORT_MANAGER),
    ):
        walls[name] = s = timed([py, "-c", code], n, stdout_value=False)
        print(f"{name}, wall: {s * 1e3:.0f} ms ({(s - floor) * 1e3:.0f} ms over the floor)")
    s = timed([py, "-c", IMPORT], n, stdout_value=True)
    print(f"import langgraph_memory, timed inside the interpreter: {s * 1e3:.0f} ms")
    print(f"   {verdict(walls['import langgraph_memory'], IMPORT_TARGET)}")
    for backend in backends:
        s = timed([py, "-c", FIRST_EMBED, backend], n, stdout_value=True)
        print(f"first embed (model load + one query), {backend}: {s * 1e3:.0f} ms")

    store = tempfile.mkdtemp(prefix="lgm-cold-start-")
    try:
        make_store(store)
        search = ["--path", store, "search", "--user", "alice", "trip to Kyoto"]
        s = timed(
            [py, "-m", "langgraph_memory.integrations.cli.commands", *search], n, stdout_value=False
        )
        print(f"CLI search wall, onnx (default): {s:.2f} s ({s - floor:.2f} s over the floor)")
        print(f"   {verdict(s, CLI_TARGET)}")
        if args.torch:
            s = timed([py, "-c", TORCH_CLI, *search], n, stdout_value=False)
            print(f"CLI search wall, torch: {s:.2f} s")
    finally:
        shutil.rmtree(store, ignore_errors=True)

    print(f"throughput, {args.texts} synthetic messages, median of {n} passes:")
    runs = (("torch", "fp32"), ("onnx", "fp32"), ("onnx", "int8"))
    for backend, precision in runs if args.torch else runs[1:]:
        cmd = [py, "-c", THROUGHPUT, backend, precision, str(args.texts), str(HERE), str(n)]
        out = subprocess.run(cmd, capture_output=True, text=True, check=True, env=ENV)
        rate = float(out.stdout.strip().splitlines()[-1])
        print(f"  {backend} {precision}: {rate:.0f} texts/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
