// The Expert's par of the player's solo deals (js/history-format.js wantsPar): the engine's replays of the
// player's seat with the same cards against the same bots (coinche.par), one bot decision a call (par_step,
// stateless: any engine can take any replay's next step), kept in the history after every replay, so that a
// reload goes on where it stopped.
//
// Where and when, so that the table's bots never wait on a par (docs/performance.md, "The par on the page"):
// - on the review helper (review-helper.js), only while the table's engine is computing no bot move (`quiet()`:
//   the player to move, a summary open, no match): the bots' moves share the device with one par decision at
//   most, the one in hand when the player moves;
// - from the deal's start (`start(dealt)`: the table's engine's par_deal, the deal as dealt): a par depends on
//   the cards, dealer, rules and bots alone, so its replays go on in the player's thinking time and it is
//   ready, or nearly, when the deal ends; nothing of it is told before the deal ends and is kept (wake(deal));
// - also on the table's own engine while it has nothing else to do (`spare()`: a summary open, no match), a
//   replay beside the helper's, given back (its actions so far) as soon as the table plays on;
// - the history's other deals only while no match is played (`idle()`), as the background reviews
//   (background-reviews.js: the helper working through a match doubled the Expert's moves at the 95th
//   percentile). A device with one core makes none.
//
//   const pars = new BackgroundPars({ quiet, idle, spare, table, ours });
//   pars.start(await engine.call("par_deal"));   // a deal dealt: its replays begin, told to no one
//   pars.forget();                                // the table left: those of an unfinished deal dropped
//   pars.wake(dealIdentity(record));              // a deal just kept: its par first
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

// The helper's engine for one call made at once, or null when there is none (it is not kept borrowed).
async function helperNow() {
  const ready = borrowHelper();
  const engine = ready && await ready;
  if (ready) returnHelper();
  return engine;
}

// What a par's replays depend on: the deal as dealt, the seats' bots and the seat (coinche.par.replay_seed).
function parKey(record, seats, seat) {
  return JSON.stringify([record.variant, record.rules ?? "own", record.dealer, record.deck, seats, seat]);
}

// The replays of one par: `scores[index]` once replay `index` is over, `open` the replays begun and given
// back ({index, actions}), `next` the first index not begun.
class Replays {
  #k;

  constructor(record, seat, k, scores = []) {
    this.record = record;
    this.seat = seat;
    this.#k = k;
    this.scores = scores.slice(0, this.k);
    this.next = this.scores.length;
    this.open = [];
    this.onScore = () => {};
    this.driving = null; // the helper's run, a promise of true (all made) or false (it gave way)
    this.table = null; // the table engine's run, while it takes part
    this.cancelled = false;
  }

