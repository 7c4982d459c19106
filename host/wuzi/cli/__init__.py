"""The ``wuzi`` command.

Each area contributes its own subcommands through a ``register(subparsers)`` function in
its ``cli`` module, so this file only wires them together and stays small. Exit status:
0 on success, 1 when some input was bad (the message says which), 2 on a usage error.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from types import ModuleType

from wuzi.base import __version__

# Modules that contribute subcommands; each has ``register(subparsers)``.
COMMAND_MODULES = (
    "wuzi.rules.cli",
    "wuzi.clock.cli",
    "wuzi.tournament.cli",
    "wuzi.io.cli",
    "wuzi.sim.cli",
    "wuzi.host.cli",
    "wuzi.host.referee_cli",
    "wuzi.director.cli",
    "wuzi.display.scoreboard_cli",
    "wuzi.display.clock_cli",
    "wuzi.display.arbiter_cli",
    "wuzi.venue.cli",
    "wuzi.sim.bench.cli",
    "wuzi.sim.demo",
)

# Third-party packages that only an optional group installs (pyproject.toml; docs/install.md):
# a command that needs one fails with the group to install, not a traceback. A table host has
# only ``wuzi[host]``; every command module imports these inside the functions that use them.
OPTIONAL_PACKAGES = {
    "pyglet": "screen",
    "amqtt": "demo",
    "renju": "dev",  # `wuzi bench`: the rules benchmark compares with the independent judge
}


def missing_group(exc: ModuleNotFoundError) -> tuple[str, str] | None:
    """(package, group) when ``exc`` is an optional package that is not installed."""
    top = (exc.name or "").split(".")[0]
    group = OPTIONAL_PACKAGES.get(top)
    return None if group is None else (top, group)


def optional_module(name: str) -> ModuleType | None:
    """Import ``name``, or None if it (or a package above it) does not exist yet.

    An area that is not built yet simply contributes no subcommand; an import error
    *inside* an existing module is still raised, so a broken area is never silently hidden.
    """
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is None or not (name == exc.name or name.startswith(exc.name + ".")):
            raise
        return None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="wuzi",
        description="Wuzi: rules, clocks, boards and competitions for an offline Gomoku venue.",
    )
    parser.add_argument("--version", action="version", version=f"wuzi {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = optional_module(name)
        except ModuleNotFoundError as exc:
            # A module that imports an optional package at its top must not take the other
            # commands down with it (a Pi runs `wuzi host` with only wuzi[host]).
            missing = missing_group(exc)
            if missing is None:
                raise
            parser.epilog = (parser.epilog or "") + (
                f"{name} is unavailable: {missing[0]} is not installed "
                f"(pip install 'wuzi[{missing[1]}]'). "
            )
            continue
        if module is not None:
            module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        code = func(args)
    except BrokenPipeError:  # e.g. `wuzi ... | head`
        return 0
    except ModuleNotFoundError as exc:
        missing = missing_group(exc)
        if missing is None:
            raise
        package, group = missing
        print(
            f"wuzi {args.command}: {package} is not installed: pip install 'wuzi[{group}]'",
            file=sys.stderr,
        )
        return 1
    except KeyboardInterrupt:
        return 130
    return int(code or 0)
