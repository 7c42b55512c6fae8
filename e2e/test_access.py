"""Every player can use the table: a whole deal played with the keyboard alone at 200 % zoom, read through the
accessibility tree, every card said once and in order by the table's live region, the keys that say the trick
and the scores, focus kept after every dialog; and the four-colour deck, chosen in the settings, on every page
where a suit is drawn (the home, the hand, the bidding panel, the replay, the judge, the rules; the progress
page holds its colours). One walk: one engine boot (a returning visitor's) for all of it."""
from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).parent))  # --import-mode=importlib: the helpers beside this file
from test_layout import PUZZLE_LINK  # noqa: E402
from test_table import open_home  # noqa: E402

from coinche.session import Session

CATALOGUE = json.loads((Path(__file__).resolve().parent.parent / "web" / "i18n" / "en.json").read_text())


# 1280 x 720 at 200 % zoom: 640 x 360 CSS pixels. Reduced motion: no card flies.
@pytest.fixture(scope="module")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "reduced_motion": "reduce", "viewport": {"width": 640, "height": 360}}


# ---------------------------------------------------------------- the four-colour deck
# css/suits.css: the two decks' colours, as getComputedStyle writes them.
TWO_COLOURS = {"s": "rgb(22, 22, 22)", "h": "rgb(200, 16, 46)", "d": "rgb(200, 16, 46)", "c": "rgb(22, 22, 22)"}
FOUR_COLOURS = {"s": "rgb(22, 22, 22)", "h": "rgb(200, 16, 46)", "d": "rgb(10, 85, 194)", "c": "rgb(19, 115, 51)"}

# {suit: [colours]} of what `selector` matches: a symbol drawn through a mask (a suit icon, a pip) in the
# colour of its own background (the illustrated deck) or of its ::before (css/suits.css), a letter or a symbol of
# text in its own. Read once a frame has been drawn: Chromium's
# getComputedStyle of a ::before read before a change can answer its old style until then (as drawn, it never is).
SUIT_COLOURS = """async (selector) => {
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  const seen = {};
  for (const node of document.querySelectorAll(selector)) {
    const suit = node.closest('[data-suit]')?.dataset.suit
      ?? [...node.classList].find((c) => /^suit-[shdc]$/.test(c))?.slice(5)
      ?? [...node.closest('[class*="suit-"]')?.classList ?? []].find((c) => /^suit-[shdc]$/.test(c))?.slice(5);
    if (!suit) continue;
    const own = getComputedStyle(node), before = getComputedStyle(node, '::before');
    const colour = own.maskImage !== 'none' ? own.backgroundColor  // the illustrated deck's symbols
      : before.content !== 'none' && before.maskImage !== 'none' ? before.backgroundColor : own.color;
    (seen[suit] ??= new Set()).add(colour);
  }
  return Object.fromEntries(Object.entries(seen).map(([suit, colours]) => [suit, [...colours].sort()]));
}"""


def expect_colours(page, selector: str, colours: dict, suits: str = "shdc") -> None:
    seen = page.evaluate(SUIT_COLOURS, selector)
    assert set(suits) <= set(seen), (selector, seen)
    assert seen == {suit: [colours[suit]] for suit in seen}, (selector, seen)


# ---------------------------------------------------------------- a deal with the keyboard alone
def focused(locator) -> bool:
    return locator.evaluate("(node) => node === document.activeElement")


def tab_to(page, locator, presses: int = 60) -> None:
    """Tab (forward) until `locator` has the focus, as a keyboard user would."""
    for _ in range(presses):
        if focused(locator):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {locator}")


def no_sideways_scroll(page, where: str) -> None:
    width = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width[0] <= width[1], f"{where}: the page scrolls sideways at 200 % zoom ({width[0]} px in {width[1]})"


def new_lines(before: list[str], after: list[str]) -> list[str]:
    """The lines said since ``before`` was read: the log drops its oldest lines (KEPT in js/table/speech.js) and
    adds at its end, so ``after`` is a tail of ``before`` followed by the new ones."""
    for dropped in range(len(before) + 1):
        kept = before[dropped:]
        if after[:len(kept)] == kept:
            return after[len(kept):]
    return after


