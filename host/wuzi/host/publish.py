"""What the table host publishes, built from what it has: pure, no I/O, no clock.

The ``wuzi host`` service holds, per table, the director's `Assignment` (or none yet), a
`TableSession` (or none yet) and its journal; this module turns them into bus messages —
the retained `TableState` everyone may read, the retained `RefereeState` only referees
read, and one `TableEvent` per journaled output — and says which audience an output
kind goes to (`route`).

Why a module of its own: "players are never helped" is decided here, in one place a
test can hold to it. The public state is built only from what anyone at the table sees
(stones that stand, offers, clocks, the result), never from the game's referee views;
alerts go only to ``arbiter/table/<n>/alerts``; and `route` refuses a kind it does not
know instead of guessing "public", so a new referee-only output cannot leak by default.
Every message is checked against its topic's schema before it is returned
(`wuzi.bus.schemas.check_outgoing`), so a bug here is a `PublishError`, not a payload
receivers reject. See docs/bus.md.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from wuzi.bus import topics
from wuzi.bus.schemas import (
    ALERT_KIND,
    MAX_ALERT_TEXT,
    MAX_OPEN_ALERTS,
    MAX_TIME_MS,
    Assignment,
    JsonObject,
    Message,
    MessageError,
    OpenAlert,
    RefereeState,
    TableEvent,
    TableState,
    check_outgoing,
)
from wuzi.clock.control import NS_PER_MS
from wuzi.rules.board import Colour, Point
from wuzi.rules.game import Status
from wuzi.rules.procedure import Seat
from wuzi.table.outputs import RefereeAlert
from wuzi.table.session import TableSession

__all__ = [
    "PUBLIC_KINDS",
    "REFEREE_KINDS",
    "Audience",
    "PublishError",
    "event_message",
    "event_topic",
    "open_alert",
    "referee_state",
    "route",
    "table_state",
    "table_status",
]

PUBLIC_KINDS = frozenset(
    {
        "move",
        "offer",
        "offer-kept",
        "decision",
        "declared",
        "take-back",
        "correction",
        "clock",
        "status",
        "result",
        "next-game",
        "adjourned",
    }
)
"""Output kinds (``wuzi.table.codec.encode_output``) safe for players and the hall."""

REFEREE_KINDS = frozenset({ALERT_KIND})
"""Output kinds for referees only."""

_CHECK_VENUE = "check"  # any valid venue: schemas do not depend on it


class PublishError(ValueError):
    """Something the host asked to publish that cannot be a valid message; says what."""


class Audience(enum.Enum):
    """Where an output goes."""

    TABLE = "table"  # table/<n>/events (`wuzi broadcast` republishes them, delayed, on public/)
    REFEREE = "referee"  # arbiter/table/<n>/alerts only


def route(kind: str) -> Audience:
    """The audience of an output kind: ``alert`` goes to the referees, the kinds of
    `PUBLIC_KINDS` to the table's events; any other kind is a `PublishError` (a kind
    nobody classified must not default to public)."""
    if kind in REFEREE_KINDS:
        return Audience.REFEREE
    if kind in PUBLIC_KINDS:
        return Audience.TABLE
    raise PublishError(
        f"output kind {kind!r} is neither public ({', '.join(sorted(PUBLIC_KINDS))}) "
        f"nor for referees ({', '.join(sorted(REFEREE_KINDS))})"
    )


def event_topic(venue: str, table: int, kind: str) -> str:
    """The topic an event of ``kind`` is published on: live, never ``public/`` — only
    `wuzi broadcast` writes the delayed hall feed (docs/broadcast.md)."""
    if route(kind) is Audience.REFEREE:
        return topics.arbiter_alerts(venue, table)
    return topics.table_events(venue, table)


def _checked(topic: str, message: Message, what: str) -> None:
    try:
        check_outgoing(topic, message)
    except MessageError as exc:
        where = f"field {exc.field!r}: " if exc.field else ""
        raise PublishError(f"{what}: {where}{exc.reason}") from None


def _check_table(table: int) -> int:
    try:
        return topics.check_table(table)
    except topics.TopicError as exc:
        raise PublishError(str(exc)) from None


def event_message(
    *, event_id: str, table: int, game_id: str, seq: int, kind: str, at_ms: int, data: JsonObject
) -> TableEvent:
    """One journaled output as a bus event (checked against the topic `route` picks).

    On the public topics ``seq`` (and anything in ``event_id``) must count the public
    events only: numbers with gaps where referee-only entries sit would tell the hall
    that an alert was raised just then (docs/bus.md, "Nothing leaks by numbering")."""
    table = _check_table(table)
    event = TableEvent(
        event_id=event_id,
        table=table,
        game_id=game_id,
        seq=seq,
        kind=kind,
        at_ms=at_ms,
        data=data,
    )
    _checked(event_topic(_CHECK_VENUE, table, kind), event, f"event {event_id!r}")
    return event


# --- states --------------------------------------------------------------------------


def table_status(session: TableSession | None, now_ns: int | None = None) -> str:
    """``idle`` (no session), ``finished``, ``adjourned``, ``paused`` (the game awaits the
    referee or the clock is held) or ``playing`` (the opening included). Holds change
    by clock events, but a flag holds the clock from its own instant: the session puts it
    on record at the first input after it (docs/table.md "A flag"), and with ``now_ns``
    a state built in between says ``paused`` too, as its ``running`` (null) does."""
    if session is None:
        return "idle"
    game = session.game
    if game.is_over:
        return "finished"
    if session.adjourned:
        return "adjourned"
    clock = session.clock
    holds = clock.state.holds if now_ns is None else clock.at(now_ns).holds
    if game.status is Status.AWAITING_REFEREE or holds:
        return "paused"
    return "playing"


def _ms(ns: int) -> int:
    return max(-MAX_TIME_MS, min(MAX_TIME_MS, ns // NS_PER_MS))


def _result(session: TableSession) -> str | None:
    result = session.game.result
    if result is None:
        return None
    if result.winner is None:
        return "1/2-1/2"
    colour = result.winner_colour or session.game.colour_of(result.winner)
    return "1-0" if colour is Colour.BLACK else "0-1"


def _names(assignment: Assignment | None, session: TableSession | None) -> tuple[str, str]:
    """(Black's name, White's name) now. The assignment names the first seat (the
    opener, Black at the start) ``black`` and the second ``white``; an opening that
    swaps colours swaps the names."""
    if assignment is None:
        return "", ""
    if session is None or session.game.seat_of(Colour.BLACK) is Seat.FIRST:
        return assignment.black, assignment.white
    return assignment.white, assignment.black


def _check_assignment(table: int, assignment: Assignment | None) -> None:
    if assignment is not None and not isinstance(assignment, Assignment):
        raise PublishError(f"assignment must be an Assignment or None, not {assignment!r}")
    if assignment is not None and assignment.table != table:
        raise PublishError(f"the assignment is for table {assignment.table}, not table {table}")


def _check_session(session: TableSession | None) -> None:
    if session is not None and not isinstance(session, TableSession):
        raise PublishError(f"session must be a TableSession or None, not {session!r}")


def _check_now(now_ns: int) -> None:
    if isinstance(now_ns, bool) or not isinstance(now_ns, int):
        raise PublishError(f"now_ns must be an integer (ns), not {now_ns!r}")


def _game_id(game_id: str | None, assignment: Assignment | None) -> str | None:
    """The game's id: the one given (a standalone table's game has no assignment), else
    the assignment's, else None."""
    if game_id is not None:
        return game_id
    return None if assignment is None else assignment.game_id


