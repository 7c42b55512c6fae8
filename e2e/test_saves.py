"""A match that survives anything: a reload in the middle of a trick, a closed tab, a crash of the engine's
worker; and a save that is damaged or from an older release is told and replaced by a new match."""
from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).parent))  # --import-mode=importlib: the helpers beside this file
from pwa_helpers import boot_ready, wait_until  # noqa: E402
from test_table import ENGINE_STATE, UI, look, new_match, tap, until_changed  # noqa: E402

SAVE_KEY = "coinche.match"
TRICK_ON_TABLE = "() => [...document.querySelectorAll('#table .trick .slot [data-card]')].map((n) => n.dataset.card)"


@pytest.fixture(scope="module")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "reduced_motion": "reduce", "viewport": {"width": 390, "height": 844}}


def my_turn_in_a_trick(page, seconds=90):
    """Pass every call, then play the first playable card until it is the player's turn with 1 to 3 cards
    on the table; the engine's state then."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        ui, seen = look(page)
        if ui["summary"]:
            page.click("#dlg-summary .dialog-actions .btn.primary")
        elif ui["bidding"]:
            page.click("#bidding button[data-call=pass]")
        elif ui["myTurn"] and ui["playable"]:
            state = page.evaluate(ENGINE_STATE)
            if 1 <= len(state["deal"]["trick"]) <= 3 and state["deal"]["current_player"] == 0:
                return state
            card = ui["playable"][0]
            tap(page, card)
            expect(page.locator(f'#hand .card[data-card="{card}"]')).to_have_count(0)
        else:
            until_changed(page, seen)
    raise AssertionError("never the player's turn in the middle of a trick")


def resume_and_compare(page, before):
    expect(page.locator("#btn-resume")).to_be_visible()
    boot_ready(page)
    page.click("#btn-resume")
    expect(page.locator("#table")).to_be_visible()
    expect(page.locator("#hand")).to_have_class(re.compile("my-turn"))
    after = page.evaluate(ENGINE_STATE)
    for key in ("deal", "totals", "settings", "deal_index", "history"):
        assert after[key] == before[key], key
    ui = page.evaluate(UI)
    assert sorted(ui["hand"]) == sorted(before["deal"]["hand"])
    assert sorted(ui["playable"]) == sorted(before["deal"]["legal"])
    assert sorted(page.evaluate(TRICK_ON_TABLE)) == sorted(before["deal"]["trick"])
    return after


def test_a_reload_in_the_middle_of_a_trick_finds_the_same_position(returning_page, site_url):
    page = returning_page
    new_match(page, site_url, "coinche", seed="mid-trick")
    before = my_turn_in_a_trick(page)
    page.reload()
    resume_and_compare(page, before)


def test_a_closed_tab_leaves_the_match_to_the_next_one(guarded_page, site_url, context):
    page = guarded_page
    new_match(page, site_url, "classic", seed="closed-tab")
    before = my_turn_in_a_trick(page)
    page.close()
    again = context.new_page()
    again.goto(f"{site_url}?speed=test")
    resume_and_compare(again, before)


def the_one_engine_worker(page, timeout_s=10):
    """The page's only engine worker, once any other has closed."""
    deadline = time.monotonic() + timeout_s
    while True:
        engines = [w for w in page.workers if w.url.endswith("/js/engine-worker.js")]
        if len(engines) == 1 or time.monotonic() > deadline:
            (worker,) = engines
            return worker
        page.wait_for_timeout(50)


