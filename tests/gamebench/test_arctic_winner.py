"""Arctic Scavengers' winner as GameBench's code names it (rules 1.1.0, `ArcticConfig.winner`
= `hand`): the people in each player's last skirmish pile, after the strikes, decide, and a
tie goes to the later seat; the `tribe` preset and rules 1.0.0 count every card a tribe owns
and share a tie. Games of rules 1.0.0 still replay by their rules, and random play is set
beside GameBench's own figures."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from msgspec import UnsetType

from bench.gamebench.random_stats import stats
from engine.gamebench.arctic_scavengers import (
    MISSES,
    RULES,
    ArcRules,
    ArcState,
    Gather,
    Strike,
    gamebench_fallback,
    trash_loop,
    tribe,
)
from events import catalog
from events.codec import encode_each
from events.config import SeatSpec
from events.gamebench.arctic_scavengers import (
    ArcEnded,
    ArcPlayed,
    ArcRejected,
    ArcSkirmished,
    ArcStopped,
    ArcStruck,
    ArcticConfig,
)
from events.store import DuckStore
from projections.gamebench.arctic_scavengers import ArcPrompter, ArcView, describe
from runner.replay import verify
from runner.session import play_and_store, play_game

SEATS = [SeatSpec(agent="random")] * 2


STANDARD = ArcticConfig()


def last_skirmish(
    piles: list[list[str]], config: ArcticConfig = STANDARD, rules: ArcRules = RULES
) -> tuple[ArcState, list[Any]]:
    """A game brought to its fifth skirmish with these piles and hands emptied; the events of
    playing it out (no strikes: the piles hold no Sniper Team or Saboteur)."""
    state, _ = rules.start(config, 3, [SeatSpec(agent="random")] * config.players)
    state.contested = ["Grenade"]
    state.hand = [[] for _ in piles]
    state.pile = [list(p) for p in piles]
    state.phase = "skirmish"
    events: list[Any] = []
    rules._advance(state, events)
    return state, events


def test_the_last_pile_not_the_tribe_names_the_winner() -> None:
    # Seat 0 fields a Thug (3 people, fight 3) against a Scavenger: it wins the skirmish and
    # the game, though both tribes own the same starting cards but the dealt hands.
    _, (skirmish, end) = last_skirmish([["Thug"], ["Scavenger"]])
    assert skirmish.winner == 0
    assert end.hands == (3, 1) and end.winner == 0
    assert end.scores == (1.0, 0.0) and end.ranks == (1, 2)
    # Seat 1's pile holds more people, and its tribe fewer (seat 0 owns the Thug too).
    _, (_, end) = last_skirmish([["Thug", "Spear"], ["Sled Team", "Scout", "Scavenger"]])
    assert end.tribes[0] > end.tribes[1]
    assert end.hands == (3, 4) and end.winner == 1 and end.scores == (0.0, 1.0)


def test_a_tie_in_the_last_piles_goes_to_the_later_seat() -> None:
    _, (_, end) = last_skirmish([["Brawler"], ["Brawler"]])
    assert end.hands == (1, 1) and end.winner == 1
    assert end.scores == (0.0, 1.0) and end.ranks == (2, 1)
    # Two empty piles: the second player wins, as GameBench's `else (0, 1)` gives it.
    _, (_, end) = last_skirmish([[], []])
    assert end.hands == (0, 0) and end.winner == 1
    # Three players: the most people first, among equals the later seat.
    _, (_, end) = last_skirmish(
        [["Thug"], ["Brawler"], ["Scavenger", "Refugee", "Refugee"]], ArcticConfig(players=3)
    )
    assert end.hands == (3, 1, 3) and end.winner == 2 and end.ranks == (2, 3, 1)
    assert describe(end, 0) == (
        "Game over: last skirmish piles 3, 1, 3 people (tribes "
        + ", ".join(str(t) for t in end.tribes)
        + "); Player 2 wins"
    )


def test_a_struck_card_does_not_count() -> None:
    # Seat 0's Sniper Team (2 people) snipes seat 1's Thug: 2 against 1 people left.
    state, _ = RULES.start(ArcticConfig(), 3, SEATS)
    state.contested = ["Grenade"]
    state.hand = [[], []]
    state.pile = [["Sniper Team"], ["Thug", "Scavenger"]]
    state.phase = "skirmish"
    events: list[Any] = []
    RULES._advance(state, events)
    d = RULES.pending(state)
    assert d is not None
    state, got = RULES.step(state, d, [Strike(kind="snipe", target=1, card="Thug")])
    # Nobody can strike more: seat 1 takes the skirmish on fight (1 to 0), but seat 0 the
    # game on the people left in the piles (2 to 1).
    struck, skirmish, end = got
    assert struck == ArcStruck(round=0, seat=0, kind="snipe", target=1, card="Thug")
    assert isinstance(skirmish, ArcSkirmished) and skirmish.winner == 1
    assert isinstance(end, ArcEnded) and end.hands == (2, 1) and end.winner == 0
    assert RULES.pending(state) is None


def test_the_tribe_preset_and_rules_1_0_0_count_every_card() -> None:
    gdef = catalog.get("gamebench:arctic_scavengers")
    for config, rules in ((gdef.preset("tribe"), RULES), (ArcticConfig(), ArcRules("1.0.0"))):
        # Seat 1's pile holds more people; the tribes (all their cards) decide all the same.
        state, (_, end) = last_skirmish([["Brawler"], ["Thug"]], config, rules)
        assert isinstance(end, ArcEnded) and isinstance(end.hands, UnsetType)
        tribes = tuple(tribe(state.owned(s)) for s in range(2))
        assert end.tribes == tribes
        top = [s for s in range(2) if tribes[s] == max(tribes)]
        assert end.winner == (top[0] if len(top) == 1 else None)
        assert end.scores == tuple(1 / len(top) if s in top else 0.0 for s in range(2))
    replaying = RULES.for_version("1.0.0")
    assert replaying is not None and replaying.version == "1.0.0"
    assert RULES.for_version("1.1.0") is RULES and RULES.for_version("9.9.9") is None


def test_games_of_rules_1_0_0_still_verify() -> None:
    """A log stored by rules 1.0.0 (warlord against gamebench-random) re-runs by its rules:
    the end it stored has no last-pile counts, which rules 1.1.0 would add."""
    path = Path(__file__).parent / "data" / "arctic_scavengers-1.0.0.jsonl"
    lines = path.read_text().splitlines()
    gdef = catalog.get("gamebench:arctic_scavengers")
    log = [gdef.decoder.decode(line) for line in lines]
    assert encode_each(log) == lines
    assert log[0].engine_version == "1.0.0"
    assert RULES.fold(log).winner_rule == "tribe"
    assert verify(log).ok


def test_a_game_of_rules_1_0_0_replays_and_shows_its_own_rules() -> None:
    old = ArcRules("1.0.0")
    state, log = old.start(ArcticConfig(), 5, SEATS)
    assert log[0].engine_version == "1.0.0"
    view = ArcView(0)
    view.sync(log)
    assert view.winner_rule == "tribe"
    prompter = ArcPrompter()
    d = old.pending(state)
    assert d is not None
    text = prompter.decision_prompt(view, d, "", None)
    assert "the tribe with the most people on its cards wins" in text
    # The same deal under rules 1.1.0 tells the last-pile rule.
    state, log = RULES.start(ArcticConfig(), 5, SEATS)
    view = ArcView(0)
    view.sync(log)
    d = RULES.pending(state)
    assert d is not None
    text = prompter.decision_prompt(view, d, "", None)
    assert "most people among the cards of its last skirmish wins" in text


def test_a_stored_game_of_either_rule_verifies(tmp_path: Path) -> None:
    gdef = catalog.get("gamebench:arctic_scavengers")
    with DuckStore(tmp_path / "a.duckdb") as store:
        for preset in ("standard", "tribe"):
            game_id, _ = play_and_store(store, gdef.preset(preset), 2, ["warlord", "random"])
            log = store.load_events(game_id)
            assert log[0].engine_version == "1.1.0"
            assert isinstance(log[-1].hands, UnsetType) == (preset == "tribe")
            assert verify(log).ok


GAMEBENCH_RANDOM = {"draw_rate": 0.0, "empty_last_piles": 0.410, "tribe_people": 9.37}
"""GameBench's own random play at 92a1cea, 300 games (`bench.gamebench.upstream_arctic`;
docs/gamebench.md, Random play beside GameBench's code)."""


