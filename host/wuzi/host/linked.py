"""The host's side of a linked game: moving its bytes between the devices, the hall line
and the pure cores (docs/linked.md "The hosts").

A table named in ``[[links]]`` is played with a table of another hall. At the **owner
host** its board and clock unit feed a ``LinkedGame`` (the rules and the time rule); at the
**away host** they feed an ``AwayTable`` (what the away player sees and sends). Between
them an ``OwnerLine``/``AwayLine`` numbers, acknowledges and resends what crosses, finds a
cut and compares the two hosts' clocks. This module decides nothing: it hands each
device event, line packet and referee command to those cores at the host's time, and
carries out what they answer — packets published, records journaled, faces drawn, the
point LED lit, alerts told to the hall's referees, the game's record written.

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
from dataclasses import asdict, dataclass
from pathlib import Path

from wuzi.bus import line as line_codec
from wuzi.bus import topics
from wuzi.bus.schemas import Assignment, MessageError, TableState
from wuzi.clock.face import counter_text
from wuzi.config.links import LinkConfig
from wuzi.link.reconciler import REMOVED, Alert, StoneEvent
from wuzi.link.session import Press
from wuzi.rules.board import Colour
from wuzi.table.alerts import AlertReason
from wuzi.table.away_table import (
    HELD_TEXT,
    IDLE_TEXT,
    AwayOutcome,
    AwayTable,
    Dark,
    Light,
    point_text,
)
from wuzi.table.buttons import CLAIM_BUTTON
from wuzi.table.codec import encode_output
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
    Take,
)
from wuzi.table.line_messages import (
    AwayInput,
    AwayStone,
    LineAcked,
    LineItem,
    LineReceived,
    LineRecord,
    LineResumed,
    LineSent,
    OwnerTruth,
)
from wuzi.table.linked_game import LinkedGame, LinkedOutcome, LinkedSetup, truth_record
from wuzi.table.owner_seat import OwnerSeatError

__all__ = ["PRESS_WAIT_MS", "AwaySide", "LinkedPorts", "OwnerSide", "make_side"]

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
class _WaitingPress:
    button: int
    at_ms: int
    since_ms: int


def _colour(c: Colour) -> str:
    return "black" if c is Colour.BLACK else "white"


def _record_json(record: LineRecord) -> dict[str, object]:
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


def _record_of(kind: str, payload: dict[str, object], *, sent_truths: bool) -> LineRecord:
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


def _int(payload: dict[str, object], name: str) -> int:
    value = payload.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"journal: {name} must be an integer, not {value!r}")
    return value


def _kind(record: LineRecord) -> str:
    if isinstance(record, LineAcked):
        return "line.acked"
    if isinstance(record, LineResumed):
        return "line.resumed"
    return _JOURNAL_KIND[type(record)]


def _write_json(folder: Path, name: str, obj: dict[str, object]) -> Path:
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


class _Side:
    """What both sides share: the line's packets in and out, its journal, its cut."""

    role = ""

    def __init__(self, link: LinkConfig, table: int, ports: LinkedPorts) -> None:
        self.link = link
        self.table = table
        self.ports = ports
        self.boot = secrets.token_hex(4)
        self.cut_at_ms: int | None = None  # this side found the line cut (for the bench)
        self._waiting: _WaitingPress | None = None
        self._faces: tuple[tuple[str, str], tuple[bool, bool]] | None = None
        self._lit: tuple[int, str] | None = None
        self._seq = 0  # the states and events this side published
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
            self.ports.journal(_kind(record), _record_json(record), now_ms)

    def _flush(self, line: OwnerLine | AwayLine, now_ms: int) -> None:
        for packet in line.outgoing(now_ms):
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

    def resume(
        self, line: OwnerLine | AwayLine, here: str, referee: str, chief: bool, now_ms: int
    ) -> tuple[bool, str]:
        """A referee's signed ``resume`` for this linked table: the chief alone, else a
        request that the other hall's referee confirms (or the confirmation of the other
        hall's request)."""
        if chief:
            decisions = line.resume_by_chief(referee, now_ms)
        else:
            decisions = line.resume_confirmed(here, referee, now_ms)
            refused = [d for d in decisions if isinstance(d, ResumeRefused)]
            if refused and "no resumption was requested" in refused[0].why:
                decisions = line.resume_requested(here, referee, now_ms)
                if not decisions:
                    self._flush(line, now_ms)
                    return True, "resumption requested: the other hall's referee confirms"
        self._act(decisions, now_ms)
        refused = [d for d in decisions if isinstance(d, ResumeRefused)]
        if refused:
            return False, refused[0].why
        return True, "resumed"

    def _act(self, decisions: list[LineDecision], now_ms: int) -> None:
        raise NotImplementedError

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
        self._seq += 1
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
        _write_json(folder, f"{name}.linked.json", truth_record(truth, self.link.id))


