// The table's driver for a 1v1 match: the same commands as the engine worker (see table/game.js), answered
// by the referee. "act" sends the player's action with the seq of the state they acted on (a late or
// double click is refused as stale, never played); "bot_step" hands over the next action of anyone else
// (bots and the opponent), in the order the referee sent them; "coach" asks the page's own engine worker
// (web command coach_view) for the Normal bot's call, or its declaration of announcements, on the seat's view
// the referee sent, as in solo play: the referee sends nothing for it.
import { RefereeError } from "./client.js";

// The refusals of an action the table words itself (it shows `error.<code>`; others as error.internal).
export const TABLE_ERRORS = ["error.stale", "error.seat_lost", "error.connection_lost", "error.too_late"];

export class RefereeDriver {
  #client = null;
  #queue = []; // updates not yet shown, oldest first
  #waiter = null; // {resolve, reject} of a "bot_step" waiting for the next update
  #shown = null; // the state the player last saw
  #engine; // the page's engine worker: the coach thinks there
  #onState; // (state) => void: every state the referee sends, when it arrives (the turn clock counts from then)

  constructor(state, engine, onState = () => {}) {
    this.#shown = state;
    this.#engine = engine;
    this.#onState = onState;
  }

  // The connection to act through (a new one after each reconnection).
  use(client) {
    this.#client = client;
  }

  get state() { return this.#shown; }

  // An update the referee sent on its own (another seat acted).
  push(update) {
    const answer = { event: update.event, state: update.state };
    this.#onState(update.state);
    if (this.#waiter) {
      const { resolve } = this.#waiter;
      this.#waiter = null;
      this.#shown = answer.state;
      resolve(answer);
    } else {
      this.#queue.push(answer);
    }
  }

  // The table is drawn anew from `state` (a reconnection, or the end): what waited is dropped.
  reset(state) {
    this.#queue = [];
    this.#shown = state;
    const waiter = this.#waiter;
    this.#waiter = null;
    waiter?.reject(new RefereeError({ key: "connection_lost" }));
  }

  async call(cmd, args = {}) {
    if (cmd === "act") {
      const client = this.#client;
      if (!client) throw new RefereeError({ key: "connection_lost" });
      const update = await client.request({ type: "act", action: args.action, seq: this.#shown.seq });
      this.#onState(update.state);
      this.#shown = update.state;
      return { event: update.event, state: update.state };
    }
    if (cmd === "bot_step") {
      if (this.#queue.length) {
        const answer = this.#queue.shift();
        this.#shown = answer.state;
        return answer;
      }
      return new Promise((resolve, reject) => { this.#waiter = { resolve, reject }; });
    }
    if (cmd === "coach") return this.#engine ? this.#engine.call("coach_view", { view: this.#shown.deal }) : null;
    if (cmd === "state") return { state: this.#shown };
    throw new RefereeError({ key: "unknown_command", params: { cmd } });
  }
}
