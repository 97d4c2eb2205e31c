"""Prompts as a projection: the text a model seat reads, rendered from what that seat saw.

Every function here is pure: the same events (through a `SeatView`) and the same decision
always give the same text, so prompts are snapshot-tested and a replay re-renders them
exactly. The JSON keys each prompt asks for are those the answer parser reads:
``action``, ``amount``, ``decision``, ``target_player``, ``animal``, ``offer_cards``,
``counter_cards`` and an optional ``reasoning``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.cattle import decisions as dec
from events.cattle import game as ev
from events.cattle.domain import ANIMAL_VALUES, BID_STEP, GameConfig
from projections import editions
from projections.cattle.history import RECENT_TURNS, recent_turn_lines, turn_lines
from projections.cattle.observation import SeatView

NOTES_TOKENS = 300
"""Target size of a scratchpad, in tokens."""
NOTES_CHARS = NOTES_TOKENS * 4
"""Hard cap on a scratchpad, in characters (about four characters per token)."""
NOTES_SHARE = 0.75
"""The share of a seat's answer limit (`max_tokens`) its notes are asked to stay under, so
that notes written to the size asked for are not cut by the limit."""


def notes_tokens(max_tokens: int | None) -> int:
    """The size a seat's notes are asked to stay under: `NOTES_TOKENS`, or less when the
    seat's answers are limited to fewer tokens than that needs."""
    if max_tokens is None:
        return NOTES_TOKENS
    return max(1, min(NOTES_TOKENS, int(max_tokens * NOTES_SHARE)))


CHARACTERS: dict[str, str] = {
    "optimal": (
        "You are playing Cattle Trade and your goal is to win.\n"
        "Play optimally to maximize your expected score."
    ),
    "multiplier_hunter": (
        "You are playing Cattle Trade and your goal is to win.\n"
        "Your score multiplies with the number of complete sets, so go after as many sets as "
        "you can, cheap ones included: every extra set raises the value of all the others."
    ),
    "quartet_closer": (
        "You are playing Cattle Trade and your goal is to win.\n"
        "Concentrate on finishing the sets you have already started: pay well for their last "
        "cards and avoid spreading your money over new animal types."
    ),
    "bluffer": (
        "You are playing Cattle Trade and your goal is to win.\n"
        "Lean on deception: pad trade offers with 0-coin cards, challenge often, and make "
        "opponents pay as much as possible for what they want."
    ),
    "cautious": (
        "You are playing Cattle Trade and your goal is to win.\n"
        "Protect your money: bid only when a card clearly helps you, avoid overbidding, and "
        "keep enough cards to defend your animals in trade challenges."
    ),
}
"""Character prompts appended to the rules: `optimal` for evaluations, the others for ablations."""

_ORDINAL = ("1st", "2nd", "3rd", "4th", "5th", "6th")


def _coins(cards: Sequence[int]) -> str:
    return ", ".join(map(str, cards)) if cards else "none"


def _animals(counts: dict[str, int], config: GameConfig) -> str:
    held = [f"{counts[a]}x {a}" for a in config.animals if counts.get(a)]
    return ", ".join(held) if held else "none"


# ---------------------------------------------------------------------------- system prompt


