"""Serial URL schemes that installed plug-ins add (``serial_for_url``): a distribution names
a package of pyserial URL handlers (modules ``protocol_<scheme>``) under the entry-point
group ``wuzi.serial_urls``, and ``register_url_handlers`` hands every such package to
pyserial. wuzi-sim registers ``sim://board`` and ``sim://clock`` this way, so a venue file's
simulated device is a port like any other and the product never names the simulators."""

from __future__ import annotations

from importlib.metadata import entry_points

import serial

__all__ = ["ENTRY_POINT_GROUP", "register_url_handlers"]

ENTRY_POINT_GROUP = "wuzi.serial_urls"


def register_url_handlers() -> list[str]:
    """Add the handler packages of every installed plug-in to pyserial's search list
    (idempotent); the packages now searched, in order."""
    packages: list[str] = serial.protocol_handler_packages
    for point in entry_points(group=ENTRY_POINT_GROUP):
        if point.value not in packages:
            packages.append(point.value)
    return list(packages)
