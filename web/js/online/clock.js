// The turn clock of an online table (referee/PROTOCOL.md, "The turn clock"): a bar along the name of the seat
// whose decision is timed, emptying until its deadline, urgent in its last seconds; a timer for assistive
// technology that says the seconds left. The referee sends `state.clock` ({seat, left, total}, or null) with
// every state: the bar counts down from the page's own receipt of it, whatever the two clocks say. A state
// older than the newest one seen (a lower seq) is stale: its clock changes nothing.
import { el } from "../dom.js";
import { t } from "../i18n.js";

const TICK_MS = 250;
const URGENT_S = 5; // the bar turns urgent this many seconds before the deadline

export class TurnClockBar {
  #table;
  #me = 0;
  #seq = -1; // the newest state's seq
  #clock = null; // {seat, left, total} of the newest state
  #deadline = 0; // performance.now() at the deadline
  #timer = null;
  #node;
  #fill;

  #place; // (pos) => the selector of the element that holds the bar for the seat at that place

  constructor(table = document.querySelector("#table"), place = (pos) => `.seat[data-pos="${pos}"] .player`) {
    this.#table = table;
    this.#place = place;
    this.#fill = el("span", { class: "turn-clock-fill" });
    this.#node = el("span", { class: "turn-clock", role: "timer" }, el("span", { class: "turn-clock-bar" }, this.#fill));
  }

  // A new match (or a reconnection): `me` is the player's seat, and any state is newer than none.
  reset(me) {
    this.stop();
    this.#me = me;
  }

  // A state from the referee; false when it is stale (and ignored).
  receive(state) {
    if (!state || state.seq < this.#seq) return false;
    this.#seq = state.seq;
    this.#clock = state.clock ?? null;
    if (!this.#clock) {
      this.#hide();
      return true;
    }
    this.#deadline = performance.now() + this.#clock.left * 1000;
    const pos = (this.#clock.seat - this.#me + 4) % 4;
    const player = this.#table?.querySelector(this.#place(pos));
    if (player && this.#node.parentNode !== player) player.append(this.#node);
    this.#node.dataset.pos = String(pos);
    this.#draw();
    clearInterval(this.#timer);
    this.#timer = setInterval(() => this.#draw(), TICK_MS);
    return true;
  }

  // The seconds left of the decision timed (null: none), for tests and the page.
  get left() {
    return this.#clock ? Math.max(0, (this.#deadline - performance.now()) / 1000) : null;
  }

  stop() {
    this.#seq = -1;
    this.#clock = null;
    this.#hide();
  }

  #hide() {
    clearInterval(this.#timer);
    this.#timer = null;
    this.#node.remove();
  }

  #draw() {
    const left = this.left;
    if (left === null) return;
    const total = Math.max(this.#clock.total, 0.1);
    this.#fill.style.transform = `scaleX(${Math.min(1, left / total).toFixed(3)})`;
    const seconds = Math.ceil(left);
    this.#node.dataset.urgent = String(left <= URGENT_S);
    const label = t("clock.left", { n: seconds });
    if (this.#node.getAttribute("aria-label") !== label) {
      this.#node.setAttribute("aria-label", label);
      this.#node.title = label;
    }
    if (left <= 0) {
      clearInterval(this.#timer);
      this.#timer = null;
    }
  }
}
