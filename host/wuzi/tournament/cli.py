"""``wuzi tournament …``: the organisers' tool.

Contracts (kept exactly; docs/tournament.md has examples):

* ``wuzi tournament --db FILE SUBCOMMAND`` with ``new``, ``add-team``, ``add-player``,
  ``import FILE.csv``, ``pair`` (the next round; ``--json``), ``result``, ``standings``
  (``--json``: places, points and every tie-break value), ``export trf|csv|html|games|
  rating-list|rating-csv|certificates`` (``cli_export``, ``cli_awards``), ``titles``,
  ``awards`` (``cli_awards``), and also ``withdraw``,
  ``playoff``, ``ratings`` and ``log``. ``--db`` may also follow the subcommand.
* ``wuzi tournament simulate --format F --entrants N [--rounds R] --seed S --json``: a
  whole rehearsal event, ``{"rounds": [...], "standings": [...]}`` (shapes in
  ``simulate``).
* ``wuzi tournament preliminary GAMES.csv --teams TEAMS.csv [--group G] [--seed S]``: the
  online preliminary's team ranking, its lots by seed; ``new --format team-semifinal
  --entrants-from-preliminary PUBLIC.json --entrants-from-preliminary PRO.json --rosters
  TEAMS.csv``: the semifinal from both groups' exports (``cli_handoff``).
* ``new --group men|women|open [--allow]``: the group's settings (``groups``), a summary in
  words (``summary``); ``pair --show ROUND`` a reprint (``pairing_sheet``); ``result R M
  --playoff G,…`` a level match's playoff; ``playoff A B G,… [--correct]``.
* ``wuzi tournament direct-qualifiers --men MEN.csv --women WOMEN.csv [--places 8]``: the
  final's direct places; ``new --format team-knockout-placement --entrants-from SEMI
  --direct TEAMS.csv``: the final's 16 from the semifinal and the direct places, the
  bracket drawn by lot (``cli_final``). ``new --format team-semifinal`` and ``import``
  with the columns ``group`` and ``seed``: the semifinal (``semifinal``).

Every subcommand has ``--help``. Bad input exits 1 with a message naming what is wrong,
and leaves the database exactly as it was (each command is one SQLite transaction). Names
hold no control, line-break or invisible format characters (``names``); a CSV file is
UTF-8 with known columns (``csvfile``, ``importer``; ``import --ignore-unknown-columns``
skips unknown ones); what this command prints of text it did not check (the log of an
older database, a file name) has such characters escaped.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from collections.abc import Callable
from typing import Any

from wuzi.base.numbers import NumberError, parse_int
from wuzi.base.text import escape_controls
from wuzi.rules.board import Colour
from wuzi.tournament.entrants import Group, Player, Sex, Team
from wuzi.tournament.errors import (
    CsvError,
    CsvFileError,
    SettingsError,
    StoreError,
    TournamentError,
)
from wuzi.tournament.event import Competition, EventSettings, Format
from wuzi.tournament.names import REASON_MAX, check_name
from wuzi.tournament.results import GameResult, MatchKind, RoundResult, Scoring
from wuzi.tournament.tiebreaks import Tiebreak, parse_order

Handler = Callable[[argparse.Namespace], int]


def _out(text: str) -> None:
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    sys.stdout.flush()


def _json(data: Any) -> None:
    _out(json.dumps(data, ensure_ascii=False, indent=2))


def _store(args: argparse.Namespace) -> Any:
    from wuzi.tournament.store import TournamentStore

    if not getattr(args, "db", None):
        raise StoreError(
            f"'{args.tournament_command}' needs the database: wuzi tournament --db FILE …"
        )
    return TournamentStore(args.db)


def _command_text(args: argparse.Namespace) -> str:
    """The command as recorded in the database's log."""
    parts = [str(args.tournament_command)]
    for key, value in sorted(vars(args).items()):
        if key in ("func", "db", "command", "tournament_command") or value in (None, False, [], ""):
            continue
        parts.append(f"--{key.replace('_', '-')}" + ("" if value is True else f"={value}"))
    return escape_controls(" ".join(parts))


def _guard(name: str, handler: Handler) -> Handler:
    def run(args: argparse.Namespace) -> int:
        try:
            return handler(args)
        except TournamentError as exc:
            print(f"wuzi tournament {name}: {exc}", file=sys.stderr)
            return 1
        except sqlite3.Error as exc:
            print(f"wuzi tournament {name}: database error: {exc}", file=sys.stderr)
            return 1
        except OSError as exc:
            print(f"wuzi tournament {name}: {exc}", file=sys.stderr)
            return 1

    return run


# -- handlers ---------------------------------------------------------------------------


