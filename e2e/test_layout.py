"""Every page and screen at phone, tablet and desktop widths in the four languages: the document never wider
than the screen, no control or card cut off, no text out of its box; and axe-core finds no serious or
critical violation on any of them.

One page load per language and width: the home, its settings, the 1v1 lobby, the question before a saved
match is replaced, the table in the auction (with the coach) and in the play, the table's menu, the
previous deals and a replay, the last trick, the deal summary and the match result; and under the house rules
contracts=all,announce=yes, the bidding panel with no trumps and all trumps, the question to announce at the first
card, the summary naming each announcement and the replay showing them. The matches are ones that bots played in
CPython (layout_helpers.scripted_match, scripted_house_deal): their saves put the page at each moment. Each load is
a returning visitor's (e2e/conftest.py `returning_page`): the screens are the same, and only the module's
first test boots the engine from nothing.
LAYOUT_SHOTS=folder saves a screenshot of each screen."""
from __future__ import annotations

import re
import sys
from pathlib import Path
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).parent))  # --import-mode=importlib: the helpers beside this file
from layout_helpers import check_axe, check_layout, put_save, scripted_house_deal, scripted_match  # noqa: E402
from coinche.daily import daily_set  # noqa: E402
from coinche_lab.history import history_text  # noqa: E402

BOOT_MS = 60_000
LANGS = ("en", "fr", "de", "es")
SCREENS = {320: 568, 360: 740, 390: 844, 768: 1024, 1366: 800}
AXE_WIDTHS = (390, 1366)  # axe reads the DOM, not the layout: two widths are enough
# A puzzle (docs/puzzles.md) by its link: the last two tricks, hearts trump, south to lead.
PUZZLE_LINK = ("contract=80h1-0&hands=Jh,Ac/9h,As/Ts,Tc/7h,Ad&trick=0:&won=32,33/3,3&to=0&solution=Jh&margin=20"
               "&themes=last_trump,dix_de_der&rating=1200")


def screens(shift: int) -> list:
    """Every language at every width; `make test` runs one language per width (each language at least once,
    the languages rotated by `shift`), the others only with --full (make test-full, CI)."""
    return [
        pytest.param(lang, width, id=f"{lang}-{width}",
                     marks=() if LANGS.index(lang) == (i + shift) % len(LANGS) else pytest.mark.full_only)
        for lang in LANGS for i, width in enumerate(SCREENS)
    ]


@pytest.fixture(scope="module")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "reduced_motion": "reduce"}


# The widths drawn with the four-colour deck (js/table/settings.js CARD_LOOK): one of the two axe widths, so that axe
# checks the contrast of both decks' suits on every page.
FOUR_COLOUR_WIDTHS = (768, 1366)
FOUR_COLOUR = """(() => {
  let settings = {};
  try { settings = JSON.parse(localStorage.getItem('coinche.settings') ?? '{}') ?? {}; } catch {}
  localStorage.setItem('coinche.settings', JSON.stringify({ ...settings, fourColour: true }));
})()"""


def open_page(page, site_url, path, lang, width):
    page.set_viewport_size({"width": width, "height": SCREENS[width]})
    page.add_init_script(f"localStorage.setItem('coinche.lang', '{lang}')")
    if width in FOUR_COLOUR_WIDTHS:
        page.add_init_script(FOUR_COLOUR)
    page.goto(f"{site_url}{path}")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    if width in FOUR_COLOUR_WIDTHS:
        expect(page.locator("html")).to_have_class(re.compile(r"\bfour-colour\b"))


class Checker:
    def __init__(self, page, lang, width):
        self.page, self.lang, self.width = page, lang, width
        self.problems: list[str] = []
        self.axe = width in AXE_WIDTHS

    def __call__(self, where, selector="body"):
        name = f"{self.lang}-{where}"
        self.problems += check_layout(self.page, name, selector)
        if self.axe:
            self.problems += check_axe(self.page, name)

    def done(self):
        assert not self.problems, f"{len(self.problems)} problems:\n" + "\n".join(self.problems)


def close_dialog(page, selector):
    page.locator(f"{selector} .dialog-actions .btn.primary").click()
    expect(page.locator(selector)).to_be_hidden()


