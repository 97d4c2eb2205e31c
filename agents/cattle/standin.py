"""The loopback stand-in model's answers to Cattle Trade prompts: auction or trade on a turn,
cheap bids, the auctioneer's sale, trade targets and offers from the money cards the prompt
shows (the fields of each decision's JSON answer)."""

from __future__ import annotations

import random
import re
from typing import Any

from agents.llm.loopback import Incoming, LegalPolicy, prompt_number


def prompt_cards(prompt: str) -> list[int]:
    """The seat's money cards, read from the prompt."""
    m = re.search(r"Your available card values: \[([^\]]*)\]", prompt)
    if not m:
        m = re.search(r"Money cards: ([^\n]*)", prompt)
    if not m:
        return []
    return [int(x) for x in re.findall(r"\d+", m.group(1))]


def prompt_targets(prompt: str) -> list[tuple[int, str]]:
    """Valid trade targets listed in the prompt."""
    return [(int(p), a) for p, a in re.findall(r"Player (\d+): (\w+) \(you have", prompt)]


def answer(req: Incoming, rng: random.Random, policy: LegalPolicy) -> dict[str, Any]:
    """The answer's fields for a Cattle Trade decision (`policy.trade_bias` is the chance of
    a trade challenge on a turn when one is possible)."""
    p = req.prompt
    kind = req.kind
    cards = prompt_cards(p)

    def subset() -> list[int]:
        return [c for c in cards if rng.random() < 0.5]

    if kind == "turn":
        trade = prompt_targets(p) and rng.random() < policy.trade_bias
        return {"reasoning": "ok", "action": "kuhhandel" if trade else "auction"}
    if kind == "bid":
        low = prompt_number(r"Minimum bid: (\d+)", p)
        money = prompt_number(r"Your money: (\d+)", p)
        cap = prompt_number(r"you may bid at most (\d+)", p, money)
        if low <= min(cap, money * 0.6) and rng.random() < 0.5:
            return {"reasoning": "cheap", "action": "bid", "amount": low}
        return {"reasoning": "no", "action": "pass"}
    if kind == "sale":
        return {"reasoning": "ok", "decision": "buy_right" if rng.random() < 0.3 else "sell"}
    if kind == "initiate_trade":
        head = p.split("KUHHANDEL - choose a target", 1)[1]
        targets = prompt_targets(head)
        t, a = rng.choice(targets) if targets else (0, "cow")
        return {"reasoning": "try", "target_player": t, "animal": a, "offer_cards": subset()}
    if kind == "respond_trade":
        if rng.random() < 0.4:
            return {"reasoning": "fine", "action": "accept"}
        return {"reasoning": "fight", "action": "counter", "counter_cards": subset()}
    assert kind == "tie_offer", kind
    return {"reasoning": "again", "offer_cards": subset()}
