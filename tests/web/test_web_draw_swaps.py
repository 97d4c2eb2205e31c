"""Swap tests of the drawings, without a browser: the drawings a page holds are made here as
the server makes them (`cli.web.data.game_data`, then `cli.web.draw.drawings`) from a real
store.

* Games of hidden information (Air, Land and Sea, Arctic Scavengers, Are You the Traitor?,
  Two Rooms and a Boom): changing what another seat alone was shown (its hand, its role,
  its card, the talk of a room the seat was not in) leaves every drawing of the seat's page
  byte-identical, and does reach the page of the seat that was shown it.
* Games of perfect information (tic-tac-toe, Santorini, Hive): at every event, the drawing of
  a seat's page and of the public page shows exactly the rules' state at that point.
* TextArena's prisoner's dilemma and Codenames, drawn from a seat's own observation text:
  the payoffs hold each round's decisions as the rules took them, never before the game
  revealed them to the seat; Codenames' cards are the rules' board as the seat may know it;
  rewriting another seat's decisions, observations or key leaves a seat's drawings as they
  were.
"""

from __future__ import annotations

import html
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb
import msgspec
import pytest

from cli.web.data import game_data
from cli.web.draw import drawings
from events import catalog
from events.store import DuckStore
from runner.session import play_and_store

GAMES = {
    "tic_tac_toe": ("openspiel:tic_tac_toe", None, 5),
    "santorini": ("gamebench:santorini", None, 3),
    "hive": ("gamebench:hive", "short", 3),
    "air_land_sea": ("gamebench:air_land_sea", None, 3),
    "arctic": ("gamebench:arctic_scavengers", None, 3),
    "traitor": ("gamebench:are_you_the_traitor", "quick", 3),
    # Open talk: the check below edits messages said to a room (the default asks and answers).
    "two_rooms": ("gamebench:two_rooms_and_a_boom", "open", 3),
    # The default: each player asks one room-mate a question heard by the two alone.
    "two_rooms_ask": ("gamebench:two_rooms_and_a_boom", "standard", 3),
    "pact": ("pact", "quick", 3),
    "ipd3": ("mindgames:ipd3", None, 3),
    "ta_codenames": ("mindgames:codenames", None, 3),
}
"""The game of each kind, its preset (None: as its name configures it) and seed."""


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    db = tmp_path_factory.mktemp("swaps") / "swaps.duckdb"
    ids = {}
    with DuckStore(db) as store:
        for key, (name, preset, seed) in GAMES.items():
            gdef = catalog.get(name)
            configure = gdef.extras.get("configure")
            config = configure(name) if configure is not None else None
            if config is None:
                config = gdef.preset(preset or gdef.default_preset)
            players = int(getattr(config, "players", 2))
            agents = ["truthful", "mirror"] if key == "pact" else ["random"] * players
            ids[key], _ = play_and_store(store, config, seed, agents)
    return db, ids


def page(db: Path, gid: str, viewer: int | str | None) -> tuple[list[str], dict[str, Any]]:
    """The drawing of each frame of a page (its text where not drawn), and the page's data."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        data = game_data(con, gid, viewer)
    finally:
        con.close()
    drawn = drawings(data)
    return [str(drawn.get(i, repr(f))) for i, f in enumerate(data["frames"])], data


def edited(db: Path, tmp: Path, gid: str, change: Callable[[dict[str, Any]], bool]) -> Path:
    """A copy of the store where `change` rewrote some events' payloads in place (it says
    which it changed); at least one must change."""
    copy = tmp / f"edited-{len(list(tmp.iterdir()))}.duckdb"
    shutil.copy(db, copy)
    con = duckdb.connect(str(copy))
    rows = con.execute(
        "SELECT seq, payload, visible_to FROM events WHERE game_id = ? ORDER BY seq", [gid]
    ).fetchall()
    count = 0
    for seq, payload, visible in rows:
        data = msgspec.json.decode(payload)
        data["visible_to"] = visible
        if change(data):
            data.pop("visible_to")
            count += 1
            con.execute(
                "UPDATE events SET payload = ? WHERE game_id = ? AND seq = ?",
                [msgspec.json.encode(data).decode(), gid, seq],
            )
    con.close()
    assert count, "nothing was changed"
    return copy


def hidden_from(seat: int, data: dict[str, Any]) -> bool:
    """An event seat `seat` does not see."""
    return data["visible_to"] is not None and seat not in data["visible_to"]


def check_blind(
    db: Path, tmp: Path, gid: str, seat: int, other: int, change: Callable[[dict], bool]
) -> None:
    """`seat`'s page keeps every drawing when `change` rewrites events `seat` did not see;
    `other`'s page changes."""
    before = [page(db, gid, s)[0] for s in (seat, other)]
    copy = edited(db, tmp, gid, lambda d: hidden_from(seat, d) and change(d))
    after = [page(copy, gid, s)[0] for s in (seat, other)]
    assert after[0] == before[0], f"seat {seat}'s drawings changed with another seat's secret"
    assert after[1] != before[1], f"the edit did not reach seat {other}'s drawings"


