"""Reading a model's answer into a Cattle Trade action.

The fields are found in the stages of agents.llm.parse (the whole text as JSON, the last JSON
object, key-value pairs of the keys below). Then the fields are coerced to the action the decision needs ("120 coins" -> 120,
"Player 2" -> 2, "50, 10" -> [50, 10]). Anything that still does not make an action raises
`AnswerError` with a message the model can be shown. Rules (cards in hand, valid targets,
bid steps) are the engine's business, not the parser's.
"""

from __future__ import annotations

import re
from typing import Any

from agents.llm.parse import PLACEHOLDER, AnswerError, is_placeholder
from agents.llm.parse import extract as extract_fields
from engine.cattle import actions as act
from engine.cattle import decisions as dec

KEYS = (
    "action",
    "amount",
    "decision",
    "target_player",
    "target",
    "animal",
    "offer_cards",
    "counter_cards",
    "cards",
)
"""The fields a Cattle Trade answer may carry (picked out of plain text when there is no JSON)."""


def extract(text: str) -> tuple[dict[str, Any] | None, str]:
    """The answer's fields and the stage that found them (json, last_object, key_value, failed)."""
    return extract_fields(text, KEYS)


# ---------------------------------------------------------------------------- coercion


LIMIT = 10**7
"""Numbers beyond this are refused (nobody holds that much; keeps encodings in range)."""


def _int(value: Any, what: str) -> int:
    n = _int0(value, what)
    if abs(n) > LIMIT:
        raise AnswerError(f"{what} is out of range: {n}")
    return n


