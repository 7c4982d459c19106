"""``wuzi tournament --db FILE …`` run in-process, as an organiser types it: one runner
for every test of the organisers' command."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from wuzi.cli import main


class Wuzi:
    """Calls ``wuzi tournament --db DB ARGV…``; checks the exit status and gives stdout (or
    stderr when a failure is expected)."""

    def __init__(self, db: Path, capsys: pytest.CaptureFixture[str]):
        self.db = db
        self.capsys = capsys

    def __call__(self, *argv: str, code: int = 0, db: Path | None = None) -> str:
        got = main(["tournament", "--db", str(db or self.db), *argv])
        out, err = self.capsys.readouterr()
        assert got == code, (argv, out, err)
        return out if code == 0 else err

    def json(self, *argv: str) -> Any:
        return json.loads(self(*argv, "--json"))


def swiss_event(wuzi: Wuzi, players: int = 9, rounds: int = 4) -> None:
    wuzi(
        "new", "--format", "swiss", "--rounds", str(rounds), "--name", "Open men", "--group", "men"
    )
    for i in range(1, players + 1):
        wuzi(
            "add-player",
            f"Player {i}",
            "--sex",
            "m",
            "--rating",
            str(2000 - 10 * i),
            "--id",
            f"p{i}",
        )


def play_round(wuzi: Wuzi, results: tuple[str, ...] = ("black", "white", "draw")) -> dict[str, Any]:
    data: dict[str, Any] = wuzi.json("pair")
    for i, p in enumerate(data["pairings"]):
        if p["white"] is not None:
            wuzi("result", str(data["round"]), str(p["board"]), results[i % len(results)])
    return data
