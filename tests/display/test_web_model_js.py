"""The spectators' page's pure model (``web_assets/model.js``) on its own, in the real
browser (Debian's Chromium through Playwright, as the page runs it): what it folds and
what it refuses, without a broker or a page around it. The page tests
(`test_web_browser`) drive it end to end; these pin its rules one by one: only the public
and competition topics are read, a state never goes back (the Python
`wuzi.bus.newest.supersedes`), a result's reason is taken only as a plain word, the games
kept are bounded, and the SGF and PSQ records it builds are read back by our own readers
(`wuzi.rules.formats`) as the same moves and players.

Skips only when /usr/bin/chromium is absent (`make setup` installs it).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib import resources
from typing import Any

import pytest
from playwright.sync_api import Page, sync_playwright

from support.web import ARGS, CHROMIUM
from wuzi.rules.formats.psq import load_psq
from wuzi.rules.formats.sgf import load_sgf

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="no /usr/bin/chromium: `make setup` installs it (scripts/system-deps.sh dev)",
)

V = "wuzi/v1/hall/"
EXPOSE = (  # model.js declares with const/class: handed to the tests by name
    "\nglobalThis.M = { FeedModel, supersedes, formatScore, recordSgf, recordPsq,"
    " delayWords, MAX_GAMES };\n"
)


@pytest.fixture(scope="module")
def page() -> Iterator[Page]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=ARGS
        )
        try:
            opened = browser.new_page()
            model = resources.files("wuzi.display").joinpath("web_assets", "model.js")
            opened.add_script_tag(content=model.read_text(encoding="utf-8") + EXPOSE)
            yield opened
        finally:
            browser.close()


def run(page: Page, body: str, *args: Any) -> Any:
    """Evaluate ``body`` (a function body with ``m``, a fresh model of venue ``hall``, and
    ``args``) in the page; its return value."""
    script = (
        "([args, prefix]) => { const m = new M.FeedModel({public_prefix: prefix + 'public/',"
        f" competition_prefix: prefix + 'competition/'}});\n{body}\n}}"
    )
    return page.evaluate(script, [list(args), V])


def state(table: int, game: str, seq: int, at_ms: int, moves: list[int]) -> str:
    return json.dumps({
        "table": table, "game_id": game, "seq": seq, "status": "playing", "moves": moves,
        "black": "Ann", "white": "Bo", "black_ms": 60_000, "white_ms": 60_000,
        "running": "black", "result": None, "at_ms": at_ms,
    })  # fmt: skip


def test_only_the_public_and_competition_topics_are_read(page: Page) -> None:
    got = run(
        page,
        """const [live, alert, other, pub] = args;
        return { filters: m.filters(),
                 changes: [m.apply('wuzi/v1/hall/table/1/state', live, 0),
                           m.apply('wuzi/v1/hall/arbiter/1/alerts', alert, 0),
                           m.apply('wuzi/v1/other/public/table/1/state', other, 0),
                           m.apply('wuzi/v1/hall/public/table/x/state', pub, 0),
                           m.apply('wuzi/v1/hall/public/table/2/state', pub, 5)],
                 tables: [...m.tables.keys()], view: m.tableView(2) };""",
        state(1, "g-live", 1, 1, [112]),
        "alert",
        state(1, "g-other", 1, 1, [0]),
        state(2, "g-2", 3, 1000, [112, 113]),
    )
    assert got["filters"] == [
        f"{V}public/table/+/state",
        f"{V}public/table/+/events",
        f"{V}competition/#",
    ]
    assert got["changes"] == [[], [], [], [], [["table", 2]]]
    assert got["tables"] == [2]
    assert got["view"]["moves"] == [112, 113] and got["view"]["black"] == "Ann"
    assert got["view"]["_got"] == 5


def test_a_state_never_goes_back(page: Page) -> None:
    """Of one game a lower seq, or the same seq stamped earlier, is dropped; of another
    game an earlier stamp is (a retained state re-sent after a newer one, say)."""
    got = run(
        page,
        """const t = 'wuzi/v1/hall/public/table/4/state';
        const seqs = [];
        for (const text of args) {
          m.apply(t, text, 0);
          seqs.push(m.tableView(4).game_id + '#' + m.tableView(4).seq);
        }
        return seqs;""",
        state(4, "a", 5, 1000, [1]),
        state(4, "a", 4, 2000, [1]),  # lower seq: dropped
        state(4, "a", 5, 900, [1]),  # same seq, earlier: dropped
        state(4, "a", 6, 1100, [1, 2]),
        state(4, "b", 1, 1050, []),  # another game, earlier: dropped
        state(4, "b", 1, 1200, []),
    )
    assert got == ["a#5", "a#5", "a#5", "a#6", "a#6", "b#1"]


def test_a_cleared_state_removes_the_table_and_an_unknown_one_changes_nothing(
    page: Page,
) -> None:
    got = run(
        page,
        """const t = 'wuzi/v1/hall/public/table/3/state';
        return [m.apply(t, args[0], 0), m.apply(t, '', 0), m.apply(t, '', 0), m.tableView(3)];""",
        state(3, "g", 1, 1, []),
    )
    assert got == [[["table", 3]], [["table", 3]], [], None]


def test_a_result_reason_is_taken_only_as_a_plain_word(page: Page) -> None:
    def result(game: str, reason: str) -> str:
        return json.dumps({"game_id": game, "kind": "result", "data": {"reason": reason}})

    got = run(
        page,
        """const [s1, s2, r1, r2] = args, p = 'wuzi/v1/hall/public/table/';
        m.apply(p + '1/state', s1, 0); m.apply(p + '2/state', s2, 0);
        m.apply(p + '1/events', r1, 0); m.apply(p + '2/events', r2, 0);
        return [m.gameView('g1').reason, m.gameView('g2').reason];""",
        state(1, "g1", 1, 1, []),
        state(2, "g2", 1, 1, []),
        result("g1", "five"),
        result("g2", "<img src=x onerror=alert(1)>"),
    )
    assert got == ["five", None]


def test_the_games_kept_are_bounded_oldest_first_out(page: Page) -> None:
    got = run(
        page,
        """const p = 'wuzi/v1/hall/public/table/';
        for (let i = 0; i <= M.MAX_GAMES; i++) {
          m.apply(p + (i % 50) + '/state', JSON.stringify({table: i % 50, game_id: 'g' + i,
            seq: 1, status: 'finished', moves: [], at_ms: i + 1}), 0);
        }
        const list = m.gamesList();
        return [list.length, list[0].game_id, list[list.length - 1].game_id, M.MAX_GAMES];""",
    )
    count, newest, oldest, bound = got
    assert count == bound
    assert newest == f"g{bound}" and oldest == "g1"  # g0 went out


def test_the_competition_topics(page: Page) -> None:
    standings = {
        "event": "Open", "event_id": "", "format": "swiss", "round": 2, "rounds": 5,
        "finished": False, "matches": [], "tiebreak_names": ["buchholz", "nonesuch"],
        "standings": [
            {"place": 1, "place_to": 2, "entrant": "Ann", "points": 1.5, "tiebreaks": [2.25]}
        ],
        "bracket": [],
    }  # fmt: skip
    got = run(
        page,
        """const c = 'wuzi/v1/hall/competition/';
        const topics = ['state', 'men/state', 'men/other', 'a/b/state'];
        const changes = topics.map((t) => m.apply(c + t, args[0], 0));
        const one = m.competitionView();
        const cleared = m.apply(c + 'men/state', '', 0);
        return {changes, one, cleared, left: [...m.competitions.keys()]};""",
        json.dumps(standings),
    )
    assert got["changes"] == [[["competition", ""]], [["competition", "men"]], [], []]
    assert got["one"]["standings"] == [
        {"place": "1-2", "entrant": "Ann", "points": "1.5", "tiebreaks": ["2.25"]}
    ]
    assert got["one"]["tiebreaks"] == ["BH 布氏", "nonesuch"]
    assert got["cleared"] == [["competition", "men"]]
    assert got["left"] == [""]


def test_the_records_it_builds_are_read_back_as_the_same_game(page: Page) -> None:
    """The page's SGF and PSQ downloads, read by `wuzi.rules.formats`: the same points in
    the same order, the players, the result (a corner, an edge and the centre included)."""
    moves = [0, 14, 210, 224, 112, 113, 97, 7]
    game = {
        "table": 3, "black": "Ann [A]", "white": "Bo\\B", "event": "Open", "round": "R2",
        "result": "1-0", "reason": "five", "moves": moves,
    }  # fmt: skip
    sgf, psq = run(page, "return [M.recordSgf(args[0], 'renju'), M.recordPsq(args[0])];", game)
    from_sgf, from_psq = load_sgf(sgf), load_psq(psq)
    for record in (from_sgf, from_psq):
        assert [m.point for m in record.moves] == moves
    assert (from_sgf.first.name, from_sgf.second.name) == ("Ann [A]", "Bo\\B")
    assert from_sgf.result is not None and from_psq.result is not None
    assert from_sgf.result.winner == from_psq.result.winner == "black"


def test_scores_and_the_delay_in_words(page: Page) -> None:
    got = run(
        page,
        "return [[3, 2.5, 0.5, 1/3].map(M.formatScore), [null, 0, 1, 15].map(M.delayWords)];",
    )
    assert got[0] == ["3", "2.5", "0.5", "0.33"]
    assert got[1] == [
        "",
        "实时 Live: no delay",
        "延时1分钟 1 minute behind play",
        "延时15分钟 15 minutes behind play",
    ]
