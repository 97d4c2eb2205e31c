"""A standing league: killed with SIGKILL and resumed, it ends as an uninterrupted run of the
same file ends; its table is what `cattle ratings` says of its games; every game verifies;
every stored round is chosen again as stored; a newcomer is calibrated first."""

from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from agents.llm.loopback import LegalPolicy, LoopbackServer
from events.league import load_events
from events.store import DuckStore, connect
from projections import league as P
from runner import league as L

ROOT = Path(__file__).resolve().parents[2]
DAY = "2026-12-07"
GAMES = 12


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Fake keys and an empty model config, here and for the command under test."""
    cfg = tmp_path / "llm.toml"
    cfg.write_text("")
    values = {
        "OPENAI_API_KEY": "sk-test-league",
        "CATTLE_LLM_CONFIG": str(cfg),
        "CATTLE_LLM_BACKOFF": "0.001",
        "CATTLE_WRITE_INTERVAL": "0",
        "COLUMNS": "80",
        "NO_COLOR": "1",
    }
    for k, v in values.items():
        monkeypatch.setenv(k, v)
    monkeypatch.delenv("CATTLE_DB", raising=False)
    return {**os.environ, **values}


@pytest.fixture
def server() -> Iterator[LoopbackServer]:
    """Legal moves, a little slowly, so that a kill lands while games are in play."""
    with LoopbackServer(LegalPolicy(), delay=0.004) as s:
        yield s


def league_file(folder: Path, url: str, *, extra: str = "") -> Path:
    """Three games, three code agents and two stand-in models (one of them priced)."""
    path = folder / "league.toml"
    path.write_text(
        f"""
[league]
name = "standing"
seed = 7
round_games = 4
reference = ["bot", "rnd"]

[[games]]
game = "cattle-trade"
preset = "micro-duel"
weight = 1.5

[[games]]
game = "openspiel"
preset = "kuhn_poker"

[[games]]
game = "pact"
preset = "quick"

[[agents]]
name = "rnd"
spec = "random"

[[agents]]
name = "bot"
specs = {{ cattle-trade = "tracker", openspiel = "mcts?simulations=20", pact = "truthful" }}

[[agents]]
name = "bot2"
specs = {{ cattle-trade = "setrace", pact = "anchor" }}

[[agents]]
name = "loop-a"
spec = "openai:loop-a@{url}"
price = [1.0, 2.0]
concurrency = 2

[[agents]]
name = "loop-b"
spec = "openai:loop-b@{url}"
{extra}"""
    )
    return path


def payloads(db: Path) -> tuple[list[str], dict[str, list[str]]]:
    """The league's facts and every finished game's events without model latencies."""
    with DuckStore(db, read_only=True) as store:
        facts = [
            r[0]
            for r in store.con.execute("SELECT payload FROM league_events ORDER BY seq").fetchall()
        ]
        games: dict[str, list[str]] = {}
        rows = store.con.execute(
            "SELECT e.game_id, e.payload FROM events e JOIN games g USING (game_id)"
            " WHERE g.status = 'finished' ORDER BY e.game_id, e.seq"
        ).fetchall()
    for gid, payload in rows:
        doc = json.loads(payload)
        doc.pop("latency_ms", None)
        games.setdefault(gid.split(".r")[0], []).append(json.dumps(doc, sort_keys=True))
    return facts, games


def test_killed_league_resumes_as_if_never_stopped(
    tmp_path: Path, env: dict[str, str], server: LoopbackServer, capsys: pytest.CaptureFixture[str]
) -> None:
    path = league_file(tmp_path, server.openai_url)
    db = tmp_path / "killed.duckdb"
    command = [sys.executable, "-m", "cli.main", "league", str(path), "--db", str(db)]
    command += ["--games", str(GAMES)]

    def run_until(requests: int, sig: signal.Signals) -> subprocess.Popen[str]:
        proc = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        deadline = time.monotonic() + 120
        while len(server.requests) < requests:
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the league never reached its models"
            time.sleep(0.01)
        proc.send_signal(sig)
        return proc

    # Ctrl-C first: the games in play are parked, and the command says how to go on.
    stopped = run_until(15, signal.SIGINT)
    _, said = stopped.communicate(timeout=120)
    assert stopped.returncode == 130, said
    assert "parked" in said and "cattle league" in said
    # Then a kill, mid-game again.
    proc = run_until(30, signal.SIGKILL)
    proc.wait()
    con = connect(str(db), read_only=True, wait=30)
    try:
        before = con.execute("SELECT status, count(*) FROM games GROUP BY ALL").fetchall()
        day = con.execute(
            "SELECT payload->>'day' FROM league_events WHERE type = 'round_chosen' LIMIT 1"
        ).fetchone()
    finally:
        con.close()
    assert day is not None, "killed before the first round was chosen"
    assert dict(before).get("finished", 0) < GAMES, before

    with DuckStore(db) as store:
        stop = L.run(store, path, games=GAMES, day=lambda: day[0])
    assert "holds" in stop.reason
    uninterrupted = tmp_path / "whole.duckdb"
    with DuckStore(uninterrupted) as store:
        L.run(store, path, games=GAMES, day=lambda: day[0])
    # The same choices and the same games, byte for byte (model latencies aside).
    assert payloads(db) == payloads(uninterrupted)

    from cli.tournament import ratings
    from runner.verify import check_stored, jobs, select

    with DuckStore(db, read_only=True) as store:
        state = P.fold(load_events(store.con, "standing"))
        assert state.scheduled == GAMES
        assert L.replay_choices(store, "standing") == []
        table = P.table(store, "standing", state, samples=30)
        ids, missing = select(store, [], "standing", False)
        assert not missing
        checks = [check_stored(store, job) for job in jobs(store, ids)]
        finished = store.con.execute(
            "SELECT count(*) FROM games WHERE tournament = 'standing' AND status = 'finished'"
        ).fetchone()
    assert finished == (GAMES,)
    assert all(c.ok for c in checks if c.status == "finished"), [c for c in checks if not c.ok]
    assert set(table.tables) == {"cattle-trade", "openspiel", "pact", P.OVERALL}
    for game in ("cattle-trade", "openspiel", "pact"):
        for method, samples in (("trueskill", 1000), ("bt", 30)):
            ratings(
                tournament="standing",
                method=method,
                game=game,
                as_json=True,
                db=db,
                bootstrap=samples,
                shuffles=0,
                seed=0,
            )
            said = {r["agent"]: r for r in json.loads(capsys.readouterr().out)}
            rows = {r.seat_agent: r for r in table.tables[game]}
            assert set(said) == set(rows)
            for agent, r in rows.items():
                if method == "trueskill":
                    assert (r.mu, r.sigma) == (said[agent]["mu"], said[agent]["sigma"])
                else:
                    assert (r.bt, r.bt_p5, r.bt_p95) == (
                        said[agent]["mean"],
                        said[agent]["p5"],
                        said[agent]["p95"],
                    )
    overall = {r.agent: r for r in table.tables[P.OVERALL]}
    assert set(overall) == {"rnd", "bot", "bot2", "loop-a", "loop-b"}
    assert overall["loop-a"].cost_per_game is not None and overall["loop-a"].cost_per_game > 0
    assert overall["loop-b"].cost_per_game is None  # no price
    assert overall["loop-a"].fallback_rate is not None


def code_file(folder: Path, agents: str) -> Path:
    path = folder / "code.toml"
    path.write_text(
        f"""