def _auction_rules(config: GameConfig) -> str:
    if config.auction_mode == "fast":
        return (
            "    Bidding is one sealed round: every other player answers once, at the same\n"
            "    time, with a bid or a pass. Bids are multiples of 10. The highest bid wins\n"
            "    (equal bids: a priority order drawn when the auction opens decides). A bid\n"
            "    above your money is lowered to what you hold."
        )
    overbid = (
        "    OVERBID: you may bid more than you hold. If you win and cannot pay, all your\n"
        "    money cards are shown to everyone and the auction restarts from 0; in the\n"
        "    restarted auction you may bid at most what you hold, and failing to pay a\n"
        "    second time removes you from that auction."
    )
    if config.auction_mode == "legacy":
        return (
            "    Players bid one after another, starting left of the auctioneer: each raises\n"
            "    the standing bid by at least 10 (multiples of 10) or passes. The auction\n"
            "    ends when every other bidder has passed since the last raise.\n" + overbid
        )
    return (
        "    Bidding runs in call rounds. In each round every other player answers at the\n"
        "    same time with a bid or a pass. A bid must beat the standing bid by at least\n"
        "    10 and be a multiple of 10. The highest bid of the round becomes the standing\n"
        "    bid (equal bids: a priority order drawn when the auction opens decides). The\n"
        "    standing bidder may raise again in later rounds. The auction ends the first\n"
        "    time every bidder passes while a standing bid exists. If the first round has\n"
        "    no bid, one confirmation round follows; if it is empty too, the auctioneer\n"
        "    takes the card for free.\n" + overbid
    )


def rules_text(config: GameConfig) -> str:
    """The rules of Cattle Trade as the engine implements them, for this configuration."""
    k = config.set_size
    values = ", ".join(f"{a.capitalize()}={ANIMAL_VALUES[a]}" for a in config.animals)
    top = sorted(config.animals, key=ANIMAL_VALUES.__getitem__)
    hi, lo = top[-1], top[0]
    if len(top) >= 2:
        example = (
            f"Example: a {lo} set ({ANIMAL_VALUES[lo]}) and a {hi} set ({ANIMAL_VALUES[hi]})\n"
            f"         score ({ANIMAL_VALUES[lo]} + {ANIMAL_VALUES[hi]}) x 2 = "
            f"{(ANIMAL_VALUES[lo] + ANIMAL_VALUES[hi]) * 2} points.\n"
        )
    else:
        example = ""
    start = sorted(config.start_money, reverse=True)
    lines = [
        "CATTLE TRADE - RULES",
        "",
        f"PLAYERS: {config.players}, numbered Player 0 to Player {config.players - 1}.",
        "",
        f"GOAL: collect complete sets ({k} cards of the same animal).",
        "Score = (sum of the values of your complete sets) x (number of complete sets).",
        example + f"A {hi} set alone scores {ANIMAL_VALUES[hi]} x 1 = {ANIMAL_VALUES[hi]}. "
        "Incomplete sets score nothing.",
        "",
        "ANIMALS (value of a complete set):",
        values,
        f"The deck holds {k} cards of each type ({k * len(config.animals)} cards), shuffled.",
        "",
        "MONEY: cards worth 0, 10, 50, 100, 200 or 500 coins. Everyone starts with",
        f"{_coins(start)} ({sum(start)} coins in {len(start)} cards). The values of a player's",
        "cards are private; everyone sees how many money cards each player holds.",
    ]
    if "donkey" in config.animals:
        payouts = ", ".join(
            f"{_ORDINAL[i]}: {p}" for i, p in enumerate(config.payouts[:k]) if i < len(_ORDINAL)
        )
        lines += [
            "DONKEYS: whenever a donkey is drawn, every player first receives one money card",
            f"from the bank ({payouts}).",
        ]
    lines += [
        "",
        "ON YOUR TURN choose one:",
        "",
        "[A] AUCTION (while the deck has cards): draw the top card; the others bid for it.",
        _auction_rules(config),
        "    When bidding ends with a highest bid, you (the auctioneer) choose:",
        "    - SELL: the highest bidder pays you and takes the card;",
        "    - BUY-RIGHT: you pay the highest bid to that bidder and keep the card",
        "      (offered only when you can pay it).",
        "    Payments use the payer's cards with the smallest total that covers the amount;",
        "    no change is given and 0-coin cards are never used to pay.",
        "",
        "[B] KUHHANDEL (trade challenge): pick an opponent and an animal type you both hold",
        "    where neither of you has the complete set. Place a face-down offer: any of your",
        "    money cards (0-coin cards allowed, so you can bluff; an empty offer is worth 0).",
        "    Everyone sees who challenged whom, for which animal and how many cards.",
        "    The challenged player either",
        "    - ACCEPTS: takes your cards without seeing them and gives you the animal(s); or",
        "    - COUNTERS with a face-down offer of their own. Both offers are shown to the",
        "      two of you and swapped (each receives the other's cards); whoever offered",
        "      more wins the animal(s). Other players learn only who won.",
        "    Ties: both take their cards back and offer again; after the third tie in a row",
        "    the challenger wins and the third offers are swapped.",
        "    If both of you hold at least 2 of that animal, 2 cards change hands, else 1.",
        "",
        "With an empty deck you must trade if you can, otherwise your turn is skipped.",
        "The game ends when the deck is empty and nobody can trade any more",
        f"(or after {config.max_turns} turns).",
    ]
    return "\n".join(lines)


