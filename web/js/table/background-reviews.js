// Reviews made in the background for the deals of the player's history that have none (js/history.js), on the
// review helper only (review-helper.js: a second engine worker, on a device with two cores or more; never the
// table's engine), one decision at a time, and only while the table is idle: `busy()` (a match being played,
// js/table/game.js) holds the next decision back, so the bots' moves share the device with one decision at
// most, the one in hand when a match starts. A device with one core makes none (the player's own "Review this
// deal" still does).
//
//   const reviewer = new BackgroundReviews({ busy: () => game.busy });
//   reviewer.wake();   // after a deal is kept, and once the engine is up
import { keepReview, readHistory } from "../history.js";
import { borrowHelper, returnHelper } from "./review-helper.js";

const PAUSE_MS = 500; // how often a held decision looks again whether the table is idle
const BATCH = 20; // deals reviewed at most per waking, the newest first

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export class BackgroundReviews {
  #busy;
  #running = false;
  #again = false;

  constructor({ busy }) {
    this.#busy = busy;
  }

  // Review what lacks a review (again once the run in hand ends, if woken meanwhile).
  wake() {
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = true;
    this.#run().catch((error) => console.warn("background review:", error)).finally(() => {
      this.#running = false;
      if (this.#again) {
        this.#again = false;
        this.wake();
      }
    });
  }

  async #run() {
    const { entries } = await readHistory();
    const waiting = entries.filter((entry) => !entry.review && entry.record.deck !== undefined && !entry.record.result.void)
      .reverse().slice(0, BATCH);
    for (const entry of waiting) {
      const review = await this.#review(entry);
      if (review === null) return;
      if (review) await keepReview(entry.record, review);
    }
  }

  // The review helper once the table is idle (borrowed: returnHelper() once done), or null where there is none.
  async #helper() {
    while (this.#busy()) await sleep(PAUSE_MS);
    const ready = borrowHelper();
    if (!ready) return null; // one core, or the helper failed this visit
    const engine = await ready;
    if (!engine) returnHelper();
    return engine;
  }

  // The entry's review of the player's seat, decision by decision while the table is idle (the helper given back
  // while it is not, so that it stops a minute later); false for a record the engine refuses (an imported line
  // it cannot replay: left without a review), null if there is no helper or it failed (given up for this visit
  // by review-helper.js's own watch).
  async #review(entry) {
    const { record, seat } = entry;
    let engine = null;
    const helper = async () => {
      if (engine && !this.#busy()) return engine;
      if (engine) returnHelper();
      engine = await this.#helper();
      return engine;
    };
    try {
      const plan = await (await helper())?.call("review_plan", { record, seats: [seat] });
      if (!plan) return null;
      const decisions = [];
      for (const { index } of plan.decisions) {
        const ready = await helper();
        if (!ready) return null;
        decisions.push(await ready.call("review_decision", { record, index }));
      }
      const last = await helper();
      return last && { decisions, summary: await last.call("review_summary", { decisions }) };
    } catch (error) {
      console.warn("background review:", error);
      return error?.code === "malformed_record" ? false : null;
    } finally {
      if (engine) returnHelper();
    }
  }
}
