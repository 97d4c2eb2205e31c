"""Trained policies in the seats: the agent spec `policy:MODULE:CALLABLE`.

The callable is imported from `MODULE` (which must be importable: installed, or on
PYTHONPATH) and asked for every decision of its seat with what the environments of
`runner.rl` hand a learner for that seat, so a policy trained through them plays unchanged:

    def CALLABLE(observation: dict[str, numpy.ndarray], info: dict[str, Any]) -> int | str

`observation` holds "observation" (the game's vector; on the text channel the prompt as UTF-8
bytes) and, for games with action ids, "action_mask"; `info` holds "seat", "decision" (the
kind of decision) and, on the text channel, "text" (the prompt). It returns an action id (text
for games without ids). The seat's moves are the game's own events, so a stored game verifies
without the policy: a replay reads its moves from the log and checks each by the rules, as it
does for a model seat. Games without action ids play through their text channel.

A checkpoint file plays too: `policy:PATH.npz` (NumPy) or `policy:PATH.pt` (PyTorch, when
torch is installed) holds the layers of a multi-layer perceptron (`CheckpointPolicy`).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from agents.base import Agent
from events import catalog
from events.config import SeatSpec
from runner.rl.codec import check_action, codec_for

KIND = "policy"

_SPEC = re.compile(r"^policy:([A-Za-z_][\w.]*):([A-Za-z_]\w*)$")
_FILE = re.compile(r"^policy:(.+\.(?:npz|pt|pth))$")
CHECKPOINTS = (".npz", ".pt", ".pth")
"""The checkpoint files a `policy:PATH` seat loads: NumPy archives, PyTorch files."""

Policy = Callable[[dict[str, Any], dict[str, Any]], Any]
"""A `policy:` callable: (observation, info) -> action id (or answer text)."""


class PolicySpecError(ValueError):
    """A `policy:` spec that is not `policy:MODULE:CALLABLE`, or names nothing callable."""


class PolicyError(RuntimeError):
    """A `policy:` callable raised, or answered with something that is not an action of the
    game (the game stops there, as it does when a code agent raises)."""


def parse_policy_spec(text: str) -> SeatSpec:
    """Check the form `policy:MODULE:CALLABLE` (the module is imported only when a seat is
    built, so that a stored game is checked and verified without it)."""
    if _SPEC.match(text.strip()) is None and _FILE.match(text.strip()) is None:
        raise PolicySpecError(f"agent {text!r}: {_FORMS}")
    return SeatSpec(agent=text.strip())


_FORMS = "a policy seat is policy:MODULE:CALLABLE or policy:PATH.npz (or .pt, .pth)"


def load_policy(spec: str) -> Policy:
    """The callable a `policy:` spec names (or the checkpoint it names, loaded)."""
    file = _FILE.match(spec.strip())
    if file is not None:
        return load_checkpoint(file.group(1))
    found = _SPEC.match(spec.strip())
    if found is None:
        raise PolicySpecError(f"agent {spec!r}: {_FORMS}")
    module, name = found.groups()
    try:
        fn = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as exc:
        raise PolicySpecError(f"agent {spec!r}: cannot load {module}.{name}: {exc}") from None
    if not callable(fn):
        raise PolicySpecError(f"agent {spec!r}: {module}.{name} is not callable")
    policy: Policy = fn
    return policy


class CheckpointPolicy:
    """A plain multi-layer perceptron read from a checkpoint: layers in file order, each a
    weight matrix of shape (outputs, inputs) (PyTorch's `nn.Linear` layout) and a bias;
    ReLU between layers, none after the last. The observation vector goes in, one number
    per action id comes out, and the seat plays the highest-scoring id its mask allows."""

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]], path: str = "") -> None:
        if not layers:
            raise PolicySpecError(f"checkpoint {path!r} holds no layers")
        for (w, b), nxt in zip(layers, [*layers[1:], None], strict=True):
            if w.ndim != 2 or b.shape != (w.shape[0],):
                raise PolicySpecError(
                    f"checkpoint {path!r}: a layer of shape {w.shape}, bias {b.shape}"
                )
            if nxt is not None and nxt[0].shape[1] != w.shape[0]:
                raise PolicySpecError(f"checkpoint {path!r}: layer sizes do not chain")
        self.layers = layers
        self.path = path

    @property
    def n_inputs(self) -> int:
        return int(self.layers[0][0].shape[1])

    @property
    def n_outputs(self) -> int:
        return int(self.layers[-1][0].shape[0])

    def scores(self, x: np.ndarray) -> np.ndarray:
        """The network's output for an observation vector."""
        h = np.asarray(x, dtype=np.float64).reshape(-1)
        if h.shape[0] != self.n_inputs:
            raise ValueError(
                f"checkpoint {self.path!r} takes {self.n_inputs} numbers, the seat has {h.shape[0]}"
            )
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            h = w @ h + b
            if i < last:
                h = np.maximum(h, 0.0)
        return h

    def __call__(self, observation: dict[str, Any], info: dict[str, Any]) -> int:
        out = self.scores(observation["observation"])
        mask = observation.get("action_mask")
        if mask is not None:
            out = np.where(np.asarray(mask) > 0, out, -np.inf)
        return int(np.argmax(out))  # the first of equals


def _pairs(named: list[tuple[str, np.ndarray]], path: str) -> list[tuple[np.ndarray, np.ndarray]]:
    """Weights and biases in file order: each array whose name ends in "weight" (or is
    W0, W1 ...) followed by its bias."""
    if len(named) % 2:
        raise PolicySpecError(f"checkpoint {path!r}: weights and biases come in pairs")
    layers = []
    for (wn, w), (bn, b) in zip(named[::2], named[1::2], strict=True):
        if not (wn.lower().endswith("weight") or wn.lower().lstrip("_.").startswith("w")):
            raise PolicySpecError(f"checkpoint {path!r}: {wn!r} is not a weight")
        if not (bn.lower().endswith("bias") or bn.lower().lstrip("_.").startswith("b")):
            raise PolicySpecError(f"checkpoint {path!r}: {bn!r} is not a bias")
        layers.append((np.asarray(w, dtype=np.float64), np.asarray(b, dtype=np.float64)))
    return layers


def load_checkpoint(path: str) -> CheckpointPolicy:
    """The policy a checkpoint file holds: a NumPy archive (`numpy.savez`, arrays in layer
    order: weight, bias, weight, bias ...) or a PyTorch state dict (`torch.save(model.
    state_dict())` of linear layers, read with `weights_only=True`)."""
    file = Path(path)
    if not file.is_file():
        raise PolicySpecError(f"checkpoint {path!r}: no such file")
    if file.suffix == ".npz":
        with np.load(file, allow_pickle=False) as data:
            named = [(k, data[k]) for k in data.files]
    else:
        try:
            import torch
        except ImportError:
            raise PolicySpecError(f"checkpoint {path!r}: PyTorch is not installed") from None
        state = torch.load(file, map_location="cpu", weights_only=True)
        if not isinstance(state, dict):
            raise PolicySpecError(f"checkpoint {path!r}: not a state dict")
        named = [(str(k), v.detach().cpu().numpy()) for k, v in state.items()]
    return CheckpointPolicy(_pairs(named, path), path)


class PolicyAgent(Agent):
    """A seat played by a `policy:` callable, through the game's codec."""

    is_async = False

    def __init__(self, spec: str, seat: int, seed: int, config: Any) -> None:
        super().__init__(seat, seed, config)
        self.spec = spec
        self.policy = load_policy(spec)
        self.codec = codec_for(catalog.for_config(config), config)
        if isinstance(self.policy, CheckpointPolicy):
            if not self.codec.discrete:
                raise PolicySpecError(f"agent {spec!r}: a checkpoint plays games with action ids")
            if self.policy.n_inputs != self.codec.obs_size:
                raise PolicySpecError(
                    f"agent {spec!r}: the checkpoint reads {self.policy.n_inputs} numbers,"
                    f" the game's observation has {self.codec.obs_size}"
                )
            if self.policy.n_outputs != self.codec.n_actions:
                raise PolicySpecError(
                    f"agent {spec!r}: the checkpoint scores {self.policy.n_outputs} actions,"
                    f" the game has {self.codec.n_actions}"
                )

    def act(self, view: Any, decision: Any) -> Any:
        seat = self.seat
        codec = self.codec
        obs = {"observation": codec.observe(view, decision, seat, None)}
        info: dict[str, Any] = {"seat": seat, "decision": decision.kind}
        if codec.discrete:
            obs["action_mask"] = codec.mask(view, decision, seat)
        else:
            info["text"] = codec.text(view, decision, seat)  # type: ignore[attr-defined]
        spec = self.spec
        try:
            choice = self.policy(obs, info)
        except Exception as exc:
            raise PolicyError(f"agent {spec!r} raised {type(exc).__name__}: {exc}") from exc
        try:
            check_action(codec, choice)
            return codec.action(view, decision, seat, choice)
        except (TypeError, ValueError) as exc:
            raise PolicyError(f"agent {spec!r} answered {choice!r}: {exc}") from None


def make_policy_agent(spec: SeatSpec, seat: int, seed: int, config: Any) -> Agent:
    """The agent of a `policy:` seat."""
    return PolicyAgent(spec.agent, seat, seed, config)


AGENT_KINDS = {KIND: (make_policy_agent, parse_policy_spec, None)}
"""The agent kind this module adds (`agents.BUILTIN_KINDS` names it). It has no replayer: a
replay reads a policy seat's moves from the log and the rules check each one."""
