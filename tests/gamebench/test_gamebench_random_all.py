"""`gamebench-random` in the seven games that first lacked it (Codenames and Santorini test
their own): GameBench's random agent as its code plays each game (docs/gamebench.md,
GameBench's random agent). Each game is played short, stored, and verified from its specs and
seed; what the agent does that the project's `random` does not is checked from the log."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

from events import catalog
from events.codec import encode
from events.store import DuckStore
from runner.session import play_and_store, play_game
from runner.verify import check_game

GAMES: dict[str, tuple[str, list[str]]] = {
    "gamebench:pit": ("quick", ["gamebench-random", "random"]),
    "gamebench:hive": ("short", ["gamebench-random", "random"]),
    "gamebench:air_land_sea": ("standard", ["gamebench-random", "random"]),
    "gamebench:sea_battle": ("standard", ["gamebench-random"] * 3 + ["random"] * 3),
    "gamebench:two_rooms_and_a_boom": ("short", ["gamebench-random"] * 3 + ["random"] * 3),
    "gamebench:are_you_the_traitor": ("quick", ["gamebench-random"] * 2 + ["random"] * 3),
    "gamebench:arctic_scavengers": ("standard", ["gamebench-random", "random"]),
}


def _config(name: str, preset: str) -> Any:
    game = catalog.get(name)
    return game.presets()[preset]


def _events(config: Any, seed: int, lineup: list[str]) -> list[Any]:
    return list(play_game(config, seed, lineup).events)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_plays_stores_and_verifies(name: str, tmp_path: Path) -> None:
    """A game of each: the same seed plays the same game, and the stored game verifies."""
    preset, lineup = GAMES[name]
    config = _config(name, preset)
    first = [encode(e) for e in _events(config, 3, lineup)]
    assert first == [encode(e) for e in _events(config, 3, lineup)]
    with DuckStore(tmp_path / "g.duckdb") as store:
        gid, _ = play_and_store(store, config, 3, lineup)
        check = check_game(store.load_rows(gid))
    assert check.outcome == "verified", check.problem


def _seat_events(events: list[Any], seats: set[int], tag: str) -> list[Any]:
    out = []
    for e in events:
        if type(e).__struct_config__.tag == tag and getattr(e, "seat", None) in seats:
            out.append(e)
    return out


def test_two_rooms_asks_and_answers_empty_strings() -> None:
    """Under GameBench's talk (the default) GameBench's random player picks a room-mate to
    question and asks and answers with the empty string, never saying or showing anything
    else; under open talk every turn to talk is an empty message, which the rules record as
    saying nothing (it never shows its card), where the project's random player says its
    stock lines and shows cards."""
    preset, lineup = GAMES["gamebench:two_rooms_and_a_boom"]
    mine = {0, 1, 2}
    for seed in (5, 6):
        events = _events(_config("gamebench:two_rooms_and_a_boom", preset), seed, lineup)
        ours = [e for e in events if getattr(e, "seat", None) in mine]
        names = {type(e).__name__ for e in ours}
        assert {"TrAskedWhom", "TrAsked", "TrAnswered"} <= names
        assert not names & {"TrSaid", "TrShown", "TrAskSkipped", "TrRequestRefused"}
        spoken = [e for e in ours if type(e).__name__ in ("TrAsked", "TrAnswered")]
        assert all(e.text == "" for e in spoken)
    config = _config("gamebench:two_rooms_and_a_boom", "open_short")
    for seed in (5, 6):
        events = _events(config, seed, lineup)
        ours = [e for e in events if getattr(e, "seat", None) in mine]
        names = {type(e).__name__ for e in ours}
        assert "TrKeptQuiet" in names and not names & {"TrSaid", "TrShown"}
        theirs = [e for e in events if type(e).__name__ == "TrSaid" and e.seat not in mine]
        assert theirs and all(e.text for e in theirs)


def test_traitor_asks_and_answers_empty_strings() -> None:
    """GameBench's random player's questions and answers are empty strings."""
    preset, lineup = GAMES["gamebench:are_you_the_traitor"]
    events = _events(_config("gamebench:are_you_the_traitor", preset), 2, lineup)
    speeches = [e for e in events if type(e).__name__ in ("AytAsked", "AytAnswered")]
    ours = [e for e in speeches if e.text in ("", "(says nothing)")]
    assert ours and len(ours) < len(speeches)


def test_arctic_spends_one_card_and_never_strikes() -> None:
    """Under the `legal` fallback (the `tribe` preset, rules 1.0.0) its empty answers leave
    GameBench's program to spend one card at a time and never to hire; its strikes name no
    card and do nothing, so it holds. The project's random player spends several cards at
    once."""
    from agents.gamebench.arctic_scavengers import ArcGameBenchRandom
    from engine.gamebench.arctic_scavengers import ArcDecision, Stop, Strike

    config = _config("gamebench:arctic_scavengers", "tribe")

    def played(lineup: list[str]) -> list[Any]:
        out = []
        for seed in range(3):
            out += [e for e in _events(config, seed, lineup) if type(e).__name__ == "ArcPlayed"]
        return out

    mine = played(["gamebench-random", "gamebench-random"])
    assert mine and all(len(e.cards) == 1 and e.action != "hire" for e in mine)
    assert any(len(e.cards) > 1 for e in played(["random", "random"]))
    strike = Strike(kind="snipe", target=1, card="Brawler")
    turn = ArcDecision(seats=(0,), round=1, kind="skirmish", legal=(strike, Stop()))
    assert {ArcGameBenchRandom(0, s, config).act(None, turn) for s in range(20)} == {Stop()}


def test_hive_draws_the_piece_first() -> None:
    """On a one-step turn it draws the piece and then its cell, as GameBench's two menus do:
    the first move of a game (every cell next to nothing, one bug of four kinds) is as likely
    a queen as an ant, though ants have three times the placements."""
    from agents.gamebench.hive import HiveGameBenchRandom
    from engine.gamebench.hive import HiveTurn, Place

    legal = tuple(Place(bug=b, q=q, r=0) for b in "QSGA" for q in range(3 if b == "A" else 1))
    turn = HiveTurn(seats=(0,), ply=0, legal=legal)
    bugs = [HiveGameBenchRandom(0, s, None).act(None, turn).bug for s in range(400)]
    assert abs(bugs.count("Q") - bugs.count("A")) < 60


def test_arctic_follows_gamebenchs_fallback_card() -> None:
    """GameBench's program turns every empty answer but a first TRASH into its own fallback:
    the first hand card with people, with one of its unused actions or TRASH. With a Brawler
    the first person in hand (dig or fight), the agent digs with the Brawler or trashes a card,
    and never spends the Scavenger behind it; a dig already used leaves trashing only, and a
    hand without people trashes its first card (or a card drawn for a first TRASH). This is
    the agent under the `legal` fallback; under GameBench's (the default) the rules play
    that fallback (tests/gamebench/test_arctic_winner.py)."""
    from types import SimpleNamespace

    from agents.gamebench.arctic_scavengers import ArcGameBenchRandom
    from engine.gamebench.arctic_scavengers import ArcDecision, Gather, Stop

    config = _config("gamebench:arctic_scavengers", "tribe")
    hand = ["Junk", "Brawler", "Scavenger", "Spear"]
    legal = (
        *(Gather(kind="trash", cards=(t,)) for t in hand),
        Gather(kind="dig", cards=("Brawler",)),
        *(Gather(kind=k, cards=("Scavenger",)) for k in ("dig", "draw", "hunt")),
        Stop(),
    )
    turn = ArcDecision(seats=(0,), round=0, kind="gather", legal=legal)

    def plays(used: list[str], cards: list[str]) -> set[Any]:
        view = SimpleNamespace(hand=cards, used=used, fallback_rule="legal")
        return {ArcGameBenchRandom(0, s, config).act(view, turn) for s in range(300)}

    fresh = plays([], hand)
    assert Gather(kind="dig", cards=("Brawler",)) in fresh and Stop() in fresh
    assert not any(
        isinstance(a, Gather) and a.cards == ("Scavenger",) and a.kind != "trash" for a in fresh
    )
    assert {a for a in fresh if isinstance(a, Gather) and a.kind == "trash"} == set(legal[:4])
    assert plays(["dig"], hand) <= {*legal[:4], Stop()}
    assert plays([], ["Junk", "Spear"]) == {Stop(), legal[0], legal[3]}
    # A second trash, which the rules here never list, is drawn again and counted.
    agent = ArcGameBenchRandom(0, 1, config)
    only_stop = ArcDecision(seats=(0,), round=0, kind="gather", legal=(Stop(),))
    view = SimpleNamespace(hand=["Junk", "Spear"], used=["trash"], fallback_rule="legal")
    assert {agent.act(view, only_stop) for _ in range(30)} == {Stop()}
    assert agent.unlisted["trash"] > 0


def test_random_stats_counts_decisions_with_gamebench_random() -> None:
    """`bench.gamebench.random_stats` plays any code agent in every seat and counts a
    Santorini game in the decisions its seats answered (one a placement or a turn, as
    GameBench's agent is called once for each), the unit its figures set beside GameBench's."""
    from bench.gamebench.random_stats import stats

    row = stats("gamebench:santorini", 3, agent="gamebench-random")
    config = _config("gamebench:santorini", "standard")
    plies = [
        sum(
            type(e).__name__ in ("SantoriniPlaced", "SantoriniPlayed")
            for e in _events(config, s, ["gamebench-random"] * 2)
        )
        for s in range(3)
    ]
    assert (row["agent"], row["unit"]) == ("gamebench-random", "decisions")
    assert row["mean_length"] == sum(plies) / 3


def test_an_arctic_game_of_the_first_gamebench_random_still_verifies() -> None:
    """Games stored before `gamebench-random` followed GameBench's fallback card were played
    by what is now `gamebench-random-v1`: verify plays them again with it and says so."""
    from runner.replay import verify

    config = _config("gamebench:arctic_scavengers", "standard")
    events = _events(config, 4, ["gamebench-random-v1", "random"])
    start = events[0]
    seats = (msgspec.structs.replace(start.seats[0], agent="gamebench-random"), start.seats[1])
    stored = [msgspec.structs.replace(start, seats=seats), *events[1:]]
    got = verify(stored)
    assert got.ok and got.played_as == ("gamebench-random-v1", "random"), got
    # The agent of today plays another game from that seed, so the log is not its.
    assert _events(config, 4, ["gamebench-random", "random"]) != events