def test_a_crash_of_the_engine_worker_restarts_it_with_the_match(returning_page, site_url):
    page = returning_page
    new_match(page, site_url, "coinche", seed="crash")
    before = my_turn_in_a_trick(page)
    # the deal's par may have started the review helper, a second engine worker: this test crashes the table's
    page.evaluate("async () => (await import('/js/table/review-helper.js')).allowHelper(false)")
    worker = the_one_engine_worker(page)
    worker.evaluate("() => { setTimeout(() => { throw new Error('simulated crash'); }); }")
    expect(page.locator("#toasts .notice")).to_contain_text("The game engine stopped.", timeout=10_000)
    expect(page.locator("#table")).to_be_visible()
    after = wait_until(page, f"async () => {{ try {{ return await ({ENGINE_STATE})(); }} catch {{ return null; }} }}")
    expect(page.locator("#hand .card.playable").first).to_be_visible(timeout=60_000)
    for key in ("deal", "totals", "settings", "deal_index"):
        assert after[key] == before[key], key
    # and the match goes on
    card = after["deal"]["legal"][0]
    tap(page, card)
    expect(page.locator(f'#hand .card[data-card="{card}"]')).to_have_count(0)


BAD_SAVES = {
    "not JSON": "{\"format\": \"coinche-sess",
    "an impossible action": json.dumps({"format": "coinche-session/1", "engine": "0", "actions": ["Zz"],
                                        "settings": {"variant": "classic", "target": 501, "level": "easy",
                                                     "seed": "x", "humans": [0]}}),
    "no settings": json.dumps({"format": "coinche-session/1", "actions": []}),
    "an older release": json.dumps({"format": "coinche-session/0", "settings": {}, "actions": []}),
}


@pytest.mark.parametrize("what", BAD_SAVES)
def test_a_bad_save_is_told_and_a_new_match_starts(returning_page, site_url, what):
    page = returning_page
    page.goto(f"{site_url}?speed=test")
    page.evaluate("([key, value]) => localStorage.setItem(key, value)", [SAVE_KEY, BAD_SAVES[what]])
    page.reload()
    boot_ready(page)
    expect(page.locator("#btn-resume")).to_be_visible()
    page.click("#btn-resume")
    message = "older version" if what == "an older release" else "could not be read"
    expect(page.locator("#toasts .notice")).to_contain_text(message)
    expect(page.locator("#table")).to_be_visible()
    state = page.evaluate(ENGINE_STATE)
    # A fresh match: no trick can be over before the human has played (in the classic a bot may already
    # have taken, so the play may have begun).
    assert state["deal_index"] == 0 and state["totals"] == [0, 0] and state["deal"]["tricks"] == []
    assert state["deal"]["phase"] in ("auction", "play")
    saved = json.loads(page.evaluate("(key) => localStorage.getItem(key)", SAVE_KEY))
    assert saved["format"] == "coinche-session/1" and saved["settings"]["seed"] == state["settings"]["seed"]


@pytest.mark.parametrize("variant", ["coinche", "classic"])
def test_a_shared_deal_link_deals_the_same_cards_in_a_fresh_profile(returning_page, site_url, browser, variant):
    page = returning_page
    new_match(page, site_url, variant, seed=f"share-{variant}")
    expect(page.locator("#hand .card")).to_have_count(5 if variant == "classic" else 8)
    state = page.evaluate(ENGINE_STATE)
    link = page.evaluate("async (state) => (await import('/js/main.js')).shareLink(state)", state)
    assert link == (f"{site_url}index.html#play={variant}&seed={state['deal_seed']}"
                    f"&dealer={state['deal']['dealer']}")

    friend = browser.new_context(reduced_motion="reduce")  # a fresh profile: no save, no cache
    try:
        other = friend.new_page()
        other.goto(link.replace("index.html#", "index.html?speed=test#"))
        expect(other.locator("#table")).to_be_visible(timeout=60_000)
        mine = wait_until(other, f"async () => {{ try {{ return await ({ENGINE_STATE})(); }} catch {{ return null; }} }}")
        # the same cards (in classic, three more once someone has taken: the same five among them)
        assert set(state["deal"]["hand"]) <= set(mine["deal"]["hand"]), (mine["deal"], state["deal"])
        assert mine["deal"]["dealer"] == state["deal"]["dealer"] and mine["deal_seed"] == state["deal_seed"]
        assert "#" not in other.url  # a reload resumes the match instead of dealing again
    finally:
        friend.close()
