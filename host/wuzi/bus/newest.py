"""Which of two retained states of one table is the newer: the one rule every reader keeps.

A reader can be handed an older state than the one it shows: a broker restored from an
old database serves what it had saved, paho resends a state the broker had not
acknowledged before the host republished its newer one, a subscription is renewed to
fill a gap. The host republishes every retained message it owns on each (re)connection
(`wuzi.bus.client`), so the newest always comes; a reader must only never go back to an
older one in the meantime. Every reader of ``TableState`` and ``RefereeState`` (the
screens, the arbiter view, the web page, the broadcast delay, the director) asks
`supersedes`, so they all agree on what "newer" is (docs/bus.md, "Newest state wins"):

* **the same game** (equal ``game_id``, both null included): the higher ``seq`` is newer
  (the public event count of a TableState, the journal seq of a RefereeState: both only
  grow within a game, across host restarts too, as they come from the journal); at an
  equal ``seq`` the later ``at_ms`` (a republished snapshot of the same point);
* **another game**: the later ``at_ms``, the host's wall time of the snapshot. A game's
  states are all stamped after the previous game's last one by the same host, and hosts
  keep NTP time, so a table handed to another host is ordered too. A game id says nothing
  about order (the director names games, not in sequence).

An equal state (same game, seq and at_ms) supersedes: applying a repeat is harmless, and
a reader that counts changes compares the messages itself.
"""

from __future__ import annotations

from typing import Protocol

__all__ = ["Stamped", "supersedes"]


class Stamped(Protocol):
    """What the rule reads of a state: `TableState` and `RefereeState` both have it."""

    @property
    def game_id(self) -> str | None: ...

    @property
    def seq(self) -> int: ...

    @property
    def at_ms(self) -> int: ...


def supersedes(new: Stamped, old: Stamped | None) -> bool:
    """Whether ``new`` may replace ``old`` (None: nothing held yet) for the same table and
    topic; False means ``new`` is older, and the reader keeps ``old``."""
    if old is None:
        return True
    if new.game_id == old.game_id:
        return (new.seq, new.at_ms) >= (old.seq, old.at_ms)
    return new.at_ms >= old.at_ms
