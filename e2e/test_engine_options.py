"""The page shows the engine's options (issue 25, item 3): the settings' variants, targets and levels, the house
rules' presets and the rules page's house rules are drawn from the file the build wrote from the engine
(options.json, coinche.webcommands.options), and show what the page's own markup showed before: the same
choices, in the same order, with the same words, in every language."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).parent))  # --import-mode=importlib: the helpers beside this file
from test_table import open_home  # noqa: E402

from coinche.webcommands import options  # noqa: E402

DIST = Path(__file__).resolve().parent.parent / "dist"
LANGUAGES = ["en", "fr", "de", "es"]
# What web/index.html's settings wrote by hand before they were drawn from the engine's lists
BEFORE = {
    "variant": [("coinche", "settings.variant.coinche"), ("classic", "settings.variant.classic")],
    "target": [(t, None) for t in ("501", "701", "1000", "1500", "2000")],
    "level": [("easy", "settings.level.easy"), ("normal", "settings.level.normal"), ("expert", "settings.level.expert")],
}


def catalogue(lang: str) -> dict:
    return json.loads((DIST / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


def test_the_site_ships_the_engines_options(page, site_url):
    served = page.request.get(site_url + "options.json").json()
    assert served.pop("format") == "coinche-options/1" and served.pop("engine")
    assert served == json.loads(json.dumps(options()))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_settings_show_the_engines_choices_as_before(returning_page, site_url, lang):
    page = returning_page
    page.add_init_script(f"localStorage.setItem('coinche.lang', '{lang}')")
    open_home(page, site_url, seed="options")
    page.click("#btn-settings")
    dialog = page.locator("#dlg-settings")
    expect(dialog).to_be_visible()
    words = catalogue(lang)
    for name, choices in BEFORE.items():
        shown = dialog.locator(f'fieldset[data-setting="{name}"] label').evaluate_all(
            "(labels) => labels.map((l) => [l.querySelector('input').value, l.textContent.trim()])")
        assert shown == [[value, words[key] if key else value] for value, key in choices], name
    # the defaults checked, as the engine's
    defaults = options()["defaults"]
    for name in BEFORE:
        expect(dialog.locator(f"input[name={name}][value='{defaults[name]}']")).to_be_checked()
    presets = dialog.locator("#setting-rules-preset option").evaluate_all(
        "(options) => options.map((o) => [o.value, o.textContent, o.disabled])")
    assert presets == [["own", words["house.preset.own"], False], ["de-2000", words["house.preset.de-2000"], False],
                       ["custom", words["house.preset.custom"], True]]


def test_a_choice_is_kept_and_read_back(returning_page, site_url):
    page = returning_page
    open_home(page, site_url, seed="options2")
    page.click("#btn-settings")
    dialog = page.locator("#dlg-settings")
    for name, value in (("variant", "classic"), ("target", "1500"), ("level", "expert")):
        dialog.locator(f"input[name={name}][value='{value}']").check(force=True)
    page.wait_for_function("() => JSON.parse(localStorage.getItem('coinche.settings') ?? '{}').level === 'expert'")
    stored = page.evaluate("() => JSON.parse(localStorage.getItem('coinche.settings'))")
    assert (stored["variant"], stored["target"], stored["level"]) == ("classic", 1500, "expert")
    open_home(page, site_url, seed="options2")
    page.click("#btn-settings")
    for name, value in (("variant", "classic"), ("target", "1500"), ("level", "expert")):
        expect(dialog.locator(f"input[name={name}][value='{value}']")).to_be_checked()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rules_page_lists_the_engines_house_rules(returning_page, site_url, lang):
    page = returning_page
    page.add_init_script(f"localStorage.setItem('coinche.lang', '{lang}')")
    page.goto(site_url + "rules.html")
    expect(page.locator("body")).to_have_attribute("data-state", "ready", timeout=10_000)
    words = catalogue(lang)
    shown = page.locator("#house-rules dl.house-list").evaluate(
        "(dl) => [...dl.querySelectorAll('dt')].map((dt) => [dt.textContent,"
        " [...dt.nextElementSibling.querySelectorAll('li')].map((li) => li.textContent)])")
    house = [o for o in options()["rules"]["options"] if o["name"] not in ("variant", "target")]
    assert len(house) == 15  # the game's own eleven, contracts and the three of announcements (issue 33)
    assert shown == [[words[f"house.option.{o['name']}"], [words[f"house.value.{o['name']}.{v}"] for v in o["values"]]]
                     for o in house]
