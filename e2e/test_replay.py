"""A finished deal replayed card by card from its summary (every call and card as the engine's record has
them, the final points as the summary's), stepped with the buttons, the slider and the keyboard; the deal
shared as a link (from the summary and from the menu) that deals the same hand in a fresh profile."""
from __future__ import annotations

import json
import os
import re
import sys
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from coinche.session import Session

sys.path.insert(0, str(Path(__file__).parent))  # --import-mode=importlib: the helpers beside this file
from test_table import ENGINE_STATE, look, new_match, tap, until_changed  # noqa: E402

SAVE_KEY = "coinche.match"  # js/table/settings.js
SHOTS = os.environ.get("REPLAY_SHOTS")  # a folder to save screenshots of the replay in


@pytest.fixture(scope="module")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "reduced_motion": "reduce", "viewport": {"width": 390, "height": 844}}


def play_to_summary(page, seconds=120):
    """Pass at every call and play the first legal card until a played deal's summary shows."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        ui, seen = look(page)
        if ui["summary"]:
            return
        pass_or_play(page, ui, seen)
    raise AssertionError("no deal was played to its end")


def pass_or_play(page, ui: dict, seen) -> None:
    """The player's move if it is theirs (`look`'s `ui`): a pass at every call, the first legal card; else a
    wait until the table changes from what `look` saw."""
    passing = page.locator("#bidding button[data-call=pass]:enabled")
    if ui["bidding"] and passing.count():
        passing.click()
    elif ui["myTurn"] and ui["playable"]:
        card = ui["playable"][0]
        tap(page, card)
        expect(page.locator(f'#hand .card[data-card="{card}"]')).to_have_count(0)
    else:
        until_changed(page, seen)


def last_record(page) -> dict:
    """The finished deal's record, from the page's save replayed by the engine in Python."""
    snapshot = json.loads(page.evaluate("(key) => localStorage.getItem(key)", SAVE_KEY))
    return Session.from_snapshot(snapshot).match.history[-1]


def shown(page) -> dict:
    return page.evaluate("""() => {
      const d = document.querySelector('#dlg-replay');
      const cards = (s) => [...d.querySelectorAll(s)].map((n) => n.dataset.card);
      return {
        step: Number(d.dataset.step), kind: d.dataset.kind,
        latest: cards('.replay-trick .card.latest'), trick: cards('.replay-trick .mini-slot:not(.replay-turned) .card'),
        hands: [0, 1, 2, 3].map((s) => cards(`.replay-seat[data-seat="${s}"] .card`)),
        calls: [...d.querySelectorAll('.replay-call')].map((n) => n.dataset.call),
        current: d.querySelector('.replay-call.current')?.dataset.call ?? null,
        points: [...d.querySelectorAll('.replay-side')].map((n) => n.querySelector('.replay-cards').textContent),
        scored: d.querySelector('.replay-scored') && [d.querySelector('.replay-scored').dataset.us,
                                                       d.querySelector('.replay-scored').dataset.them],
      };
    }""")


def summary_rows(page) -> dict:
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#dlg-summary tbody tr')].map(
      (tr) => [tr.className || tr.querySelector('th').textContent, [...tr.querySelectorAll('td')].map((n) => n.textContent)]))""")


@pytest.mark.full_only  # 15 s of CPU (make test: the what-if and keyboard walks open the replay)
def test_a_finished_deal_replays_call_by_call_and_card_by_card(clipboard_page, site_url):
    page = clipboard_page
    new_match(page, site_url, "coinche", seed="replay-e2e")
    play_to_summary(page)
    record = last_record(page)
    assert len(record["plays"]) == 32
    rows = summary_rows(page)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/summary-390.png")

    page.click("#dlg-summary .replay-open")
    dialog = page.locator("#dlg-replay")
    expect(dialog).to_be_visible()
    expect(dialog).to_have_attribute("data-step", "0")
    first = shown(page)
    assert first["kind"] == "deal" and first["calls"] == [] and first["trick"] == []
    dealt = [sorted(h.split(",")) for h in record["hands"]]
    assert [sorted(h) for h in first["hands"]] == dealt  # the four hands face up, as dealt

    calls, plays = record["calls"], record["plays"]
    for i, call in enumerate(calls, 1):  # the auction, with the step-forward button
        page.click("#dlg-replay .replay-next")
        ui = shown(page)
        assert ui["step"] == i and ui["kind"] == "call" and ui["current"] == call and ui["calls"] == calls[:i]
    played: set[str] = set()
    for i, card in enumerate(plays):  # the cards: the first half by button, the rest by the arrow key
        if i < 16:
            page.click("#dlg-replay .replay-next")
        else:
            page.keyboard.press("ArrowRight")
        expect(dialog).to_have_attribute("data-step", str(len(calls) + i + 1))
        ui = shown(page)
        played.add(card)
        assert ui["kind"] == "card" and ui["latest"] == [card], (i, ui)
        assert sorted(ui["trick"]) == sorted(plays[i - i % 4:i + 1])  # the trick on the table so far
        assert sorted(c for h in ui["hands"] for c in h) == sorted(set(sum(dealt, [])) - played)
    # the end: the card points and the score added are the summary's
    ui = shown(page)
    assert ui["points"] == rows["Card points"]
    assert [f"+{n}" for n in ui["scored"]] == rows["scored"]
    assert ui["points"] == [str(n) for n in record["result"]["cards"]]
    expect(page.locator("#dlg-replay .replay-next")).to_be_disabled()

    # back with the keyboard, Home and End, the slider
    page.keyboard.press("ArrowLeft")
    expect(dialog).to_have_attribute("data-step", str(len(calls) + 31))
    assert shown(page)["latest"] == [plays[30]]
    page.keyboard.press("Home")
    expect(dialog).to_have_attribute("data-step", "0")
    page.keyboard.press("End")
    expect(dialog).to_have_attribute("data-step", str(len(calls) + 32))
    page.locator("#dlg-replay .replay-slider").fill(str(len(calls) + 4))
    expect(dialog).to_have_attribute("data-step", str(len(calls) + 4))
    ui = shown(page)
    assert sorted(ui["trick"]) == sorted(plays[:4]) and ui["latest"] == [plays[3]]
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/replay-390.png")
        page.set_viewport_size({"width": 1440, "height": 900})
        page.screenshot(path=f"{SHOTS}/replay-1440.png")

    page.click("#dlg-replay .replay-close")
    expect(dialog).to_be_hidden()
    expect(page.locator("#dlg-summary")).to_be_visible()  # back to the game where it was


