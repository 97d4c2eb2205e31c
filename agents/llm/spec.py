"""Model seat specs and provider settings.

A seat spec reads ``PROVIDER:MODEL[@BASE_URL][?option=value&...]``, for example
``openai:gpt-4o-mini``, ``anthropic:claude-haiku-4-5?memory=recent`` or
``openai:qwen3@http://localhost:8000/v1?temperature=0.3``. The base URL may not contain a
``?``. The parsed `SeatSpec` keeps the model's identity in ``agent`` (provider, model and
the options that change how it plays) and every resolved option, including the base URL, in
``options``. Keys never appear in either: they come from the environment or a config file.
"""

from __future__ import annotations

import math
import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from events.config import ConfigError, SeatSpec
from projections import editions

PROVIDERS = ("openai", "anthropic")
MEMORY_MODES = ("none", "recent", "full")
EFFORTS = ("minimal", "low", "medium", "high")
OUTPUTS = ("text", "json_schema")
"""How answers are asked for: free text holding JSON, or JSON constrained by a schema."""
MODES = ("prompt", "cot", "sc-cot", "rap")
"""Reasoning modes (games whose prompts offer them): answer at once, think first, or think
`samples` times and play the majority answer; `rap` (GameBench's reasoning via planning) in
the `gamebench` style only."""
STYLES = ("cattle", "gamebench")
"""Prompt styles: the project's own protocol (prompts, answers and retries of each game's
prompter), or GameBench's model protocol in GameBench's games (docs/gamebench.md)."""
SC_SAMPLES = 5
"""Samples of the `sc-cot` mode unless `samples` says otherwise."""
PROMPTS = editions.CURRENT
"""The edition of the prompts new model seats are shown (option `prompts`; see
projections.editions): seats stored without the option were shown edition 1 and replay with
it, byte for byte."""

DEFAULTS: dict[str, Any] = {
    "temperature": 0.1,
    "max_tokens": 4096,
    "reasoning_effort": "low",
    "output": "text",
    "memory": "full",
    "character": "optimal",
    "attempts": 4,
    "timeout": 120.0,
    "prompts": PROMPTS,
}
"""Option defaults; every seat's resolved options are stored with its game."""

IDENTITY = (
    "temperature",
    "max_tokens",
    "reasoning_effort",
    "output",
    "memory",
    "character",
    "mode",
    "samples",
    "style",
)
"""Options that change how a seat plays; non-default ones are part of the agent name."""

BUDGETS = ("max_calls", "max_game_tokens", "max_game_cost", "price")
"""Per-game budgets of a seat: model calls, tokens (input and output together), and cost in
the price table's currency (with the `price` it was counted at, ``IN/OUT`` per million
tokens, stored with the seat so that a replay counts alike). Once one is spent the seat plays
its recorded default for the rest of the game. Budgets limit what a seat may spend, not how it
plays, so they are not part of the agent name."""

_ALIASES = {
    "reasoning": "reasoning_effort",
    "effort": "reasoning_effort",
    "max_output_tokens": "max_tokens",
    "tokens": "max_tokens",
    "response_format": "output",
}


class SpecError(ConfigError):
    """A model seat spec that cannot be read."""


def _clean_url(url: str) -> str:
    """The base URL without credentials or query (those could hold secrets)."""
    try:
        parts = urlsplit(url)
        port = parts.port  # a port that is no number, or past 65535, is refused here
    except ValueError:
        parts, port = None, None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        raise SpecError(f"base URL must be http(s)://host[:port]/path, got {url!r}")
    host = parts.hostname + (f":{port}" if port else "")
    return urlunsplit((parts.scheme, host, parts.path.rstrip("/"), "", ""))


