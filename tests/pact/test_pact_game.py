"""PACT's definition as the catalogue hands it out: every part reachable by the game's name."""

from __future__ import annotations

from pactkit import play, seats_of

from engine.pact.rules import (
    ENGINE_VERSION,
    MessageDecision,
    QuoteDecision,
    SendMessage,
    SubmitQuote,
)
from events import catalog
from events.catalog import END_TAG, START_TAG, GameDef
from events.pact.game import PactConfig, PactGameEnded, PactGameStarted
from projections.pact.view import PactView


def test_the_catalogue_finds_pact_by_name(game: GameDef) -> None:
    assert catalog.get("pact") is game
    assert catalog.register(game) is game  # registering again is harmless
    assert (game.name, game.rules.version) == ("pact", ENGINE_VERSION)
    assert game.config_type is PactConfig
    assert PactGameStarted.__struct_config__.tag == START_TAG
    assert PactGameEnded.__struct_config__.tag == END_TAG
    assert all(p.exists() for p in game.sql)


def test_presets(game: GameDef) -> None:
    assert game.default_preset == "standard"
    assert game.preset("standard").rounds == 20
    assert game.preset("quick").rounds == 5
    assert {c.name for c in game.presets().values()} == {"standard", "quick"}


def test_a_game_played_only_through_the_definition(game: GameDef) -> None:
    """Everything the generic core needs comes from the definition: presets, rules, views,
    code agents, timeline lines, and the model seat's prompter."""
    config = game.preset("quick")
    agents = [game.code_agents[n](seat, 42, config) for seat, n in enumerate(("anchor", "mirror"))]
    rules = game.rules
    state, log = rules.start(config, 42, seats_of(["anchor", "mirror"]))
    views = [game.new_view(0), game.new_view(1)]
    prompter = game.prompter
    assert prompter is not None
    while (d := rules.pending(state)) is not None:
        actions = []
        for seat in d.seats:
            view = views[seat].sync(log)
            assert prompter.decision_prompt(view, d, "full", None)
            actions.append(agents[seat].act(view, d))
        state, events = rules.step(state, d, actions)
        log += events
    assert isinstance(log[-1], PactGameEnded)
    assert all(isinstance(v, PactView) and v.sync(log).ended for v in views)
    assert all(game.describe(e, None) for e in log)
    assert rules.fold(log) == state
    again = [game.code_agents[n](seat, 42, config) for seat, n in enumerate(("anchor", "mirror"))]
    assert play(config, 42, again).log == log


def test_the_prompter_reads_answers_and_defaults(game: GameDef) -> None:
    prompter = game.prompter
    assert prompter is not None
    quote = QuoteDecision(seats=(0, 1), round=3, rounds=20, low=0, high=100)
    message = MessageDecision(seats=(1,), round=3, rounds=20, max_words=100, first=False)
    assert prompter.parse('{"quote": 41}', quote, 0) == (
        SubmitQuote(seat=0, price=41),
        "json",
        None,
    )
    assert prompter.parse("fine by me", message, 1)[0] == SendMessage(seat=1, text="fine by me")
    assert prompter.default_action(quote, 1) == SubmitQuote(seat=1, price=100)
    assert prompter.action_json(SubmitQuote(seat=1, price=100)) == (
        '{"kind":"quote","seat":1,"price":100}'
    )
