// A record the engine refuses (malformed_record) is said by its reason's key in the reader's language
// (web/js/errors.js), the error that caused it too: no English detail reaches a French, German or Spanish page.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";

globalThis.fetch = async (url) => {
  const text = await readFile(new URL(url));
  return { ok: true, json: async () => JSON.parse(text) };
};
globalThis.document = { documentElement: {}, querySelectorAll: () => [] };
globalThis.localStorage = { getItem: () => null, setItem: () => {} };

const { setLanguage } = await import("../../web/js/i18n.js");
const { errorText } = await import("../../web/js/errors.js");

// As coinche.webcommands check_records answers them (tests/test_record_reasons.py checks the engine's side).
const refused = (params) => ({ code: "malformed_record", message: "malformed_record", params });
const CALL = refused({ reason: "bad_call", number: 1, text: "80x", cause: { key: "unknown_call", params: { text: "80x" } },
  detail: "call 1 ('80x'): unknown call '80x'" });
const TWICE = refused({ reason: "deck_twice", detail: "the deck must hold each of the 32 cards once" });
const WANT = {
  en: ["Unreadable game record: call 1 (“80x”): Unknown call “80x”.",
    "Unreadable game record: the deck must hold each of the 32 cards once."],
  fr: ["Enregistrement de partie illisible : annonce 1 (« 80x ») : Annonce inconnue « 80x ».",
    "Enregistrement de partie illisible : le paquet doit contenir chacune des 32 cartes une fois."],
  de: ["Unlesbares Spielprotokoll: Ansage 1 („80x“): Unbekannte Ansage „80x“.",
    "Unlesbares Spielprotokoll: Der Kartenstapel muss jede der 32 Karten genau einmal enthalten."],
  es: ["Registro de partida ilegible: voz 1 («80x»): Voz desconocida «80x».",
    "Registro de partida ilegible: la baraja debe contener cada una de las 32 cartas una sola vez."],
};

for (const [lang, [call, twice]] of Object.entries(WANT)) {
  test(`${lang}: a refused record's reason, and its cause, in the page's language`, async () => {
    await setLanguage(lang, { remember: false });
    assert.equal(errorText(CALL), call);
    assert.equal(errorText(TWICE), twice);
  });
}

test("a reason this page does not know keeps the engine's detail", async () => {
  await setLanguage("en", { remember: false });
  assert.equal(errorText(refused({ reason: "from_a_later_version", detail: "something new" })),
    "Unreadable game record: something new");
});
