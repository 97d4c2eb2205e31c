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

import gzip
import json
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import msgspec
import pytest

from agents import parse_spec, register
from agents.base import Agent
from agents.cattle.random_agent import RandomAgent
from agents.llm.loopback import LegalPolicy, LoopbackServer
from agents.llm.spec import label_problem
from events import catalog
from events.cattle.codec import decode
from events.codec import encode
from events.store import DuckStore
from runner.replay import verify
from runner.session import play_and_store
from runner.verify import GameCheck, check_game, verify_stored
from tests.cli.clikit import ENV, ROOT, cattle

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
        _put(
            con, gid, seq, msgspec.structs.replace(event, **{field: change(getattr(event, field))})
        )
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
        edit_text("gb_tr_answered", "text", lambda t: "I am the bomber."),
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


# ---------------------------------------------------------------------------- records


@dataclass
class Records:
    """A model game and a person's game, each in its own file."""

    model: Path
    human: Path


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Records]:
    """A Cattle Trade duel of a loopback model against random, and a Pit game in which a
    person (stdin of a real `cattle play`) first types a refused line, then a choice."""
    tmp = tmp_path_factory.mktemp("verify-records")
    model = tmp / "model.duckdb"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("OPENAI_API_KEY", "sk-test-verify")
        mp.delenv("OPENAI_BASE_URL", raising=False)
        (tmp / "llm.toml").write_text("")
        mp.setenv("CATTLE_LLM_CONFIG", str(tmp / "llm.toml"))
        with DuckStore(model) as store, LoopbackServer(LegalPolicy()) as srv:
            play_and_store(
                store,
                catalog.get("cattle-trade").preset("micro-duel"),
                5,
                [f"openai:loop@{srv.openai_url}", "random"],
                game_id="model",
            )
    human = tmp / "human.duckdb"
    args = ["play", "--game", "gamebench:pit", "--preset", "quick", "--agents", "human,random"]
    args += ["--seed", "5", "--db", str(human), "--init"]
    done = subprocess.run(
        [sys.executable, "-m", "cli.main", *args],
        cwd=ROOT,
        env=ENV,
        input="nonsense\n1\n" * 400,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    # Named as the cases name it (the id is the store's own choice).
    con = duckdb.connect(str(human))
    (gid,) = con.execute("SELECT game_id FROM games").fetchall()[0]
    con.execute("UPDATE events SET game_id = 'human' WHERE game_id = ?", [gid])
    con.execute("UPDATE games SET game_id = 'human' WHERE game_id = ?", [gid])
    con.close()
    yield Records(model=model, human=human)


def _nth(con: Con, gid: str, kind: str, where: Callable[[Any], bool]) -> tuple[int, Any]:
    for seq in _seqs(con, gid, kind):
        text = con.execute(
            "SELECT payload FROM events WHERE game_id = ? AND seq = ?", [gid, seq]
        ).fetchall()[0][0]
        game = con.execute("SELECT game FROM games WHERE game_id = ?", [gid]).fetchall()[0][0]
        event = catalog.get(game).decoder.decode(text)
        if where(event):
            return seq, event
    raise AssertionError(f"no {kind} event as wanted in {gid}")


def set_field(
    kind: str, where: Callable[[Any], bool], **change: Callable[[Any], Any]
) -> Callable[[Con, str], int]:
    """Change fields of the first `kind` event `where` accepts, keeping it canonical."""

    def go(con: Con, gid: str) -> int:
        seq, event = _nth(con, gid, kind, where)
        new = msgspec.structs.replace(event, **{k: f(event) for k, f in change.items()})
        con.execute(
            "UPDATE events SET payload = ? WHERE game_id = ? AND seq = ?",
            [encode(new).decode(), gid, seq],
        )
        return seq

    return go


def _answered(e: Any) -> bool:
    return e.error is None


def _refused(e: Any) -> bool:
    return e.error is not None


def _other_seat(con: Con, gid: str) -> int:
    """Move the person's first answer to the other seat, its actor column too."""
    seq = set_field("human_answer", _answered, seat=lambda e: 1)(con, gid)
    con.execute("UPDATE events SET actor = 1 WHERE game_id = ? AND seq = ?", [gid, seq])
    return seq


RECORD_CASES: list[tuple[str, str, Callable[[Con, str], int | None], str]] = [
    (
        "llm_call reasoning_tokens raised",
        "model",
        set_field("llm_call", _answered, reasoning_tokens=lambda e: e.output_tokens + 5000),
        "llm_call",
    ),
    (
        "llm_call input_tokens below 0",
        "model",
        set_field("llm_call", _answered, input_tokens=lambda e: -300_000),
        "llm_call",
    ),
    (
        "llm_call status on an answered call",
        "model",
        set_field("llm_call", _answered, status=lambda e: 503),
        "llm_call",
    ),
    (
        "llm_call latency_ms past the seat's timeout",
        "model",
        set_field("llm_call", _answered, latency_ms=lambda e: 1e9),
        "llm_call",
    ),
    (
        "llm_call latency_ms below 0",
        "model",
        set_field("llm_call", _answered, latency_ms=lambda e: -1.0),
        "llm_call",
    ),
    (
        "llm_call finish_reason of the other protocol",
        "model",
        set_field("llm_call", _answered, finish_reason=lambda e: "end_turn"),
        "llm_call",
    ),
    (
        "human_answer seat moved",
        "human",
        _other_seat,
        "human_answer",
    ),
    (
        "human_answer decision renamed",
        "human",
        set_field("human_answer", _answered, decision=lambda e: e.decision + "x"),
        "replay",
    ),
    (
        "human_answer stage changed",
        "human",
        set_field(
            "human_answer", _answered, stage=lambda e: "ask" if e.stage != "ask" else "retry"
        ),
        "replay",
    ),
    (
        "human_answer text of a played line changed",
        "human",
        set_field("human_answer", _answered, text=lambda e: "nonsense"),
        "replay",
    ),
    (
        "human_answer parse_stage changed",
        "human",
        set_field("human_answer", _answered, parse_stage=lambda e: "key_value"),
        "replay",
    ),
    (
        "human_answer error of a refused line changed",
        "human",
        set_field("human_answer", _refused, error=lambda e: "too slow"),
        "replay",
    ),
    (
        "human_answer error cleared on a refused line",
        "human",
        set_field("human_answer", _refused, error=lambda e: None),
        "replay",
    ),
    (
        "human_answer elapsed_ms past the seat's time limit",
        "human",
        set_field("human_answer", _answered, elapsed_ms=lambda e: 1e9),
        "human_answer",
    ),
    (
        "human_answer elapsed_ms below 0",
        "human",
        set_field("human_answer", _answered, elapsed_ms=lambda e: -5.0),
        "human_answer",
    ),
]


def _tournament_named(con: Con, gid: str) -> None:
    con.execute("UPDATE games SET tournament = 'cup' WHERE game_id = ?", [gid])


@pytest.mark.parametrize(
    ("case", "which", "tamper", "check_name"), RECORD_CASES, ids=[c[0] for c in RECORD_CASES]
)
def test_an_edited_record_fails_verification(
    records: Records,
    tmp_path: Path,
    case: str,
    which: str,
    tamper: Callable[[Con, str], int | None],
    check_name: str,
) -> None:
    src = records.model if which == "model" else records.human
    assert check(src, which).ok
    path = tmp_path / "tampered.duckdb"
    shutil.copyfile(src, path)
    con = duckdb.connect(str(path))
    seq = tamper(con, which)
    con.close()
    got = check(path, which)
    assert got.outcome == "failed", (case, got)
    assert got.problem is not None and got.problem.check == check_name, (case, got.problem)
    if check_name != "replay":
        assert got.problem.seq == seq, (case, got.problem)


def test_a_tournament_named_in_a_store_without_tournaments_fails(
    base: Base, tmp_path: Path
) -> None:
    path = tmp_path / "tampered.duckdb"
    shutil.copyfile(base.path, path)
    con = duckdb.connect(str(path))
    _tournament_named(con, "cattle")
    con.close()
    got = check(path, "cattle")
    assert got.outcome == "failed" and got.problem is not None
    assert got.problem.check == "tournament" and "'cup'" in got.problem.detail


def test_the_verdict_says_which_seats_were_checked_by_their_answers(records: Records) -> None:
    model, human = check(records.model, "model"), check(records.human, "human")
    assert model.ok and human.ok, (model.problem, human.problem)
    assert [s.check for s in model.seats] == ["answers", "rerun"]
    assert [s.check for s in human.seats] == ["answers", "rerun"]


class OutsideBot(Agent):
    """An agent kind added from outside the game: plays like the random agent."""

    spec = "outside-bot"

    def __init__(self, seat: int, seed: int, config: Any) -> None:
        super().__init__(seat, seed, config)
        self.inner = RandomAgent(seat, seed, config)

    def act(self, view: Any, decision: Any) -> Any:
        return self.inner.act(view, decision)


register("outside-bot", lambda spec, seat, seed, config: OutsideBot(seat, seed, config))


def test_the_command_says_which_seats_it_could_check_for_legality_only(
    records: Records, tmp_path: Path
) -> None:
    db = tmp_path / "outside.duckdb"
    with DuckStore(db) as store:
        gid, _ = play_and_store(
            store, catalog.get("cattle-trade").preset("micro-duel"), 3, ["outside-bot", "random"]
        )
    table = cattle("verify", gid, "--db", db)
    assert table.returncode == 0, table.stderr
    assert "legality only" in table.stdout and "played again" in table.stdout
    assert "outside-bot" in table.stdout
    one = cattle("replay", gid, "--verify", "--db", db)
    assert one.returncode == 0, one.stderr
    assert "seat 0 outside-bot: legality only" in one.stdout
    assert "seat 1 random: played again" in one.stdout
    model = cattle("verify", "model", "--db", records.model, "--json")
    assert model.returncode == 0, model.stderr
    (verdict,) = json.loads(model.stdout)["games"]
    assert [s["check"] for s in verdict["seats"]] == ["answers", "rerun"]


OLD = Path(__file__).parents[1] / "agents" / "data" / "v2-standard-canonical-21.jsonl.gz"
"""A game stored when `tracker`, `setrace` and `economy` were their second versions."""


def test_a_game_of_an_earlier_agent_version_verifies_as_that_version() -> None:
    events = [decode(line) for line in gzip.decompress(OLD.read_bytes()).splitlines() if line]
    labels = [s.agent for s in events[0].seats]
    got = verify(events)
    assert got.ok and got.played_as is not None
    assert [a for a in got.played_as if a not in labels] == [
        f"{a}-v2" for a in labels if a in ("tracker", "setrace", "economy")
    ]
    # Relabelled, a seat reproduces under no version of the agent it names.
    seat = labels.index("random")
    seats = list(events[0].seats)
    seats[seat] = msgspec.structs.replace(seats[seat], agent="tracker")
    relabelled = [msgspec.structs.replace(events[0], seats=tuple(seats)), *events[1:]]
    assert not verify(relabelled).ok


def _renamed_model(label: Callable[[str], str]) -> Callable[[Con, str], None]:
    """The model seat (seat 0) named `label(name)` in the log's first event and the games
    row, its stored options (what it was played with) left as they are."""

    def go(con: Con, gid: str) -> None:
        text = con.execute(
            "SELECT payload FROM events WHERE game_id = ? AND seq = 0", [gid]
        ).fetchall()[0][0]
        start = catalog.get("cattle-trade").decoder.decode(text)
        seats = list(start.seats)
        seats[0] = msgspec.structs.replace(seats[0], agent=label(seats[0].agent))
        _put(con, gid, 0, msgspec.structs.replace(start, seats=tuple(seats)))
        con.execute(
            "UPDATE games SET seats = ? WHERE game_id = ?", [encode(tuple(seats)).decode(), gid]
        )

    return go


MODEL_LABELS: dict[str, Callable[[str], str]] = {
    "another model": lambda name: name.replace(":loop", ":gpt-5"),
    "an option the seat was not played with": lambda name: name + "?temperature=0.5",
    "the other provider": lambda name: name.replace("openai:", "anthropic:"),
}


def test_a_model_seat_name_must_show_what_it_was_played_with() -> None:
    """Every name a spec is stored under agrees with its options; a name that leaves out an
    option played away from its default, or spells another value, does not."""
    for text in (
        "openai:m",
        "openai:m@http://127.0.0.1:9/v1?temperature=none&memory=recent",
        "anthropic:m?tokens=50&effort=high&style=gamebench&mode=cot&samples=3",
        "openai:m?reasoning_effort=none&prompts=1&max_calls=2",
    ):
        assert label_problem(parse_spec(text)) is None, text
    played = parse_spec("openai:m?memory=recent&mode=cot")
    for name in ("openai:m?mode=cot", "openai:m?memory=recent", "openai:m?memory=full&mode=cot"):
        got = label_problem(msgspec.structs.replace(played, agent=name))
        assert got is not None and ("memory" in got or "mode" in got), name


@pytest.mark.parametrize("case", list(MODEL_LABELS))
def test_a_relabelled_model_seat_fails_verification(
    records: Records, tmp_path: Path, case: str
) -> None:
    """A model seat's name is what ratings credit; the options stored with it are what it was
    played with. A name that says otherwise fails, as a relabelled code agent does."""
    path = tmp_path / "tampered.duckdb"
    shutil.copyfile(records.model, path)
    con = duckdb.connect(str(path))
    _renamed_model(MODEL_LABELS[case])(con, "model")
    con.close()
    got = check(path, "model")
    assert got.outcome == "failed", (case, got)
    assert got.problem is not None and got.problem.check in ("replay", "llm_call"), got.problem
