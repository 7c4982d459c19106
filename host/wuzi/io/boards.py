"""Board descriptions from ``boards/<revision>/board.json``: pin map, scan timing, host settings.

The same file is copied to the MCU by ``make flash`` (firmware/main.py reads it at boot) and
read here by the host drivers, so the debounce window the host allows for and the one the MCU
applies cannot drift apart. Loading checks every key it uses and names the file and key of
the first problem.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from wuzi.base.files import BOARD_SPEC, FileError, read_text
from wuzi.link.errors import BoardSpecError

KINDS = ("sensor", "clock")


def boards_dir() -> Path:
    """The board revisions: package data in an installed wheel (wuzi/io/board-revisions/);
    in the source tree and an editable install that folder links to the repository's boards/.
    """
    return (Path(__file__).resolve().parent / "board-revisions").resolve()


@dataclass(frozen=True)
class BoardSpec:
    revision: str
    kind: str
    scan_period_us: int
    debounce_scans: int
    heartbeat_ms: int
    snapshot_ms: int
    log_size: int
    settle_ms: int
    link_timeout_ms: int
    raw: dict[str, Any]
    point_leds: bool = False
    """An LED under every point (``sensor-rev-b``: ``"point_leds": true`` and its
    ``point_led`` section): the board lights the point to mirror in a linked game."""

    @property
    def debounce_window_ms(self) -> float:
        """How long the MCU needs to trust a reading: the debounce scans times the period."""
        return self.debounce_scans * self.scan_period_us / 1000.0


def _get(data: dict[str, Any], path: str, kind: type, where: str, default: Any = None) -> Any:
    node: Any = data
    for key in path.split("."):
        if not isinstance(node, dict) or key not in node:
            if default is not None:
                return default
            raise BoardSpecError(f"{where}: missing key {path!r}")
        node = node[key]
    if not isinstance(node, kind) or (isinstance(node, bool) and kind is int):
        raise BoardSpecError(f"{where}: {path!r} must be {kind.__name__}, not {node!r}")
    return node


def parse_board_spec(text: str, where: str = "board.json") -> BoardSpec:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BoardSpecError(f"{where}: not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise BoardSpecError(f"{where}: the top level must be an object")
    kind = _get(data, "kind", str, where)
    if kind not in KINDS:
        raise BoardSpecError(f"{where}: 'kind' must be one of {', '.join(KINDS)}, not {kind!r}")
    spec = BoardSpec(
        revision=_get(data, "revision", str, where),
        kind=kind,
        scan_period_us=_get(data, "scan.period_us", int, where),
        debounce_scans=_get(data, "scan.debounce_scans", int, where, 1),
        heartbeat_ms=_get(data, "scan.heartbeat_ms", int, where),
        snapshot_ms=_get(data, "scan.snapshot_ms", int, where, 2000),
        log_size=_get(data, "scan.log_size", int, where),
        settle_ms=_get(data, "host.settle_ms", int, where, 150),
        link_timeout_ms=_get(data, "host.link_timeout_ms", int, where),
        raw=data,
    )
    for name in ("scan_period_us", "debounce_scans", "heartbeat_ms", "log_size"):
        if getattr(spec, name) <= 0:
            raise BoardSpecError(f"{where}: {name} must be positive, not {getattr(spec, name)}")
    if spec.scan_period_us > 10_000 and spec.kind == "sensor":
        raise BoardSpecError(f"{where}: scan.period_us {spec.scan_period_us} is slower than 100 Hz")
    point_leds = _get(data, "point_leds", bool, where, False)
    if point_leds:
        _check_point_leds(data, kind, where)
    return replace(spec, point_leds=point_leds)


def _check_point_leds(data: dict[str, Any], kind: str, where: str) -> None:
    """What firmware/main.py reads to drive the point LEDs, checked here so a bad
    board.json is named on the host before it is flashed (the MCU could only fail at boot)."""
    if kind != "sensor":
        raise BoardSpecError(f"{where}: 'point_leds' is for a sensor board, not a {kind}")
    for pin in ("pins.led_data", "pins.led_power"):
        _get(data, pin, int, where)
    # what the firmware assumes (firmware/point_led.py): one LED a point, G-R-B bytes
    for key, fixed in (("count", 225), ("order", "GRB")):
        value = _get(data, f"point_led.{key}", type(fixed), where)
        if value != fixed:
            raise BoardSpecError(
                f"{where}: 'point_led.{key}' must be {fixed!r} (the firmware's), not {value!r}"
            )
    blink_ms = _get(data, "point_led.blink_ms", int, where)
    if blink_ms < 50:
        raise BoardSpecError(f"{where}: 'point_led.blink_ms' must be at least 50, not {blink_ms}")
    for colour in ("black", "white"):
        rgb = _get(data, f"point_led.colours.{colour}", list, where)
        if len(rgb) != 3 or not all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 255 for v in rgb
        ):
            raise BoardSpecError(
                f"{where}: 'point_led.colours.{colour}' must be [r, g, b] of 0..255, not {rgb!r}"
            )


def load_board_spec(revision: str, root: Path | None = None) -> BoardSpec:
    folder = (root or boards_dir()) / revision
    path = folder / "board.json"
    try:
        text = read_text(path, BOARD_SPEC)
    except FileError as exc:
        if exc.missing:
            raise BoardSpecError(f"no board revision {revision!r}: {path} does not exist") from None
        raise BoardSpecError(str(exc)) from None
    spec = parse_board_spec(text, str(path))
    if spec.revision != revision:
        raise BoardSpecError(f"{path}: says revision {spec.revision!r}, its folder {revision!r}")
    return spec
