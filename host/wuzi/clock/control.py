"""Time controls: what each side gets, written in PGN TimeControl syntax with extensions.

A time control is a list of *phases* and an optional *overtime*:

* a phase gives time (``3600`` seconds), optionally for a number of moves (``40/5400``:
  the next phase's time is added at the press that completes the 40th move, and running
  out before that is a flag), with a per-move bonus: a Fischer increment added at every
  press (``2700+30``), a simple delay (``300d5``: the first 5 s of every turn are free) or
  a Bronstein delay (``300b5``: at the press, the time used this turn is given back, up
  to 5 s);
* a phase without a number of moves that is followed by another phase ends when its time
  runs out, and the next phase's time is added at that instant (``3600:600``); the last
  phase, if it has a number of moves, repeats (``40/7200`` is 40 moves per 2 h);
* the overtime comes after the last phase: Japanese byo-yomi ``5x30`` (5 periods of 30 s;
  a move made inside a period resets it, a period that runs out is lost) or Canadian
  byo-yomi ``c25/300`` (25 moves in 5 min, again and again; unused time is not kept).

``parse_control`` reads the text form (docs/clock.md has the grammar) and says exactly
which field and character is wrong; ``str(control)`` is the canonical text. Times are kept
in integer nanoseconds (``*_ns``) so the clock core never rounds.

Bounds (docs/clock.md "Limits"): a period's time, an increment or delay and a byo-yomi
period are at most 24 h (``MAX_PERIOD_NS``), move and period counts at most 1000
(``MAX_COUNT``), a spec at most 200 characters. No over-the-board control comes near them
(the longest classical sessions are a few hours), while a typo such as milliseconds
written as seconds (``5400000``) or a garbage number is refused where it is written, not
carried to every clock of an event as days or years of time. With them every instant and
every side's time stays far inside the 64-bit integers a journal and a JSON reader hold.
"""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass

from wuzi.clock.errors import ControlSpecError

NS_PER_MS = 1_000_000
NS_PER_S = 1_000_000_000
MAX_PERIOD_S = 24 * 3600
"""The longest time a control may give at once: a period, an increment or delay, a
byo-yomi period (24 h; also the most a referee adds or sets at once)."""
MAX_PERIOD_NS = MAX_PERIOD_S * NS_PER_S
MAX_COUNT = 1000
"""The largest move count of a period, Canadian block or number of byo-yomi periods: the
board has 225 points, so a larger count could never be reached."""
MAX_SPEC_CHARS = 200
"""The longest time-control text (``40/5400+30:1800+30:600:5x30`` is 26 characters)."""
MAX_INSTANT_NS = 2**63 - 1
"""The largest instant (``t_ns``) the clock takes: a monotonic clock's nanoseconds are a
signed 64-bit integer on every platform (about 292 years), and so are SQLite's integers."""

__all__ = [
    "MAX_COUNT",
    "MAX_INSTANT_NS",
    "MAX_PERIOD_NS",
    "MAX_PERIOD_S",
    "MAX_SPEC_CHARS",
    "NS_PER_MS",
    "NS_PER_S",
    "PRESETS",
    "Bonus",
    "Overtime",
    "OvertimeKind",
    "Phase",
    "TimeControl",
    "format_seconds",
    "parse_control",
]

# The time controls of the events Wuzi was built for (EVENTS.md), by name.
PRESETS: dict[str, str] = {
    "team-final": "2700+30",  # national team championship final: 45 min + 30 s per move
    "open": "3600",  # national open: 60 min sudden death
    "preliminary": "600",  # online preliminary, popular rules: 10 min sudden death
    "playoff": "300+3",  # open playoff games: 5 min + 3 s per move
    "playoff-decider": "180+2",  # open playoff, after a level pair: 3 min + 2 s per move
}