def test_random_play_comes_near_gamebenchs() -> None:
    # 60 games of `gamebench-random`: no game is shared (a tie goes to the second seat), and
    # GameBench's fallback drains the tribes as GameBench's program does, so that both last
    # piles are often without people. Under rules 1.0.0 the tribes ended with 19.6 people and
    # almost no last pile was empty.
    row = stats("gamebench:arctic_scavengers", 60, agent="gamebench-random")
    assert row["draw_rate"] == GAMEBENCH_RANDOM["draw_rate"]
    assert row["mean_tribe_people"] <= 1.3 * GAMEBENCH_RANDOM["tribe_people"]
    assert row["mean_empty_last_piles"] >= GAMEBENCH_RANDOM["empty_last_piles"] - 0.25
    assert row["first_win_rate"] < 0.5


def test_gamebenchs_trash_loop_takes_the_copies_it_does_not_skip() -> None:
    # GameBench's loop removes from the list it walks: after each card it removes it skips
    # the next, so two Refugees side by side lose only the first.
    assert trash_loop(["Refugee", "Refugee", "Scavenger", "Refugee"], "Refugee") == (
        "Refugee",
        "Refugee",
    )
    assert trash_loop(["Refugee", "Scavenger", "Refugee"], "Refugee") == ("Refugee", "Refugee")
    assert trash_loop(["Scavenger", "Spear"], "Spear") == ("Spear",)


