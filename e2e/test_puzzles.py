"""The puzzle page (puzzles.html), walked once on the engine in the browser: a puzzle opened by its link,
answered wrong (the solver's figures shown, the rating down), the next one from the shipped set answered right
(the rating up, one in a row), the shown puzzle's own link, a bad link told in the reader's language with
nothing else changed, the player's own reviewed mistake as a puzzle; "next" shown within 100 ms of the press
once the engine is up; then the progress page's rating line and success by theme. (A corrupt line of the set:
tests/js/puzzles.test.mjs.)"""
from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parent.parent
BOOT_MS = 60_000
# coinche.puzzle's own example: the last two tricks, hearts trump, 80 by south, south to lead. Jh first: 176
# for south's side; Ac first: 84.
LINK = ("contract=80h1-0&hands=Jh,Ac/9h,As/Ts,Tc/7h,Ad&trick=0:&won=32,33/3,3&to=0&solution=Jh&margin=20"
        "&themes=last_trump&rating=1200")
# Bad links, each with the engine's error code and a word of its message in English: the jack of hearts in two
# hands, a seat with one card too few, a solution that is not the best card.
BAD_LINKS = (
    (LINK.replace("hands=Jh,Ac/9h,As", "hands=Jh,Ac/Jh,As"), "duplicate_card", "jack of hearts appears twice"),
    (LINK.replace("hands=Jh,Ac/9h,As", "hands=Jh,Ac/9h"), "puzzle_hand_count", "holds 1 card;"),
    (LINK.replace("solution=Jh", "solution=Ac"), "puzzle_not_best", "(ace of clubs) is not the best play: the best is jack of hearts"),
)
# Issue 42's deal (tests/helpers.py ISSUE_42) and its review's item for decision 27, as the history keeps
# it (coinche.webcommands.review_decision): seat 0 trumps its partner's winning trick with the Jd, a blunder;
# 8s was best.
MISTAKE_RECORD = {
    "format": "coinche-deal/2", "variant": "coinche", "rules": "own", "dealer": 3,
    "deck": "Jc,9c,7d,7s,Ac,Ad,Ks,8h,Qs,9s,7c,8d,9d,Jd,Qd,Kd,8c,Th,Jh,Qh,As,Tc,8s,9h,Ts,Ah,7h,Qc,Js,Kh,Kc,Td",
    "calls": "80d pass 90s 100h 110d coinche pass surcoinche".split(),
    "plays": "9d Qd Qc 8d Tc Ac 8c 7c Ah 7h Kh 7d 9c Kd 8h Kc 9h Th Jh Jd 8s 7s Js 9s Qs Td As Ts Qh Jc Ad Ks".split(),
    "result": {"void": False, "contract": {"declarer": 0, "trump": "d", "value": 110, "multiplier": 4},
               "cards": [69, 93], "belote": 1, "tricks": [4, 4], "made": False, "scores": [0, 1108]},
}
MISTAKE = {"index": 27, "seat": 0, "kind": "card", "action": "Jd", "trick": 5, "type": "trump", "best": "8s",
           "played_score": -1108.0, "best_score": 685.9, "options": {"8s": 685.9, "As": -1108.0, "Jd": -1108.0, "Jc": 654.0},
           "loss": 1793.9, "mark": "blunder", "reason": {"key": "trumped_partner", "params": {"card": "Jd"}},
           "hindsight_best": "8s", "hindsight_loss": 2060, "luck": None}
KEEP_MISTAKE = """async ([record, item]) => {
  const { importEntries } = await import('./js/history.js');
  const { makeEntry } = await import('./js/history-format.js');
  return importEntries([makeEntry({ record, seat: 0, review: { decisions: [item], summary: null } })]);
}"""


@pytest.fixture(scope="module")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "reduced_motion": "reduce", "viewport": {"width": 390, "height": 844}}


def rating(page) -> int:
    return int(page.locator("#rating").get_attribute("data-rating"))


def from_set(page, key) -> dict:
    """The set's puzzle `key`, read as the page reads it (the service worker's copy or the site's)."""
    text = page.evaluate("async () => (await fetch('puzzles/open.jsonl')).text()")
    return next(p for p in map(json.loads, filter(str.strip, text.splitlines())) if p["id"] == key)


def test_the_fixture_holds():
    from coinche.puzzle import Puzzle, check_puzzle
    from coinche.record import deal_to_record, replay
    from coinche.webcommands import puzzle_from_review

    assert deal_to_record(replay(MISTAKE_RECORD))["result"] == MISTAKE_RECORD["result"]
    assert puzzle_from_review(MISTAKE_RECORD, 27, MISTAKE)["solution"] == ["8s"]

    assert check_puzzle(Puzzle.parse(LINK)) is None


