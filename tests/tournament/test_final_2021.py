"""The 2021 national team final played through the organisers' command: 16 teams, four
rounds, every place from 1 to 16, captains' playoffs, the prize money."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from wuzi.cli import main

BOARDS_FIRST_WINS = "black,white,draw"  # first team: 2 + 2 + 1
BOARDS_SECOND_WINS = "white,black,draw"
BOARDS_TIED = "black,black,draw"  # 2 + 0 + 1 each
# captains' playoff: game 1 the second team's captain has Black, game 2 the first's
PLAYOFF_FIRST_WINS = "draw,black"
PLAYOFF_SECOND_WINS = "draw,draw,black"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def test_the_2021_final(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "final.db")
    run(
        capsys,
        "tournament",
        "--db",
        db,
        "new",
        "--format",
        "team-knockout-placement",
        "--name",
        "2021 全国五子棋团体锦标赛 决赛",
    )
    rng = random.Random(2021)
    strength = list(range(16))
    rng.shuffle(strength)
    teams = [f"队{i:02d}" for i in range(1, 17)]
    for seed, name in enumerate(teams, start=1):
        run(
            capsys,
            "tournament",
            "--db",
            db,
            "add-team",
            name,
            "--seed",
            str(seed),
            "--player",
            f"{name}主将,m,{2100 - seed}",
            "--player",
            f"{name}二台,m,{2000 - seed}",
            "--player",
            f"{name}三台,f,{1900 - seed}",
        )
    power = dict(zip(teams, strength, strict=True))
    playoffs = 0
    for number in range(1, 5):
        data = json.loads(run(capsys, "tournament", "--db", db, "pair", "--json"))
        assert data["round"] == number
        matches = data["matches"]
        assert len(matches) == 8
        size = 16 >> (number - 1)
        assert sorted({tuple(m["places"]) for m in matches}) == [
            (lo, lo + size - 1) for lo in range(1, 17, size)
        ]
        for m in matches:
            first, second = m["first"], m["second"]
            assert [(b["board"], b["black"]) for b in m["boards"]] == [
                (1, f"{first}主将"),
                (2, f"{second}二台"),
                (3, f"{first}三台"),
            ]
            first_wins = power[first] > power[second]
            tie = (m["match"] + number) % 3 == 0  # a third of the matches are tied 3-3
            args = ["tournament", "--db", db, "result", str(number), str(m["match"])]
            if tie:
                playoffs += 1
                playoff = PLAYOFF_FIRST_WINS if first_wins else PLAYOFF_SECOND_WINS
                out = run(capsys, *args, BOARDS_TIED, "--playoff", playoff)
                assert " 3 – 3 " in out  # the playoff never changes the board points
            else:
                out = run(capsys, *args, BOARDS_FIRST_WINS if first_wins else BOARDS_SECOND_WINS)
            winner = first if first_wins else second
            assert out.rstrip().endswith(f"winner {winner}")
        if number == 1:  # round-1 winners play for 1-8, losers for 9-16
            standings = json.loads(run(capsys, "tournament", "--db", db, "standings", "--json"))
            top = {row["name"] for row in standings["standings"] if row["places"] == [1, 8]}
            assert top == {
                (m["first"] if power[m["first"]] > power[m["second"]] else m["second"])
                for m in matches
            }
    assert playoffs >= 8
    standings = json.loads(run(capsys, "tournament", "--db", db, "standings", "--json"))
    assert standings["finished"] is True
    places = [row["place"] for row in standings["standings"]]
    assert places == list(range(1, 17))
    assert all(row["places"] == [row["place"], row["place"]] for row in standings["standings"])
    prizes = [row["prize"] for row in standings["standings"]]
    assert prizes == [30000, 18000, 12000, 9000, 7500, 6000, 4500, 3000] + [0] * 8
    # the stronger team won every match: the strongest never lost, the weakest never won
    champion, last = standings["standings"][0]["name"], standings["standings"][-1]["name"]
    assert (power[champion], power[last]) == (15, 0)
    # a fifth round does not exist
    assert main(["tournament", "--db", db, "pair"]) == 1
    assert "event is over" in capsys.readouterr().err
    text = run(capsys, "tournament", "--db", db, "standings")
    assert "30000 CNY" in text
    ratings = json.loads(run(capsys, "tournament", "--db", db, "ratings", "--json"))
    assert ratings["games"] == 32 * 3  # board games only: playoffs are not rated
    # Elo is zero-sum (changes are shown rounded to 0.01)
    assert sum(r["change"] for r in ratings["ratings"]) == pytest.approx(0, abs=0.25)
    # 000 九(三): places 1-8, prize money and a certificate each, one per team; no medals,
    # no titles (九(二))
    awards = json.loads(run(capsys, "tournament", "--db", db, "awards", "--json"))
    rows = awards["awards"]
    assert [a["place"] for a in rows] == list(range(1, 9))
    assert [a["money"] for a in rows] == [30000, 18000, 12000, 9000, 7500, 6000, 4500, 3000]
    assert {a["medal"] for a in rows} == {None} and {a["title"] for a in rows} == {None}
    assert rows[0]["name"] == champion
    assert rows[0]["recipients"] == [f"{champion}主将", f"{champion}二台", f"{champion}三台"]
    assert {a["clause"] for a in rows} == {"000 九(三)"}
    out = tmp_path / "certificates"
    run(capsys, "tournament", "--db", db, "export", "certificates", "--output", str(out))
    assert len(list(out.glob("*.pdf"))) == 8
    index = (out / "index.csv").read_text(encoding="utf-8-sig").splitlines()
    assert index[1].startswith(f"01-place-1.pdf,certificate,1,{champion},{champion},,30000,CNY")
