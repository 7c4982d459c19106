"""Draws of lots reaching the tables: the round's drawn or set designated opening in every
assignment's ``opening_settings``, a draw made after the round was laid out re-issuing the
games not yet started, a first-mover draw turning the boards' colours, and every draw in
the audit once, with who asked for it."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.director import KEYS, NOW, TABLES, final, make_core, step, write_event
from wuzi.bus.assignment import setup_from_assignment
from wuzi.cli import main
from wuzi.director.core import DirectorCore
from wuzi.tournament.draw import (
    DrawKind,
    DrawRecord,
    apply_first_movers,
    draw_first_movers,
    first_mover_matches,
)
from wuzi.tournament.event import Competition

HOST = dict(TABLES)


def opening(seq: int, rnd: int, opening_id: str, method: str = "lot") -> DrawRecord:
    return DrawRecord(
        DrawKind.OPENING,
        rnd,
        "裁判长 李",
        method,
        77 if method == "lot" else None,
        {"opening_id": opening_id, "label": opening_id},
        NOW - 60_000,
        seq,
    )


def restarted(
    core: DirectorCore, comp: Competition | None = None, draws: tuple[DrawRecord, ...] = ()
) -> DirectorCore:
    return DirectorCore(
        comp or core.comp,
        [(t, HOST[t]) for t in core.tables],
        options=core.options,
        referee_keys=KEYS,
        games=core.games.values(),
        seen=core.seen,
        draws=draws or core.draws,
    )


def test_the_rounds_drawn_opening_reaches_every_table_and_the_audit_once() -> None:
    core = make_core(final(), draws=[opening(1, 1, "4D")])
    start = step(core, core.on_start(NOW))
    for table in core.tables:
        a = core.assignment(table)
        assert a is not None
        assert (a.opening, a.opening_settings) == (
            "chinese-2013",
            {"selection": "lot", "opening_id": "4D"},
        )
        setup_from_assignment(a)  # a table takes it
    (drawn,) = [e for e in start.audit if e.action == "lot-drawn"]
    assert drawn.actor == "organisers:裁判长 李"
    assert drawn.details["seed"] == 77 and drawn.details["round"] == 1
    assert drawn.details["drawn_at_ms"] == NOW - 60_000
    assert "draw:1" in core.seen
    again = restarted(core).on_start(NOW + 1)
    assert not [e for e in again.audit if e.action == "lot-drawn"]
    assert not again.games


def test_a_draw_after_the_round_was_laid_out_reissues_the_games_not_started() -> None:
    core = make_core(final())
    step(core, core.on_start(NOW))
    assert core.assignment(2).opening_settings == {}  # type: ignore[union-attr]
    after = restarted(core, draws=(opening(1, 1, "7I", "set"),))
    after.live[1] = ("r1-m1-b1", "playing")  # table 1 began before the draw reached it
    change = step(after, after.on_start(NOW + 5, external=["draw 1: opening round 1 …"]))
    a1, a2 = after.assignment(1), after.assignment(2)
    assert a1 is not None and a2 is not None
    assert (a1.game_id, a1.opening_settings) == ("r1-m1-b1", {})
    assert (a2.game_id, a2.opening_settings) == (
        "r1-m1-b2-2",
        {"selection": "referee", "opening_id": "7I"},
    )
    assert after.games["r1-m1-b2"].state == "cancelled"
    acts = [e.action for e in change.audit]
    assert acts.count("game-cancelled") == 23 and acts.count("assignment") == 23
    assert acts.count("draw-not-applied") == 1 and acts.count("opening-set") == 1
    assert {2, 24} <= change.tables


def test_a_first_mover_draw_turns_the_colours_of_the_matches_it_swaps() -> None:
    core = make_core(final())
    step(core, core.on_start(NOW))
    before = {g.id: (g.plan.black_entrant, g.plan.white_entrant) for g in core.games.values()}
    movers = draw_first_movers(1, first_mover_matches(core.comp, 1), 12)
    swapped = [m.match for m in movers if m.first != core.comp.rounds[0].board(m.match).first]
    assert swapped and len(swapped) < 8
    comp = apply_first_movers(core.comp, 1, movers)
    after = restarted(core, comp)
    step(after, after.on_start(NOW + 5, external=["draw 1: first-mover round 1 …"]))
    m = swapped[0]
    b1 = after.assignment(core.games[f"r1-m{m}-b1"].table)  # type: ignore[arg-type]
    assert b1 is not None and b1.game_id == f"r1-m{m}-b1-2"
    _, white = before[f"r1-m{m}-b1"]
    assert after.games[b1.game_id].plan.black_entrant == white  # the new first mover
    kept = next(k for k in range(1, 9) if k not in swapped)
    assert after.assignment(core.games[f"r1-m{kept}-b1"].table).game_id == f"r1-m{kept}-b1"  # type: ignore[arg-type, union-attr]


def test_an_opening_override_without_a_designated_opening_drops_the_draw() -> None:
    core = make_core(final(), draws=[opening(1, 1, "4D")], opening="swap2")
    step(core, core.on_start(NOW))
    a = core.assignment(1)
    assert a is not None and (a.opening, a.opening_settings) == ("swap2", {})


def test_the_audit_printout_shows_draws_the_director_has_not_seen_yet(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "final.db")
    write_event(Path(db))
    assert main(["tournament", "--db", db, "draw", "opening", "--round", "1", "--by", "裁判长",
                 "--seed", "8"]) == 0  # fmt: skip
    capsys.readouterr()
    assert main(["director", "audit", "--db", db, "--utc"]) == 0
    out = capsys.readouterr().out
    (line,) = [row for row in out.splitlines() if "lot-drawn" in row]
    assert line.split()[0] == "-" and "organisers:裁判长" in line
    assert "seed=8" in out and "not yet seen by a running director" in out
    html = main(["director", "audit", "--db", db, "--format", "html"])
    assert html == 0 and "lot-drawn" in capsys.readouterr().out