[league]
name = "code"
seed = 3
round_games = 4
reference = ["bot", "bot2"]
calibration = 3

[[games]]
game = "pact"
preset = "quick"

{agents}"""
    )
    return path


BASE = """
[[agents]]
name = "rnd"
spec = "random"

[[agents]]
name = "bot"
spec = "truthful"

[[agents]]
name = "bot2"
spec = "anchor"
"""


def test_newcomer_is_calibrated_against_the_frozen_pool_first(tmp_path: Path) -> None:
    db = tmp_path / "code.duckdb"
    path = code_file(tmp_path, BASE)
    with DuckStore(db) as store:
        L.run(store, path, games=8, day=lambda: DAY)
        code_file(tmp_path, BASE + '\n[[agents]]\nname = "new"\nspec = "mirror"\n')
        L.run(store, path, games=24, day=lambda: DAY)
        state = P.fold(load_events(store.con, "code"))
        path_of = P.calibration_path(store, "code", state, "new")
        table = P.table(store, "code", state, samples=20)
        assert L.replay_choices(store, "code") == []
    opened = state.calibrations["new"]
    assert opened.round == 2 and set(opened.frozen["pact"]) == {"bot", "bot2"}
    mine = [m for r in state.rounds for m in r.matches if "new" in m.lineup]
    # Its first matches are its calibration matches, each against the reference pool.
    assert [m.calibration for m in mine[:3]] == [True] * 3
    assert all(set(m.lineup) - {"new"} <= {"bot", "bot2"} for m in mine[:3])
    assert any(not m.calibration for m in mine[3:])
    # Its interval shrinks with every calibration game (6: three matches, both seats).
    sigmas = [s for _, s in path_of["pact"]]
    assert len(sigmas) == 7
    assert all(b < a for a, b in itertools.pairwise(sigmas))
    row = next(r for r in table.tables["pact"] if r.agent == "new")
    assert row.sigma < 25 / 3


def test_budget_per_day_keeps_a_model_out_until_the_next_day(
    tmp_path: Path, env: dict[str, str]
) -> None:
    with LoopbackServer(LegalPolicy()) as srv:
        agents = (
            BASE
            + f'\n[[agents]]\nname = "m"\nspec = "openai:m@{srv.openai_url}"\ncalls_per_day = 5\n'
        )
        path = code_file(tmp_path, agents)
        db = tmp_path / "b.duckdb"
        with DuckStore(db) as store:
            L.run(store, path, games=12, day=lambda: DAY)
            L.run(store, path, games=16, day=lambda: "2026-12-08")
            state = P.fold(load_events(store.con, "code"))
            spent = L.inputs(store, "code", state, state.scheduled, DAY).spend["m"]
    rounds = [r for r in state.rounds]
    first_day = [r for r in rounds if r.day == DAY]
    with_m = [r.round for r in first_day if any("m" in m.lineup for m in r.matches)]
    assert spent[0] >= 5
    # Once its day's calls are spent it is chosen no more that day, and again the next.
    assert with_m and with_m[-1] < first_day[-1].round
    assert any("m" in m.lineup for r in rounds if r.day == "2026-12-08" for m in r.matches)