def _coerce(key: str, value: str) -> Any:
    v = value.strip()
    if key == "temperature":
        if v.lower() in ("none", "default", ""):
            return None
        t = float(v)
        if not 0.0 <= t <= 2.0:
            raise SpecError(f"temperature must be within 0..2, got {v}")
        return t
    if key in ("max_tokens", "attempts"):
        n = int(v)
        if n < 1:
            raise SpecError(f"{key} must be at least 1, got {v}")
        return n
    if key == "timeout":
        t = float(v)
        if not 0 < t <= MAX_TIMEOUT:  # also refuses nan
            raise SpecError(
                f"timeout must be more than 0 and at most {MAX_TIMEOUT:g} seconds, got {v}"
            )
        return t
    if key == "reasoning_effort":
        if v.lower() in ("none", "off", ""):
            return None
        if v not in EFFORTS:
            raise SpecError(f"reasoning effort must be one of {', '.join(EFFORTS)}, got {v!r}")
        return v
    if key == "output":
        if v not in OUTPUTS:
            raise SpecError(f"output must be one of {', '.join(OUTPUTS)}, got {v!r}")
        return v
    if key == "memory":
        if v not in MEMORY_MODES:
            raise SpecError(f"memory must be one of {', '.join(MEMORY_MODES)}, got {v!r}")
        return v
    if key == "character":
        # Which characters exist is the game's business (its prompter refuses the others when
        # the seat is checked against the game); here only the form of the name.
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]{0,39}", v):
            raise SpecError(f"character must be a name (letters, digits, '_', '-'), got {v!r}")
        return v
    if key == "mode":
        if v not in MODES:
            raise SpecError(f"mode must be one of {', '.join(MODES)}, got {v!r}")
        return v
    if key == "style":
        if v not in STYLES:
            raise SpecError(f"style must be one of {', '.join(STYLES)}, got {v!r}")
        return v
    if key == "prompts":
        n = int(v)
        if not 1 <= n <= PROMPTS:
            raise SpecError(f"prompts must be an edition within 1..{PROMPTS}, got {v}")
        return n
    if key == "samples":
        n = int(v)
        if not 1 <= n <= 20:
            raise SpecError(f"samples must be within 1..20, got {v}")
        return n
    if key == "max_game_cost":
        c = float(v)
        if not 0 < c < math.inf:
            raise SpecError(f"max_game_cost must be more than 0, got {v}")
        return c
    if key == "price":
        return _price_text(v)
    if key in BUDGETS:
        n = int(v)
        if n < 1:
            raise SpecError(f"{key} must be at least 1, got {v}")
        return n
    known = [*DEFAULTS, "mode", "samples", "style", *BUDGETS]
    raise SpecError(f"unknown option {key!r}; known: {', '.join(known)}")


def parse_model_spec(text: str) -> SeatSpec:
    """Read ``PROVIDER:MODEL[@BASE_URL][?options]`` into a SeatSpec with resolved options."""
    text = text.strip()
    head, sep, query = text.partition("?")
    provider, colon, rest = head.partition(":")
    if provider not in PROVIDERS or not colon:
        raise SpecError(f"model spec must look like openai:MODEL or anthropic:MODEL, got {text!r}")
    model, base_url = rest, None
    m = re.search(r"@(https?://.*)$", rest)
    if m:
        model, base_url = rest[: m.start()], _clean_url(m.group(1))
    if not model:
        raise SpecError(f"model name missing in {text!r}")
    options: dict[str, Any] = dict(DEFAULTS)
    if sep:
        seen: dict[str, str] = {}
        for item in filter(None, query.split("&")):
            key, eq, value = item.partition("=")
            given = key.strip()
            key = _ALIASES.get(given, given)
            if key in seen:
                same = "" if seen[key] == given else f" (as {seen[key]!r} and {given!r})"
                raise SpecError(f"option {key!r} is given twice{same} in {text!r}")
            seen[key] = given
            if not eq:
                raise SpecError(f"option {item!r} needs a value (key=value)")
            try:
                options[key] = _coerce(key, value)
            except ValueError as exc:
                if isinstance(exc, SpecError):
                    raise
                raise SpecError(f"bad value for {key}: {value!r}") from None
    return make_spec(provider, model, options, base_url)


_UNSHOWN = {"style": "cattle"}
"""Identity options without a stored default whose default value is left out of a name."""


def make_spec(
    provider: str, model: str, options: dict[str, Any], base_url: str | None = None
) -> SeatSpec:
    """A SeatSpec from resolved parts: identity in ``agent``, everything in ``options``."""
    opts = {k: v for k, v in options.items() if v is not None and k != "base_url"}
    # "none" is stored, not dropped: these options are then left out of every request.
    for key in ("temperature", "reasoning_effort"):
        if key in options and options[key] is None:
            opts[key] = "none"
    if base_url:
        opts["base_url"] = base_url
    opts["model"] = model
    shown = [
        f"{k}={'none' if options[k] is None else options[k]}"
        for k in IDENTITY
        if k in options and options[k] != DEFAULTS.get(k, _UNSHOWN.get(k))
    ]
    agent = f"{provider}:{model}" + ("?" + "&".join(sorted(shown)) if shown else "")
    return SeatSpec(agent=agent, options=opts)


