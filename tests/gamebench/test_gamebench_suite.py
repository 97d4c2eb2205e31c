"""GameBench's protocol and analysis: a suite of code agents over every GameBench game of the
catalogue, played and resumed through the real command line, verified offline, and its
Tables 1 and 2, win probabilities and match counts checked against a recomputation from the
stored events; a suite with a model seat on the loopback server; bad input in one line."""

from __future__ import annotations

import html
import json
import math
import re
import signal
import subprocess
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.llm.loopback import Answer, LoopbackServer
from cli.common import analysis_hooks
from engine.schedule import ScheduleError, iter_suite
from events import catalog
from events.store import DuckStore
from projections import bradley_terry
from projections.gamebench.report import (
    HOOKS,
    analyse,
    render_lines,
    section_html,
    short_label,
)
from projections.metrics.aggregate import Selection
from runner.tournament import create_suite, ensure_schema, suite_games
from runner.verify import ScheduledGame, check_game
from tests.cli.clikit import ROOT, cattle
from tests.llm.helpers import seat

SAMPLES = 40
MATCHES = 2


def family() -> list[str]:
    """The GameBench games of the catalogue, whichever they are."""
    return [g.name for g in catalog.family("gamebench")]


# ---------------------------------------------------------------------------- schedule


@settings(max_examples=40, deadline=None)
@given(
    sides=st.lists(st.sampled_from([(0, 1), (0, 0, 1, 1), (0, 0, 0, 1, 1, 1), (1, 0)]), min_size=1,
                   max_size=4),
    agents=st.integers(2, 4),
    matches=st.integers(1, 6),
    seed=st.integers(0, 2**31 - 1),
)  # fmt: skip
def test_every_pairing_plays_every_game_alike(
    sides: list[tuple[int, ...]], agents: int, matches: int, seed: int
) -> None:
    games = [(f"g{k}", s) for k, s in enumerate(sides)]
    pool = tuple(f"a{k}" for k in range(agents))
    plan = list(iter_suite(games, pool, matches, seed))
    assert plan == list(iter_suite(games, pool, matches, seed))  # same seed, same plan
    assert [p.index for p in plan] == list(range(len(plan)))
    pairings = agents * (agents - 1) // 2
    assert Counter(p.game for p in plan) == {g: matches * pairings for g, _ in games}
    by_side: Counter[tuple[str, str, str]] = Counter()
    deals: dict[tuple[str, int], set[tuple[str, ...]]] = defaultdict(set)
    for p in plan:
        layout = dict(games)[p.game]
        first = {a for a, s in zip(p.seats, layout, strict=True) if s == 0}
        second = {a for a, s in zip(p.seats, layout, strict=True) if s == 1}
        # Two agents a match, each holding every seat of its side.
        assert len(first) == len(second) == 1 and first != second
        by_side[(p.game, p.lineup, first.pop())] += 1
        deals[(p.game, p.seed)].add(p.seats)
    if matches % 2 == 0:
        # Each agent of a pairing on each side equally often, each deal from both sides.
        assert len(set(by_side.values())) == 1
        assert all(len(s) == 2 for s in deals.values())


def test_a_suite_refuses_what_it_cannot_seat() -> None:
    with pytest.raises(ScheduleError, match="at least 2"):
        list(iter_suite([("g", (0, 1))], ("a",), 2, 0))
    with pytest.raises(ScheduleError, match="two sides"):
        list(iter_suite([("g", (0, 0, 0))], ("a", "b"), 2, 0))


def test_every_gamebench_game_joins_the_suite() -> None:
    # A GameBench game added to the catalogue must seat two sides and know `heuristic`.
    names = family()
    assert {"gamebench:pit", "gamebench:santorini", "gamebench:hive"} <= set(names)
    games = suite_games("gamebench")
    assert [n for n, _, _ in games] == names
    for name, config, sides in games:
        assert len(sides) == config.players and set(sides) == {0, 1}
        assert "heuristic" in catalog.get(name).code_agents, name


