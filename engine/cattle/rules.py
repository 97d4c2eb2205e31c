"""The rules as a decider: `decide(state, command) -> events` and `pending(state)`.

`step` validates a command, emits its events, then runs every automatic consequence (draws,
payouts, settlements, the next turn) until an agent must decide again or the game ends. Bad
agent input never raises: it becomes an `ActionRejected` event followed by the documented
fallback. Only a command that does not answer the pending decision at all (wrong seat, wrong
kind) raises `IllegalAction`, since that is a bug in the caller, not a move.
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from engine.cattle import actions as act
from engine.cattle import decisions as dec
from engine.cattle.money import Cards, holds, intersect, normalize, payment
from engine.cattle.state import GAME_STEPS, VERSIONS, GameState
from engine.chance import chance
from events.cattle import game as ev
from events.cattle.domain import ANIMALS, BID_STEP, DENOMINATIONS, GameConfig

ENGINE_VERSION = VERSIONS[-1]
"""The rules version new games are played by; older logs replay by the one they name."""

DECISIONS_PER_TURN = 50
"""Rules 1.1.0 on: a game may open at most `max_turns` x this many decision points; the game
ends at the first decision past that allowance (docs/bounds.md says why 50)."""

_REJECTED = ev.ActionRejected

_DECISION_PHASES = frozenset({"bidding", "choose", "sale", "initiate", "respond", "tie"})


def max_decisions(config: GameConfig) -> int:
    """The hard bound on decision points in one game of this configuration (rules 1.1.0)."""
    return config.max_turns * DECISIONS_PER_TURN


def money_in_play(state: GameState) -> int:
    """The value of every money card the seats hold together."""
    return sum(map(sum, state.money))


def bid_round_cap(state: GameState) -> int:
    """Most bid rounds an auction may run while bids keep coming (rules 1.1.0 on).

    Each round with a bid raises the price by at least one bid step, so after this many
    rounds the price of an attempt exceeds all the money the seats hold and nobody could pay
    it. Legacy mode asks one bidder per round, so its cap is that times the bidders.
    """
    rounds = money_in_play(state) // BID_STEP + 2
    a = state.auction
    if state.config.auction_mode == "legacy" and a is not None:
        rounds *= max(1, len(a.order))
    return rounds


def least_round_cap(config: GameConfig) -> int:
    """A lower bound of `bid_round_cap` over a whole game of this configuration.

    Money only moves between seats or comes in with donkey payouts, so the seats always
    hold at least what they were dealt together, and the cap is at least what that money
    gives (a test checks the bound on random games of every preset and mode).
    """
    return config.players * sum(config.start_money) // BID_STEP + 2


class IllegalAction(ValueError):
    """A command that does not answer the pending decision (wrong seat, kind or timing)."""


def pending(state: GameState) -> dec.AnyDecision | None:
    """The decision the game waits for, or None when it is over (or not started)."""
    phase = state.phase
    if phase == "bidding":
        a = state.auction
        assert a is not None
        return dec.BidDecision(
            seats=a.asking,
            auction=a.number,
            animal=a.animal,
            auctioneer=a.auctioneer,
            mode=state.config.auction_mode,
            round=a.round,
            price=a.price,
            leader=a.leader,
            caps=a.caps,
            confirmation=a.confirmation,
        )
    if phase == "choose":
        return dec.TurnDecision(seats=(state.active,), targets=state.targets(state.active))
    if phase == "sale":
        a = state.auction
        assert a is not None and a.leader is not None
        return dec.SaleDecision(
            seats=(a.auctioneer,), auction=a.number, animal=a.animal, winner=a.leader, price=a.price
        )
    if phase == "initiate":
        return dec.TradeDecision(seats=(state.active,), targets=state.targets(state.active))
    if phase == "respond":
        t = state.trade
        assert t is not None
        return dec.ResponseDecision(
            seats=(t.target,),
            trade=t.number,
            initiator=t.initiator,
            animal=t.animal,
            n_cards=len(t.offer),
            count=_trade_count(state, t.initiator, t.target, t.animal),
        )
    if phase == "tie":
        t = state.trade
        assert t is not None
        seat = t.initiator if t.tie_role == "initiator" else t.target
        return dec.TieDecision(
            seats=(seat,),
            trade=t.number,
            initiator=t.initiator,
            target=t.target,
            animal=t.animal,
            ties=t.ties,
            role=t.tie_role,
            previous=t.tied_value,
        )
    return None


def _trade_count(state: GameState, a: int, b: int, animal: str) -> int:
    i = state.index(animal)
    return 2 if state.animals[a][i] >= 2 and state.animals[b][i] >= 2 else 1


def decide(state: GameState, command: act.Command) -> tuple[Any, ...]:
    """The events that `command` causes in `state` (including every automatic consequence)."""
    return tuple(step(state, command)[1])


def step(
    state: GameState, command: act.Command, decision: dec.AnyDecision | None = None
) -> tuple[GameState, list[Any]]:
    """Apply a command: its events and the state after them.

    `decision` may pass `pending(state)` when the caller already has it.
    """
    run = _Run(state)
    run.command(command, decision)
    run.advance()
    return run.state, run.events


def step_bids(
    state: GameState, decision: dec.BidDecision, actions: tuple[act.PlaceBid | act.Pass, ...]
) -> tuple[GameState, list[Any]]:
    """`step` for the sealed bids of a simultaneous round answering `decision`, which must
    be `pending(state)` (what the driver does for every bid round)."""
    run = _Run(state)
    run._bids(decision, actions)
    run.advance()
    return run.state, run.events


class _Run:
    """Accumulates events, folding each into the state as it is emitted."""

    __slots__ = ("events", "state")

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.events: list[Any] = []

    def emit(self, event: Any) -> None:
        # `evolve` for a game event (the rules emit no other kind), without the call: a game
        # event other than a rejection ends a retried attempt, then its type's step applies.
        self.events.append(event)
        s = self.state
        cls = event.__class__
        if s.attempts and cls is not _REJECTED:
            s = replace(s, attempts=0)
        self.state = GAME_STEPS[cls](s, event)

    # ---- commands --------------------------------------------------------------------------

    def command(self, command: act.Command, decision: dec.AnyDecision | None = None) -> None:
        s = self.state
        if isinstance(command, act.StartGame):
            if s.phase != "new":
                raise IllegalAction("the game has already started")
            self._start(command)
            return
        if decision is None:
            decision = pending(s)
        if decision is None:
            raise IllegalAction("the game is not waiting for a decision")
        if isinstance(command, act.Simultaneous):
            if not isinstance(decision, dec.BidDecision):
                raise IllegalAction(f"a simultaneous round answers bids, not {decision.kind}")
            self._bids(decision, command.actions)
            return
        if command.seat not in decision.seats:
            raise IllegalAction(f"seat {command.seat} is not asked (asked: {decision.seats})")
        match decision:
            case dec.TurnDecision():
                if not isinstance(command, act.ChooseTurn):
                    raise IllegalAction(f"expected choose_turn, got {command.kind}")
                self._choose(decision, command)
            case dec.BidDecision():
                if not isinstance(command, act.PlaceBid | act.Pass):
                    raise IllegalAction(f"expected bid or pass, got {command.kind}")
                self._bids(decision, (command,))
            case dec.SaleDecision():
                if not isinstance(command, act.ChooseSale):
                    raise IllegalAction(f"expected sale, got {command.kind}")
                self.emit(
                    ev.AuctioneerDecided(
                        auction=decision.auction, seat=command.seat, decision=command.decision
                    )
                )
            case dec.TradeDecision():
                if not isinstance(command, act.InitiateTrade):
                    raise IllegalAction(f"expected initiate_trade, got {command.kind}")
                self._initiate(decision, command)
            case dec.ResponseDecision():
                if not isinstance(command, act.AcceptTrade | act.CounterTrade):
                    raise IllegalAction(f"expected accept or counter, got {command.kind}")
                self._respond(decision, command)
            case dec.TieDecision():
                if not isinstance(command, act.OfferAgain):
                    raise IllegalAction(f"expected tie_offer, got {command.kind}")
                self._tie_offer(decision, command)

    def _start(self, c: act.StartGame) -> None:
        config = c.config.validate()
        if c.version is not None and c.version not in VERSIONS:
            raise IllegalAction(f"this engine does not play rules version {c.version!r}")
        if len(c.seats) != config.players:
            raise IllegalAction(f"{config.players} seats expected, got {len(c.seats)}")
        self.emit(
            ev.GameStarted(
                seed=c.seed,
                config=config,
                seats=c.seats,
                engine_version=c.version if c.version is not None else ENGINE_VERSION,
            )
        )
        deck = [a for a in config.animals for _ in range(config.set_size)]
        chance(c.seed, "deck").shuffle(deck)
        self.emit(ev.DeckShuffled(order=tuple(deck)))
        hands: list[list[str]] = [[] for _ in range(config.players)]
        pos = 0
        for _ in range(config.starting_animals):
            for seat in range(config.players):
                hands[seat].append(deck[pos])
                pos += 1
        self.emit(
            ev.HandsDealt(
                money=normalize(config.start_money),
                animals=tuple(tuple(h) for h in hands),
                deck_left=len(deck) - pos,
            )
        )

    def _reject(self, seat: int, decision: str, reason: str, raw: Any, *, retry: bool) -> None:
        text = raw if isinstance(raw, str) else act.action_json(raw)
        self.emit(
            ev.ActionRejected(seat=seat, decision=decision, reason=reason, raw=text, retry=retry)
        )

    def _fallback(self, seat: int, decision: str, action: Any, reason: str) -> None:
        self.emit(
            ev.FallbackApplied(
                seat=seat, decision=decision, action=act.action_json(action), reason=reason
            )
        )

    def _choose(self, d: dec.TurnDecision, c: act.ChooseTurn) -> None:
        self.emit(ev.TurnChosen(seat=c.seat, choice=c.choice))

    # ---- bidding ---------------------------------------------------------------------------

    def _bids(self, d: dec.BidDecision, actions: tuple[act.PlaceBid | act.Pass, ...]) -> None:
        seats = tuple([a.seat for a in actions])
        if seats != d.seats:
            if sorted(seats) != sorted(d.seats):
                raise IllegalAction(
                    f"a bid round needs one action from each of {d.seats}, got {seats}"
                )
            actions = tuple(sorted(actions, key=lambda x: x.seat))
        s = self.state
        a = s.auction
        assert a is not None
        fast = d.mode == "fast"
        best: tuple[int, int, int] | None = None  # (amount, -priority rank, seat)
        for action in actions:
            seat = action.seat
            if isinstance(action, act.Pass):
                self.emit(ev.BidPassed(auction=d.auction, round=d.round, seat=seat))
                continue
            amount = self._valid_bid(d, action, fast)
            if amount is None:
                continue
            self.emit(ev.BidPlaced(auction=d.auction, round=d.round, seat=seat, amount=amount))
            key = (amount, -a.priority.index(seat), seat)
            if best is None or key > best:
                best = key
        if best is None:
            self.emit(
                ev.BidRoundClosed(auction=d.auction, round=d.round, leader=d.leader, price=d.price)
            )
        else:
            self.emit(
                ev.BidRoundClosed(auction=d.auction, round=d.round, leader=best[2], price=best[0])
            )

    def _valid_bid(self, d: dec.BidDecision, c: act.PlaceBid, fast: bool) -> int | None:
        """The bid amount after the documented corrections, or None when it became a pass."""
        seat, amount = c.seat, c.amount
        reasons: list[str] = []
        if amount <= 0:
            self._reject(seat, "bid", f"bid must be positive, got {amount}", c, retry=False)
            self._fallback(seat, "bid", act.Pass(seat=seat), "non-positive bid treated as a pass")
            self.emit(ev.BidPassed(auction=d.auction, round=d.round, seat=seat))
            return None
        if amount % BID_STEP:
            amount -= amount % BID_STEP
            reasons.append(f"not a multiple of {BID_STEP}: rounded down to {amount}")
        if seat == d.leader and amount < d.min_bid and self.state.rules >= 1:
            # The standing bidder cannot outbid itself by a bid that is no raise: its standing
            # bid stands, as if it had passed (rules 1.1.0).
            reasons.append(f"{amount} does not raise the standing bid {d.price}: it stands")
            self._reject(seat, "bid", "; ".join(reasons), c, retry=False)
            self._fallback(seat, "bid", act.Pass(seat=seat), "standing bid kept")
            self.emit(ev.BidPassed(auction=d.auction, round=d.round, seat=seat))
            return None
        if amount < d.min_bid:
            amount = d.min_bid
            reasons.append(f"below the minimum bid: raised to {amount}")
        if fast:
            money = self.state.wealth(seat)
            top = money - money % BID_STEP
            if amount > top:
                amount = top
                reasons.append(f"above the bidder's money: lowered to {amount}")
            if amount < d.min_bid:
                self._reject(
                    seat,
                    "bid",
                    "; ".join([*reasons, "cannot reach the minimum bid"]),
                    c,
                    retry=False,
                )
                self._fallback(seat, "bid", act.Pass(seat=seat), "bid cannot be paid: pass")
                self.emit(ev.BidPassed(auction=d.auction, round=d.round, seat=seat))
                return None
        else:
            cap = d.cap(seat)
            if cap is not None and amount > cap:
                self._reject(
                    seat,
                    "bid",
                    f"bid {amount} exceeds the revealed money {cap}: second failure to pay",
                    c,
                    retry=False,
                )
                self.emit(ev.BidderRemoved(auction=d.auction, seat=seat, reason="second overbid"))
                return None
        if reasons:
            fixed = act.PlaceBid(seat=seat, amount=amount)
            self._reject(seat, "bid", "; ".join(reasons), c, retry=False)
            self._fallback(seat, "bid", fixed, "bid corrected")
        return amount

    # ---- trades ----------------------------------------------------------------------------

    def _offer_cards(
        self, seat: int, decision: str, c: Any, cards: Cards, problems: list[str]
    ) -> Cards | None:
        """Validate offer cards; record one rejection for every problem found.

        Cards not in hand get one retry (None is returned: the seat is asked again); after
        that, and for any other problem, the documented fallback is recorded and the cards
        the hand does hold are used.
        """
        hand = self.state.money[seat]
        if not (all(v in DENOMINATIONS for v in cards) and holds(hand, cards)):
            problems = [f"cards {list(cards)} are not all in hand {list(hand)}", *problems]
            if self.state.attempts == 0:
                self._reject(seat, decision, "; ".join(problems), c, retry=True)
                return None
            cards = intersect(hand, cards)
        if problems:
            self._reject(seat, decision, "; ".join(problems), c, retry=False)
        return normalize(cards)

    def _initiate(self, d: dec.TradeDecision, c: act.InitiateTrade) -> None:
        problems = []
        target, animal = c.target, c.animal
        fixes = []
        if (target, animal) not in d.targets:
            problems.append(f"player {target} is not a valid target for {animal}")
            target, animal = d.targets[0]
            fixes.append("first valid target")
        cards = self._offer_cards(c.seat, "initiate_trade", c, c.cards, problems)
        if cards is None:
            return
        if self.events and isinstance(self.events[-1], ev.ActionRejected):
            fixed = act.InitiateTrade(seat=c.seat, target=target, animal=animal, cards=cards)
            if cards != normalize(c.cards):
                fixes.append("cards held")
            self._fallback(c.seat, "initiate_trade", fixed, "; ".join(fixes))
        self.emit(
            ev.TradeInitiated(
                trade=self.state.trades + 1,
                initiator=c.seat,
                target=target,
                animal=animal,
                n_cards=len(cards),
            )
        )
        self.emit(ev.OfferCards(trade=self.state.trades, seat=c.seat, cards=cards, role="offer"))

    def _respond(self, d: dec.ResponseDecision, c: act.AcceptTrade | act.CounterTrade) -> None:
        t = self.state.trade
        assert t is not None
        if isinstance(c, act.AcceptTrade):
            self.emit(ev.TradeAccepted(trade=t.number, target=c.seat))
            self.emit(
                ev.OffersRevealed(
                    trade=t.number,
                    initiator=t.initiator,
                    target=t.target,
                    initiator_cards=t.offer,
                    target_cards=(),
                )
            )
            self._finish_trade(t.initiator, "accepted")
            return
        cards = self._offer_cards(c.seat, "respond_trade", c, c.cards, [])
        if cards is None:
            return
        if self.events and isinstance(self.events[-1], ev.ActionRejected):
            fixed = act.CounterTrade(seat=c.seat, cards=cards)
            self._fallback(c.seat, "respond_trade", fixed, "cards held")
        self.emit(ev.TradeCountered(trade=t.number, target=c.seat, n_cards=len(cards)))
        self.emit(ev.OfferCards(trade=t.number, seat=c.seat, cards=cards, role="counter"))
        self._reveal()

    def _tie_offer(self, d: dec.TieDecision, c: act.OfferAgain) -> None:
        cards = self._offer_cards(c.seat, "tie_offer", c, c.cards, [])
        if cards is None:
            return
        if self.events and isinstance(self.events[-1], ev.ActionRejected):
            self._fallback(
                c.seat, "tie_offer", act.OfferAgain(seat=c.seat, cards=cards), "cards held"
            )
        self.emit(ev.OfferCards(trade=d.trade, seat=c.seat, cards=cards, role="tie"))
        self.emit(ev.TieOfferMade(trade=d.trade, seat=c.seat, n_cards=len(cards)))
        if d.role == "target":
            self._reveal()

    def _reveal(self) -> None:
        t = self.state.trade
        assert t is not None
        self.emit(
            ev.OffersRevealed(
                trade=t.number,
                initiator=t.initiator,
                target=t.target,
                initiator_cards=t.offer,
                target_cards=t.counter,
            )
        )
        mine, theirs = sum(t.offer), sum(t.counter)
        if mine != theirs:
            self._finish_trade(t.initiator if mine > theirs else t.target, "higher_offer")
            return
        ties = t.ties + 1
        if ties >= 3:
            self._finish_trade(t.initiator, "third_tie")
            return
        self.emit(ev.TradeTied(trade=t.number, ties=ties))

    def _finish_trade(self, winner: int, reason: Any) -> None:
        s = self.state
        t = s.trade
        assert t is not None
        loser = t.target if winner == t.initiator else t.initiator
        count = _trade_count(s, t.initiator, t.target, t.animal)
        self.emit(
            ev.OffersExchanged(
                trade=t.number,
                initiator=t.initiator,
                target=t.target,
                initiator_n=len(t.offer),
                target_n=len(t.counter),
            )
        )
        self.emit(
            ev.TradeWon(
                trade=t.number,
                winner=winner,
                loser=loser,
                animal=t.animal,
                count=count,
                reason=reason,
            )
        )
        self._give(t.animal, count, loser, winner)

    def _give(self, animal: str, count: int, giver: int | None, receiver: int) -> None:
        self.emit(ev.AnimalMoved(animal=animal, count=count, giver=giver, receiver=receiver))
        if self.state.count(receiver, animal) == self.state.config.set_size:
            self.emit(ev.SetCompleted(seat=receiver, animal=animal))

    # ---- automatic steps ---------------------------------------------------------------------

    def advance(self) -> None:
        """Emit every consequence that needs no agent, until a decision is pending or the end."""
        while True:
            s = self.state
            phase = s.phase
            if s.rules >= 1 and phase in _DECISION_PHASES and s.decisions > max_decisions(s.config):
                self._end("max_decisions")
                return
            # Bid rounds are most of a game: their phases are looked at first.
            if phase == "bidding":
                return
            if phase == "round_closed":
                self._after_round()
            elif phase == "open_round":
                self._open_round()
            elif phase == "turn_start":
                self._next_turn()
            elif phase == "choose":
                can_auction = s.deck_left > 0
                has_targets = s.has_target(s.active)
                if can_auction and has_targets:
                    return
                if can_auction:
                    self.emit(ev.TurnChosen(seat=s.active, choice="auction", forced=True))
                elif has_targets:
                    self.emit(ev.TurnChosen(seat=s.active, choice="trade", forced=True))
                else:
                    self.emit(ev.TurnSkipped(seat=s.active))
            elif phase == "draw":
                animal = s.deck[s.deck_pos]
                self.emit(ev.CardDrawn(seat=s.active, animal=animal, deck_left=s.deck_left - 1))
            elif phase == "payout":
                n = s.donkeys + 1
                payouts = s.config.payouts
                self.emit(ev.DonkeyPayout(donkey=n, amount=payouts[min(n, len(payouts)) - 1]))
            elif phase == "open_auction":
                number = s.auctions + 1
                bidders = [p for p in range(s.players) if p != s.active]
                chance(s.seed, "auction", number).shuffle(bidders)
                assert s.drawn is not None
                self.emit(
                    ev.AuctionOpened(
                        auction=number, auctioneer=s.active, animal=s.drawn, priority=tuple(bidders)
                    )
                )
            elif phase == "sale":
                a = s.auction
                assert a is not None
                if s.wealth(a.auctioneer) >= a.price:
                    return
                self.emit(
                    ev.AuctioneerDecided(
                        auction=a.number, seat=a.auctioneer, decision="sell", offered=False
                    )
                )
            elif phase == "settle":
                self._settle()
            elif phase in ("initiate", "respond", "tie", "ended", "new"):
                return
            else:  # pragma: no cover - every phase is handled above
                raise AssertionError(f"unhandled phase {phase}")

    def _next_turn(self) -> None:
        s = self.state
        if s.turn >= s.config.max_turns:
            self._end("max_turns")
            return
        if s.deck_left == 0 and not s.anyone_can_trade():
            self._end("complete")
            return
        seat = (s.active + 1) % s.players
        self.emit(ev.TurnStarted(turn=s.turn + 1, seat=seat, deck_left=s.deck_left))

    def _end(self, reason: Any) -> None:
        s = self.state
        scores = s.scores()
        ranks = tuple(1 + sum(o > x for o in scores) for x in scores)
        sets = tuple(tuple(sorted(h, key=ANIMALS.index)) for h in s.sets)
        self.emit(ev.GameEnded(reason=reason, turns=s.turn, scores=scores, ranks=ranks, sets=sets))

    def _open_round(self, *, confirmation: bool = False) -> None:
        s = self.state
        a = s.auction
        assert a is not None
        if not a.bidders:
            self.emit(ev.AuctionNoBid(auction=a.number, auctioneer=a.auctioneer))
            return
        if s.config.auction_mode == "legacy":
            order = a.order
            eligible = set(a.bidders)
            i = a.cursor
            for _ in range(len(order)):
                i = (i + 1) % len(order)
                seat = order[i]
                if seat in eligible and seat != a.leader:
                    break
            bidders: tuple[int, ...] = (seat,)
        else:
            bidders = a.bidders
        self.emit(
            ev.BidRoundOpened(
                auction=a.number,
                round=a.round + 1,
                price=a.price,
                leader=a.leader,
                bidders=bidders,
                confirmation=confirmation,
            )
        )

    def _after_round(self) -> None:
        s = self.state
        a = s.auction
        assert a is not None
        mode = s.config.auction_mode
        if not a.bidders:
            self.emit(ev.AuctionNoBid(auction=a.number, auctioneer=a.auctioneer))
            return
        if mode == "fast":
            self._auction_ends()
            return
        if mode == "legacy":
            others = [b for b in a.bidders if b != a.leader]
            if all(b in a.passes for b in others):
                self._auction_ends()
            elif not self._capped():
                self._open_round()
            return
        # canonical
        if a.round_had_bid:
            if not self._capped():
                self._open_round()
            return
        if a.leader is not None:
            self._auction_ends()
            return
        if a.round == a.attempt_start and not a.confirmation:
            self._open_round(confirmation=True)
            return
        self.emit(ev.AuctionNoBid(auction=a.number, auctioneer=a.auctioneer))

    def _capped(self) -> bool:
        """End the auction on its standing bid if it used up its bid rounds (rules 1.1.0)."""
        s = self.state
        a = s.auction
        assert a is not None
        if s.rules < 1 or a.leader is None:
            return False
        if a.round + 1 < least_round_cap(s.config):
            return False  # far below any cap this game can have: no need to count the money
        cap = bid_round_cap(s)
        if a.round + 1 < cap:
            return False
        self.emit(ev.BidRoundsCapped(auction=a.number, rounds=cap, leader=a.leader, price=a.price))
        self._auction_ends()
        return True

    def _auction_ends(self) -> None:
        s = self.state
        a = s.auction
        assert a is not None
        if a.leader is None:
            self.emit(ev.AuctionNoBid(auction=a.number, auctioneer=a.auctioneer))
            return
        w = a.leader
        if s.wealth(w) >= a.price:
            self.emit(ev.AuctionWon(auction=a.number, winner=w, price=a.price))
            return
        money = s.money[w]
        self.emit(ev.OverbidRevealed(auction=a.number, seat=w, bid=a.price, money=money))
        total = sum(money)
        caps = (*(c for c in a.caps if c[0] != w), (w, total - total % BID_STEP))
        self.emit(
            ev.AuctionRestarted(auction=a.number, attempt=a.attempt + 1, caps=tuple(sorted(caps)))
        )

    def _settle(self) -> None:
        s = self.state
        a = s.auction
        assert a is not None
        if a.decision is None:  # no bid: the auctioneer takes the card for free
            self._give(a.animal, 1, None, a.auctioneer)
            return
        assert a.leader is not None
        if a.decision == "sell":
            payer, payee, receiver = a.leader, a.auctioneer, a.leader
        else:
            payer, payee, receiver = a.auctioneer, a.leader, a.auctioneer
        reason: Any = "sale" if a.decision == "sell" else "buy_right"
        cards = payment(s.money[payer], a.price)
        self.emit(
            ev.PaymentMade(
                payer=payer, payee=payee, amount=a.price, n_cards=len(cards), reason=reason
            )
        )
        self.emit(ev.PaymentCards(payer=payer, payee=payee, cards=cards))
        self._give(a.animal, 1, None, receiver)
