"""What the sensor board and the clock unit share as ends of the link: sealing and writing
numbered frames, the INFO, heartbeat and error frames, and feeding the host's bytes to the
decoder.

``Endpoint`` is the base class of ``board.SensorBoard`` and ``clock_unit.ClockUnit``; each
keeps its own scanning, event log and commands (``_command``). Like them it knows nothing
about ``machine``: the port is passed in (it has ``write(buf)``) and time comes in as
``now_ms``, so it runs on the RP2040, under CPython and in the simulator. Every frame buffer
is made in ``__init__``: sending never allocates.
"""

# On the MCU each file is a top-level module; the host imports its copies as a package
# (wuzi.link, wuzi.sim.firmware). Nothing here knows the host's layout. mypy: IN_PACKAGE is
# always false for the firmware's check (firmware/mypy.ini), always true for the host's.
IN_PACKAGE = "." in __name__
if IN_PACKAGE:
    from . import wire
else:
    import wire


class Endpoint:
    """The link state of one unit: its port, identity, frame sequence number and decoder,
    and the event number and scan count its INFO and heartbeat frames report."""

    def __init__(self, port: object, serial: str, revision: str, boot_id: int) -> None:
        self.port = port
        self.serial = serial
        self.revision = revision
        self.boot_id = boot_id & wire.TICKS_MASK
        self.evno = 0
        self.seq = 0
        self.scans = 0
        self.decoder = wire.Decoder()
        self.f_info = wire.Frame(wire.T_INFO, wire.LEN_INFO_CAPS)
        self.f_heartbeat = wire.Frame(wire.T_HEARTBEAT, wire.LEN_HEARTBEAT)
        self.f_error = wire.Frame(wire.T_ERROR, wire.LEN_ERROR)

    def _send(self, frame: wire.Frame) -> None:
        buf = frame.seal(self.seq)
        self.seq = (self.seq + 1) & 0xFF
        self.port.write(buf)  # type: ignore[attr-defined]

    def _send_short(self, frame: wire.Frame, body_len: int) -> None:
        """Send ``frame`` with only the first ``body_len`` bytes of its body (a self-test
        lists only what it found): the header's length is rewritten before sealing."""
        b = frame.buf
        b[1] = body_len
        b[2] = body_len ^ 0xFF
        frame.body_len = body_len
        buf = frame.seal(self.seq)
        self.seq = (self.seq + 1) & 0xFF
        self.port.write(memoryview(buf)[: wire.OVERHEAD + body_len])  # type: ignore[attr-defined]

    def _send_info(
        self, kind: int, debounce: int, scan_us: int, now_ms: int, caps: int = 0
    ) -> None:
        """INFO in the 2.2 layout: 2.0's 46 bytes and the capability bits (``wire.CAP_*``)
        after them; a 2.0 or 2.1 host reads the 46 it knows and ignores the rest."""
        f = self.f_info
        b = f.buf
        at = f.body
        b[at + wire.INFO_MAJOR] = wire.PROTOCOL_MAJOR
        b[at + wire.INFO_MINOR] = wire.PROTOCOL_MINOR
        b[at + wire.INFO_KIND] = kind
        b[at + wire.INFO_DEBOUNCE] = debounce
        wire.put_u16(b, at + wire.INFO_SCAN_US, scan_us)
        wire.put_u32(b, at + wire.INFO_BOOT, self.boot_id)
        wire.put_u32(b, at + wire.INFO_EVNO, self.evno)
        wire.put_u32(b, at + wire.INFO_TICK, now_ms & wire.TICKS_MASK)
        wire.put_text(b, at + wire.INFO_SERIAL, self.serial, wire.SERIAL_LEN)
        wire.put_text(b, at + wire.INFO_REVISION, self.revision, wire.TEXT_LEN)
        b[at + wire.INFO_CAPS] = caps
        self._send(f)

    def _send_heartbeat(self, now_ms: int, max_scan_us: int) -> None:
        f = self.f_heartbeat
        b = f.buf
        at = f.body
        wire.put_u32(b, at, self.boot_id)
        wire.put_u32(b, at + 4, self.evno)
        wire.put_u32(b, at + 8, now_ms & wire.TICKS_MASK)
        wire.put_u16(b, at + 12, self.scans & 0xFFFF)
        wire.put_u16(b, at + 14, max_scan_us if max_scan_us < 0xFFFF else 0xFFFF)
        self._send(f)

    def _send_error(self, code: int, msg_type: int) -> None:
        b = self.f_error.buf
        b[wire.HEADER_LEN] = code
        b[wire.HEADER_LEN + 1] = msg_type & 0xFF
        self._send(self.f_error)

    def receive(self, data: bytes | bytearray | memoryview, now_ms: int) -> None:
        """Bytes from the host: decode every whole command and act on it."""
        dec = self.decoder
        offset = 0
        total = len(data)
        while True:
            if offset < total:
                offset += dec.feed(data[offset:] if offset else data)
            t = dec.next_frame()
            while t >= 0:
                self._command(t, dec.buf, dec.body_at, dec.body_len, now_ms)
                t = dec.next_frame()
            if offset >= total:
                return

    def _command(self, t: int, b: bytearray, at: int, n: int, now_ms: int) -> None:
        """Act on one decoded command: type ``t``, body ``b[at:at + n]``."""
        raise NotImplementedError
