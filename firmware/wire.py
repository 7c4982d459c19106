"""The board-link frame codec: the same file runs on the RP2040 (MicroPython) and on the host.

A frame on the wire::

    0     1     2      3     4      5 .. 5+LEN-1   5+LEN  6+LEN
    SYNC  LEN   ~LEN   SEQ   TYPE   BODY           CRC hi CRC lo

* ``SYNC`` is 0xA5. ``LEN`` is the body length (0..MAX_BODY); ``~LEN`` is its complement, so a
  corrupted length is caught at once instead of making the reader wait for bytes that never
  come. ``SEQ`` counts frames per direction (mod 256); ``TYPE`` is the message type.
* The CRC is CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor; the
  check value of ``b"123456789"`` is 0x29B1) over LEN .. last body byte, sent big-endian.
* A reader that finds a bad header or a bad CRC drops only the sync byte and searches for the
  next one, so a frame that starts inside garbage (or inside a damaged frame) is still found.

Event frames (CHANGE, PRESS) end with a *boot tag*, the low byte of the boot id, so a host
that missed a reboot's announcement never files a new boot's event under the old numbering.

Multi-byte integers are big-endian. "u32" fields carry values below 2**30 (MicroPython's
ticks period on rp2 and its small-int range), so packing them never allocates on the MCU.

Why one file for both sides: the MCU and the host can never disagree about the format. Hence
no typing-only syntax MicroPython rejects, no ``__future__`` import, and ``const`` through the
shim below. The encoder writes into preallocated buffers (``Frame``) so the scan loop never
allocates; the decoder works in place on one preallocated buffer.
"""


def const(x: int) -> int:
    """CPython's stand-in for MicroPython's ``const``; MicroPython's parser folds it away."""
    return x


try:  # noqa: SIM105  (MicroPython has no contextlib)
    from micropython import const  # type: ignore[import-not-found, no-redef, assignment, unused-ignore]
except ImportError:
    pass


PROTOCOL_MAJOR = const(2)  # 2: INFO carries the whole 16-digit serial
PROTOCOL_MINOR = const(2)  # 2.1: STEADY_REQ / STEADY; 2.2: INFO's caps, LIGHT / DARK / LAMP

SYNC = const(0xA5)
HEADER_LEN = const(5)
CRC_LEN = const(2)
OVERHEAD = const(7)
MAX_BODY = const(248)
MAX_FRAME = const(255)
TICKS_PERIOD = const(0x40000000)  # 2**30: ticks fields count ms modulo this
TICKS_MASK = const(0x3FFFFFFF)

# Board kinds (INFO.kind)
KIND_SENSOR = const(1)
KIND_CLOCK = const(2)

# Host -> MCU message types (0x01..0x3F)
T_HELLO = const(0x01)  # major u8, minor u8
T_REPLAY = const(0x02)  # boot u32, since u32: resend events since..latest of that boot
T_SNAPSHOT_REQ = const(0x03)  # (empty)
T_SELFTEST_REQ = const(0x04)  # (empty)
T_STEADY_REQ = const(0x05)  # board, 2.1: token u8, delay_ms u16 (see STEADY)
T_LIGHT = const(0x06)  # board, 2.2: token u8, point u8, colour u8 (1 black, 2 white), mode u8
T_DARK = const(0x07)  # board, 2.2: token u8
T_DISPLAY = const(0x10)  # clock: index u8, 4 segment bytes, brightness u8 (0..7, 8 = off)
T_BUZZ = const(0x11)  # clock: freq_hz u16, duration_ms u16
T_LED = const(0x12)  # clock: mask u8 (bit i = LED i on)

