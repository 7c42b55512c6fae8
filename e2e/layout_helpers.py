"""What the layout and accessibility tests share: a match played out by bots in CPython whose saves put the
page at chosen moments, the page checks (nothing wider than the screen, nothing cut off, no text out of its
box), and axe-core run in the page.

axe-core is pinned in the Makefile (AXE_VERSION) and installed under .cache/axe by `make test`; it is
evaluated in the page through the DevTools protocol, which the site's CSP does not govern, and never
reaches dist/."""
from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path

import pytest

from coinche.session import Session

ROOT = Path(__file__).resolve().parent.parent
AXE = ROOT / ".cache" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
SHOTS = os.environ.get("LAYOUT_SHOTS")  # a folder: every checked screen is also saved there as a PNG
SAVE_KEY = "coinche.match"
LANG_KEY = "coinche.lang"

# Every visible control, card or text of `root` (the open dialog, else the screen): its box must lie in
# the viewport (and in every ancestor that clips), and its text within its own box.
CHECK_LAYOUT = """(selector) => {
  const problems = [];
  const doc = document.documentElement;
  const vw = doc.clientWidth, vh = innerHeight;
  if (doc.scrollWidth > vw) problems.push(`the document is ${doc.scrollWidth} px wide in ${vw} px`);
  const dialog = [...document.querySelectorAll('dialog[open]')].pop();
  const root = dialog ?? document.querySelector(selector);
  const fixed = !dialog && getComputedStyle(root).position === 'fixed';
  if (dialog) {  // the dialog on the screen; what it holds may scroll in it, never out of it sideways
    const r = dialog.getBoundingClientRect();
    if (r.left < 0 || r.right > vw || r.top < 0 || r.bottom > vh) problems.push(`the dialog ${Math.round(r.left)}..${Math.round(r.right)} x ${Math.round(r.top)}..${Math.round(r.bottom)} is cut off in ${vw}x${vh}`);
  }
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1) return false;  // absent, or visually hidden (1 px, clipped)
    for (let n = el; n; n = n.parentElement) {
      const s = getComputedStyle(n);
      if (s.visibility === 'hidden' || s.display === 'none' || Number(s.opacity) === 0) return false;
      if (n.classList.contains('visually-hidden')) return false;
      // a closed <details> lays its content out without painting it: only its summary shows
      if (n !== el && n.tagName === 'DETAILS' && !n.open && !el.closest('summary')) return false;
    }
    return true;
  };
  const label = (el) => {
    const text = (el.getAttribute('aria-label') || el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 40);
    return `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}.${[...el.classList].join('.')} "${text}"`;
  };
  const SLACK = 1;
  const inside = (r, box, vertical) => r.left >= box.left - SLACK && r.right <= box.right + SLACK
    && (!vertical || (r.top >= box.top - SLACK && r.bottom <= box.bottom + SLACK));
  const screen = { left: 0, right: vw, top: 0, bottom: vh };
  const things = root.querySelectorAll('button, a[href], select, input:not([type=radio]):not([type=checkbox]), .card, .seg label, .switch, h1, h2, p, li, th, td, .bubble, .toast, .contract > *, .player');
  for (const el of things) {
    if (!shown(el)) continue;
    const r = el.getBoundingClientRect();
    if (!inside(r, screen, fixed)) problems.push(`${label(el)} is cut off by the screen: ${Math.round(r.left)}..${Math.round(r.right)} x ${Math.round(r.top)}..${Math.round(r.bottom)} in ${vw}x${vh}`);
    for (let n = el.parentElement; n && n !== document.body; n = n.parentElement) {  // the screen: above
      const s = getComputedStyle(n);
      const clipsX = s.overflowX === 'hidden' || s.overflowX === 'clip';
      const clipsY = s.overflowY === 'hidden' || s.overflowY === 'clip';
      if (!clipsX && !clipsY) continue;
      const box = n.getBoundingClientRect();
      if ((clipsX && (r.left < box.left - SLACK || r.right > box.right + SLACK))
          || (clipsY && (r.top < box.top - SLACK || r.bottom > box.bottom + SLACK))) {
        problems.push(`${label(el)} is cut off by ${label(n)}`);
        break;
      }
    }
  }
  // A control covered by something else where a finger would tap it (its centre).
  for (const el of root.querySelectorAll('button:not(.card), a[href], select')) {
    if (!shown(el)) continue;
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (x < 0 || x > vw || y < 0 || y > vh) continue;  // scrolled away: not covered
    const hit = document.elementFromPoint(x, y);
    if (hit && !el.contains(hit) && !hit.contains(el)) problems.push(`${label(el)} is covered by ${label(hit)}`);
  }
  // Text wider than its box (a block whose content overflows it sideways).
  for (const el of root.querySelectorAll('*')) {
    if (!shown(el) || el.closest('.card') || el.closest('svg')) continue;
    const s = getComputedStyle(el);
    if (s.display.startsWith('inline') && s.display !== 'inline-block' && s.display !== 'inline-flex' && s.display !== 'inline-grid') continue;
    const ownText = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!ownText || el.tagName === 'SELECT' || el.tagName === 'INPUT' || el.tagName === 'OPTION') continue;
    // cut short on purpose: an ellipsis shows it, and the whole text is its title
    if (s.textOverflow === 'ellipsis' && el.title === el.textContent) continue;
    if (el.scrollWidth > el.clientWidth + SLACK && el.clientWidth > 0) problems.push(`${label(el)}: text ${el.scrollWidth} px in a box of ${el.clientWidth} px`);
  }
  return [...new Set(problems)];
}"""


