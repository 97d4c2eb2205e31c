"""Output for people: end reasons in words, plurals, and seats filled as `--agents` says."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cli.common import UsageError, _agents, end_words, plural
from events import catalog
from events.store import DuckStore
from runner.session import play_and_store

GAMEBENCH = [n for n in catalog.names() if n.startswith("gamebench:")]


@pytest.mark.parametrize("name", [*GAMEBENCH, "cattle-trade", "pact", "gtbench:nim"])
def test_a_finished_game_says_in_words_how_it_ended(tmp_path: Path, name: str) -> None:
    """The stored end reason stays the identifier; what a person reads is a sentence."""
    g, carried = catalog.resolve(name)
    config = carried if carried is not None else g.preset(g.default_preset)
    with DuckStore(tmp_path / "w.duckdb") as store:
        _, record = play_and_store(store, config, 1, ["random"] * config.players)
    reason = record.result.reason
    words = end_words(catalog.for_config(config), reason)
    assert reason.isidentifier() and words != reason
    assert " " in words and "_" not in words


def test_plurals() -> None:
    assert plural(1, "card") == "1 card"
    assert plural(2, "donkey") == "2 donkeys"
    assert plural(0, "event") == "0 events"
    assert plural(1_924, "event") == "1,924 events"
    assert plural(3, "match", "matches") == "3 matches"


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 6), data=st.data())
def test_agents_fill_every_seat_and_counts_add_up(players: int, data: st.DataObject) -> None:
    assert _agents("tracker", players) == ["tracker"] * players
    first = data.draw(st.integers(1, players - 1))
    got = _agents(f"a*{first},b*{players - first}", players)
    assert got == ["a"] * first + ["b"] * (players - first)
    mixed = _agents(f"a*{first}," + ",".join(["c"] * (players - first)), players)
    assert mixed == ["a"] * first + ["c"] * (players - first)
    with pytest.raises(UsageError):
        _agents(f"a*{first}", players)  # counts that do not fill the table
    with pytest.raises(UsageError):
        _agents(f"a*{players + 1}", players)


def test_the_games_list_writes_seats_as_agents_takes_them_and_rounds_shares() -> None:
    from cli.common import score_text, seat_list

    assert seat_list(["heuristic"] * 3 + ["random"] * 3) == "heuristic*3, random*3"
    assert seat_list(["a", "b", "a"]) == "a, b, a"
    assert score_text(0.5252525252525253) == "0.53"
    assert score_text(4770.0) == "4,770" and score_text(-1) == "-1"


def test_a_mistyped_name_gets_the_name_it_stands_for() -> None:
    from events.suggest import did_you_mean, nearest

    games = catalog.names()
    assert nearest("Pact", games) == "pact"
    assert nearest("santorini", games) == "gamebench:santorini"
    assert nearest("gamebench:santorin", games) == "gamebench:santorini"
    assert nearest("tictactoe", ["tic_tac_toe", "nim"]) == "tic_tac_toe"
    assert nearest("micro", ["marathon", "micro-duel", "standard"]) == "micro-duel"
    assert nearest("trakcer", ["tracker", "setrace", "random"]) == "tracker"
    assert nearest("xyz", games) is None and did_you_mean("xyz", games) == ""
    assert did_you_mean("pact", games) == ""  # a known name needs no suggestion


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_a_known_name_typed_with_other_case_or_separators_is_found(data: st.DataObject) -> None:
    from events.suggest import nearest

    names = catalog.names()
    name = data.draw(st.sampled_from(names))
    typed = "".join(
        data.draw(st.sampled_from([ch.upper(), ch.lower(), ch + "-"])) if ch.isalnum() else "_"
        for ch in name
    )
    assert nearest(typed, names) == name


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("play", "--game", "Pact"), "did you mean 'pact'?"),
        (("play", "--game", "gtbench:tictactoe"), "did you mean 'tic_tac_toe'?"),
        (("play", "--preset", "micro"), "did you mean 'micro-duel'?"),
        (("play", "--agents", "trakcer"), "did you mean 'tracker'?"),
        (("play", "--game", "pact", "--preset", "quik"), "did you mean 'quick'?"),
    ],
)
def test_typos_in_play_are_answered_with_the_name_meant(
    args: tuple[str, ...], said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    err = _run(capsys, *args, "--db", str(tmp_path / "t.duckdb"))
    assert said in err


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """`cattle ARGS` in this process through the real entry point; what it wrote to stderr."""
    import sys

    from cli.main import run

    argv = sys.argv
    sys.argv = ["cattle", *args]
    try:
        with pytest.raises(SystemExit) as stop:
            run()
    finally:
        sys.argv = argv
    assert stop.value.code != 0
    return capsys.readouterr().err


def test_an_unknown_game_id_says_where_the_ids_are(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "ids.duckdb"
    with DuckStore(db):
        pass
    err = _run(capsys, "show", "GAME_ID", "--db", str(db))
    assert "no game 'GAME_ID'" in err
    assert f"cattle games --db {db}" in err.replace("\n", "")


def test_a_game_end_counts_one_set_as_one_set() -> None:
    from events.cattle import game as ev
    from projections.cattle.timeline import describe

    end = ev.GameEnded(
        reason="complete", turns=9, scores=(40, 900), ranks=(2, 1), sets=(("cow",), ("cat", "dog"))
    )
    text = describe(end)
    assert "(1 set, rank 2)" in text and "(2 sets, rank 1)" in text


def test_gtbench_alone_reaches_openspiel_as_mindgames_reaches_textarena() -> None:
    assert catalog.get("gtbench").name == catalog.get("openspiel").name
    assert catalog.get("mindgames").name == catalog.get("textarena").name
    with pytest.raises(catalog.UnknownGame, match="textarena-open:NAME"):
        catalog.get("textarena-open")


@pytest.mark.parametrize("width", [80, 100])
def test_the_games_list_breaks_game_names_only_after_a_separator(width: int) -> None:
    import io
    from types import SimpleNamespace

    from rich.console import Console

    from cli.commands import _games_table

    rows = []
    for k, (name, status) in enumerate(
        [
            ("cattle-trade", "finished"),
            ("gamebench:santorini", "finished"),
            ("gamebench:are_you_the_traitor", "running"),
            ("gtbench:tic_tac_toe", "finished"),
        ]
    ):
        g, carried = catalog.resolve(name)
        config = carried if carried is not None else g.preset(g.default_preset)
        rows.append(
            SimpleNamespace(
                game_id=f"{k:016x}",
                game=g.name,
                config=config,
                status=status,
                tournament="pit",
                seats=[SimpleNamespace(agent=a) for a in ("cornerer", "random")],
            )
        )
    buf = io.StringIO()
    Console(file=buf, width=width, color_system=None).print(
        _games_table(rows, rows, {}, Path("data/cattle.duckdb"), width=width)
    )
    from clikit import column, table_lines

    header, body = table_lines(buf.getvalue())
    cells: list[list[str]] = []
    for ln in body:
        if column(ln, header, "game id", " game ").strip():
            cells.append([])
        cells[-1].append(column(ln, header, " game ", " preset").strip())
    assert len(cells) == len(rows)
    for row, lines in zip(rows, cells, strict=True):
        lines = [x for x in lines if x]
        assert "".join(lines) == row.game
        assert all(x.endswith((":", "-", "_")) for x in lines[:-1]), lines
    assert max(len(ln) for ln in buf.getvalue().splitlines()) <= width


def test_the_command_line_tables_share_the_metric_tables_style() -> None:
    from cli.text import TABLE_STYLE
    from projections.metrics.tables import STYLE

    assert TABLE_STYLE == STYLE