class Bonus(enum.Enum):
    """The per-move bonus of a phase."""

    NONE = "none"
    FISCHER = "fischer"  # ``+N``: N s added at every press (from move 1)
    DELAY = "delay"  # ``dN``: the first N s of every turn do not count (US simple delay)
    BRONSTEIN = "bronstein"  # ``bN``: at the press, the time used this turn, up to N s, back

    @property
    def symbol(self) -> str:
        return {"none": "", "fischer": "+", "delay": "d", "bronstein": "b"}[self.value]


class OvertimeKind(enum.Enum):
    BYOYOMI = "byo-yomi"  # Japanese: k periods of s seconds, a move resets the period
    CANADIAN = "canadian"  # n moves in s seconds, again and again


@dataclass(frozen=True)
class Phase:
    """One period of the main time: ``time_ns`` (for ``moves`` moves, or None for the
    rest of the phase) and the per-move bonus."""

    time_ns: int
    moves: int | None = None
    bonus: Bonus = Bonus.NONE
    bonus_ns: int = 0

    def __str__(self) -> str:
        text = format_seconds(self.time_ns)
        if self.moves is not None:
            text = f"{self.moves}/{text}"
        if self.bonus is not Bonus.NONE:
            text += self.bonus.symbol + format_seconds(self.bonus_ns)
        return text


@dataclass(frozen=True)
class Overtime:
    """Byo-yomi after the main time: ``periods`` periods of ``period_ns`` (Japanese, one
    move each), or blocks of ``moves`` moves in ``period_ns`` (Canadian, repeating)."""

    kind: OvertimeKind
    period_ns: int
    periods: int = 1
    moves: int = 1

    def __str__(self) -> str:
        if self.kind is OvertimeKind.BYOYOMI:
            return f"{self.periods}x{format_seconds(self.period_ns)}"
        return f"c{self.moves}/{format_seconds(self.period_ns)}"


@dataclass(frozen=True)
class TimeControl:
    """A whole time control (see the module docstring); build it with ``parse_control``
    or directly (the same checks apply)."""

    phases: tuple[Phase, ...]
    overtime: Overtime | None = None

    def __post_init__(self) -> None:
        problem = _structure_problem(self.phases, self.overtime)
        if problem is not None:
            raise ControlSpecError(f"time control {_text(self.phases, self.overtime)!r}: {problem}")

    def __str__(self) -> str:
        return _text(self.phases, self.overtime)

    @property
    def has_delay(self) -> bool:
        return any(p.bonus is Bonus.DELAY for p in self.phases)

    def describe(self) -> str:
        """The control in words, for a referee's screen: ``40 moves in 1 h 30 min, then
        30 min with 30 s added per move``."""
        parts: list[str] = []
        last = len(self.phases) - 1
        for i, phase in enumerate(self.phases):
            if i == last and self.overtime is not None and phase.time_ns == 0:
                continue
            words = _duration_words(phase.time_ns)
            if phase.moves is not None:
                words = f"{phase.moves} move{'s' if phase.moves != 1 else ''} in {words}"
                if i == last:
                    words += ", repeating"
            elif i != last:
                words += " (when it runs out, the next period starts)"
            elif last == 0 and self.overtime is None:
                words += " for the whole game"
            if phase.bonus is Bonus.FISCHER:
                words += f" with {_duration_words(phase.bonus_ns)} added per move"
            elif phase.bonus is Bonus.DELAY:
                words += f" with a {_duration_words(phase.bonus_ns)} delay per move"
            elif phase.bonus is Bonus.BRONSTEIN:
                words += f" with a {_duration_words(phase.bonus_ns)} Bronstein delay per move"
            parts.append(words)
        if not parts and self.overtime is not None:
            parts.append("no main time")
        text = ", then ".join(parts)
        if self.overtime is not None:
            ot = self.overtime
            if ot.kind is OvertimeKind.BYOYOMI:
                plural = "s" if ot.periods != 1 else ""
                text += (
                    f", then byo-yomi: {ot.periods} period{plural} of "
                    f"{_duration_words(ot.period_ns)}"
                )
            else:
                text += (
                    f", then Canadian byo-yomi: {ot.moves} move{'s' if ot.moves != 1 else ''}"
                    f" in {_duration_words(ot.period_ns)}, repeating"
                )
        return text


