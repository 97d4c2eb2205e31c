"""`cattle metrics --game FAMILY` prints rich tables that fit 80 columns, names as written, and
figures that agree with the same figures taken from the store with SQL.

One real process (OpenSpiel); the other families run in this process through typer's runner.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from events import catalog
from events.store import DuckStore
from runner.session import play_and_store
from tests.cli.clikit import cattle

MARKED = "random:[bold red]x[/]"
"""An agent label rich would read as markup were it not printed as plain text."""
PACT_MARKED = "truthful:[b]y[/]"

GAMES: tuple[tuple[str, tuple[str, ...], int], ...] = (
    ("gtbench:tic_tac_toe", (MARKED, "random"), 2),
    ("pact", (PACT_MARKED, "mirror"), 2),
    ("gamebench:santorini", ("climber", "random"), 1),
    ("gamebench:pit", ("cornerer", "random"), 1),
    ("mindgames:ipd3", ("ipd-tft", "ipd-grim", "ipd-defect"), 1),
)
"""(game, agents, games): seats swap from one game to the next where there are two."""


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A few short games of every family (not Cattle Trade, whose table is its own)."""
    path = tmp_path_factory.mktemp("metrics-tables") / "m.duckdb"
    with DuckStore(path) as store:
        for name, agents, n in GAMES:
            g, config = catalog.resolve(name)
            if config is None:
                config = g.preset("quick" if name == "pact" else g.default_preset)
            for seed in range(n):
                seats = list(agents) if seed % 2 == 0 or len(agents) != 2 else agents[::-1]
                play_and_store(store, config, seed, seats)
    return path


@pytest.fixture(scope="module")
def openspiel(db: Path) -> str:
    """What `cattle metrics --game openspiel` prints at 80 columns, from a real process."""
    done = cattle("metrics", "--game", "openspiel", "--resamples", "50", "--db", db,
                  env={"COLUMNS": "80"})  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


