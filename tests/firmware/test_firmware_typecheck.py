"""The firmware type-checks under mypy --strict against the MicroPython rp2 stubs, and the
host's copies of the firmware files are the firmware files themselves."""

from __future__ import annotations

from pathlib import Path

import typecheck_firmware

import wuzi.link.debounce
import wuzi.link.wire
import wuzi.sim.firmware.board
import wuzi.sim.firmware.clock_unit

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"


def test_firmware_passes_mypy_with_micropython_stubs() -> None:
    result = typecheck_firmware.run_mypy()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success" in result.stdout


def test_host_imports_the_firmware_files_not_copies() -> None:
    for module, name in (
        (wuzi.link.wire, "wire.py"),
        (wuzi.link.debounce, "debounce.py"),
        (wuzi.sim.firmware.board, "board.py"),
        (wuzi.sim.firmware.clock_unit, "clock_unit.py"),
    ):
        assert module.__file__ is not None
        assert Path(module.__file__).read_bytes() == (FIRMWARE / name).read_bytes()
