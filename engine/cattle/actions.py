"""What agents ask the engine to do: imperative, per-seat commands."""

from __future__ import annotations

from typing import Literal

import msgspec

from events.cattle.domain import GameConfig
from events.config import SeatSpec


class Action(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", gc=False):
    """Base of every action; `seat` is the seat that acts."""

    seat: int

    @property
    def kind(self) -> str:
        """The action's tag, e.g. "bid"."""
        return str(type(self).__struct_config__.tag)


class ChooseTurn(Action, frozen=True, kw_only=True, tag="choose_turn"):
    """Auction the top card, or start a trade challenge."""

    choice: Literal["auction", "trade"]


class PlaceBid(Action, frozen=True, kw_only=True, tag="bid"):
    """Bid this many coins in the current round."""

    amount: int


class Pass(Action, frozen=True, kw_only=True, tag="pass"):
    """Do not bid in the current round."""


class ChooseSale(Action, frozen=True, kw_only=True, tag="sale"):
    """As auctioneer: sell to the winning bidder, or pay the bid to keep the card."""

    decision: Literal["sell", "buy_right"]


class InitiateTrade(Action, frozen=True, kw_only=True, tag="initiate_trade"):
    """Challenge `target` for `animal` with these face-down money cards."""

    target: int
    animal: str
    cards: tuple[int, ...]


class AcceptTrade(Action, frozen=True, kw_only=True, tag="accept"):
    """As trade target: take the face-down offer unseen and give up the animals."""


class CounterTrade(Action, frozen=True, kw_only=True, tag="counter"):
    """As trade target: answer with these face-down money cards."""

    cards: tuple[int, ...]


class OfferAgain(Action, frozen=True, kw_only=True, tag="tie_offer"):
    """After a tie: a new face-down offer."""

    cards: tuple[int, ...]


AnyAction = (
    ChooseTurn
    | PlaceBid
    | Pass
    | ChooseSale
    | InitiateTrade
    | AcceptTrade
    | CounterTrade
    | OfferAgain
)
"""Every per-seat action."""


class Simultaneous(msgspec.Struct, frozen=True, kw_only=True):
    """The actions of every seat asked in one simultaneous decision (a sealed bid round)."""

    actions: tuple[PlaceBid | Pass, ...]


class StartGame(msgspec.Struct, frozen=True, kw_only=True):
    """Begin a game: deal, shuffle and open the first turn."""

    seed: int
    seats: tuple[SeatSpec, ...]
    config: GameConfig
    version: str | None = None
    """Rules version to play by (a replay passes the log's); None: the current one."""


Command = AnyAction | Simultaneous | StartGame
"""Anything `decide` accepts."""

_ACTION_ENCODER = msgspec.json.Encoder(order="deterministic")
_ACTION_DECODER: msgspec.json.Decoder[AnyAction] = msgspec.json.Decoder(AnyAction)


def action_json(action: msgspec.Struct) -> str:
    """An action as compact JSON text (what a rejection records as raw input)."""
    return _ACTION_ENCODER.encode(action).decode()


def action_from_json(text: str | bytes) -> AnyAction:
    """Decode an action written by `action_json`."""
    return _ACTION_DECODER.decode(text)
