"""The table, played through the page as a player would: whole matches of both variants, the engine's
forbidden cards dimmed at every turn, slide-to-cancel, the bid button, keyboard play, the coach line,
settings and resume.  Test speed (?speed=test) and reduced motion keep the matches short."""
from __future__ import annotations

import random
import re
import time

import pytest
from playwright.sync_api import expect

BOOT_MS = 60_000
MATCH_SECONDS = 300

# One look at the page: which dialogs are open, whether it is the player's turn, the hand as drawn.
UI = """() => {
  const q = (s) => document.querySelector(s);
  const cards = (s) => [...document.querySelectorAll(s)].map((n) => n.dataset.card);
  const bidding = q('#bidding');
  return {
    screen: document.body.dataset.screen,
    summary: q('#dlg-summary').open,
    result: q('#dlg-result').open,
    bidding: !bidding.hidden && !!bidding.querySelector('button:enabled'),
    variant: bidding.dataset.variant || null,
    myTurn: q('#hand').classList.contains('my-turn'),
    hand: cards('#hand .card'),
    forbidden: cards('#hand .card.forbidden'),
    playable: cards('#hand .card.playable'),
    coach: q('#coach-line').hidden ? null : q('#coach-line').textContent,
    toasts: [...document.querySelectorAll('#toasts .toast')].map((n) => n.textContent),
    scored: [...document.querySelectorAll('#dlg-summary tr.scored td')].map((n) => n.textContent),
  };
}"""

ENGINE_STATE = """async () => {
  const { engine } = await import('/js/main.js');
  return (await engine.call('state')).state;
}"""


@pytest.fixture
def browser_context_args(browser_context_args):
    return {**browser_context_args, "reduced_motion": "reduce", "viewport": {"width": 390, "height": 844}}


def open_home(page, site_url, seed="e2e"):
    page.goto(f"{site_url}?speed=test&seed={seed}")
    expect(page.locator("#home")).to_be_visible()
    expect(page.locator("body")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)


def new_match(page, site_url, variant="coinche", seed="e2e", **settings):
    """From a fresh visit: settings chosen in the dialog (501, easy, fast by default), then Play."""
    open_home(page, site_url, seed=seed)
    choose_settings(page, **settings)
    start(page, variant)


def choose_settings(page, *, target="501", level="easy", speed="fast", coach=True):
    page.click("#btn-settings")
    dialog = page.locator("#dlg-settings")
    expect(dialog).to_be_visible()
    for name, value in (("target", target), ("level", level), ("speed", speed)):
        dialog.locator(f"input[name={name}][value='{value}']").check(force=True)
    dialog.locator("#setting-coach").set_checked(coach, force=True)
    dialog.locator("button[type=submit]").click()
    expect(dialog).to_be_hidden()


def start(page, variant):
    page.click(f"#btn-play-{variant}")
    expect(page.locator("#table")).to_be_visible()


def tap(page, card):
    """Press and release on the visible left part of a card of the hand, as a finger would."""
    node = page.locator(f'#hand .card[data-card="{card}"]')
    box = node.bounding_box()
    node.click(position={"x": min(12, box["width"] / 4), "y": box["height"] / 3})


