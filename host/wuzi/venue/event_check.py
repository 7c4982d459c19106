"""``wuzi venue check``'s lines about the events of a hall (``[[events]]``), one per event.

A hall of several events (the 2019 open's three groups, 002 三(二)) is set up by one
technician from one venue file: before the first round they want to see, per event, the
tables it plays on, what those tables play when set up from the file (the event's
defaults over the venue's), whether its competition database is there and whether its
director's password file can be read. One line per event::

    event men (Men's group): tables 1-8 (hosts pi-1, pi-2); renju, opening chinese-2013,
    time control 3600; database /etc/wuzi/men.sqlite present; director
    wuzi.open-2019.director.men, password file /etc/wuzi/secrets/events/men.pass readable

(on one line). The lines are information, never a verdict: ``wuzi venue check`` is a
host's preflight, and the databases and the directors' password files belong on the
directors' machines, so a host that has neither is not failing. A venue file without
``[[events]]`` gives no line at all (its output is what it always was).

`event_lines` reads only whether two files per event exist and can be read.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from wuzi.config.credentials import CredentialError, broker_user, read_secret_file
from wuzi.config.events import EventConfig
from wuzi.config.venue import VenueConfig

__all__ = ["event_lines", "table_ranges"]


def table_ranges(numbers: Iterable[int]) -> str:
    """``1-8, 12, 20-21``: ascending numbers as the venue file's ranges are written."""
    parts: list[str] = []
    run: list[int] = []
    for number in sorted(numbers):
        if run and number == run[-1] + 1:
            run.append(number)
            continue
        if run:
            parts.append(_run(run))
        run = [number]
    if run:
        parts.append(_run(run))
    return ", ".join(parts)


def _run(run: list[int]) -> str:
    return str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}"


def _games(venue: VenueConfig, event: EventConfig) -> str:
    """What the event's tables play from the venue file: its defaults over the venue's."""
    found = event.defaults.over(venue.defaults)
    rules = str(found.ruleset) if found.ruleset is not None else "rules not set"
    opening = f"opening {found.opening}" if found.opening is not None else "opening not set"
    control = found.time_control
    clock = f"time control {control}" if control is not None else "time control not set"
    return f"{rules}, {opening}, {clock}"


def _database(event: EventConfig) -> str:
    where = event.database
    if where is None:  # the venue file's reader requires one; kept honest here
        return "no database"
    if Path(where).is_file():
        return f"database {where} present"
    return f"database {where} missing (wuzi tournament --db {where} new … makes it)"


def _director(venue: VenueConfig, event: EventConfig) -> str:
    try:
        user = broker_user(venue, "director", event.id)
    except CredentialError as exc:  # the scheme gives every event one; a guard
        return f"director: {exc.problem}"
    where = user.secret_file
    assert where is not None
    head = f"director {user.name}, password file {where}"
    if not Path(where).exists():
        return f"{head} missing (wuzi venue broker-config makes it)"
    try:
        read_secret_file(where)
    except OSError as exc:
        return f"{head} unreadable: {exc.strerror or exc}"
    except ValueError as exc:
        return f"{head} unusable: {exc}"
    return f"{head} readable"


def event_lines(venue: VenueConfig) -> list[str]:
    """One line per event of the venue file, in its order; none without ``[[events]]``."""
    lines: list[str] = []
    for event in venue.events:
        hosts = [h.id for h in venue.hosts if any(event.has_table(t.number) for t in h.tables)]
        lines.append(
            f"event {event.id} ({event.name}): tables {table_ranges(event.tables)} "
            f"(hosts {', '.join(hosts)}); {_games(venue, event)}; {_database(event)}; "
            f"{_director(venue, event)}"
        )
    return lines
