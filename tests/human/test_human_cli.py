"""A person at the terminal: `cattle play --agents human,...` in real subprocesses, stdin
scripted, every game replayed and verified from its log afterwards."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from events import catalog
from events.store import DuckStore
from runner.replay import verify
from tests.cli.clikit import ENV, ROOT


def run(
    args: list[str], stdin: str, timeout: float = 120, columns: int | None = None
) -> subprocess.CompletedProcess[str]:
    env = ENV if columns is None else {**ENV, "COLUMNS": str(columns)}
    return subprocess.run(
        [sys.executable, "-m", "cli.main", *args],
        cwd=ROOT,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def play(
    db: Path,
    game: str,
    preset: str,
    agents: str,
    seed: int,
    stdin: str,
    *extra: str,
    columns: int | None = None,
):
    args = ["play", "--game", game, "--preset", preset, "--agents", agents]
    args += ["--seed", str(seed), "--db", str(db), "--init", "--json", *extra]
    return run(args, stdin, columns=columns)


def stored(db: Path) -> tuple[str, list]:
    with DuckStore(db) as store:
        (row,) = store.list_games()
        return row.game_id, store.load_events(row.game_id)


def verified(db: Path, game_id: str) -> None:
    """`cattle verify` of the stored game: re-simulated from its log, byte for byte."""
    done = run(["verify", game_id, "--db", str(db)], "")
    assert done.returncode == 0, done.stdout + done.stderr


def replays(events: list) -> None:
    """The same check in this process (`runner.replay.verify`, what `cattle verify` runs)."""
    result = verify(events)
    assert result.ok, result


def tags(events: list) -> list[str]:
    return [e.__struct_config__.tag for e in events]


def test_tic_tac_toe_refuses_then_takes_a_word_and_numbers(tmp_path: Path) -> None:
    db = tmp_path / "g.duckdb"
    done = play(db, "openspiel", "tic_tac_toe", "human,random", 3, "foo\nx(1,1)\n" + "1\n" * 9)
    assert done.returncode == 0, done.stderr
    assert "Refused: 'foo' is not one of the legal actions" in done.stderr
    assert "Played: x(1,1)" in done.stderr
    game_id, events = stored(db)
    answers = [e for e in events if tags([e]) == ["human_answer"]]
    assert [(a.stage, a.text, a.error is None) for a in answers[:2]] == [
        ("ask", "foo", False),
        ("retry", "x(1,1)", True),
    ]
    assert all(a.elapsed_ms >= 0 for a in answers)
    assert json.loads(done.stdout)["scores"][0]["agent"] == "human"
    verified(db, game_id)


def _prompts(preset: str, seed: int) -> tuple[str, str]:
    """The first prompt of each seat of a Kuhn poker deal (in process, code agents)."""
    from agents import make_agents
    from runner.driver import Game

    g = catalog.get("openspiel")
    config = g.preset(preset)
    game = Game(config, seed, make_agents(["random", "random"], seed, config))
    game._start()
    d = game.rules.pending(game.state)
    assert g.prompter is not None
    mine = g.prompter.decision_prompt(game.view(0), d, "full", None)
    theirs = game.views[1].sync(game.log, game.audiences).snapshot()
    return mine, str(theirs)


def test_kuhn_poker_terminal_shows_no_other_seat_card(tmp_path: Path) -> None:
    # Two deals where the person's card is the same and the other seat's card differs.
    seen: dict[str, tuple[int, str]] = {}
    pair = None
    for seed in range(1, 60):
        mine, theirs = _prompts("kuhn_poker", seed)
        if mine in seen and seen[mine][1] != theirs:
            pair = (seen[mine][0], seed)
            break
        seen.setdefault(mine, (seed, theirs))
    assert pair is not None
    outs = []
    for i, seed in enumerate(pair):
        db = tmp_path / f"k{i}.duckdb"
        # The person bets first and has no later decision once the other seat answers.
        done = play(db, "openspiel", "kuhn_poker", "human,random", seed, "Bet\n" + "1\n" * 4)
        assert done.returncode == 0, done.stderr
        outs.append(done.stderr)
        replays(stored(db)[1])
    assert outs[0] == outs[1]
    assert "Played: Bet" in outs[0]


CATTLE_LINES = "pass\nauction\nsell\naccept\n0\n" * 300


@pytest.mark.parametrize(
    ("game", "preset", "agents", "lines"),
    [
        ("cattle-trade", "micro-duel", "human,tracker", CATTLE_LINES),
        ("pact", "quick", "human,truthful", "hello, a fair price?\n50\n" * 100),
        ("gamebench:pit", "quick", "human,random", "1\n" * 400),
        ("gamebench:santorini", "standard", "human,climber", "1\n" * 200),
        ("textarena", "ipd3", "human,ipd-tft,ipd-grim", "[1 cooperate] [2 defect]\n" * 30),
    ],
)
def test_a_whole_game_replays_from_its_log(
    tmp_path: Path, game: str, preset: str, agents: str, lines: str
) -> None:
    db = tmp_path / "g.duckdb"
    done = play(db, game, preset, agents, 5, lines)
    assert done.returncode == 0, done.stderr[-2000:]
    _, events = stored(db)
    assert "human_answer" in tags(events)
    assert "seat_abandoned" not in tags(events)
    replays(events)
    # the person is shown the seat's view, not how a model must format its answer
    for told in ("Respond with JSON", "Action: <"):
        assert told not in done.stderr, told


def test_a_bid_given_as_its_number_asks_for_the_amount(tmp_path: Path) -> None:
    db = tmp_path / "b.duckdb"
    # seed 5: the person sells a cat, then bids on a horse: "1" (bid), then "30"
    lines = "1\n?\n1\n30\n" + CATTLE_LINES
    done = play(db, "cattle-trade", "micro-duel", "human,tracker", 5, lines, columns=132)
    assert done.returncode == 0, done.stderr[-2000:]
    err = done.stderr
    asked = err.index("amount?")
    # the drawn view: the seat's money and the auction in progress, as wide as the terminal
    assert "Your money    90 coins: 50, 10, 10, 10, 10, 0, 0" in err
    assert "Auction: a horse from Player 1; price 0, leading: none" in err
    borders = [ln for ln in err.splitlines() if ln.startswith("╭")]
    assert borders and all(len(ln) == 132 for ln in borders)
    # "?" shows the model's question once, and only then
    assert err.count("Respond with JSON") == 1 and err.index("Respond with JSON") < asked
    assert 'Played: {"kind":"bid","seat":0,"amount":30}' in err[asked:]
    game_id, events = stored(db)
    answers = [e for e in events if tags([e]) == ["human_answer"]]
    assert [(a.stage, a.text, a.error is None) for a in answers[1:3]] == [
        ("ask", "1", False),
        ("follow_up", "30", True),
    ]
    bids = [e for e in events if tags([e]) == ["bid_placed"] and e.seat == 0]
    assert bids and bids[0].amount == 30
    verified(db, game_id)


def test_end_of_input_abandons_the_seat(tmp_path: Path) -> None:
    db = tmp_path / "g.duckdb"
    done = play(db, "openspiel", "tic_tac_toe", "human,random", 3, "1\n")
    assert done.returncode == 4, done.stderr
    assert "abandoned (end of input)" in done.stderr
    _, events = stored(db)
    (left,) = [e for e in events if tags([e]) == ["seat_abandoned"]]
    assert left.reason == "end of input"
    defaults = [e for e in events if tags([e]) == ["action_defaulted"]]
    assert defaults and all(d.reason == "seat abandoned" for d in defaults)
    assert tags(events)[-1] == "game_ended"
    replays(events)


def test_timeout_plays_the_default(tmp_path: Path) -> None:
    db = tmp_path / "g.duckdb"
    args = ["play", "--game", "openspiel", "--preset", "tic_tac_toe", "--agents", "human,random"]
    args += ["--seed", "3", "--db", str(db), "--init", "--human-timeout", "0.3"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli.main", *args],
        cwd=ROOT,
        env=ENV,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        proc.wait(timeout=60)
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
    assert proc.stderr is not None
    err = proc.stderr.read()
    assert proc.returncode == 0, err
    assert "No answer within 0.3 s" in err
    _, events = stored(db)
    defaults = [e for e in events if tags([e]) == ["action_defaulted"]]
    assert defaults and all(d.reason == "no answer within 0.3 s" for d in defaults)
    assert "human_answer" not in tags(events)
    replays(events)


def test_bad_human_timeout_is_one_line(tmp_path: Path) -> None:
    db = tmp_path / "g.duckdb"
    done = play(db, "openspiel", "tic_tac_toe", "human,random", 3, "", "--human-timeout", "0")
    assert done.returncode == 2
    assert "timeout" in done.stderr and "Traceback" not in done.stderr


def test_ctrl_c_abandons_the_seat_and_the_game_is_kept(tmp_path: Path) -> None:
    db = tmp_path / "g.duckdb"
    args = ["play", "--game", "openspiel", "--preset", "tic_tac_toe", "--agents", "human,random"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli.main", *args, "--seed", "3", "--db", str(db), "--init"],
        cwd=ROOT,
        env=ENV,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdin is not None and proc.stderr is not None
    try:
        proc.stdin.write("1\n")
        proc.stdin.flush()
        asked = 0
        for row in proc.stderr:  # the second question: the person is thinking
            asked += row.startswith("Answer with")
            if asked == 2:
                break
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=60)
    finally:
        proc.stdin.close()
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130
    _, events = stored(db)
    (left,) = [e for e in events if tags([e]) == ["seat_abandoned"]]
    assert left.reason == "interrupted"
    assert tags(events)[-1] == "game_ended"
    replays(events)


def test_tournament_stops_when_the_person_leaves_and_resumes(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    args = ["tournament", "--game", "openspiel", "--preset", "tic_tac_toe", "--games", "2"]
    args += ["--agents", "human,random", "--seed", "1", "--name", "t1", "--db", str(db)]
    first = run([*args, "--init"], "1\n")
    assert first.returncode == 4, first.stderr
    with DuckStore(db) as store:
        assert len(store.list_games(tournament="t1")) == 1
    again = run(["tournament", "--resume", "t1", "--db", str(db)], "1\n" * 9)
    assert again.returncode == 0, again.stderr
    assert "1 to play" in again.stdout
    with DuckStore(db) as store:
        assert len(store.list_games(tournament="t1")) == 2
    with DuckStore(db) as store:
        for row in store.list_games(tournament="t1"):
            replays(store.load_events(row.game_id))
