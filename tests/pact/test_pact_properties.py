"""Properties of PACT: determinism, the codec, replays from the log alone, the fold, and the
quote recording."""

from __future__ import annotations

import math
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pactkit import play_any, replay

from agents.pact.bots import CODE_AGENTS
from engine.pact.rules import RULES, quote_from_raw, quote_raw, read_quote
from events import agent as ae
from events.catalog import GameDef
from events.pact import game as pe
from events.pact.game import PACT_EVENT_TYPES, PactConfig

ENCODER = msgspec.json.Encoder(order="deterministic")
NAMES = [*sorted(CODE_AGENTS), "noisy"]
QUICK = PactConfig(rounds=5, name="quick").validate()
STANDARD = PactConfig(name="standard").validate()

agent_names = st.sampled_from(NAMES)
seeds = st.integers(min_value=0, max_value=2**63 - 1)


def encoded(log: list[Any]) -> bytes:
    return b"\n".join(ENCODER.encode(e) for e in log)


@settings(max_examples=40, deadline=None)
@given(seed=seeds, buyer=agent_names, seller=agent_names)
def test_the_same_seed_gives_a_byte_identical_log(seed: int, buyer: str, seller: str) -> None:
    a = play_any(STANDARD, seed, [buyer, seller])
    b = play_any(STANDARD, seed, [buyer, seller])
    assert encoded(a.log) == encoded(b.log)
    assert a.turns == b.turns


@settings(max_examples=40, deadline=None)
@given(seed=seeds, buyer=agent_names, seller=agent_names)
def test_a_log_replays_from_its_recorded_actions(seed: int, buyer: str, seller: str) -> None:
    played = play_any(QUICK, seed, [buyer, seller])
    assert encoded(replay(played.log)) == encoded(played.log)


@settings(max_examples=40, deadline=None)
@given(seed=seeds, buyer=agent_names, seller=agent_names)
def test_invariants_of_random_play(seed: int, buyer: str, seller: str) -> None:
    """The fold of the whole log equals the state the steps produced; each round has two
    messages and one reveal; profits add up to the trades' surplus; scores match the log."""
    played = play_any(QUICK, seed, [buyer, seller])
    log = played.log
    assert RULES.fold(log) == played.state
    drawn = next(e for e in log if isinstance(e, pe.PactValuesDrawn))
    reveals = [e for e in log if isinstance(e, pe.PactQuotesRevealed)]
    assert [r.round for r in reveals] == list(range(1, QUICK.rounds + 1))
    buyer_total = seller_total = 0.0
    for r in reveals:
        assert QUICK.quote_low <= r.bid <= QUICK.quote_high
        assert QUICK.quote_low <= r.ask <= QUICK.quote_high
        assert r.traded == (r.bid >= r.ask)
        if r.traded:
            assert r.price == (r.bid + r.ask) / 2 and (2 * r.price).is_integer()
            buyer_total += drawn.value - r.price
            seller_total += r.price - drawn.cost
        else:
            assert r.price is None
    end = log[-1]
    assert isinstance(end, pe.PactGameEnded)
    assert end.scores == (buyer_total, seller_total)
    assert math.isclose(sum(end.scores), end.trades * (drawn.value - drawn.cost))
    for rnd in range(1, QUICK.rounds + 1):
        sent = [e for e in log if isinstance(e, pe.PactMessageSent) and e.round == rnd]
        assert sorted(e.seat for e in sent) == [0, 1]
        for e in sent:
            assert len(e.text.split()) <= QUICK.max_words and len(e.text) <= QUICK.max_chars
            assert e.text.isprintable()


# ----------------------------------------------------------------------------- codec


def strategy(t: Any) -> st.SearchStrategy[Any]:
    """A hypothesis strategy for a msgspec type description (msgspec.inspect)."""
    mi = msgspec.inspect
    match t:
        case mi.StructType():
            return st.builds(t.cls, **{f.name: strategy(f.type) for f in t.fields})
        case mi.IntType():
            return st.integers(min_value=-(2**63), max_value=2**63 - 1)
        case mi.StrType():
            return st.text(max_size=12)
        case mi.BoolType():
            return st.booleans()
        case mi.FloatType():
            return st.floats(allow_nan=False, allow_infinity=False)
        case mi.NoneType():
            return st.none()
        case mi.LiteralType():
            return st.sampled_from(t.values)
        case mi.UnionType():
            return st.one_of(*(strategy(u) for u in t.types))
        case mi.VarTupleType():
            return st.lists(strategy(t.item_type), max_size=4).map(tuple)
        case mi.TupleType():
            return st.tuples(*(strategy(u) for u in t.item_types))
        case mi.DictType():
            return st.dictionaries(strategy(t.key_type), strategy(t.value_type), max_size=3)
    raise AssertionError(f"no strategy for {t!r}")


