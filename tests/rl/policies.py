"""Policies for `policy:` seats in tests: plain functions of (observation, info)."""

from __future__ import annotations

from typing import Any

import numpy as np


def first_legal(observation: dict[str, Any], info: dict[str, Any]) -> int:
    """The lowest legal action id."""
    return int(np.flatnonzero(observation["action_mask"])[0])


def spread(observation: dict[str, Any], info: dict[str, Any]) -> int:
    """A legal action id picked by the observation's numbers (deterministic, varied)."""
    legal = np.flatnonzero(observation["action_mask"])
    key = int(abs(float(np.sum(observation["observation"]))) * 1000) + 7 * info["seat"]
    return int(legal[key % len(legal)])


def last_legal(observation: dict[str, Any], info: dict[str, Any]) -> int:
    """The highest legal action id."""
    return int(np.flatnonzero(observation["action_mask"])[-1])
