"""Full verification of one stored game: is the store exactly what was played?

A game passes when, in this order:

1. its event rows are numbered 0, 1, 2, ... without a gap, every payload decodes, and
   re-encoding it gives the same bytes;
2. every stored column agrees with the payload: `type` is its tag, `actor` its actor,
   `visible_to` its audience (NULL: every seat, []: no seat), `turn` the turn it happened in;
3. the `games` row agrees with the log's `game_started` event (seed, config, seats, game,
   engine version), and with the tournament schedule that lists the game, if any;
4. a `finished` game ends with `game_ended` and its `end_reason` is that event's reason;
   the fields of model calls and people's answers that a re-simulation takes as stored
   (token counts, latency, HTTP status, finish reason, answer times) are within what the
   seat could have recorded (`_records`; docs/verify.md lists what each check covers);
5. re-simulating the log from its seed gives the same bytes: code agents play again from
   their spec and the seed, model seats and people have their recorded answers read again
   by their agent code, and every move is checked by the rules (`runner.replay`); the
   verdict says per seat which of these it got (`GameCheck.seats`).

A game that is `running` or `abandoned` is never verified: when every check above holds
for the events it has, it is reported as unfinished, a consistent prefix of a game.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, Literal, NamedTuple

import msgspec

from events import catalog
from events.agent import HumanAnswer, LLMCall, SeatAbandoned, finish_reason_fits
from events.catalog import END_TAG, START_TAG
from events.codec import encode, encode_each
from events.config import SeatSpec
from events.store import (
    DuckStore,
    GameNotFound,
    StoredColumns,
    StoredEvent,
    StoredGame,
    StoreError,
    decode_log,
    event_shape,
    event_shapes,
)
from runner.driver import rules_for
from runner.replay import SeatReplay, seat_checks
from runner.replay import verify as resimulate_and_compare

Outcome = Literal["verified", "failed", "unfinished"]

STATUSES = ("running", "finished", "abandoned")


class Problem(msgspec.Struct, frozen=True, kw_only=True):
    """Why a game is not verified: the first check that did not hold, and where."""

    check: str
    """seq, payload, encoding, type, actor, visible_to, turn, start, game, seed, config,
    seats, engine_version, status, end, end_reason, tournament, llm_call, human_answer,
    seat_abandoned, replay or unfinished."""
    seq: int | None
    """The event row concerned, if the problem is about one."""
    detail: str
    stored: str | None = None
    """The stored event, when a re-simulation produced another one."""
    replayed: str | None = None
    """The event the re-simulation produced instead."""


class GameCheck(msgspec.Struct, frozen=True, kw_only=True):
    """The verdict on one stored game."""

    game_id: str
    outcome: Outcome
    status: str
    """The game's stored status."""
    events: int
    """Event rows stored."""
    problem: Problem | None = None
    """Set unless the outcome is verified."""
    seats: tuple[SeatReplay, ...] = ()
    """How the re-simulation checked each seat (empty when a check before it failed)."""

    @property
    def ok(self) -> bool:
        """True only for a complete game that passed every check."""
        return self.outcome == "verified"


class ScheduledGame(msgspec.Struct, frozen=True, kw_only=True):
    """A tournament schedule row naming a game (table `tournament_games`)."""

    tournament: str
    index: int
    seed: int
    seats: str
    """JSON list of the agent specs, as scheduled."""
    game: str | None = None
    """The game scheduled, in a suite of games (None: the tournament's one game)."""


class Failed(Exception):
    """Carries the first failed check out of the comparison."""

    def __init__(self, check: str, seq: int | None, detail: str, **more: Any) -> None:
        super().__init__(detail)
        self.problem = Problem(check=check, seq=seq, detail=detail, **more)


SeatParser = Callable[[str], SeatSpec]


def _game_seat(game: str) -> SeatParser:
    """Reads a scheduled spec as `game` does (its code agents, the providers' options)."""
    from agents import parse_spec

    return lambda text: parse_spec(text, game)


