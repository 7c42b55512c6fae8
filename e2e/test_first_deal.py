"""The first deal of a match opens on the player's call (the seat on their right deals), and the bots that
speak after them still take their time, one readable call after another at the chosen speed. Pressed while the
engine boots, Play draws a first deal the engine dealt at build time (first-deals.json), holds the player's call
until the engine has dealt the same cards, and saves nothing before."""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).parent))  # --import-mode=importlib: the helpers beside this file
from held_engine import HeldEngine, hold_the_engine, release  # noqa: E402

BOOT_MS = 60_000
NORMAL_BOT_MS = 550  # web/js/table/settings.js, PACES.normal.bot: the pause before each bot's call

STATE = """async () => {
  const { engine } = await import('/js/main.js');
  return (await engine.call('state')).state;
}"""
VISIBLE_BUBBLES = """() => [1, 2, 3].filter((pos) =>
  !document.querySelector(`.seat[data-pos="${pos}"] .bubble`).hidden)"""
MARKS = "() => performance.getEntriesByType('mark').map((m) => m.name)"
# The page's own clock of the player's click and of each bot's bubble showing (a MutationObserver), so that the
# gaps do not depend on how often the test samples the page.
WATCH_BUBBLES = """() => {
  const watch = window.bubblesWatched = { clicked: null, seen: {} };
  document.addEventListener("click", () => { if (watch.clicked === null) watch.clicked = performance.now(); }, true);
  const note = () => {
    for (const pos of [1, 2, 3]) {
      const bubble = document.querySelector(`.seat[data-pos="${pos}"] .bubble`);
      if (bubble && !bubble.hidden && !(pos in watch.seen)) watch.seen[pos] = performance.now();
    }
  };
  new MutationObserver(note).observe(document.body, { subtree: true, attributes: true, childList: true });
}"""
BUBBLES_SEEN = "() => window.bubblesWatched"
MARK_TIME = "(name) => performance.getEntriesByName(name)[0].startTime"


def wait_for_the_engines_match(page) -> None:
    """Until the engine's match is drawn (the page's match-ready mark)."""
    page.wait_for_function("() => performance.getEntriesByName('match-ready').length > 0", timeout=BOOT_MS)


def first_call_in_the_engine(page, what: str, seconds: float = 10) -> list:
    """The deal's first call once the engine has one, [seat, call]; ``what`` names it in the failure."""
    deadline = time.monotonic() + seconds
    while not (calls := page.evaluate(STATE)["deal"]["calls"]):
        assert time.monotonic() < deadline, f"the {what} never reached the engine"
        time.sleep(0.05)
    return calls[0]


def test_play_pressed_while_loading_opens_on_the_players_call(guarded_page, site_url):
    page = guarded_page
    held = hold_the_engine(page)  # under load the engine could otherwise be up before the click lands
    page.goto(site_url)
    page.locator("#btn-play-coinche").click()
    release(held)
    bidding = page.locator("#bidding")
    expect(bidding.locator("button:enabled").first).to_be_visible(timeout=BOOT_MS)
    wait_for_the_engines_match(page)
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


def test_after_the_player_the_bots_call_one_at_a_time_at_the_chosen_speed(returning_page, site_url):
    page = returning_page  # a returning visitor's: the pace is the same, without a first boot to pay
    page.goto(site_url + "?seed=paced")
    page.locator("#btn-play-coinche").click()
    expect(page.locator("#bidding button:enabled").first).to_be_visible(timeout=BOOT_MS)
    page.evaluate(WATCH_BUBBLES)
    page.locator('#bidding [data-call="pass"]').click()
    deadline = time.monotonic() + 30
    while len(page.evaluate(BUBBLES_SEEN)["seen"]) < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    watched = page.evaluate(BUBBLES_SEEN)
    seen = {int(pos): at for pos, at in watched["seen"].items()}
    assert sorted(seen) == [1, 2, 3], seen
    order = sorted(seen, key=seen.get)
    assert order == [1, 2, 3]  # west, north, east: in turn after the player
    times = [watched["clicked"]] + [seen[pos] for pos in order]
    gaps = [(b - a) / 1000 for a, b in zip(times, times[1:])]
    assert min(gaps) >= 0.9 * NORMAL_BOT_MS / 1000, gaps


# ---------------------------------------------------------------- the build's first deal, while the engine boots
# first-deals.json (tools/first_deals.py): deals the engine dealt when the site was built. Play pressed while
# the engine boots draws one at once; the engine deals the same seed once it is up. The tests hold the engine
# wheel's download, so that the engine cannot be up before they say.
SAVED = "() => localStorage.getItem('coinche.match')"
HAND = "() => [...document.querySelectorAll('#hand .card')].map((c) => c.dataset.card).sort()"


