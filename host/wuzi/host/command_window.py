"""Which verified referee commands a host may carry out: once, and in their own game.

A signed command stays valid for ``--command-max-age`` (120 s by default): long enough
for clocks out of step and a slow referee, and long enough for one captured on the bus
or at the control socket to be sent again after the referee's ``next-game``. So a host
checks two things besides the signature (``wuzi.bus.auth.verify``), for each table the
command acts on:

* the game: a command for one table names the game it is for (``game_id``, signed), and
  is refused on a table that plays another one (`wuzi.bus.auth.game_problem`): the
  reply and a ``refused`` referee alert say "command … is for game X; table 3 plays
  game Y";
* the id: a command already carried out on that table within the age window is a
  repeat (the bus delivers at least once) and is not carried out again. The ids are
  kept for the whole window, across games (the table's game changes, the window does
  not) and across restarts: each accepted command is journaled (``host.command``, with
  its ``issued_ms``, ``game_id`` and the host's wall clock ``wall_ms``), and `recall`
  reads a table's records newest first (``Journal.newest_of_kind``, by the journal's
  kind index) until they are older than any command still valid could be.

A command for every table (``table: null``) names no game: only its id and its age stop
a replay of it (docs/referee.md). Pure: time is an argument, the journal an iterable.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import Enum
from typing import Any

from wuzi.bus.auth import MAX_FUTURE_MS, ReplayGuard, game_problem
from wuzi.bus.schemas import ArbiterCommand
from wuzi.host.table_runtime import TableRuntime
from wuzi.journal import JournalEntry

__all__ = ["CommandWindow", "Verdict", "shown_game"]


def shown_game(runtime: TableRuntime) -> str | None:
    """The game a table's states show, which a referee's command for it is signed for:
    its game (running or over), or while it has none the assignment waiting for the
    referee's ``next-game`` (as ``HostService._publish_state`` shows it), else None."""
    if runtime.session is None and runtime.waiting is not None:
        return runtime.waiting.game_id
    return runtime.game_id or None


class Verdict(Enum):
    """What a host does with a verified command on one table (a refusal is its text)."""

    CARRY_OUT = "carry out"
    REPEAT = "repeat"  # carried out on this table within the window: not again


class CommandWindow:
    """The host's memory of the commands it carried out in the last ``max_age_ms``, per
    table, and the game check; one per host (see the module docstring)."""

    def __init__(self, max_age_ms: int, max_future_ms: int = MAX_FUTURE_MS) -> None:
        if max_age_ms <= 0 or max_future_ms < 0:
            raise ValueError(
                f"a command window needs a positive max age and a future allowance >= 0,"
                f" not {max_age_ms} and {max_future_ms} ms"
            )
        self.max_age_ms = max_age_ms
        self.max_future_ms = max_future_ms
        self._guard = ReplayGuard(max_age_ms)

    def check(
        self, cmd: ArbiterCommand, table: int, plays: str | None, now_ms: int
    ) -> Verdict | str:
        """What to do with ``cmd`` (already verified) on ``table``, which plays game
        ``plays`` (None: no game yet), at the host's wall clock ``now_ms``: carry it out,
        drop it as a repeat, or the refusal's text. The game is checked first, so a
        command replayed into the next game is refused loudly, not dropped in silence."""
        problem = game_problem(cmd, table, plays)
        if problem is not None:
            return problem
        if self._guard.seen(cmd, now_ms, table):
            return Verdict.REPEAT
        return Verdict.CARRY_OUT

    @staticmethod
    def record_fields(cmd: ArbiterCommand, now_ms: int) -> dict[str, Any]:
        """What a ``host.command`` record of ``cmd``, accepted at the host's wall clock
        ``now_ms``, must hold besides its id for `recall` to find it after a restart."""
        return {"issued_ms": cmd.issued_ms, "game_id": cmd.game_id, "wall_ms": now_ms}

    def carried_out(self, cmd: ArbiterCommand, table: int) -> None:
        """Remember ``cmd`` as carried out on ``table`` (once its record is journaled)."""
        self._guard.remember(cmd.command_id, cmd.issued_ms, table)

    def recall(self, table: int, newest_first: Iterable[JournalEntry], now_ms: int) -> int:
        """Remember the commands of ``table``'s ``host.command`` records, newest first,
        that may still be valid at ``now_ms``; the number remembered. Stops at the first
        record accepted too long ago for any later-accepted one to matter (a command is
        accepted at most ``max_future_ms`` before it was issued), or written by an older
        host (no ``wall_ms``: its commands were signed with the old scheme, which
        ``verify`` refuses anyway)."""
        oldest_valid_ms = now_ms - self.max_age_ms
        count = 0
        for entry in newest_first:
            accepted_ms = _int(entry.payload, "wall_ms")
            issued_ms = _int(entry.payload, "issued_ms")
            command_id = entry.payload.get("command_id")
            if accepted_ms is None or issued_ms is None or not isinstance(command_id, str):
                break
            if accepted_ms + self.max_future_ms < oldest_valid_ms:
                break
            if issued_ms >= oldest_valid_ms:
                self._guard.remember(command_id, issued_ms, table)
                count += 1
        return count

    def __len__(self) -> int:
        return len(self._guard)


def _int(payload: Mapping[str, Any], name: str) -> int | None:
    value = payload.get(name)
    return value if isinstance(value, int) and not isinstance(value, bool) else None
