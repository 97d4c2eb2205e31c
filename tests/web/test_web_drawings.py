"""Each family's drawing in a real headless Chromium: one small game per family, at its last
event, on the game page for everyone, on a seat's page and in the published archive; what
the drawing's text alternatives say is checked against the stored moves, never only that a
drawing is there. Seat pages are also checked to keep a seat's drawing blind to what other
seats alone were shown."""

from __future__ import annotations

import contextlib
import re
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import msgspec
import pytest
import uvicorn
from webkit import chromium_missing, launch_chromium

from cli.web.app import create_app
from cli.web.publish import file_name, write_site
from events import catalog
from events.store import DuckStore
from runner.session import play_and_store

why = chromium_missing()


class Stored(msgspec.Struct):
    """The test store and the id of its game of each family."""

    db: Path
    ids: dict[str, str]


def config_of(name: str) -> Any:
    gdef = catalog.get(name)
    configure = gdef.extras.get("configure")
    got = configure(name) if configure is not None else None
    # PACT's five rounds (the default plays more).
    return (
        got if got is not None else gdef.preset("quick" if name == "pact" else gdef.default_preset)
    )


GAMES = {
    "tic_tac_toe": ("openspiel:tic_tac_toe", 5),
    "kuhn_poker": ("openspiel:kuhn_poker", 6),
    "santorini": ("gamebench:santorini", 3),
    "codenames": ("gamebench:codenames", 3),
    "sea_battle": ("gamebench:sea_battle", 3),
    "mafia": ("mindgames:mafia", 3),
    "hive": ("gamebench:hive", 3),
    "pit": ("gamebench:pit", 3),
    "air_land_sea": ("gamebench:air_land_sea", 3),
    "arctic": ("gamebench:arctic_scavengers", 3),
    "blotto": ("mindgames:blotto", 3),
    "traitor": ("gamebench:are_you_the_traitor", 3),
    "two_rooms": ("gamebench:two_rooms_and_a_boom", 3),
    "pact": ("pact", 3),
}
"""The game of each family drawn here, and its seed."""


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Stored:
    db = tmp_path_factory.mktemp("draw") / "draw.duckdb"
    ids = {}
    with DuckStore(db) as store:
        for key, (name, seed) in GAMES.items():
            config = config_of(name)
            players = int(getattr(config, "players", 2))
            ids[key], _ = play_and_store(store, config, seed, ["random"] * players)
    return Stored(db=db, ids=ids)


