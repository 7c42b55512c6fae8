"""Every player can use the table: the four-colour deck of the settings on every page where a suit is drawn,
and a whole deal played with the keyboard alone, read through the accessibility tree, every card said once,
in order, by the table's live region."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).parent))  # --import-mode=importlib: the helpers beside this file
from layout_helpers import put_save  # noqa: E402
from test_table import BOOT_MS, open_home  # noqa: E402


@pytest.fixture(scope="module")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "reduced_motion": "reduce", "viewport": {"width": 390, "height": 844}}


# ---------------------------------------------------------------- the four-colour deck
# css/suits.css: the two decks' colours, as getComputedStyle writes them.
TWO_COLOURS = {"s": "rgb(22, 22, 22)", "h": "rgb(200, 16, 46)", "d": "rgb(200, 16, 46)", "c": "rgb(22, 22, 22)"}
FOUR_COLOURS = {"s": "rgb(22, 22, 22)", "h": "rgb(200, 16, 46)", "d": "rgb(10, 85, 194)", "c": "rgb(19, 115, 51)"}

# {suit: [colours]} of what `selector` matches: a symbol drawn through a mask (a suit icon, a pip) in the
# colour of its ::before, a letter or a symbol of text in its own. Read once a frame has been drawn: Chromium's
# getComputedStyle of a ::before read before a change can answer its old style until then (as drawn, it never is).
SUIT_COLOURS = """async (selector) => {
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  const seen = {};
  for (const node of document.querySelectorAll(selector)) {
    const suit = node.closest('[data-suit]')?.dataset.suit
      ?? [...node.classList].find((c) => /^suit-[shdc]$/.test(c))?.slice(5)
      ?? [...node.closest('[class*="suit-"]')?.classList ?? []].find((c) => /^suit-[shdc]$/.test(c))?.slice(5);
    if (!suit) continue;
    const masked = getComputedStyle(node, '::before').maskImage;
    const colour = masked && masked !== 'none' ? getComputedStyle(node, '::before').backgroundColor : getComputedStyle(node).color;
    (seen[suit] ??= new Set()).add(colour);
  }
  return Object.fromEntries(Object.entries(seen).map(([suit, colours]) => [suit, [...colours].sort()]));
}"""


def expect_colours(page, selector: str, colours: dict, suits: str = "shdc") -> None:
    seen = page.evaluate(SUIT_COLOURS, selector)
    assert set(suits) <= set(seen), (selector, seen)
    assert seen == {suit: [colours[suit]] for suit in seen}, (selector, seen)


def test_the_four_colour_deck_colours_every_suit_on_every_page(returning_page, site_url):
    page = returning_page
    open_home(page, site_url)
    logo = "#logo-fan .card, #logo-fan .pip, #logo-fan .suit-icon"
    expect_colours(page, logo, TWO_COLOURS)
    page.click("#btn-settings")
    expect(page.locator("#dlg-settings")).to_be_visible()  # opened once the 1v1 side has loaded (js/main.js)
    page.locator("#setting-four-colour").check(force=True)  # applied at once, before the dialog closes
    expect(page.locator("html")).to_have_class(re.compile(r"\bfour-colour\b"))
    expect_colours(page, logo, FOUR_COLOURS)
    page.locator("#dlg-settings button[type=submit]").click()

    # the table: the hand and the bidding panel, then a finished deal's replay (its hands and tricks)
    put_save(page, "auction")
    page.click("#btn-play-coinche")
    page.locator("#dlg-confirm-new button[value=resume]").click()
    expect(page.locator("#bidding")).to_be_visible()
    expect_colours(page, "#hand .card, #hand .pip, #hand .suit-icon", FOUR_COLOURS, suits="")
    expect_colours(page, "#bidding .suit-icon", FOUR_COLOURS)
    page.click("#btn-menu")
    page.click("#btn-previous-deals")
    page.locator("#dlg-deals .replay-open").first.click()
    expect(page.locator("#dlg-replay")).to_be_visible()
    expect_colours(page, "#dlg-replay .card, #dlg-replay .pip, #dlg-replay .suit-icon", FOUR_COLOURS)

    # the other pages read the saved setting before they are drawn
    page.goto(f"{site_url}judge.html#trump=d&trick=8c,Ad&hand=Jd,Kc,7s,Ah")
    expect(page.locator("html")).to_have_class(re.compile(r"\bfour-colour\b"))
    expect(page.locator("#ruling")).to_have_attribute("data-state", "ruled", timeout=BOOT_MS)
    judge = ".pick:not([aria-disabled=true]), .trump-option .trump-symbol, #trick-cards .card, #hand-cards .card"
    expect_colours(page, judge, FOUR_COLOURS)
    page.goto(f"{site_url}rules.html")
    expect(page.locator(".card").first).to_be_visible()
    expect_colours(page, ".card, .trump-symbol", FOUR_COLOURS, suits="hs")
    page.goto(f"{site_url}progress.html")
    expect(page.locator("html")).to_have_class(re.compile(r"\bfour-colour\b"))
    assert page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--suit-d')") == "#0a55c2"
