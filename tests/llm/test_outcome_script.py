"""Property: a model's scripted answers (legal, illegal by the rules, unparsable, lenient) over
one small game of each family, played through the real openai SDK against a loopback server,
are stored with the classes the script meant; `cattle costs`' rates stay within 0-100 % and
agree with `llm_outcomes`; the Python reading of the verdicts agrees with the views."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from agents.llm.loopback import Answer, Incoming, LegalPolicy, LoopbackServer
from engine.cattle.presets import load_preset
from engine.textarena.mindgames import PRESETS as MINDGAMES
from events import catalog
from events.agent import judged
from events.store import DuckStore
from projections.costs import CLASSES, usage
from runner.session import play_and_store
from runner.verify import check_game

from .helpers import seat, set_env

INTENTS = ("legal", "illegal", "unparsable", "lenient")


def _legal(req: Incoming) -> str:
    return LegalPolicy(trade_bias=0.0)(req).text


def _prose_json(req: Incoming) -> str:
    return f"Let me think.\nMy answer: {_legal(req)}\nThat is all."


def _no_action_line(req: Incoming) -> str:
    text = _legal(req).splitlines()[-1]
    return "I weigh the options.\n" + text.removeprefix("Action:").strip()


def _cattle_illegal(req: Incoming) -> str | None:
    """A bid that is not a multiple of 10 (the rules round it down and say so)."""
    return json.dumps({"action": "bid", "amount": 15}) if req.kind == "bid" else None


def _pact_illegal(req: Incoming) -> str | None:
    """A quote far outside the range (the rules replace it and say so)."""
    return json.dumps({"quote": 100_000}) if req.kind == "quote" else None


class Family:
    """How the script's intents read in one game: the answer to send for each (None: the
    game has no such answer for this decision, the legal one is sent) and the class meant."""

    def __init__(
        self,
        config: Callable[[], Any],
        lineup: list[str | None],
        *,
        illegal: Callable[[Incoming], str | None],
        lenient: Callable[[Incoming], str] | None,
    ) -> None:
        self.config = config
        self.lineup = lineup
        self.illegal = illegal
        self.lenient = lenient

    def answer(self, intent: str, req: Incoming) -> tuple[str, str]:
        """(the answer text, the class it is meant to get)."""
        if intent == "unparsable":
            return "", "unparsable"
        if intent == "illegal":
            text = self.illegal(req)
            if text is not None:
                return text, "illegal"
        if intent == "lenient" and self.lenient is not None:
            return self.lenient(req), "repaired"
        return _legal(req), "ok"


def _gamebench(name: str, preset: str) -> Callable[[], Any]:
    return lambda: catalog.get(name).preset(preset)


FAMILIES = {
    "cattle": Family(
        lambda: load_preset("micro-duel"),
        [None, "random"],
        illegal=_cattle_illegal,
        lenient=_prose_json,
    ),
    "pact": Family(
        lambda: catalog.get("pact").preset("quick"),
        [None, "random"],
        illegal=_pact_illegal,
        lenient=_prose_json,
    ),
    "tic_tac_toe": Family(
        lambda: catalog.resolve("gtbench:tic_tac_toe")[1],
        [None, "random"],
        illegal=lambda req: "Action: x(9,9)",
        lenient=_no_action_line,
    ),
    "blotto": Family(
        lambda: MINDGAMES["blotto"],
        [None, "blotto-uniform"],
        illegal=lambda req: "[A1 B1 C1]",
        lenient=None,  # TextArena takes the raw text: it has no lenient reading
    ),
    "pit": Family(
        _gamebench("gamebench:pit", "quick"),
        [None, "random"],
        illegal=lambda req: "Action: Explain(Nonsense)",
        lenient=_no_action_line,
    ),
}


class Script:
    """Answers each decision by the next intent of the script (cycled); a format retry gets
    the same intent's answer again. Records the class each decision is meant to get."""

    def __init__(self, family: Family, intents: list[str]) -> None:
        self.family = family
        self.intents = intents
        self.meant: list[str] = []
        self._current = "legal"

    def __call__(self, req: Incoming) -> Answer:
        if req.stage == "ask":
            self._current = self.intents[len(self.meant) % len(self.intents)]
            text, meant = self.family.answer(self._current, req)
            self.meant.append(meant)
            return Answer(text=text)
        return Answer(text=self.family.answer(self._current, req)[0])


@pytest.mark.parametrize("name", sorted(FAMILIES))
@settings(
    max_examples=2,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    intents=st.lists(st.sampled_from(INTENTS), min_size=1, max_size=6),
    seed=st.integers(0, 50),
)
@example(intents=list(INTENTS), seed=1)
@example(intents=["lenient", "unparsable", "illegal", "legal", "illegal"], seed=2)
def test_stored_classes_are_the_scripts_and_the_rates_agree(
    name: str, intents: list[str], seed: int, tmp_path_factory: pytest.TempPathFactory
) -> None:
    family = FAMILIES[name]
    tmp = tmp_path_factory.mktemp(name)
    script = Script(family, intents)
    with pytest.MonkeyPatch.context() as mp:
        set_env(mp, tmp)
        with LoopbackServer(script) as srv, DuckStore(tmp / "s.duckdb") as store:
            spec = seat(srv, "openai", opts="attempts=1&memory=none")
            lineup = [spec if a is None else a for a in family.lineup]
            gid, record = play_and_store(store, family.config(), seed, lineup)
            assert check_game(store.load_rows(gid)).outcome == "verified"
            stored = store.con.execute(
                "SELECT outcome, reason FROM llm_decisions WHERE game_id = ? ORDER BY seq", [gid]
            ).fetchall()
            (outcomes,) = store.con.execute(
                f"SELECT decisions, {', '.join(CLASSES)} FROM llm_outcomes"
            ).fetchall()
            (used,) = store.con.execute("SELECT decisions FROM llm_usage").fetchall()
            (row,) = usage(store.con, by="seat")
    assert [o for o, _ in stored] == script.meant, intents
    # The game's reason beside every move it refused; none beside a move it took as given.
    assert all(r is None for o, r in stored if o in ("ok", "repaired"))
    assert all(r for o, r in stored if o == "illegal")
    assert [(o, r) for _, o, r in judged(record.events)] == stored
    decisions = outcomes[0]
    assert decisions == len(script.meant) == used[0] == row["decided"] == row["decisions"]
    assert dict(zip(CLASSES, outcomes[1:], strict=True)) == row["outcomes"]
    assert sum(row["outcomes"].values()) == decisions
    kept = row["outcomes"]["ok"] + row["outcomes"]["repaired"]
    assert row["fallback_rate"] == pytest.approx((decisions - kept) / decisions)
    for rate in (row["fallback_rate"], row["format_error_rate"], *row["outcome_rates"].values()):
        assert 0.0 <= rate <= 1.0