@dataclass(frozen=True)
class SeatOptions:
    """Every setting of one model seat."""

    provider: str
    model: str
    base_url: str | None
    temperature: float | None
    max_tokens: int
    reasoning_effort: str | None
    memory: str
    character: str
    attempts: int
    timeout: float
    output: str = "text"
    """``text`` (JSON asked for in words) or ``json_schema`` (schema-constrained answers)."""
    mode: str = "prompt"
    """Reasoning mode: prompt, cot or sc-cot (games whose prompts offer them)."""
    samples: int = 1
    """Answers asked per decision; the majority is played when more than one."""
    max_calls: int | None = None
    """Budget: model calls this seat may make in one game (None: no budget)."""
    max_game_tokens: int | None = None
    """Budget: tokens (input and output) this seat may use in one game (None: no budget)."""
    max_game_cost: float | None = None
    """Budget: cost this seat may spend in one game, at `price` (None: no budget)."""
    price: tuple[float, float] | None = None
    """Price per million input and output tokens the cost budget counts with."""
    prompts: int = 1
    """The edition of the prompts the seat is shown (`PROMPTS`; 1 for seats stored before
    editions were recorded)."""
    style: str = "cattle"
    """The prompt style (`STYLES`): ``cattle`` unless the seat asks for another (the option
    is stored only when given, so seats stored before styles existed keep their bytes)."""


def resolve(spec: SeatSpec) -> SeatOptions:
    """The settings of a stored or freshly parsed model seat."""
    parsed = parse_model_spec(spec.agent)
    opts: dict[str, Any] = {**parsed.options, **spec.options}
    temp = opts.get("temperature")
    provider, _, _ = spec.agent.partition(":")
    if "model" in spec.options:
        # A resolved seat as stored; those stored before effort had a default sent none.
        effort = spec.options.get("reasoning_effort")
    else:
        effort = opts.get("reasoning_effort")
    return SeatOptions(
        provider=provider,
        model=str(opts["model"]),
        base_url=opts.get("base_url"),
        temperature=None if temp in (None, "none") else float(temp),
        max_tokens=int(opts["max_tokens"]),
        reasoning_effort=None if effort in (None, "none") else str(effort),
        memory=str(opts["memory"]),
        character=str(opts["character"]),
        attempts=int(opts["attempts"]),
        timeout=float(opts["timeout"]),
        output=str(opts.get("output", "text")),
        mode=str(opts.get("mode", "prompt")),
        samples=int(opts.get("samples", SC_SAMPLES if opts.get("mode") == "sc-cot" else 1)),
        max_calls=_budget(opts.get("max_calls")),
        max_game_tokens=_budget(opts.get("max_game_tokens")),
        max_game_cost=None if opts.get("max_game_cost") is None else float(opts["max_game_cost"]),
        price=None if opts.get("price") is None else _price(str(opts["price"])),
        # A resolved seat as stored keeps the edition it played with (none stored: the first).
        prompts=int(spec.options.get("prompts", 1) if "model" in spec.options else opts["prompts"]),
        style=str(opts.get("style", "cattle")),
    )


def calls_per_decision(options: SeatOptions, game: str | None = None) -> int | None:
    """The most model calls one decision of a seat makes in `game` (None: in any game),
    before transport attempts (None: no bound, only a budget limits them). The project's
    protocol: the answer, a format retry and a truncation retry, each of `samples` answers;
    GameBench's (`style=gamebench`): its three tries, one more call to reason first in `cot`,
    twice that where GameBench asks a decision in two calls (Are You the Traitor?, from
    edition 4 of the prompts), and no bound in `rap`, whose search asks about every action
    the model predicts (docs/bounds.md)."""
    if options.style == "gamebench":
        from events import catalog

        per = {"prompt": 3, "cot": 4}.get(options.mode)
        # A game whose decisions may take two calls says from which edition
        # (`extras["two_calls_from_edition"]`); no game named: the most of any game.
        games = catalog.loaded() if game is None else [catalog.get(game)]
        split = any(
            options.prompts >= g.extras.get("two_calls_from_edition", math.inf) for g in games
        )
        return None if per is None else per * (2 if split else 1)
    return 3 * max(1, options.samples)


