"""The deal of the day and challenges by link, walked through as players would: the day's deals as the
command line deals them (`coinche daily --date`), in two browser contexts; a set in progress that survives a
reload beside a saved solo match it never touches; bad challenge links told and nothing changed; a challenge
played in a second browser context, both results side by side, and the answer sent back."""
from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from coinche.session import Session

sys.path.insert(0, str(Path(__file__).parent))  # --import-mode=importlib: the helpers beside this file
from pwa_helpers import boot_ready  # noqa: E402
from test_replay import pass_or_play, play_to_summary  # noqa: E402
from test_table import ENGINE_STATE, look  # noqa: E402

DAY = "2026-12-05"  # ?day= pretends the date (js/daily-format.js today)
SAVE_KEY = "coinche.match"  # js/table/settings.js: the solo match's save, never touched here


@pytest.fixture(scope="module")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "reduced_motion": "reduce", "viewport": {"width": 390, "height": 844}}


def cli_deals(day: str) -> list[dict]:
    """The day's deals as `coinche daily --date DAY` prints them (records' starting positions): each its
    variant, dealer, deck, and the hand seat 0 is dealt."""
    out = subprocess.run([sys.executable, "-m", "coinche.cli", "daily", "--date", day], check=True, capture_output=True,
                         text=True).stdout
    starts = [json.loads(line) for line in out.splitlines()]
    assert [s["daily"] for s in starts] == [f"{day}/{n}" for n in range(1, 5)]
    return [{"variant": s["variant"], "dealer": s["dealer"], "hand": sorted(s["hands"][0].split(",")), "deck": s["deck"]}
            for s in starts]


def dealt(page) -> dict:
    """The deal at the page's table, as the engine holds it (its deck: LAST_DECK once it is played)."""
    page.wait_for_function(AT_TABLE)
    state = page.evaluate(ENGINE_STATE)
    return {"variant": state["variant"], "dealer": state["deal"]["dealer"], "hand": sorted(state["deal"]["hand"])}


def same_deal(shown: dict, printed: dict) -> bool:
    return shown == {key: printed[key] for key in shown}


LAST_DECK = """async () => {
  const { entries } = await (await import('./js/history.js')).readHistory();
  return entries.at(-1).record.deck;
}"""  # the history's last deal, as the page's engine recorded it


# The one-deal match at the table (js/daily.js sets it once the deal is dealt): "… deal 2 of 4".
AT_TABLE = "() => document.querySelector('#table').dataset.oneDeal ?? ''"
MOVED_ON = "(before) => document.querySelector('#table').dataset.oneDeal !== before || !!document.querySelector('dialog.daily[open]')"


def play_deal(page, seconds=120):
    """Pass at every call and play the first legal card until the deal is over (its summary closed; a void deal
    has none), and the flow has gone on: the next deal dealt, or the set's result shown."""
    deal = page.evaluate(AT_TABLE)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        ui, seen = look(page)
        if ui["summary"]:
            page.click("#dlg-summary .dialog-actions .btn.primary")
        elif page.evaluate(MOVED_ON, deal):
            return
        else:
            pass_or_play(page, ui, seen)
    raise AssertionError("no deal was played to its end")


def play_the_set(page, expected: list[dict]) -> None:
    """The four deals of a set played in turn (`play_deal`), each the command line's (`expected`) and kept in
    the history as dealt."""
    for i in range(4):
        assert same_deal(dealt(page), expected[i])
        play_deal(page)
        assert page.evaluate(LAST_DECK) == expected[i]["deck"]


# No review helper: no par nor review made in the background, which the tests do not wait for (half the CPU).
NO_HELPER = "async () => (await import('./js/table/review-helper.js')).allowHelper(false)"


def planted_save() -> str:
    """A solo match's save, as the page writes it."""
    return json.dumps(Session.new("coinche", 501, "easy", "planted", deal_seed="99").snapshot())


