"""Inspector pages: each page's server time on a user with 100,000 messages, and a
screenshot of each page.

Usage:
    python benchmarks/inspector_pages.py [--store DIR] [--messages 100000] [--managed 4000]
                                         [--reps 40] [--shots DIR | --no-shots]

Serves ``create_app`` on a real uvicorn on loopback and requests every page of the
inspector (``/ui``) ``--reps`` times with varied arguments (cursors spread over the whole
history, queries in English and Chinese) after a warm-up pass, reading each response's
``Server-Timing`` header (the server's time from the request to the response's start:
the handler, its reads and the template) and printing p50/p95 ms per page. The baseline
in the same run is the inspector's static style sheet (the cost of a request through the
same stack, reading nothing). Target: every page's p95 ≤ 100 ms. The segment pages open
the segments with the most kept visits (their whole heat chart, and its last day); the
library floors include rebuilding the heat curve of a 10,000-page segment with a full
history (200 visits, 50 promotions).

The store is the one ``benchmarks/inspector_scale.py`` builds (its synthetic chat, all
but the newest ``--managed`` messages stored through the backend's own insert, the rest
through the manager), for the tenant user ``bench`` / ``alice`` (store user id
``bench:alice``); ``--store DIR`` reuses a directory this script built. Then, unless
``--no-shots``, headless Chromium (Debian's ``chromium`` and ``chromium-driver``, through
Selenium) logs in through the form and saves one PNG per page in ``--shots`` (default: a
new temporary directory, printed).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "server"))

import httpx  # noqa: E402
import inspector_scale  # noqa: E402
from live_service import serving  # noqa: E402
from scale import Corpus  # noqa: E402

from langgraph_memory import MemoryManager  # noqa: E402
from langgraph_memory.embeddings import HashingEmbeddings  # noqa: E402
from langgraph_memory.integrations.server import create_app  # noqa: E402
from langgraph_memory.integrations.server.keys import KeyFile  # noqa: E402
from langgraph_memory.layers.mid_term.heat_history import heat_curve  # noqa: E402
from langgraph_memory.layers.mid_term.segments import Segment  # noqa: E402
from langgraph_memory.layers.short_term.pages import Page  # noqa: E402

TENANT, USER = "bench", "alice"
STORE_UID = f"{TENANT}:{USER}"
T0 = datetime(2024, 1, 1, tzinfo=timezone.utc)
SEARCHES = ["tea", "Kyoto trip", "museum", "喜欢", "北京", "concert tickets"]


class TenantCorpus(Corpus):
    """``scale.py``'s corpus, its user's messages made the tenant user's."""

    def chunk(self, start: int, stop: int) -> list[Any]:
        return [replace(m, user_id=STORE_UID) for m in super().chunk(start, stop)]


def build(path: Path, args: argparse.Namespace) -> None:
    """``inspector_scale``'s store, for ``bench:alice``."""
    inspector_scale.USER = STORE_UID  # its manager-side load writes for this user
    corpus = TenantCorpus(args.seed)
    bulk = args.messages - args.managed
    t = time.perf_counter()
    inspector_scale.bulk_load(path, corpus, bulk, args.others, args.other_messages)
    inspector_scale.managed_load(path, corpus, bulk, args.messages)
    print(f"built in {time.perf_counter() - t:.0f} s", flush=True)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def server_ms(client: httpx.Client, url: str) -> float:
    r = client.get(url)
    if r.status_code != 200:
        raise RuntimeError(f"{url} answered {r.status_code}: {r.text[:300]}")
    timing = r.headers["server-timing"]
    return float(timing.split("dur=")[1])


