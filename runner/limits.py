"""The bounds a tournament's options must keep, in a module of their own that imports nothing
heavy: `cattle tournament --help` states them without loading the tournament runner."""

from __future__ import annotations

import os

MAX_GAMES = 100_000
"""Most games in one tournament: about 30 minutes of code-agent games on two cores and 6 GB
of events; larger studies run several tournaments (ratings read them all together)."""
WORKERS_PER_CPU = 4
"""`--workers` may be at most this many per usable CPU: game simulation is CPU-bound, so more
processes only add memory."""
MAX_MODEL_GAMES = 64
"""Most games played at once when every game has a model seat: such games wait on the model,
not the CPU, and run in this process, so `--workers` may exceed the CPU limit up to this."""
MAX_CONCURRENCY = 256
"""Most games with model seats one worker plays at once (`--concurrency`)."""
MAX_SHUFFLES = 100
"""Most reshuffled orders `ratings` computes (each is a full TrueSkill pass)."""
MAX_BOOTSTRAP = 100_000
"""Most bootstrap samples `ratings --method bt` draws (each is one Bradley-Terry fit; GameBench's
paper used 10,000)."""


def usable_cpus() -> int:
    """CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def max_workers() -> int:
    """The largest `--workers` accepted on this machine (for games of code agents)."""
    return WORKERS_PER_CPU * usable_cpus()
