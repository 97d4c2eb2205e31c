"""Money-card arithmetic: hands as sorted tuples, multiset removal, and the payment routine."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

Cards = tuple[int, ...]


def normalize(cards: Cards | list[int]) -> Cards:
    """A hand in canonical order: highest card first."""
    return tuple(sorted(cards, reverse=True))


def holds(hand: Cards, cards: Cards) -> bool:
    """True if `hand` contains every card of `cards` (as a multiset)."""
    if not cards:
        return True
    left = list(hand)
    try:
        for v in cards:
            left.remove(v)
    except ValueError:
        return False
    return True


def remove(hand: Cards, cards: Cards) -> Cards:
    """`hand` without `cards` (which it must hold)."""
    if not cards:
        return hand
    left = list(hand)
    for v in cards:
        left.remove(v)
    return tuple(left)


def add(hand: Cards, cards: Cards) -> Cards:
    """`hand` with `cards` added, in canonical order."""
    if not cards:
        return hand
    return normalize(hand + tuple(cards))


def intersect(hand: Cards, cards: Cards) -> Cards:
    """The cards of `cards` that `hand` holds (multiset intersection), in canonical order."""
    common = Counter(hand) & Counter(cards)
    return normalize(list(common.elements()))


@lru_cache(maxsize=65536)
def payment(hand: Cards, amount: int) -> Cards:
    """Cards to pay `amount` with no change given.

    Picks, among the hand's subsets, the smallest sum that reaches `amount`; among those the
    fewest cards; among those the one using the highest denominations. 0-value cards are never
    paid. Returns () for an amount of 0 or less. The hand must be able to pay.
    """
    if amount <= 0:
        return ()
    counts = Counter(v for v in hand if v > 0)
    denoms = sorted(counts, reverse=True)
    if sum(hand) < amount:
        raise ValueError(f"hand {hand} cannot pay {amount}")
    # Enumerate how many cards of each denomination to use (highest first). A branch stops
    # adding cards once it reaches the amount: any further card only raises the sum.
    best: tuple[int, int, tuple[int, ...]] | None = None
    suffix = [0] * (len(denoms) + 1)
    for i in range(len(denoms) - 1, -1, -1):
        suffix[i] = suffix[i + 1] + denoms[i] * counts[denoms[i]]

    def walk(i: int, total: int, n: int, used: tuple[int, ...]) -> None:
        nonlocal best
        if total >= amount:
            key = (total, n, tuple(-c for c in used))
            if best is None or key < best:
                best = key
            return
        if i == len(denoms) or total + suffix[i] < amount:
            return
        d = denoms[i]
        if best is not None and total >= best[0]:
            return
        for c in range(counts[d], -1, -1):
            walk(i + 1, total + c * d, n + c, (*used, c))

    walk(0, 0, 0, ())
    assert best is not None
    used = [-c for c in best[2]]
    out: list[int] = []
    for d, c in zip(denoms, used, strict=False):
        out.extend([d] * c)
    return tuple(out)
