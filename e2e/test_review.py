"""The Expert's review of a finished deal in the page: opened from the deal summary, the replay and the
previous deals; computed in the engine worker (and in the review helper's, a second engine worker) with a
progress bar, stoppable and resumable, the table playable meanwhile; the same review as the engine's in
Python; kept with the deal so reopening computes nothing; in the reader's language, with the keyboard."""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from coinche.review import review

sys.path.insert(0, str(Path(__file__).parent))  # --import-mode=importlib: the helpers beside this file
from test_replay import last_record, play_to_summary  # noqa: E402
from test_table import new_match  # noqa: E402

STORE_KEY = "coinche.reviews"  # js/table/review.js


@pytest.fixture(scope="module")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "reduced_motion": "reduce", "viewport": {"width": 390, "height": 844}}


def shown(page) -> list[dict]:
    return page.evaluate("""() => [...document.querySelectorAll('#dlg-review .review-item')].map((n) => ({
      index: Number(n.dataset.index), kind: n.dataset.kind, mark: n.dataset.mark || null,
      reason: n.querySelector('.review-reason')?.textContent ?? null, luck: n.dataset.luck || null,
      hindsight: n.querySelector('.review-hindsight')?.textContent ?? null }))""")


def wait_done(page, seconds=90):
    expect(page.locator("#dlg-review")).to_have_attribute("data-status", "done", timeout=seconds * 1000)


def test_the_review_of_the_players_decisions_is_the_engines_in_the_readers_language(returning_page, site_url):
    page = returning_page
    new_match(page, site_url, "coinche", seed="review-e2e")
    play_to_summary(page)
    record = last_record(page)
    expected = review(record, [0])

    page.click("#dlg-summary .review-open")
    dialog = page.locator("#dlg-review")
    expect(dialog).to_be_visible()
    expect(page.locator("#dlg-review .review-close")).to_be_focused()  # the keyboard starts in the dialog
    expect(dialog.locator(".review-progress")).to_have_attribute("aria-label", "Review progress")
    expect(dialog.locator(".review-status")).to_have_attribute("role", "status")
    wait_done(page)
    items = shown(page)
    assert [i["index"] for i in items] == [d["index"] for d in expected["decisions"]]
    assert [i["mark"] for i in items] == [d["mark"] for d in expected["decisions"]]
    assert [i["reason"] is not None for i in items] == [d["reason"] is not None for d in expected["decisions"]]
    # in hindsight, calls as cards: the calls' against the sound calls, in their own words
    assert [i["luck"] for i in items] == [d["luck"] for d in expected["decisions"]]
    assert all(i["hindsight"] for i in items), items
    calls = [i["hindsight"] for i in items if i["kind"] == "call"]
    assert calls and all("sound call" in text for text in calls), calls
    summary = expected["summary"]
    expect(dialog.locator(".review-summary")).to_contain_text(f"{summary['lost']} point")
    expect(dialog.locator(".review-summary")).to_contain_text(f"{summary['marks']['blunder']} blunder")
    expect(dialog.locator(".review-thresholds")).to_contain_text("a blunder from 80")
    expect(dialog.locator(".review-progress")).to_be_hidden()

    # kept with the deal: the page's storage holds it, and reopening shows it at once
    kept = json.loads(page.evaluate("(key) => localStorage.getItem(key)", STORE_KEY))
    assert kept[0]["id"] == f"{expected['key']}:0"
    assert kept[0]["review"]["summary"] == summary
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(page.locator("#dlg-summary")).to_be_visible()

    # from the replay: the same review, and "Show" steps the replay to the decision
    page.click("#dlg-summary .replay-open")
    expect(page.locator("#dlg-replay")).to_be_visible()
    page.click("#dlg-replay .review-open")
    wait_done(page, 5)
    first = expected["decisions"][-1]
    page.locator(f'#dlg-review .review-item[data-index="{first["index"]}"] .review-show').click()
    expect(dialog).to_be_hidden()
    expect(page.locator("#dlg-replay")).to_have_attribute("data-step", str(first["index"] + 1))
    page.keyboard.press("Escape")
    expect(page.locator("#dlg-replay")).to_be_hidden()

    # after a reload, the kept review is shown at once from the previous deals
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-state", "ready", timeout=60_000)
    page.click("#btn-resume")
    page.click("#btn-menu")
    page.click("#btn-previous-deals")
    page.click("#dlg-deals .review-open")
    expect(dialog).to_have_attribute("data-status", "done", timeout=3000)
    assert [i["mark"] for i in shown(page)] == [d["mark"] for d in expected["decisions"]]

    # in the reader's language: the same review reopened once the page speaks French
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    page.evaluate("async () => (await import('/js/i18n.js')).setLanguage('fr')")
    page.click("#dlg-deals .review-open")
    expect(dialog.locator(".dialog-title")).to_have_text("L'analyse de l'Expert")
    expect(dialog).to_have_attribute("data-status", "done", timeout=3000)
    expect(dialog.locator(".review-status")).to_have_text("Analyse terminée.")
    expect(dialog.locator(".review-summary")).to_contain_text("analysée")
    expect(dialog.locator(".review-thresholds")).to_contain_text("une gaffe à partir de 80")