def table_state(
    *,
    table: int,
    assignment: Assignment | None,
    session: TableSession | None,
    seq: int,
    now_ns: int,
    at_ms: int,
    game_id: str | None = None,
) -> TableState:
    """The public, retained state of ``table`` at ``now_ns`` (host time ``at_ms``).

    Without a session the table is ``idle`` and shows the assigned players (if any) and
    zero clocks. With one: the standing stones in order, the offers not decided yet,
    both clocks by colour (after a swap the first seat holds White), whose clock runs,
    and the result with Black's score first. ``seq`` is the last public event's number;
    ``game_id`` defaults to the assignment's, and ``event_id`` is the assignment's (the
    venue file's event its game belongs to, so screens and directors of a hall of
    several events tell the tables apart).
    """
    table = _check_table(table)
    _check_assignment(table, assignment)
    _check_session(session)
    _check_now(now_ns)
    black, white = _names(assignment, session)
    board = None if assignment is None else assignment.board
    game_in_match = None if assignment is None else assignment.game_in_match
    event_id = "" if assignment is None else assignment.event_id  # its event, in a hall of several
    game_id = _game_id(game_id, assignment)
    if session is None:
        state = TableState(
            table=table,
            game_id=game_id,
            seq=seq,
            status="idle",
            moves=(),
            black_ms=0,
            white_ms=0,
            running=None,
            result=None,
            at_ms=at_ms,
            black=black,
            white=white,
            offers=(),
            board=board,
            game_in_match=game_in_match,
            event_id=event_id,
        )
    else:
        game, clock = session.game, session.clock
        running = clock.at(now_ns).running
        state = TableState(
            table=table,
            game_id=game_id,
            seq=seq,
            status=table_status(session, now_ns),
            moves=tuple(move.point for move in game.moves),
            black_ms=_ms(clock.remaining_ns(game.seat_of(Colour.BLACK), now_ns)),
            white_ms=_ms(clock.remaining_ns(game.seat_of(Colour.WHITE), now_ns)),
            running=None if running is None else game.colour_of(running).label,
            result=_result(session),
            at_ms=at_ms,
            black=black,
            white=white,
            offers=game.offers,
            board=board,
            game_in_match=game_in_match,
            event_id=event_id,
        )
    _checked(topics.table_state(_CHECK_VENUE, table), state, f"table {table}'s state")
    return state


