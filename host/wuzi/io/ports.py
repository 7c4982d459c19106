"""Serial URL schemes that installed plug-ins add (``serial_for_url``): a distribution names
a package of pyserial URL handlers (modules ``protocol_<scheme>``) under the entry-point
group ``wuzi.serial_urls``, and ``register_url_handlers`` hands every such package to
pyserial. wuzi-sim registers ``sim://board`` and ``sim://clock`` this way, so a venue file's
simulated device is a port like any other and the product never names the simulators.

The plug-ins are looked up once per process, and only when a URL is opened:
``importlib.metadata`` takes some 40 ms to import on a Pi-class machine and each lookup
scans every installed distribution, while a venue's devices are device paths."""

from __future__ import annotations

import serial

__all__ = ["ENTRY_POINT_GROUP", "register_url_handlers"]

ENTRY_POINT_GROUP = "wuzi.serial_urls"

_looked_up: list[str] | None = None


def register_url_handlers() -> list[str]:
    """Add the handler packages of every installed plug-in to pyserial's search list
    (idempotent); the packages now searched, in order."""
    global _looked_up
    packages: list[str] = serial.protocol_handler_packages
    if _looked_up is None:
        from importlib.metadata import entry_points  # only for a URL (see above)

        _looked_up = [point.value for point in entry_points(group=ENTRY_POINT_GROUP)]
    for value in _looked_up:
        if value not in packages:
            packages.append(value)
    return list(packages)