@pytest.mark.full_only  # 21 s of CPU
def test_a_review_can_be_stopped_resumed_and_runs_while_the_table_plays(returning_page, site_url):
    page = returning_page
    new_match(page, site_url, "coinche", seed="review-stop-e2e")
    play_to_summary(page)
    record = last_record(page)
    total = sum(1 for _ in review_plan_decisions(record))

    page.click("#dlg-summary .review-open")
    dialog = page.locator("#dlg-review")
    dialog.locator(".review-scope input").check()  # every seat's decisions
    expect(dialog).to_have_attribute("data-status", "running")
    dialog.locator(".review-stop").click()
    expect(dialog).to_have_attribute("data-status", "stopped")
    done = len(shown(page))
    assert done < total
    time.sleep(1.5)
    assert len(shown(page)) == done  # stopped: nothing more is computed
    expect(dialog.locator(".review-status")).to_contain_text(f"after {done} of {total}")
    dialog.locator(".review-resume").click()
    expect(dialog).to_have_attribute("data-status", "running")

    # close it while it runs and play on: the bots and the review share the engine
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    page.click("#dlg-summary .dialog-actions .btn.primary")  # the next deal
    expect(page.locator("#dlg-summary")).to_be_hidden()
    expect(page.locator("#hand .card")).to_have_count(8, timeout=30_000)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        kept = json.loads(page.evaluate("(key) => localStorage.getItem(key) || '[]'", STORE_KEY))
        if any(entry["id"].endswith(":0123") for entry in kept):
            break
        time.sleep(0.25)
    else:
        raise AssertionError("the review did not finish in the background")
    entry = next(entry for entry in kept if entry["id"].endswith(":0123"))
    assert [d["index"] for d in entry["review"]["decisions"]] == list(review_plan_decisions(record))
    assert entry["review"] == {k: v for k, v in review(record).items() if k in ("decisions", "summary")}

    # reopened from the previous deals: shown at once, from the kept review
    page.click("#btn-menu")
    page.click("#btn-previous-deals")
    page.click("#dlg-deals .review-open")
    dialog.locator(".review-scope input").check()
    expect(dialog).to_have_attribute("data-status", "done", timeout=3000)
    assert len(shown(page)) == total


def review_plan_decisions(record):
    from coinche.review import review_plan

    return (d["index"] for d in review_plan(record)["decisions"])


# Every engine's review_decision calls (the table's and the review helper's): window.reviewedByEngine holds
# [index, "table" or "helper"] in the order asked.
COUNT_REVIEWED = """async () => {
  const { engine } = await import('/js/main.js');
  const { Engine } = await import('/js/engine.js');
  const call = Engine.prototype.call;
  window.reviewedByEngine = [];
  Engine.prototype.call = function (name, args) {
    if (name === 'review_decision') window.reviewedByEngine.push([args.index, this === engine ? 'table' : 'helper']);
    return call.call(this, name, args);
  };
}"""

# The review helper started and ready before the review (so that it takes decisions from the first), then
# left idle.
HELPER_READY = """async () => {
  const { borrowHelper, returnHelper } = await import('/js/table/review-helper.js');
  const ready = borrowHelper();
  const engine = ready && await ready;
  returnHelper();
  return engine !== null;
}"""


