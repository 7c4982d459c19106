"""The ``wuzi`` command itself: help everywhere, bench dispatch, usage errors."""

from __future__ import annotations

import subprocess
import sys

import pytest

from wuzi.cli import build_parser, main
from wuzi.sim.bench.cli import AREAS, emit


def _subcommand_paths() -> list[list[str]]:
    """Every (sub)command path of the parser tree, for the --help check."""
    import argparse

    paths: list[list[str]] = []

    def walk(parser: argparse.ArgumentParser, prefix: list[str]) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    paths.append([*prefix, name])
                    walk(sub, [*prefix, name])

    walk(build_parser(), [])
    return paths


def test_every_subcommand_has_help(capsys: pytest.CaptureFixture[str]) -> None:
    paths = _subcommand_paths()
    assert ["rules", "forbidden"] in paths
    assert ["bench"] in paths
    for path in paths:
        with pytest.raises(SystemExit) as info:
            main([*path, "--help"])
        assert info.value.code == 0
        out = capsys.readouterr().out
        assert "usage: wuzi " + " ".join(path) in out


def test_no_command_prints_help_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "usage: wuzi" in capsys.readouterr().out


def test_bench_refuses_unknown_area(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "warp-drive"]) == 2
    err = capsys.readouterr().err
    assert "'warp-drive'" in err
    for area in AREAS:
        assert area in err


def test_bench_line_format(capsys: pytest.CaptureFixture[str]) -> None:
    emit("rules.full_scan_per_s", 12345.678, "1/s")
    emit("clock.flag_error_p999_ms", 0.01234, "ms")
    assert capsys.readouterr().out.splitlines() == [
        "BENCH rules.full_scan_per_s 12346 1/s",
        "BENCH clock.flag_error_p999_ms 0.01234 ms",
    ]


def test_console_script_runs() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "wuzi.cli", "--version"], capture_output=True, text=True, check=True
    )
    assert out.stdout.startswith("wuzi ")
