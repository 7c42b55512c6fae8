"""The illustrated deck (js/table/cards.js, art cut from SVG-cards by tools/card_art.py): every court card shows its
figure in every illustrated style and only the simple deck draws letters; the setting switches the cards on
screen; the first hand is drawn with its art already there; the art's licence ships in dist/ and the rules page
names it."""
from __future__ import annotations

import json
import re
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).parent))  # --import-mode=importlib: the helpers beside this file
from held_engine import HeldRequests, hold_the_engine  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "dist"
sys.path.insert(0, str(ROOT / "tools"))
import card_art  # noqa: E402

# Every card of the deck drawn in each style, as the table draws them, and what each shows: its figure (an image
# loaded, of its own file, drawn at a size), letters, and the shape its pips are masked with.
DRAW_THE_DECK = """async () => {
  const cards = await import("/js/table/cards.js");
  const { ALL_CARDS } = await import("/js/notation.js");
  const box = document.createElement("div");
  box.style.cssText = "position: fixed; inset: 0; display: flex; flex-wrap: wrap; --card-w: 60px; z-index: 9";
  document.body.append(box);
  const seen = {};
  for (const style of cards.DECK_STYLES) {
    cards.setDeckStyle(style);
    await cards.loadArt(ALL_CARDS);
    box.replaceChildren(...ALL_CARDS.map((card) => cards.buildCard(card)));
    seen[style] = [...box.children].map((node) => {
      const art = node.querySelector("img.court-art");
      const pip = node.querySelector(".pip");
      return {
        card: node.dataset.card,
        art: art && { src: new URL(art.src).pathname, complete: art.complete, width: art.naturalWidth,
                      shown: art.getBoundingClientRect().width },
        letters: node.querySelectorAll(".court-letter").length,
        pipShape: pip ? getComputedStyle(pip, "::before").maskImage : null,
      };
    });
  }
  // the four-colour deck's colours (css/suits.css) reach the illustrated cards' suits and indices
  cards.setDeckStyle("illustrated");
  const diamond = cards.buildCard("9d");
  box.replaceChildren(diamond);
  const colours = () => [".pip", ".corner .suit-icon", ".index"].map((part) => part === ".index"
    ? getComputedStyle(diamond.querySelector(part)).color
    : getComputedStyle(diamond.querySelector(part), "::before").backgroundColor);
  seen.nineOfDiamonds = [colours()];
  document.documentElement.classList.add("four-colour");
  seen.nineOfDiamonds.push(colours());
  document.documentElement.classList.remove("four-colour");
  box.remove();
  return seen;
}"""


def test_every_court_shows_its_figure_in_every_illustrated_style_and_letters_only_in_the_simple(returning_page,
                                                                                                  site_url):
    page = returning_page
    page.goto(f"{site_url}?speed=test")
    seen = page.evaluate(DRAW_THE_DECK)
    assert seen.pop("nineOfDiamonds") == [["rgb(200, 16, 46)"] * 3, ["rgb(10, 85, 194)"] * 3]  # css/suits.css
    assert set(seen) == {"illustrated", "simple"}
    for style, cards in seen.items():
        assert len(cards) == 32
        for card in cards:
            court = card["card"][0] in "JQK"
            if style == "simple":
                assert card["art"] is None and card["letters"] == (2 if court else 0), card
                continue
            assert card["letters"] == 0, card
            if court:
                assert card["art"] == {"src": f"/img/cards/{card['card']}.svg", "complete": True,
                                       "width": card["art"]["width"], "shown": card["art"]["shown"]}, card
                assert card["art"]["width"] > 0 and card["art"]["shown"] > 30, card
            else:
                assert card["art"] is None, card
                assert f"img/cards/suit-{card['card'][1]}.svg" in card["pipShape"], card

    # The setting: the cards on screen (the home's) take the simple deck at once, and the illustrated one back.
    page.click("#btn-settings")
    page.check("input[name=deck][value=simple]")
    logo = page.locator("#logo-fan .card")
    expect(logo.locator(".court-letter")).to_have_count(2)  # the jack of hearts'
    expect(logo.locator(".court-art")).to_have_count(0)
    assert page.evaluate("() => JSON.parse(localStorage.getItem('coinche.settings')).deck") == "simple"
    page.check("input[name=deck][value=illustrated]")
    expect(logo.locator(".court-art")).to_have_count(1)
    expect(page.locator("#logo-fan .card:not(.art)")).to_have_count(0)


