"""Chance for every game: one generator per outcome, derived from the seed and a label."""

from __future__ import annotations

import random


def chance(seed: int, *path: object) -> random.Random:
    """A generator for one chance outcome, derived from the game seed and a label path.

    `random.Random` seeds from a string through SHA-512, so the result is the same in every
    process (unlike `hash()`), and no global random state is touched.
    """
    return random.Random(":".join([str(seed), *map(str, path)]))
