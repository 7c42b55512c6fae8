"""The player's history and the progress page (progress.html): a deal finished at the table is kept across a
reload and offline, with the Expert's par from the player's seat made on the review helper while the summary
shows; a file imported (its bad lines named, a line the engine refuses named by the engine's reason and left
out, the good ones read), its figures those computed in Python from the same records, its plots drawn and
labelled with a table each, exported back line for line, erased only once confirmed; the oldest deals pruned
first; a point's link opens the deal's replay."""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest
from coinche import cli
from coinche_lab.history import history_lines, reference_figures
from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).parent))  # --import-mode=importlib: the helpers beside this file
from test_replay import last_record, play_to_summary  # noqa: E402
from test_table import new_match  # noqa: E402

HISTORY = "js/history.js"


@pytest.fixture(scope="module")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "reduced_motion": "reduce", "viewport": {"width": 390, "height": 844}}


def open_progress(page, site_url, lang="en"):
    page.add_init_script(f"localStorage.setItem('coinche.lang', '{lang}')")
    page.goto(f"{site_url}progress.html")
    expect(page.locator("body")).to_have_attribute("data-state", "ready", timeout=15_000)


def wipe(page):
    page.evaluate(f"async () => (await import('./{HISTORY}')).wipeHistory()")


def stored(page) -> list[dict]:
    return page.evaluate(f"async () => (await (await import('./{HISTORY}')).readHistory()).entries")


def figure(page, name) -> str:
    return page.locator(f"[data-figure={name}]").text_content()


