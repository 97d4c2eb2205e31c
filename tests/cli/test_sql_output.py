"""`cattle sql` output: csv and json stream (memory does not grow with the rows), every
column type prints, and no value can act on the terminal."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from clikit import ENV, ROOT, cattle, table_lines
from hypothesis import given, settings
from hypothesis import strategies as st

from cli.text import csv_text, shown

PEAK = (
    "import resource, subprocess, sys\n"
    "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
)


def peak_kb(*args: str | Path) -> int:
    """The largest resident size (KB) of `cattle ARGS`, its output thrown away."""
    done = subprocess.run(
        [sys.executable, "-c", PEAK, sys.executable, "-m", "cli.main", *map(str, args)],
        cwd=ROOT,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    return int(done.stdout)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("sqlout") / "games.duckdb"
    made = cattle("play", "--preset", "micro-duel", "--seed", "1", "--db", path)
    assert made.returncode == 0, made.stderr
    return path


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_csv_and_json_stream_their_rows(db: Path, fmt: str) -> None:
    """600,000 rows need no more memory than a thousand: they are written as they come (held
    whole, as Python rows and their text, they would take well over 80 MB)."""
    query = "SELECT range AS n, 'row ' || range AS label FROM range({})"
    small = peak_kb("sql", query.format(1000), "--format", fmt, "--timeout", "0", "--db", db)
    large = peak_kb("sql", query.format(600_000), "--format", fmt, "--timeout", "0", "--db", db)
    assert large - small < 40 * 1024, (small, large)


TYPED = {
    "interval": ("SELECT '1 day'::INTERVAL * 1000000000 AS v", "1000000000 days"),
    "now": ("SELECT now() > TIMESTAMPTZ '2000-01-01' AS v, now() AS w", None),
    "infinity": ("SELECT 'infinity'::DATE AS v", "infinity"),
    "far": ("SELECT '294247-01-10'::TIMESTAMP AS v", "294247-01-10 00:00:00"),
    "nested": ("SELECT [now()] AS v, {'a': '1 day'::INTERVAL * 1000000000} AS w", None),
    "timetz": ("SELECT '12:00:00+05'::TIMETZ AS v", "12:00:00+05"),
}


@pytest.mark.parametrize("name", list(TYPED))
@pytest.mark.parametrize("fmt", ["table", "csv", "json"])
def test_every_column_type_prints(db: Path, name: str, fmt: str) -> None:
    query, text = TYPED[name]
    done = cattle("sql", query, "--format", fmt, "--db", db)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    if fmt == "json":
        rows = json.loads(done.stdout)
        assert len(rows) == 1
        if text is not None:
            assert rows[0]["v"] == text
    elif fmt == "csv":
        rows = list(csv.reader(io.StringIO(done.stdout)))
        assert len(rows) == 2
        if text is not None:
            assert rows[1][0] == text
    elif text is not None:
        assert text in done.stdout


CONTROLS = [*range(0, 32), *range(0x7F, 0xA0), 0x200E, 0x202E, 0x2066]


def test_no_value_prints_a_control_character(db: Path) -> None:
    """What a model wrote (an escape sequence, a carriage return, a bell, a C1 control, a
    direction override) comes out written as escapes in csv and json, never raw."""
    query = (
        "SELECT c, 'x' || chr(c) || '[31mred' AS s FROM unnest("
        + str(CONTROLS)
        + ") AS t(c) ORDER BY c"
    )
    for fmt in ("csv", "json"):
        done = cattle("sql", query, "--format", fmt, "--db", db)
        assert done.returncode == 0, done.stderr
        body = done.stdout.replace("\n", "").replace("\t", "")
        bad = [c for c in body if ord(c) < 32 or 0x7F <= ord(c) <= 0x9F or ord(c) in CONTROLS]
        assert not bad, (fmt, bad)
        if fmt == "json":  # json escapes, and gives the text back exactly
            rows = json.loads(done.stdout)
            assert [r["s"] for r in rows] == [f"x{chr(c)}[31mred" for c in CONTROLS]


@settings(deadline=None)
@given(text=st.text())
def test_a_csv_cell_keeps_text_without_controls_and_escapes_the_rest(text: str) -> None:
    cell = csv_text(text)
    assert isinstance(cell, str)
    assert all(c in "\t\n" or shown(c) == c for c in cell)
    if all(shown(c) == c for c in text.replace("\t", "").replace("\n", "")):
        assert cell == text


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e400", "-1", "90000"])
def test_a_timeout_out_of_range_is_one_line(db: Path, value: str) -> None:
    done = cattle("sql", "SELECT 1", "--timeout", value, "--db", db)
    assert done.returncode == 2, done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) <= 2 and "--timeout must be" in done.stderr
    assert "Traceback" not in done.stderr


def test_json_output_of_nested_nan_and_infinities_is_valid_json(db: Path) -> None:
    query = (
        "SELECT [1.5, 'nan'::DOUBLE, 'inf'::DOUBLE] AS l, "
        "{'a': '-inf'::DOUBLE, 'b': ['nan'::DOUBLE], 'c': 'NaN \"Infinity\"'} AS s, "
        "map([1], ['inf'::DOUBLE]) AS m, 'nan'::DOUBLE AS x"
    )
    done = cattle("sql", query, "--format", "json", "--db", db)
    assert done.returncode == 0, done.stderr

    def refuse(word: str) -> None:
        raise AssertionError(f"bare {word} in {done.stdout}")

    rows = json.loads(done.stdout, parse_constant=refuse)
    assert rows == [
        {
            "l": [1.5, "nan", "inf"],
            "s": {"a": "-inf", "b": ["nan"], "c": 'NaN "Infinity"'},
            "m": {"1": "inf"},
            "x": "nan",
        }
    ]


NESTED = st.recursive(
    st.none() | st.booleans() | st.floats() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


def _as_text(value: object) -> object:
    if isinstance(value, float) and value != value:
        return "nan"
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        return "inf" if value > 0 else "-inf"
    if isinstance(value, list):
        return [_as_text(v) for v in value]
    if isinstance(value, dict):
        return {k: _as_text(v) for k, v in value.items()}
    return value


@settings(deadline=None, max_examples=200)
@given(value=NESTED)
def test_nested_json_keeps_every_value_and_names_nonfinite_numbers(value: object) -> None:
    from cli.commands import _finite_json

    text = json.dumps(value, separators=(",", ":"))  # NaN and Infinity bare, as DuckDB writes

    def refuse(word: str) -> None:
        raise AssertionError(word)

    assert json.loads(_finite_json(text), parse_constant=refuse) == _as_text(value)


def test_the_table_rounds_fractions_and_right_aligns_numbers(db: Path) -> None:
    query = (
        "SELECT 114.4776119402985::DOUBLE AS ratio, 12345 AS n, 'ab' AS word"
        " UNION ALL SELECT 0.000123456::DOUBLE, 7, 'longer words'"
    )
    got = cattle("sql", query, "--db", db)
    assert got.returncode == 0, got.stderr
    header, body = table_lines(got.stdout)
    body = [ln for ln in body if not ln.endswith(" rows")]  # the count printed below
    ratio_end = header.index("ratio") + len("ratio")
    n_end = header.index(" n ") + len(" n")
    word = header.index("word")
    assert [ln[:ratio_end].strip() for ln in body] == ["114.48", "0.0001235"]
    for ln in body:  # numbers end under their header's end, text starts under its start
        assert ln[ratio_end - 1] != " " and ln[n_end - 1] != " " and ln[word] != " "
    as_csv = cattle("sql", query, "--format", "csv", "--db", db)
    assert "114.4776119402985" in as_csv.stdout  # csv keeps every digit
