// The auction panel. Coinche: a number (80..160, capot) then a suit, then "Bid"; pass, coinche and
// surcoinche when legal. Classic: take the turned suit or pass; in round two, name another suit or pass.
// Every button comes from the engine's `legal` list: the page never decides what is allowed.
import { el } from "../dom.js";
import { bidValueName, callName, cardShort, language, t } from "../i18n.js";
import { BID_VALUES, CAPOT, CONTRACT_KINDS, SUITS, formatBidValue, formatCall, parseBid, parseCall } from "../notation.js";
import { suitIcon } from "./cards.js";

const VALUES = [...BID_VALUES, CAPOT]; // the number buttons, in their order

// A button of the panel: {class, text, dataset, aria-*...} as el() takes them, and what a click does.
function button(props, onClick, ...children) {
  return el("button", { type: "button", ...props, on: { click: onClick } }, ...children);
}

// Announcements as the table words them: "tierce J♥ Q♥ K♥, carré J♠ J♥ J♦ J♣".
export function announcementList(announcements) {
  return announcements.map((a) => `${t(`announcement.${a.name}`)} ${a.cards.map(cardShort).join(" ")}`).join(", ");
}

export class BiddingPanel {
  #root;
  #onCall;
  #legal = new Set();
  #values = VALUES;
  #value = null;
  #suit = null;
  #drawn = null; // the language and the bid values the buttons were drawn with

  constructor(root, { onCall }) {
    this.#root = root;
    this.#onCall = onCall;
  }

  hide() {
    this.#root.hidden = true;
    this.#root.replaceChildren();
  }

  // legal: the engine's legal calls ("pass", "90h", "coinche", "takeh"...); variant: "coinche" | "classic".
  // bidValues: the values a bid may have at this table (the engine's state.bid_values: "82" … "capot").
  // The same calls drawn again while the panel shows (the engine's deal replacing the build's first deal) leave
  // the panel as it is: a button replaced between a click's press and its release gets no click, and the call
  // would be lost. In another language they are drawn anew, keeping the number and the suit chosen and the
  // focus on the button that had it.
  show(legal, variant, bidValues = null) {
    const values = bidValues ? bidValues.map((v) => (v === "capot" ? CAPOT : Number(v))) : VALUES;
    const again = !this.#root.hidden && this.#root.dataset.variant === variant
      && legal.length === this.#legal.size && legal.every((call) => this.#legal.has(call));
    const drawn = `${language()} ${values.join(",")}`;
    if (again && this.#drawn === drawn) return;
    this.#values = values;
    this.#drawn = drawn;
    const kept = again ? { value: this.#value, suit: this.#suit, focus: this.#focused() } : null;
    this.#legal = new Set(legal);
    this.#value = null;
    this.#suit = null;
    this.#root.replaceChildren();
    // It rises into view, but not while the engine boots (the table holds still, see table.css), and not later
    // either: an animation held back by the page's state would start when the state changed, under the player's
    // finger.
    if (this.#root.hidden) this.#root.toggleAttribute("data-still", document.body.dataset.state === "loading");
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

  // The player's first card of the first trick at a table of announcements (house rule announce=yes): declare
  // the announcements the engine says the hand holds (`announceable`, never one it does not), or none. Either
  // answer is the action "announce:…"; playing a card without answering declares none.
  showAnnounce(announceable) {
    const list = announceable.map((a) => a.announcement).join(",");
    if (!this.#root.hidden && this.#root.dataset.variant === "announce" && this.#root.dataset.list === list) return;
    this.#legal = new Set([`announce:${list}`, "announce:"]);
    this.#root.replaceChildren();
    this.#root.hidden = false;
    this.#root.dataset.variant = "announce";
    this.#root.dataset.list = list;
    const title = el("p", { class: "bidding-title", text: t("table.announce_ask", { list: announcementList(announceable) }) });
    const row = el("div", "bid-actions");
    row.append(
      button({ class: "btn primary announce", text: t("table.announce_yes"), dataset: { call: `announce:${list}` } },
        () => this.#call(`announce:${list}`)),
      button({ class: "btn pass", text: t("table.announce_no"), dataset: { call: "announce:" } }, () => this.#call("announce:")),
    );
    this.#root.append(title, row);
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
    const takes = legal.filter((c) => parseCall(c)?.kind === "take");
    const title = el("p", { class: "bidding-title", text: t(takes.length > 1 ? "table.bid.classic_round2" : "table.bid.classic_round1") });
    const row = el("div", "bid-actions");
    for (const call of takes) {
      const { suit } = parseCall(call);
      row.append(button({ class: `btn take ${suit}`, dataset: { call } }, () => this.#call(call), suitIcon(suit), callName(call)));
    }
    row.append(button({ class: "btn pass", text: callName("pass"), dataset: { call: "pass" } }, () => this.#call("pass")));
    this.#root.append(title, row);
  }

  #coinche(legal) {
    const bids = legal.map(parseBid).filter(Boolean);
    if (bids.length) {
      const values = el("div", { class: "bid-values", role: "group", "aria-label": t("table.bid.values") });
      for (const value of this.#values) {
        values.append(button({
          class: "chip value", text: bidValueName(value), dataset: { value: formatBidValue(value) }, "aria-pressed": "false",
          disabled: !bids.some((b) => b.value === value),
        }, () => this.#choose("value", value)));
      }
      const kinds = CONTRACT_KINDS.filter((kind) => bids.some((b) => b.suit === kind)); // contracts=all
      const suits = el("div", { class: kinds.length ? "bid-suits with-kinds" : "bid-suits", role: "group", "aria-label": t("table.bid.suits") });
      for (const suit of [...SUITS, ...kinds]) {
        // no trumps and all trumps show their short name: their accessible name holds it (NT: no trumps)
        const label = kinds.includes(suit) ? t("table.bid.kind_label", { short: t(`suit.short.${suit}`), name: t(`suit.${suit}`) }) : t(`suit.${suit}`);
        suits.append(button({
          class: `chip suit ${suit}`, dataset: { suit }, "aria-pressed": "false", "aria-label": label,
        }, () => this.#choose("suit", suit), suitIcon(suit)));
      }
      this.#root.append(values, suits);
    }
    const actions = el("div", "bid-actions");
    actions.append(button({ class: "btn pass", text: callName("pass"), dataset: { call: "pass" } }, () => this.#call("pass")));
    if (bids.length) {
      actions.append(button({ class: "btn primary bid", text: t("table.bid.choose"), id: "bid-button", disabled: true },
        () => this.#call(this.#chosen())));
    }
    for (const call of ["coinche", "surcoinche"]) {
      if (!this.#legal.has(call)) continue;
      actions.append(button({ class: `btn danger ${call}`, text: callName(call), dataset: { call } }, () => this.#call(call)));
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
