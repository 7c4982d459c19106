"""`wuzi board flash` (wuzi.io.flash): the firmware and a board description, as this install
carries them, copied with mpremote; an unknown revision is refused with the known ones."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from wuzi.cli import main
from wuzi.io.flash import FIRMWARE_FILES, FlashError, firmware_dir, flash_command

ROOT = Path(__file__).resolve().parents[2]


def test_the_command_copies_every_firmware_file_and_the_board_description() -> None:
    command = flash_command("/dev/ttyACM3", "clock-rev-a", python="py")
    assert command[:5] == ["py", "-m", "mpremote", "connect", "/dev/ttyACM3"]
    copied = command[6 : 6 + len(FIRMWARE_FILES)]
    assert [Path(p).name for p in copied] == list(FIRMWARE_FILES)
    assert all(Path(p).parent == ROOT / "firmware" for p in copied)  # the link's target
    assert command[6 + len(FIRMWARE_FILES) :] == [
        ":", "+", "cp", str(ROOT / "boards/clock-rev-a/board.json"), ":board.json", "+", "reset",
    ]  # fmt: skip
    # what main.py imports is all there (fake_machine.py is the tests', not flashed)
    assert {p.name for p in firmware_dir().glob("*.py")} - set(FIRMWARE_FILES) == {
        "fake_machine.py"
    }


def test_an_unknown_revision_is_refused_with_the_known_ones(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(FlashError, match=r"no board revision 'rev-z' in .*known: clock-rev-a, "):
        flash_command("/dev/ttyACM0", "rev-z")
    assert main(["board", "flash", "/dev/ttyACM0", "--board", "rev-z"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("wuzi board flash: no board revision 'rev-z' in ")


def test_a_dry_run_prints_the_command_and_runs_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["board", "flash", "/dev/ttyACM9", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{sys.executable} -m mpremote connect /dev/ttyACM9 cp ")
    assert "sensor-rev-a/board.json :board.json + reset" in out