def check_game(
    stored: StoredGame,
    schedule: Sequence[ScheduledGame] | None = None,
    *,
    parse_seat: SeatParser | None = None,
    rerun: bool = True,
    whole_store: bool = False,
) -> GameCheck:
    """Verify one stored game (see the module docstring for the checks, in order).

    `schedule` holds the tournament schedule rows that name this game (None when the store
    has no tournament tables); `parse_seat` turns a scheduled agent spec into the seat spec
    a game records. `rerun` plays code agents again and re-runs the seats that registered a
    replayer (model seats, people). `whole_store`: `schedule` was read from the game's whole
    store, so None means it holds no tournament (and a game naming one is refused).
    """
    status = stored.status
    seats: tuple[SeatReplay, ...] = ()
    try:
        game = _game_of(stored)
        events = _events(stored, game)
        _game_row(stored, events, game)
        _tournament(stored, events, schedule, parse_seat or _game_seat(game.name), whole_store)
        finished = _completeness(stored, events)
        _records(events)
        if events:
            seats = tuple(seat_checks(events, rerun=rerun))
        # Every stored payload was checked to be its event's canonical encoding (`_events`),
        # so the stored log's bytes are the payloads joined: no second encoding.
        encoded = "".join([f"{p}\n" for p in _payloads(stored.events)]).encode()
        played_as = _replay(events, prefix=not finished, rerun=rerun, encoded=encoded)
        if played_as is not None:
            seats = tuple(
                msgspec.structs.replace(
                    s,
                    why=f"{s.why}, as {played_as[s.seat]} (the version it was played with)",
                )
                if s.check == "rerun" and played_as[s.seat] != s.agent
                else s
                for s in seats
            )
    except Failed as f:
        return GameCheck(
            game_id=stored.game_id,
            outcome="failed",
            status=status,
            events=len(stored.events),
            problem=f.problem,
            seats=seats,
        )
    if finished:
        return GameCheck(
            game_id=stored.game_id,
            outcome="verified",
            status=status,
            events=len(events),
            seats=seats,
        )
    if not events:
        detail = f"status {status}, no events stored"
    else:
        ended = " (its log ends with game_ended)" if _is_end(events[-1]) else ""
        detail = (
            f"status {status}{ended}: its {len(events)} events are a consistent prefix"
            " of a game that has not finished"
        )
    return GameCheck(
        game_id=stored.game_id,
        outcome="unfinished",
        status=status,
        events=len(events),
        problem=Problem(check="unfinished", seq=None, detail=detail),
        seats=seats,
    )


# ---------------------------------------------------------------------------- the checks


def _audience_text(aud: Sequence[int] | None) -> str:
    if aud is None:
        return "NULL (every seat)"
    if not aud:
        return "[] (no seat)"
    return str(list(aud))


def _is_end(event: Any) -> bool:
    return bool(event.__struct_config__.tag == END_TAG)


def _game_of(stored: StoredGame) -> catalog.GameDef:
    """The definition of the game the row names; the log's first event must name it too."""
    named = _named(stored.events[0].payload) if stored.events else None
    log = f", the log's is {named!r}" if named else ""
    try:
        game = catalog.get(stored.game)
    except catalog.UnknownGame:
        raise Failed("game", 0, f"games.game is {stored.game!r}, no known game{log}") from None
    if game.name != stored.game:
        raise Failed("game", 0, f"games.game is {stored.game!r}, not a game's own name")
    # A start event decodes as any game's (the tag is shared); name the mix-up before it
    # shows as a payload in another game's encoding.
    if named is not None and named != game.name:
        raise Failed("game", 0, f"games.game is {stored.game!r}{log}")
    return game


def _named(payload: str) -> Any:
    """The game a start event names (logs from before games had names: the default game);
    None for anything else."""
    try:
        data = msgspec.json.decode(payload)
    except msgspec.MsgspecError:
        return None
    if not isinstance(data, dict) or data.get("type") != START_TAG:
        return None
    return data.get("game", catalog.DEFAULT_GAME)


