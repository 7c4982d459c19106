"""The venue broker's bridge to an outside broker: the public trees only, out only.

An internet audience must never touch the venue network. So the venue's Mosquitto opens
one connection *out* to a broker outside (a Mosquitto, or a cluster such as EMQX or
HiveMQ) and copies to it exactly two trees of the venue::

    wuzi/v1/<venue>/public/#         the delayed feed (`wuzi broadcast`)
    wuzi/v1/<venue>/competition/#    the director's competition summary

in the ``out`` direction only: nothing published on the outside broker comes back into
the venue (a forged move, a forged referee command), and nothing else of the venue —
the live ``table/`` tree, ``arbiter/``, assignments, host statuses — ever leaves it.
``notifications false`` keeps Mosquitto's own ``$SYS`` connection notices off the
outside broker too. ``wuzi web --broker mqtts://outside…`` then serves the same page
from anywhere, reading the copy.

`bridge_conf` writes the ``connection`` block for ``mosquitto.conf`` from the venue
file's ``[bridge]`` (`wuzi.config.broadcast.BridgeSettings`). Mosquitto wants the remote
password in the configuration itself, so the block is meant for a file of its own, mode
0640 (``DIR/conf.d/bridge.conf``, pulled in with ``include_dir``), never the 0644
``mosquitto.conf``. Pure but for `read_bridge_password`.

On the outside broker, give the bridge's account write access to those two trees of the
venue and nothing else, and the public readers read access to them only (docs/broadcast.md).
"""

from __future__ import annotations

from wuzi.bus import topics
from wuzi.config.broadcast import BridgeSettings
from wuzi.config.credentials import read_secret_file

__all__ = [
    "BRIDGED_LEVELS",
    "BridgeError",
    "bridge_conf",
    "bridge_topics",
    "conf_value",
    "read_bridge_password",
]

BRIDGED_LEVELS = ("public", "competition")
"""The venue's top levels the bridge carries out; nothing else crosses."""
QOS = 1


class BridgeError(ValueError):
    """A ``[bridge]`` that cannot be written into Mosquitto's configuration; says why."""


def bridge_topics(venue_id: str) -> tuple[str, ...]:
    """The topic filters the bridge copies out: ``wuzi/v1/<venue>/public/#`` and
    ``wuzi/v1/<venue>/competition/#``."""
    base = topics.competition_state(venue_id).removesuffix("/competition/state")
    return tuple(f"{base}/{level}/#" for level in BRIDGED_LEVELS)


def read_bridge_password(settings: BridgeSettings) -> str | None:
    """The bridge's remote password from ``[bridge] password_file`` (None without one);
    `BridgeError` naming the file when it cannot be read."""
    if settings.password_file is None:
        return None
    try:
        return read_secret_file(settings.password_file)
    except (OSError, ValueError) as exc:
        reason = (getattr(exc, "strerror", None) or str(exc)).removeprefix("cannot read: ")
        raise BridgeError(
            f"bridge.password_file: cannot read {settings.password_file}: {reason}"
        ) from None


def conf_value(key: str, value: str) -> str:
    """``value`` as one word of ``mosquitto.conf``; `BridgeError` naming ``key`` if it
    cannot be one (Mosquitto would read a space as the end of the value, '#' as a
    comment)."""
    if not value or any(c.isspace() for c in value) or "#" in value[:1]:
        raise BridgeError(
            f"{key}: {value!r} cannot be written into mosquitto.conf (empty, white space, "
            "or a leading '#')"
        )
    return value


def bridge_conf(venue_id: str, settings: BridgeSettings, password: str | None = None) -> str:
    """The ``connection`` block for ``mosquitto.conf`` (module doc)."""
    lines = [
        f"# Bridge of venue {venue_id} to an outside broker: the public trees only, out only",
        "# (wuzi venue broker-config; docs/broadcast.md). Holds the remote password: mode 0640.",
        f"connection {conf_value('bridge.name', settings.name)}",
        f"address {settings.host}:{settings.port}",
    ]
    lines += [f"topic {pattern} out {QOS}" for pattern in bridge_topics(venue_id)]
    lines += [
        "bridge_protocol_version mqttv311",
        f"remote_clientid {settings.name}",
        "cleansession false",  # the outside broker keeps the session across a link loss
        "notifications false",  # no $SYS connection notices outside
        "try_private false",  # a plain client to any broker (EMQX, HiveMQ, Mosquitto)
        "start_type automatic",
        "restart_timeout 2 30",
        "keepalive_interval 30",
    ]
    if settings.username is not None:
        lines.append(f"remote_username {conf_value('bridge.username', settings.username)}")
        if password is not None:
            lines.append(f"remote_password {conf_value('bridge.password_file', password)}")
    elif password is not None:
        raise BridgeError("bridge.password_file: a password needs bridge.username")
    if settings.tls:
        if settings.cafile is not None:
            lines.append(f"bridge_cafile {conf_value('bridge.cafile', settings.cafile)}")
        else:
            lines.append("bridge_capath /etc/ssl/certs")
        lines += ["bridge_tls_version tlsv1.2", "bridge_insecure false"]
    return "\n".join(lines) + "\n"