def format_seconds(ns: int) -> str:
    """``ns`` as the seconds of a spec: ``30``, ``2.5``, ``0.125``."""
    whole, rest = divmod(ns, NS_PER_S)
    if rest == 0:
        return str(whole)
    return f"{whole}.{rest // NS_PER_MS:03d}".rstrip("0")


def _duration_words(ns: int) -> str:
    if ns % NS_PER_S:
        return f"{format_seconds(ns)} s"
    seconds = ns // NS_PER_S
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    words = []
    if hours:
        words.append(f"{hours} h")
    if minutes:
        words.append(f"{minutes} min")
    if secs or not words:
        words.append(f"{secs} s")
    return " ".join(words)


def _text(phases: tuple[Phase, ...], overtime: Overtime | None) -> str:
    fields = [str(p) for p in phases]
    if overtime is not None:
        if len(phases) == 1 and phases[0].time_ns == 0 and phases[0].bonus is Bonus.NONE:
            fields = []
        fields.append(str(overtime))
    return ":".join(fields)


_LIMIT_WORDS = f"{MAX_PERIOD_S} s (24 h)"


def _structure_problem(phases: tuple[Phase, ...], overtime: Overtime | None) -> str | None:
    """What is wrong with the phases as a whole, or None (shared by parser and constructor)."""
    if not phases:
        return "it needs at least one period of time"
    for i, phase in enumerate(phases, 1):
        if phase.time_ns < 0 or phase.bonus_ns < 0:
            return f"period {i}: times cannot be negative"
        if phase.time_ns == 0 and not (overtime is not None and len(phases) == 1):
            return f"period {i} ({phase}): the time must be more than 0 s"
        if phase.moves is not None and phase.moves < 1:
            return f"period {i} ({phase}): the number of moves must be at least 1"
        if phase.time_ns > MAX_PERIOD_NS or phase.bonus_ns > MAX_PERIOD_NS:
            return f"period {i}: times are at most {_LIMIT_WORDS}"
        if phase.moves is not None and phase.moves > MAX_COUNT:
            return f"period {i}: the number of moves is at most {MAX_COUNT}"
        if phase.bonus is Bonus.NONE and phase.bonus_ns != 0:
            return f"period {i}: a bonus time without a bonus kind"
    if overtime is not None:
        last = phases[-1]
        if last.moves is not None:
            return (
                f"the last period ({last}) has a number of moves, so it repeats and the "
                f"byo-yomi ({overtime}) would never start; drop the number of moves"
            )
        if last.bonus is not Bonus.NONE:
            return (
                f"the period before the byo-yomi ({last}) cannot have an increment or delay;"
                " put the main time without a bonus before the byo-yomi"
            )
        if overtime.period_ns <= 0:
            return f"byo-yomi ({overtime}): the period must be more than 0 s"
        if overtime.periods < 1 or overtime.moves < 1:
            return f"byo-yomi ({overtime}): it needs at least 1 period and 1 move per period"
        if overtime.period_ns > MAX_PERIOD_NS:
            return f"byo-yomi: the period is at most {_LIMIT_WORDS}"
        if overtime.periods > MAX_COUNT or overtime.moves > MAX_COUNT:
            return f"byo-yomi: the number of periods and of moves is at most {MAX_COUNT}"
        if overtime.kind is OvertimeKind.CANADIAN and overtime.periods != 1:
            return "Canadian byo-yomi has one repeating period"
    return None


