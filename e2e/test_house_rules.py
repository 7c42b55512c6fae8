"""House rules on the page (issue 24): the settings offer a preset or the options one by one, the table shows a
"house rules" mark, the bidding offers the table's bids, a saved match and a shared link keep their rules, and
an unknown option in a link or a save is refused with a message naming it, the save kept."""
from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).parent))  # --import-mode=importlib: the helpers beside this file
from test_table import BOOT_MS, ENGINE_STATE, look, open_home, start, tap, until_changed  # noqa: E402

SAVE_KEY = "coinche.match"


@pytest.fixture(scope="module")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "reduced_motion": "reduce", "viewport": {"width": 390, "height": 844}}


def pick_preset(page, preset):
    page.click("#btn-settings")
    dialog = page.locator("#dlg-settings")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#house-options select")).to_have_count(15)
    dialog.locator("#setting-rules-preset").select_option(preset)
    return dialog


def test_the_german_preset_plays_its_rules_and_shows_the_mark(returning_page, site_url):
    page = returning_page
    open_home(page, site_url, seed="house")
    dialog = pick_preset(page, "de-2000")
    expect(dialog.locator("select[name=house_open]")).to_have_value("82")
    expect(dialog.locator("input[name=target][value='2000']")).to_be_checked()
    # the settings keep the options apart from the target, which has its own setting
    page.wait_for_function("() => JSON.parse(localStorage.getItem('coinche.settings')).rules.startsWith('open=82,')")
    dialog.locator("button[type=submit]").click()
    start(page, "coinche")
    state = page.evaluate(ENGINE_STATE)
    assert state["rules"] == "de-2000" and state["target"] == 2000 and state["bid_values"][0] == "82"
    expect(page.locator("#house-mark")).to_be_visible()
    page.wait_for_function("() => !document.querySelector('#bidding').hidden")
    expect(page.locator("#bidding [data-value='82']")).to_have_count(1)
    expect(page.locator("#bidding [data-value='80']")).to_have_count(0)
    saved = json.loads(page.evaluate(f"() => localStorage.getItem('{SAVE_KEY}')"))
    assert saved["settings"]["rules"] == "de-2000"


def test_one_option_by_one_and_the_game_s_own_shows_no_mark(returning_page, site_url):
    page = returning_page
    open_home(page, site_url, seed="house1")
    dialog = pick_preset(page, "own")
    dialog.locator("details.house-details summary").click()
    dialog.locator("select[name=house_undertrump]").select_option("yes")
    page.wait_for_function("() => JSON.parse(localStorage.getItem('coinche.settings')).rules === 'undertrump=yes'")
    expect(dialog.locator("#setting-rules-preset")).to_have_value("custom")
    dialog.locator("select[name=house_undertrump]").select_option("no")
    page.wait_for_function("() => JSON.parse(localStorage.getItem('coinche.settings')).rules === 'own'")
    dialog.locator("button[type=submit]").click()
    start(page, "coinche")
    assert page.evaluate(ENGINE_STATE)["house_rules"] == []
    expect(page.locator("#house-mark")).to_be_hidden()