def wait_for(page, predicate, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        ui = page.evaluate(UI)
        if predicate(ui):
            return ui
        if ui["summary"]:
            page.click("#dlg-summary .dialog-actions .btn.primary")
        time.sleep(0.03)
    raise AssertionError(f"timed out; last UI: {ui}")


def check_dimmed_cards(page, ui):
    state = page.evaluate(ENGINE_STATE)
    deal = state["deal"]
    assert deal["current_player"] == 0 and deal["phase"] == "play"
    engine_forbidden = set(deal["hand"]) - set(deal["legal"])
    assert set(deal["ruling"]["forbidden"]) == engine_forbidden
    assert set(ui["hand"]) == set(deal["hand"])
    assert set(ui["forbidden"]) == engine_forbidden, (ui, deal["legal"])
    assert set(ui["playable"]) == set(deal["legal"])


def bid_or_pass(page, variant, rng):
    if variant == "classic":
        takes = page.locator("#bidding button.take")
        if takes.count() and rng.random() < 0.5:
            takes.nth(rng.randrange(takes.count())).click()
        else:
            page.click("#bidding button[data-call=pass]")
        return
    values = page.locator("#bidding .chip.value:enabled")
    if values.count() and rng.random() < 0.35:
        values.first.click()
        page.locator("#bidding .chip.suit").nth(rng.randrange(4)).click()
        expect(page.locator("#bid-button")).to_be_enabled()
        page.click("#bid-button")
    else:
        page.click("#bidding button[data-call=pass]")


def play_match(page, variant, rng, toasts):
    """Bid and play until the match result shows; returns (turns checked, deals seen). Every toast shown
    is added to `toasts`; every deal summary is checked against the engine's score of the deal."""
    deadline = time.monotonic() + MATCH_SECONDS
    turns = deals = 0
    while time.monotonic() < deadline:
        ui = page.evaluate(UI)
        toasts.update(ui["toasts"])
        if ui["result"]:
            return turns, deals
        if ui["summary"]:
            deals += 1
            scores = page.evaluate(ENGINE_STATE)["history"][-1]["scores"]
            assert ui["scored"] == [f"+{scores[0]}", f"+{scores[1]}"]
            page.click("#dlg-summary .dialog-actions .btn.primary")
        elif ui["bidding"]:
            bid_or_pass(page, variant, rng)
        elif ui["myTurn"]:
            check_dimmed_cards(page, ui)
            turns += 1
            card = rng.choice(ui["playable"])
            tap(page, card)
            expect(page.locator(f'#hand .card[data-card="{card}"]')).to_have_count(0)
        else:
            time.sleep(0.02)
    raise AssertionError(f"the match did not end within {MATCH_SECONDS} s ({turns} turns, {deals} deals)")


@pytest.mark.parametrize("variant", ["coinche", "classic"])
def test_a_whole_match_through_the_page(guarded_page, site_url, variant):
    page = guarded_page
    open_home(page, site_url, seed=f"match-{variant}")
    choose_settings(page, target="501", level="easy", speed="fast", coach=True)
    start(page, variant)
    toasts = set()
    turns, deals = play_match(page, variant, random.Random(variant), toasts)
    assert turns >= 8 and deals >= 1
    assert any(text.startswith("Dix de der: +10 for ") for text in toasts), toasts
    state = page.evaluate(ENGINE_STATE)
    assert state["winner"] in (0, 1) and max(state["totals"]) >= 501
    result = page.locator("#dlg-result")
    expect(result.locator(".final-score .us")).to_have_text(str(state["totals"][0]))
    expect(result.locator(".final-score .them")).to_have_text(str(state["totals"][1]))
    result.locator(".dialog-actions .btn:not(.primary)").click()  # home
    expect(page.locator("#home")).to_be_visible()
    expect(page.locator("#btn-resume")).to_be_hidden()  # a finished match is not offered again


def _first_play_turn(page):
    while True:
        ui = wait_for(page, lambda ui: ui["myTurn"] or ui["bidding"])
        if ui["myTurn"]:
            return ui
        page.click("#bidding button[data-call=pass]")


def test_a_slide_too_far_cancels_the_play_and_a_tap_plays(guarded_page, site_url):
    page = guarded_page
    new_match(page, site_url, "coinche", seed="slide")
    ui = _first_play_turn(page)
    card = ui["playable"][-1]
    node = page.locator(f'#hand .card[data-card="{card}"]')
    box = node.bounding_box()
    x, y = box["x"] + min(12, box["width"] / 4), box["y"] + box["height"] / 3
    page.mouse.move(x, y)
    page.mouse.down()
    expect(node).to_have_class(re.compile(r"\blifted\b"))
    page.mouse.move(x + 10, y - 90, steps=8)  # well beyond the slide limit
    expect(node).not_to_have_class(re.compile(r"\blifted\b"))  # dropped back at once
    page.mouse.up()
    time.sleep(0.3)
    after = page.evaluate(UI)
    assert card in after["hand"] and after["myTurn"]
    assert page.evaluate(ENGINE_STATE)["deal"]["current_player"] == 0
    expect(page.locator('.trick .slot[data-pos="0"] .card')).to_have_count(0)
    # A small wobble is not a slide: the press still plays the card.
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 6, y - 8, steps=3)
    page.mouse.up()
    expect(page.locator(f'#hand .card[data-card="{card}"]')).to_have_count(0)
    played = page.evaluate(ENGINE_STATE)["deal"]
    assert card in played["trick"] or any(card in t["cards"] for t in played["tricks"])


def test_the_bid_button_waits_for_a_number_and_a_suit(guarded_page, site_url):
    page = guarded_page
    new_match(page, site_url, "coinche", seed="bid")
    wait_for(page, lambda ui: ui["bidding"])
    legal = set(page.evaluate(ENGINE_STATE)["deal"]["legal"])
    shown = set(page.locator("#bidding .bid-actions [data-call]").evaluate_all("ns => ns.map(n => n.dataset.call)"))
    assert shown == {c for c in legal if c in ("pass", "coinche", "surcoinche")}
    bid = page.locator("#bid-button")
    expect(bid).to_be_disabled()
    number = page.locator("#bidding .chip.value:enabled").first.get_attribute("data-value")
    value = page.locator(f"#bidding .chip.value[data-value='{number}']")
    value.click()
    expect(value).to_have_attribute("aria-pressed", "true")
    expect(bid).to_be_disabled()
    page.click("#bidding .chip.suit[data-suit=s]")
    expect(bid).to_be_enabled()
    expect(bid).to_have_attribute("data-call", f"{number}s")
    value.click()  # unchosen again
    expect(bid).to_be_disabled()
    # values the engine does not allow are never enabled
    for node in page.locator("#bidding .chip.value").all():
        call = f"{node.get_attribute('data-value')}s"
        assert node.is_enabled() == (call in legal), call
    value.click()
    bid.click()
    expect(page.locator("#bidding")).to_be_hidden()
    calls = page.evaluate(ENGINE_STATE)["deal"]["calls"]
    assert [0, f"{number}s"] in calls