def _events(stored: StoredGame, game: catalog.GameDef) -> list[Any]:
    """Decode every row, checking seq, canonical bytes and each column against the payload."""
    whole = _events_at_once(stored, game)
    if whole is not None:
        return whole
    decode = game.decoder.decode
    decoded: list[Any] = []
    bad: tuple[int, str] | None = None
    for i, row in enumerate(stored.events):
        try:
            decoded.append(decode(row.payload))
        except msgspec.MsgspecError as exc:
            bad = (i, f"the payload is not a known event: {exc}")
            break
    # The whole log encoded again in one call; the checks below still run event by event,
    # in the order they are documented.
    canonical = encode_each(decoded)
    turn_of = game.rules.turn_of
    turn = 0
    for i, row in enumerate(stored.events):
        seq = row.seq
        if seq != i:
            missing = f"seq {i}" if seq == i + 1 else f"seqs {i}..{seq - 1}"
            raise Failed("seq", i, f"{missing} missing: the next stored event is seq {seq}")
        if bad is not None and bad[0] == i:
            raise Failed("payload", seq, bad[1])
        event = decoded[i]
        if canonical[i] != row.payload:
            raise Failed(
                "encoding",
                seq,
                "the payload is not in its canonical encoding (the same event would be"
                " stored as other bytes)",
            )
        tag = event.__struct_config__.tag
        if row.type != tag:
            raise Failed("type", seq, f"the type column says {row.type!r}, the payload is {tag!r}")
        actor = event.actor()
        if row.actor != actor:
            raise Failed("actor", seq, f"the actor column says {row.actor}, the event's is {actor}")
        audience = event.audience()
        expected = None if audience is None else list(audience)
        if row.visible_to != expected:
            raise Failed(
                "visible_to",
                seq,
                f"visible_to is {_audience_text(row.visible_to)}, the event is for"
                f" {_audience_text(expected)}",
            )
        # The driver stamps each event with the turn in force, as the game's rules number
        # turns (Cattle Trade: a turn_started event opens its turn, before it is turn 0).
        turn = turn_of(event, turn)
        if row.turn != turn:
            raise Failed(
                "turn", seq, f"the turn column says {row.turn}, the event is in turn {turn}"
            )
    return decoded


def _events_at_once(stored: StoredGame, game: catalog.GameDef) -> list[Any] | None:
    """The decoded log when every row is exactly the row its event makes, found with one
    decode call and one comparison of all rows; None when any differs (or does not decode),
    and `_events` then goes row by row to name the first problem.

    The two agree: a row equal to its expected row holds the canonical encoding of the event
    decoded from it, so decoding it alone gives that event, and its columns are that event's.
    """
    rows = stored.events
    if not rows:
        return None
    n = len(rows)
    decoded = decode_log(game.name, "[" + ",".join(_payloads(rows)) + "]", n)
    if decoded is None:
        return None
    turn_of = game.rules.turn_of
    # The event types that may start a turn, when the rules say (the driver asks the same);
    # and each type's tag and actor field, and whether it answers `actor` or `audience`
    # itself (the store's table: read without a call when it does not).
    turn_types: frozenset[type] | None = getattr(game.rules, "TURN_TYPES", None)
    shapes = event_shapes()
    turn = 0
    # The expected rows column by column, compared with the stored columns (rows fetched as
    # columns are never made into tuples), or made into rows when the store gave rows.
    tags: list[str] = []
    turns: list[int] = []
    actors: list[int | None] = []
    visible: list[list[int] | None] = []
    for event in decoded:
        cls = event.__class__
        if turn_types is None or cls in turn_types:
            turn = turn_of(event, turn)
        tag, field, own_actor, own_audience = shapes.get(cls) or event_shape(cls)
        tags.append(tag)
        turns.append(turn)
        actors.append(
            event.actor() if own_actor else None if field is None else getattr(event, field)
        )
        audience = event.audience() if own_audience else None
        visible.append(None if audience is None else list(audience))
    expected = (list(range(n)), tags, turns, actors, visible, encode_each(decoded))
    if isinstance(rows, StoredColumns):
        same = rows.columns == expected
    else:
        same = list(zip(*expected, strict=True)) == rows
    return decoded if same else None


