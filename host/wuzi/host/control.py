"""The host's local command socket: a referee at the Pi can act with the network down.

``wuzi referee send --socket PATH`` writes one line — an `ArbiterCommand` as JSON, exactly
as it travels on the bus (``"v": 1``, signed) — and reads one line back,
``{"ok": true|false, "message": "..."}``. The host treats a line from here like a command
from the bus: it verifies the signature too, because file permissions say only which
local user connected, not which referee.

One other line is understood: `GAMES_QUERY` (``{"query":"games"}``) asks which game each
table of the host plays; the reply's message is a JSON object ``{"3": "g-12", "4": null}``
(`games_message`, read back by `ask_games`). ``wuzi referee send --socket`` asks it to
sign a command for the table's current game (a command names its game: issue 32) when
the referee gives no ``--game``; game ids are public (every table state shows them).

Design for a single-threaded service loop: `ControlServer` owns a private selector
(epoll on Linux) holding the listening socket and every client, and `fileno` is *that
selector's* descriptor, which is readable whenever any of them has something to do. The
service registers that one descriptor in its own selector and calls `on_readable`
whenever it is readable; `on_readable` never blocks and returns the complete lines read
so far as `ControlRequest` values. Replies are written without blocking too: what the
kernel does not take at once is kept and sent from later `on_readable` calls (the
descriptor is then readable as soon as the client can take more).

Robustness: lines may arrive in pieces and several per client; a line longer than
`MAX_LINE_BYTES` gets an error reply and the client is dropped; a client that vanishes is
forgotten (a reply to it is a no-op); a stale socket file left by a crash is replaced; a
live one (another host process) or a path that is not a socket is refused with
`ControlError` naming it.
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import selectors
import socket
import stat
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "GAMES_QUERY",
    "MAX_LINE_BYTES",
    "ControlError",
    "ControlRequest",
    "ControlServer",
    "ask_games",
    "games_message",
    "send_line",
]

log = logging.getLogger("wuzi.host.control")

MAX_LINE_BYTES = 64 * 1024
"""The longest line accepted, without its newline (a command is well under 1 KiB)."""
MAX_PENDING_REPLY_BYTES = 1024 * 1024  # a client that never reads its replies is dropped
MAX_CLIENTS = 64
_READ_CHUNK = 16 * 1024
GAMES_QUERY = b'{"query":"games"}'
"""The control line that asks for each table's game (see the module docstring)."""


class ControlError(OSError):
    """The control socket cannot be served or reached; the message names the path."""


class _Client:
    """One connection: its bytes read so far, its replies not yet written."""

    def __init__(self, sock: socket.socket, number: int) -> None:
        self.sock = sock
        self.number = number
        self.inbuf = bytearray()
        self.outbuf = bytearray()
        self.open = True
        self.eof = False  # the client closed its side: no more lines, replies still go out
        self.unanswered = 0
        self.drop_after_flush = False


@dataclass(eq=False)
class ControlRequest:
    """One line from a client: ``payload`` is the line without its end (``\\n`` or
    ``\\r\\n``). Answer it once with `reply`."""

    payload: bytes
    _server: ControlServer = field(repr=False)
    _client: _Client = field(repr=False)
    replied: bool = False

    def reply(self, ok: bool, message: str) -> None:
        """Write ``{"ok": ok, "message": message}`` as one line to the client (a no-op if
        the client is gone). Never blocks."""
        if self.replied:
            raise RuntimeError("this control request has already been answered")
        self.replied = True
        self._client.unanswered -= 1
        self._server._write(self._client, {"ok": bool(ok), "message": str(message)})


def _reply_line(obj: dict[str, Any]) -> bytes:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


