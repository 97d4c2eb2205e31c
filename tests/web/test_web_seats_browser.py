"""Seats a person takes in a real headless Chromium: `cattle play` with `human?via=web` seats
and `cattle serve` in subprocesses, a whole game played through the seat pages by keyboard,
and the seat page of a hidden-information game checked for what it must not show."""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from webkit import ROOT, chromium_missing, launch_chromium, serving

from events.openspiel.game import ChanceSampled
from events.store import DuckStore

why = chromium_missing()
pytestmark = pytest.mark.skipif(why is not None, reason=why or "")

SHOT = os.environ.get("CATTLE_SEAT_SHOT")
"""Where to save a picture of the seat page (docs/img/human-seat.png); unset: none taken."""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium from the system, headless."""
    with launch_chromium() as b:
        yield b


def new_page(browser: Any) -> tuple[Any, Any]:
    ctx = browser.new_context(viewport={"width": 900, "height": 700})
    pg = ctx.new_page()
    pg.errors = []  # type: ignore[attr-defined]
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    return ctx, pg


@contextmanager
def game(
    tmp: Path, name: str, agents: str, seed: int = 3, seats: Path | None = None
) -> Iterator[tuple[Path, Path, Any]]:
    """`cattle play` of `name` in a subprocess with questions in `seats` (tmp/seats); yields
    the store, the question folder and the process (killed after if still running)."""
    tmp.mkdir(exist_ok=True)
    db, seats = tmp / "g.duckdb", seats or tmp / "seats"
    DuckStore(db).close()  # the viewer opens the store before the game writes to it
    args = ["play", "--game", "openspiel", "--preset", name, "--seed", str(seed)]
    args += ["--agents", agents, "--db", str(db), "--init", "--json"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli.main", *args],
        cwd=ROOT,
        env={**os.environ, "CATTLE_SEATS": str(seats), "NO_COLOR": "1"},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        yield db, seats, proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def first_question(seats: Path, proc: Any, count: int = 1) -> None:
    """Wait until `count` seats have a question waiting."""
    deadline = time.monotonic() + 60
    while len(list(seats.glob("*.json"))) < count:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.05)


def focused(pg: Any, field: str) -> None:
    """Wait until the field `field` has the keyboard's focus (a page just loaded gives it) and
    the page's script listens to the keys (the focus can come first, from `autofocus`)."""
    pg.wait_for_function(
        "f => document.body.dataset.ready === 'yes' && document.activeElement.id === f",
        arg=field,
        timeout=5_000,
    )


def token(pg: Any) -> str:
    return str(pg.get_attribute("#seat", "data-token") or "")


def play_by_keys(pg: Any) -> str:
    """Answer the decision on the page with the keyboard (the first legal choice, Enter);
    the answered question's token."""
    asked = token(pg)
    focused(pg, "f_action")  # the first field has the focus on arrival
    pg.keyboard.press("ArrowDown")
    pg.keyboard.press("Enter")
    try:
        pg.wait_for_function(
            "t => document.getElementById('seat').dataset.token !== t", arg=asked, timeout=30_000
        )
    except Exception as exc:  # the page as it stands tells why
        raise AssertionError(f"{pg.url} still on {asked}: {pg.inner_text('main')}") from exc
    return asked


def play_out(pg: Any, *, reload_at: int = -1) -> int:
    """Play every decision this page's seat gets until the game is over; how many."""
    moves = 0
    while True:
        pg.wait_for_selector("#answer, #seat-over", timeout=30_000)
        if pg.locator("#seat-over").count():
            return moves
        if moves == reload_at:
            waiting = token(pg)
            pg.reload()
            pg.wait_for_selector("#answer")
            assert token(pg) == waiting  # the pending decision is still there
        play_by_keys(pg)
        moves += 1


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as r:
        return str(r.read().decode("utf-8"))


def post(url: str, line: str) -> None:
    body = urllib.parse.urlencode({"line": line}).encode()
    with contextlib.suppress(urllib.error.HTTPError):
        urllib.request.urlopen(urllib.request.Request(url, data=body), timeout=10).close()


