"""Ratings of stored games: pairwise records from ranks, and `cattle ratings --method`."""

from __future__ import annotations

import json
import subprocess
from itertools import combinations
from pathlib import Path

import duckdb
import pytest
from hypothesis import given
from hypothesis import strategies as st

from projections import bradley_terry, glicko2
from projections.ratings import match_records
from tests.cli.clikit import cattle, cells, table_lines

NARROW = {"COLUMNS": "80"}
MARKUP = "anchor:[bold red]x[/]"


def test_two_seats_win_loss_draw() -> None:
    rows = [
        ("g1", "pact", 0, "a", 1), ("g1", "pact", 1, "b", 2),
        ("g2", "pact", 0, "b", 1), ("g2", "pact", 1, "a", 1),
        ("g3", "pact", 0, "a", 2), ("g3", "pact", 1, "b", 1),
    ]  # fmt: skip
    assert match_records(rows) == [
        {"game": "pact", "a": 1.0, "b": 0.0},
        {"game": "pact", "b": 0.5, "a": 0.5},
        {"game": "pact", "a": 0.0, "b": 1.0},
    ]


def test_more_seats_give_one_record_per_pair_of_agents() -> None:
    # Four seats, two of them one agent's; teammates (seats 1 and 3) share rank 2.
    rows = [
        ("g", "x", 0, "a", 1), ("g", "x", 1, "b", 2),
        ("g", "x", 2, "a", 3), ("g", "x", 3, "c", 2),
    ]  # fmt: skip
    assert match_records(rows) == [
        {"game": "x", "a": 1.0, "b": 0.0},
        {"game": "x", "a": 1.0, "c": 0.0},
        {"game": "x", "b": 1.0, "a": 0.0},
        {"game": "x", "b": 0.5, "c": 0.5},
        {"game": "x", "a": 0.0, "c": 1.0},
    ]


@given(st.lists(st.tuples(st.sampled_from("abcd"), st.integers(1, 4)), min_size=1, max_size=5))
def test_records_agree_with_ranks(seats: list[tuple[str, int]]) -> None:
    rows = [("g", "x", k, agent, rank) for k, (agent, rank) in enumerate(seats)]
    records = match_records(rows)
    expected = [(a, b) for (a, _), (b, _) in combinations(seats, 2) if a != b]
    assert len(records) == len(expected)
    for record, ((a, ra), (b, rb)) in zip(
        records, [p for p in combinations(seats, 2) if p[0][0] != p[1][0]], strict=True
    ):
        assert record[a] + record[b] == 1.0  # type: ignore[operator]
        assert (record[a] > record[b]) == (ra < rb)  # type: ignore[operator]
        assert (record[a] == record[b]) == (ra == rb)


def ok(got: subprocess.CompletedProcess[str], *, width: int = 80) -> str:
    assert got.returncode == 0, (got.args, got.stdout[-2000:], got.stderr[-2000:])
    assert "Traceback" not in got.stderr and "\x1b" not in got.stdout
    widest = max((len(line) for line in got.stdout.splitlines()), default=0)
    assert widest <= width, (got.args, widest)
    return got.stdout


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A PACT tournament (one agent named like markup) and a Cattle Trade one."""
    db = tmp_path_factory.mktemp("bt") / "g.duckdb"
    for args in (
        ("--game", "pact", "--preset", "quick", "--format", "round-robin",
         "--agents", f"{MARKUP},mirror,truthful,random", "--games", "12", "--name", "haggle"),
        ("--preset", "micro-duel", "--format", "round-robin", "--agents",
         "tracker,random,setrace", "--games", "6", "--name", "herd"),
    ):  # fmt: skip
        got = cattle("tournament", *args, "--seed", "3", "--quiet", "--db", db)
        assert got.returncode == 0, got.stderr
    return db


def _by_hand(db: Path, game: str | None = None) -> list[dict[str, object]]:
    """Records straight from the stored rows: each game's seats and its game_ended ranks."""
    con = duckdb.connect(str(db), read_only=True)
    ranks = dict(
        con.sql("SELECT game_id, payload FROM events WHERE type = 'game_ended'").fetchall()
    )
    games = con.sql(
        "SELECT game_id, game FROM games WHERE status = 'finished' ORDER BY game_id"
    ).fetchall()
    seats: dict[str, list[str]] = {}
    for gid, _, agent in con.sql("SELECT game_id, seat, agent FROM seats ORDER BY 1, 2").fetchall():
        seats.setdefault(gid, []).append(agent)
    con.close()
    out: list[dict[str, object]] = []
    for gid, name in games:
        if game is not None and name != game:
            continue
        r = json.loads(ranks[gid])["ranks"]
        for i, j in combinations(range(len(r)), 2):
            a, b = seats[gid][i], seats[gid][j]
            if a != b:
                s = 0.5 if r[i] == r[j] else float(r[i] < r[j])
                out.append({"game": name, a: s, b: 1 - s})
    return out