def _new(args: argparse.Namespace) -> int:
    settings = EventSettings.create(
        Format.parse(args.format),
        name=args.name or "",
        rounds=args.rounds,
        match=MatchKind.parse(args.match) if args.match else None,
        rules=args.rules,
        opening=args.opening,
        scoring=Scoring.parse(args.scoring) if args.scoring else None,
        game_scoring=Scoring.parse(args.game_scoring) if args.game_scoring else None,
        tiebreaks=parse_order(args.tiebreaks) if args.tiebreaks is not None else None,
        time_control=args.time_control,
        playoff_time_control=args.playoff_time_control,
        double_round_robin=args.double,
        group=Group.parse(args.group) if args.group else None,
        initial_colour=Colour.parse(args.first_colour),
        prizes=_prizes(args.prizes) if args.prizes is not None else None,
        k_factor=args.k,
        allow=args.allow,
    )
    from wuzi.tournament.cli_final import final_from_sources, wants_sources

    final = None
    if args.entrants_from_preliminary or args.rosters or args.registration_window:
        from wuzi.tournament.cli_handoff import semifinal_from_preliminary

        final = semifinal_from_preliminary(args, settings)
    elif wants_sources(args):  # every file read and checked before the database is made
        final = final_from_sources(args, settings)
    if final is None:
        _store(args).create(settings, _command_text(args))
    else:
        command = _command_text(args) + final.log_note
        _store(args).create(settings, command, final.competition, final.record)
    tbs = ", ".join(t.value for t in settings.tiebreaks) or "none"
    _out(
        f"created {args.db}: {settings.name} ({settings.format.value}, {settings.match.value} "
        f"pairings, rules {settings.rules}, time control {settings.time_control}, "
        f"scoring {settings.scoring}, game points {settings.game_scoring}, tie-breaks {tbs})"
    )
    from wuzi.tournament.summary import settings_summary

    for line in settings_summary(settings):
        _out(line)
    for line in final.lines if final is not None else []:
        _out(line)
    return 0


def _prizes(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(p) for p in text.split(",") if p.strip())
    except ValueError:
        raise SettingsError(f"--prizes {text!r}: give whole amounts separated by commas") from None


def _add_player(args: argparse.Namespace) -> int:
    player = Player(args.id or args.name, args.name, Sex.parse(args.sex), args.rating, args.club)
    comp = _store(args).update(lambda c: c.add_player(player, args.seed), _command_text(args))
    e = comp.entrants[-1]
    late = f", from round {e.joined_round}" if e.joined_round > 1 else ""
    _out(f"added {player.label}: {player.sex.value}, rating {player.rating}{late}")
    return 0


def _team_player(spec: str, board: int) -> Player:
    parts = [p.strip() for p in spec.split(",")]
    if len(parts) not in (3, 4):
        raise SettingsError(
            f"--player {spec!r} (board {board}): expected NAME,SEX,RATING or NAME,SEX,RATING,ID"
        )
    try:
        rating = parse_int(parts[2], "rating", 0, 4000)
    except NumberError as exc:
        raise SettingsError(f"--player {spec!r} (board {board}): rating {exc}") from None
    try:
        return Player(
            parts[3] if len(parts) == 4 else parts[0], parts[0], Sex.parse(parts[1]), rating
        )
    except TournamentError as exc:
        raise SettingsError(f"--player {spec!r} (board {board}): {exc}") from None


def _add_team(args: argparse.Namespace) -> int:
    from wuzi.tournament.semifinal import PreliminaryGroup, sheet_seed

    specs = args.player or []
    if len(specs) != 3:
        raise SettingsError(
            f"a team has exactly 3 players in board order (--player three times), not {len(specs)}"
        )
    players = tuple(_team_player(spec, board) for board, spec in enumerate(specs, start=1))
    team = Team(args.id or args.name, args.name, players, args.leader, args.coach, args.club)
    seed = args.seed
    if args.group is not None:
        if seed is None:
            raise SettingsError("--group goes with --seed K, the team's place in that group")
        seed = sheet_seed(PreliminaryGroup.parse(args.group), seed)

    def change(comp: Competition) -> Competition:
        if args.group is not None and comp.settings.format is not Format.TEAM_SEMIFINAL:
            raise SettingsError("--group (public or pro) is for a team-semifinal's teams")
        return comp.add_team(team, seed)

    _store(args).update(change, _command_text(args))
    boards = ", ".join(f"{i}: {p.name}" for i, p in enumerate(players, start=1))
    _out(f"added team {team.name} ({boards})")
    return 0


def _import(args: argparse.Namespace) -> int:
    from wuzi.tournament.csvfile import csv_lines, read_csv
    from wuzi.tournament.importer import WHAT, import_entrants

    try:
        text = read_csv(args.file, WHAT)  # before the database is opened: nothing changes
        ignore = args.ignore_unknown_columns
        window = _window(args)
        before = len(_store(args).load().entrants)
        comp = _store(args).update(
            lambda c: import_entrants(
                c, csv_lines(text), ignore_unknown_columns=ignore, registration=window
            ),
            _command_text(args),
        )
    except CsvFileError:
        raise  # names the file already
    except CsvError as exc:  # name the file: an organiser imports several
        raise CsvError(f"{escape_controls(str(args.file))}: {exc}") from None
    _out(f"imported {len(comp.entrants) - before} entrants from {args.file}")
    return 0


