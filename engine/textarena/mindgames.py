"""MindGames' four competition games as TextArena presets (docs/textarena.md says why).

The competition played TextArena's `-train` registrations of these environments (the
observation wrappers its online matches used) with TextArena's own settings; Secret Mafia,
which takes 6 to 15 players, is played by 6.
"""

from __future__ import annotations

from events.textarena.game import TextArenaConfig

MINDGAMES: dict[str, tuple[str, int]] = {
    "blotto": ("ColonelBlotto-v0-train", 2),
    "ipd3": ("ThreePlayerIPD-v0-train", 3),
    "codenames": ("Codenames-v0-train", 4),
    "mafia": ("SecretMafia-v0-train", 6),
}
"""Preset -> (TextArena environment id, players)."""

TRACKS: dict[str, tuple[str, ...]] = {
    "generalization": ("blotto", "ipd3", "codenames"),
    "social-detection": ("mafia",),
}
"""The competition's two tracks and their games."""

PRESETS: dict[str, TextArenaConfig] = {
    name: TextArenaConfig(env_id=env_id, players=players, name=name, preset=name)
    for name, (env_id, players) in MINDGAMES.items()
}
"""The four MindGames games, by preset name."""