def my_turn(page):
    expect(page.locator("#hand")).to_have_class(re.compile(r"\bmy-turn\b"), timeout=30_000)


def resume_from_home(page, save):
    put_save(page, save)
    page.click("#btn-play-coinche")  # a saved match: the page asks first
    confirm = page.locator("#dlg-confirm-new")
    expect(confirm).to_be_visible()
    confirm.locator("button[value=resume]").click()
    expect(page.locator("#table")).to_be_visible()


# The top bar at its widest: four-figure scores over a target of 1000, the longest contract word
# ('Triunfo'), surcoinched, by a long player's name (online), written over what the table shows.
WIDEST_BAR = """() => {
  const t = (id, text) => { document.getElementById(id).textContent = text; };
  t('score-us', '1520'); t('score-them', '1490');
  const target = document.getElementById('score-target');
  target.textContent = target.textContent.replace(/\\d+/, '1000');
  document.querySelector('#contract .contract-value').firstChild.textContent = 'Triunfo';
  let x = document.querySelector('#contract .contract-x');
  if (!x) {
    x = document.createElement('span'); x.className = 'contract-x';
    const word = document.createElement('span'); word.className = 'contract-x-word'; word.textContent = 'Surcoinche';
    x.append(word, ''); document.getElementById('contract').append(x);
  }
  x.lastChild.textContent = ' ×4';
  const by = document.querySelector('#contract .contract-by');
  by.textContent = by.title = 'Maximilian-Alexander';
}"""


# A point of the card that no other card covers (on phones the next card covers its centre).
VISIBLE_POINT = """(card) => {
  const r = card.getBoundingClientRect();
  for (const fy of [0.5, 0.3, 0.7, 0.15, 0.85]) {
    for (const fx of [0.5, 0.3, 0.15, 0.07, 0.7, 0.85]) {
      const x = r.left + r.width * fx, y = r.top + r.height * fy;
      if (card.contains(document.elementFromPoint(x, y))) return { x: x - r.left, y: y - r.top };
    }
  }
  return null;
}"""


def play_card(page, card):
    """Tapped where a finger would: on a part of the card that shows."""
    locator = page.locator(f'#hand .card[data-card="{card}"]')
    expect(locator).to_be_visible()
    point = locator.evaluate(VISIBLE_POINT)
    assert point, f"no part of {card} shows"
    locator.click(position=point)


def widest_bar(page):
    page.evaluate(WIDEST_BAR)


