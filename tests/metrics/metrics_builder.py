"""Build small, hand-written event streams for metric tests (no engine involved)."""

from __future__ import annotations

from typing import Any

from events.cattle import game as ev
from events.cattle.domain import GameConfig
from events.config import SeatSpec
from events.store import GameRow, Store


class Log:
    """A game log written event by event, with helpers for auctions and trades."""

    def __init__(self, agents: tuple[str, ...], *, set_size: int = 2) -> None:
        self.config = GameConfig(
            players=len(agents),
            set_size=set_size,
            animals=("chicken", "cat", "donkey", "horse"),
            payouts=(50, 500, 500, 500, 500)[:set_size],
            name="test",
        )
        self.seats = tuple(SeatSpec(agent=a) for a in agents)
        self.events: list[Any] = []
        self.turns: list[int] = []
        self.turn = 0
        self.auctions = 0
        self.trades = 0
        self.add(
            ev.GameStarted(seed=1, config=self.config, seats=self.seats, engine_version="test"),
            ev.HandsDealt(
                money=self.config.start_money,
                animals=tuple(() for _ in agents),
                deck_left=4 * set_size,
            ),
        )

    def add(self, *events: Any) -> None:
        for e in events:
            self.events.append(e)
            self.turns.append(self.turn)

    def start_turn(self, seat: int, choice: str) -> None:
        self.turn += 1
        self.add(
            ev.TurnStarted(turn=self.turn, seat=seat, deck_left=10),
            ev.TurnChosen(seat=seat, choice=choice, forced=False),  # type: ignore[arg-type]
        )

    def donkey(self, n: int, amount: int) -> None:
        self.add(ev.DonkeyPayout(donkey=n, amount=amount))

    def auction(
        self,
        auctioneer: int,
        animal: str,
        rounds: list[dict[int, int | None]],
        *,
        decision: str = "sell",
        cards: tuple[int, ...] = (),
        restart_after: int | None = None,
        donkey: tuple[int, int] | None = None,
    ) -> None:
        """An auction turn; `rounds` maps each bidder to its bid (None = pass) per round.

        `restart_after` (a round index) inserts an overbid reveal and a restart after it.
        """
        self.start_turn(auctioneer, "auction")
        self.add(ev.CardDrawn(seat=auctioneer, animal=animal, deck_left=9))
        if donkey:
            self.donkey(*donkey)
        self.auctions += 1
        a = self.auctions
        bidders = tuple(s for s in range(self.config.players) if s != auctioneer)
        self.add(
            ev.AuctionOpened(auction=a, auctioneer=auctioneer, animal=animal, priority=bidders)
        )
        leader: int | None = None
        price = 0
        for i, bids in enumerate(rounds):
            self.add(
                ev.BidRoundOpened(auction=a, round=i, price=price, leader=leader, bidders=bidders)
            )
            for seat, amount in bids.items():
                if amount is None:
                    self.add(ev.BidPassed(auction=a, round=i, seat=seat))
                else:
                    self.add(ev.BidPlaced(auction=a, round=i, seat=seat, amount=amount))
            best = max(((amt, s) for s, amt in bids.items() if amt is not None), default=None)
            if best is not None:
                price, leader = best
            self.add(ev.BidRoundClosed(auction=a, round=i, leader=leader, price=price))
            if restart_after == i:
                assert leader is not None
                self.add(
                    ev.OverbidRevealed(auction=a, seat=leader, bid=price, money=(50,)),
                    ev.AuctionRestarted(auction=a, attempt=1, caps=((leader, 50),)),
                )
                leader, price = None, 0
        if leader is None:
            self.add(
                ev.AuctionNoBid(auction=a, auctioneer=auctioneer),
                ev.AnimalMoved(animal=animal, count=1, giver=None, receiver=auctioneer),
            )
            return
        self.add(
            ev.AuctionWon(auction=a, winner=leader, price=price),
            ev.AuctioneerDecided(auction=a, seat=auctioneer, decision=decision),  # type: ignore[arg-type]
        )
        payer, payee = (leader, auctioneer) if decision == "sell" else (auctioneer, leader)
        self.add(
            ev.PaymentMade(
                payer=payer,
                payee=payee,
                amount=price,
                n_cards=len(cards),
                reason="sale" if decision == "sell" else "buy_right",
            ),
            ev.PaymentCards(payer=payer, payee=payee, cards=cards),
            ev.AnimalMoved(
                animal=animal,
                count=1,
                giver=None,
                receiver=leader if decision == "sell" else auctioneer,
            ),
        )

    def trade(
        self,
        initiator: int,
        target: int,
        animal: str,
        offer: tuple[int, ...],
        counter: tuple[int, ...] | None,
        *,
        again: list[tuple[tuple[int, ...], tuple[int, ...]]] | None = None,
        count: int = 1,
    ) -> None:
        """A trade turn: accepted when `counter` is None; `again` lists offers after ties."""
        self.start_turn(initiator, "trade")
        self.trades += 1
        t = self.trades
        self.add(
            ev.TradeInitiated(
                trade=t, initiator=initiator, target=target, animal=animal, n_cards=len(offer)
            ),
            ev.OfferCards(trade=t, seat=initiator, cards=offer, role="offer"),
        )
        if counter is None:
            self.add(
                ev.TradeAccepted(trade=t, target=target),
                ev.OffersRevealed(
                    trade=t,
                    initiator=initiator,
                    target=target,
                    initiator_cards=offer,
                    target_cards=(),
                ),
            )
            winner, loser, reason, final = initiator, target, "accepted", (offer, ())
        else:
            self.add(
                ev.TradeCountered(trade=t, target=target, n_cards=len(counter)),
                ev.OfferCards(trade=t, seat=target, cards=counter, role="counter"),
            )
            pairs = [(offer, counter), *(again or [])]
            for i, (mine, theirs) in enumerate(pairs):
                if i:
                    self.add(
                        ev.OfferCards(trade=t, seat=initiator, cards=mine, role="tie"),
                        ev.TieOfferMade(trade=t, seat=initiator, n_cards=len(mine)),
                        ev.OfferCards(trade=t, seat=target, cards=theirs, role="tie"),
                        ev.TieOfferMade(trade=t, seat=target, n_cards=len(theirs)),
                    )
                self.add(
                    ev.OffersRevealed(
                        trade=t,
                        initiator=initiator,
                        target=target,
                        initiator_cards=mine,
                        target_cards=theirs,
                    )
                )
                if sum(mine) == sum(theirs) and i < len(pairs) - 1:
                    self.add(ev.TradeTied(trade=t, ties=i + 1))
            mine, theirs = pairs[-1]
            final = (mine, theirs)
            if sum(mine) > sum(theirs):
                winner, loser, reason = initiator, target, "higher_offer"
            elif sum(mine) < sum(theirs):
                winner, loser, reason = target, initiator, "higher_offer"
            else:
                winner, loser, reason = initiator, target, "third_tie"
        self.add(
            ev.OffersExchanged(
                trade=t,
                initiator=initiator,
                target=target,
                initiator_n=len(final[0]),
                target_n=len(final[1]),
            ),
            ev.TradeWon(
                trade=t,
                winner=winner,
                loser=loser,
                animal=animal,
                count=count,
                reason=reason,  # type: ignore[arg-type]
            ),
            ev.AnimalMoved(animal=animal, count=count, giver=loser, receiver=winner),
        )

    def set_completed(self, seat: int, animal: str) -> None:
        self.add(ev.SetCompleted(seat=seat, animal=animal))

    def end(
        self, scores: tuple[int, ...], ranks: tuple[int, ...], sets: tuple[tuple[str, ...], ...]
    ) -> None:
        self.turn += 1
        self.add(
            ev.GameEnded(
                reason="complete", turns=self.turn - 1, scores=scores, ranks=ranks, sets=sets
            )
        )

    def save(self, store: Store, game_id: str, tournament: str | None = None) -> None:
        row = GameRow(
            game_id=game_id,
            seed=1,
            config=self.config,
            seats=self.seats,
            engine_version="test",
            tournament=tournament,
        )
        store.save_game(row, self.events, self.turns)
