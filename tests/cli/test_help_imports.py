"""`cattle --help` and each command's `--help` stay cheap: real processes report which modules
they imported, and none may be one a command only needs when it runs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from clikit import ENV, ROOT
from test_cli_help import COMMANDS

RUN_AND_LIST = (
    "import atexit, json, sys\n"
    "atexit.register(lambda: print(json.dumps(sorted(sys.modules)), file=sys.stderr))\n"
    "sys.argv = ['cattle', *sys.argv[1:]]\n"
    "from cli.main import run\n"
    "run()\n"
)

SLOW = (
    "duckdb",
    "numpy",
    "structlog",
    "openai",
    "anthropic",
    "httpx",
    "starlette",
    "uvicorn",
    "jinja2",
    "matplotlib",
    "ray",
    "pyspiel",
    "open_spiel",
    "textarena",
    "trueskill",
    "pydantic",
    "asyncio",
    "agents",
    "runner.tournament",
    "runner.session",
    "runner.executors",
    "runner.driver",
    "runner.verify",
    "projections.metrics.aggregate",
    "projections.cattle.metrics.build",
)
"""What no help text needs: the third-party libraries a command runs with (and pydantic, which
typer checks option values with), and the layers (agents, runner, metrics) that bring them in."""

TOP_LEVEL = (*SLOW, "msgspec", "events", "engine", "projections", "runner", "cli.common")
"""`cattle --help` lists the commands from the index alone: none of the project's lower
layers, no command module."""


def python(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    """`python -c CODE ARGS` in a process of its own, from the project's root; it must succeed."""
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=ROOT,
        env={**ENV, "COLUMNS": "80"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done


def imported(*args: str) -> list[str]:
    """The modules a `cattle ARGS` process had imported when it ended."""
    done = python(RUN_AND_LIST, *args)
    assert "Usage:" in done.stdout
    modules: list[str] = json.loads(done.stderr.strip().splitlines()[-1])
    return modules


def among(modules: list[str], names: tuple[str, ...]) -> list[str]:
    """The modules that are one of `names` or inside one of them."""
    return [m for m in modules if any(m == n or m.startswith(n + ".") for n in names)]


def test_the_command_list_imports_no_command_and_nothing_slow() -> None:
    modules = imported("--help")
    assert "cli.index" in modules  # the check sees what the process imported
    assert among(modules, TOP_LEVEL) == []


def test_no_command_help_imports_anything_slow() -> None:
    for command in COMMANDS:
        modules = imported(command, "--help")
        assert among(modules, SLOW) == [], command


def test_running_a_command_still_loads_what_it_needs() -> None:
    # The same check on a command that runs: the list is not empty by construction.
    done = python(RUN_AND_LIST, "agents")
    modules = json.loads(done.stderr.strip().splitlines()[-1])
    assert "agents" in modules and "agents.cattle.game" in modules


GAME_CODE = ("agents", "engine", "projections", "runner", "pydantic", "textarena", "pyspiel",
             "openai", "anthropic", "matplotlib", "numpy")  # fmt: skip
"""What listing the stored games needs none of: the games' rules, agents and views, and the
libraries they bring."""


def test_listing_games_imports_no_game(tmp_path: Path) -> None:
    from events import catalog
    from events.store import DuckStore
    from runner.session import play_and_store

    db = tmp_path / "g.duckdb"
    with DuckStore(db) as store:
        for name in ("cattle-trade", "pact"):
            g = catalog.get(name)
            play_and_store(store, g.preset("micro-duel" if name == "cattle-trade" else "quick"),
                           1, ["random", "random"])  # fmt: skip
    done = python(RUN_AND_LIST, "games", "--limit", "5", "--db", str(db))
    assert "cattle-trade" in done.stdout and "pact" in done.stdout
    modules = json.loads(done.stderr.strip().splitlines()[-1])
    assert "duckdb" in modules and "events.cattle.domain" in modules
    assert among(modules, GAME_CODE) == []


def test_logging_is_set_up_when_a_message_is_first_shown() -> None:
    # Without -v, debug and info messages import nothing; the first warning configures
    # structlog as the command line asked (to stderr, the console layout), with -v debug too.
    code = (
        "import sys\n"
        "from cli.main import configure_logging\n"
        "from events.lazy import get_logger\n"
        "configure_logging(sys.argv[1] == '-v', False)\n"
        "log = get_logger('cattle.test')\n"
        "log.debug('quiet.debug', n=1)\n"
        "log.info('quiet.info', n=2)\n"
        "print('structlog' in sys.modules)\n"
        "log.warning('loud.warning', n=3)\n"
        "log.debug('late.debug', n=4)\n"
        "print('structlog' in sys.modules)\n"
    )
    for flag, first, shown in (("-q", "False", ["loud.warning"]), ("-v", "True", None)):
        done = python(code, flag)
        assert done.stdout.split() == [first, "True"]
        events = [w for w in done.stderr.split() if "." in w and "=" not in w and ":" not in w]
        expected = ["quiet.debug", "quiet.info", "loud.warning", "late.debug"]
        assert events == (shown or expected), done.stderr
        assert "[warning  ] loud.warning" in done.stderr and "n=3" in done.stderr


def test_typer_formats_markdown_and_tracebacks_with_the_real_rich_classes() -> None:
    # The help formatter is imported without rich.markdown and rich.traceback; whatever would
    # use them still gets the real classes.
    code = (
        "from cli.app import load_help_formatter\n"
        "load_help_formatter()\n"
        "import typer.rich_utils as r\n"
        "from rich.markdown import Markdown\n"
        "from rich.traceback import Traceback\n"
        "md = r._make_rich_text(text='**bold**', markup_mode='markdown')\n"
        "assert type(md) is Markdown and isinstance(md, r.Markdown), type(md)\n"
        "try:\n"
        "    1 / 0\n"
        "except ZeroDivisionError as exc:\n"
        "    tb = r.Traceback.from_exception(type(exc), exc, exc.__traceback__)\n"
        "assert type(tb) is Traceback, type(tb)\n"
        "print('ok')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_metric_tables_draw_nothing_so_import_no_matplotlib(tmp_path: Path) -> None:
    # The report module that builds PACT's metric tables also draws its figures; printing the
    # tables must not load the plotting library.
    from events import catalog
    from events.store import DuckStore
    from runner.session import play_and_store

    db = tmp_path / "p.duckdb"
    with DuckStore(db) as store:
        g = catalog.get("pact")
        for seed in (1, 2):
            play_and_store(store, g.preset("quick"), seed, ["random", "truthful"])
    done = python(RUN_AND_LIST, "metrics", "--game", "pact", "--db", str(db))
    modules = json.loads(done.stderr.strip().splitlines()[-1])
    assert "projections.pact.report" in modules and "numpy" in modules
    assert among(modules, ("matplotlib",)) == [], done.stdout