def _window(args: argparse.Namespace) -> Any:
    """``--registration-window FROM..UNTIL`` as a ``registration.Window`` (or None)."""
    from wuzi.tournament.registration import parse_window

    text = getattr(args, "registration_window", None)
    return parse_window(text) if text else None


def _withdraw(args: argparse.Namespace) -> int:
    comp = _store(args).update(
        lambda c: c.withdraw(args.entrant, args.from_round), _command_text(args)
    )
    e = comp.entrant(args.entrant)
    _out(f"{e.name} withdrawn from round {e.withdrawn_round} on")
    return 0


def _fixed(specs: list[str]) -> list[tuple[str, str | None]]:
    fixed: list[tuple[str, str | None]] = []
    for spec in specs:
        black, sep, white = spec.partition(":")
        if not sep or not black.strip() or not white.strip():
            raise SettingsError(f"--fix {spec!r}: expected BLACK:WHITE, or ENTRANT:bye")
        fixed.append(
            (black.strip(), None if white.strip().lower() in ("bye", "-") else white.strip())
        )
    return fixed


def _show_round(args: argparse.Namespace) -> int:
    """``pair --show ROUND``: reprint a paired round, changing nothing (not even the log)."""
    from pathlib import Path

    from wuzi.tournament.pairing_sheet import round_sheet
    from wuzi.tournament.report import pairing_json

    if args.fix or args.reason or args.replace:
        raise SettingsError("--show reprints a round; it takes no --fix, --reason or --replace")
    if args.json and args.sheet is not None:
        raise SettingsError(f"--json or --format {args.sheet}: give one")
    comp = _store(args).load()
    text = round_sheet(comp, args.show, args.sheet or "text")
    if args.json:
        text = json.dumps(pairing_json(comp, comp.rounds[args.show - 1]), ensure_ascii=False,
                          indent=2)  # fmt: skip
    if args.output:
        Path(args.output).write_text(text if text.endswith("\n") else text + "\n", "utf-8")
        print(f"wrote {args.output}", file=sys.stderr)
    else:
        _out(text)
    return 0


def _pair(args: argparse.Namespace) -> int:
    from wuzi.tournament.report import pairing_json, pairing_text

    if args.show is not None:
        return _show_round(args)
    if args.sheet is not None or args.output:
        raise SettingsError("--format and --output go with --show ROUND (a reprint)")
    fixed = _fixed(args.fix or [])
    if args.reason and not fixed:
        raise SettingsError("--reason goes with --fix (a pairing made by hand)")
    if args.reason is not None:
        check_name("--reason", args.reason, max_length=REASON_MAX, error=SettingsError)

    def change(comp: Competition) -> Competition:
        if args.replace:
            comp = comp.unpair_last()
        return comp.pair(fixed, args.reason)

    comp = _store(args).update(change, _command_text(args))
    rnd = comp.rounds[-1]
    problems = _manual_problems(comp) if fixed else []
    for problem in problems:
        print(
            f"wuzi tournament pair: note: the pairing by hand sets aside a rule: {problem}",
            file=sys.stderr,
        )
    if args.json:
        data = pairing_json(comp, rnd)
        if fixed:
            data["rules_set_aside"] = problems
        _json(data)
    else:
        _out(pairing_text(comp, rnd))
    return 0


def _manual_problems(comp: Competition) -> list[str]:
    from wuzi.tournament.swiss import SwissEntrant, check_swiss_round

    if comp.settings.format is not Format.SWISS:
        return []
    rnd = comp.rounds[-1]
    before = Competition(comp.settings, comp.entrants, comp.rounds[:-1])
    histories = before.histories()
    points = {e: sum(r.points for r in entries) for e, entries in histories.items()}
    active = [
        SwissEntrant(e.id, e.rating, e.order) for e in comp.entrants if e.active_in(rnd.number)
    ]
    return check_swiss_round(
        rnd.number, active, histories, points, rnd.pairings, comp.pairing_numbers()
    )


def _result(args: argparse.Namespace) -> int:
    from wuzi.tournament.report import result_text

    def change(comp: Competition) -> Competition:
        playoff = [GameResult.parse(g) for g in args.playoff.split(",")] if args.playoff else []
        if args.result is None:  # the playoff of a match entered as level
            if not playoff:
                raise SettingsError("give the result, or --playoff G,G,… for a level match")
            return comp.set_playoff(args.round, args.board, playoff, args.correct)
        result = RoundResult.parse(args.result, comp.settings.match)
        return comp.set_result(
            args.round, args.board, result, playoff, args.correct, decisive=bool(playoff)
        )

    comp = _store(args).update(change, _command_text(args))
    rnd = comp.rounds[args.round - 1]
    _out(f"round {args.round} board {args.board}: {result_text(comp, rnd, rnd.board(args.board))}")
    return 0


