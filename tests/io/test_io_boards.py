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


def test_rev_b_has_point_leds_and_rev_a_has_none() -> None:
    rev_b = load_board_spec("sensor-rev-b")
    assert rev_b.point_leds and rev_b.kind == "sensor"
    assert rev_b.raw["pins"]["led_data"] != rev_b.raw["pins"]["led_power"]
    rev_a = load_board_spec("sensor-rev-a")
    assert not rev_a.point_leds
    # rev-b is rev-a plus the LEDs: the same matrix pins and scan timing
    assert {k: v for k, v in rev_b.raw["pins"].items() if not k.startswith("led_")} == (
        rev_a.raw["pins"]
    )
    assert rev_b.raw["scan"] == rev_a.raw["scan"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["pins"].pop("led_power"), r"missing key 'pins\.led_power'"),
        (lambda d: d["point_led"].update(blink_ms=10), "blink_ms' must be at least 50, not 10"),
        (
            lambda d: d["point_led"]["colours"].update(black=[0, 300, 0]),
            r"'point_led\.colours\.black' must be \[r, g, b\] of 0\.\.255",
        ),
        (lambda d: d.update(point_leds="yes"), "'point_leds' must be bool"),
        (lambda d: d["point_led"].update(order="RGB"), "'point_led.order' must be 'GRB'"),
        (lambda d: d["point_led"].update(count=224), "'point_led.count' must be 225"),
        (lambda d: d.update(kind="clock"), "'point_leds' is for a sensor board, not a clock"),
    ],
)
def test_a_bad_point_led_description_names_the_key(change: object, message: str) -> None:
    data = json.loads((Path(__file__).parents[2] / "boards/sensor-rev-b/board.json").read_text())
    change(data)  # type: ignore[operator]
    with pytest.raises(BoardSpecError, match=message):
        parse_board_spec(json.dumps(data), "rev-b.json")
