"""The league's queue: a name is held by the secret of the browser that used it first; a
queued person is seated in one game by the next round (recorded as a fact, so the round
replays), leaves the queue, and appears on the table (here playing nothing: their time runs
out and their seat plays its default, as anyone's would; tests/web plays one by keyboard)."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from agents.human import agent as human_agent
from agents.human import lobby
from cli.web.app import create_app
from events.league import load_events
from events.store import DuckStore
from projections import league as P
from runner import league as L

SECRET = "0123456789abcdef0123456789abcdef"
OTHER = "f" * 32
LEAGUE = """
[league]
name = "drop-in"
seed = 9
round_games = 4
reference = ["bot"]
person_timeout = 0.2

[[games]]
game = "openspiel"
preset = "kuhn_poker"

[[agents]]
name = "rnd"
spec = "random"

[[agents]]
name = "bot"
spec = "mcts?simulations=20"
"""
ORIGIN = {"origin": "http://127.0.0.1"}


@pytest.fixture(autouse=True)
def _seats_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The people's seats wait in the test's folder (not the checkout's data/seats)."""
    monkeypatch.setenv("CATTLE_SEATS", str(tmp_path / "seats"))


def test_a_queued_person_is_seated_once_and_keeps_their_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Earlier in this process another person left a browser seat and someone left the
    # terminal (a league process runs for days): neither keeps ann from her game.
    monkeypatch.setattr(
        human_agent,
        "_DEPARTURES",
        [
            human_agent.Departure("human:bob", "page closed"),
            human_agent.Departure("terminal", "interrupted"),
        ],
    )
    seats = tmp_path / "seats"
    path = tmp_path / "league.toml"
    path.write_text(LEAGUE)
    db = tmp_path / "league.duckdb"
    with DuckStore(db) as store:
        L.run(store, path, games=2, day=lambda: "2026-12-07", seats=seats)
    join = {"name": "ann", "league": "drop-in", "game": "openspiel", "secret": SECRET}
    with TestClient(create_app(db, seats=seats), base_url="http://127.0.0.1") as client:
        assert "drop-in" in client.get("/league/join").text
        assert client.post("/api/league/join", json=join, headers=ORIGIN).status_code == 200
        # Another browser can neither take the name while it waits nor look for its seat.
        other = {**join, "secret": OTHER}
        assert client.post("/api/league/join", json=other, headers=ORIGIN).status_code == 409
        assert client.post("/api/league/seat", json=other).status_code == 403
        for taken in ("rnd", "RND"):  # an agent of the file, in any letter case
            bad = {**join, "name": taken}
            got = client.post("/api/league/join", json=bad, headers=ORIGIN)
            assert got.status_code == 409 and "agent" in got.json()["error"]
        elsewhere = {**join, "league": "nope"}
        assert client.post("/api/league/join", json=elsewhere, headers=ORIGIN).status_code == 404
        away = {"origin": "http://elsewhere.example"}  # another site's page posting
        assert client.post("/api/league/join", json=join, headers=away).status_code == 403
    with DuckStore(db) as store:
        stop = L.run(store, path, games=5, day=lambda: "2026-12-07", seats=seats)
        assert stop.reason == "the league holds 5 games"  # every game scheduled was played
        state = P.fold(load_events(store.con, "drop-in"))
        table = P.table(store, "drop-in", state, samples=20)
        assert L.replay_choices(store, "drop-in") == []
    assert not lobby.waits(seats, "ann") and not lobby.waits(seats, "rnd")
    person = [m for r in state.rounds for m in r.matches if "ann" in m.lineup]
    assert len(person) == 1 and person[0].lineup == ("ann", "bot")
    assert len(person[0].rotations) == 1
    row = next(r for r in table.tables["openspiel"] if r.agent == "ann")
    assert row.seat_agent == "human:ann" and row.games == 1
    with TestClient(create_app(db, seats=seats), base_url="http://127.0.0.1") as client:
        # The name is ann's now: the league holds her secret's hash.
        assert client.post("/api/league/join", json=other, headers=ORIGIN).status_code == 409
        # ... in any letter case (the table would show two people who read as one).
        upper = {**other, "name": "ANN"}
        assert client.post("/api/league/join", json=upper, headers=ORIGIN).status_code == 409
        mine = client.post("/api/league/seat", json={"name": "ann", "secret": SECRET})
        assert mine.status_code == 200 and mine.json()["desk"] is None
        assert (
            client.post("/api/league/seat", json={"name": "ann", "secret": OTHER}).status_code
            == 403
        )

    # A queue entry that reached the folder anyway (an older viewer) is not seated under a
    # name that differs from ann's only in letter case.
    assert lobby.join(seats, "drop-in", "Ann", "openspiel", OTHER) is None
    # The file cannot give an agent a person's name: both would be "ann" to the matchmaker.
    path.write_text(LEAGUE + '[[agents]]\nname = "ANN"\nspec = "mcts?simulations=5"\n')
    with DuckStore(db) as store, pytest.raises(L.LeagueError, match="person"):
        L.run(store, path, games=7, day=lambda: "2026-12-07", seats=seats)
    path.write_text(LEAGUE)
    with DuckStore(db) as store:
        L.run(store, path, games=7, day=lambda: "2026-12-07", seats=seats)
        state = P.fold(load_events(store.con, "drop-in"))
    assert sorted(state.people) == ["ann"] and not lobby.waits(seats, "Ann")


