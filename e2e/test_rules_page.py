"""The rules page, served from dist/: its four languages, its pictures, its links to the judge.

It needs no engine: it must be ready at once, without Pyodide or the worker. Its tests open a returning
visitor's page (e2e/conftest.py `returning_page`): a fresh profile's service worker would precache the whole
site, Pyodide included, for every test; the one test of what a first visit loads keeps a fresh profile.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from coinche.cards import Suit, format_cards, mask_of, parse_cards
from coinche.play import rule_position
from coinche.scoring import Contract, score_coinche
from playwright.sync_api import expect

DIST = Path(__file__).resolve().parent.parent / "dist"
LANGUAGES = ("en", "fr", "de", "es")

# What a reader of each language must find: the jack of hearts' name and corner letter, and a word of the
# game's vocabulary in the card-play section.
EXPECTED = {
    "en": {"jack_of_hearts": "jack of hearts", "jack": "J", "word": "trump"},
    "fr": {"jack_of_hearts": "valet de cœur", "jack": "V", "word": "surcouper"},
    "de": {"jack_of_hearts": "Herz-Bube", "jack": "B", "word": "überstechen"},
    "es": {"jack_of_hearts": "jota de corazones", "jack": "J", "word": "fallar por debajo"},
}
JUDGE_LINKS = [
    "judge.html#trump=h&trick=8h,Ah,7c&hand=Jh,Kd,7s",
    "judge.html#trump=h&trick=As,9s,9h&hand=7h,8h,Kd,Ac",
]


def catalogue(lang: str) -> dict[str, str]:
    return json.loads((DIST / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


def open_rules(page, site_url):
    page.goto(site_url + "rules.html")
    expect(page.locator("body")).to_have_attribute("data-state", "ready", timeout=10_000)


def untranslated(page) -> list[str]:
    """Elements whose catalogue text is empty or is the key itself (i18n.t's answer to a missing key)."""
    return page.evaluate("""() => [...document.querySelectorAll("[data-i18n]")]
        .filter((el) => !el.textContent.trim() || el.textContent === el.dataset.i18n)
        .map((el) => el.dataset.i18n)""")


def test_switching_language_translates_the_page(returning_page, site_url):
    page = returning_page
    open_rules(page, site_url)
    for lang in ("fr", "de", "es", "en"):
        page.select_option("#language", lang)
        messages, expected = catalogue(lang), EXPECTED[lang]
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page.locator("h1")).to_have_text(messages["rules.title"])
        expect(page).to_have_title(messages["rules.page.title"])
        expect(page.locator("#play")).to_contain_text(expected["word"])
        expect(page.locator("#scoring .formula-box").first).to_contain_text(messages["rules.scoring.madeDeclarer"])
        expect(page.locator(".trump-badge").first).to_contain_text(messages["suit.h"])
        jack = page.locator(".position .hand .card.legal").first
        expect(jack).to_have_attribute("aria-label", expected["jack_of_hearts"])
        expect(jack.locator(".card-rank")).to_have_text(expected["jack"])
        expect(page.locator(".language select option[value=de]")).to_have_text("Deutsch")
        assert untranslated(page) == [], lang


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_text_comes_from_the_catalogue(returning_page, site_url, lang):
    page = returning_page
    page.add_init_script(f"localStorage.setItem('coinche.lang', '{lang}')")
    open_rules(page, site_url)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    assert untranslated(page) == []
    faq = catalogue(lang)["rules.faq.q1"]
    expect(page.locator("#faq summary").first).to_have_text(faq)


# What each language's seed (../shared/seeds/game-*.txt; French follows the English one) says the page must
# tell: the game's own facts ("In this game"), the other name of the game, its length, the advice to start
# with the classic, and the seed's FAQ. (section id, words that must appear in it)
SEED_FACTS = {
    "en": [("#this-game", "Normal bot"), ("#this-game", "coach on or off"), ("#this-game", "ten seconds"),
           ("#this-game", "belote-rebelote"), ("#goal", "belote contrée"), ("#goal", "five or six deals"),
           ("#goal", "about ten minutes"), ("#compare", "classic version"), ("#faq", "Are coinche and belote contrée the same thing?"),
           ("#faq", "Can I play against a real person?"), ("#play", "Nobody must undertrump")],
    "fr": [("#this-game", "bot Normal"), ("#this-game", "coach activé ou non"), ("#this-game", "dizaine de secondes"),
           ("#this-game", "belote-rebelote"), ("#goal", "belote contrée"), ("#goal", "cinq ou six donnes"),
           ("#goal", "une dizaine de minutes"), ("#compare", "belote classique"),
           ("#faq", "La coinche et la belote contrée, c’est la même chose ?"), ("#faq", "Peut-on jouer contre une vraie personne ?"),
           ("#play", "Personne n’est obligé de sous-couper")],
    "de": [("#this-game", "„Normal“"), ("#this-game", "ob der Coach an ist oder nicht"), ("#this-game", "zehn Sekunden"),
           ("#this-game", "Belote und Rebelote"), ("#goal", "Belote contrée"), ("#goal", "fünf oder sechs Runden"),
           ("#goal", "ungefähr zehn Minuten"), ("#compare", "klassische Belote"),
           ("#faq", "Sind Coinche und Belote contrée dasselbe?"), ("#faq", "Kann man gegen einen echten Menschen spielen?"),
           ("#play", "Niemand muss unterstechen")],
    "es": [("#this-game", "bot Normal"), ("#this-game", "con el coach encendido o apagado"), ("#this-game", "diez segundos"),
           ("#this-game", "belote-rebelote"), ("#goal", "belote contrée"), ("#goal", "cinco o seis rondas"),
           ("#goal", "unos diez minutos"), ("#compare", "a la clásica"),
           ("#faq", "¿La coinche y la belote contrée son lo mismo?"), ("#faq", "¿Se puede jugar contra una persona real?"),
           ("#play", "Nadie está obligado a fallar por debajo")],
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_page_says_what_the_seed_says(returning_page, site_url, lang):
    page = returning_page
    page.add_init_script(f"localStorage.setItem('coinche.lang', '{lang}')")
    open_rules(page, site_url)
    for section, words in SEED_FACTS[lang]:
        expect(page.locator(section)).to_contain_text(words)
    # the five rules in the judge's order, and the second argued position decided by rule 5
    rules = page.locator("#play ol.play-rules li")
    expect(rules).to_have_count(5)
    messages = catalogue(lang)
    for i in range(5):
        expect(rules.nth(i)).to_have_text(messages[f"rules.play.rule{i + 1}"])
    expect(page.locator(".position").nth(1).locator(".verdict")).to_contain_text(
        {"en": "rule 5", "fr": "règle 5", "de": "Regel 5", "es": "regla 5"}[lang])
    # every FAQ question of the page opens on its answer; the page ends by inviting to play
    questions = page.locator("#faq details")
    expect(questions).to_have_count(14)
    questions.nth(7).locator("summary").click()
    expect(questions.nth(7).locator("p")).to_be_visible()
    expect(page.locator("#play-a-hand a.cta-link")).to_have_attribute("href", "index.html")


def test_the_chosen_language_is_remembered(returning_page, site_url):
    page = returning_page
    open_rules(page, site_url)
    page.select_option("#language", "de")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    open_rules(page, site_url)
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("#language")).to_have_value("de")


