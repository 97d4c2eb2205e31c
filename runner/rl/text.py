"""The text action channel: for games whose actions are words (TextArena's games, PACT's chat,
GameBench's), a seat is shown its decision as the prompt a model seat reads and answers with
text, read by the same parser as a model seat's answer. Text that yields no action becomes the
game's documented default action (as for a model seat whose answers ran out)."""

from __future__ import annotations

from typing import Any

import numpy as np

from events.catalog import GameDef

TEXT_BYTES = 8192
"""The observation holds the prompt as UTF-8 bytes, this many at most (the end is kept when
it is longer; the whole text is in the info dict under "text"), padded with zeros."""
ANSWER_CHARS = 2000
"""The longest answer the action space holds."""


class TextCodec:
    """Observations as prompt text, actions as answer text, through a game's prompter."""

    discrete = False

    def __init__(self, game: GameDef, config: Any) -> None:
        if game.prompter is None:
            raise ValueError(f"{game.name} has no text form (no prompts for model seats)")
        self.game = game
        self.config = config
        self.prompter = game.prompter
        self.n_actions = 0
        self.obs_size = TEXT_BYTES

    def text(self, view: Any, decision: Any, seat: int) -> str:
        """The prompt of the seat's decision; when it is not asked, its latest lines."""
        if decision is not None and seat in decision.seats:
            rejection = self.prompter.rejection(view, seat, decision.kind)
            return self.prompter.decision_prompt(view, decision, "", rejection)
        lines = [self.game.describe(e, seat) for e in view.history[-20:]]
        return "\n".join(line for line in lines if line)

    def observe(self, view: Any, decision: Any, seat: int, state: Any = None) -> np.ndarray:
        """The text as zero-padded UTF-8 bytes."""
        data = self.text(view, decision, seat).encode()[-TEXT_BYTES:]
        out = np.zeros(TEXT_BYTES, dtype=np.uint8)
        out[: len(data)] = np.frombuffer(data, dtype=np.uint8)
        return out

    def mask(self, view: Any, decision: Any, seat: int) -> np.ndarray:
        """Text has no mask (an empty array; environments leave it out)."""
        return np.zeros(0, dtype=np.int8)

    def action(self, view: Any, decision: Any, seat: int, choice: Any) -> Any:
        """The game's action read from the answer text, else its default action."""
        found, _how, _error = self.prompter.parse(str(choice), decision, seat)
        return found if found is not None else self.prompter.default_action(decision, seat)
