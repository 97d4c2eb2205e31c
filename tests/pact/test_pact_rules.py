"""PACT's rules, one by one: clearing, prices and profits, scores, speaking order, messages,
bad quotes and their fallbacks, the value draw, and what the decider refuses."""

from __future__ import annotations

import math

import pytest
from pactkit import play_names, position, quote, round_of, seats_of, setup_events, talk

from engine.pact.rules import (
    RULES,
    IllegalAction,
    MessageDecision,
    QuoteDecision,
    SendMessage,
    SubmitQuote,
    clean_message,
    draw_values,
    quote_from_raw,
    quote_raw,
)
from events.pact import game as pe
from events.pact.game import DISTRIBUTIONS, PactConfig, PactConfigError, ValueMix

STANDARD = PactConfig(name="standard").validate()
QUICK = PactConfig(rounds=5, name="quick").validate()


def revealed(events: list) -> pe.PactQuotesRevealed:
    found = [e for e in events if isinstance(e, pe.PactQuotesRevealed)]
    assert len(found) == 1
    return found[0]


# ----------------------------------------------------------------------------- clearing


def test_bid_above_ask_trades_at_the_midpoint() -> None:
    state, events = round_of(position(80, 30), 60, 40)
    assert revealed(events) == pe.PactQuotesRevealed(
        round=1, bid=60, ask=40, traded=True, price=50.0
    )
    assert state.profits == (30.0, 20.0)
    assert state.trades == 1


def test_bid_equal_to_ask_trades_at_that_price() -> None:
    state, events = round_of(position(80, 30), 55, 55)
    assert revealed(events).price == 55.0
    assert state.profits == (25.0, 25.0)


def test_bid_below_ask_does_not_trade_and_earns_nothing() -> None:
    state, events = round_of(position(80, 30), 54, 55)
    assert revealed(events) == pe.PactQuotesRevealed(round=1, bid=54, ask=55, traded=False)
    assert state.profits == (0.0, 0.0)
    assert state.trades == 0


def test_the_midpoint_may_be_a_half_unit() -> None:
    state, events = round_of(position(100, 98), 100, 99)
    assert revealed(events).price == 99.5
    assert state.profits == (0.5, 1.5)


def test_a_trade_beyond_ones_own_number_loses_money() -> None:
    state, _ = round_of(position(40, 60), 70, 50)  # trades at 60: buyer pays above its value
    assert state.profits == (-20.0, 0.0)


def test_the_score_is_the_cumulative_profit_and_ranks_share_ties() -> None:
    state = position(90, 10, QUICK)
    quotes = [(50, 50), (70, 30), (20, 80), (61, 60), (50, 50)]
    events: list = []
    for bid, ask in quotes:
        state, more = round_of(state, bid, ask)
        events += more
    end = events[-1]
    assert isinstance(end, pe.PactGameEnded)
    # buyer: 40 + 40 + 0 + 29.5 + 40; seller: 40 + 40 + 0 + 50.5 + 40
    assert end.scores == (149.5, 170.5)
    assert end.ranks == (2, 1)
    assert end.trades == 4 and end.rounds == 5
    assert RULES.pending(state) is None
    tie = position(60, 40, PactConfig(rounds=1).validate())
    state, events = round_of(tie, 50, 50)
    assert events[-1].scores == (10.0, 10.0) and events[-1].ranks == (1, 1)


def test_a_game_has_the_configured_number_of_rounds() -> None:
    played = play_names(STANDARD, 5, ["truthful", "anchor"])
    reveals = [e for e in played.log if isinstance(e, pe.PactQuotesRevealed)]
    assert [e.round for e in reveals] == list(range(1, 21))
    messages = [e for e in played.log if isinstance(e, pe.PactMessageSent)]
    assert len(messages) == 40
    assert isinstance(played.log[-1], pe.PactGameEnded)
    assert played.state.phase == "ended"


# ----------------------------------------------------------------------------- speaking order


def speakers(config: PactConfig) -> list[int]:
    played = play_names(config, 3, ["random", "random"])
    return [e.seat for e in played.log if isinstance(e, pe.PactMessageSent)]