# ---------------------------------------------------------------------------- a suite


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A suite of random against heuristic over every GameBench game, planned here and played
    by `cattle tournament --resume` (which reads each game's configuration back)."""
    db = tmp_path_factory.mktemp("suite") / "suite.duckdb"
    with DuckStore(db, init=True) as store:
        ensure_schema(store)
        create_suite(store, "gb", "gamebench", ("random", "heuristic"), MATCHES, 9,
                     suite_games("gamebench"))  # fmt: skip
    got = cattle("tournament", "--resume", "gb", "--quiet", "--db", db)
    assert got.returncode == 0, got.stderr
    return db


def test_the_suite_plays_every_game_alike_and_verifies(played: Path) -> None:
    with DuckStore(played, read_only=True) as store:
        _, rows = store.query(
            "SELECT game, count(*) FROM games WHERE status = 'finished' GROUP BY game"
        )
    assert dict(rows) == dict.fromkeys(family(), MATCHES)
    checked = cattle("verify", "--tournament", "gb", "--db", played)
    assert checked.returncode == 0, checked.stdout[-2000:]


def test_verify_holds_each_game_to_the_game_scheduled(played: Path) -> None:
    with DuckStore(played, read_only=True) as store:
        _, rows = store.query(
            "SELECT game_id, idx, seed, seats, game FROM tournament_games ORDER BY idx LIMIT 1"
        )
        gid, idx, seed, seats, game = rows[0]
        stored = store.load_rows(gid)
        # The selection of one game of the family holds exactly that game's matches.
        where, params = Selection(game=None, among=(game,)).where()
        _, n = store.query(f"SELECT count(*) FROM games WHERE {where}", params)
    assert n[0][0] == MATCHES
    row = ScheduledGame(tournament="gb", index=idx, seed=seed, seats=seats, game=game)
    assert check_game(stored, [row], rerun=False).ok
    other = next(name for name in family() if name != game)
    bad = check_game(stored, [msgspec.structs.replace(row, game=other)], rerun=False)
    assert bad.problem is not None and f"schedules {other}" in bad.problem.detail


def records_from_events(db: Path) -> list[dict[str, Any]]:
    """One record per finished game, in game-id order, rebuilt from `game_ended` and the seats:
    the two agents (seat 0's first) and their shares of the two sides' scores."""
    with DuckStore(db, read_only=True) as store:
        _, rows = store.query(
            "SELECT g.game, list(s.agent ORDER BY s.seat), any_value(e.payload)"
            " FROM games g JOIN seats s USING (game_id)"
            " JOIN events e ON e.game_id = g.game_id AND e.type = 'game_ended'"
            " WHERE g.status = 'finished' GROUP BY g.game_id, g.game ORDER BY g.game_id"
        )
    out = []
    for game, agents, payload in rows:
        scores = json.loads(payload)["scores"]
        side: dict[str, set[float]] = defaultdict(set)
        for agent, score in zip(agents, scores, strict=True):
            side[agent].add(score)
        assert len(side) == 2 and all(len(s) == 1 for s in side.values())
        a = agents[0]
        (b,) = set(side) - {a}
        sa, sb = side[a].pop(), side[b].pop()
        share = 0.5 if sa + sb <= 0 else sa / (sa + sb)
        out.append({"game": game, a: share, b: 1.0 - share})
    return out


@pytest.fixture(scope="module")
def metrics(played: Path) -> dict[str, Any]:
    got = cattle("metrics", "--game", "gamebench", "--json", "--resamples", str(SAMPLES),
                 "--db", played)  # fmt: skip
    assert got.returncode == 0, got.stderr
    doc: dict[str, Any] = json.loads(got.stdout)
    return doc


def test_tables_match_a_recomputation_from_the_events(
    played: Path, metrics: dict[str, Any]
) -> None:
    records = records_from_events(played)
    games = sorted({r["game"] for r in records})
    assert metrics["games"] == games == sorted(family())
    assert metrics["matches"] == len(records)
    # Table 1: Bradley-Terry over all games (each weighing the same) and per game, drawn
    # from one generator in GameBench's order.
    suite = bradley_terry.rate_suite(records, samples=SAMPLES, seed=0)
    for agent, want in suite.overall.items():
        assert metrics["ratings"][agent]["overall"] == pytest.approx(want, abs=1e-9)
    for g in games:
        for agent, want in suite.per_game[g].items():
            assert metrics["ratings"][agent][g] == pytest.approx(want, abs=1e-9)
    # Table 2: total score in a game / matches there; overall: pooled over every match.
    for agent in ("random", "heuristic"):
        per = {g: [r[agent] for r in records if r["game"] == g] for g in games}
        want = {g: sum(v) / len(v) for g, v in per.items()}
        got = metrics["scores"][agent]
        assert {g: got[g] for g in games} == pytest.approx(want)
        assert got["overall"] == pytest.approx(sum(r[agent] for r in records) / len(records))
        assert metrics["agent_matches"][agent] == {"overall": len(records)} | dict.fromkeys(
            games, MATCHES
        )
    # Win probability from the overall ratings.
    beta = {a: metrics["ratings"][a]["overall"]["mean"] for a in ("random", "heuristic")}
    p = metrics["win_probability"]["heuristic"]["random"]
    assert p == pytest.approx(1 / (1 + math.exp(beta["random"] - beta["heuristic"])))
    assert p + metrics["win_probability"]["random"]["heuristic"] == pytest.approx(1)
    assert metrics["agents"] == ["heuristic", "random"]  # the heuristics beat random
    # `cattle ratings --method bt` over the family gives Table 1's overall column.
    rated = cattle("ratings", "--game", "gamebench", "--method", "bt", "--bootstrap",
                   str(SAMPLES), "--json", "--db", played)  # fmt: skip
    assert rated.returncode == 0, rated.stderr
    for row in json.loads(rated.stdout):
        got = metrics["ratings"][row["agent"]]["overall"]
        assert got == pytest.approx({k: row[k] for k in ("point", "mean", "p5", "p95")})


def test_terminal_tables_fit_80_columns(played: Path) -> None:
    got = cattle("metrics", "--game", "gamebench", "--resamples", "20", "--db", played,
                 env={"COLUMNS": "80"})  # fmt: skip
    assert got.returncode == 0, got.stderr
    lines = got.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    for title in ("Table 1", "Table 2", "Win probability", "Matches per agent"):
        assert any(line.startswith(title) for line in lines), title


@pytest.mark.parametrize("width", [60, 80, 120])
def test_nine_games_split_into_tables_that_fit(width: int) -> None:
    # GameBench's nine games and a long agent name: the game columns are shared out over
    # as many tables as needed, each repeating the agent names whole.
    names = ["air_land_sea", "arctic_scavengers", "are_you_the_traitor", "codenames", "hive",
             "pit", "santorini", "sea_battle", "two_rooms_and_a_boom"]  # fmt: skip
    long = "openai:gpt-4o-mini"
    records = [
        {"game": f"gamebench:{n}", long: s, "random": 1 - s}
        for k, n in enumerate(names)
        for s in (0.25 + 0.05 * k, 0.9)
    ]
    lines = render_lines(analyse(records, 20), width=width)
    assert max(len(line) for line in lines) <= width
    table1 = [line for line in lines if line.startswith("Table 1: rating")]
    assert (len(table1) == 1) == (width >= 120)
    heads = " ".join(lines)
    assert all(short_label(f"gamebench:{n}") in heads for n in names)
    # Table 1's parts, its whiskers' rows, Table 2's parts, ...: the name whole in each.
    assert sum(line.lstrip().startswith(long) for line in lines) >= 10 + 2 * len(table1)


def test_agents_that_never_met_get_no_win_probability() -> None:
    """Two pairs that never met, not even through a third agent: the regularisation alone
    places one pair against the other, so no win probability is given across them and the
    tables say that the agents form separate groups."""
    records = [
        {"game": "gamebench:pit", "a": 0.8, "b": 0.2},
        {"game": "gamebench:pit", "a": 0.7, "b": 0.3},
        {"game": "gamebench:hive", "c": 1.0, "d": 0.0},
        {"game": "gamebench:hive", "c": 0.0, "d": 1.0},
    ]
    a = analyse(records, 20)
    assert sorted(map(sorted, a.groups)) == [["a", "b"], ["c", "d"]]
    assert a.win["a"]["b"] > 0.5 and a.win["a"]["c"] is None and a.win["d"]["b"] is None
    lines = "\n".join(render_lines(a))
    assert "never met" in lines and "{a, b}" in lines.replace("{b, a}", "{a, b}")
    assert "never met" in section_html(a)
    joined = analyse([*records, {"game": "gamebench:pit", "b": 1.0, "c": 0.0}], 20)
    assert len(joined.groups) == 1 and joined.win["a"]["d"] is not None
    assert "never met" not in "\n".join(render_lines(joined))


def test_agent_names_are_data_in_the_page() -> None:
    hostile = '<b onmouseover="alert(1)">x</b>'
    records = [
        {"game": "gamebench:pit", hostile: 0.7, "$_a^2$": 0.3},
        {"game": "gamebench:hive", hostile: 0.0, "$_a^2$": 1.0},
        {"game": "gamebench:hive", hostile: 1.0, "$_a^2$": 0.0},
    ]
    page = section_html(analyse(records, 20))  # the figures draw the names as plain text
    assert hostile not in page and html.escape(hostile) in page
    assert page.count("<img") == 3 + 2  # and one Appendix L figure per game


def test_report_of_the_family_and_of_one_game(played: Path, tmp_path: Path) -> None:
    page = tmp_path / "gb.html"
    got = cattle("report", "--game", "gamebench", "--resamples", "20", "--out", page,
                 "--db", played)  # fmt: skip
    assert got.returncode == 0, got.stderr
    text = page.read_text()
    for part in ("fig-gb-ratings", "fig-gb-boxplot", "fig-gb-winprob", 'id="gb-ratings"',
                 'id="gb-scores"', 'id="gb-winprob"', 'id="gb-matches"'):  # fmt: skip
        assert part in text, part
    for k in range(len(family())):  # Appendix L: every game its own four panels
        assert f'id="fig-gb-l-{k}"' in text
    # One game of the family gets the family's analysis, over that game alone.
    hooks = analysis_hooks(catalog.get("gamebench:pit"))
    assert hooks is HOOKS
    with DuckStore(played, read_only=True) as store:
        one, stats = hooks.report(store.con, Selection(game="gamebench:pit"), "Pit", 20)
    assert stats.games == MATCHES and "1 game(s)" in one and "fig-gb-boxplot" in one


def one_error_line(got: subprocess.CompletedProcess[str], says: str, *more: str) -> None:
    """Exit 2 and one error message (the terminal may wrap it), no traceback."""
    assert got.returncode == 2, (got.stdout, got.stderr)
    assert "Traceback" not in got.stderr + got.stdout
    text = " ".join(got.stderr.split())
    assert text.startswith("error:") and text.count("error:") == 1, got.stderr
    for phrase in (says, *more):
        assert phrase in text, (phrase, text)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("--agents", "random,cornerer"), "unknown agent 'cornerer' for gamebench:"),
        (("--agents", "random,heuristic", "--only", "chess"), "gamebench has no game 'chess'"),
        (("--agents", "random,heuristic", "--only", " , "), "--only names no game"),
    ],
)
def test_bad_suite_input_is_one_line(tmp_path: Path, args: tuple[str, ...], says: str) -> None:
    db = tmp_path / "bad.duckdb"
    got = cattle("tournament", "--game", "gamebench", *args, "--games", "2", "--db", db)
    one_error_line(got, says)
    assert not db.exists()


