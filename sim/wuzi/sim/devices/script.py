"""Simulator scripts: what happens on the wood and on the wire, and when.

One step a line, ``<t_ms> <verb> ...``, times from the start of the run, ``#`` starts a comment:

    0     place h8 black
    400   slide g7 h7 white      # passes over g7, settles on h7
    900   remove h8
    1200  unplug 500             # the link goes silent for 500 ms; the board goes on scanning
    2000  reboot                 # the MCU resets (its RAM log is lost, the stones stay)
    2500  knock h7 h6            # a stone knocked to another point (extension)
    2600  stuck a1 black         # a latch sticks on (extension; "clear" to free it)
    2700  slow 1000 25           # for 1000 ms the MCU scans every 25 ms (extension)
    3000  stall 2000             # the MCU stops reading its input for 2000 ms: the host's
                                 # writes pile up in the pty until it is full; the board
                                 # still scans and sends its own frames
    6000  replug 1500            # the USB cable is pulled: the pty closes (the host's read
                                 # fails, the port is gone); 1500 ms later a new pty opens
                                 # under a new path (printed as a new stdout line; --link
                                 # follows it). The board is powered by the cable: the MCU
                                 # reboots (new boot id, empty RAM log), the stones stay,
                                 # so the host resyncs from its snapshot

``parse_script`` is pure and checks everything, naming the line of the first mistake.
"""

from __future__ import annotations

from dataclasses import dataclass

from wuzi.base.numbers import NumberError, parse_int
from wuzi.link.errors import ScriptError
from wuzi.rules.board import Colour, parse_point
from wuzi.rules.errors import InvalidPointError

VERBS = (
    "place",
    "remove",
    "slide",
    "unplug",
    "reboot",
    "knock",
    "stuck",
    "slow",
    "stall",
    "replug",
)
LINK_VERBS = ("unplug", "stall", "replug")  # '<t_ms> <verb> <ms>': the same for every device


@dataclass(frozen=True)
class Step:
    t_ms: int
    verb: str
    points: tuple[int, ...] = ()
    colour: Colour | None = None
    ms: int = 0  # unplug/stall/replug/slow duration
    arg: int = 0  # slow: scan period in ms; stuck: latch code (0 clears)
    line: int = 0


MAX_SCRIPT_NUMBER = 10**12
"""The largest time, duration or period in a script (ms): 31 years."""


def _int(text: str, what: str, lineno: int) -> int:
    if text.startswith("-") and text[1:].isascii() and text[1:].isdigit():
        raise ScriptError(f"line {lineno}: {what} must not be negative ({text})")
    try:  # ASCII digits only: int() would take ٣٤ and 1_000
        return parse_int(text, what, 0, MAX_SCRIPT_NUMBER)
    except NumberError:
        raise ScriptError(
            f"line {lineno}: {what} must be a whole number, not {text[:40]!r}"
            f" (ASCII digits 0-9, at most {MAX_SCRIPT_NUMBER})"
        ) from None


def _point(text: str, lineno: int) -> int:
    try:
        return parse_point(text)
    except InvalidPointError as exc:
        raise ScriptError(f"line {lineno}: {exc}") from None


def _colour(text: str, lineno: int) -> Colour:
    try:
        return Colour.parse(text)
    except ValueError as exc:
        raise ScriptError(f"line {lineno}: {exc}") from None


def _args(words: list[str], n: int, usage: str, lineno: int) -> None:
    if len(words) != n:
        raise ScriptError(f"line {lineno}: expected '{usage}', got {' '.join(words)!r}")


def link_ms(words: list[str], lineno: int) -> int:
    """The duration of a link fault step (``<t_ms> unplug|stall|replug <ms>``)."""
    verb = words[1].lower()
    _args(words, 3, f"<t_ms> {verb} <ms>", lineno)
    return _int(words[2], f"the {verb} time", lineno)


def split_line(raw: str, lineno: int) -> tuple[int, str, list[str]] | None:
    """A script line's time, verb (lower case) and words, None for a blank or comment
    line; raises ScriptError for a line without a time and a verb."""
    words = raw.split("#", 1)[0].split()
    if not words:
        return None
    if len(words) < 2:
        raise ScriptError(f"line {lineno}: expected '<t_ms> <verb> ...', got {raw.strip()!r}")
    return _int(words[0], "the time", lineno), words[1].lower(), words


def parse_script(text: str) -> list[Step]:
    """Steps in time order (stable for equal times); raises ScriptError naming the line."""
    steps: list[Step] = []
    for lineno, raw in enumerate(text.splitlines(), start=1):
        parsed = split_line(raw, lineno)
        if parsed is None:
            continue
        t, verb, words = parsed
        if verb == "place":
            _args(words, 4, "<t_ms> place <point> black|white", lineno)
            steps.append(
                Step(t, verb, (_point(words[2], lineno),), _colour(words[3], lineno), line=lineno)
            )
        elif verb == "remove":
            _args(words, 3, "<t_ms> remove <point>", lineno)
            steps.append(Step(t, verb, (_point(words[2], lineno),), line=lineno))
        elif verb == "slide":
            _args(words, 5, "<t_ms> slide <from> <to> black|white", lineno)
            frm, to = _point(words[2], lineno), _point(words[3], lineno)
            if frm == to:
                raise ScriptError(f"line {lineno}: a slide needs two different points")
            steps.append(Step(t, verb, (frm, to), _colour(words[4], lineno), line=lineno))
        elif verb == "knock":
            _args(words, 4, "<t_ms> knock <from> <to>", lineno)
            steps.append(
                Step(t, verb, (_point(words[2], lineno), _point(words[3], lineno)), line=lineno)
            )
        elif verb in LINK_VERBS:
            steps.append(Step(t, verb, ms=link_ms(words, lineno), line=lineno))
        elif verb == "reboot":
            _args(words, 2, "<t_ms> reboot", lineno)
            steps.append(Step(t, verb, line=lineno))
        elif verb == "stuck":
            _args(words, 4, "<t_ms> stuck <point> black|white|both|clear", lineno)
            codes = {"black": 1, "white": 2, "both": 3, "clear": 0}
            key = words[3].lower()
            if key not in codes:
                raise ScriptError(f"line {lineno}: stuck takes black|white|both|clear, not {key!r}")
            steps.append(Step(t, verb, (_point(words[2], lineno),), arg=codes[key], line=lineno))
        elif verb == "slow":
            _args(words, 4, "<t_ms> slow <ms> <scan_period_ms>", lineno)
            period = _int(words[3], "the scan period", lineno)
            if period < 1:
                raise ScriptError(f"line {lineno}: the scan period must be at least 1 ms")
            steps.append(
                Step(t, verb, ms=_int(words[2], "the duration", lineno), arg=period, line=lineno)
            )
        else:
            raise ScriptError(
                f"line {lineno}: unknown step {words[1]!r}; expected one of {', '.join(VERBS)}"
            )
    steps.sort(key=lambda s: s.t_ms)
    return steps


def expected_stones(steps: list[Step]) -> list[tuple[int, Colour]]:
    """The stones a host must report for a script, in order (placements and slides' ends)."""
    out: list[tuple[int, Colour]] = []
    for s in steps:
        if s.verb == "place" and s.colour is not None:
            out.append((s.points[0], s.colour))
        elif s.verb == "slide" and s.colour is not None:
            out.append((s.points[1], s.colour))
    return out
