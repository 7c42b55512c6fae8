"""What if, in the replay: at a decision of a finished deal, another allowed card played and the rest of the
deal played out double dummy (the engine's branch, step by step with the replay's controls, its score beside
the deal's, the branch in the page's fragment), "Back to the deal"; a branch in the link that does not read is
said so while the deal as played still replays."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

from coinche.whatif import choices, parse_line, what_if

sys.path.insert(0, str(Path(__file__).parent))  # --import-mode=importlib: the helpers beside this file
from test_replay import last_record, play_to_summary, shown  # noqa: E402
from test_table import new_match  # noqa: E402


def finished_deal(page, site_url, seed: str, fragment: str | None = None) -> dict:
    """A deal played to its summary and its replay opened (under ``fragment`` if given): the deal's record."""
    new_match(page, site_url, "coinche", seed=seed)
    play_to_summary(page)
    if fragment is not None:
        page.evaluate("(f) => history.replaceState(null, '', location.pathname + f)", fragment)
    page.click("#dlg-summary .replay-open")
    return last_record(page)


def test_a_card_changed_in_the_replay_plays_out_double_dummy_and_back(returning_page, site_url):
    page = returning_page
    record = finished_deal(page, site_url, "whatif-e2e")
    dialog = page.locator("#dlg-replay")
    expect(dialog).to_be_visible()
    n = len(record["calls"])
    # a late decision with another card allowed (the engine says which), so that double dummy is quick
    ply = next(p for p in range(n + 28, n + 8, -1) if len(choices(record, p)["moves"]) > 1)
    page.locator("#dlg-replay .replay-slider").fill(str(ply))
    expect(dialog).to_have_attribute("data-step", str(ply))
    page.click("#dlg-replay .whatif-open")
    moves = page.locator("#dlg-replay .whatif-move")
    expect(page.locator("#dlg-replay .whatif-prompt")).to_be_visible()
    offered = [moves.nth(i).get_attribute("data-move") for i in range(moves.count())]
    real = choices(record, ply)
    assert offered == [m for m in real["moves"] if m != real["real"]]  # the deal's own card is not offered
    page.locator("#dlg-replay input[name=whatif-by][value=dd]").check(force=True)
    moves.first.click()
    line = f"{ply}:{offered[0]}"
    expect(dialog).to_have_attribute("data-whatif", line)
    expect(dialog).to_have_attribute("data-step", str(ply + 1))
    assert shown(page)["latest"] == [offered[0]]
    assert f"whatif={line}" in page.evaluate("location.hash") and "by=dd" in page.evaluate("location.hash")
    page.keyboard.press("End")
    expected = what_if(record, parse_line(line), by="dd")
    compare = page.locator("#dlg-replay .whatif-compare")
    expect(compare).to_have_attribute("data-branch", "-".join(map(str, expected["result"]["scores"])))
    expect(compare).to_have_attribute("data-real", "-".join(map(str, record["result"]["scores"])))
    assert shown(page)["points"] == [str(n) for n in expected["result"]["cards"]]  # as test_replay: side 0 first
    page.click("#dlg-replay .whatif-back")
    expect(dialog).not_to_have_attribute("data-whatif", line)
    expect(dialog).to_have_attribute("data-step", str(ply))
    assert "whatif" not in page.evaluate("location.hash")
    page.keyboard.press("End")
    assert shown(page)["scored"] is not None


@pytest.mark.full_only  # 13 s of CPU
def test_a_branch_in_the_link_that_does_not_read_leaves_the_replay(returning_page, site_url):
    page = returning_page
    record = finished_deal(page, site_url, "whatif-e2e-bad", "#whatif=99:zz&by=dd")
    dialog = page.locator("#dlg-replay")
    expect(page.locator("#dlg-replay .whatif-status")).to_contain_text("99:zz")
    page.keyboard.press("End")
    expect(dialog).to_have_attribute("data-step", str(len(record["calls"]) + 32))
    assert dialog.get_attribute("data-whatif") is None
