// Quick chat at an online table (referee/PROTOCOL.md, "Quick chat"): a Chat button on the felt opens the phrases
// and emotes, each sent as its id; what anyone says shows for a few seconds in a bubble at their seat, in the
// reader's own language (and in a log for assistive technology), unless the reader muted that seat. Muting is
// this page's alone: nothing is sent. No free text: nothing to moderate, nothing that could name a card.
import { el } from "../dom.js";
import { applyTranslations, t } from "../i18n.js";

// The phrase ids the referee knows (coinche_referee.chat.PHRASES), with their catalogue keys, in that order.
export const PHRASES = {
  hello: "chat.phrase.hello",
  good_luck: "chat.phrase.good_luck",
  well_played: "chat.phrase.well_played",
  thanks: "chat.phrase.thanks",
  sorry: "chat.phrase.sorry",
  hurry: "chat.phrase.hurry",
  oops: "chat.phrase.oops",
  bye: "chat.phrase.bye",
  smile: "chat.phrase.smile",
  wow: "chat.phrase.wow",
  think: "chat.phrase.think",
};
const SHOWN_MS = 4000;

export class QuickChat {
  #root;
  #panel;
  #toggle;
  #mutes;
  #log;
  #send; // (phrase) => Promise: the referee's answer
  #others; // () => [{seat, name}]: the other people at the table
  #place; // (seat) => the seat's place on this table (0: the reader, at the bottom)
  #muted = new Set();
  #timers = new Map(); // seat -> the timer that hides its bubble

  constructor({ send, others, place }) {
    this.#send = send;
    this.#others = others;
    this.#place = place;
    this.#toggle = el("button", { type: "button", id: "btn-chat", class: "btn small chat-toggle", "aria-expanded": "false",
      "aria-controls": "chat-panel", "data-i18n": "chat.open", on: { click: () => this.#open(this.#panel.hidden) } });
    this.#mutes = el("div", { class: "chat-mutes", role: "group", "aria-labelledby": "chat-mutes-title" });
    this.#panel = el("div", { id: "chat-panel", class: "chat-panel", hidden: "" },
      el("div", { class: "chat-phrases", role: "group", "aria-label": "" },
        ...Object.entries(PHRASES).map(([id, key]) => el("button", {
          type: "button", class: "btn small chat-phrase", "data-phrase": id, "data-i18n": key,
          on: { click: () => this.#say(id) } }))),
      el("p", { id: "chat-mutes-title", class: "chat-mutes-title", "data-i18n": "chat.mute_title" }),
      this.#mutes,
      el("p", { id: "chat-status", class: "chat-status", role: "status" }));
    this.#log = el("p", { class: "visually-hidden", role: "log", "aria-live": "polite" });
    this.#root = el("div", { class: "chat-strip", hidden: "" }, this.#toggle, this.#panel, this.#log);
    applyTranslations(this.#root);
  }

  get root() { return this.#root; }

  // At a table of the referee's: the button shows; elsewhere (solo play) nothing does.
  show(on) {
    this.#root.hidden = !on;
    if (!on) {
      this.#open(false);
      for (const timer of this.#timers.values()) clearTimeout(timer);
      this.#timers.clear();
      document.querySelectorAll(".chat-bubble").forEach((node) => node.remove());
    }
  }

  #open(open) {
    this.#panel.hidden = !open;
    this.#toggle.setAttribute("aria-expanded", String(open));
    if (open) {
      this.#panel.querySelector(".chat-phrases").setAttribute("aria-label", t("chat.phrases"));
      this.#drawMutes();
      this.#panel.querySelector("#chat-status").textContent = "";
    }
  }

  #drawMutes() {
    const others = this.#others();
    this.#mutes.replaceChildren(...others.map(({ seat, name }) => {
      const muted = this.#muted.has(seat);
      const button = el("button", { type: "button", class: "btn small ghost chat-mute", "data-seat": String(seat),
        "aria-pressed": String(muted) }, t("chat.mute", { name }));
      button.addEventListener("click", () => {
        if (this.#muted.has(seat)) this.#muted.delete(seat);
        else this.#muted.add(seat);
        this.#drawMutes();
      });
      return button;
    }));
    this.#panel.querySelector(".chat-mutes-title").hidden = others.length === 0;
  }

  async #say(phrase) {
    try {
      await this.#send(phrase);
      this.#open(false);
      this.#toggle.focus();
    } catch (error) {
      const key = error?.code === "chat_limited" ? "chat.limited" : "chat.failed";
      this.#panel.querySelector("#chat-status").textContent = t(key, { seconds: error?.params?.retry_after ?? 3 });
    }
  }

  // A `said` message: shown at the speaker's seat unless muted; false when muted or not a phrase.
  heard({ seat, phrase }, name) {
    const key = PHRASES[phrase];
    if (!key || this.#muted.has(seat)) return false;
    const text = t(key);
    this.#log.textContent = t("chat.said", { name, text });
    const holder = document.querySelector(`#table .seat[data-pos="${this.#place(seat)}"]`);
    if (!holder) return true;
    let bubble = holder.querySelector(".chat-bubble");
    if (!bubble) {
      bubble = el("div", { class: "bubble chat-bubble", "aria-hidden": "true" });
      holder.append(bubble);
    }
    bubble.textContent = text;
    bubble.hidden = false;
    clearTimeout(this.#timers.get(seat));
    this.#timers.set(seat, setTimeout(() => { bubble.hidden = true; }, SHOWN_MS));
    return true;
  }
}