def verify(db: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cli.main", "verify", "--all", "--db", str(db)],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_person_plays_a_game_in_the_browser(browser: Any, tmp_path: Path) -> None:
    agents = "human?via=web&timeout=60,random"
    with (
        game(tmp_path, "tic_tac_toe", agents) as (db, seats, proc),
        serving(db, seats=seats) as url,
    ):
        first_question(seats, proc)
        ctx, pg = new_page(browser)
        try:
            pg.goto(url.seats)
            pg.click("a.seat-link")
            pg.wait_for_selector("#answer")
            assert "/seats/desk/" in pg.url
            assert pg.is_visible("label[for=f_action]")
            assert "seed" not in pg.content().lower()
            if SHOT:
                pg.wait_for_function("document.getElementById('left').textContent !== ''")
                pg.screenshot(path=SHOT)
            focused(pg, "f_action")
            pg.keyboard.press("Tab")  # from the choice list to the free line
            focused(pg, "line")
            pg.keyboard.type("nowhere")
            pg.keyboard.press("Enter")
            pg.wait_for_selector("p.note >> text=Refused")  # the reason, on the page
            moves = play_out(pg, reload_at=1)
            assert moves >= 3
            assert not pg.errors  # type: ignore[attr-defined]
        finally:
            ctx.close()
        assert proc.wait(timeout=30) == 0, proc.communicate()
    verify(db)


def test_two_people_play_each_other(browser: Any, tmp_path: Path) -> None:
    agents = "human?via=web&timeout=60,human?via=web&timeout=60"
    with (
        game(tmp_path, "tic_tac_toe", agents) as (db, seats, proc),
        serving(db, seats=seats) as url,
    ):
        first_question(seats, proc)
        pages = [new_page(browser) for _ in range(2)]
        try:
            first, second = (pg for _, pg in pages)
            first.goto(url.seats)
            first.click("a.seat-link")  # seat 0 asks first
            first.wait_for_selector("#answer")
            play_by_keys(first)
            first.wait_for_selector("#seat-waiting")
            second.goto(url.seats)
            second.click("a.seat-link")
            second.wait_for_selector("#answer")
            assert "seat 1" in second.inner_text("h1")
            turns = 1
            while not first.locator("#seat-over").count():
                pg = second if turns % 2 else first
                pg.wait_for_selector("#answer, #seat-over", timeout=30_000)
                if pg.locator("#seat-over").count():
                    break
                play_by_keys(pg)
                turns += 1
            for pg in (first, second):
                pg.wait_for_selector("#seat-over", timeout=30_000)
            assert turns >= 5
        finally:
            for ctx, _ in pages:
                ctx.close()
        assert proc.wait(timeout=30) == 0, proc.communicate()
    verify(db)


def test_a_closed_page_leaves_the_seat(browser: Any, tmp_path: Path) -> None:
    with (
        game(tmp_path, "tic_tac_toe", "human?via=web&timeout=60,random") as (db, seats, proc),
        serving(db, seats=seats) as url,
    ):
        first_question(seats, proc)
        ctx, pg = new_page(browser)
        try:
            pg.goto(url.seats)
            pg.click("a.seat-link")
            pg.wait_for_selector("#answer")
            # The page's script runs (its first look shows the time left) before it closes.
            pg.wait_for_selector("#left:not(:empty)")
            # Closed as a person closes a tab (its unload handlers run): the page's last word
            # reaches the server; nobody opens it again. The browser stays open meanwhile.
            pg.close(run_before_unload=True)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=30)
            assert proc.returncode == 4, sorted(p.name for p in seats.iterdir())  # 4: left
        finally:
            ctx.close()
    with DuckStore(db) as store:
        (row,) = store.list_games()
        tags = [e.__struct_config__.tag for e in store.load_events(row.game_id)]
    assert "seat_abandoned" in tags and "human_answer" not in tags
    verify(db)


def test_the_seat_page_shows_only_the_seats_own_card(tmp_path: Path) -> None:
    """Swap test: deals 0 and 5 of kuhn_poker give seat 0 the same card (the jack) and seat 1
    a different one (queen, king); seat 0's first page is the same bytes, tokens aside."""
    seats = tmp_path / "seats"
    with (
        game(tmp_path / "a", "kuhn_poker", "human?via=web&timeout=30,random", 0, seats) as a,
        game(tmp_path / "b", "kuhn_poker", "human?via=web&timeout=30,random", 5, seats) as b,
    ):
        first_question(seats, a[2], 2)
        with serving(a[0], seats=seats) as url:
            html = {}
            for q in seats.glob("*.json"):
                pid = json.loads(q.read_text())["pid"]
                html[pid] = get(f"{url}/seats/{q.stem}")
            assert set(html) == {a[2].pid, b[2].pid}
            while a[2].poll() is None or b[2].poll() is None:  # finish both games
                for q in seats.glob("*.json"):
                    post(f"{url}/seats/{q.stem}", "1")
                time.sleep(0.05)
    blank = [re.sub(r"[0-9a-f]{32}", "TOKEN", html[p[2].pid]) for p in (a, b)]
    assert "TOKEN" in blank[0] and 'id="prompt"' in blank[0]
    assert blank[0] == blank[1]
    deals = []
    for db in (a[0], b[0]):
        with DuckStore(db) as store:
            (row,) = store.list_games()
            chance = [e for e in store.load_events(row.game_id) if isinstance(e, ChanceSampled)]
            deals.append([e.action for e in chance[:2]])
    assert deals[0][0] == deals[1][0] and deals[0][1] != deals[1][1]
