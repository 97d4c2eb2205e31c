"""Find the TextArena environments that send one player another's private facts.

    uv run python bench/textarena_privacy.py [--write] [--only ID,ID]

Runs `engine.textarena.privacy.leak` over every environment TextArena registers (each with
the player count it plays first) and prints those found leaking, with the reason; with
`--write` it writes them to data/textarena_leaks.json, which `textarena:ENV_ID` reads to
refuse them (docs/textarena.md). Environments the check cannot build or play are listed
apart; they are not refused.
"""

from __future__ import annotations

import argparse
import json
import re
import signal
import sys
from typing import Any

from engine.textarena.privacy import LEAKS_FILE, leak
from engine.textarena.rules import players_of, registry, textarena_version
from events.config import ConfigError

LIMIT = 30
"""Seconds one environment may take before it is listed as not checked."""


class TooSlow(BaseException):
    """An environment took longer than `LIMIT` to check (a BaseException: some environments
    retry their set-up on any Exception)."""


def _alarm(signum: int, frame: Any) -> None:
    raise TooSlow(f"took more than {LIMIT} s")


def scan(ids: list[str]) -> tuple[dict[str, str], dict[str, str]]:
    """(leaking environments with their reasons, environments not checked with why)."""
    leaks: dict[str, str] = {}
    skipped: dict[str, str] = {}
    signal.signal(signal.SIGALRM, _alarm)
    for env_id in ids:
        signal.alarm(LIMIT)
        try:
            found = leak(env_id, players_of(env_id))
        except (ConfigError, TooSlow, Exception) as exc:  # one that cannot be played here
            # Paths name this machine's files: the list keeps the file's name only.
            said = re.sub(r"(/[^\s/]+)+/", "", " ".join(str(exc).split()))
            skipped[env_id] = f"{type(exc).__name__}: {said[:100]}"
            print(f"{env_id}: not checked ({skipped[env_id]})", file=sys.stderr, flush=True)
            continue
        finally:
            signal.alarm(0)
        if found is not None:
            leaks[env_id] = found
        print(f"{env_id}: {found or 'no leak found'}", file=sys.stderr, flush=True)
    return leaks, skipped


def main() -> None:
    """Scan, print, and with --write store the list."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"write {LEAKS_FILE.name}")
    parser.add_argument("--only", default="", help="comma-separated environment ids")
    args = parser.parse_args()
    ids = [x for x in args.only.split(",") if x] or sorted(registry())
    leaks, skipped = scan(ids)
    data = {
        "_note": "written by bench/textarena_privacy.py; do not edit by hand",
        "textarena": textarena_version(),
        "leaks": dict(sorted(leaks.items())),
        "unchecked": dict(sorted(skipped.items())),
    }
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    if args.write:
        LEAKS_FILE.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
