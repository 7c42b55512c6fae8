// The Expert's review of a finished deal: each of the player's calls and cards (or every seat's) priced with
// what that seat knew at the time, the Expert's choice beside it, a mark when the choice lost many points.
//
// The engine computes everything (coinche.review): the page runs the review as a sequence of small commands
// on the engine's usual channel, `review_plan` once, `review_decision` per decision not reviewed already (for
// other seats), `review_summary` at the end, so the page shows the progress, can stop between two decisions,
// and the bots' commands interleave. On a device with more than one core a second engine worker
// (review-helper.js) takes decisions too: each engine asks for the next one when it is free.
// Closing the dialog does not stop a review: it goes on while the player plays, and reopening it shows where
// it is. A finished review is kept in localStorage under the engine's key for the deal, so reopening it
// computes nothing.
import { el } from "../dom.js";
import { keepReview } from "../history.js";
import { callName, cardName, t } from "../i18n.js";
import { borrowHelper, giveUp, returnHelper } from "./review-helper.js";

const STORE_KEY = "coinche.reviews";
const KEEP = 12; // the reviews kept, newest first
const LUCK = { unlucky: "dd.luck.unlucky", lucky: "dd.luck.lucky" };
const LUCK_WHY = { unlucky: "dd.luck.unlucky_why", lucky: "dd.luck.lucky_why" };
const LUCK_WHY_CALL = { unlucky: "dd.luck.unlucky_why_call", lucky: "dd.luck.lucky_why_call" };
const MARK_KEYS = { inaccuracy: "review.mark.inaccuracy", mistake: "review.mark.mistake", blunder: "review.mark.blunder" };
const REASON_KEYS = {
  trumped_partner: "review.reason.trumped_partner",
  kept_master: "review.reason.kept_master",
  wasted_master: "review.reason.wasted_master",
  gave_points: "review.reason.gave_points",
  belote_kept: "review.reason.belote_kept",
  missed_load: "review.reason.missed_load",
};

const button = (label, onClick, className) => Object.assign(el("button", className, label), { type: "button", onclick: onClick });

// ------------------------------------------------------------------ kept reviews
function storedReviews() {
  try {
    const list = JSON.parse(localStorage.getItem(STORE_KEY) ?? "[]");
    return Array.isArray(list) ? list.filter((entry) => entry && typeof entry.id === "string") : [];
  } catch {
    return []; // unreadable or blocked storage: nothing kept
  }
}

function storedReview(id) {
  return storedReviews().find((entry) => entry.id === id)?.review ?? null;
}

function storeReview(id, review) {
  const list = [{ id, review }, ...storedReviews().filter((entry) => entry.id !== id)].slice(0, KEEP);
  try {
    localStorage.setItem(STORE_KEY, JSON.stringify(list));
  } catch { /* full or blocked: the review stays for this visit only */ }
}

// ------------------------------------------------------------------ a review being computed
// The decisions reviewed so far, by the engine's key for the deal: index -> the engine's review of it. A
// decision's review is the same whichever seats are reviewed, so "every seat" after the player's own computes
// only the other seats' decisions, and a kept review of this deal serves the others too.
const reviewed = new Map();

function reviewedFor(key) {
  let known = reviewed.get(key);
  if (!known) {
    known = new Map();
    for (const entry of storedReviews()) {
      if (!entry.id.startsWith(`${key}:`) || !Array.isArray(entry.review?.decisions)) continue;
      for (const item of entry.review.decisions) if (Number.isInteger(item?.index)) known.set(item.index, item);
    }
    reviewed.set(key, known);
  }
  return known;
}

// One per deal and set of seats, for this visit: {plan, items, summary, status, error}; `status` is
// "running", "stopped", "done" or "failed". Listeners hear every change.
const jobs = new Map();

class ReviewJob {
  constructor(engine, record, seats) {
    this.engine = engine;
    this.record = record;
    this.seats = seats;
    this.plan = null;
    this.items = [];
    this.summary = null;
    this.status = "running";
    this.error = null;
    this.runs = 0;
    this.listeners = new Set();
  }

  get id() { return this.plan ? `${this.plan.key}:${this.seats.join("")}` : null; }
  get total() { return this.plan?.decisions.length ?? 0; }

