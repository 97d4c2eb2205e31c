"""A sealed-bid auction defined only here, to show that a game plugs into the core unchanged.

2 to 4 players, a few items sold one after the other. Before each sale every player learns
its own value of the item (no one else sees it); then all bid at once, in secret. The highest
bid wins (the lowest seat among equal bids) and pays its bid. Score: the sum of value - price
over the items won. A bid outside 0..100 is clamped, and the clamp is recorded.

Everything a game brings is here, one module per layer as the built-in families have it
(`events.py`, `rules.py`, `view.py` with its SQL view, `bots.py`), and this module holds the
definition, `GAME`, named "toy-auction". The CLI finds it through
$CATTLE_GAMES=games.toy_auction (with tests/ on the path); tests in-process register `GAME`.
"""

from __future__ import annotations

from events.catalog import GameDef
from games.toy_auction.bots import Honest, Wild
from games.toy_auction.events import EVENTS, NAME, ToyConfig
from games.toy_auction.rules import ToyRules
from games.toy_auction.view import SQL, ToyView, describe

GAME = GameDef(
    name=NAME,
    title="Toy auction",
    summary="sealed-bid first-price auctions of a few items",
    event_types=EVENTS,
    config_type=ToyConfig,
    rules=ToyRules(),
    presets=lambda: {"standard": ToyConfig(), "duel": ToyConfig(players=2, items=3)},
    default_preset="standard",
    new_view=ToyView,
    describe=describe,
    sql=(SQL,),
    code_agents={
        "honest": lambda seat, seed, config: Honest(seat, seed, config),
        "wild": lambda seat, seed, config: Wild(seat, seed, config),
    },
)
