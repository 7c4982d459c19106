"""What the board link reports, in the table's words: the one place the two vocabularies meet.

The link layer says what a board or a clock unit reported (``wuzi.link.reconciler``'s alert
kinds, ``wuzi.link.session``'s link events); the table knows only its own inputs and alert
reasons (``wuzi.table.inputs``, ``wuzi.table.alerts``). Neither layer knows the other, so
the host translates, here and nowhere else:

* a stone event is a ``StoneSettled``;
* a board alert is a ``BoardAlert`` whose ``kind`` is the reason it raises (``REASONS``)
  or, for any other trouble, the board's own word (one of the table's ``BOARD_TROUBLES``),
  quoted in a ``board`` alert. The words coincide with the table's on purpose: journals
  hold these kinds, and every journal written before this module existed must replay the
  same (a test holds every link alert kind to that, and to a word the table accepts);
* a clock unit's lost presses and link going down or up are ``board`` alerts for the
  referee, with the text they have always had (``clock_unit_alert``);
* a board's or a clock unit's link going down is a device fault of the table (the host
  holds its clock and tells the referee once); ``link_down_why`` says why in one line;
* a noisy line (a board's ``line_noisy`` alert, a clock unit's ``LineNoisy``) is no fault
  and no table input: one ``board`` alert for the referee with its rate
  (``noisy_line_alert``), and play goes on.
"""

from __future__ import annotations

from collections.abc import Mapping

from wuzi.link import reconciler
from wuzi.link.board_link import LINE_NOISY
from wuzi.link.noise import LineNoisy
from wuzi.link.reconciler import Reconciled, StoneEvent
from wuzi.link.session import LinkDown, LinkUp, PressesLost
from wuzi.table.alerts import AlertReason
from wuzi.table.inputs import BoardAlert, StoneSettled

__all__ = ["REASONS", "board_input", "clock_unit_alert", "link_down_why", "noisy_line_alert"]

REASONS: Mapping[str, AlertReason] = {
    reconciler.REMOVED: AlertReason.REMOVED,
    reconciler.MOVED: AlertReason.MOVED,
    reconciler.TWO_STONES: AlertReason.TWO_STONES,
    reconciler.WRONG_COLOUR: AlertReason.WRONG_COLOUR,
}
"""The board link's alert kinds that have a reason of their own; every other kind
(``occupied``, ``sensor_stuck``, ``link_down`` …) is a ``board`` alert."""


def board_input(event: Reconciled, now_ns: int) -> StoneSettled | BoardAlert:
    """The table input for what the board link reconciled, seen at ``now_ns``."""
    if isinstance(event, StoneEvent):
        return StoneSettled(now_ns=now_ns, point=event.point, colour=event.colour)
    reason = REASONS.get(event.kind)
    return BoardAlert(
        now_ns=now_ns,
        kind=event.kind if reason is None else reason.value,
        points=event.points,
        colour=event.colour,
        detail=event.detail,
    )


def clock_unit_alert(event: PressesLost | LinkDown | LinkUp) -> tuple[AlertReason, str]:
    """The reason and text of the referee alert for a clock unit's link trouble (the
    unit's presses themselves are the buttons' business: ``wuzi.table.buttons``)."""
    if isinstance(event, PressesLost):
        text = f"clock unit: presses {event.first_evno}–{event.last_evno} were lost"
    elif isinstance(event, LinkDown):
        text = f"clock unit silent for {event.silent_ms} ms"
    else:
        text = "clock unit link up again"
    return AlertReason.BOARD, text


def link_down_why(event: reconciler.Alert | LinkDown) -> str:
    """Why a device's link went down, for the referee's alert: the driver's reason (the
    port lost, stalled or refused: it names the port) or how long the device was silent.
    ``event`` is a board's ``link_down`` alert or a clock unit's ``LinkDown``."""
    if isinstance(event, LinkDown):
        detail = event.why or f"silent for {event.silent_ms} ms"
    else:
        detail = event.detail or "the board is not heard"
    return f"link down: {detail}"


def noisy_line_alert(event: object, port: str) -> tuple[AlertReason, str] | None:
    """The referee alert for a noisy line to the device on ``port`` — a board's
    ``line_noisy`` alert or a clock unit's ``LineNoisy``, each told once per episode by the
    link with the share of frames damaged — or None for any other event. The line still
    serves (retries get through, the board vouches for every press): the referee hears of
    it once, e.g. "board /dev/wuzi/board-1 line noisy: 3.1 % of frames corrupted (6 of
    200); play goes on, check its cable"."""
    if isinstance(event, reconciler.Alert) and event.kind == LINE_NOISY:
        device, rate = f"board {port}", event.detail
    elif isinstance(event, LineNoisy):
        device, rate = f"clock unit {port}", event.text
    else:
        return None
    return AlertReason.BOARD, f"{device} line noisy: {rate}; play goes on, check its cable"