def _payloads(rows: Sequence[StoredEvent]) -> list[str]:
    """The payload of every row (a column as fetched, when the store gave columns)."""
    return rows.payloads if isinstance(rows, StoredColumns) else [r.payload for r in rows]


def _same(check: str, what: str, stored_text: str, value: Any, kind: type) -> None:
    """Fail unless `stored_text` is the canonical encoding of `value`."""
    expected = encode(value).decode()
    if stored_text == expected:
        return
    try:
        got: Any = msgspec.json.decode(stored_text, type=kind)
    except msgspec.MsgspecError:
        raise Failed(check, 0, f"games.{what} does not decode as a {what}") from None
    if got != value:
        raise Failed(check, 0, f"games.{what} differs from game_started's: {_diff(got, value)}")
    raise Failed(check, 0, f"games.{what} holds game_started's {what} in other bytes")


def _diff(got: Any, want: Any) -> str:
    """What differs between a stored value and the log's: fields, or seats."""
    a, b = msgspec.to_builtins(got), msgspec.to_builtins(want)
    if isinstance(a, dict) and isinstance(b, dict):
        keys = [k for k in {**b, **a} if a.get(k) != b.get(k)]
        return ", ".join(f"{k} is {a.get(k)!r} in the row, {b.get(k)!r} in the log" for k in keys)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple) and len(a) == len(b):
        parts = []
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x.get("agent") != y.get("agent"):
                parts.append(
                    f"seat {i} is {x.get('agent')!r} in the row, {y.get('agent')!r} in the log"
                )
            elif x != y:
                parts.append(f"seat {i} has other options in the row than in the log")
        return ", ".join(parts)
    return f"{len(a)} seat(s) in the row, {len(b)} in the log"


def _game_row(stored: StoredGame, events: Sequence[Any], game: catalog.GameDef) -> None:
    """The games row against the log's first event."""
    if not events:
        if stored.status == "finished":
            raise Failed("start", 0, "status is finished, but the game has no events")
        return
    start = events[0]
    if start.__struct_config__.tag != START_TAG:
        kind = start.__struct_config__.tag
        raise Failed("start", 0, f"the log starts with {kind}, not game_started")
    if stored.game != start.game:
        raise Failed("game", 0, f"games.game is {stored.game!r}, the log's is {start.game!r}")
    if stored.seed != start.seed:
        raise Failed("seed", 0, f"games.seed is {stored.seed}, the log's is {start.seed}")
    _same("config", "config", stored.config, start.config, game.config_type)
    _same("seats", "seats", stored.seats, start.seats, tuple[SeatSpec, ...])
    if stored.engine_version != start.engine_version:
        raise Failed(
            "engine_version",
            0,
            f"games.engine_version is {stored.engine_version!r}, the log's is"
            f" {start.engine_version!r}",
        )
    version = game.rules.version
    known = getattr(game.rules, "versions", (version,))
    if (
        start.engine_version not in known
        and rules_for(game, start.engine_version).version != start.engine_version
    ):
        raise Failed(
            "engine_version",
            0,
            f"recorded by engine {start.engine_version}; this is engine {version},"
            " which cannot vouch for it",
        )


