"""Reconnection delays: exponential back-off with jitter, and logging by state change.

A client that the broker refuses (bad password, not authorised) or drops (its account's
session taken over, the broker's limits) gets the same answer the next time, so retrying
every 0.1 s only fills the logs and the broker's (150 lines in 6 s) and, for two clients
fighting over one session, keeps the tug-of-war going. So every failed attempt doubles
the delay, up to a cap, and a connection that stays up `Backoff.stable_s` resets it.
The jitter (each delay drawn from the upper half of its range) keeps the hosts of a
venue from reconnecting in lockstep after the broker restarts.

`StateLog` logs a line when the connection's state changes (connected, refused for a
reason, unreachable, lost), never once per retry, and says how many attempts a state
lasted when it ends.

Pure: the time and the random numbers come in as arguments (`wuzi.bus.client` passes
``time.monotonic`` and ``random.random``), so the tests drive it with fakes.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["Backoff", "StateLog"]


@dataclass
class Backoff:
    """The delay before each reconnection attempt.

    `failed` (an attempt that failed, or a connection that ended before ``stable_s``)
    returns the delay to wait: the current base, jittered into ``[base/2, base]``, capped
    at ``cap_s`` (each cause has its own cap: an unreachable broker is retried sooner than
    a refused login), and doubles the base. `connected` notes when a connection was made;
    `ended` tells whether it lasted long enough to start again from ``min_s``."""

    min_s: float
    max_s: float
    stable_s: float = 10.0
    random: Callable[[], float] = field(default=lambda: 1.0)
    _base_s: float = field(init=False, default=0.0)
    _since_s: float | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        if not 0 < self.min_s <= self.max_s:
            raise ValueError(
                f"back-off needs 0 < min_s <= max_s, not min_s={self.min_s} max_s={self.max_s}"
            )
        self._base_s = self.min_s

    def failed(self, cap_s: float | None = None) -> float:
        """The delay after a failure (with jitter, at most ``cap_s``, default ``max_s``)."""
        cap = self.max_s if cap_s is None else min(cap_s, self.max_s)
        base = min(self._base_s, cap)
        self._base_s = min(self._base_s * 2, self.max_s)
        return base * (0.5 + 0.5 * self.random())

    def reset(self) -> None:
        """Start again from ``min_s`` (the cause of the failures is gone)."""
        self._base_s = self.min_s

    def connected(self, now_s: float) -> None:
        self._since_s = now_s

    def ended(self, now_s: float) -> bool:
        """A connection ended at ``now_s``: True (and the delay reset) if it had been up
        ``stable_s`` or longer, False if it was dropped soon after it was made."""
        since, self._since_s = self._since_s, None
        if since is not None and now_s - since >= self.stable_s:
            self._base_s = self.min_s
            return True
        return False

    def stable(self, now_s: float) -> None:
        """Reset the delay once the current connection has been up ``stable_s``."""
        if self._since_s is not None and now_s - self._since_s >= self.stable_s:
            self._base_s = self.min_s

    @property
    def base_s(self) -> float:
        """The delay (before jitter) the next failure will wait."""
        return self._base_s


@dataclass
class StateLog:
    """Logs a connection's state once per change: ``enter(state, level, message)`` logs
    ``message`` only when ``state`` differs from the current one (a repeat is counted and
    logged at DEBUG); leaving a state that repeated says how many times it did."""

    logger: logging.Logger
    prefix: str = ""
    state: str | None = None
    repeats: int = 0

    def enter(self, state: str, level: int, message: str) -> bool:
        """True if this was a change (and was logged at ``level``)."""
        if state == self.state:
            self.repeats += 1
            self.logger.debug("%s%s (again, %d times)", self.prefix, message, self.repeats + 1)
            return False
        if self.state is not None and self.repeats:
            self.logger.info("%s%s: %d attempts in all", self.prefix, self.state, self.repeats + 1)
        self.state, self.repeats = state, 0
        self.logger.log(level, "%s%s", self.prefix, message)
        return True