def open_alert(event_id: str, alert: RefereeAlert) -> OpenAlert:
    """A session's `RefereeAlert` (journaled as ``event_id``) as a `RefereeState` lists
    it: points without repeats (a five's row holds its last stone), the text cut to
    `MAX_ALERT_TEXT` characters."""
    if not isinstance(alert, RefereeAlert):
        raise PublishError(f"an open alert is a RefereeAlert, not {alert!r}")
    text = alert.text if len(alert.text) <= MAX_ALERT_TEXT else alert.text[: MAX_ALERT_TEXT - 1]
    if len(alert.text) > MAX_ALERT_TEXT:
        text += "…"
    points: tuple[Point, ...] = tuple(dict.fromkeys(alert.points))
    return OpenAlert(
        event_id=event_id,
        reason=alert.reason.value,
        text=text,
        points=points,
        seat=None if alert.seat is None else alert.seat.value,
    )


def referee_state(
    *,
    table: int,
    session: TableSession | None,
    seq: int,
    at_ms: int,
    game_id: str | None = None,
    assignment: Assignment | None = None,
    open_alerts: Sequence[tuple[str, RefereeAlert]] = (),
) -> RefereeState:
    """The referees' retained view of ``table``: the alerts still open (the caller keeps
    that list: ``(event_id, alert)`` pairs, oldest first; the newest `MAX_OPEN_ALERTS`
    are listed, the rest counted in ``alerts_omitted``), the stone waiting for its
    press, both seats' infractions in this game. ``seq`` is the journal seq of the last
    entry folded in (referees may see every number); ``game_id`` defaults to the
    assignment's."""
    table = _check_table(table)
    _check_assignment(table, assignment)
    _check_session(session)
    alerts = tuple(open_alert(event_id, alert) for event_id, alert in open_alerts)
    shown = alerts[-MAX_OPEN_ALERTS:] if alerts else ()
    game = None if session is None else session.game
    state = RefereeState(
        table=table,
        game_id=_game_id(game_id, assignment),
        seq=seq,
        status=table_status(session),
        alerts=shown,
        alerts_omitted=len(alerts) - len(shown),
        pending_stone=None if session is None else session.pending_stone,
        infractions_first=0 if game is None else game.infractions(Seat.FIRST),
        infractions_second=0 if game is None else game.infractions(Seat.SECOND),
        at_ms=at_ms,
    )
    _checked(topics.arbiter_state(_CHECK_VENUE, table), state, f"table {table}'s referee state")
    return state
