"""Registration in time (000 十(二), 十(三)): a team's entry form dated within the window.

The 2021 regulation takes the preliminary's entries from 2021-12-29 to 2022-01-01 (十(二))
and the direct teams' forms before 2022-01-06 (十(三)); a form sent late is not taken
(the 2019 open says the same of its 7-8 deadline, 九(二), (三): 逾期报名不予受理). The
entry forms carry the date they were received in the column ``registered``
(``YYYY-MM-DD``); ``import --registration-window FROM..UNTIL`` (and ``new …
--rosters … --registration-window``) refuses a team without that date or outside the
window, naming the team, its date, the window and the clause. Without a window the column
is only checked to be a date. The date is not stored: it is checked as the teams go in.
Pure.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from wuzi.tournament.errors import EntryError, SettingsError

__all__ = ["CLAUSE", "Window", "check_registered", "parse_date", "parse_window"]

CLAUSE = "000 十(二), 十(三): 报名 in the window; a late form is not taken"


@dataclass(frozen=True)
class Window:
    first: date
    last: date

    def __str__(self) -> str:
        return f"{self.first.isoformat()}..{self.last.isoformat()}"


def parse_date(text: str, what: str) -> date:
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise EntryError(f"{what}: {text!r} is not a date (YYYY-MM-DD)") from None


def parse_window(text: str) -> Window:
    """``FROM..UNTIL`` (both days included), e.g. ``2021-12-29..2022-01-01``."""
    first, sep, last = text.partition("..")
    try:
        window = Window(date.fromisoformat(first.strip()), date.fromisoformat(last.strip()))
    except ValueError:
        window = None
    if not sep or window is None or window.first > window.last:
        raise SettingsError(
            f"--registration-window {text!r}: give FROM..UNTIL, two dates YYYY-MM-DD, the "
            "first not after the last (e.g. 2021-12-29..2022-01-01)"
        )
    return window


def check_registered(team: str, registered: str, window: Window | None) -> None:
    """Refuse ``team`` registered (``YYYY-MM-DD``, "" if none) outside ``window``."""
    if window is None:
        if registered:
            parse_date(registered, f"team {team!r}: registered")
        return
    if not registered:
        raise EntryError(
            f"team {team!r} has no registration date (column registered) and the window "
            f"is {window} ({CLAUSE})"
        )
    day = parse_date(registered, f"team {team!r}: registered")
    if not window.first <= day <= window.last:
        raise EntryError(
            f"team {team!r} registered on {day.isoformat()}, outside the registration "
            f"window {window} ({CLAUSE})"
        )