def system_prompt(config: GameConfig, character: str = "optimal") -> str:
    """The system prompt of every call: the rules, then the seat's character."""
    if character not in CHARACTERS:
        known = ", ".join(CHARACTERS)
        raise KeyError(f"unknown Cattle Trade character {character!r}; known: {known}")
    return rules_text(config) + "\n\n" + CHARACTERS[character]


# ---------------------------------------------------------------------------- observation


def recent_lines(view: SeatView, turns: int = RECENT_TURNS) -> list[str]:
    """The seat's last `turns` turns and the turn in progress, one line each."""
    return recent_turn_lines(view.history, view.seat, turns)


def event_lines(events: Sequence[Any], seat: int) -> list[str]:
    """A run of events the seat saw (a scratchpad update's), one line per turn."""
    return turn_lines(events, seat)


def observation_text(view: SeatView, memory: str = "full") -> str:
    """The seat's state of the game: hand, opponents, targets, and memory if enabled."""
    config = view.config
    assert config is not None
    seat = view.seat
    lines = [
        f"=== GAME STATE (you are Player {seat}) ===",
        f"Turn: {view.turn}",
        f"Cards left in the deck: {view.deck_left}",
        "",
        "YOUR HAND:",
        f"  Money: {view.wealth} coins in {len(view.money)} cards",
        f"  Money cards: {_coins(view.money)}",
        f"  Animals: {_animals(view.animals[seat], config)}",
        f"  Complete sets: {', '.join(view.sets[seat]) or 'none'}",
        "",
        "OTHER PLAYERS:",
    ]
    for p in range(view.players):
        if p == seat:
            continue
        line = (
            f"  Player {p}: {_animals(view.animals[p], config)} | {view.money_cards[p]} money cards"
        )
        if view.sets[p]:
            line += f" | complete sets: {', '.join(view.sets[p])}"
        revealed = view.revealed[p]
        if revealed is not None:
            line += (
                f" | money shown after an overbid on turn {revealed[1]}: [{_coins(revealed[0])}]"
            )
        lines.append(line)
    targets = view.targets()
    lines += ["", "VALID KUHHANDEL TARGETS:"]
    if targets:
        lines += [
            f"  Player {t}: {a} (you have {view.count(seat, a)}, they have {view.count(t, a)})"
            for t, a in targets
        ]
    else:
        lines.append("  none")
    if memory in ("recent", "full"):
        lines += ["", "RECENT TURNS (as you saw them):"]
        lines += [f"  {line}" for line in recent_lines(view)] or ["  none yet"]
    if memory == "full":
        lines += ["", "YOUR NOTES:"]
        lines += [f"  {line}" for line in view.notes.splitlines()] or ["  (none yet)"]
    return "\n".join(lines)


# ---------------------------------------------------------------------------- decisions