@contextlib.contextmanager
def serving(db: Path) -> Iterator[str]:
    """The viewer over `db` in this process, on a port the system picks."""
    server = uvicorn.Server(
        uvicorn.Config(create_app(db), host="127.0.0.1", port=0, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the viewer did not start"
        time.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def site(stored: Stored) -> Iterator[str]:
    with serving(stored.db) as url:
        yield url


@pytest.fixture(scope="module")
def archive(stored: Stored, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site") / "site"
    with DuckStore(stored.db, read_only=True) as store:
        write_site(store.con, out)
    return out


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if why is not None:
        pytest.skip(why)
    with launch_chromium() as b:
        yield b


@pytest.fixture(scope="module")
def page(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1300, "height": 900})
    pg = ctx.new_page()
    pg.errors = []  # type: ignore[attr-defined]
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    try:
        yield pg
    finally:
        ctx.close()


def at_end(pg: Any, url: str) -> None:
    pg.goto(url)
    pg.wait_for_selector("body[data-ready=yes]", timeout=20_000)
    pg.keyboard.press("End")


def cells(pg: Any) -> dict[str, str]:
    """What each drawn cell says it holds, read from its text alternative."""
    labels = pg.locator("#table .drawing [aria-label].board-cell").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"
    )
    out = {}
    for label in labels:
        name, _, what = label.rpartition(": ")
        out[name] = what
    return out


def rows_of(db: Path, game_id: str, where: str = "TRUE") -> list[dict[str, Any]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        got = con.execute(
            f"SELECT payload FROM events WHERE game_id = ? AND {where} ORDER BY seq", [game_id]
        ).fetchall()
    finally:
        con.close()
    return [msgspec.json.decode(r[0]) for r in got]


# ---- OpenSpiel -------------------------------------------------------------------------------


def test_tic_tac_toe_marks_are_the_moves_played(
    page: Any, site: str, archive: Path, stored: Stored
) -> None:
    gid = stored.ids["tic_tac_toe"]
    # The marks the rules put down: action a is the cell (a // 3, a % 3); seat 0 plays x.
    want = {f"({r},{c})": "empty" for r in range(3) for c in range(3)}
    for e in rows_of(stored.db, gid, "type = 'openspiel_move'"):
        a = int(e["action"])
        want[f"({a // 3},{a % 3})"] = "x (player 0)" if e["player"] == 0 else "o (player 1)"
    assert sum(v != "empty" for v in want.values()) >= 5
    for url in (
        f"{site}/games/{gid}",
        f"{site}/games/{gid}?seat=1",
        (archive / "games" / f"{file_name(gid)}.html").as_uri(),
    ):
        at_end(page, url)
        assert cells(page) == want, url
        figure = page.locator("#table .drawing svg").get_attribute("aria-label")
        assert figure is not None and figure.startswith("Tic-tac-toe board, 3 rows by 3")
    # Stepping back draws the board of that point: one mark fewer.
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    before = cells(page)
    assert sum(v != "empty" for v in before.values()) < sum(v != "empty" for v in want.values())
    assert page.errors == []


def test_kuhn_poker_seat_sees_its_own_card_and_the_pot(
    page: Any, site: str, stored: Stored, tmp_path: Path
) -> None:
    from starlette.testclient import TestClient

    gid = stored.ids["kuhn_poker"]
    deal = [int(e["action"]) for e in rows_of(stored.db, gid, "type = 'openspiel_chance'")]
    bets = [e["action"] for e in rows_of(stored.db, gid, "type = 'openspiel_move'")]
    assert len(deal) >= 2
    for seat in (0, 1):
        at_end(page, f"{site}/games/{gid}?seat={seat}")
        hand = page.locator("#table .drawing .poker-hand").get_attribute("aria-label")
        assert hand == f"your cards: {'JQK'[deal[seat]]}"
        pot = page.locator("#table .drawing .poker-pot").get_attribute("aria-label")
        assert pot == f"pot: {2 + bets.count(1)} chips"
    assert page.errors == []
    # Another card shown to seat 1 alone leaves seat 0's drawing as it was.
    urls = [f"/games/{gid}?seat={s}" for s in (0, 1)]
    with TestClient(create_app(stored.db), base_url="http://127.0.0.1") as client:
        before = [drawing_html(client, u) for u in urls]
    copy = tmp_path / "swapped.duckdb"
    shutil.copy(stored.db, copy)
    other = "JQK".index("JQK"[(deal[1] + 1) % 3])
    con = duckdb.connect(str(copy))
    con.execute(
        "UPDATE events SET payload = json_merge_patch(payload, json_object('text',"
        " ? || substr(payload->>'$.text', 2))) WHERE game_id = ? AND type = 'openspiel_observed'"
        " AND NOT list_contains(visible_to, 0)",
        [str(other), gid],
    )
    con.close()
    with TestClient(create_app(copy), base_url="http://127.0.0.1") as client:
        after = [drawing_html(client, u) for u in urls]
    assert after[0] == before[0], "seat 0's drawing changed with seat 1's card"
    assert after[1] != before[1], "the edit did not reach seat 1's drawing"


# ---- GameBench ------------------------------------------------------------------------------


def drawing_html(client: Any, url: str) -> str:
    """The hidden drawings of a page (every frame's), as served."""
    html = client.get(url).text
    start = html.find('<div id="drawings"')
    assert start >= 0, url
    return html[start : html.index('<script type="application/json"', start)]


def test_santorini_towers_and_pawns_are_the_rules_state(
    page: Any, site: str, archive: Path, stored: Stored
) -> None:
    gid = stored.ids["santorini"]
    gdef = catalog.get("gamebench:santorini")
    with DuckStore(stored.db, read_only=True) as store:
        events = store.load_events(gid)
    state = gdef.extras["state_data"](gdef.rules.fold(events))
    where = {tuple(rc): p for p, rc in state["pawns"].items() if rc is not None}
    assert len(where) == 4 and any(h for row in state["heights"] for h in row)
    for url in (
        f"{site}/games/{gid}?seat=0",
        f"{site}/games/{gid}",
        (archive / "games" / f"{file_name(gid)}.html").as_uri(),
    ):
        at_end(page, url)
        got = cells(page)
        assert len(got) == 25, url
        for (r, c), text in ((tuple(map(int, k[1:-1].split(", "))), v) for k, v in got.items()):
            level = f"level {state['heights'][r][c]}"
            assert text.startswith(level), (url, r, c, text)
            pawn = where.get((r, c))
            assert (f"pawn {pawn} (" in text) if pawn else ("pawn" not in text), (url, text)
    assert page.errors == []


def test_hive_pieces_are_the_rules_state(
    page: Any, site: str, archive: Path, stored: Stored
) -> None:
    gid = stored.ids["hive"]
    gdef = catalog.get("gamebench:hive")
    with DuckStore(stored.db, read_only=True) as store:
        state = gdef.extras["state_data"](gdef.rules.fold(store.load_events(gid)))
    want = {(c["q"], c["r"]): (c["seat"], c["piece"]) for c in state["board"]}
    assert len(want) >= 4
    for url in (
        f"{site}/games/{gid}?seat=1",
        (archive / "games" / f"{file_name(gid)}.html").as_uri(),
    ):
        at_end(page, url)
        got = page.locator("#table .drawing .board-cell").evaluate_all(
            "els => els.map(e => [e.dataset.cell, e.dataset.owner, e.dataset.piece,"
            " e.getAttribute('aria-label')])"
        )
        read = {}
        for cell, owner, piece, label in got:
            q, r = map(int, cell.split(","))
            assert label.startswith(f"({q}, {r}): player {int(owner)} ")
            assert label.endswith(f" {piece}")
            read[(q, r)] = (int(owner), piece)
        assert read == want, url
    assert page.errors == []


def test_pit_seat_sees_its_own_hand_alone(
    page: Any, site: str, stored: Stored, tmp_path: Path
) -> None:
    from starlette.testclient import TestClient

    gid = stored.ids["pit"]
    gdef = catalog.get("gamebench:pit")
    with DuckStore(stored.db, read_only=True) as store:
        state = gdef.extras["state_data"](gdef.rules.fold(store.load_events(gid)))
    at_end(page, f"{site}/games/{gid}?seat=0")
    hands = page.locator("#table .drawing .pit-hand").evaluate_all(
        "els => els.map(e => [e.dataset.seat, e.getAttribute('aria-label')])"
    )
    assert [seat for seat, _ in hands] == ["0"]
    held = ", ".join(f"{n} {k}" for k, n in state["hands"][0].items())
    assert hands[0][1] == f"player 0 (you) holds {held}"
    assert page.errors == []
    # Another hand dealt to seat 1 alone: seat 0's drawing stays as it was.
    urls = [f"/games/{gid}?seat={s}" for s in (0, 1)]
    with TestClient(create_app(stored.db), base_url="http://127.0.0.1") as client:
        before = [drawing_html(client, u) for u in urls]
    copy = tmp_path / "swapped.duckdb"
    shutil.copy(stored.db, copy)
    con = duckdb.connect(str(copy))
    rows = con.execute(
        "SELECT seq, payload FROM events WHERE game_id = ? AND type = 'pit_dealt'"
        " AND NOT list_contains(visible_to, 0)",
        [gid],
    ).fetchall()
    assert rows
    for seq, payload in rows:
        data = msgspec.json.decode(payload)
        data["hand"] = list(reversed(data["hand"]))
        con.execute(
            "UPDATE events SET payload = ? WHERE game_id = ? AND seq = ?",
            [msgspec.json.encode(data).decode(), gid, seq],
        )
    con.close()
    with TestClient(create_app(copy), base_url="http://127.0.0.1") as client:
        after = [drawing_html(client, u) for u in urls]
    assert after[0] == before[0], "seat 0's drawing changed with seat 1's hand"
    assert after[1] != before[1], "the edit did not reach seat 1's drawing"


def test_air_land_sea_theatres_are_the_rules_state(
    page: Any, site: str, archive: Path, stored: Stored
) -> None:
    from engine.gamebench.air_land_sea import CARDS, control, strengths

    gid = stored.ids["air_land_sea"]
    gdef = catalog.get("gamebench:air_land_sea")
    with DuckStore(stored.db, read_only=True) as store:
        events = store.load_events(gid)
    st = gdef.rules.fold(events)
    power = strengths(st.order, st.lanes, events[0].config.inert)
    held = control(power, st.first)
    for url, seat in (
        (f"{site}/games/{gid}?seat=0", 0),
        ((archive / "games" / f"{file_name(gid)}.html").as_uri(), -1),
    ):
        at_end(page, url)
        got = page.locator("#table .drawing .als-theatre").evaluate_all(
            "els => els.map(e => [e.dataset.theatre, e.getAttribute('aria-label')])"
        )
        assert [t for t, _ in got] == list(st.order), url
        for i, (t, label) in enumerate(got):
            assert label.endswith(f"held by player {held[i]}"), (url, label)
            for s in (0, 1):
                assert f"player {s} strength {power[i][s]} (" in label
                for card, up in st.lanes[t][s]:
                    # A face-down card of the other seat is shown without its name.
                    if up or s == seat:
                        assert CARDS[card].name in label, (url, label, card)
    assert page.errors == []


def test_arctic_scavengers_tribes_are_the_rules_state(
    page: Any, site: str, archive: Path, stored: Stored
) -> None:
    gid = stored.ids["arctic"]
    gdef = catalog.get("gamebench:arctic_scavengers")
    with DuckStore(stored.db, read_only=True) as store:
        state = gdef.extras["state_data"](gdef.rules.fold(store.load_events(gid)))
    tribes = [p["tribe"] for p in state["players"]]
    for url in (
        f"{site}/games/{gid}?seat=0",
        (archive / "games" / f"{file_name(gid)}.html").as_uri(),
    ):
        at_end(page, url)
        labels = page.locator("#table .drawing .arctic-tribe").evaluate_all(
            "els => els.map(e => e.getAttribute('aria-label'))"
        )
        assert len(labels) == len(tribes), url
        for s, label in enumerate(labels):
            assert f": tribe of {tribes[s]};" in label, (url, label)
            pile = ", ".join(state["players"][s]["skirmish"]) or "empty"
            assert label.endswith(f"skirmish {pile}"), (url, label)
    assert page.errors == []


def test_codenames_cards_as_each_seat_may_know_them(
    page: Any, site: str, archive: Path, stored: Stored
) -> None:
    gid = stored.ids["codenames"]
    revealed = {
        int(e["index"]) + 1: e["card"]
        for e in rows_of(stored.db, gid, "type = 'gb_cn_card_revealed'")
    }
    (key,) = [e["key"] for e in rows_of(stored.db, gid, "type = 'gb_cn_key_dealt'")]
    assert revealed and len(revealed) < len(key)

    def read() -> dict[int, str]:
        return {int(k.split(". ")[0]): v for k, v in cells(page).items()}

    # A spymaster (seat 0) sees the key on every card; an operative (seat 1), the public
    # and the archive see only the revealed cards' colours.
    at_end(page, f"{site}/games/{gid}?seat=0")
    spymaster = read()
    assert spymaster == {
        i + 1: (f"revealed {k}" if i + 1 in revealed else f"hidden, {k}") for i, k in enumerate(key)
    }
    for url in (
        f"{site}/games/{gid}?seat=1",
        f"{site}/games/{gid}?seat=public",
        (archive / "games" / f"{file_name(gid)}.html").as_uri(),
    ):
        at_end(page, url)
        assert read() == {
            i + 1: (f"revealed {revealed[i + 1]}" if i + 1 in revealed else "hidden")
            for i in range(len(key))
        }, url
        assert page.locator("#table .drawing .card-red.covered").count() == 0, url
    assert page.errors == []


def test_sea_battle_ships_and_rocks_are_the_rules_state(
    page: Any, site: str, archive: Path, stored: Stored
) -> None:
    gid = stored.ids["sea_battle"]
    gdef = catalog.get("gamebench:sea_battle")
    with DuckStore(stored.db, read_only=True) as store:
        state = gdef.rules.fold(store.load_events(gid))
    heading = ("north", "east", "south", "west")
    want = {
        "ABCXYZ"[i]: None if s is None else f"at ({s.x}, {s.y}) heading {heading[s.heading]}"
        for i, s in enumerate(state.ships)
    }
    assert any(want.values())
    rocks = "rocks at " + ", ".join(f"({x}, {y})" for x, y in sorted(state.rocks))
    for url in (
        f"{site}/games/{gid}?seat=3",
        (archive / "games" / f"{file_name(gid)}.html").as_uri(),
    ):
        at_end(page, url)
        labels = page.locator("#table .drawing .sea-ship").evaluate_all(
            "els => els.map(e => e.getAttribute('aria-label'))"
        )
        got = {}
        for label in labels:
            ship = label.split()[1]
            got[ship] = None if label.endswith(": sunk") else label.split(") ", 1)[1]
        assert {k: v and v.split(", damage")[0] for k, v in got.items()} == want, url
        assert page.locator("#table .drawing .sea-rocks").get_attribute("aria-label") == rocks
    assert page.errors == []


def test_codenames_seat_drawing_is_blind_to_the_key_it_was_not_shown(
    stored: Stored, tmp_path: Path
) -> None:
    from starlette.testclient import TestClient

    gid = stored.ids["codenames"]
    urls = [f"/games/{gid}?seat={s}" for s in range(4)]
    with TestClient(create_app(stored.db), base_url="http://127.0.0.1") as client:
        before = [drawing_html(client, u) for u in urls]
    # Deal another key (the hidden cards' types reversed): only the spymasters saw it.
    copy = tmp_path / "swapped.duckdb"
    shutil.copy(stored.db, copy)
    con = duckdb.connect(str(copy))
    (payload,) = con.execute(
        "SELECT payload FROM events WHERE game_id = ? AND type = 'gb_cn_key_dealt'", [gid]
    ).fetchone() or (None,)
    data = msgspec.json.decode(payload)
    data["key"] = list(reversed(data["key"]))
    con.execute(
        "UPDATE events SET payload = ? WHERE game_id = ? AND type = 'gb_cn_key_dealt'",
        [msgspec.json.encode(data).decode(), gid],
    )
    con.close()
    with TestClient(create_app(copy), base_url="http://127.0.0.1") as client:
        after = [drawing_html(client, u) for u in urls]
    assert after[1] == before[1] and after[3] == before[3], "an operative's drawing changed"
    assert after[0] != before[0] and after[2] != before[2], "the spymasters' key did not change"


def test_traitor_table_and_talk_are_the_last_round(
    page: Any, site: str, archive: Path, stored: Stored
) -> None:
    gid = stored.ids["traitor"]
    ends = rows_of(stored.db, gid, "type = 'gb_ayt_round_ended'")
    last = ends[-1]["round"]
    revealed = dict(ends[-1].get("roles") or [])
    (me,) = [
        e
        for e in rows_of(stored.db, gid, "type = 'gb_ayt_role_told'")
        if e["seat"] == 2 and e["round"] == last
    ]
    talk = [
        e["text"]
        for e in rows_of(stored.db, gid, "type IN ('gb_ayt_asked', 'gb_ayt_answered')")
        if e["round"] == last
    ]
    for url, mine in (
        (f"{site}/games/{gid}?seat=2", me["name"]),
        ((archive / "games" / f"{file_name(gid)}.html").as_uri(), None),
    ):
        at_end(page, url)
        got = page.locator("#table .drawing .traitor-player").evaluate_all(
            "els => els.map(e => [e.dataset.name, e.dataset.role, e.getAttribute('aria-label')])"
        )
        assert [n for n, _, _ in got] == list("ABCDE"), url
        for name, role, label in got:
            # The last round's roles, shown to everyone once it ended.
            assert role == revealed.get(name, ""), (url, name, role)
            assert ("(you)" in label) == (name == mine), (url, label)
        said = page.locator("#table .drawing .chat-log li.from-player").evaluate_all(
            "els => els.map(e => e.querySelector('.said').textContent)"
        )
        assert talk and said[-len(talk) :] == talk, url
    assert page.errors == []


def test_two_rooms_rooms_and_cards_are_the_end_of_the_game(
    page: Any, site: str, archive: Path, stored: Stored
) -> None:
    gid = stored.ids["two_rooms"]
    (setup,) = rows_of(stored.db, gid, "type = 'gb_tr_set_up'")
    (end,) = rows_of(stored.db, gid, "type = 'game_ended'")
    names = setup["names"]
    want = {names[s]: (end["rooms"][s], end["cards"][s][0]) for s in range(len(names))}
    for url in (
        f"{site}/games/{gid}?seat=1",
        (archive / "games" / f"{file_name(gid)}.html").as_uri(),
    ):
        at_end(page, url)
        got = page.locator("#table .drawing .room-player").evaluate_all(
            "els => els.map(e => [e.dataset.name, e.dataset.room, e.dataset.colour])"
        )
        assert {n: (int(r), c) for n, r, c in got} == want, url
    # The seat's own words are its bubbles, in order.
    at_end(page, f"{site}/games/{gid}?seat=1")
    mine = page.locator("#table .drawing .chat-log li.mine").evaluate_all(
        "els => els.map(e => e.querySelector('.said').textContent)"
    )
    own = [
        e["text"]
        if e["type"] in ("gb_tr_asked", "gb_tr_answered")
        else e.get("text") or "(keeps quiet)"
        for e in rows_of(
            stored.db,
            gid,
            # open talk, and the default's questions and answers
            "type IN ('gb_tr_said', 'gb_tr_kept_quiet', 'gb_tr_asked', 'gb_tr_answered')",
        )
        if e["seat"] == 1
    ]
    assert own and mine and mine == own[-len(mine) :]
    assert page.errors == []


# ---- TextArena ------------------------------------------------------------------------------


def test_mafia_seat_sees_a_conversation_with_its_own_words_and_role(
    page: Any, site: str, stored: Stored, tmp_path: Path
) -> None:
    from starlette.testclient import TestClient

    gid = stored.ids["mafia"]
    (role,) = [
        e["role"] for e in rows_of(stored.db, gid, "type = 'textarena_role'") if e["seat"] == 0
    ]
    said = [
        e["action"].strip()
        for e in rows_of(stored.db, gid, "type = 'textarena_action'")
        if e["player"] == 0
    ]
    at_end(page, f"{site}/games/{gid}?seat=0")
    figure = page.locator("#table .drawing-textarena").get_attribute("aria-label")
    assert figure is not None and f"role {role}:" in figure
    labels = page.locator("#table .chat-log li[aria-label]").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"
    )
    mine = [label.split(": ", 1)[1].strip() for label in labels if label.startswith("you: ")]
    assert mine and mine == said[-len(mine) :]
    assert any(label.startswith("game: ") for label in labels)
    assert page.locator("#table .chat-log .phase").count() >= 1
    assert page.errors == []
    # Other roles dealt, seen by their seats alone: seat 0's conversation stays as it was.
    url = f"/games/{gid}?seat=0"
    with TestClient(create_app(stored.db), base_url="http://127.0.0.1") as client:
        before = drawing_html(client, url)
    copy = tmp_path / "swapped.duckdb"
    shutil.copy(stored.db, copy)
    con = duckdb.connect(str(copy))
    con.execute(
        "UPDATE events SET payload = json_merge_patch(payload, json_object('text',"
        " 'LEAKMARK ' || (payload->>'$.text'))) WHERE game_id = ?"
        " AND type = 'textarena_observed' AND NOT list_contains(visible_to, 0)",
        [gid],
    )
    con.close()
    with TestClient(create_app(copy), base_url="http://127.0.0.1") as client:
        assert drawing_html(client, url) == before
        assert "LEAKMARK" in drawing_html(client, f"/games/{gid}?seat=1")


def test_blotto_allocations_are_each_seats_own_orders(page: Any, site: str, stored: Stored) -> None:
    gid = stored.ids["blotto"]
    orders: dict[int, list[str]] = {0: [], 1: []}
    for e in rows_of(stored.db, gid, "type = 'textarena_action'"):
        units = dict(re.findall(r"([ABC])(\d+)", e["action"]))
        orders[e["player"]].append(", ".join(f"{f} {int(units.get(f, 0))}" for f in "ABC"))
    at_end(page, f"{site}/games/{gid}?seat=1")
    rows = page.locator("#table .drawing table.blotto tr.blotto-row").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"
    )
    assert len(rows) >= 4
    by: dict[str, list[str]] = {}
    for label in rows:
        head, said = label.split(": ", 1)
        by.setdefault(head.split(", ", 1)[1], []).append(said)
    # Each commander's rows are, round by round, the orders its seat gave.
    played = len(rows) // 2
    assert [len(v) for v in by.values()] == [played, played]
    assert sorted(by.values()) == sorted(o[:played] for o in orders.values())
    assert page.errors == []