# The engine's answer to `load` (a resume) held until the test calls window.releaseLoad().
HOLD_LOAD = """async () => {
  const { engine } = await import('/js/main.js');
  const call = engine.call.bind(engine);
  engine.call = (name, args) => name !== 'load' ? call(name, args)
    : new Promise((resolve) => { window.releaseLoad = () => resolve(call(name, args)); });
}"""


@pytest.mark.full_only  # 26 s of CPU (make test: test_saves' shared deal link)
def test_a_shared_deal_deals_the_same_hand_to_a_friend(clipboard_page, site_url, browser):
    page = clipboard_page
    new_match(page, site_url, "coinche", seed="share-replay-e2e-4")  # its first deal is played, not void
    play_to_summary(page)
    record = last_record(page)

    page.click("#dlg-summary .share-deal")
    expect(page.locator("#dlg-summary .share-status")).to_have_text(re.compile("copied|shared"))
    link = page.evaluate("() => navigator.clipboard.readText()")
    assert re.fullmatch(rf"{re.escape(site_url)}index\.html#play=coinche&seed=\d+&dealer={record['dealer']}", link), link

    # the menu shares the deal being played, and lists the deal just finished
    page.click("#dlg-summary .dialog-actions .btn.primary")
    expect(page.locator("#dlg-summary")).to_be_hidden()
    page.click("#btn-menu")
    page.click("#btn-share-deal")
    expect(page.locator("#dlg-settings")).to_be_hidden()
    expect(page.locator("#toasts .toast").last).to_contain_text("copied")
    state = page.evaluate(ENGINE_STATE)
    now = page.evaluate("() => navigator.clipboard.readText()")
    assert now == page.evaluate("async (state) => (await import('/js/main.js')).shareLink(state)", state)
    assert now != link
    page.click("#btn-menu")
    page.click("#btn-previous-deals")
    expect(page.locator("#dlg-deals .deals-item")).to_have_count(1)
    page.click("#dlg-deals .replay-open")
    expect(page.locator("#dlg-replay")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#dlg-replay")).to_be_hidden()
    page.keyboard.press("Escape")
    expect(page.locator("#dlg-deals")).to_be_hidden()

    # after a reload, the resumed match still lists its finished deal, even in a menu opened before the engine
    # has answered the resume (the table is shown first): its buttons follow the state once it arrives
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-state", "ready", timeout=60_000)
    page.evaluate(HOLD_LOAD)
    page.click("#btn-resume")
    expect(page.locator("#table")).to_be_visible()
    page.wait_for_function("() => window.releaseLoad !== undefined")
    page.click("#btn-menu")
    expect(page.locator("#btn-previous-deals")).to_be_disabled()  # nothing to list yet
    page.evaluate("() => window.releaseLoad()")
    page.click("#btn-previous-deals")
    expect(page.locator("#dlg-deals .deals-item")).to_have_count(1)
    page.click("#dlg-deals .deals-item .share-deal")
    expect(page.locator("#dlg-deals .share-status")).to_contain_text("copied")
    assert page.evaluate("() => navigator.clipboard.readText()") == link

    friend = browser.new_context(reduced_motion="reduce")  # a fresh profile: no save, no cache
    try:
        other = friend.new_page()
        other.goto(link.replace("index.html#", "index.html?speed=test#"))
        expect(other.locator("#table")).to_be_visible(timeout=60_000)
        expect(other.locator("#hand .card")).to_have_count(8, timeout=60_000)
        hand = other.evaluate("() => [...document.querySelectorAll('#hand .card')].map((n) => n.dataset.card)")
        assert sorted(hand) == sorted(record["hands"][0].split(","))
    finally:
        friend.close()
