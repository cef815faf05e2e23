"""The inspector in a real browser: headless Chromium (Debian's ``chromium`` and
``chromium-driver``) driven by Selenium, against a real server on loopback.

One browser and one server for the module. Every page visit fails on any console error
(a CSP violation, a script error, a missing file) and on ``window.__xss`` being set (the
seeded hostile text's scripts and image handlers would set it). The flow clicks through
user -> session -> message -> segment -> "why" -> a cited message, and deletes a
message through its confirmation and sees it gone from search.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from live_service import serving
from seeded import CHINESE, HOSTILE, open_memory, seed

from langgraph_memory.integrations.server import create_app

pytestmark = pytest.mark.timeout(180)

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.wait import WebDriverWait  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")


@pytest.fixture(scope="module")
def ui(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    if CHROMIUM is None or DRIVER is None:
        pytest.skip("needs Debian's chromium and chromium-driver (apt-get install them)")
    from selenium.webdriver.chrome.service import Service

    root: Path = tmp_path_factory.mktemp("inspector-browser")
    mm = open_memory(root)
    seeded = seed(mm, root)
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1280,900", "--lang=en-US"):  # fmt: skip
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        with serving(create_app(mm, keys=root), log_level="warning") as url:
            driver = webdriver.Chrome(service=Service(DRIVER), options=opts)
            driver.set_page_load_timeout(30)
            try:
                yield {"d": driver, "url": url, "s": seeded, "mm": mm}
            finally:
                driver.quit()
    finally:
        mm.close()


def _clean(ui: dict[str, Any]) -> None:
    """The page logged no console error and ran none of the stored text."""
    d = ui["d"]
    errors = [e for e in d.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
    assert errors == [], errors
    assert d.execute_script("return window.__xss === undefined") is True


def _open(ui: dict[str, Any], path: str) -> None:
    ui["d"].get(ui["url"] + path)
    _clean(ui)


def _follow(ui: dict[str, Any], link: Any) -> None:
    """Click a link and wait (bounded) until its page has loaded."""
    d = ui["d"]
    before = d.current_url
    link.click()
    WebDriverWait(d, 15).until(lambda d: d.current_url != before)
    WebDriverWait(d, 15).until(
        lambda d: d.execute_script("return document.readyState") == "complete"
    )
    _clean(ui)


def _click(ui: dict[str, Any], text: str) -> None:
    _follow(ui, ui["d"].find_element(By.LINK_TEXT, text))


def _arrive(ui: dict[str, Any], path_end: str) -> None:
    """Wait (bounded) for the navigation a form started to land on ``path_end``."""
    WebDriverWait(ui["d"], 15).until(lambda d: d.current_url.split("?")[0].endswith(path_end))
    WebDriverWait(ui["d"], 15).until(
        lambda d: d.execute_script("return document.readyState") == "complete"
    )
    _clean(ui)


def _login(ui: dict[str, Any]) -> None:
    d = ui["d"]
    _open(ui, "/ui/login")  # a page of the site, to clear its cookies
    d.delete_all_cookies()
    _open(ui, "/ui/users/alice")
    assert "/ui/login" in d.current_url  # no cookie yet: the login form
    field = d.find_element(By.ID, "key")
    assert d.find_element(By.CSS_SELECTOR, "label[for=key]").text == "API key"
    field.send_keys(ui["s"].tenants.acme)
    field.send_keys(Keys.ENTER)
    _arrive(ui, "/ui/users/alice")


def test_log_in_then_user_session_segment_why_flow(ui: dict[str, Any]) -> None:
    d = ui["d"]
    _login(ui)
    _open(ui, "/ui/")
    _click(ui, "alice")
    assert d.find_element(By.TAG_NAME, "h1").text == "User alice"
    # times were rewritten into the browser's zone by the page's script
    first_time = d.find_element(By.CSS_SELECTOR, "time[datetime]")
    assert first_time.get_attribute("title").endswith("UTC")
    _click(ui, "Sessions")
    _click(ui, "s2")
    _click(ui, "Older")  # the session's older messages have left short-term memory
    _follow(ui, d.find_elements(By.CSS_SELECTOR, "td a[href*='/messages/']")[-1])
    seg = d.find_element(By.CSS_SELECTOR, "a[href*='/segments/seg-']")
    _follow(ui, seg)
    assert d.find_element(By.TAG_NAME, "h1").text.startswith("Segment seg-")
    assert d.find_elements(By.CSS_SELECTOR, "figure svg.heat")
    _click(ui, "Why would the model see this segment?")
    rows = d.find_elements(By.CSS_SELECTOR, "#why-items tbody tr")
    assert rows, "the context explained no item"
    header = [th.text for th in d.find_elements(By.CSS_SELECTOR, "#why-items thead th")]
    for col in ("Layer", "Score parts", "Tokens", "Sources", "Reason"):
        assert col in header
    # the budget slider: keyboard moves it, the script shows its value
    slider = d.find_element(By.ID, "budget")
    before = d.find_element(By.ID, "budget-out").text
    slider.send_keys(Keys.ARROW_RIGHT)
    assert d.find_element(By.ID, "budget-out").text != before
    # a message's source id links to the message
    said = ("message", "short_term", "neighbor", "segment_page")
    row = next(r for r in rows if r.find_element(By.CSS_SELECTOR, ".tag").text in said)
    src = row.find_elements(By.CSS_SELECTOR, "a[href*='/source?id=']")[0]
    mid = src.text
    _follow(ui, src)
    assert d.find_element(By.TAG_NAME, "h1").text == f"Message {mid}"


def test_every_page_renders_without_console_errors_or_running_stored_text(
    ui: dict[str, Any],
) -> None:
    d = ui["d"]
    _login(ui)
    for path in (
        "/ui/",
        "/ui/users/alice",
        "/ui/users/alice/sessions",
        "/ui/users/alice/sessions/trip",
        "/ui/users/alice/messages/m-hostile",
        "/ui/users/alice/messages/m-zh",
        "/ui/users/alice/search?q=script&hybrid=1",
        "/ui/users/alice/why?q=prefer%20script&budget=3000",
        "/ui/users/alice/segments",
        "/ui/users/alice/tasks",
        "/ui/users/alice/documents",
        "/ui/users/alice/audit",
        "/ui/users/alice/sessions/trip?tz=Asia/Shanghai",
    ):
        _open(ui, path)
        assert d.find_element(By.TAG_NAME, "h1").text, path
    _open(ui, "/ui/users/alice/messages/m-hostile")
    shown = d.find_element(By.ID, "content").text
    assert "<script>window.__xss=1</script>" in shown and "␛[31mred" in shown
    assert HOSTILE.split("\x1b")[0] in shown
    _open(ui, "/ui/users/alice/messages/m-zh")
    assert d.find_element(By.ID, "content").text == CHINESE
    # keyboard: the first Tab reaches the skip link, Enter moves focus to the content
    d.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)
    active = d.switch_to.active_element
    assert active.text == "Skip to content"
    active.send_keys(Keys.ENTER)
    assert d.switch_to.active_element.get_attribute("id") == "main"
    # another tenant's user is a 404 page here too (the one error logged is that status)
    d.get(ui["url"] + "/ui/users/bob")
    logged = [e["message"] for e in d.get_log("browser") if e["level"] == "SEVERE"]
    assert len(logged) == 1 and "/ui/users/bob" in logged[0] and "404" in logged[0]
    assert d.find_element(By.TAG_NAME, "h1").text == "Not found"
    assert "heron" not in d.page_source


def test_delete_a_message_through_its_confirmation_and_it_is_gone(ui: dict[str, Any]) -> None:
    d, s = ui["d"], ui["s"]
    _login(ui)
    _open(ui, "/ui/users/alice/search?q=locker")
    assert s.deletable_text in d.find_element(By.TAG_NAME, "main").text
    _click(ui, s.deletable)
    _click(ui, "Delete this message…")
    assert d.find_element(By.TAG_NAME, "h1").text == "Delete a message?"
    d.find_element(By.CSS_SELECTOR, "form button.danger").click()
    _arrive(ui, "/ui/users/alice/audit")
    assert "delete-message" in d.find_element(By.TAG_NAME, "main").text
    _open(ui, "/ui/users/alice/search?q=locker")
    assert s.deletable_text not in d.find_element(By.TAG_NAME, "main").text
    assert all(s.deletable not in h.source_ids for h in ui["mm"].search("acme:alice", "locker"))


def test_a_segment_page_shows_its_heat_over_time(ui: dict[str, Any]) -> None:
    """Retrievals visit alice's segments; a segment's page then draws its heat as a line
    with the visits marked, in the reader's zone, and logs no console error."""
    from langgraph_memory.integrations.server.tenancy import store_user_id

    d, mm = ui["d"], ui["mm"]
    alice = store_user_id("acme", "alice")
    for _ in range(3):
        mm.search(alice, "quarterly report note", layers=["mid_term"])
    mm.flush()  # the worker saves the visits
    details = [
        mm.inspect.segment(alice, s.id)
        for s in mm.inspect.segments(alice, archived=None, limit=500).items
    ]
    seg = next(x for x in details if x.visit_times).segment
    _login(ui)
    _open(ui, f"/ui/users/alice/segments/{seg.id}")
    chart = d.find_element(By.CSS_SELECTOR, "figure svg.heat[role=img]")
    assert chart.get_attribute("aria-label").startswith("Heat over time from ")
    line = chart.find_element(By.CSS_SELECTOR, "path.line")
    assert line.size["width"] > 100  # drawn across the chart
    assert chart.find_elements(By.CSS_SELECTOR, "line.visit")
    # the caption's and the events' times were rewritten into the browser's zone
    caption = d.find_element(By.CSS_SELECTOR, "figcaption time[datetime]")
    assert caption.get_attribute("title").endswith("UTC")
    assert "visit (retrieved)" in d.find_element(By.TAG_NAME, "main").text
    _open(ui, f"/ui/users/alice/segments/{seg.id}?tz=Asia/Shanghai")
    label = d.find_element(By.CSS_SELECTOR, "figure svg.heat").get_attribute("aria-label")
    assert "CST" in label