def test_the_buyer_speaks_first_in_odd_rounds_and_the_seller_in_even_rounds() -> None:
    assert speakers(QUICK) == [0, 1, 1, 0, 0, 1, 1, 0, 0, 1]


@pytest.mark.parametrize(("first", "seat"), [("buyer", 0), ("seller", 1)])
def test_a_fixed_first_speaker(first: str, seat: int) -> None:
    config = PactConfig(rounds=3, first_speaker=first).validate()  # type: ignore[arg-type]
    assert speakers(config) == [seat, 1 - seat] * 3


def test_both_quote_at_once_after_both_messages() -> None:
    state = position(70, 30)
    d = RULES.pending(state)
    assert isinstance(d, MessageDecision) and d.seats == (0,) and d.first
    state, _ = RULES.step(state, d, [SendMessage(seat=0, text="hi")])
    d = RULES.pending(state)
    assert isinstance(d, MessageDecision) and d.seats == (1,) and not d.first
    state, _ = RULES.step(state, d, [SendMessage(seat=1, text="hi")])
    d = RULES.pending(state)
    assert d == QuoteDecision(seats=(0, 1), round=1, rounds=20, low=0, high=100)


# ----------------------------------------------------------------------------- messages


def test_a_message_of_101_words_is_cut_to_100_and_the_cut_recorded() -> None:
    text = " ".join(f"w{i}" for i in range(101))
    state = position(70, 30)
    d = RULES.pending(state)
    _, events = RULES.step(state, d, [SendMessage(seat=0, text=text)])
    received, sent = events
    assert received == pe.PactMessageReceived(round=1, seat=0, raw=text)
    assert received.audience() == ()  # engine-only: the cut part reaches nobody
    assert sent.text == " ".join(f"w{i}" for i in range(100))
    assert (sent.words, sent.cut) == (101, True)
    assert sent.audience() is None


def test_a_message_of_100_words_stands_as_written() -> None:
    text = " ".join(f"w{i}" for i in range(100))
    state = position(70, 30)
    _, events = RULES.step(state, RULES.pending(state), [SendMessage(seat=0, text=text)])
    assert events == [pe.PactMessageSent(round=1, seat=0, text=text, words=100, cut=False)]


def test_control_characters_become_spaces_and_the_submitted_text_is_kept() -> None:
    raw = "bid\n\t60\x00 or\x1b[31m more\u2028please  "
    state = position(70, 30)
    _, events = RULES.step(state, RULES.pending(state), [SendMessage(seat=0, text=raw)])
    assert events[0] == pe.PactMessageReceived(round=1, seat=0, raw=raw)
    assert events[1].text == "bid 60 or [31m more please"
    assert not events[1].cut


def test_one_overlong_word_is_cut_to_the_character_limit() -> None:
    text, words, cut = clean_message("x" * 5000, 100, 1000)
    assert (len(text), words, cut) == (1000, 1, True)


def test_anything_is_accepted_as_a_message() -> None:
    state = position(70, 30)
    d = RULES.pending(state)
    for text in ("", 12, None, "a\ud800b"):
        _, events = RULES.step(state, d, [SendMessage(seat=0, text=text)])  # type: ignore[arg-type]
        assert isinstance(events[-1], pe.PactMessageSent)
    _, events = RULES.step(state, d, [SendMessage(seat=0, text="a\ud800b")])
    assert events[-1].text == "a?b"


# ----------------------------------------------------------------------------- bad quotes