class _FieldParser:
    """Reads one ``:``-separated field of a spec, reporting positions in the whole spec."""

    def __init__(self, spec: str, original: str, start: int, end: int, number: int) -> None:
        self.spec = spec  # lower-cased: what is parsed
        self.original = original  # as written: what messages quote
        self.pos = start
        self.end = end
        self.number = number
        self.field = original[start:end]

    def error(self, expected: str, at: int | None = None) -> ControlSpecError:
        pos = self.pos if at is None else at
        where = f"time control {self.original!r}: field {self.number} {self.field!r}"
        if pos < self.end:
            return ControlSpecError(
                f"{where}: character {pos + 1} {self.original[pos]!r}: expected {expected}"
            )
        return ControlSpecError(f"{where}: it ends where {expected} was expected")

    def peek(self) -> str:
        return self.spec[self.pos] if self.pos < self.end else ""

    def digits(self, what: str) -> str:
        start = self.pos
        while (
            self.pos < self.end and self.spec[self.pos].isdigit() and self.spec[self.pos].isascii()
        ):
            self.pos += 1
        if self.pos == start:
            raise self.error(what)
        return self.spec[start : self.pos]

    def seconds(self, what: str) -> int:
        """``digits[.d{1,3}]`` as nanoseconds, at most ``MAX_PERIOD_NS``."""
        at = self.pos
        whole = int(self.digits(what))
        fraction = 0
        if self.peek() == ".":
            self.pos += 1
            start = self.pos
            text = self.digits(f"the decimals of {what}")
            if len(text) > 3:
                raise self.error("at most 3 decimals (milliseconds)", at=start + 3)
            fraction = int(text.ljust(3, "0")) * NS_PER_MS
        ns = whole * NS_PER_S + fraction
        if ns > MAX_PERIOD_NS:
            raise self.error(f"at most {_LIMIT_WORDS} for {what}", at=at)
        return ns

    def count(self, text: str, what: str, at: int) -> int:
        """A move or period count read from ``text`` (at ``at``), at most ``MAX_COUNT``."""
        value = int(text)
        if value > MAX_COUNT:
            raise self.error(f"at most {MAX_COUNT} for {what}", at=at)
        return value

    def integer(self, what: str) -> tuple[int, int]:
        start = self.pos
        text = self.digits(what)
        if self.peek() == ".":
            raise self.error(f"a whole number for {what}", at=start)
        return self.count(text, what, start), start

    def finish(self, after: str) -> None:
        if self.pos < self.end:
            raise self.error(f"the end of the field after {after}")


def _parse_field(spec: str, original: str, start: int, end: int, number: int) -> Phase | Overtime:
    p = _FieldParser(spec, original, start, end, number)
    if p.peek() == "c":  # Canadian byo-yomi: cN/S
        p.pos += 1
        block, at = p.integer("the number of moves of the Canadian period after 'c'")
        if block < 1:
            raise p.error("at least 1 move per Canadian period", at=at)
        if p.peek() != "/":
            raise p.error("'/' between the moves and the seconds of the Canadian period")
        p.pos += 1
        at = p.pos
        period_ns = p.seconds("the seconds of the Canadian period")
        if period_ns <= 0:
            raise p.error("a Canadian period of more than 0 s", at=at)
        p.finish("the Canadian period")
        return Overtime(OvertimeKind.CANADIAN, period_ns, periods=1, moves=block)
    first_at = p.pos
    first = p.digits("a number of seconds (or moves before '/', or byo-yomi periods before 'x')")
    has_fraction = False
    first_ns = int(first) * NS_PER_S
    if p.peek() == ".":
        p.pos = first_at
        first_ns = p.seconds("a number of seconds")
        has_fraction = True
    moves: int | None = None
    mark = p.peek()
    if mark in ("/", "x"):
        what = "moves in a period" if mark == "/" else "byo-yomi periods"
        if has_fraction:
            raise p.error(f"a whole number of {what}", at=first_at)
        count = p.count(first, f"the number of {what}", first_at)
        if count < 1:
            raise p.error(f"at least 1 for the number of {what}", at=first_at)
        p.pos += 1
        if mark == "x":
            at = p.pos
            period_ns = p.seconds("the seconds of each byo-yomi period after 'x'")
            if period_ns <= 0:
                raise p.error("a byo-yomi period of more than 0 s", at=at)
            p.finish("the byo-yomi periods")
            return Overtime(OvertimeKind.BYOYOMI, period_ns, periods=count)
        moves = count
        first_ns = p.seconds(f"the seconds for the {count} moves after '/'")
    elif mark not in ("", "+", "d", "b"):
        raise p.error("'/', 'x', '+', 'd', 'b' or the end of the field after the number")
    elif first_ns > MAX_PERIOD_NS:
        raise p.error(f"at most {_LIMIT_WORDS} for a number of seconds", at=first_at)
    bonus = Bonus.NONE
    bonus_ns = 0
    mark = p.peek()
    if mark:
        names = {"+": "the Fischer increment", "d": "the delay", "b": "the Bronstein delay"}
        if mark not in names:
            raise p.error("'+' (increment), 'd' (delay), 'b' (Bronstein) or the end of the field")
        bonus = {"+": Bonus.FISCHER, "d": Bonus.DELAY, "b": Bonus.BRONSTEIN}[mark]
        p.pos += 1
        bonus_ns = p.seconds(f"{names[mark]} in seconds after {mark!r}")
        p.finish(names[mark])
    return Phase(first_ns, moves, bonus, bonus_ns)


