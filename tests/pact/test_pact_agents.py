"""PACT's code agents and the reading of model answers."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pactkit import play_names, setup_events

from agents.pact.bots import (
    CODE_AGENTS,
    AnchorAgent,
    MirrorAgent,
    RandomAgent,
    TruthfulAgent,
    default_action,
    parse_answer,
)
from engine.pact.rules import MessageDecision, QuoteDecision, SendMessage, SubmitQuote, draw_values
from events.pact import game as pe
from events.pact.game import PactConfig
from projections.pact.view import PactView

STANDARD = PactConfig(name="standard").validate()
QUOTE = QuoteDecision(seats=(0, 1), round=1, rounds=20, low=0, high=100)
MESSAGE = MessageDecision(seats=(0,), round=1, rounds=20, max_words=100, first=True)
PAIRS = [(b, s) for b in sorted(CODE_AGENTS) for s in sorted(CODE_AGENTS)]


def view_after(seat: int, value: int, cost: int, quotes: list[tuple[int, int]]) -> PactView:
    """A seat's view after rounds with these (bid, ask) quotes (no messages)."""
    log = setup_events(value, cost, STANDARD)
    for i, (bid, ask) in enumerate(quotes, start=1):
        traded = bid >= ask
        log.append(
            pe.PactQuotesRevealed(
                round=i, bid=bid, ask=ask, traded=traded, price=(bid + ask) / 2 if traded else None
            )
        )
    return PactView(seat).sync(log)


def quote_of(agent: object, view: PactView) -> int:
    d = QuoteDecision(seats=(0, 1), round=view.round, rounds=20, low=0, high=100)
    action = agent.act(view, d)  # type: ignore[attr-defined]
    assert isinstance(action, SubmitQuote)
    return int(action.price)


# ----------------------------------------------------------------------------- code agents


def test_the_names_of_the_code_agents() -> None:
    assert sorted(CODE_AGENTS) == ["anchor", "mirror", "random", "truthful"]


def test_truthful_quotes_its_own_number_and_says_it() -> None:
    for seat, number in ((0, 64), (1, 23)):
        view = view_after(seat, 64, 23, [])
        agent = TruthfulAgent(seat, 1, STANDARD)
        assert quote_of(agent, view) == number
        said = agent.act(view, MESSAGE)
        assert isinstance(said, SendMessage) and str(number) in said.text


def test_two_truthful_agents_trade_at_the_midpoint_of_value_and_cost_every_round() -> None:
    seed = next(s for s in range(100) if _values(s)[0] > _values(s)[1])
    value, cost = _values(seed)
    played = play_names(STANDARD, seed, ["truthful", "truthful"])
    reveals = [e for e in played.log if isinstance(e, pe.PactQuotesRevealed)]
    assert all(r.traded and r.price == (value + cost) / 2 for r in reveals)


def _values(seed: int) -> tuple[int, int]:
    _, value, cost = draw_values(STANDARD, seed)
    return value, cost


def test_anchor_opens_far_and_concedes_on_its_schedule() -> None:
    buyer = AnchorAgent(0, 1, STANDARD)
    seller = AnchorAgent(1, 1, STANDARD)
    bids, asks = [], []
    quotes: list[tuple[int, int]] = []
    for _ in range(14):
        # The other side is far away, so nothing trades and the schedule runs on.
        bids.append(quote_of(buyer, view_after(0, 80, 10, [(b, 100) for b, _ in quotes])))
        asks.append(quote_of(seller, view_after(1, 80, 10, [(0, a) for _, a in quotes])))
        quotes.append((bids[-1], asks[-1]))
    assert bids[0] == 40 and asks[0] == 50  # 40 units (40% of the range) off its number
    assert bids[11] == 78 and asks[11] == 12  # the 2-unit floor, reached in round 12
    assert bids[12:] == [78, 78] and asks[12:] == [12, 12]
    assert bids == sorted(bids) and asks == sorted(asks, reverse=True)


def test_anchor_holds_its_quote_after_a_trade() -> None:
    agent = AnchorAgent(0, 1, STANDARD)
    assert quote_of(agent, view_after(0, 80, 10, [(40, 90), (44, 30)])) == 44


def test_mirror_returns_the_other_sides_last_move() -> None:
    agent = MirrorAgent(0, 1, STANDARD)
    assert quote_of(agent, view_after(0, 80, 10, [])) == 55  # opens 25 below its value
    assert quote_of(agent, view_after(0, 80, 10, [(55, 95)])) == 58  # a first small step
    assert quote_of(agent, view_after(0, 80, 10, [(55, 95), (58, 90)])) == 63  # 5 for 5
    assert quote_of(agent, view_after(0, 80, 10, [(55, 95), (58, 90), (63, 93)])) == 60
    assert quote_of(agent, view_after(0, 80, 10, [(55, 95), (58, 90), (63, 70)])) == 80
    seller = MirrorAgent(1, 1, STANDARD)
    assert quote_of(seller, view_after(1, 80, 10, [(20, 35), (25, 32)])) == 27
    assert quote_of(seller, view_after(1, 80, 10, [(5, 15), (13, 14)])) == 10  # never below cost


