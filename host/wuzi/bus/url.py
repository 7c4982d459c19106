"""The broker's address as a venue file or a command line gives it: ``mqtt://[user:pass@]host[:port]``
or ``mqtts://…``. Pure (no paho): the venue file is checked without loading the MQTT client."""

from __future__ import annotations

import urllib.parse
from dataclasses import dataclass

__all__ = ["BrokerAddress", "BusConfigError", "parse_broker_url"]


class BusConfigError(ValueError):
    """A broker URL or client setting that cannot work; says which part is wrong."""


@dataclass(frozen=True)
class BrokerAddress:
    host: str
    port: int
    tls: bool
    username: str | None = None
    password: str | None = None


def parse_broker_url(url: str) -> BrokerAddress:
    """``mqtt://[user:pass@]host[:port]`` (default 1883) or ``mqtts://…`` (TLS, 8883)."""
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError as exc:  # e.g. "mqtt://[b": an unclosed IPv6 literal
        raise BusConfigError(f"broker URL {url!r}: {exc}") from None
    if parts.scheme not in ("mqtt", "mqtts"):
        raise BusConfigError(f"broker URL {url!r}: scheme must be mqtt:// or mqtts://")
    if not parts.hostname:
        raise BusConfigError(f"broker URL {url!r}: no host")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise BusConfigError(f"broker URL {url!r}: unexpected path, query or fragment")
    try:
        port = parts.port
    except ValueError:
        raise BusConfigError(f"broker URL {url!r}: port must be a number 1-65535") from None
    tls = parts.scheme == "mqtts"
    return BrokerAddress(
        host=parts.hostname,
        port=port or (8883 if tls else 1883),
        tls=tls,
        username=urllib.parse.unquote(parts.username) if parts.username else None,
        password=urllib.parse.unquote(parts.password) if parts.password else None,
    )
