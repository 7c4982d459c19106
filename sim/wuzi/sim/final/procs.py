"""The processes of the demo final: the broker, the director and the hosts.

Each runs as it would at a venue — ``wuzi director`` and ``wuzi host`` as their own
processes on the venue file, each host reaching the broker through its own cuttable
relay (its "network cable") — so the demo's faults are real ones: SIGKILL, a broker
restart, a connection dropped for a while. Their output goes to log files, one per
process, appended across restarts.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from wuzi.sim.box import Broker
from wuzi.sim.box import find_mosquitto as _find_mosquitto

__all__ = ["BrokerHandle", "Process", "start_broker"]


class BrokerHandle(Protocol):
    @property
    def url(self) -> str: ...

    def start(self) -> None: ...

    def stop(self) -> None: ...


class Process:
    """One Wuzi process: started, killed (-9), stopped (SIGTERM), restarted."""

    def __init__(self, name: str, args: Sequence[str], log_path: Path) -> None:
        self.name = name
        self.args = [sys.executable, "-m", "wuzi.cli", *args]
        self.log_path = log_path
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.kills = 0

    def start(self) -> None:
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        with self.log_path.open("ab") as log:
            log.write(f"--- start {self.starts + 1}: {' '.join(self.args[3:])}\n".encode())
            log.flush()
            # its own process group: a Ctrl-C at the terminal reaches the run alone, which
            # stops its processes in order (the broker last) and says what it stopped
            self.process = subprocess.Popen(
                self.args, stdout=log, stderr=subprocess.STDOUT, env=env, process_group=0
            )
        self.starts += 1

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def exit_problem(self) -> str | None:
        """Why the process is not running when it should be (None while it runs)."""
        if self.process is None or self.process.poll() is None:
            return None
        tail = self.log_path.read_text(errors="replace").splitlines()[-15:]
        return f"{self.name} exited with {self.process.returncode}:\n" + "\n".join(tail)

    def kill(self) -> None:
        """SIGKILL, as a power cut does it: no clean shutdown, no last words but the will."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)
            self.kills += 1
        self.process = None

    def stop(self, timeout_s: float = 10.0) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout_s)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self.process = None


def start_broker(directory: Path, url: str | None) -> tuple[BrokerHandle | None, str, str]:
    """The broker the run uses: the one at ``url`` (None is returned as its handle: it
    is not ours to restart), else a private Mosquitto with persistence as a venue runs
    it, else the in-process embedded broker. Returns (handle, url, what it is)."""
    if url:
        return None, url, f"the broker at {url}"
    directory.mkdir(parents=True, exist_ok=True)
    try:
        _find_mosquitto()
    except RuntimeError:
        from wuzi.sim.embedded_broker import EmbeddedBroker

        embedded = EmbeddedBroker()
        embedded.start()
        return embedded, embedded.url, f"an embedded broker (amqtt) at {embedded.url}"
    broker = Broker(directory, persistent=True, websockets=True)  # the web page's browsers
    broker.start()
    return broker, broker.url, f"a private Mosquitto at {broker.url}"