def test_a_link_with_an_unknown_option_is_refused_naming_it(returning_page, site_url):
    page = returning_page
    page.goto(f"{site_url}?speed=test#play=coinche&seed=12345&dealer=1&rules=open%3D82%2Cpisser%3Dyes")
    expect(page.locator("body")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    expect(page.locator("#boot-status")).to_contain_text("pisser")


def test_a_save_with_an_unknown_option_is_kept(returning_page, site_url):
    page = returning_page
    open_home(page, site_url, seed="house2")
    bad = {"format": "coinche-session/1", "engine": "0", "actions": [],
           "settings": {"variant": "coinche", "target": 1000, "level": "easy", "seed": "s", "humans": [0],
                        "rules": "open=82,pisser=yes"}}
    page.evaluate(f"(text) => localStorage.setItem('{SAVE_KEY}', text)", json.dumps(bad))
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    page.click("#btn-resume")
    expect(page.locator("#boot-status")).to_contain_text("pisser")
    assert json.loads(page.evaluate(f"() => localStorage.getItem('{SAVE_KEY}')")) == bad


def test_a_save_with_an_all_trumps_bid_under_rules_without_it_is_kept(returning_page, site_url):
    """A save whose rules do not play all trumps, holding a bid of it: the page says so and keeps the save."""
    page = returning_page
    open_home(page, site_url, seed="house3")
    bad = {"format": "coinche-session/1", "engine": "0", "actions": ["100ta"],
           "settings": {"variant": "coinche", "target": 1000, "level": "easy", "seed": "s", "humans": [0],
                        "first_dealer": 3}}
    page.evaluate(f"(text) => localStorage.setItem('{SAVE_KEY}', text)", json.dumps(bad))
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    page.click("#btn-resume")
    expect(page.locator("#boot-status")).to_contain_text("ta")
    expect(page.locator("#boot-status")).to_contain_text("does not play")
    assert json.loads(page.evaluate(f"() => localStorage.getItem('{SAVE_KEY}')")) == bad


def test_no_trumps_and_all_trumps_are_bid_from_the_panel(returning_page, site_url):
    """contracts=all (issue 33): the panel offers no trumps and all trumps beside the suits, by their short
    names, and a bid of all trumps is the engine's 80ta."""
    page = returning_page
    page.goto(f"{site_url}?speed=test#play=coinche&seed=12345&dealer=3&rules=contracts%3Dall")
    expect(page.locator("body")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    page.wait_for_function("() => !document.querySelector('#bidding').hidden")
    expect(page.locator("#bidding .chip.suit")).to_have_count(6)
    expect(page.locator("#bidding [data-suit='ta'] .suit-word")).to_have_text("AT")
    expect(page.locator("#bidding button[data-suit='sa']")).to_have_attribute("aria-label", "NT: no trumps")
    value = page.locator("#bidding .chip.value:not([disabled])").first.get_attribute("data-value")
    page.click(f"#bidding [data-value='{value}']")
    page.click("#bidding button[data-suit='ta']")
    page.click("#bid-button")
    page.wait_for_function(f"""async () => {{
      const {{ engine }} = await import('/js/main.js');
      const deal = (await engine.call('state')).state.deal;
      return deal.calls.some(([seat, call]) => seat === 0 && call === '{value}ta');
    }}""")


def test_the_player_is_asked_to_announce_at_their_first_card(returning_page, site_url):
    """announce=yes (issue 33): at the player's first card the panel asks whether to declare the announcements
    the engine says the hand holds; declaring them is the engine's, and the card is played after."""
    from coinche import Deal, Rules
    from coinche.announce import held

    rules = Rules.parse("announce=yes")
    # the player holds an announcement, and an opponent too: one side's will not count
    seed = next(s for s in range(1000)
                if held(Deal.new(rules, 3, s).hands[0]) and any(held(Deal.new(rules, 3, s).hands[o]) for o in (1, 3)))
    mine = [str(a) for a in held(Deal.new(rules, 3, seed).hands[0])]
    page = returning_page
    page.goto(f"{site_url}?speed=test#play=coinche&seed={seed}&dealer=3&rules=announce%3Dyes")
    expect(page.locator("body")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    page.wait_for_function("() => !document.querySelector('#bidding').hidden")
    value = page.locator("#bidding .chip.value:not([disabled])").first.get_attribute("data-value")
    page.click(f"#bidding [data-value='{value}']")
    page.click("#bidding button[data-suit='s']")
    page.click("#bid-button")
    for _ in range(8):  # pass whenever the auction comes back to the player, until the play asks
        page.wait_for_function("() => !document.querySelector('#bidding').hidden"
                               " && !document.querySelector('#bidding button:disabled.pass')", timeout=60_000)
        if page.locator("#bidding").get_attribute("data-variant") == "announce":
            break
        page.click("#bidding button.pass")
    expect(page.locator("#bidding .bidding-title")).to_contain_text("?")
    # the coach (on by default) says to declare them all, with their points, and lights the button that does
    points = sum(a.points for a in held(Deal.new(rules, 3, seed).hands[0]))
    line = page.locator("#coach-line")
    expect(line).to_have_attribute("data-kind", "announce")
    expect(line).to_have_attribute("data-call", "announce:" + ",".join(mine))
    expect(line).to_contain_text(f": {points} points to your side if your side holds the best announcement")
    expect(page.locator("#bidding button.announce")).to_have_class(re.compile(r"\bsuggested\b"))
    page.click("#bidding button.announce")
    page.wait_for_function("""async (mine) => {
      const { engine } = await import('/js/main.js');
      const deal = (await engine.call('state')).state.deal;
      return JSON.stringify(deal.declared.filter((a) => a.seat === 0).map((a) => a.announcement)) === JSON.stringify(mine)
        && deal.announceable.length === 0;
    }""", arg=mine)
    expect(page.locator("#bidding")).to_be_hidden()
    # the deal played out: the summary's parts name the announcements' points
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        ui, seen = look(page)
        if ui["summary"]:
            break
        if ui["myTurn"] and ui["playable"] and not ui["bidding"]:
            tap(page, ui["playable"][0])
            expect(page.locator(f'#hand .card[data-card="{ui["playable"][0]}"]')).to_have_count(0)
        else:
            until_changed(page, seen)
    expect(page.locator("#dlg-summary")).to_contain_text("Announcements")
    # and each announcement: what it was, who declared it, the points it gave, or that it did not count
    record = page.evaluate("""async () => {
      const { engine } = await import('/js/main.js');
      return (await engine.call('finished_deals'))[0].record;
    }""")
    from coinche.record import replay

    deal = replay(record)
    rows = page.locator("#dlg-summary tr.announcement")
    expect(rows).to_have_count(len(deal.declared))
    names = {0: "You", 1: "East", 2: "North", 3: "West"}
    for a in deal.score.announcements:
        row = page.locator(f"#dlg-summary tr.announcement[data-seat='{a.seat}'][data-announcement='{a.announcement}']")
        expect(row.locator("th")).to_contain_text(f"({names[a.seat]})")
        cells = [c.strip() for c in row.locator("td").all_text_contents()]
        own = 0 if (a.side if a.counted else a.seat & 1) == 0 else 1
        assert cells[1 - own] == "–" and cells[own] == (f"+{a.points}" if a.counted else
                                                       f"{a.announcement.points}, not counted"), cells
    assert {a.counted for a in deal.score.announcements} == {True, False}
    expect(page.locator("#dlg-summary tr.announcement[data-seat='0'] th")).to_contain_text(
        re.compile(r"^(Tierce|Cinquante|Cent) to the \w+ of \w+ \(You\)$|^Four \w+ \(You\)$"))

    # the replay: the declarations show from the end of the first trick, not before
    page.click("#dlg-summary .replay-open")
    replay_dialog = page.locator("#dlg-replay")
    expect(replay_dialog).to_be_visible()
    declared = replay_dialog.locator(".replay-declared")
    expect(declared).to_be_hidden()
    slider = replay_dialog.locator(".replay-slider")
    slider.fill(str(len(record["calls"]) + 3))
    expect(replay_dialog).to_have_attribute("data-step", str(len(record["calls"]) + 3))
    expect(declared).to_be_hidden()
    replay_dialog.locator(".replay-next").click()
    expect(declared).to_be_visible()
    expect(declared.locator("li")).to_have_count(len({s for s, _ in deal.declared}))
    expect(declared).to_contain_text("You announced")
    expect(replay_dialog.locator(".replay-caption")).to_contain_text("You announced")
    replay_dialog.locator(".replay-last").click()
    expect(declared).to_be_visible()
    expect(replay_dialog.locator(".replay-caption")).not_to_contain_text("announced")
