"""The demo's fault plan: every kind, seeded, inside the span, process faults apart."""

from __future__ import annotations

import itertools

import pytest

from wuzi.sim.final.faults import FAULT_KINDS, plan_faults

HOSTS = ("pi-1", "pi-2", "pi-3", "pi-4")


def test_the_plan_has_every_kind_once_per_round_and_is_sorted() -> None:
    plan = plan_faults(3, span_s=200, hosts=HOSTS, tables=24, per_kind=2)
    assert sorted({f.kind for f in plan}) == sorted(FAULT_KINDS)
    assert all(sum(f.kind == kind for f in plan) == 2 for kind in FAULT_KINDS)
    assert [f.at_s for f in plan] == sorted(f.at_s for f in plan)
    assert all(10.0 <= f.at_s <= 140.0 for f in plan)  # 5 % .. 70 % of the span


def test_the_same_seed_gives_the_same_plan_and_another_seed_another() -> None:
    one = plan_faults(5, span_s=150, hosts=HOSTS, tables=24)
    assert one == plan_faults(5, span_s=150, hosts=HOSTS, tables=24)
    assert one != plan_faults(6, span_s=150, hosts=HOSTS, tables=24)


def test_process_faults_leave_time_to_recover_between_them() -> None:
    for seed in range(20):
        plan = plan_faults(seed, span_s=150, hosts=HOSTS, tables=24)
        processes = [
            f
            for f in plan
            if f.kind in ("kill-host", "kill-director", "restart-broker", "cut-host")
        ]
        for a, b in itertools.pairwise(processes):
            assert a.at_s + a.length_s + 8.0 < b.at_s + 3.0, (seed, a, b)


def test_targets_are_the_venue_s_own() -> None:
    plan = plan_faults(9, span_s=150, hosts=HOSTS, tables=24)
    for fault in plan:
        if fault.kind in ("kill-host", "cut-host"):
            assert fault.target in HOSTS
        elif fault.kind.endswith("board") or fault.kind == "board-noise":
            assert 1 <= int(fault.target) <= 24
    assert "cut-host" in str(next(f for f in plan if f.kind == "cut-host"))


@pytest.mark.parametrize(
    ("span", "hosts", "tables", "message"),
    [(0, HOSTS, 24, "span"), (100, (), 24, "host"), (100, HOSTS, 0, "table")],
)
def test_a_plan_without_room_or_targets_is_refused(
    span: float, hosts: tuple[str, ...], tables: int, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        plan_faults(1, span_s=span, hosts=hosts, tables=tables)
