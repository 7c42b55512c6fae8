// What the table says aloud: a polite live region (role="log", visually hidden) that a screen reader reads as
// the deal goes (every call and card as it happens, who won each trick and its points, the contract, belote and
// the announcements, the deal's result), and the keys that say it again on demand (KEYS: the trick on the table,
// the scores, the contract; "?" opens the keys' help). The words are the catalogue's (access.say.*): the page
// decides nothing, it reads the engine's events and state.
import { el } from "../dom.js";
import { bidValueName, t } from "../i18n.js";

// At most this many lines are kept in the log (a deal says about sixty); the oldest go first.
const KEPT = 200;

// The keys of the table (docs/site.md; the help dialog #dlg-keys lists them): key -> what it says.
export const KEYS = { t: "trick", s: "scores", c: "contract", "?": "help" };

export class TableSpeech {
  #log;

  constructor(log) {
    this.#log = log;
  }

  // One line said; the same words twice in a row are two lines (two tricks won alike).
  say(text) {
    if (!text) return;
    this.#log.append(el("p", { text }));
    while (this.#log.childElementCount > KEPT) this.#log.firstElementChild.remove();
  }

  get lines() { return [...this.#log.children].map((line) => line.textContent); }
}

const me = (view, seat) => (seat === view.me ? "yes" : "no");

export function callSaid(view, seat, call) {
  return t("access.say.call", { seat: view.seatName(seat), call });
}

export function cardSaid(view, seat, card) {
  return t("access.say.card", { seat: view.seatName(seat), me: me(view, seat), card });
}

export function trickSaid(view, trick) {
  return t("access.say.trick", { seat: view.seatName(trick.winner), me: me(view, trick.winner), points: trick.points ?? 0 });
}

// The contract (or, during the auction, none yet), with its coinche or surcoinche.
export function contractSaid(view, contract, variant) {
  if (!contract) return t("access.say.no_contract");
  return t("access.say.contract", {
    classic: variant === "classic" ? "yes" : "no",
    value: bidValueName(contract.value),
    trump: contract.trump,
    seat: view.seatName(contract.declarer),
    x: String(contract.multiplier ?? 1),
  });
}

// The cards on the table in the order played, and whose turn it is.
export function trickOnTable(view, deal) {
  const played = (deal.trick ?? []).map((card, i) => t("access.say.played", { seat: view.seatName((deal.leader + i) % 4), card }));
  const turn = deal.current_player >= 0 ? t("access.say.turn", { seat: view.seatName(deal.current_player), me: me(view, deal.current_player) }) : "";
  return [played.length ? played.join(" ") : t("access.say.empty_trick"), turn].filter(Boolean).join(" ");
}

export function scoresSaid(view, totals, target) {
  const us = view.me & 1;
  return t("access.say.scores", { us: totals[us], them: totals[1 - us], target });
}

// The deal's end: the summary's own headline (made or down, for whom) and each side's score.
export function dealSaid(view, record, headline) {
  const us = view.me & 1;
  if (record.result.void) return t("summary.void");
  return t("access.say.deal_end", { headline, us: record.result.scores[us], them: record.result.scores[1 - us] });
}
