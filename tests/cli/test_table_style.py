"""Every table the commands print (a game's scores, verify, the ratings, the arena,
Cattle Trade's metrics, the frozen pools) is in the one frameless style and fits 80 columns.

The commands run in this process through typer's runner at 80 columns, over a small store.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.cattle.presets import load_preset
from events import catalog
from events.store import DuckStore
from runner.session import play_and_store
from tests.cli.clikit import column, table_lines

MARKED = "random:[b]x[/]"
"""A name rich would read as markup were it not printed as plain text."""
LONG = "random:?" + "x" * 10
"""A second name, long enough to need its whole width."""
FRAME = set("│┃║┏┓┗┛┌┐└┘╭╮╰╯━═┡┩├┤┼╇╋")
"""Characters of a bordered table's frame (the shared style draws only a rule: ─)."""


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """Three Cattle Trade micro-duels and two MindGames games; the first game's id."""
    path = tmp_path_factory.mktemp("table-style") / "t.duckdb"
    with DuckStore(path) as store:
        ids = [
            play_and_store(store, load_preset("micro-duel"), seed, [MARKED, "tracker"])[0]
            for seed in range(3)
        ]
        g, config = catalog.resolve("mindgames:ipd3")
        config = config or g.preset(g.default_preset)
        for seed in range(2):
            play_and_store(store, config, seed, ["ipd-tft", LONG, "ipd-defect"])
    return path, ids[0]


def run(*args: str | Path) -> str:
    """What `cattle ARGS` prints on stdout, run through typer's test runner at 80 columns; it
    must succeed."""
    import cli.main  # noqa: F401  (the app's callback and options)
    from cli.app import app, out

    width = out.width
    out.width = 80
    try:
        done = CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": "80"})
    finally:
        out.width = width
    assert done.exit_code == 0, (done.output, done.exception)
    return done.stdout


def names(text: str, heading: str = "agent") -> set[str]:
    """The names in the first table's left-aligned column `heading` (its first word a row)."""
    header, body = table_lines(text)
    cells = (column(ln, header, heading, None).split() for ln in body)
    return {c[0] for c in cells if c}


def frameless(text: str) -> str:
    """`text` after checking it holds tables in the shared style that fit 80 columns."""
    assert not FRAME & set(text), text
    assert max(len(ln) for ln in text.splitlines()) <= 80, text
    table_lines(text)  # a header over a rule
    return text


def test_play_prints_its_scores_frameless(tmp_path: Path) -> None:
    path = tmp_path / "p.duckdb"
    agents = f"{MARKED},tracker"
    text = frameless(run("play", "--preset", "micro-duel", "--agents", agents, "--db", path))
    assert names(text) == {MARKED, "tracker"}


def test_verify_prints_frameless(db: tuple[Path, str]) -> None:
    path, _ = db
    text = frameless(run("verify", "--all", "--db", path))
    assert text.startswith(f"Verification of {path}\n")
    header, body = table_lines(text.split("How seats were checked")[1])
    listed = " ".join(column(ln, header, "agents", None).strip() for ln in body).split(", ")
    assert listed == [MARKED, "tracker", "ipd-tft", LONG, "ipd-defect"]


@pytest.mark.parametrize("method", ["trueskill", "bt", "glicko2"])
def test_ratings_print_frameless(db: tuple[Path, str], method: str) -> None:
    path, _ = db
    text = frameless(run("ratings", "--game", "cattle-trade", "--method", method, "--db", path))
    assert names(text) == {MARKED, "tracker"}
    if method == "bt":
        # The note under the table wraps at the terminal's width, not at the narrow table's.
        header, _ = table_lines(text)
        note = text.split("\n\n")[1].splitlines()
        assert len(note[0].rstrip()) > len(header.rstrip()) and "pairwise results" in note[0]


def test_arena_prints_frameless(db: tuple[Path, str]) -> None:
    path, _ = db
    text = frameless(run("arena", "--db", path))
    assert names(text) == {"ipd-tft", LONG, "ipd-defect"}


def test_cattle_metrics_split_to_80_columns_repeating_the_names(db: tuple[Path, str]) -> None:
    path, _ = db
    text = frameless(run("metrics", "--resamples", "20", "--db", path))
    parts = text.split("Behaviour profile")[1:]
    assert len(parts) >= 2  # too wide for one table at 80 columns
    labels = ("Buy-right", "Bluff", "Win rate", "Sets/game", "Score")
    for part in parts:
        # A row's second line holds the intervals, under the figures only.
        _, body = table_lines(part)
        assert {ln.split()[0] for ln in body if not ln.startswith(" ")} == {MARKED, "tracker"}
    assert all(any(lab in p for p in parts) for lab in labels)


def test_frozen_pools_list_frameless() -> None:
    frameless(run("arena", "--pool", "list"))


def test_the_games_table_takes_the_whole_width_before_breaking_a_word() -> None:
    """A games table whose natural width is exactly 80 columns (the frameless style parts
    columns by two spaces) keeps every column whole; one column wider breaks a word."""
    from rich.text import Text

    from cli.commands import _word_widths

    row = ["c02cd901b9714104", "cattle-trade", "micro-duel", "finished", "tracker, random"]
    cells = [[Text(c) for c in [*row, "0 / 4,770"]]]
    assert _word_widths(cells, 80) == [None] * 6
    assert _word_widths(cells, 79) != [None] * 6
