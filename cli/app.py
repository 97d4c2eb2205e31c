"""The `cattle` app and its two consoles, and the command group that imports a command's module
only when that command is run or its help is asked for.

`cattle --help` lists every command from `cli.index` (names, modules and help texts written
there by `python -m cli.indexer`), so it imports no command module and none of their
dependencies (DuckDB, numpy, structlog, the model SDKs, the web server).
"""

from __future__ import annotations

import functools
import importlib
import re
import sys
import types
from collections.abc import Callable, Iterator, MutableMapping
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from typer import _click
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

_setup: list[Callable[[], None]] = []
_note: list[Any] = []


def on_interrupt(note: Any) -> None:
    """Have `note` (a rich renderable, data in it escaped) said if the running command is
    interrupted from now on (Ctrl-C, SIGTERM, SIGHUP): how to finish what it began."""
    _note[:] = [note]


def interrupt_note() -> Any | None:
    """What the running command asked to be said if it is interrupted (None: nothing)."""
    return _note[0] if _note else None


def before_each_command(setup: Callable[[], None]) -> None:
    """Run `setup` just before the command that runs now (not when it only shows its help);
    the app's callback uses it so that `cattle CMD --help` does not set up logging."""
    _setup[:] = [setup]


def _with_setup(command: _click.Command) -> _click.Command:
    """`command`, its callback first running the setup `before_each_command` gave."""
    callback = command.callback
    if callback is None or getattr(callback, "_with_setup", False):
        return command

    @functools.wraps(callback)
    def run(*args: Any, **kwargs: Any) -> Any:
        _note.clear()  # a note is the running command's own
        for setup in _setup:
            setup()
        return callback(*args, **kwargs)

    run._with_setup = True  # type: ignore[attr-defined]
    command.callback = run
    return command


class _Commands(MutableMapping[str, _click.Command]):
    """The group's commands by name, in the index's order; a command is built when first read."""

    def __init__(self, built: MutableMapping[str, _click.Command]) -> None:
        from cli.index import COMMANDS

        self._built = built
        for command in built.values():
            _with_setup(command)
        self._where = {name: module for name, module, _ in COMMANDS}
        self._order = [name for name, _, _ in COMMANDS]

    def __getitem__(self, name: str) -> _click.Command:
        command = self._built.get(name)
        if command is None:
            if name not in self._where:
                raise KeyError(name)
            command = self._built[name] = _with_setup(_build(name, self._where[name]))
        return command

    def __setitem__(self, name: str, command: _click.Command) -> None:
        self._built[name] = _with_setup(command)
        if name not in self._order:
            self._order.append(name)

    def __delitem__(self, name: str) -> None:
        if name not in self._order:
            raise KeyError(name)
        self._built.pop(name, None)
        self._where.pop(name, None)
        self._order.remove(name)

    def __iter__(self) -> Iterator[str]:
        return iter(self._order)

    def __len__(self) -> int:
        return len(self._order)


def _build(name: str, module: str) -> _click.Command:
    """The click command `name`, after importing the module that registers it on the app."""
    importlib.import_module(module)
    for info in app.registered_commands:
        assert info.callback is not None
        if (info.name or typer.main.get_command_name(info.callback.__name__)) == name:
            command = typer.main.get_command_from_info(
                info,
                pretty_exceptions_short=app.pretty_exceptions_short,
                rich_markup_mode=app.rich_markup_mode,
            )
            for param in command.params:
                _check_without_pydantic(param)
            _help_without_pydantic(command)
            return command
    raise LookupError(f"{module} registers no command {name!r}: run `python -m cli.indexer`")


def _help_without_pydantic(command: _click.Command) -> None:
    """Have the command's --help flag (made when first asked for) checked without pydantic."""
    made = command.get_help_option

    def get_help_option(ctx: _click.Context) -> Any:
        option = made(ctx)
        if option is not None:
            _check_without_pydantic(option)
        return option

    command.get_help_option = get_help_option  # type: ignore[method-assign]


_INTEGER = re.compile(r"-?(?:0|[1-9][0-9]*)")
_DECIMAL = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")