def _tournament(
    stored: StoredGame,
    events: Sequence[Any],
    schedule: Sequence[ScheduledGame] | None,
    parse_seat: SeatParser,
    complete: bool = False,
) -> None:
    """The tournament schedule rows naming this game agree with its row and log (`complete`:
    a `schedule` of None means the store has no tournament tables at all)."""
    if schedule is None:
        # No tournament was ever stored here, so no game can belong to one.
        if complete and stored.tournament is not None:
            raise Failed(
                "tournament",
                None,
                f"games.tournament is {stored.tournament!r}, but the store holds no tournament",
            )
        return
    if not schedule:
        # A tournament game that is not finished may have been superseded by a replay under
        # a new id (resume does that); a finished one must still be on the schedule.
        if stored.tournament is not None and stored.status == "finished":
            raise Failed(
                "tournament", None, f"tournament {stored.tournament!r} does not schedule this game"
            )
        return
    for row in schedule:
        where = f"tournament {row.tournament!r} game {row.index}"
        if row.tournament != stored.tournament:
            raise Failed(
                "tournament",
                None,
                f"{where} names this game, whose games.tournament is {stored.tournament!r}",
            )
        if row.seed != stored.seed:
            raise Failed(
                "tournament", None, f"{where} has seed {row.seed}, the game has {stored.seed}"
            )
        if row.game is not None and row.game != stored.game:
            raise Failed(
                "tournament", None, f"{where} schedules {row.game}, the game is {stored.game}"
            )
        try:
            specs = msgspec.json.decode(row.seats, type=list[str])
            seats = tuple(parse_seat(s) for s in specs)
        except (msgspec.MsgspecError, ValueError) as exc:
            raise Failed("tournament", None, f"{where} has unreadable seats: {exc}") from None
        if events and seats != events[0].seats:
            got = [s.agent for s in events[0].seats]
            raise Failed("tournament", None, f"{where} seats {specs}, the game seats {got}")


def _completeness(stored: StoredGame, events: Sequence[Any]) -> bool:
    """Status and end reason against the end of the log; True for a finished game."""
    status = stored.status
    if status not in STATUSES:
        raise Failed("status", None, f"unknown status {status!r}")
    for i, e in enumerate(events[:-1]):
        if _is_end(e):
            raise Failed(
                "end", i, f"game_ended at seq {i} is followed by {len(events) - i - 1} events"
            )
    end = events[-1] if events and _is_end(events[-1]) else None
    if status != "finished":
        # A game stopped by an error keeps the error as its end reason (`session.FAILED`).
        failed = status == "abandoned" and (stored.end_reason or "").startswith("error: ")
        if stored.end_reason is not None and not failed:
            raise Failed(
                "end_reason",
                None,
                f"status is {status}, yet end_reason is {stored.end_reason!r}",
            )
        return False
    if end is None:
        last = events[-1].__struct_config__.tag
        raise Failed(
            "end",
            len(events),
            f"status is finished, but the log stops at seq {len(events) - 1} ({last})"
            " without game_ended",
        )
    if stored.end_reason != end.reason:
        raise Failed(
            "end_reason",
            len(events) - 1,
            f"games.end_reason is {stored.end_reason!r}, game_ended says {end.reason!r}",
        )
    return True


_RECORDS = (LLMCall, HumanAnswer, SeatAbandoned)
SLACK_MS = 1000.0
"""Time a recorded duration may run past its seat's limit (the clock is read around the
wait, not by it)."""
CALL_GRACE_S = 5.0
"""Seconds a model call may run past the seat's timeout before the transport gives it up."""
_STATUS_IN_ERROR = re.compile(r"\((\d{3})\)")


def _timeout(seat: SeatSpec) -> float | None:
    """The seat's time limit in seconds, when its options name one."""
    value = seat.options.get("timeout")
    try:
        return None if value is None else float(value)
    except (TypeError, ValueError):
        return None


def _duration(check: str, seq: int, what: str, ms: float, limit_s: float | None) -> None:
    if not math.isfinite(ms) or ms < 0:
        raise Failed(check, seq, f"{what} is {ms!r}, not a duration")
    if limit_s is not None and ms > limit_s * 1000.0 + SLACK_MS:
        raise Failed(
            check, seq, f"{what} is {ms:g} ms, longer than the seat's limit of {limit_s:g} s"
        )


def _records(events: Sequence[Any]) -> None:
    """Fields of agent records that a re-simulation copies from the log, each within what its
    seat could have recorded; the rest of each record is made again by the re-simulation."""
    if not events:
        return
    seats = getattr(events[0], "seats", ())
    for seq, e in enumerate(events):
        kind = type(e)
        if kind not in _RECORDS:
            continue
        spec = seats[e.seat] if 0 <= e.seat < len(seats) else None
        if kind is LLMCall:
            _llm_call(seq, e, spec)
            continue
        if spec is None or spec.agent.split(":", 1)[0].split("?", 1)[0] != "human":
            agent = "no seat" if spec is None else repr(spec.agent)
            raise Failed(kind.__struct_config__.tag, seq, f"seat {e.seat} is {agent}, not a person")
        what = "elapsed_ms"
        _duration(kind.__struct_config__.tag, seq, what, e.elapsed_ms, _human_timeout(spec))