  get k() { return replaysOf(this.#k ?? Infinity); } // K unknown until the helper says (par_k)
  get knowsK() { return this.#k !== null; }
  set k(k) { this.#k = k; }
  get done() { return this.scores.slice(0, this.k).filter(Number.isFinite).length; }
  get complete() { return this.done >= this.k; }
  // The scores made from the first replay on, without a gap (what the history keeps).
  get kept() {
    const end = this.scores.findIndex((score) => !Number.isFinite(score));
    return this.scores.slice(0, Math.min(this.k, end < 0 ? this.scores.length : end));
  }

  take() {
    this.open = this.open.filter((replay) => replay.index < this.k);
    if (this.open.length) return this.open.shift();
    if (this.next >= this.k) return null;
    return { index: this.next++, actions: [] };
  }
}

export class BackgroundPars {
  #quiet;
  #idle;
  #spare;
  #table;
  #ours;
  #running = false;
  #again = false;
  #urgent = new Set(); // identities of this visit's deals: their pars first, between the player's moves
  #watchers = new Map(); // identity -> Set of callbacks
  #states = new Map(); // identity -> the last state told
  #replays = new Map(); // parKey -> Replays: the pars under way at this visit
  #early = null; // the Replays begun from a deal's start, not yet claimed by its finished deal
  #tableFailed = false; // the table's engine answered a par step with an error: not asked again this visit
  #shown = null; // the Replays of a finished deal's par the run is making: a deal's early replays wait for it

  constructor({ quiet, idle, spare = () => false, table = () => null, ours = () => false }) {
    this.#quiet = quiet;
    this.#idle = idle;
    this.#spare = spare;
    this.#table = table;
    this.#ours = ours;
  }

  #urgentOne(entry) {
    return this.#urgent.has(entry.deal) || this.#ours(entry);
  }

  // A deal just dealt at the table ({record, seat}: par_deal): its par's replays begin on the helper, as an
  // urgent par's would; the one of a deal left unfinished is dropped.
  start({ record, seat }) {
    const key = parKey(record, record.seats, seat);
    if (this.#replays.has(key)) return;
    if (this.#early) this.#drop(this.#early);
    const replays = new Replays(record, seat, null);
    replays.key = key;
    this.#early = replays;
    this.#replays.set(key, replays);
    replays.driving = this.#drive(replays, true).catch(() => false);
  }

  // The table left: the replays begun with a deal it did not finish are dropped.
  forget() {
    if (this.#early) this.#drop(this.#early);
  }

  #drop(replays) {
    replays.cancelled = true;
    this.#replays.delete(replays.key);
    if (this.#early === replays) this.#early = null;
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

  // The replays of `replays` made on the helper while the table allows it (quiet() when `urgent`, else idle()),
  // and on the table's engine beside it while spare(); true once all are made, false if there is no helper
  // (one core, or it failed this visit: review-helper.js gives it up) or if an older deal's par gives way to a
  // deal just finished (the run starts again, that deal first).
  async #drive(replays, urgent) {
    const allowed = urgent ? this.#quiet : this.#idle;
    let engine = null;
    // one par at a time on the helper, a finished deal's first: one decision in hand at most when the player moves
    const waiting = () => !allowed() || replays.cancelled || (this.#shown !== null && this.#shown !== replays);
    const helper = async () => {
      while (waiting()) {
        if (replays.cancelled || (!urgent && this.#again)) return null;
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
      while (!replays.complete) {
        const ready = await helper();
        if (!ready) return false;
        if (!replays.knowsK) replays.k = (await ready.call("par_k")).k;
        this.#share(replays);
        const replay = replays.take();
        if (!replay) { // the last ones are on the table's engine: wait for it (it gives back what it leaves)
          await (replays.table ?? sleep(PAUSE_MS));
          continue;
        }
        if (!(await this.#play(replays, replay, helper))) return false;
      }
      return true;
    } finally {
      if (engine) returnHelper();
    }
  }

  // A replay on the table's engine beside the helper, while spare(): started when it is, it stops at the first
  // step the table needs its engine for, giving its replay back.
  #share(replays) {
    const table = this.#table();
    if (!table || this.#tableFailed || replays.table || !this.#spare()) return;
    const lane = async () => {
      const free = async () => (this.#spare() && !replays.cancelled ? table : null);
      for (;;) {
        const replay = (await free()) && replays.take();
        if (!replay) return;
        if (!(await this.#play(replays, replay, free))) return;
      }
    };
    replays.table = lane().catch((error) => {
      console.warn("background par (table):", error);
      this.#tableFailed = true;
    })
      .finally(() => { replays.table = null; });
  }

  // Replay `replay` ({index, actions}) to its end on the engine `next()` gives, asked again before each step;
  // false (the replay given back, its actions kept) when it gives none.
  async #play(replays, replay, next) {
    const { record, seat } = replays;
    for (;;) {
      const engine = await next();
      if (!engine) {
        replays.open.push(replay);
        return false;
      }
      let step;
      try {
        step = await engine.call("par_step", { record, seat, index: replay.index, actions: replay.actions });
      } catch (error) {
        replays.open.push(replay);
        throw error;
      }
      if (step.done) {
        replays.scores[replay.index] = step.score;
        replays.onScore();
        return true;
      }
      replay.actions.push(step.action);
    }
  }

  // The par of one entry: its replays (those begun with the deal if it was dealt at this visit), then the
  // summary; false when its replays stopped (see #drive).
  async #par(entry, urgent) {
    const { seat, deal } = entry;
    const record = { ...entry.record, seats: seatsOf(entry) };
    let replays = null;
    try {
      const key = parKey(record, record.seats, seat);
      replays = this.#replays.get(key) ?? null;
      if (!replays?.knowsK) { // a par to begin, or begun with its deal before the helper could say K
        const allowed = urgent ? this.#quiet : this.#idle;
        while (!allowed()) {
          if (!urgent && this.#again) return false;
          await sleep(PAUSE_MS);
        }
        const engine = await helperNow(); // the plan is checked on the helper, as every step
        if (!engine) return false;
        const plan = await engine.call("par_plan", { record, seat });
        if (replays) {
          replays.k = plan.k;
        } else {
          replays = new Replays(record, seat, plan.k, entry.par?.scores ?? []);
          replays.key = key;
          this.#replays.set(key, replays);
        }
      }
      if (this.#early === replays) this.#early = null; // claimed: its deal is over
      if (urgent) this.#shown = replays;
      const { k } = replays;
      this.#tell(deal, { done: replays.done, k });
      let saving = Promise.resolve();
      replays.onScore = () => {
        const scores = replays.kept;
        saving = saving.then(() => keepPar(entry.id, { scores }));
        this.#tell(deal, { done: replays.done, k });
      };
      replays.onScore();
      if (!replays.driving || !(await replays.driving)) replays.driving = this.#drive(replays, urgent);
      const made = await replays.driving;
      replays.driving = null;
      this.#shown = null;
      if (!made) return false;
      const last = await helperNow();
      if (!last) return false;
      const par = finishedPar(await last.call("par_summary", { record, seat, scores: replays.scores.slice(0, k) }));
      await saving;
      await keepPar(entry.id, par);
      this.#replays.delete(key);
      this.#tell(deal, { done: k, k, par });
      return true;
    } catch (error) {
      if (replays) replays.driving = null;
      this.#shown = null;
      if (!error?.code || ["worker_crashed", "terminated", "restarted", "boot_timeout", "worker_error"].includes(error.code)) {
        console.warn("background par:", error);
        return false;
      }
      if (replays) this.#drop(replays);
      await keepPar(entry.id, { failed: error.code }); // a record the engine will not replay: no par, ever
      this.#tell(deal, { failed: error.code });
      return true;
    }
  }
}
