"""The host service's linked tables (``[[links]]``): one side each, wired to the devices,
the bus, the journal and the referees (docs/linked.md "The hosts").

``wuzi.host.service`` hands this object what concerns a linked table — a device's event,
a hall-line packet, an assignment, a referee's ``resume`` — and asks it on every turn of
the loop to ``step`` and when to wake it. A linked table's own ``Table`` stays idle (it
starts no game and draws no faces): the side's core plays the game (the owner) or shows
it (the away host). The devices' faults (a board or unit down) still go the ordinary
way: an alert naming the device and the host status's ``links_down``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path

from wuzi.bus import topics
from wuzi.bus.client import BusClient
from wuzi.bus.schemas import ArbiterCommand, Assignment, Cleared, TableEvent, TableState
from wuzi.config import VenueConfig
from wuzi.config.links import LinkConfig
from wuzi.host.displays import Faces
from wuzi.host.inbox import LineIncoming
from wuzi.host.linked_away import AwaySide
from wuzi.host.linked_owner import OwnerSide
from wuzi.host.linked_side import LinkedPorts
from wuzi.host.served import ServedTable
from wuzi.link.reconciler import LINK_DOWN, LINK_UP, Alert
from wuzi.link.session import LinkDown, LinkUp, PressesLost
from wuzi.rules.board import Colour
from wuzi.rules.procedure import Seat
from wuzi.table.alerts import AlertReason

__all__ = ["LinkedTables"]

log = logging.getLogger("wuzi.host.linked")

Side = OwnerSide | AwaySide


def make_side(link: LinkConfig, table: int, ports: LinkedPorts) -> Side:
    """The side of ``link`` this venue plays."""
    return OwnerSide(link, table, ports) if link.owner_here else AwaySide(link, table, ports)


REFEREE_EVERY_MS = 5_000


class LinkedTables:
    """The linked tables of one host, by table number."""

    def __init__(
        self,
        venue: VenueConfig,
        numbers: tuple[int, ...],
        tables: Mapping[int, ServedTable],
        *,
        journal: Callable[[str, str, dict[str, object], int], None],
        alert: Callable[[ServedTable, AlertReason, str], None],
        now_ms: Callable[[], int],
        wall_ms: Callable[[], int],
        host_id: str,
        records_dir: Path | None,
    ) -> None:
        self.venue = venue
        self.wall_ms = wall_ms
        self.host_id = host_id
        self.tables = tables
        self.now_ms = now_ms
        self.bus: BusClient | None = None
        self.sides: dict[int, Side] = {}
        self._alert = alert
        self._told: set[str] = set()
        self._referee_shown: dict[int, tuple[str, int]] = {}
        self._journal_to = journal
        self._records_dir = records_dir
        self._deliver: Callable[[str, bytes], None] | None = None
        self.entries: Callable[[str], list[tuple[str, dict[str, object]]]] = lambda stream: []
        self.numbers: set[int] = set()  # the tables played linked now (static or by game)
        self.dynamic: set[int] = set()  # linked by their game's assignment
        for number in numbers:
            link = venue.link_of_table(number)
            if link is None:
                continue
            ports = self._ports(number, link.id, journal, alert, records_dir)
            self.sides[number] = make_side(link, number, ports)
            self.numbers.add(number)

    def _ports(
        self,
        number: int,
        link: str,
        journal: Callable[[str, str, dict[str, object], int], None],
        alert: Callable[[ServedTable, AlertReason, str], None],
        records_dir: Path | None,
    ) -> LinkedPorts:
        def to_journal(kind: str, payload: dict[str, object], t_ms: int) -> None:
            journal(f"line-{link}", kind, payload, t_ms)

        def to_referees(reason: AlertReason, text: str) -> None:
            alert(self.tables[number], reason, text)

        def display(text: tuple[str, str], colon: tuple[bool, bool]) -> None:
            self._display(number, text, colon)

        def light(point: int, colour: str) -> None:
            self._light(number, point, colour)

        def dark() -> None:
            self._dark(number)

        def state(message: TableState) -> None:
            if self.bus is not None:
                self.bus.publish(topics.table_state(self.venue.id, number), message)

        def event(game: str, kind: str, seq: int, data: dict[str, object]) -> None:
            if self.bus is not None:
                message = TableEvent(
                    f"{self.host_id}/{number}/{game}/{seq}",
                    number,
                    game,
                    seq,
                    kind,
                    self.wall_ms(),
                    dict(data),
                )
                self.bus.publish(topics.table_events(self.venue.id, number), message)

        return LinkedPorts(
            self._publish,
            to_journal,
            to_referees,
            display,
            light,
            dark,
            state,
            event,
            self.wall_ms,
            records_dir,
        )

    def recover(self) -> None:
        """Each side of a ``[[links]]`` table rebuilt from its line's stream (a fresh
        start: nothing to rebuild); a side made by a game's assignment is rebuilt when
        its retained assignment comes again."""
        for number, side in self.sides.items():
            self._rebuild(number, side)

    def _rebuild(self, number: int, side: Side) -> None:
        entries = self.entries(f"line-{side.link.id}")
        if entries:
            self._guarded(number, "its journal", partial(side.recover, entries, self.now_ms()))
            log.info(
                "table %d: linked %s rebuilt from %d records", number, side.link.id, len(entries)
            )

    def __contains__(self, number: object) -> bool:
        return number in self.sides

    # the bus -------------------------------------------------------------------------

    def subscribe(self, bus: BusClient, put: Callable[[LineIncoming], None]) -> None:
        """Subscribe to the other hall's side of every link (bridged in)."""
        self.bus = bus

        def deliver(topic: str, payload: bytes) -> None:
            put(LineIncoming(topic, payload))

        self._deliver = deliver
        for side in self.sides.values():
            bus.subscribe_line(side.in_topic, deliver)

    def _publish(self, topic: str, payload: bytes) -> None:
        if self.bus is not None:
            self.bus.publish_line(topic, payload)

    def _guarded(self, number: int, what: str, call: Callable[[], None]) -> None:
        """A core's refusal (a ValueError naming what is wrong) is the table's problem,
        told to its referees once per kind, never the host's: the loop goes on."""
        try:
            call()
        except ValueError as exc:
            text = f"table {number} (linked): {what}: {exc}"
            if text not in self._told:
                self._told.add(text)
                log.warning("%s", text)
                table = self.tables.get(number)
                if table is not None:
                    self._alert(table, AlertReason.REFUSED, text)

    def packet(self, item: LineIncoming) -> None:
        now = self.now_ms()
        for number, side in self.sides.items():
            if item.topic == side.in_topic:
                self._guarded(
                    number, "a line packet", partial(side.packet, item.topic, item.payload, now)
                )
                return
        log.info("%s: a line packet for no linked table here: ignored", item.topic)

    # the devices ---------------------------------------------------------------------

    def device(self, number: int, event: object) -> bool:
        """Give a linked table's device event to its side: True when taken (a link's
        up and down stay the service's: the equipment's faults)."""
        side = self.sides.get(number)
        if side is None:
            return False
        if isinstance(event, Alert) and event.kind in (LINK_DOWN, LINK_UP):
            return False
        if isinstance(event, LinkDown | LinkUp | PressesLost):
            if isinstance(event, LinkUp):
                side._faces = None
            return False
        self._guarded(number, "a device's event", lambda: side.device(event, self.now_ms()))
        return True

    def _display(self, number: int, text: tuple[str, str], colon: tuple[bool, bool]) -> None:
        table = self.tables.get(number)
        if table is None or table.clock is None:
            return
        for index, seg in enumerate(Faces(text, colon).segments()):
            table.clock.display(index, seg)
        table.clock.flush()

    def _light(self, number: int, point: int, colour: str) -> None:
        table = self.tables.get(number)
        if table is not None and table.board is not None:
            stone = Colour.BLACK if colour == "black" else Colour.WHITE
            table.board.light_point(point, stone, self.now_ms())

    def _dark(self, number: int) -> None:
        table = self.tables.get(number)
        if table is not None and table.board is not None:
            table.board.dark_point(self.now_ms())

    # the loop ------------------------------------------------------------------------

    def step(self) -> None:
        now = self.now_ms()
        for number, side in self.sides.items():
            table = self.tables.get(number)
            if table is not None:
                table.display_due_ns = None  # the side draws this unit's faces
                if isinstance(side, AwaySide) and table.board is not None:
                    can = bool(table.board.can_light)
                    if can != side.can_light:
                        side.board_can_light(can, now)
            self._guarded(number, "a step", partial(side.step, now))

    def line_view(self, number: int) -> dict[str, object]:
        """The hall line of a linked table as its referees see it (``RefereeState``'s
        ``line`` fields): its state and the two hosts' clocks compared."""
        side = self.sides.get(number)
        if side is None:
            return {}
        offset = side.line.offset(self.now_ms())
        return {
            "line": side.link.id,
            "line_state": side.line.state,
            "offset_ms": None if offset is None else offset.offset_ms,
            "offset_error_ms": None if offset is None else offset.error_ms,
            "rtt_ms": None if offset is None else offset.rtt_ms,
        }

    def referee_due(self) -> list[int]:
        """The linked tables whose referee view is due: the line's state changed, or
        ``REFEREE_EVERY_MS`` passed (the offset moves with every packet)."""
        now = self.now_ms()
        due = []
        for number, side in self.sides.items():
            shown = self._referee_shown.get(number)
            if shown is None or shown[0] != side.line.state or now - shown[1] >= REFEREE_EVERY_MS:
                self._referee_shown[number] = (side.line.state, now)
                due.append(number)
        return due

    def due_ms(self) -> int | None:
        now = self.now_ms()
        dues = [side.due_ms(now) for side in self.sides.values()]
        return min(dues) if dues else None

    # the director and the referees -----------------------------------------------------

    def grace_ms(self, number: int) -> int:
        """The mirroring grace of the table's event (the venue's ``[defaults]``, an
        event's over it: docs/config.md)."""
        return self.venue.defaults_for(number).mirroring_grace_ms

    def standalone(self, number: int, time_control: str, ruleset: str) -> None:
        side = self.sides.get(number)
        if isinstance(side, OwnerSide) and side.game is None:
            grace = self.grace_ms(number)
            side.begin_standalone(time_control, ruleset, grace, self.now_ms())

    def assignment(self, number: int, message: Assignment | Cleared) -> bool:
        """The director's word for a linked table: True when it was the side's. A game
        linked by its assignment (a network event: ``linked_role``) makes the table's side
        for that game, its hall line named by the game's id."""
        if (
            isinstance(message, Assignment)
            and message.linked_role
            and number not in (self.numbers - self.dynamic)
        ):
            return self._linked_by_game(number, message)
        if number in self.dynamic:
            if isinstance(message, Cleared):
                # the linked game is over: its side stays until the table's next game (it
                # may still owe the other hall its last truth, resent until acknowledged)
                return True
            self._unlink(number)  # an ordinary game: the table's own again
            return False
        side = self.sides.get(number)
        if side is None:
            return False
        if isinstance(side, AwaySide):
            log.info("table %d: linked, away: the game comes from the owner host", number)
        elif isinstance(message, Assignment) and side.assigned(
            message, self.grace_ms(number), self.now_ms()
        ):
            log.info("table %d: linked game %s begins", number, message.game_id)
        return True

    def _linked_by_game(self, number: int, a: Assignment) -> bool:
        """A network event's linked game at table ``number`` (docs/linked.md "The network
        final"): the side for link ``<game id>``, rebuilt from its journal stream after a
        restart (the retained assignment comes again), subscribed to the other hall."""
        side = self.sides.get(number)
        if side is not None and side.link.id == a.game_id:
            if isinstance(side, OwnerSide) and side.game is None:
                side.assigned(a, self.grace_ms(number), self.now_ms())
            return True
        if a.linked_table is None or not a.linked_venue:
            log.warning("table %d: linked game %s names no other table: ignored", number, a.game_id)
            return True
        try:
            link = LinkConfig(
                topics.check_link(a.game_id),
                self.venue.id,
                number,
                a.linked_venue,
                a.linked_table,
                a.linked_role == "owner",
                key=f"the assignment of {a.game_id}",
            )
        except ValueError as exc:
            log.warning("table %d: linked game refused: %s", number, exc)
            return True
        if side is not None:
            self._unlink(number)
        ports = self._ports(number, link.id, self._journal_to, self._alert, self._records_dir)
        new = make_side(link, number, ports)
        self.sides[number] = new
        self.numbers.add(number)
        self.dynamic.add(number)
        self._rebuild(number, new)
        if self.bus is not None and self._deliver is not None:
            self.bus.subscribe_line(new.in_topic, self._deliver)
        if isinstance(new, OwnerSide) and new.game is None:
            new.assigned(a, self.grace_ms(number), self.now_ms())
        log.info("table %d: linked game %s (%s, with table %d of %s)", number, a.game_id,
                 a.linked_role, a.linked_table, a.linked_venue)  # fmt: skip
        return True

    def _unlink(self, number: int) -> None:
        side = self.sides.pop(number, None)
        self.numbers.discard(number)
        self.dynamic.discard(number)
        if side is not None and self.bus is not None:
            self.bus.unsubscribe_line(side.in_topic)

    def command(self, command: ArbiterCommand) -> tuple[bool, str] | None:
        """A verified referee command for a linked table: ``resume`` (``role=chief``:
        the chief referee resumes alone; else a hall's request or confirmation); the
        others are not for a linked table yet."""
        side = self.sides.get(command.table) if command.table is not None else None
        if side is None:
            return None
        playing = (
            (side.game.setup.game_id if side.game is not None else None)
            if isinstance(side, OwnerSide)
            else (side.game or None)
        )
        if playing is not None and command.game_id != playing:
            # signed for one game: never carried out on the next (docs/bus.md "Commands")
            return False, f"{command.action} is for game {command.game_id}, not {playing}"
        if command.action == "set-result":
            if not isinstance(side, OwnerSide):
                return False, "set-result: the owner host's table ends a linked game"
            winner = command.args.get("winner")
            if winner not in (None, "first", "second"):
                return False, f"set-result: winner must be first, second or null, not {winner!r}"
            seat = None if winner is None else Seat.FIRST if winner == "first" else Seat.SECOND
            reason = str(command.args.get("reason", ""))
            return side.set_result(seat, reason, command.referee, self.now_ms())
        if command.action != "resume":
            return False, f"{command.action} is not available on a linked table yet"
        role = command.args.get("role")
        if role not in (None, "chief", "hall"):
            return False, f"resume: role must be chief or hall, not {role!r}"
        chief = role == "chief"
        return side.resume(command.referee, chief, self.now_ms())
