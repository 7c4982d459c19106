"""Table snapshots: a table's recovered state kept in the journal, so a restart does not
replay every event of every game (issue 22; docs/performance.md).

Replaying a 200-move game costs ~20 ms on a development machine (the clock core's
immutable updates, the rules' checks), ~80 ms on a Pi 4, for each of its tables; loading a
snapshot costs ~2 ms. The journal's events stay the truth: a snapshot holds exactly what
``TableRuntime.recover`` would rebuild from the events up to its ``seq`` (the session with
its inputs and outputs, the game's id, assignment, public numbering and open alerts), and
recovery replays only the events after it.

The state is pickled (protocol 5): the session is a graph of the rules', clock's and
table's own objects, and pickle rebuilds it exactly, with no second serialisation to keep
in step with every field. A pickle is only as good as the code that reads it, so each
snapshot is tagged with ``format_id()``: a digest of the source of every package whose
objects it holds and of the Python version. A snapshot written by other code (an upgrade,
a patch) is ignored, and so is one that fails to load; recovery then replays the events,
as it did before snapshots existed. The journal file is the host's own (in its state
folder): whoever can write it can already rewrite every game, so loading a pickle from it
gives nobody a new power.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import logging
import pickle
import sys
from pathlib import Path
from typing import Any

from wuzi.host.table_runtime import TableRuntime

__all__ = ["SNAPSHOT_EVERY", "dump", "format_id", "load"]

log = logging.getLogger("wuzi.host")

SNAPSHOT_EVERY = 16
"""A table's snapshot is renewed once this many events were journaled after it (a move
is four to six events: about every three moves), so a restart replays at most this many
events of the table, plus those of the last heartbeat's second. Replaying an event costs
about as much as loading a snapshot's 40 (~25 µs against ~1 ms, development machine);
renewing one costs ~0.9 ms of the loop, one table a heartbeat, and a table makes 16
events in a minute or so of play: 32 left twice the replay for no gain a venue feels."""

_PACKAGES = ("wuzi.base", "wuzi.rules", "wuzi.clock", "wuzi.table", "wuzi.bus")
"""Packages whose objects a snapshot holds (the session, its inputs and outputs, an
assignment): a change to any of their files makes older snapshots unusable."""

_FIELDS = (
    "session",
    "assignment",
    "game_id",
    "last_ns",
    "public_seq",
    "open_alerts",
    "started_wall_ms",
)
"""The ``TableRuntime`` fields ``recover`` rebuilds from the journal (``waiting`` is not
one: a held assignment comes again, retained, from the broker)."""


@functools.cache
def format_id() -> str:
    """``pickle5-<digest>``: the digest of this code's sources and the Python version."""
    digest = hashlib.sha256(sys.version.encode())
    files: list[Path] = [Path(__file__), Path(sys.modules[TableRuntime.__module__].__file__ or "")]
    for name in _PACKAGES:
        package = importlib.import_module(name)
        for folder in package.__path__:
            files += sorted(Path(folder).rglob("*.py"))
    for file in files:
        digest.update(file.name.encode())
        digest.update(file.read_bytes())
    return f"pickle5-{digest.hexdigest()[:32]}"


def dump(runtime: TableRuntime) -> bytes:
    """The runtime's recoverable state (``_FIELDS``), pickled."""
    state: dict[str, Any] = {name: getattr(runtime, name) for name in _FIELDS}
    return pickle.dumps(state, protocol=5)


def load(data: bytes, number: int, venue: str) -> TableRuntime | None:
    """The runtime of table ``number`` a ``dump`` describes, or None (logged) when it
    cannot be read: recovery then replays the events instead."""
    try:
        state = pickle.loads(data)  # the host's own journal: see the module docstring
        if not isinstance(state, dict) or set(state) != set(_FIELDS):
            raise ValueError("not a table snapshot")
        runtime = TableRuntime(number=number, venue=venue)
        for name in _FIELDS:
            setattr(runtime, name, state[name])
    except Exception as exc:  # any failure means: replay the events, as without snapshots
        log.warning("table %d: snapshot unusable (%s); replaying its events", number, exc)
        return None
    return runtime
