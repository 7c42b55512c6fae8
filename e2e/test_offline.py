"""Offline after one visit: the service worker precaches the table, the judge and the rules page, Pyodide
included, and once asked the puzzle page and its set; with the network cut, a reload boots the engine, a deal
is played, the deal of the day is dealt, the judge rules and a puzzle link opens and is answered."""
from __future__ import annotations

import random
import re
import sys
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).parent))  # --import-mode=importlib: the helpers beside this file
from pwa_helpers import boot_ready, wait_for_control
from test_judge import ARGUED_OVER_PARTNER, expect_ruled, verdicts
from test_table import ENGINE_STATE, bid_or_pass, choose_settings, look, start, tap, until_changed

DEAL_SECONDS = 120
# The files no first visit needs (tools/precache.py LATER), asked of the worker as js/pwa.js asks; true once
# the puzzle page, its script, the set and the engine's later modules are in the cache.
PRECACHE_LATER = """async () => {
  const registration = await navigator.serviceWorker.ready;
  const later = (await (await fetch(new URL("build-info.json", registration.scope))).json()).later.url;
  registration.active.postMessage({ type: "precache-later" });
  for (let i = 0; i < 600; i++) {
    const found = await Promise.all(["puzzles.html", "js/puzzles/main.js", "puzzles/open.jsonl", later]
      .map((path) => caches.match(new URL(path, registration.scope).href)));
    if (found.every(Boolean)) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}"""
PUZZLE = "contract=80h1-0&hands=Jh,Ac/9h,As/Ts,Tc/7h,Ad&trick=0:&won=32,33/3,3&to=0&solution=Jh&margin=20&rating=1200"


@pytest.fixture
def browser_context_args(browser_context_args):
    return {**browser_context_args, "reduced_motion": "reduce", "viewport": {"width": 390, "height": 844}}


def play_one_deal(page, variant: str, rng: random.Random) -> None:
    """Bid and play until a deal summary shows (a deal every seat passes is dealt again)."""
    deadline = time.monotonic() + DEAL_SECONDS
    while time.monotonic() < deadline:
        ui, seen = look(page)
        if ui["summary"]:
            return
        if ui["bidding"]:
            bid_or_pass(page, variant, rng)
        elif ui["myTurn"] and ui["playable"]:
            card = rng.choice(ui["playable"])
            tap(page, card)
            expect(page.locator(f'#hand .card[data-card="{card}"]')).to_have_count(0)
        else:
            until_changed(page, seen)
    raise AssertionError(f"no deal ended within {DEAL_SECONDS} s")


def test_after_one_visit_the_table_the_judge_the_rules_and_the_puzzles_work_offline(guarded_page, site_url, context):
    page = guarded_page
    page.goto(f"{site_url}?speed=test&seed=offline")
    boot_ready(page)
    assert wait_for_control(page).endswith("/sw.js")
    assert page.evaluate(PRECACHE_LATER)

    context.set_offline(True)
    first_offline = len(page.responses)
    page.reload()
    boot_ready(page)
    choose_settings(page, target="501", level="easy", speed="fast", coach=True)
    start(page, "coinche")
    play_one_deal(page, "coinche", random.Random("offline"))
    expect(page.locator("#dlg-summary")).to_be_visible()
    page.click("#dlg-summary .dialog-actions .btn.primary")
    if page.evaluate(ENGINE_STATE)["winner"] is None:
        page.click("#btn-home")
    else:  # that deal ended the match: its result, then home
        page.click("#dlg-result .dialog-actions button[value=home]")
    page.click("#btn-daily")  # the deal of the day: the engine's, from the date alone (a later module, mounted)
    expect(page.locator("#table")).to_have_attribute("data-one-deal", re.compile(r"1 of 4"))
    expect(page.locator("#hand .card")).to_have_count(8)

    page.goto(f"{site_url}judge.html#{ARGUED_OVER_PARTNER}")
    expect_ruled(page, ARGUED_OVER_PARTNER)
    assert verdicts(page) == {"Jh": (True, 2), "Kd": (False, 1), "7s": (False, 1)}

    page.goto(f"{site_url}rules.html")
    expect(page.locator("body")).to_have_attribute("data-state", "ready", timeout=10_000)

    page.goto(f"{site_url}puzzles.html#{PUZZLE}")
    puzzle = page.locator("#puzzle")
    expect(puzzle).to_have_attribute("data-state", "ready", timeout=60_000)
    page.locator('.puzzle-seat.is-mine .card[data-card="Jh"]').click()
    expect(puzzle).to_have_attribute("data-result", "right")

    offline = page.responses[first_offline:]
    assert offline, "nothing was loaded offline"
    assert any(r.url.endswith("/coinche-later.zip") for r in offline), "the engine's later modules were not mounted"
    # (the browser's own update check of sw.js never goes through a service worker)
    from_network = [r.url for r in offline if not r.from_service_worker and not r.url.endswith("/sw.js")]
    assert not from_network, f"answered by the network while offline: {from_network}"


def test_a_page_opened_offline_with_a_query_string_is_served(guarded_page, site_url, context):
    page = guarded_page
    page.goto(site_url)
    boot_ready(page)
    wait_for_control(page)
    context.set_offline(True)
    page.goto(f"{site_url}index.html?seed=q&speed=test")
    boot_ready(page)
    page.goto(f"{site_url}?utm=x")
    boot_ready(page)
