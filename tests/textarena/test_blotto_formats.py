"""The correcting line of Colonel Blotto's prompt writes its split in a form TextArena's own
parser takes, as is the form its invalid-move message suggests (`A:5, B:10, C:5`): both are
played without a verdict (docs/textarena.md, What a seat is told)."""

from __future__ import annotations

import re

from engine.textarena.mindgames import PRESETS
from engine.textarena.rules import make_env
from projections.textarena.view import CORRECTIONS


def _verdicts(action: str) -> list[str]:
    """The observations of an invalid move the first player gets for `action`."""
    env = make_env(PRESETS["blotto"].env_id)
    env.reset(num_players=2, seed=1)
    env.step(action)
    told = env.state.observations.get(0) or []
    return [str(m[1]) for m in told if "invalid move" in str(m[1])]


def test_the_correcting_line_and_the_games_own_suggestion_are_both_played() -> None:
    (example,) = re.findall(r"\[[^\]]+\]", CORRECTIONS["blotto"][1])
    assert _verdicts(example) == []
    (refused,) = _verdicts("all on A")
    suggested = refused.split("Use: ", 1)[1].split(" Please", 1)[0]
    assert suggested == "A:5, B:10, C:5" and _verdicts(suggested) == []
    # The check can fail: the example the line corrects is ruled invalid.
    assert len(_verdicts("[A4 B2 C2]")) == 1
