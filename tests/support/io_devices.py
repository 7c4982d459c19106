"""Virtual boards and clock units served from a thread while a test plays the host side."""

from __future__ import annotations

import threading

from wuzi.sim.devices.runner import run_boards
from wuzi.sim.devices.virtual_board import VirtualBoard
from wuzi.sim.devices.virtual_clock import VirtualClock


class SimThread:
    """Serve virtual devices from a thread until the ``with`` block ends."""

    def __init__(self, devices: list[VirtualBoard | VirtualClock]) -> None:
        self.devices = devices
        self.stopped = threading.Event()
        self.thread = threading.Thread(
            target=run_boards,
            args=(devices,),
            kwargs={"stop": self.stopped.is_set},
            daemon=True,
        )

    def __enter__(self) -> SimThread:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopped.set()
        self.thread.join(5)