def _human_timeout(spec: SeatSpec) -> float:
    from agents.human import DEFAULT_TIMEOUT

    limit = _timeout(spec)
    return DEFAULT_TIMEOUT if limit is None else limit


def _llm_call(seq: int, e: LLMCall, spec: SeatSpec | None) -> None:
    """One model call's copied fields: tokens, latency, status, finish reason."""
    check = "llm_call"
    if spec is None or spec.agent.split(":", 1)[0] != e.provider:
        agent = "no seat" if spec is None else repr(spec.agent)
        raise Failed(check, seq, f"a {e.provider} call of seat {e.seat}, which is {agent}")
    for name in ("input_tokens", "output_tokens", "reasoning_tokens"):
        if getattr(e, name) < 0:
            raise Failed(check, seq, f"{name} is {getattr(e, name)}, below 0")
    if e.reasoning_tokens > e.output_tokens:
        # Providers count reasoning tokens among the output tokens.
        raise Failed(
            check,
            seq,
            f"reasoning_tokens {e.reasoning_tokens} exceed output_tokens {e.output_tokens}"
            " (reasoning is part of the output)",
        )
    if e.provider == "anthropic" and e.reasoning_tokens:
        raise Failed(check, seq, "an anthropic call reports no reasoning tokens apart")
    limit = _timeout(spec)
    _duration(
        check, seq, "latency_ms", e.latency_ms, None if limit is None else limit + CALL_GRACE_S
    )
    if e.error is None:
        if e.status is not None or e.retry_after is not None:
            raise Failed(check, seq, f"status {e.status} recorded on a call that did not fail")
    else:
        if e.finish_reason is not None:
            raise Failed(check, seq, f"finish_reason {e.finish_reason!r} on a failed call")
        if e.parse_stage is not None:
            raise Failed(check, seq, f"a failed call read as {e.parse_stage!r}")
        if e.status is not None:
            named = _STATUS_IN_ERROR.search(e.error)
            if not 100 <= e.status <= 599 or (named and int(named.group(1)) != e.status):
                raise Failed(check, seq, f"status {e.status} does not match the error {e.error!r}")
        elif e.retry_after is not None:
            raise Failed(check, seq, "retry_after recorded without an HTTP status")
    finish = e.finish_reason
    if finish is not None and not finish_reason_fits(e.provider, finish, e.base_url):
        raise Failed(check, seq, f"finish_reason {finish!r} is not one {e.provider} gives")


def _replay(
    events: Sequence[Any], *, prefix: bool, rerun: bool, encoded: bytes | None = None
) -> tuple[str, ...] | None:
    """Re-simulate and compare byte for byte (a prefix may stop where a writer stopped);
    return the agents the seats were played as when an earlier version reproduced them.
    `encoded`: the stored log's bytes (`encode_log(events)`), when already known."""
    if not events:
        return None
    result = resimulate_and_compare(events, rerun=rerun, prefix=prefix, encoded=encoded)
    if result.ok:
        return result.played_as
    if result.error:
        raise Failed("replay", result.mismatch, f"re-simulation failed: {result.error}")
    seq = result.mismatch
    if result.expected is not None:
        raise Failed(
            "replay",
            seq,
            _why_different(result.expected, result.got),
            stored=result.expected,
            replayed=result.got,
        )
    raise Failed(
        "replay",
        seq,
        f"the stored log has {result.stored} events, re-simulation produces {result.replayed}",
    )


