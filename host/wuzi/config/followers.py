"""The venue file's ``[followers]``: the public broker that the spectators' page reads.

::

    [followers]                   # optional: without it the venue serves no followers
    websockets_port = 9001        # the viewers' MQTT-over-WebSockets port (default 9001;
                                  # 0: no followers' broker at all)
    websockets_bind = "0.0.0.0"   # the address it listens on (default: every interface)
    websockets_url = "wss://live.example.org/mqtt"  # what viewers' browsers open (default
                                  # ws://<the [broker] url's host>:<websockets_port>/)
    local_port = 1884             # loopback port where the venue broker's bridge delivers
                                  # the public trees (default 1884)
    max_viewers = 5000            # connections the WebSockets listener takes (default 5000)

Why a broker of its own and not a second listener of the venue's: Mosquitto's client ids
are one name space across its listeners, so an anonymous viewer that connects with a
host's client id would push that host off the venue's bus (tried on Mosquitto 2.0.11:
"Client … already connected, closing old connection"). The followers' broker holds only
the public trees, and its one privileged client — the venue broker's bridge — logs in on a
loopback listener under a client id no viewer can guess (`wuzi.venue.followers`).

Off without the section: a followers' broker is a second Mosquitto process to run and
expose, a decision of the organisers (docs/followers.md). ``[followers]`` with no keys
turns it on with the defaults. Pure: `parse_followers` raises `SectionError` (key,
problem) like `wuzi.config.broadcast`; `wuzi.config.venue` names the file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from wuzi.config.broadcast import SectionError, check_known_keys

__all__ = [
    "DEFAULT_LOCAL_PORT",
    "DEFAULT_MAX_VIEWERS",
    "DEFAULT_WEBSOCKETS_PORT",
    "FollowersSettings",
    "parse_followers",
]

DEFAULT_WEBSOCKETS_PORT = 9001
DEFAULT_LOCAL_PORT = 1884
DEFAULT_MAX_VIEWERS = 5000
MAX_VIEWERS = 1_000_000
_KNOWN = ("websockets_port", "websockets_bind", "websockets_url", "local_port", "max_viewers")
_BIND = re.compile(r"[0-9A-Za-z.:-]{1,253}")
_URL = re.compile(r"wss?://[^\s#]+", re.ASCII)


@dataclass(frozen=True)
class FollowersSettings:
    """``[followers]`` as read, defaults filled in; ``websockets_url`` is what the page
    is given (``wuzi web --mqtt-url``)."""

    websockets_port: int
    websockets_bind: str
    websockets_url: str
    local_port: int = DEFAULT_LOCAL_PORT
    max_viewers: int = DEFAULT_MAX_VIEWERS


def _port(table: dict[str, Any], key: str, default: int, zero: bool) -> int:
    value = table.get(key, default)
    low = 0 if zero else 1
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= 65535:
        raise SectionError(f"followers.{key}", f"must be a port {low}-65535, not {value!r}")
    return value


def parse_followers(data: dict[str, Any], broker_host: str) -> FollowersSettings | None:
    """``[followers]`` of the venue file's parsed TOML ``data``; None without the section
    or with ``websockets_port = 0``. ``broker_host`` (the ``[broker]`` url's host) makes
    the default ``websockets_url``."""
    table = data.get("followers")
    if table is None:
        return None
    if not isinstance(table, dict):
        raise SectionError("followers", f"expected a table ([followers]), not {table!r}")
    check_known_keys(table, "followers", _KNOWN)
    port = _port(table, "websockets_port", DEFAULT_WEBSOCKETS_PORT, zero=True)
    local = _port(table, "local_port", DEFAULT_LOCAL_PORT, zero=False)
    if port == 0:
        return None
    if local == port:
        raise SectionError(
            "followers.local_port", f"is the WebSockets port {port} too: give another port"
        )
    bind = table.get("websockets_bind", "0.0.0.0")
    if not isinstance(bind, str) or not _BIND.fullmatch(bind):
        raise SectionError("followers.websockets_bind", f"{bind!r} is not an address")
    host = broker_host if ":" not in broker_host else f"[{broker_host}]"
    url = table.get("websockets_url", f"ws://{host}:{port}/")
    if not isinstance(url, str) or not _URL.fullmatch(url):
        raise SectionError(
            "followers.websockets_url",
            f"{url!r} is not a ws:// or wss:// URL (e.g. wss://live.example.org/mqtt)",
        )
    viewers = table.get("max_viewers", DEFAULT_MAX_VIEWERS)
    if isinstance(viewers, bool) or not isinstance(viewers, int) or not 1 <= viewers <= MAX_VIEWERS:
        raise SectionError(
            "followers.max_viewers", f"must be a number 1-{MAX_VIEWERS}, not {viewers!r}"
        )
    return FollowersSettings(port, bind, url, local, viewers)
