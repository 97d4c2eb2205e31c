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
    counts: dict[int, int] = {}
    for v in hand:
        if v > 0:
            counts[v] = counts.get(v, 0) + 1
    if sum(hand) < amount:
        raise ValueError(f"hand {hand} cannot pay {amount}")
    denoms = sorted(counts, reverse=True)
    # Every choice of how many cards of each denomination to use is a candidate, ranked by
    # (sum, cards, counts highest denomination first, descending); the least one is paid.
    # The search goes depth-first over the denominations, highest first, and drops a branch
    # once it reaches the amount (a further card only raises the sum) or can no longer reach
    # it. The smallest denomination is not enumerated: once the others are chosen, the
    # fewest cards of it that reach the amount rank best (fewer of them is a smaller sum).
    # `payment_by_search` is the plain enumeration; the tests compare the two.
    last = len(denoms) - 1
    small = denoms[last]
    suffix = [0] * (last + 2)
    for i in range(last, -1, -1):
        suffix[i] = suffix[i + 1] + denoms[i] * counts[denoms[i]]
    best: tuple[int, int, tuple[int, ...]] | None = None
    stack: list[tuple[int, int, int, tuple[int, ...]]] = [(0, 0, 0, ())]
    pop, push = stack.pop, stack.append
    while stack:
        i, total, n, used = pop()
        if total >= amount:
            key = (total, n, tuple([-c for c in used]))
        elif total + suffix[i] < amount:
            continue
        elif i == last:
            c = -((total - amount) // small)  # the fewest cards of `small` that reach it
            key = (total + c * small, n + c, (*[-x for x in used], -c))
        else:
            d = denoms[i]
            for c in range(counts[d] + 1):
                push((i + 1, total + c * d, n + c, (*used, c)))
            continue
        if best is None or key < best:
            best = key
    assert best is not None
    out: list[int] = []
    for d, c in zip(denoms, best[2], strict=False):
        out.extend([d] * -c)
    return tuple(out)


def payment_by_search(hand: Cards, amount: int) -> Cards:
    """`payment` by its plain definition: every count of every denomination tried in turn
    (a branch stops once it reaches the amount); the tests compare the two."""
    if amount <= 0:
        return ()
    counts = Counter(v for v in hand if v > 0)
    denoms = sorted(counts, reverse=True)
    if sum(hand) < amount:
        raise ValueError(f"hand {hand} cannot pay {amount}")
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