TEMPLATES: dict[str, str] = {
    "turn": '{"reasoning": "...", "action": "auction" or "kuhhandel"}',
    "bid": '{"reasoning": "...", "action": "bid" or "pass", "amount": <multiple of 10>}',
    "sale": '{"reasoning": "...", "decision": "sell" or "buy_right"}',
    "initiate_trade": (
        '{"reasoning": "...", "target_player": <player number>, "animal": "<animal>", '
        '"offer_cards": [10, 10, 0]}'
    ),
    "respond_trade": '{"reasoning": "...", "action": "accept" or "counter", "counter_cards": [50, 10]}',
    "tie_offer": '{"reasoning": "...", "offer_cards": [50, 10, 0]}',
}
"""The JSON answer each decision asks for."""


def _object(**fields: dict[str, Any]) -> dict[str, Any]:
    # Strict structured outputs want every field required and no other field allowed.
    props = {"reasoning": {"type": "string"}, **fields}
    return {
        "type": "object",
        "properties": props,
        "required": list(props),
        "additionalProperties": False,
    }


def _card_list(view: SeatView) -> dict[str, Any]:
    held = sorted(set(view.money), reverse=True)
    items: dict[str, Any] = {"type": "integer"}
    if held:
        items["enum"] = held
    return {"type": "array", "items": items}


def answer_schema(view: SeatView, decision: dec.AnyDecision) -> dict[str, Any]:
    """The JSON schema of the answer to `decision` (structured output): the keys of its
    template, the choices as enums and the card lists drawn from the seat's hand."""
    match decision:
        case dec.TurnDecision():
            return _object(action={"type": "string", "enum": ["auction", "kuhhandel"]})
        case dec.BidDecision():
            # The amount's bounds are the rules': a multiple of the bid step, at least the
            # minimum bid, and at most the seat's cap once its money was revealed.
            amount: dict[str, Any] = {
                "type": "integer",
                "minimum": decision.min_bid,
                "multipleOf": BID_STEP,
            }
            cap = decision.cap(view.seat)
            if cap is not None and cap >= decision.min_bid:
                amount["maximum"] = cap
            return _object(action={"type": "string", "enum": ["bid", "pass"]}, amount=amount)
        case dec.SaleDecision():
            return _object(decision={"type": "string", "enum": ["sell", "buy_right"]})
        case dec.TradeDecision():
            seats = sorted({t for t, _ in decision.targets})
            animals = [a for a in ANIMAL_VALUES if any(a == b for _, b in decision.targets)]
            return _object(
                target_player={"type": "integer", "enum": seats},
                animal={"type": "string", "enum": animals},
                offer_cards=_card_list(view),
            )
        case dec.ResponseDecision():
            return _object(
                action={"type": "string", "enum": ["accept", "counter"]},
                counter_cards=_card_list(view),
            )
        case dec.TieDecision():
            return _object(offer_cards=_card_list(view))


def short_template(kind: str) -> str:
    """The answer template without the reasoning field (retries ask for the bare JSON)."""
    return TEMPLATES[kind].replace('"reasoning": "...", ', "")


def _respond(kind: str) -> list[str]:
    return ["", "Respond with JSON:", TEMPLATES[kind]]


def _holding(view: SeatView, animal: str) -> str:
    return f"- You have: {view.count(view.seat, animal)} of this animal"


def _money_line(view: SeatView) -> str:
    return f"- Your money: {view.wealth} coins ({_coins(view.money)})"


def _turn(view: SeatView, d: dec.TurnDecision) -> list[str]:
    return [
        "It's your turn. Choose ONE action:",
        "1. AUCTION - draw the top card of the deck and auction it",
        "2. KUHHANDEL - challenge another player for an animal type you both hold",
        *_respond("turn"),
    ]


def _round_line(d: dec.BidDecision, edition: int) -> str:
    """Which bid round this is: counted from 1 (from 0 in edition 1)."""
    first = 0 if edition < 2 else 1
    if d.confirmation:
        return f"Confirmation round (nobody bid in round {first})"
    return f"Round {d.round + first}"


