"""Switching language on the table and the judge: every text the player meets is the catalogue's, with its
parameters rendered in that language (suit names, card names, the short rank letters on the cards).

Expected texts are built here from dist/i18n/<lang>.json, never hard-coded."""
from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).parent))  # --import-mode=importlib: the helpers beside this file
from test_table import ENGINE_STATE, UI, choose_settings, look, open_home, start, tap, until_changed  # noqa: E402

DIST = Path(__file__).resolve().parent.parent / "dist"
BOOT_MS = 60_000
PLAY_SECONDS = 240
LANGS = ("fr", "de", "es")
ARGUED_OVER_PARTNER = "trump=h&trick=8h,Ah,7c&hand=Jh,Kd,7s"


def catalogue(lang: str) -> dict[str, str]:
    return json.loads((DIST / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


def card_name(messages: dict, code: str) -> str:
    """i18n.cardName: card.name with the rank's word and the suit's 'of' form."""
    return render(messages, messages["card.name"], {}, raw={"rank": messages[f"rank.{code[0]}"],
                                                          "suit": messages[f"suit.of.{code[1]}"]})


def render(messages: dict, template: str, params: dict, raw: dict | None = None) -> str:
    """A simple message (plain {name} placeholders only), parameters localised as i18n.js does."""
    values = dict(raw or {})
    for name, value in params.items():
        if name in ("card", "over"):
            values[name] = card_name(messages, value)
        elif name in ("suit", "trump"):
            values[name] = messages[f"suit.{value}"]
        else:
            values[name] = str(value)
    assert "," not in "".join(re.findall(r"\{[^}]*\}", template)), f"not a simple message: {template}"
    return re.sub(r"\{(\w+)\}", lambda m: values[m.group(1)], template).replace("''", "'")


def poll(page, predicate, seconds=60, what="condition"):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        ui, seen = look(page)
        if predicate(ui):
            return ui
        until_changed(page, seen, seconds=0.25)
    raise AssertionError(f"timed out waiting for {what}; last UI: {ui}")


# ---------------------------------------------------------------- the table
@pytest.fixture(scope="module")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "reduced_motion": "reduce", "viewport": {"width": 390, "height": 844}}


def check_home(page, lang):
    messages = catalogue(lang)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("#language")).to_have_value(lang)
    for key in ("home.tagline", "home.play_coinche", "home.play_coinche_detail", "home.settings", "home.rules"):
        expect(page.locator(f'#home [data-i18n="{key}"]').first).to_have_text(messages[key])
        assert messages[key] != catalogue("en")[key], key


def check_auction_coach(page, lang):
    """On the human's turn in the auction, the coach line speaks the language."""
    messages, english = catalogue(lang), catalogue("en")
    line = page.locator("#coach-line")
    expect(line).to_have_attribute("data-kind", "auction", timeout=30_000)
    expect(line).to_be_visible()
    text = (line.text_content() or "").strip()
    assert text
    # the suggested call, in words: the sentence of its kind, with its suit when it names one
    call = line.get_attribute("data-call")
    suit = re.fullmatch(r"(take|\d+|capot)([shdc])", call or "")
    kind = ("bid" if suit.group(1).isdigit() else suit.group(1)) if suit else call
    prefix = coach_sentence(messages, kind).split("{", 1)[0]
    assert prefix and prefix in text, (lang, text)
    assert coach_sentence(english, kind).split("{", 1)[0] not in text, (lang, text)
    expect(line.locator(".coach-label")).to_have_text(messages["coach.label"])
    if suit:
        named = messages[f"suit.{suit.group(2)}"] if kind == "take" else messages[f"suit.symbol.{suit.group(2)}"]
        assert named in text, (lang, call, text)


def coach_sentence(messages: dict, kind: str) -> str:
    """The branch of the coach.auction select for a call of ``kind`` (pass, bid, capot, take...)."""
    template = messages["coach.auction"]
    start = template.index(f" {kind} {{") + len(kind) + 3
    depth, i = 1, start
    while depth:
        depth += {"{": 1, "}": -1}.get(template[i], 0)
        i += 1
    return template[start:i - 1]


def check_card_indices(page, lang):
    messages = catalogue(lang)
    cards = page.locator("#hand .card")
    expect(cards.first).to_be_visible()
    for i in range(cards.count()):
        card = cards.nth(i)
        code = card.get_attribute("data-card")
        expect(card.locator(".index").first).to_have_attribute("data-letter", messages[f"rank.short.{code[0]}"])  # drawn by CSS


