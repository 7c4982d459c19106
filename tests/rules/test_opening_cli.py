"""``wuzi rules opening B1 W2 B3``: the id and names for any orientation, or a refusal."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from wuzi.cli import main
from wuzi.rules.board import point_name
from wuzi.rules.designated import DESIGNATED
from wuzi.rules.symmetry import SYMMETRIES

WUZI = Path(sys.executable).with_name("wuzi")


def test_the_contract_example(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "opening", "h8", "g7", "g9"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "7I 浦月 Hogetsu\n"
    assert captured.err == ""


def test_every_orientation_of_every_opening_prints_its_label(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for opening in DESIGNATED:
        for k in SYMMETRIES:
            moves = [point_name(p) for p in opening.oriented(k)]
            assert main(["rules", "opening", *moves]) == 0, moves
            assert capsys.readouterr().out == opening.label + "\n"


def test_moves_may_come_as_one_argument_and_in_any_case(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["rules", "opening", "H8 I9 J10"]) == 0
    assert capsys.readouterr().out == "1I 长星 Chōsei\n"


@pytest.mark.parametrize(
    ("moves", "reason"),
    [
        (["g7", "h8", "g9"], "B1 must be on h8, not g7"),
        (["h8", "k11", "g9"], "W2 must touch h8"),
        (["h8", "g7", "d4"], "B3 d4 is outside the central 5×5"),
        (["h8", "g7", "g7"], "B3 cannot go on g7: W2 is there"),
        (["h8", "g7"], "three moves"),
        (["h8", "g7", "z99"], "'z99' is not a point"),
    ],
)
def test_a_non_opening_is_refused_with_the_reason(
    moves: list[str], reason: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["rules", "opening", *moves]) != 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert reason in captured.err


def test_the_installed_command() -> None:
    assert WUZI.exists(), "run `make setup` first: .venv/bin/wuzi is the command"
    ok = subprocess.run(
        [str(WUZI), "rules", "opening", "h8", "g7", "g9"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )
    assert (ok.returncode, ok.stdout) == (0, "7I 浦月 Hogetsu\n")
    bad = subprocess.run(
        [str(WUZI), "rules", "opening", "h8", "g7", "d4"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )
    assert bad.returncode != 0
    assert bad.stdout == ""
    assert "B3 d4 is outside the central 5×5" in bad.stderr