def _budget(value: Any) -> int | None:
    return None if value is None else int(value)


def _price(text: str) -> tuple[float, float]:
    inp, _, outp = text.partition("/")
    return float(inp), float(outp)


def _price_text(text: str) -> str:
    try:
        pin, pout = _price(text)
    except ValueError:
        raise SpecError(f"price must be IN/OUT per million tokens, got {text!r}") from None
    if not (0 <= pin < math.inf and 0 <= pout < math.inf):
        raise SpecError(f"price must be IN/OUT per million tokens, got {text!r}")
    return f"{pin:g}/{pout:g}"


def with_budgets(
    spec: str,
    *,
    calls: int | None = None,
    tokens: int | None = None,
    cost: float | None = None,
    price: tuple[float, float] | None = None,
) -> str:
    """A model seat spec with per-game budgets added (a code agent's spec as it is); a cost
    budget goes with the `price` it counts at. A budget the spec sets already keeps the
    tighter of the two (a wider one given for every seat never loosens a seat's own)."""
    provider = spec.partition(":")[0]
    if provider not in PROVIDERS:
        return spec
    head, sep, query = spec.partition("?")
    items = [item for item in query.split("&") if item] if sep else []
    given = {item.partition("=")[0].strip(): i for i, item in enumerate(items)}
    pairs: list[tuple[str, Any]] = [("max_calls", calls), ("max_game_tokens", tokens)]
    if cost:
        if price is None and "price" not in given:
            raise SpecError(f"a cost budget needs the price of {spec.partition('?')[0]}")
        pairs.append(("max_game_cost", cost))
        if price is not None and "price" not in given:
            # (a seat's own price stays: its cost budget counts at it)
            pairs.append(("price", f"{price[0]:g}/{price[1]:g}"))
    changed = False
    for key, value in pairs:
        if not value:
            continue
        if key in given and key != "price":
            i = given[key]
            try:
                own = _coerce(key, items[i].partition("=")[2])
            except ValueError:
                continue  # refused with its own message when the spec is read
            if own <= value:
                continue
            items[i] = f"{key}={value:g}" if isinstance(value, float) else f"{key}={value}"
        else:
            shown = f"{value:g}" if isinstance(value, float) else f"{value}"
            items.append(f"{key}={shown}")
        changed = True
    return head + "?" + "&".join(items) if changed else spec


# ---------------------------------------------------------------------------- provider settings


_MOVED = ("reasoning_effort", "prompts")
"""Identity options whose default was added or moved after seats were stored: a name that
leaves one out says nothing of the value its seat was played with."""


def label_problem(spec: SeatSpec) -> str | None:
    """Where a stored model seat's name (what its games and ratings are credited to) says
    other than the options it was played with, or None. The model must be the one named;
    each option the name spells must be the one stored; an option the name leaves out must
    be at its default, as `make_spec` names seats (save those whose default came later)."""
    stored = spec.options
    if "model" not in stored:
        return None  # the name alone was stored: it is what the seat was played with
    try:
        named = parse_model_spec(spec.agent)
    except SpecError as exc:
        return f"its name cannot be read: {exc}"
    if str(named.options["model"]) != str(stored["model"]):
        return f"the name says model {named.options['model']!r}, it played {stored['model']!r}"
    _, _, query = spec.agent.partition("?")
    spelled = {
        _ALIASES.get(k.strip(), k.strip())
        for k in (item.partition("=")[0] for item in query.split("&") if item)
    }
    for key in IDENTITY:
        have = stored.get(key)
        if have is None:
            continue
        if key in spelled:
            want = named.options.get(key)
            if _same(want, have):
                continue
            return f"the name says {key}={'none' if want is None else want}, it played {key}={have}"
        # (a name shows every option that differs from this: see `make_spec`)
        if key in _MOVED or _same(DEFAULTS.get(key, _UNSHOWN.get(key)), have):
            continue
        return f"the name leaves out {key}, it played {key}={have}"
    return None


def _same(a: Any, b: Any) -> bool:
    """One option value, as parsed or as stored (None is stored as "none")."""
    a = "none" if a is None else a
    b = "none" if b is None else b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return float(a) == float(b)
    return str(a) == str(b)


