"""GameBench Codenames: the rules played by hand, random play against the invariants, the
key kept from the operatives, the prompts and the code agents."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.gamebench.codenames import AssociateAgent, RandomAgent
from engine.gamebench.codenames import RULES, CnState, GiveClue, Guess, Pass, deal
from engine.gamebench.codenames_words import THEMES, WORDS
from engine.gamebench.common import Explain
from events import catalog
from events.codec import encode
from events.config import SeatSpec
from events.gamebench import codenames as ce
from events.gamebench.codenames import HEADINGS, CodenamesConfig
from projections.gamebench.codenames import (
    CodenamesPrompter,
    CodenamesView,
    parse_answer,
    timeline,
)
from runner.replay import verify
from runner.session import play_game

GAME = catalog.get("gamebench:codenames")
CONFIG = CodenamesConfig()
SEATS = tuple(SeatSpec(agent="test") for _ in range(4))
LETTER = {"R": "red", "B": "blue", "N": "neutral", "A": "assassin"}
KEY = "RRRRRRRRRBBBBBBBBNNNA"
"""Cards 0-8 red, 9-16 blue, 17-19 neutral, 20 the assassin."""
WORDS21 = tuple(w for w in WORDS if w not in THEMES)[:21]


def board(key: str = KEY, config: CodenamesConfig = CONFIG) -> tuple[CnState, list[Any]]:
    """A game at its first clue with a chosen key."""
    events: list[Any] = [
        ce.CnStarted(seed=0, config=config, seats=SEATS, engine_version=RULES.version),
        ce.CnBoardDealt(words=WORDS21),
        ce.CnKeyDealt(key=tuple(LETTER[k] for k in key)),  # type: ignore[arg-type]
    ]
    return RULES.fold(events), events


def play(state: CnState, log: list[Any], *actions: Any) -> CnState:
    """Apply actions one decision at a time, appending their events to `log`."""
    for a in actions:
        d = RULES.pending(state)
        assert d is not None, "the game is over"
        state, evs = RULES.step(state, d, [a])
        log.extend(evs)
    return state


def w(i: int) -> str:
    return WORDS21[i]


def test_the_deal_is_21_cards_9_8_3_1_from_the_seed() -> None:
    words, key = deal(CONFIG, 5)
    assert len(set(words)) == 21 and set(words) <= set(WORDS)
    assert [key.count(t) for t in ("red", "blue", "neutral", "assassin")] == [9, 8, 3, 1]
    assert deal(CONFIG, 5) == (words, key) and deal(CONFIG, 6) != (words, key)


def test_a_turn_allows_n_plus_one_guesses_then_passes_to_the_other_team() -> None:
    s, log = board()
    s = play(s, log, GiveClue(seat=0, word="zebra", number=2), Guess(seat=1, word=w(0)))
    s = play(s, log, Guess(seat=1, word=w(1)), Guess(seat=1, word=w(2).upper()))
    ended = [e for e in log if isinstance(e, ce.CnTurnEnded)]
    assert [(e.team, e.reason, e.guesses) for e in ended] == [("red", "limit", 3)]
    d = RULES.pending(s)
    assert d is not None and d.seats == (2,) and d.kind == "clue" and s.turn == 2


def test_a_miss_ends_the_turn_and_a_zero_clue_has_no_limit() -> None:
    s, log = board()
    s = play(s, log, GiveClue(seat=0, word="zebra", number=0))
    s = play(s, log, *(Guess(seat=1, word=w(i)) for i in range(5)), Guess(seat=1, word=w(17)))
    ended = [e for e in log if isinstance(e, ce.CnTurnEnded)]
    assert [(e.reason, e.guesses) for e in ended] == [("miss", 6)]
    s = play(s, log, GiveClue(seat=2, word="zebra", number=1), Pass(seat=3))
    assert log[-1] == ce.CnTurnEnded(team="blue", turn=2, reason="pass", guesses=0)


def test_the_assassin_ends_the_game_and_zeroes_the_guessing_team() -> None:
    s, log = board()
    s = play(s, log, GiveClue(seat=0, word="zebra", number=3), Guess(seat=1, word=w(0)))
    s = play(s, log, Guess(seat=1, word=w(20)))
    end = log[-1]
    assert isinstance(end, ce.CnEnded) and end.reason == "assassin" and end.winner == "blue"
    assert end.points == (0, 3)  # red's card does not count; blue wins 0 cards + 3
    assert end.scores == (0.0, 0.0, 1.0, 1.0) and end.ranks == (3, 3, 1, 1)
    assert RULES.pending(s) is None


def test_revealing_the_other_teams_last_card_makes_it_win() -> None:
    s, log = board("RBNNNNNNNNNNNNNNNNNNA", CodenamesConfig(red=1, blue=1, neutral=18))
    s = play(s, log, GiveClue(seat=0, word="zebra", number=1), Guess(seat=1, word=w(1)))
    end = log[-1]
    assert isinstance(end, ce.CnEnded) and end.reason == "all_found" and end.winner == "blue"
    assert end.points == (0, 4) and end.scores == (0.0, 0.0, 1.0, 1.0)


def test_finding_all_own_cards_wins_with_a_share_of_the_points() -> None:
    s, log = board()
    s = play(s, log, GiveClue(seat=0, word="zebra", number=0))
    s = play(s, log, Guess(seat=1, word=w(9)))  # blue's card: the turn ends
    s = play(s, log, GiveClue(seat=2, word="zebra", number=1), Pass(seat=3))
    s = play(s, log, GiveClue(seat=0, word="zebra", number=0))
    s = play(s, log, *(Guess(seat=1, word=w(i)) for i in range(9)))
    end = log[-1]
    assert isinstance(end, ce.CnEnded) and end.winner == "red" and end.points == (12, 1)
    assert end.scores[0] == 12 / 13 and sum(end.scores[1:3]) == pytest.approx(1)


@pytest.mark.parametrize(
    ("word", "number", "why"),
    [
        (WORDS21[3], 1, "form of the board word"),
        (WORDS21[3] + "s", 1, "form of the board word"),
        ("two words", 1, "exactly one word"),
        ("zebra", 10, "number of a clue is 0..9"),
        ("zebra", -1, "number of a clue is 0..9"),
        ("", 1, "exactly one word"),
    ],
)
def test_a_forbidden_clue_is_refused_privately_and_an_empty_clue_stands_in(
    word: str, number: int, why: str
) -> None:
    s, log = board()
    s = play(s, log, GiveClue(seat=0, word=word, number=number))
    refused, given = log[-2:]
    assert isinstance(refused, ce.CnRequestRefused) and why in refused.reason
    assert refused.audience() == (0,)
    assert given == ce.CnClueGiven(seat=0, team="red", turn=1, word="", number=1, refused=True)
    d = RULES.pending(s)
    assert d is not None and d.kind == "guess" and d.left == 2


def test_a_word_not_hidden_on_the_board_ends_the_turn() -> None:
    s, log = board()
    s = play(s, log, GiveClue(seat=0, word="zebra", number=2), Guess(seat=1, word="zebra"))
    assert isinstance(log[-2], ce.CnRequestRefused) and log[-2].audience() == (1,)
    assert log[-1].reason == "refused" and RULES.pending(s).seats == (2,)  # type: ignore[union-attr]


def test_explain_shows_a_heading_once_and_asks_again_within_an_allowance() -> None:
    s, log = board()
    s = play(s, log, Explain(heading="turn structure"))
    assert log[-1] == ce.CnRuleExplained(seat=0, heading="Turn Structure", turn=1)
    assert log[-1].audience() == (0,) and RULES.pending(s).kind == "clue"  # type: ignore[union-attr]
    s = play(s, log, Explain(heading="Turn Structure"), Explain(heading="Nope"))
    assert [e.reason[:20] for e in log[-2:]] == ["the rules under 'Tur", "no rules under the h"]
    for h in HEADINGS[:-3]:
        if h != "Turn Structure":
            s = play(s, log, Explain(heading=h))
    assert s.requests[0] == len(HEADINGS) - 1 and RULES.pending(s).kind == "clue"  # type: ignore[union-attr]
    # The last request is granted; one more is refused and the decision's fallback plays.
    s = play(s, log, Explain(heading="Scoring"), Explain(heading="Roles"))
    assert log[-3] == ce.CnRuleExplained(seat=0, heading="Scoring", turn=1)
    assert "no explanation requests left" in log[-2].reason
    assert isinstance(log[-1], ce.CnClueGiven) and log[-1].refused


def test_the_game_stops_after_max_turns_without_a_winner() -> None:
    s, log = board(config=CodenamesConfig(max_turns=2))
    s = play(s, log, GiveClue(seat=0, word="zebra", number=1), Guess(seat=1, word=w(0)))
    s = play(s, log, Pass(seat=1), GiveClue(seat=2, word="zebra", number=1), Pass(seat=3))
    end = log[-1]
    assert isinstance(end, ce.CnEnded) and end.reason == "turn_limit" and end.winner is None
    assert end.points == (1, 0) and end.scores == (1.0, 1.0, 0.0, 0.0)


# --------------------------------------------------------------------------- random play


def _actions(data: st.DataObject, d: Any, s: CnState) -> Any:
    seat = d.seats[0]
    pick = data.draw(st.integers(0, 9))
    if pick == 0:
        return Explain(heading=data.draw(st.sampled_from([*HEADINGS, "x"])))
    if d.kind == "clue":
        word = data.draw(st.sampled_from([*THEMES[:8], *s.words[:3], "two words"]))
        return GiveClue(seat=seat, word=word, number=data.draw(st.integers(-1, 10)))
    if pick == 1:
        return Pass(seat=seat)
    return Guess(seat=seat, word=data.draw(st.sampled_from([*s.words, "nope"])))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**63 - 1), data=st.data())
def test_any_play_keeps_the_invariants(seed: int, data: st.DataObject) -> None:
    config = CodenamesConfig(max_turns=12)
    s, log = RULES.start(config, seed, SEATS)
    decisions = 0
    while (d := RULES.pending(s)) is not None:
        s, evs = RULES.step(s, d, [_actions(data, d, s)])
        log.extend(evs)
        decisions += 1
        assert decisions <= RULES.max_decisions(config)
        assert s.found("red") <= config.red and s.found("blue") <= config.blue
    end = log[-1]
    assert isinstance(end, ce.CnEnded)
    assert all(0 <= x <= 1 for x in end.scores) and end.scores[0] + end.scores[2] == pytest.approx(
        1
    )
    assert end.scores[0] == end.scores[1] and end.scores[2] == end.scores[3]
    assert RULES.fold(log) == s
    assert [GAME.decoder.decode(encode(e)) for e in log] == log
    # Every refusal and explanation is seen by its seat only; the key by the spymasters.
    for e in log:
        if isinstance(e, ce.CnRequestRefused | ce.CnRuleExplained):
            assert e.audience() == (e.seat,)
        if isinstance(e, ce.CnKeyDealt):
            assert e.audience() == (0, 2)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**63 - 1))
def test_code_agents_games_replay_and_verify(seed: int) -> None:
    record = play_game(CONFIG, seed, ["associate", "random", "random", "associate"])
    assert verify(record.events).ok


def test_the_association_agents_beat_random_ones() -> None:
    total = 0.0
    for seed in range(6):
        a = play_game(CONFIG, seed, ["associate", "associate", "random", "random"]).result
        b = play_game(CONFIG, seed, ["random", "random", "associate", "associate"]).result
        assert a is not None and b is not None
        total += a.scores[0] + b.scores[2]
    assert total / 12 > 0.75


# --------------------------------------------------------------------------- what a seat sees


def _prompt(events: list[Any], seat: int, mode: str = "prompt") -> str:
    view = CodenamesView(seat).sync(events)
    d = RULES.pending(RULES.fold(events))
    assert d is not None
    return CodenamesPrompter(mode=mode).decision_prompt(view, d, "full", None)


def test_an_operatives_view_and_prompt_ignore_the_hidden_key() -> None:
    """Swap test: permuting the types of the cards still hidden changes nothing an operative
    sees, before the first clue and after cards are revealed."""
    s, log = board()
    s = play(s, log, GiveClue(seat=0, word="zebra", number=2), Guess(seat=1, word=w(0)))
    hidden = [i for i in range(21) if not s.revealed[i]]
    key = list(s.key)
    perm = [key[i] for i in hidden][::-1]
    other = list(key)
    for i, k in zip(hidden, perm, strict=True):
        other[i] = k
    assert other != key
    swapped = [
        ce.CnKeyDealt(key=tuple(other)) if isinstance(e, ce.CnKeyDealt) else e  # type: ignore[arg-type]
        for e in log
    ]
    for seat in (1, 3):
        a = CodenamesView(seat).sync(log)
        b = CodenamesView(seat).sync(swapped)
        assert encode(a.snapshot()) == encode(b.snapshot())
    assert _prompt(log, 1) == _prompt(swapped, 1)
    assert _prompt(log, 1, "cot") == _prompt(swapped, 1, "cot")
    # The spymasters do see the difference.
    assert encode(CodenamesView(0).sync(log).snapshot()) != encode(
        CodenamesView(0).sync(swapped).snapshot()
    )


def test_prompts(snapshot: Any) -> None:
    s, log = board()
    s = play(s, log, Explain(heading="Roles"))
    spymaster = _prompt(log, 0)
    s = play(s, log, GiveClue(seat=0, word="zebra", number=2), Guess(seat=1, word=w(0)))
    operative = _prompt(log, 1, "cot")
    assert "hidden, red" in spymaster and "* Roles:" in spymaster
    assert "hidden, red" not in operative and "Turn Structure" in operative
    assert {"spymaster": spymaster, "operative_cot": operative} == snapshot


@pytest.mark.parametrize(
    ("text", "kind", "expected"),
    [
        ("I think ocean.\nAction: ocean 2", "clue", GiveClue(seat=0, word="ocean", number=2)),
        ("Action: Clue: ocean, unlimited", "clue", GiveClue(seat=0, word="ocean", number=0)),
        ("Action: Explain(Scoring)", "clue", Explain(heading="Scoring")),
        ("explain(turn structure)", "guess", Explain(heading="turn structure")),
        ("Action: pass", "guess", Pass(seat=0)),
        (f"Action: {WORDS21[4].upper()}", "guess", Guess(seat=0, word=WORDS21[4])),
        ("Action: ocean", "clue", None),
        ("Action: zebra", "guess", None),
        ("", "guess", None),
    ],
)
def test_answers_are_read(text: str, kind: str, expected: Any) -> None:
    s, log = board()
    if kind == "guess":
        s = play(s, log, GiveClue(seat=0, word="zebra", number=1))
    d = RULES.pending(s)
    assert d is not None and d.kind == kind
    action, _, error = parse_answer(text, d, 0)
    assert action == expected and (error is None) == (expected is not None)


def test_the_code_agents_play_their_roles() -> None:
    s, log = board()
    view = CodenamesView(0).sync(log)
    d = RULES.pending(s)
    clue = AssociateAgent(0, 1, CONFIG).act(view, d)
    assert isinstance(clue, GiveClue) and clue.number >= 1
    s = play(s, log, clue)
    guess = AssociateAgent(1, 1, CONFIG).act(CodenamesView(1).sync(log), RULES.pending(s))
    assert isinstance(guess, Guess | Pass)
    r = RandomAgent(1, 1, CONFIG).act(CodenamesView(1).sync(log), RULES.pending(s))
    assert isinstance(r, Guess | Pass)


def test_golden_playthrough(snapshot: Any) -> None:
    """A whole game of code agents as every seat reads it (regenerate: --snapshot-update)."""
    record = play_game(CONFIG, 3, ["associate", "associate", "random", "random"])
    seen = {str(seat): timeline(record.events, seat) for seat in (None, 0, 1)}
    assert seen == snapshot


@settings(max_examples=60, deadline=None)
@given(text=st.text(max_size=80), kind=st.sampled_from(["clue", "guess"]))
def test_any_answer_is_read_or_refused_in_one_line(text: str, kind: str) -> None:
    s, log = board()
    if kind == "guess":
        s = play(s, log, GiveClue(seat=0, word="zebra", number=1))
    d = RULES.pending(s)
    action, stage, error = parse_answer(text, d, d.seats[0])
    assert (action is None) == (error is not None) and isinstance(stage, str)
    if error is not None:
        assert "\n" not in error and len(error) < 200
    if action is not None:  # whatever was read, the rules take it without raising
        RULES.step(s, d, [action])


def test_structured_answers_offer_the_hidden_words_pass_and_the_headings_left() -> None:
    s, log = board()
    s = play(s, log, GiveClue(seat=0, word="zebra", number=1))
    s = play(s, log, Explain(heading="Scoring"))
    d = RULES.pending(s)
    schema = CodenamesPrompter().answer_schema(CodenamesView(1).sync(log), d)
    options = schema["properties"]["action"]["enum"]
    assert schema["required"] == ["action"] and options[:21] == list(WORDS21)
    assert "pass" in options and "Explain(Roles)" in options
    assert "Explain(Scoring)" not in options
    action, stage, _ = parse_answer(f'{{"action": "{WORDS21[2]}"}}', d, 1)
    assert action == Guess(seat=1, word=WORDS21[2]) and stage == "json"


def test_gamebench_random_clues_none_for_one_and_verifies(tmp_path: Any) -> None:
    """GameBench's random spymaster answers with an empty string, which its Codenames turns
    into the clue "None" for 1; its operative picks among the hidden words and ending the
    turn. Its games are stored, replay from the spec and seed, and depend on the seed only."""
    from events.store import DuckStore
    from runner.session import play_and_store
    from runner.verify import check_game

    lineup = ["gamebench-random", "gamebench-random", "associate", "associate"]
    record = play_game(CONFIG, 4, lineup)
    clues = [e for e in record.events if isinstance(e, ce.CnClueGiven)]
    mine = [(c.word.lower(), c.number, c.refused) for c in clues if c.seat == 0]
    assert mine and set(mine) == {("none", 1, False)}  # the rules store clue words lower-case
    assert any(c.seat == 2 and c.word.lower() != "none" for c in clues)  # the other side
    again = play_game(CONFIG, 4, lineup)
    assert [encode(e) for e in again.events] == [encode(e) for e in record.events]
    other = play_game(CONFIG, 5, lineup)
    assert [encode(e) for e in other.events] != [encode(e) for e in record.events]
    with DuckStore(tmp_path / "cn.duckdb") as store:
        gid, _ = play_and_store(store, CONFIG, 4, lineup)
        check = check_game(store.load_rows(gid))
    assert check.outcome == "verified", check.problem
