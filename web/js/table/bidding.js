// The auction panel. Coinche: a number (80..160, capot) then a suit, then "Bid"; pass, coinche and
// surcoinche when legal. Classic: take the turned suit or pass; in round two, name another suit or pass.
// Every button comes from the engine's `legal` list: the page never decides what is allowed.
import { bidValueName, callName, t } from "../i18n.js";
import { BID_VALUES, CAPOT, SUITS, formatBidValue, formatCall, parseBid, parseCall } from "../notation.js";
import { suitIcon } from "./cards.js";

const VALUES = [...BID_VALUES, CAPOT]; // the number buttons, in their order

function button(className, text, onClick) {
  const node = document.createElement("button");
  node.type = "button";
  node.className = className;
  if (text !== undefined) node.textContent = text;
  node.addEventListener("click", onClick);
  return node;
}

export class BiddingPanel {
  #root;
  #onCall;
  #legal = new Set();
  #values = VALUES;
  #value = null;
  #suit = null;

  constructor(root, { onCall }) {
    this.#root = root;
    this.#onCall = onCall;
  }

  hide() {
    this.#root.hidden = true;
    this.#root.replaceChildren();
  }

  // legal: the engine's legal calls ("pass", "90h", "coinche", "takeh"...); variant: "coinche" | "classic".
  // The same calls drawn again while the panel shows (the engine's deal replacing the build's first deal,
  // another language) keep the number and the suit chosen, and the focus on the button that had it.
  // bidValues: the values a bid may have at this table (the engine's state.bid_values: "82" … "capot").
  show(legal, variant, bidValues = null) {
    this.#values = bidValues ? bidValues.map((v) => (v === "capot" ? CAPOT : Number(v))) : VALUES;
    const again = !this.#root.hidden && this.#root.dataset.variant === variant
      && legal.length === this.#legal.size && legal.every((call) => this.#legal.has(call));
    const kept = again ? { value: this.#value, suit: this.#suit, focus: this.#focused() } : null;
    this.#legal = new Set(legal);
    this.#value = null;
    this.#suit = null;
    this.#root.replaceChildren();
    this.#root.hidden = false;
    this.#root.dataset.variant = variant;
    if (variant === "classic") this.#classic(legal);
    else this.#coinche(legal);
    if (!kept) return;
    if (kept.value !== null || kept.suit !== null) {
      this.#value = kept.value;
      this.#suit = kept.suit;
      this.#drawChoice();
    }
    if (kept.focus) this.#root.querySelector(kept.focus)?.focus({ preventScroll: true });
  }

  // A selector for the panel's button that has the focus, or null.
  #focused() {
    const node = document.activeElement;
    if (!node || !this.#root.contains(node) || node.tagName !== "BUTTON") return null;
    if (node.id) return `#${node.id}`;
    for (const name of ["value", "suit", "call"]) {
      if (node.dataset[name]) return `button[data-${name}="${node.dataset[name]}"]`;
    }
    return null;
  }

  #call(call) {
    if (!this.#legal.has(call)) return;
    this.#legal = new Set();
    for (const node of this.#root.querySelectorAll("button")) node.disabled = true;
    this.#onCall(call);
  }

  #classic(legal) {
    const title = document.createElement("p");
    title.className = "bidding-title";
    const takes = legal.filter((c) => parseCall(c)?.kind === "take");
    title.textContent = t(takes.length > 1 ? "table.bid.classic_round2" : "table.bid.classic_round1");
    const row = document.createElement("div");
    row.className = "bid-actions";
    for (const call of takes) {
      const { suit } = parseCall(call);
      const node = button(`btn take ${suit}`, undefined, () => this.#call(call));
      node.append(suitIcon(suit), document.createTextNode(callName(call)));
      node.dataset.call = call;
      row.append(node);
    }
    const pass = button("btn pass", callName("pass"), () => this.#call("pass"));
    pass.dataset.call = "pass";
    row.append(pass);
    this.#root.append(title, row);
  }

  #coinche(legal) {
    const bids = legal.map(parseBid).filter(Boolean);
    if (bids.length) {
      const values = document.createElement("div");
      values.className = "bid-values";
      values.setAttribute("role", "group");
      values.setAttribute("aria-label", t("table.bid.values"));
      for (const value of this.#values) {
        const node = button("chip value", bidValueName(value), () => this.#choose("value", value));
        node.dataset.value = formatBidValue(value);
        node.setAttribute("aria-pressed", "false");
        node.disabled = !bids.some((b) => b.value === value);
        values.append(node);
      }
      const suits = document.createElement("div");
      suits.className = "bid-suits";
      suits.setAttribute("role", "group");
      suits.setAttribute("aria-label", t("table.bid.suits"));
      for (const suit of SUITS) {
        const node = button(`chip suit ${suit}`, undefined, () => this.#choose("suit", suit));
        node.dataset.suit = suit;
        node.setAttribute("aria-pressed", "false");
        node.setAttribute("aria-label", t(`suit.${suit}`));
        node.append(suitIcon(suit));
        suits.append(node);
      }
      this.#root.append(values, suits);
    }
    const actions = document.createElement("div");
    actions.className = "bid-actions";
    const pass = button("btn pass", callName("pass"), () => this.#call("pass"));
    pass.dataset.call = "pass";
    actions.append(pass);
    if (bids.length) {
      const bid = button("btn primary bid", t("table.bid.choose"), () => this.#call(this.#chosen()));
      bid.id = "bid-button";
      bid.disabled = true;
      actions.append(bid);
    }
    for (const call of ["coinche", "surcoinche"]) {
      if (!this.#legal.has(call)) continue;
      const node = button(`btn danger ${call}`, callName(call), () => this.#call(call));
      node.dataset.call = call;
      actions.append(node);
    }
    this.#root.append(actions);
  }

  // The coach's call lit in the panel: its button (pass, coinche, a take), or the number and the suit of
  // its bid; null: nothing lit.
  suggest(call) {
    const bid = call ? parseBid(call) : null;
    const value = bid && formatBidValue(bid.value);
    for (const node of this.#root.querySelectorAll("button")) {
      const lit = call !== null && (node.dataset.call === call
        || (bid !== null && (node.dataset.value === value || node.dataset.suit === bid.suit)));
      node.classList.toggle("suggested", lit);
    }
  }

  #chosen() {
    return this.#value !== null && this.#suit ? formatCall({ kind: "bid", value: this.#value, suit: this.#suit }) : null;
  }

  #choose(kind, value) {
    if (kind === "value") this.#value = this.#value === value ? null : value;
    else this.#suit = this.#suit === value ? null : value;
    this.#drawChoice();
  }

  // The chips pressed for the number and the suit chosen, and the bid button for their bid when legal.
  #drawChoice() {
    for (const node of this.#root.querySelectorAll(".chip.value")) {
      node.setAttribute("aria-pressed", String(this.#value !== null && node.dataset.value === formatBidValue(this.#value)));
    }
    for (const node of this.#root.querySelectorAll(".chip.suit")) {
      node.setAttribute("aria-pressed", String(node.dataset.suit === this.#suit));
    }
    const bid = this.#root.querySelector("#bid-button");
    const chosen = this.#chosen();
    const legal = chosen !== null && this.#legal.has(chosen);
    bid.disabled = !legal;
    bid.dataset.call = legal ? chosen : "";
    bid.textContent = "";
    if (legal) {
      const { value, suit } = parseBid(chosen);
      bid.append(document.createTextNode(t("table.bid.bid_button", { value: bidValueName(value) })), suitIcon(suit));
      bid.setAttribute("aria-label", t("table.bid.bid_label", { call: chosen }));
    } else {
      bid.textContent = t("table.bid.choose");
      bid.removeAttribute("aria-label");
    }
  }
}
