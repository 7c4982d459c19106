"""The spectators' page in a real browser (Debian's Chromium, headless, driven by
Playwright), end to end: the delayed feed published on a real Mosquitto with a WebSockets
listener → the page's own MQTT client → the page. Tables, players and running clocks are
shown, a move arrives pushed (no reload), a finished game replays and its SGF (built in the
page) downloads; a hall of several events; and the exported files from a plain static
server at 320, 768 and 1920 px: no horizontal overflow, WCAG AA contrast on every visible
text, a board readable on a phone, screenshots in docs/.

Skips only when /usr/bin/chromium is absent (`make setup` installs it:
scripts/system-deps.sh dev).
"""

from __future__ import annotations

import json
import re
import shutil
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Playwright, expect, sync_playwright

from support.broker import free_port
from support.public_feed import live_publisher, live_state, now_ms
from support.web import (
    ARGS,
    CHROMIUM,
    SCREENSHOTS,
    WebSocketsBroker,
    competition,
    publish_public,
    running_cli,
    write_venue,
)
from wuzi.bus import topics
from wuzi.bus.schemas import CompetitionState, StandingLine

TABS = 20

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="no /usr/bin/chromium: `make setup` installs it (scripts/system-deps.sh dev)",
)


@pytest.fixture
def ws_broker(tmp_path: Path) -> Iterator[WebSocketsBroker]:
    """A Mosquitto of this test's own with a WebSockets listener for the browsers."""
    (tmp_path / "broker").mkdir()
    broker = WebSocketsBroker(tmp_path / "broker")
    broker.start()
    yield broker
    broker.stop()


def web_cmd(venue_file: Path, port: int, broker: WebSocketsBroker) -> list[str]:
    return ["web", "--config", str(venue_file), "--port", str(port), "--bind", "127.0.0.1",
            "--mqtt-url", broker.ws_url]  # fmt: skip


def shot(page: Page, tmp_path: Path, name: str) -> Path:
    path = tmp_path / name
    page.screenshot(path=str(path), full_page=True)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(path, SCREENSHOTS / name)
    return path


def launch(playwright: Playwright) -> Browser:
    """Debian's Chromium, headless; Playwright gives it a fresh temporary --user-data-dir."""
    return playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)