@dataclass(frozen=True)
class ProviderSettings:
    """Where and how to reach one provider (the key is held in memory only)."""

    api_key: str | None
    base_url: str | None
    concurrency: int
    backoff: float
    """Base of the exponential backoff between attempts, in seconds (1, 2, 4, ...)."""
    tokens_per_minute: int | None = None
    """Most tokens (input and output) one worker's calls may use in any minute; None: no
    limit."""

    def __repr__(self) -> str:  # never show the key
        return (
            f"ProviderSettings(base_url={self.base_url!r}, concurrency={self.concurrency}, "
            f"backoff={self.backoff}, tokens_per_minute={self.tokens_per_minute}, "
            f"api_key={'set' if self.api_key else 'unset'})"
        )


CONFIG_ENV = "CATTLE_LLM_CONFIG"
DEFAULT_CONFIG = Path("~/.config/cattle/llm.toml")
DEFAULT_CONCURRENCY = 32


MAX_TIMEOUT = 86_400.0
"""The longest a model seat waits for one answer (a day): anything longer is a mistake."""
MAX_BACKOFF = 3_600.0
"""The largest base of the backoff between attempts, in seconds."""


def config_path() -> Path:
    """Where the optional TOML config file is looked for."""
    return Path(os.environ.get(CONFIG_ENV) or DEFAULT_CONFIG).expanduser()


def config_file() -> dict[str, Any]:
    """The optional TOML config file (``$CATTLE_LLM_CONFIG`` or ~/.config/cattle/llm.toml)."""
    path = config_path()
    if not path.is_file():
        if os.environ.get(CONFIG_ENV):
            raise ConfigError(f"{CONFIG_ENV} points to a missing file: {path}")
        return {}
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from None


def provider_settings(provider: str) -> ProviderSettings:
    """Key, base URL, concurrency and backoff for a provider: environment, then config file."""
    env = provider.upper()
    cfg = config_file()
    section: dict[str, Any] = cfg.get(provider, {}) if isinstance(cfg.get(provider), dict) else {}
    key = os.environ.get(f"{env}_API_KEY") or section.get("api_key")
    if not key and section.get("api_key_env"):
        key = os.environ.get(str(section["api_key_env"]))
    base = os.environ.get(f"{env}_BASE_URL") or section.get("base_url")
    where = config_path()
    conc = _setting(f"CATTLE_{env}_CONCURRENCY", section, "concurrency", f"[{provider}]", where)
    backoff = _setting("CATTLE_LLM_BACKOFF", cfg, "backoff", "", where)
    tpm = _setting(f"CATTLE_{env}_TPM", section, "tokens_per_minute", f"[{provider}]", where)
    return ProviderSettings(
        api_key=key or None,
        base_url=_clean_url(base) if base else None,
        concurrency=DEFAULT_CONCURRENCY if conc is None else _count(*conc),
        backoff=1.0 if backoff is None else _seconds(*backoff),
        tokens_per_minute=None if tpm is None else _count(*tpm),
    )


def _setting(
    var: str, table: dict[str, Any], key: str, part: str, path: Path
) -> tuple[str, Any] | None:
    """A setting and where it came from: the environment variable `var` when set, else
    `key` in `table` of the config file; None when neither gives it."""
    text = os.environ.get(var)
    if text:
        return var, text
    if key in table:
        return f"{part + ' ' if part else ''}{key} in {path}", table[key]
    return None


def _count(name: str, value: Any) -> int:
    """A positive whole number from the environment or the config file, or a clear error."""
    if isinstance(value, bool | float):
        raise ConfigError(f"{name} must be a whole number, got {value!r}")
    try:
        n = int(str(value).strip())
    except ValueError:
        raise ConfigError(f"{name} must be a whole number, got {value!r}") from None
    if n < 1:
        raise ConfigError(f"{name} must be at least 1, got {n}")
    return n


def _seconds(name: str, value: Any) -> float:
    """A number of seconds from 0 to `MAX_BACKOFF`, or a clear error (nan and inf too)."""
    try:
        t = float(value) if not isinstance(value, bool) else math.nan
    except (TypeError, ValueError):
        t = math.nan
    if not 0 <= t <= MAX_BACKOFF:
        raise ConfigError(
            f"{name} must be a number of seconds from 0 to {MAX_BACKOFF:g}, got {value!r}"
        )
    return t