class OwnerSide(_Side):
    """The owner host's linked table: the game runs here."""

    role = "owner"

    def __init__(self, link: LinkConfig, table: int, ports: LinkedPorts) -> None:
        super().__init__(link, table, ports)
        self.line = OwnerLine(link.id, self.boot, link.venue, link.other_venue)
        self.game: LinkedGame | None = None
        self.last_truth: OwnerTruth | None = None
        self._shown: int = 0  # the last away move drawn on this unit
        self._games = 0

    @property
    def out_topic(self) -> str:
        return topics.line_to_away(self.link.venue, self.link.id)

    @property
    def in_topic(self) -> str:
        return topics.line_to_owner(self.link.other_venue, self.link.id)

    @property
    def state_topic(self) -> str:
        return topics.line_state(self.link.venue, self.link.id)

    def begin(self, setup: LinkedSetup, now_ms: int) -> None:
        """A new game at this table (the director's assignment, or a standalone one)."""
        self.game = LinkedGame(self.table, self.link.id, setup, now_ms)
        self._games += 1
        self._shown = 0
        self._fact("linked.game", {**asdict(setup), "start_ms": now_ms}, now_ms)
        if self.line.state == "cut":
            self.game.line_cut(now_ms)
        self._after(now_ms)

    def begin_standalone(self, time_control: str, ruleset: str, grace_ms: int, now_ms: int) -> None:
        game_id = f"{self.link.id}-g{self._games + 1}"
        self.begin(
            LinkedSetup(game_id, ruleset=ruleset, time_control=time_control, grace_ms=grace_ms),
            now_ms,
        )

    def assigned(self, a: Assignment, grace_ms: int, now_ms: int) -> bool:
        """The director's assignment for this table: a new game unless it is the one
        being played."""
        if self.game is not None and self.game.setup.game_id == a.game_id:
            return False
        self.begin(
            LinkedSetup(a.game_id, a.black, a.white, a.rule_set, a.time_control, grace_ms),
            now_ms,
        )
        return True

    # inputs --------------------------------------------------------------------------

    def device(self, event: object, now_ms: int) -> None:
        game = self.game
        if game is None:
            return
        if isinstance(event, StoneEvent):
            colour = _colour(event.colour)
            self._fact(
                "linked.stone",
                {"point": event.point, "colour": colour, "at_ms": event.at_ms},
                now_ms,
            )
            self._outcome(game.board_stone(event.point, colour, event.at_ms), now_ms)
            if self._waiting is not None and colour == game.owner_colour:
                self._press_now(now_ms)
        elif isinstance(event, Alert) and event.kind == REMOVED:
            for point in event.points:
                self._fact("linked.removed", {"point": point}, now_ms)
                game.board_removed(point)
        elif isinstance(event, Press) and event.button in (0, 1):
            self._waiting = _WaitingPress(event.button, event.at_ms, now_ms)
            if game.waiting_stone is not None:  # the stone is already here
                self._press_now(now_ms)
        elif isinstance(event, Press) and event.button == CLAIM_BUTTON:
            self.ports.alert(
                AlertReason.CLAIM,
                f"table {self.table} (linked {self.link.id}): a claim at the owner table: "
                "the host judges fives and forbidden moves itself in a linked game",
            )
        self._after(now_ms)

    def _press_now(self, now_ms: int) -> None:
        assert self.game is not None and self._waiting is not None
        press, self._waiting = self._waiting, None
        self._fact("linked.press", {"at_ms": press.at_ms}, now_ms)
        self._outcome(self.game.own_press(press.at_ms), now_ms)

    def packet(self, topic: str, payload: bytes, now_ms: int) -> None:
        try:
            packet = line_codec.parse_to_owner(topic, payload, self.link.id)
        except MessageError as exc:
            log.warning("table %d: line packet refused: %s", self.table, exc)
            return
        self._act(self.line.receive(packet, now_ms), now_ms)

    def _act(self, decisions: list[LineDecision], now_ms: int) -> None:
        for d in decisions:
            if isinstance(d, Take):
                self._journal(d.record, now_ms)
                if self.game is not None:
                    self._outcome(self.game.received(d.record), now_ms)
            elif isinstance(d, LineCut) and self.game is not None and not self.game.cut:
                self._fact("linked.cut", {"at_ms": d.at_ms}, now_ms)
                self.game.line_cut(d.at_ms)
            elif isinstance(d, Resume) and self.game is not None and self.game.cut:
                self._fact("linked.back", {"at_ms": d.at_ms}, now_ms)
                self.game.line_back(d.at_ms)
            self._line_decision(d, now_ms)
        self._after(now_ms)

    def _outcome(self, out: LinkedOutcome, now_ms: int) -> None:
        for alert in out.alerts:
            self.ports.alert(alert.reason, alert.text)
        for refused in out.refused:
            self.ports.alert(
                AlertReason.REFUSED,
                f"table {self.table} (linked {self.link.id}): away item {refused.n} refused: "
                f"{refused.why}",
            )

    def step(self, now_ms: int) -> None:
        if self._waiting is not None and now_ms - self._waiting.since_ms >= PRESS_WAIT_MS:
            self._press_now(now_ms)
        self._act(self.line.poll(now_ms), now_ms)
        if self.game is not None:
            self._outcome(self.game.tick(now_ms, away_heard_ms=self._away_heard(now_ms)), now_ms)
        self._after(now_ms)

    def _after(self, now_ms: int) -> None:
        """The truth out when it changed, the faces and the light, the record at the end."""
        game = self.game
        if game is not None:
            truth = game.truth(now_ms)
            if truth is not None:
                self.last_truth = truth
                self._journal(self.line.send_truth(truth, now_ms), now_ms)
                self.ports.publish(self.state_topic, line_codec.encode_truth(truth))
                self._publish_state(truth)
                if truth.result:
                    self._write_record(truth)
                    self._write_rules_record(game)
                    self._seq += 1
                    kind, data = encode_output(game.game_over(now_ms * 1_000_000))
                    self.ports.event(game.setup.game_id, kind, self._seq, data)
            self._draw(game, now_ms)
        self._flush(self.line, now_ms)

    def _away_heard(self, now_ms: int) -> int | None:
        """Up to when the away hall has surely told everything (owner time): with the line
        up and nothing of it missing, what it stamped a round trip, the offset's bound and
        a held press ago has arrived; None while it is not up."""
        offset = self.line.offset(now_ms)
        if self.line.state != "up" or offset is None:
            return None
        return now_ms - offset.rtt_ms - offset.error_ms - PRESS_WAIT_MS - 200

    def _draw(self, game: LinkedGame, now_ms: int) -> None:
        state = game.time(now_ms)
        own_colour = game.owner_colour
        own_i = 0 if own_colour == "black" else 1
        text = ["", ""]
        colon = [False, False]
        for display, i in ((0, own_i), (1, 1 - own_i)):
            text[display], colon[display] = counter_text(state.remaining_ms[i])
        pending = game.seat.to_mirror_here() if not game.over else None
        held = self.line.state in ("cut", "waiting_for_referees") and not game.over
        if held:
            text[0] = HELD_TEXT
            text[1] = HELD_TEXT if pending is None else point_text(pending[1])
            colon = [False, False]
        elif pending is not None:
            text[1], colon[1] = point_text(pending[1]), False
        self._show((text[0], text[1]), (colon[0], colon[1]))
        if pending is not None and pending[0] > self._shown and not held:
            self._shown = pending[0]
            self._fact("linked.shown", {"move": pending[0], "at_ms": now_ms}, now_ms)
            try:
                game.shown_here(pending[0], now_ms)
            except OwnerSeatError as exc:
                log.warning("table %d: %s", self.table, exc)
        self._lamp(None if pending is None else (pending[1], game.seat.away_colour))

    def recover(self, entries: list[tuple[str, dict[str, object]]], now_ms: int) -> None:
        """Rebuild the line and the game from this side's journal (in order): the line's
        records, then the game's facts since its last ``linked.game``. The rebuilt side is
        held (the line ``cut``) until the referees of both halls resume."""
        records = [
            _record_of(kind, payload, sent_truths=True)
            for kind, payload in entries
            if kind.startswith("line.")
        ]
        self.line = OwnerLine.recover(
            self.link.id, self.boot, self.link.venue, self.link.other_venue, records, now_ms
        )
        starts = [i for i, (kind, _) in enumerate(entries) if kind == "linked.game"]
        self._games = len(starts)
        if not starts:
            return
        self._replaying = True
        try:
            for kind, payload in entries[starts[-1] :]:
                self._replay(kind, payload)
        finally:
            self._replaying = False
        if self.game is not None and not self.game.over and not self.game.cut and records:
            self.game.line_cut(now_ms)
            self._fact("linked.cut", {"at_ms": now_ms}, now_ms)

    def _replay(self, kind: str, payload: dict[str, object]) -> None:
        if kind == "linked.game":
            fields = {k: v for k, v in payload.items() if k != "start_ms"}
            setup = LinkedSetup(**fields)  # type: ignore[arg-type]
            self.game = LinkedGame(self.table, self.link.id, setup, _int(payload, "start_ms"))
            self._shown = 0
            return
        game = self.game
        assert game is not None
        if kind == "linked.stone":
            point, at = _int(payload, "point"), _int(payload, "at_ms")
            game.board_stone(point, str(payload.get("colour")), at)
        elif kind == "linked.removed":
            game.board_removed(_int(payload, "point"))
        elif kind == "linked.press":
            game.own_press(_int(payload, "at_ms"))
        elif kind == "linked.shown":
            self._shown = _int(payload, "move")
            game.shown_here(self._shown, _int(payload, "at_ms"))
        elif kind == "linked.cut":
            game.line_cut(_int(payload, "at_ms"))
        elif kind == "linked.back":
            game.line_back(_int(payload, "at_ms"))
        elif kind == "line.received":
            record = _record_of(kind, payload, sent_truths=True)
            assert isinstance(record, LineReceived)
            game.received(record)
        if game.over:  # its end was told before the crash: not told again
            game.mark_told()

    def _write_rules_record(self, game: LinkedGame) -> None:
        folder = self.ports.records_dir
        if folder is None:
            return
        from wuzi.host.records import write_record

        record = game.game.record(
            table=self.table,
            time_control=game.setup.time_control,
            tags={"game_id": game.setup.game_id, "link": self.link.id},
        )
        write_record(folder, game.setup.game_id, record)

    def due_ms(self, now_ms: int) -> int:
        """When ``step`` must run again: the line's next packet or check, a waiting
        press's end, the next second on the running clock's face."""
        due = min(self.line.due_ms(), now_ms + 100)
        if self._waiting is not None:
            due = min(due, self._waiting.since_ms + PRESS_WAIT_MS)
        return due

    def resume_command(self, referee: str, chief: bool, now_ms: int) -> tuple[bool, str]:
        return self.resume(self.line, self.link.venue, referee, chief, now_ms)


