"""Which event of the venue a director runs, and whether its database is that event's (pure).

A hall may run several events at once (``[[events]]`` in the venue file, the 2019 open's
three groups): one ``wuzi director --event ID`` per event, each with the event's own
competition database and only the event's tables. Starting a director on the wrong
database would assign one group's players to another group's tables under the wrong
rules, so a start is refused, naming both events and the venue file, when

* ``--event`` is missing or unknown (the message lists the ids), or given for a venue
  file without ``[[events]]``;
* ``--db`` names a database the venue file gives to another event;
* the database is stamped for another event (`EventStamp`: the director writes the
  venue and event into ``director_meta`` at the first start, `wuzi.director.store`);
* the event's defaults in the venue file (after ``defaults_for``: the event's over the
  venue's ``[defaults]``) contradict the competition's own rules, opening or time
  control.

Everything here takes what the shell read (the venue file, the stamp, the competition)
and raises ``DirectorError`` with a message naming what to fix.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from wuzi.clock.control import parse_control
from wuzi.config import EventConfig, VenueConfig
from wuzi.director.change import tables_of
from wuzi.director.schedule import DirectorError, opening_for
from wuzi.rules.openings import make_procedure
from wuzi.rules.ruleset import RuleSet
from wuzi.tournament.event import Competition

__all__ = [
    "EventStamp",
    "check_defaults",
    "check_stamp",
    "choose_event",
    "event_database",
    "event_tables",
]


@dataclass(frozen=True)
class EventStamp:
    """The venue event a competition database belongs to (``director_meta``)."""

    venue: str
    event: str

    def describe(self) -> str:
        return f"event {self.event!r} of venue {self.venue!r}"


def choose_event(venue: VenueConfig, event_id: str | None) -> EventConfig | None:
    """The event a director runs: None for a venue file without ``[[events]]`` (one event,
    as before: ``--event`` is refused there), else the ``--event`` one (required)."""
    ids = ", ".join(e.id for e in venue.events)
    if not venue.events:
        if event_id is not None:
            raise DirectorError(
                f"--event {event_id}: the venue file {venue.source} has no [[events]] "
                "(it runs one event: start the director without --event)"
            )
        return None
    if event_id is None:
        raise DirectorError(
            f"the venue file {venue.source} has several events: give --event ID "
            f"(one director per event; events: {ids})"
        )
    for event in venue.events:
        if event.id == event_id:
            return event
    raise DirectorError(f"--event {event_id}: no such event in {venue.source} (events: {ids})")


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return Path(a).resolve() == Path(b).resolve()


def event_database(venue: VenueConfig, event: EventConfig, db: str | None) -> str:
    """The event's database: ``db`` (``--db``) when given — never a database the venue
    file gives to another event — else the event's ``database``."""
    if db is None:
        if event.database is None:  # the venue file's reader requires it; a guard
            raise DirectorError(f"{venue.source}: {event.key}.database is missing")
        return event.database
    for other in venue.events:
        if other.id != event.id and other.database and _same_file(db, other.database):
            raise DirectorError(
                f"--db {db} is the database of event {other.id!r} ({other.key}.database in "
                f"{venue.source}), not of event {event.id!r}: start that event's director "
                f"with --event {other.id}, or this one with its own database"
            )
    return db


def check_stamp(
    stamp: EventStamp | None, venue: VenueConfig, event: EventConfig | None, db: str
) -> None:
    """Refuse a database stamped for another venue event than the one starting.

    Unstamped: any start is fine (the shell stamps it when ``event`` is given). Stamped
    and started without an event (a venue file without ``[[events]]``): refused too, the
    database is one event's of a hall of several."""
    if stamp is None:
        return
    if event is None:
        raise DirectorError(
            f"{db} is the database of {stamp.describe()}, and the venue file {venue.source} "
            "has no [[events]]: start it with the venue file that has that event "
            f"(wuzi director --event {stamp.event})"
        )
    if (stamp.venue, stamp.event) != (venue.id, event.id):
        raise DirectorError(
            f"{db} is the database of {stamp.describe()}, not of event {event.id!r} of venue "
            f"{venue.id!r} ({venue.source}): start the director with --event {stamp.event}"
            f" for it, or give event {event.id!r} its own database ({event.key}.database)"
        )


def check_defaults(
    venue: VenueConfig, event: EventConfig, comp: Competition, opening: str | None = None
) -> None:
    """Refuse when the event's defaults in the venue file (its own over the venue's
    ``[defaults]``) contradict the competition's settings: the tables would be set up
    from the file one way and assigned by the director another. ``opening``: the
    director's ``--opening`` override (the tables' procedure instead of the event's)."""
    defaults = event.defaults.over(venue.defaults)
    settings = comp.settings
    where = f"event {event.id!r} in {venue.source}"
    problems = []
    if defaults.ruleset is not None:
        own = RuleSet.parse(settings.rules)
        if own != defaults.ruleset:
            problems.append(
                f"rules: the venue file says {defaults.ruleset}, the database {settings.rules}"
            )
    if defaults.opening is not None:
        table_opening = opening_for(comp, opening)
        if make_procedure(defaults.opening).name != make_procedure(table_opening).name:
            problems.append(
                f"opening: the venue file says {defaults.opening}, the database "
                f"{table_opening} ({settings.opening})"
            )
    control = defaults.time_control
    if control is not None and parse_control(settings.time_control) != control:
        problems.append(
            f"time control: the venue file says {control}, the database {settings.time_control}"
        )
    if problems:
        raise DirectorError(
            f"the competition {settings.name!r} does not play as {where} says: "
            + "; ".join(problems)
            + " (fix the event's defaults in the venue file, or use the event's own database)"
        )


def event_tables(venue: VenueConfig, event: EventConfig | None) -> list[tuple[int, str]]:
    """(table, host) of the tables the director runs: the event's, or every table."""
    every = tables_of(venue)
    if event is None:
        return every
    return [(n, host) for n, host in every if event.has_table(n)]
