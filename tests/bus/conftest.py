"""Fixtures: the real Mosquitto brokers of the bus tests (see bus_helpers.MosquittoBroker).

Mosquitto is a required system dependency (scripts/system-deps.sh installs it; `make
setup` runs it). When it is missing these fixtures FAIL, on purpose, rather than skip: a
skipped broker test in CI would hide that the bus was never exercised.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from bus_helpers import MosquittoBroker


@pytest.fixture(scope="session")
def mosquitto(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MosquittoBroker]:
    """The shared broker for the session (persistence off). Tests use their own venue names."""
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
