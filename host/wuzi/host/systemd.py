"""systemd's notify protocol (``sd_notify``) without a dependency: ready, watchdog, status.

Why: the table host runs as ``Type=notify`` with ``WatchdogSec=`` (deploy/systemd), so
systemd restarts it when its loop hangs — not only when the process dies. The protocol is
one datagram per notification on the ``AF_UNIX`` socket named by ``$NOTIFY_SOCKET`` (a
leading ``@`` means Linux's abstract namespace); outside systemd there is no socket and
every call does nothing, so the same program runs on a laptop and in tests.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping

__all__ = ["Notifier"]


class Notifier:
    """Sends notifications to systemd if the process was started with a notify socket."""

    def __init__(self, address: str | None, watchdog_usec: int | None) -> None:
        self.address = address
        self.watchdog_usec = watchdog_usec
        self._sock: socket.socket | None = None

    @classmethod
    def from_environment(cls, env: Mapping[str, str] | None = None) -> Notifier:
        """Read ``NOTIFY_SOCKET``, ``WATCHDOG_USEC`` and ``WATCHDOG_PID`` (the watchdog
        applies to this process only if WATCHDOG_PID is unset or our pid)."""
        env = os.environ if env is None else env
        address = env.get("NOTIFY_SOCKET") or None
        usec: int | None = None
        text = env.get("WATCHDOG_USEC", "")
        pid = env.get("WATCHDOG_PID", "")
        ours = not pid or (pid.isascii() and pid.isdigit() and int(pid) == os.getpid())
        if ours and text.isascii() and text.isdigit() and int(text) > 0:
            usec = int(text)
        return cls(address, usec)

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def watchdog_interval_ns(self) -> int | None:
        """How often to ping: half the watchdog timeout, as systemd recommends."""
        return None if self.watchdog_usec is None else self.watchdog_usec * 1000 // 2

    def notify(self, *fields: str) -> bool:
        """Send ``KEY=VALUE`` fields; False if there is no socket or sending failed (a
        notification is never worth crashing the host for)."""
        if self.address is None:
            return False
        target = "\0" + self.address[1:] if self.address.startswith("@") else self.address
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._sock.sendto("\n".join(fields).encode(), target)
        except OSError:
            return False
        return True

    def ready(self, status: str = "") -> bool:
        return self.notify("READY=1", *([f"STATUS={status}"] if status else []))

    def watchdog(self) -> bool:
        return self.watchdog_usec is not None and self.notify("WATCHDOG=1")

    def status(self, text: str) -> bool:
        return self.notify(f"STATUS={text}")

    def stopping(self) -> bool:
        return self.notify("STOPPING=1")

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None
