"""Code agents of TextArena games: a random player for any environment, and small rule-based
players for MindGames' four games.

Every agent reads only its seat's view: TextArena's observation text for its player (and its
own secret role), and answers with an action string in the format the game asks for. Every
generator derives from the game seed and the seat, so a game replays.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

from agents.base import Agent
from engine.textarena.rules import registry
from engine.textarena.words import TOPICS, clashes, topic_of
from events.config import ConfigError
from events.textarena.game import TextArenaConfig

_OPTION = re.compile(r"\[[^\[\]\n]{1,40}\]")


def _rng(seed: int, seat: int, name: str) -> random.Random:
    return random.Random(f"{seed}:{name}:{seat}")


def parse_options(spec: str) -> dict[str, int]:
    """The options of a code agent spec: only `stream=N` (0 to 1000000), which gives the
    agent a generator of its own, so that one kind can sit at several seats of a tournament
    under distinct names (`mafia-random?stream=2`); `ValueError` in one line otherwise."""
    kind, _, query = spec.partition("?")
    out: dict[str, int] = {}
    for item in filter(None, query.split("&")):
        key, eq, value = item.partition("=")
        if key != "stream":
            raise ValueError(f"agent {kind!r} has no option {key!r} (options: stream)")
        if key in out:
            raise ValueError(f"option {key!r} is given twice")
        if not (eq and value.isdigit() and int(value) <= 1_000_000):
            raise ValueError(f"stream must be a whole number from 0 to 1000000, got {value!r}")
        out[key] = int(value)
    return out


def configured_agent(spec: str, seat: int, seed: int, config: Any) -> Agent:
    """A code agent from a spec carrying options (`random?stream=2`)."""
    kind = spec.partition("?")[0]
    stream = parse_options(spec).get("stream", 0)
    agent: Agent = CODE_AGENTS[kind](seat, seed, config)
    if stream:
        fresh = _rng(seed, seat, f"{agent.spec}?stream={stream}")
        for holder in (agent, getattr(agent, "inner", None)):
            if holder is not None and hasattr(holder, "rng"):
                holder.rng = fresh
    return agent


def _options(text: str) -> list[str]:
    """The bracketed choices of the last line of `text` that lists two or more of them."""
    for line in reversed(text.splitlines()):
        found = _OPTION.findall(line)
        if len(found) >= 2:
            return list(dict.fromkeys(found))
    return []


class _Base(Agent):
    """A code agent playing one MindGames game (`preset`), refused elsewhere in one line."""

    preset = ""
    spec = ""

    def __init__(self, seat: int, seed: int, config: TextArenaConfig) -> None:
        super().__init__(seat, seed, config)
        if self.preset and config.preset != self.preset:
            raise ConfigError(f"{self.spec} plays mindgames:{self.preset} only")
        self.rng = _rng(seed, seat, self.spec)


# ---------------------------------------------------------------------------- Colonel Blotto


def _blotto_shape(config: TextArenaConfig) -> tuple[list[str], int]:
    kwargs = registry()[config.env_id].kwargs
    fields = [chr(ord("A") + i) for i in range(int(kwargs.get("num_fields", 3)))]
    return fields, int(kwargs.get("num_total_units", 20))


def _blotto_text(fields: list[str], units: list[int]) -> str:
    return "[" + " ".join(f"{f}{u}" for f, u in zip(fields, units, strict=True)) + "]"


class BlottoUniform(_Base):
    """Splits every unit among the fields uniformly at random (all splits equally likely)."""

    preset = "blotto"
    spec = "blotto-uniform"

    def act(self, view: Any, decision: Any) -> str:
        fields, total = _blotto_shape(self.config)
        cuts = sorted(self.rng.sample(range(total + len(fields) - 1), len(fields) - 1))
        edges = [-1, *cuts, total + len(fields) - 1]
        units = [edges[i + 1] - edges[i] - 1 for i in range(len(fields))]
        return _blotto_text(fields, units)


class BlottoConcentrate(_Base):
    """Concentrates on a bare majority of fields (chosen at random each round), splitting
    the units evenly among them and leaving the others empty."""

    preset = "blotto"
    spec = "blotto-concentrate"

    def act(self, view: Any, decision: Any) -> str:
        fields, total = _blotto_shape(self.config)
        chosen = sorted(self.rng.sample(range(len(fields)), len(fields) // 2 + 1))
        units = [0] * len(fields)
        for k, i in enumerate(chosen):
            units[i] = total // len(chosen) + (1 if k < total % len(chosen) else 0)
        return _blotto_text(fields, units)


# ---------------------------------------------------------------------------- three-player IPD

_RESULT = re.compile(
    r"Player (\d+) vs Player (\d+) chose to (cooperate|defect) and (cooperate|defect)"
)


def _ipd_deciding(text: str) -> bool:
    """True when the seat's latest observation asks for decisions rather than chat."""
    return text.rfind("Chat finished for round") > text.rfind("Starting Round")


