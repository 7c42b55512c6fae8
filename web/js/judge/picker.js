// The 32-card picker: four rows (one per suit), strongest plain card first; fast with a thumb and with a
// keyboard. Arrow keys move between cards (one tab stop for the whole picker), Enter or Space adds the
// card, a rank key then a suit key adds that card from anywhere in the picker (J then h: the jack of
// hearts), Backspace undoes.
import { cardName, suitName, t } from "../i18n.js";
import { el } from "../dom.js";
import { SUITS } from "../notation.js";

const ORDER = "AKQJT987";
const RANK_KEYS = { 7: "7", 8: "8", 9: "9", t: "T", 0: "T", 1: "T", j: "J", q: "Q", k: "K", a: "A" };

export class Picker {
  // onPick(card) adds a card; onUndo() undoes the last edit; onPending(rank|null) reports a half-typed card.
  constructor(root, { onPick, onUndo, onPending }) {
    this.root = root;
    this.onPick = onPick;
    this.onUndo = onUndo;
    this.onPending = onPending;
    this.buttons = new Map();
    this.rows = [];
    this.focused = "As";
    this.pendingRank = null;
    this.used = new Set();
    this.full = false;
    this.trump = null;
    root.addEventListener("keydown", (event) => this.#key(event));
    root.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-card]");
      if (button) this.#pick(button.dataset.card);
    });
    root.addEventListener("focusin", (event) => {
      const button = event.target.closest("button[data-card]");
      if (button) this.#setFocused(button.dataset.card, false);
    });
    this.build();
  }

  // (Re)build the buttons in the current language.
  build() {
    this.root.replaceChildren();
    this.buttons.clear();
    this.rows = [];
    for (const suit of SUITS) {
      const row = el("div", { class: "picker-row", role: "group", "aria-label": suitName(suit), dataset: { suit } });
      const codes = [];
      for (const rank of ORDER) {
        const code = rank + suit;
        const button = el(
          "button",
          { type: "button", class: `pick suit-${suit}`, dataset: { card: code }, tabindex: "-1" },
          el("span", { class: "pick-rank", "aria-hidden": "true", dataset: { text: t(`rank.short.${rank}`) } }),
          el("span", { class: "pick-suit", "aria-hidden": "true", dataset: { text: t(`suit.symbol.${suit}`) } }),
        );
        this.buttons.set(code, button);
        codes.push(code);
        row.append(button);
      }
      this.rows.push(codes);
      this.root.append(row);
    }
    this.update({ used: this.used, full: this.full, trump: this.trump });
  }

  // used: the cards already in the position; full: the zone picks go to has no room left.
  update({ used, full, trump }) {
    this.used = used;
    this.full = full;
    this.trump = trump;
    for (const [code, button] of this.buttons) {
      const isUsed = used.has(code);
      const unavailable = isUsed || full;
      button.setAttribute("aria-disabled", String(unavailable));
      button.dataset.used = String(isUsed);
      button.classList.toggle("is-trump", code[1] === trump);
      button.setAttribute("aria-label", isUsed ? t("judge.picker.used", { card: code }) : cardName(code));
    }
    for (const row of this.root.children) row.classList.toggle("is-trump", row.dataset.suit === trump);
    this.#setFocused(this.focused, false);
  }

  #setFocused(code, move) {
    this.focused = code;
    for (const [c, button] of this.buttons) button.tabIndex = c === code ? 0 : -1;
    if (move) this.buttons.get(code).focus();
  }

  #pick(code) {
    this.#setFocused(code, false);
    if (this.used.has(code) || this.full) return;
    this.onPick(code);
  }

  #key(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const [row, col] = this.#where(this.focused);
    const moves = {
      ArrowLeft: [row, (col + 7) % 8],
      ArrowRight: [row, (col + 1) % 8],
      ArrowUp: [(row + 3) % 4, col],
      ArrowDown: [(row + 1) % 4, col],
      Home: [row, 0],
      End: [row, 7],
    };
    if (event.key in moves) {
      const [r, c] = moves[event.key];
      this.#setFocused(this.rows[r][c], true);
      this.#pending(null);
      event.preventDefault();
      return;
    }
    if (event.key === "Backspace" || event.key === "Delete") {
      this.#pending(null);
      this.onUndo();
      event.preventDefault();
      return;
    }
    if (event.key === "Escape") {
      this.#pending(null);
      return;
    }
    const key = event.key.toLowerCase();
    if (this.pendingRank && SUITS.includes(key)) {
      const code = this.pendingRank + key;
      this.#pending(null);
      this.#setFocused(code, true);
      this.#pick(code);
      event.preventDefault();
    } else if (key in RANK_KEYS) {
      this.#pending(RANK_KEYS[key]);
      event.preventDefault();
    }
  }

  #pending(rank) {
    this.pendingRank = rank;
    this.onPending?.(rank);
  }

  #where(code) {
    for (let r = 0; r < this.rows.length; r++) {
      const c = this.rows[r].indexOf(code);
      if (c >= 0) return [r, c];
    }
    return [0, 0];
  }
}