def _int0(value: Any, what: str) -> int:
    if isinstance(value, bool) or value is None:
        raise AnswerError(f"{what} must be a number, got {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise AnswerError(f"{what} must be a number, got {value!r}")
        if not value.is_integer():
            # Amounts, players and cards are whole numbers: 45.9 is none of them (nor 45).
            raise AnswerError(f"{what} must be a whole number, got {value!r}")
        return int(value)
    if isinstance(value, str):
        if is_placeholder(value):
            raise AnswerError(f"{what} repeats the template's placeholder, got {value!r}")
        value = PLACEHOLDER.sub(" ", value)
        m = re.search(r"(?<![\w.])-?\d+((?:,\d{3})+)?(?:\.\d+)?([eE][+-]?\d+)?", value)
        if m and (m.group(1) or m.group(2)):
            # `1e2` and `1,000` are no whole numbers as the prompt writes them (nor their
            # first digits).
            raise AnswerError(f"{what} must be a whole number written out, got {value!r}")
        if m:
            n = float(m.group())
            if n != n or abs(n) == float("inf"):
                raise AnswerError(f"{what} is out of range: {value!r}"[:120])
            if not n.is_integer():
                raise AnswerError(f"{what} must be a whole number, got {value!r}")
            return int(n)
    raise AnswerError(f"{what} must be a number, got {value!r}")


def _cards(value: Any, what: str) -> tuple[int, ...]:
    if value is None:
        raise AnswerError(f'"{what}" is missing')
    if isinstance(value, str):
        if is_placeholder(value):
            raise AnswerError(f"{what} repeats the template's placeholder, got {value!r}")
        return tuple(_int(x, what) for x in re.findall(r"-?\d+", PLACEHOLDER.sub(" ", value)))
    if isinstance(value, int | float) and not isinstance(value, bool):
        return (_int(value, what),)
    if isinstance(value, list | tuple):
        cards = tuple(_int(v, f"each of {what}") for v in value)
        if len(cards) > 200:
            raise AnswerError(f"{what} lists too many cards")
        return cards
    raise AnswerError(f"{what} must be a list of card values, got {value!r}")


def _word(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise AnswerError(f'"{what}" must be a word, got {value!r}')
    return value.strip().lower().replace("-", "_").replace(" ", "_")


def _pick(data: dict[str, Any], *keys: str) -> Any:
    lowered = {str(k).strip().lower(): v for k, v in data.items()}
    for k in keys:
        if k in lowered and lowered[k] is not None:
            return lowered[k]
    return None


_BID = {"bid", "raise", "place_bid", "bet"}
_PASS = {"pass", "fold", "no_bid", "none", "skip", "no"}


def to_action(data: dict[str, Any], decision: dec.AnyDecision, seat: int) -> act.AnyAction:
    """The action the fields describe for this decision, or `AnswerError`."""
    match decision:
        case dec.TurnDecision():
            raw = _pick(data, "action", "choice")
            if raw is None:
                raise AnswerError('"action" is missing')
            turn = _word(raw, "action")
            if turn.startswith("auction") or turn in ("a", "draw"):
                return act.ChooseTurn(seat=seat, choice="auction")
            if turn in ("kuhhandel", "trade", "b", "cattle_trade", "challenge", "trade_challenge"):
                return act.ChooseTurn(seat=seat, choice="trade")
            raise AnswerError(f'"action" must be "auction" or "kuhhandel", got {raw!r}')
        case dec.BidDecision():
            raw = _pick(data, "action", "decision")
            amount = _pick(data, "amount", "bid")
            word = _word(raw, "action") if isinstance(raw, str) else None
            if word in _PASS:
                return act.Pass(seat=seat)
            if word is not None and word not in _BID:
                raise AnswerError(f'"action" must be "bid" or "pass", got {raw!r}')
            if amount is None:
                raise AnswerError(
                    '"amount" is missing for a bid' if word else '"action" is missing'
                )
            value = _int(amount, "amount")
            if value <= 0 and word is None:
                return act.Pass(seat=seat)
            return act.PlaceBid(seat=seat, amount=value)
        case dec.SaleDecision():
            raw = _pick(data, "decision", "action")
            if raw is None:
                raise AnswerError('"decision" is missing')
            word = _word(raw, "decision")
            if word in ("sell", "accept", "sale"):
                return act.ChooseSale(seat=seat, decision="sell")
            if word in ("buy_right", "buyright", "buy", "keep"):
                return act.ChooseSale(seat=seat, decision="buy_right")
            raise AnswerError(f'"decision" must be "sell" or "buy_right", got {raw!r}')
        case dec.TradeDecision():
            target = _pick(data, "target_player", "target", "player")
            animal = _pick(data, "animal")
            if target is None:
                raise AnswerError('"target_player" is missing')
            if animal is None:
                raise AnswerError('"animal" is missing')
            cards = _cards(_pick(data, "offer_cards", "cards", "offer"), "offer_cards")
            name = _word(animal, "animal")
            if name.endswith("s") and name[:-1] in {a for _, a in decision.targets}:
                name = name[:-1]
            return act.InitiateTrade(
                seat=seat, target=_int(target, "target_player"), animal=name, cards=cards
            )
        case dec.ResponseDecision():
            raw = _pick(data, "action", "decision")
            cards_raw = _pick(data, "counter_cards", "cards", "offer_cards")
            answer: str | None = _word(raw, "action") if isinstance(raw, str) else None
            if answer in ("accept", "accepted", "yes"):
                return act.AcceptTrade(seat=seat)
            if answer is not None and answer not in ("counter", "counter_offer", "counteroffer"):
                raise AnswerError(f'"action" must be "accept" or "counter", got {raw!r}')
            if answer is None and cards_raw is None:
                raise AnswerError('"action" is missing')
            return act.CounterTrade(seat=seat, cards=_cards(cards_raw, "counter_cards"))
        case dec.TieDecision():
            cards_raw = _pick(data, "offer_cards", "cards", "counter_cards")
            return act.OfferAgain(seat=seat, cards=_cards(cards_raw, "offer_cards"))
    raise AnswerError(f"unknown decision {decision!r}")


def parse_answer(
    text: str, decision: dec.AnyDecision, seat: int
) -> tuple[act.AnyAction | None, str, str | None]:
    """(action or None, parse stage, error) for a model's answer text."""
    data, stage = extract(text)
    if data is None:
        return None, stage, "no JSON object found in the answer"
    try:
        return to_action(data, decision, seat), stage, None
    except AnswerError as exc:
        return None, stage, str(exc)
    except (ValueError, OverflowError) as exc:
        return None, stage, f"unreadable value: {exc}"


def default_action(decision: dec.AnyDecision, seat: int) -> act.AnyAction:
    """The documented default when no usable answer came: the most neutral legal move."""
    match decision:
        case dec.TurnDecision():
            return act.ChooseTurn(seat=seat, choice="auction")
        case dec.BidDecision():
            return act.Pass(seat=seat)
        case dec.SaleDecision():
            return act.ChooseSale(seat=seat, decision="sell")
        case dec.TradeDecision():
            target, animal = decision.targets[0]
            return act.InitiateTrade(seat=seat, target=target, animal=animal, cards=())
        case dec.ResponseDecision():
            return act.AcceptTrade(seat=seat)
        case dec.TieDecision():
            return act.OfferAgain(seat=seat, cards=())
    raise AssertionError(f"unknown decision {decision!r}")
