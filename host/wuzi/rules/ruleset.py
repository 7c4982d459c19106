"""Rule sets and judging modes: the two settings every game is created with.

A rule set answers two questions the game asks after every stone: does this row win
for this colour (is six or more a five?), and are Black's forbidden moves judged? It is
parsed from the event configuration, e.g. ``renju``, ``no-forbidden:overline=white-only``,
``standard`` or ``freestyle``, and printed back in one canonical form so a record says
exactly which rules were played.

The mode says who ends a game on a five or a forbidden move: in ``claim`` mode (the
tournament default) the players must claim and announce, and the system only tells the
referee; in ``auto`` mode the game ends on its own.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from wuzi.rules.board import Colour
from wuzi.rules.errors import RulesError


class RuleSetError(RulesError):
    """A rule-set or mode setting that cannot be parsed; the message names the part."""


class Overline(enum.Enum):
    """Who wins with six or more in a row under the no-forbidden rule set."""

    BOTH = "both"
    WHITE_ONLY = "white-only"
    NONE = "none"


class Mode(enum.Enum):
    """Who ends the game on a five or a forbidden move."""

    CLAIM = "claim"  # the players claim and announce; the referee alone is told at once
    AUTO = "auto"  # the game ends by itself at the five or the forbidden move

    @classmethod
    def parse(cls, text: str) -> Mode:
        key = text.strip().lower()
        for mode in cls:
            if mode.value == key:
                return mode
        raise RuleSetError(f"mode must be 'claim' or 'auto', not {text!r}")


RENJU = "renju"
NO_FORBIDDEN = "no-forbidden"
STANDARD = "standard"
FREESTYLE = "freestyle"

# Other spellings organisers use for the same rule sets (the canonical name comes first).
_ALIASES = {
    RENJU: RENJU,
    "rif": RENJU,
    "chinese-2013": RENJU,
    NO_FORBIDDEN: NO_FORBIDDEN,
    STANDARD: STANDARD,
    "standard-gomoku": STANDARD,
    FREESTYLE: FREESTYLE,
    "free-style": FREESTYLE,
}

_DESCRIPTIONS = {
    RENJU: "renju (Chinese 2013 / RIF): Black's forbidden moves; "
    "Black wins with exactly five, White with five or more",
    STANDARD: "standard gomoku: exactly five wins for both, no forbidden moves",
    FREESTYLE: "freestyle: five or more wins for both, no forbidden moves",
}


@dataclass(frozen=True)
class RuleSet:
    """What wins and what is forbidden. Build one with ``parse`` or the class methods.

    ``name`` is the family (``renju``, ``no-forbidden``, ``standard``, ``freestyle``);
    ``overline`` is set only for ``no-forbidden``. ``str(rule_set)`` is the canonical
    form, which ``parse`` reads back to an equal value.
    """

    name: str
    forbidden: bool
    black_overline_wins: bool
    white_overline_wins: bool
    overline: Overline | None = None

    @classmethod
    def renju(cls) -> RuleSet:
        return cls(RENJU, forbidden=True, black_overline_wins=False, white_overline_wins=True)

    @classmethod
    def no_forbidden(cls, overline: Overline = Overline.BOTH) -> RuleSet:
        return cls(
            NO_FORBIDDEN,
            forbidden=False,
            black_overline_wins=overline is Overline.BOTH,
            white_overline_wins=overline is not Overline.NONE,
            overline=overline,
        )

    @classmethod
    def standard(cls) -> RuleSet:
        return cls(STANDARD, forbidden=False, black_overline_wins=False, white_overline_wins=False)

    @classmethod
    def freestyle(cls) -> RuleSet:
        return cls(FREESTYLE, forbidden=False, black_overline_wins=True, white_overline_wins=True)

    @classmethod
    def parse(cls, text: str) -> RuleSet:
        """Parse ``name`` or ``name:key=value,...`` (case and spaces around parts ignored).

        Only ``no-forbidden`` takes an option: ``overline=both|white-only|none`` (default
        ``both``). Every error names the part that is wrong and what was expected.
        """
        if not isinstance(text, str):
            raise RuleSetError(f"a rule set is text such as 'renju', not {type(text).__name__}")
        head, sep, tail = text.strip().partition(":")
        key = head.strip().lower()
        if not key:
            raise RuleSetError(f"rule set {text!r} is empty: expected one of {_known()}")
        family = _ALIASES.get(key)
        if family is None:
            raise RuleSetError(f"unknown rule set {head.strip()!r}: expected one of {_known()}")
        options = _parse_options(text, tail) if sep else {}
        if family != NO_FORBIDDEN:
            if options:
                raise RuleSetError(
                    f"rule set {family!r} takes no options, but {text!r} gives "
                    f"{', '.join(sorted(options))}"
                )
            return {RENJU: cls.renju, STANDARD: cls.standard, FREESTYLE: cls.freestyle}[family]()
        overline = Overline.BOTH
        for name, value in options.items():
            if name != "overline":
                raise RuleSetError(
                    f"rule set 'no-forbidden' has no option {name!r} (in {text!r}): "
                    "the only option is overline=both|white-only|none"
                )
            try:
                overline = Overline(value)
            except ValueError:
                raise RuleSetError(
                    f"overline must be both, white-only or none, not {value!r} (in {text!r})"
                ) from None
        return cls.no_forbidden(overline)

    def overline_wins(self, colour: Colour) -> bool:
        """Whether six or more in a row of ``colour`` counts as a five."""
        return self.black_overline_wins if colour is Colour.BLACK else self.white_overline_wins

    @property
    def description(self) -> str:
        """One line for a display or a score sheet."""
        if self.overline is None:
            return _DESCRIPTIONS[self.name]
        who = {
            Overline.BOTH: "six or more wins for both",
            Overline.WHITE_ONLY: "six or more wins for White only",
            Overline.NONE: "six or more wins for neither",
        }[self.overline]
        return f"no forbidden moves: five wins, {who}"

    def __str__(self) -> str:
        if self.overline is None:
            return self.name
        return f"{self.name}:overline={self.overline.value}"


def _known() -> str:
    return "renju, no-forbidden[:overline=both|white-only|none], standard, freestyle"


def _parse_options(text: str, tail: str) -> dict[str, str]:
    options: dict[str, str] = {}
    for raw in tail.split(","):
        part = raw.strip()
        name, eq, value = part.partition("=")
        name, value = name.strip().lower(), value.strip().lower()
        if not eq or not name or not value:
            raise RuleSetError(f"option {part!r} in {text!r} is not key=value")
        if name in options:
            raise RuleSetError(f"option {name!r} is given twice in {text!r}")
        options[name] = value
    return options
