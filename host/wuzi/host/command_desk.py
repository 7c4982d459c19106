"""The host's desk for the referees' commands: verified, checked per table, carried out.

A command comes from the arbiter view over MQTT or from ``wuzi referee send`` through the
control socket, always signed (docs/referee.md). The desk verifies the signature with the
referee's key from the venue file and the issue time (``wuzi.bus.auth.verify``), asks each
table it acts on whether to carry it out (``Table.check_command``: once, in the game it
names), maps the action to table inputs (``wuzi.host.commands``) and journals them all or
nothing. A refusal is told to the sender and, for a table, to its referees (a
``refused`` alert); a player's action the referee enters (``decide``, ``choose``,
``declare``, ``claim``) that the game refuses leaves nothing in the journal but that
alert.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from wuzi.bus.auth import AuthError, verify
from wuzi.bus.schemas import ArbiterCommand
from wuzi.host.commands import CommandError, to_inputs
from wuzi.host.outbound import Outbound
from wuzi.host.served import ServedTable
from wuzi.table.alerts import AlertReason
from wuzi.table.checks import TableError
from wuzi.table.commands import Ticket, Verdict
from wuzi.table.inputs import TableSetup

__all__ = ["ENTERED_FOR_PLAYERS", "CommandDesk"]

log = logging.getLogger("wuzi.host")

ENTERED_FOR_PLAYERS = frozenset({"decide", "choose", "declare", "claim"})
"""Players' actions a referee enters for them: one the game refuses refuses the command
(nothing is journaled but the alert), where a player's button gets a ``refused`` alert."""


class CommandDesk:
    """Carries out the referees' commands on one host's ``tables``; ``default_setup`` is
    a standalone table's next game (``standalone``), ``now_ns``/``wall_ms`` the host's
    time base and the venue's wall clock."""

    def __init__(
        self,
        *,
        host_id: str,
        tables: Mapping[int, ServedTable],
        keys: Callable[[], Mapping[str, bytes]],
        out: Outbound,
        max_age_ms: int,
        standalone: bool,
        default_setup: Callable[[int], TableSetup],
        now_ns: Callable[[], int],
        wall_ms: Callable[[], int],
    ) -> None:
        self.host_id = host_id
        self.tables = tables
        self._keys = keys
        self.out = out
        self.max_age_ms = max_age_ms
        self.standalone = standalone
        self.default_setup = default_setup
        self.now_ns = now_ns
        self.wall_ms = wall_ms
        # the linked tables' commands (wuzi.host.linked_tables): None when not linked
        self.linked: Callable[[ArbiterCommand], tuple[bool, str] | None] | None = None

    @property
    def keys(self) -> Mapping[str, bytes]:
        return self._keys()

    def execute(self, command: ArbiterCommand) -> tuple[bool, str]:
        """Check and carry out an arbiter command (from the bus or the control socket).
        Returns (ok, message) for the sender; refusals are also told to the referees."""
        try:
            verify(
                command,
                self.keys,
                now_ms=self.wall_ms(),
                max_age_ms=self.max_age_ms,
            )
        except AuthError as exc:
            log.warning("command %s refused: %s", command.command_id, exc)
            return False, f"not authenticated: {exc}"
        if self.linked is not None:  # a linked table's command: its side's
            answer = self.linked(command)
            if answer is not None:
                return answer
        if command.table is not None and command.table not in self.tables:
            why = f"table {command.table} is not served by host {self.host_id}"
            log.info("command %s ignored: %s", command.command_id, why)
            return False, why
        targets = (
            [self.tables[command.table]]
            if command.table is not None
            else list(self.tables.values())
        )
        problems: list[str] = []
        for table in targets:
            problem = self._execute_on(table, command)
            if problem:
                problems.append(f"table {table.runtime.number}: {problem}")
        if problems:
            return False, "; ".join(problems)
        return True, f"{command.action} done on {len(targets)} table(s)"

    def _execute_on(self, table: ServedTable, command: ArbiterCommand) -> str:
        runtime = table.runtime
        now, wall = runtime.clamp(self.now_ns()), self.wall_ms()
        ticket = Ticket(
            command.command_id, command.game_id, command.issued_ms, command.table is None
        )
        verdict = runtime.check_command(ticket, wall)
        if verdict is Verdict.REPEAT:  # QoS 1 delivers at least once: already done
            log.info("table %d: command %s again: ignored", runtime.number, command.command_id)
            return f"command {command.command_id} was carried out already: a repeat, ignored"
        meta: dict[str, Any] = {"referee": command.referee, "action": command.action}
        try:
            if isinstance(verdict, str):
                raise TableError(verdict)
            meta |= runtime.command_fields(ticket, wall)
            if command.action == "next-game" and (
                runtime.waiting is not None or runtime.session is None or self.standalone
            ):
                # a standalone table's next game is a game of its own (its own id, its
                # own record file), begun from the config's defaults like the first
                setup = self.default_setup(runtime.number) if self.standalone else None
                records = runtime.begin_by_command(command.command_id, meta, now, wall, setup)
                self.out.commit(table, records)
                runtime.carried_out(ticket)
                table.display_due_ns = 0
                return ""
            session = runtime.session
            if session is None:
                raise TableError("no game is running on this table")
            inputs = to_inputs(command, now, session.game)
            strict = command.action in ENTERED_FOR_PLAYERS
            records = runtime.feed_command(command.command_id, meta, inputs, wall, strict=strict)
            self.out.commit(table, records)
            runtime.carried_out(ticket)
        except (TableError, CommandError) as exc:
            log.warning(
                "table %d: command %s (%s) refused: %s",
                runtime.number,
                command.command_id,
                command.action,
                exc,
            )
            self._alert(
                table,
                AlertReason.REFUSED,
                f"command {command.action} by {command.referee} refused: {exc}",
            )
            return str(exc)
        table.display_due_ns = 0
        return ""

    def _alert(self, table: ServedTable, reason: AlertReason, text: str) -> None:
        runtime = table.runtime
        self.out.commit(table, runtime.alert(self.now_ns(), self.wall_ms(), reason, text))
