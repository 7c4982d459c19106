"""A table as this host keeps it: the pure ``wuzi.table.table.Table`` with the director's
``Assignment`` (a bus message, which the table layer does not know) as its assignment.

``TableRuntime`` adds only the translation: an assignment is checked and turned into the
game's ``TableSetup`` (``setup_from_assignment``) and its JSON for the journal when it
arrives, and read back from the journal at recovery. Everything else — the game, the
journal records, the press rule, the fault holds, the buttons — is the table's own
(docs/host.md).
"""

from __future__ import annotations

import json

from wuzi.bus.assignment import setup_from_assignment
from wuzi.bus.schemas import Assignment, Cleared, MessageError, encode, parse_message
from wuzi.bus.topics import assignment as assignment_topic
from wuzi.table.checks import TableError
from wuzi.table.table import COMMAND_KIND, GAME_START_KIND, Record, Table, table_id

__all__ = ["COMMAND_KIND", "GAME_START_KIND", "Record", "TableRuntime", "table_id"]


class TableRuntime(Table[Assignment]):
    """One table of this host (see the module docstring)."""

    def offer_assignment(self, message: Assignment | Cleared) -> tuple[bool, str]:
        """A retained assignment arrived. Returns (changed, why) — the assignment is held
        as ``waiting`` until the referee's ``next-game`` begins it; a repeat of the current
        game's assignment changes nothing; a bad one raises TableError now, not when the
        table is rebuilt."""
        if isinstance(message, Cleared):
            return self.withdraw()
        known = self.known(message)
        if known is not None:
            return False, known
        setup = setup_from_assignment(message)
        return self.offer(message, setup, json.loads(encode(message)))

    def parse_assignment(self, obj: object) -> Assignment | None:
        if obj is None:
            return None
        try:
            message = parse_message(
                assignment_topic(self.venue, self.number),
                json.dumps(obj, separators=(",", ":")).encode(),
            )
        except MessageError as exc:
            raise TableError(f"table {self.number}: journaled assignment: {exc}") from None
        return message if isinstance(message, Assignment) else None
