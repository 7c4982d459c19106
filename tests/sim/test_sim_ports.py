"""A simulated device is a serial URL like any other (issue 34): wuzi-sim registers the
``sim://`` scheme through the ``wuzi.serial_urls`` entry point, wuzi.io hands it to pyserial,
and the host's own opener reaches an idle virtual board or clock unit that answers INFO."""

from __future__ import annotations

from importlib.metadata import entry_points

import pytest

from wuzi.io.discovery import PortUnavailable, probe
from wuzi.io.ports import ENTRY_POINT_GROUP, register_url_handlers


def test_wuzi_sim_registers_its_url_handlers_by_entry_point() -> None:
    points = {p.name: p.value for p in entry_points(group=ENTRY_POINT_GROUP)}
    assert points == {"sim": "wuzi.sim.ports"}
    assert "wuzi.sim.ports" in register_url_handlers()
    assert register_url_handlers().count("wuzi.sim.ports") == 1  # idempotent


@pytest.mark.parametrize(
    ("url", "kind", "serial"),
    [
        ("sim://board/3", "board", "SIM-0001"),
        ("sim://board/4?serial=SIM-0004", "board", "SIM-0004"),
        ("sim://clock/3", "clock", "SIMCLK-0001"),
    ],
)
def test_the_hosts_opener_reaches_a_simulated_device_by_url(
    url: str, kind: str, serial: str
) -> None:
    info = probe(url, timeout_s=3.0)
    assert (info.kind, info.serial) == (kind, serial)


@pytest.mark.parametrize("url", ["sim://printer/1", "sim://board/1?speed=9"])
def test_a_url_naming_no_simulated_device_is_refused_with_the_url(url: str) -> None:
    with pytest.raises(PortUnavailable, match="sim://"):
        probe(url, timeout_s=1.0)