def _check_without_pydantic(param: Any) -> None:
    """Have typer check `param`'s value without pydantic where that gives the same value.

    typer builds a pydantic adapter for every option when a command runs, set or not, and
    importing pydantic takes about a third of a command's start-up. The stand-in leaves an
    unset option alone (typer passes None through before any check), takes a string for a
    `str` option, a plain integer for an `int` option and a plain decimal number for a
    `float` option without bounds, strings for a
    `list[str]` option and a path for a `Path` option as typer's own checks would, and builds
    typer's adapter for anything else, once, on first use. (Should typer's internals change,
    this does nothing and typer checks as before.)
    """
    try:
        from typer._coercion import RuntimeParam, build_runtime_param
        from typer._param_types import coerce_cli_path
    except ImportError:
        return
    if getattr(param, "_runtime_param", False) is not None or not hasattr(param, "type_descriptor"):
        return
    described = param.type_descriptor
    info = described.parameter_info
    annotation = described.annotation
    if described.is_file or getattr(info, "parser", None) is not None:
        return
    bounded = (
        getattr(info, "min", None) is not None
        or getattr(info, "max", None) is not None
        or bool(getattr(info, "clamp", False))
    )

    def plain(value: Any) -> Any:
        """The value typer's check gives, or `_typer` when only that check can tell."""
        if annotation is str:
            return value if isinstance(value, str) else _typer
        if annotation is int and not bounded:
            if isinstance(value, int) and not isinstance(value, bool):
                return value
            if isinstance(value, str) and _INTEGER.fullmatch(value):
                return int(value)
            return _typer
        if annotation is float and not bounded:
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return float(value)
            if isinstance(value, str) and _DECIMAL.fullmatch(value):
                return float(value)
            return _typer
        if annotation == list[str]:
            items = value if isinstance(value, (list, tuple)) else [value]
            return list(items) if all(isinstance(v, str) for v in items) else _typer
        if annotation is Path and getattr(info, "path_type", None) in (None, Path):
            if isinstance(value, str) and value and "\0" not in value:
                value = Path(value)
            if isinstance(value, Path):
                return coerce_cli_path(value, info, path_type=Path, param=param, ctx=ctx_now[0])
        return _typer

    ctx_now: list[Any] = [None]

    class Plain(RuntimeParam):
        """typer's check of one option, without pydantic where it gives the same value."""

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            ctx_now[0] = ctx
            got = plain(value)
            if got is not _typer:
                return got
            real = build_runtime_param(described)
            param._runtime_param = real
            return real._coerce_value(value, param=param, ctx=ctx)

    try:
        param._runtime_param = Plain(parameter_info=info, annotation=annotation)
    except TypeError:
        return


_typer = object()
"""Marks a value only typer's own check can convert."""


class LazyGroup(TyperGroup):
    """A command group that lists its commands from the index and imports a command's module
    when the command is run or shows its own help."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        for param in self.params:
            _check_without_pydantic(param)
        self.commands = _Commands(self.commands)
        self._listing = False

    def get_help_option(self, ctx: _click.Context) -> Any:
        """The group's --help flag, which reads its unset value without pydantic."""
        option = super().get_help_option(ctx)
        # typer checks every option's value with a pydantic adapter it builds on first use,
        # even the group's unset --help while `cattle CMD --help` runs; a flag's value is
        # None or a bool and needs no adapter, and importing pydantic costs a third of
        # that command's help. (Should typer's internals change, this does nothing.)
        if option is not None and getattr(option, "_runtime_param", False) is None:
            try:
                from typer._coercion import PassThroughRuntimeParam

                described = option.type_descriptor
                if described.annotation is bool:
                    option._runtime_param = PassThroughRuntimeParam(
                        annotation=bool, parameter_info=described.parameter_info
                    )
            except (ImportError, AttributeError, TypeError):
                pass
        return option

    def list_commands(self, ctx: _click.Context) -> list[str]:
        """Every command's name, in the index's order (without building any command)."""
        return list(self.commands)

    def format_help(self, ctx: _click.Context, formatter: _click.HelpFormatter) -> None:
        """The group's help; its list of commands comes from the index alone."""
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False

    def get_command(self, ctx: _click.Context, cmd_name: str) -> _click.Command | None:
        """The command `cmd_name` (while the help lists commands: its name and help only)."""
        if self._listing:
            from cli.index import COMMANDS

            for name, _, text in COMMANDS:
                if name == cmd_name:
                    return TyperCommand(name=name, help=text, rich_markup_mode=app.rich_markup_mode)
        return super().get_command(ctx, cmd_name)


