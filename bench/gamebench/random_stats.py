"""Random-against-random statistics of GameBench games as they run here, to set beside
the same figures from GameBench's own code (docs/gamebench.md gives both sides).

    uv run python -m bench.gamebench.random_stats [--games N] [--game NAME ...]
        [--agent random|gamebench-random] [--json]

For each game, N games of the agent (`random` unless `--agent` names another) in every seat
at seeds 0..N-1 of the default preset: mean length (in a unit GameBench's code can be counted
in: a Two Rooms game in decisions, a Pit game in turns, a Hive game in turns of either
player, passes included, a Sea Battle game in turns, each a move and a volley of every ship
afloat, an Air, Land and Sea match in battles, an Are You the Traitor? game in rounds, a
Santorini, Codenames or Arctic Scavengers game in the decisions its seats answered), the
longest game, how many games a cap of the harness ended (a turn, round or
battle limit GameBench's code does not have), the draw rate, the first seat's (or blue
team's) win rate and the spread of the first seat's match score.
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Callable, Sequence
from typing import Any

from events import catalog
from events.config import SeatSpec
from runner.session import play_game

Length = Callable[[Sequence[Any]], int]


def _decisions(events: Sequence[Any]) -> int:
    """Two Rooms: every talk turn (open talk) or every pick, question and answer (GameBench's
    talk; a question that could not be read counts, as GameBench asked for it), and every
    leader's choice."""
    from events.gamebench import two_rooms as te

    kinds = (
        te.TrSaid,
        te.TrKeptQuiet,
        te.TrShown,
        te.TrAskedWhom,
        te.TrAsked,
        te.TrAskSkipped,
        te.TrAnswered,
        te.TrHostagesChosen,
    )
    return sum(isinstance(e, kinds) for e in events)


def _turns(events: Sequence[Any]) -> int:
    """Pit and Sea Battle: the turns played (the end event counts them)."""
    return int(events[-1].turns)


def _trades(events: Sequence[Any]) -> int:
    """Pit: offers taken."""
    from events.gamebench.pit import PitTaken, PitTraded

    return sum(isinstance(e, PitTaken | PitTraded) for e in events)


def _corners(events: Sequence[Any]) -> int:
    """Pit: corners scored."""
    from events.gamebench.pit import PitCornered

    return sum(isinstance(e, PitCornered) for e in events)


def _battles(events: Sequence[Any]) -> int:
    """Air, Land and Sea: battles fought."""
    from events.gamebench.air_land_sea import AlsBattleEnded

    return sum(isinstance(e, AlsBattleEnded) for e in events)


def _withdrawals(events: Sequence[Any]) -> int:
    """Air, Land and Sea: battles ended by a withdrawal."""
    from events.gamebench.air_land_sea import AlsWithdrew

    return sum(isinstance(e, AlsWithdrew) for e in events)


def _answered(events: Sequence[Any]) -> int:
    """Air, Land and Sea: decisions answered (turns and abilities' choices)."""
    return len({e.n for e in events if isinstance(getattr(e, "n", None), int)})


def _pile_people(events: Sequence[Any]) -> int:
    """Arctic Scavengers: people in both last skirmish piles (what names the winner)."""
    from engine.gamebench.arctic_scavengers import RULES, tribe

    return sum(tribe(p) for p in RULES.fold(events[:-1]).pile)


def _tied_piles(events: Sequence[Any]) -> int:
    """Arctic Scavengers: 1 if the last skirmish piles hold as many people each."""
    from engine.gamebench.arctic_scavengers import RULES, tribe

    return int(len({tribe(p) for p in RULES.fold(events[:-1]).pile}) == 1)


def _empty_piles(events: Sequence[Any]) -> int:
    """Arctic Scavengers: 1 if every last skirmish pile is empty of people."""
    from engine.gamebench.arctic_scavengers import RULES, tribe

    return int(all(tribe(p) == 0 for p in RULES.fold(events[:-1]).pile))


def _tribe_people(events: Sequence[Any]) -> int:
    """Arctic Scavengers: people on all the cards of both tribes at the end."""
    return sum(events[-1].tribes)


EXTRAS: dict[str, dict[str, Length]] = {
    "gamebench:pit": {"trades": _trades, "corners": _corners},
    "gamebench:arctic_scavengers": {
        "tied_last_piles": _tied_piles,
        "empty_last_piles": _empty_piles,
        "last_pile_people": _pile_people,
        "tribe_people": _tribe_people,
    },
    "gamebench:air_land_sea": {"withdrawals": _withdrawals, "decisions": _answered},
}
"""Further counts a game's figures include (their means)."""


def _plies(events: Sequence[Any]) -> int:
    """Hive: turns of either player, passes included."""
    return int(events[-1].plies)