def test_a_puzzle_by_link_wrong_then_the_next_right_bad_links_and_a_mistake(returning_page, site_url):
    page = returning_page
    page.add_init_script("localStorage.setItem('coinche.lang', 'en')")
    page.goto(f"{site_url}puzzles.html#{LINK}")
    puzzle = page.locator("#puzzle")
    expect(puzzle).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    expect(page.locator("#link-problem")).to_be_hidden()
    start = rating(page)
    assert start == 1500

    # wrong: the ace of clubs; every legal card's figure shown, the rating down
    page.locator('.puzzle-seat.is-mine .card[data-card="Ac"]').click()
    expect(puzzle).to_have_attribute("data-result", "wrong")
    expect(page.locator("#values-body tr")).to_have_count(2)
    expect(page.locator('#values-body tr[data-card="Jh"] td')).to_have_text("176")
    expect(page.locator('#values-body tr[data-card="Ac"] td')).to_have_text("84")
    expect(page.locator("#answer-head")).to_contain_text("jack of hearts")
    assert rating(page) < start
    expect(page.locator("#streak")).to_have_attribute("data-streak", "0")
    down = rating(page)

    # the next puzzle, from the set, drawn within 100 ms of the press; answered right
    page.click("#next")
    expect(puzzle).to_have_attribute("data-state", "ready")
    shown_ms = page.evaluate("performance.getEntriesByName('puzzle-next').at(-1).duration")
    assert shown_ms < 100, f"the next puzzle took {shown_ms:.0f} ms"
    key = puzzle.get_attribute("data-id")
    chosen = from_set(page, key)
    best = chosen["solution"][0]
    page.locator(f'.puzzle-seat.is-mine .card[data-card="{best}"]').click()
    expect(puzzle).to_have_attribute("data-result", "right")
    assert rating(page) > down
    expect(page.locator("#streak")).to_have_attribute("data-streak", "1")
    # its link opens it: the fragment and the share box hold it
    expect(page.locator("#share-link")).to_have_value(f"{site_url}puzzles.html#" + page.evaluate("location.hash.slice(1)"))

    # bad links: the engine's word in the reader's language, the puzzle and the rating as they were
    kept = rating(page)
    problem = page.locator("#link-problem")
    for link, code, words in BAD_LINKS:
        page.evaluate(f"location.hash = {json.dumps(quote(link, safe='=&,/:'))}")
        expect(problem).to_have_attribute("data-code", code)
        expect(problem).to_contain_text(words)
        expect(puzzle).to_have_attribute("data-id", key)
        expect(puzzle).to_have_attribute("data-result", "right")
        assert rating(page) == kept

    # the player's own mistake, once reviewed: only what the seat knew, the review's figures and words
    assert page.evaluate(KEEP_MISTAKE, [MISTAKE_RECORD, MISTAKE]) == {"added": 1, "skipped": 0}
    page.select_option("#mode", "mistakes")
    expect(puzzle).to_have_attribute("data-kind", "seat")
    expect(page.locator('.puzzle-seat[data-pos="2"] .card.back')).to_have_count(3)
    page.locator('.puzzle-seat.is-mine .card[data-card="8s"]').click()
    expect(puzzle).to_have_attribute("data-result", "right")
    expect(page.locator('#values-body tr[data-card="Jd"] td')).to_have_text("-1108")
    expect(page.locator('#values-body tr[data-card="8s"] td')).to_have_text("685.9")
    expect(page.locator("#answer-why")).to_contain_text("trumped it with the jack of diamonds")
    assert rating(page) == kept  # not rated

    # the progress page: the rating after each rated puzzle, and success by theme
    page.goto(f"{site_url}progress.html")
    section = page.locator("#puzzle-progress")
    expect(section).to_be_visible(timeout=10_000)
    expect(section.locator("svg.puzzle-rating-line")).to_have_count(1)
    expect(section.locator("figcaption")).to_contain_text(f"to {kept}")
    for theme in {"last_trump", *chosen["themes"]}:  # the link's puzzle missed, the set's solved
        tried = int(theme == "last_trump") + int(theme in chosen["themes"])
        solved = int(theme in chosen["themes"])
        expect(section.locator(f'#puzzle-themes tr[data-theme="{theme}"] td')).to_have_text(
            [str(tried), f"{solved} ({round(100 * solved / tried)}%)"])