# MCU -> host message types (0x80..0xBF)
T_INFO = const(0x81)  # see INFO_* offsets
T_CHANGE = const(0x82)  # evno u32, point u8, state u8, tick u32, boot tag u8
T_SNAPSHOT = const(0x83)  # evno u32, tick u32, reason u8, 57 bytes of 2-bit cells
T_HEARTBEAT = const(0x84)  # boot u32, evno u32, tick u32, scans u16, max_scan_us u16
T_SELFTEST = const(0x85)  # tick u32, total u8, n u8, n * (point u8, code u8)
T_PRESS = const(0x86)  # clock: evno u32, button u8, tick u32, boot tag u8
T_STEADY = const(0x87)  # board, 2.1: token u8, boot tag u8, evno u32, tick u32
T_LAMP = const(0x88)  # board, 2.2: token u8, state u8, point u8, colour u8, mode u8, tick u32,
#                       boot tag u8: the point LED as it now is (token 0: the board's own word)
T_ERROR = const(0x8F)  # code u8, msg type u8

# Body lengths of the fixed-size messages
LEN_HELLO = const(2)
LEN_REPLAY = const(8)
LEN_INFO = const(46)  # the shortest INFO of 2.x (2.0, 2.1); a 2.2 INFO adds its caps byte
LEN_INFO_CAPS = const(47)  # INFO of 2.2 and later: INFO_CAPS follows the revision
LEN_CHANGE = const(11)
LEN_SNAPSHOT = const(66)
LEN_HEARTBEAT = const(16)
LEN_PRESS = const(10)
LEN_STEADY_REQ = const(3)
LEN_STEADY = const(10)
LEN_LIGHT = const(4)
LEN_DARK = const(1)
LEN_LAMP = const(10)
LEN_DISPLAY = const(6)
LEN_BUZZ = const(4)
LEN_LED = const(1)
LEN_ERROR = const(2)

# INFO body offsets
INFO_MAJOR = const(0)
INFO_MINOR = const(1)
INFO_KIND = const(2)
INFO_DEBOUNCE = const(3)
INFO_SCAN_US = const(4)  # u16
INFO_BOOT = const(6)  # u32
INFO_EVNO = const(10)  # u32
INFO_TICK = const(14)  # u32
INFO_SERIAL = const(18)  # SERIAL_LEN bytes ASCII, NUL padded
INFO_REVISION = const(34)  # TEXT_LEN bytes ASCII, NUL padded
INFO_CAPS = const(46)  # 2.2: capability bits (CAP_*); absent before 2.2: no capability
SERIAL_LEN = const(16)  # the RP2040's unique id in hex, as its USB serial string
TEXT_LEN = const(12)

# INFO capability bits (2.2)
CAP_POINT_LEDS = const(1)  # an LED under every point: LIGHT / DARK are served

# LIGHT modes, LAMP states (2.2)
MODE_STEADY = const(0)
MODE_BLINK = const(1)
NO_POINT = const(0xFF)  # LAMP's point when no point is concerned (DARK)
LAMP_DARK = const(0)  # no point is lit (a DARK, or nothing lit yet)
LAMP_LIT = const(1)  # ``point`` is lit in ``colour``, ``mode``
LAMP_PLACED = const(2)  # ``point`` was put out: a stone of ``colour`` settled on it (or lay there)

# SNAPSHOT reasons
SNAP_PERIODIC = const(0)
SNAP_REQUESTED = const(1)
SNAP_NO_REPLAY = const(2)  # the host asked for events the RAM log no longer holds

# ERROR codes
E_UNKNOWN_TYPE = const(1)
E_BAD_LENGTH = const(2)
E_VERSION = const(3)
E_BAD_VALUE = const(4)  # 2.2: a field out of range (LIGHT: point > 224, colour, mode)
E_NOT_FITTED = const(5)  # 2.2: the command needs a part this board has not (LIGHT, DARK)

# Points and cell codes
POINTS = const(225)
CELL_BYTES = const(57)  # 225 points * 2 bits, rounded up
EMPTY = const(0)
BLACK = const(1)
WHITE = const(2)
BOTH = const(3)  # both latches of a point active: not a stone a player can place


def _make_table() -> list[int]:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
        table.append(crc)
    return table


_TABLE = _make_table()


