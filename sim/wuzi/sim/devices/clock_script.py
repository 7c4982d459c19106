"""Clock-unit scripts (``wuzi sim clock --script FILE``): the players' hands on the buttons,
and what happens to the unit and its cable, and when.

One step a line, ``<t_ms> <verb> ...``, times from the start of the run, ``#`` starts a
comment:

    500   press black            # button 0 (the first seat's in game 1), held 80 ms
    1500  press white bounce 3   # button 1, its contacts bouncing 3 times each way
    1600  press 1                # a button by number: 0, 1
    2000  claim                  # the claim/referee button (button 2)
    2500  unplug 800             # the link goes silent both ways for 800 ms; the unit runs
                                 # on, logging presses (the host replays them afterwards)
    4000  reboot                 # the MCU resets: a new boot id, its press log is lost
    5000  stall 3000             # the unit stops reading its input for 3000 ms: the host's
                                 # writes pile up in the pty until it is full; the unit
                                 # still sends its own frames (presses, heartbeats)
    9000  replug 1500            # the USB cable is pulled: the pty closes (the host's read
                                 # fails, the port is gone); 1500 ms later a new pty opens
                                 # under a new path (printed as a new stdout line; --link
                                 # follows it). The unit is powered by the cable: the MCU
                                 # reboots (new boot id, its press log is gone)

Why black and white name buttons: at a table the players sit at the unit's two sides, and
in game 1 of a match the first seat holds Black on button 0 (docs/buttons.md); a script
speaks of the players as a referee does. Game 2 keeps the chairs, so there ``press black``
is still button 0, now the player with White: write ``press 0``/``press 1`` if that reads
better.

``parse_clock_script`` is pure and checks everything, naming the line of the first mistake.
"""

from __future__ import annotations

from dataclasses import dataclass

from wuzi.link.errors import ScriptError
from wuzi.sim.devices.script import LINK_VERBS, _int, link_ms, split_line

__all__ = ["BUTTONS", "CLAIM", "HOLD_MS", "VERBS", "ClockStep", "parse_clock_script"]

VERBS = ("press", "claim", "unplug", "reboot", "stall", "replug")
BUTTONS = {"black": 0, "white": 1, "0": 0, "1": 1}
CLAIM = 2  # the claim/referee button
HOLD_MS = 80  # how long a hand holds a button down (the firmware debounces 30 ms)
MAX_BOUNCES = 50


@dataclass(frozen=True)
class ClockStep:
    t_ms: int
    verb: str
    button: int = -1  # press/claim: 0, 1 (players), 2 (claim)
    bounces: int = 0  # press/claim: contact bounces each way
    ms: int = 0  # unplug/stall/replug: duration
    line: int = 0


def _bounces(words: list[str], at: int, usage: str, lineno: int) -> int:
    """``bounce <n>`` from ``words[at:]`` (nothing: 0)."""
    rest = words[at:]
    if not rest:
        return 0
    if len(rest) != 2 or rest[0].lower() != "bounce":
        raise ScriptError(f"line {lineno}: expected '{usage}', got {' '.join(words)!r}")
    n = _int(rest[1], "the bounce count", lineno)
    if n > MAX_BOUNCES:
        raise ScriptError(f"line {lineno}: at most {MAX_BOUNCES} bounces, not {n}")
    return n


def parse_clock_script(text: str) -> list[ClockStep]:
    """Steps in time order (stable for equal times); raises ScriptError naming the line."""
    steps: list[ClockStep] = []
    for lineno, raw in enumerate(text.splitlines(), start=1):
        parsed = split_line(raw, lineno)
        if parsed is None:
            continue
        t, verb, words = parsed
        if verb == "press":
            usage = "<t_ms> press black|white|0|1 [bounce <n>]"
            if len(words) < 3:
                raise ScriptError(f"line {lineno}: expected '{usage}', got {' '.join(words)!r}")
            which = words[2].lower()
            if which not in BUTTONS:
                raise ScriptError(
                    f"line {lineno}: press takes black, white, 0 or 1, not {words[2]!r} "
                    "(the claim button is 'claim')"
                )
            bounces = _bounces(words, 3, usage, lineno)
            steps.append(ClockStep(t, verb, BUTTONS[which], bounces, line=lineno))
        elif verb == "claim":
            bounces = _bounces(words, 2, "<t_ms> claim [bounce <n>]", lineno)
            steps.append(ClockStep(t, verb, CLAIM, bounces, line=lineno))
        elif verb == "reboot":
            if len(words) != 2:
                raise ScriptError(f"line {lineno}: expected '<t_ms> reboot', got {raw.strip()!r}")
            steps.append(ClockStep(t, verb, line=lineno))
        elif verb in LINK_VERBS:
            steps.append(ClockStep(t, verb, ms=link_ms(words, lineno), line=lineno))
        else:
            raise ScriptError(
                f"line {lineno}: unknown step {words[1]!r}; expected one of {', '.join(VERBS)}"
            )
    steps.sort(key=lambda s: s.t_ms)
    return steps
