"""Suggesting the known name a mistyped one was meant to be."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def _plain(name: str) -> str:
    """A name without case and separators: `Tic-Tac-Toe` and `tic_tac_toe` read the same."""
    return "".join(ch for ch in name.lower() if ch.isalnum())


def nearest(word: str, known: Iterable[str]) -> str | None:
    """The known name `word` most likely stands for (same letters but for case and
    separators, or a prefixed name's last part; else the closest spelling), or None when
    none is close."""
    names = list(dict.fromkeys(known))
    by_plain: dict[str, str] = {}
    for name in names:
        by_plain.setdefault(_plain(name), name)
    for name in names:  # a prefixed name by its last part (`santorini`)
        by_plain.setdefault(_plain(name.rpartition(":")[2]), name)
    typed = _plain(word)
    if not typed:
        return None
    if typed in by_plain:
        return by_plain[typed]
    close = difflib.get_close_matches(typed, list(by_plain), n=1, cutoff=0.75)
    if close:
        return by_plain[close[0]]
    # A prefix of one name only ("micro" for "micro-duel").
    starts = [p for p in by_plain if p.startswith(typed) and len(typed) >= 3]
    return by_plain[starts[0]] if len(starts) == 1 else None


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """ " (did you mean 'NAME'?)" for the nearest known name, or "" when none is close."""
    found = nearest(word, known)
    return "" if found is None or found == word else f" (did you mean {found!r}?)"
