"""The ``wuzi`` command.

Each area contributes its own subcommand through a ``register(subparsers)`` function in its
``cli`` module. This file only wires them together, and it does so lazily: ``COMMANDS``
names every command with its one-line help and the module that implements it, so the top
parser (``wuzi --help``) imports none of them, and ``wuzi tournament …`` imports only
``wuzi.tournament.cli``. Every organiser's call and every host start pays for its own
command's modules and no one else's (docs/performance.md: 0.55 s of imports before).
Exit status: 0 on success, 1 when some input was bad (the message says which), 2 on a
usage error.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from types import ModuleType

from wuzi.base import __version__, codecache

# Before any command's module creates its dataclasses: their methods' code comes from the
# cache ``make pyc`` writes, instead of being compiled at every start (wuzi.base.codecache).
codecache.install()


@dataclass(frozen=True)
class Command:
    """One ``wuzi`` subcommand: its name and help as the top parser shows them, and the
    module whose ``register(subparsers)`` builds it (imported only when it runs)."""

    name: str
    help: str
    module: str


# The help strings must match what each module's ``register`` gives (tests/cli checks it).
COMMANDS = (
    Command("rules", "judge positions: forbidden points, openings, explanations", "wuzi.rules.cli"),
    Command("clock", "game clocks: replay clock events, check a time control", "wuzi.clock.cli"),
    Command(
        "tournament",
        "the competition: entrants, pairings, results, standings, exports, rehearsals",
        "wuzi.tournament.cli",
    ),
    Command("board", "sensor boards: watch what a board reports, list the devices", "wuzi.io.cli"),
    Command("sim", "simulated boards and clock units on ptys", "wuzi.sim.cli"),
    Command("host", "run the table host service for this Pi's tables", "wuzi.host.cli"),
    Command("referee", "referees' commands to the table hosts", "wuzi.host.referee_cli"),
    Command(
        "director",
        "run the competition: assign games to tables, take results, publish standings",
        "wuzi.director.cli",
    ),
    Command(
        "broadcast",
        "publish the delayed public feed (public/table/N/…) of every table",
        "wuzi.broadcast.cli",
    ),
    Command("scoreboard", "the venue scoreboard screen (pyglet)", "wuzi.display.scoreboard_cli"),
    Command(
        "clock-display", "the big clock display of one table (pyglet)", "wuzi.display.clock_cli"
    ),
    Command(
        "arbiter",
        "the referees' screen: alerts of every table, one board, signed commands",
        "wuzi.display.arbiter_cli",
    ),
    Command(
        "web",
        "the spectators' web page: serve it, or export it as static files",
        "wuzi.display.web_cli",
    ),
    Command(
        "venue",
        "the venue as a whole: broker configuration, a host's preflight check",
        "wuzi.venue.cli",
    ),
    Command("bench", "performance figures (BENCH <name> <value> <unit>)", "wuzi.sim.bench.cli"),
    Command(
        "demo",
        "the simulated final: director, hosts, 24 tables of bots, the scoreboard",
        "wuzi.sim.demo",
    ),
)

# Modules that contribute subcommands; each has ``register(subparsers)``.
COMMAND_MODULES = tuple(command.module for command in COMMANDS)

# Third-party packages that only an optional group installs (pyproject.toml; docs/install.md):
# a command that needs one fails with the group to install, not a traceback. A table host has
# only ``wuzi[host]``; every command module imports these inside the functions that use them.
OPTIONAL_PACKAGES = {
    "pyglet": "screens",
    "amqtt": "demo",
    "fpdf": "desk",  # `wuzi tournament export certificates`: the PDFs
    "renju": "dev",  # `wuzi bench`: the rules benchmark compares with the independent judge
}


# Wuzi's own parts that are distributions of their own (display/, sim/): a table host's Pi
# (``wuzi[host]``) has neither, and their commands say which group brings them.
OPTIONAL_PARTS = {
    "wuzi.display": "screens",  # wuzi-screens
    "wuzi.sim": "demo",  # wuzi-sim
}


def missing_group(exc: ModuleNotFoundError) -> tuple[str, str] | None:
    """(package, group) when ``exc`` is an optional package or part that is not installed."""
    name = exc.name or ""
    for part, needs in OPTIONAL_PARTS.items():
        if name == part or name.startswith(part + "."):
            return part, needs
    top = name.split(".")[0]
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
        if missing_group(exc) is not None:
            raise  # a part this install lacks: build_parser names the group that brings it
        return None


def build_parser(only: Iterable[str] | None = None) -> argparse.ArgumentParser:
    """The ``wuzi`` parser. ``only``: the commands to build in full (their modules are
    imported); every other command is a stand-in carrying its help line, enough for
    ``wuzi --help`` and to route ``wuzi NAME …`` here. None builds every command (the
    whole tree: for tests and tools that walk it)."""
    parser = argparse.ArgumentParser(
        prog="wuzi",
        description="Wuzi: rules, clocks, boards and competitions for an offline Gomoku venue.",
    )
    parser.add_argument("--version", action="version", version=f"wuzi {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    wanted = None if only is None else set(only)
    for command in COMMANDS:
        if wanted is not None and command.name not in wanted:
            subparsers.add_parser(command.name, help=command.help, add_help=False)
            continue
        try:
            module = optional_module(command.module)
        except ModuleNotFoundError as exc:
            # A module that imports an optional package at its top must not take the other
            # commands down with it (a Pi runs `wuzi host` with only wuzi[host]).
            missing = missing_group(exc)
            if missing is None:
                raise
            parser.epilog = (parser.epilog or "") + (
                f"{command.module} is unavailable: {missing[0]} is not installed "
                f"(pip install 'wuzi[{missing[1]}]'). "
            )
            if wanted is not None:
                sub = subparsers.add_parser(command.name, help=command.help, add_help=False)
                sub.set_defaults(missing=missing)
            continue
        if module is not None:
            module.register(subparsers)
    return parser


def command_word(argv: Sequence[str]) -> str | None:
    """The subcommand ``argv`` names: its first word that is not an option (the top parser
    has only ``--help`` and ``--version``, which take no value)."""
    return next((word for word in argv if not word.startswith("-")), None)


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    word = command_word(words)
    parser = build_parser(() if word is None else (word,))
    # known args first: a command whose part is missing has no options to parse, and its
    # words must not hide the group to install behind a usage error
    args, unknown = parser.parse_known_args(words)
    missing = getattr(args, "missing", None)
    if missing is None and unknown:
        parser.parse_args(words)  # the usage error, as argparse words it
    if missing is not None:
        print(
            f"wuzi {args.command}: {missing[0]} is not installed: pip install 'wuzi[{missing[1]}]'",
            file=sys.stderr,
        )
        return 1
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