@pytest.mark.parametrize("after", [0.0, 0.05, 0.4])
def test_an_interrupted_suite_says_how_to_finish_it(tmp_path: Path, after: float) -> None:
    """Ctrl-C (a real SIGINT, as from a terminal) stops the suite with exit code 130 and one
    line that tells how to finish it, whatever the suite was doing when it came: reading its
    schedule back, starting its workers, playing. The signal goes once the plan is printed
    (the schedule is stored then), and `after` seconds later to land elsewhere; the line
    does not depend on where it lands."""
    db = tmp_path / "cut.duckdb"
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "tournament", "--game", "gamebench", "--agents",
         "random,heuristic", "--games", "3000", "--seed", "4", "--quiet", "--db", str(db)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    assert proc.stdout is not None
    heard = ""
    while (
        "worker." not in heard and "workers." not in heard
    ):  # the plan is printed once the schedule is stored
        line = proc.stdout.readline()
        assert line, proc.communicate(timeout=60)
        heard += line
    time.sleep(after)
    proc.send_signal(signal.SIGINT)
    _, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130, stderr
    text = " ".join(stderr.split())
    assert "Traceback" not in text
    name = re.search(r"Tournament (\S+):", heard)
    assert name is not None and "-4-" not in name.group(1), heard  # no seed in the name
    assert f"cattle tournament --resume {name.group(1)} --db {db}" in text, text