def _bid(view: SeatView, d: dec.BidDecision, edition: int = editions.CURRENT) -> list[str]:
    value = ANIMAL_VALUES[d.animal]
    if d.mode == "fast":
        head = ["FAST AUCTION - one sealed bid"]
    elif d.mode == "legacy":
        head = ["AUCTION - your turn to raise or pass"]
    else:
        head = [
            "CANONICAL AUCTION - simultaneous bidding round",
            _round_line(d, edition),
        ]
    lines = [
        *head,
        f"- Card: {d.animal} (set value: {value}), auctioneer: Player {d.auctioneer}",
        f"- Current price: {d.price}",
        f"- Current winner: {'none' if d.leader is None else f'Player {d.leader}'}"
        + (" (you)" if d.leader == view.seat else ""),
        f"- Minimum bid: {d.min_bid}",
        _holding(view, d.animal),
        _money_line(view),
    ]
    cap = d.cap(view.seat)
    if cap is not None:
        lines.append(
            f"- Your money was revealed after an overbid: you may bid at most {cap}; "
            "a higher bid removes you from this auction"
        )
    lines.append("")
    if d.mode == "fast":
        lines.append(
            "Every bidder answers once, at the same time; the highest bid wins. "
            "A bid above your money is lowered to what you hold."
        )
    else:
        if d.mode == "legacy":
            lines.append("Raise above the current price to lead, or pass.")
        else:
            lines.append(
                "All bidders answer at the same time. To lead, bid MORE than the current price."
            )
        lines.append(
            "You may bid more than you can pay. If you win and cannot pay, all your money "
            "cards are shown to everyone and the auction restarts from 0; if paying fails a "
            "second time, you are out of this auction."
        )
    lines += ["", "IMPORTANT: bids must be multiples of 10 coins.", *_respond("bid")]
    return lines


def _sale(view: SeatView, d: dec.SaleDecision) -> list[str]:
    return [
        "BUY-RIGHT DECISION (you are the auctioneer)",
        f"- Card: {d.animal} (set value: {ANIMAL_VALUES[d.animal]})",
        f"- Highest bid: {d.price} by Player {d.winner}",
        _holding(view, d.animal),
        _money_line(view),
        "",
        "Options:",
        f"- SELL: receive {d.price} coins (no change is given), Player {d.winner} gets the card",
        f"- BUY_RIGHT: pay {d.price} coins to Player {d.winner} and keep the card",
        *_respond("sale"),
    ]


def _cards_line(view: SeatView) -> str:
    return f"Your available card values: [{', '.join(map(str, view.money))}]"


def _initiate(view: SeatView, d: dec.TradeDecision) -> list[str]:
    seat = view.seat
    return [
        "KUHHANDEL - choose a target and make your offer",
        "Valid targets:",
        *(
            f"- Player {t}: {a} (you have {view.count(seat, a)}, they have {view.count(t, a)})"
            for t, a in d.targets
        ),
        "",
        "Keep in mind:",
        "- you can only trade an animal type you BOTH hold",
        "- your offer is a face-down set of money cards from your hand",
        "- the target sees how many cards you offer, not their values",
        "- 0-coin cards make an offer look bigger (a bluff)",
        "- the target either ACCEPTS (takes your cards, gives you the animal) or COUNTERS",
        "",
        _cards_line(view),
        "Name exactly the cards to include in your offer.",
        *_respond("initiate_trade"),
    ]


def _response(view: SeatView, d: dec.ResponseDecision) -> list[str]:
    return [
        "KUHHANDEL - you are being challenged!",
        f"- Player {d.initiator} wants your {d.animal}",
        f"- You have {view.count(view.seat, d.animal)} of this animal "
        f"(set value: {ANIMAL_VALUES[d.animal]})",
        f"- Trade size: {d.count} card(s)",
        f"- Their offer is face-down ({d.n_cards} card(s), value unknown)",
        "",
        "Options:",
        "1. ACCEPT - take their face-down cards and give them your animal(s)",
        "2. COUNTER - offer cards from your hand. Both offers are revealed to the two of you "
        "and swapped; whoever OFFERED more wins the animal(s). On a tie you both offer "
        "again; after the third tie the challenger wins.",
        "",
        _cards_line(view),
        "If you counter, name exactly the cards to include.",
        *_respond("respond_trade"),
    ]


