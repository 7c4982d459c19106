"""The broadcast's broker account and what it may do: read ``table/``, write ``public/``.

``wuzi broadcast`` is the one publisher of the delayed public feed (docs/broadcast.md).
Its account (``wuzi.<venue>.broadcast.<[broadcast] id>``, `wuzi.bus.identity`) may

* read the live ``table/+/state`` and ``table/+/events`` of every table of the venue —
  whichever host serves it — and nothing of ``arbiter/``;
* write ``public/table/+/state`` and ``public/table/+/events``, and nothing else;

and with it the hosts have lost their write access to ``public/``: the ACL rows
``public/table/<n>/state|events`` are gone from `wuzi.venue.broker_config._host_rules`
(`HOST_PUBLIC_RULES_REMOVED` names them), so a host — the machine at a table, within
players' reach — cannot put live play on the public feed either. The account is one of
`wuzi.config.credentials.broker_users` (role ``broadcast``), so ``wuzi venue
broker-config`` writes it with the others and ``wuzi broadcast`` logs in with
``credentials.login(venue, "broadcast", id)``.

Pure. The rules are ``(access, topic filter)`` pairs — ``AclRule(*pair)`` in
`wuzi.venue.broker_config`, which imports this module (so this one must not import it).
"""

from __future__ import annotations

from wuzi.bus import topics
from wuzi.bus.identity import client_id
from wuzi.config.broadcast import DEFAULT_ID

__all__ = [
    "HOST_PUBLIC_RULES_REMOVED",
    "ROLE",
    "SECRETS_FOLDER",
    "broadcast_account",
    "broadcast_rules",
]

ROLE = "broadcast"
SECRETS_FOLDER = "broadcast"
"""Its password: ``secrets/broadcast/<id>.pass`` next to the venue file (as
`wuzi.config.credentials.broker_users` names it)."""
HOST_PUBLIC_RULES_REMOVED = ("public/table/<n>/state", "public/table/<n>/events")
READ = "read"
WRITE = "write"


def broadcast_account(venue_id: str, ident: str = DEFAULT_ID) -> str:
    """The account name, which is also the client id: ``wuzi.<venue>.broadcast.<id>``."""
    return client_id(venue_id, ROLE, ident)


def broadcast_rules(venue_id: str) -> tuple[tuple[str, str], ...]:
    """The broadcast account's ACL as (access, topic filter): read the live table tree,
    write the public one; nothing of ``arbiter/``, nothing else."""
    public = topics.all_public(venue_id).removesuffix("#")
    return (
        (READ, topics.all_table_states(venue_id)),
        (READ, topics.all_table_events(venue_id)),
        (WRITE, f"{public}table/+/state"),
        (WRITE, f"{public}table/+/events"),
    )