def _playoff(args: argparse.Namespace) -> int:
    games = [GameResult.parse(g) for g in args.games.split(",") if g.strip()]
    store = _store(args)
    command = _command_text(args)
    if args.correct:  # the log keeps what the correction replaced
        before = store.load()
        a, b = before.entrant(args.first).id, before.entrant(args.second).id
        for t in before.tie_playoffs:
            if {t.first, t.second} == {a, b}:
                games_in = ",".join(g.value for g in t.games)
                command += f" (replaces {t.first} v {t.second} {games_in})"
    comp = store.update(
        lambda c: c.add_tie_playoff(args.first, args.second, games, args.correct), command
    )
    record = comp.tie_playoffs[-1]
    winner = record.winner()
    assert winner is not None
    _out(
        f"playoff {comp.entrant(record.first).name} v {comp.entrant(record.second).name}: "
        f"won by {comp.entrant(winner).name}"
    )
    owed = comp.standings().playoffs_owed
    for place, first, second in owed:
        _out(
            f"still owed for place {place}: {comp.entrant(first).name} v "
            f"{comp.entrant(second).name}"
        )
    return 0


def _standings(args: argparse.Namespace) -> int:
    from wuzi.tournament.report import standings_json, standings_text

    comp = _store(args).load()
    if args.json:
        _json(standings_json(comp))
    else:
        _out(standings_text(comp))
    return 0


def _export(args: argparse.Namespace) -> int:
    from wuzi.tournament.cli_export import export_command

    return export_command(args, _store(args).load())


def _awards(args: argparse.Namespace) -> int:
    from wuzi.tournament.cli_awards import awards_command

    return awards_command(args, _store(args).load())


def _titles(args: argparse.Namespace) -> int:
    from wuzi.tournament.cli_export import titles_command

    return titles_command(args, _store(args).load())


def _ratings(args: argparse.Namespace) -> int:
    from wuzi.tournament.ratings import rating_changes, updated_ratings

    comp = _store(args).load()
    k = args.k if args.k is not None else comp.settings.k_factor
    before = comp.player_ratings()
    games = comp.rated_games()
    changes = rating_changes(before, games, k)
    after = updated_ratings(before, games, k)
    names: dict[str, str] = {}
    for e in comp.entrants:
        if e.team is not None:
            names.update((p.id, p.name) for p in e.team.players)
        else:
            names[e.id] = e.name
    rows = [
        {
            "id": pid,
            "name": names[pid],
            "before": int(before[pid]),
            "change": round(changes[pid], 2),
            "after": after[pid],
        }
        for pid in sorted(before, key=lambda p: (-after[p], p))
    ]
    if args.json:
        _json({"k": k, "games": len(games), "ratings": rows})
    else:
        _out(f"Elo, K = {k:g}, {len(games)} rated games (playoffs, byes and forfeits not rated)")
        for r in rows:
            _out(f"  {r['name']:<24} {r['before']:>5} {r['change']:>+8.2f} {r['after']:>5}")
    return 0


def _log(args: argparse.Namespace) -> int:
    for number, command in enumerate(_store(args).log(), start=1):
        _out(f"{number:4d}  {escape_controls(command)}")  # an older wuzi logged names unchecked
    return 0


def _direct_qualifiers(args: argparse.Namespace) -> int:
    from wuzi.tournament.cli_final import direct_qualifiers_command

    return direct_qualifiers_command(args)


def _simulate(args: argparse.Namespace) -> int:
    from wuzi.tournament.simulate import simulate

    data = simulate(args.format, args.entrants, args.rounds, args.seed)
    if args.json:
        _out(json.dumps(data, ensure_ascii=False))
        return 0
    key = "team" if args.format == Format.TEAM_KNOCKOUT_PLACEMENT.value else "player"
    _out(
        f"{args.format}, {args.entrants} entrants, {len(data['rounds'])} rounds (seed {args.seed})"
    )
    for row in data["standings"]:
        extra = f"  {row['points']}" if "points" in row else ""
        _out(f"{row['place']:4d}  {row[key]}{extra}")
    return 0


