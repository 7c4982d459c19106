"""Sans-I/O sessions for a sensor board and a clock unit: bytes in, events out; commands to bytes.

In the style of h11: ``receive_data(data, now_ms)`` returns the events the bytes complete,
``poll(now_ms)`` returns the events that time alone produces (link down, retries), and
``data_to_send()`` hands over the bytes to write. Nothing here touches a port or reads a clock.

What the session guarantees to the layer above: every event the MCU numbered is delivered
once, in order, or — when the MCU's RAM log no longer holds them — replaced by a full board
state (``BoardState``). It does so by watching the event numbers (a gap asks for a replay of
everything since the last one seen), the boot id (a new boot restarts the numbering), and the
heartbeats (a heartbeat tells the latest number, so a lost last event is noticed too).

MCU ticks (ms modulo 2**30) are mapped to host milliseconds with a running estimate of the
offset (the smallest ``host_now - tick`` seen, allowed to creep up 1 ms per heartbeat so a
clock drifting the other way is followed). Replayed events thus keep their true times.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from wuzi.link import wire
from wuzi.link.errors import BoardMismatchError, DeviceMismatchError, VersionMismatchError
from wuzi.link.info import info_protocol, info_texts, protocol_problem
from wuzi.link.lamp import Lamp, PointLight, parse_lamp
from wuzi.link.noise import LineNoisy, NoiseMeter

REPLAY_RETRY_MS = 100
HELLO_RETRY_MS = 250
ASK_RETRY_MS = 50  # ``ask_latest``: a quiet window's end is confirmed within a round trip
STEADY_MINOR = 1  # the protocol minor from which a board answers STEADY_REQ (2.1)
CAPS_MINOR = 2  # the protocol minor from which INFO carries capability bits (2.2)
STEADY_ASKS_KEPT = 8  # unanswered STEADY_REQs remembered (their answers may still come)
# The board and the clock unit send a heartbeat every 200 ms (firmware/board.py,
# clock_unit.py): 600 ms of silence is three missed in a row, which a loaded Pi's late loop
# turn does not fake, and a pulled cable whose port stays open is told within a second.
# Silence means no byte at all: a frame that arrives damaged (a bad CRC, a bad header) is
# a sign of life, not of a broken line. At a bit error rate of 1e-3 a heartbeat is damaged
# one time in six, so three in a row (~0.5 %) came several times a game when only whole
# frames counted: each a false link_down that held the clock.
LINK_TIMEOUT_MS = 600
# A line whose bytes all arrive damaged is as unusable as a silent one, but only a line far
# worse than noisy does that: at 1e-3 fifteen heartbeats in a row are all damaged with odds
# under 1e-11. So nothing read whole for ``LINK_GARBLED_MS`` while bytes arrive is down too.
LINK_GARBLED_MS = 3000
# A device that goes on sending but takes no command (its input stalled: a hung USB
# endpoint, a firmware stuck outside its receive path) is as unusable as a silent one: the
# host could neither ask it for a replay nor show a clock on it. So a link that has been
# quiet on the device's side of the conversation for ``PROBE_IDLE_MS`` asks HELLO (which a
# device answers with INFO and nothing else), again every ``PROBE_RETRY_MS``, and a device
# that answers none of them for ``STALL_AFTER_MS`` is stalled: its link is down until it
# answers. At a bit error rate of 1e-3 an INFO is lost a third of the time; eight in a
# row, under 2e-4 — but with the HELLO's own losses and 1 % of frames dropped each way a
# round trip fails 40 % of the time, and 0.4**8 (7e-4) for each quiet second is several
# false stalls an hour. So while damaged frames arrive (noise explains a lost answer; on a
# clean line nothing does) a stall needs ``STALL_AFTER_NOISY_MS`` of unanswered HELLOs
# (20 of them: 0.4**20, 1e-8), and any answer to a command counts (an INFO, a STEADY, an
# ERROR: each shows the device reads its input).
PROBE_IDLE_MS = 1000
PROBE_RETRY_MS = 250
STALL_AFTER_MS = 2000
STALL_AFTER_NOISY_MS = 5000
# A replay keeps the order of the changes; a snapshot does not (several stones that arrive
# in one snapshot can only be reported as "two stones at once"). So the host keeps asking
# for the replay as long as the board may still answer it — a board whose log no longer
# holds the events answers with a "no replay" snapshot by itself — and falls back to a
# snapshot only after 2 s of unanswered requests (a board that cannot replay at all). On a
# line with 1e-3 bit errors a request and its answer are lost together well under half the
# time, so 20 tries in a row fail with odds below 1e-7.
REPLAY_TRIES_BEFORE_SNAPSHOT = 20


@dataclass(frozen=True)
class BoardInfo:
    """What a board says about itself on connect (INFO)."""

    kind: int
    major: int
    minor: int
    boot_id: int
    evno: int
    serial: str
    revision: str
    debounce_scans: int
    scan_us: int
    caps: int = 0  # capability bits (2.2, ``wire.CAP_*``); 0 before 2.2: none

    @property
    def point_leds(self) -> bool:
        """The board has an LED under every point (LIGHT / DARK, ``sensor-rev-b``)."""
        return bool(self.caps & wire.CAP_POINT_LEDS)


@dataclass(frozen=True)
class Connected:
    info: BoardInfo
    rebooted: bool  # a boot id other than the one seen before: the board was reset
    new_boot: bool  # first contact with this boot: its numbering (and readings) start afresh
    at_ms: int
    boot_at_ms: int  # when this boot began (MCU tick 0), in host ms


@dataclass(frozen=True)
class SensorChange:
    """A point's debounced reading changed (0 empty, 1 black, 2 white, 3 both latches)."""

    evno: int
    point: int
    state: int
    at_ms: int


@dataclass(frozen=True)
class BoardState:
    """The whole board as read at ``at_ms``: events were lost, or readings disagreed."""

    cells: bytes
    evno: int
    at_ms: int
    reason: str  # "no_replay" | "requested" | "mismatch"


