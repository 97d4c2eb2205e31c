"""The payment routine (DESIGN §3 "Payment"): smallest sum reaching the amount, then fewest
cards, never a 0-value card; checked against a brute-force enumeration of every subset."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cattle.money import (
    add,
    holds,
    intersect,
    normalize,
    payment,
    payment_by_search,
    remove,
)
from events.cattle.domain import DENOMINATIONS


def brute_force(hand: tuple[int, ...], amount: int) -> tuple[int, ...]:
    """The payment by enumerating every subset of the positive cards."""
    cards = [v for v in hand if v > 0]
    best: tuple[int, int, tuple[int, ...]] | None = None
    for n in range(len(cards) + 1):
        for idx in combinations(range(len(cards)), n):
            pick = tuple(sorted((cards[i] for i in idx), reverse=True))
            total = sum(pick)
            if total < amount:
                continue
            # smallest sum, then fewest cards, then the highest denominations first
            key = (total, n, tuple(-v for v in pick))
            if best is None or key < best:
                best = key
    assert best is not None
    return tuple(-v for v in best[2])


def test_payment_of_60_from_100_50_10_10_0_0_uses_50_and_10() -> None:
    assert payment((100, 50, 10, 10, 0, 0), 60) == (50, 10)


@pytest.mark.parametrize(
    ("hand", "amount", "paid"),
    [
        ((50, 10, 10, 10, 10, 0, 0), 30, (10, 10, 10)),
        ((50, 10, 10, 10, 10, 0, 0), 50, (50,)),
        ((50, 10, 10, 10, 10, 0, 0), 90, (50, 10, 10, 10, 10)),
        ((100, 50, 0), 40, (50,)),  # overpay with the smallest sum, no change
        ((200, 100, 100), 150, (200,)),  # 200 is one card, 100 + 100 two
        ((500, 200, 200, 100), 400, (200, 200)),
        ((10, 0, 0), 10, (10,)),
        ((50, 10), 0, ()),
        ((50, 10), -20, ()),
    ],
)
def test_payment_examples(hand, amount, paid) -> None:
    assert payment(hand, amount) == paid


def test_payment_refuses_an_amount_the_hand_cannot_reach() -> None:
    with pytest.raises(ValueError):
        payment((50, 10, 0), 70)


hands = st.lists(st.sampled_from(DENOMINATIONS), min_size=1, max_size=11).map(normalize)


@settings(max_examples=300, deadline=None)
@given(hand=hands, data=st.data())
def test_payment_matches_brute_force(hand, data) -> None:
    total = sum(hand)
    if total == 0:
        assert payment(hand, 0) == ()
        return
    amount = data.draw(st.integers(min_value=1, max_value=total), label="amount")
    paid = payment(hand, amount)
    expected = brute_force(hand, amount)
    assert sum(paid) == sum(expected) >= amount
    assert len(paid) == len(expected)
    assert 0 not in paid
    assert holds(hand, paid)
    assert paid == expected


@settings(max_examples=100, deadline=None)
@given(hand=hands, other=hands)
def test_card_arithmetic(hand, other) -> None:
    both = add(hand, other)
    assert both == normalize(hand + other)
    assert holds(both, other) and remove(both, other) == hand
    common = intersect(hand, other)
    assert holds(hand, common) and holds(other, common)


def test_payment_equals_the_plain_search_on_every_small_hand() -> None:
    # `payment` skips enumerating the smallest denomination; `payment_by_search` tries every
    # count of every denomination. Every hand of up to six cards, every amount it can pay.
    from itertools import combinations_with_replacement

    for size in range(1, 7):
        for hand in combinations_with_replacement(sorted(DENOMINATIONS, reverse=True), size):
            for amount in range(-10, sum(hand) + 1, 5):
                assert payment(hand, amount) == payment_by_search(hand, amount), (hand, amount)
