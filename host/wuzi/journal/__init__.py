"""The host's crash-safe journal: every table event is durable before it has any effect.

``Journal`` is the append-only SQLite log of one host (WAL, ``synchronous=FULL``) with the
bus outbox; ``replay`` folds a pure reducer over its entries to rebuild any state.
See docs/journal.md.
"""

from wuzi.journal.journal import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    Journal,
    Snapshot,
    measure_append_us,
    replay,
)
from wuzi.journal.records import (
    JournalClosedError,
    JournalEntry,
    JournalError,
    JournalFileError,
    JournalInputError,
    event_id,
)

__all__ = [
    "APPLICATION_ID",
    "SCHEMA_VERSION",
    "Journal",
    "JournalClosedError",
    "JournalEntry",
    "JournalError",
    "JournalFileError",
    "JournalInputError",
    "Snapshot",
    "event_id",
    "measure_append_us",
    "replay",
]
