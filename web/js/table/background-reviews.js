// Reviews made in the background for the deals of the player's history that have none (js/history.js), on the
// review helper only (review-helper.js: a second engine worker, on a device with two cores or more; never the
// table's engine), one decision at a time, and only while the table is idle: `busy()` (the bots to move, the
// player's action on its way) holds the next decision back, so a bot's move never waits behind one. A device
// with one core makes none (the player's own "Review this deal" still does).
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
    if (!waiting.length) return;
    const ready = borrowHelper();
    if (!ready) return; // one core, or the helper failed this visit
    try {
      const engine = await ready;
      if (!engine) return;
      for (const entry of waiting) {
        const review = await this.#review(engine, entry);
        if (review === null) return;
        if (review) await keepReview(entry.record, review);
      }
    } finally {
      returnHelper();
    }
  }

  // The entry's review of the player's seat, decision by decision while the table is idle; false for a record
  // the engine refuses (an imported line it cannot replay: left without a review), null if the helper failed
  // (given up for this visit by review-helper.js's own watch).
  async #review(engine, entry) {
    const { record, seat } = entry;
    try {
      const plan = await engine.call("review_plan", { record, seats: [seat] });
      const decisions = [];
      for (const { index } of plan.decisions) {
        while (this.#busy()) await sleep(PAUSE_MS);
        decisions.push(await engine.call("review_decision", { record, index }));
      }
      return { decisions, summary: await engine.call("review_summary", { decisions }) };
    } catch (error) {
      console.warn("background review:", error);
      return error?.code === "malformed_record" ? false : null;
    }
  }
}
