"""GTBench's ten games, as presets of the OpenSpiel family: each a named OpenSpiel game string
for two players (docs/openspiel.md says why each string was chosen)."""

from __future__ import annotations

from events.openspiel.game import OpenSpielConfig

GTBENCH: dict[str, str] = {
    "tic_tac_toe": "tic_tac_toe",
    "connect_four": "connect_four",
    "breakthrough": "breakthrough(columns=3,rows=8)",
    "kuhn_poker": "kuhn_poker",
    "liars_dice": "liars_dice(numdice=1,players=2)",
    "blind_auction": "first_sealed_auction(max_value=10,players=2)",
    "negotiation": "negotiation",
    "nim": "nim(is_misere=True,pile_sizes=1;3;5;7)",
    "pig": "pig(players=2,winscore=100)",
    "prisoners_dilemma": "python_iterated_prisoners_dilemma",
}
"""GTBench's ten games: preset name -> OpenSpiel game string (why each: docs/openspiel.md)."""

PRESETS: dict[str, OpenSpielConfig] = {
    name: OpenSpielConfig(game_string=text, players=2, name=name, preset=name)
    for name, text in GTBENCH.items()
}
"""Named configurations: GTBench's games (every one for two players)."""
