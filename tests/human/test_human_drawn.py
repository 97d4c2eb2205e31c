"""GameBench's boards at the terminal (`agents.human.drawn`): drawn from the viewer's frame of
what the seat has seen, they hold the rules' facts the seat may know, and never change when
another seat's hidden facts do."""

from __future__ import annotations

import re
from typing import Any

import msgspec
import pytest
from rich.console import Console

from agents import make_agents
from agents.human.agent import seat_frame
from agents.human.board import asked, board, last_ask
from agents.human.drawn import drawing
from events import catalog
from runner.driver import Game


def played(name: str, preset: str | None, seed: int) -> tuple[Any, list[Any]]:
    gdef = catalog.get(name)
    config = gdef.preset(preset or gdef.default_preset)
    players = int(getattr(config, "players", 2))
    log = list(Game(config, seed, make_agents(["random"] * players, seed, config)).run().events)
    return gdef, log


def shown(gdef: Any, log: list[Any], seat: int) -> str:
    """The terminal drawing of `seat`'s view after `log`, as plain text."""
    view = gdef.new_view(seat).sync(log)
    frame = seat_frame(gdef, seat, view)
    drawn = drawing(frame)
    assert drawn is not None, gdef.name
    console = Console(width=100, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(drawn)
    return console.export_text()


GAMES = [
    ("gamebench:santorini", None, 3),
    ("gamebench:codenames", None, 3),
    ("gamebench:sea_battle", None, 3),
    ("gamebench:hive", "short", 3),
    ("gamebench:pit", "quick", 3),
    ("gamebench:air_land_sea", None, 3),
    ("gamebench:arctic_scavengers", None, 3),
    ("gamebench:are_you_the_traitor", "quick", 3),
    ("gamebench:two_rooms_and_a_boom", None, 3),
]


@pytest.mark.parametrize(("name", "preset", "seed"), GAMES, ids=[g[0].split(":")[1] for g in GAMES])
def test_each_board_draws_at_the_terminal_under_the_question(
    name: str, preset: str | None, seed: int
) -> None:
    gdef, log = played(name, preset, seed)
    # The last decision of seat 0: its panel is the drawing with the question under it.
    cut = max(
        i
        for i in range(2, len(log))
        if (d := gdef.rules.pending(gdef.rules.fold(log[:i]))) is not None and 0 in d.seats
    )
    prefix = log[:cut]
    decision = gdef.rules.pending(gdef.rules.fold(prefix))
    view = gdef.new_view(0).sync(prefix)
    prompt = gdef.prompter.decision_prompt(view, decision, "full", None)
    panel = board(gdef.name, gdef.prompter, view, decision, prompt, seat_frame(gdef, 0, view))
    console = Console(width=100, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(panel)
    text = console.export_text()
    situation = getattr(gdef.prompter, "situation", None)
    said = asked(situation(view, decision)) if situation is not None else last_ask(prompt)
    ask = " ".join(said.split())
    assert ask and " ".join(text.split()).endswith(ask)
    assert shown(gdef, prefix, 0) in text


def test_santorini_terminal_grid_is_the_rules_state() -> None:
    gdef, log = played("gamebench:santorini", None, 3)
    state = gdef.extras["state_data"](gdef.rules.fold(log))
    text = shown(gdef, log, 1)
    rows = [line for line in text.splitlines() if re.match(r"^│ \d ", line)]
    assert len(rows) == 5
    at = {tuple(rc): p for p, rc in state["pawns"].items() if rc is not None}
    for r, line in enumerate(rows):
        cells = [c.strip() for c in line.strip("│").split("│")[1:]]
        for c, cell in enumerate(cells):
            h = state["heights"][r][c]
            assert cell.startswith("4 dome" if h >= 4 else str(h)), (r, c, cell)
            assert cell.endswith(f" {at[(r, c)]}") if (r, c) in at else cell in ("4 dome", str(h))


def _swapped(log: list[Any], seat: int, change: Any) -> list[Any]:
    """`log` with `change` applied to every event `seat` may not see."""
    out = []
    for e in log:
        audience = e.audience()
        if audience is not None and seat not in audience:
            e = change(e)
        out.append(e)
    return out


def test_traitor_and_two_rooms_terminal_drawings_are_blind_to_other_seats() -> None:
    from events.gamebench import traitor as te
    from events.gamebench import two_rooms as tr

    def traitor(e: Any) -> Any:
        if isinstance(e, te.AytRoleTold):
            return msgspec.structs.replace(e, role="guard" if e.role != "guard" else "traitor")
        if isinstance(e, te.AytTreasureDrawn):
            return msgspec.structs.replace(e, card="crown jewels")
        return e

    def rooms(e: Any) -> Any:
        if isinstance(e, tr.TrCardDealt):
            return msgspec.structs.replace(e, colour="red" if e.colour == "blue" else "blue")
        if isinstance(e, tr.TrSaid | tr.TrAsked | tr.TrAnswered):  # open talk, and the ask talk
            return msgspec.structs.replace(e, text="LEAK " + e.text)
        return e

    for name, preset, change in (
        ("gamebench:are_you_the_traitor", "quick", traitor),
        ("gamebench:two_rooms_and_a_boom", "open", rooms),
    ):
        gdef, log = played(name, preset, 3)
        seen = set()
        for end in range(5, len(log), max(1, len(log) // 12)):
            mine = shown(gdef, log[:end], 0)
            assert mine == shown(gdef, _swapped(log[:end], 0, change), 0), (name, end)
            seen.add(mine)
        assert len(seen) > 3, name  # the drawing follows the game
        if name.endswith("boom"):
            # The seat's own card is drawn as it is (a colour in brackets is no markup).
            (mine,) = [e for e in log if isinstance(e, tr.TrCardDealt) and e.seat == 0]
            assert f"(you) [{mine.colour}" in shown(gdef, log, 0)
        # The edit does reach a seat that saw it.
        other = _swapped(log, 0, change)
        assert any(shown(gdef, log, s) != shown(gdef, other, s) for s in range(1, 5)), name


def test_textarena_terminal_conversation_is_what_the_seat_was_shown() -> None:
    from events.textarena.game import ActionTaken, RoleDealt

    gdef = catalog.get("mindgames:mafia")
    config = gdef.extras["configure"]("mindgames:mafia")
    players = int(config.players)
    log = list(Game(config, 3, make_agents(["random"] * players, 3, config)).run().events)
    text = shown(gdef, log, 0)
    (role,) = [e.role for e in log if isinstance(e, RoleDealt) and e.seat == 0]
    assert f"You are Player 0, role {role}." in text
    said = [e.action.strip() for e in log if isinstance(e, ActionTaken) and e.player == 0]
    mine = [line[len("you: ") :].strip() for line in text.splitlines() if line.startswith("you: ")]
    assert mine and mine == said[-len(mine) :]


def test_two_rooms_ask_talk_says_who_asked_whom() -> None:
    """Under the default ask talk the conversation says whom each question was put to and
    whose question each answer answers; a leader told an answer between two others reads the
    question with it. The random players' empty words are given here as numbered ones."""
    from events.gamebench import two_rooms as tr

    gdef, played_log = played("gamebench:two_rooms_and_a_boom", None, 3)
    log, n = [], 0
    for e in played_log:
        if isinstance(e, tr.TrAsked):
            n += 1
            e = msgspec.structs.replace(e, text=f"question {n}")
        elif isinstance(e, tr.TrAnswered):
            (q,) = [
                x
                for x in log
                if isinstance(x, tr.TrAsked)
                and (x.seat, x.to, x.round) == (e.asker, e.seat, e.round)
            ]
            e = msgspec.structs.replace(e, question=q.text, text=f"answer to {q.text}")
        log.append(e)
    (setup,) = [e for e in log if isinstance(e, tr.TrSetUp)]
    letter = setup.names
    told = 0
    for i, e in enumerate(log):
        if not isinstance(e, tr.TrAnswered):
            continue
        where = f"(round {e.round}, room {e.room})"
        asked = f"{letter[e.asker]} to {letter[e.seat]} {where}: {e.question}"
        answered = f"{letter[e.seat]} to {letter[e.asker]} {where}: {e.text}"
        for seat in {e.seat, e.asker, e.leader} - {-1}:
            text = shown(gdef, log[: i + 1], seat)
            mine = letter[seat]
            # The seat's own words are "you" (whom they were said to keeps its letter).
            want = [f"you{w[1:]}" if w[0] == mine else w for w in (asked, answered)]
            for w in want:
                assert w in text, (seat, w, text)
            told += seat not in (e.seat, e.asker)
    assert told > 0  # a leader was told an answer between two others


def grid_cells(text: str) -> list[str]:
    """The cells of the first boxed grid in a rich drawing, row by row, each cell's lines
    joined (a cell wraps when its column is narrow)."""
    cells: list[str] = []
    row: list[list[str]] = []
    inside = False
    for line in text.splitlines():
        if line.startswith(("┌", "├", "└")):
            cells += [" ".join(parts) for parts in row]
            row = []
            if line.startswith("└") and inside:
                break
            inside = True
        elif inside and line.startswith("│"):
            parts = [c.strip() for c in line.strip().strip("│").split("│")]
            if not row:
                row = [[] for _ in parts]
            for k, c in enumerate(parts):
                if c:
                    row[k].append(c)
    return cells


def _mindgames(name: str, seed: int) -> tuple[Any, list[Any]]:
    gdef = catalog.get(name)
    config = gdef.extras["configure"](name)
    players = int(config.players)
    return gdef, list(
        Game(config, seed, make_agents(["random"] * players, seed, config)).run().events
    )


def test_prisoners_payoffs_at_the_terminal_are_what_the_seat_was_told() -> None:
    from events.textarena.game import ActionTaken, Observed

    gdef, log = _mindgames("mindgames:ipd3", 3)
    # Each round's row: both choices of each pair with their points, then each player's
    # points of the round and total, as the game's result message told the seat.
    text = shown(gdef, log, 1)
    rows = [line for line in text.splitlines() if re.match(r"^│ +\d │", line)]
    assert len(rows) == 5
    told = [e.text for e in log if isinstance(e, Observed) and e.seat == 1]
    results = re.findall(
        r"chose to (\w+) and (\w+) respectively \(Player \d gained (\d+), Player \d gained (\d+)\)",
        "".join(told),
    )
    scores = re.findall(
        r"Current scores: Player 0 \((\d+)\); Player 1 \((\d+)\); Player 2 \((\d+)\)", "".join(told)
    )
    assert len(results) == 15 and len(scores) == 5
    for n, row in enumerate(rows):
        cells = [c.strip() for c in row.strip("│").split("│")]
        pairs = [
            f"{a[0].upper()}{pa} {b[0].upper()}{pb}" for a, b, pa, pb in results[3 * n : 3 * n + 3]
        ]
        assert cells[1:4] == pairs, n
        assert [c.split("=")[1] for c in cells[4:]] == list(scores[n]), n

    # Another seat's decisions and what it alone was told leave the drawing as it was, at
    # every point; the edit reaches the seat that made them.
    def change(e: Any) -> Any:
        if isinstance(e, ActionTaken):
            flip = {"cooperate": "defect", "defect": "cooperate"}
            return msgspec.structs.replace(
                e, action=re.sub(r"cooperate|defect", lambda m: flip[m.group(0)], e.action)
            )
        if isinstance(e, Observed):
            return msgspec.structs.replace(e, text=e.text.replace("gained", "took"))
        return e

    first = next(i for i, e in enumerate(log) if isinstance(e, Observed) and e.seat == 1)
    seen = set()
    for end in range(first + 1, len(log) + 1, 4):
        mine = shown(gdef, log[:end], 1)
        assert mine == shown(gdef, _swapped(log[:end], 1, change), 1), end
        seen.add(mine)
    assert len(seen) > 3
    other = _swapped(log, 1, change)
    assert shown(gdef, log, 0) != shown(gdef, other, 0)


def test_textarena_codenames_at_the_terminal_is_the_board_the_seat_may_know() -> None:
    from events.textarena.game import Observed

    gdef, log = _mindgames("mindgames:codenames", 3)
    env = gdef.rules.fold(log).env
    colours = {"R": "red", "B": "blue", "N": "neutral", "A": "assassin"}
    guessed = set(env.state.game_state["guessed_words"])
    assert guessed
    for seat in range(4):
        text = shown(gdef, log, seat)
        cells = dict(
            re.fullmatch(r"\d+\. (\w+) ?[\[(]?(\w*)[\])]?", c).groups()  # type: ignore[union-attr]
            for c in grid_cells(text)
        )
        assert list(cells) == list(env.board), seat
        for word, team in env.board.items():
            known = cells[word]
            if seat in (0, 2):
                assert known == colours[team], (seat, word)  # the spymaster's key
            elif known:
                assert word in guessed and known == colours[team], (seat, word)
        role = "spymaster" if seat in (0, 2) else "operative"
        assert f"You are the {'red' if seat < 2 else 'blue'} {role}." in text

    # The key the spymasters were shown, swapped, leaves an operative's drawing as it was.
    swap = {"R": "B", "B": "R", "N": "A", "A": "N"}

    def change(e: Any) -> Any:
        if isinstance(e, Observed) and "Codenames Words:" in e.text:
            head, board = e.text.split("Codenames Words:", 1)
            board = re.sub(
                r"(?m)^(\w+ +)([RBNA])\b", lambda m: m.group(1) + swap[m.group(2)], board
            )
            return msgspec.structs.replace(e, text=head + "Codenames Words:" + board)
        return e

    first = next(i for i, e in enumerate(log) if isinstance(e, Observed) and e.seat == 1)
    for end in range(first + 1, len(log) + 1, 5):
        assert shown(gdef, log[:end], 1) == shown(gdef, _swapped(log[:end], 1, change), 1), end
    assert shown(gdef, log, 0) != shown(gdef, _swapped(log, 1, change), 0)


def test_two_player_prisoners_payoffs_add_up_to_the_rules_scores() -> None:
    gdef = catalog.get("textarena:IteratedPrisonersDilemma-v0")
    config = gdef.extras["configure"]("textarena:IteratedPrisonersDilemma-v0")
    log = list(Game(config, 3, make_agents(["random", "random"], 3, config)).run().events)
    scores = gdef.rules.fold(log).env.state.game_state["scores"]
    text = shown(gdef, log, 0)
    rows = [line for line in text.splitlines() if re.match(r"^│ +\d+ │", line)]
    assert len(rows) == 10
    cells = [c.strip() for c in rows[-1].strip("│").split("│")]
    assert [int(c.split("=")[1]) for c in cells[2:]] == [scores[0], scores[1]]