def _why_different(stored: str, replayed: str | None) -> str:
    """The detail of a re-simulation mismatch; a model call whose prompt alone differs is named
    as such, since it means the game was recorded by a build that writes other prompts."""
    plain = "re-simulation produces another event here"
    try:
        a, b = json.loads(stored), json.loads(replayed or "")
    except ValueError:
        return plain
    if not (isinstance(a, dict) and isinstance(b, dict)):
        return plain
    if a.get("type") != "llm_call" or b.get("type") != "llm_call":
        return plain
    if a.get("messages") != b.get("messages"):
        return (
            "re-simulation writes another prompt here: the stored prompt differs from the one"
            " this build writes (a build with other prompts recorded the game, or the text was"
            " altered), so its model seats cannot be re-created"
        )
    return plain


def continuation_refused(stored: StoredGame, *, parse_seat: SeatParser | None = None) -> str | None:
    """Why the unfinished game `stored` must not be continued (None: it may be).

    Continuing a game appends to its log; a log that fails a check would be extended into a
    finished game that can never be verified, so it is refused before anything is played.
    """
    check = check_game(stored, parse_seat=parse_seat)
    if check.outcome != "failed" or check.problem is None:
        return None
    p = check.problem
    where = f" at seq {p.seq}" if p.seq is not None else ""
    return (
        f"game {stored.game_id} cannot be continued: its stored log fails the {p.check!r}"
        f" check{where} ({p.detail}); `cattle verify` shows every problem"
    )


# ---------------------------------------------------------------------------- many games


class SelectionError(ValueError):
    """A selection of games that names nothing checkable (the message says why)."""


EXIT_FAILED = 1
"""Exit code when a game failed a check."""
EXIT_UNFINISHED = 3
"""Exit code when no game failed but one is unfinished (and that was not allowed)."""


class Job(NamedTuple):
    """One game to check, with the schedule rows that name it (None: no tournament tables)."""

    game_id: str
    schedule: list[ScheduledGame] | None


def check_stored(store: DuckStore, job: Job) -> GameCheck:
    """Read one game's rows from `store` and check them."""
    return check_game(store.load_rows(job.game_id), job.schedule, whole_store=True)


def verify_stored(store: DuckStore, game_id: str) -> GameCheck:
    """The full check of one stored game (by its exact id)."""
    return check_stored(store, next(jobs(store, [game_id])))


_reader: DuckStore | None = None
"""A worker process's own read-only connection (DuckDB connections do not cross a fork)."""
_reader_error: str | None = None


def _start_worker(db: str) -> None:
    global _reader, _reader_error
    try:
        _reader = DuckStore(db, read_only=True)
    except StoreError as exc:
        _reader_error = str(exc)


def _check_in_worker(job: Job) -> GameCheck:
    if _reader is None:
        raise StoreError(_reader_error or "the worker has no connection to the store")
    return check_stored(_reader, job)


# ---------------------------------------------------------------------------- selection


def _has_schedule(store: DuckStore) -> bool:
    _, rows = store.query(
        "SELECT count(*) FROM information_schema.tables WHERE table_name = 'tournament_games'"
    )
    return bool(rows[0][0])


def _schedules(store: DuckStore) -> dict[str, list[ScheduledGame]] | None:
    """Every schedule row by game id, or None when the store has no tournament tables."""
    if not _has_schedule(store):
        return None
    _, cols = store.query(
        "SELECT count(*) FROM information_schema.columns"
        " WHERE table_name = 'tournament_games' AND column_name = 'game'"
    )
    # Stores scheduled before suites of games have no game column: every game is the
    # tournament's own.
    game = "game" if cols[0][0] else "NULL"
    _, rows = store.query(
        f"SELECT game_id, tournament, idx, seed, seats, {game} FROM tournament_games"
        " ORDER BY tournament, idx"
    )
    found: dict[str, list[ScheduledGame]] = {}
    for gid, name, idx, seed, seats, scheduled in rows:
        found.setdefault(gid, []).append(
            ScheduledGame(tournament=name, index=idx, seed=seed, seats=seats, game=scheduled)
        )
    return found


