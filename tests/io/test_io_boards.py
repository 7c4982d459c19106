"""Board descriptions: the shipped revisions load; bad files say which key is wrong."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wuzi.io.boards import load_board_spec, parse_board_spec
from wuzi.link.errors import BoardSpecError


def test_shipped_revisions_load() -> None:
    sensor = load_board_spec("sensor-rev-a")
    assert sensor.kind == "sensor" and sensor.scan_period_us <= 10_000  # at least 100 Hz
    assert sensor.debounce_window_ms == sensor.debounce_scans * sensor.scan_period_us / 1000
    clock = load_board_spec("clock-rev-a")
    assert clock.kind == "clock" and clock.raw["pins"]["buttons"]


def test_errors_name_the_file_and_key(tmp_path: Path) -> None:
    good = json.loads((Path(__file__).parents[2] / "boards/sensor-rev-a/board.json").read_text())
    bad = dict(good, scan=dict(good["scan"], period_us="fast"))
    with pytest.raises(BoardSpecError, match=r"x\.json: 'scan\.period_us' must be int"):
        parse_board_spec(json.dumps(bad), "x.json")
    del bad["scan"]
    with pytest.raises(BoardSpecError, match=r"missing key 'scan\.period_us'"):
        parse_board_spec(json.dumps(bad), "x.json")
    slow = dict(good, scan=dict(good["scan"], period_us=20_000))
    with pytest.raises(BoardSpecError, match="slower than 100 Hz"):
        parse_board_spec(json.dumps(slow), "x.json")
    with pytest.raises(BoardSpecError, match="not JSON"):
        parse_board_spec("{", "x.json")
    with pytest.raises(BoardSpecError, match="no board revision 'rev-z'"):
        load_board_spec("rev-z", tmp_path)
