"""What a Sea Battle seat sees, how an event reads, and the prompts of a model seat.

`SeaBattleView` folds exactly the events a seat may see: the chart, every turn once played,
its team's damage reports, and its own sealed plans, refusals and explained rules. Another
ship's plan reaches it only when the turn is played.

Under the gamebench rules a model seat is shown what GameBench's `get_observation`
(games/sea_battle.py at 8721bb9) tells a ship, in the project's words and in the same order:
the rock border and the board's size, every ship afloat by owner (its own, a teammate's, an
opponent's) with its square and heading, the last 20 entries of GameBench's rock list (six
border squares, then the rocks inside in the order they were drawn), and its own damage with
the damage that sinks it; then the eight plans with what each does. GameBench shows neither
the last turn nor a map, so neither is shown here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from engine.gamebench.sea_battle import (
    CHOICES,
    IDLE_PLAN,
    PlanDecision,
    SetPlan,
    listed_rocks,
)
from events import agent as ae
from events.gamebench import sea_battle as se
from events.gamebench.sea_battle import (
    HEADINGS_COMPASS,
    SHIPS,
    TEAM_SIZE,
    SeaBattleConfig,
    Ship,
    rules_of,
    team_of,
    team_seats,
)
from projections import editions
from projections.gamebench import common
from projections.gamebench.common import (
    PrompterBase,
    RuleBook,
    ViewBase,
    answer_schema,
    explain_pattern,
    instruction,
    read_line,
    rules_lines,
)


class SbObservation(msgspec.Struct, frozen=True, kw_only=True):
    """What one Sea Battle seat knows at a point of the game."""

    seat: int
    turn: int
    ships: tuple[Ship | None, ...]
    rocks: tuple[tuple[int, int], ...]
    team_damage: tuple[int, ...]
    """Damage of this seat's team's ships (as last reported)."""
    plan: str | None
    """This seat's sealed plan for the turn in progress."""
    explained: tuple[str, ...]
    ended: bool
    pending: Any = None


class SeaBattleView(ViewBase):
    """Incremental fold of the events visible to one Sea Battle seat."""

    def __init__(self, seat: int) -> None:
        super().__init__(seat)
        self.config: SeaBattleConfig | None = None
        self.rules = "prototype"
        self.rocks: tuple[tuple[int, int], ...] = ()
        self.ships: tuple[Ship | None, ...] = ()
        self.turn = 0
        self.turns: list[se.SbTurnPlayed] = []
        self.team_damage: tuple[int, ...] = (0, 0, 0)
        self.plan: str | None = None
        self.refusals: list[se.SbRequestRefused] = []
        self.end: se.SbEnded | None = None

    @property
    def team(self) -> int:
        """This seat's team."""
        return team_of(self.seat)

    def fold(self, e: Any) -> None:
        """Take one visible event into the view."""
        match e:
            case se.SbPlanSealed():
                self.plan = e.plan
            case se.SbTurnPlayed():
                self.turns.append(e)
                if e.phases:
                    self.ships = e.phases[-1].ships
                self.turn = e.turn + 1
                self.plan = None
            case se.SbDamageReport():
                self.team_damage = e.damage
            case se.SbRequestRefused():
                self.refusals.append(e)
            case se.SbStarted():
                self.config = e.config
                self.rules = rules_of(e)
            case se.SbCharted():
                self.rocks = e.rocks
                self.ships = e.ships
                self.turn = 1
            case se.SbEnded():
                self.ended = True
                self.end = e

    def snapshot(self, pending: Any = None) -> SbObservation:
        """The seat's knowledge as a value, with the decision asked of it (if any)."""
        asked = pending if pending is not None and self.seat in pending.seats else None
        return SbObservation(
            seat=self.seat,
            turn=self.turn,
            ships=self.ships,
            rocks=self.rocks,
            team_damage=self.team_damage,
            plan=self.plan,
            explained=tuple(self.explained),
            ended=self.ended,
            pending=asked,
        )