def parse_control(spec: str) -> TimeControl:
    """Read a time control (PGN TimeControl syntax with Wuzi's extensions, or a name of
    ``PRESETS``). Raises ``ControlSpecError`` naming the field and character at fault."""
    if not isinstance(spec, str):
        raise ControlSpecError(f"a time control is text such as '2700+30', not {spec!r}")
    return _parse(spec)


@functools.lru_cache(maxsize=256)
def _parse(spec: str) -> TimeControl:
    text = spec.strip()
    if len(text) > MAX_SPEC_CHARS:
        raise ControlSpecError(
            f"time control {text[:40]!r}…: {len(text)} characters; a time control is at most "
            f"{MAX_SPEC_CHARS} characters"
        )
    if not text:
        raise ControlSpecError(
            "the time control is empty: write e.g. '3600' (sudden death), '2700+30' "
            "(Fischer) or '40/5400:1800+30' (periods)"
        )
    text = PRESETS.get(text.lower(), text)
    if text == "?":
        raise ControlSpecError("time control '?': an unknown time control cannot run a clock")
    if text == "-":
        raise ControlSpecError("time control '-': a game without a time control needs no clock")
    if text.startswith("*"):
        raise ControlSpecError(
            f"time control {text!r}: the PGN sandclock ('*seconds') is not supported"
        )
    lowered = text.lower()  # 'D', 'B', 'X', 'C' are accepted too; positions are unchanged
    items: list[Phase | Overtime] = []
    start = 0
    number = 0
    while True:
        number += 1
        end = lowered.find(":", start)
        end = len(lowered) if end < 0 else end
        if end == start:
            where = "before" if number == 1 else f"after field {number - 1} and before"
            at = "the end" if end == len(lowered) else f"':' at character {end + 1}"
            raise ControlSpecError(f"time control {text!r}: field {number} is empty ({where} {at})")
        for i in range(start, end):
            if lowered[i].isspace():
                raise ControlSpecError(
                    f"time control {text!r}: field {number} {text[start:end]!r}: character "
                    f"{i + 1} {text[i]!r}: spaces are not allowed inside a time control"
                )
        items.append(_parse_field(lowered, text, start, end, number))
        if end == len(lowered):
            break
        start = end + 1
    phases: list[Phase] = []
    overtime: Overtime | None = None
    for number, item in enumerate(items, 1):
        if isinstance(item, Overtime):
            if number != len(items):
                raise ControlSpecError(
                    f"time control {text!r}: field {number} {str(item)!r}: byo-yomi must be "
                    "the last field"
                )
            overtime = item
        else:
            phases.append(item)
    if not phases:
        phases.append(Phase(0))  # byo-yomi alone: no main time
    return TimeControl(tuple(phases), overtime)