# ---- the fallback ----------------------------------------------------------------------------


def test_a_game_without_a_drawing_shows_plain_text_never_json(tmp_path: Path) -> None:
    from starlette.testclient import TestClient
    from test_web_other_games import page_data, toy_game

    db = tmp_path / "toy.duckdb"
    toy = toy_game()
    with DuckStore(db) as store:
        gid, _ = play_and_store(store, toy.preset("standard"), 4, ["honest", "wild", "honest"])
    with TestClient(create_app(db), base_url="http://127.0.0.1") as client:
        for view in ("", "?seat=1", "?seat=public"):
            data = page_data(client.get(f"/games/{gid}{view}").text)
            texts = [f["text"] for f in data["frames"] if f["kind"] == "text"]
            assert len(texts) > 1
            for text in texts:
                assert '{"' not in text and '":' not in text, text
                with pytest.raises(ValueError):
                    msgspec.json.decode(text)
            assert any(": " in line for line in texts[-1].splitlines())


def test_sea_battle_seat_drawing_is_blind_to_the_other_teams_damage(
    stored: Stored, tmp_path: Path
) -> None:
    from starlette.testclient import TestClient

    gid = stored.ids["sea_battle"]
    urls = [f"/games/{gid}?seat={s}" for s in (0, 3)]
    with TestClient(create_app(stored.db), base_url="http://127.0.0.1") as client:
        before = [drawing_html(client, u) for u in urls]
    # Report other damage to team 1 (seats 3 to 5) alone: seat 0's chart stays as it was.
    copy = tmp_path / "swapped.duckdb"
    shutil.copy(stored.db, copy)
    con = duckdb.connect(str(copy))
    changed = con.execute(
        "UPDATE events SET payload = json_merge_patch(payload, '{\"damage\": [1, 1, 1]}')"
        " WHERE game_id = ? AND type = 'gb_sb_damage_report' AND list_contains(visible_to, 3)"
        " RETURNING seq",
        [gid],
    ).fetchall()
    con.close()
    assert changed
    with TestClient(create_app(copy), base_url="http://127.0.0.1") as client:
        after = [drawing_html(client, u) for u in urls]
    assert after[0] == before[0], "seat 0's drawing changed with team 1's private reports"
    assert after[1] != before[1], "the edit did not reach team 1's drawing"