class ControlServer:
    """A non-blocking Unix-domain stream server for control lines; see the module.

    Not thread-safe: one thread (the service loop) calls `on_readable`, `reply` and
    `close`. ``mode`` is applied right after the bind; keep the socket in a directory
    only the host's group can enter (e.g. ``/run/wuzi``, 0750) so there is no window.
    """

    def __init__(self, path: str | Path, mode: int = 0o660) -> None:
        self.path = Path(path)
        self._selector = selectors.DefaultSelector()
        if self._selector.fileno() < 0:  # pragma: no cover - Linux always has epoll
            raise ControlError(f"control socket {str(self.path)!r}: no pollable selector here")
        self._clients: dict[int, _Client] = {}
        self._numbers = 0
        self._listener = self._bind(mode)
        self._selector.register(self._listener, selectors.EVENT_READ, None)

    def _bind(self, mode: int) -> socket.socket:
        where = str(self.path)
        self._remove_stale()
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        bound = False
        try:
            sock.bind(where)
            bound = True
            os.chmod(where, mode)
            sock.listen(16)
            sock.setblocking(False)
            info = os.stat(where)
        except OSError as exc:
            sock.close()
            if bound:
                with contextlib.suppress(OSError):
                    os.unlink(where)
            raise ControlError(
                f"control socket {where!r}: cannot listen: {exc.strerror or exc}"
            ) from None
        self._identity = (info.st_dev, info.st_ino)
        return sock

    def _remove_stale(self) -> None:
        where = str(self.path)
        try:
            info = os.lstat(where)
        except FileNotFoundError:
            return
        except OSError as exc:
            raise ControlError(f"control socket {where!r}: {exc.strerror or exc}") from None
        if not stat.S_ISSOCK(info.st_mode):
            raise ControlError(
                f"control socket {where!r}: the path exists and is not a socket; refusing to"
                " replace it"
            )
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            probe.settimeout(1.0)
            probe.connect(where)
        except (ConnectionRefusedError, FileNotFoundError):
            pass  # nobody listens: a socket file left behind by a crash
        except OSError as exc:
            raise ControlError(f"control socket {where!r}: {exc.strerror or exc}") from None
        else:
            raise ControlError(
                f"control socket {where!r}: another process is listening on it (is a host"
                " already running?)"
            )
        finally:
            probe.close()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(where)
        log.info("replaced the stale control socket %s", where)

    # --- the service loop's side ----------------------------------------------------

    def fileno(self) -> int:
        """The private selector's descriptor: readable whenever `on_readable` has work."""
        return self._selector.fileno()

    @property
    def clients(self) -> int:
        """How many clients are connected."""
        return len(self._clients)

    def on_readable(self) -> list[ControlRequest]:
        """Accept new clients, read them, write pending replies; never blocks. Returns
        the complete lines read, in arrival order per client."""
        requests: list[ControlRequest] = []
        for key, events in self._selector.select(timeout=0):
            if key.fileobj is self._listener:
                self._accept()
                continue
            client: _Client = key.data
            if not client.open:
                continue
            if events & selectors.EVENT_WRITE:
                self._flush(client)
            if client.open and events & selectors.EVENT_READ:
                self._read(client, requests)
        return requests

    def close(self) -> None:
        """Close every client and the listener; remove the socket file if it is still
        ours (not one another process has bound since)."""
        for client in list(self._clients.values()):
            self._drop(client)
        if self._listener.fileno() >= 0:
            with contextlib.suppress(KeyError, ValueError):
                self._selector.unregister(self._listener)
            self._listener.close()
            try:
                info = os.lstat(self.path)
                if (info.st_dev, info.st_ino) == self._identity:
                    os.unlink(self.path)
            except OSError:
                pass
        self._selector.close()

    def __enter__(self) -> ControlServer:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # --- clients --------------------------------------------------------------------

    def _accept(self) -> None:
        while True:
            try:
                sock, _ = self._listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as exc:  # e.g. EMFILE: keep serving the clients we have
                log.warning("control socket %s: accept failed: %s", self.path, exc)
                return
            sock.setblocking(False)
            self._numbers += 1
            client = _Client(sock, self._numbers)
            if len(self._clients) >= MAX_CLIENTS:
                client.outbuf += _reply_line({"ok": False, "message": "too many clients"})
                self._try_send(client)
                sock.close()
                continue
            self._clients[sock.fileno()] = client
            self._selector.register(sock, selectors.EVENT_READ, client)

    def _read(self, client: _Client, requests: list[ControlRequest]) -> None:
        try:
            data = client.sock.recv(_READ_CHUNK)
        except (BlockingIOError, InterruptedError):
            return
        except OSError as exc:  # ECONNRESET: the client vanished
            log.debug("control client %d: %s", client.number, exc)
            self._drop(client)
            return
        if not data:
            self._end_of_input(client, requests)
            return
        client.inbuf += data
        while True:
            end = client.inbuf.find(b"\n")
            if end < 0:
                break
            line = bytes(client.inbuf[:end])
            del client.inbuf[: end + 1]
            if not self._line(client, line, requests):
                return
        if len(client.inbuf) > MAX_LINE_BYTES:
            self._too_long(client)

    def _line(self, client: _Client, line: bytes, requests: list[ControlRequest]) -> bool:
        """Hand on one line; False if the client was dropped."""
        if line.endswith(b"\r"):
            line = line[:-1]
        if len(line) > MAX_LINE_BYTES:
            self._too_long(client)
            return False
        if not line.strip():
            self._write(client, {"ok": False, "message": "empty line: send one command per line"})
            return client.open
        client.unanswered += 1
        requests.append(ControlRequest(line, self, client))
        return True

    def _end_of_input(self, client: _Client, requests: list[ControlRequest]) -> None:
        """The client shut its sending side: a last line without newline still counts;
        the connection stays until every request is answered."""
        client.eof = True
        self._update(client)  # stop watching for input: EOF would be readable forever
        if client.inbuf:
            line = bytes(client.inbuf)
            client.inbuf.clear()
            if not self._line(client, line, requests):
                return
        self._maybe_finish(client)

    def _too_long(self, client: _Client) -> None:
        message = f"line longer than {MAX_LINE_BYTES} bytes: refused; connection closed"
        client.inbuf.clear()
        client.drop_after_flush = True
        self._write(client, {"ok": False, "message": message})

    def _events(self, client: _Client) -> int:
        events = 0 if client.eof or client.drop_after_flush else selectors.EVENT_READ
        if client.outbuf:
            events |= selectors.EVENT_WRITE
        return events

    def _write(self, client: _Client, obj: dict[str, Any]) -> None:
        if not client.open:
            return
        client.outbuf += _reply_line(obj)
        if len(client.outbuf) > MAX_PENDING_REPLY_BYTES:
            log.warning("control client %d reads no replies: dropped", client.number)
            self._drop(client)
            return
        self._flush(client)

    def _try_send(self, client: _Client) -> bool:
        """Send what the kernel takes now; False if the client is gone."""
        while client.outbuf:
            try:
                sent = client.sock.send(client.outbuf)
            except (BlockingIOError, InterruptedError):
                return True
            except OSError as exc:  # EPIPE, ECONNRESET: the client vanished
                if exc.errno not in (errno.EPIPE, errno.ECONNRESET, errno.ENOTCONN):
                    log.warning("control client %d: %s", client.number, exc)
                return False
            del client.outbuf[:sent]
        return True

    def _flush(self, client: _Client) -> None:
        if not self._try_send(client):
            self._drop(client)
            return
        if not self._maybe_finish(client):
            self._update(client)

    def _maybe_finish(self, client: _Client) -> bool:
        """Close a client that has nothing more to say or hear; True if it was closed."""
        if client.outbuf:
            return False
        if client.drop_after_flush or (client.eof and client.unanswered <= 0):
            self._drop(client)
            return True
        return False

    def _update(self, client: _Client) -> None:
        events = self._events(client)
        key = self._selector.get_map().get(client.sock)
        if events == 0:
            if key is not None:
                self._selector.unregister(client.sock)
        elif key is None:
            self._selector.register(client.sock, events, client)
        elif key.events != events:
            self._selector.modify(client.sock, events, client)

    def _drop(self, client: _Client) -> None:
        if not client.open:
            return
        client.open = False
        with contextlib.suppress(KeyError, ValueError):
            self._selector.unregister(client.sock)
        self._clients.pop(client.sock.fileno(), None)
        client.sock.close()