def test_bt_over_a_mixed_store_asks_which_kind(mixed: Path) -> None:
    pooled = cattle("ratings", "--method", "bt", "--bootstrap", "200", "--db", mixed)
    assert pooled.returncode == 2 and "Traceback" not in pooled.stderr
    assert "pick one with --game (cattle-trade, pact)" in " ".join(pooled.stderr.split())
    text = ok(cattle("ratings", "--method", "bt", "--bootstrap", "200", "--game", "pact",
                     "--db", mixed, env=NARROW))  # fmt: skip
    assert "Bradley-Terry ratings over 12 games" in text
    _, body = table_lines(text)
    names = "".join(cells(ln)[0] for ln in body)
    assert "".join(MARKUP.split()) in "".join(names.split())
    got = json.loads(
        cattle("ratings", "--method", "bt", "--bootstrap", "200", "--seed", "5", "--json",
               "--game", "pact", "--db", mixed).stdout
    )  # fmt: skip
    want = bradley_terry.rate(_by_hand(mixed, "pact"), samples=200, seed=5)
    assert {r["agent"] for r in got} == set(want)
    for r in got:
        for key in ("point", "mean", "p5", "p95"):
            assert r[key] == pytest.approx(want[r["agent"]][key], abs=1e-12)
    assert [r["mean"] for r in got] == sorted((r["mean"] for r in got), reverse=True)


def test_bt_of_one_game_and_tournament(mixed: Path) -> None:
    got = json.loads(
        cattle("ratings", "--method", "bt", "--game", "pact", "--tournament", "haggle",
               "--bootstrap", "50", "--json", "--db", mixed).stdout
    )  # fmt: skip
    want = bradley_terry.rate(_by_hand(mixed, "pact"), samples=50, seed=0)
    assert {r["agent"]: r["mean"] for r in got} == pytest.approx(
        {a: r["mean"] for a, r in want.items()}, abs=1e-12
    )


def test_glicko2_over_stored_pairs(mixed: Path) -> None:
    text = ok(cattle("ratings", "--method", "glicko2", "--game", "pact", "--db", mixed,
                     env=NARROW))  # fmt: skip
    assert "Glicko-2 ratings over 12 games" in text
    got = json.loads(
        cattle("ratings", "--method", "glicko2", "--game", "pact", "--json", "--db", mixed).stdout
    )
    matches = []
    for record in _by_hand(mixed, "pact"):
        (a, sa), (b, _) = [(k, v) for k, v in record.items() if k != "game"]
        matches.append(glicko2.Match(a, b, float(sa)))  # type: ignore[arg-type]
    want = glicko2.rate_matches(matches)
    assert {r["agent"]: r["rating"] for r in got} == pytest.approx(
        {a: r.rating for a, r in want.items()}
    )
    assert sum(r["wins"] for r in got) == sum(r["losses"] for r in got)


def test_trueskill_is_still_the_default(mixed: Path) -> None:
    plain = cattle("ratings", "--game", "pact", "--json", "--db", mixed).stdout
    named = cattle("ratings", "--method", "trueskill", "--game", "pact", "--json", "--db", mixed)
    assert json.loads(plain) == json.loads(named.stdout)
    assert "mu" in json.loads(plain)[0]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--method", "elo"), "--method must be one of trueskill, bt, glicko2"),
        (("--method", "bt", "--bootstrap", "0"), "--bootstrap must be between 1"),
        (("--method", "glicko2"), "pick one with --game (or rate them together with --method bt)"),
    ],
)
def test_bad_choices_are_refused(mixed: Path, args: tuple[str, ...], message: str) -> None:
    got = cattle("ratings", *args, "--db", mixed, env={"COLUMNS": "200"})
    assert got.returncode == 2
    assert message in " ".join(got.stderr.split())


def test_an_empty_selection_says_so(tmp_path: Path, mixed: Path) -> None:
    got = ok(cattle("ratings", "--method", "bt", "--game", "pact", "--tournament", "herd",
                    "--db", mixed, env=NARROW))  # fmt: skip
    assert got.startswith("No finished pact games to rate")
    assert json.loads(cattle("ratings", "--method", "glicko2", "--game", "pact", "--tournament",
                             "herd", "--json", "--db", mixed).stdout) == []  # fmt: skip


def test_agents_that_never_met_are_named_under_the_pairwise_tables(tmp_path: Path) -> None:
    # Two PACT tournaments with no agent in common: their ratings cannot be compared, and the
    # tables say so (names printed as text, markup included).
    db = tmp_path / "apart.duckdb"
    for agents, name in ((f"{MARKUP},mirror", "one"), ("truthful,random", "two")):
        got = cattle("tournament", "--game", "pact", "--preset", "quick", "--format",
                     "round-robin", "--agents", agents, "--games", "2", "--name", name,
                     "--seed", "1", "--quiet", "--db", db)  # fmt: skip
        assert got.returncode == 0, got.stderr
    for method in ("bt", "glicko2"):
        text = " ".join(ok(cattle("ratings", "--method", method, "--db", db, env=NARROW)).split())
        assert "These agents form 2 groups that never met" in text, text
        assert "{mirror, " + MARKUP + "}" in text or "{" + MARKUP + ", mirror}" in text, text
        assert "{truthful, random}" in text or "{random, truthful}" in text, text
        # One tournament alone is one group: no note.
        one = ok(cattle("ratings", "--method", method, "--tournament", "one", "--db", db,
                        env=NARROW))  # fmt: skip
        assert "never met" not in one
    got = json.loads(cattle("ratings", "--method", "bt", "--json", "--db", db).stdout)
    assert {r["agent"] for r in got} == {MARKUP, "mirror", "truthful", "random"}
