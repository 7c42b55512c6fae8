// The page's message formatting (web/js/i18n.js) without a browser: the catalogues read from web/i18n/, the
// plural chosen by each language's own rules, also for a signed figure as the review writes it ("+1", "-34").
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";

globalThis.fetch = async (url) => {
  const text = await readFile(new URL(url));
  return { ok: true, json: async () => JSON.parse(text) };
};
globalThis.document = { documentElement: {}, querySelectorAll: () => [] };
globalThis.localStorage = { getItem: () => null, setItem: () => {} };

const { setLanguage, t } = await import("../../web/js/i18n.js");

const EXPECTED = {
  en: ["Expected: +1 point for the side.", "Expected: 0 points for the side.", "Expected: -34 points for the side."],
  fr: ["Espérance : +1 point pour le camp.", "Espérance : 0 point pour le camp.", "Espérance : -34 points pour le camp."],
  de: ["Erwartet: +1 Punkt für die Partei.", "Erwartet: 0 Punkte für die Partei.", "Erwartet: -34 Punkte für die Partei."],
  es: ["Esperado: +1 punto para la pareja.", "Esperado: 0 puntos para la pareja.", "Esperado: -34 puntos para la pareja."],
};

for (const [lang, [one, zero, many]] of Object.entries(EXPECTED)) {
  test(`${lang}: the review's expected score takes the language's plural, its sign kept`, async () => {
    await setLanguage(lang, { remember: false });
    assert.equal(t("review.expected_same", { played: "+1" }), one);
    assert.equal(t("review.expected_same", { played: "0" }), zero);
    assert.equal(t("review.expected_same", { played: "-34" }), many);
    const both = t("review.expected", { played: "-1", best: "+12" });
    assert.ok(both.includes("-1 ") && both.includes("+12") && !both.includes("{"), both);
  });
}

// An announcement as the engine names it (coinche.announce.Announcement.text): a message key and its parameters,
// the rank of a sequence's top card worded in each language's grammar.
const ANNOUNCEMENTS = {
  en: ["Tierce to the king of hearts", "Cent to the queen of spades", "Four jacks", "Cinquante to the jack of clubs"],
  fr: ["Tierce au roi de cœur", "Cent à la dame de pique", "Carré de valets", "Cinquante au valet de trèfle"],
  de: ["Terz in Herz bis zum König", "Hunderter in Pik bis zur Dame", "Viererpasch Buben", "Fünfziger in Kreuz bis zum Buben"],
  es: ["Tercera al rey de corazones", "Cien a la dama de picas", "Póquer de jotas", "Cincuenta a la jota de tréboles"],
};

for (const [lang, expected] of Object.entries(ANNOUNCEMENTS)) {
  test(`${lang}: an announcement is named by its key and parameters`, async () => {
    await setLanguage(lang, { remember: false });
    assert.deepEqual([
      t("announcement.line.sequence", { name: "tierce", rank: "K", suit: "h" }),
      t("announcement.line.sequence", { name: "cent", rank: "Q", suit: "s" }),
      t("announcement.line.carre", { rank: "J" }),
      t("announcement.line.sequence", { name: "cinquante", rank: "J", suit: "c" }),
    ], expected);
  });
}

// The announcements a seat declared, said of the player in the second person in every language.
const DECLARED = {
  en: ["You announced tierce", "West announced tierce"],
  fr: ["Vous avez annoncé tierce", "Ouest a annoncé tierce"],
  de: ["Du hast tierce gemeldet", "West hat tierce gemeldet"],
  es: ["Has cantado tierce", "Oeste ha cantado tierce"],
};

for (const [lang, [mine, theirs]] of Object.entries(DECLARED)) {
  test(`${lang}: the player's own declaration is said to them`, async () => {
    await setLanguage(lang, { remember: false });
    assert.equal(t("table.declared", { seat: "?", list: "tierce", me: "yes" }), mine);
    assert.equal(t("table.declared", { seat: t("table.seat.3"), list: "tierce", me: "no" }), theirs);
  });
}
