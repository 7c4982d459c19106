"""Fixtures of the simulation tests: a real Mosquitto broker (the bus tests' helper) and
the host harness of tests/host (a real ``wuzi host`` on simulated tables) importable."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bus"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "host"))

from bus_helpers import MosquittoBroker


@pytest.fixture(scope="session")
def mosquitto(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MosquittoBroker]:
    """One broker for the simulation tests; each test uses its own venue id."""
    broker = MosquittoBroker(tmp_path_factory.mktemp("sim-mosquitto"))
    broker.start()
    yield broker
    broker.stop()