# ---- hidden information -----------------------------------------------------------------------


def test_air_land_sea_seat_is_blind_to_the_other_hand(stored: Any, tmp_path: Path) -> None:
    from engine.gamebench.air_land_sea import CARDS

    db, ids = stored
    dealt: dict[int, set[str]] = {}
    for d in events_of(db, ids["air_land_sea"], "als_dealt"):
        dealt.setdefault(d["battle"], set()).update(d["hand"])

    def change(d: dict[str, Any]) -> bool:
        # One more card in the other seat's hand, a card nobody was dealt in that battle.
        if d["type"] == "als_dealt":
            d["hand"].append(min(set(CARDS) - dealt[d["battle"]]))
            return True
        return False

    check_blind(db, tmp_path, ids["air_land_sea"], 0, 1, change)


def test_arctic_scavengers_seat_is_blind_to_other_hands(stored: Any, tmp_path: Path) -> None:
    db, ids = stored

    def change(d: dict[str, Any]) -> bool:
        if d["type"] in ("arc_dealt", "arc_drew") and 1 in d["visible_to"]:
            key = "hand" if "hand" in d else "cards"
            d[key] = list(reversed(d[key]))
            return True
        return False

    check_blind(db, tmp_path, ids["arctic"], 0, 1, change)


def test_traitor_seat_is_blind_to_other_roles_and_treasure(stored: Any, tmp_path: Path) -> None:
    db, ids = stored
    gid = ids["traitor"]
    seat, other = 0, 3  # an evil seat, and a good one

    # Another seat's role changed, and another card drawn by a winner.
    def change(d: dict[str, Any]) -> bool:
        if d["type"] == "gb_ayt_role_told" and d["seat"] == other:
            d["role"] = "guard" if d["role"] != "guard" else "key holder"
            return True
        if d["type"] == "gb_ayt_treasure_drawn":
            d["card"] = "crown jewels" if d["card"] != "crown jewels" else "bag of gold"
            return True
        return False

    check_blind(db, tmp_path, gid, seat, other, change)
    # The seat's own page shows its own role and nobody else's before the round ends.
    _, data = page(db, gid, seat)
    first = next(f["board"] for f in data["frames"] if f.get("board", {}).get("my_role"))
    known = {p["name"]: p["role"] for p in first["players"] if p["role"]}
    assert known[first["me"]] == first["my_role"]
    assert len(known) <= 2  # its own, and the key holder's for the traitor
    # No round name is tied to a seat on a seat's page (the seats fix the teams).
    assert all(
        p["seat"] is None for f in data["frames"] for p in f.get("board", {}).get("players", [])
    )