@pytest.mark.parametrize(
    ("bid", "ask", "used", "reasons"),
    [
        (150, 40, (100, 40), ["above the highest quote: lowered to 100", None]),
        (-5, 101, (0, 100), ["below the lowest quote: raised to 0", "above the highest quote"]),
        (55.5, 40.2, (55, 41), ["rounded down to 55", "rounded up to 41"]),
        (float("nan"), "60", (0, 100), ["not a number", "not a number"]),
        (None, float("inf"), (0, 100), ["not a number", "not a number"]),
        (True, [1], (0, 100), ["not a number", "not a number"]),
        (10**30, -(10**30), (100, 0), ["lowered to 100", "raised to 0"]),
        (101.5, -0.5, (100, 0), ["rounded down to 101; above", "rounded up to 0"]),
    ],
)
def test_a_bad_quote_is_rejected_and_replaced_by_its_fallback(
    bid: object, ask: object, used: tuple[int, int], reasons: list[str | None]
) -> None:
    state, _ = talk(position(70, 30))
    state, events = quote(state, bid, ask)
    rejected = {e.seat: e for e in events if isinstance(e, pe.PactQuoteRejected)}
    for seat, (raw, reason) in enumerate(zip((bid, ask), reasons, strict=True)):
        if reason is None:
            assert seat not in rejected
            continue
        e = rejected[seat]
        assert reason in e.reason
        assert e.used == used[seat]
        assert e.audience() == (seat,)  # sealed: the other side never sees it
        assert quote_raw(quote_from_raw(e.raw)) == e.raw == quote_raw(raw)
    shown = revealed(events)
    assert (shown.bid, shown.ask) == used


def test_a_whole_float_quote_stands_without_rejection() -> None:
    state, _ = talk(position(70, 30))
    _, events = quote(state, 60.0, 40.0)
    assert events == [pe.PactQuotesRevealed(round=1, bid=60, ask=40, traded=True, price=50.0)]


def test_the_cautious_fallback_never_trades_at_a_loss() -> None:
    for value, cost in ((0, 100), (100, 0), (37, 63)):
        for other in range(0, 101, 5):
            state, _ = talk(position(value, cost))
            state, _ = quote(state, "no idea", other)
            assert state.profits[0] >= 0
            state, _ = talk(position(value, cost))
            state, _ = quote(state, other, None)
            assert state.profits[1] >= 0


# ----------------------------------------------------------------------------- values


def test_values_are_drawn_once_and_fixed_for_every_round() -> None:
    played = play_names(STANDARD, 11, ["mirror", "anchor"])
    drawn = [e for e in played.log if isinstance(e, pe.PactValuesDrawn)]
    dealt = [e for e in played.log if isinstance(e, pe.PactValueDealt)]
    assert len(drawn) == 1
    assert [(e.seat, e.role, e.amount) for e in dealt] == [
        (0, "buyer", drawn[0].value),
        (1, "seller", drawn[0].cost),
    ]
    state = RULES.fold(played.log[:4])
    for i in range(4, len(played.log)):
        state = RULES.evolve(state, played.log[i])
        assert (state.value, state.cost) == (drawn[0].value, drawn[0].cost)


def test_values_depend_on_the_seed_not_on_who_sits_where() -> None:
    for seed in range(30):
        _, a = RULES.start(STANDARD, seed, seats_of(["truthful", "anchor"]))
        _, b = RULES.start(STANDARD, seed, seats_of(["anchor", "truthful"]))
        assert a[1:] == b[1:]
    draws = {draw_values(STANDARD, seed)[1:] for seed in range(30)}
    assert len(draws) > 20


def test_each_distribution_is_reached_and_stays_inside_the_range() -> None:
    for low, high in ((0, 100), (-50, 50), (1000, 1010)):
        config = PactConfig(value_low=low, value_high=high, quote_low=low, quote_high=high)
        seen: dict[str, int] = {}
        for seed in range(400):
            kind, value, cost = draw_values(config.validate(), seed)
            assert low <= value <= high and low <= cost <= high
            assert isinstance(value, int) and isinstance(cost, int)
            seen[kind] = seen.get(kind, 0) + 1
        assert set(seen) == set(DISTRIBUTIONS)