# --------------------------------------------------------------------------- timeline


def _at(s: Ship | None) -> str:
    if s is None:
        return "sunk"
    return f"({s.x},{s.y}) {HEADINGS_COMPASS[s.heading]}"


def _phase_line(p: se.Phase) -> str:
    parts = []
    if p.kind == "fire":
        parts += [
            f"{SHIPS[sh.seat]} fires {sh.side}"
            + (f", hits {SHIPS[sh.hit]}" if sh.hit is not None else "")
            for sh in p.shots
        ]
    parts += [f"{SHIPS[h.seat]} -{h.damage} ({h.cause})" for h in p.hits if h.cause != "cannon"]
    parts += [f"{SHIPS[i]} sinks" for i in p.sunk]
    head = f"  {p.kind} {p.step}: "
    if p.kind == "fire":
        return head + ("; ".join(parts) or "no shot")
    where = " ".join(f"{SHIPS[i]}{_at(s)}" for i, s in enumerate(p.ships) if s is not None)
    return head + ("; ".join(parts) + " | " if parts else "") + where


def _turn_line(e: se.SbTurnPlayed) -> str:
    """A whole turn on one line: the plans, the damage taken, the ships sunk, where all are."""
    plans = " ".join(f"{SHIPS[i]}:{p}" for i, p in enumerate(e.plans) if p)
    damage: dict[int, int] = {}
    for ph in e.phases:
        for h in ph.hits:
            damage[h.seat] = damage.get(h.seat, 0) + h.damage
    hurt = ", ".join(f"{SHIPS[i]} -{d}" for i, d in sorted(damage.items())) or "no damage"
    sunk = [SHIPS[i] for ph in e.phases for i in ph.sunk]
    ships = e.phases[-1].ships if e.phases else ()
    where = " ".join(f"{SHIPS[i]}{_at(s)}" for i, s in enumerate(ships) if s is not None)
    return (
        f"Turn {e.turn}: plans {plans}; {hurt}"
        + (f"; sunk {', '.join(sunk)}" if sunk else "")
        + f"; now {where}"
    )


def describe(e: Any, viewer: int | None = None) -> str | None:
    """One line of text for a Sea Battle event, worded for `viewer` (None: omniscient)."""
    match e:
        case se.SbTurnPlayed():
            return _turn_line(e)
        case se.SbPlanSealed():
            return f"  ship {SHIPS[e.seat]} seals its plan {e.plan}"
        case se.SbDamageReport():
            ds = ", ".join(
                f"{SHIPS[s]} {d}" for s, d in zip(team_seats(e.team), e.damage, strict=True)
            )
            return f"  team {e.team} damage after turn {e.turn}: {ds}"
        case se.SbRuleExplained():
            return f"  ship {SHIPS[e.seat]} reads the rules on {e.heading!r}"
        case se.SbRequestRefused():
            return f"! ship {SHIPS[e.seat]}: {e.reason}"
        case se.SbCharted():
            ships = ", ".join(f"{SHIPS[i]} {_at(s)}" for i, s in enumerate(e.ships))
            return f"Sea charted: {len(e.rocks)} rocks inside the ring; {ships}"
        case se.SbStarted():
            agents = ", ".join(f"{SHIPS[i]}={s.agent}" for i, s in enumerate(e.seats))
            return f"Sea Battle started ({e.config.name}, seed {e.seed}): {agents}"
        case se.SbEnded():
            who = f"team {e.winner} wins" if e.winner is not None else "a draw"
            return f"Game over after {e.turns} turn(s) ({e.reason}): {who}; damage {list(e.damage)}"
        case ae.LLMCall():
            what = e.error or f"{e.finish_reason}, parsed: {e.parse_stage}"
            return f"  [{e.provider}:{e.model}] ship {SHIPS[e.seat]} {e.decision}/{e.stage}: {what}"
        case ae.ActionDefaulted():
            return f"! ship {SHIPS[e.seat]}'s {e.decision} defaulted to {e.action} ({e.reason})"
    return None


