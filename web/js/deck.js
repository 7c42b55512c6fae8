// The deck's look, set on <html> from the saved settings before the page is first painted: a classic script
// in each page's <head>, so that no card is drawn first in other colours. The settings' deck choices
// (js/table/settings.js CARD_LOOK) are classes that the pages' style sheets read (css/suits.css). The settings call
// globalThis.applyDeck again when the player changes one.
"use strict";

// A deck setting's values, each with the class it sets (its default sets none).
const DECK_CLASSES = {
  fourColour: { true: "four-colour" },
};

globalThis.applyDeck = function applyDeck(settings) {
  for (const [name, classes] of Object.entries(DECK_CLASSES)) {
    for (const [value, className] of Object.entries(classes)) {
      document.documentElement.classList.toggle(className, String(settings?.[name]) === value);
    }
  }
};

try {
  globalThis.applyDeck(JSON.parse(localStorage.getItem("coinche.settings") ?? "{}"));
} catch {
  // no storage, or settings that are not JSON: the default deck
}
