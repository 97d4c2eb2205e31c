"""Cattle Trade's events as lines of text, worded for everyone or for one seat (the timeline of
`cattle show`, the viewer and the prompts' history)."""

from __future__ import annotations

from typing import Any

from events.cattle import game as ev
from events.cattle.domain import ANIMAL_VALUES
from projections.timeline import describe_agent_event, fallback, seat_name


def _cards(cards: tuple[int, ...]) -> str:
    return "[" + ", ".join(map(str, cards)) + "]" if cards else "[]"


def _p(seat: int | None, viewer: int | None = None) -> str:
    return "the deck" if seat is None else seat_name(seat, viewer)


def describe(e: Any, viewer: int | None = None) -> str:
    """One line of text for an event, worded for `viewer` (None: the omniscient view)."""

    def p(seat: int | None) -> str:
        return _p(seat, viewer)

    match e:
        case ev.GameStarted():
            c = e.config
            agents = ", ".join(f"{i}={s.agent}" for i, s in enumerate(e.seats))
            return (
                f"Game started ({c.name}, {c.players} players, sets of {c.set_size}, "
                f"{len(c.animals)} animal types, {c.auction_mode} auctions, seed {e.seed}): {agents}"
            )
        case ev.DeckShuffled():
            return f"Deck shuffled ({len(e.order)} cards; top: {', '.join(e.order[:5])}, ...)"
        case ev.HandsDealt():
            dealt = "; ".join(f"{p(i)}: {', '.join(h)}" for i, h in enumerate(e.animals) if h)
            return f"Each player receives money {_cards(e.money)}" + (
                f"; animals {dealt}" if dealt else ""
            )
        case ev.TurnStarted():
            return f"Turn {e.turn}: {p(e.seat)} to play ({e.deck_left} cards in the deck)"
        case ev.TurnChosen():
            what = "an auction" if e.choice == "auction" else "a trade challenge"
            return f"{p(e.seat)} {'must start' if e.forced else 'chooses'} {what}"
        case ev.TurnSkipped():
            return f"{p(e.seat)} cannot trade and the deck is empty: turn skipped"
        case ev.CardDrawn():
            return f"{p(e.seat)} draws a {e.animal} (set value {ANIMAL_VALUES[e.animal]}); {e.deck_left} left"
        case ev.DonkeyPayout():
            return f"Donkey #{e.donkey}: every player receives a {e.amount} money card"
        case ev.AuctionOpened():
            order = ", ".join(map(str, e.priority))
            return (
                f"Auction #{e.auction} of a {e.animal} by {p(e.auctioneer)} (tie priority: {order})"
            )
        case ev.BidRoundOpened():
            kind = "confirmation round" if e.confirmation else f"round {e.round}"
            lead = f", standing bid {e.price} by {p(e.leader)}" if e.leader is not None else ""
            return f"  {kind} opens{lead}"
        case ev.BidPlaced():
            return f"  {p(e.seat)} bids {e.amount}"
        case ev.BidPassed():
            return f"  {p(e.seat)} passes"
        case ev.BidRoundClosed():
            if e.leader is None:
                return f"  round {e.round} closes without a bid"
            return f"  round {e.round} closes: {p(e.leader)} leads with {e.price}"
        case ev.OverbidRevealed():
            return (
                f"{p(e.seat)} cannot pay {e.bid}: money revealed {_cards(e.money)} "
                f"(total {sum(e.money)})"
            )
        case ev.AuctionRestarted():
            caps = ", ".join(f"{p(s)} at most {c}" for s, c in e.caps)
            return f"Auction #{e.auction} restarts from 0 ({caps})"
        case ev.BidderRemoved():
            return f"{p(e.seat)} is out of auction #{e.auction} ({e.reason})"
        case ev.AuctionWon():
            return f"Auction #{e.auction}: highest bid {e.price} by {p(e.winner)}"
        case ev.AuctionNoBid():
            return f"Auction #{e.auction}: no bid, {p(e.auctioneer)} takes the card for free"
        case ev.BidRoundsCapped():
            return (
                f"Auction #{e.auction} reached its cap of {e.rounds} bid rounds: it ends on "
                f"the standing bid, {e.price} by {p(e.leader)}"
            )
        case ev.AuctioneerDecided():
            if e.decision == "buy_right":
                return f"{p(e.seat)} uses the buy-right"
            return f"{p(e.seat)} sells" + ("" if e.offered else " (cannot afford the buy-right)")
        case ev.PaymentMade():
            return f"{p(e.payer)} pays {e.amount} to {p(e.payee)} with {_count(e.n_cards)}"
        case ev.PaymentCards():
            return f"  cards paid: {_cards(e.cards)} (total {sum(e.cards)})"
        case ev.AnimalMoved():
            src = "" if e.giver is None else f" from {p(e.giver)}"
            return f"{p(e.receiver)} gets {e.count} {e.animal}{src}"
        case ev.SetCompleted():
            return f"{p(e.seat)} completes the {e.animal} set"
        case ev.TradeInitiated():
            return (
                f"Trade #{e.trade}: {p(e.initiator)} challenges {p(e.target)} for {e.animal} "
                f"with {_count(e.n_cards, 'face-down ')}"
            )
        case ev.OfferCards():
            return f"  {p(e.seat)} placed {_cards(e.cards)} (total {sum(e.cards)})"
        case ev.TradeAccepted():
            return f"{p(e.target)} accepts the offer unseen"
        case ev.TradeCountered():
            return f"{p(e.target)} counters with {_count(e.n_cards, 'face-down ')}"
        case ev.TieOfferMade():
            return f"{p(e.seat)} places a new offer of {_count(e.n_cards)}"
        case ev.OffersRevealed():
            mine = f"{p(e.initiator)} offered {sum(e.initiator_cards)} {_cards(e.initiator_cards)}"
            if not e.target_cards and viewer is not None:
                return f"  revealed: {mine}"
            theirs = f"{p(e.target)} {sum(e.target_cards)} {_cards(e.target_cards)}"
            return f"  revealed: {mine}; {theirs}"
        case ev.TradeTied():
            return f"  tie #{e.ties}: both take their cards back and offer again"
        case ev.OffersExchanged():
            return f"  offers exchanged ({e.initiator_n} and {_count(e.target_n)})"
        case ev.TradeWon():
            how = {"accepted": "accepted", "higher_offer": "higher offer", "third_tie": "third tie"}
            return (
                f"Trade #{e.trade}: {p(e.winner)} wins ({how[e.reason]});"
                f" {_animals(e.count, e.animal)} {'changes' if e.count == 1 else 'change'} hands"
            )
        case ev.ActionRejected():
            again = "asked again" if e.retry else "fallback follows"
            return (
                f"! {p(e.seat)}'s {e.decision} rejected: {e.reason} ({again}); input: {e.raw[:120]}"
            )
        case ev.FallbackApplied():
            return f"! fallback for {p(e.seat)}'s {e.decision}: {e.action} ({e.reason})"
        case ev.GameEnded():
            parts = ", ".join(
                f"{p(i)} {s} ({len(sets)} set{'' if len(sets) == 1 else 's'}, rank {r})"
                for i, (s, r, sets) in enumerate(zip(e.scores, e.ranks, e.sets, strict=True))
            )
            why = {
                "complete": "every set is complete",
                "max_turns": "turn limit reached",
                "max_decisions": "decision limit reached (max_turns x 50)",
            }.get(e.reason, e.reason)
            return f"Game over after {e.turns} turns ({why}): {parts}"
    return describe_agent_event(e, viewer) or fallback(e)


_PLURALS = {"goose": "geese", "sheep": "sheep"}


def _count(n: int, kind: str = "") -> str:
    """`1 card`, `3 face-down cards`."""
    return f"{n} {kind}card{'' if n == 1 else 's'}"


def _animals(n: int, animal: str) -> str:
    """`1 donkey`, `2 donkeys`, `2 geese`."""
    return f"{n} {animal if n == 1 else _PLURALS.get(animal, animal + 's')}"