def timeline(events: Sequence[Any], seat: int | None = None) -> list[str]:
    """Every event `seat` may see (all when None), one line each."""
    return common.timeline(describe, events, seat)


# --------------------------------------------------------------------------- prompts


ROCK = {1: "R", 2: "#"}
"""How the sea's grid marks a rock, per edition of the prompts (from edition 2 `#`: `R` is
also the move that turns right)."""


def book(c: SeaBattleConfig, edition: int = editions.CURRENT) -> RuleBook:
    """The rules as a model sees them (GameBench's headings, in the project's words, and the
    plan's own headings), with this configuration's numbers."""
    rock = ROCK[min(edition, 2)]
    return RuleBook(
        title="Sea Battle",
        summary="Sink all of the other team's ships before they sink all of your team's.",
        sections=(
            (
                "Teams",
                "Two teams of three ships: A, B and C against X, Y and Z. Each player sails one ship.",
            ),
            (
                "Board",
                f"The sea is a {c.size} by {c.size} grid. Its outer ring and some squares"
                f" inside are rocks ({rock}); ships sit on open water (.).",
            ),
            (
                "Gameplay",
                "Each turn every player chooses, in secret, how their ship moves and fires; then"
                " all plans are carried out together, step by step.",
            ),
            (
                "Plan",
                "A plan is eight tokens, a movement token then a cannon token, four times"
                " (e.g. FnLlRbWn). All ships make move 1 together, then fire volley 1, then"
                " move 2, and so on.",
            ),
            (
                "Movement",
                "F: one square ahead. L: one square ahead, a quarter turn to the left, one"
                " square ahead. R: the same to the right. W: stay. North is up.",
            ),
            (
                "Cannons",
                f"n: hold fire. l: fire one cannonball to the left side. r: to the right side."
                f" b: both sides (two cannonballs). A ship has {c.cannonballs} cannonballs per"
                f" turn. A cannonball flies up to {c.reach} squares sideways and hits the first"
                " ship in its way, friend or foe; a rock stops it.",
            ),
            (
                "Damage",
                f"A ship takes damage when it is hit by a cannonball ({c.cannon_damage}), sails"
                f" into a rock ({c.rock_damage}; it stays put), or collides with another ship"
                f" ({c.ram_damage} each; ships that try to enter the same square or each"
                " other's square, or a square a ship keeps, stay where they were).",
            ),
            (
                "Sinking",
                f"A ship with {c.hull} damage sinks at once and takes no further part.",
            ),
            (
                "Winning",
                "A team wins when it has a ship afloat and all the other team's ships are sunk."
                f" If both sink together, or after {c.max_turns} turns, it is a draw.",
            ),
        ),
    )


LABELS: dict[str, str] = {
    "Ll": "move left then shoot left",
    "Lr": "move left then shoot right",
    "Fl": "move forward then shoot left",
    "Fr": "move forward then shoot right",
    "Rl": "move right then shoot left",
    "Rr": "move right then shoot right",
    "Wl": "don't move then shoot left",
    "Wr": "don't move then shoot right",
}
"""The eight plans of the gamebench rules by the names GameBench gives its actions."""

MOVE_TEXT = {
    "L": "Sail one square ahead, make a quarter turn to the left and sail one more square",
    "F": "Sail one square ahead",
    "R": "Sail one square ahead, make a quarter turn to the right and sail one more square",
    "W": "Stay where you are",
}
SIDE_TEXT = {
    "l": "fire a cannonball off your left side",
    "r": "fire a cannonball off your right side",
}