class _Deferred(type):
    """A stand-in for a rich class that typer's help formatter imports but help never uses:
    calling it, or reading any of its attributes, loads and uses the real class."""

    _module: str

    def _real(cls) -> Any:
        return getattr(importlib.import_module(cls._module), cls.__name__)

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        return cls._real()(*args, **kwargs)

    def __getattr__(cls, name: str) -> Any:
        return getattr(cls._real(), name)

    def __instancecheck__(cls, instance: Any) -> bool:
        return isinstance(instance, cls._real())


# typer's help formatter imports these at its top for its Markdown mode and its pretty
# tracebacks; the app uses neither, and rich.markdown and rich.traceback (with markdown-it,
# pygments and attrs) would cost `cattle --help` about a third of its time.
_UNUSED_BY_HELP = (("rich.markdown", "Markdown"), ("rich.traceback", "Traceback"))


def load_help_formatter() -> None:
    """Import typer's rich help formatter with stand-ins for the two rich classes it imports
    but this app never has it use; the real modules stay importable as usual."""
    if "typer.rich_utils" in sys.modules:
        _tidy_help(sys.modules["typer.rich_utils"])
        return
    placed = []
    for module, name in _UNUSED_BY_HELP:
        if module not in sys.modules:
            stub = types.ModuleType(module)
            setattr(stub, name, _Deferred(name, (), {"_module": module}))
            sys.modules[module] = stub
            placed.append((module, stub))
    try:
        rich_utils = importlib.import_module("typer.rich_utils")
    finally:
        for module, stub in placed:
            if sys.modules.get(module) is stub:
                del sys.modules[module]
    _tidy_help(rich_utils)


def _tidy_help(rich_utils: Any) -> None:
    """Have typer's help flow prose to the terminal's width and show no type for a flag."""
    rich_utils._fix_linebreaks = _flowing_paragraphs
    TyperOption.display_type_rich = _type_unless_flag  # type: ignore[method-assign]


_plain_type = TyperOption.display_type_rich


def _flowing_paragraphs(paragraphs: list[str], markup_mode: Any) -> str:
    """A command's help after its first line, each paragraph one line that rich wraps at the
    terminal's width (typer keeps the docstring's own line breaks, which break mid-sentence
    on any other width); a paragraph that starts with \\b keeps its lines."""
    return "\n\n".join(
        p.strip("\b\n") if p.startswith("\b") else " ".join(p.split("\n")) for p in paragraphs
    )


def _type_unless_flag(self: TyperOption, ctx: _click.Context) -> str | None:
    """The value type shown in an option's help, none for a flag (it takes no value)."""
    if self.is_flag and not self.count:
        return None
    return _plain_type(self, ctx)


def _usage_name(self: TyperArgument) -> str:
    """An argument as a usage line writes it: its metavar, or its name in capitals (typer
    0.29 writes a required one as `{game_id}`, which reads as a placeholder left unfilled),
    in brackets when it may be left out, in braces when it is one of several choices, with
    `...` when it takes several values."""
    name = self.metavar or (self.name or "").upper()
    if self.required and "|" in name:
        name = f"{{{name}}}"  # one of the choices
    elif not self.required:
        name = f"[{name}]"
    if self.nargs != 1:
        name += "..."
    return name


# (Should typer's internals change, the usage lines keep typer's own form.)
if hasattr(TyperArgument, "_usage_display_name"):
    TyperArgument._usage_display_name = _usage_name  # type: ignore[method-assign]

app = typer.Typer(
    name="cattle",
    cls=LazyGroup,
    help="Cattle Trade: a benchmark harness where LLMs and code agents play games against each"
    " other (Cattle Trade, an auction-and-bluffing card game, by default; --game picks another).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)
# Emoji codes off: a stored name such as "a:cow:b" must print as written.
out = Console(emoji=False)
err = Console(stderr=True, emoji=False)