def resolve(store: DuckStore, game_id: str) -> str:
    """The full id of a game given by id or unique prefix."""
    _, rows = store.query("SELECT game_id FROM games WHERE game_id = ?", [game_id])
    if not rows and game_id:
        _, rows = store.query(
            "SELECT game_id FROM games WHERE starts_with(game_id, ?) ORDER BY game_id", [game_id]
        )
        if len(rows) > 1:
            raise SelectionError(f"{game_id!r} matches {len(rows)} games; give more of the id")
    if not rows:
        raise GameNotFound(f"no game {game_id!r} in {store.path}")
    return str(rows[0][0])


def select(
    store: DuckStore, ids: Sequence[str], tournament: str | None, every: bool
) -> tuple[list[str], list[GameCheck]]:
    """The games to check, oldest first, and the scheduled games that are not stored."""
    if ids:
        return list(dict.fromkeys(resolve(store, g) for g in ids)), []
    where, params = ("", []) if every else ("WHERE tournament = ?", [tournament])
    _, rows = store.query(f"SELECT game_id FROM games {where} ORDER BY created_at, game_id", params)
    chosen = [str(r[0]) for r in rows]
    missing: list[GameCheck] = []
    if _has_schedule(store):
        where = "" if every else "AND t.tournament = ?"
        _, rows = store.query(
            "SELECT t.tournament, t.idx, t.game_id FROM tournament_games t"
            f" LEFT JOIN games g ON g.game_id = t.game_id WHERE g.game_id IS NULL {where}"
            " ORDER BY t.tournament, t.idx",
            params,
        )
        for name, idx, gid in rows:
            detail = f"tournament {name!r} schedules game {idx}, which is not stored"
            missing.append(
                GameCheck(
                    game_id=gid,
                    outcome="unfinished",
                    status="not stored",
                    events=0,
                    problem=Problem(check="unfinished", seq=None, detail=detail),
                )
            )
    if not chosen and not missing:
        which = "stored" if every else f"of tournament {tournament!r}"
        raise SelectionError(f"no games {which} in {store.path}")
    return chosen, missing


def jobs(store: DuckStore, ids: Sequence[str]) -> Iterator[Job]:
    """The games `ids`, each with the tournament schedule rows that name it."""
    schedules = _schedules(store)
    for gid in ids:
        yield Job(gid, None if schedules is None else schedules.get(gid, []))


# ---------------------------------------------------------------------------- checking


_ROWS_BATCH = 64
"""Games whose rows one query reads when checking in this process."""


def checks_of(
    store: DuckStore, todo: Iterator[Job], workers: int
) -> Generator[GameCheck, None, None]:
    """Checks in the order of `todo`: here, or in a pool of `workers` processes, each of
    which reads its games through its own read-only connection."""
    if workers <= 1:
        # Rows are read many games to a query (each query reads the whole events table).
        while batch := list(itertools.islice(todo, _ROWS_BATCH)):
            loaded = store.load_rows_many([job.game_id for job in batch], batch=_ROWS_BATCH)
            for job, stored in zip(batch, loaded, strict=True):
                yield check_game(stored, job.schedule, whole_store=True)
        return
    pool = ProcessPoolExecutor(
        max_workers=workers, initializer=_start_worker, initargs=(store.path,)
    )
    try:
        queued: deque[Future[GameCheck]] = deque()
        for job in todo:
            queued.append(pool.submit(_check_in_worker, job))
            if len(queued) >= 4 * workers:
                yield queued.popleft().result()
        while queued:
            yield queued.popleft().result()
    finally:
        # Stopping early: drop what has not started, let running checks end.
        pool.shutdown(wait=True, cancel_futures=True)


def is_bad(check: GameCheck, allow_unfinished: bool) -> bool:
    """True for a game that makes the command fail."""
    return check.outcome == "failed" or (check.outcome == "unfinished" and not allow_unfinished)


def exit_code(checks: Sequence[GameCheck], allow_unfinished: bool) -> int:
    """0 when every game passed, EXIT_FAILED if one failed, else EXIT_UNFINISHED."""
    if any(c.outcome == "failed" for c in checks):
        return EXIT_FAILED
    if not allow_unfinished and any(c.outcome == "unfinished" for c in checks):
        return EXIT_UNFINISHED
    return 0