def gamebench_book(c: SeaBattleConfig) -> RuleBook:
    """The rules under the gamebench rules: GameBench's summary and six headings (from its
    `rules` at 8721bb9), in the project's words and with nothing GameBench does not say."""
    return RuleBook(
        title="Sea Battle",
        summary="Sink every ship of the other team before they sink every ship of yours.",
        sections=(
            ("Teams", "Each team starts the game with three ships, one for each player."),
            (
                "Board",
                f"The sea is a {c.size} by {c.size} grid. Rocks take up some squares and the"
                " players' ships take up others.",
            ),
            (
                "Gameplay",
                "Every turn each player chooses how its ship moves and which side it fires to;"
                " everyone's choices are then carried out at the same time.",
            ),
            (
                "Damage",
                "A ship takes damage in three ways: a cannonball from another ship hits it, it"
                " sails into a rock, or it runs into another ship.",
            ),
            (
                "Sinking",
                "A ship that has taken enough damage sinks and plays no more in this game.",
            ),
            (
                "Winning",
                "A team wins when it still has a ship afloat and every ship of the other team"
                " has sunk.",
            ),
        ),
    )


def gamebench_observation(view: SeaBattleView) -> str:
    """What GameBench's observation tells a ship (see the module docstring)."""
    c = view.config
    assert c is not None
    lines = [f"Rocks run all along the edge of the {c.size} by {c.size} sea."]
    for i, s in enumerate(view.ships):
        if s is None:
            continue
        whose = (
            "Your ship"
            if i == view.seat
            else ("A ship of your team" if team_of(i) == view.team else "A ship of the other team")
        )
        lines.append(f"{whose}: at ({s.x}, {s.y}), heading {HEADINGS_COMPASS[s.heading].title()}.")
    listed = ", ".join(f"({x}, {y})" for x, y in listed_rocks(c.size, view.rocks))
    lines.append(f"Further rocks: {listed}")
    mine = view.team_damage[view.seat % TEAM_SIZE]
    lines.append(f"Your ship has taken {mine} damage; at {c.hull} it sinks.")
    return "\n".join(lines)


def gamebench_decision_text(mode: str) -> str:
    """The question under the gamebench rules: the eight plans and what each does."""
    return "\n".join(
        [
            "Choose how your ship moves and where it fires this turn. Your choices:",
            *(f"- {LABELS[t]}: {MOVE_TEXT[t[0]]}, then {SIDE_TEXT[t[1]]}." for t in CHOICES),
            "Example: Action: move forward then shoot left",
            instruction(mode),
        ]
    )


def parse_choice(text: str, seat: int) -> tuple[Any, str, str | None]:
    """(action or None, how it was read, error or None) under the gamebench rules: one of the
    eight plans by its name (case, spaces and punctuation aside) or its two letters."""
    candidate, stage, error = read_line(text)
    if not isinstance(candidate, str):
        return candidate, stage, error
    wanted = common.key(candidate)
    for token, label in LABELS.items():
        if common.key(label) == wanted:
            return SetPlan(seat=seat, plan=token), stage, None
    letters = "".join(ch for ch in candidate if ch.isalpha())
    if len(letters) == 2 and letters[0].upper() + letters[1].lower() in LABELS:
        return SetPlan(seat=seat, plan=letters[0].upper() + letters[1].lower()), stage, None
    return None, "failed", f"{candidate[:60]!r} is not one of the eight plans"


