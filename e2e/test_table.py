"""The table, played through the page as a player would: whole matches of both variants, the engine's
forbidden cards dimmed at every turn and the hand sorted as players sort it, slide-to-cancel, the bid
button, keyboard play, the coach line (its words only when it is on), the coach's bid lit, settings and
resume, a saved match never replaced without asking, the auction's and the contract's marks, the last
trick, the score sheet, one language switch for the whole table.  Test speed (?speed=test) and reduced
motion keep the matches short."""
from __future__ import annotations

import itertools
import json
import random
import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from coinche.session import Session

BOOT_MS = 60_000
DIST = Path(__file__).resolve().parent.parent / "dist"
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
    trick: [...document.querySelectorAll('.trick .slot .card')].map((n) => n.dataset.card),
    toPlay: q('.seat.to-play')?.dataset.pos ?? null,
  };
}"""

# The UI as JSON text, and a wait in the page itself until that text is no longer the one seen. A look from
# pytest (page.evaluate) costs about 3 ms of CPU between pytest, Playwright's driver and the browser; the loops
# that played a match looked every 20 to 30 ms, for every page, the whole match long. The page now looks at
# itself every LOOK_MS (a fraction of that CPU) and answers once something changed.
UI_TEXT = f"() => JSON.stringify(({UI})())"
UI_CHANGED = f"(seen) => JSON.stringify(({UI})()) !== seen"
LOOK_MS = 25


def look(page) -> tuple[dict, str]:
    """The page's UI, and the text it was read from (for until_changed)."""
    text = page.evaluate(UI_TEXT)
    return json.loads(text), text


def until_changed(page, seen: str, seconds: float = 1.0) -> None:
    """Back once the page's UI is no longer ``seen``, or after ``seconds`` (for what UI does not show)."""
    try:
        page.wait_for_function(UI_CHANGED, arg=seen, polling=LOOK_MS, timeout=seconds * 1000)
    except PlaywrightTimeoutError:
        pass


ENGINE_STATE = """async () => {
  const { engine } = await import('/js/main.js');
  return (await engine.call('state')).state;
}"""


@pytest.fixture(scope="module")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "reduced_motion": "reduce", "viewport": {"width": 390, "height": 844}}


@pytest.fixture
def table_page(returning_page):
    """A returning visitor's page (e2e/conftest.py): one context for the module, so that only the first test
    boots the engine from nothing; each test starts with nothing saved (no match, default settings)."""
    return returning_page


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


def press_forbidden(page, card):
    """A finger on a dimmed card (aria-disabled: Playwright's click would wait for it to be enabled)."""
    box = page.locator(f'#hand .card[data-card="{card}"]').bounding_box()
    page.mouse.click(box["x"] + min(12, box["width"] / 4), box["y"] + box["height"] / 3)


