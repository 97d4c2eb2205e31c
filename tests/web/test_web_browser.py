"""The viewer in a real headless Chromium: list, filters, stepping, seat views, model
decisions, hostile model text, and a published site opened from disk."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from webkit import ROOT, SCRIPT, Games, chromium_missing, launch_chromium, serving

why = chromium_missing()
pytestmark = pytest.mark.skipif(why is not None, reason=why or "")

SHOTS = Path(__file__).parent / "shots"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium from the system, headless."""
    with launch_chromium() as b:
        yield b


@pytest.fixture(scope="module")
def site(games: Games) -> Iterator[str]:
    """`cattle serve` over the test store."""
    with serving(games.db) as url:
        yield url


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh page that records script errors and console errors. The page's
    Content-Security-Policy is bypassed: rendering must be safe without that second line."""
    ctx = browser.new_context(viewport={"width": 1300, "height": 900}, bypass_csp=True)
    pg = ctx.new_page()
    pg.errors = []  # type: ignore[attr-defined]
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    pg.on("console", lambda m: pg.errors.append(m.text) if m.type == "error" else None)
    try:
        yield pg
    finally:
        ctx.close()


def ready(pg: Any) -> None:
    pg.wait_for_selector("body[data-ready=yes]", timeout=10_000)


def position(pg: Any) -> str:
    return pg.inner_text("#position")


def test_list_filter_open_step_and_switch_seat(page: Any, site: str, games: Games) -> None:
    page.goto(site + "/")
    assert page.locator("#games tbody tr").count() >= 8
    page.select_option("select[name=game]", "pact")  # applies at once
    page.wait_for_url("**game=pact**")
    rows = page.locator("#games tbody tr")
    assert rows.count() == 1
    rows.locator("a.game-link").click()
    ready(page)
    assert games.pact in page.url
    start = position(page)
    assert start.startswith("event 1 of")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert position(page).startswith("event 3 of")
    page.click("#btn-next")
    assert position(page).startswith("event 4 of")
    page.click("#btn-prev")
    assert position(page).startswith("event 3 of")
    page.keyboard.press("End")
    n = int(position(page).split(" of ")[1].split()[0])
    assert position(page).startswith(f"event {n} of")
    assert "at=" in page.url  # the position is kept in the address
    shared = page.url
    page.keyboard.press("Home")
    assert position(page).startswith("event 1 of")
    page.goto(shared)
    ready(page)
    assert position(page).startswith(f"event {n} of")
    # Both values at the end in the omniscient view; only its own for seat 0.
    values = page.locator("#table .seat .value").all_inner_texts()
    assert len(values) == 2 and not any("hidden" in v for v in values)
    page.click("a.view[data-seat='0']")
    ready(page)
    assert "seat=0" in page.url
    page.keyboard.press("End")
    values = page.locator("#table .seat .value").all_inner_texts()
    assert "hidden" not in values[0] and "hidden" in values[1]
    # Space plays; a second space pauses.
    page.keyboard.press("Home")
    page.keyboard.press(" ")
    page.wait_for_function("document.querySelector('#position').textContent.startsWith('event 3')")
    page.keyboard.press(" ")
    assert page.inner_text("#btn-play") == "play"
    assert page.errors == []


def test_cattle_table_and_seat_view(page: Any, site: str, games: Games) -> None:
    page.goto(f"{site}/games/{games.cattle}?at=300")
    ready(page)
    seats = page.locator("#table .seat")
    assert seats.count() == 4
    assert page.locator("#table .seat .hidden-values").count() == 0
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "cattle-trade.png"))
    page.goto(f"{site}/games/{games.cattle}?seat=2&at=300")
    ready(page)
    assert page.locator("#table .seat .hidden-values").count() == 3
    assert page.locator("#table .seat[data-seat='2'] .values").count() == 1
    assert page.errors == []


def test_pact_screenshot(page: Any, site: str, games: Games) -> None:
    page.goto(f"{site}/games/{games.pact}?at=40")
    ready(page)
    assert page.locator("#table .chat .msg").count() > 3
    assert page.locator("#table table.quotes tr").count() > 3
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "pact.png"))
    assert page.errors == []


def test_model_decision_shows_hostile_text_as_text(page: Any, site: str, games: Games) -> None:
    page.goto(f"{site}/games/{games.model}")
    ready(page)
    calls = page.locator("#timeline li.llm")
    assert calls.count() > 0
    calls.filter(has_not_text="scratchpad").first.click()
    page.wait_for_selector("#decision:not([hidden])")
    panel = page.locator("#decision")
    text = panel.inner_text().lower()
    for part in ("answer", "prompt", "scratchpad as it stood", "tokens", "latency", "cost"):
        assert part in text
    assert SCRIPT in page.locator("#decision pre.reasoning").first.inner_text()
    # The markup is text: no element was made from it, and none of it ran.
    assert page.locator("#decision script, #decision img, #table img").count() == 0
    assert page.evaluate("window.__pwned") is None
    page.keyboard.press("Escape")
    assert panel.is_hidden()
    # The markup in notes and answers is everywhere in the page as text, never run.
    page.keyboard.press("End")
    assert page.evaluate("window.__pwned") is None
    assert page.errors == []


def test_markup_agent_name_runs_nothing(page: Any, site: str, games: Games) -> None:
    page.goto(f"{site}/?q={games.named}")
    page.hover("td.agents")
    page.click("a.game-link")
    ready(page)
    page.hover("#views")
    assert page.evaluate("window.__pwned") is None
    assert page.locator("b[onmouseover]").count() == 0


def test_bad_addresses_show_a_clear_page(page: Any, site: str, games: Games) -> None:
    got = page.goto(f"{site}/games/{games.cattle}?seat=7")
    assert got is not None and got.status == 400
    assert "not a seat of this game" in page.inner_text("#error-message")
    got = page.goto(f"{site}/games/nothing-here")
    assert got is not None and got.status == 404


def test_published_site_works_from_disk(page: Any, games: Games, tmp_path: Path) -> None:
    out = tmp_path / "site"
    done = subprocess.run(
        [sys.executable, "-m", "cli.main", "publish", "--out", str(out), "--omniscient",
         "--db", str(games.db)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    page.goto((out / "index.html").as_uri())
    rows = page.locator("#games tbody tr")
    assert rows.count() >= 8
    page.fill("input[name=q]", games.pact[:8])
    visible = page.locator("#games tbody tr:not([hidden])")
    assert visible.count() == 1
    visible.locator("a.game-link").click()
    ready(page)
    page.keyboard.press("ArrowRight")
    assert position(page).startswith("event 2 of")
    # The public view hides both private values; the omniscient page shows them.
    page.keyboard.press("End")
    assert all("hidden" in v for v in page.locator("#table .seat .value").all_inner_texts())
    page.click("a.view")
    ready(page)
    page.keyboard.press("End")
    assert not any("hidden" in v for v in page.locator("#table .seat .value").all_inner_texts())
    # Cattle Trade's public page at its end: each seat's animals and money card count are the
    # rules' final state (the fold of the stored log), the money's values hidden.
    from cli.web.publish import file_name
    from events import catalog
    from events.store import DuckStore

    with DuckStore(games.db, read_only=True) as store:
        log = store.load_events(games.cattle)
    rules = catalog.get("cattle-trade").rules
    state = rules.fold(log)
    page.goto((out / "games" / f"{file_name(games.cattle)}.html").as_uri())
    ready(page)
    page.keyboard.press("End")
    drawn = page.locator("#table .seat").evaluate_all(
        "els => els.map(e => [Number(e.dataset.seat),"
        " Array.from(e.querySelectorAll('.animals .chip')).map(c => c.textContent),"
        " e.querySelector('.money .count').textContent,"
        " e.querySelectorAll('.money .hidden-values').length])"
    )
    names = state.config.animals
    assert [d[0] for d in drawn] == list(range(4))
    for seat, chips, count, hidden in drawn:
        held = {a: n for a, n in zip(names, state.animals[seat], strict=True) if n}
        assert sorted(chips) == sorted(f"{a} ×{n}" for a, n in held.items()), seat
        cards = len(state.money[seat])
        assert count == f"{cards} money card{'' if cards == 1 else 's'}", seat
        assert hidden == 1, seat
    assert page.errors == []


def test_pages_work_under_their_own_content_security_policy(
    browser: Any, site: str, games: Games, tmp_path: Path
) -> None:
    """Without bypassing the policy: the viewer's own script and styles load and run, live
    and from a published site on disk."""
    ctx = browser.new_context(viewport={"width": 1300, "height": 900})
    try:
        pg = ctx.new_page()
        blocked: list[str] = []
        pg.on("console", lambda m: blocked.append(m.text) if m.type == "error" else None)
        pg.goto(f"{site}/games/{games.pact}")
        pg.wait_for_selector("body[data-ready=yes]", timeout=10_000)
        pg.keyboard.press("End")
        assert pg.locator("#table table.quotes tr").count() > 3
        out = tmp_path / "site"
        done = subprocess.run(
            [sys.executable, "-m", "cli.main", "publish", "--out", str(out), "--limit", "3",
             "--db", str(games.db)],
            cwd=ROOT, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        pg.goto((out / "index.html").as_uri())
        pg.locator("a.game-link").first.click()
        pg.wait_for_selector("body[data-ready=yes]", timeout=10_000)
        pg.keyboard.press("ArrowRight")
        assert pg.inner_text("#position").startswith("event 2 of")
        assert blocked == []
    finally:
        ctx.close()
