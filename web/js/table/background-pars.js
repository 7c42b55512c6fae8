// The Expert's par of the player's solo deals (js/history-format.js wantsPar): the engine's replays of the
// player's seat with the same cards against the same bots (coinche.par), made on the review helper
// (review-helper.js: never the table's engine) one bot decision a call (par_step, stateless), and kept in the
// history after every replay, so that a reload goes on where it stopped.
//
// When: a deal finished at this visit's table (wake(deal)), or earlier in the match at the table (`ours(entry)`:
// a match resumed after a reload goes on with its deals' pars), only while the table's engine is computing no bot
// move (`quiet()`: the player to move, a summary open, no match), so that the bots' moves share the device
// with one par decision at most, the one in hand when the player moves; the history's other deals only while
// no match is played (`idle()`), as the background reviews (background-reviews.js: the helper working through
// a match doubled the Expert's moves at the 95th percentile). A device with one core makes none.
//
//   const pars = new BackgroundPars({ quiet, idle, ours });
//   pars.wake(dealIdentity(record));        // a deal just kept: its par first
//   const stop = pars.watch(deal, (state) => ...);   // {done, k} while it is made, then {done, k, par}
import { finishedPar, seatsOf, wantsPar } from "../history-format.js";
import { keepPar, readHistory } from "../history.js";
import { borrowHelper, returnHelper } from "./review-helper.js";

const PAUSE_MS = 250; // how often a held replay looks again whether it may go on
const BATCH = 20; // the history's older deals given a par at most per waking, the newest first

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
// For the browser tests alone: fewer replays than the engine's K (a whole par takes half a minute of a loaded
// test machine), set by the test before the deal ends; the par is then the engine's over those replays.
const replaysOf = (k) => Math.min(k, globalThis.coincheTestParReplays ?? k);

export class BackgroundPars {
  #quiet;
  #idle;
  #ours;
  #running = false;
  #again = false;
  #urgent = new Set(); // identities of this visit's deals: their pars first, between the player's moves
  #watchers = new Map(); // identity -> Set of callbacks
  #states = new Map(); // identity -> the last state told

  constructor({ quiet, idle, ours = () => false }) {
    this.#quiet = quiet;
    this.#idle = idle;
    this.#ours = ours;
  }

  #urgentOne(entry) {
    return this.#urgent.has(entry.deal) || this.#ours(entry);
  }

  wake(deal = null) {
    if (deal) this.#urgent.add(deal);
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = true;
    this.#run().catch((error) => console.warn("background par:", error)).finally(() => {
      this.#running = false;
      if (this.#again) {
        this.#again = false;
        this.wake();
      }
    });
  }

  // Tell `callback` how the par of `deal` (an identity) goes: at once if known, then at every replay.
  watch(deal, callback) {
    if (!this.#watchers.has(deal)) this.#watchers.set(deal, new Set());
    this.#watchers.get(deal).add(callback);
    if (this.#states.has(deal)) callback(this.#states.get(deal));
    return () => this.#watchers.get(deal)?.delete(callback);
  }

  #tell(deal, state) {
    this.#states.set(deal, state);
    for (const callback of this.#watchers.get(deal) ?? []) callback(state);
  }

  async #run() {
    const { entries } = await readHistory();
    const waiting = entries.filter(wantsPar).reverse();
    const urgent = waiting.filter((entry) => this.#urgentOne(entry));
    const others = waiting.filter((entry) => !this.#urgentOne(entry)).slice(0, BATCH);
    for (const entry of entries) {
      const par = finishedPar(entry.par);
      if (par && this.#urgent.has(entry.deal)) this.#tell(entry.deal, { done: par.k, k: par.k, par });
    }
    for (const entry of urgent) if (!(await this.#par(entry, true))) return;
    for (const entry of others) if (!(await this.#par(entry, false))) return;
  }

  // The par of one entry, a replay after another while the table allows it (quiet() for an `urgent` one, else
  // idle()); false if there is no helper (one core, or
  // it failed this visit: review-helper.js gives it up), or if an older deal's par gives way to a deal just
  // finished (the run starts again, that deal first).
  async #par(entry, urgent) {
    const { seat, deal } = entry;
    const record = { ...entry.record, seats: seatsOf(entry) };
    const allowed = urgent ? this.#quiet : this.#idle;
    let engine = null;
    const helper = async () => {
      while (!allowed()) {
        if (!urgent && this.#again) return null; // a deal just finished: its par first (this one's replays are kept)
        if (engine && !urgent) { // an older deal's par: the helper stops if a match goes on
          returnHelper();
          engine = null;
        }
        await sleep(PAUSE_MS);
      }
      if (engine) return engine;
      const ready = borrowHelper();
      engine = ready && await ready;
      if (ready && !engine) returnHelper();
      return engine;
    };
    try {
      const plan = await (await helper())?.call("par_plan", { record, seat });
      if (!plan) return false;
      const k = replaysOf(plan.k);
      const scores = (entry.par?.scores ?? []).slice(0, k);
      this.#tell(deal, { done: scores.length, k });
      for (let index = scores.length; index < k; index += 1) {
        const actions = [];
        for (;;) {
          const ready = await helper();
          if (!ready) return false;
          const step = await ready.call("par_step", { record, seat, index, actions });
          if (step.done) {
            scores.push(step.score);
            break;
          }
          actions.push(step.action);
        }
        await keepPar(entry.id, { scores });
        this.#tell(deal, { done: scores.length, k });
      }
      const last = await helper();
      if (!last) return false;
      const par = finishedPar(await last.call("par_summary", { record, seat, scores }));
      await keepPar(entry.id, par);
      this.#tell(deal, { done: k, k, par });
      return true;
    } catch (error) {
      if (!error?.code || ["worker_crashed", "terminated", "restarted", "boot_timeout", "worker_error"].includes(error.code)) {
        console.warn("background par:", error);
        return false;
      }
      await keepPar(entry.id, { failed: error.code }); // a record the engine will not replay: no par, ever
      this.#tell(deal, { failed: error.code });
      return true;
    } finally {
      if (engine) returnHelper();
    }
  }
}