def test_two_rooms_seat_is_blind_to_other_cards_and_the_other_room(
    stored: Any, tmp_path: Path
) -> None:
    db, ids = stored
    gid = ids["two_rooms"]

    def change(d: dict[str, Any]) -> bool:
        if d["type"] == "gb_tr_card_dealt":
            d["colour"] = "red" if d["colour"] == "blue" else "blue"
            return True
        if d["type"] == "gb_tr_said":
            d["text"] = "LEAK " + d["text"]
            return True
        if d["type"] == "gb_tr_shown":
            d["colour"] = "red" if d["colour"] == "blue" else "blue"
            return True
        return False

    said = events_of(db, gid, "gb_tr_said")
    # A seat that missed some of the talk, and one that heard it.
    seat = next(s for s in range(6) if any(s not in d["hearers"] for d in said))
    other = next(s for d in said if seat not in d["hearers"] for s in d["hearers"])
    check_blind(db, tmp_path, gid, seat, other, change)
    # No letter is tied to a seat on a seat's page (the seats fix the teams).
    _, data = page(db, gid, seat)
    rooms = [r for f in data["frames"] if "board" in f for r in f["board"]["rooms"]]
    assert rooms and all(p["seat"] is None for room in rooms for p in room)
    # The public page holds no card before the end and no word of the talk.
    drawn, data = page(db, gid, "public")
    assert not any("LEAK" in d for d in drawn)
    for f in data["frames"][:-1]:
        for room in f["board"]["rooms"]:
            assert all(p["colour"] is None for p in room)
        assert all(m["who"] == "GAME" for m in f["board"]["messages"])


def test_two_rooms_seat_page_is_blind_to_questions_it_was_not_party_to(
    stored: Any, tmp_path: Path
) -> None:
    """Under the default ask talk: rewriting what a seat was not told (the questions and
    answers between two others, whom another player picked, other seats' cards and roles)
    leaves the whole page of that seat, as served, byte-identical; the page of a seat that
    heard them changes."""
    from starlette.testclient import TestClient

    from cli.web.app import create_app

    db, ids = stored
    gid = ids["two_rooms_ask"]

    def change(d: dict[str, Any]) -> bool:
        if d["type"] in ("gb_tr_asked", "gb_tr_answered"):
            d["text"] = "LEAK " + d["text"]
            if "question" in d:
                d["question"] = "LEAK " + d["question"]
            return True
        if d["type"] in ("gb_tr_card_dealt", "gb_tr_shown"):
            d["colour"] = "red" if d["colour"] == "blue" else "blue"
            swap = {"president": "bomber", "bomber": "president"}
            d["role"] = swap.get(d.get("role") or "", d.get("role") or "")
            return True
        return False

    asked = events_of(db, gid, "gb_tr_asked")
    assert asked and not events_of(db, gid, "gb_tr_said")
    # A seat that missed a question, and one that was party to it.
    seat = next(s for s in range(6) if any(s not in (d["seat"], d["to"]) for d in asked))
    other = next(d["to"] for d in asked if seat not in (d["seat"], d["to"]))

    def served(store: Path) -> list[str]:
        with TestClient(create_app(store), base_url="http://127.0.0.1") as client:
            return [client.get(f"/games/{gid}?seat={s}").text for s in (seat, other)]

    before = served(db)
    copy = edited(db, tmp_path, gid, lambda d: hidden_from(seat, d) and change(d))
    after = served(copy)
    assert after[0] == before[0], f"seat {seat}'s page changed with what it was not told"
    assert "LEAK" not in after[0]
    assert after[1] != before[1] and "LEAK" in after[1]
    # The drawings of the other seat's page hold the questions it was party to.
    assert any("LEAK" in d for d in page(copy, gid, other)[0])
    # The seat's own page draws its talk and its own card, no other card before the end.
    _, data = page(db, gid, seat)
    boards = [f["board"] for f in data["frames"] if "board" in f]
    mine = [d for d in asked if seat in (d["seat"], d["to"])]
    assert mine and sum(1 for b in boards[-1]["messages"] if b["who"] != "GAME") >= len(mine)
    for b in boards[:-1]:
        people = [p for room in b["rooms"] for p in room]
        assert all(p["colour"] is None for p in people if not p["you"])


