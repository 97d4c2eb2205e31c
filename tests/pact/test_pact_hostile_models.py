"""A PACT model seat that answers badly, through the real command line and a loopback server.

Answers that are enormous, not JSON, JSON of the wrong types, numbers no quote can be (1e308,
"NaN", 30 digits), messages of 10,000 words or full of control characters and markup: the
game finishes, every rejection and fallback is recorded, the store keeps each answer (one of
megabytes cut to a bounded start, with its true length), the game verifies with the server
stopped, and the timeline prints the players' words as plain text.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from agents.llm.loopback import Answer, Incoming, LegalPolicy, LoopbackServer
from agents.llm.transport import MAX_ANSWER_CHARS, cut_length
from tests.cli.clikit import ROOT
from tests.tournament.test_kill_resume import games, run


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """Fake keys, no config file, fast backoff, an 80-column terminal."""
    cfg = tmp_path / "llm.toml"
    cfg.write_text("")
    base = {k: v for k, v in os.environ.items() if k != "CATTLE_DB"}
    base.update(
        {
            "OPENAI_API_KEY": "sk-test-hostile",
            "CATTLE_LLM_CONFIG": str(cfg),
            "CATTLE_LLM_BACKOFF": "0.001",
            "COLUMNS": "80",
            "NO_COLOR": "1",
            "TERM": "dumb",
        }
    )
    return base


class Scripted(LegalPolicy):
    """Answers each decision kind from its list of texts (in order, the last one repeated
    after that); format retries get the same bad text again, so defaults are reached."""

    def __init__(self, answers: dict[str, list[str]]) -> None:
        super().__init__()
        self.answers = answers
        self.asked: dict[str, int] = {}

    def __call__(self, req: Incoming) -> Answer:
        texts = self.answers.get(req.kind)
        if not texts:
            return super().__call__(req)
        n = self.asked.get(req.kind, 0)
        if req.stage == "ask":
            self.asked[req.kind] = n + 1
        else:
            n -= 1
        return Answer(text=texts[min(max(n, 0), len(texts) - 1)])


@pytest.fixture
def play(tmp_path: Path, env: dict[str, str]) -> Iterator[Play]:
    yield Play(tmp_path / "pact.duckdb", env)


class Play:
    """Plays one quick PACT game, model seat 0 against `anchor`, then stops the server."""

    def __init__(self, db: Path, env: dict[str, str]) -> None:
        self.db = db
        self.env = env

    def __call__(self, answers: dict[str, list[str]]) -> tuple[str, list[dict]]:
        with LoopbackServer(Scripted(answers)) as srv:
            got = run(["play", "--game", "pact", "--preset", "quick", "--agents",
                       f"openai:loop@{srv.openai_url},anchor", "--seed", "5", "--json",
                       "--db", str(self.db)], self.env)  # fmt: skip
        assert got.returncode == 0, got.stderr[-3000:]
        assert "Traceback" not in got.stderr
        gid = json.loads(got.stdout)["game_id"]
        status, payloads = games(self.db)[gid]
        assert status == "finished"
        # The server is gone: the recorded answers replay.
        checked = run(["replay", gid, "--verify", "--db", str(self.db)], self.env)
        assert checked.returncode == 0, checked.stdout + checked.stderr
        return gid, [json.loads(p) for p in payloads]

    def text(self, *args: str) -> str:
        """A read command's output, checked to be plain text of at most 80 columns."""
        got = run([*args, "--db", str(self.db)], self.env)
        assert got.returncode == 0, got.stderr
        assert "\x1b" not in got.stdout and "Traceback" not in got.stderr
        assert max(len(line) for line in got.stdout.splitlines()) <= 80
        return got.stdout


def of(events: list[dict], tag: str) -> list[dict]:
    return [e for e in events if e["type"] == tag]


def test_a_model_answer_of_several_megabytes_is_stored_cut_and_not_read(play: Play) -> None:
    huge = "bargain " * 450_000  # 3.6 MB
    # The first two answers are huge (as text, then as JSON); the later ones are short.
    gid, events = play({"message": [huge, json.dumps({"message": huge}), "a fair price"]})
    calls = [c for c in of(events, "llm_call") if c["decision"] == "message" and c["seat"] == 0]
    cut = [c for c in calls if cut_length(c["response"]) is not None]
    assert len(cut) >= 2
    assert {cut_length(c["response"]) for c in cut} == {
        len(huge),
        len(json.dumps({"message": huge})),
    }
    assert all(len(c["response"]) < MAX_ANSWER_CHARS + 200 for c in cut)
    assert all("too long" in c["parse_error"] for c in cut)
    # the format retry shows the start of the answer, not megabytes
    retries = [c for c in calls if c["stage"] == "format_retry"]
    assert retries and all(len(m["content"]) < 10_000 for c in retries for m in c["messages"])
    sent = [e for e in of(events, "pact_message_sent") if e["seat"] == 0]
    assert len(sent) >= 3 and not any(e["words"] >= 450_000 for e in sent)
    assert len(play.text("show", gid)) < 20_000

    # A true length altered in the stored answer fails verification (the answer is read
    # again in the replay), and the report stays short.
    con = duckdb.connect(str(play.db))
    seq, payload = con.execute(
        "SELECT seq, payload FROM events WHERE game_id = ? AND type = 'llm_call'"
        " AND payload LIKE '%answer cut here%' ORDER BY seq LIMIT 1",
        [gid],
    ).fetchone()
    shown = f"{len(huge):,}"
    altered = payload.replace(f"it held {shown}", f"it held {len(huge) + 1:,}")
    assert altered != payload
    con.execute("UPDATE events SET payload = ? WHERE game_id = ? AND seq = ?", [altered, gid, seq])
    con.close()
    failed = run(["replay", gid, "--verify", "--db", str(play.db)], play.env)
    assert failed.returncode == 1 and "re-simulation" in failed.stderr
    assert len(failed.stderr) < 3000