def board_lines(view: SeaBattleView, edition: int = editions.CURRENT) -> list[str]:
    """The sea as a grid: . water, a rock, a letter a ship; columns and rows numbered (from
    edition 2 every column by its whole number, not its last digit). Under the gamebench
    rules the top row is the northmost (GameBench's y grows northwards)."""
    c = view.config
    assert c is not None
    n = c.size
    rock = ROCK[min(edition, 2)]
    grid = [["." for _ in range(n)] for _ in range(n)]
    for x in range(n):
        grid[0][x] = grid[n - 1][x] = rock
    for y in range(n):
        grid[y][0] = grid[y][n - 1] = rock
    for x, y in view.rocks:
        grid[y][x] = rock
    for i, s in enumerate(view.ships):
        if s is not None:
            grid[s.y][s.x] = SHIPS[i]
    rows = list(enumerate(grid))
    if view.rules == "gamebench":
        rows.reverse()
    if edition < 2:
        head = "   " + " ".join(str(x % 10) for x in range(n))
        return [head, *(f"{y:>2} " + " ".join(row) for y, row in rows)]
    w = len(str(n - 1))
    head = "   " + " ".join(f"{x:>{w}}" for x in range(n))
    return [
        head,
        *(f"{y:>2} " + " ".join(f"{cell:>{w}}" for cell in row) for y, row in rows),
    ]


def observation_text(view: SeaBattleView, edition: int = editions.CURRENT) -> str:
    """What the seat sees: its ship and team, the sea, every ship's place, the last turn."""
    c = view.config
    assert c is not None
    me = SHIPS[view.seat]
    mates = "".join(SHIPS[i] for i in team_seats(view.team))
    foes = "".join(SHIPS[i] for i in team_seats(1 - view.team))
    ships = [
        f"{SHIPS[i]}: " + (_at(s) if s is not None else "sunk") for i, s in enumerate(view.ships)
    ]
    dmg = ", ".join(
        f"{SHIPS[s]} {d}" for s, d in zip(team_seats(view.team), view.team_damage, strict=True)
    )
    lines = [
        f"You sail ship {me}. Your team: {', '.join(mates)}; the other team: {', '.join(foes)}.",
        f"Turn {view.turn} of at most {c.max_turns}. Your team's damage: {dmg} (a ship sinks"
        f" at {c.hull}).",
        "",
        f"SEA (x across, y down; {ROCK[min(edition, 2)]} rock, . water):",
        *board_lines(view, edition),
        "",
        "SHIPS (x,y) heading: " + "; ".join(ships),
    ]
    if view.turns:
        last = view.turns[-1]
        lines += ["", "LAST TURN:", *(_phase_line(p) for p in last.phases)]
    return "\n".join(lines)


def decision_text(view: SeaBattleView, d: PlanDecision, mode: str) -> str:
    """The question: the plan of this turn."""
    return "\n".join(
        [
            f"YOUR PLAN FOR TURN {d.turn}: eight tokens, move then cannon, four times.",
            "Moves: F forward, L forward-turn left-forward, R forward-turn right-forward,"
            f" W wait. Cannons: n none, l left, r right, b both ({d.cannonballs} cannonballs"
            " this turn; b uses two).",
            "Example: Action: FnLlFrWn",
            instruction(mode),
        ]
    )


def parse_answer(text: str, decision: Any, seat: int) -> tuple[Any, str, str | None]:
    """(action or None, how it was read, error or None) from a model's answer."""
    candidate, stage, error = read_line(text)
    if not isinstance(candidate, str):
        return candidate, stage, error
    tokens = "".join(ch for ch in candidate if ch.isalpha())
    if candidate.lower().startswith("plan"):
        tokens = tokens[4:]
    if len(tokens) != 8:
        return None, "failed", f"{candidate[:60]!r} is not a plan of eight tokens"
    return SetPlan(seat=seat, plan=tokens), stage, None


