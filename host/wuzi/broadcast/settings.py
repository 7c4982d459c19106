"""The venue file with the public feed's sections: `load` gives the venue and them.

`wuzi.config.venue.load_venue` reads ``[broadcast]`` and ``[bridge]`` itself
(`wuzi.config.broadcast`), so this is the venue file as every process reads it, with the
two sections at hand for ``wuzi broadcast`` and ``wuzi web``.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from wuzi.config.broadcast import BridgeSettings, BroadcastSettings
from wuzi.config.venue import VenueConfig, load_venue

__all__ = ["PublicFeedVenue", "load"]


class PublicFeedVenue(NamedTuple):
    venue: VenueConfig
    broadcast: BroadcastSettings
    bridge: BridgeSettings | None


def load(path: str | Path) -> PublicFeedVenue:
    """The venue file at ``path``: `ConfigError` naming the file and the key when wrong."""
    venue = load_venue(path)
    return PublicFeedVenue(venue, venue.broadcast, venue.bridge)
