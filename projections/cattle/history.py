"""A seat's game history, one line per turn, as model seats read it.

A prompt's recent history and a scratchpad update show what happened turn by turn
("Turn 21: Player 1 won the dog auction for 40 ..."), not raw events: one line says who
auctioned what, who bid how much, who won, or who challenged whom and how the trade ended.
Every line is worded for the seat that saw the events, from those events only, so nothing
hidden leaks; a turn still in progress is described as far as it has got.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from events.cattle import game as ev

RECENT_TURNS = 10
"""How many finished turns a prompt's recent history shows (the turn in progress comes on top)."""


def _cards(cards: Sequence[int]) -> str:
    return "[" + ", ".join(map(str, cards)) + "]"


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


class _Turn:
    """What one seat saw of one turn, folded event by event into a sentence."""

    def __init__(self, seat: int, turn: int, active: int | None) -> None:
        self.seat = seat
        self.turn = turn
        self.active = active
        self.parts: list[str] = []
        # auction in progress
        self.animal: str | None = None
        self.auctioneer: int | None = None
        self.bids: dict[int, int] = {}
        self.winner: int | None = None
        self.price = 0
        self.closed = True
        # trade in progress
        self.trade: ev.TradeInitiated | None = None
        self.trade_parts: list[str] = []
        self.accepted = False
        # Rejections and fallbacks of this seat: one part per kind and decision, said once
        # with a count however often they repeat (a seat that keeps answering the same
        # invalid bid would otherwise grow the line, and the prompt, every round).
        self.repeats: dict[tuple[str, str], list[Any]] = {}

    def p(self, seat: int | None) -> str:
        if seat is None:
            return "nobody"
        return f"Player {seat} (you)" if seat == self.seat else f"Player {seat}"

    def _bids(self) -> str:
        if not self.bids:
            return "no bids"
        order = sorted(self.bids.items(), key=lambda kv: (-kv[1], kv[0]))
        return "bids: " + ", ".join(f"{self.p(s)} {b}" for s, b in order)

    def _close_auction(self, outcome: str) -> None:
        self.parts.append(outcome)
        self.animal = None
        self.auctioneer = None
        self.bids = {}
        self.winner = None
        self.closed = True

    def _close_trade(self, outcome: str) -> None:
        self.parts.append("; ".join([*self.trade_parts, outcome]))
        self.trade = None
        self.trade_parts = []
        self.accepted = False

    def apply(self, e: Any) -> None:
        p = self.p
        match e:
            case ev.TurnSkipped():
                self.parts.append(
                    f"{p(e.seat)} could not trade with the deck empty and was skipped"
                )
            case ev.CardDrawn():
                self.animal = e.animal
                self.auctioneer = e.seat
                self.closed = False
            case ev.DonkeyPayout():
                self.parts.append(f"donkey #{e.donkey} drawn: every player received a {e.amount}")
            case ev.AuctionOpened():
                self.animal, self.auctioneer, self.bids = e.animal, e.auctioneer, {}
                self.closed = False
            case ev.BidPlaced():
                self.bids[e.seat] = max(e.amount, self.bids.get(e.seat, 0))
            case ev.OverbidRevealed():
                self.parts.append(
                    f"{p(e.seat)} won the bidding at {e.bid} but could not pay: money shown "
                    f"{_cards(e.money)} (total {sum(e.money)})"
                )
            case ev.AuctionRestarted():
                self.parts.append(
                    f"the {self.animal} auction restarted from 0 ({self._bids()} before)"
                )
                self.bids = {}
            case ev.BidderRemoved():
                self.parts.append(f"{p(e.seat)} was removed from the auction")
            case ev.AuctionWon():
                self.winner, self.price = e.winner, e.price
            case ev.BidRoundsCapped():
                self.parts.append(
                    f"the {self.animal} auction reached its cap of {e.rounds} bid rounds and "
                    f"ended on the standing bid"
                )
            case ev.AuctionNoBid():
                self._close_auction(
                    f"{p(e.auctioneer)} auctioned a {self.animal}; nobody bid, so "
                    f"{p(e.auctioneer)} took it for free"
                )
            case ev.AuctioneerDecided():
                bids = self._bids()
                if e.decision == "buy_right":
                    self._close_auction(
                        f"{p(e.seat)} kept the {self.animal} with the buy-right, paying "
                        f"{self.price} to {p(self.winner)} ({bids})"
                    )
                else:
                    self._close_auction(
                        f"{p(self.winner)} won the {self.animal} auction of {p(e.seat)} for "
                        f"{self.price} ({bids})"
                    )
            case ev.PaymentCards():
                if e.payer == self.seat:
                    self.parts.append(f"you paid with {_cards(e.cards)}")
                elif e.payee == self.seat:
                    self.parts.append(f"you received {_cards(e.cards)}")
            case ev.SetCompleted():
                self.parts.append(f"{p(e.seat)} completed the {e.animal} set")
            case ev.TradeInitiated():
                self.trade = e
                self.trade_parts = [
                    f"{p(e.initiator)} challenged {p(e.target)} for {e.animal} with "
                    f"{e.n_cards} face-down card(s)"
                ]
            case ev.TradeAccepted():
                self.trade_parts.append(f"{p(e.target)} accepted unseen")
                self.accepted = True
            case ev.TradeCountered():
                self.trade_parts.append(f"{p(e.target)} countered with {e.n_cards} card(s)")
            case ev.OffersRevealed() if self.accepted:
                self.trade_parts.append(
                    f"the offer held {sum(e.initiator_cards)} {_cards(e.initiator_cards)}"
                )
            case ev.OffersRevealed():
                self.trade_parts.append(
                    f"offers: {p(e.initiator)} {sum(e.initiator_cards)} "
                    f"{_cards(e.initiator_cards)}, {p(e.target)} {sum(e.target_cards)} "
                    f"{_cards(e.target_cards)}"
                )
            case ev.TradeTied():
                self.trade_parts.append(f"tie #{e.ties}, new offers")
            case ev.TradeWon():
                how = " (third tie)" if e.reason == "third_tie" else ""
                self._close_trade(f"{p(e.winner)} won {e.count} {e.animal}{how}")
            case ev.ActionRejected():
                if e.seat == self.seat:
                    self._repeat("rejected", e.decision, e.reason)
            case ev.FallbackApplied():
                if e.seat == self.seat:
                    self._repeat("fallback", e.decision, e.action)
            case ev.GameEnded():
                self.parts.append(f"the game ended; scores {', '.join(map(str, e.scores))}")
            case _:
                return

    def _repeat(self, kind: str, decision: str, detail: str) -> None:
        """Count a rejection or fallback; its part is written once, where it first happened."""
        slot = self.repeats.get((kind, decision))
        if slot is None:
            self.repeats[(kind, decision)] = [len(self.parts), 1, detail]
            self.parts.append("")
        else:
            slot[1] += 1
            slot[2] = detail
        where, n, last = self.repeats[(kind, decision)]
        if kind == "rejected":
            text = f"your {decision} answer was rejected ({last})"
        else:
            text = f"a fallback played your {decision}: {last}"
        if n > 1:
            text = f"{text} [{_times(n)} this turn, the last shown]"
        self.parts[where] = text

    def line(self) -> str | None:
        """The turn as one line, None when nothing worth saying happened in it."""
        parts = list(self.parts)
        if not self.closed and self.animal is not None and self.auctioneer is not None:
            parts.append(
                f"{self.p(self.auctioneer)} is auctioning a {self.animal} "
                f"({self._bids().replace('bids:', 'bids so far:')})"
            )
        if self.trade is not None:
            parts.append("; ".join([*self.trade_parts, "undecided so far"]))
        if not parts:
            return None
        label = "Start of the game" if self.turn <= 0 else f"Turn {self.turn}"
        return f"{label}: " + "; ".join(parts) + "."


