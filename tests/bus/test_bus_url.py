"""Broker URLs from the venue config: scheme, host, port, credentials, TLS."""

from __future__ import annotations

import pytest

from wuzi.bus.client import BusClient
from wuzi.bus.schemas import MAX_PAYLOAD_BYTES, TableEvent, TableState
from wuzi.bus.url import BrokerAddress, BusConfigError, parse_broker_url


@pytest.mark.parametrize(
    ("url", "address"),
    [
        ("mqtt://broker.local", BrokerAddress("broker.local", 1883, False)),
        ("mqtt://10.0.0.2:1884", BrokerAddress("10.0.0.2", 1884, False)),
        ("mqtts://broker", BrokerAddress("broker", 8883, True)),
        (
            "mqtts://pi-3:s%40cret@broker:9883/",
            BrokerAddress("broker", 9883, True, "pi-3", "s@cret"),
        ),
    ],
)
def test_urls(url: str, address: BrokerAddress) -> None:
    assert parse_broker_url(url) == address


@pytest.mark.parametrize(
    ("url", "complaint"),
    [
        ("http://broker", "scheme must be mqtt:// or mqtts://"),
        ("broker:1883", "scheme must be"),
        ("mqtt://", "no host"),
        ("mqtt://broker:99999", "port must be a number"),
        ("mqtt://broker:abc", "port must be a number"),
        ("mqtt://broker/topic", "unexpected path"),
    ],
)
def test_bad_urls_say_what_is_wrong(url: str, complaint: str) -> None:
    with pytest.raises(BusConfigError, match=complaint):
        parse_broker_url(url)


def test_publishing_outside_the_tree_is_refused_before_anything_is_sent() -> None:
    client = BusClient("mqtt://127.0.0.1:1", "c1")
    state = TableState(1, None, 0, "idle", (), 0, 0, None, None, 0)
    with pytest.raises(BusConfigError, match="not under wuzi/v1"):
        client.publish("elsewhere/table/1/state", state)
    assert client.pending() == []


def test_a_message_too_big_for_receivers_is_refused_at_the_sender() -> None:
    client = BusClient("mqtt://127.0.0.1:1", "c1")
    huge = TableEvent("e1", 1, "g1", 0, "note", 0, {"text": "x" * (MAX_PAYLOAD_BYTES + 1)})
    with pytest.raises(BusConfigError, match="exceeds 262144"):
        client.publish("wuzi/v1/hall/table/1/events", huge, key="e1")
    assert client.pending() == []


def test_an_unclosed_ipv6_literal_is_a_config_error() -> None:
    from wuzi.bus.url import BusConfigError, parse_broker_url

    with pytest.raises(BusConfigError, match=r"'mqtt://\[b'.*Invalid IPv6 URL"):
        parse_broker_url("mqtt://[b")
