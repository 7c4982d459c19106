"""``wuzi bench host`` prints its figure in the one-line format."""

from __future__ import annotations

import pytest

from wuzi.bench import run_area


def test_host_bench_prints_the_journal_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_area("host", quick=True)
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1
    bench, name, value, unit = lines[0].split()
    assert (bench, name, unit) == ("BENCH", "host.journal_us_per_event", "us")
    assert float(value) > 0
