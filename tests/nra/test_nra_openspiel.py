"""NRA on real OpenSpiel games (pyspiel), played as GTBench plays them.

MCTS against random in tic-tac-toe and connect four, each side first in half the matches,
through `cattle tournament` and `cattle metrics`; and the completion rate of a model seat on
the loopback server that now and then names a move that is not legal (its retry too).
"""

from __future__ import annotations

import html
import json
import zlib
from collections import Counter
from pathlib import Path

import pytest

from agents.llm.loopback import Answer, Incoming, LegalPolicy, LoopbackServer
from events.store import DuckStore
from tests.cli.clikit import cattle
from tests.nra import nra_oracle as O

MCTS = "mcts?simulations=200"
MATCHES = 12
"""Matches per game; MCTS is first in six of them."""


@pytest.fixture(scope="module")
def board_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("os") / "boards.duckdb"
    for game in ("tic_tac_toe", "connect_four"):
        got = cattle("tournament", "--game", f"gtbench:{game}", "--format", "round-robin",
                     "--agents", f"{MCTS},random", "--games", str(MATCHES), "--seed", "7",
                     "--name", game, "--quiet", "--db", db)  # fmt: skip
        assert got.returncode == 0, got.stderr
    # A game with chance (cards are dealt): GTBench shows such games in a figure of their own.
    got = cattle("tournament", "--game", "gtbench:kuhn_poker", "--format", "round-robin",
                 "--agents", "mcts?simulations=20,random", "--games", "4", "--seed", "7",
                 "--name", "kuhn", "--quiet", "--db", db)  # fmt: skip
    assert got.returncode == 0, got.stderr
    return db


def test_mcts_beats_random_by_more_than_point_eight(board_db: Path) -> None:
    got = cattle("metrics", "--game", "openspiel", "--json", "--resamples", "200", "--db", board_db)
    assert got.returncode == 0, got.stderr
    doc = json.loads(got.stdout)
    pairs = {(p["game"], p["agent"], p["opponent"]): p for p in doc["pairs"]}
    for game in ("tic_tac_toe", "connect_four"):
        p = pairs[(game, MCTS, "random")]
        assert p["matches"] == MATCHES and p["first"] == MATCHES // 2
        assert p["nra"]["value"] > 0.8, p
        assert p["wins"] >= 0.9 * MATCHES
        assert pairs[(game, "random", MCTS)]["nra"]["value"] == -p["nra"]["value"]
    # The labels are the GTBench names; the oracle reads the same matches from the log.
    want = O.pair_means(O.read(board_db, "openspiel"))
    assert {k[0] for k in want} == {"tic_tac_toe", "connect_four", "kuhn_poker"}
    assert doc["games_with_chance"] == ["kuhn_poker"]
    for key, (mean, n, wdl) in want.items():
        p = pairs[key]
        assert p["matches"] == n and f"{p['wins']}/{p['draws']}/{p['losses']}" == wdl
        assert p["nra"]["value"] == pytest.approx(mean)


def test_a_gtbench_name_selects_its_own_games(board_db: Path) -> None:
    got = cattle("metrics", "--game", "gtbench:connect_four", "--resamples", "100",
                 "--db", board_db, env={"COLUMNS": "80"})  # fmt: skip
    assert got.returncode == 0, got.stderr
    assert "connect_four" in got.stdout and "tic_tac_toe" not in got.stdout
    assert max(len(line) for line in got.stdout.splitlines()) <= 80
    none = cattle("metrics", "--game", "gtbench:nim", "--db", board_db)
    assert none.returncode == 0 and "No finished openspiel (nim) games" in none.stdout


def test_the_report_shows_games_with_chance_apart(board_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "gtbench.html"
    got = cattle("report", "--game", "openspiel", "--resamples", "100", "-o", out,
                 "--db", board_db)  # fmt: skip
    assert got.returncode == 0, got.stderr
    page = html.unescape(out.read_text())
    for fig in ("fig-nra-games", "fig-nra-games-chance", "fig-nra-matrix", "fig-nra-completion"):
        assert f'id="{fig}-img"' in page, fig
    assert "without chance (as GTBench's Fig. 2)" in page
    assert "with chance (as GTBench's Fig. 3)" in page


class Illegal:
    """Legal moves, except for prompts whose CRC-32 falls in one residue class: there it names
    a square that is on no board, on the first ask and on the retry alike."""

    def __init__(self, every: int) -> None:
        self.base = LegalPolicy(seed=5)
        self.every = every
        self.spoiled = 0

    def __call__(self, req: Incoming) -> Answer:
        if zlib.crc32(req.prompt.encode()) % self.every == 0:
            self.spoiled += 1
            return Answer(text="Action: x(7,7)")
        return self.base(req)


def test_completion_rate_of_a_model_that_sometimes_plays_illegal_moves(tmp_path: Path) -> None:
    db = tmp_path / "illegal.duckdb"
    cfg = tmp_path / "llm.toml"
    cfg.write_text("")
    env = {"OPENAI_API_KEY": "sk-test-nra", "CATTLE_LLM_CONFIG": str(cfg),
           "CATTLE_LLM_BACKOFF": "0.001"}  # fmt: skip
    policy = Illegal(every=6)
    with LoopbackServer(policy) as srv:
        model = f"openai:loop@{srv.openai_url}"
        got = cattle("tournament", "--game", "gtbench:tic_tac_toe", "--format", "round-robin",
                     "--agents", f"{model},random", "--games", "10", "--seed", "3",
                     "--workers", "5", "--name", "illegal", "--quiet", "--db", db,
                     env=env)  # fmt: skip
        assert got.returncode == 0, got.stderr
    assert policy.spoiled > 0
    doc = json.loads(cattle("metrics", "--game", "openspiel", "--json", "--db", db).stdout)
    rates = {
        r["agent"]: r["completion_rate"]["value"]
        for r in doc["agents_by_game"]
        if r["game"] == "tic_tac_toe"
    }
    with DuckStore(db, read_only=True) as store:
        _, rows = store.query("SELECT seat, game_id FROM openspiel_fallbacks")
        _, seats = store.query(
            "SELECT game_id, seat FROM results WHERE agent = 'openai:loop' ORDER BY game_id"
        )
    spoiled = {(g, s) for s, g in rows}
    model_seats = [(g, s) for g, s in seats]
    clean = sum((g, s) not in spoiled for g, s in model_seats)
    assert rates["openai:loop"] == pytest.approx(clean / len(model_seats))
    assert 0 < rates["openai:loop"] < 1, rates  # some matches had a fallback, not all
    assert rates["random"] == 1.0
    # The plain-Python reading of the log agrees (a model default is an action_defaulted).
    matches = O.read(db, "openspiel")
    assert O.completion(matches)[("tic_tac_toe", "openai:loop")] == pytest.approx(
        rates["openai:loop"]
    )
    assert Counter(m.agents[0] for m in matches)["openai:loop"] == 5  # first in half of 10
