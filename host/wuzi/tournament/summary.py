"""An event's settings in the words an organiser checks against the regulation.

``new`` prints this after creating the database: format, rounds, rules, opening, game
length, scoring, tie-breaks and prize places, one line each, with the clause a default
comes from — so a wrong setting (renju rules in the open group, single games where the
regulation has two) is seen on the day the event is made, not in round 3. Pure.
"""

from __future__ import annotations

from wuzi.clock.control import parse_control
from wuzi.clock.errors import ControlSpecError
from wuzi.tournament.entrants import Group
from wuzi.tournament.prizes import FINAL_2021_PRIZES_CNY, OPEN_2019_PRIZES_CNY
from wuzi.tournament.results import MatchKind
from wuzi.tournament.settings import EventSettings, Format

__all__ = ["settings_summary"]

_FORMATS = {
    Format.SWISS: "Swiss (积分编排制)",
    Format.ROUND_ROBIN: "round robin (循环制)",
    Format.KNOCKOUT_PLACEMENT: "placement knockout: every place decided",
    Format.TEAM_KNOCKOUT_PLACEMENT: "team placement knockout of 3-board matches: every place "
    "decided (000 六(三)1, 5)",
    Format.TEAM_SEMIFINAL: "the 2021 semifinal: public #k v pro #(9−k), 3 boards, one round "
    "(000 五(二), 六(二))",
}


_GROUP_LINES = {
    Group.MEN: "the men's group: men, and women rated 1600 or more (002 五(二))",
    Group.WOMEN: "the women's group (002 五(二))",
    Group.OPEN: "the open group: anyone (002 五(二))",
}


def _rules(rules: str) -> str:
    if rules == "renju":
        return "renju: Black's forbidden moves (the 2013 Chinese rules)"
    if rules.startswith("no-forbidden"):
        return "no forbidden moves (不执行禁手规则); five or more in a row wins"
    return rules


def _length(text: str) -> str:
    try:
        words = parse_control(text).describe()
    except ControlSpecError:  # checked when the settings were made; an old file's text
        words = text
    return f"{text}: {words} each, a flag loses"


def _rounds_line(s: EventSettings) -> str:
    if s.format is Format.SWISS:
        return f"{s.rounds} rounds (002 六(二): at most 9)"
    if s.format is Format.ROUND_ROBIN:
        return "every entrant meets every other" + (" twice" if s.double_round_robin else "")
    return "follow from the field"


def _match_line(s: EventSettings) -> str:
    if s.match is MatchKind.TWO_GAME:
        return (
            "two games a round, the first-named Black in game 1, colours swapped in game 2; "
            "the two together are the round's result; a flag while game 1 runs loses the "
            "round (002 六(一)2, 六(三)2)"
        )
    if s.match is MatchKind.TEAM:
        return "3 boards, board 1 the captain, board 3 a woman; more game points win"
    return "one game a round"


def _prizes_line(s: EventSettings) -> str:
    if s.format is Format.TEAM_SEMIFINAL:
        return (
            "none: the 8 winners qualify for the final (000 五(三)2); every player an "
            "electronic certificate (000 九(一))"
        )
    if s.format is Format.TEAM_KNOCKOUT_PLACEMENT:
        money = ", ".join(str(p) for p in s.prizes)
        clause = " (000 九(三))" if s.prizes == FINAL_2021_PRIZES_CNY else ""
        return f"1–{len(s.prizes) or 8}: {money} CNY and a certificate{clause}"
    line = "8, 10 or 12 by the entrants (002 八(一)); medals 1–3, certificates (八(二))"
    if s.prizes:
        line += f"; prize money {', '.join(str(p) for p in s.prizes)} CNY"
    elif s.group is Group.OPEN:
        line += "; no prize money (八(三), 八(四)); no titles (八(五))"
    elif s.group in (Group.MEN, Group.WOMEN):
        money = ", ".join(str(p) for p in OPEN_2019_PRIZES_CNY)
        line += f"; prize money {money} CNY (八(三))"
    return line


def _tiebreaks_line(s: EventSettings) -> str:
    if s.format.is_knockout:
        return "none: every match has a winner"
    order = ", ".join(f"{t.title} ({t.chinese})" for t in s.tiebreaks) or "none"
    return f"points, then {order}; still level on a prize place: a playoff (002 六(四))"


def _playoffs_line(s: EventSettings) -> str:
    if s.match is MatchKind.TEAM:
        return (
            f"a tied match: the captains' playoff at {s.playoff_time_control}, repeated "
            "until one game is decisive (000 六(二))"
        )
    return (
        f"two games at {s.playoff_time_control} (colours swapped), then single games at "
        "180+2 until one is decisive; three or more level: every pair (002 六(四)3)"
    )


def settings_summary(s: EventSettings) -> list[str]:
    """``label  text`` lines of the event's settings (module docstring)."""
    rows = [
        ("event", s.name),
        ("format", _FORMATS[s.format]),
        ("rounds", _rounds_line(s)),
        ("group", _GROUP_LINES[s.group] if s.group is not None else "none"),
        ("rules", _rules(s.rules)),
        (
            "opening",
            "designated openings (指定开局): `draw opening` each round"
            if s.opening == "designated"
            else "free opening (自由开局)",
        ),
        ("pairings", _match_line(s)),
        ("game length", _length(s.time_control)),
        ("scoring", f"{s.scoring} a round (win/draw/loss); game points {s.game_scoring}"),
        ("tie-breaks", _tiebreaks_line(s)),
        ("playoffs", _playoffs_line(s)),
        ("prize places", _prizes_line(s)),
    ]
    width = max(len(label) for label, _ in rows)
    return [f"  {label:<{width}}  {text}" for label, text in rows]