def send_line(path: str | Path, payload: bytes, timeout_s: float) -> dict[str, Any]:
    """Send one control line to the host at ``path`` and return its reply object
    (``{"ok": bool, "message": str}``); `ControlError` if the host cannot be reached, does
    not answer within ``timeout_s``, or answers something else."""
    where = str(path)
    if b"\n" in payload or b"\r" in payload:
        raise ControlError("a control line must not contain a line break")
    if len(payload) > MAX_LINE_BYTES:
        raise ControlError(f"a control line is at most {MAX_LINE_BYTES} bytes")
    deadline = time.monotonic() + timeout_s
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.settimeout(timeout_s)
        try:
            sock.connect(where)
            sock.sendall(payload + b"\n")
        except TimeoutError:
            raise ControlError(
                f"control socket {where!r}: no answer within {timeout_s} s"
            ) from None
        except OSError as exc:
            raise ControlError(
                f"control socket {where!r}: cannot reach the host: {exc.strerror or exc}"
            ) from None
        reply = bytearray()
        while b"\n" not in reply:
            left = deadline - time.monotonic()
            if left <= 0:
                raise ControlError(f"control socket {where!r}: no reply within {timeout_s} s")
            sock.settimeout(left)
            try:
                chunk = sock.recv(_READ_CHUNK)
            except TimeoutError:
                raise ControlError(
                    f"control socket {where!r}: no reply within {timeout_s} s"
                ) from None
            except OSError as exc:
                raise ControlError(
                    f"control socket {where!r}: connection lost: {exc.strerror or exc}"
                ) from None
            if not chunk:
                raise ControlError(f"control socket {where!r}: the host closed without a reply")
            reply += chunk
            if len(reply) > MAX_LINE_BYTES:
                raise ControlError(f"control socket {where!r}: reply longer than a line")
    finally:
        sock.close()
    return _parse_reply(where, bytes(reply[: reply.index(b"\n")]))