  #emit() { for (const listener of this.listeners) listener(this); }

  // Compute what is missing. A stop, or a newer run, makes this one drop what it receives and end.
  async run() {
    const run = ++this.runs;
    const current = () => run === this.runs && this.status === "running";
    this.status = "running";
    this.error = null;
    this.#emit();
    try {
      if (!this.plan) {
        this.plan = await this.engine.call("review_plan", { record: this.record, seats: this.seats });
        if (!current()) {
          this.#emit(); // stopped meanwhile: still say how many decisions there are
          return;
        }
        const kept = storedReview(this.id);
        if (kept) {
          Object.assign(this, { items: kept.decisions, summary: kept.summary, status: "done" });
          this.#emit();
          return;
        }
      }
      const known = reviewedFor(this.plan.key);
      const queue = this.plan.decisions.map(({ index }) => index).filter((index) => !known.has(index));
      this.#gather(known);
      if (queue.length) await this.#compute(queue, known, current);
      if (!current()) return;
      const summary = await this.engine.call("review_summary", { decisions: this.items });
      if (!current()) return;
      this.summary = summary;
      this.status = "done";
      storeReview(this.id, { decisions: this.items, summary: this.summary });
      keepReview(this.record, { decisions: this.items, summary: this.summary }); // the player's history
    } catch (error) {
      if (!current()) return;
      console.warn("review:", error);
      this.status = "failed";
      this.error = error;
    }
    this.#emit();
  }

  // The decisions of `queue` (action indices) asked of the table's engine and, once it is ready, of the
  // helper's: each engine takes the next one when it is free. A decision the helper does not answer goes back
  // to the queue, for the table's engine; an error of the table's engine fails the review.
  async #compute(queue, known, current) {
    const keep = (index, item) => {
      known.set(index, item); // kept even if the review was stopped meanwhile: a resume needs it no more
      if (!current()) return;
      this.#gather(known);
      this.#emit();
    };
    let inHand = null; // the helper's last decision: true once kept, false once back in the queue
    const helper = queue.length > 1 ? borrowHelper() : null;
    helper?.then(async (engine) => {
      while (engine && queue.length && current()) {
        const index = queue.shift();
        inHand = engine.call("review_decision", { record: this.record, index }).then(
          (item) => {
            keep(index, item);
            return true;
          },
          (error) => {
            queue.unshift(index);
            console.warn("review helper:", error);
            giveUp(engine);
            return false;
          });
        if (!await inHand) return; // the table's engine goes on alone
      }
    }).finally(returnHelper);
    do {
      while (queue.length && current()) {
        const index = queue.shift();
        const item = await this.engine.call("review_decision", { record: this.record, index });
        keep(index, item);
      }
      await inHand;
    } while (queue.length && current());
  }

  // The decisions reviewed so far, in the plan's order (the two engines may answer out of it).
  #gather(known) {
    this.items = this.plan.decisions.filter(({ index }) => known.has(index)).map(({ index }) => known.get(index));
  }

  stop() {
    if (this.status !== "running") return;
    this.runs += 1; // the decision in hand is dropped: a stopped review shows nothing more
    this.status = "stopped";
    this.#emit();
  }
}

// A review kept elsewhere (the player's history, js/history.js) for the seats of `record` it covers: kept as
// if made in this browser, so that opening it computes only what it lacks. Resolves once kept (or not).
export async function rememberReview(engine, record, seats, review) {
  if (!review?.decisions?.length) return;
  try {
    const plan = await engine.call("review_plan", { record, seats });
    const known = reviewedFor(plan.key);
    for (const item of review.decisions) if (Number.isInteger(item?.index)) known.set(item.index, item);
  } catch (error) {
    console.warn("review:", error); // a record the engine refuses: its review is made anew, or refused there
  }
}

// For the bench: every review of this visit forgotten, the kept ones too (the next one is computed afresh).
export function forgetReviews() {
  for (const job of jobs.values()) job.stop();
  jobs.clear();
  reviewed.clear();
  try {
    localStorage.removeItem(STORE_KEY);
  } catch { /* blocked storage: nothing was kept */ }
}

