// The player's hand: sorted cards as buttons; press to lift, release to play, slide too far to cancel;
// arrows and Enter from the keyboard (a toolbar: one tab stop, the arrows move through the cards, each named
// with whether it may be played and, when not, the rule's reason). Which cards may be played is the engine's
// answer, never computed here.
import { t } from "../i18n.js";
import { options } from "../options.js";
import { buildCard, sortHand } from "./cards.js";

// How far (px) the pointer may slide before the play is cancelled: beyond it, the card drops back.
export const SLIDE_CANCEL_PX = 48;

export class HandView {
  #root;
  #onPlay;
  #onRefused;
  #playable = null; // Set of cards that may be played now, or null when it is not the player's turn
  #reasons = {};
  #press = null;

  // onPlay(card, element): play it; onRefused(card, reason|null): a forbidden card was pressed.
  constructor(root, { onPlay, onRefused }) {
    this.#root = root;
    this.#onPlay = onPlay;
    this.#onRefused = onRefused;
    root.setAttribute("role", "toolbar");
    root.addEventListener("pointerdown", (e) => this.#down(e));
    root.addEventListener("pointermove", (e) => this.#move(e));
    root.addEventListener("pointerup", (e) => this.#up(e));
    root.addEventListener("pointercancel", () => this.#drop());
    root.addEventListener("lostpointercapture", () => this.#drop());
    root.addEventListener("keydown", (e) => this.#key(e));
    root.addEventListener("contextmenu", (e) => e.preventDefault());
  }

  get cards() { return [...this.#root.querySelectorAll(".card")]; }

  cardElement(card) { return this.#root.querySelector(`.card[data-card="${card}"]`); }

  // hand: the cards held; trump: the trump suit or null; playable: Set of playable cards (the player's
  // turn) or null; reasons: {card: text} for the forbidden ones (the card's title, and its description to a
  // screen reader after whether it may be played).
  render(hand, { trump = null, playable = null, reasons = {} } = {}) {
    const focused = document.activeElement?.closest?.(".hand .card")?.dataset.card;
    this.#playable = playable;
    this.#reasons = reasons;
    this.#press = null;
    const sorted = sortHand(hand, trump, options.cards);
    const existing = new Map(this.cards.map((node) => [node.dataset.card, node]));
    const nodes = sorted.map((card) => existing.get(card) ?? buildCard(card, "button"));
    for (const [card, node] of existing) if (!sorted.includes(card)) node.remove();
    this.#root.replaceChildren(...nodes);
    this.#root.style.setProperty("--count", String(Math.max(nodes.length, 1)));
    nodes.forEach((node, i) => {
      const card = node.dataset.card;
      node.style.setProperty("--i", String(i));
      node.classList.remove("lifted", "sliding");
      node.style.translate = "";
      const forbidden = playable !== null && !playable.has(card);
      node.classList.toggle("forbidden", forbidden);
      node.classList.toggle("playable", playable !== null && !forbidden);
      if (forbidden) node.setAttribute("aria-disabled", "true");
      else node.removeAttribute("aria-disabled");
      const reason = reasons[card];
      if (playable === null) node.removeAttribute("aria-description");
      else if (forbidden) node.setAttribute("aria-description", reason ? t("access.card.forbidden", { reason }) : t("access.card.forbidden_plain"));
      else node.setAttribute("aria-description", t("access.card.playable"));
      node.title = reason ?? "";
      node.tabIndex = -1;
    });
    const keep = nodes.find((n) => n.dataset.card === focused) ?? nodes.find((n) => n.classList.contains("playable")) ?? nodes[0];
    if (keep) keep.tabIndex = 0;
    if (focused && keep && this.#root.contains(keep)) keep.focus({ preventScroll: true });
    this.#root.classList.toggle("my-turn", playable !== null);
    this.#root.setAttribute("aria-label", playable !== null ? t("table.hand.your_turn") : t("table.hand.label"));
  }

  // Nothing may be played (the match stopped, or another is loading): the cards stay, none lit, a press let go.
  inert() {
    this.#drop();
    this.#playable = null;
    for (const node of this.cards) {
      node.classList.remove("playable", "forbidden", "lifted");
      node.removeAttribute("aria-disabled");
      node.removeAttribute("aria-description");
    }
    this.#root.classList.remove("my-turn");
    this.#root.setAttribute("aria-label", t("table.hand.label"));
  }

  #cardAt(event) { return event.target.closest?.(".card"); }

  #down(event) {
    if (event.button !== 0 || this.#press) return;
    const node = this.#cardAt(event);
    if (!node) return;
    event.preventDefault();
    const card = node.dataset.card;
    if (this.#playable === null) return;
    if (!this.#playable.has(card)) {
      this.#refuse(node);
      return;
    }
    node.setPointerCapture(event.pointerId);
    node.classList.add("lifted");
    this.#press = { node, card, id: event.pointerId, x: event.clientX, y: event.clientY };
  }

  // A forbidden card shakes; what is said about it is the table's choice (the coach's setting).
  #refuse(node) {
    node.classList.remove("refused");
    void node.offsetWidth; // restart the shake
    node.classList.add("refused");
    this.#onRefused(node.dataset.card, this.#reasons[node.dataset.card] ?? null);
  }

  #move(event) {
    const press = this.#press;
    if (!press || event.pointerId !== press.id) return;
    const dx = event.clientX - press.x;
    const dy = event.clientY - press.y;
    if (Math.hypot(dx, dy) > SLIDE_CANCEL_PX) {
      this.#drop();
      return;
    }
    press.node.classList.add("sliding");
    press.node.style.translate = `${dx}px ${dy}px`;
  }

  #up(event) {
    const press = this.#press;
    if (!press || event.pointerId !== press.id) return;
    this.#press = null;
    press.node.classList.remove("sliding");
    press.node.style.translate = "";
    this.#play(press.node);
  }

  // The slide went too far (or the pointer was lost): the card drops back into the hand.
  #drop() {
    const press = this.#press;
    if (!press) return;
    this.#press = null;
    press.node.classList.remove("lifted", "sliding");
    press.node.style.translate = "";
    if (press.node.hasPointerCapture?.(press.id)) press.node.releasePointerCapture(press.id);
  }

  #play(node) {
    if (this.#playable === null) return;
    this.#playable = null; // one card per turn
    this.#root.classList.remove("my-turn");
    this.#root.setAttribute("aria-label", t("table.hand.label")); // the turn has passed
    this.#onPlay(node.dataset.card, node);
  }

  #key(event) {
    const node = this.#cardAt(event);
    if (!node) return;
    const nodes = this.cards;
    const i = nodes.indexOf(node);
    let next = null;
    if (event.key === "ArrowLeft" || event.key === "ArrowUp") next = nodes[(i - 1 + nodes.length) % nodes.length];
    else if (event.key === "ArrowRight" || event.key === "ArrowDown") next = nodes[(i + 1) % nodes.length];
    else if (event.key === "Home") next = nodes[0];
    else if (event.key === "End") next = nodes[nodes.length - 1];
    else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      if (this.#playable === null) return;
      if (!this.#playable.has(node.dataset.card)) {
        this.#refuse(node);
        return;
      }
      node.classList.add("lifted");
      this.#play(node);
      return;
    }
    if (next) {
      event.preventDefault();
      node.tabIndex = -1;
      next.tabIndex = 0;
      next.focus();
    }
  }
}
