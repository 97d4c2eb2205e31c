"""Hidden values: a seat never sees the other side's private number, nor the other side's
quote of a round before both quotes are in: not in its view, not in its prompts."""

from __future__ import annotations

import re
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st
from pactkit import play, play_any, setup_events

from agents.pact.bots import CODE_AGENTS
from engine.pact.rules import AnyPactDecision, SendMessage, SubmitQuote
from events.pact import game as pe
from events.pact.game import PactConfig
from projections.pact.view import PactPrompter, PactView

PROMPTER = PactPrompter()
NAMES = [*sorted(CODE_AGENTS), "noisy"]
QUICK = PactConfig(rounds=5, name="quick").validate()


def prompt(view: PactView, d: AnyPactDecision) -> str:
    """Everything a model seat would read for this decision."""
    assert view.config is not None
    system = PROMPTER.system_prompt(view.config, None, view.seat)
    return system + "\n" + PROMPTER.decision_prompt(view, d)


# ----------------------------------------------------------------------------- non-interference


def scrambled(e: Any) -> Any:
    """A hidden event with every number and text in it changed."""
    match e:
        case pe.PactValuesDrawn():
            return msgspec.structs.replace(
                e, distribution="other", value=e.value + 7, cost=e.cost + 13
            )
        case pe.PactValueDealt():
            return msgspec.structs.replace(e, amount=e.amount + 29)
        case pe.PactQuoteRejected():
            return msgspec.structs.replace(e, raw="31337", reason="scrambled", used=e.used + 1)
        case pe.PactMessageReceived():
            return msgspec.structs.replace(e, raw="scrambled text")
    raise AssertionError(f"unexpected hidden event {e!r}")


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**63 - 1),
    buyer=st.sampled_from(NAMES),
    seller=st.sampled_from(NAMES),
)
def test_a_seat_sees_the_same_whatever_it_may_not_see(seed: int, buyer: str, seller: str) -> None:
    """At every decision, a seat's view and prompt stay the same when every event hidden from
    it (the draw, the other's number, the other's rejected quotes, raw messages) is changed."""
    checked = 0

    def before(seat: int, view: PactView, d: Any, log: list[Any]) -> None:
        nonlocal checked
        other = [e if visible(e, seat) else scrambled(e) for e in log[: view.seen]]
        twin = PactView(seat).sync(other)
        assert prompt(twin, d) == prompt(view, d)
        assert (twin.value, twin.profit, twin.trades) == (view.value, view.profit, view.trades)
        assert all(visible(e, seat) for e in view.history)
        checked += 1

    played = play_any(QUICK, seed, [buyer, seller], before=before)
    assert checked == 4 * QUICK.rounds  # two messages and two quotes per round
    assert isinstance(played.log[-1], pe.PactGameEnded)


def visible(e: Any, seat: int) -> bool:
    aud = e.audience()
    return aud is None or seat in aud


# ----------------------------------------------------------------------------- number search


class Scripted:
    """Plays given messages and quotes, one per round."""

    def __init__(self, seat: int, messages: list[str], quotes: list[Any]) -> None:
        self.seat = seat
        self.messages = messages
        self.quotes = quotes

    def act(self, view: PactView, d: Any) -> Any:
        if d.kind == "message":
            return SendMessage(seat=self.seat, text=self.messages[d.round - 1])
        return SubmitQuote(seat=self.seat, price=self.quotes[d.round - 1])


WIDE = PactConfig(
    rounds=6, value_low=0, value_high=999_999, quote_low=0, quote_high=1_000_000
).validate()
ROUNDS = WIDE.rounds

no_digits = st.text(alphabet=st.characters(blacklist_characters="0123456789"), max_size=60)
long_text = st.lists(st.sampled_from(["deal", "no", "x\ny", "\x00"]), min_size=95, max_size=140)
messages = st.lists(st.one_of(no_digits, long_text.map(" ".join)), min_size=ROUNDS, max_size=ROUNDS)
# Quotes live in bands that never cross (no trade, so no profit can echo a hidden number):
# bids have 5 digits from 10000 to 49999, asks from 50000 to 99999; values have 6 digits.
bids = st.lists(st.integers(10_000, 49_999), min_size=ROUNDS, max_size=ROUNDS, unique=True)
asks = st.lists(st.integers(50_000, 99_999), min_size=ROUNDS, max_size=ROUNDS, unique=True)
secrets = st.lists(st.integers(100_000, 999_990), min_size=2, max_size=2, unique=True)
spoilers = st.lists(
    st.sampled_from([None, "nan", "fraction", "below"]), min_size=ROUNDS, max_size=ROUNDS
)


def spoil(quotes: list[int], how: list[str | None], seat: int) -> list[Any]:
    """Some quotes sent as bad input whose fallbacks stay in the seat's band."""
    out: list[Any] = []
    for q, h in zip(quotes, how, strict=True):
        if h == "nan":
            out.append(float("nan"))
        elif h == "fraction":
            out.append(q + 0.5 if seat == 0 else q - 0.5)
        elif h == "below" and seat == 0:
            out.append(-q)
        else:
            out.append(q)
    return out


def mentions(text: str, number: int) -> bool:
    return re.search(rf"(?<![\d.]){number}(?!\d)", text) is not None


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    secret=secrets,
    said=st.tuples(messages, messages),
    quoted=st.tuples(bids, asks),
    how=st.tuples(spoilers, spoilers),
)
def test_prompts_never_name_the_other_sides_number_or_current_quote(
    secret: list[int],
    said: tuple[list[str], list[str]],
    quoted: tuple[list[int], list[int]],
    how: tuple[list[str | None], list[str | None]],
) -> None:
    value, cost = secret
    hidden = {0: cost, 1: value}
    agents = [Scripted(seat, said[seat], spoil(quoted[seat], how[seat], seat)) for seat in (0, 1)]
    seen = 0

    def before(seat: int, view: PactView, d: Any, log: list[Any]) -> None:
        nonlocal seen
        text = prompt(view, d)
        mine = value if seat == 0 else cost
        assert mentions(text, mine)  # the seat's own number is there...
        assert not mentions(text, hidden[seat])  # ...the other's never
        # The other side's quote of this round (and of later rounds) is not known yet.
        for later in range(d.round, ROUNDS + 1):
            assert not mentions(text, quoted[1 - seat][later - 1])
        seen += 1

    played = play(WIDE, 5, agents, ["a", "b"], before=before, start=setup_events(value, cost, WIDE))
    assert seen == 4 * ROUNDS
    reveals = [e for e in played.log if isinstance(e, pe.PactQuotesRevealed)]
    assert not any(r.traded for r in reveals)
    # After the game, every earlier quote is public: the prompts did see them once revealed.
    view = PactView(0).sync(played.log)
    assert [r.ask for r in view.reveals] == [
        WIDE.quote_high if h == "nan" else q for q, h in zip(quoted[1], how[1], strict=True)
    ]