class AwaySide(_Side):
    """The away host's linked table: it reads its devices and shows the owner's truth."""

    role = "away"

    def __init__(self, link: LinkConfig, table: int, ports: LinkedPorts) -> None:
        super().__init__(link, table, ports)
        self.line = AwayLine(link.id, self.boot, link.venue, link.other_venue)
        self.core: AwayTable | None = None
        self.game = ""
        self.last_truth: OwnerTruth | None = None
        self._can_light = False
        self._stone_sent = False  # an AwayStone went out since the last press

    @property
    def out_topic(self) -> str:
        return topics.line_to_owner(self.link.venue, self.link.id)

    @property
    def in_topic(self) -> str:
        return topics.line_to_away(self.link.other_venue, self.link.id)

    @property
    def can_light(self) -> bool:
        return self._can_light

    def board_can_light(self, can: bool, now_ms: int) -> None:
        self._can_light = can
        if self.core is not None:
            self._carry(self.core.board_can_light(can, now_ms), now_ms)

    def device(self, event: object, now_ms: int) -> None:
        core = self.core
        if core is None:
            return
        if isinstance(event, StoneEvent):
            colour = _colour(event.colour)
            self._carry(core.stone(event.point, colour, event.at_ms, now_ms), now_ms)
            if self._waiting is not None and colour == core.colour:
                self._press_now(now_ms)
        elif isinstance(event, Alert) and event.kind == REMOVED:
            for point in event.points:
                self._carry(core.removed(point, event.at_ms, now_ms), now_ms)
        elif isinstance(event, Press) and event.button in (0, 1):
            if self._waiting is not None:
                self._press_now(now_ms)
            self._waiting = _WaitingPress(event.button, event.at_ms, now_ms)
            if self._stone_waiting():
                self._press_now(now_ms)
        elif isinstance(event, Press) and event.button == CLAIM_BUTTON:
            self._carry(core.claim(event.button, event.at_ms, now_ms), now_ms)
        self._after(now_ms)

    def _stone_waiting(self) -> bool:
        """A stone of the away player's is sent and not yet pressed."""
        return self._stone_sent

    def _press_now(self, now_ms: int) -> None:
        assert self.core is not None and self._waiting is not None
        press, self._waiting = self._waiting, None
        self._carry(self.core.press(press.button, press.at_ms, now_ms), now_ms)
        self._stone_sent = False

    def packet(self, topic: str, payload: bytes, now_ms: int) -> None:
        try:
            packet = line_codec.parse_to_away(topic, payload, self.link.id)
        except MessageError as exc:
            log.warning("table %d: line packet refused: %s", self.table, exc)
            return
        self._act(self.line.receive(packet, now_ms), now_ms)

    def _act(self, decisions: list[LineDecision], now_ms: int) -> None:
        for d in decisions:
            if isinstance(d, Take):
                self._journal(d.record, now_ms)
                truth = d.record.item
                if isinstance(truth, OwnerTruth):
                    self._truth(truth, now_ms)
            elif isinstance(d, LineCut) and self.core is not None:
                self._carry(self.core.line_cut(now_ms), now_ms)
            elif isinstance(d, LineBack) and self.core is not None:
                self._carry(self.core.line_back(now_ms), now_ms)
            elif isinstance(d, Resume) and self.core is not None:
                self._carry(self.core.resumed(now_ms), now_ms)
            self._line_decision(d, now_ms)
        self._after(now_ms)

    def _truth(self, truth: OwnerTruth, now_ms: int) -> None:
        if self.core is None or (truth.game and truth.game != self.game):
            self.core = AwayTable(
                self.table, self.link.id, truth.away, own_button=0, can_light=self._can_light
            )
            self.game = truth.game
            self._stone_sent = False
            if self.line.state in ("cut", "waiting_for_referees"):
                self.core.line_cut(now_ms)
            self._fact("linked.game", {"game": truth.game}, now_ms)
        offset = self.line.offset(now_ms)
        # the truth's instant in this host's time (before this host's time 0 when the
        # owner's base is ahead: counted from 0, a few ms of a clock's face at most)
        away_ms = max(0, truth.at_ms + (offset.offset_ms if offset is not None else 0))
        self._carry(self.core.truth(truth, now_ms, truth_away_ms=away_ms), now_ms)
        self.last_truth = truth
        self._publish_state(truth)
        if truth.result:
            self._write_record(truth)

    def recover(self, entries: list[tuple[str, dict[str, object]]], now_ms: int) -> None:
        """Rebuild the line from this side's journal and the table from the owner's last
        truth; held (the line ``cut``) until the referees of both halls resume."""
        records = [
            _record_of(kind, payload, sent_truths=False)
            for kind, payload in entries
            if kind.startswith("line.")
        ]
        self.line = AwayLine.recover(
            self.link.id, self.boot, self.link.venue, self.link.other_venue, records, now_ms
        )
        truths = [r.item for r in records if isinstance(r, LineReceived)]
        last = truths[-1] if truths else None
        if isinstance(last, OwnerTruth):
            self._replaying = True
            try:
                self._truth(last, now_ms)
            finally:
                self._replaying = False
            assert self.core is not None
            self._carry(self.core.line_cut(now_ms), now_ms)

    def _carry(self, out: AwayOutcome, now_ms: int) -> None:
        for item in out.send:
            self._send(item, now_ms)
        for wish in out.lamp:
            if isinstance(wish, Light):
                self._lit = None
                self._lamp((wish.point, wish.colour))
            elif isinstance(wish, Dark):
                self._lamp(None)
        for alert in out.alerts:
            self.ports.alert(alert.reason, alert.text)

    def _send(self, item: AwayInput, now_ms: int) -> None:
        if isinstance(item, AwayStone):
            self._stone_sent = True
        self._journal(self.line.send_input(item, now_ms), now_ms)

    def step(self, now_ms: int) -> None:
        if self._waiting is not None and now_ms - self._waiting.since_ms >= PRESS_WAIT_MS:
            self._press_now(now_ms)
        self._act(self.line.poll(now_ms), now_ms)
        if self.core is not None:
            self._carry(self.core.tick(now_ms), now_ms)
        self._after(now_ms)

    def _after(self, now_ms: int) -> None:
        if self.core is None:
            self._show((IDLE_TEXT, IDLE_TEXT), (False, False))
        else:
            faces = self.core.faces(now_ms)
            self._show(faces.text, faces.colon)
        self._flush(self.line, now_ms)

    def due_ms(self, now_ms: int) -> int:
        due = self.line.due_ms()
        if self._waiting is not None:
            due = min(due, self._waiting.since_ms + PRESS_WAIT_MS)
        if self.core is not None:
            change = self.core.faces(now_ms).next_change_ms
            if change is not None:
                due = min(due, change)
        return due

    def resume_command(self, referee: str, chief: bool, now_ms: int) -> tuple[bool, str]:
        return self.resume(self.line, self.link.venue, referee, chief, now_ms)


Side = OwnerSide | AwaySide


def make_side(link: LinkConfig, table: int, ports: LinkedPorts) -> Side:
    """The side of ``link`` this venue plays."""
    return OwnerSide(link, table, ports) if link.owner_here else AwaySide(link, table, ports)
