"""The one alert vocabulary: why the referee is told something (``AlertReason``).

Every referee alert a table raises carries one of these reasons. Their values are words
the rest of the venue relies on: the bus accepts exactly them (``wuzi.bus.schemas``
derives its list from this enum), the journal stores them, the arbiter view sorts by
them. So a value is never renamed, and a new reason is a new bus word.

The layers below have words of their own: the board link says what a board reported (its
reconciler's alert kinds), the rules what the game found (``wuzi.rules.claims``). The
table never imports the board link: the host translates its reports into table inputs
(``wuzi.host.link_events``), and what a ``BoardAlert`` input says is read here
(``board_alert_reason``), in the table's own words.
"""

from __future__ import annotations

import enum

from wuzi.table.checks import TableError

__all__ = ["ALERT_KIND", "BOARD_REASONS", "BOARD_TROUBLES", "AlertReason", "board_alert_reason"]

ALERT_KIND = "alert"
"""The kind of a referee alert among a table's outputs, journal entries and game events:
the one kind for referees only (the bus keeps it off every public topic)."""


class AlertReason(enum.Enum):
    """Why the referee is told something."""

    FORBIDDEN = "forbidden"  # Black made a forbidden move (nobody else knows)
    FIVE = "five"  # a five stands on the board, not announced yet
    CLAIM = "claim"  # a false or late claim; the game waits for the referee
    CLAIM_JUDGED = "claim_judged"  # a claim and its proof
    PRESS_WITHOUT_STONE = "press_without_stone"  # an infraction
    LOSS_PENDING = "loss_pending"  # a second infraction: loss pending referee confirmation
    UNPRESSED = "unpressed"  # a stone settled, the clock not pressed: the mover's time runs
    WRONG_COLOUR = "wrong_colour"
    TWO_STONES = "two_stones"
    REMOVED = "removed"  # a standing stone was taken off
    MOVED = "moved"
    NOT_ALLOWED = "not_allowed"  # a stone the opening step (or the turn) does not allow
    OFFER_NOT_REMOVED = "offer_not_removed"  # W6 while an unchosen offer is on the board
    FLAG = "flag"  # a flag fell (a player or the referee may point it out)
    BOARD = "board"  # another board alert (occupied, sensor stuck, link …)
    REFUSED = "refused"  # an action the game refused (named in the text)
    HOST_RESTARTED = "host_restarted"  # the host came back after a crash: clocks held
    MIRRORING = "mirroring"  # a linked game's away board disagrees with the game: never a verdict


BOARD_REASONS = frozenset(
    {AlertReason.REMOVED, AlertReason.MOVED, AlertReason.TWO_STONES, AlertReason.WRONG_COLOUR}
)
"""The reasons a ``BoardAlert`` input names by itself (its ``kind`` is the reason's value):
stones gone, moved or put where the game wanted none, which the session weighs against
what it expects (a stone it asked to be taken off is no news)."""

BOARD_TROUBLES = frozenset(
    {"occupied", "sensor_stuck", "link_down", "link_up", "board_rebooted", "resync"}
)
"""The other troubles a board can report, each a ``board`` alert quoting the word. The
journal stores these words; a kind outside both lists is refused, so a journal or an input
that names something no board reports is an error, not an alert. The host translates the
board link's reports into these words (``wuzi.host.link_events``; its tests check that every
link alert kind lands in one of the two lists)."""


def board_alert_reason(kind: object) -> AlertReason:
    """The reason a ``BoardAlert`` of ``kind`` raises: the one of ``BOARD_REASONS`` it
    names, else ``BOARD`` for one of ``BOARD_TROUBLES``. ``TableError`` for any other kind:
    one that names a reason a board cannot raise (the board would pass for the game or the
    host), or a word no board reports."""
    reason = _REASONS.get(kind) if isinstance(kind, str) else None
    if reason is not None and reason in BOARD_REASONS:
        return reason
    if kind in BOARD_TROUBLES:
        return AlertReason.BOARD
    if reason is not None:
        raise TableError(f"unknown board alert kind {kind!r}: a reason only the table raises")
    raise TableError(f"unknown board alert kind {kind!r}")


_REASONS = {reason.value: reason for reason in AlertReason}
