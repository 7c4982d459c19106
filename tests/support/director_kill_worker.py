"""A director without a bus, for the kill -9 test: it plays the final from its database.

Every input is chosen from what is stored (the next game waiting for its report, then its
confirmation), so a run killed at any instant and started again goes on where the
database says. At start it first delivers again the last report it stored, as the broker
does with a message whose acknowledgement was lost. Prints ``FINISHED`` at the end.
"""

from __future__ import annotations

import sys
import time

from support.director import TABLES, bus_result, confirm, make_core, result_event, winner_of
from wuzi.director.core import Change, DirectorCore
from wuzi.director.store import DirectorStore


def commit(store: DirectorStore, core: DirectorCore, change: Change, log_seq: int) -> int:
    if change.stored:
        log_seq = store.commit(
            competition=change.competition,
            tournament_log=change.tournament_log,
            games=list(change.games.values()),
            seen=change.seen,
            audit=change.audit,
            hosts=change.hosts,
            at_ms=change.now_ms,
            expected_log_seq=log_seq,
        )
    core.commit(change)
    return log_seq


def main(db: str) -> None:
    store = DirectorStore(db)
    stored = store.open()
    core = make_core(stored.competition, auto_confirm=False)
    core = type(core)(
        stored.competition,
        TABLES,
        options=core.options,
        referee_keys=core.keys,
        games=stored.games,
        seen=stored.seen,
        hosts=stored.hosts,
    )

    def now() -> int:
        return time.time_ns() // 1_000_000

    seq = commit(store, core, core.on_start(now()), stored.log_seq)
    host = dict(TABLES)
    reported = [g for g in core.games.values() if g.reported_by_event]
    if reported:
        last = max(reported, key=lambda g: g.updated_ms)
        again = result_event(host[last.table], last.table, last.id, winner_of(last.id))  # type: ignore[index,arg-type]
        seq = commit(store, core, core.on_result_event(again, now()), seq)
    while not core.finished:
        game = min(
            (g for g in core.games.values() if g.state in ("assigned", "reported")),
            key=lambda g: g.seq,
        )
        w = winner_of(game.id)
        assert game.table is not None
        if game.state == "assigned":
            change = core.on_result_event(
                result_event(host[game.table], game.table, game.id, w), now()
            )
        else:
            cmd = confirm(
                game.table, game.id, bus_result(w), now_ms=now(), command_id=f"c-{game.id}"
            )
            change = core.on_command(cmd, now())
        seq = commit(store, core, change, seq)
        print(game.id, game.state, flush=True)
    print("FINISHED", flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
