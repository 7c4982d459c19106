"""The events of a venue: ``[[events]]`` in the venue file, and the table ranges they claim.

One hall may run several events at once, each with its own rules (the 2019 open plays its
men's, women's and open groups together: 002 三(二), 四, 六(一)). Each event has an id (a
topic level: ``competition/<event>/state``, the director's account
``wuzi.<venue>.director.<event>``), a name, its own competition database, the tables it
plays on, and defaults that override the venue's ``[defaults]`` for those tables. A table
belongs to at most one event; a table of no event is a spare. A venue file with no
``[[events]]`` runs one event, as before, with its ``[director]``.

Pure: the venue file's reader (`wuzi.config.venue`) uses `parse_tables` and builds the
`EventConfig` values; nothing here reads a file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from wuzi.clock.control import TimeControl
from wuzi.rules.ruleset import RuleSet

__all__ = [
    "DEFAULT_MIRRORING_GRACE_S",
    "MAX_MIRRORING_GRACE_S",
    "MAX_RANGE_TABLES",
    "EventConfig",
    "GameDefaults",
    "parse_tables",
]

MAX_RANGE_TABLES = 999
"""At most this many tables in one event's ``tables`` (a table number is at most 999)."""

_PART = re.compile(r"([0-9]{1,4})(?:\s*-\s*([0-9]{1,4}))?")


DEFAULT_MIRRORING_GRACE_S = 10
MAX_MIRRORING_GRACE_S = 600  # the time rule's own bound (wuzi.clock.linked)


@dataclass(frozen=True)
class GameDefaults:
    """What a table plays when it is set up from the venue file rather than by the
    director: the venue's ``[defaults]``, or an event's (each None there takes the
    venue's)."""

    ruleset: RuleSet | None = None
    opening: str | None = None
    time_control: TimeControl | None = None
    # a linked game's mirroring grace, seconds (docs/linked.md "The time rule"): a rule of
    # the competition like the time control; None: the default, 10 s
    mirroring_grace_s: float | None = None

    def over(self, venue: GameDefaults) -> GameDefaults:
        """These defaults, each one not given taken from ``venue``'s."""
        return GameDefaults(
            self.ruleset if self.ruleset is not None else venue.ruleset,
            self.opening if self.opening is not None else venue.opening,
            self.time_control if self.time_control is not None else venue.time_control,
            self.mirroring_grace_s
            if self.mirroring_grace_s is not None
            else venue.mirroring_grace_s,
        )

    @property
    def mirroring_grace_ms(self) -> int:
        """The grace in force, ms (the default when none is given)."""
        grace = (
            DEFAULT_MIRRORING_GRACE_S if self.mirroring_grace_s is None else self.mirroring_grace_s
        )
        return round(grace * 1000)


@dataclass(frozen=True)
class EventConfig:
    """One event of the venue: ``[[events]]`` in the venue file."""

    id: str
    name: str
    tables: tuple[int, ...]  # ascending
    database: str | None = None  # its competition database (``wuzi tournament --db``)
    defaults: GameDefaults = field(default_factory=GameDefaults)
    broker_password_file: str | None = None  # its director's; None: the default file
    key: str = "events"  # where it is in the venue file (``events[1]``), for messages

    def has_table(self, number: int) -> bool:
        return number in self.tables


def parse_tables(text: str, *, low: int = 1, high: int = MAX_RANGE_TABLES) -> tuple[int, ...]:
    """``"1-12, 20"`` as (1, 2, …, 12, 20): numbers and ranges, separated by commas.

    Raises ValueError naming the part that is wrong: not a number or range, a range that
    runs backwards, a number out of ``low..high``, a table given twice. ASCII digits only
    (``٣`` is not a table number)."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError('expected table numbers and ranges such as "1-12, 20"')
    seen: set[int] = set()
    numbers: list[int] = []
    for raw in text.split(","):
        part = raw.strip()
        m = _PART.fullmatch(part)
        if m is None or not part.isascii():
            raise ValueError(
                f"{part!r} is not a table number or a range such as 1-12 "
                '(write the tables as "1-12, 20")'
            )
        first = int(m.group(1))
        last = int(m.group(2)) if m.group(2) is not None else first
        if last < first:
            raise ValueError(f"{part!r} runs backwards: write {last}-{first}")
        for number in (first, last):
            if not low <= number <= high:
                raise ValueError(f"{part!r}: table {number} is out of range {low}..{high}")
        for number in range(first, last + 1):
            if number in seen:
                raise ValueError(f"table {number} is given twice")
            seen.add(number)
            numbers.append(number)
    return tuple(sorted(numbers))
