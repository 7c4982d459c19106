"""Event settings: the format and everything fixed when an event is created.

``EventSettings.create`` fills in the regulations' defaults; docs/tournament.md has the
table of every default and the clause it comes from. In short: team matches score 2/1/0
game points at 45 minutes + 30 seconds a move (000 六(三)4); individual events 1/½/0 at 60
minutes (002 六(三)1); a Swiss ranks by points, then Buchholz, median Buchholz and wins
for single and two-game rounds alike (002 六(四)2: 对手分, 中间对手分, 胜局 — game points
are not in that list, so they are no default); a round robin by points, 小分 (Sonneborn-
Berger, or game points for multi-game rounds), wins and direct encounter (002 六(四)1);
rules renju with designated openings (000 六(三)2, 002 六(一)1).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from wuzi.clock.control import parse_control
from wuzi.clock.errors import ControlSpecError
from wuzi.rules.board import Colour
from wuzi.rules.errors import RulesError
from wuzi.rules.ruleset import RuleSet
from wuzi.tournament.entrants import Group
from wuzi.tournament.errors import SettingsError
from wuzi.tournament.groups import check_against_group, group_rules
from wuzi.tournament.names import EVENT_NAME_MAX, check_name
from wuzi.tournament.playoff import CAPTAINS_TIME_CONTROL
from wuzi.tournament.prizes import FINAL_2021_PRIZES_CNY
from wuzi.tournament.ratings import DEFAULT_K
from wuzi.tournament.results import MatchKind, Scoring
from wuzi.tournament.tiebreaks import Tiebreak

MAX_SWISS_ROUNDS = 9


class Format(enum.Enum):
    TEAM_KNOCKOUT_PLACEMENT = "team-knockout-placement"
    KNOCKOUT_PLACEMENT = "knockout-placement"
    SWISS = "swiss"
    ROUND_ROBIN = "round-robin"
    TEAM_SEMIFINAL = "team-semifinal"

    @property
    def is_knockout(self) -> bool:
        """Every match must have a winner (a tie goes to its playoff): the placement
        knockouts, and the semifinal, which is one knockout round with its own pairing
        (``semifinal``)."""
        return self in (
            Format.TEAM_KNOCKOUT_PLACEMENT,
            Format.KNOCKOUT_PLACEMENT,
            Format.TEAM_SEMIFINAL,
        )

    @property
    def team_only(self) -> bool:
        """The formats of the team championship, played in 3-board matches only."""
        return self in (Format.TEAM_KNOCKOUT_PLACEMENT, Format.TEAM_SEMIFINAL)

    @classmethod
    def parse(cls, text: str) -> Format:
        for fmt in cls:
            if fmt.value == text.strip().lower():
                return fmt
        raise SettingsError(
            f"unknown format {text!r}: expected one of {', '.join(f.value for f in cls)}"
        )


_SWISS_TIEBREAKS = (Tiebreak.BUCHHOLZ, Tiebreak.MEDIAN_BUCHHOLZ, Tiebreak.WINS)
_ROUND_ROBIN_TIEBREAKS = (Tiebreak.SONNEBORN_BERGER, Tiebreak.WINS, Tiebreak.DIRECT_ENCOUNTER)


@dataclass(frozen=True)
class EventSettings:
    """Everything fixed when the event is created (``wuzi tournament new``)."""

    format: Format
    name: str
    rounds: int  # Swiss: as set; others: 0 (follows from the field)
    match: MatchKind
    rules: str
    opening: str
    scoring: Scoring  # round points
    game_scoring: Scoring  # game points (小分)
    tiebreaks: tuple[Tiebreak, ...]
    time_control: str
    playoff_time_control: str
    double_round_robin: bool = False
    group: Group | None = None
    initial_colour: Colour = Colour.BLACK
    prizes: tuple[int, ...] = ()
    k_factor: float = DEFAULT_K

    def __post_init__(self) -> None:
        # the title of every export, page and screen: checked however the settings are made
        check_name("event name", self.name, max_length=EVENT_NAME_MAX, error=SettingsError)

    @property
    def team_event(self) -> bool:
        return self.match is MatchKind.TEAM

    @classmethod
    def create(
        cls,
        format: Format,
        *,
        name: str = "",
        rounds: int | None = None,
        match: MatchKind | None = None,
        rules: str | None = None,
        opening: str | None = None,
        scoring: Scoring | None = None,
        game_scoring: Scoring | None = None,
        tiebreaks: Sequence[Tiebreak] | None = None,
        time_control: str | None = None,
        playoff_time_control: str | None = None,
        double_round_robin: bool = False,
        group: Group | None = None,
        initial_colour: Colour = Colour.BLACK,
        prizes: Sequence[int] | None = None,
        k_factor: float = DEFAULT_K,
        allow: bool = False,
    ) -> EventSettings:
        """Settings with the regulations' defaults for whatever is not given; a ``group``'s
        own settings first (``groups``: the open group's two-game rounds, free opening and
        no forbidden moves). A setting that contradicts the group is refused unless
        ``allow``."""
        # before the strip below, which would quietly drop a trailing line break
        check_name(
            "event name", name, max_length=EVENT_NAME_MAX, allow_empty=True, error=SettingsError
        )
        team = format.team_only
        defaults = group_rules(group) if group is not None and not team else None
        if match is None:
            if team:
                match = MatchKind.TEAM
            else:
                match = defaults.match if defaults is not None else MatchKind.SINGLE
        team_match = match is MatchKind.TEAM
        if team and match is not MatchKind.TEAM:
            raise SettingsError(f"a {format.value} event plays team matches")
        if format is Format.KNOCKOUT_PLACEMENT and match is MatchKind.TEAM:
            raise SettingsError("use the format team-knockout-placement for team matches")
        if format is Format.SWISS:
            if rounds is None:
                raise SettingsError(f"a Swiss needs its number of rounds (1–{MAX_SWISS_ROUNDS})")
            if not 1 <= rounds <= MAX_SWISS_ROUNDS:
                raise SettingsError(
                    f"a Swiss has 1 to {MAX_SWISS_ROUNDS} rounds (the regulations), not {rounds}"
                )
        elif rounds is not None:
            raise SettingsError(
                f"the number of rounds of a {format.value} follows from the field; do not set it"
            )
        if double_round_robin and format is not Format.ROUND_ROBIN:
            raise SettingsError("a double round robin is a round-robin setting")
        try:
            rule_set = str(RuleSet.parse(rules or (defaults.rules if defaults else "renju")))
        except RulesError as exc:
            raise SettingsError(str(exc)) from None
        if opening is None:
            if defaults is not None and rules is None:
                opening = defaults.opening
            else:
                opening = "designated" if rule_set == "renju" else "free"
        if opening not in ("designated", "free"):
            raise SettingsError(f"opening must be designated or free, not {opening!r}")
        check_against_group(group, match, rule_set, opening, allow)
        multi = match is not MatchKind.SINGLE
        if scoring is None:  # round (match) points: 2/1/0 for team matches
            scoring = Scoring(2.0, 1.0, 0.0) if team_match else Scoring()
        if game_scoring is None:
            game_scoring = Scoring(2.0, 1.0, 0.0) if match is MatchKind.TEAM else Scoring()
        if tiebreaks is None:
            if format is Format.SWISS:
                # 002 六(四)2 for single and two-game rounds; a team Swiss is in neither
                # regulation: its matches are won on game points (000 六(二)), so they rank
                # first there
                tiebreaks = ((Tiebreak.GAME_POINTS,) if team_match else ()) + _SWISS_TIEBREAKS
            elif format is Format.ROUND_ROBIN:
                first = Tiebreak.GAME_POINTS if multi else Tiebreak.SONNEBORN_BERGER
                tiebreaks = (first, *_ROUND_ROBIN_TIEBREAKS[1:])
            else:
                tiebreaks = ()
        if time_control is None:
            time_control = "2700+30" if team_match else "3600"
        for label, tc in (
            ("time control", time_control),
            ("playoff time control", playoff_time_control),
        ):
            if tc is not None:
                _check_time_control(label, tc)
        if prizes is None:  # 000 九(三): the final's places 1-8; the semifinal has none
            prizes = FINAL_2021_PRIZES_CNY if format is Format.TEAM_KNOCKOUT_PLACEMENT else ()
        if any(p < 0 for p in prizes):
            raise SettingsError("prize money cannot be negative")
        if not 0 < k_factor <= 100:
            raise SettingsError(f"the K-factor must be above 0 and at most 100, not {k_factor}")
        return cls(
            format=format,
            name=name.strip() or f"Wuzi {format.value}",
            rounds=rounds or 0,
            match=match,
            rules=rule_set,
            opening=opening,
            scoring=scoring,
            game_scoring=game_scoring,
            tiebreaks=tuple(tiebreaks),
            time_control=time_control,
            playoff_time_control=playoff_time_control or CAPTAINS_TIME_CONTROL,
            double_round_robin=double_round_robin,
            group=group,
            initial_colour=initial_colour,
            prizes=tuple(prizes),
            k_factor=k_factor,
        )


def _check_time_control(label: str, text: str) -> None:
    """Checked by the clock's own parser, so an event accepts exactly what a table can run
    (PGN TimeControl and its byo-yomi, delay and Bronstein extensions)."""
    try:
        parse_control(text)
    except ControlSpecError as exc:
        message = str(exc)
        raise SettingsError(message if label == "time control" else f"{label}: {message}") from None
