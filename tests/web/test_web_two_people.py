"""Two people at one game, each in a Chromium of their own: while the game runs, neither
reaches the other's seat, prompt or link, nor any event of the game, by any address the
viewer answers (every route of the app, each with every value either person knows); once the
game is over, the same addresses show it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from webkit import ROOT, addresses, chromium_missing, launch_chromium, served_here

from cli.web.app import create_app
from events import catalog
from events.store import DuckStore

why = chromium_missing()
pytestmark = pytest.mark.skipif(why is not None, reason=why or "")

AGENTS = "human:ann?via=web&timeout=120,human:bob?via=web&timeout=120"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launch_chromium() as b:
        yield b


def asked(seats: Path, proc: Any, seat: int) -> dict[str, Any]:
    """The question waiting for `seat` (waits until there is one)."""
    deadline = time.monotonic() + 60
    while True:
        for path in seats.glob("*.json"):
            try:
                q = json.loads(path.read_text())
            except (OSError, ValueError):
                continue
            if q.get("seat") == seat:
                return dict(q)
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "no question came"
        time.sleep(0.05)


def private_lines(mine: str, theirs: str) -> set[str]:
    """The lines of a prompt that the other seat's prompt does not hold (its own card; the
    shortest, such as a lone digit, left out: any page may hold them)."""
    other = set(theirs.splitlines())
    return {line.strip() for line in mine.splitlines() if len(line) >= 12 and line not in other}


def operator_link(browser: Any, url: str, key: str, seat: int) -> str:
    """The operator's page gives the link of the seat asking now."""
    ctx = browser.new_context()
    try:
        pg = ctx.new_page()
        pg.goto(f"{url}/seats?key={key}")
        row = pg.locator("table.seats tr", has_text="human:ann" if seat == 0 else "human:bob")
        return str(row.locator("a.seat-link").get_attribute("href"))
    finally:
        ctx.close()


def sit(browser: Any, link: str) -> tuple[Any, Any, Any]:
    """A person's own browser: one tab on their seat, one to try every address from."""
    ctx = browser.new_context()
    seat = ctx.new_page()
    seat.goto(link)
    seat.wait_for_selector("#answer")
    return ctx, seat, ctx.new_page()


def tried(tab: Any, base: str, paths: list[str]) -> dict[str, tuple[int, str]]:
    """Every address asked for by the person's browser (from a page of the viewer, as its
    own script would): its status and what it answered."""
    if not tab.url.startswith(base):
        tab.goto(base + "/")
    out = {}
    for path in paths:
        status, text = tab.evaluate(
            "async p => { const r = await fetch(p); return [r.status, await r.text()]; }", path
        )
        out[path] = (int(status), str(text))
    return out


def play(tab: Any) -> None:
    """Answer the decision on the seat's page (its first choice) and wait until it moves on."""
    token = tab.get_attribute("#seat", "data-token")
    tab.select_option("#f_action", index=1)
    tab.click("button[type=submit]")
    tab.wait_for_function(
        "t => (document.getElementById('seat') || {dataset: {}}).dataset.token !== t",
        arg=token,
        timeout=30_000,
    )


def test_neither_person_reaches_the_other_or_the_game_while_it_runs(
    browser: Any, tmp_path: Path
) -> None:
    db, seats = tmp_path / "g.duckdb", tmp_path / "seats"
    DuckStore(db).close()
    args = ["play", "--game", "openspiel", "--preset", "kuhn_poker", "--seed", "4"]
    args += ["--agents", AGENTS, "--db", str(db), "--init", "--json"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli.main", *args],
        cwd=ROOT, env={**os.environ, "CATTLE_SEATS": str(seats), "NO_COLOR": "1"},
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    app = create_app(db, seats=seats)
    contexts = []
    try:
        with served_here(app) as url:
            ann_q = asked(seats, proc, 0)
            with DuckStore(db, read_only=True) as store:
                (row,) = store.list_games()
            game_id = row.game_id
            ctx, ann, ann_tab = sit(browser, operator_link(browser, url, app.state.operator_key, 0))
            contexts.append(ctx)
            start = catalog.START_TAG

            def every(desk: str, token: str) -> list[str]:
                values = {
                    "game_id": [game_id],
                    "name": [game_id, "style.css", "seat.js"],
                    "token": [token, game_id],
                    "desk": [desk, game_id],
                    "agent": [game_id],
                }
                return [*addresses(app, values, ("public", "0", "1")), "/seats", f"/?q={game_id}"]

            def check(seen: dict[str, tuple[int, str]], secrets: set[str], who: str) -> None:
                for path, (status, text) in seen.items():
                    for secret in secrets:
                        assert secret not in text, (who, path, secret)
                    assert f'"{start}"' not in text and "game-data" not in text, (who, path)
                    if path.startswith(("/games/", "/api/games/")):
                        assert status in (400, 403, 404), (who, path, status)

            # Ann alone is asked; Bob has no seat page yet. Ann tries everything she knows.
            check(tried(ann_tab, url, every(ann_q["desk"], ann_q["token"])), set(), "ann")
            play(ann)
            bob_q = asked(seats, proc, 1)
            ctx, bob, bob_tab = sit(browser, operator_link(browser, url, app.state.operator_key, 1))
            contexts.append(ctx)
            ann_secrets = {ann_q["desk"], ann_q["token"], *private_lines(
                ann_q["prompt"], bob_q["prompt"])}  # fmt: skip
            bob_secrets = {bob_q["desk"], bob_q["token"], *private_lines(
                bob_q["prompt"], ann_q["prompt"])}  # fmt: skip
            for secrets in (ann_secrets, bob_secrets):
                assert any(s.startswith("Your card is the") for s in secrets), secrets
            seen_by_bob = tried(bob_tab, url, every(bob_q["desk"], bob_q["token"]))
            seen_by_ann = tried(ann_tab, url, every(ann_q["desk"], ann_q["token"]))
            check(seen_by_bob, ann_secrets, "bob")
            check(seen_by_ann, bob_secrets, "ann")
            # Each sees their own seat: the probes reached real pages.
            assert bob_q["prompt"].splitlines()[0] in seen_by_bob[f"/seats/{bob_q['token']}"][1]
            # Play the game out, whoever is asked (each page follows its seat by itself).
            deadline = time.monotonic() + 90
            while proc.poll() is None and time.monotonic() < deadline:
                for tab in (ann, bob):
                    if tab.locator("#answer").count():
                        play(tab)
                time.sleep(0.05)
            assert proc.wait(timeout=30) == 0, proc.communicate()
            over = tried(ann_tab, url, [f"/api/games/{game_id}/events"])
            status, text = over[f"/api/games/{game_id}/events"]
            assert status == 200 and f'"{start}"' in text
    finally:
        for ctx in contexts:
            ctx.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
