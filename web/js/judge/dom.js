// The judge page's cards as DOM (js/dom.js el builds them: text through textContent and attributes only).
import { el } from "../dom.js";
import { cardName, cardShort, t } from "../i18n.js";

const RED = new Set(["h", "d"]);

// A card face: the rank over the suit symbol, read out by its full name.
export function cardFace(code, extraClass = "") {
  const rank = t(`rank.short.${code[0]}`);
  const suit = t(`suit.symbol.${code[1]}`);
  return el(
    "span",
    {
      class: `card ${RED.has(code[1]) ? "card-red" : "card-black"} suit-${code[1]} ${extraClass}`.trim(),
      role: "img",
      "aria-label": cardName(code),
      dataset: { face: code },
    },
    el("span", { class: "card-rank", "aria-hidden": "true", dataset: { text: rank } }),  // drawn by CSS: the
    el("span", { class: "card-suit", "aria-hidden": "true", dataset: { text: suit } }),  // name is the label's
  );
}

// Inline text for a card: "J♥", coloured.
export function cardInline(code) {
  return el("span", {
    class: `card-inline ${RED.has(code[1]) ? "card-red" : "card-black"} suit-${code[1]}`,
    title: cardName(code),
    text: cardShort(code),
  });
}
