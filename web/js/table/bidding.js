// The auction panel. Coinche: a number (80..160, capot) then a suit, then "Bid"; pass, coinche and
// surcoinche when legal. Classic: take the turned suit or pass; in round two, name another suit or pass.
// Every button comes from the engine's `legal` list: the page never decides what is allowed.
import { callName, t } from "../i18n.js";
import { SUITS, suitIcon } from "./cards.js";

const VALUES = ["80", "90", "100", "110", "120", "130", "140", "150", "160", "capot"];

function button(className, text, onClick) {
  const node = document.createElement("button");
  node.type = "button";
  node.className = className;
  if (text !== undefined) node.textContent = text;
  node.addEventListener("click", onClick);
  return node;
}

function parseBid(call) {
  const match = /^(\d+|capot)([shdc])$/.exec(call);
  return match ? { value: match[1], suit: match[2] } : null;
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
  // bidValues: the values a bid may have at this table (the engine's state.bid_values).
  show(legal, variant, bidValues = VALUES) {
    this.#values = bidValues;
    this.#legal = new Set(legal);
    this.#value = null;
    this.#suit = null;
    this.#root.replaceChildren();
    this.#root.hidden = false;
    this.#root.dataset.variant = variant;
    if (variant === "classic") this.#classic(legal);
    else this.#coinche(legal);
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
    const takes = legal.filter((c) => c.startsWith("take"));
    title.textContent = t(takes.length > 1 ? "table.bid.classic_round2" : "table.bid.classic_round1");
    const row = document.createElement("div");
    row.className = "bid-actions";
    for (const call of takes) {
      const suit = call.slice(4);
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
        const label = value === "capot" ? t("table.bid.capot") : value;
        const node = button("chip value", label, () => this.#choose("value", value));
        node.dataset.value = value;
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
    for (const node of this.#root.querySelectorAll("button")) {
      const lit = call !== null && (node.dataset.call === call
        || (bid !== null && (node.dataset.value === bid.value || node.dataset.suit === bid.suit)));
      node.classList.toggle("suggested", lit);
    }
  }

  #chosen() {
    return this.#value && this.#suit ? `${this.#value}${this.#suit}` : null;
  }

  #choose(kind, value) {
    if (kind === "value") this.#value = this.#value === value ? null : value;
    else this.#suit = this.#suit === value ? null : value;
    for (const node of this.#root.querySelectorAll(".chip.value")) {
      node.setAttribute("aria-pressed", String(node.dataset.value === this.#value));
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
      bid.append(document.createTextNode(t("table.bid.bid_button", { value: value === "capot" ? t("table.bid.capot") : value })), suitIcon(suit));
      bid.setAttribute("aria-label", t("table.bid.bid_label", { call: chosen }));
    } else {
      bid.textContent = t("table.bid.choose");
      bid.removeAttribute("aria-label");
    }
  }
}