def test_a_league_killed_after_recording_the_queue_seats_the_person_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seats = tmp_path / "seats"
    path = tmp_path / "league.toml"
    path.write_text(LEAGUE)
    db = tmp_path / "league.duckdb"
    with DuckStore(db) as store:
        L.run(store, path, games=2, day=lambda: "2026-12-07", seats=seats)
    assert lobby.join(seats, "drop-in", "ann", "openspiel", SECRET) is None

    def killed(*_: object) -> None:
        raise KeyboardInterrupt  # the process dies once the queue is stored, before the round

    with DuckStore(db) as store:
        with monkeypatch.context() as m:
            m.setattr(L, "_write_round", killed)
            with pytest.raises(KeyboardInterrupt):
                L.run(store, path, games=4, day=lambda: "2026-12-07", seats=seats)
        L.run(store, path, games=4, day=lambda: "2026-12-07", seats=seats)
        state = P.fold(load_events(store.con, "drop-in"))
        assert L.replay_choices(store, "drop-in") == []
    person = [m for m in state.matches if "ann" in m.lineup]
    assert len(person) == 1, person


def test_a_league_killed_before_it_empties_the_queue_seats_the_person_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seats = tmp_path / "seats"
    path = tmp_path / "league.toml"
    path.write_text(LEAGUE)
    db = tmp_path / "league.duckdb"
    with DuckStore(db) as store:
        L.run(store, path, games=2, day=lambda: "2026-12-07", seats=seats)
    assert lobby.join(seats, "drop-in", "ann", "openspiel", SECRET) is None
    real = L._write_round

    def killed(*args: object) -> None:
        real(*args)  # type: ignore[arg-type]
        raise KeyboardInterrupt  # the round is stored; the process dies before anything else

    with DuckStore(db) as store:
        with monkeypatch.context() as m:
            m.setattr(L, "_write_round", killed)
            with pytest.raises(KeyboardInterrupt):
                L.run(store, path, games=3, day=lambda: "2026-12-07", seats=seats)
        L.run(store, path, games=6, day=lambda: "2026-12-07", seats=seats)
        state = P.fold(load_events(store.con, "drop-in"))
    assert [m.lineup for m in state.matches if "ann" in m.lineup] == [("ann", "bot")]