def turn_lines(events: Sequence[Any], seat: int) -> list[str]:
    """One line per turn of `events` (what `seat` saw), oldest first.

    Events before the first `turn_started` belong to the turn before it (a run of events
    that starts in the middle of a turn, as a scratchpad update's does).
    """
    first = next((e.turn for e in events if isinstance(e, ev.TurnStarted)), None)
    current = _Turn(seat, (first - 1) if first is not None else 0, None)
    out: list[str] = []
    for e in events:
        if isinstance(e, ev.TurnStarted):
            line = current.line()
            if line is not None:
                out.append(line)
            current = _Turn(seat, e.turn, e.seat)
        else:
            current.apply(e)
    line = current.line()
    if line is not None:
        out.append(line)
    return out


def finished_turns(events: Sequence[Any]) -> int:
    """How many of `events` belong to finished turns: all up to the last `turn_started`
    (the turn it opens is still being played), or all of them once the game has ended."""
    for i in range(len(events) - 1, -1, -1):
        e = events[i]
        if isinstance(e, ev.GameEnded):
            return len(events)
        if isinstance(e, ev.TurnStarted):
            return i
    return len(events)


def recent_turn_lines(history: Sequence[Any], seat: int, turns: int = RECENT_TURNS) -> list[str]:
    """The last `turns` turns the seat saw and the turn in progress, one line each."""
    starts = 0
    begin = 0
    # Only the tail is read: the cost per prompt stays that of a few turns, not the game.
    for i in range(len(history) - 1, -1, -1):
        if isinstance(history[i], ev.TurnStarted):
            starts += 1
            if starts == turns + 1:
                begin = i
                break
    return turn_lines(history[begin:], seat)