def _ipd_history(text: str, seat: int) -> dict[int, list[str]]:
    """Per opponent, what it chose against `seat` in each round so far."""
    seen: dict[int, list[str]] = {}
    for i, j, a, b in _RESULT.findall(text):
        pi, pj = int(i), int(j)
        if pi == seat:
            seen.setdefault(pj, []).append(b)
        elif pj == seat:
            seen.setdefault(pi, []).append(a)
    return seen


class _IPD(_Base):
    preset = "ipd3"
    chat = "I intend to cooperate with everyone who cooperates with me."

    def choose(self, opponent: int, history: list[str]) -> str:
        raise NotImplementedError

    def act(self, view: Any, decision: Any) -> str:
        text = view.observation
        if not _ipd_deciding(text):
            return self.chat
        seen = _ipd_history(text, self.seat)
        others = [p for p in range(self.config.players) if p != self.seat]
        return " ".join(f"[{p} {self.choose(p, seen.get(p, []))}]" for p in others)


class AlwaysCooperate(_IPD):
    """Cooperates with everyone, every round."""

    spec = "ipd-cooperate"

    def choose(self, opponent: int, history: list[str]) -> str:
        return "cooperate"


class AlwaysDefect(_IPD):
    """Defects against everyone, every round."""

    spec = "ipd-defect"
    chat = "Let us all cooperate."

    def choose(self, opponent: int, history: list[str]) -> str:
        return "defect"


class TitForTat(_IPD):
    """Cooperates first, then does to each opponent what it did to this seat last round."""

    spec = "ipd-tft"

    def choose(self, opponent: int, history: list[str]) -> str:
        return history[-1] if history else "cooperate"


class GrimTrigger(_IPD):
    """Cooperates with each opponent until it defects once, then defects against it forever."""

    spec = "ipd-grim"

    def choose(self, opponent: int, history: list[str]) -> str:
        return "defect" if "defect" in history else "cooperate"


# ---------------------------------------------------------------------------- Codenames

_CLUE = re.compile(r"Spymaster of (Red|Blue) team, Player \d+, submitted \[(\w+) (\d+)\]")


def _board(text: str) -> list[tuple[str, str, bool]]:
    """The latest board: (word, label, revealed) per word. A spymaster sees every label (the
    key) and "revealed" after found words; an operative sees the labels of found words only."""
    start = text.rfind("Codenames Words:")
    if start < 0:
        return []
    rows = []
    for line in text[start:].splitlines()[1:]:
        parts = line.split()
        if not parts or not parts[0].isalpha() or not parts[0].islower():
            break
        word, rest = parts[0], parts[1:]
        label = rest[0] if rest and rest[0] in ("R", "B", "N", "A") else ""
        rows.append((word, label, "revealed" in rest))
    return rows


def _team(seat: int) -> str:
    return "R" if seat in (0, 1) else "B"


class CodenamesTopics(_Base):
    """Spymaster: names the topic (the shipped similarity table) holding the most of its
    team's unfound words and no assassin, with that count. Operative: guesses the unfound
    board words of the clue's topic, then passes."""

    preset = "codenames"
    spec = "codenames-topics"

    def act(self, view: Any, decision: Any) -> str:
        text = view.observation
        board = _board(text)
        if self.seat in (0, 2):
            return self.clue(board)
        return self.guess(text, board)

    def clue(self, board: list[tuple[str, str, bool]]) -> str:
        team = _team(self.seat)
        words = [w for w, _, _ in board]
        counts: Counter[str] = Counter()
        risky: set[str] = set()
        for w, label, revealed in board:
            topic = topic_of().get(w)
            if topic is None or revealed:
                continue
            if label == team:
                counts[topic] += 1
            elif label == "A":
                risky.add(topic)
        usable = [(n, t) for t, n in counts.items() if t not in risky and not clashes(t, words)]
        if not usable:
            usable = [(n, t) for t, n in counts.items() if not clashes(t, words)]
        if not usable:
            return "[pass 1]"
        n, topic = max(usable, key=lambda x: (x[0], x[1]))
        return f"[{topic} {n}]"

    def guess(self, text: str, board: list[tuple[str, str, bool]]) -> str:
        team = "Red" if _team(self.seat) == "R" else "Blue"
        clues = [c for c in _CLUE.findall(text) if c[0] == team]
        if not clues:
            return "[pass]"
        topic = clues[-1][1]
        for w, label, _ in board:
            if not label and topic_of().get(w) == topic:
                return f"[{w}]"
        return "[pass]"