@pytest.mark.parametrize("lang, width", screens(0))
def test_the_game_fits_every_screen(returning_page, site_url, lang, width):
    page = returning_page
    check = Checker(page, lang, width)
    match = scripted_match()
    open_page(page, site_url, "?speed=test", lang, width)
    expect(page.locator("body")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    check("home", "#home")

    page.click("#btn-settings")
    check("home-settings")
    page.click("#dlg-settings .house-details > summary")  # the house rules, one option at a time
    expect(page.locator("#house-options select").first).to_be_visible()
    check("home-settings-house")
    close_dialog(page, "#dlg-settings")

    page.click("#btn-online")
    expect(page.locator("#online")).to_be_visible()
    check("online-lobby", "#online")
    page.click("#btn-online-back")
    expect(page.locator("#home")).to_be_visible()

    # the auction of the second deal, with the coach's advice
    put_save(page, "auction")
    page.click("#btn-play-coinche")
    expect(page.locator("#dlg-confirm-new")).to_be_visible()
    check("confirm-new-match")
    page.locator("#dlg-confirm-new button[value=resume]").click()
    expect(page.locator("#bidding")).to_be_visible()
    expect(page.locator("#coach-line")).to_be_visible()
    check("table-auction", "#table")

    page.click("#btn-menu")
    expect(page.locator("#dlg-settings")).to_be_visible()
    check("table-menu")
    page.click("#btn-previous-deals")
    expect(page.locator("#dlg-deals")).to_be_visible()
    check("previous-deals")
    page.locator("#dlg-deals .replay-open").first.click()
    expect(page.locator("#dlg-replay")).to_be_visible()
    check("replay")
    close_dialog(page, "#dlg-replay")
    close_dialog(page, "#dlg-deals")

    # the play: eight cards, then the last trick
    page.click("#btn-home")
    resume_from_home(page, "play")
    my_turn(page)
    check("table-play", "#table")
    widest_bar(page)
    check("table-bar-widest", "#table")
    play_card(page, match["cards"]["play"])
    expect(page.locator("#hand .card")).to_have_count(7)
    expect(page.locator("#btn-last-trick")).to_be_enabled(timeout=30_000)
    page.click("#btn-last-trick")
    expect(page.locator("#dlg-last-trick")).to_be_visible()
    check("last-trick")
    close_dialog(page, "#dlg-last-trick")

    # the last card of the match: the deal summary, then the result with the score sheet
    page.click("#btn-home")
    resume_from_home(page, "last_card")
    my_turn(page)
    play_card(page, match["cards"]["last_card"])
    expect(page.locator("#dlg-summary")).to_be_visible(timeout=30_000)
    expect(page.locator("#dlg-summary .summary-par")).to_be_visible(timeout=60_000)  # the Expert's replays counted
    check("deal-summary")
    close_dialog(page, "#dlg-summary")
    expect(page.locator("#dlg-result")).to_be_visible(timeout=30_000)
    check("match-result")
    check.done()


@pytest.mark.parametrize("lang, width", screens(3))
def test_announcements_and_all_trumps_fit_every_screen(returning_page, site_url, lang, width):
    """A deal of contracts=all,announce=yes: the bidding panel with the no trumps and all trumps chips, the
    question to announce at the player's first card, the deal summary with a line per announcement (one counted,
    one not), and its replay at the end of the first trick, where the declarations show."""
    page = returning_page
    check = Checker(page, lang, width)
    deal = scripted_house_deal()
    open_page(page, site_url, "?speed=test", lang, width)
    expect(page.locator("body")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    resume_from_home(page, "house_auction")
    expect(page.locator("#bidding .chip.suit")).to_have_count(6)
    page.locator("#bidding .chip.value:not([disabled])").first.click()  # a value chosen: every chip lit
    check("house-auction", "#table")

    page.click("#btn-home")
    resume_from_home(page, "house_announce")
    expect(page.locator("#bidding")).to_have_attribute("data-variant", "announce")
    expect(page.locator("#bidding button.announce")).to_be_visible()
    check("house-announce", "#table")

    page.click("#btn-home")
    resume_from_home(page, "house_last_card")
    my_turn(page)
    play_card(page, deal["cards"]["house_last_card"])
    summary = page.locator("#dlg-summary")
    expect(summary).to_be_visible(timeout=30_000)
    expect(summary.locator("tr.announcement")).to_have_count(2)
    expect(summary.locator("tr.announcement.not-counted")).to_have_count(1)
    check("house-summary")
    summary.locator(".replay-open").click()
    replay = page.locator("#dlg-replay")
    expect(replay).to_be_visible()
    replay.locator(".replay-slider").fill(str(len(deal["record"]["calls"]) + 4))  # the first trick's last card
    expect(replay.locator(".replay-declared li")).to_have_count(2)
    check("house-replay")
    close_dialog(page, "#dlg-replay")
    close_dialog(page, "#dlg-summary")
    check.done()


@pytest.mark.parametrize("lang, width", screens(1))  # the axe widths in the two other languages
def test_the_judge_and_the_rules_fit_every_screen(returning_page, site_url, lang, width):
    page = returning_page
    check = Checker(page, lang, width)
    open_page(page, site_url, "judge.html#trump=h&trick=8h,Ah,7c&hand=Jh,Kd,7s", lang, width)
    expect(page.locator("#ruling")).to_have_attribute("data-state", "ruled", timeout=BOOT_MS)
    check("judge")
    page.goto(f"{site_url}rules.html")
    expect(page.locator("body")).to_have_attribute("data-state", "ready", timeout=10_000)
    check("rules")
    check.done()


@pytest.mark.parametrize("lang, width", screens(3))
def test_the_puzzles_fit_every_screen(returning_page, site_url, lang, width):
    """The puzzle page with a puzzle opened by its link, then answered (the figures, the why, the line)."""
    page = returning_page
    check = Checker(page, lang, width)
    open_page(page, site_url, f"puzzles.html#{PUZZLE_LINK}", lang, width)
    puzzle = page.locator("#puzzle")
    expect(puzzle).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    check("puzzles")
    page.locator('.puzzle-seat.is-mine .card[data-card="Ac"]').click()
    expect(puzzle).to_have_attribute("data-state", "answered")
    check("puzzles-answered")
    check.done()


# Every text of the progress page's plots at 11 CSS px or more on the screen, and inside its plot's box (an
# SVG cuts off what lies outside it); after two frames, in which a plot is drawn again at a new width.
PLOT_TEXTS = """async () => {
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  const problems = [];
  let texts = 0;
  for (const svg of document.querySelectorAll('svg.plot')) {
    const box = svg.getBoundingClientRect();
    for (const text of svg.querySelectorAll('text')) {
      texts += 1;
      const r = text.getBoundingClientRect();
      const px = parseFloat(getComputedStyle(text).fontSize) * text.getScreenCTM().a;
      const name = `#${svg.parentElement.id} "${text.textContent}"`;
      if (px < 11) problems.push(`${name} is ${px.toFixed(1)} px high`);
      const at = (b) => `${Math.round(b.left)}..${Math.round(b.right)} x ${Math.round(b.top)}..${Math.round(b.bottom)}`;
      if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5) {
        problems.push(`${name} is cut off by its plot: ${at(r)} in ${at(box)}`);
      }
    }
  }
  return texts ? problems : ['no text in the plots'];
}"""


def check_plot_texts(page, lang, width) -> list[str]:
    return [f"{lang}-{width}-plots: {problem}" for problem in page.evaluate(PLOT_TEXTS)]


# Twelve puzzles' results on the device (js/puzzles/store.js), for the progress page's puzzle part.
PUZZLE_RESULTS = """async () => {
  const store = await import('./js/puzzles/store.js');
  const themes = [['dix_de_der', 'endgame'], ['partner_lead'], ['keep_belote', 'contract'], ['unblock']];
  let progress = store.freshProgress();
  for (let i = 0; i < 12; i++) {
    const result = { id: `p${i}`, rating: 1400 + 20 * i, themes: themes[i % 4], solved: i % 3 !== 0, rated: true, at: i };
    progress = store.withResult(progress, result);
  }
  store.saveProgress(progress);
}"""


@pytest.mark.parametrize("lang, width", screens(2))
def test_the_progress_page_fits_every_screen(returning_page, site_url, lang, width):
    """The progress page with a history of every kind of figure (imported), its tables unfolded, and the
    erasing's confirmation; then its plots' texts, readable and whole, at the width and at the phones' and a
    desktop's (the window resized: the plots drawn again)."""
    page = returning_page
    check = Checker(page, lang, width)
    open_page(page, site_url, "progress.html", lang, width)
    expect(page.locator("body")).to_have_attribute("data-state", "ready", timeout=10_000)
    page.evaluate("""async (text) => {
      const { importEntries, wipeHistory } = await import('./js/history.js');
      const { parseExport } = await import('./js/history-format.js');
      await wipeHistory();
      await importEntries(parseExport(text).entries.map((entry) => ({ ...entry, checked: true })));  // as the engine read them
    }""", history_text(30, seed="layout"))
    page.evaluate(PUZZLE_RESULTS)
    page.reload()
    expect(page.locator("#plot-line svg")).to_be_visible()
    expect(page.locator("#plot-duplicate svg")).to_be_visible()
    expect(page.locator("#puzzle-themes")).to_be_visible()
    for summary in page.locator(".plot-table summary").all():
        summary.click()
    page.evaluate("() => scrollTo(0, 0)")  # the tables unfolded, from the top (the header stays on a wide screen)
    check("progress")
    page.click("#btn-wipe")
    expect(page.locator("#dlg-wipe")).to_be_visible()
    check("progress-wipe")
    page.click("#dlg-wipe button[value=keep]")
    for shown in dict.fromkeys((width, 360, 320, 1366)):
        page.set_viewport_size({"width": shown, "height": SCREENS[shown]})
        check.problems += check_plot_texts(page, lang, shown)
    page.evaluate("async () => (await import('./js/history.js')).wipeHistory()")
    check.done()


# The deal of the day and challenges (js/daily.js): a day played (its results and pars put in the store), its
# result and the question before a challenge is sent; a challenge received, then played, beside two players'
# results under the longest names a link carries. Two screens by default (an axe width among them), every one
# with --full.
DAILY_SCREENS = [pytest.param(lang, width, id=f"{lang}-{width}", marks=() if (lang, width) in (("de", 320), ("es", 1366))
                              else pytest.mark.full_only) for lang in LANGS for width in SCREENS]
DAILY_DAY = "2026-12-05"
PUT_DAY = """async ([date, deals]) => {
  const store = await import('./js/daily-store.js');
  await store.keepDay({ date, deals });
  (await import('./js/daily.js')).drawCard(document.querySelector('#btn-daily'));
}"""
OPEN_CHALLENGE = """async ([hash, mine]) => {
  const { challengeKey, parseChallengeLink } = await import('./js/notation.js');
  const link = parseChallengeLink(hash);
  const store = await import('./js/daily-store.js');
  if (mine) await store.keepChallenge({ key: challengeKey(link.deals), deals: link.deals, players: [], mine, name: '' });
  (await import('./js/daily.js')).openChallengeLink(hash);
}"""


def challenge_hash(deals, players) -> str:
    """A challenge's fragment (js/notation.js formatChallengeLink) of `deals` with `players`' results."""
    params = [("challenge", "1"), ("day", DAILY_DAY)]
    params += [("d", f"{d.deal_seed}~{d.dealer}~{d.level}~{d.rules}") for d in deals]
    for name, results in players:
        params += [("p", name), ("r", ",".join(f"{score}:{par}" for score, par in results))]
    return "#" + urlencode(params)


@pytest.mark.parametrize("lang, width", DAILY_SCREENS)
def test_the_deal_of_the_day_and_challenges_fit_every_screen(returning_page, site_url, lang, width):
    page = returning_page
    check = Checker(page, lang, width)
    deals = daily_set(DAILY_DAY)
    scores = [(162, 80.4), (-160, -12.5), (0, 35.1), (500, 251.7)]
    played = [{**d.to_json(), "score": score, "par": par, "k": 12, "stderr": 9.5} for d, (score, par) in zip(deals, scores)]
    open_page(page, site_url, f"?speed=test&day={DAILY_DAY}", lang, width)
    expect(page.locator("body")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    page.evaluate(PUT_DAY, [DAILY_DAY, played])
    expect(page.locator("#btn-daily")).to_have_attribute("data-state", "done")
    check("home-daily-done", "#home")
    page.click("#btn-daily")
    result = page.locator("#dlg-daily")
    expect(result.locator("tbody tr")).to_have_count(4)
    check("daily-result")
    result.locator(".challenge-deal").click()
    expect(page.locator("#dlg-challenge #challenge-name")).to_be_visible()
    check("challenge-send")
    page.locator("#dlg-challenge .dialog-actions .btn.ghost").click()
    result.locator(".dialog-actions .btn").click()

    longest = "Maximilian-Alexander Wolf"[:24]
    players = [(longest, scores), ("Ана-Мария Гонсалес-Пере"[:24], [(-20, -3.5)] * 4)]
    page.evaluate(OPEN_CHALLENGE, [challenge_hash(deals, players), None])
    invitation = page.locator("#dlg-challenge-in")
    expect(invitation).to_be_visible()
    check("challenge-invitation")
    invitation.locator(".btn.ghost").click()
    mine = [{"score": score, "par": par} for score, par in reversed(scores)]
    page.evaluate(OPEN_CHALLENGE, [challenge_hash(deals, players), mine])
    compare = page.locator("#dlg-compare")
    expect(compare.locator("thead th")).to_have_count(4)
    check("challenge-compare")
    check.done()
