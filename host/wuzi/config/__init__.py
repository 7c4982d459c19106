"""The venue configuration: one TOML file describing a whole venue (see docs/config.md).

``load_venue(path)`` and ``parse_venue(text)`` turn it into frozen dataclasses or raise a
`ConfigError` naming the file and the exact key that is wrong.
"""

from wuzi.config.venue import (
    BrokerConfig,
    ConfigError,
    EventConfig,
    GameDefaults,
    GpioClockPins,
    HostConfig,
    LinkConfig,
    RefereeConfig,
    TableConfig,
    VenueConfig,
    load_venue,
    parse_venue,
)

__all__ = [
    "BrokerConfig",
    "ConfigError",
    "EventConfig",
    "GameDefaults",
    "GpioClockPins",
    "HostConfig",
    "LinkConfig",
    "RefereeConfig",
    "TableConfig",
    "VenueConfig",
    "load_venue",
    "parse_venue",
]
