"""MicroPython's REPL protocol as a board speaks it on its USB serial port, as a pure object:
bytes in, bytes out, the Python it is given handed to an ``Executor``.

It is what ``mpremote`` (and so ``wuzi board flash``) needs of a board: Ctrl-C interrupts,
Ctrl-A enters the raw REPL (``raw REPL; CTRL-B to exit``), code ended by Ctrl-D is answered
``OK``, its output, ``\\x04``, its errors, ``\\x04>``; Ctrl-D on an empty line soft-resets,
Ctrl-B goes back to the friendly REPL. Raw-paste mode (``\\x05A\\x01``) is answered as not
supported (``R\\x00``), as older firmware does, so mpremote falls back to the plain raw REPL.
A hard reset (``machine.reset()``) is the executor's to report: the board then says nothing
more on that connection (a real one leaves the USB bus)."""

from __future__ import annotations

from enum import Enum
from typing import Protocol

__all__ = ["BANNER", "RAW_PROMPT", "Executor", "RawRepl"]

RAW_PROMPT = b"raw REPL; CTRL-B to exit\r\n>"
BANNER = b"MicroPython v1.27.0 on wasi; Wuzi simulated RP2040 (raw REPL)\r\n"
_FRIENDLY_PROMPT = b"\r\n>>> "


class Executor(Protocol):
    """Where the code a raw REPL receives runs (real MicroPython in the simulated board)."""

    def execute(self, code: bytes) -> tuple[bytes, bytes, bool]:
        """Run ``code``: its stdout, its stderr (a traceback), and whether it hard-reset."""
        ...

    def soft_reset(self) -> None:
        """Forget every name the code defined (the heap is cleared, the files stay)."""
        ...


class _Mode(Enum):
    FRIENDLY = 0
    RAW = 1
    PASTE_REQUEST = 2  # \x05 seen at the start of a raw line: 'A' '\x01' expected
    OFF = 3  # hard reset: nothing more on this connection


class RawRepl:
    """The REPL of one board's connection; ``feed`` returns what the board answers."""

    def __init__(self, executor: Executor) -> None:
        self.executor = executor
        self.mode = _Mode.FRIENDLY
        self.line = bytearray()
        self.paste = bytearray()
        self.executed = 0
        self.soft_resets = 0
        self.hard_resets = 0

    @property
    def reset_done(self) -> bool:
        """True once the code it ran hard-reset the board (``mpremote reset``)."""
        return self.mode is _Mode.OFF

    def reconnect(self) -> None:
        """A new connection (the board back on the bus after a hard reset)."""
        self.mode = _Mode.FRIENDLY
        self.line.clear()

    def feed(self, data: bytes) -> bytes:
        out = bytearray()
        for byte in data:
            out += self._byte(byte)
        return bytes(out)

    def _byte(self, b: int) -> bytes:
        if self.mode is _Mode.OFF:
            return b""
        if self.mode is _Mode.PASTE_REQUEST:
            self.paste.append(b)
            if len(self.paste) < 2:
                return b""
            self.mode = _Mode.RAW
            if bytes(self.paste) == b"A\x01":
                return b"R\x00"  # understood, not supported: mpremote falls back
            self.line += self.paste
            return b""
        if self.mode is _Mode.FRIENDLY:
            return self._friendly(b)
        return self._raw(b)

    def _friendly(self, b: int) -> bytes:
        if b == 0x01:  # Ctrl-A
            self.mode = _Mode.RAW
            self.line.clear()
            return b"\r\n" + RAW_PROMPT
        if b == 0x04:  # Ctrl-D: soft reset
            return self._soft_reset() + BANNER + b">>> "
        if b in (0x03, 0x0D):  # Ctrl-C, Enter: nothing runs, a new prompt
            return _FRIENDLY_PROMPT
        return b""  # the friendly REPL's line editing is not simulated

    def _raw(self, b: int) -> bytes:
        if b == 0x02:  # Ctrl-B: friendly REPL
            self.mode = _Mode.FRIENDLY
            self.line.clear()
            return b"\r\n" + BANNER + b">>> "
        if b == 0x03:  # Ctrl-C: the line is dropped
            self.line.clear()
            return b""
        if b == 0x01:  # Ctrl-A again: a fresh raw prompt
            self.line.clear()
            return b"\r\n" + RAW_PROMPT
        if b == 0x05 and not self.line:
            self.mode = _Mode.PASTE_REQUEST
            self.paste.clear()
            return b""
        if b != 0x04:
            self.line.append(b)
            return b""
        if not self.line:  # Ctrl-D on an empty line: soft reset, back in the raw REPL
            return b"OK\r\n" + self._soft_reset() + RAW_PROMPT
        code = bytes(self.line)
        self.line.clear()
        self.executed += 1
        stdout, stderr, reset = self.executor.execute(code)
        if reset:
            self.hard_resets += 1
            self.mode = _Mode.OFF
            return b"OK" + stdout
        return b"OK" + stdout + b"\x04" + stderr + b"\x04>"

    def _soft_reset(self) -> bytes:
        self.soft_resets += 1
        self.executor.soft_reset()
        return b"MPY: soft reboot\r\n"