@dataclass(frozen=True)
class StuckSensors:
    points: tuple[tuple[int, int], ...]  # (point, code: bit 0 black latch, bit 1 white)
    total: int
    at_ms: int


@dataclass(frozen=True)
class Press:
    """A clock-unit button press, stamped by the MCU."""

    evno: int
    button: int
    at_ms: int


@dataclass(frozen=True)
class PressesLost:
    first_evno: int
    last_evno: int
    at_ms: int


@dataclass(frozen=True)
class LinkDown:
    """The device stopped being heard: silent for ``silent_ms`` (``why`` empty), or its
    port was lost or its device refused (``why`` says how: "read failed: …", "stalled: …",
    a refused device's reason). Once per outage."""

    at_ms: int
    silent_ms: int
    why: str = ""


@dataclass(frozen=True)
class LinkUp:
    at_ms: int


@dataclass(frozen=True)
class BoardError:
    """The board rejected a command we sent (it names the code and the message type)."""

    code: int
    msg_type: int
    at_ms: int


LinkEvent = (
    Connected
    | Lamp
    | SensorChange
    | BoardState
    | StuckSensors
    | Press
    | PressesLost
    | LinkDown
    | LinkUp
    | BoardError
    | LineNoisy
)
"""``LineNoisy`` (``wuzi.link.noise``): the line damages frames, told once with its rate.
``Lamp`` (``wuzi.link.lamp``): the board's word on its point LED (2.2)."""


@dataclass
class LinkHealth:
    """Counters for the referee's status page and for `wuzi board watch --health`."""

    frames: int = 0
    crc_errors: int = 0
    bad_headers: int = 0
    garbage_bytes: int = 0
    frames_lost: int = 0
    duplicates: int = 0
    event_gaps: int = 0
    replays: int = 0
    snapshots_applied: int = 0
    mismatches: int = 0
    reboots: int = 0
    link_downs: int = 0
    reconnects: int = 0
    unknown_types: int = 0
    board_errors: int = 0
    malformed: int = 0  # frames of a known type whose content cannot be read: ignored
    forged_info: int = 0  # INFOs of a new boot id that the board then contradicted
    stalls: int = 0  # the device went on sending but answered no HELLO (``STALL_AFTER_MS``)

    def as_dict(self) -> dict[str, int]:
        return dict(self.__dict__)


KIND_NAMES = {wire.KIND_SENSOR: "sensor board", wire.KIND_CLOCK: "clock unit"}


@dataclass
class _Timers:
    hello_sent_ms: int | None = None
    replay_sent_ms: int | None = None
    last_frame_ms: int | None = None  # the last frame read whole
    last_byte_ms: int | None = None  # the last byte at all, whole or damaged: a sign of life
    answered_ms: int | None = None  # the device's last INFO on this connection
    probe_sent_ms: int | None = None  # the first probe HELLO not answered yet
    probe_last_ms: int | None = None  # and the latest