def test_the_deal_of_the_day_its_set_in_progress_and_bad_challenge_links(returning_page, site_url):
    page = returning_page
    expected = cli_deals(DAY)
    page.goto(f"{site_url}?speed=test&day={DAY}")
    save = planted_save()
    page.evaluate("([key, save]) => localStorage.setItem(key, save)", [SAVE_KEY, save])
    saved = lambda: page.evaluate("(key) => localStorage.getItem(key)", SAVE_KEY)  # noqa: E731

    # bad links: each told, nothing else changes (the save kept, no match started); the first as the page opens
    # (main.js reads the fragment), the others on the same page (the same reading, js/daily.js)
    good = "challenge=1&d=15718515337127547993~3~normal~own&p=Ann&r=12:3.5"
    page.goto(f"{site_url}?speed=test&day={DAY}&link=1#{good.replace('~3~', '~9~')}")  # a new document
    expect(page.locator("#daily-status")).to_contain_text("damaged")
    boot_ready(page)
    for fragment, words in ((good.replace("challenge=1", "challenge=7"), "newer"),
                            (good.replace("~own", "~pisser=sometimes"), "does not know")):
        page.evaluate("async (hash) => (await import('./js/daily.js')).openChallengeLink(hash)", f"#{fragment}")
        expect(page.locator("#daily-status")).to_contain_text(words)
        expect(page.locator("#home")).to_be_visible()
        expect(page.locator("dialog[open]")).to_have_count(0)
        assert page.evaluate("() => location.hash") == ""
        assert saved() == save

    # the day's card, not played: its first deal is the command line's
    card = page.locator("#btn-daily")
    expect(card).to_have_attribute("data-state", "new")
    boot_ready(page)
    page.evaluate(NO_HELPER)
    card.click()
    expect(page.locator("#table")).to_be_visible()
    assert same_deal(dealt(page), expected[0])
    play_deal(page)
    assert same_deal(dealt(page), expected[1])  # the next deal at once
    assert page.evaluate(LAST_DECK) == expected[0]["deck"]
    page.reload()
    expect(card).to_have_attribute("data-state", "progress")
    expect(card).to_contain_text("1 of 4")
    assert saved() == save
    boot_ready(page)
    card.click()
    assert same_deal(dealt(page), expected[1])  # the deal in progress resumed
    expect(page.locator("#btn-resume")).to_be_hidden()  # the table shows; the home's resume is the solo match's
    page.click("#btn-home")
    expect(page.locator("#btn-resume")).to_be_visible()
    assert saved() == save

    # the day's result takes each deal's par from the history, where background-pars.js keeps it: the played
    # deal's put there, the three others' results put in the day
    page.evaluate(PUT_PARS, DAY)
    first = page.locator("#dlg-daily tbody tr").first
    expect(first.locator("td").nth(1)).to_have_text("80.4")
    score = int(first.locator("td").first.inner_text())
    difference = round(score - 80.4)
    expect(first.locator("td").nth(2)).to_have_text(f"+{difference}" if difference > 0 else f"−{-difference}" if difference else "0")


PUT_PARS = """async (date) => {
  const history = await import('./js/history.js');
  const store = await import('./js/daily-store.js');
  const { entries } = await history.readHistory();
  const day = await store.readDay(date);
  const played = entries.find((entry) => entry.record.deck === day.deals[0].record.deck);
  await history.keepPar(played.id, { par: 80.4, result: 0, difference: 0, k: 12, stderr: 9.1 });
  for (const deal of day.deals.slice(1)) Object.assign(deal, { score: 0, par: 0 });
  await store.keepDay(day);
  store.keepPlaying(null);
  await (await import('./js/daily.js')).openDaily(date);
}"""