def test_the_page_in_chromium(ws_broker: WebSocketsBroker, tmp_path: Path) -> None:
    venue = "web-browser"
    venue_file = write_venue(tmp_path, venue, ws_broker.url, "[broadcast]\ndelay_minutes = 0\n")
    host = live_publisher(ws_broker.url, venue)
    host.publish(topics.competition_state(venue), competition())
    done = live_state(
        1, (112, 113, 127, 128, 142, 96, 157), status="finished", result="1-0",
        black="张伟", white="李娜", board=1,
    )  # fmt: skip
    playing = live_state(
        2, (112, 98), game_id="g-2", black="王芳", white="刘强", board=2, black_ms=754_000
    )
    third = live_state(3, (112,), game_id="g-3", black="陈杰", white="Anna Li", board=3)
    publish_public(host, venue, [done, playing, third])
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    with (
        running_cli(
            web_cmd(venue_file, port, ws_broker), tmp_path / "web.log", ready="serving http://"
        ),
        sync_playwright() as playwright,
    ):
        browser = launch(playwright)
        context = browser.new_context(
            viewport={"width": 1280, "height": 900}, accept_downloads=True
        )
        page = context.new_page()
        page.goto(url)
        # the states arrive one by one, in no set order; a locator's wait, not a string
        # predicate: the page's CSP (script-src 'self') refuses the eval that needs
        expect(page.locator("#tables article")).to_have_count(3, timeout=20_000)
        cards = page.locator("#tables article")
        assert cards.count() == 3
        text = page.locator("#tables").inner_text()
        for name in ("张伟", "李娜", "王芳", "刘强", "陈杰", "Anna Li", "上海", "北京"):
            assert name in text, name
        assert "黑胜 1-0" in page.locator("#t-1").inner_text()
        assert "第2桌 Table 2 · 第2台 Board 2" in page.locator("#t-2").inner_text()
        assert page.locator("#standings-table").inner_text().count("上海") == 1
        assert page.locator("#delay").inner_text() == "实时 Live: no delay"
        black_clock = page.locator('#t-2 [data-clock="black"]')
        first = black_clock.inner_text()
        assert re.fullmatch(r"12:3\d", first), first
        time.sleep(1.6)
        assert black_clock.inner_text() != first, "the running clock does not count down"
        assert page.locator('#t-2 [data-clock="white"]').inner_text() == "10:00"
        shot(page, tmp_path, "web-tables.png")

        # a move on the live board arrives pushed: no reload (the marker survives)
        page.evaluate("window.noReload = 1")
        # each reader in a context of its own, each with its own MQTT connection
        tabs = [browser.new_context().new_page() for _ in range(TABS - 1)]
        for tab in tabs:
            tab.goto(url)
        for tab in (page, *tabs):
            tab.wait_for_selector('#t-2[data-moves="2"]', timeout=20_000)
        moved = live_state(2, (112, 98, 113), game_id="g-2", black="王芳", white="刘强", board=2)
        sent = now_ms()
        publish_public(host, venue, [moved])
        for tab in (page, *tabs):
            tab.wait_for_selector('#t-2[data-moves="3"]', timeout=10_000)
        seen = page.evaluate("window.wuziSeen['2:3']")
        assert page.evaluate("window.noReload") == 1
        latency_ms = seen - sent

        # the page reads the public feed only: a live state (table/4/state) never shows,
        # and an older public state of table 2 never takes back its newer one
        host.publish(topics.table_state(venue, 4), live_state(4, (112,), game_id="g-4"))
        older = live_state(2, (112,), game_id="g-2", black="王芳", white="刘强", board=2)
        publish_public(host, venue, [older, live_state(3, (112, 113), game_id="g-3", board=3)])
        page.wait_for_selector('#t-3[data-moves="2"]', timeout=10_000)
        assert page.locator("#t-4").count() == 0
        assert page.locator('#t-2[data-moves="3"]').count() == 1
        page.set_viewport_size({"width": 390, "height": 844})  # a phone
        shot(page, tmp_path, "web-phone.png")
        page.set_viewport_size({"width": 1280, "height": 900})

        # the finished game: its page, the replay, the SGF download
        page.click("#t-1 a.open")
        page.wait_for_selector("#move-list li", timeout=10_000)
        assert page.locator("#move-list li").count() == 7
        page.click("#first")
        page.click("#next")
        assert page.locator("#game-at").inner_text() == "第1手 Move 1: h8 / 7"
        page.click("#last")
        with page.expect_download() as info:
            page.click("#dl-sgf")
        download = info.value
        saved = tmp_path / download.suggested_filename
        download.save_as(saved)
        sgf = saved.read_text()
        assert download.suggested_filename == "g-1.sgf"
        assert "PB[张伟]" in sgf and "RE[B+]" in sgf and ";B[hh]" in sgf
        with page.expect_download() as info:
            page.click("#dl-psq")
        saved = tmp_path / info.value.suggested_filename
        info.value.save_as(saved)
        psq = saved.read_text().splitlines()
        assert psq[:3] == ["Piskvorky 15x15, 0:0, 0", "8,8,0", "9,8,0"], psq
        assert "张伟" in psq and '[Result "1-0"]' in psq
        shot(page, tmp_path, "web-game.png")
        browser.close()
    host.close()
    metrics = {"browser_tabs": TABS, "public_state_to_browser_ms": latency_ms}
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    (SCREENSHOTS / "web-browser-metrics.json").write_text(json.dumps(metrics, indent=2) + "\n")
    print(json.dumps(metrics))


TWO_EVENTS = """
[broadcast]
delay_minutes = 0

[[events]]
id = "men"
name = "男子组 Men's group"
database = "men.sqlite"
tables = "1-2"

[[events]]
id = "open"
name = "公开组 Open group"
database = "open.sqlite"
tables = "3-4"
ruleset = "freestyle"
"""