def wait_for(page, predicate, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        ui, seen = look(page)
        if predicate(ui):
            return ui
        if ui["summary"]:
            page.click("#dlg-summary .dialog-actions .btn.primary")
        else:
            until_changed(page, seen)
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
    check_hand_order(ui["hand"], deal["contract"]["trump"])


RED = set("hd")


def check_hand_order(hand, trump):
    """The hand as players sort it: each suit together; the trumps first, in trump order; the other suits
    strongest first, black and red alternating as far as the suits held allow."""
    suits = [card[1] for card in hand]
    order = [suit for i, suit in enumerate(suits) if i == 0 or suits[i - 1] != suit]
    assert len(order) == len(set(order)), f"a suit split in two: {hand}"
    for suit in order:
        ranks = "".join(card[0] for card in hand if card[1] == suit)
        strength = "J9ATKQ87" if suit == trump else "ATKQJ987"
        assert ranks == "".join(sorted(ranks, key=strength.index)), (hand, suit)
    if trump in order:
        assert order[0] == trump, f"trumps not first: {hand}"

    def clashes(row):
        return sum((a in RED) == (b in RED) for a, b in zip(row, row[1:]))
    others = [s for s in order if s != trump]
    best = min(clashes(([trump] if trump in order else []) + list(p)) for p in itertools.permutations(others))
    assert clashes(order) == best, f"colours could alternate better: {hand}"


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
        ui, seen = look(page)
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
            until_changed(page, seen)
    raise AssertionError(f"the match did not end within {MATCH_SECONDS} s ({turns} turns, {deals} deals)")


@pytest.mark.parametrize("variant", ["coinche", pytest.param("classic", marks=pytest.mark.full_only)])  # classic: 36 s of CPU
def test_a_whole_match_through_the_page(table_page, site_url, variant):
    page = table_page
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
    # the score sheet, deal by deal, as the engine scored them
    rows = result.locator(".score-sheet tbody tr")
    expect(rows).to_have_count(len(state["history"]))
    for row, deal in zip(rows.all(), state["history"]):
        assert row.locator("td").all_inner_texts()[1:] == [str(deal["scores"][0]), str(deal["scores"][1])]
    expect(result.locator(".score-sheet tfoot td")).to_have_text([str(t) for t in state["totals"]])
    result.locator(".dialog-actions .btn:not(.primary)").click()  # home
    expect(page.locator("#home")).to_be_visible()
    expect(page.locator("#btn-resume")).to_be_hidden()  # a finished match is not offered again


def _first_play_turn(page):
    while True:
        ui = wait_for(page, lambda ui: ui["myTurn"] or ui["bidding"])
        if ui["myTurn"]:
            return ui
        page.click("#bidding button[data-call=pass]")


def test_a_slide_too_far_cancels_the_play_and_a_tap_plays(table_page, site_url):
    page = table_page
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


def test_the_bid_button_waits_for_a_number_and_a_suit(table_page, site_url):
    page = table_page
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
    expect(bid).to_have_attribute("data-call", f"{number}s")
    bid.click()
    # The engine takes the bid. (Not "the panel goes": at the test's speed a bot's coinche can bring it back
    # before a look at the page sees it gone, as CI once found.)
    deadline = time.monotonic() + 15
    while [0, f"{number}s"] not in page.evaluate(ENGINE_STATE)["deal"]["calls"]:
        assert time.monotonic() < deadline, "the bid never reached the engine"
        time.sleep(0.05)


def test_the_coach_line_follows_the_setting(table_page, site_url):
    page = table_page
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
    forbidden = page.locator("#hand .card.forbidden").first
    expect(forbidden).to_have_attribute("title", re.compile(r"\w"))  # the reason, as a tooltip
    press_forbidden(page, forbidden.get_attribute("data-card"))
    expect(page.locator("#toasts .toast.warn")).to_have_count(1)  # and in words
    set_coach(False)
    expect(page.locator("#coach-line")).to_be_hidden()
    after = page.evaluate(UI)
    assert set(after["forbidden"]) == set(state["deal"]["hand"]) - set(state["deal"]["legal"])  # dimmed still
    # coach off: a forbidden card refuses with a shake and no words, no tooltip
    page.evaluate("() => document.querySelectorAll('#toasts .toast').forEach((n) => n.remove())")
    card = after["forbidden"][0]
    press_forbidden(page, card)
    node = page.locator(f'#hand .card[data-card="{card}"]')
    expect(node).to_have_class(re.compile(r"\brefused\b"))
    assert node.get_attribute("title") == "" and node.get_attribute("aria-description") == "Not playable now."
    time.sleep(0.3)
    expect(page.locator("#toasts .toast")).to_have_count(0)
    assert page.evaluate(ENGINE_STATE)["deal"]["current_player"] == 0  # nothing was played


def test_keyboard_play_and_accessible_names(table_page, site_url):
    page = table_page
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


def test_the_match_resumes_after_a_reload(table_page, site_url):
    page = table_page
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


# The engine's answer to "load" held until window.releaseLoad() (the save being read on a slow phone).
HOLD_LOAD = """async () => {
  const { engine } = await import('/js/main.js');
  const call = engine.call.bind(engine);
  window.loadAsked = false;
  engine.call = (name, args) => {
    if (name !== 'load') return call(name, args);
    window.loadAsked = true;
    return new Promise((resolve) => { window.releaseLoad = () => resolve(call(name, args)); });
  };
}"""


def test_the_table_left_for_the_home_is_inert_while_a_save_loads(table_page, site_url):
    """Home, then Resume: the table shows while the engine reads the save, with the cards of the match left
    for the home. A tap on one then is not a card played (it was swallowed, and the match resumed with the
    player's turn unplayed): none is lit until the save is loaded, and a tap after that plays."""
    page = table_page
    new_match(page, site_url, "coinche", seed="inert")
    ui = _first_play_turn(page)
    page.click("#btn-home")
    page.evaluate(HOLD_LOAD)
    page.click("#btn-resume")
    expect(page.locator("#table")).to_be_visible()
    page.wait_for_function("() => window.loadAsked")
    hand = page.locator("#hand")
    expect(hand).not_to_have_class(re.compile(r"\bmy-turn\b"))
    assert page.locator("#hand .card.playable").count() == 0
    expect(page.locator("#bidding")).to_be_hidden()
    page.evaluate("() => window.releaseLoad()")
    after = wait_for(page, lambda ui: ui["myTurn"])
    assert set(after["hand"]) == set(ui["hand"])
    card = after["playable"][0]
    page.locator(f'#hand .card[data-card="{card}"]').click()
    expect(page.locator("#hand .card")).to_have_count(len(ui["hand"]) - 1)


def test_the_last_trick_can_be_reviewed(table_page, site_url):
    page = table_page
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
    led = dialog.locator(".mini-slot[data-led=true] .card")
    expect(led).to_have_count(1)
    assert led.get_attribute("data-card") == last["cards"][0]
    expect(dialog.locator(".last-trick-who")).to_contain_text(["You", "East", "North", "West"][last["leader"]] + " led")
    expect(dialog).to_contain_text(["You", "East", "North", "West"][last["winner"]])
    dialog.locator(".dialog-actions .btn").click()
    expect(dialog).to_be_hidden()


# ---------------------------------------------------------------- a save put at a chosen moment
def resume_snapshot(page, site_url, snapshot):
    """The page opened with `snapshot` saved; Play asks first, and Resume takes it up."""
    open_home(page, site_url)
    page.evaluate("(text) => localStorage.setItem('coinche.match', text)", json.dumps(snapshot))
    page.click("#btn-play-coinche")
    page.locator("#dlg-confirm-new button[value=resume]").click()
    expect(page.locator("#table")).to_be_visible()


def call(session, seat, action):
    """`seat` calls `action` in the auction, the seats before it passing (whoever deals first)."""
    while session.match.deal.turn != seat:
        turn = session.match.deal.turn
        (session.act if turn == 0 else session.bot_apply)(turn, "pass")
    (session.act if seat == 0 else session.bot_apply)(seat, action)


def test_a_saved_match_is_never_replaced_by_one_tap(table_page, site_url):
    page = table_page
    new_match(page, site_url, "coinche", seed="keep")
    wait_for(page, lambda ui: ui["bidding"] or ui["myTurn"])
    saved = page.evaluate("() => localStorage.getItem('coinche.match')")
    page.click("#btn-home")
    dialog = page.locator("#dlg-confirm-new")
    for variant in ("coinche", "classic"):
        page.click(f"#btn-play-{variant}")
        expect(dialog).to_be_visible()
        expect(dialog.locator("#dlg-confirm-saved")).to_contain_text("501")
        page.keyboard.press("Escape")  # neither: nothing changes
        expect(dialog).to_be_hidden()
        expect(page.locator("#home")).to_be_visible()
        assert page.evaluate("() => localStorage.getItem('coinche.match')") == saved
    page.click("#btn-play-classic")
    dialog.locator("button[value=resume]").click()  # the same match again
    expect(page.locator("#table")).to_be_visible()
    assert page.evaluate(ENGINE_STATE)["variant"] == "coinche"
    page.click("#btn-home")
    page.click("#btn-play-classic")
    dialog.locator("button[value=new]").click()  # a new match, and only when asked for
    expect(page.locator("#table")).to_be_visible()
    deadline = time.monotonic() + 30
    while page.evaluate(ENGINE_STATE)["variant"] != "classic":
        assert time.monotonic() < deadline, "no new classic match"
        time.sleep(0.05)


def test_the_auction_shows_the_coinche_and_the_surcoinche(table_page, site_url):
    page = table_page
    session = Session.new("coinche", target=501, level="easy", seed="surcoinche")
    call(session, 2, "80s")  # the partner bids, an opponent coinches: the player may surcoinche
    call(session, 3, "coinche")
    resume_snapshot(page, site_url, session.snapshot())
    contract = page.locator("#contract")
    expect(page.locator("#bidding [data-call=surcoinche]")).to_be_visible()  # the player decides
    expect(contract).to_have_attribute("data-kind", "auction")
    expect(contract.locator(".contract-label")).to_be_visible()
    expect(contract.locator(".contract-label")).to_have_text("Auction")
    expect(contract.locator(".contract-x")).to_have_text("Coinche ×2")
    # the standing bid the engine's view carries (deal.standing), as the page read it from the calls before
    assert page.evaluate(ENGINE_STATE)["deal"]["standing"] == {"declarer": 2, "trump": "s", "value": 80, "multiplier": 2}
    expect(contract.locator(".contract-value")).to_have_text("80")
    expect(contract.locator(".contract-value .suit-icon")).to_have_attribute("data-suit", "s")
    expect(contract.locator(".contract-by")).to_have_text("North")
    expect(contract).to_have_attribute("aria-label", "Auction: 80 spades by North · Coinche")
    page.click("#bidding [data-call=surcoinche]")
    expect(contract).to_have_attribute("data-kind", "contract")
    expect(contract.locator(".contract-label")).to_have_text("Contract")
    expect(contract.locator(".contract-x")).to_have_text("Surcoinche ×4")
    expect(contract).to_have_attribute("aria-label", re.compile("surcoinched"))


@pytest.mark.parametrize("width", [360, 1366])
def test_the_contract_is_labelled_at_every_width(table_page, site_url, width):
    page = table_page
    page.set_viewport_size({"width": width, "height": 800})
    session = Session.new("coinche", target=501, level="easy", seed="labels")
    call(session, 1, "90h")
    resume_snapshot(page, site_url, session.snapshot())
    label = page.locator("#contract .contract-label")
    expect(label).to_be_visible()
    expect(label).to_have_text("Auction")
    expect(page.locator("#contract .contract-value")).to_contain_text("90")


def test_the_coach_lights_the_bid_it_suggests(table_page, site_url):
    page = table_page
    for i in range(50):  # a deal where the coach bids at the player's first call
        session = Session.new("coinche", target=501, level="easy", seed=f"coach-bid-{i}", first_dealer=3)
        advice = session.coach(0)["call"]
        if advice != "pass":
            break
    value, suit = re.fullmatch(r"(\d+|capot)([shdc])", advice).groups()
    resume_snapshot(page, site_url, session.snapshot())
    expect(page.locator("#coach-line")).to_have_attribute("data-call", advice)
    lit = page.locator("#bidding .suggested")
    expect(lit).to_have_count(2)
    expect(page.locator(f"#bidding .chip.value[data-value='{value}']")).to_have_class(re.compile(r"\bsuggested\b"))
    expect(page.locator(f"#bidding .chip.suit[data-suit='{suit}']")).to_have_class(re.compile(r"\bsuggested\b"))


def test_the_last_language_chosen_wins_when_catalogues_answer_out_of_order(table_page, site_url):
    """French asked first but its catalogue arrives after German's: the page must end in German, as its
    picker says, not in the language whose answer came last."""
    page = table_page
    open_home(page, site_url, seed="race")
    page.evaluate("""() => {
      const fetchFirst = window.fetch;
      window.frenchSettled = false;
      window.fetch = async (url, options) => {
        if (!String(url).endsWith("/fr.json")) return fetchFirst(url, options);
        await new Promise((resolve) => setTimeout(resolve, 1500));
        const response = await fetchFirst(url, options);
        // settled once the page's own continuation (microtasks) has used the catalogue
        return { ok: response.ok, status: response.status,
                 json: async () => { const data = await response.json();
                                     setTimeout(() => { window.frenchSettled = true; }, 0); return data; } };
      };
    }""")
    page.click("#btn-settings")
    picker = page.locator("#setting-language")
    picker.select_option("fr")
    picker.select_option("de")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    page.wait_for_function("() => window.frenchSettled")
    assert page.locator("html").get_attribute("lang") == "de"
    de = json.loads((DIST / "i18n" / "de.json").read_text(encoding="utf-8"))
    expect(page.locator("#logo-fan .card[data-card=Jh] .index").first).to_have_attribute("data-letter", de["rank.short.J"])
    expect(picker).to_have_value("de")


def test_one_language_switch_reaches_the_whole_table(table_page, site_url):
    page = table_page
    new_match(page, site_url, "coinche", seed="switch")
    ui = _first_play_turn(page)
    jack_or_queen = next((c for c in ui["hand"] if c[0] in "JQK"), ui["hand"][0])
    card = page.locator(f'#hand .card[data-card="{jack_or_queen}"]')
    page.click("#btn-menu")  # from the table's own menu
    page.locator("#setting-language").select_option("fr")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    page.locator("#dlg-settings button[type=submit]").click()
    fr = json.loads((DIST / "i18n" / "fr.json").read_text(encoding="utf-8"))
    expect(card.locator(".index").first).to_have_attribute("data-letter", fr[f"rank.short.{jack_or_queen[0]}"])
    expect(page.locator(".seat[data-pos='2'] .seat-name")).to_have_text(fr["table.seat.2"])
    expect(page).to_have_title(fr["app.title"])
    # and back in German: nothing of French is left on the cards
    page.click("#btn-menu")
    page.locator("#setting-language").select_option("de")
    page.locator("#dlg-settings button[type=submit]").click()
    expect(page.locator("html")).to_have_attribute("lang", "de")  # its catalogue has arrived
    de = json.loads((DIST / "i18n" / "de.json").read_text(encoding="utf-8"))
    letters = page.locator("#table .card .index").evaluate_all(
        "ns => ns.map((n) => [n.closest('.card').dataset.rank, n.dataset.letter])")
    assert letters and all(letter == de[f"rank.short.{rank}"] for rank, letter in letters), letters
    page.click("#btn-home")
    expect(page.locator("#boot-status")).to_have_text(re.compile(re.escape(de["home.boot.ready"].split("{")[0].strip())))
    expect(page.locator("#logo-fan .card[data-card=Jh] .index").first).to_have_attribute("data-letter", de["rank.short.J"])