def said_after_key(page, key: str, wanted, timeout_s: float = 10.0) -> None:
    """Press ``key`` and wait until a line the live region says after it is ``wanted`` (a test of a line)."""
    before = log_lines(page)
    page.keyboard.press(key)
    deadline = time.monotonic() + timeout_s
    while True:
        lines = new_lines(before, log_lines(page))
        if any(wanted(line) for line in lines):
            return
        assert time.monotonic() < deadline, f"after {key!r} the live region said {lines}"
        page.wait_for_timeout(50)


def log_lines(page) -> list[str]:
    """The table's live region as the accessibility tree has it (Playwright's ARIA snapshot, YAML): one line a
    paragraph."""
    snapshot = page.get_by_role("log", name="What happens at the table").aria_snapshot()
    lines = []
    for line in snapshot.splitlines():
        if line.strip().startswith("- paragraph: "):
            text = line.split(": ", 1)[1]
            if text.startswith('"'):
                text = json.loads(text)
            elif text.startswith("'"):
                text = text[1:-1].replace("''", "'")
            lines.append(text)
    return lines


def card_said(card: str) -> str:
    return f"{CATALOGUE[f'rank.{card[0]}']} of {CATALOGUE[f'suit.of.{card[1]}']}"


PLAYED = re.compile(r"^(?:You play|(?:East|North|West) plays) the (.+)\.$")