_INTERRUPT_ON_IMPORT = """
import os, signal, sys

module, db = sys.argv[1:3]

class Interrupt:
    # Ctrl-C arrives while the program imports `module`: before any command began.
    def find_spec(self, name, path=None, target=None):
        if name == module:
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signal.SIGINT)
        return None

sys.meta_path.insert(0, Interrupt())
sys.argv[1:] = ["tournament", "--game", "gamebench", "--agents", "random,heuristic", "--db", db]
import runpy
runpy.run_module("cli.main", run_name="__main__")
"""


def _as_typed() -> None:
    """Ctrl-C reaches the child as it reaches a command typed in a terminal, whatever this
    test process inherited or holds (an ignored or blocked SIGINT passes to a child, which then
    never sees the signal and runs to its end)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@pytest.mark.parametrize("module", ["typer", "rich.console", "cli.text"])
def test_ctrl_c_while_the_program_loads_is_one_line(tmp_path: Path, module: str) -> None:
    db = tmp_path / "never.duckdb"
    got = subprocess.run(
        [sys.executable, "-c", _INTERRUPT_ON_IMPORT, module, str(db)],
        cwd=ROOT, capture_output=True, text=True, timeout=120, preexec_fn=_as_typed,
    )  # fmt: skip
    assert got.returncode == 130, got.stderr
    assert got.stderr == "interrupted while starting; nothing was done\n"
    assert not db.exists()


def test_bad_family_name_is_one_line(played: Path) -> None:
    got = cattle("metrics", "--game", "gamebenc", "--db", played)
    one_error_line(got, "unknown game 'gamebenc'", "families (report, metrics, tournament)")


# ---------------------------------------------------------------------------- a model seat


@pytest.fixture
def loop() -> Iterator[LoopbackServer]:
    """A model whose answers are never a legal action: every decision falls back."""
    with LoopbackServer(lambda req: Answer(text="Action: wait and see")) as srv:
        yield srv


def test_a_model_seat_plays_the_suite_and_verifies_offline(
    tmp_path: Path, loop: LoopbackServer
) -> None:
    cfg = tmp_path / "llm.toml"
    cfg.write_text("")
    env = {"OPENAI_API_KEY": "sk-test-suite", "CATTLE_LLM_BACKOFF": "0.001",
           "CATTLE_LLM_CONFIG": str(cfg)}  # fmt: skip
    db = tmp_path / "model.duckdb"
    spec = seat(loop, "openai")
    got = cattle("tournament", "--game", "gamebench", "--only", "codenames", "--agents",
                 f"random,{spec}", "--games", "1", "--seed", "4", "--name", "m", "--quiet",
                 "--db", db, env=env)  # fmt: skip
    assert got.returncode == 0, got.stderr
    assert loop.requests
    with DuckStore(db, read_only=True) as store:
        _, rows = store.query("SELECT game, count(*) FROM games GROUP BY game ORDER BY game")
        _, calls = store.query("SELECT count(*) FROM llm_calls")
    assert rows == [("gamebench:codenames", 1)] and calls[0][0] > 0
    loop.stop()
    checked = cattle("verify", "--all", "--db", db, env=env)
    assert checked.returncode == 0, checked.stdout[-2000:]
