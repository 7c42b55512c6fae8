// The table's DOM: four seats (you at the bottom, your partner opposite), the trick in the middle, the
// scores, the contract, call bubbles, toasts, and the card animations (transform transitions, FLIP).
import { el } from "../dom.js";
import { bidValueName, callName, t } from "../i18n.js";
import { formatCall, parseCall } from "../notation.js";
import { buildBack, buildCard, suitIcon } from "./cards.js";

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Resolves when node's transform transition ends (or after ms, whichever comes first).
function transitionDone(node, ms) {
  return new Promise((resolve) => {
    const done = () => { clearTimeout(timer); node.removeEventListener("transitionend", done); resolve(); };
    const timer = setTimeout(done, ms + 60);
    node.addEventListener("transitionend", done);
  });
}

// "Coinche ×2" / "Surcoinche ×4" (the word hidden on narrow screens, the factor always shown).
function multiplierMark(multiplier) {
  const mark = el("span", "contract-x");
  const word = callName(multiplier === 2 ? "coinche" : "surcoinche");
  mark.title = word;
  mark.append(el("span", "contract-x-word", word), document.createTextNode(` ×${multiplier}`));
  return mark;
}

// Who bid: a long player's name is cut short on narrow screens, whole in its title.
function declarer(name) {
  const node = el("span", "contract-by", name);
  node.title = name;
  return node;
}

// The seats as one player sees them: `me` at the bottom, where each seat sits (pos), its name and its side's.
// The replay and the review need no more of a table (a deal of the player's history: js/main.js).
export class Seats {
  constructor(me = 0) {
    this.me = me;
    this.names = {}; // seat -> a player's own name (online), instead of the seat's place
  }

  pos(seat) { return (seat - this.me + 4) % 4; }
  seatName(seat) { return this.names[seat] ?? t(`table.seat.${this.pos(seat)}`); }
  sideName(side) { return t(side === (this.me & 1) ? "table.side.us" : "table.side.them"); }
}

export class TableView extends Seats {
  constructor(root, me = 0) {
    super(me);
    this.root = root;
    this.seats = [0, 1, 2, 3].map((pos) => {
      const seat = root.querySelector(`.seat[data-pos="${pos}"]`);
      return {
        root: seat,
        name: seat.querySelector(".seat-name"),
        dealer: seat.querySelector(".dealer-chip"),
        bubble: seat.querySelector(".bubble"),
        backs: seat.querySelector(".backs"),
      };
    });
    this.slots = [0, 1, 2, 3].map((pos) => root.querySelector(`.trick .slot[data-pos="${pos}"]`));
    this.trick = root.querySelector(".trick");
    this.turned = root.querySelector(".turned");
    this.scoreUs = root.querySelector("#score-us");
    this.scoreThem = root.querySelector("#score-them");
    this.target = root.querySelector("#score-target");
    this.contract = root.querySelector("#contract");
    this.toasts = document.querySelector("#toasts");
  }

  // ------------------------------------------------------------ seats, scores, contract
  renderSeats(deal) {
    for (let seat = 0; seat < 4; seat++) {
      const view = this.seats[this.pos(seat)];
      view.name.textContent = this.seatName(seat);
      view.dealer.hidden = deal.dealer !== seat;
      view.root.classList.toggle("to-play", deal.current_player === seat);
      view.root.classList.toggle("declarer", deal.contract?.declarer === seat);
      if (view.backs) this.#renderBacks(view.backs, deal.hand_counts[seat]);
    }
  }