def events_of(db: Path, gid: str, typ: str) -> list[dict[str, Any]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        rows = con.execute(
            "SELECT payload FROM events WHERE game_id = ? AND type = ? ORDER BY seq", [gid, typ]
        ).fetchall()
    finally:
        con.close()
    return [msgspec.json.decode(r[0]) for r in rows]


# ---- perfect information ------------------------------------------------------------------------


def each_point(
    db: Path, gid: str, viewer: int | str, every: bool = False
) -> list[tuple[str, list[Any]]]:
    """(drawing, the whole log up to that event) at the first event of each of a page's
    frames (`every`: at every event)."""
    drawn, data = page(db, gid, viewer)
    with DuckStore(db, read_only=True) as store:
        log = store.load_events(gid)
    seqs = [int(e["seq"]) for e in data["events"]]
    out, last = [], -1
    for i, seq in enumerate(seqs):
        if every or data["index"][i] != last:  # the first event of each frame, or all
            last = data["index"][i]
            out.append((drawn[last], log[: seq + 1]))
    return out


def test_tic_tac_toe_drawing_is_the_board_at_every_event(stored: Any) -> None:
    from events.openspiel.game import MovePlayed

    db, ids = stored
    for viewer in (0, 1, "public"):
        points = each_point(db, ids["tic_tac_toe"], viewer, every=True)
        marks = 0
        for markup, log in points:
            if isinstance(log[-1], MovePlayed):
                continue  # the board is drawn from the observations that follow each move
            want = {f"({r},{c})": "empty" for r in range(3) for c in range(3)}
            for e in log:
                if isinstance(e, MovePlayed):
                    a = int(e.action)
                    want[f"({a // 3},{a % 3})"] = (
                        "x (player 0)" if e.player == 0 else "o (player 1)"
                    )
            got = dict(re.findall(r'aria-label="(\(\d,\d\)): ([^"]+)"', markup))
            if got:
                assert got == want
                marks = max(marks, sum(v != "empty" for v in got.values()))
        assert marks >= 5


def test_santorini_drawing_is_the_board_at_every_event(stored: Any) -> None:
    db, ids = stored
    gdef = catalog.get("gamebench:santorini")
    seen = 0
    for viewer in (1, "public"):
        for markup, log in each_point(db, ids["santorini"], viewer):
            got = re.findall(r'aria-label="\((\d), (\d)\): level (\d)([^"]*)"', markup)
            if not got:
                continue
            state = gdef.extras["state_data"](gdef.rules.fold(log))
            at = {tuple(rc): p for p, rc in state["pawns"].items() if rc is not None}
            for r, c, h, rest in got:
                assert int(h) == state["heights"][int(r)][int(c)]
                pawn = re.search(r"pawn (\w)", rest)
                assert (pawn.group(1) if pawn else None) == at.get((int(r), int(c)))
            seen += 1
    assert seen > 4


def test_hive_drawing_is_the_board_at_every_event(stored: Any) -> None:
    db, ids = stored
    gdef = catalog.get("gamebench:hive")
    seen = 0
    for viewer in (1,):
        for markup, log in each_point(db, ids["hive"], viewer):
            state = gdef.extras["state_data"](gdef.rules.fold(log))
            want = {(c["q"], c["r"]): (c["seat"], c["piece"]) for c in state["board"]}
            got = {
                (int(q), int(r)): (int(s), p)
                for q, r, s, p in re.findall(
                    r'aria-label="\((-?\d+), (-?\d+)\): player (\d) \w+ ([^"]+)"', markup
                )
            }
            if "Hive board" in markup:
                assert got == want
                seen += bool(want)
    assert seen > 4


# ---- PACT ------------------------------------------------------------------------------------


def test_pact_is_drawn_as_the_bargaining_it_was(stored: Any, tmp_path: Path) -> None:
    db, ids = stored
    gid = ids["pact"]
    said = [(d["seat"], d["text"]) for d in events_of(db, gid, "pact_message_sent")]
    quotes = events_of(db, gid, "pact_quotes_revealed")
    assert said and quotes and any(q["traded"] for q in quotes)
    assert not all(q["traded"] for q in quotes)
    roles = {0: "buyer", 1: "seller"}
    for viewer in (0, 1, "public"):
        drawn, _ = page(db, gid, viewer)
        last = drawn[-1]
        # Every message in order, each under its party's name (the seat's own as "you").
        bubbles = [
            (who, html.unescape(text))
            for who, text in re.findall(
                r'<li class="msg from-player[^"]*" aria-label="([^"]+?): ([^"]*)"', last
            )
        ]
        want = [("you" if s == viewer else f"{roles[s]} (seat {s})", t) for s, t in said]
        assert bubbles == want, viewer
        # Each round's sealed quotes: accepted (a trade at the midpoint) or declined.
        rows = re.findall(r'aria-label="(round \d+: bid \d+, ask \d+, [^"]+)"', last)
        assert rows == [
            f"round {q['round']}: bid {q['bid']}, ask {q['ask']}, "
            + (f"accepted: trade at {q['price']:g}" if q["traded"] else "declined: no trade")
            for q in quotes
        ]
        # A party's value shows on its own page (and to nobody else's).
        for s in (0, 1):
            hidden = f"{roles[s]} (seat {s}): {'value' if s == 0 else 'cost'} hidden"
            assert (hidden in last) == (viewer != s), (viewer, s)

    # The other party's value, seen by it alone, leaves a seat's drawings as they were.
    def change(d: dict[str, Any]) -> bool:
        if d["type"] == "pact_value_dealt":
            d["amount"] += 1
            return True
        return False

    check_blind(db, tmp_path, gid, 0, 1, change)


# ---- TextArena: the prisoner's dilemma and Codenames ---------------------------------------------


def ipd_rounds(log: list[Any]) -> tuple[list[dict[tuple[int, int], str]], list[int]]:
    """The rules' account of a three-player prisoner's dilemma, independent of any text: per
    round each player's decision towards each other one (what its action says, cooperate by
    default, as TextArena reads it), and the index of the event after which the round was
    resolved."""
    from events.textarena.game import ActionTaken

    gdef = catalog.get("mindgames:ipd3")
    token = re.compile(r"\[\s*(\d+)\s+(cooperate|defect)\s*\]", re.I)
    rounds: list[dict[tuple[int, int], str]] = []
    last: dict[int, int] = {}
    for i, e in enumerate(log):
        if not isinstance(e, ActionTaken):
            continue
        state = gdef.rules.fold(log[:i]).env.state.game_state
        if state["phase"] != "decision":
            continue
        while len(rounds) < state["round"]:
            rounds.append({(p, q): "cooperate" for p in range(3) for q in range(3) if p != q})
        for q, choice in token.findall(e.action):
            if int(q) != e.player and 0 <= int(q) < 3:
                rounds[-1][(e.player, int(q))] = choice.lower()
        # A round is resolved by the last decision made in it.
        last[state["round"]] = i
    resolved = [last[n] for n in sorted(last)]
    return rounds, resolved


PAY = {("cooperate", "cooperate"): 3, ("defect", "defect"): 1}
PAY |= {("defect", "cooperate"): 5, ("cooperate", "defect"): 0}
"""The points of a choice against another (the preset's payoffs, docs/textarena.md)."""
PAST = {"cooperate": "cooperated", "defect": "defected"}


def test_prisoners_payoffs_are_the_rules_decisions_once_revealed(stored: Any) -> None:
    db, ids = stored
    gid = ids["ipd3"]
    with DuckStore(db, read_only=True) as store:
        log = store.load_events(gid)
    rounds, resolved = ipd_rounds(log)
    assert len(rounds) == len(resolved) == 5
    assert len({d for r in rounds for d in r.values()}) == 2  # both choices were made
    want: list[str] = []
    totals = [0, 0, 0]
    for n, r in enumerate(rounds, 1):
        for a, b in ((0, 1), (0, 2), (1, 2)):
            ca, cb = r[(a, b)], r[(b, a)]
            pa, pb = PAY[(ca, cb)], PAY[(cb, ca)]
            totals[a] += pa
            totals[b] += pb
            want.append(
                f"round {n}, Player {a} and Player {b}: Player {a} {PAST[ca]} (+{pa}),"
                f" Player {b} {PAST[cb]} (+{pb})"
            )
    for seat in (0, 1, 2):
        shown_rounds = 0
        drawn, data = page(db, gid, seat)
        # A seat's page numbers its own events: the n-th is the n-th of the log it may see.
        mine = [i for i, e in enumerate(log) if e.audience() is None or seat in e.audience()]
        assert len(mine) == len(data["events"])
        for at, frame in zip(mine, data["index"], strict=True):
            markup = drawn[frame]
            got = re.findall(r'<g aria-label="(round \d+, Player \d and Player \d: [^"]+)"', markup)
            # A round is drawn only once the rules resolved it, and as they resolved it.
            done = sum(1 for i in resolved if i <= at)
            assert len(got) <= 3 * done, (seat, at)
            assert got == want[: len(got)], seat
            shown_rounds = max(shown_rounds, len(got) // 3)
        assert shown_rounds == 5, seat
        # The totals under the table are the rules' scores.
        last = page(db, gid, seat)[0][-1]
        for p in range(3):
            name = f"Player {p} (you)" if p == seat else f"Player {p}"
            assert f'aria-label="total, {name}: {totals[p]}"' in last, (seat, p)


def test_prisoners_seat_is_blind_to_the_others_decisions(stored: Any, tmp_path: Path) -> None:
    db, ids = stored

    def change(d: dict[str, Any]) -> bool:
        # Another player's decisions turned around, and what it alone was shown.
        if d["type"] == "textarena_action":
            flip = {"cooperate": "defect", "defect": "cooperate"}
            d["action"] = re.sub(r"cooperate|defect", lambda m: flip[m.group(0)], d["action"])
            return True
        if d["type"] == "textarena_observed":
            d["text"] = d["text"].replace("cooperate and defect", "defect and defect")
            d["text"] = d["text"].replace("gained 0", "gained 1")
            return True
        return False

    check_blind(db, tmp_path, ids["ipd3"], 0, 1, change)
    assert all("ipd-table" in d for d in page(db, ids["ipd3"], 0)[0][-3:])


def test_textarena_codenames_cards_are_the_board_as_each_seat_may_know_it(stored: Any) -> None:
    db, ids = stored
    gid = ids["ta_codenames"]
    gdef = catalog.get("mindgames:codenames")
    with DuckStore(db, read_only=True) as store:
        log = store.load_events(gid)
    env = gdef.rules.fold(log).env
    letters = {"R": "red", "B": "blue", "N": "neutral", "A": "assassin"}
    board = {w: letters[t] for w, t in env.board.items()}
    guessed = set(env.state.game_state["guessed_words"])
    assert guessed
    for seat in range(4):
        last = page(db, gid, seat)[0][-1]
        cards = re.findall(r'data-word="(\w+)" data-card="(\w+)" data-revealed="(yes|no)"', last)
        assert [w for w, _k, _r in cards] == list(board), seat
        revealed = {w for w, _k, r in cards if r == "yes"}
        # Every guess the game reported is revealed (the game's last guess ends it unsaid).
        assert revealed <= guessed and len(guessed - revealed) <= 1, seat
        for w, kind, r in cards:
            if seat in (0, 2) or r == "yes":
                assert kind == board[w], (seat, w)  # a spymaster knows the whole key
            else:
                assert kind == "unknown", (seat, w)  # an operative only what was revealed
        team = "red" if seat < 2 else "blue"
        role = "spymaster" if seat in (0, 2) else "operative"
        assert f"Codenames board as the {team} {role} sees it" in last


def test_textarena_codenames_operative_is_blind_to_the_key(stored: Any, tmp_path: Path) -> None:
    db, ids = stored
    swap = {"R": "B", "B": "R", "N": "A", "A": "N"}

    def change(d: dict[str, Any]) -> bool:
        # The key the spymasters were shown, every team letter of their boards swapped.
        if d["type"] == "textarena_observed" and "Codenames Words:" in d["text"]:
            head, board = d["text"].split("Codenames Words:", 1)
            board = re.sub(
                r"(?m)^(\w+ +)([RBNA])\b", lambda m: m.group(1) + swap[m.group(2)], board
            )
            d["text"] = head + "Codenames Words:" + board
            return True
        return False

    check_blind(db, tmp_path, ids["ta_codenames"], 1, 0, change)
    # What stays is a board: the operative's own, with no card of the key.
    last = page(db, ids["ta_codenames"], 1)[0][-1]
    assert "codenames-board" in last and 'data-revealed="no"' in last
    assert not re.search(r'data-card="(?!unknown)\w+" data-revealed="no"', last)
