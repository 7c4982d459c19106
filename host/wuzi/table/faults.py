"""Which of a table's devices are at fault, what the referees are told, when the clock is
held: pure.

A table's hardware never costs a player: a device that cannot be used is one ``board``
alert naming it when its fault starts and one when it is served again (not one per try
of the drivers), the table is listed in the host status's ``links_down``, and a running
clock is held once per spell of faults (the referee resumes it when the table is fit).
``DeviceFaults`` decides all of that from what the host saw of its devices at a look
(``DeviceLook``: plain values the shell reads off its drivers); it never touches a port.

A device's fault is, first found first: its refusal (a wrong kind, serial or protocol
answered: told at once, and told again if another wrong device is put there), its link
gone down (told at once by its own event, ``link_changed``), or its not serving for the
host's patience (never opened, nothing answered). Within one outage the reason may
change (a lost port that cannot be reopened): the referee was told already, the change
is only logged.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

__all__ = ["DeviceFaults", "DeviceLook", "FaultNews"]


@dataclass(frozen=True)
class DeviceLook:
    """What one device of the table said at a look: its name as the referees find it
    (``board /dev/wuzi/board-3``), why it is refused (None: it is not), whether its link
    is down, and why it has not served for the host's patience (None: it serves, or not
    for that long yet)."""

    device: str
    refused: str | None = None
    link_down: bool = False
    silent: str | None = None


@dataclass(frozen=True)
class FaultNews:
    """What a look changed: the alerts to raise (texts, in order), the lines to log, and
    whether the set of faulted devices changed (the host status's ``links_down``)."""

    alerts: tuple[str, ...] = ()
    logged: tuple[str, ...] = ()
    changed: bool = False


@dataclass
class DeviceFaults:
    """One table's device faults (see the module docstring)."""

    told: dict[str, str] = field(default_factory=dict)  # device -> why, as the referees know
    links_lost: dict[str, str] = field(default_factory=dict)  # from the links' own events
    held: bool = False  # the clock was held for the current spell (once)

    @property
    def any(self) -> bool:
        """Some device of the table is at fault (the host status lists the table)."""
        return bool(self.told)

    @property
    def quiet(self) -> bool:
        """Nothing at fault and no link lost: a look at serving devices has nothing to say."""
        return not self.told and not self.links_lost

    def link_changed(self, device: str, *, down: bool, why: str = "") -> bool:
        """A device's link went down (the first reason of the outage is kept) or came up.
        True when this starts an outage (the shell logs it once)."""
        if not down:
            self.links_lost.pop(device, None)
            return False
        started = device not in self.links_lost
        self.links_lost.setdefault(device, why)
        return started

    def look(self, open_errors: Mapping[str, str], devices: Iterable[DeviceLook]) -> FaultNews:
        """The table's faults now: ``open_errors`` (devices that could not be built: why)
        and what each built device says. Returns what changed since the last look."""
        faults = dict(open_errors)
        refusals: set[str] = set()
        for seen in devices:
            if seen.device in self.links_lost and not seen.link_down:
                del self.links_lost[seen.device]  # served again (also if its LINK_UP was missed)
            why = seen.refused or self.links_lost.get(seen.device) or seen.silent
            if why is not None:
                faults[seen.device] = why
                if why == seen.refused:
                    refusals.add(seen.device)
        if faults == self.told:
            return FaultNews()
        before, self.told = self.told, faults
        alerts: list[str] = []
        logged: list[str] = []
        for device, why in faults.items():
            was = before.get(device)
            if was is None or (was != why and device in refusals):
                alerts.append(f"{device} cannot be used: {why}")
            elif was != why:
                logged.append(f"{device}: now {why}")
        for device in before.keys() - faults.keys():
            logged.append(f"{device} is served again")
            alerts.append(f"{device} is served again")
        if not faults:
            self.held = False
        return FaultNews(tuple(alerts), tuple(logged), changed=True)

    def hold_reason(self, *, clock_running: bool) -> str | None:
        """The reason to hold the table's clock now (None: no hold): a running clock is
        held once per spell of faults; the referee's resume is the next word."""
        if not self.told or self.held or not clock_running:
            return None
        self.held = True
        return f"{', '.join(sorted(self.told))} cannot be used"
