"""Output for people: end reasons in words, plurals, and seats filled as `--agents` says."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cli.common import UsageError, _agents, end_words, plural
from events import catalog
from events.store import DuckStore
from runner.session import play_and_store

GAMEBENCH = [n for n in catalog.names() if n.startswith("gamebench:")]


@pytest.mark.parametrize("name", [*GAMEBENCH, "cattle-trade", "pact", "gtbench:nim"])
def test_a_finished_game_says_in_words_how_it_ended(tmp_path: Path, name: str) -> None:
    """The stored end reason stays the identifier; what a person reads is a sentence."""
    g, carried = catalog.resolve(name)
    config = carried if carried is not None else g.preset(g.default_preset)
    with DuckStore(tmp_path / "w.duckdb") as store:
        _, record = play_and_store(store, config, 1, ["random"] * config.players)
    reason = record.result.reason
    words = end_words(catalog.for_config(config), reason)
    assert reason.isidentifier() and words != reason
    assert " " in words and "_" not in words


def test_plurals() -> None:
    assert plural(1, "card") == "1 card"
    assert plural(2, "donkey") == "2 donkeys"
    assert plural(0, "event") == "0 events"
    assert plural(1_924, "event") == "1,924 events"
    assert plural(3, "match", "matches") == "3 matches"


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 6), data=st.data())
def test_agents_fill_every_seat_and_counts_add_up(players: int, data: st.DataObject) -> None:
    assert _agents("tracker", players) == ["tracker"] * players
    first = data.draw(st.integers(1, players - 1))
    got = _agents(f"a*{first},b*{players - first}", players)
    assert got == ["a"] * first + ["b"] * (players - first)
    mixed = _agents(f"a*{first}," + ",".join(["c"] * (players - first)), players)
    assert mixed == ["a"] * first + ["c"] * (players - first)
    with pytest.raises(UsageError):
        _agents(f"a*{first}", players)  # counts that do not fill the table
    with pytest.raises(UsageError):
        _agents(f"a*{players + 1}", players)


def test_the_games_list_writes_seats_as_agents_takes_them_and_rounds_shares() -> None:
    from cli.common import score_text, seat_list

    assert seat_list(["heuristic"] * 3 + ["random"] * 3) == "heuristic*3, random*3"
    assert seat_list(["a", "b", "a"]) == "a, b, a"
    assert score_text(0.5252525252525253) == "0.53"
    assert score_text(4770.0) == "4,770" and score_text(-1) == "-1"