def test_the_coach_line_follows_the_setting(guarded_page, site_url):
    page = guarded_page
    new_match(page, site_url, "coinche", seed="coach")
    wait_for(page, lambda ui: ui["bidding"])
    expect(page.locator("#coach-line")).to_be_visible()
    expect(page.locator("#coach-line")).to_contain_text(re.compile(r"\w+"))

    def set_coach(on):
        page.click("#btn-menu")
        page.locator("#setting-coach").set_checked(on, force=True)
        page.locator("#dlg-settings button[type=submit]").click()

    set_coach(False)
    expect(page.locator("#coach-line")).to_be_hidden()
    set_coach(True)
    expect(page.locator("#coach-line")).to_be_visible()
    # in the play, the line explains the rule that binds the player (when one does)
    while True:
        ui = wait_for(page, lambda ui: ui["myTurn"] or ui["bidding"])
        if ui["myTurn"] and ui["forbidden"]:
            break
        if ui["bidding"]:
            page.click("#bidding button[data-call=pass]")
        else:
            tap(page, ui["playable"][0])
            wait_for(page, lambda u: not u["myTurn"] or len(u["hand"]) < len(ui["hand"]))
    state = page.evaluate(ENGINE_STATE)
    expect(page.locator("#coach-line")).to_be_visible()
    assert state["deal"]["ruling"]["forbidden"]
    set_coach(False)
    expect(page.locator("#coach-line")).to_be_hidden()
    after = page.evaluate(UI)
    assert set(after["forbidden"]) == set(state["deal"]["hand"]) - set(state["deal"]["legal"])  # dimmed still


def test_keyboard_play_and_accessible_names(guarded_page, site_url):
    page = guarded_page
    new_match(page, site_url, "coinche", seed="keys")
    ui = _first_play_turn(page)
    names = page.locator("#hand .card").evaluate_all("ns => ns.map(n => n.getAttribute('aria-label'))")
    assert all(re.fullmatch(r"(seven|eight|nine|ten|jack|queen|king|ace) of (spades|hearts|diamonds|clubs)", n)
               for n in names), names
    page.locator("#hand .card[tabindex='0']").focus()
    focused = page.evaluate("() => document.activeElement.dataset.card")
    target = ui["playable"][0]
    order = ui["hand"]
    for _ in range((order.index(target) - order.index(focused)) % len(order)):
        page.keyboard.press("ArrowRight")
    assert page.evaluate("() => document.activeElement.dataset.card") == target
    page.keyboard.press("Enter")
    expect(page.locator(f'#hand .card[data-card="{target}"]')).to_have_count(0)


def test_the_match_resumes_after_a_reload(guarded_page, site_url):
    page = guarded_page
    new_match(page, site_url, "classic", seed="resume")
    _first_play_turn(page)
    before = page.evaluate(ENGINE_STATE)
    page.reload()
    expect(page.locator("#btn-resume")).to_be_visible()
    expect(page.locator("#resume-detail")).to_contain_text("501")
    expect(page.locator("body")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    page.click("#btn-resume")
    expect(page.locator("#table")).to_be_visible()
    ui = wait_for(page, lambda ui: ui["myTurn"])
    after = page.evaluate(ENGINE_STATE)
    assert after["deal"] == before["deal"] and after["totals"] == before["totals"]
    assert set(ui["hand"]) == set(before["deal"]["hand"])


def test_the_last_trick_can_be_reviewed(guarded_page, site_url):
    page = guarded_page
    new_match(page, site_url, "coinche", seed="last")
    expect(page.locator("#btn-last-trick")).to_be_disabled()
    ui = _first_play_turn(page)
    while not page.evaluate(ENGINE_STATE)["last_trick"]:
        tap(page, ui["playable"][0])
        ui = wait_for(page, lambda ui: ui["myTurn"])
    last = page.evaluate(ENGINE_STATE)["last_trick"]
    page.click("#btn-last-trick")
    dialog = page.locator("#dlg-last-trick")
    expect(dialog).to_be_visible()
    shown = dialog.locator(".mini-trick .card").evaluate_all("ns => ns.map(n => n.dataset.card)")
    assert shown == last["cards"]
    expect(dialog.locator(".mini-trick .card.winner")).to_have_count(1)
    expect(dialog).to_contain_text(["You", "East", "North", "West"][last["winner"]])
    dialog.locator(".dialog-actions .btn").click()
    expect(dialog).to_be_hidden()
