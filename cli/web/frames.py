"""The table drawn at each point of a game, as plain data the viewer's script renders.

A frame is computed from the events a viewer may see and nothing else: the caller passes the
already filtered log, so a seat's frames cannot hold what that seat was not shown. Frames are
deduplicated (consecutive equal frames are stored once) and growing lists (PACT's chat and
quote ladder) are sent once, each frame giving only how much of them it shows.

Cattle Trade and PACT get a rich table; any other game a text dump of its view or state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from engine.cattle import RULES as CATTLE_RULES
from engine.state import GameState
from events import game as ev
from events import pact as pe
from events.catalog import GameDef
from events.domain import ANIMAL_VALUES
from projections.observation import SeatView

Viewer = int | str | None
"""A seat number, "public" (what every seat sees) or None (everything)."""

MAX_TEXT = 20_000
"""Longest state text of a generic game's frame; a longer dump is cut."""


class Frames(msgspec.Struct, kw_only=True):
    """The frames of one game for one viewer: `index[i]` is the frame after event i."""

    frames: list[dict[str, Any]]
    index: list[int]
    logs: dict[str, list[Any]] = msgspec.field(default_factory=dict)
    meta: dict[str, Any] = msgspec.field(default_factory=dict)
    """Facts that hold for every frame (Cattle Trade: the value of each animal's set)."""


def build(game: GameDef | None, events: Sequence[Any], viewer: Viewer) -> Frames:
    """The frames after each of `events` (already filtered for `viewer`)."""
    maker = _BUILDERS.get(game.name) if game is not None else None
    if maker is None:
        step: Callable[[Any], dict[str, Any]] = _text_builder(game, viewer, len(events))
        logs: dict[str, list[Any]] = {}
    else:
        step, logs = maker(viewer)
    frames: list[dict[str, Any]] = []
    index: list[int] = []
    last: bytes = b""
    for e in events:
        frame = step(e)
        key = msgspec.json.encode(frame)
        if key != last:
            frames.append(frame)
            last = key
        index.append(len(frames) - 1)
    meta = {"values": ANIMAL_VALUES} if game is not None and game.name == "cattle-trade" else {}
    return Frames(frames=frames, index=index, logs=logs, meta=meta)


# ---- Cattle Trade ---------------------------------------------------------------------------


def _cattle(viewer: Viewer) -> tuple[Callable[[Any], dict[str, Any]], dict[str, list[Any]]]:
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


# ---- PACT -------------------------------------------------------------------------------------


def _pact(viewer: Viewer) -> tuple[Callable[[Any], dict[str, Any]], dict[str, list[Any]]]:
    messages: list[Any] = []
    ladder: list[Any] = []
    seats: list[dict[str, Any]] = []
    status = {"round": 0, "ended": False}
    scores: list[Any] = [None]

    def step(e: Any) -> dict[str, Any]:
        match e:
            case pe.PactGameStarted():
                seats.clear()
                for i in range(len(e.seats)):
                    role = "buyer" if i == 0 else "seller"
                    seats.append({"seat": i, "role": role, "value": None, "profit": 0.0})
                status["round"] = 1
            case pe.PactValueDealt():
                if e.seat < len(seats):
                    seats[e.seat]["value"] = e.amount
                    seats[e.seat]["role"] = e.role
            case pe.PactValuesDrawn():
                # Engine-only: seen in the omniscient view alone.
                for s in seats:
                    s["value"] = e.value if s["role"] == "buyer" else e.cost
            case pe.PactMessageSent():
                messages.append([e.round, e.seat, e.text, e.cut])
            case pe.PactQuotesRevealed():
                ladder.append([e.round, e.bid, e.ask, e.traded, e.price])
                if e.traded and e.price is not None:
                    for s in seats:
                        if s["value"] is None:
                            continue
                        gain = (
                            s["value"] - e.price if s["role"] == "buyer" else e.price - s["value"]
                        )
                        s["profit"] = round(s["profit"] + gain, 6)
                status["round"] = e.round + 1
            case pe.PactGameEnded():
                status["ended"] = True
                status["round"] = e.rounds
                scores[0] = list(e.scores)
            case _:
                pass
        return {
            "kind": "pact",
            "round": status["round"],
            "seats": [dict(s) for s in seats],
            "messages": len(messages),
            "ladder": len(ladder),
            "ended": status["ended"],
            "scores": scores[0],
        }

    return step, {"messages": messages, "ladder": ladder}


# ---- any other game ---------------------------------------------------------------------------


MAX_FOLDS = 1000
"""Most states a generic game's omniscient view folds (the rules fold whole prefixes)."""


def _text_builder(game: GameDef | None, viewer: Viewer, n: int) -> Callable[[Any], dict[str, Any]]:
    """A text dump of the seat's view (a seat) or of the rules' state (everyone)."""
    if game is None:
        return lambda e: {"kind": "text", "text": "(this game's module is not loaded)"}
    if viewer is None:
        # `Rules.fold` is what every game defines for a prefix of its log (its `evolve` may
        # ignore events that `step` applies); on long logs only every k-th prefix is folded.
        every = max(1, -(-n // MAX_FOLDS))
        log: list[Any] = []
        last: list[dict[str, Any]] = []

        def fold(e: Any) -> dict[str, Any]:
            log.append(e)
            if last and len(log) % every and len(log) != n:
                return last[0]
            try:
                text = _dump(game.rules.fold(log))
            except Exception as exc:  # a game's fold may refuse a log it did not expect
                text = f"(no state text: {type(exc).__name__})"
            last[:] = [{"kind": "text", "text": text}]
            return last[0]

        return fold
    view = game.new_view(viewer if isinstance(viewer, int) else -1)
    seen: list[Any] = []

    def seat_step(e: Any) -> dict[str, Any]:
        seen.append(e)
        view.sync(seen)
        try:
            return {"kind": "text", "text": _dump(view.snapshot())}
        except Exception as exc:  # a game's view may not support a public (-1) seat
            return {"kind": "text", "text": f"(no state text: {type(exc).__name__})"}

    return seat_step


def _dump(value: Any) -> str:
    try:
        text = msgspec.json.format(msgspec.json.encode(value), indent=2).decode()
    except (TypeError, msgspec.EncodeError):
        text = repr(value)
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT] + "\n..."


_BUILDERS: dict[
    str, Callable[[Viewer], tuple[Callable[[Any], dict[str, Any]], dict[str, list[Any]]]]
] = {
    "cattle-trade": _cattle,
    "pact": _pact,
}
