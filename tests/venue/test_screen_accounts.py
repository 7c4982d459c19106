"""Screens log in with accounts of their own (issue 19): ``--screen-name`` (or its default)
must be listed in the venue file's ``[screens]``, in the list that matches ``--public``,
and the error says where to list it; nothing is drawn before that is settled."""

from __future__ import annotations

from pathlib import Path

import pytest

from wuzi.cli import main

VENUE = """
[venue]
id = "hall-test"
name = "Hall"
[broker]
url = "mqtt://127.0.0.1:1"
[[hosts]]
id = "pi-1"
  [[hosts.tables]]
  number = 1
  board_port = "sim://board/1"
  clock_port = "sim://clock/1"
[screens]
live = ["hall"]
public = ["foyer"]
"""


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "venue.toml"
    path.write_text(VENUE, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["scoreboard", "--screen-name", "other"], "no screen 'other' in the venue file"),
        (["scoreboard", "--screen-name", "other"], "add it to [screens] live"),
        (["scoreboard", "--screen-name", "foyer"], "run it with --public"),
        (["scoreboard", "--public", "--screen-name", "hall"], "run it without --public"),
        (["scoreboard", "--public", "--screen-name", "x"], "add it to [screens] public"),
        (["clock-display", "--table", "1", "--screen-name", "foyer"], "listed in [screens] public"),
    ],
)
def test_a_screen_the_venue_file_does_not_list_is_exit_1_saying_where(
    config: Path, capsys: pytest.CaptureFixture[str], args: list[str], says: str
) -> None:
    snapshot = ["--snapshot", str(config.parent / "out.png")]
    assert main([*args, "--config", str(config), *snapshot]) == 1
    err = capsys.readouterr().err
    assert says in err, err
    assert not (config.parent / "out.png").exists()


def test_a_screen_s_missing_password_is_logged_as_anonymous_not_hidden(
    config: Path,
) -> None:
    """A listed screen whose default password file is absent, with no [broker] login,
    connects anonymously and says so (the account's own login is used once the file is
    there): the login it takes is never a silent guess."""
    from wuzi.config import load_venue
    from wuzi.config.credentials import login

    venue = load_venue(config)
    found = login(venue, "screen", "hall")
    assert (found.client_id, found.username) == ("wuzi.hall-test.screen.hall", None)
    assert found.source == (
        f"no [broker] login and no password file {config.parent / 'secrets/screens/hall.pass'}"
    )
    secret = config.parent / "secrets" / "screens" / "hall.pass"
    secret.parent.mkdir(parents=True)
    secret.write_text("pw\n", encoding="utf-8")
    found = login(venue, "screen", "hall")
    assert (found.username, found.password) == ("wuzi.hall-test.screen.hall", "pw")
    assert found.source == f"password file {secret}"


def test_wuzi_web_needs_no_screen_account(config: Path, tmp_path: Path) -> None:
    """`wuzi web` no longer reads the bus (the browsers read the public feed from the
    broker themselves, issue 37): a venue file that lists screens but no ``web-<machine>``
    exports the page all the same."""
    out = tmp_path / "site"
    assert main(["web", "export", "--out", str(out), "--config", str(config)]) == 0
    assert (out / "config.json").exists()