# Where the match is: the deals done and the calls of the deal under way, as the engine has them.
AUCTION_AT = f"async () => ({ENGINE_STATE})().then((s) => JSON.stringify([s.history.length, s.deal.calls.length]))"
AUCTION_MOVED = f"async (before) => ({AUCTION_AT})().then((now) => now !== before)"


def pass_and_wait(page, seconds: float = 10) -> None:
    """Click the pass and wait until the engine has it (the deal's calls grew, or the deal ended). Waiting
    for the panel's buttons to go disabled missed the calls that came back to the player quicker than a
    look: at seed lang-fr the auction comes back to the player twice, the bots' three calls come without a
    pause at the test speed, and a look that came late saw the panel enabled again for the next call."""
    before = page.evaluate(AUCTION_AT)
    page.click("#bidding button[data-call=pass]")
    try:
        page.wait_for_function(AUCTION_MOVED, arg=before, polling=100, timeout=seconds * 1000)
    except PlaywrightTimeoutError:
        raise AssertionError(f"the pass clicked never reached the engine in {seconds} s (deals done and calls: "
                             f"{before}; the page: {look(page)[0]})") from None


def play_until_forbidden_reason(page, lang):
    """Pass in the auction (checking the coach once), play legal cards until the coach line gives a reason
    for forbidden cards; check it against the catalogue. Returns True once checked."""
    messages = catalogue(lang)
    coached = False
    faces_checked = False
    deadline = time.monotonic() + PLAY_SECONDS
    while time.monotonic() < deadline:
        ui, seen = look(page)
        if ui["result"]:
            break
        if ui["summary"]:
            page.click("#dlg-summary .dialog-actions .btn.primary")
        elif ui["bidding"]:
            if not coached:
                check_auction_coach(page, lang)
                coached = True
            pass_and_wait(page)
        elif ui["myTurn"]:
            if not faces_checked:
                check_card_indices(page, lang)
                faces_checked = True
            deal = page.evaluate(ENGINE_STATE)["deal"]
            ruling = deal.get("ruling") or {}
            forbidden = ruling.get("forbidden") or {}
            if forbidden and not ruling.get("note"):
                strongest = None
                for f in forbidden.values():  # playAdvice: the highest rule, the first one on ties
                    if strongest is None or f["rule"] > strongest["rule"]:
                        strongest = f
                template = messages[f"reason.{strongest['key']}"]
                expected = render(messages, template, strongest.get("params") or {})
                english = render(catalogue("en"), catalogue("en")[f"reason.{strongest['key']}"],
                                 strongest.get("params") or {})
                line = page.locator("#coach-line")
                expect(line).to_have_attribute("data-kind", "play")
                expect(line).to_have_text(messages["coach.label"] + expected)
                assert expected != english
                # the hand's forbidden cards are the engine's
                assert set(page.evaluate(UI)["forbidden"]) == set(forbidden)
                return coached
            card = ui["playable"][0]
            tap(page, card)
            expect(page.locator(f'#hand .card[data-card="{card}"]')).to_have_count(0)
        else:
            until_changed(page, seen)
    raise AssertionError(f"no forbidden card met within {PLAY_SECONDS} s (coached: {coached})")


# A whole auction and play in each language: `make test` plays it in French, `make test-full` (CI) in all three.
@pytest.mark.parametrize("lang", [pytest.param(lang, marks=() if lang == "fr" else pytest.mark.full_only)
                                  for lang in LANGS])
def test_the_table_speaks_the_chosen_language(returning_page, site_url, lang):
    page = returning_page
    open_home(page, site_url, seed=f"lang-{lang}")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.select_option("#language", lang)
    check_home(page, lang)

    choose_settings(page, coach=True)
    start(page, "coinche")
    coached = play_until_forbidden_reason(page, lang)
    assert coached, "the auction coach was never shown on the human's turn"

    open_home(page, site_url, seed=f"lang-{lang}")
    check_home(page, lang)