# ---- a person's seat ---------------------------------------------------------------------------


def test_a_persons_seat_page_draws_what_the_seat_has_seen(stored: Stored, tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from agents.human.agent import HumanAgent
    from agents.human.mailbox import Mailbox
    from events.gamebench.codenames import CnCardRevealed

    gid = stored.ids["codenames"]
    gdef = catalog.get("gamebench:codenames")
    with DuckStore(stored.db, read_only=True) as store:
        events = store.load_events(gid)
    start = events[0]
    # The first time the operative of the red team (seat 1) is asked, after a card was shown.
    cut = next(
        i
        for i in range(2, len(events))
        if any(isinstance(e, CnCardRevealed) for e in events[:i])
        and (d := gdef.rules.pending(gdef.rules.fold(events[:i]))) is not None
        and 1 in d.seats
    )
    prefix = events[:cut]
    decision = gdef.rules.pending(gdef.rules.fold(prefix))
    view = gdef.new_view(1).sync(prefix)
    seats = tmp_path / "seats"
    agent = HumanAgent(
        1, start.seed, start.config, spec="human", timeout=60, terminal=Mailbox(seats)
    )
    agent._show(view, decision, gdef.prompter.answer_schema(view, decision))
    (question,) = seats.glob("*.json")
    token = question.stem
    shown = {e.index + 1: e.card for e in prefix if isinstance(e, CnCardRevealed)}
    with TestClient(create_app(stored.db, seats=seats), base_url="http://127.0.0.1") as client:
        html = client.get(f"/seats/{token}").text
    section = html[html.index('id="seat-drawing"') : html.index('id="prompt"')]
    labels = dict(
        (int(m.group(1)), m.group(2))
        for m in re.finditer(r'aria-label="(\d+)\. [^:"]+: ([^"]+)"', section)
    )
    assert len(labels) == len(view.words) and shown
    assert {i: v for i, v in labels.items() if v != "hidden"} == {
        i: f"revealed {c}" for i, c in shown.items()
    }
    # The same drawing as the seat's page in the viewer at that point.
    step, _ = gdef.extras["frames"](1)
    frame = None
    for e in [e for e in prefix if e.audience() is None or 1 in e.audience()]:
        frame = step(e)
    from cli.web.draw import seat_drawing

    assert str(seat_drawing(gdef.name, frame)) in html


# ---- PACT and TextArena: every view -------------------------------------------------------------


def test_pact_bargaining_is_the_stored_talk_and_quotes_in_every_view(
    page: Any, site: str, archive: Path, stored: Stored
) -> None:
    gid = stored.ids["pact"]
    dealt = {e["seat"]: e["amount"] for e in rows_of(stored.db, gid, "type = 'pact_value_dealt'")}
    said = [
        e["text"] + (" [cut]" if e.get("cut") else "")
        for e in rows_of(stored.db, gid, "type = 'pact_message_sent'")
    ]
    quotes = [
        (str(e["round"]), str(e["bid"]), str(e["ask"]))
        for e in rows_of(stored.db, gid, "type = 'pact_quotes_revealed'")
    ]
    assert said and len(quotes) == 5
    what = {0: "value", 1: "cost"}
    views = {
        f"{site}/games/{gid}": {0, 1},  # everyone: both numbers
        f"{site}/games/{gid}?seat=0": {0},
        f"{site}/games/{gid}?seat=1": {1},
        (archive / "games" / f"{file_name(gid)}.html").as_uri(): set(),  # public: neither
    }
    for url, known in views.items():
        at_end(page, url)
        figure = page.locator("#table .drawing-pact").get_attribute("aria-label")
        assert figure is not None and f"{len(said)} messages" in figure, url
        assert f"in {len(quotes)} rounds" in figure, url
        parties = page.locator("#table .drawing-pact .party").evaluate_all(
            "els => els.map(e => e.getAttribute('aria-label'))"
        )
        for seat, label in enumerate(parties):
            number = str(dealt[seat]) if seat in known else "hidden"
            assert f"(seat {seat}): {what[seat]} {number}" in label, (url, label)
        rows = page.locator("#table .drawing-pact table.quotes tr[aria-label]").evaluate_all(
            "els => els.map(e => e.getAttribute('aria-label'))"
        )
        got = [re.match(r"round (\d+): bid (\d+), ask (\d+)", r).groups() for r in rows]  # type: ignore[union-attr]
        assert got == quotes, url
        bubbles = page.locator("#table .drawing-pact li.from-player .said").all_text_contents()
        assert bubbles == said, url
    assert page.errors == []


def test_mafia_is_drawn_for_everyone_and_in_the_archive(
    page: Any, site: str, archive: Path, stored: Stored
) -> None:
    gid = stored.ids["mafia"]
    moves = [
        f"Player {e['player']}: {e['action'].strip()}"
        for e in rows_of(stored.db, gid, "type = 'textarena_action'")
    ]
    assert len(moves) > 5
    # Everyone's page: every move as its player's words (the latest forty).
    at_end(page, f"{site}/games/{gid}")
    labels = page.locator("#table .drawing-textarena li[aria-label]").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"
    )
    players = [label for label in labels if label.startswith("Player ")]
    assert players == moves[-len(players) :] and len(players) == min(len(moves), 40)
    assert any(label.startswith("game: Game over") for label in labels)
    # The archive is the public view: no move (each was its player's alone), the end.
    at_end(page, (archive / "games" / f"{file_name(gid)}.html").as_uri())
    labels = page.locator("#table .drawing-textarena li[aria-label]").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"
    )
    assert labels and not any(label.startswith("Player ") for label in labels)
    assert labels[-1].startswith("game: Game over")
    assert page.errors == []