def sql(db: Path, query: str) -> list[tuple[object, ...]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(query).fetchall()
    finally:
        con.close()


def in_process(*args: str) -> str:
    """`cattle ARGS` through typer's test runner at 80 columns; it must succeed."""
    import cli.main  # noqa: F401  (the app's callback and options)
    from cli.app import app, out

    width = out.width
    out.width = 80
    try:
        done = CliRunner().invoke(app, list(args))
    finally:
        out.width = width
    assert done.exit_code == 0, (done.output, done.exception)
    return done.output


def tables(text: str) -> dict[str, list[list[str]]]:
    """Every table of the output by title: its heading and rows, cells split where two or
    more spaces part them (a cell's second line, an interval, is a row of its own)."""
    lines = text.splitlines()
    found: dict[str, list[list[str]]] = {}
    for k, ln in enumerate(lines):
        if k >= 2 and set(ln.strip()) == {"─"}:
            title, head = lines[k - 2], lines[k - 1]
            rows = [head]
            for row in lines[k + 1 :]:
                if not row.strip():
                    break
                rows.append(row)
            found[title] = [re.split(r"\s{2,}", r.strip()) for r in rows]
    return found


def cells(text: str, title: str, keys: int) -> dict[tuple[str, ...], dict[str, str]]:
    """The rows of the table `title` (all its parts, when split) by their first `keys` cells,
    each a mapping of heading to cell (interval lines left out)."""
    found: dict[tuple[str, ...], dict[str, str]] = defaultdict(dict)
    parts = [rows for t, rows in tables(text).items() if t.startswith(title)]
    assert parts, title
    for head, *rows in parts:
        for row in rows:
            if len(row) == len(head):
                found[tuple(row[:keys])].update(zip(head, row, strict=True))
    return found


def test_every_line_fits_80_columns_and_names_print_as_written(db: Path, openspiel: str) -> None:
    text = openspiel
    for family in ("pact", "gamebench", "textarena"):
        text += in_process("metrics", "--game", family, "--resamples", "50", "--db", str(db))
    assert max(len(ln) for ln in text.splitlines()) <= 80
    assert MARKED in text and PACT_MARKED in text  # printed, not read as markup
    assert "{" not in text  # no JSON


def test_two_seat_pairs_agree_with_sql(db: Path, openspiel: str) -> None:
    got = cells(openspiel, "NRA per game and opponent", 3)
    shown = {k: (int(c["n"]), float(c["NRA"]), c["W/D/L"]) for k, c in got.items()}
    want: dict[tuple[str, str, str], list[tuple[float, float]]] = defaultdict(list)
    for preset, a0, s0, a1, s1 in sql(
        db,
        "SELECT o.preset, r0.agent, r0.score, r1.agent, r1.score FROM results r0"
        " JOIN results r1 ON r1.game_id = r0.game_id AND r1.seat = 1"
        " JOIN openspiel_games o ON o.game_id = r0.game_id WHERE r0.seat = 0",
    ):
        want[(str(preset), str(a0), str(a1))].append((float(s0), float(s1)))  # type: ignore[arg-type]
        want[(str(preset), str(a1), str(a0))].append((float(s1), float(s0)))  # type: ignore[arg-type]
    assert set(shown) == set(want)
    for key, scores in want.items():
        n, nra, wdl = shown[key]
        mean = sum((a - b) / (abs(a) + abs(b)) if a or b else 0 for a, b in scores) / len(scores)
        wins = sum(a > b for a, b in scores)
        draws = sum(a == b for a, b in scores)
        assert (n, wdl) == (len(scores), f"{wins}/{draws}/{len(scores) - wins - draws}")
        assert nra == pytest.approx(mean, abs=0.005)


def test_pact_games_and_trade_rate_agree_with_sql(db: Path) -> None:
    text = in_process("metrics", "--game", "pact", "--resamples", "50", "--db", str(db))
    got = {k[0]: c for k, c in cells(text, "PACT per agent", 1).items()}
    want = sql(
        db,
        "SELECT r.agent, count(DISTINCT r.game_id), 100 * avg(p.traded::INT) FROM results r"
        " JOIN pact_rounds p USING (game_id) WHERE r.game = 'pact' GROUP BY r.agent",
    )
    assert {a for a, _, _ in want} == set(got) == {PACT_MARKED, "mirror"}
    for agent, games, trade in want:
        assert int(got[str(agent)]["games"]) == games
        assert float(got[str(agent)]["trade %"]) == pytest.approx(trade, abs=0.05)


def test_gamebench_matches_agree_with_sql(db: Path) -> None:
    got = tables(in_process("metrics", "--game", "gamebench", "--resamples", "50", "--db", str(db)))
    head, *rows = got["Matches per agent and game"]
    want = dict(
        sql(
            db,
            "SELECT agent || ' ' || game, count(*) FROM results WHERE game LIKE 'gamebench:%'"
            " GROUP BY ALL",
        )
    )
    short = {"PT": "gamebench:pit", "SN": "gamebench:santorini"}
    seen = 0
    for row in rows:
        agent = row[0]
        for col, cell in zip(head[2:], row[2:], strict=True):
            assert int(cell) == want.get(f"{agent} {short[col]}", 0), (agent, col)
            seen += int(cell)
        assert int(row[1]) == sum(int(c) for c in row[2:])
    assert seen == sum(want.values())


def test_textarena_seats_agree_with_sql(db: Path) -> None:
    got = tables(in_process("metrics", "--game", "textarena", "--db", str(db)))
    head, *rows = got["TrueSkill per game"]
    assert head == ["game", "agent", "mu", "sigma", "games"]
    want = sql(
        db,
        "SELECT t.preset, r.agent, count(*) FROM results r JOIN textarena_games t USING"
        " (game_id) GROUP BY ALL",
    )
    assert {(r[0], r[1]): int(r[4]) for r in rows} == {(g, a): n for g, a, n in want}


def test_each_family_writes_its_tables_once_and_its_lines_are_their_text(db: Path) -> None:
    """The hooks of every family define `metrics_tables` alone; their `metrics_lines` is the
    shared one, the tables printed as plain text at the same width."""
    from cli.common import analysis_hooks
    from projections.metrics import tables as T
    from projections.metrics.aggregate import Selection

    seen = set()
    with DuckStore(db, read_only=True) as store:
        for name, _, _ in GAMES:
            g, _ = catalog.resolve(name)
            hooks = analysis_hooks(g)
            kind = type(hooks.metrics_tables.__self__)  # (PACT's hooks load on first use)
            seen.add(kind)
            assert "metrics_tables" in vars(kind), name
            assert "metrics_lines" not in vars(kind), name
            if name in ("gtbench:tic_tac_toe", "pact"):
                continue  # (the slower analyses: the shared method is checked on the others)
            sel = Selection(game=g.name)
            tables = hooks.metrics_tables(store.con, sel, 10, 60, str)
            lines = hooks.metrics_lines(store.con, sel, 10, 60, str)
            assert lines and lines == T.as_lines(tables, 60), name
    assert len(seen) == 4  # two-seat, PACT, GameBench and MindGames