@pytest.mark.full_only  # four deals in each of two contexts, one booting afresh: about 90 s
def test_a_challenge_played_in_a_second_context_shows_both_results(clipboard_page, site_url, browser):
    page = clipboard_page
    expected = cli_deals(DAY)

    # a solo deal's summary: "Challenge a friend" gives a link of that deal and its score
    page.goto(f"{site_url}?speed=test&seed=challenge-e2e&day={DAY}")
    boot_ready(page)
    page.evaluate(NO_HELPER)
    page.click("#btn-play-coinche")
    state = page.evaluate(ENGINE_STATE)
    play_to_summary(page)
    summary = page.locator("#dlg-summary")
    summary.locator(".challenge-deal").click()
    page.locator("#dlg-challenge .challenge-send").click()
    expect(page.locator("#dlg-challenge .share-status")).to_contain_text("copied")
    solo = parse_qs(urlsplit(page.evaluate("() => navigator.clipboard.readText()")).fragment)
    scored = int(summary.locator("tr.scored td").first.inner_text())
    assert solo["d"] == [f"{state['deal_seed']}~{state['deal']['dealer']}~{state['settings']['level']}~{state['rules']}"]
    assert solo["r"][0].split(":")[0] == str(scored)
    page.locator("#dlg-challenge .btn.ghost").click()
    page.click("#dlg-summary .dialog-actions .btn.primary")
    page.click("#btn-home")

    page.click("#btn-daily")
    play_the_set(page, expected)
    result = page.locator("#dlg-daily")
    expect(result).to_be_visible()
    expect(result.locator("tbody tr")).to_have_count(4)
    scores = [int(n) for n in result.locator("tbody tr td:nth-child(2)").all_text_contents()]
    result.locator(".daily-share").click()
    expect(result.locator(".share-status")).to_contain_text("copied")
    text = page.evaluate("() => navigator.clipboard.readText()")
    assert DAY in text and f"#daily={DAY}" in text
    assert not re.search(r"\b[789TJQKA][shdc]\b", text.split("\n")[0])

    result.locator(".challenge-deal").click()
    ask = page.locator("#dlg-challenge")
    ask.locator("#challenge-name").fill("Ann")
    ask.locator(".challenge-send").click()
    expect(ask.locator(".share-status")).to_contain_text("copied")
    link = page.evaluate("() => navigator.clipboard.readText()")
    assert "Ann" in link and "#challenge=1&" in link

    friend = browser.new_context(reduced_motion="reduce", viewport={"width": 390, "height": 844})
    try:
        other = friend.new_page()
        other.goto(link.replace("index.html#", "index.html?speed=test#"))
        invitation = other.locator("#dlg-challenge-in")
        expect(invitation).to_be_visible(timeout=60_000)
        expect(invitation).to_contain_text("Ann")
        assert invitation.locator(".card").count() == 0 and not re.search(r"\d{2,3}", invitation.inner_text().replace(DAY, ""))
        other.evaluate(NO_HELPER)
        invitation.locator(".challenge-play").click()
        play_the_set(other, expected)  # the same cards as the challenger's, in a second context
        compare = other.locator("#dlg-compare")
        expect(compare).to_be_visible()
        expect(compare.locator("thead th")).to_have_text(["Deal", "Ann", "You"])
        ann = [int(n) for n in compare.locator("tbody td:nth-child(2) strong").all_text_contents()]
        assert ann == scores
        expect(compare.locator("tbody td:nth-child(3) strong")).to_have_count(4)
        bea = [int(n) for n in compare.locator("tbody td:nth-child(3) strong").all_text_contents()]

        friend.grant_permissions(["clipboard-read", "clipboard-write"])  # the friend sends theirs back
        compare.locator(".challenge-reply").click()
        ask = other.locator("#dlg-challenge")
        ask.locator("#challenge-name").fill("Bea")
        ask.locator(".challenge-send").click()
        expect(ask.locator(".share-status")).to_contain_text("copied")
        reply = other.evaluate("() => navigator.clipboard.readText()")
    finally:
        friend.close()

    # the challenger opens the answer: both results at once, theirs as "You"
    page.goto(reply.replace("index.html#", f"index.html?speed=test&day={DAY}#"))
    compare = page.locator("#dlg-compare")
    expect(compare).to_be_visible(timeout=60_000)
    expect(compare.locator("thead th")).to_have_text(["Deal", "Bea", "You"])
    assert [int(n) for n in compare.locator("tbody td:nth-child(2) strong").all_text_contents()] == bea
    assert [int(n) for n in compare.locator("tbody td:nth-child(3) strong").all_text_contents()] == scores