def test_gamebenchs_fallback_plays_the_first_person() -> None:
    state, _ = RULES.start(ArcticConfig(), 3, SEATS)
    state.hand[0] = ["Junk", "Brawler", "Scavenger"]
    state.used[0] = set()
    dig = Gather(kind="dig", cards=())
    seen = set()
    for misses in range(60):
        state.misses = misses
        seen.add(gamebench_fallback(state, 0, dig))
    # The Brawler (dig 1, fight 2): a dig, a trash, or a fight, which does nothing (None).
    assert seen == {
        Gather(kind="dig", cards=("Brawler",)),
        Gather(kind="trash", cards=("Brawler",)),
        None,
    }
    # Dig and trash used: trashing again is still drawn (GameBench adds it whatever was used).
    state.used[0] = {"dig", "trash"}
    seen = set()
    for misses in range(60):
        state.misses = misses
        seen.add(gamebench_fallback(state, 0, dig))
    assert seen == {Gather(kind="trash", cards=("Brawler",)), None}
    # Past MISSES refusals a fight is no longer drawn.
    state.misses = MISSES + 1
    assert gamebench_fallback(state, 0, dig) == Gather(kind="trash", cards=("Brawler",))
    # No people: the first card is trashed; an empty first trash takes a card at random.
    state.hand[0] = ["Junk", "Spear"]
    assert gamebench_fallback(state, 0, dig) == Gather(kind="trash", cards=("Junk",))
    state.used[0] = set()
    empty_trash = Gather(kind="trash", cards=())
    seen = set()
    for misses in range(40):
        state.misses = misses
        seen.add(gamebench_fallback(state, 0, empty_trash))
    assert seen == {Gather(kind="trash", cards=("Junk",)), Gather(kind="trash", cards=("Spear",))}


def test_an_unusable_gathering_answer_is_played_as_gamebench_plays_it() -> None:
    for config, gamebench in (
        (STANDARD, True),
        (ArcticConfig(winner="tribe", fallback="legal"), False),
    ):
        state, _ = RULES.start(config, 3, SEATS)
        d = RULES.pending(state)
        assert d is not None and d.kind == "gather"
        seat = d.seats[0]
        hand = list(state.hand[seat])
        # A Refugee's dig is worth nothing: never listed, but GameBench's checks take it.
        worthless = Gather(kind="dig", cards=("Refugee",))
        assert "Refugee" in hand and worthless not in d.legal
        _, got = RULES.step(state, d, [worthless])
        if gamebench:
            assert not any(isinstance(e, ArcRejected) for e in got)
            played = next(e for e in got if isinstance(e, ArcPlayed))
            assert (played.action, played.cards, played.value) == ("dig", ("Refugee",), 0)
        else:
            assert isinstance(got[0], ArcRejected)
            played = next(e for e in got if isinstance(e, ArcPlayed | ArcStopped))
            replaced = RULES.recorded_action(got, 1, seat, d)
            assert replaced in d.legal


def test_gamebench_random_answers_keys_and_the_game_verifies() -> None:
    gdef = catalog.get("gamebench:arctic_scavengers")
    record = play_game(gdef.preset("standard"), 4, ["gamebench-random", "gamebench-random"])
    log = list(record.events)
    refused = [e for e in log if isinstance(e, ArcRejected)]
    assert refused and all('"cards":[]' in e.raw for e in refused)
    trashes = [e for e in log if isinstance(e, ArcPlayed) and e.action == "trash"]
    # GameBench's fallback trashes again in a round where trashing was used.
    rounds = Counter((e.round, e.seat) for e in trashes)
    assert max(rounds.values()) > 1
    assert verify(log).ok