def event_summary(event: str, name: str, leader: str, second: str) -> CompetitionState:
    return CompetitionState(
        event=name,
        format="swiss",
        round=5,
        rounds=7,
        matches=(),
        standings=(
            StandingLine(1, 1, leader, 4.0, (11.0,)),
            StandingLine(2, 2, second, 3.5, (10.0,)),
        ),
        tiebreak_names=("buchholz",),
        tiebreak_formulas=("buchholz",),
        bracket=(),
        finished=False,
        at_ms=now_ms(),
        event_id=event,
    )


def test_a_hall_of_two_events_in_chromium(ws_broker: WebSocketsBroker, tmp_path: Path) -> None:
    """Issue 35: a venue playing two events at once. The page lists the events (names,
    rounds, leaders), every table names its event, and each event opens on its own page
    with only its tables, its standings and its games."""
    venue = "web-hall"
    venue_file = write_venue(tmp_path, venue, ws_broker.url, TWO_EVENTS)
    host = live_publisher(ws_broker.url, venue)
    host.publish(
        topics.competition_state(venue, "men"),
        event_summary("men", "男子组 Men's group", "曹冬", "黄立"),
    )
    host.publish(
        topics.competition_state(venue, "open"),
        event_summary("open", "公开组 Open group", "吕翔", "那威"),
    )
    men = replace(
        live_state(1, (112, 113, 127, 128, 142, 96, 157), status="finished", result="1-0",
                   black="曹冬", white="黄立", game_id="men-r5-t1"),
        event_id="men",
    )  # fmt: skip
    open_ = replace(
        live_state(3, (112, 98), game_id="open-r5-t3", black="吕翔", white="那威"),
        event_id="open",
    )
    publish_public(host, venue, [men, open_])
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    with (
        running_cli(
            web_cmd(venue_file, port, ws_broker), tmp_path / "web.log", ready="serving http://"
        ),
        sync_playwright() as playwright,
    ):
        browser = launch(playwright)
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        page.goto(url)
        expect(page.locator("#tables article")).to_have_count(2, timeout=20_000)
        expect(page.locator("#events-list a.event")).to_have_count(2, timeout=10_000)
        assert page.locator("#nav-events").is_visible()
        listed = page.locator("#events-list").inner_text()
        for text in (
            "男子组 Men's group",
            "公开组 Open group",
            "第5/7轮 Round 5/7",
            "曹冬",
            "吕翔",
        ):
            assert text in listed, text
        assert "男子组" in page.locator("#t-1 .ev").inner_text()
        assert "公开组" in page.locator("#t-3 .ev").inner_text()
        assert page.locator("#standings-box").is_hidden()  # standings are per event
        shot(page, tmp_path, "web-hall-events.png")

        # the open group's page: its tables, its standings, its games, nothing of the men's
        page.click("#ev-open")
        page.wait_for_url("**?event=open")
        expect(page.locator("#tables article")).to_have_count(1, timeout=10_000)
        assert page.locator("#tables article").get_attribute("id") == "t-3"
        assert "公开组 Open group" in page.locator("#event-title").inner_text()
        assert page.locator("#events-box").is_hidden()
        standings = page.locator("#standings-table").inner_text()
        assert "吕翔" in standings and "曹冬" not in standings
        expect(page.locator("#games-list li")).to_have_count(1, timeout=10_000)
        assert "那威" in page.locator("#games-list").inner_text()
        shot(page, tmp_path, "web-hall-open.png")

        # the men's page, and its finished game's record under the men's event
        page.goto(f"{url}?event=men")
        expect(page.locator("#tables article")).to_have_count(1, timeout=10_000)
        assert page.locator("#tables article").get_attribute("id") == "t-1"
        assert "黄立" in page.locator("#standings-table").inner_text()
        page.click("#t-1 a.open")
        page.wait_for_selector("#move-list li", timeout=10_000)
        assert "男子组 Men's group" in page.locator("#game-match").inner_text()
        browser.close()
    host.close()
