"""The whole followers' path of a venue, as it is deployed (issue 37): the venue file with
``[followers]``, `wuzi venue broker-config` writing the venue broker and the followers'
broker (both real Mosquittos started from those files, the venue broker's bridge feeding
the other one way), the delayed feed published by the broadcast's own account, and the
page written by `wuzi web export` from the same venue file (its WebSockets URL the
followers' broker's, by default), served by a plain static server and opened in
Chromium. No URL is given by hand anywhere: what a venue's files say is what works.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

from support.acl import Peer, generated_broker, peer_logins
from support.broker import free_port, wait_until
from support.followers import running_conf
from support.public_feed import live_state
from support.web import ARGS, CHROMIUM
from wuzi.bus import topics
from wuzi.bus.schemas import encode
from wuzi.cli import main
from wuzi.sim import box

VENUE = "acl-test"  # support.acl's venue

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium")


def _listening(port: int) -> bool:
    import socket

    with socket.socket() as s:
        s.settimeout(0.2)
        return s.connect_ex(("127.0.0.1", port)) == 0


def test_the_exported_page_shows_the_delayed_feed_through_the_followers_broker(
    tmp_path: Path,
) -> None:
    ws_port, local_port = box.free_port(), box.free_port()
    extra = (
        f'[followers]\nwebsockets_port = {ws_port}\nwebsockets_bind = "127.0.0.1"\n'
        f"local_port = {local_port}\n"
    )
    with generated_broker(venue_extra=extra) as broker:
        user, password = peer_logins(broker.venue)["broadcast"]
        feed = Peer(broker.port, user, password)
        assert feed.connect() == 0, broker.log_text()
        # the broadcast's delayed feed: what it publishes 15 minutes after play
        state = live_state(1, (112, 113, 127), black="张伟", white="李娜", game_id="g-1")
        feed.publish(topics.public_state(VENUE, 1), encode(state), retain=True)
        # a live state of the same table, never for the page
        live = live_state(1, (112, 113, 127, 128, 142), black="张伟", white="李娜")
        feed_conf = broker.directory / "broker" / "followers" / "mosquitto.conf"
        out = tmp_path / "site"
        venue_file = broker.directory / "venue.toml"
        assert main(["web", "export", "--config", str(venue_file), "--out", str(out)]) == 0
        config = json.loads((out / "config.json").read_text("utf-8"))
        assert config["mqtt_url"] == f"ws://127.0.0.1:{ws_port}/"
        port = free_port()
        server = subprocess.Popen(
            [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "-d", str(out)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            with running_conf(feed_conf, ws_port), sync_playwright() as playwright:
                wait_until(lambda: _listening(port), 20, "the static server")
                browser = playwright.chromium.launch(
                    executable_path=str(CHROMIUM), headless=True, args=ARGS
                )
                page = browser.new_page(viewport={"width": 390, "height": 844})
                page.goto(f"http://127.0.0.1:{port}/")
                expect(page.locator("#tables article")).to_have_count(1, timeout=30_000)
                text = page.locator("#tables").inner_text()
                assert "张伟" in text and "李娜" in text, text
                expect(page.locator("#t-1")).to_have_attribute("data-moves", "3")
                # a live state sent where only hosts write is not the page's: the host
                # account may, the broadcast's may not, and the followers' broker carries
                # only public/ and competition/ anyway
                feed.publish(topics.table_state(VENUE, 1), encode(live), retain=True)
                page.wait_for_timeout(1_500)
                assert page.locator("#t-1").get_attribute("data-moves") == "3"
                # the delay the venue file sets (support.acl's: 0) said in words
                assert "no delay" in page.locator("#delay").inner_text()
                browser.close()
        finally:
            server.terminate()
            server.wait(10)
            feed.close()
