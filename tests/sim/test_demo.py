"""``wuzi demo``'s command line: the showcase still plays; bad options are usage errors;
a run that cannot reach its broker fails with the reason and exit 1 (the whole final is
played in tests/e2e)."""

from __future__ import annotations

from pathlib import Path

import pytest

from wuzi.cli import main
from wuzi.sim.box import free_port


def test_the_showcase_is_one_option_away(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", "--showcase", "--out", str(tmp_path)]) == 0
    assert "0-1  White wins (forbidden-33)" in capsys.readouterr().out
    assert (tmp_path / "showcase-json.json").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--speed", "0"], "the speed must be from 1 to 100, not 0"),
        (["--speed", "fast"], "the speed must be a number, not 'fast'"),
        (["--seed", "x"], "invalid int value"),
        (["--hall", "open-2020"], "invalid choice: 'open-2020'"),
    ],
)
def test_bad_options_are_usage_errors(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["demo", *args])
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("relative", [False, True], ids=["absolute-out", "relative-out"])
def test_a_broker_that_is_not_there_fails_the_run_with_its_address(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    relative: bool,
) -> None:
    """Everything up to the broker is set up first — also with a relative ``--out``, as
    ``make demo`` gives it (the venue file's paths are read from another folder)."""
    monkeypatch.setattr("wuzi.sim.final.run.CONNECT_TIMEOUT_S", 2.0)
    monkeypatch.chdir(tmp_path)
    url = f"mqtt://127.0.0.1:{free_port()}"
    out = "demo-out" if relative else str(tmp_path / "out")
    code = main(["demo", "--headless", "--broker", url, "--out", out])
    assert code == 1
    assert f"wuzi demo: cannot reach the broker at {url}" in capsys.readouterr().err


def test_the_hall_has_no_fault_drill(capsys: pytest.CaptureFixture[str]) -> None:
    """``--faults`` is the team final's: with ``--hall`` a usage error, nothing started."""
    assert main(["demo", "--hall", "open-2019", "--faults"]) == 2
    assert "wuzi demo: --faults is for the team final, not --hall" in capsys.readouterr().err
