"""The names and text fields of an event: how long each may be, and the one check
(``wuzi.base.text.check_text``: no control, line-break or invisible format characters).

Every way a name enters — ``add-player``, ``add-team``, ``new --name``, ``import``, a
database written by an older Wuzi — goes through ``check_name``: ``Player``, ``Team`` and
``EventSettings`` call it when they are made, the CSV importer before them (to name the
line and column), the store when it reads a row (to name the table and row).
"""

from __future__ import annotations

from wuzi.base.text import TextError, check_text
from wuzi.tournament.errors import EntryError, TournamentError

NAME_MAX = 64
"""A player's, team's, club's, leader's or coach's name, and an ID: longer than any real
one, short enough for a screen line and a printed sheet (TRF shows 33 characters)."""
EVENT_NAME_MAX = 100
"""The event's name: the title of every page and screen."""
REASON_MAX = 200
"""Why a pairing was made by hand (``pair --fix … --reason``)."""


def check_name(
    field: str,
    value: str,
    *,
    max_length: int = NAME_MAX,
    allow_empty: bool = False,
    error: type[TournamentError] = EntryError,
) -> str:
    """``value`` if ``field`` may hold it, else ``error`` (an ``EntryError`` by default)
    whose message names the field, the refused character and where it is."""
    try:
        return check_text(field, value, max_length=max_length, allow_empty=allow_empty)
    except TextError as exc:
        raise error(str(exc)) from None
