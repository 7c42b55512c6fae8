// The match controller: sends the player's actions to the engine, steps the bots at a readable pace,
// presents what happened (cards flying, tricks gathered, belote, dix de der, deal summaries), saves the
// snapshot after every action, and asks the engine (never the page) what is legal.
//
// The engine is the default driver: anything with the same call(cmd, args) for "act", "bot_step" and
// "coach" can drive the table instead (the 1v1 referee client, js/online/driver.js), with the player in
// any seat; answers without a snapshot are not saved.
import { el } from "../dom.js";
import { errorText } from "../errors.js";
import { dealIdentity } from "../history-format.js";
import { keepDeal, matchId } from "../history.js";
import { callName, has, t } from "../i18n.js";
import { CAPOT, parseCall } from "../notation.js";
import { BackgroundPars } from "./background-pars.js";
import { BackgroundReviews } from "./background-reviews.js";
import { BiddingPanel, announcementList } from "./bidding.js";
import { loadArt } from "./cards.js";
import { showDealSummary, showLastTrick, showMatchResult } from "./dialogs.js";
import { HandView } from "./hand.js";
import { renderHouseMark } from "./house.js";
import { installMenuTools, rememberDeal, summaryTools } from "./replay.js";
import { pace, saveMatch } from "./settings.js";
import { KEYS, TableSpeech, callSaid, cardSaid, contractSaid, dealSaid, scoresSaid, trickOnTable, trickSaid } from "./speech.js";
import { TableView, sleep } from "./view.js";

const ME = 0; // the player's seat in solo play

// The driver of the build's first deal until the engine has dealt it (newMatch): the player's call is held,
// to be sent to the engine once it has dealt the same cards; the coach has nothing to say; no bot moves.
class PreviewDriver {
  held = null;

  call(cmd, args = {}) {
    if (cmd !== "act") return Promise.resolve(null);
    this.held = args.action;
    return new Promise(() => {}); // answered by the engine's deal, which newMatch draws
  }
}

