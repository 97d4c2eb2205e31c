"""A person at the terminal of Are You the Traitor? and Two Rooms and a Boom: `cattle play
--agents human,...` in a real subprocess, answers scripted on stdin. What each panel draws
is checked against the stored log (the seat's role, name and card, its own words and the
answers it heard), and the game verifies from its log."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from events.gamebench import traitor as te
from events.gamebench import two_rooms as tr
from tests.human.test_human_cli import play, replays, stored, tags


def panels(err: str) -> list[str]:
    """The text inside each of seat 0's question panels, in the order they were shown."""
    out: list[str] = []
    inside: list[str] | None = None
    for line in err.splitlines():
        if line.startswith("╭") and "Seat 0 (human)" in line:
            inside = []
        elif line.startswith("╰") and inside is not None:
            out.append("\n".join(inside))
            inside = None
        elif inside is not None:
            inside.append(line.strip("│").strip())
    return out


def said(err: str) -> list[str]:
    """What the person played, as the terminal reported it."""
    return [line[len("Played: ") :] for line in err.splitlines() if line.startswith("Played: ")]


def test_traitor_person_sees_the_table_and_the_talk_it_heard(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    # seed 3: the person asks in round 1 and is polled to stop in round 2 (picked by number).
    lines = "Ask Player B: who holds the key?\nAsk Player C: who holds the key?\n1\n" * 20
    agents = ",".join(["human"] + ["random"] * 4)
    done = play(db, "gamebench:are_you_the_traitor", "quick", agents, 3, lines, columns=160)
    assert done.returncode == 0, done.stderr[-2000:]
    _, log = stored(db)
    shown = panels(done.stderr)
    assert len(shown) == len([e for e in log if tags([e]) == ["human_answer"] and e.error is None])
    told = {e.round: e for e in log if isinstance(e, te.AytRoleTold) and e.seat == 0}
    team = {"traitor": "evil", "evil wizard": "evil"}
    for panel in shown:
        rnd = int(panel.split("Round ", 1)[1].split()[0])
        me = told[rnd]
        assert f"│ Player {me.name} (you) │ {me.role}" in panel
        side = team.get(me.role, "good")
        assert f"You are Player {me.name}, the {me.role} ({side} team)." in panel
        # Of the others it knows the wizards as wizards, and (as the traitor) the key holder.
        rows = [line.split("│")[1:3] for line in panel.splitlines() if line.startswith("│ Player ")]
        assert len(rows) == 5
        for who, what in rows:
            name = who.split()[1]
            if name == me.name:
                continue
            knows = {"unknown", "a wizard, good or evil"}
            if me.key_holder == name:
                knows = {"key holder", "key holder (a wizard)"}
            assert what.strip() in knows, (name, what)
    asks = [e for e in log if isinstance(e, te.AytAsked) and e.speaker == told[e.round].name]
    assert asks and said(done.stderr)[0].startswith('{"type":"ask"')
    # The person's question and its answer are in the talk of the next panel.
    (ask,) = asks
    (reply,) = [e for e in log if isinstance(e, te.AytAnswered) and (e.round, e.exchange) == (1, 1)]
    assert f"you to {ask.to}: {ask.text}" in shown[1]
    assert f"{reply.speaker}: {reply.text}" in shown[1]
    assert "Respond with JSON" not in done.stderr
    replays(log)


def _heard(log: list[Any], seat: int) -> list[Any]:
    return [e for e in log if (a := e.audience()) is None or seat in a]


def test_two_rooms_person_sees_its_rooms_card_and_questions(tmp_path: Path) -> None:
    db = tmp_path / "r.duckdb"
    # Under the default ask talk: the person answers, picks whom to ask (by number) and asks.
    lines = "".join(f"Say: is your card blue? ({i})\n1\n" for i in range(60))
    agents = ",".join(["human"] + ["random"] * 5)
    done = play(db, "gamebench:two_rooms_and_a_boom", "standard", agents, 3, lines, columns=160)
    assert done.returncode == 0, done.stderr[-2000:]
    _, log = stored(db)
    shown = panels(done.stderr)
    assert len(shown) >= 6
    (setup,) = [e for e in log if isinstance(e, tr.TrSetUp)]
    (card,) = [e for e in log if isinstance(e, tr.TrCardDealt) and e.seat == 0]
    me = setup.names[0]
    for panel in shown:
        assert f"{me} (you) [{card.colour}" in panel
        # No other seat's card is drawn (the game ends with the person's last answer).
        rows = [line.split("│")[2] for line in panel.splitlines() if line[:3] in ("│ 0", "│ 1")]
        people = [p.strip() for row in rows for p in row.split(", ")]
        assert len(people) == len(setup.names)
        assert all(p.endswith("[?]") for p in people if "(you)" not in p), people
    # The rooms of the first panel are the set-up's.
    for room in (0, 1):
        names = sorted(n for s, n in enumerate(setup.names) if setup.rooms[s] == room)
        row = next(line for line in shown[0].splitlines() if line.startswith(f"│ {room} "))
        assert sorted(w.split(" ")[0] for w in row.split("│")[2].strip().split(", ")) == names
    # Every question and answer of the person is in the talk of a later panel (its last
    # answer ends the game: no panel follows it).
    mine = [e for e in log if isinstance(e, tr.TrAsked | tr.TrAnswered) and e.seat == 0]
    assert {type(e) for e in mine} == {tr.TrAsked, tr.TrAnswered}
    text = "\n".join(shown)
    for e in mine[:-1]:
        to = setup.names[e.to if isinstance(e, tr.TrAsked) else e.asker]
        assert f"you to {to} (round {e.round}, room {e.room}): {e.text}" in text, e
    # What the seat heard is what its log holds: no question it was not party to is drawn.
    heard = _heard(log, 0)
    for e in log:
        if isinstance(e, tr.TrAsked | tr.TrAnswered) and e not in heard:
            assert e.text == "" or e.text not in text
    assert "human_answer" in tags(log)
    replays(log)