def review_with_the_helper_ready(page, site_url, seed: str, before_review: str | None = None):
    """A deal played to its summary, the review helper ready and every engine's review_decision counted
    (``before_review``: a script run then); the player's review run to its end.  Returns (the engine's own
    review in Python, [index, "table" or "helper"] as asked)."""
    new_match(page, site_url, "coinche", seed=seed)
    play_to_summary(page)
    expected = review(last_record(page), [0])
    assert page.evaluate("() => navigator.hardwareConcurrency") >= 2  # these machines: the page uses a helper
    assert page.evaluate(HELPER_READY)
    page.evaluate(COUNT_REVIEWED)
    if before_review:
        page.evaluate(before_review)
    page.click("#dlg-summary .review-open")
    wait_done(page)
    return expected, page.evaluate("() => window.reviewedByEngine")


@pytest.mark.full_only  # every seat reviewed in the browser: 35 s of CPU (make test: the other review tests use the helper)
def test_a_second_engine_takes_decisions_and_every_seat_after_the_players_own_computes_only_the_others(
        returning_page, site_url):
    """The review helper (a second engine worker) ready: the player's review is shared by both engines, each
    decision asked once, shown in the deal's order, the engine's own in Python. Then every seat's: only the
    other seats' decisions are computed, the player's taken from the review kept. (One deal for both: each
    deal and its reviews, in the page and in Python, cost some 15 s of CPU.)"""
    page = returning_page
    expected, asked = review_with_the_helper_ready(page, site_url, "review-helper-e2e")
    by = {engine for _, engine in asked}
    assert by == {"table", "helper"}, asked  # both engines took decisions
    mine = [d["index"] for d in expected["decisions"]]
    assert sorted(index for index, _ in asked) == mine  # each once
    assert [i["index"] for i in shown(page)] == mine  # in the deal's order
    kept = json.loads(page.evaluate("(key) => localStorage.getItem(key)", STORE_KEY))
    assert kept[0]["review"] == {k: v for k, v in expected.items() if k in ("decisions", "summary")}

    every = review(last_record(page))
    page.evaluate("() => { window.reviewedByEngine.length = 0; }")
    page.locator("#dlg-review .review-scope input").check()
    wait_done(page)
    asked = [index for index, _ in page.evaluate("() => window.reviewedByEngine")]
    assert sorted(asked) == [d["index"] for d in every["decisions"] if d["index"] not in mine]
    assert [i["index"] for i in shown(page)] == [d["index"] for d in every["decisions"]]
    assert [i["mark"] for i in shown(page)] == [d["mark"] for d in every["decisions"]]
    kept = json.loads(page.evaluate("(key) => localStorage.getItem(key)", STORE_KEY))
    entry = next(e for e in kept if e["id"].endswith(":0123"))
    assert entry["review"] == {k: v for k, v in every.items() if k in ("decisions", "summary")}
    page.keyboard.press("Escape")


STOP_HELPER_ON_ITS_FIRST_DECISION = """async () => {
  const { helperState } = await import('/js/table/review-helper.js');
  const helper = helperState().engine;
  const call = helper.call.bind(helper);
  helper.call = (name, args) => {
    const answer = call(name, args);
    if (name === 'review_decision') helper.terminate();  // the worker gone with the decision in hand
    return answer;
  };
}"""


@pytest.mark.full_only  # 16 s of CPU
def test_a_helper_that_stops_answering_loses_no_decision(returning_page, site_url):
    page = returning_page
    # after the counting: the helper's own wrapper calls the counting one
    expected, asked = review_with_the_helper_ready(page, site_url, "review-helper-lost-e2e",
                                                   STOP_HELPER_ON_ITS_FIRST_DECISION)
    lost = [index for index, engine in asked if engine == "helper"]
    assert len(lost) == 1  # the helper was asked once, then given up
    assert [index for index, engine in asked if engine == "table"].count(lost[0]) == 1  # asked again of the table
    assert [i["index"] for i in shown(page)] == [d["index"] for d in expected["decisions"]]
    kept = json.loads(page.evaluate("(key) => localStorage.getItem(key)", STORE_KEY))
    assert kept[0]["review"] == {k: v for k, v in expected.items() if k in ("decisions", "summary")}
    state = page.evaluate("async () => { const s = (await import('/js/table/review-helper.js')).helperState();"
                          " return { broken: s.broken, started: s.engine !== null }; }")
    assert state == {"broken": True, "started": False}  # not started again for this visit
    page.keyboard.press("Escape")