def crc16(buf: bytes | bytearray | memoryview, start: int, end: int) -> int:
    """CRC-16/CCITT-FALSE of ``buf[start:end]`` (no slicing, so no allocation)."""
    crc = 0xFFFF
    table = _TABLE
    for i in range(start, end):
        crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ buf[i]) & 0xFF]
    return crc


def put_u16(buf: bytearray, at: int, value: int) -> None:
    buf[at] = (value >> 8) & 0xFF
    buf[at + 1] = value & 0xFF


def put_u32(buf: bytearray, at: int, value: int) -> None:
    buf[at] = (value >> 24) & 0xFF
    buf[at + 1] = (value >> 16) & 0xFF
    buf[at + 2] = (value >> 8) & 0xFF
    buf[at + 3] = value & 0xFF


def get_u16(buf: bytes | bytearray | memoryview, at: int) -> int:
    return (buf[at] << 8) | buf[at + 1]


def get_u32(buf: bytes | bytearray | memoryview, at: int) -> int:
    return (buf[at] << 24) | (buf[at + 1] << 16) | (buf[at + 2] << 8) | buf[at + 3]


def get_cell(cells: bytes | bytearray | memoryview, at: int, point: int) -> int:
    """The 2-bit code of ``point`` in packed cells starting at ``cells[at]``."""
    return (cells[at + (point >> 2)] >> ((point & 3) << 1)) & 3


def put_cell(cells: bytearray, at: int, point: int, code: int) -> None:
    i = at + (point >> 2)
    shift = (point & 3) << 1
    cells[i] = (cells[i] & ~(3 << shift) & 0xFF) | ((code & 3) << shift)


def pack_cells(states: bytes | bytearray, out: bytearray, at: int) -> None:
    """Pack 225 one-byte states into 57 bytes at ``out[at]`` (4 points a byte, low bits first)."""
    for i in range(CELL_BYTES):
        out[at + i] = 0
    for p in range(POINTS):
        out[at + (p >> 2)] |= (states[p] & 3) << ((p & 3) << 1)


def unpack_cells(cells: bytes | bytearray | memoryview, at: int) -> bytearray:
    """The 225 one-byte states packed at ``cells[at]`` (allocates: host side and boot only)."""
    states = bytearray(POINTS)
    for p in range(POINTS):
        states[p] = (cells[at + (p >> 2)] >> ((p & 3) << 1)) & 3
    return states


def put_text(buf: bytearray, at: int, text: str, size: int) -> None:
    """ASCII ``text`` NUL-padded to ``size`` bytes (longer text is cut)."""
    raw = text.encode()
    for i in range(size):
        buf[at + i] = raw[i] if i < len(raw) else 0


def get_text(buf: bytes | bytearray | memoryview, at: int, size: int) -> str:
    end = at
    while end < at + size and buf[end] != 0:
        end += 1
    return bytes(buf[at:end]).decode()


class Frame:
    """A preallocated frame of one message type and a fixed body length.

    Fill the body through ``buf`` at ``HEADER_LEN + offset`` (``put_u32(f.buf, f.body + 4, x)``),
    then ``seal(seq)`` writes the sequence number and the CRC in place and returns ``buf``, ready
    to write to the port. Nothing here allocates after construction.
    """

    def __init__(self, msg_type: int, body_len: int) -> None:
        if not 0 <= body_len <= MAX_BODY:
            raise ValueError("frame body length out of range")
        self.buf = bytearray(OVERHEAD + body_len)
        self.body = HEADER_LEN
        self.body_len = body_len
        self.buf[0] = SYNC
        self.buf[1] = body_len
        self.buf[2] = body_len ^ 0xFF
        self.buf[4] = msg_type

    def seal(self, seq: int) -> bytearray:
        buf = self.buf
        buf[3] = seq & 0xFF
        end = HEADER_LEN + self.body_len
        crc = crc16(buf, 1, end)
        buf[end] = crc >> 8
        buf[end + 1] = crc & 0xFF
        return buf


