"""A delaying, cuttable TCP proxy: the line between two halls, on one machine.

``DelayProxy`` listens on a loopback port and forwards each connection to ``target``,
delaying each direction by its own ``OneWayDelay`` (``wuzi.sim.net.delay``: jitter never
reorders a stream's bytes; bandwidth is unbounded). It can be **cut** two ways, because a
real cut line looks like either to the ends:

* ``CutMode.DROP``: every connection is reset and new ones are accepted and closed at
  once (a router that answers "no route": the ends notice at once);
* ``CutMode.BLACKHOLE``: connections stay open but nothing is passed on; what is read is
  held, in order, and passed on one line delay after ``restore()`` (a cable pulled: the
  ends notice only by their keep-alive, and TCP delivers what it retransmitted if the line
  comes back first). New connections are accepted and held the same way.

The controls are a thread-safe handle (``cut``, ``restore``, ``stop``, ``stats``) and,
for another process, a control socket (one JSON line answered per command line: ``cut``,
``cut blackhole``, ``restore``, ``status``; ``control()`` is its client) or, when run as
``python -m wuzi.sim.net.proxy``, signals (SIGUSR1 cut, SIGUSR2 restore, SIGTERM stop).
``stop()`` returns within a second. Each direction keeps a histogram of the delays it
actually applied (``stats()``), so a bench can say what round trip it ran over.

One asyncio loop in one thread; the policy is in ``delay``, this module only moves bytes.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import enum
import json
import queue
import random
import signal
import socket
import sys
import threading
import time
from collections.abc import Coroutine, Sequence
from dataclasses import asdict, dataclass
from types import TracebackType
from typing import TypeVar

from wuzi.sim.net.delay import ChunkSchedule, DelayHistogram, DelayStats, OneWayDelay

__all__ = ["CutMode", "DelayProxy", "ProxyStatus", "control", "main"]

_CHUNK = 65536
_STOP_TIMEOUT_S = 1.0
_CALL_TIMEOUT_S = 2.0
_T = TypeVar("_T")
_Entry = tuple[int, int, bytes | None]  # arrival ns, release ns, data (None: the end)


class CutMode(enum.StrEnum):
    DROP = "drop"
    BLACKHOLE = "blackhole"


@dataclass(frozen=True)
class ProxyStatus:
    """The proxy now: its cut (None: the line is up), open and total connections, cuts."""

    cut: CutMode | None
    connections: int
    accepted: int
    cuts: int
    up: DelayStats | None
    down: DelayStats | None

    def to_json(self) -> dict[str, object]:
        return {
            "cut": None if self.cut is None else str(self.cut),
            "connections": self.connections,
            "accepted": self.accepted,
            "cuts": self.cuts,
            "up": None if self.up is None else asdict(self.up),
            "down": None if self.down is None else asdict(self.down),
        }


class _Pipe:
    """One direction of one connection: read chunks, hold each until its release, write."""

    def __init__(
        self,
        proxy: DelayProxy,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        schedule: ChunkSchedule,
        histogram: DelayHistogram,
    ) -> None:
        self._proxy = proxy
        self._reader = reader
        self._writer = writer
        self._schedule = schedule
        self._histogram = histogram
        self._queue: asyncio.Queue[_Entry] = asyncio.Queue()

    async def read(self) -> None:
        while True:
            try:
                data: bytes | None = await self._reader.read(_CHUNK)
            except OSError:
                data = b""
            now_ns = time.monotonic_ns()
            release_ns = self._schedule.release_ns(now_ns)
            self._queue.put_nowait((now_ns, release_ns, data or None))
            if not data:
                return

    async def write(self) -> None:
        """Returns when the end of the stream was passed on (or the other side is gone)."""
        while True:
            arrival_ns, release_ns, data = await self._queue.get()
            wait_ns = release_ns - time.monotonic_ns()
            if wait_ns > 0:
                await asyncio.sleep(wait_ns / 1e9)
            held = await self._proxy._held(release_ns)
            if held:  # a held chunk still crosses the line once it is back
                restored_ns = self._proxy._restored_ns
                wait_ns = restored_ns + self._schedule.delay.draw_ns(self._schedule.rng)
                wait_ns -= time.monotonic_ns()
                if wait_ns > 0:
                    await asyncio.sleep(wait_ns / 1e9)
            if data is None:
                return
            try:
                self._writer.write(data)
                await self._writer.drain()
            except OSError:
                return
            if held:
                self._histogram.add_held()
            else:
                self._histogram.add(arrival_ns, time.monotonic_ns())


class DelayProxy:
    """Listens on 127.0.0.1:``port`` (a free one if 0) and forwards to ``target``.

    ``up`` delays what the connecting side sends (towards ``target``), ``down`` what comes
    back (``up`` again if not given). ``control_port``: also serve the control socket
    (0: on a free port, ``control_port`` then says which). ``seed`` fixes the jitter."""

    def __init__(
        self,
        target: tuple[str, int],
        *,
        up: OneWayDelay,
        down: OneWayDelay | None = None,
        port: int = 0,
        control_port: int | None = None,
        seed: int = 0,
        name: str = "proxy",
    ) -> None:
        self.target = target
        self.up = up
        self.down = up if down is None else down
        self.name = name
        self._asked_port = port
        self._asked_control_port = control_port
        self._rng = random.Random(seed)
        self._histograms = {"up": DelayHistogram(), "down": DelayHistogram()}
        self._mode: CutMode | None = None
        self._cuts = 0
        self._accepted = 0
        self._transports: set[asyncio.WriteTransport] = set()
        self._clients: set[asyncio.WriteTransport] = set()  # every accepted end, until closed
        self._tasks: set[asyncio.Task[None]] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._restored: asyncio.Event | None = None
        self._blackhole_from_ns = 0  # when the last blackhole began
        self._restored_ns = 0  # and when it ended
        self._servers: list[asyncio.Server] = []
        self.port = 0
        self.control_port: int | None = None

    # -- the handle (any thread) ----------------------------------------------------------

    def start(self) -> DelayProxy:
        """Listen (and serve the control socket); ``OSError`` if a port is taken."""
        if self._thread is not None:
            raise RuntimeError(f"{self.name} is already started")
        loop = asyncio.new_event_loop()
        ready: queue.SimpleQueue[BaseException | None] = queue.SimpleQueue()

        def run() -> None:
            asyncio.set_event_loop(loop)
            try:
                loop.run_until_complete(self._listen())
            except BaseException as exc:  # handed to start()'s caller
                ready.put(exc)
                loop.close()
                return
            ready.put(None)
            loop.run_forever()
            _end_tasks(loop)
            loop.close()

        self._loop = loop
        self._thread = threading.Thread(target=run, name=self.name, daemon=True)
        self._thread.start()
        failure = ready.get(timeout=_CALL_TIMEOUT_S * 5)
        if failure is not None:
            self._thread.join(_STOP_TIMEOUT_S)
            self._thread = None
            raise failure
        return self

    @property
    def url(self) -> str:
        """The proxy as an MQTT broker URL (when ``target`` is a broker)."""
        return f"mqtt://127.0.0.1:{self.port}"

    def cut(self, mode: CutMode = CutMode.DROP) -> None:
        """Cut the line (``DROP`` or ``BLACKHOLE``); a second cut changes the mode."""
        self._call(self._set_mode(CutMode(mode)))

    def restore(self) -> None:
        """The line is back: pass on anything held, accept connections again."""
        self._call(self._set_mode(None))

    def status(self) -> ProxyStatus:
        if self._loop is None or not self._loop.is_running():
            return self._status()
        return self._call(self._async_status())

    def stats(self) -> dict[str, DelayStats | None]:
        """The delays applied so far: ``{"up": ..., "down": ...}`` (None: nothing yet)."""
        status = self.status()
        return {"up": status.up, "down": status.down}

    def stop(self) -> None:
        """Close everything and end the thread; returns within a second. Idempotent."""
        loop, thread = self._loop, self._thread
        if loop is None or thread is None:
            return
        if loop.is_running():
            with contextlib.suppress(RuntimeError, TimeoutError):
                asyncio.run_coroutine_threadsafe(self._shutdown(), loop).result(_STOP_TIMEOUT_S)
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(loop.stop)
        thread.join(_STOP_TIMEOUT_S)
        self._thread = None

    def __enter__(self) -> DelayProxy:
        return self.start() if self._thread is None else self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def _call(self, coroutine: Coroutine[object, object, _T]) -> _T:
        loop = self._loop
        if loop is None or not loop.is_running():
            coroutine.close()
            raise RuntimeError(f"{self.name} is not running (start() it first)")
        return asyncio.run_coroutine_threadsafe(coroutine, loop).result(_CALL_TIMEOUT_S)

    # -- inside the loop ------------------------------------------------------------------

    async def _listen(self) -> None:
        self._restored = asyncio.Event()
        self._restored.set()
        server = await asyncio.start_server(self._accepted_client, "127.0.0.1", self._asked_port)
        self._servers.append(server)
        self.port = server.sockets[0].getsockname()[1]
        if self._asked_control_port is not None:
            control_server = await asyncio.start_server(
                self._on_control, "127.0.0.1", self._asked_control_port
            )
            self._servers.append(control_server)
            self.control_port = control_server.sockets[0].getsockname()[1]

    async def _set_mode(self, mode: CutMode | None) -> None:
        assert self._restored is not None
        if mode is not None and self._mode is None:
            self._cuts += 1
        now_ns = time.monotonic_ns()
        if mode is CutMode.BLACKHOLE and self._mode is not CutMode.BLACKHOLE:
            self._blackhole_from_ns = now_ns
        elif mode is not CutMode.BLACKHOLE and self._mode is CutMode.BLACKHOLE:
            self._restored_ns = now_ns
        self._mode = mode
        if mode is CutMode.BLACKHOLE:
            self._restored.clear()
        else:
            self._restored.set()
        if mode is CutMode.DROP:
            for transport in list(self._transports):
                transport.abort()

    async def _held(self, release_ns: int) -> bool:
        """Wait while the line is blackholed. True if the chunk was held: it waited, or it
        was due during the last blackhole (which ended since)."""
        assert self._restored is not None
        if self._mode is CutMode.BLACKHOLE:
            await self._restored.wait()
            return True
        return self._blackhole_from_ns <= release_ns < self._restored_ns

    def _status(self) -> ProxyStatus:
        return ProxyStatus(
            cut=self._mode,
            connections=len(self._transports) // 2,
            accepted=self._accepted,
            cuts=self._cuts,
            up=self._histograms["up"].stats(),
            down=self._histograms["down"].stats(),
        )

    async def _async_status(self) -> ProxyStatus:
        return self._status()

    async def _shutdown(self) -> None:
        """Close the listeners, abort every connection (accepted or half-opened), and end
        every task of the loop: a connection accepted a moment before must see its end too,
        and the loop must close with nothing pending."""
        for server in self._servers:
            server.close()
        for transport in [*self._clients, *self._transports]:
            transport.abort()
        current = asyncio.current_task()
        deadline_s = time.monotonic() + _STOP_TIMEOUT_S / 2
        while (pending := asyncio.all_tasks() - {current}) and time.monotonic() < deadline_s:
            for task in pending:
                task.cancel()
            await asyncio.wait(pending, timeout=max(0.0, deadline_s - time.monotonic()))
        for transport in [*self._clients, *self._transports]:  # opened while ending
            transport.abort()

    def _track(self, coroutine: Coroutine[object, object, None]) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _accepted_client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Called as the connection is made (not in a task): the end is known to stop() at
        once, before its handler ever runs, so a stop a moment later still closes it."""
        self._clients.add(writer.transport)
        self._track(self._on_client(reader, writer))

    async def _on_client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        # a cancelled handler would be logged as an error by asyncio.streams (3.11): stop()
        # cancels it, which is no error
        try:
            with contextlib.suppress(asyncio.CancelledError):
                await self._serve(reader, writer)
        finally:
            writer.transport.abort()
            self._clients.discard(writer.transport)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self._mode is CutMode.DROP:
            writer.transport.abort()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        self._accepted += 1
        ends = (writer, up_writer)
        for end in ends:
            self._transports.add(end.transport)
            sock = end.get_extra_info("socket")
            if sock is not None:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        up = _Pipe(
            self, reader, up_writer, ChunkSchedule(self.up, self._rng), self._histograms["up"]
        )
        down = _Pipe(
            self, up_reader, writer, ChunkSchedule(self.down, self._rng), self._histograms["down"]
        )
        tasks = [self._track(coroutine) for coroutine in (up.read(), up.write())]
        tasks += [self._track(coroutine) for coroutine in (down.read(), down.write())]
        try:
            await asyncio.wait((tasks[1], tasks[3]), return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()
            for end in ends:
                self._transports.discard(end.transport)
                end.close()

    async def _on_control(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        current = asyncio.current_task()
        if current is not None:
            self._tasks.add(current)
            current.add_done_callback(self._tasks.discard)
        try:
            while line := await reader.readline():
                answer = await self._command(line.decode(errors="replace").split())
                writer.write(json.dumps(answer).encode() + b"\n")
                await writer.drain()
        except (OSError, ValueError, asyncio.CancelledError):  # ValueError: a line too long
            pass
        finally:
            writer.close()

    async def _command(self, words: list[str]) -> dict[str, object]:
        usage = "say one of: cut, cut drop, cut blackhole, restore, status"
        match words:
            case ["cut"]:
                await self._set_mode(CutMode.DROP)
            case ["cut", mode] if mode in tuple(CutMode):
                await self._set_mode(CutMode(mode))
            case ["restore"]:
                await self._set_mode(None)
            case ["status"]:
                pass
            case _:
                return {"ok": False, "error": f"unknown command {' '.join(words)!r}; {usage}"}
        return {"ok": True, **self._status().to_json()}


def _end_tasks(loop: asyncio.AbstractEventLoop) -> None:
    """After the loop stopped: cancel what is left and let it end (as ``asyncio.run`` does),
    so that no coroutine is closed later on a closed loop."""
    pending = asyncio.all_tasks(loop)
    for task in pending:
        task.cancel()
    if pending:
        loop.run_until_complete(asyncio.wait(pending, timeout=_STOP_TIMEOUT_S / 2))
    loop.run_until_complete(loop.shutdown_asyncgens())


def control(port: int, command: str, timeout_s: float = 2.0) -> dict[str, object]:
    """Send one command to a proxy's control socket on 127.0.0.1:``port``; its answer.

    ``ValueError`` naming the command if the proxy refused it."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout_s) as sock:
        sock.sendall(command.strip().encode() + b"\n")
        answer = b""
        while not answer.endswith(b"\n"):
            chunk = sock.recv(4096)
            if not chunk:
                raise ConnectionError(f"the proxy on port {port} closed without answering")
            answer += chunk
    parsed = json.loads(answer)
    if not isinstance(parsed, dict):
        raise ValueError(f"the proxy on port {port} answered {answer!r}")
    if not parsed.get("ok"):
        raise ValueError(str(parsed.get("error")))
    return parsed


def _address(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit():
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, got {text!r}")
    return host, int(port)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m wuzi.sim.net.proxy --target HOST:PORT [...]``: a proxy as a process.

    Prints ``listening <port> control <port>`` once it listens; SIGUSR1 cuts (drop),
    SIGUSR2 restores, SIGTERM or SIGINT stops it (within a second)."""
    parser = argparse.ArgumentParser(prog="python -m wuzi.sim.net.proxy", description=__doc__)
    parser.add_argument("--target", type=_address, required=True, help="HOST:PORT to forward to")
    parser.add_argument("--port", type=int, default=0, help="listen here (default: a free port)")
    parser.add_argument("--control-port", type=int, default=0, help="control socket (0: free)")
    parser.add_argument("--delay-ms", type=float, default=75.0, help="one-way delay, each way")
    parser.add_argument("--jitter-ms", type=float, default=15.0, help="± this, each chunk")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        delay = OneWayDelay(args.delay_ms, args.jitter_ms)
    except ValueError as exc:
        parser.error(str(exc))
    proxy = DelayProxy(
        args.target, up=delay, port=args.port, control_port=args.control_port, seed=args.seed
    )
    try:
        proxy.start()
    except OSError as exc:
        print(f"proxy: cannot listen: {exc}", file=sys.stderr)
        return 1
    commands: queue.SimpleQueue[str] = queue.SimpleQueue()  # safe to put from a handler
    names = {
        signal.SIGTERM: "stop",
        signal.SIGINT: "stop",
        signal.SIGUSR1: "cut",
        signal.SIGUSR2: "restore",
    }

    def on_signal(signum: int, _frame: object) -> None:
        commands.put(names[signal.Signals(signum)])

    for signum in names:
        signal.signal(signum, on_signal)
    print(f"listening {proxy.port} control {proxy.control_port}", flush=True)
    command = ""
    while command != "stop":
        try:  # a short wait, so that the handlers run promptly
            command = commands.get(timeout=0.1)
        except queue.Empty:
            continue
        if command == "cut":
            proxy.cut()
        elif command == "restore":
            proxy.restore()
    proxy.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