@pytest.mark.parametrize("kind", DISTRIBUTIONS)
def test_a_mix_of_one_distribution_draws_only_from_it(kind: str) -> None:
    weights = dict.fromkeys(DISTRIBUTIONS, 0.0) | {kind: 1.0}
    config = PactConfig(values=ValueMix(**weights)).validate()
    draws = [draw_values(config, seed) for seed in range(300)]
    assert {d[0] for d in draws} == {kind}
    values = [d[1] for d in draws]
    costs = [d[2] for d in draws]
    assert all(0 <= x <= 100 for x in values + costs)
    # Each shape shows: correlated sides move together, the others do not.
    pairs = list(zip(values, costs, strict=True))
    close = sum(abs(v - c) <= 20 for v, c in pairs) / len(pairs)
    if kind == "correlated":
        assert close > 0.75
    else:
        assert close < 0.75
    if kind == "heavy_tailed":
        middle = sum(35 <= x <= 65 for x in values) / len(values)
        assert middle > 0.65
        assert min(values) < 15 or max(values) > 85  # the rare extremes
    if kind == "semi_bimodal":
        valley = sum(45 <= x <= 55 for x in values + costs)
        hump = sum(25 <= x <= 35 for x in values + costs)
        assert hump > 1.5 * valley


# ----------------------------------------------------------------------------- refusals


def test_actions_that_answer_no_pending_decision_raise() -> None:
    state = position(70, 30)
    d = RULES.pending(state)
    with pytest.raises(IllegalAction):
        RULES.step(state, d, [SendMessage(seat=1, text="not my turn")])
    with pytest.raises(IllegalAction):
        RULES.step(state, d, [SubmitQuote(seat=0, price=5)])
    with pytest.raises(IllegalAction):
        RULES.step(state, d, [])
    state, _ = talk(state)
    d = RULES.pending(state)
    with pytest.raises(IllegalAction):
        RULES.step(state, d, [SubmitQuote(seat=1, price=5), SubmitQuote(seat=0, price=5)])
    with pytest.raises(IllegalAction):
        RULES.step(state, d, [SubmitQuote(seat=0, price=5)])
    over = play_names(QUICK, 1, ["random", "random"]).state
    with pytest.raises(IllegalAction):
        RULES.step(over, d, [SubmitQuote(seat=0, price=5), SubmitQuote(seat=1, price=5)])


def test_recorded_action_raises_lookup_error_when_the_log_lacks_it() -> None:
    events = setup_events(70, 30, STANDARD)
    d = RULES.pending(RULES.fold(events))
    with pytest.raises(LookupError):
        RULES.recorded_action(events, len(events), 0, d)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"players": 3}, "exactly 2 players"),
        ({"rounds": 0}, "rounds"),
        ({"max_words": 0}, "max_words"),
        ({"max_chars": 10}, "max_chars"),
        ({"value_low": 50, "value_high": 50}, "value_low must be below"),
        ({"quote_low": 10}, "quote range must contain"),
        ({"quote_high": 10**7}, "within"),
        ({"first_speaker": "both"}, "first_speaker"),
        ({"values": ValueMix(uniform=0, correlated=0, semi_bimodal=0, heavy_tailed=0)}, "weights"),
        ({"values": ValueMix(uniform=-1)}, "weights"),
        ({"values": ValueMix(uniform=math.nan)}, "weights"),
        ({"values": ValueMix(modes=(0.2, 1.5))}, "fractions"),
        ({"values": ValueMix(centre_low=0.8, centre_high=0.2)}, "centre_low"),
        ({"values": ValueMix(tail_scale=0)}, "spreads"),
    ],
)
def test_a_configuration_the_rules_cannot_play_is_refused(change: dict, words: str) -> None:
    with pytest.raises(PactConfigError, match=words) as info:
        PactConfig(**change).validate()
    assert isinstance(info.value, ValueError)


def test_the_turn_column_is_the_round() -> None:
    played = play_names(QUICK, 2, ["anchor", "mirror"])
    for e, turn in zip(played.log, played.turns, strict=True):
        if isinstance(e, pe.PactMessageSent | pe.PactQuotesRevealed):
            assert turn == e.round
        elif isinstance(e, pe.PactGameStarted | pe.PactValuesDrawn | pe.PactValueDealt):
            assert turn == 0
    assert played.turns[-1] == 5
