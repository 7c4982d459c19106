"""``wuzi tournament --db FILE draw …``: lots (抽签) drawn before witnesses, recorded.

Contracts (docs/cli.md's tournament section and docs/tournament.md):

* ``draw bracket --by NAME [--seed S] [--keep-seeds]`` — the bracket positions (a
  knockout's seeds, a round robin's pairing numbers) by lot, before round 1 is paired.
* ``draw first-mover --round R --by NAME [--seed S]`` — round R's first movers (先行方),
  one coin per match, in a knockout whose round R is paired and not yet played.
* ``draw opening --round R --by NAME [--seed S] [--pool IDS] [--no-repeat]`` — round R's
  designated opening by lot; ``draw opening --round R --set OPENING --by NAME`` — set by
  the chief referee instead. The latest record of a round is its opening.
* ``draw list [--json]`` — every draw recorded.

A lot's seed is ``--seed`` (announced beforehand) or drawn with ``secrets``; either way
it is printed first (``seed S``) and stored, so the draw can be repeated before the
witnesses (``draw.Lots``). ``--by`` is checked like every name. Every draw is stored with
its log line in one transaction (``draw_store``); the director shows it in its audit.
Exit 0; 1 with ``wuzi tournament draw: <what is wrong>``; 2 for a usage error.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sqlite3
import sys
import time
from typing import Any

from wuzi.rules.designated import OpeningError, get_designated
from wuzi.tournament.draw import (
    DrawError,
    DrawKind,
    DrawRecord,
    apply_bracket,
    apply_first_movers,
    check_seed,
    draw_bracket,
    draw_first_movers,
    draw_opening,
    first_mover_matches,
    opening_pool,
)
from wuzi.tournament.draw_store import DrawStore
from wuzi.tournament.errors import StoreError, TournamentError
from wuzi.tournament.event import Competition
from wuzi.tournament.names import check_name

__all__ = ["register"]

NEW_SEED_BELOW = 10**9
"""A drawn seed has at most 9 digits: short enough to read out and write down."""


def _out(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


def _seed(args: argparse.Namespace) -> int:
    return check_seed(args.seed) if args.seed is not None else secrets.randbelow(NEW_SEED_BELOW)


def _store(args: argparse.Namespace) -> DrawStore:
    if not getattr(args, "db", None):
        raise StoreError("'draw' needs the database: wuzi tournament --db FILE draw …")
    return DrawStore(args.db)


def _by(args: argparse.Namespace) -> str:
    return check_name("--by", args.by)


def _header(record: DrawRecord) -> str:
    how = f"lot, seed {record.seed}" if record.method == "lot" else "set"
    where = f" round {record.round}" if record.round is not None else ""
    return f"draw {record.seq}: {record.kind.value}{where} by {record.by} ({how})"


def _log_line(comp: Competition, record: DrawRecord) -> str:
    return f"{_header(record)}: {_summary(comp, record)}"


def _name(comp: Competition, entrant: str) -> str:
    try:
        return comp.entrant(entrant).name
    except TournamentError:
        return entrant


def _summary(comp: Competition, record: DrawRecord) -> str:
    r = record.result
    if record.kind is DrawKind.BRACKET:
        return ", ".join(f"{i + 1}. {_name(comp, e)}" for i, e in enumerate(r.get("order", [])))
    if record.kind is DrawKind.FIRST_MOVER:
        return "; ".join(
            f"match {m['match']}: {_name(comp, m['first'])} first" for m in r.get("matches", [])
        )
    return str(r.get("label", r.get("opening_id")))


def _bracket(args: argparse.Namespace) -> int:
    by, seed = _by(args), _seed(args)

    def make(comp: Competition, _draws: list[DrawRecord]) -> tuple[Competition, DrawRecord]:
        keep = (
            {e.id: e.seed for e in comp.entrants if e.seed is not None} if args.keep_seeds else {}
        )
        order = draw_bracket([e.id for e in comp.entrants], seed, keep)
        after = apply_bracket(comp, order)
        record = DrawRecord(
            DrawKind.BRACKET,
            None,
            by,
            "lot",
            seed,
            {"order": list(order)},
            _now_ms(),
            options={"keep_seeds": bool(args.keep_seeds)},
        )
        return after, record

    comp, record = _store(args).draw(make, _log_line)
    return _report(args, comp, record)


def _first_mover(args: argparse.Namespace) -> int:
    by, seed = _by(args), _seed(args)

    def make(comp: Competition, _draws: list[DrawRecord]) -> tuple[Competition, DrawRecord]:
        movers = draw_first_movers(args.round, first_mover_matches(comp, args.round), seed)
        after = apply_first_movers(comp, args.round, movers)
        result = {"matches": [{"match": m.match, "first": m.first, "second": m.second}
                              for m in movers]}  # fmt: skip
        return after, DrawRecord(
            DrawKind.FIRST_MOVER, args.round, by, "lot", seed, result, _now_ms()
        )

    comp, record = _store(args).draw(make, _log_line)
    return _report(args, comp, record)


def _opening(args: argparse.Namespace) -> int:
    by = _by(args)
    if args.set is not None and (args.seed is not None or args.pool or args.no_repeat):
        raise DrawError("--set names the opening: it takes no --seed, --pool or --no-repeat")
    seed = _seed(args) if args.set is None else None

    def make(comp: Competition, draws: list[DrawRecord]) -> tuple[None, DrawRecord]:
        _check_opening_round(comp, args.round)
        options: dict[str, Any] = {}
        if args.set is not None:
            try:
                opening = get_designated(args.set)
            except OpeningError as exc:
                raise DrawError(f"--set: {exc}") from None
            method = "set"
        else:
            assert seed is not None
            only = [k.strip() for k in (args.pool or "").split(",") if k.strip()] or None
            earlier = _openings_of_other_rounds(draws, args.round) if args.no_repeat else []
            pool = opening_pool(only, earlier)
            options = {"pool": list(pool), "no_repeat": bool(args.no_repeat)}
            opening = get_designated(draw_opening(args.round, seed, pool))
            method = "lot"
        result = {"opening_id": opening.id, "label": opening.label}
        return None, DrawRecord(
            DrawKind.OPENING, args.round, by, method, seed, result, _now_ms(), options=options
        )

    comp, record = _store(args).draw(make, _log_line)
    return _report(args, comp, record)


def _openings_of_other_rounds(draws: list[DrawRecord], round_number: int) -> list[str]:
    """The openings other rounds have now (each round's latest record)."""
    latest: dict[int, str] = {}
    for d in draws:
        if d.kind is DrawKind.OPENING and d.round is not None and d.opening_id is not None:
            latest[d.round] = d.opening_id
    return [o for r, o in latest.items() if r != round_number]


def _check_opening_round(comp: Competition, round_number: int) -> None:
    if comp.settings.opening != "designated":
        raise DrawError(
            f"this event plays a {comp.settings.opening} opening: there is no designated "
            "opening to draw (002 六(一)2: the open group plays a free opening)"
        )
    count = comp.round_count()
    if not 1 <= round_number <= count:
        raise DrawError(f"the event has rounds 1–{count}, not {round_number}")
    if round_number <= len(comp.rounds):
        played = [p.board for p in comp.rounds[round_number - 1].pairings if p.result is not None]
        if played:
            raise DrawError(
                f"round {round_number} already has results (match {played[0]}): its "
                "games were played with their opening"
            )


def _report(args: argparse.Namespace, comp: Competition, record: DrawRecord) -> int:
    if record.seed is not None:
        _out(f"seed {record.seed}")
    _out(_header(record))
    if record.kind is DrawKind.BRACKET:
        for i, e in enumerate(record.result["order"], start=1):
            _out(f"  {i:3d}. {_name(comp, e)}")
    elif record.kind is DrawKind.FIRST_MOVER:
        for m in record.result["matches"]:
            _out(
                f"  match {m['match']}: {_name(comp, m['first'])} moves first "
                f"(v {_name(comp, m['second'])})"
            )
    else:
        _out(f"  opening {record.result['label']}")
    return 0


def _list(args: argparse.Namespace) -> int:
    store = _store(args)
    comp, draws = store.load(), store.draws()
    if args.json:
        _out(json.dumps([d.to_json() for d in draws], ensure_ascii=False, indent=2))
        return 0
    for d in draws:
        _out(_log_line(comp, d))
    return 0


def _guard(handler: Any) -> Any:
    def run(args: argparse.Namespace) -> int:
        try:
            return int(handler(args))
        except TournamentError as exc:
            print(f"wuzi tournament draw: {exc}", file=sys.stderr)
            return 1
        except sqlite3.Error as exc:
            print(f"wuzi tournament draw: database error: {exc}", file=sys.stderr)
            return 1
        except OSError as exc:
            print(f"wuzi tournament draw: {exc}", file=sys.stderr)
            return 1

    return run


def register(sub: Any) -> None:
    """Add ``draw`` to ``wuzi tournament``'s subcommands."""
    d = sub.add_parser(
        "draw",
        help="draw lots: bracket positions, first movers, a round's opening",
        description="Draw lots (抽签) before witnesses: reproducible from the printed seed, "
        "stored with who asked for it, in the log and the director's audit.",
    )
    d.add_argument("--db", metavar="FILE", default=argparse.SUPPRESS)
    kinds = d.add_subparsers(dest="draw_command", metavar="KIND", required=True)

    def kind(name: str, handler: Any, help: str) -> argparse.ArgumentParser:
        p: argparse.ArgumentParser = kinds.add_parser(name, help=help, description=help)
        p.add_argument("--db", metavar="FILE", default=argparse.SUPPRESS)
        p.set_defaults(func=_guard(handler))
        return p

    def by_and_seed(p: argparse.ArgumentParser, seed: bool = True) -> None:
        p.add_argument("--by", required=True, metavar="NAME", help="who asked for the draw")
        if seed:
            p.add_argument(
                "--seed", type=int, help="the lot's seed (default: drawn, 9 digits, printed)"
            )

    p = kind(
        "bracket",
        _bracket,
        "the bracket positions (a knockout's seeds, a round robin's pairing numbers) by "
        "lot, before round 1 is paired",
    )
    by_and_seed(p)
    p.add_argument("--keep-seeds", action="store_true", help="seeded entrants keep their seeds")

    p = kind("first-mover", _first_mover, "round R's first movers (先行方) by lot")
    p.add_argument("--round", type=int, required=True, metavar="R")
    by_and_seed(p)

    p = kind(
        "opening",
        _opening,
        "round R's designated opening by lot, or --set by the chief referee",
    )
    p.add_argument("--round", type=int, required=True, metavar="R")
    by_and_seed(p)
    p.add_argument("--set", metavar="OPENING", help="the opening (4D, 花月 or Kagetsu)")
    p.add_argument("--pool", metavar="IDS", help="draw from these openings only (4D,5D,…)")
    p.add_argument(
        "--no-repeat", action="store_true", help="not an opening another round already has"
    )

    p = kind("list", _list, "every draw recorded")
    p.add_argument("--json", action="store_true", help="print JSON")