  #renderBacks(container, count) {
    if (container.childElementCount === count) return;
    const backs = [];
    for (let i = 0; i < count; i++) {
      const back = buildBack();
      back.style.setProperty("--i", String(i));
      backs.push(back);
    }
    container.replaceChildren(...backs);
    container.style.setProperty("--count", String(count));
  }

  renderScores(totals, target) {
    const us = this.me & 1;
    this.#setNumber(this.scoreUs, totals[us]);
    this.#setNumber(this.scoreThem, totals[1 - us]);
    this.target.textContent = t("table.score.target", { target });
  }

  #setNumber(node, value) {
    const text = String(value);
    if (node.textContent === text) return;
    node.textContent = text;
    node.classList.remove("bump");
    void node.offsetWidth;
    node.classList.add("bump");
  }

  // The contract once the auction is over; during it, the contract standing so far (the engine's
  // deal.standing: the highest bid, outlined, labelled "Auction"). Coinche ×2 and surcoinche ×4 show as
  // soon as they are called.
  renderContract(deal) {
    const box = this.contract;
    box.replaceChildren();
    const c = deal.contract;
    box.classList.toggle("empty", !c);
    box.dataset.kind = c ? "contract" : "auction";
    if (!c) {
      const label = el("span", "contract-label", t("table.contract.auction"));
      box.append(label);
      const standing = deal.standing;
      let aria = t("table.contract.auction");
      if (standing) {
        const { declarer: seat, value: bid, trump, multiplier } = standing;
        const value = el("span", "contract-value", bidValueName(bid));
        value.append(suitIcon(trump));
        box.append(value, declarer(this.seatName(seat)));
        if (multiplier > 1) box.append(multiplierMark(multiplier));
        aria = t("table.contract.auction_aria", { call: formatCall({ kind: "bid", value: bid, suit: trump }), seat: this.seatName(seat) });
        if (multiplier > 1) aria += ` · ${callName(multiplier === 2 ? "coinche" : "surcoinche")}`;
      }
      box.setAttribute("aria-label", aria);
      return;
    }
    const value = deal.variant === "classic" ? t("table.contract.taken") : bidValueName(c.value);
    const main = el("span", "contract-value");
    main.append(document.createTextNode(value), suitIcon(c.trump));
    box.append(el("span", "contract-label", t("table.contract.label")), main, declarer(this.seatName(c.declarer)));
    if (c.multiplier > 1) box.append(multiplierMark(c.multiplier));
    box.setAttribute("aria-label", t("table.contract.aria", {
      value, suit: c.trump, seat: this.seatName(c.declarer), multiplier: c.multiplier,
    }));
  }

  // The latest call of every seat during the auction, as bubbles by the seats.
  renderCalls(deal) {
    const last = new Map();
    if (deal.phase === "auction") for (const [seat, call] of deal.calls) last.set(seat, call);
    for (let seat = 0; seat < 4; seat++) {
      const call = last.get(seat);
      const bubble = this.seats[this.pos(seat)].bubble;
      if (call) this.#fillBubble(bubble, call);
      else if (!bubble.classList.contains("announce")) bubble.hidden = true;
    }
  }

  #fillBubble(bubble, call) {
    bubble.replaceChildren();
    bubble.classList.remove("announce");
    bubble.classList.toggle("pass", call === "pass");
    bubble.classList.toggle("strong", call === "coinche" || call === "surcoinche");
    const { kind, value, suit } = parseCall(call) ?? {};
    if (suit) {
      bubble.append(document.createTextNode(kind === "take" ? t("table.bubble.take") : bidValueName(value)), suitIcon(suit));
    } else {
      bubble.textContent = callName(call);
    }
    bubble.setAttribute("aria-label", callName(call));
    bubble.hidden = false;
    bubble.classList.remove("pop");
    void bubble.offsetWidth;
    bubble.classList.add("pop");
  }

  // "Belote!" by a seat, for a moment.
  async announce(seat, text, ms) {
    const bubble = this.seats[this.pos(seat)].bubble;
    bubble.replaceChildren();
    bubble.textContent = text;
    bubble.className = "bubble announce pop";
    bubble.hidden = false;
    setTimeout(() => {
      if (bubble.textContent === text) { bubble.hidden = true; bubble.className = "bubble"; }
    }, Math.max(ms * 2, 1200));
  }

  clearBubbles() {
    for (const seat of this.seats) { seat.bubble.hidden = true; seat.bubble.className = "bubble"; }
  }

  renderTurned(card) {
    const current = this.turned.firstElementChild?.dataset.card ?? null;
    if (current === card) return;
    this.turned.replaceChildren();
    this.turned.hidden = !card;
    if (card) this.turned.append(buildCard(card));
  }

  // ------------------------------------------------------------ the trick
  trickCards() {
    return this.slots.map((slot) => slot.firstElementChild?.dataset.card ?? null);
  }

  renderTrick(cards, leader) {
    const want = [null, null, null, null];
    cards.forEach((card, i) => { want[this.pos((leader + i) % 4)] = card; });
    this.slots.forEach((slot, pos) => {
      const have = slot.firstElementChild?.dataset.card ?? null;
      if (have === want[pos]) return;
      slot.replaceChildren();
      if (want[pos]) slot.append(buildCard(want[pos]));
    });
    this.slots.forEach((slot, pos) => slot.classList.toggle("winning", false));
  }

  // A card travels from `from` (an element: the hand's card, a seat's backs) into its seat's slot.
  async playCard(seat, card, from, ms) {
    const slot = this.slots[this.pos(seat)];
    if (slot.firstElementChild?.dataset.card === card) return;
    const node = buildCard(card);
    slot.replaceChildren(node);
    const origin = (from ?? this.seats[this.pos(seat)].root).getBoundingClientRect();
    const end = node.getBoundingClientRect();
    if (!ms || !end.width) return;
    const dx = origin.left + origin.width / 2 - (end.left + end.width / 2);
    const dy = origin.top + origin.height / 2 - (end.top + end.height / 2);
    const scale = from ? Math.max(origin.width / end.width, 0.4) : 0.5;
    node.style.transition = "none";
    node.style.transform = `translate(${dx}px, ${dy}px) scale(${scale}) rotate(${this.pos(seat) % 2 ? 90 : 0}deg)`;
    node.style.opacity = from ? "1" : "0.4";
    void node.offsetWidth;
    node.style.transition = `transform ${ms}ms cubic-bezier(.2,.7,.3,1), opacity ${ms}ms`;
    node.style.transform = "";
    node.style.opacity = "";
    await transitionDone(node, ms);
    node.style.transition = "";
  }

  // The four cards, held a moment with the winner's card raised, slide to the winner.
  async gather(winner, holdMs, ms) {
    const winPos = this.pos(winner);
    const winnerCard = this.slots[winPos].firstElementChild;
    winnerCard?.classList.add("winner");
    await sleep(holdMs);
    const seatRect = this.seats[winPos].root.getBoundingClientRect();
    const nodes = this.slots.map((s) => s.firstElementChild).filter(Boolean);
    if (ms) {
      for (const node of nodes) {
        const r = node.getBoundingClientRect();
        const dx = seatRect.left + seatRect.width / 2 - (r.left + r.width / 2);
        const dy = seatRect.top + seatRect.height / 2 - (r.top + r.height / 2);
        node.style.transition = `transform ${ms}ms ease-in, opacity ${ms}ms ease-in`;
        node.style.transform = `translate(${dx}px, ${dy}px) scale(.45)`;
        node.style.opacity = "0";
      }
      await transitionDone(nodes[0], ms);
    }
    for (const slot of this.slots) slot.replaceChildren();
  }

  // ------------------------------------------------------------ toasts
  // said: the table's live region says it (js/table/speech.js): the toast is only seen.
  toast(text, { kind = "info", ms = 2200, said = false } = {}) {
    const node = el("div", `toast ${kind}`, text);
    if (said) node.setAttribute("aria-hidden", "true");
    else node.setAttribute("role", kind === "error" ? "alert" : "status");
    this.toasts.append(node);
    setTimeout(() => node.classList.add("leaving"), ms);
    setTimeout(() => node.remove(), ms + 400);
    // One line above the felt: the newest toast replaces the one before (the page's own notices stay).
    for (const old of [...this.toasts.querySelectorAll(".toast:not(.notice)")].slice(0, -1)) old.remove();
    return node;
  }
}
