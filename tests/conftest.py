"""Test-wide settings, the shared fixtures, and the markers of what a test needs.

Hypothesis explores new random examples on every developer run (that is how it finds
bugs), but CI must judge a commit, not the luck of a draw: `.ci/run` sets
``HYPOTHESIS_PROFILE=ci``, which derandomizes the search so a green commit stays green.
A failure found on a developer run becomes a named regression test.

Markers (pyproject.toml) say what a test needs, so a run can choose (``-m "not display"``
on a machine without GL, ``-m pty`` after a change to the serial layer). They are given
here, from what the test uses — a broker fixture, or a module of ``tests/support`` or of the
simulator that starts a broker, opens ptys or renders — so a new test is marked without
anyone remembering to: ``broker`` (a real Mosquitto), ``pty`` (simulated boards and clock
units on ptys), ``display`` (pyglet, off screen). ``slow`` and ``bench`` are set by hand.

Mosquitto is a required system dependency (scripts/system-deps.sh installs it; `make
setup` runs it). When it is missing the broker fixtures FAIL, on purpose, rather than
skip: a skipped broker test in CI would hide that the bus was never exercised.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import settings

from support.broker import MosquittoBroker
from wuzi.bus.client import BusClient

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture(scope="session")
def mosquitto(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MosquittoBroker]:
    """The shared broker of the session (persistence off). Each test uses its own venue id."""
    broker = MosquittoBroker(tmp_path_factory.mktemp("mosquitto"))
    broker.start()
    yield broker
    broker.stop()


@pytest.fixture
def durable_mosquitto(tmp_path: Path) -> Iterator[MosquittoBroker]:
    """A private broker with persistence on, for tests that stop and restart it: the
    subscribers' persistent sessions and queued messages survive the restart, as they do
    on the venue broker in production."""
    broker = MosquittoBroker(tmp_path, persistence=True)
    broker.start()
    yield broker
    broker.stop()


@pytest.fixture
def clients() -> Iterator[list[BusClient]]:
    """The bus clients a test made (append each one): closed after the test, so no
    network thread or broker session outlives it."""
    made: list[BusClient] = []
    yield made
    for client in made:
        client.close()


# What a test module uses, by the module its names come from -> the marker it needs.
_NEEDS_BY_SOURCE: tuple[tuple[str, str], ...] = (
    ("support.broker", "broker"),
    ("support.acl", "broker"),
    ("support.host", "broker"),
    ("support.host", "pty"),
    ("support.service", "broker"),
    ("support.service", "pty"),
    ("support.screens", "display"),
    ("wuzi.sim.embedded_broker", "broker"),
    ("wuzi.sim.final", "broker"),
    ("wuzi.sim.final", "pty"),
    ("wuzi.sim.box", "broker"),
    ("wuzi.sim.net.halls", "broker"),
    ("wuzi.sim.devices", "pty"),
    ("wuzi.sim.bots.table_driver", "pty"),
    ("wuzi.io.serial_link", "pty"),
    ("wuzi.display.headless", "display"),
    ("wuzi.display.snapshot", "display"),
    ("wuzi.display.fonts", "display"),
    ("wuzi.display.glyph_text", "display"),
    ("wuzi.display.scoreboard_render", "display"),
    ("wuzi.display.scoreboard_card", "display"),
    ("wuzi.display.scoreboard_app", "display"),
    ("wuzi.display.scoreboard_cli", "display"),
    ("wuzi.display.clock_render", "display"),
    ("wuzi.display.clock_cli", "display"),
    ("wuzi.display.arbiter_render", "display"),
    ("wuzi.display.arbiter_cli", "display"),
    ("pty", "pty"),
)
_NEEDS_BY_FIXTURE = {"mosquitto": "broker", "durable_mosquitto": "broker"}


def _sources(module: ModuleType) -> set[str]:
    """The modules a test module takes its names from (``import x`` and ``from x import y``)."""
    found: set[str] = set()
    for value in vars(module).values():
        if isinstance(value, ModuleType):
            found.add(value.__name__)
        else:
            owner = getattr(value, "__module__", None)
            if isinstance(owner, str):
                found.add(owner)
    return found


def _needs(module: ModuleType, cache: dict[str, set[str]]) -> set[str]:
    name = module.__name__
    if name not in cache:
        sources = _sources(module)
        cache[name] = {
            marker
            for prefix, marker in _NEEDS_BY_SOURCE
            if any(s == prefix or s.startswith(prefix + ".") for s in sources)
        }
    return cache[name]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    cache: dict[str, set[str]] = {}
    for item in items:
        module = getattr(item, "module", None)
        needs = _needs(module, cache) if isinstance(module, ModuleType) else set()
        needs |= {m for f, m in _NEEDS_BY_FIXTURE.items() if f in getattr(item, "fixturenames", ())}
        for marker in sorted(needs):
            item.add_marker(marker)