ALL_TYPES = (*PACT_EVENT_TYPES, *ae.AgentEvent.__args__)


def test_the_game_declares_every_event_and_unique_tags(game: GameDef) -> None:
    assert game.event_types == PACT_EVENT_TYPES
    tags = [cls.__struct_config__.tag for cls in PACT_EVENT_TYPES]
    assert len(set(tags)) == len(tags)
    shared = {"game_started", "game_ended"}
    assert all(t in shared or t.startswith("pact_") for t in tags)


@pytest.mark.parametrize("cls", ALL_TYPES, ids=lambda c: c.__name__)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_event_round_trips_through_the_game_decoder(
    game: GameDef, cls: type, data: st.DataObject
) -> None:
    event = data.draw(strategy(msgspec.inspect.type_info(cls)))
    raw = ENCODER.encode(event)
    back = game.decoder.decode(raw)
    assert type(back) is cls
    assert back == event
    assert ENCODER.encode(back) == raw


@settings(max_examples=20, deadline=None)
@given(seed=seeds, buyer=agent_names, seller=agent_names)
def test_a_played_log_decodes_back_to_itself(
    game: GameDef, seed: int, buyer: str, seller: str
) -> None:
    log = play_any(QUICK, seed, [buyer, seller]).log
    assert [game.decoder.decode(ENCODER.encode(e)) for e in log] == log


# ----------------------------------------------------------------------------- quotes


quotes_in = st.one_of(
    st.integers(),
    st.floats(),
    st.text(max_size=8),
    st.booleans(),
    st.none(),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
)


@given(value=quotes_in, seat=st.sampled_from([0, 1]))
def test_a_quote_written_out_reads_back_to_the_same_handling(value: Any, seat: int) -> None:
    raw = quote_raw(value)
    back = quote_from_raw(raw)
    assert quote_raw(back) == raw
    assert read_quote(back, seat, 0, 100) == read_quote(value, seat, 0, 100)
    q, why = read_quote(value, seat, 0, 100)
    assert 0 <= q <= 100 and isinstance(q, int)
    whole = (isinstance(value, int) and not isinstance(value, bool)) or (
        isinstance(value, float) and value.is_integer()
    )
    assert (why is None) == (whole and 0 <= value <= 100)


_SHARE = st.one_of(st.sampled_from([0.0, 1.0, "tiny"]), st.floats(1e-3, 1.0))


@settings(max_examples=150, deadline=None)
@given(
    shares=st.tuples(_SHARE, _SHARE, _SHARE, _SHARE), scale=st.sampled_from([1.0, 1e300, 1.7e308])
)
def test_value_mix_weights_are_relative_at_any_size(shares: tuple, scale: float) -> None:
    """Weights near the largest float (their sum overflows) mix as their ratios say: a
    component with a vanishing share is never drawn, one with a real share can be."""
    from engine.pact.rules import draw_values
    from events.pact.game import DISTRIBUTIONS, PactConfig, ValueMix

    weights = [5e-324 if s == "tiny" else s * scale for s in shares]
    real = {DISTRIBUTIONS[i] for i, s in enumerate(shares) if s != "tiny" and s > 0}
    if not real:
        return
    names = ("uniform", "correlated", "semi_bimodal", "heavy_tailed")
    config = PactConfig(values=ValueMix(**dict(zip(names, weights, strict=True)))).validate()
    drawn = {draw_values(config, seed)[0] for seed in range(60)}
    assert drawn <= real, (weights, drawn)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(0.0, 1e6), min_size=4, max_size=4))
def test_the_value_mix_is_added_as_on_python_3_11(weights: list[float]) -> None:
    """The mix's total is the left-to-right float sum (Python 3.11's `sum`) on every Python;
    3.12's compensated `sum` could move it by an ulp and, rarely, the component drawn."""
    import functools
    import operator

    from engine.pact.rules import _added

    assert _added(tuple(weights)) == functools.reduce(operator.add, weights, 0.0)


def test_a_mix_whose_compensated_sum_differs_totals_as_before() -> None:
    # 0.1 + 0.2 + 0.3 is 0.6000000000000001 added left to right; `sum` gives 0.6 from 3.12.
    from engine.pact.rules import _added

    assert _added((0.1, 0.2, 0.3, 0.0)) == 0.6000000000000001
