"""The ``wuzi`` command loads only what the command run needs (issue 22, docs/performance.md).

Checked through ``sys.modules`` in a fresh interpreter, never by a time: what a command
imports is a fact, how long it takes depends on the machine.
"""

from __future__ import annotations

import argparse
import importlib
import json
import subprocess
import sys

import pytest

from wuzi.cli import COMMANDS, Command, build_parser, command_word, main

HEAVY = (
    "paho",
    "sqlite3",
    "serial",
    "wuzi.rules.game",
    "wuzi.rules.forbidden",
    "wuzi.bus",
    "wuzi.journal",
    "wuzi.host.service",
    "wuzi.tournament.event",
    "wuzi.director.service",
)
"""Modules no help screen of the top parser may load: MQTT, SQLite, pyserial, the rules
tables, the bus, the journal and the services."""


def _loaded_after(argv: list[str]) -> list[str]:
    """The modules a fresh interpreter holds after ``wuzi ARGV`` (help exits with 0)."""
    code = (
        "import json, sys\n"
        "from wuzi.cli import main\n"
        "try:\n"
        f"    main({argv!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(json.dumps(sorted(sys.modules)), file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    loaded: list[str] = json.loads(done.stderr.strip().splitlines()[-1])
    return loaded


def _heavy(loaded: list[str]) -> list[str]:
    return [m for m in loaded if any(m == h or m.startswith(h + ".") for h in HEAVY)]


def test_top_help_imports_no_command_module() -> None:
    loaded = _loaded_after(["--help"])
    assert _heavy(loaded) == []
    assert not [c.module for c in COMMANDS if c.module in loaded]


def test_a_command_loads_its_own_module_and_no_other_command() -> None:
    loaded = _loaded_after(["tournament", "--help"])
    assert "wuzi.tournament.cli" in loaded
    others = [c.module for c in COMMANDS if c.name != "tournament" and c.module in loaded]
    assert others == []
    assert not [m for m in loaded if m.startswith(("paho", "wuzi.bus", "wuzi.journal"))]


def test_host_help_loads_neither_the_service_nor_mqtt() -> None:
    assert _heavy(_loaded_after(["host", "--help"])) == []


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.name)
def test_the_registry_matches_what_each_module_registers(command: Command) -> None:
    module = importlib.import_module(command.module)
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    module.register(sub)
    helps = {a.dest: a.help for a in sub._choices_actions}
    assert helps == {command.name: command.help}


def test_the_lazy_tree_lists_every_command_as_the_full_one_does() -> None:
    def names(parser: argparse.ArgumentParser) -> list[str]:
        (action,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        return list(action.choices)

    assert names(build_parser(())) == names(build_parser()) == [c.name for c in COMMANDS]


def test_command_word_skips_the_top_options() -> None:
    assert command_word(["--version"]) is None
    assert command_word(["-h", "tournament"]) == "tournament"
    assert command_word(["host", "--venue", "v.toml"]) == "host"


def test_an_unknown_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["warp-drive"])
    assert info.value.code == 2
    assert "invalid choice: 'warp-drive'" in capsys.readouterr().err