// The review of `seats` of the deal `record`, as the dialog shows it: started unless this visit has it already.
export function jobFor(engine, record, seats) {
  const id = JSON.stringify([record.variant, record.dealer, record.deck, record.calls, record.plays, seats]);
  let job = jobs.get(id);
  if (!job) {
    job = new ReviewJob(engine, record, seats);
    jobs.set(id, job);
    job.run();
  }
  return job;
}

// ------------------------------------------------------------------ the dialog
// The "Review this deal" button (under the deal summary, in the replay and the previous deals).
// onShow(index), when given, shows the deal at a decision (the replay's step after action `index`).
export function reviewButton(record, { engine, view, onShow = null }) {
  return button(t("review.open"), () => openReview(record, { engine, view, onShow }), "btn review-open");
}

export function openReview(record, { engine, view, onShow = null }) {
  let dialog = document.getElementById("dlg-review");
  if (!dialog) {
    dialog = el("dialog", "dialog review");
    dialog.id = "dlg-review";
    dialog.setAttribute("aria-labelledby", "dlg-review-title");
    const title = el("h2", "dialog-title");
    title.id = "dlg-review-title";
    dialog.append(title, el("div", "dialog-body"), el("div", "dialog-actions"));
    document.body.append(dialog);
  }
  if (dialog.open) return dialog;
  new ReviewDialog(dialog, record, { engine, view, onShow }).show();
  return dialog;
}

class ReviewDialog {
  constructor(dialog, record, { engine, view, onShow }) {
    Object.assign(this, { dialog, record, engine, view, onShow });
    this.job = null;
    this.listen = () => this.#draw();
  }

  show() {
    const { dialog, view } = this;
    dialog.querySelector(".dialog-title").textContent = t("review.title");
    this.thresholds = el("p", "review-thresholds");
    const scope = el("label", "review-scope");
    this.every = el("input");
    this.every.type = "checkbox";
    this.every.addEventListener("change", () => this.#attach());
    scope.append(this.every, document.createTextNode(` ${t("review.every_seat")}`));
    this.progress = el("progress", "review-progress");
    this.progress.setAttribute("aria-label", t("review.progress"));
    this.status = el("p", "review-status");
    this.status.setAttribute("role", "status");
    this.stop = button(t("review.stop"), () => this.job?.stop(), "btn review-stop");
    this.resume = button(t("review.resume"), () => this.job?.run(), "btn review-resume");
    const progressRow = el("div", "review-progress-row");
    progressRow.append(this.progress, this.stop, this.resume);
    this.summary = el("p", "review-summary");
    this.summary.setAttribute("role", "status"); // in the tree from the start, so that the result is read out
    this.list = el("ol", "review-list");
    this.list.setAttribute("aria-label", t("review.decisions"));
    dialog.querySelector(".dialog-body").replaceChildren(this.thresholds, scope, progressRow, this.status, this.summary, this.list);
    const close = button(t("table.close"), () => dialog.close("close"), "btn primary review-close");
    dialog.querySelector(".dialog-actions").replaceChildren(close);
    dialog.addEventListener("close", () => this.job?.listeners.delete(this.listen), { once: true });
    this.seat = view.me;
    this.#attach();
    dialog.showModal();
    close.focus();
  }

  // Follow the review of the chosen seats (started if it is not already running or done).
  #attach() {
    this.job?.listeners.delete(this.listen);
    const seats = this.every.checked ? [0, 1, 2, 3] : [this.seat];
    this.job = jobFor(this.engine, this.record, seats);
    this.job.listeners.add(this.listen);
    this.#draw();
  }