def _tie(view: SeatView, d: dec.TieDecision) -> list[str]:
    other = d.target if view.seat == d.initiator else d.initiator
    role = "challenger" if d.role == "initiator" else "challenged player"
    return [
        "KUHHANDEL TIE - make a new offer!",
        f"- Trading: {d.animal} with Player {other} (you are the {role})",
        f"- The previous offers tied (both were worth {d.previous})",
        f"- Tie count: {d.ties} (after 3 ties the challenger wins automatically)",
        "",
        _cards_line(view),
        "Name exactly the cards to include in your new offer.",
        *_respond("tie_offer"),
    ]


def decision_text(
    view: SeatView, decision: dec.AnyDecision, edition: int = editions.CURRENT
) -> str:
    """The decision part of a prompt: its context, options and the JSON to answer with."""
    match decision:
        case dec.TurnDecision():
            lines = _turn(view, decision)
        case dec.BidDecision():
            lines = _bid(view, decision, edition)
        case dec.SaleDecision():
            lines = _sale(view, decision)
        case dec.TradeDecision():
            lines = _initiate(view, decision)
        case dec.ResponseDecision():
            lines = _response(view, decision)
        case dec.TieDecision():
            lines = _tie(view, decision)
    return "\n".join(lines)


def rejection_text(rejection: ev.ActionRejected, view: SeatView) -> str:
    """The error shown when the engine asks again after rejecting an answer."""
    return (
        f"YOUR PREVIOUS ANSWER WAS REJECTED: {rejection.reason}.\n"
        f"You can only use cards you hold: [{', '.join(map(str, view.money))}]. "
        "Answer again."
    )


def decision_prompt(
    view: SeatView,
    decision: dec.AnyDecision,
    memory: str = "full",
    rejection: ev.ActionRejected | None = None,
    edition: int = editions.CURRENT,
) -> str:
    """The whole user prompt for one decision: observation, then the decision."""
    parts = [observation_text(view, memory), "", decision_text(view, decision, edition)]
    if rejection is not None:
        parts[1:1] = ["", rejection_text(rejection, view)]
    return "\n".join(parts)


def format_retry_prompt(kind: str, error: str) -> str:
    """Asks again after an answer that could not be read."""
    return (
        f"Your answer could not be used: {error}.\n"
        "Reply with ONLY the JSON object, nothing else:\n" + short_template(kind)
    )


def truncation_retry_prompt(kind: str) -> str:
    """Appended to the prompt when the answer was cut off by the token limit."""
    return (
        "Your previous answer was cut off by the length limit. Do not explain your "
        "reasoning this time: reply with ONLY the JSON object:\n" + short_template(kind)
    )


def scratchpad_prompt(notes: str, lines: Sequence[str], limit: int = NOTES_TOKENS) -> str:
    """Asks for rewritten notes after the seat's own turn, showing every turn since the last;
    `limit` is the size in tokens they are asked to stay under."""
    return "\n".join(
        [
            "Update your private game notes with the new events below.",
            f"Keep them under {limit} tokens.",
            "Useful things to track: signs of each opponent's wealth, how opponents behave,",
            "progress toward complete sets, and how trades turned out.",
            "",
            "Current notes:",
            notes or "(none yet)",
            "",
            "New events, turn by turn:",
            *lines,
            "",
            "Respond with ONLY the updated notes, nothing else.",
        ]
    )


def cap_notes(text: str, limit: int = NOTES_CHARS) -> str:
    """Notes cut to the size cap, at a word boundary."""
    text = text.strip()
    if len(text) <= limit:
        return text
    cut = text[:limit]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut).rstrip()