def test_a_deal_played_with_the_keyboard_alone_is_said_card_by_card_in_the_four_colour_deck(returning_page, site_url):
    page = returning_page
    open_home(page, site_url, seed="keyboard")
    logo = "#logo-fan .card, #logo-fan .pip, #logo-fan .suit-icon"
    expect_colours(page, logo, TWO_COLOURS)

    # the settings by the keyboard: the Easy bots and the four-colour deck, applied at once
    tab_to(page, page.get_by_role("button", name="Settings", exact=True))
    page.keyboard.press("Enter")
    settings = page.get_by_role("dialog", name="Settings")
    expect(settings).to_be_visible()
    bots = settings.get_by_role("group", name="Bots")
    tab_to(page, bots.get_by_role("radio", name="Normal", exact=True))
    page.keyboard.press("ArrowLeft")
    expect(bots.get_by_role("radio", name="Easy", exact=True)).to_be_checked()
    tab_to(page, settings.get_by_role("checkbox", name=re.compile("^Four-colour deck")))
    page.keyboard.press("Space")
    expect(page.locator("html")).to_have_class(re.compile(r"\bfour-colour\b"))
    expect_colours(page, logo, FOUR_COLOURS)
    page.keyboard.press("Escape")
    expect(settings).to_be_hidden()
    expect(page.get_by_role("button", name="Settings", exact=True)).to_be_focused()

    tab_to(page, page.get_by_role("button", name=re.compile("^Play coinche")))
    page.keyboard.press("Enter")
    hand = page.get_by_role("toolbar", name=re.compile("^Your hand"))
    expect(hand).to_be_visible()
    summary = page.get_by_role("dialog", name=re.compile("contract|down", re.I))
    passing = page.get_by_role("button", name="Pass", exact=True)
    expect(passing).to_be_visible()
    no_sideways_scroll(page, "the auction")
    expect_colours(page, "#hand .card, #hand .pip, #hand .suit-icon", FOUR_COLOURS, suits="")
    expect_colours(page, "#bidding .suit-icon", FOUR_COLOURS)
    deadline = time.monotonic() + 90
    while not summary.is_visible():
        assert time.monotonic() < deadline, "no deal played to its end:\n" + page.locator("body").aria_snapshot()
        if passing.is_visible() and passing.is_enabled():
            tab_to(page, passing)
            page.keyboard.press("Enter")
            expect(passing).to_be_hidden()
        elif "your turn" in hand.get_attribute("aria-label"):
            playable = {b.get_attribute("aria-label") for b in hand.get_by_role("button", disabled=False).all()}
            tab_to(page, hand.locator("[tabindex='0']"))  # the hand's one tab stop
            for _ in range(8):  # the arrows, to a card that may be played
                if page.evaluate("document.activeElement.getAttribute('aria-label')") in playable:
                    break
                page.keyboard.press("ArrowRight")
            assert page.evaluate("document.activeElement.getAttribute('aria-description')") == "Playable."
            count = hand.get_by_role("button").count()
            page.keyboard.press("Enter")
            expect(hand.get_by_role("button")).to_have_count(count - 1)
            no_sideways_scroll(page, "the play")
        else:
            time.sleep(0.03)
    no_sideways_scroll(page, "the deal's summary")

    # every card of the deal said once, in the order played, as the engine's record has it
    record = Session.from_snapshot(json.loads(page.evaluate("localStorage.getItem('coinche.match')"))).match.history[-1]
    said = [m.group(1) for line in log_lines(page) if (m := PLAYED.match(line))]
    assert said == [card_said(card) for card in record["plays"]]
    lines = log_lines(page)
    assert sum(bool(re.search(r"wins? the trick: \d+ points?\.$", line)) for line in lines) == 8
    assert sum(line.startswith("Contract: ") for line in lines) == 1

    # the deal's replay from its summary, in the four colours; each dialog closed with Escape gives the focus back
    tab_to(page, summary.get_by_role("button", name="Replay the deal"))
    page.keyboard.press("Enter")
    replay = page.locator("#dlg-replay")
    expect(replay).to_be_visible()
    expect_colours(page, "#dlg-replay .card, #dlg-replay .pip, #dlg-replay .suit-icon", FOUR_COLOURS)
    page.keyboard.press("Escape")
    expect(replay).to_be_hidden()
    expect(summary.get_by_role("button", name="Replay the deal")).to_be_focused()
    page.keyboard.press("Escape")
    expect(summary).to_be_hidden()
    expect(page.locator("#table :focus")).to_have_count(1)

    # the keys: the scores, the trick, the help
    # (the next deal's auction goes on meanwhile: the bots' calls may be said after the key's line)
    us, them = record["result"]["scores"][0], record["result"]["scores"][1]
    said_after_key(page, "s", lambda line: line == f"Us {us}, them {them}, playing to 1000.")
    said_after_key(page, "t", lambda line: line.endswith(("Your turn.", "to play.")))
    page.keyboard.press("?")
    keys = page.get_by_role("dialog", name="Keyboard keys")
    expect(keys).to_be_visible()
    page.keyboard.press("Escape")
    expect(keys).to_be_hidden()
    expect(page.locator("#table :focus")).to_have_count(1)

    # the other pages read the saved setting before they are drawn
    page.goto(f"{site_url}judge.html#trump=d&trick=8c,Ad&hand=Jd,Kc,7s,Ah")
    expect(page.locator("html")).to_have_class(re.compile(r"\bfour-colour\b"))
    judge = ".pick:not([aria-disabled=true]), .trump-option .trump-symbol, #trick-cards .card, #hand-cards .card"
    expect_colours(page, judge, FOUR_COLOURS)
    page.goto(f"{site_url}rules.html")
    expect(page.locator(".card").first).to_be_visible()
    expect_colours(page, ".card, .trump-symbol", FOUR_COLOURS, suits="hs")
    page.goto(f"{site_url}puzzles.html#{PUZZLE_LINK}")
    expect(page.locator(".puzzle-seat.is-mine .card").first).to_be_visible()
    expect_colours(page, ".puzzle .card, .puzzle .pip, .puzzle .suit-icon", FOUR_COLOURS, suits="h")
    page.goto(f"{site_url}progress.html")
    expect(page.locator("html")).to_have_class(re.compile(r"\bfour-colour\b"))
    assert page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--suit-d')") == "#0a55c2"
