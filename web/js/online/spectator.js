// A friends' table watched as a spectator (referee/PROTOCOL.md, "Spectators"): what every seat sees alike, read
// only. The four seats around the table (the names, the cards each holds still, whose turn it is, with the turn
// clock's bar), the calls of the auction, the contract, the trick on the table and the scores of both sides.
// The referee never sends a spectator a hand: there is none to draw. The table's quick chat shows at the seats,
// read only (a spectator cannot say anything). online.js holds the connection (and watches again when it drops)
// and hands every `watching`, `update`, `presence` and `said` message here.
import { el } from "../dom.js";
import { applyTranslations, callName, suitName, t } from "../i18n.js";
import { buildCard } from "../table/cards.js";
import { PHRASES } from "./chat.js";
import { TurnClockBar } from "./clock.js";

const SAID_MS = 4000; // how long a phrase shows at its seat

// Places around the drawing, seat 0 at the bottom, then its right, top and left.
const GRID = [2, 3, 1, 0];

export class SpectatorView {
  #root;
  #seats; // the four <li>, by seat
  #names = [null, null, null, null];
  #people = []; // `seats` of the last message: who is a person, who a bot, who is away
  #state = null;
  #clock;
  #said = new Map(); // seat -> {phrase, timer}: what the seat said, shown a few seconds
  #status = null; // the catalogue key of the line under the title (reconnecting), or null

  constructor({ leave }) {
    this.#seats = [0, 1, 2, 3].map((seat) => el("li", { class: "watch-seat", "data-seat": String(seat) },
      el("span", "watch-who", el("strong", "watch-name")), el("span", "watch-cards"), el("span", "watch-call"),
      el("span", { class: "watch-said", hidden: "" })));
    const grid = GRID.map((seat) => this.#seats[seat]);
    this.#root = el("div", { class: "online-watch", "aria-labelledby": "watch-title" },
      el("h2", { id: "watch-title", "data-i18n": "watch.title" }),
      el("p", { id: "watch-status", class: "watch-status", role: "status", hidden: "" }),
      el("p", { id: "watch-score", class: "watch-score" }),
      el("p", { id: "watch-contract", class: "watch-contract" }),
      el("ol", { class: "watch-seats" }, ...grid),
      el("div", { id: "watch-trick", class: "watch-trick", role: "group" }),
      el("button", { type: "button", id: "btn-watch-leave", class: "btn ghost", "data-i18n": "watch.leave",
        on: { click: () => leave() } }));
    this.#clock = new TurnClockBar(this.#root, (seat) => `.watch-seat[data-seat="${seat}"] .watch-who`);
    applyTranslations(this.#root);
  }

  get root() { return this.#root; }

  // The match watched is over (its connection then closes when idle: nothing to watch again).
  get over() { return this.#state !== null && this.#state.winner !== null; }

  // `watching`: the table's names, seats and state.
  show({ names, seats, state }) {
    this.#names = names ?? this.#names;
    this.#people = seats ?? [];
    this.#clock.reset(0);
    this.update(state);
  }

  // An `update`'s state (a stale one, older than the last, is dropped).
  update(state) {
    if (!state || (this.#state && state.seq < this.#state.seq)) return;
    this.#state = state;
    this.draw();
    this.#clock.receive(state);
  }

  presence(seats) {
    this.#people = seats;
    this.draw();
  }

  stop() {
    this.#clock.stop();
    this.#state = null;
    for (const { timer } of this.#said.values()) clearTimeout(timer);
    this.#said.clear();
    this.status(null);
  }

  // A line under the title (a catalogue key, e.g. while the connection is made again), or none.
  status(key) {
    this.#status = key;
    const line = this.#root.querySelector("#watch-status");
    line.textContent = key ? t(key) : "";
    line.hidden = !key;
  }

  // `said`: a phrase of a person at the table, shown at their seat for a few seconds.
  said({ seat, phrase }) {
    if (!(phrase in PHRASES) || !this.#seats[seat]) return;
    clearTimeout(this.#said.get(seat)?.timer);
    const timer = setTimeout(() => { this.#said.delete(seat); this.#drawSaid(seat); }, SAID_MS);
    this.#said.set(seat, { phrase, timer });
    this.#drawSaid(seat);
  }

  #drawSaid(seat) {
    const line = this.#seats[seat].querySelector(".watch-said");
    const said = this.#said.get(seat);
    line.textContent = said ? t(PHRASES[said.phrase]) : "";
    line.hidden = !said;
  }

  #name(seat) {
    const person = this.#people[seat];
    if (person?.player === "bot") return person.name ? t("online.bot_for", { name: person.name }) : t("watch.bot");
    const name = this.#names[seat] || person?.name || t("friends.no_name");
    return person && person.player === "human" && !person.connected ? t("friends.away_name", { name }) : name;
  }

  // Draws the table again (a new state, or the language changed).
  draw() {
    this.status(this.#status);
    for (const seat of this.#said.keys()) this.#drawSaid(seat);
    const state = this.#state;
    if (!state) return;
    const { deal, totals } = state;
    this.#root.querySelector(".watch-seats").setAttribute("aria-label", t("friends.seats_label"));
    const lastCall = {};
    for (const [seat, call] of deal.calls ?? []) lastCall[seat] = call;
    this.#seats.forEach((node, seat) => {
      node.dataset.turn = String(deal.current_player === seat);
      node.querySelector(".watch-name").textContent = this.#name(seat);
      node.querySelector(".watch-cards").textContent = t("watch.cards", { n: deal.hand_counts?.[seat] ?? 0 });
      const call = lastCall[seat];
      node.querySelector(".watch-call").textContent = deal.phase === "auction" && call ? callName(call) : "";
    });
    const side = (s) => t("watch.side", { a: this.#name(s), b: this.#name(s + 2), points: totals[s] });
    this.#root.querySelector("#watch-score").textContent = `${side(0)} · ${side(1)}`;
    const c = deal.contract ?? deal.standing;
    const contract = c && (c.value ? callName(`${c.value === 250 ? "capot" : c.value}${c.trump}`) : suitName(c.trump));
    this.#root.querySelector("#watch-contract").textContent = c
      ? t("watch.contract", { contract, name: this.#name(c.declarer) }) : t("watch.auction");
    const trick = this.#root.querySelector("#watch-trick");
    trick.setAttribute("aria-label", t("watch.trick"));
    trick.replaceChildren(...(deal.trick ?? []).map((card) => buildCard(card)));
  }
}
