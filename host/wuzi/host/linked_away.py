"""The away host's linked table: it reads its own board and clock unit and shows the
owner's truth (docs/linked.md "The hosts", "The away table").
"""

from __future__ import annotations

import logging

from wuzi.bus import line as line_codec
from wuzi.bus import topics
from wuzi.bus.schemas import MessageError
from wuzi.config.links import LinkConfig
from wuzi.host.linked_side import (
    LinkedPorts,
    LinkedSide,
    WaitingPress,
    colour_name,
    record_of,
)
from wuzi.link.reconciler import REMOVED, Alert, StoneEvent
from wuzi.link.session import Press
from wuzi.table.away_table import (
    IDLE_TEXT,
    AwayOutcome,
    AwayTable,
    Dark,
    Light,
)
from wuzi.table.buttons import CLAIM_BUTTON
from wuzi.table.hall_line import (
    AwayLine,
    LineBack,
    LineCut,
    LineDecision,
    Resume,
    Take,
)
from wuzi.table.line_messages import (
    AwayInput,
    AwayStone,
    LineReceived,
    OwnerTruth,
)

__all__ = ["AwaySide"]

log = logging.getLogger("wuzi.host.linked")


class AwaySide(LinkedSide):
    """The away host's linked table: it reads its devices and shows the owner's truth."""

    role = "away"
    line: AwayLine

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
            colour = colour_name(event.colour)
            self._carry(core.stone(event.point, colour, event.at_ms, now_ms), now_ms)
            if self._waiting is not None and colour == core.colour:
                self._press_now(now_ms)
        elif isinstance(event, Alert) and event.kind == REMOVED:
            for point in event.points:
                self._carry(core.removed(point, event.at_ms, now_ms), now_ms)
        elif isinstance(event, Alert):
            self.board_alert(event)
        elif isinstance(event, Press) and event.button in (0, 1):
            if self._waiting is not None:
                self._press_now(now_ms)
            self._waiting = WaitingPress(event.button, event.at_ms, now_ms)
            if self._stone_sent:  # its stone already went out: the press follows it
                self._press_now(now_ms)
        elif isinstance(event, Press) and event.button == CLAIM_BUTTON:
            self._carry(core.claim(event.button, event.at_ms, now_ms), now_ms)
        self._after(now_ms)

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
            record_of(kind, payload, sent_truths=False)
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
        self._press_waited(now_ms)
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
        self._flush(now_ms)

    def due_ms(self, now_ms: int) -> int:
        due = self._line_due_ms()
        if self.core is not None:
            change = self.core.faces(now_ms).next_change_ms
            if change is not None:
                due = min(due, change)
        return due
