"""The table host's `HostService` inside the test process, on a `HostUnderTest`'s venue.

The same real parts as the process tests — the venue file, the simulated boards and
clock units on ptys, a real Mosquitto, the observer on the bus — but the service is an
object here, so a test can look at its journal and its tables between two turns of its
loop (``pump``), or let it run on its own thread (``run_in_background``) while the test
plays the players' hands.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from support.host import HostUnderTest
from wuzi.config import load_venue
from wuzi.host.service import HostService, ServiceOptions


class InProcessHost:
    """``HostService`` for ``outer``'s venue (host ``pi-test``, its journal in
    ``outer.tmp/state``): ``start`` and ``pump`` in the test's thread, or
    ``run_in_background``; ``close`` either way."""

    def __init__(self, outer: HostUnderTest, *, control: bool = False) -> None:
        self.outer = outer
        state = outer.tmp / "state"
        state.mkdir(parents=True, exist_ok=True)
        self.options = ServiceOptions(
            host_id="pi-test",
            journal_path=state / "pi-test.journal",
            control_path=outer.socket if control else None,
            standalone=outer.standalone,
            records_dir=None,
        )
        self.service = HostService(load_venue(outer.config.resolve()), self.options)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._failure: BaseException | None = None

    def start(self) -> None:
        self.service.start()

    def pump(self, condition: Callable[[], bool], timeout_s: float, what: str) -> None:
        """Turn the service's loop (in this thread) until ``condition`` holds."""
        assert self._thread is None, "the service runs on its own thread"
        deadline = time.monotonic() + timeout_s
        while not condition():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out after {timeout_s} s waiting for {what}")
            self.service.step(max_wait_ms=10)

    def run_in_background(self, on_started: Callable[[HostService], None] | None = None) -> None:
        """Start the service and run its loop on a thread of its own (SQLite wants the
        journal used by the thread that opened it): ``on_started`` runs there first.
        Returns once the service has started."""
        started = threading.Event()

        def run() -> None:
            try:
                try:
                    self.service.start()
                    if on_started is not None:
                        on_started(self.service)
                finally:
                    started.set()
                self.service.run(stop=self._stop.is_set)
            except BaseException as exc:  # the test reports it when it stops the thread
                self._failure = exc
            finally:
                self.service.close()

        self._thread = threading.Thread(target=run, name="host-service", daemon=True)
        self._thread.start()
        started.wait(30)
        if self._failure is not None:
            self.stop_background()

    def stop_background(self) -> None:
        """Stop the loop's thread (the service is closed there); re-raise what killed it."""
        if self._thread is None:
            return
        self._stop.set()
        self.service.request_stop()
        self._thread.join(10)
        assert not self._thread.is_alive(), "the service loop did not stop"
        self._thread = None
        if self._failure is not None:
            failure, self._failure = self._failure, None
            raise failure

    def close(self) -> None:
        if self._thread is not None:
            self.stop_background()
        else:
            self.service.close()