class EventSession:
    """The numbering, handshake and liveness logic shared by boards and clock units."""

    kind = wire.KIND_SENSOR

    def __init__(
        self,
        *,
        expected_serial: str | None = None,
        port_name: str = "board",
        skip_history: bool = False,
    ) -> None:
        self.expected_serial = expected_serial
        self.port_name = port_name
        # A table host that starts (or restarts after a crash) meets a device that may
        # have been running for hours: its event log is history the host never saw and
        # must not act on (old clock presses; stones of an earlier game). With
        # skip_history the first boot this session sees starts at its latest event, and a
        # board sends a snapshot of now instead. Reboots seen later are replayed as usual.
        self.skip_history = skip_history
        self.health = LinkHealth()
        self.info: BoardInfo | None = None
        self.boot_id: int | None = None
        self.last_evno = 0
        self.known_latest = 0
        # Host ms up to which the device's event log is known to be delivered whole: the
        # time of the last in-order event, or of a heartbeat, snapshot or INFO that said
        # nothing newer exists. A stone may settle only on a quiet window heard to its end:
        # a lost last event is noticed only at the next heartbeat, after the window.
        self.heard_until_ms: int | None = None
        self.link_up = False
        self._decoder = wire.Decoder()
        self._out = bytearray()
        self._seq = 0
        self._rx_seq: int | None = None
        self._timers = _Timers()
        self._offset_ms: int | None = None
        self._tick_ext: int | None = None
        self._tick_raw = 0
        self._events: list[LinkEvent] = []
        self._replay_tries = 0
        self._replay_since = 0
        self._asked_ms: int | None = None  # when ``ask_latest`` last asked
        # A device identified itself on this connection (an INFO of the expected kind,
        # serial and protocol): until then its frames do not make the link up.
        self.identified = False
        # A boot id an INFO announced but nothing has confirmed yet (see ``_on_info``).
        self._unconfirmed_boot: int | None = None
        self.last_malformed = ""  # why the latest malformed frame was ignored (for the logs)
        self.noise = NoiseMeter()
        self._probe_damage = 0  # damaged frames counted when the pending probe began

    # -- the h11-like surface -----------------------------------------------------------

    def connection_made(self, now_ms: int) -> None:
        """A (re)opened port: forget half frames, say hello."""
        self._decoder.reset()
        self._rx_seq = None
        self._timers.last_frame_ms = self._timers.last_byte_ms = now_ms
        self._timers.answered_ms = now_ms
        self._timers.probe_sent_ms = self._timers.probe_last_ms = None
        self.identified = False
        self._unconfirmed_boot = None
        self._send_hello(now_ms)

    def connection_lost(self, now_ms: int, why: str) -> list[LinkEvent]:
        """The port died (read or write error, the device vanished, a stalled device) or
        the driver refused the device on it: the link is down now, not after the silence
        timeout. ``LinkDown`` comes out once per outage (a link already down after a
        silence says nothing more); the events still pending (those a refused device's
        bytes completed before the refusal) come out first. The boot, the numbering and the
        readings are kept: the device that answers on the next connection replays what it
        logged meanwhile, or says it rebooted."""
        self.identified = False
        self._unconfirmed_boot = None
        self._out.clear()  # for a port that is closed: the next connection says HELLO
        if self.link_up:
            self.link_up = False
            self.health.link_downs += 1
            last = self._timers.last_byte_ms
            silent = 0 if last is None else max(0, now_ms - last)
            self._events.append(LinkDown(now_ms, silent, why))
        return self._take()

    def data_to_send(self) -> bytes:
        out = bytes(self._out)
        self._out.clear()
        return out

    @property
    def in_sync(self) -> bool:
        """True when every event the board has numbered so far has been delivered."""
        return (
            self.boot_id is not None
            and self._timers.hello_sent_ms is None
            and self.last_evno >= self.known_latest
        )

    def receive_data(self, data: bytes, now_ms: int) -> list[LinkEvent]:
        dec = self._decoder
        before = (dec.crc_errors, dec.bad_headers, dec.garbage_bytes)
        frames_before = self.health.frames
        if data:
            self._timers.last_byte_ms = now_ms  # whole or damaged, the device is there
        view = memoryview(data)
        offset = 0
        while True:
            if offset < len(view):
                offset += dec.feed(view[offset:])
            t = dec.next_frame()
            while t >= 0:
                body = bytes(dec.buf[dec.body_at : dec.body_at + dec.body_len])
                self._frame(dec.seq, t, body, now_ms)
                t = dec.next_frame()
            if offset >= len(view):
                break
        h = self.health
        damaged = dec.crc_errors - before[0] + dec.bad_headers - before[1]
        h.crc_errors += dec.crc_errors - before[0]
        h.bad_headers += dec.bad_headers - before[1]
        h.garbage_bytes += dec.garbage_bytes - before[2]
        noisy = self.noise.count(h.frames - frames_before, damaged, now_ms)
        if noisy is not None:
            self._events.append(noisy)
        return self._take()

    @property
    def damaged_frames(self) -> int:
        """Frames that arrived damaged so far (a bad CRC or a bad header)."""
        return self.health.crc_errors + self.health.bad_headers

    def poll(self, now_ms: int) -> list[LinkEvent]:
        t = self._timers
        if t.hello_sent_ms is not None and now_ms - t.hello_sent_ms >= HELLO_RETRY_MS:
            self._send_hello(now_ms)
        if t.replay_sent_ms is not None and now_ms - t.replay_sent_ms >= REPLAY_RETRY_MS:
            t.replay_sent_ms = None
            self._replay_tries += 1
            if self._replay_tries >= REPLAY_TRIES_BEFORE_SNAPSHOT:
                self._replay_tries = 0
                self._fallback_snapshot(now_ms)
            else:
                self._want_replay(now_ms)
        if self.link_up and t.last_byte_ms is not None:
            if now_ms - t.last_byte_ms >= LINK_TIMEOUT_MS:
                self._down(LinkDown(now_ms, now_ms - t.last_byte_ms))
            elif t.last_frame_ms is not None and now_ms - t.last_frame_ms >= LINK_GARBLED_MS:
                self._down(
                    LinkDown(
                        now_ms,
                        0,
                        f"garbled: {self.port_name} sends only damaged frames (none read"
                        f" whole for {now_ms - t.last_frame_ms} ms)",
                    )
                )
        self._probe(now_ms)
        return self._take()

    def _down(self, event: LinkDown) -> None:
        self.link_up = False
        self.health.link_downs += 1
        self._events.append(event)

    def _probing(self) -> bool:
        return self.identified and self.link_up and self._timers.hello_sent_ms is None

    def _probe(self, now_ms: int) -> None:
        """Ask a quiet device to answer (``PROBE_IDLE_MS``); call it stalled when it has
        answered nothing for ``STALL_AFTER_MS`` while it goes on sending."""
        t = self._timers
        if not self._probing():
            return
        if t.probe_sent_ms is None:
            if t.answered_ms is None or now_ms - t.answered_ms >= PROBE_IDLE_MS:
                self._hello()
                t.probe_sent_ms = t.probe_last_ms = now_ms
                self._probe_damage = self.damaged_frames
            return
        noisy = self.damaged_frames > self._probe_damage  # noise may have eaten the answers
        if now_ms - t.probe_sent_ms >= (STALL_AFTER_NOISY_MS if noisy else STALL_AFTER_MS):
            self.link_up = False
            self.identified = False  # only an INFO brings it back
            self.health.link_downs += 1
            self.health.stalls += 1
            self._events.append(
                LinkDown(
                    now_ms,
                    0,
                    f"stalled: {self.port_name} takes no command (no answer for "
                    f"{now_ms - t.probe_sent_ms} ms while it goes on sending)",
                )
            )
            t.probe_sent_ms = t.probe_last_ms = None
            self._send_hello(now_ms)  # asked again every HELLO_RETRY_MS until it answers
        elif t.probe_last_ms is None or now_ms - t.probe_last_ms >= PROBE_RETRY_MS:
            self._hello()
            t.probe_last_ms = now_ms

    def next_deadline_ms(self) -> int | None:
        t = self._timers
        candidates = []
        if t.hello_sent_ms is not None:
            candidates.append(t.hello_sent_ms + HELLO_RETRY_MS)
        if t.replay_sent_ms is not None:
            candidates.append(t.replay_sent_ms + REPLAY_RETRY_MS)
        if self.link_up and t.last_byte_ms is not None:
            candidates.append(t.last_byte_ms + LINK_TIMEOUT_MS)
        if self.link_up and t.last_frame_ms is not None:
            candidates.append(t.last_frame_ms + LINK_GARBLED_MS)
        if self._probing():
            if t.probe_sent_ms is None:
                if t.answered_ms is not None:
                    candidates.append(t.answered_ms + PROBE_IDLE_MS)
            else:
                noisy = self.damaged_frames > self._probe_damage
                candidates.append(
                    t.probe_sent_ms + (STALL_AFTER_NOISY_MS if noisy else STALL_AFTER_MS)
                )
                if t.probe_last_ms is not None:
                    candidates.append(t.probe_last_ms + PROBE_RETRY_MS)
        return min(candidates) if candidates else None

    def request_self_test(self) -> None:
        self._command(wire.T_SELFTEST_REQ, b"")

    # -- internals ----------------------------------------------------------------------

    def _take(self) -> list[LinkEvent]:
        events = self._events
        self._events = []
        return events

    def _command(self, msg_type: int, body: bytes) -> None:
        self._out += wire.encode(msg_type, self._seq, body)
        self._seq = (self._seq + 1) & 0xFF

    def _send_hello(self, now_ms: int) -> None:
        self._hello()
        self._timers.hello_sent_ms = now_ms

    def _hello(self) -> None:
        self._command(wire.T_HELLO, bytes((wire.PROTOCOL_MAJOR, wire.PROTOCOL_MINOR)))

    def _want_replay(self, now_ms: int) -> None:
        """Ask for everything after ``last_evno``, unless that very request is in flight.

        A request is re-sent at once when events have come in since (the replay itself lost
        a frame): the board restarts its replay from the first missing event.
        """
        if self.boot_id is None:
            return
        if self._timers.replay_sent_ms is not None and self._replay_since == self.last_evno + 1:
            return
        self._replay_since = self.last_evno + 1
        body = bytearray(wire.LEN_REPLAY)
        wire.put_u32(body, 0, self.boot_id)
        wire.put_u32(body, 4, self.last_evno + 1)
        self._command(wire.T_REPLAY, bytes(body))
        self._timers.replay_sent_ms = now_ms
        self.health.replays += 1

    def _host_ms(self, tick: int, now_ms: int, live: bool) -> int:
        """Map an MCU tick to host ms; ``live`` ticks (just stamped) refine the offset."""
        if self._tick_ext is None:
            self._tick_ext = tick
            self._tick_raw = tick
        d = wire.ticks_diff(tick, self._tick_raw)
        ext = self._tick_ext + d
        if d > 0:
            self._tick_ext = ext
            self._tick_raw = tick
        if live:
            sample = now_ms - ext
            if self._offset_ms is None or sample < self._offset_ms:
                self._offset_ms = sample
        if self._offset_ms is None:
            self._offset_ms = now_ms - ext
        return min(ext + self._offset_ms, now_ms)

    def _frame(self, seq: int, t: int, body: bytes, now_ms: int) -> None:
        h = self.health
        h.frames += 1
        if self._rx_seq is not None:
            if seq == self._rx_seq and t != wire.T_INFO:
                h.duplicates += 1
                return
            h.frames_lost += (seq - self._rx_seq - 1) & 0xFF
        self._rx_seq = seq
        info = None
        if t == wire.T_INFO:
            info = self._read_info(body)  # a wrong device raises here, before anything
            if info is None:
                return
        self._timers.last_frame_ms = now_ms
        if not self.link_up and (self.identified or info is not None):
            self.link_up = True
            if self.boot_id is not None:
                self._events.append(LinkUp(now_ms))
                if info is None:
                    self._send_hello(now_ms)  # after silence: did it reboot meanwhile?
        if info is not None:
            self._on_info(info, body, now_ms)
        elif t == wire.T_HEARTBEAT:
            self._on_heartbeat(body, now_ms)
        elif t == wire.T_ERROR and len(body) == wire.LEN_ERROR:
            h.board_errors += 1
            self._answered(now_ms)
            self._on_error(body[0], body[1])
            self._events.append(BoardError(body[0], body[1], now_ms))
        elif not self._on_message(t, body, now_ms):
            h.unknown_types += 1  # a newer minor version's message: ignored, counted

    def _mismatch(
        self, cls: type[DeviceMismatchError], problem: str, body: bytes, serial: str, advice: str
    ) -> DeviceMismatchError:
        kind = body[wire.INFO_KIND]
        return cls(
            self.port_name,
            problem,
            expected_kind=KIND_NAMES[self.kind],
            expected_serial=self.expected_serial,
            expected_protocol=f"{wire.PROTOCOL_MAJOR}.{wire.PROTOCOL_MINOR}",
            found_kind=KIND_NAMES.get(kind, f"device of kind {kind}"),
            found_serial=serial,
            found_protocol=f"{body[wire.INFO_MAJOR]}.{body[wire.INFO_MINOR]}",
            advice=advice,
        )

    def _read_info(self, body: bytes) -> BoardInfo | None:
        """The INFO's contents, None when it cannot be read (counted; the HELLO retry asks
        again). A device that is not the one expected raises a ``DeviceMismatchError``
        naming the port, what answered and what was expected: the serial driver refuses
        it (closes the port, tells why, retries later)."""
        protocol = info_protocol(body)
        if protocol is None:
            self.health.unknown_types += 1
            return None
        major, minor = protocol
        kind = body[wire.INFO_KIND]
        # the protocol first, whatever the length: every version's INFO starts with it,
        # and an old firmware's INFO (1.0: 42 bytes) is shorter than this host's
        problem = protocol_problem(f"the {KIND_NAMES.get(kind, 'device')}", major, minor)
        if problem is not None:
            texts = info_texts(body, strict=False)
            raise self._mismatch(
                VersionMismatchError,
                problem,
                body,
                "?" if texts is None else texts[0],
                "flash matching firmware (make flash) or update the host",
            )
        if len(body) < wire.LEN_INFO:
            self.health.unknown_types += 1
            return None
        serial = self._info_text(body, wire.INFO_SERIAL, wire.SERIAL_LEN, "serial")
        revision = self._info_text(body, wire.INFO_REVISION, wire.TEXT_LEN, "revision")
        if serial is None or revision is None:
            return None
        info = BoardInfo(
            kind=body[wire.INFO_KIND],
            major=major,
            minor=minor,
            boot_id=wire.get_u32(body, wire.INFO_BOOT),
            evno=wire.get_u32(body, wire.INFO_EVNO),
            serial=serial,
            revision=revision,
            debounce_scans=body[wire.INFO_DEBOUNCE],
            scan_us=wire.get_u16(body, wire.INFO_SCAN_US),
            # 2.2 added the byte after the revision; an older INFO has none: no capability
            caps=body[wire.INFO_CAPS] if minor >= CAPS_MINOR and len(body) > wire.INFO_CAPS else 0,
        )
        if info.kind != self.kind:
            raise self._mismatch(
                BoardMismatchError,
                f"expected a {KIND_NAMES[self.kind]}, found a "
                f"{KIND_NAMES.get(info.kind, f'device of kind {info.kind}')}",
                body,
                info.serial,
                "plug the right device into this port or fix the table config",
            )
        if self.expected_serial is not None and info.serial != self.expected_serial:
            raise self._mismatch(
                BoardMismatchError,
                f"expected board serial {self.expected_serial!r}, found {info.serial!r}"
                f" ({info.revision})",
                body,
                info.serial,
                "check the cable or the table config",
            )
        return info

    def _answered(self, now_ms: int) -> None:
        """The device answered a command (an INFO, a STEADY, an ERROR): it reads what the
        host sends, so it is not stalled; a probe under way is over."""
        self._timers.answered_ms = now_ms
        self._timers.probe_sent_ms = self._timers.probe_last_ms = None

    def _on_info(self, info: BoardInfo, body: bytes, now_ms: int) -> None:
        self._answered(now_ms)
        if self.boot_id is not None and info.boot_id != self.boot_id:
            if self._unconfirmed_boot != info.boot_id:
                # A new boot id is believed only when a second INFO repeats it: a reboot
                # answers the HELLO with the same id, while a forged INFO (or noise the
                # CRC passed) would otherwise restart the numbering and report the
                # board's stones again. A word of the old boot meanwhile disproves it.
                self._unconfirmed_boot = info.boot_id
                self._send_hello(now_ms)
                return
        elif self._unconfirmed_boot is not None:
            self._forged(f"an INFO of boot {info.boot_id:08x}", now_ms)
        self._unconfirmed_boot = None
        self.identified = True
        self._timers.hello_sent_ms = None
        rebooted = self.boot_id is not None and info.boot_id != self.boot_id
        new_boot = info.boot_id != self.boot_id
        if new_boot:
            if rebooted:
                self.health.reboots += 1
            self.boot_id = info.boot_id
            self.last_evno = 0
            self.known_latest = 0
            self._timers.replay_sent_ms = None
            self._offset_ms = None
            self._tick_ext = None
            self.heard_until_ms = None
            self._new_boot()
        first_boot = new_boot and not rebooted
        self.info = info
        if first_boot and self.skip_history:
            self.last_evno = self.known_latest = info.evno
            self._skip_history(now_ms)
        tick = wire.get_u32(body, wire.INFO_TICK)
        at = self._host_ms(tick, now_ms, True)
        self._events.append(Connected(info, rebooted, new_boot, at, at - tick))
        self._note_latest(info.evno, now_ms)
        self._heard(at)
        # the question is answered: one whose answer fell short of a quiet window's end
        # (stamped a little before it) may be asked again at once, not ASK_RETRY_MS later
        self._asked_ms = None

    def _info_text(self, body: bytes, at: int, size: int, what: str) -> str | None:
        """An INFO text field, or None (the frame counted as malformed, with its reason)
        when it is not UTF-8: a board's firmware writes ASCII, so such a frame is damage
        the CRC missed or a broken firmware; the HELLO retry asks again."""
        try:
            return wire.get_text(body, at, size)
        except UnicodeDecodeError as exc:
            raw = bytes(body[at : at + size]).rstrip(b"\0")
            self.health.malformed += 1
            self.last_malformed = (
                f"{self.port_name}: INFO frame ignored: its {what} is not text"
                f" ({exc.reason} at byte {exc.start}: {raw.hex(' ')})"
            )
            return None

    def _on_heartbeat(self, body: bytes, now_ms: int) -> None:
        if len(body) < wire.LEN_HEARTBEAT:
            return
        boot = wire.get_u32(body, 0)
        if boot == self.boot_id and self._unconfirmed_boot is not None:
            self._forged(f"a heartbeat of boot {boot:08x}", now_ms)
        if boot != self.boot_id:
            if self._timers.hello_sent_ms is None:
                self._send_hello(now_ms)  # a new boot whose announcement we missed
            return
        at = self._host_ms(wire.get_u32(body, 8), now_ms, True)
        if self._offset_ms is not None:
            self._offset_ms += 1  # creep: follow an MCU clock that runs slow
        self._note_latest(wire.get_u32(body, 4), now_ms)
        self._heard(at)

    def _forged(self, evidence: str, now_ms: int) -> None:
        """The board spoke as its known boot after an INFO announced another: that INFO
        was false (forged, or damage the CRC missed). Counted and told, not believed."""
        assert self._unconfirmed_boot is not None
        self.health.forged_info += 1
        self.last_malformed = (
            f"{self.port_name}: INFO announcing boot {self._unconfirmed_boot:08x} ignored:"
            f" {evidence} followed it (at {now_ms} ms)"
        )
        self._unconfirmed_boot = None

    def ask_latest(self, now_ms: int) -> None:
        """Ask the device for its latest event number now: a HELLO, which its INFO answers
        stamped. The session does not wait for the answer (an INFO lost to noise is
        replaced by the next heartbeat); asked again at most every ``ASK_RETRY_MS``."""
        if self._timers.hello_sent_ms is not None:
            return  # a handshake is under way: its INFO will tell
        if self._asked_ms is not None and now_ms - self._asked_ms < ASK_RETRY_MS:
            return
        self._hello()
        self._asked_ms = now_ms

    def ask_again_ms(self) -> int | None:
        """When a question still unanswered may be asked again (``ask_latest``'s HELLO, or
        a handshake's): until then a caller waiting for the answer has nothing to do, and
        must sleep rather than poll (None: no question is outstanding)."""
        if self._timers.hello_sent_ms is not None:
            return self._timers.hello_sent_ms + HELLO_RETRY_MS
        if self._asked_ms is not None:
            return self._asked_ms + ASK_RETRY_MS
        return None

    def _heard(self, at_ms: int, *, in_order: bool = False) -> None:
        """Nothing was lost up to ``at_ms``: an in-order event, or a word from the device
        (heartbeat, INFO, snapshot) while every event it numbered has been delivered."""
        whole = in_order or (self.boot_id is not None and self.last_evno >= self.known_latest)
        if whole and (self.heard_until_ms is None or at_ms > self.heard_until_ms):
            self.heard_until_ms = at_ms

    def _note_latest(self, evno: int, now_ms: int) -> None:
        if evno > self.known_latest:
            self.known_latest = evno
        if self.known_latest > self.last_evno:
            self._want_replay(now_ms)

    def _accept_evno(self, evno: int, boot_tag: int, now_ms: int) -> bool:
        """True if event ``evno`` is the next one; otherwise count it and ask for a replay."""
        if self.boot_id is None or self._timers.hello_sent_ms is not None:
            return False  # numbering of an unknown boot: wait for INFO
        if boot_tag != self.boot_id & 0xFF:
            self._send_hello(now_ms)  # an event of a boot we have not been told about
            return False
        if evno <= self.last_evno:
            self.health.duplicates += 1
            return False
        if evno != self.last_evno + 1:
            self.health.event_gaps += 1
            self._note_latest(evno, now_ms)
            return False
        self.last_evno = evno
        self._replay_tries = 0
        if self.last_evno >= self.known_latest:
            self.known_latest = self.last_evno
            self._timers.replay_sent_ms = None
        return True

    def _new_boot(self) -> None:
        """Hook: a new boot id was seen (before its events arrive)."""

    def _skip_history(self, now_ms: int) -> None:
        """Hook: the first boot's history is skipped (``skip_history``); catch up on now."""

    def _fallback_snapshot(self, now_ms: int) -> None:
        """Hook: replays keep failing; ask for the whole state instead."""
        self._want_replay(now_ms)

    def _on_message(self, t: int, body: bytes, now_ms: int) -> bool:
        return False

    def _on_error(self, code: int, msg_type: int) -> None:
        """The device refused command ``msg_type`` (ERROR ``code``)."""