def encode(msg_type: int, seq: int, body: bytes | bytearray) -> bytes:
    """One whole frame as new bytes (allocates: for the host and for rare MCU messages)."""
    n = len(body)
    if n > MAX_BODY:
        raise ValueError("frame body too long")
    out = bytearray(OVERHEAD + n)
    out[0] = SYNC
    out[1] = n
    out[2] = n ^ 0xFF
    out[3] = seq & 0xFF
    out[4] = msg_type
    for i in range(n):
        out[HEADER_LEN + i] = body[i]
    crc = crc16(out, 1, HEADER_LEN + n)
    out[HEADER_LEN + n] = crc >> 8
    out[HEADER_LEN + n + 1] = crc & 0xFF
    return bytes(out)


class Decoder:
    """Frames out of a byte stream, resynchronising after garbage.

    ``feed(data)`` stores bytes (it returns how many fitted: feed the rest after draining);
    ``next_frame()`` returns the type of the next good frame, or -1 when no whole frame is
    buffered. After a frame, ``seq``, ``body_at`` and ``body_len`` describe it inside ``buf``,
    valid until the next ``feed``. The counters tell the health of the line.
    """

    def __init__(self, capacity: int = 4 * MAX_FRAME) -> None:
        self.buf = bytearray(capacity)
        self.start = 0
        self.end = 0
        self.seq = 0
        self.msg_type = -1
        self.body_at = 0
        self.body_len = 0
        self.frames = 0
        self.crc_errors = 0
        self.bad_headers = 0
        self.garbage_bytes = 0

    def reset(self) -> None:
        """Forget buffered bytes (after a reconnect: a half frame of the old line is garbage)."""
        self.start = 0
        self.end = 0

    def feed(self, data: bytes | bytearray | memoryview) -> int:
        buf = self.buf
        if self.start > 0:
            keep = self.end - self.start
            if keep:
                buf[0:keep] = buf[self.start : self.end]
            self.start = 0
            self.end = keep
        room = len(buf) - self.end
        n = len(data)
        if n > room:
            n = room
        if n:
            buf[self.end : self.end + n] = data[0:n] if n < len(data) else data
            self.end += n
        return n

    def next_frame(self) -> int:
        buf = self.buf
        while True:
            start = self.start
            end = self.end
            if start >= end:
                self.start = self.end = 0
                return -1
            if buf[start] != SYNC:
                i = buf.find(b"\xa5", start, end)
                if i < 0:
                    self.garbage_bytes += end - start
                    self.start = self.end = 0
                    return -1
                self.garbage_bytes += i - start
                self.start = start = i
            if end - start < HEADER_LEN:
                return -1
            n = buf[start + 1]
            if n > MAX_BODY or buf[start + 2] != n ^ 0xFF:
                self.bad_headers += 1
                self.garbage_bytes += 1
                self.start = start + 1
                continue
            total = OVERHEAD + n
            if end - start < total:
                return -1
            crc_at = start + HEADER_LEN + n
            if crc16(buf, start + 1, crc_at) != (buf[crc_at] << 8) | buf[crc_at + 1]:
                self.crc_errors += 1
                self.garbage_bytes += 1
                self.start = start + 1
                continue
            self.seq = buf[start + 3]
            self.msg_type = buf[start + 4]
            self.body_at = start + HEADER_LEN
            self.body_len = n
            self.start = start + total
            self.frames += 1
            return self.msg_type


def ticks_diff(new: int, old: int) -> int:
    """Signed difference of two wrapped tick values, like MicroPython's ``time.ticks_diff``.

    Never allocates on the MCU: 2**30 itself is no small int there (their range ends at
    2**30 - 1), so a negative difference is made by subtracting ``TICKS_MASK`` and then 1;
    subtracting ``TICKS_PERIOD`` allocated a long int for every tick still in the future
    (a blink's next edge, a STEADY question not yet due)."""
    d = (new - old) & TICKS_MASK
    return d - TICKS_MASK - 1 if d >= (TICKS_PERIOD >> 1) else d