class CodenamesRandom(_Base):
    """Spymaster: a random topic name with a random count of 1 to 3. Operative: a random
    unfound board word, or a pass one time in five."""

    preset = "codenames"
    spec = "codenames-random"

    def act(self, view: Any, decision: Any) -> str:
        board = _board(view.observation)
        if self.seat in (0, 2):
            words = [w for w, _, _ in board]
            topics = [t for t in TOPICS if not clashes(t, words)]
            return f"[{self.rng.choice(topics)} {self.rng.randint(1, 3)}]"
        hidden = [w for w, label, _ in board if not label]
        if not hidden or self.rng.random() < 0.2:
            return "[pass]"
        return f"[{self.rng.choice(hidden)}]"


# ---------------------------------------------------------------------------- Secret Mafia

_PLAYER = re.compile(r"Player (\d+)")
_ACCUSE = re.compile(
    r"\[Player (\d+)\][^\n]*?(?:suspect|mafia|vote|lying|liar)[^\n]*?Player (\d+)", re.I
)


def _mafia_talking(text: str) -> bool:
    """True when the seat is asked to speak in the day's discussion, not to vote or act."""
    day = text.rfind("Day breaks.")
    later = max(text.rfind("Voting phase"), text.rfind("Night phase"), text.rfind("Night has"))
    return day > later


def _teammates(text: str) -> set[int]:
    m = re.search(r"Your teammates are: ([^\n]*)", text)
    return {int(x) for x in _PLAYER.findall(m.group(1))} if m else set()


class MafiaRandom(_Base):
    """Votes and acts at night for a random valid target; says a short line by day."""

    preset = "mafia"
    spec = "mafia-random"

    def act(self, view: Any, decision: Any) -> str:
        text = view.observation
        if _mafia_talking(text):
            return "I have no firm read yet; let us hear everyone."
        options = _options(text)
        return self.rng.choice(options) if options else "[Player 0]"


class MafiaAccuser(_Base):
    """Votes for the valid target the day's talk accused most (ties: lowest number), never
    for itself nor a known teammate; by day accuses that same player."""

    preset = "mafia"
    spec = "mafia-accuser"

    def target(self, text: str, options: list[str]) -> str | None:
        """The option to vote for (`options` empty: the player to accuse, as "[Player N]")."""
        numbered = {int(n): o for o in options for n in re.findall(r"\d+", o)[:1]}
        barred = {self.seat, *_teammates(text)}
        counts: Counter[int] = Counter(int(b) for a, b in _ACCUSE.findall(text) if int(a) != int(b))
        pool = [p for p in (numbered or range(self.config.players)) if p not in barred]
        if not pool:
            return None
        best = max(pool, key=lambda p: (counts[p], -p))
        return numbered.get(best, f"[Player {best}]")

    def act(self, view: Any, decision: Any) -> str:
        text = view.observation
        if _mafia_talking(text):
            pick = self.target(text, [])
            return f"I suspect {pick[1:-1] if pick else 'nobody yet'} is mafia."
        options = _options(text)
        pick = self.target(text, options)
        return pick or (options[0] if options else "[Player 0]")


# ---------------------------------------------------------------------------- any game

_BY_PRESET: dict[str, type[_Base]] = {
    "blotto": BlottoUniform,
    "ipd3": AlwaysCooperate,
    "codenames": CodenamesRandom,
    "mafia": MafiaRandom,
}


class RandomAgent(Agent):
    """A valid action wherever the format allows: in MindGames' games that game's random
    player (IPD: cooperate or defect at random); elsewhere one of the bracketed choices the
    latest observation lists, or a bracketed random number when it lists none."""

    spec = "random"

    def __init__(self, seat: int, seed: int, config: TextArenaConfig) -> None:
        super().__init__(seat, seed, config)
        self.rng = _rng(seed, seat, "random")
        own = _BY_PRESET.get(config.preset or "")
        self.inner: Agent | None = own(seat, seed, config) if own is not None else None
        if isinstance(self.inner, _Base):
            self.inner.rng = self.rng

    def act(self, view: Any, decision: Any) -> str:
        if self.config.preset == "ipd3" and _ipd_deciding(view.observation):
            others = [p for p in range(self.config.players) if p != self.seat]
            return " ".join(f"[{p} {self.rng.choice(('cooperate', 'defect'))}]" for p in others)
        if self.inner is not None:
            return str(self.inner.act(view, decision))
        options = _options(view.observation)
        if options:
            return self.rng.choice(options)
        return f"[{self.rng.randint(0, 9)}]"


CODE_AGENTS: dict[str, Any] = {
    cls.spec: cls
    for cls in (
        RandomAgent,
        BlottoUniform,
        BlottoConcentrate,
        AlwaysCooperate,
        AlwaysDefect,
        TitForTat,
        GrimTrigger,
        CodenamesTopics,
        CodenamesRandom,
        MafiaRandom,
        MafiaAccuser,
    )
}
"""Code agents by name."""