def _snapshot_reason(code: int) -> str:
    return {wire.SNAP_REQUESTED: "requested", wire.SNAP_NO_REPLAY: "no_replay"}.get(
        code, "periodic"
    )


@dataclass
class _Cells:
    states: bytearray = field(default_factory=lambda: bytearray(wire.POINTS))


class BoardSession(EventSession):
    """The host's side of one sensor board."""

    kind = wire.KIND_SENSOR

    def __init__(
        self,
        *,
        expected_serial: str | None = None,
        port_name: str = "board",
        skip_history: bool = False,
    ) -> None:
        super().__init__(
            expected_serial=expected_serial, port_name=port_name, skip_history=skip_history
        )
        self._cells = _Cells()
        # Host ms before which the board has vouched (STEADY, protocol 2.1) that every stone
        # lying on it was reported: a clock press stamped earlier is judged at once.
        # Exclusive: the answer vouches for the instant its question was sent, which lies
        # somewhere in that whole millisecond.
        self.steady_until_ms: int | None = None
        self._steady_token = 0
        # STEADY_REQs sent (their token is the low byte) and the latest one believed
        self._steady_serial = 0
        self.steady_answered = 0
        # STEADY_REQs unanswered: token -> (host ms the answer vouches for, serial)
        self._steady_asks: dict[int, tuple[int, int]] = {}
        # the point LED (LIGHT / DARK / LAMP, 2.2): what the host wants lit, the board's word
        self.point_light = PointLight()

    @property
    def answers_steady(self) -> bool:
        """Whether the board speaks 2.1 or later (STEADY_REQ); a 2.0 board is asked HELLO."""
        return self.info is not None and self.info.minor >= STEADY_MINOR

    def ask_steady(self, through_ms: int, now_ms: int) -> None:
        """Ask the board to vouch that every stone lying on it during host ms ``through_ms``
        has been reported: a STEADY_REQ due ``through_ms + 1 - now_ms`` after it arrives,
        answered by the board's first look from then on that finds no reading in its
        debounce. The answer comes after the request was sent, so it vouches for every
        instant before ``max(now_ms, through_ms + 1)`` whatever the two clocks say. The
        board holds one question: a later one is asked after the pending one is answered,
        an earlier one (a clock press while a quiet window's end is pending) replaces it.
        A 2.0 board is asked HELLO instead, once ``through_ms`` has come (its stamped INFO
        confirms the window's end; a press then waits for the debounce,
        ``BoardLink.settled_through``)."""
        if not self.answers_steady:
            if now_ms >= through_ms:
                self.ask_latest(now_ms)
            return
        if self.steady_until_ms is not None and self.steady_until_ms > through_ms:
            return
        if self._timers.hello_sent_ms is not None:
            return  # a handshake is under way: asked once it is over
        vouch = max(now_ms, through_ms + 1)
        pending = self._steady_asks.get(self._steady_token)
        if pending is not None and pending[0] <= vouch and now_ms < pending[0] + ASK_RETRY_MS:
            return  # an answer due no later is on its way (one lost is asked again)
        self._send_steady_req(vouch - now_ms, now_ms)

    def ask_steady_now(self, now_ms: int) -> int:
        """Ask the board to vouch for this very instant, and return the question's serial
        (``steady_answered`` reaching it means answered; 0: a 2.0 board, asked HELLO). Its
        answer vouches for everything before it was sent: a clock press whose frame has
        arrived is covered whatever millisecond it is stamped, with no wait for the next
        millisecond (the press came before its frame, the frame before the question)."""
        if not self.answers_steady or self._timers.hello_sent_ms is not None:
            self.ask_latest(now_ms)
            return 0
        return self._send_steady_req(0, now_ms)

    def _send_steady_req(self, delay_ms: int, now_ms: int) -> int:
        delay = min(delay_ms, 0xFFFF)
        self._steady_serial += 1
        self._steady_token = self._steady_serial & 0xFF
        self._command(wire.T_STEADY_REQ, bytes((self._steady_token, delay >> 8, delay & 0xFF)))
        asks = self._steady_asks
        asks.pop(self._steady_token, None)
        asks[self._steady_token] = (now_ms + delay, self._steady_serial)
        while len(asks) > STEADY_ASKS_KEPT:
            del asks[next(iter(asks))]
        return self._steady_serial

    def ask_again_ms(self) -> int | None:
        again = super().ask_again_ms()
        pending = self._steady_asks.get(self._steady_token)
        if pending is None:
            return again
        steady = pending[0] + ASK_RETRY_MS
        return steady if again is None else min(again, steady)

    def _on_steady(self, body: bytes, now_ms: int) -> None:
        """The board's answer: nothing but events up to its latest lay on it, as of the
        moment the question it answers vouched for. Believed once those events are here
        (a gap is replayed first; the question is asked again after)."""
        ask = self._steady_asks.pop(body[0], None)
        if ask is not None:
            self._answered(now_ms)  # a question of this connection: it reads its input
        if ask is None or self.boot_id is None or self._timers.hello_sent_ms is not None:
            return  # not a question of this connection, or a boot not yet known
        if body[1] != self.boot_id & 0xFF:
            return  # another boot's answer: its INFO will come
        evno = wire.get_u32(body, 2)
        self._host_ms(wire.get_u32(body, 6), now_ms, True)
        if evno > self.last_evno:
            self._note_latest(evno, now_ms)
            return
        vouched, serial = ask
        for token, (through, earlier) in list(self._steady_asks.items()):
            if through <= vouched and earlier < serial:
                del self._steady_asks[token]  # answered by this one (or lost before it)
        if self.steady_until_ms is None or vouched > self.steady_until_ms:
            self.steady_until_ms = vouched
        self.steady_answered = max(self.steady_answered, serial)
        self._heard(vouched)

    # -- the point LED (2.2, ``wuzi.link.lamp``) ------------------------------------------

    @property
    def point_leds(self) -> bool | None:
        """Whether the board can light a point (its INFO's capability): None until it has
        said, False for a ``sensor-rev-a`` or any firmware before 2.2."""
        return self.point_light.can_light

    @property
    def lamp(self) -> Lamp | None:
        """The board's last word on its point LED (None: none yet on this boot)."""
        return self.point_light.lamp

    def light_point(self, point: int, colour: int, now_ms: int, *, blink: bool = True) -> int:
        """Light ``point`` (0..224) in stone ``colour`` (1 black, 2 white), blinking or
        steady, until the board's scan settles that stone there (the board puts it out
        itself) or ``dark_point``: the ticket for ``lamp_acknowledged``, 0 when the board
        cannot light (nothing is sent). A point off the board or a colour that is no
        stone's is a ValueError naming it. Sent now if the board can take it, else once
        it has identified itself; re-sent until answered. The caller writes
        ``data_to_send``."""
        ticket = self.point_light.light(point, colour, blink)
        self._send_lamp(now_ms)
        return ticket

    def dark_point(self, now_ms: int) -> int:
        """Put the lit point out: the ticket (0 when the board cannot light)."""
        ticket = self.point_light.dark()
        self._send_lamp(now_ms)
        return ticket

    def lamp_acknowledged(self, ticket: int) -> bool:
        """The board has answered the LIGHT or DARK of ``ticket`` (or a later one)."""
        return self.point_light.acknowledged(ticket)

    def _send_lamp(self, now_ms: int) -> None:
        ready = self.identified and self.link_up and self._timers.hello_sent_ms is None
        command = self.point_light.due(now_ms, ready)
        if command is not None:
            self._command(*command)

    def _on_info(self, info: BoardInfo, body: bytes, now_ms: int) -> None:
        before = self.boot_id
        super()._on_info(info, body, now_ms)
        if self.info is info:  # believed (a new boot id waits for its confirmation)
            self.point_light.on_info(info.point_leds, new_boot=info.boot_id != before)
            self._send_lamp(now_ms)

    def _on_lamp(self, body: bytes, now_ms: int) -> None:
        if self.boot_id is None or body[9] != self.boot_id & 0xFF:
            return  # another boot's word: its INFO will come
        at = self._host_ms(wire.get_u32(body, 5), now_ms, True)
        lamp = parse_lamp(body, at)
        if lamp is None:
            self.health.malformed += 1
            self.last_malformed = f"{self.port_name}: LAMP frame ignored: {body.hex(' ')}"
            return
        if lamp.token:
            self._answered(now_ms)  # an answer to a command: the board reads its input
        self.point_light.on_lamp(lamp)
        self._events.append(lamp)

    def _on_error(self, code: int, msg_type: int) -> None:
        if msg_type in (wire.T_LIGHT, wire.T_DARK):
            self.point_light.on_error(code)

    def poll(self, now_ms: int) -> list[LinkEvent]:
        events = super().poll(now_ms)
        self._send_lamp(now_ms)
        return events

    def next_deadline_ms(self) -> int | None:
        deadline = super().next_deadline_ms()
        lamp = self.point_light.next_deadline_ms()
        if lamp is None:
            return deadline
        return lamp if deadline is None else min(deadline, lamp)

    @property
    def cells(self) -> bytes:
        """The readings as reported so far (one byte per point)."""
        return bytes(self._cells.states)

    def request_snapshot(self) -> None:
        self._command(wire.T_SNAPSHOT_REQ, b"")

    def _new_boot(self) -> None:
        self._cells = _Cells()  # a fresh MCU starts from empty and reports what it finds
        self.steady_until_ms = None
        self._steady_asks.clear()

    def _skip_history(self, now_ms: int) -> None:
        self._fallback_snapshot(now_ms)

    def _fallback_snapshot(self, now_ms: int) -> None:
        self.request_snapshot()
        self._timers.replay_sent_ms = now_ms  # wait as for a replay; retry if it is lost

    def _on_message(self, t: int, body: bytes, now_ms: int) -> bool:
        if t == wire.T_CHANGE and len(body) >= wire.LEN_CHANGE:
            evno = wire.get_u32(body, 0)
            point, state = body[4], body[5]
            if point >= wire.POINTS:
                self.health.unknown_types += 1
                return True
            live = evno > self.known_latest
            if self._accept_evno(evno, body[10], now_ms):
                at = self._host_ms(wire.get_u32(body, 6), now_ms, live)
                self._cells.states[point] = state & 3
                self._events.append(SensorChange(evno, point, state & 3, at))
                self._heard(at, in_order=True)
            return True
        if t == wire.T_SNAPSHOT and len(body) >= wire.LEN_SNAPSHOT:
            self._on_snapshot(body, now_ms)
            return True
        if t == wire.T_STEADY and len(body) >= wire.LEN_STEADY:
            self._on_steady(body, now_ms)
            return True
        if t == wire.T_LAMP and len(body) >= wire.LEN_LAMP:
            self._on_lamp(body, now_ms)
            return True
        if t == wire.T_SELFTEST and len(body) >= 6:
            n = min(body[5], (len(body) - 6) // 2)
            points = tuple(
                (body[6 + 2 * i], body[7 + 2 * i])
                for i in range(n)
                if body[6 + 2 * i] < wire.POINTS
            )
            at = self._host_ms(wire.get_u32(body, 0), now_ms, True)
            self._events.append(StuckSensors(points, body[4], at))
            return True
        return False

    def _on_snapshot(self, body: bytes, now_ms: int) -> None:
        if self.boot_id is None or self._timers.hello_sent_ms is not None:
            return
        evno = wire.get_u32(body, 0)
        reason = body[8]
        cells = bytes(wire.unpack_cells(body, 9))
        at = self._host_ms(wire.get_u32(body, 4), now_ms, True)
        if evno == self.last_evno:
            if cells != bytes(self._cells.states):
                self.health.mismatches += 1
                self._apply(cells, evno, at, "mismatch")
            elif reason == wire.SNAP_REQUESTED:
                self._apply(cells, evno, at, "requested")
            self._heard(at)
        elif evno > self.last_evno:
            if reason == wire.SNAP_PERIODIC:
                self._note_latest(evno, now_ms)  # a replay fills the gap, in order
            else:
                self._apply(cells, evno, at, _snapshot_reason(reason))

    def _apply(self, cells: bytes, evno: int, at_ms: int, reason: str) -> None:
        self._cells.states[:] = cells
        self.health.snapshots_applied += 1
        self.last_evno = evno
        self.known_latest = evno  # the board's own word on its latest event
        self._timers.replay_sent_ms = None
        self._replay_tries = 0
        self._events.append(BoardState(cells, evno, at_ms, reason))
        self._heard(at_ms)


class ClockSession(EventSession):
    """The host's side of one clock unit: presses in; display, buzzer and LED commands out."""

    kind = wire.KIND_CLOCK

    def display(self, index: int, segments: bytes, brightness: int = 7) -> None:
        """Show four segment bytes (TM1637 bit order) on display ``index`` (0 or 1)."""
        if index not in (0, 1):
            raise ValueError(f"display index must be 0 or 1, not {index}")
        if len(segments) != 4:
            raise ValueError(f"a display takes 4 segment bytes, not {len(segments)}")
        if not 0 <= brightness <= 8:
            raise ValueError(f"brightness must be 0..7 (8 = off), not {brightness}")
        self._command(wire.T_DISPLAY, bytes((index, *segments, brightness)))

    def buzz(self, freq_hz: int, duration_ms: int) -> None:
        if not (0 < freq_hz < 65536 and 0 < duration_ms < 65536):
            raise ValueError(f"buzz needs 1..65535 Hz and ms, not {freq_hz} Hz {duration_ms} ms")
        body = bytearray(wire.LEN_BUZZ)
        wire.put_u16(body, 0, freq_hz)
        wire.put_u16(body, 2, duration_ms)
        self._command(wire.T_BUZZ, bytes(body))

    def leds(self, mask: int) -> None:
        if not 0 <= mask <= 0xFF:
            raise ValueError(f"LED mask must be 0..255, not {mask}")
        self._command(wire.T_LED, bytes((mask,)))

    def _on_message(self, t: int, body: bytes, now_ms: int) -> bool:
        if t == wire.T_PRESS and len(body) >= wire.LEN_PRESS:
            evno = wire.get_u32(body, 0)
            live = evno > self.known_latest
            if self._accept_evno(evno, body[9], now_ms):
                at = self._host_ms(wire.get_u32(body, 5), now_ms, live)
                self._events.append(Press(evno, body[4], at))
            return True
        if t == wire.T_SNAPSHOT and len(body) >= 9:
            evno = wire.get_u32(body, 0)
            if self.boot_id is not None and evno > self.last_evno and body[8] != 0:
                at = self._host_ms(wire.get_u32(body, 4), now_ms, True)
                self._events.append(PressesLost(self.last_evno + 1, evno, at))
                self.last_evno = evno
                self.known_latest = max(self.known_latest, evno)
                self._timers.replay_sent_ms = None
            return True
        return False