def _preliminary(args: argparse.Namespace) -> int:
    from wuzi.tournament.csvfile import csv_lines, read_csv
    from wuzi.tournament.preliminary import (
        LEVELS,
        parse_games,
        parse_teams,
        rank_teams,
        score_teams,
    )

    games = parse_games(csv_lines(read_csv(args.games, "games CSV")))
    teams = parse_teams(csv_lines(read_csv(args.teams, "teams CSV")))
    scoring = Scoring.parse(args.scoring)
    from wuzi.tournament.semifinal import PreliminaryGroup

    group = PreliminaryGroup.parse(args.group)
    seed = args.seed
    if seed is None:  # as `draw` draws a seed: fresh, 9 digits, printed
        import secrets

        from wuzi.tournament.draw_cli import NEW_SEED_BELOW

        seed = secrets.randbelow(NEW_SEED_BELOW)
    places = rank_teams(score_teams(teams, games, scoring), args.qualify, seed)
    lots = [p for p in places if p.by_lot]
    counted = sum(1 for g in games if g.counts)
    if args.json:
        _json(
            {
                "games": len(games),
                "counted": counted,
                "levels": list(LEVELS),
                "group": group.value,
                "seed": seed,
                "lots": [{"place": p.place, "team": p.score.team} for p in lots],
                "ranking": [
                    {
                        "place": p.place,
                        "team": p.score.team,
                        "levels": list(p.score.levels()),
                        "members": [
                            {"player": m.player, "points": m.points, "games": m.games}
                            for m in p.score.members
                        ],
                        "shared": p.shared,
                        "by_lot": p.by_lot,
                        "qualifies": p.place <= args.qualify,
                    }
                    for p in places
                ],
            }
        )
        return 0
    _out(f"{counted} of {len(games)} games count (at least 2 minutes and 10 moves)")
    _out(f"{'Place':>6}  {'Team':<20} {'Pts':>5} {'Games':>5}  lowest/fewest/2nd lowest/2nd fewest")
    for p in places:
        pts, gms, low, few, low2, few2 = p.score.levels()
        mark = " (lots)" if p.by_lot else ""
        label = f"{p.place}=" if p.shared else str(p.place)
        levels = f"{low:g}/{few}/{low2:g}/{few2}"
        _out(f"{label:>6}  {p.score.team:<20} {pts:>5g} {gms:>5}  {levels}{mark}")
    _out(f"Levels: {'; '.join(LEVELS)}; then lots for a qualifying place (000 六(一)1(6)).")
    if lots:
        order = ", ".join(f"{p.place} {p.score.team}" for p in lots)
        _out(f"Lots drawn: seed {seed} (the same --seed draws them again): {order}")
    return 0


# -- parser -----------------------------------------------------------------------------


def _sub(
    sub: Any, name: str, handler: Handler, help: str, description: str
) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(name, help=help, description=description)
    p.add_argument(
        "--db", metavar="FILE", default=argparse.SUPPRESS, help="the tournament database"
    )
    p.set_defaults(func=_guard(name, handler))
    return p


