"""The exported page, from a plain static server (Python's http.server: no `wuzi web`),
read by Chromium at 320, 768 and 1920 px (and on a phone in the dark scheme): the delayed
feed arrives over WebSockets from a real Mosquitto, nothing overflows sideways, every
visible text meets WCAG AA contrast against its effective background (4.5:1, 3:1 when
large), and the board's cells stay big enough to read on a phone. The screenshots go to
docs/web-320.png, docs/web-768.png and docs/web-1920.png for a person to look at.

Skips only when /usr/bin/chromium is absent (`make setup` installs it).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect, sync_playwright
from test_web_browser import ARGS, CHROMIUM, competition

from support.broker import free_port, wait_until
from support.public_feed import live_publisher, live_state
from support.web import SCREENSHOTS, WebSocketsBroker, publish_public, write_venue
from wuzi.cli import main

DOCS = Path(__file__).resolve().parents[2] / "docs"
MIN_CELL_PX_320 = 14.0

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium")

CONTRAST_JS = (Path(__file__).parents[1] / "support" / "contrast.js").read_text()


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[str, WebSocketsBroker]]:
    """The page exported and served by a plain static server, and its broker."""
    (tmp_path / "broker").mkdir()
    broker = WebSocketsBroker(tmp_path / "broker")
    broker.start()
    venue = "web-layout"
    venue_file = write_venue(tmp_path, venue, broker.url, "[broadcast]\ndelay_minutes = 15\n")
    out = tmp_path / "site"
    args = ["web", "export", "--out", str(out), "--config", str(venue_file)]
    assert main([*args, "--mqtt-url", broker.ws_url]) == 0
    host = live_publisher(broker.url, venue)
    host.publish(topics_competition(venue), competition())
    done = live_state(
        1, (112, 113, 127, 128, 142, 96, 157), status="finished", result="1-0",
        black="张伟", white="李娜", board=1, game_id="g-1",
    )  # fmt: skip
    playing = live_state(
        2, (112, 98, 97, 126, 111), game_id="g-2", black="王芳芳 Wang Fangfang",
        white="Alexandra Konstantinopoulou", board=2, black_ms=54_000,
    )  # fmt: skip
    third = live_state(3, (112,), game_id="g-3", black="陈杰", white="Anna Li", board=3)
    publish_public(host, venue, [done, playing, third])
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "-d", str(out)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_until(lambda: _listening(port), 20, "the static server")
        yield f"http://127.0.0.1:{port}/", broker
    finally:
        server.terminate()
        server.wait(10)
        host.close()
        broker.stop()


def topics_competition(venue: str) -> str:
    from wuzi.bus import topics

    return topics.competition_state(venue)


def _listening(port: int) -> bool:
    import socket

    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
        return True
    except OSError:
        return False


def no_overflow(page: Page, width: int) -> None:
    """Nothing wider than the window (naming what sticks out when something does)."""
    wide, shown = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    out = page.evaluate(
        "[...document.querySelectorAll('body *')].filter((e) => !e.closest('.scroll')"
        " && e.getBoundingClientRect().right > window.innerWidth + 0.5)"
        ".map((e) => `${e.tagName}.${e.className}#${e.id}`).slice(0, 8)"
    )
    assert wide <= shown, f"{width} px: the page is {wide} px wide: {out}"


def check(page: Page, width: int) -> None:
    no_overflow(page, width)
    texts = page.evaluate(CONTRAST_JS)
    assert len(texts) > 20, texts
    low = [t for t in texts if t["ratio"] < t["need"]]
    assert not low, f"{width} px: text below WCAG AA: {low}"
    cells = page.evaluate(
        "[...document.querySelectorAll('#tables svg.board')]"
        ".map((s) => s.getBoundingClientRect().width / 15.8)"
    )
    assert cells, "no board shown"
    if width <= 320:
        assert min(cells) >= MIN_CELL_PX_320, f"board cells of {min(cells):.1f} px at {width} px"


def test_the_exported_page_reads_well_at_every_width(site: tuple[str, WebSocketsBroker]) -> None:
    url, _broker = site
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=ARGS
        )
        for scheme in ("light", "dark"):
            for width in (320, 768, 1920):
                context = browser.new_context(
                    viewport={"width": width, "height": 900}, color_scheme=scheme
                )
                page = context.new_page()
                page.goto(url)
                expect(page.locator("#tables article")).to_have_count(3, timeout=20_000)
                expect(page.locator("#standings-table")).to_contain_text("上海")
                text = page.locator("#tables").inner_text()
                for name in ("张伟", "李娜", "Alexandra Konstantinopoulou", "陈杰"):
                    assert name in text, name
                assert page.locator('#t-2[data-moves="5"]').count() == 1
                expect(page.locator("#games-list li")).to_have_count(3)
                delay = page.locator("#delay").inner_text()
                assert "15 minutes behind play" in delay
                check(page, width)
                if scheme == "light":
                    page.screenshot(path=str(DOCS / f"web-{width}.png"), full_page=True)
                context.close()
        # the one-game view on a phone reads as well, its board's coordinates and move
        # numbers included, in both schemes
        for scheme in ("light", "dark"):
            context = browser.new_context(
                viewport={"width": 320, "height": 900}, color_scheme=scheme
            )
            page = context.new_page()
            page.goto(f"{url}?game=g-2")
            expect(page.locator("#move-list li")).to_have_count(5, timeout=20_000)
            no_overflow(page, 320)
            texts = page.evaluate(CONTRAST_JS)
            on_board = {t["cls"] for t in texts if t["tag"] == "svg text"}
            assert {"coord", "on-b", "on-w"} <= on_board, on_board
            low = [t for t in texts if t["ratio"] < t["need"]]
            assert not low, f"{scheme}: {low}"
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SCREENSHOTS / f"web-game-320-{scheme}.png"), full_page=True)
            context.close()
        browser.close()
