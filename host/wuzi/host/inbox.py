"""What the host's other threads hand to its loop: bus messages and acknowledgements from
paho's thread, presses from gpiozero's pin threads. They only queue an item and wake the
loop through a pipe; the loop alone touches a table (``wuzi.host.service``)."""

from __future__ import annotations

import contextlib
import os
import queue
from dataclasses import dataclass, field

from wuzi.bus.schemas import Message, MessageError

__all__ = ["GpioPress", "Inbox", "Incoming", "Item", "LineIncoming", "Rejected", "Sent"]


@dataclass(frozen=True)
class Sent:
    """The broker acknowledged the message published with outbox key ``key``."""

    key: str


@dataclass(frozen=True)
class Incoming:
    """A message on a topic the host subscribed to, parsed."""

    topic: str
    message: Message


@dataclass(frozen=True)
class GpioPress:
    """A button of a table's GPIO clock, pressed at ``at_ms`` (the host's time base)."""

    table: int
    button: int
    at_ms: int


@dataclass(frozen=True)
class Rejected:
    """A message on a subscribed topic that does not parse: logged by the loop."""

    error: MessageError


@dataclass(frozen=True)
class LineIncoming:
    """A hall-line packet of a linked table (bytes: the line parses its own)."""

    topic: str
    payload: bytes


Item = Sent | Incoming | GpioPress | Rejected | LineIncoming


@dataclass
class Inbox:
    """What other threads hand to the loop: bus messages, acknowledgements, gpio presses."""

    items: queue.SimpleQueue[Item] = field(default_factory=queue.SimpleQueue)
    wake_r: int = -1
    wake_w: int = -1

    def put(self, item: Item) -> None:
        self.items.put(item)
        with contextlib.suppress(OSError):  # the pipe is full: the loop is awake anyway
            os.write(self.wake_w, b"\0")