def pages(mm: MemoryManager, reps: int) -> dict[str, Callable[[int], str]]:
    """Page name -> the URL of its ``i``-th request."""
    u = f"/ui/users/{USER}"
    ins = mm.inspect
    ov = ins.overview(STORE_UID)
    newest = ov.latest_messages.items[0].seq
    step = max(1, newest // (reps + 1))
    cursors = [str(newest - i * step) for i in range(reps)]
    sessions = [r.session_id for r in ins.sessions(STORE_UID, limit=min(reps, 200)).items]
    msg_ids = [m.id for m in ins.messages(STORE_UID, limit=min(reps, 200)).items]
    old_ids = [m.id for m in ins.messages(STORE_UID, cursor=cursors[-1], limit=50).items]
    # the segments with the most kept visits (their heat chart has the most to draw)
    listed = ins.segments(STORE_UID, archived=None, limit=500).items
    by_visits = sorted(
        ((len(ins.segment(STORE_UID, s.id, limit=1).visit_times), s.id) for s in listed),
        reverse=True,
    )
    segs = [sid for _, sid in by_visits[:5]] or [""]

    def q(**kw: Any) -> str:
        return "?" + urlencode(kw)

    return {
        "users": lambda i: "/ui/",
        "overview": lambda i: u,
        "overview, older messages": lambda i: u + q(cursor=cursors[i]),
        "sessions": lambda i: f"{u}/sessions",
        "sessions, deep page": lambda i: f"{u}/sessions" + q(cursor=cursors[i]),
        "session": lambda i: f"{u}/sessions/{quote(sessions[i % len(sessions)], safe='')}",
        "message (new)": lambda i: f"{u}/messages/{quote(msg_ids[i % len(msg_ids)], safe='')}",
        "message (old)": lambda i: f"{u}/messages/{quote(old_ids[i % len(old_ids)], safe='')}",
        "search": lambda i: f"{u}/search" + q(q=SEARCHES[i % len(SEARCHES)]),
        "search + hybrid": lambda i: f"{u}/search" + q(q=SEARCHES[i % len(SEARCHES)], hybrid=1),
        "why (1000 tokens)": lambda i: f"{u}/why" + q(q=SEARCHES[i % len(SEARCHES)], budget=1000),
        "why (4000 tokens)": lambda i: f"{u}/why" + q(q=SEARCHES[i % len(SEARCHES)], budget=4000),
        "segments": lambda i: f"{u}/segments",
        "segment": lambda i: f"{u}/segments/{quote(segs[i % len(segs)], safe='')}",
        "segment, last day": lambda i: (
            f"{u}/segments/{quote(segs[i % len(segs)], safe='')}" + q(span="day")
        ),
        "tasks": lambda i: f"{u}/tasks",
        "documents": lambda i: f"{u}/documents",
        "audit": lambda i: f"{u}/audit",
    }


def measure(url: str, key: str, mm: MemoryManager, reps: int) -> list[tuple[str, float, float]]:
    rows = []
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {key}"}, timeout=60) as c:
        base = [server_ms(c, "/ui/static/ui.css") for _ in range(reps)]
        rows.append(("baseline: static ui.css", pct(base, 0.5), pct(base, 0.95)))
        for name, make in pages(mm, reps).items():
            for i in range(min(reps, 5)):  # warm-up
                server_ms(c, make(i))
            times = [server_ms(c, make(i)) for i in range(reps)]
            rows.append((name, statistics.median(times), pct(times, 0.95)))
    return rows


def library_floors(mm: MemoryManager, reps: int) -> list[tuple[str, float, float]]:
    """The library calls the slowest pages make, timed in process (no HTTP, no page):
    what those pages cannot be faster than."""
    calls: dict[str, Callable[[int], Any]] = {
        "  mm.search(k=10)": lambda i: mm.search(STORE_UID, SEARCHES[i % len(SEARCHES)], 10),
        "  mm.build_context(1000)": lambda i: mm.build_context(
            STORE_UID, "inspector", SEARCHES[i % len(SEARCHES)], 1000, explain=True
        ),
        "  mm.build_context(4000)": lambda i: mm.build_context(
            STORE_UID, "inspector", SEARCHES[i % len(SEARCHES)], 4000, explain=True
        ),
        "  heat_curve(10,000 pages)": big_segment_curve(),
    }
    rows = []
    for name, call in calls.items():
        for i in range(min(reps, 5)):
            call(i)
        times = []
        for i in range(reps):
            t = time.perf_counter()
            call(i)
            times.append((time.perf_counter() - t) * 1000)
        rows.append((name, statistics.median(times), pct(times, 0.95)))
    return rows


def big_segment_curve() -> Callable[[int], Any]:
    """A segment of 10,000 pages, 200 kept visits and 50 promotions (a full history):
    rebuilding its heat curve, what the segment page does for a segment that large."""
    seg = Segment("seg-big", STORE_UID, created_at=T0, last_access=T0)
    for k in range(10_000):
        at = T0 + timedelta(minutes=k)
        seg.add(Page(f"p{k}", "s", [f"m{k}"], [k + 1], at, ["tea"], open=False))
        if k % 20 == 19:
            seg.visit(at + timedelta(seconds=20))
        if k % 150 == 149:
            seg.promoted(at + timedelta(seconds=40))
    now = T0 + timedelta(days=8)
    return lambda i: heat_curve(seg, now)


def screenshots(url: str, key: str, mm: MemoryManager, out: Path) -> list[Path]:
    """One PNG per page, through a real login in headless Chromium."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.wait import WebDriverWait

    chromium, driver_bin = shutil.which("chromium"), shutil.which("chromedriver")
    if chromium is None or driver_bin is None:
        print("no chromium/chromedriver: screenshots skipped")
        return []
    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1280,1400", "--hide-scrollbars"):  # fmt: skip
        opts.add_argument(arg)
    d = webdriver.Chrome(service=Service(driver_bin), options=opts)
    saved = []

    def loaded(wait_for: str | None = None) -> None:
        w = WebDriverWait(d, 60)
        if wait_for is not None:
            w.until(lambda d: wait_for in d.current_url)
        w.until(lambda d: d.execute_script("return document.readyState") == "complete")

    try:
        d.set_page_load_timeout(120)
        out.mkdir(parents=True, exist_ok=True)
        d.get(url + "/ui/login?" + urlencode({"next": f"/ui/users/{USER}"}))
        loaded()
        d.save_screenshot(str(out / "00-login.png"))
        saved.append(out / "00-login.png")
        box = d.find_element(By.ID, "key")
        box.send_keys(key)
        box.send_keys(Keys.ENTER)
        loaded(wait_for="/ui/users")  # the login lands on a page of the inspector
        for n, (name, make) in enumerate(pages(mm, 3).items(), start=1):
            d.get(url + make(1))
            loaded()
            slug = name.replace(",", "").replace("(", "").replace(")", "").replace("+", "and")
            file = out / f"{n:02d}-{'-'.join(slug.split())}.png"
            d.save_screenshot(str(file))
            saved.append(file)
    finally:
        d.quit()
    return saved


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--store", type=Path, default=None)
    ap.add_argument("--messages", type=int, default=100_000)
    ap.add_argument("--managed", type=int, default=4000)
    ap.add_argument("--others", type=int, default=20)
    ap.add_argument("--other-messages", type=int, default=1000)
    ap.add_argument("--reps", type=int, default=40)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--shots", type=Path, default=None)
    ap.add_argument("--no-shots", action="store_true")
    args = ap.parse_args(argv)
    args.managed = min(args.managed, args.messages) // 2 * 2
    tmp = Path(tempfile.mkdtemp(prefix="lgm-inspector-pages-"))
    path = args.store or tmp / "store"
    try:
        with MemoryManager(path, embeddings=HashingEmbeddings()) as mm:
            have = mm.inspect.overview(STORE_UID).messages
        if have == 0:
            print(f"building {args.messages:,} messages of {STORE_UID} in {path} ...", flush=True)
            build(path, args)
        elif have != args.messages:
            print(
                f"{path} holds {have:,} messages of {STORE_UID} (not {args.messages:,}): using it"
            )
        keys = KeyFile(tmp / "keys")
        key = keys.create(TENANT)
        with MemoryManager(path, embeddings=HashingEmbeddings()) as mm:
            mm.flush()
            ov = mm.inspect.overview(STORE_UID)
            print(f"store: {ov.messages:,} messages of {STORE_UID} in {ov.sessions:,} sessions")
            app = create_app(mm, keys=keys)
            with serving(app, log_level="warning") as url:
                rows = measure(url, key, mm, args.reps)
                floors = library_floors(mm, args.reps)
                base = rows[0][2]
                print(f"\n{'page':<28} {'p50 ms':>8} {'p95 ms':>8} {'p95/base':>9}")
                for name, p50, p95 in rows:
                    flag = "" if p95 <= 100 or name.startswith("baseline") else "  OVER 100 ms"
                    print(f"{name:<28} {p50:>8.1f} {p95:>8.1f} {p95 / base:>9.1f}{flag}")
                print("library calls alone (in process, the floor of the pages that make them):")
                for name, p50, p95 in floors:
                    print(f"{name:<28} {p50:>8.1f} {p95:>8.1f} {p95 / base:>9.1f}")
                worst = max(r[2] for r in rows[1:])
                print(f"\nworst page p95: {worst:.1f} ms (target ≤ 100 ms)")
                if not args.no_shots:
                    out = args.shots or Path(tempfile.mkdtemp(prefix="lgm-inspector-shots-"))
                    saved = screenshots(url, key, mm, out)
                    print(f"\n{len(saved)} screenshots in {out}:")
                    for f in saved:
                        print(f"  {f.name}")
        return 0 if worst <= 100 else 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