# Waits for the animations that run once (cards dealt, dialogs opening) to end; the repeating ones (the glow of the
# seat to play) go on.
SETTLE = """async () => {
  const ending = document.getAnimations().filter((a) => a.effect?.getComputedTiming().iterations === 1);
  await Promise.all(ending.map((a) => a.finished.catch(() => null)));
}"""


def check_layout(page, where: str, selector: str = "body") -> list[str]:
    """The layout problems of what shows now, each prefixed by `where`; saves a screenshot if asked."""
    page.evaluate(SETTLE)
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        size = page.viewport_size
        name = f"{where}-{size['width']}".replace(" ", "_").replace("/", "-")
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"))
    return [f"{where}: {p}" for p in page.evaluate(CHECK_LAYOUT, selector)]


# ------------------------------------------------------------------ axe-core
@lru_cache(maxsize=1)
def axe_source() -> str:
    if not AXE.is_file():
        pytest.fail(f"{AXE} is missing: run `make axe` (or `make test`, which installs it)", pytrace=False)
    return AXE.read_text(encoding="utf-8")


RUN_AXE = """async () => {
  const result = await axe.run(document, { resultTypes: ['violations'] });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.slice(0, 4).map((n) => n.target.join(' ')).join(' | ')}`);
}"""


def check_axe(page, where: str) -> list[str]:
    """axe-core's serious and critical violations of the page as it shows now."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(axe_source())  # through the DevTools protocol: the page's CSP does not apply
    return [f"{where}: {v}" for v in page.evaluate(RUN_AXE)]


# ------------------------------------------------------------------ a match at chosen moments
MATCH_SEED = "layout-1"


@lru_cache(maxsize=1)
def scripted_match() -> dict:
    """A coinche match to 501 at the Easy level, every seat played by a bot (the player's seat too), and the
    saves (snapshots) that put the page at:
    - "auction": the player's first call of the second deal (one finished deal behind it);
    - "play": the player's first card of the second deal, 8 cards in hand;
    - "last_card": the player's last card of the match's final deal (then the summary and the result);
    with "cards": the card the player plays at each of those moments (the bots' answers are the same in the
    page: same seed, same level)."""
    session = Session.new("coinche", target=501, level="easy", seed=MATCH_SEED)
    marks: dict[str, int] = {}
    plays_of_me: list[tuple[int, int, str]] = []  # (deal index, action index, card)
    while not session.match.is_over:
        match = session.match
        deal = match.deal
        if deal.turn == 0:
            index = len(session.actions)
            if match.deal_index == 1 and deal.phase.name == "AUCTION" and "auction" not in marks:
                marks["auction"] = index
            action = str(session.bot_for(0).act(deal.view(0)))
            if match.deal_index == 1 and deal.phase.name == "PLAY" and "play" not in marks and len(deal.view(0).hand) == 8:
                marks["play"] = index
            if deal.phase.name == "PLAY":
                plays_of_me.append((match.deal_index, index, action))
            session.act(0, action)
        else:
            session.bot_step()
    final_deal = plays_of_me[-1][0]
    marks["last_card"] = max(i for d, i, _ in plays_of_me if d == final_deal)
    full = session.snapshot()
    snapshots = {name: {**full, "actions": full["actions"][:index]} for name, index in marks.items()}
    cards = {name: full["actions"][index] for name, index in marks.items()}
    return {"snapshots": snapshots, "cards": cards}


HOUSE_RULES = "contracts=all,announce=yes"


@lru_cache(maxsize=1)
def scripted_house_deal() -> dict:
    """The first deal of a match under the house rules ``contracts=all,announce=yes`` (issue 33), the bots at
    the Easy level, the player's seat played by the script: it bids the first all trumps the panel offers, then
    passes, declares all it holds with its first card, and plays the Easy bot's cards.  The deal is one where the
    player and an opponent hold announcements (one side's will not count).  Its saves put the page at:
    - "house_auction": the player's first call (the panel with no trumps and all trumps);
    - "house_announce": the player's first card, before it declares (the panel asks);
    - "house_last_card": the player's last card of the deal (then the summary, with each announcement);
    with "cards": the card the player plays at "house_last_card"."""
    from coinche.announce import held
    from coinche.deal import Deal
    from coinche.rules import Rules

    rules = Rules.parse(HOUSE_RULES)
    for deal_seed in range(1000):
        hands = Deal.new(rules, 3, deal_seed).hands
        if not (held(hands[0]) and (held(hands[1]) or held(hands[3]))):
            continue
        session = Session.new("coinche", target=1000, level="easy", seed=f"house-{deal_seed}", rules=rules,
                              deal_seed=deal_seed, first_dealer=3)
        marks: dict[str, int] = {}
        last = None
        while session.match.deal_index == 0 and not session.match.is_over:
            deal = session.match.deal
            if deal.turn != 0:
                session.bot_step()
                continue
            index = len(session.actions)
            if deal.phase.name == "AUCTION":
                marks.setdefault("house_auction", index)
                bids = [str(c) for c in deal.legal_calls() if str(c).endswith("ta")]
                session.act(0, bids[0] if bids and deal.high_bid is None else "pass")
                continue
            if deal.may_declare:
                marks["house_announce"] = index
                session.act(0, "announce:" + ",".join(str(a) for a in held(deal.hands[0])))
            last = (len(session.actions), str(session.bot_for(0).act(deal.view(0))))
            session.act(0, last[1])
        record = session.match.history[0]
        if record["result"]["void"] or len({s & 1 for s, seats in enumerate(record.get("announced", []))
                                            for _ in seats}) < 2:
            continue
        marks["house_last_card"] = last[0]
        full = session.snapshot()
        snapshots = {name: {**full, "actions": full["actions"][:index]} for name, index in marks.items()}
        return {"snapshots": snapshots, "cards": {"house_last_card": last[1]}, "record": record}
    raise AssertionError("no deal of announcements on both sides")


def put_save(page, name: str) -> None:
    saves = scripted_house_deal() if name.startswith("house_") else scripted_match()
    page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                  [SAVE_KEY, json.dumps(saves["snapshots"][name])])
