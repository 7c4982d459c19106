"""Which verified referee commands a table carries out: once, and in their own game. Pure.

A signed command stays valid for the host's maximum age (``--command-max-age``, 120 s by
default): long enough for clocks out of step and a slow referee, and long enough for one
captured on the bus or at the control socket to be sent again after the referee's
``next-game``. So besides the signature (``wuzi.bus.auth.verify``, the host's) a table
checks two things:

* the game: a command for one table names the game it is for (signed), and is refused
  on a table that plays another one ("command … is for game X; table 3 plays game Y");
  a command for every table names none and fits any;
* the id: a command already carried out on the table within the age window is a repeat
  (the bus delivers at least once) and is not carried out again. The ids are kept for the
  whole window, across games (the table's game changes, the window does not) and across
  restarts: each accepted command is journaled (``host.command``, with its ``issued_ms``,
  its ``game_id`` and the host's wall clock ``wall_ms``), and ``recall`` reads the table's
  records newest first until they are older than any command still valid could be.

Time is an argument (the host's wall clock, ms), the journal an iterable of payloads.
The recall trusts that the host's wall clock did not step back between two acceptances
(NTP slews it): a clock stepped back by more than ``max_future_ms`` could make ``recall``
stop before an id still valid, which the age check then still bounds.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["MAX_FUTURE_MS", "CommandMemory", "Ticket", "Verdict", "game_problem"]

MAX_FUTURE_MS = 30_000
"""How far ahead of the host's wall clock a command may be issued (the signers' clocks
run ahead a little): a command is accepted at most this long before its issue time."""


class Verdict(enum.Enum):
    """What a table does with a verified command (a refusal is its text)."""

    CARRY_OUT = "carry out"
    REPEAT = "repeat"  # carried out on this table within the window: not again


@dataclass(frozen=True)
class Ticket:
    """What the table checks of a verified command: its id, the game it names (None: no
    game, or every table's command), when it was issued, and whether it is for every
    table (``hall_wide``: it names no game and fits any)."""

    command_id: str
    game_id: str | None
    issued_ms: int
    hall_wide: bool = False


def game_problem(ticket: Ticket, table: int, plays: str | None) -> str | None:
    """Why the command must not act on table ``table``, which plays game ``plays`` (None:
    no game yet), or None when it may."""
    if ticket.hall_wide or ticket.game_id == plays:
        return None
    wanted = f"game {ticket.game_id}" if ticket.game_id is not None else "a table with no game"
    now = f"plays game {plays}" if plays is not None else "has no game"
    return f"command {ticket.command_id} is for {wanted}; table {table} {now}"


class CommandMemory:
    """The ids of the commands a table carried out in the last ``max_age_ms``."""

    def __init__(self, max_age_ms: int = 120_000, max_future_ms: int = MAX_FUTURE_MS) -> None:
        if max_age_ms <= 0 or max_future_ms < 0:
            raise ValueError(
                f"a command window needs a positive max age and a future allowance >= 0,"
                f" not {max_age_ms} and {max_future_ms} ms"
            )
        self.max_age_ms = max_age_ms
        self.max_future_ms = max_future_ms
        self._seen: dict[str, int] = {}  # command_id -> issued_ms
        self._oldest_ms: int | None = None

    def __len__(self) -> int:
        return len(self._seen)

    def seen(self, command_id: str, now_ms: int) -> bool:
        """Whether ``command_id`` was carried out here within the window."""
        horizon = now_ms - self.max_age_ms
        if self._oldest_ms is not None and self._oldest_ms < horizon:  # else: no scan
            self._seen = {key: ms for key, ms in self._seen.items() if ms >= horizon}
            self._oldest_ms = min(self._seen.values(), default=None)
        return command_id in self._seen

    def remember(self, command_id: str, issued_ms: int) -> None:
        """Keep ``command_id`` (issued at ``issued_ms``) as carried out here."""
        self._seen[command_id] = issued_ms
        if self._oldest_ms is None or issued_ms < self._oldest_ms:
            self._oldest_ms = issued_ms

    def recall(self, newest_first: Iterable[Mapping[str, Any]], now_ms: int) -> int:
        """Remember the commands of the table's ``host.command`` records (their payloads,
        newest first) that may still be valid at ``now_ms``; the number remembered. Stops
        at the first record accepted too long ago for any later-accepted one to matter (a
        command is accepted at most ``max_future_ms`` before it was issued), or written by
        an older host (no ``wall_ms``: its commands were signed with the old scheme, which
        the host's check refuses anyway)."""
        oldest_valid_ms = now_ms - self.max_age_ms
        count = 0
        for payload in newest_first:
            accepted_ms = _int(payload, "wall_ms")
            issued_ms = _int(payload, "issued_ms")
            command_id = payload.get("command_id")
            if accepted_ms is None or issued_ms is None or not isinstance(command_id, str):
                break
            if accepted_ms + self.max_future_ms < oldest_valid_ms:
                break
            if issued_ms >= oldest_valid_ms:
                self.remember(command_id, issued_ms)
                count += 1
        return count


def _int(payload: Mapping[str, Any], name: str) -> int | None:
    value = payload.get(name)
    return value if isinstance(value, int) and not isinstance(value, bool) else None