def play_while_the_engine_boots(page, site_url) -> HeldEngine:
    """Play pressed with the engine held, once the player may call: returns the held download."""
    held = hold_the_engine(page)
    page.goto(site_url)
    page.locator("#btn-play-coinche").click()
    expect(page.locator('#bidding [data-call="pass"]')).to_be_enabled(timeout=BOOT_MS)
    return held


def first_deals(page, site_url) -> dict:
    return page.evaluate("async (url) => (await fetch(url)).json()", site_url + "first-deals.json")


def test_play_while_the_engine_boots_draws_a_deal_of_the_build_and_holds_the_players_call(guarded_page, site_url):
    page = guarded_page
    held = hold_the_engine(page)
    page.goto(site_url)
    page.locator("#btn-play-coinche").click()
    pass_button = page.locator('#bidding [data-call="pass"]')
    expect(pass_button).to_be_enabled(timeout=BOOT_MS)
    assert page.evaluate("() => document.body.dataset.state") == "loading"  # before the engine is up
    assert {"cards-dealt", "player-can-act", "first-deal-drawn"} <= set(page.evaluate(MARKS))
    drawn = page.evaluate(HAND)
    deals = first_deals(page, site_url)["deals"]["coinche"]
    matching = [d for d in deals if sorted(d["state"]["deal"]["hand"]) == drawn]
    assert len(matching) == 1, drawn
    assert len(deals) == 64 and len({d["deal_seed"] for d in deals}) == 64

    pass_button.click()  # held by the page: the engine is not up
    expect(page.locator(".toast", has_text="Your call is kept")).to_be_visible()
    expect(page.locator("#bidding")).to_be_hidden()
    assert page.evaluate(SAVED) is None  # nothing saved that the engine did not deal
    release(held)

    expect(page.locator("body")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    wait_for_the_engines_match(page)
    state = page.evaluate(STATE)
    assert state["deal_seed"] == matching[0]["deal_seed"]  # the engine dealt the seed that was drawn
    assert sorted(state["deal"]["hand"]) == drawn
    assert state["deal"]["calls"][0] == [0, "pass"]  # the held call reached the engine
    expect(page.locator(".toast", has_text="Your call is kept")).to_have_count(0)
    saved = json.loads(page.evaluate(SAVED))
    assert saved["settings"]["deal_seed"] == matching[0]["deal_seed"] and saved["actions"][0] == "pass"
    # The match seed is the engine's own: the build's first deals do not fix the deals that follow.
    assert saved["settings"]["seed"] != matching[0]["state"]["settings"]["seed"]


def test_a_first_deal_that_the_engine_does_not_deal_gives_way_to_the_engines_and_its_held_call_is_dropped(
        page, site_url):
    # (not guarded_page: the page warns on the console that the deals differ)
    held = hold_the_engine(page)
    warnings: list[str] = []
    page.on("console", lambda message: message.type == "warning" and warnings.append(message.text))

    def forged(route):
        file = route.fetch().json()
        for deal in file["deals"]["coinche"]:  # each drawn hand is not the one its seed deals
            deal["state"]["deal"]["hand"] = ["7s", "8s", "9s", "Ts", "Js", "Qs", "Ks", "As"]
        route.fulfill(json=file)

    page.route("**/first-deals.json", forged)
    page.goto(site_url)
    page.locator("#btn-play-coinche").click()
    expect(page.locator('#bidding [data-call="pass"]')).to_be_enabled(timeout=BOOT_MS)
    assert page.evaluate(HAND) == sorted(["7s", "8s", "9s", "Ts", "Js", "Qs", "Ks", "As"])
    page.locator('#bidding [data-call="pass"]').click()
    release(held)
    wait_for_the_engines_match(page)
    state = page.evaluate(STATE)
    assert state["deal"]["calls"] == []  # the call made on other cards never reached the engine
    assert page.evaluate(HAND) == sorted(state["deal"]["hand"])  # the engine's cards are on screen
    expect(page.locator('#bidding [data-call="pass"]')).to_be_enabled()  # the player calls again, on them
    assert any("first deal" in text for text in warnings), warnings


def test_other_settings_than_the_builds_wait_for_the_engine_to_deal(guarded_page, site_url):
    page = guarded_page
    page.add_init_script("localStorage.setItem('coinche.settings', JSON.stringify({ target: 501 }))")
    held = hold_the_engine(page)
    page.goto(site_url)
    page.locator("#btn-play-coinche").click()
    expect(page.locator("#boot-waiting")).to_be_visible()
    page.wait_for_timeout(500)
    expect(page.locator("#table")).to_be_hidden()  # no deal of the build for a 501-point match
    release(held)
    expect(page.locator('#bidding [data-call="pass"]')).to_be_enabled(timeout=BOOT_MS)
    assert "first-deal-drawn" not in page.evaluate(MARKS)
    assert page.evaluate(STATE)["target"] == 501


def test_leaving_the_builds_first_deal_before_the_engine_deals_saves_nothing(guarded_page, site_url):
    page = guarded_page
    held = play_while_the_engine_boots(page, site_url)
    page.locator("#btn-menu").click()
    page.locator("#btn-quit").click()
    expect(page.locator("#home")).to_be_visible()
    release(held)
    expect(page.locator("body")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    page.wait_for_timeout(300)
    expect(page.locator("#home")).to_be_visible()  # the engine's late answer does not open the table
    assert page.evaluate(SAVED) is None
    expect(page.locator("#btn-resume")).to_be_hidden()
    page.locator("#btn-play-classic").click()  # and a new match starts as usual
    expect(page.locator("#table")).to_be_visible(timeout=BOOT_MS)
    expect(page.locator("#bidding button:enabled").first).to_be_visible(timeout=BOOT_MS)
    assert page.evaluate(STATE)["variant"] == "classic"


# ---------------------------------------------------------------- the seams of the first deal (#25 item 4)
BID_BUTTON = "() => { const b = document.querySelector('#bid-button'); return b && {call: b.dataset.call, disabled: b.disabled}; }"


def test_the_number_and_suit_chosen_on_the_builds_first_deal_stay_chosen_when_the_engine_deals(guarded_page, site_url):
    page = guarded_page
    held = play_while_the_engine_boots(page, site_url)
    page.locator('#bidding .chip.value[data-value="100"]').click()
    page.locator('#bidding .chip.suit[data-suit="h"]').click()
    assert page.evaluate(BID_BUTTON) == {"call": "100h", "disabled": False}
    page.evaluate("() => { document.querySelector('#bid-button').dataset.preview = 'yes'; }")  # the preview's button
    release(held)
    wait_for_the_engines_match(page)
    # The engine's state opens the same calls to the player: the panel is left as it was (the preview's very
    # button), and the choice is still there.
    expect(page.locator("#bid-button[data-preview]")).to_be_visible()
    expect(page.locator('#bidding .chip.value[data-value="100"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator('#bidding .chip.suit[data-suit="h"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator('#bidding .chip[aria-pressed="true"]')).to_have_count(2)
    assert page.evaluate(BID_BUTTON) == {"call": "100h", "disabled": False}
    assert page.evaluate(STATE)["deal"]["calls"] == []  # nothing was sent: choosing is not calling
    page.locator("#bid-button").click()
    assert first_call_in_the_engine(page, "bid") == [0, "100h"]


# Every frame's place of the Pass button, and every animation started in the panel, from the press on: a single
# look could fall between two frames of a move (CI's did, once, 17 px into the panel's rise).
WATCH_THE_PASS_BUTTON = """() => {
  const button = document.querySelector('#bidding [data-call="pass"]');
  const { x, y } = button.getBoundingClientRect();
  const watch = window.passWatched = { frames: 0, moved: 0, started: [] };
  document.querySelector("#bidding").addEventListener("animationstart", (event) =>
    watch.started.push(`${event.target.id || event.target.className}: ${event.animationName}`));
  const frame = () => {
    const now = button.getBoundingClientRect();
    watch.frames += 1;
    watch.moved = Math.max(watch.moved, Math.abs(now.x - x), Math.abs(now.y - y));
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}"""
# (two frames more, so that a style changed by the last message has been drawn)
PASS_BUTTON_WATCHED = """() => new Promise((done) =>
  requestAnimationFrame(() => requestAnimationFrame(() => done(window.passWatched))))"""


def test_a_click_pressed_on_the_builds_deal_and_released_once_the_engine_has_dealt_is_the_players_call(
        guarded_page, site_url):
    """A click whose press and release straddle the engine's first drawing and the coach's first advice (as
    under a loaded machine's slow input) still calls: the panel keeps its buttons when the engine opens the
    same calls, and the coach's line has its room kept. (Before, the panel was drawn anew and the advice pushed
    it up by two lines: the release fell on another element, the browser fired no click, the pass was lost.)"""
    page = guarded_page
    held = play_while_the_engine_boots(page, site_url)
    pass_button = page.locator('#bidding [data-call="pass"]')
    pass_button.hover()  # once the button stands still (the panel slides in)
    page.evaluate(WATCH_THE_PASS_BUTTON)
    page.mouse.down()
    release(held)
    wait_for_the_engines_match(page)
    # The coach's advice (which needs the engine) shows under the hand, in the room kept for it: nothing moves
    # (but for the pixel that the coach's label adds to its line) in any frame drawn while the button is held.
    expect(page.locator("#coach-line")).to_have_attribute("data-kind", "auction", timeout=BOOT_MS)
    watched = page.evaluate(PASS_BUTTON_WATCHED)
    assert watched["started"] == [], watched  # (the panel rose anew, 16 px, when the engine took over)
    assert watched["frames"] > 0 and watched["moved"] < 2, watched
    page.mouse.up()
    assert first_call_in_the_engine(page, "pass") == [0, "pass"]


KEPT = "() => JSON.parse(localStorage.getItem('coinche.first-deals'))"


def kept_deals() -> dict:
    """What a visit keeps for the next one, dealt by this engine (web/js/first-deals.js)."""
    from coinche import webcommands

    return {"format": "coinche-kept-first-deals/1", "settings": {"target": 1000, "level": "normal"},
            "deals": {variant: webcommands.first_deal(variant=variant) for variant in ("coinche", "classic")}}


def test_a_visit_keeps_the_next_visits_first_deals_dealt_by_the_engine(guarded_page, site_url):
    from coinche import webcommands

    page = guarded_page
    page.goto(site_url)
    expect(page.locator("body")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    deadline = time.monotonic() + 30
    while not (page.evaluate(KEPT) or {}).get("deals", {}).get("classic"):
        assert time.monotonic() < deadline, "no first deal kept for the next visit"
        time.sleep(0.1)
    kept = page.evaluate(KEPT)
    assert kept["format"] == "coinche-kept-first-deals/1" and kept["settings"] == {"target": 1000, "level": "normal"}
    build = {d["deal_seed"] for v in ("coinche", "classic") for d in first_deals(page, site_url)["deals"][v]}
    for variant in ("coinche", "classic"):
        deal = kept["deals"][variant]
        assert deal["deal_seed"] not in build  # a deal of its own, not one of the build's
        assert deal == webcommands.first_deal(variant=variant, deal_seed=deal["deal_seed"])  # the engine's own
    assert kept["deals"]["coinche"]["deal_seed"] != kept["deals"]["classic"]["deal_seed"]


def test_a_returning_player_draws_the_kept_first_deal_never_the_builds(guarded_page, site_url):
    page = guarded_page
    kept = kept_deals()
    page.add_init_script(f"localStorage.setItem('coinche.first-deals', {json.dumps(json.dumps(kept))})")
    asked_build: list[str] = []
    page.on("request", lambda request: "first-deals.json" in request.url and asked_build.append(request.url))
    held = play_while_the_engine_boots(page, site_url)
    pass_button = page.locator('#bidding [data-call="pass"]')
    assert page.evaluate("() => document.body.dataset.state") == "loading"
    mine = kept["deals"]["coinche"]
    assert page.evaluate(HAND) == sorted(mine["state"]["deal"]["hand"])
    assert asked_build == []  # the build's deals are not even fetched
    assert set(page.evaluate(KEPT)["deals"]) == {"classic"}  # a kept deal is drawn once
    pass_button.click()
    release(held)
    wait_for_the_engines_match(page)
    state = page.evaluate(STATE)
    assert state["deal_seed"] == mine["deal_seed"] and state["deal"]["calls"][0] == [0, "pass"]
    deadline = time.monotonic() + 30  # and the engine deals the next visit's
    while "coinche" not in page.evaluate(KEPT)["deals"]:
        assert time.monotonic() < deadline, "no new first deal kept"
        time.sleep(0.1)
    after = page.evaluate(KEPT)["deals"]
    assert after["coinche"]["deal_seed"] != mine["deal_seed"] and after["classic"] == kept["deals"]["classic"]


def test_a_returning_player_whose_kept_deals_are_of_other_settings_waits_for_the_engine(guarded_page, site_url):
    page = guarded_page
    kept = dict(kept_deals(), settings={"target": 501, "level": "normal"})
    page.add_init_script(f"localStorage.setItem('coinche.first-deals', {json.dumps(json.dumps(kept))})")
    held = hold_the_engine(page)
    page.goto(site_url)
    page.locator("#btn-play-coinche").click()
    expect(page.locator("#boot-waiting")).to_be_visible()
    page.wait_for_timeout(500)
    expect(page.locator("#table")).to_be_hidden()  # neither the kept deal (501 points) nor one of the build's
    release(held)
    expect(page.locator('#bidding [data-call="pass"]')).to_be_enabled(timeout=BOOT_MS)
    assert "first-deal-drawn" not in page.evaluate(MARKS)