WATCH_THE_HAND = """() => {
  const seen = window.handSeen = [];
  new MutationObserver(() => {
    for (const node of document.querySelectorAll(".hand .card[data-card]")) {
      if (seen.some((s) => s.card === node.dataset.card)) continue;
      const art = node.querySelector("img.court-art");
      seen.push({ card: node.dataset.card, art: art ? art.complete && art.naturalWidth > 0 : null });
    }
  }).observe(document.body, { subtree: true, childList: true });
}"""
MARKED = "(name) => performance.getEntriesByName(name).length > 0"


def first_deals_with_a_court() -> bytes:
    """The build's first deals, but those whose hand holds no court card (one in 80): the page draws one of them."""
    deals = json.loads((DIST / "first-deals.json").read_text())
    for variant, listed in deals["deals"].items():
        deals["deals"][variant] = [d for d in listed if any(c[0] in "JQK" for c in d["state"]["deal"]["hand"])]
    return json.dumps(deals).encode()


def test_the_first_hand_waits_for_its_art(guarded_page, site_url):
    """A first visit (no service worker to serve the art from its cache) presses Play while the engine boots:
    the build's first deal is drawn once its courts' figures are loaded (held here until the test lets them
    go), never before with a court drawn empty."""
    page = guarded_page
    page.route("**/first-deals.json", lambda route: route.fulfill(body=first_deals_with_a_court(),
                                                                   content_type="application/json"))
    art = HeldRequests(page, re.compile(r"/img/cards/[JQK][shdc]\.svg$"))
    engine = hold_the_engine(page)
    page.goto(f"{site_url}?speed=test")
    page.evaluate(WATCH_THE_HAND)
    page.click("#btn-play-coinche")
    deadline = time.monotonic() + 10
    while not page.evaluate(MARKED, "new-match-asked"):  # the deal chosen: now the table waits for the art
        assert time.monotonic() < deadline, "Play asked for no match"
        time.sleep(0.05)
    assert page.locator(".hand .card").count() == 0 and not page.evaluate(MARKED, "first-deal-drawn")
    art.release()
    expect(page.locator(".hand .card")).to_have_count(8)
    engine.release()
    seen = page.evaluate("() => window.handSeen")
    courts = [s["card"] for s in seen if s["card"][0] in "JQK"]
    assert len(seen) == 8 and courts
    assert seen == [{"card": s["card"], "art": True if s["card"] in courts else None} for s in seen]



def test_the_art_and_its_licence_ship_and_the_rules_page_names_them(returning_page, site_url, build_info):
    art = DIST / "img" / "cards"
    names = {f"{stem}.svg" for stem in card_art.court_files()} | {f"suit-{s}.svg" for s in "shdc"}
    assert {p.name for p in art.iterdir()} == names | {"back.svg", "LICENSE.txt"}
    for name in names | {"back.svg"}:
        root = ET.fromstring((art / name).read_text())
        assert root.get("viewBox"), name
        ids = {node.get("id") for node in root.iter() if node.get("id")}
        for node in root.iter():
            for attribute, value in node.attrib.items():
                if attribute.endswith("href"):
                    assert value[1:] in ids and value.startswith("#"), (name, value)  # nothing from elsewhere
    licence = (art / "LICENSE.txt").read_text()
    assert "GNU LESSER GENERAL PUBLIC LICENSE" in licence and "Version 2.1" in licence
    assert "David Bellot" in licence and "svg-cards-4.0.2.tgz" in licence
    assert "img/cards/LICENSE.txt" in build_info["files"]

    page = returning_page
    page.goto(f"{site_url}rules.html")
    link = page.locator("#deck-credits a")
    expect(link).to_have_attribute("href", "img/cards/LICENSE.txt")
    expect(page.locator("#deck-credits")).to_contain_text(re.compile("Bellot.*LGPL"))
    assert page.request.get(f"{site_url}img/cards/LICENSE.txt").ok