def _rounds(events: Sequence[Any]) -> int:
    """Are You the Traitor?: rounds played."""
    from events.gamebench.traitor import AytRoundEnded

    return sum(isinstance(e, AytRoundEnded) for e in events)


def _stepped(events: Sequence[Any]) -> int:
    """Stands for the decisions counted while the game is stepped (`_play`)."""
    raise AssertionError("counted by _play")


LENGTHS: dict[str, tuple[str, Length]] = {
    "gamebench:air_land_sea": ("battles", _battles),
    "gamebench:arctic_scavengers": ("decisions", _stepped),
    "gamebench:are_you_the_traitor": ("rounds", _rounds),
    "gamebench:codenames": ("decisions", _stepped),
    "gamebench:santorini": ("decisions", _stepped),
    "gamebench:hive": ("turns", _plies),
    "gamebench:pit": ("turns", _turns),
    "gamebench:sea_battle": ("turns", _turns),
    "gamebench:two_rooms_and_a_boom": ("decisions", _decisions),
}
"""Each game's unit of length and how to count it in a log."""


CAPS = frozenset({"turn_limit", "turn_cap", "battle_cap", "round_limit"})
"""End reasons that mean a bound of the harness, not the game's own end, stopped it."""


def _play(gdef: Any, config: Any, seed: int, agent: str) -> tuple[list[Any], int]:
    """A game stepped in process with `agent` in every seat: its log and the number of
    decisions its seats answered (each seat of a decision counts; GameBench counts each call
    of an agent's `take_action`)."""
    n = config.players
    agents = [gdef.code_agents[agent](s, seed, config) for s in range(n)]
    state, log = gdef.rules.start(config, seed, [SeatSpec(agent=agent)] * n)
    log = list(log)
    count = 0
    while (d := gdef.rules.pending(state)) is not None:
        actions = []
        for s in d.seats:
            view = gdef.new_view(s)
            view.sync(log)
            actions.append(agents[s].act(view, d))
            count += 1
        state, events = gdef.rules.step(state, d, actions)
        log += events
    return log, count


def stats(game: str, games: int, config: Any = None, agent: str = "random") -> dict[str, Any]:
    """The figures of `games` games of `game`'s default preset (or of `config`) with `agent`
    in every seat."""
    gdef = catalog.get(game)
    if config is None:
        config = gdef.preset(gdef.default_preset)
    unit, length = LENGTHS[game]
    extras: dict[str, list[int]] = {name: [] for name in EXTRAS.get(game, {})}
    lengths: list[int] = []
    firsts: list[float] = []
    draws = wins = capped = 0
    for seed in range(games):
        if length is _stepped:
            log, count = _play(gdef, config, seed, agent)
            scores = log[-1].scores
            lengths.append(count)
        else:
            record = play_game(config, seed, [agent] * config.players)
            assert record.result is not None
            log, scores = list(record.events), record.result.scores
            lengths.append(length(log))
        capped += getattr(log[-1], "reason", None) in CAPS
        for name, count in EXTRAS.get(game, {}).items():
            extras[name].append(count(log))
        firsts.append(scores[0])
        if len(set(scores)) == 1:
            draws += 1
        elif scores[0] == max(scores):
            wins += 1
    quartiles = statistics.quantiles(firsts, n=4) if games > 1 else [firsts[0]] * 3
    return {
        "game": game,
        "games": games,
        "agent": agent,
        "unit": unit,
        "mean_length": statistics.mean(lengths),
        "longest": max(lengths),
        "capped": capped,
        "draw_rate": draws / games,
        "first_win_rate": wins / games,
        "first_mean_score": statistics.mean(firsts),
        "first_score_quartiles": [round(q, 4) for q in quartiles],
        **{f"mean_{name}": statistics.mean(v) for name, v in extras.items()},
    }


def main() -> None:
    """Print the figures of the chosen games."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--game", action="append", choices=sorted(LENGTHS))
    parser.add_argument("--agent", default="random", help="the code agent of every seat")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    for game in args.game or sorted(LENGTHS):
        row = stats(game, args.games, agent=args.agent)
        if args.json:
            print(json.dumps(row))
            continue
        print(
            f"{game}: {row['games']} games, mean length {row['mean_length']:.1f}"
            f" {row['unit']} (longest {row['longest']}, {row['capped']} ended by a cap),"
            f" draws {row['draw_rate']:.3f}, first seat wins"
            f" {row['first_win_rate']:.3f}, first seat's score mean"
            f" {row['first_mean_score']:.3f} quartiles {row['first_score_quartiles']}"
            + "".join(
                f", {k} {v:.3g}"
                for k, v in row.items()
                if k.startswith("mean_") and k != "mean_length"
            )
        )


if __name__ == "__main__":
    main()
