"""What both sides of a linked table share at their host: the ports to the outside, the
hall line's packets and journal records, faces, the point LED, records (docs/linked.md
"The hosts").

A table named in ``[[links]]`` is played with a table of another hall. At the **owner
host** its board and clock unit feed a ``LinkedGame`` (``wuzi.host.linked_owner``); at the
**away host** they feed an ``AwayTable`` (``wuzi.host.linked_away``). Between them an
``OwnerLine``/``AwayLine`` numbers, acknowledges and resends what crosses, finds a cut and
compares the two hosts' clocks. The sides decide nothing: they hand each device event,
line packet and referee command to those cores at the host's time, and carry out what
they answer — packets published, records journaled, faces drawn, the point LED lit,
alerts told to the hall's referees, the game's record written.

**Presses wait for their stone.** A clock unit's press can reach the host before the
board has settled the stone it confirms (the board settles a reading for
``DEFAULT_SETTLE_MS``). The press is kept with its own instant until a stone of the
player's colour arrives (or ``PRESS_WAIT_MS`` passes: then it goes on alone and the core
tells the referee), so the order stone-then-press is the player's, not the wires'.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from wuzi.bus import line as line_codec
from wuzi.bus.schemas import MessageError, TableState
from wuzi.config.links import LinkConfig
from wuzi.link.reconciler import Alert
from wuzi.rules.board import Colour, point_name
from wuzi.table.alerts import AlertReason
from wuzi.table.hall_line import (
    AwayLine,
    Ignored,
    Journal,
    LineBack,
    LineCut,
    LineDecision,
    OwnerLine,
    Resume,
    ResumeRefused,
)
from wuzi.table.line_messages import (
    LineAcked,
    LineItem,
    LineReceived,
    LineRecord,
    LineResumed,
    LineSent,
    OwnerTruth,
)
from wuzi.table.linked_game import truth_record

__all__ = [
    "PRESS_WAIT_MS",
    "LinkedPorts",
    "LinkedSide",
    "WaitingPress",
    "colour_name",
    "int_field",
    "record_json",
    "record_kind",
    "record_of",
    "write_json",
]

log = logging.getLogger("wuzi.host.linked")

PRESS_WAIT_MS = 1_000
_JOURNAL_KIND = {LineSent: "line.sent", LineReceived: "line.received"}


@dataclass
class LinkedPorts:
    """What a side may do to the outside, given by the host service."""

    publish: Callable[[str, bytes], None]  # a hall-line packet, QoS 1
    journal: Callable[[str, dict[str, object], int], None]  # (kind, payload, t_ms)
    alert: Callable[[AlertReason, str], None]  # the hall's referees, privately
    display: Callable[[tuple[str, str], tuple[bool, bool]], None]  # the clock unit's faces
    light: Callable[[int, str], None]  # the board's point LED: (point, colour)
    dark: Callable[[], None]
    state: Callable[[TableState], None]  # the hall's screens: this table's state
    event: Callable[[str, str, int, dict[str, object]], None]  # (game, kind, seq, data)
    wall_ms: Callable[[], int]
    records_dir: Path | None = None


@dataclass
class WaitingPress:
    button: int
    at_ms: int
    since_ms: int


def colour_name(c: Colour) -> str:
    return "black" if c is Colour.BLACK else "white"


def record_json(record: LineRecord) -> dict[str, object]:
    if isinstance(record, LineSent):
        return {"n": record.n, "at_ms": record.at_ms, "item": line_codec.item_json(record.item)}
    if isinstance(record, LineReceived):
        return {
            "n": record.n,
            "received_ms": record.received_ms,
            "at_ms": record.at_ms,
            "error_ms": record.error_ms,
            "item": line_codec.item_json(record.item),
        }
    if isinstance(record, LineAcked):
        return {"upto": record.upto}
    return {"count": record.count, "at_ms": record.at_ms}


def record_of(kind: str, payload: dict[str, object], *, sent_truths: bool) -> LineRecord:
    """A line record as ``_record_json`` journaled it (``sent_truths``: this side sends
    the owner's truths, i.e. it is the owner); a ValueError names what is wrong."""

    def integer(name: str) -> int:
        value = payload.get(name)
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"journal {kind}: {name} must be an integer, not {value!r}")
        return value

    def item(truth: bool) -> LineItem:
        obj = payload.get("item")
        if not isinstance(obj, dict):
            raise ValueError(f"journal {kind}: item must be an object")
        try:
            return line_codec.item_from_json(obj, truth=truth)
        except MessageError as exc:
            raise ValueError(f"journal {kind}: {exc}") from None

    if kind == "line.sent":
        return LineSent(integer("n"), item(sent_truths), integer("at_ms"))
    if kind == "line.received":
        return LineReceived(
            integer("n"),
            item(not sent_truths),
            integer("received_ms"),
            integer("at_ms"),
            integer("error_ms"),
        )
    if kind == "line.acked":
        return LineAcked(integer("upto"))
    if kind == "line.resumed":
        return LineResumed(integer("count"), integer("at_ms"))
    raise ValueError(f"journal: {kind!r} is not a line record")


