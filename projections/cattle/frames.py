"""Cattle Trade's table in the viewer, frame by frame: from the events the viewer may see (a
seat's view for a seat, the rules' state for everyone), as plain data the page renders."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.cattle.decider import RULES as CATTLE_RULES
from engine.cattle.state import GameState
from events.cattle import game as ev
from events.cattle.domain import ANIMAL_VALUES
from projections.cattle.observation import SeatView

Viewer = int | str | None
"""A seat number, "public" (what every seat sees) or None (everything)."""

META = {"values": ANIMAL_VALUES}
"""What holds for every frame: the value of each animal's set."""


def frames(viewer: Viewer) -> tuple[Callable[[Any], dict[str, Any]], dict[str, list[Any]]]:
    """A step that turns each next event into the frame after it, and the growing lists the
    frames refer to (the viewer's `extras["frames"]` for Cattle Trade)."""
    if viewer is None:
        return _cattle_omniscient(), {}
    return _cattle_seat(viewer if isinstance(viewer, int) else -1), {}


def _cattle_omniscient() -> Callable[[Any], dict[str, Any]]:
    state: list[GameState | None] = [None]
    last: list[dict[str, Any]] = []

    def step(e: Any) -> dict[str, Any]:
        s = state[0]
        if s is None:
            if not isinstance(e, ev.GameStarted):
                return {"kind": "text", "text": "(no game_started event)"}
            s = CATTLE_RULES.fold([e])
        else:
            s = CATTLE_RULES.evolve(s, e)
            if s is state[0] and last:
                return last[0]  # an event the rules ignore (model calls, notes): same table
        state[0] = s
        last[:] = [_omniscient_frame(s)]
        return last[0]

    return step


def _omniscient_frame(s: GameState) -> dict[str, Any]:
    """The table of a Cattle Trade state, everything shown."""
    names = s.config.animals
    seats = []
    for p in range(s.players):
        seats.append(
            {
                "seat": p,
                "animals": {a: n for a, n in zip(names, s.animals[p], strict=True) if n},
                "sets": list(s.sets[p]),
                "cards": len(s.money[p]),
                "money": list(s.money[p]),
            }
        )
    auction = None
    if s.auction is not None:
        a = s.auction
        auction = {
            "animal": a.animal,
            "auctioneer": a.auctioneer,
            "price": a.price,
            "leader": a.leader,
            "bidders": list(a.bidders),
            "round": a.round,
        }
    trade = None
    if s.trade is not None:
        t = s.trade
        trade = {
            "initiator": t.initiator,
            "target": t.target,
            "animal": t.animal,
            "offer": len(t.offer),
            "counter": len(t.counter),
            "offer_money": list(t.offer),
            "counter_money": list(t.counter),
            "ties": t.ties,
        }
    return {
        "kind": "cattle",
        "turn": s.turn,
        "active": s.active,
        "deck_left": s.deck_left,
        "drawn": s.drawn,
        "seats": seats,
        "auction": auction,
        "trade": trade,
        "ended": s.phase == "ended",
        "scores": list(s.scores()) if s.phase == "ended" else None,
    }


def _cattle_seat(seat: int) -> Callable[[Any], dict[str, Any]]:
    # A view for seat -1 folds the public events only: it never owns money cards.
    view = SeatView(seat)
    trade_cards: dict[str, int] = {}

    def step(e: Any) -> dict[str, Any]:
        view.apply(e)
        if isinstance(e, ev.TradeInitiated):
            trade_cards.clear()
            trade_cards["offer"] = e.n_cards
        elif isinstance(e, ev.TradeCountered):
            trade_cards["counter"] = e.n_cards
        elif isinstance(e, ev.TieOfferMade) and view.trade is not None:
            side = "offer" if e.seat == view.trade.initiator else "counter"
            trade_cards[side] = e.n_cards
        if view.config is None:
            return {"kind": "text", "text": "(no game_started event)"}
        seats = []
        for p in range(view.players):
            seats.append(
                {
                    "seat": p,
                    "animals": {a: n for a, n in view.animals[p].items() if n},
                    "sets": list(view.sets[p]),
                    "cards": view.money_cards[p],
                    "money": list(view.money) if p == seat else None,
                    "revealed": list(r[0]) if (r := view.revealed[p]) else None,
                }
            )
        auction = None
        if view.auction is not None:
            a = view.auction
            auction = {
                "animal": a.animal,
                "auctioneer": a.auctioneer,
                "price": view.price,
                "leader": view.leader,
                "bidders": None,
                "round": None,
            }
        trade = None
        if view.trade is not None:
            t = view.trade
            trade = {
                "initiator": t.initiator,
                "target": t.target,
                "animal": t.animal,
                "offer": trade_cards.get("offer", t.n_cards),
                "counter": trade_cards.get("counter", 0),
                "offer_money": list(view.my_offer) if seat == t.initiator else None,
                "counter_money": list(view.my_offer) if seat == t.target else None,
                "ties": view.ties,
            }
        return {
            "kind": "cattle",
            "turn": view.turn,
            "active": view.active,
            "deck_left": view.deck_left,
            "drawn": e.animal if isinstance(e, ev.CardDrawn) else None,
            "seats": seats,
            "auction": auction,
            "trade": trade,
            "ended": view.ended,
            "scores": list(view.scores) if view.scores is not None else None,
            "notes": view.notes if seat >= 0 else None,
        }

    return step
