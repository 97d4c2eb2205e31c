"""A standing league: a matchmaker choosing rounds of games, played and stored, until stopped.

A league is stored as a tournament of several games (format `suite`: its configuration is
every game's by name, each scheduled game names its game) that grows by one round at a
time, plus its facts in `league_events` (events.league). One round at a time:

1. the games of the open round still to play are played (`tournament.pending_tasks`: a game
   with model seats cut short is continued from its log, a code-agent game is played again);
2. the league's file is read again; whatever it says that is new is recorded
   (`LeagueConfigured`), and an agent new to a league that already played a round gets its
   reference pool's ratings frozen (`CalibrationOpened`);
3. the matchmaker chooses the next round (`choose`) from the folded facts and the results of
   the finished games of the earlier rounds alone, and its matches are stored with their
   schedule rows in one transaction.

The matchmaker reads no clock: the day a round is chosen on is read once and recorded with
the round (budgets count per day), and every tie is broken by a generator derived from the
league's seed and the round's number. So `replay_choices` chooses every stored round again
from the stored facts and games and finds the same matches.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import itertools
import json
import math
import os
import re
import time
import tomllib
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import msgspec

from engine.chance import chance
from events import catalog
from events.codec import encode
from events.lazy import get_logger
from events.league import (
    SCHEMA,
    AgentEntry,
    CalibrationOpened,
    GameEntry,
    LeagueConfigured,
    LeagueEvent,
    Match,
    PersonQueued,
    RoundChosen,
    encode_event,
    load_events,
)
from events.store import DuckStore
from projections.league import LeagueState, fold


def identity(spec: str, game: str) -> str:
    """The agent a seat of `spec` is stored as (a model's spec without its address)."""
    from agents import parse_spec

    return parse_spec(spec, game).agent


log = get_logger("cattle.league")

PERSON_TIMEOUT = 120.0
"""Seconds a person from the queue has for each decision (the file's `person_timeout`)."""
ROUND_GAMES = 8
"""Games chosen per round unless the file says otherwise."""
SHRINK = 0.5
"""Within a round, each chosen lineup's rating variances count this much less for the next
choices (the expected effect of its games), so one round spreads over several lineups."""
MAX_LINEUPS = 5_000
"""Lineups weighed per game and round at most (games with many seats and many agents)."""


SHIPPED = Path(__file__).resolve().parents[1] / "data" / "leagues"
"""League files shipped with the harness, run by name (`cattle league example`)."""


def find_file(given: str | Path) -> Path:
    """The league file `given` names: a path, else the name of a shipped league."""
    path = Path(given)
    if path.exists() or path.suffix:
        return path
    shipped = SHIPPED / f"{given}.toml"
    return shipped if shipped.exists() else path


class LeagueError(ValueError):
    """A league file or store that cannot be run as asked (the message says why)."""


# ---------------------------------------------------------------------------- the file


class LeagueFile(msgspec.Struct, frozen=True, kw_only=True):
    """A league file as read."""

    name: str
    seed: int
    round_games: int
    reference: tuple[str, ...]
    calibration: int
    person_timeout: float
    games: tuple[GameEntry, ...]
    agents: tuple[AgentEntry, ...]


def _opt_int(d: dict[str, Any], key: str, where: str) -> int | None:
    v = d.get(key)
    if v is None:
        return None
    if not isinstance(v, int) or isinstance(v, bool) or v < 1:
        raise LeagueError(f"{where}: {key} must be a whole number of at least 1, got {v!r}")
    if v > 2**62:
        raise LeagueError(f"{where}: {key} must be at most {2**62:,}, got {v:,}")
    return v


MAX_ROUND_GAMES = 10_000
"""The most games one round may take (a round is chosen and stored at once)."""
MAX_CALIBRATION = 100
"""The most calibration matches per game a newcomer may be given."""
MAX_WEIGHT = 1e6
"""The largest weight of a game (priorities stay finite numbers in the stored rounds)."""
MAX_PERSON_TIMEOUT = 86_400.0
"""The longest a person may be given per decision, in seconds (a day)."""
NAME_TEXT = re.compile(r"^[^\s/+\\\x00-\x1f\x7f][^/+\\\x00-\x1f\x7f]{0,62}(?<!\s)$")
"""A league's or an agent's name: 1 to 63 characters, without /, +, backslash or control
characters (they name pages, and `+` joins a lineup's names), nor space at either end."""


def _name(v: Any, where: str) -> str:
    if not isinstance(v, str) or not NAME_TEXT.match(v):
        raise LeagueError(
            f"{where} must be text of 1 to 63 characters without /, +, backslash, control"
            f" characters or spaces at either end, got {v!r}"
        )
    return v


def _number(
    d: dict[str, Any], key: str, where: str, *, low: float, high: float, above: bool = False
) -> float | None:
    """`d[key]` as a finite number within [low, high] (above: more than low), or None."""
    v = d.get(key)
    if v is None:
        return None
    ok = isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
    if ok and (v <= low if above else v < low):
        ok = False
    if not ok or v > high:
        more = f"more than {low:g}" if above else f"{low:g} or more"
        raise LeagueError(
            f"{where}: {key} must be a number, {more} and at most {high:g}, got {v!r}"
        )
    return float(v)


LEAGUE_KEYS = {"name", "seed", "round_games", "reference", "calibration", "person_timeout"}
GAME_KEYS = {"game", "preset", "weight", "duplicate"}
AGENT_KEYS = {
    *("name", "spec", "specs", "calls_per_day", "tokens_per_day", "cost_per_day"),
    *("concurrency", "price"),
}


def _known(table: Any, keys: set[str], where: str) -> None:
    """Refuse a key the league file does not know (a typo would otherwise be ignored)."""
    if not isinstance(table, dict):
        raise LeagueError(f"{where}: expected a table")
    unknown = sorted(set(table) - keys)
    if unknown:
        raise LeagueError(
            f"{where}: unknown key(s) {', '.join(unknown)}; known: {', '.join(sorted(keys))}"
        )


def read_file(path: Path) -> LeagueFile:
    """Read and check a league file (TOML; docs/league.md)."""
    from agents import UnknownAgent, parse_spec

    try:
        doc = tomllib.loads(Path(path).read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise LeagueError(f"{path}: {exc}") from None
    _known(doc, {"league", "games", "agents"}, f"{path}")
    head = doc.get("league", {})
    _known(head, LEAGUE_KEYS, f"{path}: [league]")
    name = _name(head.get("name", Path(path).stem), f"{path}: league.name")
    seed = head.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
        raise LeagueError(f"{path}: league.seed must be a whole number from 0 to 2**63 - 1")
    round_games = _opt_int(head, "round_games", f"{path}: league") or ROUND_GAMES
    if round_games > MAX_ROUND_GAMES:
        raise LeagueError(f"{path}: league.round_games must be at most {MAX_ROUND_GAMES:,}")
    calibration = head.get("calibration", 2)
    if (
        not isinstance(calibration, int)
        or isinstance(calibration, bool)
        or not 0 <= calibration <= MAX_CALIBRATION
    ):
        raise LeagueError(f"{path}: league.calibration must be 0 to {MAX_CALIBRATION}")
    person_timeout = _number(
        head, "person_timeout", f"{path}: league", low=0, high=MAX_PERSON_TIMEOUT, above=True
    )
    given_refs = head.get("reference", [])
    if not isinstance(given_refs, list) or not all(isinstance(r, str) for r in given_refs):
        raise LeagueError(f"{path}: league.reference must be a list of agent names")
    for key in ("games", "agents"):
        if not isinstance(doc.get(key, []), list):
            raise LeagueError(f"{path}: {key} must be [[{key}]] tables")
    games: list[GameEntry] = []
    for k, g in enumerate(doc.get("games", [])):
        where = f"{path}: games[{k}]"
        _known(g, GAME_KEYS, where)
        try:
            gdef = catalog.get(str(g.get("game", "")))
            preset = str(g.get("preset") or gdef.default_preset)
            config = gdef.preset(preset)
        except (catalog.UnknownGame, KeyError) as exc:
            raise LeagueError(f"{where}: {exc}") from None
        weight = _number(g, "weight", where, low=0, high=MAX_WEIGHT)
        weight = 1.0 if weight is None else weight
        duplicate = g.get("duplicate", True)
        if not isinstance(duplicate, bool):
            raise LeagueError(f"{where}: duplicate must be true or false, got {duplicate!r}")
        if any(x.game == gdef.name for x in games):
            raise LeagueError(f"{where}: {gdef.name} is listed twice (one preset per game)")
        games.append(
            GameEntry(
                game=gdef.name,
                preset=preset,
                weight=weight,
                duplicate=duplicate,
                config=encode(config).decode(),
            )
        )
    if not games:
        raise LeagueError(f"{path}: no [[games]]")
    agents: list[AgentEntry] = []
    for k, a in enumerate(doc.get("agents", [])):
        where = f"{path}: agents[{k}]"
        _known(a, AGENT_KEYS, where)
        if a.get("name") is None and a.get("spec") is None:
            raise LeagueError(f"{where}: needs a name or a spec")
        label = _name(a.get("name", a.get("spec")), f"{where}: name")
        default = a.get("spec")
        given = a.get("specs", {})
        if default is not None and not isinstance(default, str):
            raise LeagueError(f"{where}: spec must be text, got {default!r}")
        if not isinstance(given, dict) or not all(isinstance(v, str) for v in given.values()):
            raise LeagueError(f"{where}: specs must be a table of game = spec text")
        stray = sorted(set(given) - {g.game for g in games})
        if stray:
            raise LeagueError(f"{where}: specs names games the league does not play: {stray}")
        specs: dict[str, str] = {}
        for g in games:
            text = given.get(g.game, default)
            if text is None:
                continue
            try:
                parse_spec(str(text), g.game)
            except (UnknownAgent, ValueError) as exc:
                if g.game in given:
                    raise LeagueError(f"{where}: {exc}") from None
                continue  # the default spec is not an agent of this game: it sits it out
            specs[g.game] = str(text)
        if not specs:
            raise LeagueError(f"{where}: {label} plays none of the league's games")
        price = a.get("price")
        if price is not None and (
            not isinstance(price, list)
            or len(price) != 2
            or any(
                isinstance(p, bool) or not isinstance(p, int | float) or not 0 <= p < math.inf
                for p in price
            )
        ):
            raise LeagueError(
                f"{where}: price must be [input, output] per million tokens, two numbers of"
                f" 0 or more, got {price!r}"
            )
        agents.append(
            AgentEntry(
                name=label,
                specs=specs,
                seats={g: identity(t, g) for g, t in specs.items()},
                calls_per_day=_opt_int(a, "calls_per_day", where),
                tokens_per_day=_opt_int(a, "tokens_per_day", where),
                cost_per_day=_number(a, "cost_per_day", where, low=0, high=1e12, above=True),
                concurrency=_opt_int(a, "concurrency", where),
                price=(float(price[0]), float(price[1])) if price else None,
            )
        )
    names = [a.name for a in agents]
    if len({n.lower() for n in names}) != len(names):
        raise LeagueError(f"{path}: two agents share a name (letter case aside)")
    for g in games:
        seen: dict[str, str] = {}
        for a in agents:
            if g.game in a.specs:
                who = identity(a.specs[g.game], g.game)
                if who in seen:
                    raise LeagueError(
                        f"{path}: {seen[who]} and {a.name} are the same agent in {g.game} ({who})"
                    )
                seen[who] = a.name
    reference = tuple(given_refs)
    unknown = [r for r in reference if r not in names]
    if unknown:
        raise LeagueError(f"{path}: reference names unknown agents: {', '.join(unknown)}")
    return LeagueFile(
        name=name,
        seed=seed,
        round_games=round_games,
        reference=reference,
        calibration=calibration,
        person_timeout=PERSON_TIMEOUT if person_timeout is None else person_timeout,
        games=tuple(games),
        agents=tuple(agents),
    )


def _configured(f: LeagueFile, round_no: int) -> LeagueConfigured:
    return LeagueConfigured(
        round=round_no,
        seed=f.seed,
        round_games=f.round_games,
        games=f.games,
        agents=f.agents,
        reference=f.reference,
        calibration=f.calibration,
    )


def _same(a: LeagueConfigured, b: LeagueConfigured) -> bool:
    return msgspec.structs.replace(a, round=0) == msgspec.structs.replace(b, round=0)


# ---------------------------------------------------------------------------- inputs


class Inputs(msgspec.Struct, kw_only=True):
    """What the matchmaker knows before a round: the ratings per game and the spend today."""

    ratings: dict[str, dict[str, tuple[float, float]]]
    """game -> agent name -> TrueSkill (mu, sigma) over the finished games of earlier rounds."""
    spend: dict[str, tuple[int, int, float]]
    """agent name -> model calls, tokens and cost of its games of earlier rounds today."""


def inputs(store: DuckStore, league: str, state: LeagueState, before: int, day: str) -> Inputs:
    """The matchmaker's inputs for the round whose first game has schedule index `before`:
    only games of earlier rounds count (in a replay too)."""
    from projections.costs import cost, price_for
    from projections.ratings import group_games, load_results, trueskill_ratings

    _, rows = store.query(
        "SELECT game_id, idx FROM tournament_games WHERE tournament = ? AND idx < ?",
        [league, before],
    )
    index = dict(rows)
    ratings: dict[str, dict[str, tuple[float, float]]] = {}
    for game, labels in state.identity.items():
        results = [r for r in load_results(store, league, game) if r.game_id in index]
        rated = trueskill_ratings(group_games(results))
        ratings[game] = {labels.get(a, a): (r.mu, r.sigma) for a, r in rated.items()}
    days = {
        m.first + k: r.day for r in state.rounds for m in r.matches for k in range(len(m.rotations))
    }
    spend: dict[str, list[float]] = defaultdict(lambda: [0, 0, 0.0])
    _, rows = store.query(
        "SELECT u.game_id, g.game, u.agent, u.provider, u.model, u.calls, u.input_tokens,"
        " u.output_tokens FROM llm_usage u JOIN games g USING (game_id) WHERE u.tournament = ?",
        [league],
    )
    for gid, game, agent, provider, model, calls, tin, tout in rows:
        if gid not in index or days.get(index[gid]) != day:
            continue
        name = state.identity.get(game, {}).get(agent, agent)
        entry = state.agent(name)
        price = entry.price if entry is not None and entry.price else None
        price = price or price_for(str(provider), str(model), {})
        s = spend[name]
        s[0] += int(calls or 0)
        s[1] += int(tin or 0) + int(tout or 0)
        s[2] += cost(int(tin or 0), int(tout or 0), price) or 0.0
    return Inputs(
        ratings=ratings, spend={k: (int(v[0]), int(v[1]), float(v[2])) for k, v in spend.items()}
    )


def over_budget(entry: AgentEntry, spent: tuple[int, int, float]) -> str | None:
    """Why `entry` may play no more games today, or None."""
    for what, used, limit in (
        ("calls", spent[0], entry.calls_per_day),
        ("tokens", spent[1], entry.tokens_per_day),
        ("cost", spent[2], entry.cost_per_day),
    ):
        if limit is not None and used >= limit:
            return f"{what} per day spent ({used:g} of {limit:g})"
    return None


# ---------------------------------------------------------------------------- matchmaker


PRIOR = (25.0, 25.0 / 3)
"""The TrueSkill prior (an agent without a finished game in a game)."""


def calibration_left(state: LeagueState, agent: str) -> dict[str, int]:
    """game -> calibration matches `agent` still has to be given (none once it is placed)."""
    opened = state.calibrations.get(agent)
    cfg = state.config
    entry = state.agent(agent)
    if opened is None or cfg is None or entry is None:
        return {}
    left = {g: cfg.calibration for g in opened.frozen if g in entry.specs}
    for m in state.matches:
        if m.calibration and agent in m.lineup and m.game in left:
            left[m.game] -= 1
    return {g: n for g, n in left.items() if n > 0}


def calibrating(state: LeagueState) -> set[str]:
    """Agents still in calibration: some calibration match of theirs is not yet chosen, or
    was chosen in the round being played (its result is not known yet)."""
    out = {a for a in state.calibrations if calibration_left(state, a)}
    if state.rounds:
        last = state.rounds[-1]
        out |= {a for m in last.matches if m.calibration for a in m.lineup[:1]}
    return out


def choose(
    state: LeagueState, inputs: Inputs, round_no: int, day: str, capacity: int
) -> tuple[Match, ...]:
    """The matches of round `round_no`: at most `capacity` games (see docs/league.md).

    Calibration first: each newcomer plays its calibration matches against the reference
    pool, a reference agent after another. Then, repeatedly, the lineup (in the game) with
    the largest weight x summed TrueSkill variance of its agents, among agents within their
    budgets and concurrency; ties go to a draw from the round's own generator.
    """
    cfg = state.config
    if cfg is None or capacity < 1:
        return ()
    rng = chance(cfg.seed, "league-round", round_no)
    games = {g.game: g for g in cfg.games}
    agents = {a.name: a for a in state.everyone()}
    load: dict[str, int] = defaultdict(int)
    blocked = {
        a.name
        for a in state.everyone()
        if over_budget(a, inputs.spend.get(a.name, (0, 0, 0.0))) is not None
    }
    players = {g: catalog.get(g).preset(games[g].preset).players for g in games}
    n_matches = len(state.matches)
    index = state.scheduled
    chosen: list[Match] = []
    used = 0

    def room(lineup: Sequence[str], n: int) -> bool:
        for a in set(lineup):
            c = agents[a].concurrency
            if c is not None and load[a] + n * lineup.count(a) > c:
                return False
        return used == 0 or used + n <= capacity

    def earlier(game: str, lineup: Sequence[str]) -> int:
        key = sorted(lineup)
        return sum(
            1 for m in [*state.matches, *chosen] if m.game == game and sorted(m.lineup) == key
        )

    def add(game: str, lineup: tuple[str, ...], calibration: bool, priority: float) -> None:
        nonlocal used, index, n_matches
        g = games[game]
        n = players[game]
        rotations = tuple(range(n)) if g.duplicate else (earlier(game, lineup) % n,)
        seed = chance(cfg.seed, "league-match", n_matches).randrange(2**31)
        chosen.append(
            Match(
                game=game,
                lineup=lineup,
                seed=seed,
                rotations=rotations,
                first=index,
                calibration=calibration,
                priority=round(priority, 9),
            )
        )
        n_matches += 1
        index += len(rotations)
        used += len(rotations)
        for a in lineup:
            load[a] += len(rotations)

    # 0. people who waited in the browser's queue: one game each, against the reference
    # pool's first agent of their game (else the first agent of the file that plays it)
    for e in state.queue:
        if e.round != round_no or e.game not in games:
            continue
        rivals = [*(r for r in cfg.reference if r in agents), *(a.name for a in cfg.agents)]
        rivals = [r for r in dict.fromkeys(rivals) if e.game in agents[r].specs]
        rivals = [r for r in rivals if r not in blocked]
        if not rivals:
            continue
        n = players[e.game]
        lineup = (e.name, *[rivals[j % len(rivals)] for j in range(n - 1)])
        one = msgspec.structs.replace(games[e.game], duplicate=False)
        games[e.game], saved = one, games[e.game]
        add(e.game, lineup, False, 0.0)
        games[e.game] = saved
    # 1. calibration matches of the newcomers, in the order they joined
    reference = [r for r in cfg.reference if r in agents]
    for newcomer in state.calibrations:
        if newcomer in blocked or newcomer not in agents:
            continue
        for game, left in calibration_left(state, newcomer).items():
            refs = [
                r
                for r in reference
                if game in agents[r].specs and r not in blocked and r != newcomer
            ]
            if not refs:
                continue
            done = cfg.calibration - left
            for k in range(left):
                n = players[game]
                others = [refs[(done + k + j) % len(refs)] for j in range(n - 1)]
                lineup = (newcomer, *others)
                size = n if games[game].duplicate else 1
                if used + size > capacity or not room(lineup, size):
                    break
                add(game, lineup, True, 0.0)
    # 2. open matches where the table is least certain
    busy = calibrating(state)
    variance: dict[tuple[str, str], float] = {}
    for game, table in inputs.ratings.items():
        for a, (_, sigma) in table.items():
            variance[(game, a)] = sigma * sigma
    while used < capacity:
        best: tuple[float, float, str, tuple[str, ...]] | None = None
        for g in cfg.games:
            if g.weight <= 0:
                continue
            pool = [
                a.name
                for a in cfg.agents
                if g.game in a.specs and a.name not in blocked and a.name not in busy
            ]
            n = players[g.game]
            if len(pool) < n:
                continue
            size = n if g.duplicate else 1
            for lineup in itertools.islice(itertools.combinations(pool, n), MAX_LINEUPS):
                if not room(lineup, size):
                    continue
                spread = sum(variance.get((g.game, a), PRIOR[1] ** 2) for a in lineup)
                priority = g.weight * spread
                tie = rng.random()
                key = (priority, tie, g.game, lineup)
                if best is None or key[:2] > best[:2]:
                    best = key
        if best is None:
            break
        priority, _, game, lineup = best
        add(game, lineup, False, priority)
        for a in lineup:
            variance[(game, a)] = variance.get((game, a), PRIOR[1] ** 2) * SHRINK
    return tuple(chosen)


# ---------------------------------------------------------------------------- storage


def ensure_schema(store: DuckStore) -> None:
    """Create the tournament and league tables if missing."""
    from runner.tournament import ensure_schema as tournament_schema

    tournament_schema(store)
    store.con.execute(SCHEMA)


def _append(store: DuckStore, league: str, events: Sequence[LeagueEvent]) -> None:
    """Append league facts (inside the caller's transaction)."""
    con = store.con
    row = con.execute(
        "SELECT coalesce(max(seq) + 1, 0) FROM league_events WHERE league = ?", [league]
    ).fetchone()
    seq = int(row[0]) if row else 0
    for e in events:
        tag = type(e).__struct_config__.tag
        con.execute(
            "INSERT INTO league_events VALUES (?, ?, ?, ?)", [league, seq, tag, encode_event(e)]
        )
        seq += 1


def _tx(store: DuckStore, work: Callable[[], None]) -> None:
    con = store.con
    con.execute("BEGIN")
    try:
        work()
    except BaseException:
        con.execute("ROLLBACK")
        raise
    con.execute("COMMIT")


def _open(store: DuckStore, f: LeagueFile) -> None:
    """Store the league's tournament row if it has none yet."""
    from runner.tournament import SUITE

    _, rows = store.query("SELECT format, game FROM tournaments WHERE name = ?", [f.name])
    if rows:
        if tuple(rows[0]) != (SUITE, "league"):
            raise LeagueError(f"a tournament named {f.name!r} that is not a league is stored")
        return
    store.con.execute(
        "INSERT INTO tournaments (name, format, agents, games, seed, config, game)"
        " VALUES (?, ?, '[]', 0, ?, '{}', 'league')",
        [f.name, SUITE, f.seed],
    )


def _record_config(store: DuckStore, f: LeagueFile, state: LeagueState) -> list[LeagueEvent]:
    """What the file says that the league does not know yet, as facts to store."""
    now = _configured(f, state.next_round)
    if state.config is not None:
        if now.seed != state.config.seed:
            raise LeagueError(
                f"the file gives seed {now.seed}, the league was started with"
                f" {state.config.seed}: the seed of a running league cannot change"
            )
        before = {g.game: g for g in state.config.games}
        for g in now.games:
            if g.game in before and before[g.game].config != g.config:
                raise LeagueError(
                    f"{g.game}: the league plays preset {before[g.game].preset}; a league"
                    " keeps one configuration per game (start another league)"
                )
        # An agent's identity in a game is kept for good, by any file since the first (one
        # taken out and put back is the same agent, or the table would merge two).
        ever: dict[str, AgentEntry] = {}
        for c in state.configs:
            for a in c.agents:
                ever[a.name] = AgentEntry(
                    name=a.name, specs={**(ever[a.name].specs if a.name in ever else {}), **a.specs}
                )
        for a in now.agents:
            old = ever.get(a.name)
            for game, spec in a.specs.items():
                was = state.identity.get(game, {}).get(identity(spec, game), a.name)
                if was != a.name:
                    raise LeagueError(
                        f"{a.name} plays {game} as {identity(spec, game)}, which this league"
                        f" rates as {was}: give {a.name} {was}'s name, or another agent"
                    )
                if (
                    old is not None
                    and game in old.specs
                    and identity(old.specs[game], game) != identity(spec, game)
                ):
                    raise LeagueError(
                        f"{a.name} plays {game} as {identity(old.specs[game], game)}; give"
                        " another agent another name"
                    )
        if _same(now, state.config):
            return []
    people = {p.lower() for p in state.people}
    for a in now.agents:
        if a.name.lower() in people:
            raise LeagueError(
                f"{a.name} is the name of a person of this league; give the agent another name"
            )
    facts: list[LeagueEvent] = [now]
    if state.rounds and f.reference:
        known = {a.name for c in state.configs for a in c.agents}
        for a in now.agents:
            if a.name in known or a.name in f.reference:
                continue
            facts.append(
                CalibrationOpened(
                    round=state.next_round, agent=a.name, frozen=_frozen(store, f, state, a)
                )
            )
    return facts


def _frozen(
    store: DuckStore, f: LeagueFile, state: LeagueState, newcomer: AgentEntry
) -> dict[str, dict[str, tuple[float, float]]]:
    """The reference pool's TrueSkill now, in each game the newcomer plays."""
    known = inputs(store, f.name, state, state.scheduled, "").ratings
    out: dict[str, dict[str, tuple[float, float]]] = {}
    for game in newcomer.specs:
        table = known.get(game, {})
        refs = {r: table.get(r, PRIOR) for r in f.reference if r in table}
        if refs:
            out[game] = {r: (round(m, 9), round(s, 9)) for r, (m, s) in refs.items()}
    return out


def _schedule(store: DuckStore, league: str, state: LeagueState, chosen: RoundChosen) -> None:
    """Store a round's schedule rows and the league's game configurations (in the caller's
    transaction)."""
    from engine.schedule import rotate
    from runner.tournament import game_id

    cfg = state.config
    assert cfg is not None
    # Every game the league ever played keeps its configuration (a game taken out of the
    # file may still have games to finish).
    configs = {g.game: json.loads(g.config) for c in state.configs for g in c.games}
    agents = {a.name: a for a in state.everyone()}
    con = store.con
    con.execute(
        "UPDATE tournaments SET config = ?, agents = ?, games = games + ? WHERE name = ?",
        [
            json.dumps(configs),
            json.dumps([a.name for a in state.everyone()]),
            sum(len(m.rotations) for m in chosen.matches),
            league,
        ],
    )
    for m in chosen.matches:
        specs = tuple(agents[a].specs[m.game] for a in m.lineup)
        for k, r in enumerate(m.rotations):
            seats = rotate(specs, r)
            con.execute(
                "INSERT INTO tournament_games"
                " (tournament, idx, game_id, seed, seats, lineup, rotation, game)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    league,
                    m.first + k,
                    game_id(league, m.first + k),
                    m.seed,
                    json.dumps(list(seats)),
                    "+".join(m.lineup),
                    r,
                    m.game,
                ],
            )


# ---------------------------------------------------------------------------- running


class Stop(msgspec.Struct, kw_only=True):
    """Why a league run ended."""

    reason: str
    rounds: int
    games: int
    """Games played by this run."""


def today() -> str:
    """The UTC date now (read once per round and recorded with it)."""
    return dt.datetime.now(dt.UTC).date().isoformat()


def run(
    store: DuckStore,
    path: Path,
    *,
    games: int | None = None,
    minutes: float | None = None,
    executor: Any = None,
    workers: int = 1,
    concurrency: int | None = None,
    day: Callable[[], str] = today,
    on_round: Callable[[int, int], None] | None = None,
    on_game: Callable[[], None] | None = None,
    seats: Path | None = None,
) -> Stop:
    """Run the league of file `path` until `games` games are stored in all, `minutes` have
    passed (checked between rounds), or nothing can be played; resume where it stopped."""

    f = read_file(path)
    name = f.name
    ensure_schema(store)
    _tx(store, lambda: _open(store, f))
    store.claim(f"league:{f.name}")
    try:
        return _rounds(
            store,
            path,
            name,
            games,
            minutes,
            executor,
            workers,
            concurrency,
            day,
            on_round,
            on_game,
            seats,
        )
    finally:
        # The claim goes with a run that ends (a killed one leaves it to its dead process).
        with contextlib.suppress(Exception):
            store.con.execute(
                "DELETE FROM writers WHERE key = ? AND pid = ?", [f"league:{name}", os.getpid()]
            )


def _rounds(
    store: DuckStore,
    path: Path,
    name: str,
    games: int | None,
    minutes: float | None,
    executor: Any,
    workers: int,
    concurrency: int | None,
    day: Callable[[], str],
    on_round: Callable[[int, int], None] | None,
    on_game: Callable[[], None] | None,
    seats: Path | None,
) -> Stop:
    """The rounds of `run`, once the league is stored and claimed."""
    from runner.tournament import pending_tasks, play_tournament

    started = time.monotonic()
    rounds = played = 0
    while True:
        _, tasks, _ = pending_tasks(store, name)
        if tasks:
            played += play_tournament(
                store,
                name,
                None,
                tasks,
                workers=workers,
                executor=executor,
                concurrency=concurrency,
                on_game=on_game,
            )
            _, left, _ = pending_tasks(store, name)
            if left:
                return Stop(
                    reason=f"{len(left)} game(s) could not be played", rounds=rounds, games=played
                )
        state = fold(load_events(store.con, name))
        if games is not None and state.scheduled >= games:
            return Stop(
                reason=f"the league holds {state.scheduled} games", rounds=rounds, games=played
            )
        if minutes is not None and time.monotonic() - started >= minutes * 60:
            return Stop(reason=f"{minutes:g} minute(s) passed", rounds=rounds, games=played)
        f = read_file(path)
        if f.name != name:
            raise LeagueError(f"{path} now names league {f.name!r}; it was {name!r}")
        facts = _record_config(store, f, state)
        facts += _queued(f, state, seats)
        if facts:
            _tx(store, functools.partial(_append, store, name, facts))
            state = fold(load_events(store.con, name))
        on = day()
        capacity = state.config.round_games if state.config else ROUND_GAMES
        if games is not None:
            capacity = min(capacity, games - state.scheduled)
        before = state.scheduled
        matches = choose(
            state, inputs(store, name, state, before, on), state.next_round, on, capacity
        )
        if not matches:
            return Stop(
                reason="no lineup can play (budgets, concurrency or too few agents)",
                rounds=rounds,
                games=played,
            )
        chosen = RoundChosen(round=state.next_round, day=on, capacity=capacity, matches=matches)

        # The people seated leave the queue before the round is stored: a stop in between
        # leaves their record (`PersonQueued`), from which the round is chosen again.
        _seated(state, chosen, seats)
        _tx(store, functools.partial(_write_round, store, name, state, chosen))
        log.info("league.round", league=name, round=chosen.round, matches=len(matches))
        rounds += 1
        if on_round is not None:
            on_round(chosen.round, sum(len(m.rotations) for m in matches))


def replay_choices(store: DuckStore, league: str) -> list[str]:
    """Choose every stored round again from the stored facts and games; the differences
    found ([] when every round is chosen as stored)."""
    events = load_events(store.con, league)
    problems: list[str] = []
    upto: list[Any] = []
    for e in events:
        if isinstance(e, RoundChosen):
            state = fold(upto)
            before = state.scheduled
            again = choose(
                state, inputs(store, league, state, before, e.day), e.round, e.day, e.capacity
            )
            if again != e.matches:
                problems.append(f"round {e.round}: chosen again differently")
        upto.append(e)
    return problems


def _queued(f: LeagueFile, state: LeagueState, seats: Path | None) -> list[LeagueEvent]:
    """The people waiting in the browser's queue, as facts (an entry the league cannot take
    is removed: a game it does not play, a name of the file's agents, a name held by
    another secret)."""
    from agents.human.lobby import queued, taken
    from agents.human.mailbox import seats_dir

    root = seats or seats_dir()
    out: list[LeagueEvent] = []
    games = {g.game for g in f.games}
    names = {a.name.lower() for a in f.agents} | agent_names(state)
    people = {p.lower(): entry for p, entry in state.people.items()}
    # Recorded already for the round about to be chosen (a run stopped between storing the
    # queue and storing the round): recording them again would seat them twice.
    recorded = {e.name.lower() for e in state.queue if e.round == state.next_round}
    for doc in queued(root):
        if doc.get("league") != f.name:
            continue
        person, game, digest = str(doc["name"]), str(doc.get("game")), str(doc["secret_sha256"])
        old = people.get(person.lower())
        if person.lower() in recorded:
            continue
        if (
            game not in games
            or person.lower() in names
            or (old is not None and (old.name != person or old.secret_sha256 != digest))
        ):
            taken(root, person)
            continue
        spec = f"human:{person}?via=web&timeout={f.person_timeout:g}"
        out.append(
            PersonQueued(
                round=state.next_round,
                name=person,
                game=game,
                spec=spec,
                agent=identity(spec, game),
                secret_sha256=digest,
            )
        )
    return out


def agent_names(state: LeagueState) -> set[str]:
    """The names, in lower case, of every agent any of the league's files gave."""
    return {a.name.lower() for c in state.configs for a in c.agents}


def _seated(state: LeagueState, chosen: RoundChosen, seats: Path | None) -> None:
    """Take the people seated by `chosen` out of the queue."""
    from agents.human.lobby import taken
    from agents.human.mailbox import seats_dir

    for m in chosen.matches:
        for a in m.lineup:
            if a in state.people:
                taken(seats or seats_dir(), a)


def _write_round(store: DuckStore, league: str, state: LeagueState, chosen: RoundChosen) -> None:
    _append(store, league, [chosen])
    _schedule(store, league, state, chosen)


def status(store: DuckStore, league: str) -> dict[str, Any]:
    """The operator's view: rounds, games by state, each agent's spend on the last round's
    day against its budgets, and model call errors by provider."""
    state = fold(load_events(store.con, league))
    _, rows = store.query(
        "SELECT coalesce(g.status, 'waiting'), count(*) FROM tournament_games t"
        " LEFT JOIN games g ON g.game_id = t.game_id WHERE t.tournament = ? GROUP BY ALL",
        [league],
    )
    by = dict(rows)
    day = state.rounds[-1].day if state.rounds else ""
    spent = inputs(store, league, state, state.scheduled, day).spend if day else {}
    _, rows = store.query(
        "SELECT s.agent, g.game, count(DISTINCT s.game_id) FROM seats s JOIN games g"
        " USING (game_id) WHERE s.tournament = ? GROUP BY ALL",
        [league],
    )
    played: dict[str, int] = defaultdict(int)
    for agent, game, n in rows:
        played[state.identity.get(game, {}).get(agent, agent)] += int(n)
    busy = calibrating(state)
    agents = []
    for a in state.everyone():
        s = spent.get(a.name, (0, 0, 0.0))
        why = over_budget(a, s)
        agents.append(
            {
                "name": a.name,
                "games": played.get(a.name, 0),
                "calls": s[0],
                "tokens": s[1],
                "cost": s[2],
                "calls_per_day": a.calls_per_day,
                "tokens_per_day": a.tokens_per_day,
                "cost_per_day": a.cost_per_day,
                "concurrency": a.concurrency,
                "state": why or ("calibrating" if a.name in busy else "open"),
            }
        )
    _, rows = store.query(
        "SELECT provider, count(*), count(*) FILTER (WHERE error IS NOT NULL) FROM llm_calls"
        " WHERE tournament = ? GROUP BY ALL ORDER BY 1",
        [league],
    )
    holder = store.writer(f"league:{league}")
    writer = ""
    if holder is not None and holder[0].alive() is not False:
        writer = holder[0].describe()
    return {
        "league": league,
        "rounds": len(state.rounds),
        "scheduled": state.scheduled,
        "finished": int(by.get("finished", 0)),
        "running": int(by.get("running", 0)),
        "waiting": int(by.get("waiting", 0)) + int(by.get("abandoned", 0)),
        "day": day,
        "writer": writer,
        "agents": agents,
        "errors": [{"provider": p, "calls": int(c), "errors": int(e)} for p, c, e in rows],
    }
