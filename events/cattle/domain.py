"""Fixed facts of Cattle Trade: animals, money denominations, payouts and the game configuration."""

from __future__ import annotations

from typing import Literal

import msgspec

from events.config import ConfigError

#: Set value of every animal type, in ascending order of value. The order is the canonical
#: animal order used everywhere (deck building, tie-breaks, fallbacks).
ANIMAL_VALUES: dict[str, int] = {
    "chicken": 10,
    "goose": 40,
    "cat": 90,
    "dog": 160,
    "sheep": 250,
    "goat": 350,
    "donkey": 500,
    "pig": 650,
    "cow": 800,
    "horse": 1000,
}
ANIMALS: tuple[str, ...] = tuple(ANIMAL_VALUES)

#: Money card denominations that exist in the bank.
DENOMINATIONS: tuple[int, ...] = (0, 10, 50, 100, 200, 500)

#: Money cards each player starts with: two 0s, four 10s, one 50 (90 coins in 7 cards).
START_MONEY: tuple[int, ...] = (50, 10, 10, 10, 10, 0, 0)

#: Donkey payout per set size: the i-th donkey drawn pays element i to every player.
DEFAULT_PAYOUTS: dict[int, tuple[int, ...]] = {
    2: (50, 500),
    3: (50, 200, 500),
    4: (50, 100, 200, 500),
    5: (50, 100, 200, 500, 500),
}

AuctionMode = Literal["canonical", "fast", "legacy"]
AUCTION_MODES: tuple[str, ...] = ("canonical", "fast", "legacy")

#: Bids move in steps of this many coins.
BID_STEP = 10


class GameConfig(msgspec.Struct, frozen=True, kw_only=True):
    """Every knob of a Cattle Trade game; stored in the first event of each game."""

    players: int = 4
    """Number of seats, 2..5."""
    set_size: int = 4
    """Cards per animal type (k), 2..5; a complete set holds all k."""
    animals: tuple[str, ...] = ANIMALS
    """Animal types in play, in canonical order."""
    starting_animals: int = 0
    """Animal cards dealt to each player before the first turn, 0..k-1."""
    auction_mode: str = "canonical"
    """canonical | fast | legacy."""
    payouts: tuple[int, ...] = DEFAULT_PAYOUTS[4]
    """Money card every player receives when the i-th donkey is drawn."""
    start_money: tuple[int, ...] = START_MONEY
    """Money cards each player starts with."""
    max_turns: int = 400
    """Safety cap: the game ends after this many turns."""
    name: str = "custom"
    """Preset name, or "custom"."""

    def validate(self) -> GameConfig:
        """Raise `ConfigError` unless the rules can play this configuration; return self."""
        if not 2 <= self.players <= 5:
            raise ConfigError(f"players must be 2..5, got {self.players}")
        if not 2 <= self.set_size <= 5:
            raise ConfigError(f"set_size must be 2..5, got {self.set_size}")
        if not 1 <= len(self.animals) <= len(ANIMALS):
            raise ConfigError(f"animals must name 1..10 types, got {len(self.animals)}")
        unknown = [a for a in self.animals if a not in ANIMAL_VALUES]
        if unknown:
            raise ConfigError(f"unknown animal type(s): {', '.join(unknown)}")
        if len(set(self.animals)) != len(self.animals):
            raise ConfigError("animals must not repeat")
        if list(self.animals) != sorted(self.animals, key=ANIMALS.index):
            raise ConfigError("animals must be listed in ascending value order")
        if not 0 <= self.starting_animals <= self.set_size - 1:
            raise ConfigError(f"starting_animals must be 0..{self.set_size - 1}")
        if self.starting_animals * self.players > self.set_size * len(self.animals):
            raise ConfigError("not enough animal cards to deal the starting hands")
        if self.auction_mode not in AUCTION_MODES:
            raise ConfigError(
                f"auction_mode must be one of {', '.join(AUCTION_MODES)}, got {self.auction_mode!r}"
            )
        if "donkey" in self.animals and len(self.payouts) < self.set_size:
            raise ConfigError(f"payouts must list {self.set_size} amounts (one per donkey card)")
        if any(p not in DENOMINATIONS or p <= 0 for p in self.payouts):
            raise ConfigError(f"payouts must be positive denominations {DENOMINATIONS[1:]}")
        if any(m not in DENOMINATIONS for m in self.start_money):
            raise ConfigError(f"start_money must use denominations {DENOMINATIONS}")
        if self.max_turns < 1:
            raise ConfigError("max_turns must be at least 1")
        return self

    def value(self, animal: str) -> int:
        """Set value of an animal type."""
        return ANIMAL_VALUES[animal]


def score_of(sets: tuple[str, ...] | list[str]) -> int:
    """Score of a hand of complete sets: (sum of set values) x (number of sets)."""
    return sum(ANIMAL_VALUES[a] for a in sets) * len(sets)