def test_a_name_is_held_across_the_leagues_of_a_store(tmp_path: Path) -> None:
    seats = tmp_path / "seats"
    db = tmp_path / "league.duckdb"
    path = tmp_path / "league.toml"
    path.write_text(LEAGUE)
    second = tmp_path / "second.toml"
    second.write_text(LEAGUE.replace('name = "drop-in"', 'name = "second"'))
    with DuckStore(db) as store:
        L.run(store, path, games=2, day=lambda: "2026-12-07", seats=seats)
        L.run(store, second, games=2, day=lambda: "2026-12-07", seats=seats)
        assert lobby.join(seats, "drop-in", "ann", "openspiel", SECRET) is None
        L.run(store, path, games=3, day=lambda: "2026-12-07", seats=seats)
    join = {"name": "ann", "league": "second", "game": "openspiel", "secret": OTHER}
    with TestClient(create_app(db, seats=seats), base_url="http://127.0.0.1") as client:
        # ann of the first league holds her name in the second too: a seat link asked for
        # by name would otherwise be any ann's.
        assert client.post("/api/league/join", json=join, headers=ORIGIN).status_code == 409
        mine = {**join, "secret": SECRET}
        assert client.post("/api/league/join", json=mine, headers=ORIGIN).status_code == 200


def test_a_person_without_a_rival_stays_in_the_queue(tmp_path: Path) -> None:
    seats = tmp_path / "seats"
    path = tmp_path / "league.toml"
    # Nobody of the file plays Kuhn poker: a person queued for it waits for a rival.
    path.write_text(
        '[league]\nname = "drop-in"\nround_games = 2\n'
        '[[games]]\ngame = "pact"\npreset = "quick"\n'
        '[[games]]\ngame = "openspiel"\npreset = "kuhn_poker"\n'
        '[[agents]]\nname = "rnd"\nspecs = { pact = "random" }\n'
        '[[agents]]\nname = "bot"\nspecs = { pact = "truthful" }\n'
    )
    db = tmp_path / "league.duckdb"
    with DuckStore(db) as store:
        L.run(store, path, games=2, day=lambda: "2026-12-07", seats=seats)
        assert lobby.join(seats, "drop-in", "ann", "openspiel", SECRET) is None
        L.run(store, path, games=6, day=lambda: "2026-12-07", seats=seats)
        state = P.fold(load_events(store.con, "drop-in"))
    assert [e.round for e in state.queue] == [1, 2]  # recorded each round, seated by none
    assert not [m for m in state.matches if "ann" in m.lineup]
    assert lobby.waits(seats, "ann")


def test_a_damaged_queue_entry_is_passed_over(tmp_path: Path) -> None:
    seats = tmp_path / "seats"
    path = tmp_path / "league.toml"
    path.write_text(LEAGUE)
    lobby.lobby(seats).mkdir(parents=True)
    # Written by hand, or by something else than the viewer: no secret, a list for a game.
    (lobby.lobby(seats) / "ann.json").write_text('{"league": "drop-in", "name": "ann"}')
    (lobby.lobby(seats) / "bob.json").write_text(
        '{"league": "drop-in", "name": "bob", "game": ["openspiel"], "secret_sha256": "x"}'
    )
    with DuckStore(db := tmp_path / "league.duckdb") as store:
        L.run(store, path, games=2, day=lambda: "2026-12-07", seats=seats)
        assert P.fold(load_events(store.con, "drop-in")).people == {}
    assert db.exists()


def test_a_departure_keeps_out_only_the_person_who_left(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(human_agent, "_DEPARTURES", [])
    ann, bob = "human:ann?via=web&timeout=5", "human:bob?via=web"
    assert not human_agent.gone([ann, "random"])
    human_agent._DEPARTURES.append(human_agent.Departure("human:bob", "page closed"))
    mark = human_agent.departed()
    assert human_agent.gone([bob]) and not human_agent.gone([ann, "random"])
    assert not human_agent.gone([bob], since=mark)  # left before this run began
    human_agent._DEPARTURES.append(human_agent.Departure("terminal", "end of input"))
    assert human_agent.gone(["human", "random"], since=mark)  # whoever sits at the terminal
    assert human_agent.gone(["human:cy?timeout=3"], since=mark)
    assert not human_agent.gone([ann], since=mark)
    assert human_agent.departures(mark) == ["end of input"]
