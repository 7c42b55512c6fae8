// Small DOM builders for the judge page: text goes in through textContent and attributes only.
import { cardName, cardShort, t } from "../i18n.js";

// el("p", {class: "x", dataset: {card: "Jh"}, text: "..."}, child, ...)
export function el(tag, options = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(options)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "text") node.textContent = value;
    else if (name === "class") node.className = value;
    else if (name === "dataset") Object.assign(node.dataset, value);
    else if (name === "on") for (const [type, fn] of Object.entries(value)) node.addEventListener(type, fn);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  node.append(...children.filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

const RED = new Set(["h", "d"]);

// A card face: the rank over the suit symbol, read out by its full name.
export function cardFace(code, extraClass = "") {
  const rank = t(`rank.short.${code[0]}`);
  const suit = t(`suit.symbol.${code[1]}`);
  return el(
    "span",
    {
      class: `card ${RED.has(code[1]) ? "card-red" : "card-black"} ${extraClass}`.trim(),
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
    class: `card-inline ${RED.has(code[1]) ? "card-red" : "card-black"}`,
    title: cardName(code),
    text: cardShort(code),
  });
}
