"""The central broker the linked halls meet at: its accounts and ACL, from the halls' venue
files (``wuzi venue central-config``; docs/linked.md "Bridged halls").

The central broker knows no player, host or screen: only one account per hall, the hall
broker's bridge (``[central] username``, default ``wuzi.<venue>.bridge.line``). Each may

* write its own venue's ``line/<link>/#`` of each of its links, and nothing else: not
  another venue's tree (a hall cannot publish as the other hall's host, even by editing
  its own bridge), not its own venue's table states, assignments or referee topics;
* read the other venue's ``line/<link>/#`` of those links, and nothing else.

The two files of a link must agree, or the halls would never meet: `check_halls` pairs
each link with the other venue's link of the same id and refuses, naming the file and
key, a link whose other venue's file is not given, whose tables do not match, whose two
sides both (or neither) own the game, and halls that name different central brokers or
share a venue id or a bridge login.

Pure: venue configurations in, texts out.
"""

from __future__ import annotations

from dataclasses import dataclass

from wuzi.bus import topics
from wuzi.config.links import LinkConfig
from wuzi.config.venue import ConfigError, VenueConfig
from wuzi.venue.broker_config import BrokerSettings, broker_lines

__all__ = [
    "CentralAccount",
    "central_accounts",
    "central_acl_text",
    "central_conf",
    "check_halls",
]

READ = "read"
WRITE = "write"


@dataclass(frozen=True)
class CentralAccount:
    """One hall's bridge login at the central broker and its ``(access, topic)`` rules."""

    venue: str
    username: str
    password_file: str
    rules: tuple[tuple[str, str], ...]


def _find(hall: VenueConfig, link_id: str) -> LinkConfig | None:
    for link in hall.links:
        if link.id == link_id:
            return link
    return None


def check_halls(halls: tuple[VenueConfig, ...]) -> None:
    """`ConfigError` naming the venue file and key of the first disagreement (module doc)."""
    if not halls:
        raise ConfigError("central-config", "", "give the venue files of the linked halls")
    by_id: dict[str, VenueConfig] = {}
    users: dict[str, str] = {}
    first = halls[0]
    for hall in halls:
        if hall.central is None:
            raise ConfigError(hall.source, "links", "the venue file links no table")
        if hall.central.event is not None:
            raise ConfigError(
                hall.source,
                "central.event",
                f"a hall of network event {hall.central.event}: its central broker is that "
                "event's venue broker, configured by wuzi venue broker-config on the "
                "organisers' venue file (docs/linked.md)",
            )
        if hall.id in by_id:
            raise ConfigError(
                hall.source, "venue.id", f"{hall.id!r} is also {by_id[hall.id].source}'s"
            )
        by_id[hall.id] = hall
        assert first.central is not None
        there = (first.central.host, first.central.port)
        if (hall.central.host, hall.central.port) != there:
            raise ConfigError(
                hall.source,
                "central.url",
                f"{hall.central.url} is not the central broker {first.source} names "
                f"({first.central.url}): the halls would never meet",
            )
        if hall.central.username in users:
            raise ConfigError(
                hall.source,
                "central.username",
                f"{hall.central.username!r} is also {users[hall.central.username]}'s",
            )
        users[hall.central.username] = hall.source
    for hall in halls:
        for link in hall.links:
            other = by_id.get(link.other_venue)
            if other is None:
                raise ConfigError(
                    hall.source,
                    f"{link.key}.other_venue",
                    f"{link.other_venue!r}: its venue file is not given (give every linked "
                    "hall's file)",
                )
            mirror = _find(other, link.id)
            if mirror is None or mirror.other_venue != hall.id:
                raise ConfigError(
                    hall.source,
                    f"{link.key}.id",
                    f"{link.id!r}: {other.source} has no link of that id to {hall.id} "
                    "(the id must be the same in both files)",
                )
            if (mirror.table, mirror.other_table) != (link.other_table, link.table):
                raise ConfigError(
                    hall.source,
                    link.key,
                    f"links table {link.table} here to table {link.other_table} of "
                    f"{other.id}, but {other.source} {mirror.key} links its table "
                    f"{mirror.table} to table {mirror.other_table} of {hall.id}",
                )
            if mirror.owner_here == link.owner_here:
                who = "both" if link.owner_here else "neither"
                raise ConfigError(
                    hall.source,
                    f"{link.key}.owner",
                    f"{who} of {hall.id} and {other.id} own link {link.id!r} "
                    f"(see {other.source} {mirror.key}.owner): exactly one host runs the game",
                )


def central_accounts(halls: tuple[VenueConfig, ...]) -> tuple[CentralAccount, ...]:
    """Each hall's bridge account and its rules, after `check_halls`."""
    check_halls(halls)
    accounts: list[CentralAccount] = []
    for hall in halls:
        assert hall.central is not None
        rules: list[tuple[str, str]] = []
        for link in hall.links:
            rules.append((WRITE, topics.line_filter(hall.id, link.id)))
            rules.append((READ, topics.line_filter(link.other_venue, link.id)))
        accounts.append(
            CentralAccount(hall.id, hall.central.username, hall.central.password_file, tuple(rules))
        )
    return tuple(accounts)


def central_acl_text(halls: tuple[VenueConfig, ...]) -> str:
    """The central Mosquitto's ``acl_file``: a ``user`` block per hall, nothing else."""
    lines = [
        "# Mosquitto ACL of the central broker of linked halls, written by `wuzi venue "
        "central-config` from",
        f"# {', '.join(h.source for h in halls)}.",
        "# Do not edit: change the venue files and run the command again (docs/linked.md).",
        "# Each hall's bridge writes its own venue's line/<link>/# only and reads the other",
        "# venue's of its links; no other account, and anonymous clients are refused.",
    ]
    for account in central_accounts(halls):
        lines += ["", f"# the bridge of hall {account.venue}", f"user {account.username}"]
        lines += [f"topic {access} {topic}" for access, topic in account.rules]
    return "\n".join(lines) + "\n"


def central_conf(halls: tuple[VenueConfig, ...], settings: BrokerSettings) -> str:
    """The central broker's ``mosquitto.conf``: a venue broker's logins, listeners,
    persistence and limits (`broker_lines`: the halls' queued line messages survive its
    restart), for the halls' bridges only."""
    header = [
        "# Mosquitto configuration of the central broker of linked halls "
        f"({', '.join(h.id for h in halls)}), written by",
        f"# `wuzi venue central-config` from {', '.join(h.source for h in halls)}.",
        "# Do not edit: change the venue files and run the command again (docs/linked.md).",
    ]
    return "\n".join(broker_lines(header, settings)) + "\n"
