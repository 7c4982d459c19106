"""Journal entries, their validation, and the journal's errors.

Everything here is pure: it checks what a caller wants to append *before* anything touches
the database, so bad input of any kind is refused with a message naming what was wrong
(the table name, the kind, the payload key) and nothing is written.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

NAME_PATTERN = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
"""Host ids and table ids: lower-case letters, digits, ``_`` and ``-``; 1–64 characters.

They become parts of event ids (``host/table/seq``) and of MQTT topics, so no ``/``,
``+``, ``#``, spaces or upper case (which would make two names for one table)."""

KIND_PATTERN = re.compile(r"[a-z][a-z0-9_.-]{0,63}")
"""Event kinds: ``board.stone``, ``clock.press``, ``rules.move``, ``referee.pause``…"""


class JournalError(Exception):
    """Base class of every error raised by ``wuzi.journal``."""


class JournalInputError(JournalError, ValueError):
    """An append, read or acknowledgement with bad arguments; nothing was written."""


class JournalFileError(JournalError):
    """A journal file that cannot be used: not a database, corrupted, foreign, another host's
    journal, or a newer schema. The message names the file."""


class JournalClosedError(JournalError):
    """An operation on a journal that has been closed."""


@dataclass(frozen=True, slots=True)
class JournalEntry:
    """One durable event of one table.

    ``seq`` counts the table's events from 1 without gaps; ``id`` is unique across the venue
    (``host/table/seq``) so a repeat delivered by the bus is recognised and ignored.
    ``payload`` is a fresh dict each time the entry is read.
    """

    id: str
    table: str
    seq: int
    kind: str
    t_ms: int
    payload: dict[str, Any]

    def to_message(self) -> dict[str, Any]:
        """The entry as a JSON-ready dict (for the bus and for exports)."""
        return {
            "id": self.id,
            "table": self.table,
            "seq": self.seq,
            "kind": self.kind,
            "t_ms": self.t_ms,
            "payload": self.payload,
        }


def event_id(host_id: str, table: str, seq: int) -> str:
    """The venue-wide unique id of a table's ``seq``-th event on ``host_id``."""
    return f"{host_id}/{table}/{seq}"


def check_name(what: str, value: object) -> str:
    """Return ``value`` if it is a valid host or table id, else raise naming ``what``."""
    if not isinstance(value, str) or NAME_PATTERN.fullmatch(value) is None:
        raise JournalInputError(
            f"{what} {value!r} is not valid: use 1-64 of a-z, 0-9, '_', '-', "
            "starting with a letter or digit"
        )
    return value


def check_kind(value: object) -> str:
    """Return ``value`` if it is a valid event kind, else raise."""
    if not isinstance(value, str) or KIND_PATTERN.fullmatch(value) is None:
        raise JournalInputError(
            f"event kind {value!r} is not valid: use 1-64 of a-z, 0-9, '_', '.', '-', "
            "starting with a letter"
        )
    return value


def check_time_ms(value: object) -> int:
    """Return ``value`` if it is a non-negative integer of milliseconds, else raise."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise JournalInputError(f"t_ms must be an integer of milliseconds, not {value!r}")
    if value < 0:
        raise JournalInputError(f"t_ms must not be negative, got {value}")
    return value


def encode_payload(payload: object) -> str:
    """The payload as canonical JSON text; raise naming the first value JSON cannot hold.

    Only what comes back *equal* after a JSON round trip is accepted: dicts with string
    keys, lists, strings, finite floats, integers, booleans and None. Tuples, sets, bytes,
    NaN and non-string keys are refused rather than silently changed.
    """
    if not isinstance(payload, dict):
        raise JournalInputError(f"payload must be a dict, not {type(payload).__name__}")
    _check_json_value(payload, "payload")
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def decode_payload(text: str) -> dict[str, Any]:
    """The payload dict stored as ``text`` (written by :func:`encode_payload`)."""
    value = json.loads(text)
    if not isinstance(value, dict):
        raise ValueError("stored payload is not a JSON object")
    return value


def _check_json_value(value: object, where: str) -> None:
    if value is None or isinstance(value, (bool, int, str)):
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise JournalInputError(f"{where} is {value!r}, which JSON cannot hold")
        return
    if isinstance(value, list):
        for index, item in enumerate(value):
            _check_json_value(item, f"{where}[{index}]")
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise JournalInputError(f"{where} has a non-string key {key!r}")
            _check_json_value(item, f"{where}[{key!r}]")
        return
    raise JournalInputError(
        f"{where} is a {type(value).__name__} ({value!r:.60}), which JSON cannot hold"
    )
