"""Model names, model answers, agent specs and tournament names that look like markup print as
written in every command (real subprocesses, a real store, the loopback model server)."""

from __future__ import annotations

import html
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import duckdb

from agents.llm.loopback import Answer, Incoming, LegalPolicy, LoopbackServer
from cli.text import shown

MODEL = "m[/]x[link=http://e.com]L[/link]:cow:[bold<b>&"
AGENT = f"openai:{MODEL}"
REASONING = "[/INST] [red]no[/red] :smile: \x1b[31m \\[ end"
CODE_AGENT = "[/]code:cow:[i]"
TOURNAMENT = "t[/]1[link=x]"


class NastyPolicy(LegalPolicy):
    """Legal moves whose free text is full of markup and escape sequences."""

    def __call__(self, req: Incoming) -> Answer:
        fields = self.decide(req)
        if isinstance(fields, str):
            return Answer(text=f"{REASONING} {fields}")
        return Answer(text=json.dumps({**fields, "reasoning": REASONING}))


def cattle(*args: str | Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "400", "NO_COLOR": "1", "TERM": "dumb"}
    env.pop("CATTLE_DB", None)
    return subprocess.run(
        [sys.executable, "-m", "cli.main", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )


def ok(result: subprocess.CompletedProcess[str], *expected: str) -> None:
    assert result.returncode == 0, (result.args, result.stderr)
    assert "Traceback" not in result.stdout + result.stderr
    for text in expected:
        assert text in result.stdout, (result.args, text, result.stdout)


def test_every_command_prints_stored_markup_as_text(tmp_path: Path) -> None:
    db = tmp_path / "markup.duckdb"
    with LoopbackServer(NastyPolicy()) as srv:
        played = cattle(
            "play",
            "--preset",
            "micro-duel",
            "--seed",
            "3",
            "--agents",
            f"{AGENT}@{srv.openai_url},random",
            "--db",
            db,
        )
    ok(played, AGENT)
    code = cattle("play", "--preset", "micro-duel", "--seed", "4", "--json", "--db", db)
    ok(code)
    code_id = json.loads(code.stdout)["game_id"]
    # A store written or edited by another tool may hold names the CLI would refuse.
    con = duckdb.connect(str(db))
    seats: Any = [{"agent": CODE_AGENT, "options": {}}, {"agent": "random", "options": {}}]
    con.execute(
        "UPDATE games SET tournament = ?, seats = ? WHERE game_id = ?",
        [TOURNAMENT, json.dumps(seats), code_id],
    )
    (model_id,) = con.execute("SELECT game_id FROM games WHERE game_id <> ?", [code_id]).fetchone()
    con.close()

    ok(cattle("games", "--db", db), AGENT, CODE_AGENT, TOURNAMENT)
    ok(cattle("games", "--tournament", TOURNAMENT, "--db", db), CODE_AGENT)
    ok(cattle("show", model_id, "--db", db), f"0={AGENT}")
    ok(cattle("replay", model_id, "--db", db), AGENT)
    ok(cattle("replay", model_id, "--seat", "0", "--db", db), "Players")
    ok(cattle("replay", model_id, "--verify", "--db", db), "verified")
    ok(cattle("ratings", "--db", db), AGENT, CODE_AGENT)
    ok(cattle("ratings", "--tournament", TOURNAMENT, "--db", db), CODE_AGENT, TOURNAMENT)
    ok(cattle("metrics", "--resamples", "10", "--db", db), AGENT, CODE_AGENT)
    ok(cattle("metrics", "--tournament", TOURNAMENT, "--resamples", "10", "--db", db), TOURNAMENT)
    ok(cattle("costs", "--db", db), AGENT)
    ok(cattle("costs", "--by", "seat", "--db", db), AGENT, model_id)
    ok(
        cattle(
            "sql",
            "SELECT agent, response->>'$.reasoning' AS said FROM llm_calls"
            " WHERE response LIKE '{%' LIMIT 1",
            "--db",
            db,
        ),
        AGENT,
        shown(REASONING),
    )
    ok(cattle("sql", f'SELECT 1 AS "{MODEL}"', "--db", db), MODEL)

    page = tmp_path / "report.html"
    ok(cattle("report", "--out", page, "--resamples", "10", "--db", db))
    text = page.read_text()
    assert html.escape(AGENT) in text and html.escape(CODE_AGENT) in text
    assert MODEL not in text  # its "<b>" and "&" only appear escaped

    # An unknown name typed by the user comes back in the error line as typed.
    refused = cattle(
        "play", "--agents", f"{CODE_AGENT},random", "--preset", "micro-duel", "--db", db
    )
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert CODE_AGENT in refused.stderr