# ---------------------------------------------------------------- the judge
@pytest.mark.parametrize("lang", LANGS)
def test_the_judge_explains_in_the_chosen_language(returning_page, site_url, lang):
    page = returning_page
    page.goto(f"{site_url}judge.html#{ARGUED_OVER_PARTNER}")
    expect(page.locator("body")).not_to_have_attribute("data-engine", "loading", timeout=BOOT_MS)
    ruling = page.locator("#ruling")
    expect(ruling).to_have_attribute("data-state", "ruled", timeout=BOOT_MS)
    expect(page.locator("html")).to_have_attribute("lang", "en")

    page.select_option("#language", lang)
    messages = catalogue(lang)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(ruling).to_have_attribute("data-state", "ruled", timeout=BOOT_MS)
    # Kd and 7s are forbidden: the player holds a heart (the suit led, 8h)
    expected = render(messages, messages["reason.must_follow"], {"suit": "h"})
    assert expected != render(catalogue("en"), catalogue("en")["reason.must_follow"], {"suit": "h"})
    for card in ("Kd", "7s"):
        expect(page.locator(f'#verdicts li[data-card="{card}"] .verdict-why')).to_have_text(expected)
    expect(page.locator('#verdicts li[data-card="Jh"] .verdict-why')).to_have_count(0)
    expect(page.locator("#note-text")).to_have_text(messages["note.overtrump_partner"])
    assert messages["note.overtrump_partner"] != catalogue("en")["note.overtrump_partner"]

    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("#language")).to_have_value(lang)
    expect(page.locator("#note-text")).to_have_text(messages["note.overtrump_partner"], timeout=BOOT_MS)


# ---------------------------------------------------------------- a switch while the player's action is on its way
HOLD_ACT = """async () => {
  const { engine } = await import('/js/main.js');
  const call = engine.call.bind(engine);
  window.actHeld = [];
  engine.call = async (name, args) => {
    if (name === 'act') await new Promise((resolve) => window.actHeld.push(resolve));
    return call(name, args);
  };
}"""
RELEASE_ACT = "() => { window.actHeld.splice(0).forEach((resolve) => resolve()); }"


def switch_at_the_table(page, lang: str) -> None:
    """The language chosen from the table's menu (its settings), the dialog closed by its button."""
    page.click("#btn-menu")
    dialog = page.locator("#dlg-settings")
    expect(dialog).to_be_visible()
    page.select_option("#setting-language", lang)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    dialog.locator("button[type=submit]").click()
    expect(dialog).to_be_hidden()


def test_a_language_switch_while_the_players_action_is_on_its_way_brings_back_neither_the_card_nor_the_panel(
        returning_page, site_url):
    """The engine's answer is held back; a switch of language meanwhile used to draw the state the action was
    made on: the bidding panel live again (its clicks dropped, the table waiting on the answer) and the card
    played back in the hand."""
    page = returning_page
    open_home(page, site_url, seed="lang-acting")
    choose_settings(page, coach=True)
    start(page, "coinche")
    page.evaluate(HOLD_ACT)
    pass_button = page.locator("#bidding button[data-call=pass]")
    expect(pass_button).to_be_enabled(timeout=BOOT_MS)
    pass_button.click()
    page.wait_for_function("() => window.actHeld.length === 1")
    switch_at_the_table(page, "de")
    expect(page.locator("#bidding")).to_be_hidden()
    page.evaluate(RELEASE_ACT)
    poll(page, lambda _: [0, "pass"] in page.evaluate(ENGINE_STATE)["deal"]["calls"], 10, "the pass in the engine")

    deadline = time.monotonic() + PLAY_SECONDS
    while not (ui := page.evaluate(UI))["myTurn"] or ui["bidding"]:
        assert time.monotonic() < deadline, "the player's first card never came"
        if ui["bidding"]:
            page.click("#bidding button[data-call=pass]")
            page.wait_for_function("() => window.actHeld.length === 1")
            page.evaluate(RELEASE_ACT)
        time.sleep(0.05)
    card = ui["playable"][0]
    tap(page, card)
    page.wait_for_function("() => window.actHeld.length === 1")
    switch_at_the_table(page, "es")
    expect(page.locator(f'#hand .card[data-card="{card}"]')).to_have_count(0)
    page.evaluate(RELEASE_ACT)
    poll(page, lambda _: card not in page.evaluate(ENGINE_STATE)["deal"]["hand"], 10, "the card in the engine")
    expect(page.locator(f'#hand .card[data-card="{card}"]')).to_have_count(0)
    switch_at_the_table(page, "en")