def test_mirror_against_itself_meets_in_the_middle() -> None:
    seed = next(s for s in range(200) if _values(s)[0] - _values(s)[1] > 30)
    played = play_names(STANDARD, seed, ["mirror", "mirror"])
    assert [e for e in played.log if isinstance(e, pe.PactQuotesRevealed)][5].traded


def test_random_is_reproducible_from_seed_and_seat() -> None:
    view = view_after(0, 50, 50, [])

    def quotes(seed: int, seat: int) -> list[int]:
        agent = RandomAgent(seat, seed, STANDARD)
        return [quote_of(agent, view) for _ in range(10)]

    assert quotes(3, 0) == quotes(3, 0)
    assert quotes(3, 0) != quotes(4, 0)
    assert quotes(3, 0) != quotes(3, 1)
    assert all(0 <= q <= 100 for q in quotes(3, 1))


@pytest.mark.parametrize(("buyer", "seller"), PAIRS)
def test_code_agents_never_send_input_the_rules_reject(buyer: str, seller: str) -> None:
    for seed in range(10):
        log = play_names(STANDARD, seed, [buyer, seller]).log
        assert not any(isinstance(e, pe.PactQuoteRejected | pe.PactMessageReceived) for e in log)


@pytest.mark.parametrize("name", ["truthful", "anchor", "mirror"])
def test_strategic_agents_never_quote_past_their_own_number(name: str) -> None:
    for seed in range(40):
        log = play_names(STANDARD, seed, [name, "random"]).log
        log2 = play_names(STANDARD, seed, ["random", name]).log
        drawn = next(e for e in log if isinstance(e, pe.PactValuesDrawn))
        for e in log:
            if isinstance(e, pe.PactQuotesRevealed):
                assert e.bid <= drawn.value
        for e in log2:
            if isinstance(e, pe.PactQuotesRevealed):
                assert e.ask >= drawn.cost


# ----------------------------------------------------------------------------- model answers


@pytest.mark.parametrize(
    ("text", "price", "stage"),
    [
        ('{"quote": 55}', 55, "json"),
        ('{"reasoning": "start low", "quote": "40 coins"}', 40, "number"),
        ('I think so.\n```json\n{"bid": 61.5}\n```', 61.5, "last_object"),
        ('{"ask": 70.0}', 70, "json"),
        ("My bid is 40, maybe 45.", 45, "number"),
        ("-3", -3, "number"),
        ("9" * 40, 10**18, "number"),
    ],
)
def test_a_quote_answer_is_read(text: str, price: float, stage: str) -> None:
    action, how, error = parse_answer(text, QUOTE, 1)
    assert error is None and how == stage
    assert action == SubmitQuote(seat=1, price=price)
    assert type(action.price) is type(price)


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ('{"reasoning": "hmm"}', '"quote" is missing'),
        ('{"quote": true}', '"quote" must be a number'),
        ('{"quote": "soon"}', '"quote" must be a number'),
        ("no idea", "no number found"),
    ],
)
def test_a_quote_answer_without_a_number_is_an_error(text: str, error: str) -> None:
    action, _, why = parse_answer(text, QUOTE, 0)
    assert action is None and why is not None and error in why


@pytest.mark.parametrize(
    ("text", "said", "stage"),
    [
        ('{"message": "Hello, seller."}', "Hello, seller.", "json"),
        ('{"reasoning": "x", "text": 42}', "42", "json"),
        ('Sure:\n{"message": "deal at 50?"}', "deal at 50?", "last_object"),
        ("  Let us meet at 50.  ", "Let us meet at 50.", "text"),
        ('"Quoted reply"', "Quoted reply", "text"),
        ("```\nfenced words\n```", "fenced words", "text"),
    ],
)
def test_a_message_answer_is_read(text: str, said: str, stage: str) -> None:
    action, how, error = parse_answer(text, MESSAGE, 0)
    assert error is None and how == stage
    assert action == SendMessage(seat=0, text=said)


def test_a_message_answer_that_says_nothing_usable_is_an_error() -> None:
    assert parse_answer("   ", MESSAGE, 0)[2] == "the answer is empty"
    assert parse_answer('{"quote": 5}', MESSAGE, 0)[2] == '"message" is missing'


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=200), quote=st.booleans())
def test_reading_any_answer_never_raises(text: str, quote: bool) -> None:
    action, _, error = parse_answer(text, QUOTE if quote else MESSAGE, 0)
    assert (action is None) != (error is None)


def test_the_default_actions_say_nothing_and_quote_cautiously() -> None:
    assert default_action(MESSAGE, 0) == SendMessage(seat=0, text="")
    assert default_action(QUOTE, 0) == SubmitQuote(seat=0, price=0)
    assert default_action(QUOTE, 1) == SubmitQuote(seat=1, price=100)
