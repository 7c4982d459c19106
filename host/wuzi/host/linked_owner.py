"""The owner host's linked table: the game runs here (docs/linked.md "The hosts").

Its board and clock unit feed the ``LinkedGame`` (the rules and the time rule), the away
seat's items come over the hall line, and the truth goes back; the journal stream
``line-<link>`` holds the line's records and this side's own facts, so a restarted host
rebuilds the game (``OwnerSide.recover``).
"""

from __future__ import annotations

import logging
from dataclasses import asdict

from wuzi.bus import line as line_codec
from wuzi.bus import topics
from wuzi.bus.schemas import Assignment, MessageError
from wuzi.clock.face import counter_text
from wuzi.config.links import LinkConfig
from wuzi.host.linked_side import (
    PRESS_WAIT_MS,
    LinkedPorts,
    LinkedSide,
    WaitingPress,
    colour_name,
    int_field,
    record_of,
)
from wuzi.link.reconciler import REMOVED, Alert, StoneEvent
from wuzi.link.session import Press
from wuzi.rules.procedure import Seat
from wuzi.table.alerts import AlertReason
from wuzi.table.away_table import (
    HELD_TEXT,
    point_text,
)
from wuzi.table.buttons import CLAIM_BUTTON
from wuzi.table.codec import encode_output
from wuzi.table.hall_line import (
    LineCut,
    LineDecision,
    OwnerLine,
    Resume,
    Take,
)
from wuzi.table.line_messages import (
    LineReceived,
    OwnerTruth,
)
from wuzi.table.linked_game import LinkedGame, LinkedOutcome, LinkedSetup
from wuzi.table.owner_seat import OwnerSeatError

__all__ = ["OwnerSide"]

log = logging.getLogger("wuzi.host.linked")


class OwnerSide(LinkedSide):
    """The owner host's linked table: the game runs here."""

    role = "owner"
    line: OwnerLine

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
        self._seq = 0
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
            colour = colour_name(event.colour)
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
        elif isinstance(event, Alert):
            self.board_alert(event)
        elif isinstance(event, Press) and event.button in (0, 1):
            self._waiting = WaitingPress(event.button, event.at_ms, now_ms)
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
        self._press_waited(now_ms)
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
                if truth.result:
                    self._write_record(truth)
                    self._write_rules_record(game)
                    self._seq += 1
                    kind, data = encode_output(game.game_over(now_ms * 1_000_000))
                    self.ports.event(game.setup.game_id, kind, self._seq, data)
                self._publish_state(truth)
            self._draw(game, now_ms)
        self._flush(now_ms)

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

    def set_result(
        self, winner: Seat | None, reason: str, referee: str, now_ms: int
    ) -> tuple[bool, str]:
        """A referee's signed ``set-result`` at this (the owner's) table: the game ends
        with it at both halls (the truth carries it)."""
        game = self.game
        if game is None:
            return False, "no linked game at this table"
        try:
            game.referee_result(winner, reason, referee, now_ms)
        except OwnerSeatError as exc:
            return False, str(exc)
        seat = None if winner is None else winner.name.lower()
        fact: dict[str, object] = {
            "winner": seat,
            "reason": reason,
            "referee": referee,
            "at_ms": now_ms,
        }
        self._fact("linked.result", fact, now_ms)
        self._after(now_ms)
        return True, "result set"

    def recover(self, entries: list[tuple[str, dict[str, object]]], now_ms: int) -> None:
        """Rebuild the line and the game from this side's journal (in order): the line's
        records, then the game's facts since its last ``linked.game``. The rebuilt side is
        held (the line ``cut``) until the referees of both halls resume."""
        records = [
            record_of(kind, payload, sent_truths=True)
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
            self.game = LinkedGame(self.table, self.link.id, setup, int_field(payload, "start_ms"))
            self._shown = 0
            return
        game = self.game
        assert game is not None
        if kind == "linked.stone":
            point, at = int_field(payload, "point"), int_field(payload, "at_ms")
            game.board_stone(point, str(payload.get("colour")), at)
        elif kind == "linked.removed":
            game.board_removed(int_field(payload, "point"))
        elif kind == "linked.press":
            game.own_press(int_field(payload, "at_ms"))
        elif kind == "linked.shown":
            self._shown = int_field(payload, "move")
            game.shown_here(self._shown, int_field(payload, "at_ms"))
        elif kind == "linked.cut":
            game.line_cut(int_field(payload, "at_ms"))
        elif kind == "linked.back":
            game.line_back(int_field(payload, "at_ms"))
        elif kind == "linked.result":
            seat = payload.get("winner")
            winner = None if seat is None else Seat.FIRST if seat == "first" else Seat.SECOND
            game.referee_result(
                winner,
                str(payload.get("reason")),
                str(payload.get("referee")),
                int_field(payload, "at_ms"),
            )
        elif kind == "line.received":
            record = record_of(kind, payload, sent_truths=True)
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
        return min(self._line_due_ms(), now_ms + 100)