def register(subparsers: Any) -> None:
    formats = [f.value for f in Format]
    t = subparsers.add_parser(
        "tournament",
        help="the competition: entrants, pairings, results, standings, exports, rehearsals",
        description="The organisers' tool. Every subcommand but simulate and preliminary works "
        "on one event's SQLite database (--db FILE); a failed command changes nothing.",
    )
    t.add_argument("--db", metavar="FILE", help="the tournament database (SQLite)")
    sub = t.add_subparsers(dest="tournament_command", metavar="SUBCOMMAND", required=True)

    p = _sub(
        sub,
        "new",
        _new,
        "create the database of a new event",
        "Create FILE for a new event. Defaults follow the regulations where they say "
        "(docs/tournament.md lists each default with its clause, or says that none "
        "gives it): time control 2700+30 for team matches (000 六(三)4), 3600 for "
        "individual events (002 六(三)1); game points 2/1/0 in team matches, else "
        "1/0.5/0; Swiss tie-breaks buchholz,median_buchholz,wins for single and two-game "
        "rounds (002 六(四)2), game_points first for team rounds (no regulation has a "
        "team Swiss); round robin sonneborn_berger,wins,direct_encounter, game_points "
        "instead of sonneborn_berger for two-game and team rounds (002 六(四)1: 小分, "
        "胜局, 直胜). team-semifinal: the 2021 semifinal, public #k v pro #(9-k) (000 "
        "五(二)); its teams by import with the columns group and seed. "
        "team-knockout-placement with --entrants-from and --direct: the final's 16 teams, "
        "the bracket drawn by lot.",
    )
    p.add_argument("--format", required=True, choices=formats, help="the competition format")
    p.add_argument("--name", help="the event's name")
    p.add_argument("--rounds", type=int, help="Swiss only: the number of rounds (1–9)")
    p.add_argument(
        "--match",
        choices=[k.value for k in MatchKind],
        help="single games, two-game rounds (open group) or 3-board team matches",
    )
    p.add_argument("--rules", help="rule set: renju (default), no-forbidden, standard, freestyle")
    p.add_argument("--opening", choices=("designated", "free"), help="opening procedure")
    p.add_argument("--scoring", help="round points WIN/DRAW/LOSS, e.g. 1/0.5/0 or 2/1/0")
    p.add_argument("--game-scoring", help="game points (小分) WIN/DRAW/LOSS, e.g. 2/1/0")
    p.add_argument(
        "--tiebreaks",
        help="tie-break order, comma-separated: "
        + ", ".join(t.value for t in Tiebreak)
        + " (or none)",
    )
    p.add_argument("--time-control", help="PGN TimeControl, e.g. 3600 or 2700+30")
    p.add_argument("--playoff-time-control", help="captains' playoff time control (default 300+3)")
    p.add_argument("--double", action="store_true", help="round robin: double round robin")
    p.add_argument(
        "--group",
        choices=[g.value for g in Group],
        help="the 2019 open's group: its eligibility and its settings (men, women: renju, "
        "designated openings, single games; open: free opening, no forbidden moves, "
        "two-game rounds; all 3600 sudden death; 002 六(一), 六(三))",
    )
    p.add_argument(
        "--allow",
        action="store_true",
        help="accept a setting that contradicts the group or the rules (renju rules in the "
        "open group, a free opening with renju): a venue's own variant",
    )
    p.add_argument(
        "--first-colour", default="black", help="round 1: the colour of board 1's higher seed"
    )
    p.add_argument(
        "--prizes", help="prize money by place, comma-separated (team final default: 30000,18000,…)"
    )
    p.add_argument("--k", type=float, default=20.0, help="Elo K-factor (default 20)")
    p.add_argument(
        "--entrants-from-preliminary",
        action="append",
        metavar="EXPORT.json",
        help="the semifinal: a group's preliminary export (preliminary … --group G --json); "
        "twice, public and pro; its top 8 enter in their ranking, with --rosters",
    )
    p.add_argument(
        "--rosters",
        metavar="TEAMS.csv",
        help="the semifinal: the teams' entry forms (the import's team columns, club = the "
        "unit), for --entrants-from-preliminary",
    )
    p.add_argument(
        "--registration-window",
        metavar="FROM..UNTIL",
        help="with --rosters: every qualifier's form registered in this window (000 十(二))",
    )
    p.add_argument(
        "--entrants-from",
        metavar="SEMI.sqlite",
        help="the final: the winners of this finished team-semifinal database",
    )
    p.add_argument(
        "--direct",
        metavar="TEAMS.csv",
        help="the final: the 8 direct places' teams, the import's team columns (club = unit)",
    )
    p.add_argument(
        "--direct-units",
        metavar="UNITS.csv",
        help="the final: the units direct-qualifiers printed; every --direct team must be "
        "of one, one team each",
    )
    p.add_argument(
        "--draw-seed",
        type=int,
        metavar="S",
        help="the final: the seed of the bracket's lot (default: a fresh random one); "
        "printed and logged",
    )
    p.add_argument(
        "--by",
        metavar="NAME",
        help="the final: who asked for the bracket's draw, recorded with it (default: the "
        "organisers)",
    )

    p = _sub(
        sub,
        "add-player",
        _add_player,
        "enter a player",
        "Enter a player in an individual event (in a Swiss after round 1: a late entry "
        "from the next round).",
    )
    p.add_argument("name", help="the player's name")
    p.add_argument("--sex", required=True, help="m or f")
    p.add_argument("--rating", type=int, default=0, help="rating (default 0)")
    p.add_argument("--id", help="the player's ID (default: the name)")
    p.add_argument("--club", default="", help="club or team")
    p.add_argument("--seed", type=int, help="seed / pairing number for knockouts and round robins")

    p = _sub(
        sub,
        "add-team",
        _add_team,
        "enter a team of three in board order",
        "Enter a team: --player three times, board 1 (the captain) first, board 3 a woman. "
        "Each is NAME,SEX,RATING or NAME,SEX,RATING,ID.",
    )
    p.add_argument("name", help="the team's name")
    p.add_argument(
        "--player", action="append", metavar="NAME,SEX,RATING[,ID]", help="a board, in order"
    )
    p.add_argument("--id", help="the team's ID (default: the name)")
    p.add_argument("--seed", type=int, help="the team's seed (1 = top)")
    p.add_argument("--leader", default="", help="team leader (领队)")
    p.add_argument("--coach", default="", help="coach (教练)")
    p.add_argument("--club", default="", help="city, club or unit")
    p.add_argument(
        "--group",
        help="team-semifinal only: the preliminary group, public or pro (--seed is the "
        "team's place in it)",
    )

    p = _sub(
        sub,
        "import",
        _import,
        "enter players or teams from a CSV file",
        "Enter every entrant of a CSV file (UTF-8; header row; individual: name,sex[,rating,"
        "id,club,seed]; teams: team,board,name,sex[,rating,id,club,seed,leader,coach,"
        "registered], one row per board). Another column is an error unless "
        "--ignore-unknown-columns. Names hold no control or invisible format characters. "
        "All or nothing; errors name the line and column.",
    )
    p.add_argument("file", metavar="FILE.csv")
    p.add_argument(
        "--registration-window",
        metavar="FROM..UNTIL",
        help="teams: every team's registered date (column registered, YYYY-MM-DD) must be "
        "in this window, e.g. 2021-12-29..2022-01-01 (000 十(二), 十(三))",
    )
    p.add_argument(
        "--ignore-unknown-columns",
        action="store_true",
        help="import the file without the columns this event does not know (default: an "
        "unknown column, e.g. a misspelt 'ratng', is an error)",
    )

    p = _sub(
        sub,
        "withdraw",
        _withdraw,
        "take an entrant out of a Swiss",
        "Withdraw an entrant: not paired from --from-round on (default the next round).",
    )
    p.add_argument("entrant", help="ID or name")
    p.add_argument("--from-round", type=int, help="the first round without the entrant")

    p = _sub(
        sub,
        "pair",
        _pair,
        "pair the next round",
        "Pair the next round and print it. Swiss: --fix BLACK:WHITE (or ENTRANT:bye) fixes "
        "pairings by hand, with --reason for the record; the rest is paired around them. "
        "--show ROUND prints a round already paired again (text, --json, --format html or "
        "csv) and changes nothing.",
    )
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--fix", action="append", metavar="BLACK:WHITE", help="a pairing made by hand")
    p.add_argument("--reason", help="why the pairing is made by hand (required with --fix)")
    p.add_argument(
        "--replace",
        action="store_true",
        help="re-pair the last round (only while it has no results)",
    )
    p.add_argument(
        "--show",
        type=int,
        metavar="ROUND",
        help="reprint round ROUND as it was paired (a lost sheet), changing nothing",
    )
    p.add_argument(
        "--format",
        dest="sheet",
        choices=("text", "html", "csv"),
        help="with --show: text (default), html (a page to print) or csv (one row a game)",
    )
    p.add_argument("--output", metavar="FILE", help="with --show: write to FILE")

    p = _sub(
        sub,
        "result",
        _result,
        "enter the result of a board or match",
        "Enter a result: one game result per game, comma-separated, each in that game's "
        "colours: black, white, draw (1-0, 0-1, ½-½), black-by-forfeit (+-), "
        "white-by-forfeit (-+), double-forfeit (--). A team match gives boards 1,2,3; a "
        "two-game round games 1,2 (or flag:black / flag:white for a flag in game 1). "
        "--playoff adds a knockout tie's playoff games, which must decide it; "
        "result R M --playoff G,G,… adds them to a match already entered as level (3-3).",
    )
    p.add_argument("round", type=int, help="round number")
    p.add_argument("board", type=int, help="board (or match) number")
    p.add_argument(
        "result",
        nargs="?",
        help="e.g. black, or black,white,draw (left out with --playoff: the playoff of a "
        "match already entered as level)",
    )
    p.add_argument("--playoff", help="playoff games in order, e.g. draw,white")
    p.add_argument("--correct", action="store_true", help="replace a result already entered")

    p = _sub(
        sub,
        "playoff",
        _playoff,
        "enter a playoff for a tied prize place",
        "Enter the playoff between two entrants level on a prize place: two games (the "
        "first-named Black in game 1), then single games until one is decisive. Three or "
        "more level play every pair (a playoff round robin); nobody is placed by it until "
        "all its matches are in (standings lists those still owed). 002 六(四)1-3.",
    )
    p.add_argument("first", help="ID or name (Black in playoff game 1)")
    p.add_argument("second", help="ID or name")
    p.add_argument("games", help="the games in order, e.g. black,white,draw,black")
    p.add_argument(
        "--correct",
        action="store_true",
        help="replace the playoff already entered for this pair (logged with what it replaces)",
    )

    p = _sub(
        sub,
        "standings",
        _standings,
        "print the standings",
        "Standings with every tie-break; --json gives places, points and every tie-break "
        "value, with the event's tie-break order and formulas.",
    )
    p.add_argument("--json", action="store_true", help="print JSON")

    kinds = ("trf", "csv", "html", "games", "rating-list", "rating-csv", "certificates")
    p = _sub(
        sub,
        "export",
        _export,
        "export as TRF, CSV, HTML, round game files or the rating list",
        "Export the event: trf (FIDE TRF16, individual single-game events), csv "
        "(standings, UTF-8 with a BOM), html (standings, formulas, the bracket as a picture, "
        "every round; with --records every game's board with numbered stones), games "
        "(one SGF collection and one RenLib .lib per round of the game records found with "
        "--records, written to the --output folder), rating-list (TRF-style: every player's "
        "rating before and each round's game, team rosters as 013 lines) or rating-csv "
        "(the rating list after the event: before, change, after).",
    )
    p.add_argument("kind", nargs="?", choices=kinds, help="what to export")
    p.add_argument("--format", dest="format_kind", choices=kinds, help="the same as KIND")
    p.add_argument(
        "--output", metavar="FILE", help="write to FILE instead of stdout (games: a folder)"
    )
    p.add_argument(
        "--records",
        action="append",
        metavar="DIR",
        help="a folder of the hosts' game records (*.json; repeatable): html, games",
    )
    p.add_argument(
        "--event", metavar="NAME", help="take the records naming this event (default: its name)"
    )
    p.add_argument("--k", type=float, help="rating list: K-factor (default: the event's)")
    p.add_argument(
        "--date", metavar="YYYY-MM-DD", help="certificates: the date printed (default: today)"
    )
    p.add_argument(
        "--font",
        metavar="FILE",
        help="certificates: the CJK font to embed (default: WenQuanYi Micro Hei)",
    )

    p = _sub(
        sub,
        "awards",
        _awards,
        "the prize list: medals, certificates, prize money, titles",
        "Per prize place: the entrant, the medal (gold, silver, bronze), the certificate, "
        "the prize money and its currency, the title. 2019 open (002 八(一)-(五)): 8, 10 or "
        "12 places by the group's entrants, medals 1-3, certificates for every prize place, "
        "3000/2000/1000 CNY in the men's and women's groups. 2021 team final (000 九(三)): "
        "places 1-8, prize money and a certificate; the semifinal (000 九(一)): an "
        "electronic certificate for every player. Places waiting for a playoff get nothing "
        "yet. The PDFs: export certificates --output DIR.",
    )
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--table", metavar="FILE.csv", help="the titles' table (as for titles)")

    p = _sub(
        sub,
        "titles",
        _titles,
        "the place winners' dan/kyu titles (002 八(五))",
        "The men's and women's groups' place winners' Chinese dan/kyu titles (002 八(五)), "
        "by a table of places (--table FILE.csv, header from,to,title; without it an "
        "assumed default, see docs/tournament.md). A team event or the open group gives "
        "none and says why.",
    )
    p.add_argument("--table", metavar="FILE.csv", help="places to titles: from,to,title")
    p.add_argument("--json", action="store_true", help="print JSON")

    p = _sub(
        sub,
        "ratings",
        _ratings,
        "Elo rating changes of the event",
        "Every player's rating before, the change K·Σ(S−E) and after.",
    )
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--k", type=float, help="K-factor (default: the event's)")

    _sub(
        sub,
        "log",
        _log,
        "print the log of changes",
        "Every command that changed the database, in order.",
    )
    __import__("wuzi.tournament.draw_cli", fromlist=["register"]).register(sub)  # lots

    p = _sub(
        sub,
        "simulate",
        _simulate,
        "rehearse a whole event with random results",
        "Run a whole event with random but plausible (rating-based, seeded) results; "
        '--json prints {"rounds": [...], "standings": [...]}.',
    )
    p.add_argument("--format", required=True, choices=[f for f in formats if f != "team-semifinal"])
    p.add_argument("--entrants", type=int, required=True, help="number of players or teams")
    p.add_argument("--rounds", type=int, help="rounds (Swiss; round robin: single or double)")
    p.add_argument("--seed", type=int, required=True, help="random seed")
    p.add_argument("--json", action="store_true", help="print the JSON")

    p = _sub(
        sub,
        "preliminary",
        _preliminary,
        "rank the online preliminary's teams",
        "Score the online preliminary from a CSV of games (black,white,result,seconds or "
        "duration,moves) and a CSV of teams (team,board1,board2,board3): a game counts "
        "from 2 minutes and 10 moves; six ranking levels, then lots.",
    )
    p.add_argument("games", metavar="GAMES.csv")
    p.add_argument("--teams", required=True, metavar="TEAMS.csv")
    p.add_argument("--qualify", type=int, default=8, help="qualifying places (default 8)")
    p.add_argument(
        "--seed",
        type=int,
        help="the seed of the lots for a tie on a qualifying place, announced beforehand "
        "(default: a fresh random one, printed)",
    )
    p.add_argument("--scoring", default="2/1/0", help="WIN/DRAW/LOSS (default 2/1/0)")
    p.add_argument(
        "--group",
        default="public",
        help="the preliminary group ranked: public (大众场, default) or pro (专业场); in the "
        "JSON, for new --entrants-from-preliminary",
    )
    p.add_argument("--json", action="store_true", help="print JSON")

    p = _sub(
        sub,
        "direct-qualifiers",
        _direct_qualifiers,
        "the final's direct places from last year's team results",
        "The final's direct places (000 五(三)1): last year's men's and women's team top "
        "places/2, one place per unit; a unit that already has one passes its place on in "
        "the order men's 5th, women's 5th, men's 6th, … Each CSV has the header place,unit. "
        "Prints the chosen units one a line, in the order chosen, as unit,men 3 (the "
        "placing that earned the place). No database.",
    )
    p.add_argument("--men", required=True, metavar="MEN.csv", help="men's team places")
    p.add_argument("--women", required=True, metavar="WOMEN.csv", help="women's team places")
    p.add_argument("--places", type=int, default=8, help="direct places, even (default 8)")


def main(argv: list[str]) -> int:
    """Run ``wuzi tournament ARGV…`` in this process (the simulated final creates its event
    this way, exactly as an organiser types it); the exit status as the command gives it."""
    parser = argparse.ArgumentParser(prog="wuzi")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["tournament", *argv])
    return int(args.func(args) or 0)
