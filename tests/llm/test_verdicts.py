"""A model decision's outcome class follows what the game did with the move (docs/llm.md,
"Outcome of a decision"): TextArena's invalid-move verdicts (Blotto's sum, Codenames' unread
clue) and GameBench's refusals make it `illegal` with the game's reason; `cattle costs`
counts fallbacks per decision (never above 100 %), with the decisions `llm_outcomes` counts;
PACT's lenient number reading is `repaired` and never reads a number out of echoed prompt
text. Each game is played through the real openai SDK against a loopback server."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agents import make_agents
from agents.cattle.parse import parse_answer as parse_cattle
from agents.llm.loopback import Answer, Incoming, LegalPolicy, LoopbackServer
from agents.llm.outcome import classify
from agents.pact.bots import parse_answer
from agents.textarena.standin import BOARD, MARKER
from engine.cattle.decisions import BidDecision, TurnDecision
from engine.cattle.presets import load_preset
from engine.pact.rules import MessageDecision, QuoteDecision
from engine.textarena.mindgames import PRESETS
from events import catalog
from events.agent import VERDICT_SUFFIXES, LLMCall, judged
from events.store import DuckStore, GameRow
from projections.costs import usage
from projections.textarena import arena
from projections.timeline import timeline
from runner.driver import Game
from runner.session import play_and_store, seat_specs
from runner.verify import check_game

from .helpers import seat

OPTS = "attempts=1&memory=none"


def _say(text: str) -> Callable[[Incoming], Answer]:
    """A model that gives the same answer to every request."""
    return lambda req: Answer(text=text)


def _play(db: Path, policy: Any, config: Any, lineup: list[str | None], seed: int = 3) -> str:
    """Play one game with the model (None in `lineup`) on a loopback server; its game id."""
    with LoopbackServer(policy) as srv, DuckStore(db) as store:
        spec = seat(srv, "openai", opts=OPTS)
        gid, _ = play_and_store(store, config, seed, [spec if a is None else a for a in lineup])
        assert check_game(store.load_rows(gid)).outcome == "verified"
    return gid


def _rows(db: Path, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    with DuckStore(db, read_only=True) as store:
        return store.con.execute(sql, list(params)).fetchall()


def test_a_blotto_allocation_textarena_refuses_is_illegal_with_its_reason(tmp_path: Path) -> None:
    db = tmp_path / "b.duckdb"
    gid = _play(db, _say("[A4 B2 C2]"), PRESETS["blotto"], [None, "blotto-uniform"])
    rows = _rows(db, "SELECT outcome, recorded, reason FROM llm_decisions WHERE game_id = ?", gid)
    assert rows and all(r[0] == "illegal" and r[1] == "ok" for r in rows)
    assert all("allocate exactly 20 units" in r[2] for r in rows)
    (outcomes,) = _rows(db, "SELECT decisions, ok, repaired, illegal FROM llm_outcomes")
    assert outcomes == (len(rows), 0, 0, len(rows))
    with DuckStore(db, read_only=True) as store:
        (row,) = usage(store.con, by="seat")
        events = store.load_events(gid)
    assert row["fallback_rate"] == 1.0 and row["outcome_rates"]["illegal"] == 1.0
    shown = [t for _, _, t in timeline(events) if "call(s)" in t]
    assert len(shown) == len(rows) and all(": illegal (the game refused" in t for t in shown)


def test_a_codenames_clue_textarena_cannot_read_is_an_invalid_move(tmp_path: Path) -> None:
    db = tmp_path / "c.duckdb"
    lineup: list[str | None] = [None, "codenames-topics", "codenames-topics", "codenames-topics"]
    gid = _play(db, _say("I pass this time."), PRESETS["codenames"], lineup)
    invalid = _rows(db, "SELECT player, reason FROM textarena_invalid_moves WHERE game_id = ?", gid)
    decided = _rows(db, "SELECT outcome, reason FROM llm_decisions WHERE game_id = ?", gid)
    assert invalid and all(p == 0 and "did not provide a valid clue" in r for p, r in invalid)
    assert len(decided) == len(invalid)
    assert all(o == "illegal" and "valid clue" in r for o, r in decided)
    (lens,) = _rows(db, "SELECT invalid_moves FROM textarena_errors WHERE seat = 0")
    assert lens == (len(invalid),)


def _clue_on_the_board(req: Incoming) -> Answer:
    """A spymaster whose clue is the first word of the board it was shown."""
    seen = req.prompt.split(MARKER, 1)[-1]
    return Answer(text=f"[{seen[seen.rfind(BOARD) + len(BOARD) :].split()[0].lower()} 1]")


def test_a_codenames_clue_the_rules_forbid_is_illegal(tmp_path: Path) -> None:
    """Codenames gives the game to the other team when a clue is a board word or part of one
    (a verdict told only as the game's end reason): the decision is illegal, with that
    reason, and the error lens counts it."""
    db = tmp_path / "f.duckdb"
    lineup: list[str | None] = [None, "codenames-topics", "codenames-topics", "codenames-topics"]
    gid = _play(db, _clue_on_the_board, PRESETS["codenames"], lineup)
    (ended,) = _rows(db, "SELECT reason FROM textarena_games WHERE game_id = ?", gid)
    assert "exact match of words on the board" in ended[0]
    decided = _rows(
        db, "SELECT outcome, recorded, reason FROM llm_decisions WHERE game_id = ?", gid
    )
    assert decided == [("illegal", "ok", ended[0])]
    (lens,) = _rows(db, "SELECT invalid_moves FROM textarena_errors WHERE seat = 0")
    assert lens == (1,)


def test_the_arena_names_a_forbidden_clue_as_what_ended_the_game(tmp_path: Path) -> None:
    """TextArena does not mark a clue that is a board word as an invalid move in its game
    info; the arena's lens reads the verdict the outcome classes read, so the spymaster's
    error ended the game and the other team won after it."""
    db = tmp_path / "a.duckdb"
    lineup: list[str | None] = [None, "codenames-topics", "codenames-topics", "codenames-topics"]
    gid = _play(db, _clue_on_the_board, PRESETS["codenames"], lineup)
    with DuckStore(db, read_only=True) as store:
        seats = {s.seat: s for s in arena.load(store)}
        flags = store.con.execute(
            "SELECT payload->'invalid' FROM events WHERE game_id = ? AND type = 'game_ended'",
            [gid],
        ).fetchone()
    assert flags is not None and "true" not in str(flags[0]).lower()  # TextArena's own flag
    assert seats[0].ended_by_error and seats[0].invalid_moves == 1
    assert not any(seats[s].ended_by_error for s in (1, 2, 3))
    assert [s for s in seats if seats[s].won_after_opponent_error] == [2, 3]
    (lens,) = [e for e in arena.error_lens(list(seats.values())) if e.agent == seats[0].agent]
    assert lens.ended_by_error == 1.0


def test_a_forbidden_clue_of_a_game_stored_before_its_verdict_is_read_from_the_end(
    tmp_path: Path,
) -> None:
    """A game of rules 1.1.0 (no verdict event for such a clue) replays as it was; the views
    and `judged` read the verdict from the game's end reason."""
    config = PRESETS["codenames"]
    with LoopbackServer(_clue_on_the_board) as srv, DuckStore(tmp_path / "o.duckdb") as store:
        specs = [seat(srv, "openai", opts=OPTS), *["codenames-topics"] * 3]
        seats = seat_specs(specs, catalog.for_config(config))
        agents = make_agents(seats, 4, config)

        async def run() -> Any:
            try:
                return await Game(config, 4, agents, seats, version="1.1.0").run_async()
            finally:
                for a in agents:
                    await a.close()

        record = asyncio.run(run())
        row = GameRow(
            game_id="old", seed=4, config=config, seats=seats, engine_version="1.1.0",
            game="textarena",
        )  # fmt: skip
        store.save_game(row, record.events, record.turns)
        assert not [e for e in record.events if type(e).__name__ == "InvalidMove"]
        assert check_game(store.load_rows("old")).outcome == "verified"
        decided = store.con.execute("SELECT outcome, reason FROM llm_decisions").fetchall()
        ended = store.con.execute(
            "SELECT seat FROM textarena_errors WHERE ended_by_error ORDER BY seat"
        ).fetchall()
    assert ended == [(0,)]
    assert [o for o, _ in decided] == ["illegal"]
    assert "exact match of words on the board" in str(decided[0][1])
    assert [(o, r) for _, o, r in judged(record.events)] == decided


def test_a_codenames_game_of_the_first_rules_still_verifies(tmp_path: Path) -> None:
    """A game stored by rules 1.0.0 (no verdict event from Codenames' messages) replays as it
    was, and its model decisions are classed from the messages its seat was shown."""
    config = PRESETS["codenames"]
    db = tmp_path / "old.duckdb"
    with LoopbackServer(_say("no clue")) as srv, DuckStore(db) as store:
        specs = [seat(srv, "openai", opts=OPTS), *["codenames-topics"] * 3]
        seats = seat_specs(specs, catalog.for_config(config))
        agents = make_agents(seats, 4, config)

        async def run() -> Any:
            try:
                return await Game(config, 4, agents, seats, version="1.0.0").run_async()
            finally:
                for a in agents:
                    await a.close()

        record = asyncio.run(run())
        row = GameRow(
            game_id="old", seed=4, config=config, seats=seats, engine_version="1.0.0",
            game="textarena",
        )  # fmt: skip
        store.save_game(row, record.events, record.turns)
        assert record.events[0].engine_version == "1.0.0"
        assert not [e for e in record.events if type(e).__name__ == "InvalidMove"]
        assert check_game(store.load_rows("old")).outcome == "verified"
        decided = store.con.execute(
            "SELECT outcome, reason FROM llm_decisions WHERE game_id = 'old' ORDER BY seq"
        ).fetchall()
    # The views read the verdicts of such a game from the messages its seat was shown.
    assert decided and all(
        o == "illegal" and "did not provide a valid clue" in r for o, r in decided
    )
    assert [(o, r) for _, o, r in judged(record.events)] == decided


def test_explain_requests_gamebench_refuses_are_never_ok(tmp_path: Path) -> None:
    """Pit: every answer asks for rules under a heading that does not exist; each is refused
    (and once the requests are spent, the seeded fallback plays)."""
    db = tmp_path / "p.duckdb"
    pit = catalog.get("gamebench:pit")
    config = pit.preset(pit.default_preset)
    gid = _play(db, _say("Action: Explain(Nonsense)"), config, [None, "random"])
    rows = _rows(db, "SELECT outcome, reason FROM llm_decisions WHERE game_id = ?", gid)
    assert rows and {o for o, _ in rows} == {"illegal"}
    assert any("no rules under the heading" in r for _, r in rows)
    assert any("no explanation requests left" in r for _, r in rows)


def test_python_reads_the_same_classes_as_the_views(tmp_path: Path) -> None:
    db = tmp_path / "b.duckdb"
    gid = _play(db, _say("[A1 B1 C1]"), PRESETS["blotto"], [None, "blotto-uniform"])
    with DuckStore(db, read_only=True) as store:
        events = store.load_events(gid)
    got = [(d.seat, o, r) for d, o, r in judged(events)]
    assert got == _rows(db, "SELECT seat, outcome, reason FROM llm_decisions ORDER BY seq")


def test_fallbacks_count_decisions_and_agree_with_the_outcomes(tmp_path: Path) -> None:
    """A seat whose call budget runs out plays defaults without calls: the fallback share
    counts them among the decisions (it was defaults over first asks: above 100 %)."""
    db = tmp_path / "d.duckdb"
    policy = LegalPolicy()
    with LoopbackServer(policy) as srv, DuckStore(db) as store:
        spec = seat(srv, "openai", opts=OPTS + "&max_calls=2")
        play_and_store(store, load_preset("micro-duel"), 5, [spec, "random"])
        (row,) = usage(store.con, by="seat")
        usage_decisions, outcome_decisions, budget = store.con.execute(
            "SELECT u.decisions, o.decisions, o.budget FROM llm_usage u"
            " JOIN llm_outcomes o USING (game_id, seat)"
        ).fetchone()
    assert budget > 0
    assert usage_decisions == outcome_decisions == row["decisions"] == row["decided"]
    assert 0.0 <= row["fallback_rate"] <= 1.0 and 0.0 <= row["format_error_rate"] <= 1.0
    assert (
        row["fallbacks"] == outcome_decisions - row["outcomes"]["ok"] - row["outcomes"]["repaired"]
    )


QUOTE = QuoteDecision(seats=(0, 1), round=1, rounds=20, low=0, high=100)
MESSAGE = MessageDecision(seats=(0,), round=1, rounds=20, max_words=100, first=True)


@pytest.mark.parametrize(
    "text",
    [
        "I am Player 1 and this is the round of 1 message",
        "The price is (bid + ask) / 2",
        "a whole number from 0 to 100",
        "1e2",
        "1e400",
        '{"quote": 1e400}',
        '{"quote": "1e2"}',
        "I ask 1,000",
        '{"quote": "1,000"}',
    ],
)
def test_a_quote_is_never_read_from_echoed_prompt_text_or_exponents(text: str) -> None:
    action, _, error = parse_answer(text, QUOTE, 1)
    assert action is None and error


@pytest.mark.parametrize(
    ("text", "price"),
    [("somewhere 30-40", 40), ("my bid: 45-50 maybe", 50), ("ask: -5", -5), ("about 12.5", 12.5)],
)
def test_a_hyphen_between_numbers_is_no_minus_sign(text: str, price: float) -> None:
    action, stage, _ = parse_answer(text, QUOTE, 1)
    assert action is not None and action.price == price and stage == "number"


@pytest.mark.parametrize("text", ['{"message": "<your message>"}', "<your message>", "..."])
def test_a_message_that_repeats_the_template_is_refused(text: str) -> None:
    action, _, error = parse_answer(text, MESSAGE, 0)
    assert action is None and error is not None and "template" in error


def test_a_json_number_in_exponent_form_is_its_value() -> None:
    action, stage, _ = parse_answer('{"quote": 1e2}', QUOTE, 1)
    assert action is not None and action.price == 100 and stage == "json"


@pytest.mark.parametrize("stage", ["number", "text", "last_line", "key_value", "lenient"])
def test_every_lenient_stage_is_repaired(stage: str) -> None:
    call = LLMCall(
        seat=0, decision="quote", stage="ask", attempt=1, provider="openai", model="m",
        response="x", parse_stage=stage,
    )  # fmt: skip
    assert classify([call], None) == "repaired"


def test_every_games_verdict_events_name_their_seat_and_reason() -> None:
    """The views find a game's verdicts by their tag alone (events.agent.VERDICT_SUFFIXES):
    each such event type names the judged seat as its actor and says why."""
    found = set()
    for name in catalog.names():
        for cls in catalog.get(name).event_types:
            tag = cls.__struct_config__.tag
            if isinstance(tag, str) and tag.endswith(VERDICT_SUFFIXES):
                found.add(tag)
                assert cls.ACTOR in cls.__struct_fields__, tag
                assert "reason" in cls.__struct_fields__, tag
    assert {
        "action_rejected",
        "textarena_invalid",
        "pit_rejected",
        "gb_cn_request_refused",
    } <= found


@pytest.mark.parametrize(
    "text",
    [
        '{"action": "bid", "amount": "1e2"}',
        "action: bid, amount: 1e2",
        '{"action": "bid", "amount": 1e400}',
        '{"action": "bid", "amount": "1,000"}',
        "action: bid, amount: 1,000",
    ],
)
def test_a_cattle_bid_in_exponent_form_is_refused(text: str) -> None:
    bid = BidDecision(
        seats=(1,), auction=1, animal="cow", auctioneer=0, mode="canonical", round=0,
        price=20, leader=None,
    )  # fmt: skip
    action, _, error = parse_cattle(text, bid, 1)
    assert action is None and error


@pytest.mark.parametrize(
    ("text", "decision"),
    [
        ('{"action": "bid", "amount": "<multiple of 10>"}', "bid"),
        ('{"reasoning": "...", "action": "bid" or "pass", "amount": <multiple of 10>}', "bid"),
        ('{"reasoning": "...", "action": "pass" or "bid"}', "bid"),
        ('{"reasoning": "...", "action": "auction" or "kuhhandel"}', "turn"),
        ("action: auction or kuhhandel", "turn"),
    ],
)
def test_a_cattle_answer_that_echoes_the_template_is_refused(text: str, decision: str) -> None:
    """The template's placeholder (`<multiple of 10>`) holds no amount, and its list of
    choices (`"auction" or "kuhhandel"`) is no choice."""
    bid = BidDecision(
        seats=(1,), auction=1, animal="cow", auctioneer=0, mode="canonical", round=0,
        price=20, leader=None,
    )  # fmt: skip
    action, _, error = parse_cattle(
        text, bid if decision == "bid" else TurnDecision(seats=(1,), targets=()), 1
    )
    assert action is None and error


def test_a_pact_message_cut_to_the_word_limit_is_repaired(tmp_path: Path) -> None:
    db = tmp_path / "m.duckdb"
    config = catalog.get("pact").preset("quick")
    long = " ".join(["deal"] * (config.max_words + 20))
    gid = _play(db, _say('{"message": "' + long + '", "quote": 50}'), config, [None, None])
    rows = _rows(
        db,
        "SELECT outcome, recorded, reason FROM llm_decisions"
        " WHERE game_id = ? AND decision = 'message' ORDER BY seq",
        gid,
    )
    # the answer was read whole (recorded ok), the rules kept only its first words
    assert rows and {(o, rec) for o, rec, _ in rows} == {("repaired", "ok")}
    assert {r for _, _, r in rows} == {"the rules cut it to their length limit"}
    with DuckStore(db, read_only=True) as store:
        events = store.load_events(gid)
    sent = [e for e in events if type(e).__name__ == "PactMessageSent"]
    assert sent and all(e.cut and e.words == config.max_words + 20 for e in sent)
    got = [(d.seat, o, r) for d, o, r in judged(events)]
    assert got == _rows(db, "SELECT seat, outcome, reason FROM llm_decisions ORDER BY seq")
    # The timeline says why, not that the game refused a move it took (cut).
    shown = [t for _, _, t in timeline(events) if "'s message: " in t]
    assert len(shown) == len(rows)
    assert all("repaired (the rules cut it to their length limit; read as ok)" in t for t in shown)
