"""The first deal of a match opens on the player's turn (the seat on their right deals), and the bots that
speak after them still take their time, one readable call after another at the chosen speed."""
from __future__ import annotations

import time

from playwright.sync_api import expect

BOOT_MS = 60_000
NORMAL_BOT_MS = 550  # web/js/table/settings.js, PACES.normal.bot: the pause before each bot's call

STATE = """async () => {
  const { engine } = await import('/js/main.js');
  return (await engine.call('state')).state;
}"""
VISIBLE_BUBBLES = """() => [1, 2, 3].filter((pos) =>
  !document.querySelector(`.seat[data-pos="${pos}"] .bubble`).hidden)"""
MARKS = "() => performance.getEntriesByType('mark').map((m) => m.name)"
MARK_TIME = "(name) => performance.getEntriesByName(name)[0].startTime"


def test_play_pressed_while_loading_opens_on_the_players_call(guarded_page, site_url):
    page = guarded_page
    page.goto(site_url)
    page.locator("#btn-play-coinche").click()  # as soon as it shows, long before the engine is ready
    bidding = page.locator("#bidding")
    expect(bidding.locator("button:enabled").first).to_be_visible(timeout=BOOT_MS)
    state = page.evaluate(STATE)
    assert state["deal_index"] == 0 and state["deal"]["dealer"] == 3
    assert state["deal"]["current_player"] == 0 and state["deal"]["calls"] == []
    assert page.evaluate(VISIBLE_BUBBLES) == []  # no bot spoke before the player
    expect(page.locator('.seat[data-pos="3"] .dealer-chip')).to_be_visible()
    assert {"cards-dealt", "player-can-act"} <= set(page.evaluate(MARKS))  # bench/web_boot_bench.py's marks
    # The match was asked for while the engine booted: its worker dealt without a round trip through the page.
    asked, ready = (page.evaluate(MARK_TIME, name) for name in ("new-match-asked", "engine-worker-ready"))
    assert asked < ready


def test_play_pressed_while_loading_then_a_failed_boot_says_why(page, site_url):
    # (not guarded_page: the browser logs the refused request as a console error)
    page.route("**/build-info.json", lambda route: route.fulfill(status=500, body="down"))
    page.goto(site_url)
    page.locator("#btn-play-coinche").click()
    expect(page.locator("body")).to_have_attribute("data-state", "error", timeout=BOOT_MS)
    status = page.locator("#boot-status")
    expect(status).to_contain_text("build-info.json")  # the boot's own error, not overwritten by the start
    expect(status).to_contain_text("HTTP 500")
    expect(page.locator("#home")).to_be_visible()
    expect(page.locator("#table")).to_be_hidden()


def test_after_the_player_the_bots_call_one_at_a_time_at_the_chosen_speed(guarded_page, site_url):
    page = guarded_page
    page.goto(site_url + "?seed=paced")
    page.locator("#btn-play-coinche").click()
    expect(page.locator("#bidding button:enabled").first).to_be_visible(timeout=BOOT_MS)
    page.locator('#bidding [data-call="pass"]').click()
    clicked = time.monotonic()
    seen: dict[int, float] = {}
    while len(seen) < 3 and time.monotonic() - clicked < 30:
        for pos in page.evaluate(VISIBLE_BUBBLES):
            seen.setdefault(pos, time.monotonic())
        time.sleep(0.02)
    assert sorted(seen) == [1, 2, 3], seen
    order = sorted(seen, key=seen.get)
    assert order == [1, 2, 3]  # west, north, east: in turn after the player
    times = [clicked] + [seen[pos] for pos in order]
    gaps = [b - a for a, b in zip(times, times[1:])]
    assert min(gaps) >= 0.9 * NORMAL_BOT_MS / 1000, gaps
