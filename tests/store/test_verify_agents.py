"""Verification plays code agents again: a relabelled seat or an edited move of a code agent
fails, and the verdict says how each seat was checked.

A real DuckDB file holds one game of each family named below; each case copies it, edits it
with its own DuckDB connection (keeping every payload canonical and the games row in step
with the log, so that only the re-simulation can tell), and checks the game as `cattle verify`
does. Each case also checks the edited game with every seat answered from the log
(`rerun=False`, what verification did before code agents were played again): the edit passes
there, so it is the re-run that catches it.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import msgspec
import pytest

from events import catalog
from events.codec import encode
from events.store import DuckStore
from runner.session import play_and_store
from runner.verify import GameCheck, check_game, verify_stored

GAMES: dict[str, tuple[str, str, list[str]]] = {
    "pit": ("gamebench:pit", "standard", ["random", "cornerer"]),
    "cattle": ("cattle-trade", "micro-duel", ["random", "tracker"]),
    "traitor": (
        "gamebench:are_you_the_traitor",
        "quick",
        ["sleuth", "random", "sleuth", "random", "random"],
    ),
    "rooms": (
        "gamebench:two_rooms_and_a_boom",
        "short",
        ["sleuth", "random", "sleuth", "random", "random", "random"],
    ),
    "textarena": ("textarena", "blotto", ["blotto-uniform", "blotto-concentrate"]),
}


@dataclass
class Base:
    """The untampered database."""

    path: Path


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Base]:
    """Plays and stores every game once per module."""
    path = tmp_path_factory.mktemp("verify-agents") / "games.duckdb"
    with DuckStore(path) as store:
        for gid, (name, preset, agents) in GAMES.items():
            play_and_store(store, catalog.get(name).preset(preset), 7, agents, game_id=gid)
    yield Base(path=path)


Con = duckdb.DuckDBPyConnection


def _event(con: Con, gid: str, seq: int) -> Any:
    game = catalog.get(GAMES[gid][0])
    text = con.execute(
        "SELECT payload FROM events WHERE game_id = ? AND seq = ?", [gid, seq]
    ).fetchall()[0][0]
    return game.decoder.decode(text)


def _put(con: Con, gid: str, seq: int, event: Any) -> None:
    con.execute(
        "UPDATE events SET payload = ? WHERE game_id = ? AND seq = ?",
        [encode(event).decode(), gid, seq],
    )


def _seqs(con: Con, gid: str, kind: str) -> list[int]:
    rows = con.execute(
        "SELECT seq FROM events WHERE game_id = ? AND type = ? ORDER BY seq", [gid, kind]
    ).fetchall()
    return [int(r[0]) for r in rows]


def relabel(seat: int, agent: str) -> Callable[[Con, str], int | None]:
    """Name another code agent at `seat`, in the log's first event and the games row alike."""

    def go(con: Con, gid: str) -> int | None:
        start = _event(con, gid, 0)
        seats = list(start.seats)
        seats[seat] = msgspec.structs.replace(seats[seat], agent=agent)
        _put(con, gid, 0, msgspec.structs.replace(start, seats=tuple(seats)))
        con.execute(
            "UPDATE games SET seats = ? WHERE game_id = ?",
            [encode(tuple(seats)).decode(), gid],
        )
        return None

    return go


def edit_text(kind: str, field: str, change: Callable[[str], str]) -> Callable[[Con, str], int]:
    """Change `field` of the first `kind` event that a code agent wrote."""

    def go(con: Con, gid: str) -> int:
        seq = _seqs(con, gid, kind)[0]
        event = _event(con, gid, seq)
        _put(con, gid, seq, msgspec.structs.replace(event, **{field: change(getattr(event, field))}))
        return seq

    return go


CASES: list[tuple[str, str, Callable[[Con, str], int | None]]] = [
    ("Pit: random relabelled cornerer", "pit", relabel(0, "cornerer")),
    ("Pit: cornerer relabelled random", "pit", relabel(1, "random")),
    ("Cattle Trade: random relabelled tracker", "cattle", relabel(0, "tracker")),
    (
        "Traitor: a code agent's question edited",
        "traitor",
        edit_text("gb_ayt_asked", "text", lambda t: t.replace("?", ", really?")),
    ),
    (
        "Traitor: a code agent's answer edited",
        "traitor",
        edit_text("gb_ayt_answered", "text", lambda t: "I am the traitor."),
    ),
    (
        "Two Rooms: a code agent's words edited",
        "rooms",
        edit_text("gb_tr_said", "text", lambda t: "I am the bomber."),
    ),
    (
        "TextArena: a code agent's action string edited",
        "textarena",
        edit_text("textarena_action", "action", lambda t: t + " "),
    ),
]


def check(path: Path, gid: str) -> GameCheck:
    """What `cattle verify` says about one game."""
    with DuckStore(path, read_only=True) as store:
        return verify_stored(store, gid)


@pytest.mark.parametrize(("case", "gid", "tamper"), CASES, ids=[c[0] for c in CASES])
def test_an_edited_code_agent_seat_fails_verification(
    base: Base, tmp_path: Path, case: str, gid: str, tamper: Callable[[Con, str], int | None]
) -> None:
    assert check(base.path, gid).ok
    path = tmp_path / "tampered.duckdb"
    shutil.copyfile(base.path, path)
    con = duckdb.connect(str(path))
    seq = tamper(con, gid)
    con.close()
    with DuckStore(path, read_only=True) as store:
        rows = store.load_rows(gid)
    # Answered from the log, every seat's moves are still legal: the edit passes there.
    assert check_game(rows, rerun=False).ok, case
    got = check(path, gid)
    assert got.outcome == "failed", (case, got)
    assert got.problem is not None and got.problem.check == "replay", (case, got.problem)
    if seq is not None:
        assert got.problem.seq == seq, (case, got.problem)
    assert got.problem.replayed is not None and got.problem.replayed != got.problem.stored


@pytest.mark.parametrize("gid", sorted(GAMES))
def test_the_verdict_says_every_code_agent_seat_was_played_again(base: Base, gid: str) -> None:
    got = check(base.path, gid)
    assert got.ok, got.problem
    assert [(s.seat, s.agent, s.check) for s in got.seats] == [
        (i, agent, "rerun") for i, agent in enumerate(GAMES[gid][2])
    ]