def test_quotes_no_rule_can_take_are_rejected_or_defaulted_and_recorded(play: Play) -> None:
    quotes = [
        '{"quote": 1e308}',
        '{"quote": "NaN"}',
        '{"quote": -1e308}',
        '{"quote": [1, 2]}',
        '{"quote": {"a": 1}}',
        '{"quote": 123456789012345678901234567890}',
        '{"quote": "99999999999999999999999 coins"}',
        '{"quote": true}',
        '{"quote": 55.5}',
        "no numbers at all",
    ]
    gid, events = play({"quote": quotes})
    revealed = of(events, "pact_quotes_revealed")
    assert len(revealed) == 5 and all(0 <= r["bid"] <= 100 for r in revealed)
    rejected = [e for e in of(events, "pact_quote_rejected") if e["seat"] == 0]
    defaulted = [e for e in of(events, "action_defaulted") if e["seat"] == 0]
    # Five quote decisions, none of which may stand as given.
    assert len(rejected) + len(defaulted) == 5, (rejected, defaulted)
    assert all(r["used"] in (0, 100) for r in rejected)
    shown = play.text("show", gid, "--seat", "0")
    assert "quoted" in shown or "defaulted" in shown


def test_messages_with_control_characters_markup_and_wrong_types(play: Play) -> None:
    messages = [
        json.dumps({"message": "a\x00b\x07c\x1b[31m [/] [bold red]x[/] :cow: [link=http://e]"}),
        json.dumps({"message": " ".join(["[red]word[/]"] * 10_000)}),
        json.dumps({"message": 42}),
        json.dumps({"message": ["a", "b"]}),
        json.dumps({"message": None, "text": {"nested": True}}),
        "",
    ]
    gid, events = play({"message": messages})
    said = [e["text"] for e in of(events, "pact_message_sent") if e["seat"] == 0]
    assert len(said) == 5
    assert all(ch.isprintable() for text in said for ch in text)
    assert "[/] [bold red]x[/] :cow:" in said[0] and "42" in said[2]
    full = play.text("show", gid)
    seat = play.text("replay", gid, "--seat", "1")
    for shown in (full, seat):
        # Markup and emoji codes print as written.
        assert "[bold red]x[/]" in shown and ":cow:" in shown


@pytest.mark.parametrize(
    ("game", "spec", "phrase"),
    [
        ("pact", "openai:m@http://127.0.0.1:9/v1?character=bluffer", "unknown PACT character"),
        ("toy-auction", "openai:m@http://127.0.0.1:9/v1", "toy-auction has no model seats"),
    ],
)
@pytest.mark.parametrize("command", ["play", "tournament"])
def test_a_model_seat_the_game_cannot_prompt_is_refused_before_anything_is_stored(
    tmp_path: Path, env: dict[str, str], game: str, spec: str, phrase: str, command: str
) -> None:
    env = {**env, "CATTLE_GAMES": "games.toy_auction", "PYTHONPATH": str(ROOT / "tests")}
    others = "anchor" if game == "pact" else "honest,wild"
    db = tmp_path / "t.duckdb"
    players = 2 if game == "pact" else 3
    extra = ["--games", str(players), "--name", "refused"] if command == "tournament" else []
    got = run([command, "--game", game, "--agents", f"{spec},{others}", "--seed", "1", *extra,
               "--db", str(db)], env)  # fmt: skip
    assert got.returncode == 2, got.stderr
    assert "Traceback" not in got.stderr and phrase in " ".join(got.stderr.split())
    if db.exists():
        con = duckdb.connect(str(db), read_only=True)
        rows = con.execute("SELECT table_name FROM information_schema.tables").fetchall()
        tables = {t for (t,) in rows}
        assert con.execute("SELECT count(*) FROM games").fetchone() == (0,)
        if "tournaments" in tables:
            assert con.execute("SELECT count(*) FROM tournaments").fetchone() == (0,)
        con.close()