def _parse_reply(where: str, line: bytes) -> dict[str, Any]:
    try:
        obj = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise ControlError(f"control socket {where!r}: the reply is not JSON") from None
    if (
        not isinstance(obj, dict)
        or not isinstance(obj.get("ok"), bool)
        or not isinstance(obj.get("message"), str)
    ):
        raise ControlError(
            f"control socket {where!r}: the reply is not {{'ok': bool, 'message': str}}"
        )
    return obj


def games_message(games: Mapping[int, str | None]) -> str:
    """The reply message to `GAMES_QUERY`: ``{"<table>": "<game id>" or null}``."""
    return json.dumps({str(n): games[n] for n in sorted(games)}, separators=(",", ":"))


def ask_games(path: str | Path, timeout_s: float) -> dict[int, str | None]:
    """Each table's game, as the host at ``path`` plays it (None: no game yet);
    `ControlError` if it cannot be reached or answers something else (an older host)."""
    reply = send_line(path, GAMES_QUERY, timeout_s)
    where = str(path)
    try:
        obj = json.loads(reply["message"]) if reply["ok"] else None
    except ValueError:
        obj = None
    if not isinstance(obj, dict) or not all(
        key.isdigit() and (value is None or isinstance(value, str)) for key, value in obj.items()
    ):
        raise ControlError(
            f"control socket {where!r}: the host does not say which game its tables play"
            f" (an older host?): {reply['message'][:200]}"
        )
    return {int(key): value for key, value in obj.items()}