export class Game {
  #engine; // the driver of the match being played
  #local; // the engine worker: solo play
  #me = ME;
  #settings;
  #view;
  #hand;
  #bidding;
  #coachLine;
  #dialogs;
  #speech; // the table's live region (speech.js)
  #turnSaid = null; // the turn last said to be the player's
  #state = null;
  // What the table is doing, one phase at a time:
  //   idle     no match yet
  //   preview  the build's first deal is drawn, the engine is yet to deal it (its driver: PreviewDriver)
  //   held     the same, the player's call held for the engine
  //   bots     a bot is to move: the loop (run) steps it at the chosen pace
  //   player   the player's turn: the table waits for them
  //   acting   the player's action is on its way to the driver
  //   over     the match is over
  //   stopped  the player left the table
  #phase = "idle";
  // Bumped by every start and stop: what was begun in an older epoch (a bot's step, an answer on its way)
  // is dropped when it comes back.
  #epoch = 0;
  #heldNote = null; // the toast that says the held call is kept
  #handDealt = -1;
  #onExit;
  #refreshMenu;
  #matchId = null; // the match's id in the player's history (js/history.js)
  // A one-deal match (a deal of the day, a challenge's deal: js/daily.js): {id, save(snapshot), finished(record),
  // next()}: its own save, its deal's record given as soon as it is played (no save after it: a reload resumes
  // nothing), and the table stops once the deal's summary is closed; null for a match to its target.
  #oneDeal = null;
  // the history's deals reviewed on the review helper while no match is played here: before the first, after
  // one ends, once the player has left the table (bench/progress_bench.py: the helper reviewing without a pause
  // doubles the Expert's moves at the 95th percentile)
  #reviews = new BackgroundReviews({ busy: () => !["idle", "over", "stopped"].includes(this.#phase) });
  // the Expert's par of each solo deal, on the review helper while the table's engine computes no bot move:
  // the player to move, a deal's summary open, no match (background-pars.js)
  // the player to move, a deal's summary open, no match (background-pars.js); also on the table's engine while
  // a summary shows and nothing else is open; begun at each deal's start (par_deal), shown once it is over
  #pars = new BackgroundPars({
    quiet: () => ["idle", "over", "stopped", "player"].includes(this.#phase) || Boolean(this.#dialogs?.summary.open),
    idle: () => ["idle", "over", "stopped"].includes(this.#phase),
    spare: () => Boolean(this.#dialogs?.summary.open) && document.querySelectorAll("dialog[open]").length === 1,
    table: () => (this.#engine === this.#local ? this.#local : null),
    ours: (entry) => entry.match?.id === this.#matchId && this.#matchId !== null,
  });
  #parBegun = null; // the match and deal whose par's replays began (#beginPar)

  // root: the table <section>; settings: a live object (coach and speed read at every step);
  // onExit(reason): called with "home" or "new" when the player leaves the table.
  constructor(engine, root, settings, { onExit }) {
    this.#engine = this.#local = engine;
    this.#settings = settings;
    this.#onExit = onExit;
    this.#view = new TableView(root, ME);
    this.#coachLine = root.querySelector("#coach-line");
    this.#dialogs = {
      summary: document.querySelector("#dlg-summary"),
      result: document.querySelector("#dlg-result"),
      lastTrick: document.querySelector("#dlg-last-trick"),
    };
    this.#hand = new HandView(root.querySelector("#hand"), {
      onPlay: (card, node) => this.#playCard(card, node),
      // The coach's setting governs the words only: with it off, a forbidden card just shakes.
      onRefused: (card, reason) => {
        if (this.#settings.coach) this.#view.toast(reason ?? t("table.not_allowed"), { kind: "warn" });
      },
    });
    this.#bidding = new BiddingPanel(root.querySelector("#bidding"), { onCall: (call) => this.#call(call) });
    this.#speech = new TableSpeech(root.querySelector("#table-log"));
    document.addEventListener("keydown", (event) => this.#key(event));
    // a dialog closed whose opener has gone (the card played, the summary's button): focus back on the table
    document.addEventListener("close", () => setTimeout(() => this.#refocus()), true);
    root.querySelector("#btn-last-trick").addEventListener("click", () => this.#showLastTrick());
    this.#refreshMenu = installMenuTools({
      getState: () => this.#state, engine: this.#local, isLocal: () => this.#engine === this.#local, view: this.#view,
    });
    this.stats = { botSteps: [] }; // {level, ms} of every bot_step, for the bench
  }

  get state() { return this.#state; }

  // The history's deals without a review reviewed in the background (background-reviews.js).
  reviewHistory() {
    this.#reviews.wake();
    this.#pars.wake();
  }
  get pace() { return pace(this.#settings.speed); }

  // ------------------------------------------------------------ starting
  // show(): called just before the table is drawn: once the engine has answered, or at once with `first`.
  // first: {deal_seed, state}, a first deal the engine dealt at build time (first-deals.json), for a match
  // asked for while the engine boots: its state is drawn at once and the engine deals the same seed. The
  // player may call meanwhile: the call is held, and sent once the engine's own state is drawn.
  // dealSeed, firstDealer: the first deal's seed and dealer (a shared deal's link); rules: the house rules'
  // notation ("own": the game's own).
  // oneDeal: a one-deal match's hooks (see #oneDeal).
  async newMatch({ variant, target, level, seed, dealSeed, firstDealer, rules = "own", oneDeal = null }, show = () => {}, first = null) {
    this.#drive(this.#local, ME);
    this.#oneDeal = oneDeal;
    const args = { variant, target, level };
    if (rules !== "own") args.rules = rules;
    if (seed !== undefined) args.seed = String(seed);
    if (dealSeed !== undefined) args.deal_seed = dealSeed;
    if (firstDealer !== undefined) args.first_dealer = firstDealer;
    if (first) args.deal_seed = first.deal_seed;
    performance.mark("new-match-asked");
    const asked = this.#engine.call("new_match", args);
    let epoch = null;
    const preview = first ? new PreviewDriver() : null;
    if (first) {
      await loadArt(first.state.deal.hand); // the hand shows with its art (the engine boots meanwhile)
      show();
      this.#drive(preview, ME);
      epoch = this.#preview(first.state);
    }
    let answer;
    try {
      answer = await asked;
    } catch (error) {
      if (first && epoch === this.#epoch) {
        this.#forgetPreview("idle");
        this.#drive(this.#local, ME);
      }
      throw error;
    }
    if (!first) {
      await loadArt(answer.state.deal.hand);
      show();
      return this.#start(answer);
    }
    if (!this.#live(epoch)) return undefined; // the player left the table meanwhile
    let { held } = preview;
    this.#forgetPreview("player");
    this.#drive(this.#local, ME);
    if (!sameDeal(first.state, answer.state)) {
      console.warn("first deal: the engine dealt other cards than first-deals.json; its own are shown");
      held = null;
    }
    return this.#start(answer, { held, drawn: true });
  }

  // The build's first deal drawn while the engine boots: nothing saved, no bot moves, no coach; returns the
  // epoch it belongs to.
  #preview(state) {
    this.#epoch += 1;
    this.#phase = "preview";
    this.#lastTrick = null;
    this.#handDealt = state.deal_index; // no cards flying in: the table holds still while Python starts
    this.#view.clearBubbles();
    this.#view.renderTrick([], 0);
    this.#render(state);
    performance.mark("first-deal-drawn");
    return this.#epoch;
  }

  // The preview given up, for `phase`: the held call's toast goes (the caller says who drives next).
  #forgetPreview(phase) {
    this.#phase = phase;
    this.#heldNote?.remove();
    this.#heldNote = null;
  }

  get #previewing() {
    return this.#phase === "preview" || this.#phase === "held";
  }

  // The table shows while the save loads: what it showed before (the match left for the home) stays inert.
  async resume(snapshot, oneDeal = null) {
    this.#drive(this.#local, ME);
    this.#oneDeal = oneDeal;
    this.#hand.inert();
    this.#bidding.hide();
    const epoch = this.#epoch;
    const answer = await this.#engine.call("load", { snapshot });
    await loadArt(answer.state.deal.hand);
    if (epoch === this.#epoch) this.#start(answer);
  }

  // A match driven by `driver` (see the top of this file), the player in `seat`; answer: {state, event?};
  // names: seat -> a player's name shown instead of the seat's place. Called again with a fresh state
  // (a reconnection), it draws the table anew.
  begin(driver, answer, seat, names = {}) {
    this.#drive(driver, seat, names);
    this.#oneDeal = null;
    this.#start(answer);
  }

  get seat() { return this.#me; }
  get oneDeal() { return this.#oneDeal; }
  // How the Expert's par of a deal (its history identity) goes: background-pars.js's watch.
  watchPar(deal, callback) { return this.#pars.watch(deal, callback); }

  #drive(driver, seat, names = {}) {
    this.#engine = driver;
    this.#me = seat;
    this.#view.me = seat;
    this.#view.names = names;
  }

  // After the build's first deal (newMatch): drawn, its cards are already on screen; held, the call the player
  // made on it, sent now that the engine has dealt the same deal.
  #start(answer, { held = null, drawn = false } = {}) {
    performance.mark("match-ready");
    if (this.#previewing) this.#forgetPreview("player"); // a start that was not newMatch's own, as stop() does
    this.#epoch += 1;
    this.#phase = "player"; // until run() finds a bot to move
    this.#lastTrick = null;
    if (!drawn) this.#handDealt = -1;
    this.#view.clearBubbles();
    this.#view.renderTrick([], 0);
    this.#save(answer);
    // a match with finished deals is one resumed; a one-deal match has its own id, the saved match's kept
    this.#matchId = this.#oneDeal?.id ?? matchId(!answer.state.history?.length);
    this.#render(answer.state);
    if (held) this.#call(held);
    else this.run();
  }

  stop() {
    this.#epoch += 1;
    this.#pars.forget();
    this.#parBegun = null;
    if (this.#previewing) this.#forgetPreview("stopped");
    this.#phase = "stopped";
    this.#hand.inert();
    this.#bidding.hide();
    for (const dialog of Object.values(this.#dialogs)) if (dialog.open) dialog.close("stop");
  }

  // The coach or speed setting changed: redraw the coach line and the reasons on the cards.
  settingsChanged() {
    if (!this.#state || this.#awaiting) return;
    this.#renderHand(this.#state);
    this.#renderCoach(this.#state);
  }

  // The language changed: draw everything again.
  redraw() {
    if (this.#state && this.#phase !== "stopped" && !this.#awaiting) this.#render(this.#state);
  }

  // The player's call or card is on its way (or held for the engine): the state held is the one it was made
  // on, and drawing it again would bring back the card played or the bidding panel, live, where a click is
  // dropped. The answer draws the table, in the language and settings of the moment.
  get #awaiting() {
    return this.#phase === "acting" || this.#phase === "held";
  }

  #live(epoch) {
    return epoch === this.#epoch && this.#phase !== "stopped";
  }

  #save(answer) {
    if (answer.snapshot === undefined) return; // a match this page does not hold (online)
    if (this.#oneDeal) {
      const end = answer.event?.deal_end;
      return end ? this.#oneDeal.finished(end.record) : this.#oneDeal.save(answer.snapshot);
    }
    return saveMatch(answer.state.winner === null ? answer.snapshot : null);
  }

  // ------------------------------------------------------------ the loop
  // Steps the bots until the player's turn or the match's end; one loop at a time in an epoch.
  async run() {
    const epoch = this.#epoch;
    if (this.#phase === "bots" || !this.#live(epoch)) return;
    this.#phase = "bots";
    try {
      while (this.#live(epoch)) {
        const state = this.#state;
        if (state.winner !== null) break;
        const seat = state.deal.current_player;
        if (seat === this.#me || seat < 0) break;
        await sleep(this.pace.bot);
        if (!this.#live(epoch)) break;
        const started = performance.now();
        const answer = await this.#engine.call("bot_step");
        this.stats.botSteps.push({ level: state.settings.level, ms: performance.now() - started, phase: state.deal.phase });
        if (!this.#live(epoch)) break;
        await this.#apply(answer, epoch);
      }
    } catch (error) {
      if (this.#live(epoch)) this.#fail(error);
    } finally {
      if (this.#live(epoch)) this.#phase = this.#state.winner !== null ? "over" : "player";
      if (this.#live(epoch) && this.#phase === "player") this.#beginPar();
    }
  }

  // A solo deal's par begins with the deal (its replays need only the deal as dealt): at the player's first turn.
  #beginPar() {
    const state = this.#state;
    if (this.#engine !== this.#local || state.deal.current_player < 0) return;
    const deal = `${this.#matchId}:${state.deal_index}`;
    if (deal === this.#parBegun) return;
    this.#parBegun = deal;
    this.#local.call("par_deal").then((dealt) => this.#pars.start(dealt), (error) => console.warn("par_deal:", error));
  }

  #fail(error) {
    console.warn("engine:", error);
    this.#view.toast(errorText(error), { kind: "error", ms: 5000 });
  }

  // ------------------------------------------------------------ the player's actions
  async #call(call) {
    if (this.#phase !== "player" && this.#phase !== "preview") return;
    this.#bidding.hide();
    this.#coachLine.hidden = true;
    if (this.#phase === "preview") { // the preview's driver holds it: #start sends it once the engine has dealt
      this.#phase = "held";
      this.#heldNote = this.#view.toast(t("table.call_held"), { ms: 10_000 });
    } else {
      this.#phase = "acting";
    }
    const epoch = this.#epoch;
    try {
      const answer = await this.#engine.call("act", { action: call });
      await this.#apply(answer, epoch);
    } catch (error) {
      if (!this.#live(epoch)) return;
      this.#fail(error);
      this.#render(this.#state);
    }
    if (this.#live(epoch)) this.run();
  }

  async #playCard(card, node) {
    if (this.#phase !== "player") return;
    this.#phase = "acting";
    this.#coachLine.hidden = true;
    const from = node.getBoundingClientRect();
    node.classList.add("leaving");
    const flight = this.#view.playCard(this.#me, card, { getBoundingClientRect: () => from }, this.pace.fly);
    node.remove();
    const epoch = this.#epoch;
    try {
      const answer = await this.#engine.call("act", { action: card });
      await flight;
      await this.#apply(answer, epoch);
    } catch (error) {
      await flight;
      if (!this.#live(epoch)) return;
      this.#fail(error);
      this.#view.renderTrick(this.#state.deal.trick, this.#state.deal.leader);
      this.#render(this.#state);
    }
    if (this.#live(epoch)) this.run();
  }

  // ------------------------------------------------------------ presenting an answer
  // Show what the answer's event did, then its state; nothing if the match changed meanwhile.
  async #apply(answer, epoch) {
    if (!this.#live(epoch)) return;
    this.#save(answer);
    const event = answer.event;
    const before = this.#state;
    if (event) await this.#present(event, before, answer.state, epoch);
    if (!this.#live(epoch)) return;
    this.#render(answer.state);
  }

  async #present(event, before, after, epoch) {
    const p = this.pace;
    const view = this.#view;
    if (event.type === "announce") return; // the player's own: the others see it at the end of the first trick
    if (event.type === "call") {
      // The auction as this call left it, while its bubble shows; a call that ended it leaves the contract
      // the standing bid became (none in a classic taking, where no bid stands).
      const standing = before.deal.standing && after.deal.contract;
      const deal = { ...before.deal, calls: [...before.deal.calls, [event.seat, event.action]], phase: "auction", standing };
      view.renderCalls(deal);
      view.renderContract(after.deal.phase === "auction" ? after.deal : deal);
      this.#speech.say(callSaid(view, event.seat, event.action));
      if (after.deal.phase === "play" && after.deal.contract) this.#speech.say(contractSaid(view, after.deal.contract, after.variant));
      if (after.deal.phase !== "auction" || event.deal_end) await sleep(p.bubble);
    } else {
      this.#speech.say(cardSaid(view, event.seat, event.action));
      const seatEl = event.seat === this.#me ? null : view.seats[view.pos(event.seat)].backs;
      if (event.seat !== this.#me) {
        // the card leaves the bot's hand
        const backs = seatEl?.lastElementChild;
        await view.playCard(event.seat, event.action, backs ?? seatEl, p.fly);
        backs?.remove();
      }
      if (event.announce) {
        const text = t(`table.announce.${event.announce}`);
        view.announce(event.seat, text, p.bubble);
        this.#say(t("table.announce.toast", { seat: view.seatName(event.seat), kind: event.announce }), { ms: p.bubble + 800 });
      }
      if (event.trick) {
        view.renderTrick(event.trick.cards, event.trick.leader);
        this.#speech.say(trickSaid(view, event.trick));
        if (event.trick.last) {
          this.#say(t("table.dix_de_der", { seat: view.seatName(event.trick.winner) }), { ms: p.trick + 1200 });
        }
        await view.gather(event.trick.winner, p.trick, p.gather);
        this.#lastTrick = event.trick;
        if (after.deal.tricks?.length === 1) this.#showDeclared(after.deal.declared ?? [], p);
      }
    }
    if (event.deal_end && this.#live(epoch)) {
      const record = event.deal_end.record;
      const solo = this.#engine === this.#local;
      rememberDeal(record, before);
      keepDeal({ // the player's history: never waited for, never failing the table
        record, seat: this.#me, level: after.settings?.level ?? null, online: !solo,
        match: { id: this.#matchId, number: after.history?.length ?? null }, matchOver: event.match_over ?? null,
      }).then(() => {
        this.#reviews.wake();
        if (solo) this.#pars.wake(dealIdentity(record));
      });
      view.renderScores(event.deal_end.totals, after.target);
      view.clearBubbles();
      this.#bidding.hide();
      this.#coachLine.hidden = true;
      if (record.result.void) {
        this.#say(t("summary.void"), { ms: 2600 });
        await sleep(p.bubble);
      } else {
        const summary = this.#dialogs.summary;
        const closed = showDealSummary(summary, view, {
          record, totals: event.deal_end.totals, target: after.target, variant: after.variant,
          parts: after.house_rules?.length ? event.deal_end.parts : null,
          announcements: event.deal_end.announcements ?? null,
          tools: summaryTools(record, before, { engine: this.#local, view, challenge: !this.#oneDeal && this.#engine === this.#local }),
          watchPar: solo ? (callback) => this.#pars.watch(dealIdentity(record), callback) : null,
        });
        this.#speech.say(dealSaid(view, record, summary.querySelector(".dialog-title").textContent));
        await closed;
      }
      if (this.#oneDeal && this.#live(epoch)) { // its one deal played: the table stops, its flow goes on
        const { next } = this.#oneDeal;
        this.stop();
        next();
        return;
      }
    }
    if (event.match_over && this.#live(epoch)) {
      const shown = showMatchResult(this.#dialogs.result, view, {
        ...event.match_over, target: after.target, history: after.history, variant: after.variant,
      });
      this.#speech.say(this.#dialogs.result.querySelector(".dialog-title").textContent);
      const choice = await shown;
      if (choice !== "stop") this.#onExit(choice === "new" ? "new" : "home");
    }
  }

  #lastTrick = null;

  // The announcements of the table, shown to all at the end of the first trick (house rule announce=yes).
  #showDeclared(declared, p) {
    for (const seat of new Set(declared.map((a) => a.seat))) {
      const list = announcementList(declared.filter((a) => a.seat === seat));
      const me = seat === this.#view.me ? "yes" : "no"; // "You announced", not "You announces"
      this.#say(t("table.declared", { seat: this.#view.seatName(seat), list, me }), { ms: p.bubble + 1600 });
    }
  }

  // A toast of the play (belote, dix de der, the announcements) said once, by the table's live region.
  #say(text, options) {
    this.#speech.say(text);
    this.#view.toast(text, { ...options, said: true });
  }

  // The table's keys (speech.js KEYS), while the table shows and no dialog is open or field typed in.
  #key(event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
    const what = KEYS[event.key.toLowerCase()];
    if (!what || this.#view.root.hidden || !this.#state || document.querySelector("dialog[open]")) return;
    if (event.target.closest?.("input, select, textarea, [contenteditable]")) return;
    event.preventDefault();
    const { deal, totals, target, variant } = this.#state;
    if (what === "help") document.querySelector("#dlg-keys").showModal();
    else if (what === "trick") this.#speech.say(trickOnTable(this.#view, deal));
    else if (what === "scores") this.#speech.say(scoresSaid(this.#view, totals, target));
    else this.#speech.say(contractSaid(this.#view, deal.contract, variant));
  }

  // After a dialog: focus where the play is, if it was left nowhere (the browser gives it back to the dialog's
  // opener, unless that has gone).
  #refocus() {
    const active = document.activeElement;
    if (this.#view.root.hidden || document.querySelector("dialog[open]") || (active && active !== document.body)) return;
    const target = document.querySelector("#bidding:not([hidden]) button:enabled")
      ?? document.querySelector("#hand .card[tabindex='0']") ?? document.querySelector("#btn-menu");
    target?.focus({ preventScroll: true });
  }

  #showLastTrick() {
    const trick = this.#state?.last_trick ?? this.#lastTrick;
    if (trick) showLastTrick(this.#dialogs.lastTrick, this.#view, trick);
  }

  // ------------------------------------------------------------ drawing a state
  #render(state) {
    this.#state = state;
    this.#refreshMenu();
    const deal = state.deal;
    const view = this.#view;
    view.root.dataset.phase = deal.phase;
    view.root.dataset.variant = state.variant;
    view.renderScores(state.totals, state.target);
    renderHouseMark(view.root, state);
    view.renderSeats(deal);
    view.renderContract(deal);
    view.renderCalls(deal);
    view.renderTurned(deal.phase === "auction" ? deal.turned : null);
    if (deal.phase === "play") view.renderTrick(deal.trick, deal.leader);
    const myTurn = deal.current_player === this.#me && state.winner === null;
    const lastTrickButton = view.root.querySelector("#btn-last-trick");
    lastTrickButton.disabled = !(state.last_trick ?? this.#lastTrick);
    this.#renderHand(state);

    if (myTurn && deal.phase === "auction") this.#bidding.show(deal.legal, state.variant, state.bid_values);
    else if (myTurn && deal.phase === "play" && deal.announceable?.length) this.#bidding.showAnnounce(deal.announceable);
    else this.#bidding.hide();
    markFirstDeal(deal, myTurn);
    this.#renderCoach(state);
    view.root.dataset.turn = myTurn ? "me" : "bots";
    if (myTurn) this.#keepFocus(deal.phase);
    const turn = myTurn ? `${state.deal_index}:${deal.phase}:${deal.calls?.length ?? 0}:${deal.hand.length}` : null;
    if (turn && turn !== this.#turnSaid) this.#speech.say(t("access.say.your_turn"));
    this.#turnSaid = turn;
  }

  // The hand: the engine's playable cards lit, the others dimmed, with their reason when the coach is on
  // (shown as a tooltip, said to a screen reader; without it a screen reader hears only that it may not be played).
  #renderHand(state) {
    const deal = state.deal;
    const myTurn = deal.current_player === this.#me && state.winner === null;
    let playable = null;
    const reasons = {};
    if (myTurn && deal.phase === "play") {
      playable = new Set(deal.legal);
      const forbidden = this.#settings.coach ? deal.ruling?.forbidden ?? {} : {};
      for (const [card, f] of Object.entries(forbidden)) reasons[card] = t(`reason.${f.key}`, f.params);
    }
    const fresh = this.#handDealt !== state.deal_index;
    this.#handDealt = state.deal_index;
    this.#hand.render(deal.hand, { trump: deal.contract?.trump ?? null, playable, reasons });
    this.#view.root.querySelector("#hand").classList.toggle("deal-in", fresh && deal.hand.length > 0);
  }

  // A keyboard player whose focus was lost (the button pressed went away) finds it where the turn is.
  #keepFocus(phase) {
    const active = document.activeElement;
    if (active && active !== document.body) return;
    const target = phase === "auction"
      ? document.querySelector("#bidding button:enabled")
      : document.querySelector("#hand .card[tabindex='0']");
    target?.focus({ preventScroll: true });
  }

  // The coach's line under the hand: during the play, why cards are forbidden (or the surprising rule
  // that frees them); during the auction, the call the Normal bot would make here; at the first card of a
  // table of announcements, while the panel asks, the declaration it would make.
  async #renderCoach(state) {
    const line = this.#coachLine;
    const deal = state.deal;
    const myTurn = deal.current_player === this.#me && state.winner === null;
    const asking = deal.phase === "play" && deal.announceable?.length > 0;
    line.replaceChildren();
    line.hidden = true;
    line.dataset.kind = "";
    this.#view.root.dataset.coach = this.#settings.coach ? "on" : "off";
    if (!this.#settings.coach || !myTurn) return;
    if (deal.phase === "play" && !asking) {
      const text = playAdvice(deal.ruling);
      if (!text) return;
      line.append(coachLabel(), document.createTextNode(text));
      line.dataset.kind = "play";
      line.hidden = false;
      return;
    }
    if (deal.phase !== "auction" && !asking) return;
    let advice;
    try {
      advice = await this.#engine.call("coach");
    } catch (error) {
      console.warn("coach:", error);
      return;
    }
    if (!advice || this.#state !== state || !this.#settings.coach) return;
    let text;
    if (asking) {
      text = t(`coach.${advice.key}`, advice.params);
    } else {
      const reason = coachReason(advice);
      text = t("coach.auction", coachCall(advice.call)) + (reason ? ` ${reason}` : "");
    }
    line.append(coachLabel(), document.createTextNode(text));
    line.dataset.kind = asking ? "announce" : "auction";
    line.dataset.call = advice.call;
    line.hidden = false;
    this.#bidding.suggest(advice.call);
  }
}

function coachLabel() {
  return el("span", { class: "coach-label", text: t("coach.label") });
}

// One sentence for the player's turn: the surprising rule when one applies, else the strongest reason a
// card is forbidden, else the rule that leaves the choice free.
function playAdvice(ruling) {
  if (!ruling) return null;
  if (ruling.note) return t(`note.${ruling.note}`);
  const forbidden = Object.values(ruling.forbidden ?? {});
  if (forbidden.length) {
    const strongest = forbidden.reduce((a, b) => (b.rule > a.rule ? b : a));
    return t(`reason.${strongest.key}`, strongest.params);
  }
  return ruling.rule > 0 ? t(`rule.${ruling.rule}`) : null;
}

// The suggested call as catalogue parameters: its kind, and a bid's value and suit.
function coachCall(code) {
  const call = parseCall(code);
  if (!call?.suit) return { kind: code ?? "other", value: 0, suit: "" };
  if (call.value === CAPOT) return { kind: "capot", value: 0, suit: call.suit };
  return call;
}

// The bot's reason in words: its key (coach_bid, coach_pass...) with flat parameters for the catalogue.
function coachReason(advice) {
  const key = `coach.${advice.key}`;
  if (!has(key)) return null;
  const raw = advice.params ?? {};
  const expected = raw.expected ?? {};
  const trump = parseCall(raw.call)?.suit;
  const [suit, points] = trump && trump in expected
    ? [trump, expected[trump]]
    : Object.entries(expected).reduce((a, b) => (b[1] > a[1] ? b : a), ["", 0]);
  return t(key, {
    make_chance: raw.make_chance ?? 0,
    contract_chance: raw.contract_chance ?? 0,
    contract: raw.contract ? callName(raw.contract) : "",
    holder: raw.holder ?? (suit ? "best" : "none"),
    suit,
    points,
  });
}

// Whether the engine's state shows the same first deal as the build's (first-deals.json): the same seed,
// dealer, hand and calls open to the player. The match seeds differ (the engine draws its own).
function sameDeal(drawn, dealt) {
  const key = (state) => canonical([state.variant, state.target, state.deal_seed, state.deal]);
  return key(drawn) === key(dealt);
}

// JSON text with every object's keys sorted: the same value gives the same text whatever its keys' order.
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

// Performance marks read by bench/web_boot_bench.py: the first hand on screen, the player's first turn.
function markFirstDeal(deal, myTurn) {
  const markOnce = (name) => performance.getEntriesByName(name).length || performance.mark(name);
  if (deal.hand.length > 0) markOnce("cards-dealt");
  if (myTurn) markOnce("player-can-act");
}
