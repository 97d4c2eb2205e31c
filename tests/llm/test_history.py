"""Turn lines (projections/cattle/history.py): one per turn, whole turns, nothing hidden, any split."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cattle.presets import load_preset
from events.cattle import game as ev
from projections.cattle.history import finished_turns, recent_turn_lines, turn_lines
from projections.cattle.observation import SeatView
from runner.session import play_game

PRESETS = ("micro-duel", "standard")


def _game(preset: str, seed: int) -> list[object]:
    agents = ["random"] * load_preset(preset).players
    return list(play_game(load_preset(preset), seed, agents).events)


def _numbers(lines: list[str]) -> list[int]:
    return [int(re.match(r"Turn (\d+): ", line).group(1)) for line in lines]  # type: ignore[union-attr]


@settings(max_examples=12, deadline=None)
@given(preset=st.sampled_from(PRESETS), seed=st.integers(0, 10_000), cut=st.randoms())
def test_turn_lines_are_one_per_turn_and_any_whole_turn_split_gives_the_same(
    preset: str, seed: int, cut: object
) -> None:
    events = _game(preset, seed)
    turns = max(e.turn for e in events if isinstance(e, ev.TurnStarted))
    for seat in range(load_preset(preset).players):
        history = SeatView(seat).sync(events).history
        whole = turn_lines(history, seat)
        # every turn is told, once, in order (every turn has an auction, a trade or a skip)
        assert _numbers(whole) == list(range(1, turns + 1))
        # scratchpad updates take whole turns: cutting the history where a turn starts and
        # telling each piece gives the same lines, however the cuts fall
        starts = [i for i, e in enumerate(history) if isinstance(e, ev.TurnStarted)]
        picks = sorted(cut.sample(starts, min(len(starts), 6)))  # type: ignore[attr-defined]
        pieces: list[str] = []
        for a, b in zip([0, *picks], [*picks, len(history)], strict=True):
            chunk = history[a:b]
            assert finished_turns(chunk) <= len(chunk)
            pieces += turn_lines(chunk, seat)
        assert pieces == whole
        # the recent history: the last ten turns
        recent = recent_turn_lines(history, seat)
        assert recent == whole[-11:]


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_turn_lines_show_trade_amounts_only_to_the_two_traders(seed: int) -> None:
    events = _game("standard", seed)
    traders = {e.trade: {e.initiator, e.target} for e in events if isinstance(e, ev.TradeInitiated)}
    for seat in range(4):
        for line in turn_lines(SeatView(seat).sync(events).history, seat):
            for part in line.split("; "):
                if part.startswith(("offers: ", "the offer held ")):
                    # which trade: the challenge named earlier in the same line
                    m = re.findall(r"Player (\d+)(?: \(you\))? challenged Player (\d+)", line)
                    assert m, line
                    assert any(seat in {int(a), int(b)} for a, b in m), (seat, line)
    assert traders  # the games did hold trades


def _rejected_turn(times: int) -> list[object]:
    """A turn in which seat 1 has its bid rejected and corrected `times` times."""
    events: list[object] = [
        ev.TurnStarted(turn=4, seat=0, deck_left=3),
        ev.AuctionOpened(auction=2, auctioneer=0, animal="cat", priority=(1,)),
    ]
    for i in range(times):
        events += [
            ev.ActionRejected(
                seat=1,
                decision="bid",
                reason=f"below the minimum bid: raised to {10 * (i + 1)}",
                raw='{"kind":"bid","seat":1,"amount":10}',
                retry=False,
            ),
            ev.FallbackApplied(
                seat=1,
                decision="bid",
                action=f'{{"kind":"bid","seat":1,"amount":{10 * (i + 1)}}}',
                reason="bid corrected",
            ),
            ev.BidPlaced(auction=2, round=i, seat=1, amount=10 * (i + 1)),
        ]
    return events


def test_a_turn_of_repeated_rejections_says_them_once_with_a_count() -> None:
    once = turn_lines(_rejected_turn(1), 1)
    assert once == [
        "Turn 4: your bid answer was rejected (below the minimum bid: raised to 10); a fallback"
        ' played your bid: {"kind":"bid","seat":1,"amount":10}; Player 0 is auctioning a cat'
        " (bids so far: Player 1 (you) 10)."
    ]
    many = turn_lines(_rejected_turn(40), 1)
    assert many == [
        "Turn 4: your bid answer was rejected (below the minimum bid: raised to 400) [40 times"
        ' this turn, the last shown]; a fallback played your bid: {"kind":"bid","seat":1,'
        '"amount":400} [40 times this turn, the last shown]; Player 0 is auctioning a cat'
        " (bids so far: Player 1 (you) 400)."
    ]
    # The line does not grow with the repeats; other seats see none of them.
    assert len(many[0]) - len(once[0]) < 80
    assert "rejected" not in turn_lines(_rejected_turn(40), 0)[0]