def import_text(page, tmp_path, text, name="history.jsonl"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    page.set_input_files("#import-file", str(path))


def test_a_finished_deal_is_kept_with_its_par_across_a_reload_and_offline(returning_page, site_url):
    """The deal's summary shows the Expert's replays counted, then the par and the player's duplicate
    difference. Its replays begin with the deal, on the review helper while the player is to move, and go on
    on the table's engine too only while the summary shows; the par kept in the history is the one the engine
    computes in Python from the same record. Three replays, not the engine's ten (the page's test hook): a
    whole par takes half a minute of this loaded machine (bench/par_web_bench.py)."""
    page = returning_page
    page.goto(f"{site_url}rules.html")
    wipe(page)
    new_match(page, site_url, "coinche", seed="progress-e2e")
    page.evaluate("""async () => {
      const { engine } = await import('/js/main.js');
      window.parCalls = { table: 0, helper: 0, tableOutside: 0 };
      window.coincheTestParReplays = 3;
      window.parTexts = [];  // what the summary's par line said, in turn
      new MutationObserver(() => {
        const line = document.querySelector('#dlg-summary .summary-par');
        if (line && !line.hidden && line.textContent !== window.parTexts.at(-1)) window.parTexts.push(line.textContent);
      }).observe(document.querySelector('#dlg-summary'), { subtree: true, childList: true, characterData: true, attributes: true });
      const { Engine } = await import('/js/engine.js');
      const call = Engine.prototype.call;
      Engine.prototype.call = function (name, args) {
        if (name === 'par_step') window.parCalls[this === engine ? 'table' : 'helper'] += 1;
        if (name === 'par_step' && this === engine && !document.querySelector('#dlg-summary').open) window.parCalls.tableOutside += 1;
        return call.call(this, name, args);
      };
    }""")
    # the player to move: the deal's replays have begun on the helper (the deal as dealt: par_deal), nothing shown
    page.wait_for_function("() => window.parCalls.helper > 0", timeout=90_000)
    assert page.evaluate("() => window.parTexts.length") == 0
    play_to_summary(page)
    record = last_record(page)
    line = page.locator("#dlg-summary .summary-par")
    expect(line).to_have_attribute("data-state", "done", timeout=120_000)
    counted = [int(text.split()[2]) for text in page.evaluate("() => window.parTexts")[:-1]]
    assert counted == list(range(min(counted, default=3), 4))[:len(counted)]  # from those made when it ended
    k = int(line.get_attribute("data-k"))
    assert line.get_attribute("data-done") == str(k) and k == 3
    calls = page.evaluate("() => window.parCalls")
    assert calls["tableOutside"] == 0 and calls["helper"] > 0 and calls["table"] + calls["helper"] > k
    text = line.text_content()
    assert "The Expert from your seat: " in text and f"on average ({k} deals)" in text
    assert "Your duplicate difference: " in text
    shown = [float(line.get_attribute(f"data-{name}")) for name in ("par", "difference")]
    open_progress(page, site_url)
    expect(page.locator("#history-count")).to_contain_text("1 deal kept")
    [entry] = stored(page)
    assert entry["record"]["deck"] == record["deck"] and entry["record"]["plays"] == record["plays"]
    assert (entry["seat"], entry["level"], entry["online"], entry["match"]["number"]) == (0, "easy", False, 1)
    assert entry["record"]["seats"] == ["person", "easy", "easy", "easy"]
    par = entry["par"]
    assert sorted(par) == ["difference", "k", "par", "result", "stderr"]
    assert shown == [par["par"], par["difference"]]
    assert par["k"] == k and par["difference"] == pytest.approx(par["result"] - par["par"])
    from coinche.par import par as expert_par

    want = expert_par(entry["record"], 0, k=k).to_json()
    assert par == {name: want[name] for name in par}  # the same in the browser as in CPython
    expect(page.locator("#duplicate-made")).to_contain_text("1 deal with a par, of 1")
    page.reload()
    expect(page.locator("#history-count")).to_contain_text("1 deal kept")
    assert stored(page)[0]["par"] == par
    page.context.set_offline(True)
    try:
        page.reload()
        expect(page.locator("body")).to_have_attribute("data-state", "ready", timeout=15_000)
        expect(page.locator("#history-count")).to_contain_text("1 deal kept")
        assert figure(page, "deals") == "1"
    finally:
        page.context.set_offline(False)

    # a par under way goes on after a reload from the replays kept: the first one's score planted, the game's
    # page makes the other two (the par then the mean of the planted score and theirs)
    page.evaluate(f"""async () => {{
      const {{ keepPar, readHistory }} = await import('./{HISTORY}');
      await keepPar((await readHistory()).entries[0].id, {{ scores: [999] }});
    }}""")
    page.add_init_script("window.coincheTestParReplays = 3")
    page.goto(f"{site_url}?speed=test")
    deadline = time.monotonic() + 120
    while "par" not in (stored(page)[0]["par"] or {}):
        assert time.monotonic() < deadline, "the par under way was not taken up after the reload"
        page.wait_for_timeout(500)
    again = stored(page)[0]["par"]
    assert again["par"] == pytest.approx((999 + sum(want["scores"][1:])) / 3, abs=0.05)
    assert again["result"] == par["result"]
    wipe(page)


def test_an_imported_history_shows_the_figures_of_its_records_and_exports_back(returning_page, site_url, tmp_path):
    page = returning_page
    open_progress(page, site_url)
    wipe(page)
    page.reload()
    expect(page.locator("#progress-status")).to_contain_text("No deal kept yet")
    lines = history_lines(45, seed="progress-e2e")
    text = "".join(json.dumps(line) + "\n" for line in lines)
    # the line: a deal whose deck holds a card twice (its 8th card set to its 1st), which only the
    # engine's replay tells apart from a real deal
    cards = lines[1]["deck"].split(",")
    twice = {**lines[1], "deck": ",".join(cards[:7] + cards[:1] + cards[8:])}
    bad = ['{"format": "coinche-deal/2", "variant": "coinche"', json.dumps({**lines[0], "format": "other/1"}), "[]",
           json.dumps(twice)]
    import_text(page, tmp_path, text + "\n".join(bad) + "\n")
    report = page.locator("#history-report")
    expect(report).to_contain_text("45 deals imported, 0 already here", timeout=60_000)
    errors = page.locator(".import-errors li")
    expect(errors).to_have_count(4)
    assert [(int(n.get_attribute("data-line")), n.get_attribute("data-key")) for n in errors.all()] == [
        (46, "progress.import.not_json"), (47, "progress.import.bad_format"), (48, "progress.import.not_record"),
        (49, "malformed_record")]
    expect(errors.first).to_have_text("Line 46: not JSON (not_json).")
    expect(errors.last).to_contain_text("Line 49: ")
    expect(errors.last).to_contain_text("the deck must hold each of the 32 cards once")
    expect(page.locator("#history-count")).to_contain_text("45 deals kept")
    expect(page.locator("#plot-line tbody tr")).to_have_count(0)  # the tables are made when unfolded
    page.click("#plot-line summary")
    page.click("#plot-types summary")

    # every table's figures, then one kind of table's, as computed in Python from the same records
    want = reference_figures(lines)
    assert figure(page, "deals") == "45"
    assert figure(page, "matches") == f"{want['matches']['won']} won, {want['matches']['lost']} lost"
    assert figure(page, "declared") == f"{want['declared']['made']} made of {want['declared']['declared']}"
    assert figure(page, "coinches-made") == f"{want['coinches']['made']}, {want['coinches']['made_set']} of them down"
    assert float(figure(page, "lost")) == pytest.approx(want["average"]["lost"], abs=0.11)
    assert float(figure(page, "luck")) == pytest.approx(want["average"]["luck"], abs=0.11)
    expect(page.locator("#errors-reviewed")).to_contain_text(f"{want['reviewed']} deals reviewed of 45")
    line_rows = page.locator("#plot-line tbody tr")
    expect(line_rows).to_have_count(want["reviewed"])
    shown = [float(n) for n in page.locator("#plot-line tbody tr td:nth-child(2)").all_text_contents()]
    assert shown == pytest.approx([d["lost"] for d in want["series"]], abs=0.11)
    # the duplicate differences (the deals with a par), their mean and moving average, as computed in Python
    duplicate = want["duplicate"]
    expect(page.locator("#duplicate-made")).to_contain_text(f"{duplicate['deals']} deals with a par, of 45")
    assert float(figure(page, "difference")) == pytest.approx(duplicate["mean"], abs=0.11)
    page.click("#plot-duplicate summary")
    expect(page.locator("#plot-duplicate tbody tr")).to_have_count(duplicate["deals"])
    shown = [float(n) for n in page.locator("#plot-duplicate tbody tr td:nth-child(3)").all_text_contents()]
    assert shown == pytest.approx(duplicate["series"], abs=0.11)
    band = page.locator("#plot-duplicate tbody tr td:nth-child(4)").last.text_content()
    assert float(band.split()[0]) == pytest.approx(duplicate["moving"][-1][0], abs=0.11)
    types = page.locator("#plot-types tbody tr")
    assert [n.get_attribute("data-type") for n in types.all()] == [t for t, _, _, _ in want["types"]]
    options = page.locator("#progress-table option")
    key = options.nth(1).get_attribute("value")
    game, level, rules = key.split("|")
    page.select_option("#progress-table", key)
    mine = [line for line in lines if (line["variant"], line["history"]["level"], line["rules"]) == (game, level, rules)]
    expect(page.locator("[data-figure=deals]")).to_have_text(str(len(mine)))
    assert figure(page, "matches") == "{won} won, {lost} lost".format(**reference_figures(mine)["matches"])

    # the plots: images named and described, each with its table
    for plot in ("#plot-line", "#plot-types", "#plot-duplicate"):
        svg = page.locator(f"{plot} svg.plot")
        expect(svg).to_have_attribute("role", "img")
        labels = svg.get_attribute("aria-labelledby").split()
        assert all(page.locator(f"#{label}").text_content().strip() for label in labels)
        expect(page.locator(f"{plot} table caption")).not_to_be_empty()
    assert page.locator("#plot-line .plot-mean").get_attribute("points").count(",") == len(reference_figures(mine)["series"])

    # exported: the same lines, which `coinche replay` reads
    with page.expect_download() as download:
        page.click("#btn-export")
    exported = [json.loads(line) for line in Path(download.value.path()).read_text().splitlines()]
    assert [{k: v for k, v in line.items() if k != "history"} for line in exported] == [
        {k: v for k, v in line.items() if k != "history"} for line in lines]
    assert [line["history"] for line in exported] == [line["history"] for line in lines]

    # the same file again: nothing twice
    import_text(page, tmp_path, text)
    expect(report).to_contain_text("0 deals imported, 45 already here")

    # erased only once confirmed
    page.click("#btn-wipe")
    expect(page.locator("#dlg-wipe")).to_be_visible()
    page.click("#dlg-wipe button[value=keep]")
    expect(page.locator("#history-count")).to_contain_text("45 deals kept")
    page.click("#btn-wipe")
    page.click("#dlg-wipe button[value=wipe]")
    expect(page.locator("#history-count")).to_contain_text("No deal kept")
    assert stored(page) == []

    # the repro: one line of `coinche simulate --bots normal --deals 1 --seed 1`, its deck's 8th card set
    # to its 1st, is named by the engine's reason and counts nowhere
    simulated = tmp_path / "simulated.jsonl"
    assert cli.main(["simulate", "--bots", "normal", "--deals", "1", "--seed", "1", "--out", str(simulated)]) == 0
    line = json.loads(simulated.read_text().splitlines()[0])
    cards = line["deck"].split(",")
    line["deck"] = ",".join(cards[:7] + cards[:1] + cards[8:])
    import_text(page, tmp_path, json.dumps(line) + "\n")
    expect(report).to_contain_text("0 deals imported, 0 already here", timeout=60_000)
    expect(errors).to_have_count(1)
    expect(errors.first).to_contain_text("Line 1: ")
    expect(errors.first).to_contain_text("the deck must hold each of the 32 cards once")
    expect(page.locator("#progress-status")).to_contain_text("No deal kept yet")
    assert stored(page) == []

    # where no engine can start, the lines are kept unchecked and count nowhere until one has read them
    page.evaluate("() => { window.Worker = class { constructor() { throw new Error('no workers here'); } }; }")
    import_text(page, tmp_path, "".join(json.dumps(line) + "\n" for line in lines[:2]))
    expect(report).to_contain_text("2 deals imported, 0 already here", timeout=60_000)
    expect(report).to_contain_text("these 2 deals count in no figure until it has")
    expect(page.locator("#history-count")).to_contain_text("2 deals wait for the engine’s check")
    assert figure(page, "deals") == "0"
    page.reload()  # an engine again: the page has it read them
    expect(page.locator("[data-figure=deals]")).to_have_text("2", timeout=60_000)
    expect(page.locator("#history-count")).not_to_contain_text("check")
    assert [entry["checked"] for entry in stored(page)] == [True, True]
    wipe(page)


def test_the_oldest_deals_go_first_and_an_older_versions_entry_is_read(returning_page, site_url):
    page = returning_page
    open_progress(page, site_url)
    wipe(page)
    lines = history_lines(7, seed="prune")
    kept = page.evaluate(f"""async (lines) => {{
      const {{ keepDeal }} = await import('./{HISTORY}');
      for (const line of lines) {{
        const {{ history: h, review, ...record }} = line;
        await keepDeal({{ record, seat: h.seat, level: h.level, at: h.at }}, 5);
      }}
      return (await import('./{HISTORY}')).readHistory();
    }}""", list(reversed(lines)))  # kept newest first: the cap prunes by the time played, not by the order kept
    assert [e["at"] for e in kept["entries"]] == [line["history"]["at"] for line in lines[2:]]
    assert "v" not in lines[0] and kept["unread"] == 0
    # an entry as an older version wrote it (a bare line, no version) is migrated; a later version's is left unread
    page.evaluate("""(line) => new Promise((resolve) => {
      const open = indexedDB.open('coinche-history');
      open.onsuccess = () => {
        const tx = open.result.transaction('deals', 'readwrite');
        tx.objectStore('deals').add({ ...line, deal: 'old', at: 1 });
        tx.objectStore('deals').add({ v: 99, deal: 'new', at: 2, whatever: true });
        tx.oncomplete = () => { open.result.close(); resolve(); };
      };
    })""", lines[0])
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-state", "ready")
    expect(page.locator("#history-count")).to_contain_text("6 deals kept")
    expect(page.locator("#history-count")).to_contain_text("1 deal was kept by a newer version")
    entries = stored(page)
    assert entries[0]["v"] == 2 and entries[0]["seat"] == lines[0]["history"]["seat"]
    wipe(page)


def test_a_points_link_opens_its_deals_replay(returning_page, site_url, tmp_path):
    page = returning_page
    open_progress(page, site_url)
    wipe(page)
    lines = history_lines(6, seed="links", reviewed=1.0)
    import_text(page, tmp_path, "".join(json.dumps(line) + "\n" for line in lines))
    expect(page.locator("#plot-line svg.plot")).to_be_visible(timeout=60_000)  # once the engine has read the lines
    page.locator("#plot-line svg.plot").scroll_into_view_if_needed()
    box = page.locator("#plot-line svg.plot").bounding_box()
    page.mouse.click(box["x"] + box["width"] - 14, box["y"] + box["height"] / 2)  # the last deal's point
    expect(page.locator("#dlg-replay")).to_be_visible(timeout=60_000)
    expect(page.locator("#dlg-replay .replay-slider")).to_have_attribute(
        "max", str(len(lines[-1]["calls"]) + len(lines[-1]["plays"])))
    page.goto(f"{site_url}progress.html")
    page.click("#plot-line summary")  # the table beside the plot, folded
    page.locator("#plot-line tbody tr").first.locator("a").nth(1).click()  # the first deal's review
    expect(page.locator("#dlg-review")).to_be_visible(timeout=60_000)
    expect(page.locator("#dlg-review")).to_have_attribute("data-status", "done", timeout=60_000)
    # the review kept in the history: shown at once, none of its decisions asked of the engine again
    decisions = lines[0]["review"]["decisions"]
    expect(page.locator("#dlg-review .review-item")).to_have_count(len(decisions))
    marks = [n.get_attribute("data-mark") or None for n in page.locator("#dlg-review .review-item").all()]
    assert marks == [d["mark"] for d in decisions]
    wipe(page)


def test_a_deal_without_a_review_is_reviewed_in_the_background(returning_page, site_url):
    """A kept deal with no review gets the engine's review of the player's seat on the review helper once the
    game's page is up and the table idle (a device with two cores or more, as the test machine); a deal the
    engine cannot replay is left without one, and the others are still reviewed."""
    page = returning_page
    open_progress(page, site_url)
    wipe(page)
    [line] = history_lines(1, seed="background", reviewed=0.0)
    broken = {**history_lines(2, seed="background-2", reviewed=0.0)[1], "plays": ["Jh"] * 32}  # not a legal deal
    page.evaluate(f"""async (lines) => {{
      const {{ keepDeal }} = await import('./{HISTORY}');
      for (const {{ history: h, ...record }} of lines) await keepDeal({{ record, seat: h.seat, at: h.at }});
    }}""", [line, broken])
    if page.evaluate("() => navigator.hardwareConcurrency") < 2:
        pytest.skip("one core: no review helper, no background review")
    page.goto(f"{site_url}?speed=test")
    expect(page.locator("body")).to_have_attribute("data-state", "ready", timeout=60_000)
    deadline = time.monotonic() + 180
    while not any(e["review"] for e in stored(page)):
        assert time.monotonic() < deadline, "no review made in the background within 3 minutes"
        page.wait_for_timeout(1000)
    entries = {e["record"]["plays"][0]: e for e in stored(page)}
    from coinche.review import review

    record = {k: v for k, v in line.items() if k != "history"}
    want = review(record, [line["history"]["seat"]])
    got = entries[record["plays"][0]]["review"]
    assert [d["index"] for d in got["decisions"]] == [d["index"] for d in want["decisions"]]
    assert [d["mark"] for d in got["decisions"]] == [d["mark"] for d in want["decisions"]]
    assert got["summary"] == want["summary"]
    assert entries["Jh"]["review"] is None
    wipe(page)


def test_no_background_review_while_a_match_is_played(returning_page, site_url):
    """While the player is at a match the helper is asked for no decision of the history's reviews; once they
    leave the table the review is made."""
    page = returning_page
    open_progress(page, site_url)
    wipe(page)
    [line] = history_lines(1, seed="background-wait", reviewed=0.0)
    page.evaluate(f"""async ({{ history: h, ...record }}) => (await import('./{HISTORY}')).keepDeal(
      {{ record, seat: h.seat, at: h.at }})""", line)
    if page.evaluate("() => navigator.hardwareConcurrency") < 2:
        pytest.skip("one core: no review helper, no background review")
    new_match(page, site_url, "coinche", seed="background-wait", speed="slow")
    page.evaluate("""async () => {
      const { Engine } = await import('/js/engine.js');
      const call = Engine.prototype.call;
      window.asked = [];
      Engine.prototype.call = function (name, args) {
        if (name.startsWith('review_')) window.asked.push(name);
        return call.call(this, name, args);
      };
    }""")
    page.wait_for_timeout(9000)  # past the 5 s after the boot at which the page looks for deals to review
    assert "review_decision" not in page.evaluate("() => window.asked")
    page.click("#btn-home")
    deadline = time.monotonic() + 180
    while not any(e["review"] for e in stored(page)):
        assert time.monotonic() < deadline, "no review made in the background once the player left the table"
        page.wait_for_timeout(1000)
    assert "review_decision" in page.evaluate("() => window.asked")
    wipe(page)


@pytest.mark.parametrize("lang, title, won", [("fr", "Vos progrès", "gagnées"), ("de", "Dein Fortschritt", "gewonnen"),
                                               ("es", "Tu progreso", "ganadas")])
def test_the_page_speaks_the_chosen_language(returning_page, site_url, tmp_path, lang, title, won):
    """The language switched on the page: its texts, the figures' words, the plots' names and the sorts of
    decision in the reader's language, the figures unchanged."""
    page = returning_page
    open_progress(page, site_url)
    wipe(page)
    lines = history_lines(12, seed="languages", reviewed=1.0)
    import_text(page, tmp_path, "".join(json.dumps(line) + "\n" for line in lines))
    expect(page.locator("[data-figure=deals]")).to_have_text("12", timeout=60_000)  # once the engine has read them
    english = page.locator("#plot-types svg desc").text_content()
    page.select_option("#language", lang)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("h1")).to_have_text(title)
    expect(page.locator("[data-figure=matches]")).to_contain_text(won)
    assert page.title().startswith(title)
    desc = page.locator("#plot-types svg desc").text_content()
    assert desc != english and desc
    page.click("#plot-types summary")
    shown = page.locator("#plot-types tbody th").all_text_contents()
    assert shown and all(name for name in shown) and shown != [t for t, _, _, _ in reference_figures(lines)["types"]]
    expect(page.locator("[data-figure=deals]")).to_have_text("12")
    wipe(page)


BLOCKED_STORAGE = "Object.defineProperty(window, 'indexedDB', { get() { throw new DOMException('blocked', 'SecurityError'); } });"


def test_a_browser_that_keeps_no_history_still_plays_and_says_so(returning_page, site_url, tmp_path):
    """IndexedDB refused (private browsing, blocked storage): the table plays a whole deal as before, the
    progress page says that nothing can be kept here and an import that nothing was imported."""
    page = returning_page
    page.add_init_script(BLOCKED_STORAGE)
    new_match(page, site_url, "coinche", seed="progress-blocked")
    play_to_summary(page)
    open_progress(page, site_url)
    expect(page.locator("#history-count")).to_contain_text("does not let the page keep a history")
    import_text(page, tmp_path, json.dumps(history_lines(1, seed="blocked")[0]) + "\n")
    expect(page.locator("#history-report")).to_contain_text("nothing was imported")