  #draw() {
    const { job, dialog } = this;
    dialog.dataset.status = job.status;
    const marks = job.plan?.thresholds;
    this.thresholds.textContent = marks ? t("review.thresholds", marks) : "";
    const done = job.items.length;
    this.progress.max = Math.max(1, job.total);
    this.progress.value = job.status === "done" ? this.progress.max : done;
    this.progress.hidden = job.status === "done";
    this.stop.hidden = job.status !== "running";
    this.resume.hidden = !(job.status === "stopped" || job.status === "failed");
    this.status.textContent = {
      running: job.plan ? t("review.running", { n: done, total: job.total }) : t("review.starting"),
      stopped: t("review.stopped", { n: done, total: job.total }),
      failed: t("review.failed"),
      done: t("review.done"),
    }[job.status];
    this.summary.textContent = "";
    if (job.summary) {
      const { lost, marks: counts, decisions } = job.summary;
      const luck = job.summary.luck;
      this.summary.textContent = t("review.summary", { decisions, lost, ...counts })
        + (luck ? ` ${t("dd.summary_luck", luck)}` : "");
    }
    // drawn again as decisions come: the focus stays on the decision it was on
    const focused = this.list.contains(document.activeElement) ? document.activeElement.closest(".review-item")?.dataset.index : null;
    const items = job.items.map((item) => this.#item(item));
    this.list.replaceChildren(...items);
    if (focused !== null && focused !== undefined) {
      this.list.querySelector(`.review-item[data-index="${focused}"] button`)?.focus({ preventScroll: true });
    }
  }

  #item(item) {
    const { view } = this;
    const node = el("li", "review-item");
    node.dataset.index = String(item.index);
    node.dataset.kind = item.kind;
    node.dataset.mark = item.mark ?? "";
    const name = item.kind === "call" ? callName : cardName;
    const where = item.kind === "call" ? t("review.auction") : t("review.trick", { n: item.trick });
    const head = el("p", "review-head");
    head.append(el("span", "review-where", where), document.createTextNode(" "),
      el("strong", "review-choice", t("review.choice", { seat: view.seatName(item.seat), action: name(item.action) })));
    if (item.mark) {
      const mark = el("span", `review-mark mark-${item.mark}`, t(MARK_KEYS[item.mark]));
      head.append(document.createTextNode(" "), mark);
    }
    node.append(head);
    const same = item.best === item.action;
    node.append(el("p", "review-expert", same ? t("review.agrees") : t("review.expert", { best: name(item.best) })));
    const signed = (x) => (x > 0 ? `+${Math.round(x)}` : String(Math.round(x)));
    let expected = same ? t("review.expected_same", { played: signed(item.played_score) })
      : t("review.expected", { played: signed(item.played_score), best: signed(item.best_score) });
    if (Math.round(item.loss) > 0) expected += ` ${t("review.lost", { lost: Math.round(item.loss) })}`;
    node.append(el("p", "review-expected", expected));
    if (item.kind === "call") { // the make chance of the contract each call leaves standing
      const chances = [[item.played_contract, item.played_chance], [item.best_contract, item.best_chance]]
        .filter(([contract, chance], i) => contract && chance !== null && chance !== undefined && !(i === 1 && same));
      const text = chances.map(([contract, chance]) => t("review.chance", { contract: callName(contract), chance }));
      if (text.length) node.append(el("p", "review-chance", text.join(" ")));
    }
    if (item.hindsight_loss !== null && item.hindsight_loss !== undefined) {
      const lost = Math.round(item.hindsight_loss);
      const call = item.kind === "call"; // against the sound calls only, the auction ending on each
      const line = el("p", "review-hindsight", lost > 0
        ? t(call ? "dd.hindsight_lost_call" : "dd.hindsight_lost", { lost, best: name(item.hindsight_best) })
        : t(call ? "dd.hindsight_none_call" : "dd.hindsight_none"));
      if (LUCK[item.luck]) {
        node.dataset.luck = item.luck;
        line.prepend(el("span", `review-luck luck-${item.luck}`, t(LUCK[item.luck])), document.createTextNode(" "));
        line.append(document.createTextNode(` ${t((call ? LUCK_WHY_CALL : LUCK_WHY)[item.luck])}`));
      }
      node.append(line);
    }
    if (item.reason && REASON_KEYS[item.reason.key]) {
      node.append(el("p", "review-reason", t(REASON_KEYS[item.reason.key], item.reason.params)));
    }
    if (this.onShow) {
      const show = button(t("review.show"), () => {
        this.dialog.close("show");
        this.onShow(item.index);
      }, "btn ghost review-show");
      show.setAttribute("aria-label", `${t("review.show")}: ${where}`);
      node.append(show);
    }
    return node;
  }
}