def test_the_argued_positions_link_to_the_judge(returning_page, site_url):
    page = returning_page
    open_rules(page, site_url)
    links = page.locator(".position .judge-link")
    expect(links).to_have_count(2)
    assert [links.nth(i).get_attribute("href") for i in range(2)] == JUDGE_LINKS
    assert (DIST / "judge.html").is_file()
    # The pictures agree with the verdicts: one legal card in the first position, all four in the second.
    first, second = page.locator(".position").nth(0), page.locator(".position").nth(1)
    expect(first.locator(".hand .card.legal")).to_have_count(1)
    expect(first.locator(".hand .card.forbidden")).to_have_count(2)
    expect(second.locator(".hand .card.legal")).to_have_count(4)
    expect(page.locator(".site-nav a[href='index.html']").first).to_be_visible()
    expect(page.locator(".site-nav a[href='judge.html']")).to_be_visible()


def test_no_engine_is_loaded(guarded_page, site_url):
    page = guarded_page
    open_rules(page, site_url)
    page.wait_for_load_state("networkidle")
    # the page's own requests: the service worker precaches the whole site, Pyodide included, for offline
    requested = [response.url for response in page.responses if response.request.service_worker is None]
    assert not [url for url in requested if "pyodide" in url or "engine" in url or url.endswith(".whl")], requested


@pytest.mark.parametrize("width,height", [(390, 844), (1440, 900)])
def test_nothing_overflows_sideways(returning_page, site_url, width, height):
    page = returning_page
    page.set_viewport_size({"width": width, "height": height})
    for lang in LANGUAGES:
        page.add_init_script(f"localStorage.setItem('coinche.lang', '{lang}')")
        open_rules(page, site_url)
        assert page.evaluate("document.documentElement.scrollWidth") <= width, lang


def test_the_pictures_and_numbers_are_the_engines(returning_page, site_url):
    """The page states the argued positions' legal cards and the worked example's scores without the engine:
    they must be what the engine rules."""
    page = returning_page
    open_rules(page, site_url)
    for i in range(2):
        position = page.locator(".position").nth(i)
        fragment = position.locator(".judge-link").get_attribute("href").split("#", 1)[1]
        fields = dict(part.split("=", 1) for part in fragment.split("&"))
        trick = [position.locator(".trick .card").nth(j).get_attribute("data-card") for j in range(3)]
        hand = [card.get_attribute("data-card") for card in position.locator(".hand .card").all()]
        legal = [card.get_attribute("data-card") for card in position.locator(".hand .card.legal").all()]
        assert (trick, hand) == (fields["trick"].split(","), fields["hand"].split(","))
        ruling = rule_position(mask_of(parse_cards(",".join(hand))), parse_cards(fields["trick"]),
                               Suit("shdc".index(fields["trump"])))
        assert set(format_cards(ruling.legal_cards).split(",")) == set(legal), fragment

    messages = catalogue("en")
    hearts_110 = Contract(variant="coinche", declarer=0, suit=1, value=110)
    cases = {
        "rules.example.madeResult": score_coinche(hearts_110, cards=(124, 38), belote_side=None, tricks=(6, 2)),
        "rules.example.downResult": score_coinche(hearts_110, cards=(96, 66), belote_side=None, tricks=(5, 3)),
        "rules.example.coinchedResult": score_coinche(
            Contract(variant="coinche", declarer=0, suit=1, value=110, multiplier=2),
            cards=(124, 38), belote_side=None, tricks=(6, 2)),
    }
    for key, result in cases.items():
        assert messages[key] == "{} to {}".format(*result.scores), key
