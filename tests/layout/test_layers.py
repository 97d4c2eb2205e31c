"""The project's layering, read from the source: layers import only downwards, each game family
keeps to its own subpackages, the shared top level reaches a family only through the catalogue,
and no two modules import each other, even through a chain.

Every `import` statement counts, those inside functions too (a lazy import is still an arrow).
A module path in a string (the catalogue's `agents.cattle.game`, a definition's
`extras["cli"]`) is not an import: that is how the shared code finds a family.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

LAYERS = ("events", "engine", "projections", "agents", "runner", "cli")
"""From the bottom up: a module may import its own layer and the layers below it."""

FAMILIES = frozenset({"cattle", "pact", "openspiel", "textarena", "gamebench"})
"""Game families: in every layer, a subpackage of this name holds that family's modules."""

SHARED_PACKAGES = frozenset(
    {
        "projections.metrics",
        "projections.two_seat",
        "agents.llm",
        "agents.human",
        "runner.rl",
        "cli.web",
    }
)
"""Subpackages that serve every game (metric machinery, two-seat analysis, model seats, the
viewer); any other subpackage of a layer must be a game family."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules() -> dict[str, Path]:
    """Every module of the six layers, by dotted name."""
    found: dict[str, Path] = {}
    for layer in LAYERS:
        for path in sorted((ROOT / layer).rglob("*.py")):
            found[module_name(path)] = path
    return found


@cache
def imports(name: str) -> frozenset[str]:
    """The project modules `name` imports (a `from package import module` names the module)."""
    path = modules()[name]
    known = modules()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([node.module] if node.module else [])])
            for alias in node.names:
                full = f"{base}.{alias.name}"
                out.add(full if full in known else base)
    return frozenset(m for m in out if m.split(".")[0] in LAYERS)


def family_of(name: str) -> str | None:
    """The game family a module belongs to, or None for the shared top level of its layer."""
    parts = name.split(".")
    return parts[1] if len(parts) >= 2 and parts[1] in FAMILIES else None


def test_the_reader_sees_every_module_and_its_imports() -> None:
    # The checks below are only as good as this reading: it must find real arrows.
    assert "agents.cattle.game" in modules() and "events.catalog" in modules()
    assert "engine.cattle.rules" in imports("agents.cattle.game") or any(
        m.startswith("engine.cattle") for m in imports("agents.cattle.game")
    )
    assert "events.base" in imports("events.agent")
    assert family_of("engine.gamebench.pit") == "gamebench"
    assert family_of("projections.two_seat.nra") is None


def test_no_module_imports_a_higher_layer() -> None:
    upward = [
        (m, i)
        for m in modules()
        for i in imports(m)
        if LAYERS.index(i.split(".")[0]) > LAYERS.index(m.split(".")[0])
    ]
    assert upward == []


def test_a_family_imports_no_other_family_and_the_shared_code_imports_none() -> None:
    crossing = [
        (m, i)
        for m in modules()
        for i in imports(m)
        if family_of(i) is not None and family_of(i) != family_of(m)
    ]
    assert crossing == []


def test_every_subpackage_of_a_layer_is_a_family_or_shared() -> None:
    packages = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for layer in LAYERS
        for p in (ROOT / layer).glob("*/__init__.py")
    }
    unknown = sorted(
        p for p in packages if p.split(".")[1] not in FAMILIES and p not in SHARED_PACKAGES
    )
    assert unknown == [], "a new subpackage: a game family (FAMILIES) or shared (SHARED_PACKAGES)?"


def test_no_import_cycle() -> None:
    graph = {m: sorted(i for i in imports(m) if i in modules() and i != m) for m in modules()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in graph:
        if v not in index:
            visit(v)
    assert cycles == []


@pytest.mark.parametrize(
    ("game", "definition"),
    [
        ("cattle-trade", "agents.cattle.game"),
        ("pact", "agents.pact.game"),
        ("openspiel", "agents.openspiel.game"),
        ("textarena", "agents.textarena.game"),
    ],
)
def test_each_definition_lives_with_its_family(game: str, definition: str) -> None:
    import importlib

    from events import catalog

    assert catalog._BUILTIN[game] == definition
    assert family_of(definition) in FAMILIES
    assert catalog.get(game) is importlib.import_module(definition).GAME


def test_nothing_registers_by_importing_a_package() -> None:
    """`import agents` registers no agent kind; a model provider is loaded when named."""
    code = (
        "import sys, agents\n"
        "assert 'agents.llm' not in sys.modules, 'agents imported its model seats'\n"
        "assert agents._FACTORIES == {}\n"
        "assert 'openai' in agents.known_agents()\n"
        "spec = agents.parse_spec('openai:some-model')\n"
        "assert 'agents.llm' in sys.modules and set(agents._FACTORIES) == {'openai'}\n"
        "print(spec.agent)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "openai:some-model"