@dataclass(frozen=True)
class SeaBattlePrompter(PrompterBase):
    """Prompts and answer reading of model seats in Sea Battle (the `Prompter` protocol)."""

    title: str = "Sea Battle"
    playing: str = "a board game in a team against another team"

    def decision_prompt(self, view: Any, decision: Any, memory: str, rejection: Any) -> str:
        """Rules (progressive), what the seat sees, and the question."""
        assert view.config is not None
        if view.rules == "gamebench":
            return "\n".join(
                [
                    *rules_lines(gamebench_book(view.config), view.explained),
                    "",
                    gamebench_observation(view),
                    "",
                    gamebench_decision_text(self.mode),
                ]
            )
        return "\n".join(
            [
                *rules_lines(book(view.config, self.edition), view.explained),
                "",
                observation_text(view, self.edition),
                "",
                decision_text(view, decision, self.mode),
            ]
        )

    def answer_schema(self, view: Any, decision: Any) -> dict[str, Any]:
        """The JSON schema of an answer (seats with ``output=json_schema``): a plan of eight
        tokens or `Explain(<heading>)` for a heading not explained yet."""
        assert view.config is not None
        if view.rules == "gamebench":
            labels = [LABELS[t] for t in CHOICES]
            labels += [
                f"Explain({h})"
                for h in gamebench_book(view.config).headings
                if h not in view.explained
            ]
            return answer_schema(self.mode, {"type": "string", "enum": labels})
        left = [h for h in book(view.config).headings if h not in view.explained]
        plan = "([FLRW][nlrb]){4}"
        pattern = f"^({plan}|{explain_pattern(left)})$" if left else f"^{plan}$"
        return answer_schema(self.mode, {"type": "string", "pattern": pattern})

    def parse(self, text: str, decision: Any, seat: int) -> tuple[Any, str, str | None]:
        """A model's answer read into an action."""
        if getattr(decision, "rules", "prototype") == "gamebench":
            return parse_choice(text, seat)
        return parse_answer(text, decision, seat)

    def default_action(self, decision: Any, seat: int) -> Any:
        """Played when no usable answer came: under the prototype rules stay and hold fire all
        turn; under the gamebench rules an empty plan, which the rules replace by one of the
        eight drawn from the seed (GameBench plays a random action for an unusable answer)."""
        if getattr(decision, "rules", "prototype") == "gamebench":
            return SetPlan(seat=seat, plan="")
        return SetPlan(seat=seat, plan=IDLE_PLAN)


# --------------------------------------------------------------------------- viewer frames

HEADINGS = ("north", "east", "south", "west")
"""A ship's heading by its number."""


def frames(viewer: int | str | None) -> tuple[Any, dict[str, list[Any]]]:
    """The viewer's frames (`extras["frames"]`): a seat's observation text and its sea chart
    (every ship's place and heading is public; damage is known for the seat's own team only,
    from the reports it was sent)."""
    seat = viewer if isinstance(viewer, int) else 0
    view = SeaBattleView(seat)
    seen: list[Any] = []

    def step(e: Any) -> dict[str, Any]:
        seen.append(e)
        view.sync(seen, [None] * len(seen))
        c = view.config
        if c is None or not view.ships:
            return {"kind": "text", "text": "(the sea is not charted yet)"}
        mine = isinstance(viewer, int)
        up = view.rules == "gamebench"
        if mine:
            text = gamebench_observation(view) if up else observation_text(view)
        else:
            axes = "x across, y up" if up else "x across, y down"
            text = "\n".join([f"SEA ({axes}; R rock, . water):", *board_lines(view)])
        damage: dict[str, int] = {}
        if mine:
            for s, d in zip(team_seats(view.team), view.team_damage, strict=True):
                damage[SHIPS[s]] = d
        ships = [
            {
                "ship": SHIPS[i],
                "team": team_of(i),
                "x": s.x if s is not None else None,
                "y": s.y if s is not None else None,
                "heading": HEADINGS[s.heading % 4] if s is not None else None,
                "damage": damage.get(SHIPS[i]),
            }
            for i, s in enumerate(view.ships)
        ]
        board = {
            "game": "sea_battle",
            "size": c.size,
            "rocks": [list(r) for r in view.rocks],
            "ships": ships,
            "hull": c.hull,
            "turn": view.turn,
            "max_turns": c.max_turns,
            "me": SHIPS[seat] if mine else None,
            "ended": view.ended,
            "y_up": up,
        }
        return {"kind": "text", "text": text, "board": board}

    return step, {}