def int_field(payload: dict[str, object], name: str) -> int:
    value = payload.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"journal: {name} must be an integer, not {value!r}")
    return value


def record_kind(record: LineRecord) -> str:
    if isinstance(record, LineAcked):
        return "line.acked"
    if isinstance(record, LineResumed):
        return "line.resumed"
    return _JOURNAL_KIND[type(record)]


def write_json(folder: Path, name: str, obj: dict[str, object]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    tmp = path.with_suffix(".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(obj, f, ensure_ascii=False, indent=2, sort_keys=True)
        f.write("\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    return path


class LinkedSide:
    """What both sides share: the line's packets in and out, its journal, its cut."""

    role = ""
    line: OwnerLine | AwayLine  # each side's own kind, made by its constructor

    def __init__(self, link: LinkConfig, table: int, ports: LinkedPorts) -> None:
        self.link = link
        self.table = table
        self.ports = ports
        self.boot = secrets.token_hex(4)
        self.cut_at_ms: int | None = None  # this side found the line cut (for the bench)
        self._waiting: WaitingPress | None = None
        self._faces: tuple[tuple[str, str], tuple[bool, bool]] | None = None
        self._lit: tuple[int, str] | None = None
        # the public events this side published (the owner's result): a state carries the
        # number of the last, as a table's does (the director finds no gap in them)
        self._seq = 0
        self._replaying = False  # rebuilding from the journal: nothing is journaled again

    # the line ----------------------------------------------------------------------

    @property
    def out_topic(self) -> str:
        raise NotImplementedError

    @property
    def in_topic(self) -> str:
        raise NotImplementedError

    def _fact(self, kind: str, payload: dict[str, object], now_ms: int) -> None:
        """One of this side's own facts, journaled so a restart rebuilds the game."""
        if not self._replaying:
            self.ports.journal(kind, payload, now_ms)

    def _journal(self, record: LineRecord | None, now_ms: int) -> None:
        if record is not None and not self._replaying:
            self.ports.journal(record_kind(record), record_json(record), now_ms)

    def _flush(self, now_ms: int) -> None:
        for packet in self.line.outgoing(now_ms):
            self.ports.publish(self.out_topic, line_codec.encode_packet(packet))

    def _line_decision(self, d: LineDecision, now_ms: int) -> None:
        if isinstance(d, Journal):
            self._journal(d.record, now_ms)
        elif isinstance(d, LineCut):
            self.cut_at_ms = now_ms
            self.ports.alert(
                AlertReason.BOARD,
                f"table {self.table}: the hall line {d.link} to {self.link.other_venue} is cut "
                f"({d.why}): both clocks held; nothing is judged until the referees of both "
                "halls resume",
            )
        elif isinstance(d, LineBack):
            self.ports.alert(
                AlertReason.BOARD,
                f"table {self.table}: the hall line {d.link} is back after {d.cut_ms} ms: "
                "the game waits for the referees of both halls to resume (wuzi referee resume)",
            )
        elif isinstance(d, Resume):
            self.cut_at_ms = None
            self.ports.alert(
                AlertReason.BOARD,
                f"table {self.table}: linked game resumed by {', '.join(d.by)}",
            )
        elif isinstance(d, ResumeRefused):
            self.ports.alert(AlertReason.REFUSED, f"table {self.table}: resume refused: {d.why}")
        elif isinstance(d, Ignored):
            log.info("table %d: line %s: ignored: %s", self.table, d.link, d.why)

    def resume(self, referee: str, chief: bool, now_ms: int) -> tuple[bool, str]:
        """A referee's signed ``resume`` for this linked table: the chief alone, else a
        request that the other hall's referee confirms (or the confirmation of the other
        hall's request)."""
        line, here = self.line, self.link.venue
        if chief:
            decisions = line.resume_by_chief(referee, now_ms)
        else:
            decisions = line.resume_confirmed(here, referee, now_ms)
            refused = [d for d in decisions if isinstance(d, ResumeRefused)]
            if refused and "no resumption was requested" in refused[0].why:
                decisions = line.resume_requested(here, referee, now_ms)
                if not decisions:
                    self._flush(now_ms)
                    return True, "resumption requested: the other hall's referee confirms"
        self._act(decisions, now_ms)
        refused = [d for d in decisions if isinstance(d, ResumeRefused)]
        if refused:
            return False, refused[0].why
        return True, "resumed"

    def _act(self, decisions: list[LineDecision], now_ms: int) -> None:
        raise NotImplementedError

    def _press_now(self, now_ms: int) -> None:
        raise NotImplementedError

    def _press_waited(self, now_ms: int) -> None:
        """A press kept for its stone ``PRESS_WAIT_MS`` goes on alone (module doc)."""
        if self._waiting is not None and now_ms - self._waiting.since_ms >= PRESS_WAIT_MS:
            self._press_now(now_ms)

    def _line_due_ms(self) -> int:
        """The line's next packet or check, or a waiting press's end, whichever first."""
        due = self.line.due_ms()
        if self._waiting is not None:
            due = min(due, self._waiting.since_ms + PRESS_WAIT_MS)
        return due

    def board_alert(self, event: Alert) -> None:
        """A board report that is not one new stone (two at once, a stone moved, a sensor
        stuck …): this hall's referee looks at the board. The game takes stones only as
        single settled stones, so nothing is played from it."""
        try:
            reason = AlertReason(event.kind)
        except ValueError:
            reason = AlertReason.BOARD
        points = ", ".join(point_name(p) for p in event.points)
        what = event.kind.replace("_", " ") + (f" {points}" if points else "")
        detail = f" ({event.detail})" if event.detail else ""
        self.ports.alert(
            reason,
            f"table {self.table} (linked {self.link.id}): the board reports {what}{detail}: "
            "nothing of it is played; the referee looks at the board",
        )

    # faces and the point LED -----------------------------------------------------------

    def _show(self, text: tuple[str, str], colon: tuple[bool, bool]) -> None:
        if (text, colon) != self._faces:
            self._faces = (text, colon)
            self.ports.display(text, colon)

    def _lamp(self, want: tuple[int, str] | None) -> None:
        if want == self._lit:
            return
        if want is None:
            self.ports.dark()
        else:
            self.ports.light(*want)
        self._lit = want

    def _publish_state(self, truth: OwnerTruth) -> None:
        """This table's state for the hall's screens, from the owner's truth: the same
        moves and clocks at both halls, the moment each hall has them."""
        status = "finished" if truth.result else "paused" if truth.held else "playing"
        result = {"black": "1-0", "white": "0-1", "draw": "1/2-1/2"}.get(truth.result)
        self.ports.state(
            TableState(
                table=self.table,
                game_id=truth.game or None,
                seq=self._seq,
                status=status,
                moves=truth.moves,
                black_ms=truth.black_ms,
                white_ms=truth.white_ms,
                running=None if truth.held else truth.running,
                result=result,
                at_ms=self.ports.wall_ms(),
                black=truth.black,
                white=truth.white,
            )
        )

    def _write_record(self, truth: OwnerTruth) -> None:
        folder = self.ports.records_dir
        if folder is None or not truth.game:
            return
        name = "".join(c if c.isalnum() or c in "_.-" else "_" for c in truth.game)
        write_json(folder, f"{name}.linked.json", truth_record(truth, self.link.id))
