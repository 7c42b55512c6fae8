// Online play: the lobby screen (find an opponent with a countdown, a private table by link, a friends' table,
// join by code), the match on the same table as solo play driven by the referee (driver.js), the other
// players' presence, reconnection with the seat's token, and the fallback to a local table against three bots.
// The lobby of a friends' table is friends.js; this file holds its connection.
//
// <body data-screen="online"> while the lobby shows; <section id="online" data-mode> says what it shows:
// "choose", "no-referee", "connecting", "waiting", "lonely", "created", "joining", "resuming", "friends"
// (the lobby of a friends' table), "error".
import { app } from "../app.js";
import { el } from "../dom.js";
import { errorMessage } from "../errors.js";
import { applyTranslations, onLanguageChange, t } from "../i18n.js";
import { QuickChat } from "./chat.js";
import { RefereeClient } from "./client.js";
import { TurnClockBar } from "./clock.js";
import { RefereeDriver } from "./driver.js";
import { FriendsLobby, seatLabel, seatNames } from "./friends.js";
import { SpectatorView } from "./spectator.js";
import {
  MAX_NAME, cleanName, codeFromHash, defaultReferee, forgetTable, inviteLink, loadPrefs, loadSeat, parseCode,
  refereeOrNull, refereeURL, rememberTable, rememberedTable, savePrefs, saveSeat,
} from "./prefs.js";

const RETRY_MS = [1000, 2000, 4000, 8000]; // between reconnection attempts, the last one repeated
const REWATCH_ERRORS = new Set(["unreachable", "connection_lost", "unavailable"]); // a spectator tries again

// The messages of the lobby, by mode (the referee's own errors by their key).
const MODE_TEXT = {
  "no-referee": "online.no_referee",
  connecting: "online.connecting",
  waiting: "online.waiting",
  lonely: "online.no_opponent",
  created: "online.created",
  joining: "online.joining",
  resuming: "online.resuming",
};
const ERROR_TEXT = {
  unreachable: "online.unreachable",
  connection_lost: "online.unreachable",
  protocol: "online.protocol",
  no_such_table: "online.no_such_table",
  expired: "online.expired",
  bad_token: "online.seat_lost",
  seat_lost: "online.seat_lost",
  server_full: "online.server_full",
  too_many_connections: "online.too_many_connections",
  too_many_guesses: "online.too_many_guesses",
  match_started: "friends.error.match_started",
  table_full: "friends.error.table_full",
  seat_taken: "friends.error.seat_taken",
  too_few_players: "friends.need_two",
  unavailable: "cluster.unavailable",
  clock_replaced: "clock.replaced",
  not_started: "watch.error.not_started",
  no_spectators: "watch.error.no_spectators",
  too_many_spectators: "watch.error.too_many",
  spectator: "watch.error.spectator",
  unknown_preset: "public.error.unknown_preset",
};
const OPPONENT_TEXT = { away: "online.opponent.away", back: "online.opponent.back", replaced: "online.opponent.replaced" };
const PRESENCE_TEXT = { ...OPPONENT_TEXT, returned: "friends.returned" };

function bigButton(id, label, detail, primary = false) {
  return el("button", { type: "button", id, class: primary ? "btn primary big" : "btn big" },
    el("span", { "data-i18n": label }), el("small", { "data-i18n": detail }));
}

export class Online {
  #app; // {settings, show(screen), getGame(), startNew(variant), goHome(), engine} from main.js
  #prefs = loadPrefs();
  #root;
  #banner;
  #client = null;
  #welcome = null;
  #driver = null;
  #seat = null; // {url, token, seat, code?} while a match is played (or a friends' lobby waits)
  #names = {};
  #friends; // the lobby of a friends' table (friends.js)
  #table = null; // the seats of the friends' table being played ({player, name, connected} by seat), else null
  #opponentName = "";
  #status = null; // {key, params} of the line shown in the lobby
  #countdown = null; // {deadline, timer}
  #retry = null; // the timer of the next reconnection attempt
  #epoch = 0; // bumped when the player leaves: late answers of an older connection are dropped
  #clock = new TurnClockBar(); // the turn clock on the seat whose decision is timed
  #spectator; // the view of a friends' table watched (spectator.js)
  #chat; // quick chat at the table (chat.js)
  #watching = false; // a spectator of a friends' table
  #watchCode = null; // the code of the table watched: watched again after a dropped connection

  constructor(app) {
    this.#app = app;
    this.#friends = new FriendsLobby({
      sit: (seat) => this.#sit(seat), begin: () => this.#begin(), leave: () => this.#cancel(),
      copy: () => this.#copyLink("#friends-link", (key) => this.#friends.copied(key)),
    });
    this.#spectator = new SpectatorView({ leave: () => this.#cancel() });
    this.#root = this.#buildScreen();
    this.#banner = el("p", { id: "online-banner", class: "online-banner", role: "status", "aria-live": "polite", hidden: "" });
    document.querySelector("#table").append(this.#banner);
    this.#chat = new QuickChat({
      send: async (phrase) => this.#heard(await this.#client.request({ type: "say", phrase })),
      others: () => this.#others(),
      place: (seat) => (seat - (this.#seat?.seat ?? 0) + 4) % 4,
    });
    document.querySelector("#table .felt").append(this.#chat.root);
    document.querySelector("#table").before(this.#root);
    this.#buildSettings();
    onLanguageChange(() => { this.#drawStatus(); this.#friends.draw(); this.#spectator.draw(); });
  }

  // A match against the referee is on (the table belongs to it).
  get playing() { return this.#driver !== null; }

  // In the lobby of a friends' table, before its start.
  get #inLobby() { return this.#driver === null && this.#seat !== null && this.#root.dataset.mode === "friends"; }

  // ------------------------------------------------------------------ entering
  // At page load: back to the seat this tab held (a reload), or into the private table of #join=CODE.
  start() {
    document.querySelector("#btn-online").addEventListener("click", () => this.open());
    const saved = loadSeat();
    if (saved) this.#resume(saved);
    else this.#enterCode();
    // a link opened in this very tab changes the fragment only: the page stays, and hears it here
    window.addEventListener("hashchange", () => { if (!this.playing && !this.#seat) this.#enterCode(); });
  }

  // The table of the fragment's code (#join=K7M2QX), if any: a friends' table this browser sat at gets its
  // seat back (the remembered token), any other is joined.
  #enterCode() {
    const watch = codeFromHash(location.hash, "watch");
    if (watch) {
      history.replaceState(null, "", location.pathname + location.search);
      this.open({ watch });
      return;
    }
    const code = codeFromHash();
    if (!code) return;
    history.replaceState(null, "", location.pathname + location.search); // the code is used once
    const mine = rememberedTable(code);
    if (mine) this.#resume({ ...mine, code }, code);
    else this.open({ join: code });
  }

  async open({ join = null, watch = null } = {}) {
    this.#show();
    const url = await refereeURL(this.#prefs);
    if (!url) return this.#mode("no-referee");
    this.#mode("choose");
    if (join) this.#join(join);
    if (watch) this.#watch(watch);
    return undefined;
  }

  #show() {
    this.#app.show("online");
    this.#drawName();
  }

  // ------------------------------------------------------------------ the lobby
  async #connect() {
    this.#close();
    const epoch = this.#epoch;
    const url = await refereeURL(this.#prefs);
    const client = new RefereeClient(url, {
      onMessage: (message) => this.#receive(client, message),
      onClose: (info) => this.#closed(client, info),
    });
    this.#client = client;
    this.#welcome = await client.open();
    if (epoch !== this.#epoch) throw Object.assign(new Error("left"), { code: "left" });
    return client;
  }

  #options() {
    const { variant, target } = this.#app.settings;
    const options = { variant, target };
    if (this.#prefs.name) options.name = this.#prefs.name;
    return options;
  }

  async #lobby(mode, request) {
    this.#mode("connecting");
    const epoch = this.#epoch;
    try {
      const client = await this.#connect();
      this.#mode(mode, request.type === "join" ? { code: request.code } : {});
      const reply = await client.request(request);
      if (epoch !== this.#epoch) return;
      if (reply.type === "waiting") this.#startCountdown();
      if (reply.type === "seeking") this.#seeking(reply);
      if (reply.type === "created") await this.#created(reply);
      if (reply.type === "lobby") await this.#enterLobby(reply);
      if (reply.type === "watching") this.#startWatching(reply);
    } catch (error) {
      if (epoch === this.#epoch && !this.playing) this.#fail(error);
    }
  }

  // The settings' house rules, for a table created here (the queue pairs strangers by the game's own rules).
  #houseRules() {
    const { rules } = this.#app.settings;
    return rules && rules !== "own" ? { rules } : {};
  }

  #queue() { this.#lobby("waiting", { type: "queue", ...this.#options() }); }
  #create() { this.#lobby("connecting", { type: "create", ...this.#options(), ...this.#houseRules() }); }

  // A friends' table: the game, the target, the bots' level and the house rules of the settings, as one object.
  #openFriends() {
    const { name, variant, target } = this.#options();
    const clock = this.#root.querySelector("#online-clock").value;
    const spectators = this.#root.querySelector("#online-spectators").checked;
    const settings = { variant, target, level: this.#app.settings.level, clock, spectators, ...this.#houseRules() };
    this.#lobby("connecting", { type: "open", settings, ...(name ? { name } : {}) });
  }

  // The table code in `text`, or null once the player is told it is not one.
  #code(text) {
    const code = parseCode(text);
    if (!code) {
      this.#mode("choose");
      this.#setStatus("online.bad_code");
    }
    return code;
  }

  #join(text) {
    const code = this.#code(text);
    if (!code) return;
    const { name } = this.#options();
    this.#lobby("joining", { type: "join", code, lobby: true, ...(name ? { name } : {}) });
  }

  // A public table of four: the preset and the wait chosen here; bots take the empty seats when it is over.
  #seek() {
    const { name } = this.#options();
    const preset = this.#root.querySelector("#online-preset").value;
    const wait = Number(this.#root.querySelector("#online-wait").value);
    this.#lobby("waiting", { type: "seek", preset, wait, ...(name ? { name } : {}) });
  }

  #seeking(reply) {
    this.#setStatus("public.seeking");
    this.#startCountdown(reply.wait);
  }

  // A friends' table watched by its code: what every seat sees, read only.
  #watch(text) {
    const code = this.#code(text);
    if (!code) return;
    this.#lobby("joining", { type: "watch", code });
  }

  #startWatching(reply) {
    this.#watching = true;
    this.#watchCode = reply.code;
    this.#mode("watching");
    this.#spectator.show(reply);
  }

  #startCountdown(seconds = this.#welcome?.lobby_timeout ?? 10) {
    this.#stopCountdown();
    const deadline = performance.now() + seconds * 1000;
    const node = this.#root.querySelector("#online-countdown");
    const tick = () => {
      const left = Math.max(0, Math.ceil((deadline - performance.now()) / 1000));
      node.textContent = t("online.countdown", { n: left });
      node.dataset.seconds = String(left);
    };
    tick();
    this.#countdown = setInterval(tick, 250);
  }

  #stopCountdown() {
    clearInterval(this.#countdown);
    this.#countdown = null;
  }

  // A 1v1 private table waits for the friend: with its token the page resumes it if the connection drops (a
  // referee sharing Redis keeps it when the process that made it stops); a referee that sends none, or keeps
  // its tables in memory, ends it then.
  async #created(reply) {
    this.#seat = reply.token ? { url: this.#client.url, token: reply.token, seat: 0 } : null;
    await this.#showInvite(reply.code);
  }

  async #showInvite(code) {
    this.#mode("created");
    const link = await inviteLink(code, this.#client?.url);
    this.#root.querySelector("#online-code-shown").textContent = code;
    this.#root.querySelector("#online-link").value = link;
  }

  async #copyLink(selector = "#online-link", say = (key) => {
    this.#root.querySelector("#online-copied").textContent = t(key);
  }) {
    const input = this.#root.querySelector(selector);
    try {
      await navigator.clipboard.writeText(input.value);
      say(selector === "#online-link" ? "online.copied" : "friends.copied");
    } catch {
      input.select(); // the clipboard is refused: the link is selected for a manual copy
      say("online.copy_failed");
    }
  }

  // ------------------------------------------------------------------ a friends' table
  // The lobby as the referee sent it (to this seat): the seat and its token kept, as for a match.
  async #enterLobby(lobby) {
    const url = this.#client.url;
    this.#seat = { url, token: lobby.token, seat: lobby.seat, code: lobby.code };
    saveSeat(this.#seat);
    rememberTable(lobby.code, url, lobby.token);
    const link = this.#root.dataset.mode !== "friends" ? await inviteLink(lobby.code, url) : undefined;
    this.#mode("friends");
    this.#friends.show(lobby, link);
  }

  async #sit(seat) {
    try {
      await this.#enterLobby(await this.#client.request({ type: "sit", seat })); // the answer: the lobby, moved
    } catch (error) {
      this.#lobbyError(error);
    }
  }

  async #begin() {
    try {
      this.#play(await this.#client.request({ type: "begin" }));
    } catch (error) {
      this.#lobbyError(error);
    }
  }

  #lobbyError(error) {
    if (!this.#inLobby) return;
    const { key, params } = errorMessage(error, { keys: ERROR_TEXT, fallback: "online.error" });
    this.#root.querySelector("#friends-status").textContent = t(key, params);
  }

  #presence({ seat, status, grace, seats }) {
    if (!this.#table) return;
    this.#table = seats;
    const key = PRESENCE_TEXT[status];
    this.#setNames(seatNames(seats, this.#seat.seat));
    this.#app.getGame().redraw();
    if (key) this.#tell(t(key, { name: seatLabel(seats, seat, this.#seat.seat), grace: Math.round(grace ?? 0) }), status);
  }

  // The names the table shows, in the very object it holds.
  #setNames(names) {
    for (const seat of Object.keys(this.#names)) delete this.#names[seat];
    Object.assign(this.#names, names);
  }

  // The local table against three bots, with the engine in this page: works offline.
  #playBots() {
    this.leave();
    this.#app.startNew(this.#app.settings.variant);
  }

  #cancel() {
    this.leave();
    this.#mode("choose");
  }

  // ------------------------------------------------------------------ what the referee says
  #receive(client, message) {
    if (client !== this.#client) return;
    switch (message.type) {
      case "start":
        this.#play(message);
        break;
      case "lobby":
        if (!this.playing) this.#enterLobby(message);
        break;
      case "presence":
        if (this.#watching) this.#spectator.presence(message.seats);
        else this.#presence(message);
        break;
      case "update":
        if (this.#watching) {
          this.#spectator.update(message.state);
          break;
        }
        if (message.event?.timeout && message.event.seat === this.#seat?.seat) this.#playedForMe(message);
        else this.#driver?.push(message);
        break;
      case "opponent":
        this.#opponent(message);
        break;
      case "clock":
        this.#timedOut(message);
        break;
      case "said":
        if (this.#watching) this.#spectator.said(message);
        else this.#heard(message);
        break;
      case "server": // the referee's store is out of reach: the move waits, nothing is lost
        this.#tell(message.status === "reconnecting" ? t("cluster.reconnecting") : null, "lost");
        break;
      case "no_opponent":
        this.#stopCountdown();
        this.#mode("lonely");
        break;
      case "expired":
        if (this.#seat?.code) forgetTable(this.#seat.code);
        saveSeat(null);
        this.#seat = null;
        this.#fail({ code: "expired" });
        break;
      case "error":
        if (this.playing) this.#tell(t(ERROR_TEXT[message.error.key] ?? "online.error", { detail: message.error.message }));
        else this.#fail({ code: message.error.key, params: message.error.params, message: message.error.message });
        break;
      default:
        break;
    }
  }

  #play(message) {
    this.#stopCountdown();
    const { seat, token, state } = message;
    const other = 1 - seat;
    this.#seat = { url: this.#client.url, token, seat, ...(message.seats ? { code: message.code } : {}) };
    saveSeat(this.#seat);
    this.#table = message.seats ?? null;
    if (this.#table) {
      if (message.code) rememberTable(message.code, this.#client.url, token); // a public table has no code
      this.#names = seatNames(this.#table, seat);
    } else {
      this.#opponentName = message.names?.[other] || t("online.opponent_default");
      this.#names = { [other]: this.#opponentName };
      if (!state.humans.includes(other)) this.#names[other] = t("online.bot_for", { name: this.#opponentName });
    }
    this.#driver?.reset(state);
    this.#clock.reset(seat);
    this.#clock.receive(state);
    this.#driver = new RefereeDriver(state, this.#app.engine, (next) => this.#clock.receive(next));
    this.#driver.use(this.#client);
    this.#tell(null);
    this.#app.show("table");
    this.#app.getGame().begin(this.#driver, { event: null, state }, seat, this.#names);
    this.#chat.show(true);
  }

  // A phrase someone at the table said (this player's own too), at their seat.
  #heard(said) {
    const me = this.#seat?.seat;
    let name = t("friends.you");
    if (said.seat !== me) name = this.#table ? seatLabel(this.#table, said.seat, me) : this.#opponentName;
    this.#chat.heard(said, name);
  }

  // The other people at the table, whom this player may mute.
  #others() {
    const me = this.#seat?.seat;
    if (me === undefined || me === null) return [];
    if (this.#table) {
      return this.#table.map((s, seat) => ({ seat, person: s.player === "human" }))
        .filter(({ seat, person }) => person && seat !== me)
        .map(({ seat }) => ({ seat, name: seatLabel(this.#table, seat, me) }));
    }
    return [{ seat: 1 - me, name: this.#opponentName }];
  }

  #opponent({ status, grace }) {
    const key = OPPONENT_TEXT[status];
    if (!key) return;
    if (status === "replaced") {
      this.#names[1 - this.#seat.seat] = t("online.bot_for", { name: this.#opponentName });
    }
    this.#tell(t(key, { name: this.#opponentName, grace: Math.round(grace ?? 0) }), status);
  }

  // This player's time ran out: a bot played for them; after too many in a row it took the seat, as when a
  // player leaves. At a friends' table the seat is taken back with its token (a button); at a 1v1 table the
  // bot plays on and the player is back in the lobby.
  #timedOut({ status, strikes, limit }) {
    if (status !== "replaced") {
      this.#tell(t("clock.played", { strikes, limit }), "away");
      return;
    }
    this.#clock.stop();
    if (!this.#table) {
      this.leave();
      this.#show();
      this.#fail({ code: "clock_replaced", params: { limit } });
      return;
    }
    this.#tell(t("clock.replaced", { limit }), "replaced");
    const back = el("button", { type: "button", id: "btn-clock-back", class: "btn primary small", "data-i18n": "clock.take_back" });
    back.textContent = t("clock.take_back");
    back.addEventListener("click", () => this.#takeBack());
    this.#banner.append(" ", back);
  }

  // The bot played this player's decision (their time ran out): the table, which waits for the player's own
  // move, is drawn again from that update's state and plays on from there (a click meanwhile is refused).
  #playedForMe(update) {
    if (!this.#driver) return;
    this.#clock.receive(update.state);
    this.#driver.reset(update.state);
    this.#app.getGame().begin(this.#driver, { event: null, state: update.state }, this.#seat.seat, this.#names);
  }

  async #takeBack() {
    const epoch = this.#epoch;
    try {
      const resumed = await this.#client.request({ type: "resume", token: this.#seat.token });
      if (epoch === this.#epoch) this.#seated(resumed);
    } catch (error) {
      if (epoch === this.#epoch) this.#lost();
    }
  }

  // A line above the table: the opponent's presence, the connection; null hides it.
  #tell(text, kind = "info") {
    this.#banner.hidden = !text;
    this.#banner.textContent = text ?? "";
    this.#banner.dataset.kind = kind;
  }

  // ------------------------------------------------------------------ a dropped connection
  #closed(client, { byUs }) {
    if (client !== this.#client || byUs) return;
    this.#client = null;
    const waiting = this.#seat !== null && this.#root.dataset.mode === "created";
    if (this.#watching && !this.#spectator.over) {
      this.#rewatch(Date.now() + (this.#welcome?.grace ?? 60) * 1000, 0);
      return;
    }
    if (this.#watching) {
      this.leave();
      this.#fail({ code: "connection_lost" });
      return;
    }
    if ((this.playing && this.#driver.state.winner === null) || this.#inLobby || waiting) {
      this.#reconnect(Date.now() + (this.#welcome?.grace ?? 60) * 1000, 0);
    } else if (!this.playing && this.#root.dataset.mode !== "choose") {
      this.#fail({ code: "connection_lost" });
    }
  }

  #reconnect(deadline, attempt) {
    this.#tell(t("online.reconnecting"), "lost");
    const epoch = this.#epoch;
    const delay = RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)];
    this.#retry = setTimeout(async () => {
      this.#retry = null;
      try {
        await this.#resumeSeat();
      } catch (error) {
        if (epoch !== this.#epoch) return;
        if (error.code === "bad_token" || Date.now() > deadline) this.#lost();
        else this.#reconnect(deadline, attempt + 1);
      }
    }, delay);
  }

  // The watched table's connection dropped (its referee process stopped or died, or the network): connect again
  // and watch it by its code, wherever the table is now; a moment's `unavailable` (it is moving) is tried again.
  #rewatch(deadline, attempt) {
    this.#spectator.status("online.reconnecting");
    const epoch = this.#epoch;
    const delay = RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)];
    this.#retry = setTimeout(async () => {
      this.#retry = null;
      try {
        const client = await this.#connect();
        const reply = await client.request({ type: "watch", code: this.#watchCode });
        if (epoch !== this.#epoch) return;
        this.#spectator.status(null);
        this.#spectator.show(reply);
      } catch (error) {
        if (epoch !== this.#epoch) return;
        if (REWATCH_ERRORS.has(error.code) && Date.now() < deadline) this.#rewatch(deadline, attempt + 1);
        else {
          this.leave();
          this.#fail(error);
        }
      }
    }, delay);
  }

  // Reconnect and take the seat back: the table is drawn again from the referee's state.
  async #resumeSeat() {
    const client = await this.#connect();
    const resumed = await client.request({ type: "resume", token: this.#seat.token });
    this.#seated(resumed);
  }

  // The answer to resume: the match, the lobby of a friends' table not started yet, or a 1v1 private table
  // still waiting for the friend.
  #seated(resumed) {
    if (resumed.type === "lobby") {
      this.#tell(null);
      this.#enterLobby(resumed);
    } else if (resumed.type === "created") {
      this.#tell(null);
      this.#created(resumed);
    } else this.#play(resumed);
  }

  // A page opened again in this tab (a reload) while it held a seat, or the link of a friends' table this
  // browser sat at (`code`: if the seat is no longer there, the page joins the table as anyone would).
  async #resume(saved, code = null) {
    this.#seat = saved;
    this.#show();
    this.#mode("resuming");
    const epoch = this.#epoch;
    try {
      if (!refereeOrNull(saved.url)) throw new Error("not a referee URL");
      const client = new RefereeClient(saved.url, {
        onMessage: (message) => this.#receive(client, message),
        onClose: (info) => this.#closed(client, info),
      });
      this.#client = client;
      this.#welcome = await client.open();
      const resumed = await client.request({ type: "resume", token: saved.token });
      if (epoch === this.#epoch) this.#seated(resumed);
    } catch (error) {
      if (epoch !== this.#epoch) return;
      saveSeat(null);
      this.#seat = null;
      if (saved.code) forgetTable(saved.code);
      if (code && error.code === "bad_token") {
        this.#close();
        this.open({ join: code });
        return;
      }
      this.#fail(error.code === "bad_token" ? error : { code: "unreachable" });
    }
  }

  #lost() {
    this.leave();
    this.#show();
    this.#fail({ code: "seat_lost" });
  }

  // ------------------------------------------------------------------ leaving
  // The player leaves (home, the bots instead, the end of the match): the seat goes to a bot at once.
  leave() {
    this.#epoch += 1;
    // out of a lobby, or at the end of the match, the seat is given up: its token is of no more use; during a
    // friends' match it is kept, so that the table's link takes the seat back from its bot
    const code = this.#seat?.code;
    if (code && (!this.playing || this.#driver.state.winner !== null)) forgetTable(code);
    this.#table = null;
    this.#watching = false;
    this.#spectator.stop();
    this.#chat.show(false);
    this.#client?.send({ type: this.playing ? "leave" : "cancel" });
    this.#close();
    saveSeat(null);
    this.#seat = null;
    this.#driver?.reset(this.#driver.state);
    this.#driver = null;
    this.#clock.stop();
    this.#tell(null);
  }

  #close() {
    clearTimeout(this.#retry);
    this.#retry = null;
    this.#stopCountdown();
    const client = this.#client;
    this.#client = null;
    client?.close();
  }

  // The match result's choice: another 1v1, or home.
  exit(reason) {
    this.leave();
    if (reason === "new") this.open();
    else this.#app.goHome();
  }

  // Tests: the socket drops as on a network failure (the page then reconnects with its token).
  drop() {
    this.#client?.drop();
  }

  // ------------------------------------------------------------------ drawing the lobby
  #mode(mode, params = {}) {
    this.#root.dataset.mode = mode;
    if (mode !== "waiting") this.#stopCountdown();
    const busy = !["choose", "no-referee", "error"].includes(mode);
    this.#root.querySelector(".online-choices").hidden = busy || mode === "no-referee";
    this.#root.querySelector("#online-countdown").hidden = mode !== "waiting";
    this.#root.querySelector(".online-invite").hidden = mode !== "created";
    this.#root.querySelector(".online-friends").hidden = mode !== "friends";
    this.#root.querySelector(".online-watch").hidden = mode !== "watching";
    const own = mode === "friends" || mode === "watching"; // a view with its own status and buttons
    this.#root.querySelector(".online-wait").hidden = !busy || mode === "watching";
    this.#root.querySelector("#online-status").hidden = own;
    this.#root.querySelector("#btn-online-cancel").hidden = own;
    this.#root.querySelector("#btn-online-back").hidden = own;
    this.#root.querySelector(".online-fallback").hidden = !["lonely", "no-referee", "error"].includes(mode);
    this.#root.querySelector("#btn-online-keep").hidden = mode !== "lonely";
    this.#root.querySelector("#online-copied").textContent = "";
    this.#setStatus(MODE_TEXT[mode] ?? null, params);
  }

  #fail(error) {
    this.#close();
    this.#mode("error");
    const { key, params } = errorMessage(error, { keys: ERROR_TEXT, fallback: "online.error" });
    this.#setStatus(key, { ...params, code: params.code ?? "", seconds: params.retry_after ?? 60 });
  }

  #setStatus(key, params = {}) {
    this.#status = key ? { key, params } : null;
    this.#drawStatus();
  }

  #drawStatus() {
    const line = this.#root.querySelector("#online-status");
    line.textContent = this.#status ? t(this.#status.key, this.#status.params) : "";
    this.#drawName();
  }

  #drawName() {
    const who = this.#root.querySelector("#online-who");
    const name = this.#prefs.name;
    who.textContent = name ? t("online.playing_as", { name }) : t("online.no_name");
    const { variant, target } = this.#app.settings;
    this.#root.querySelector("#online-options").textContent = t("online.options", { variant, target });
  }

  #buildScreen() {
    const root = el("section", { id: "online", class: "online", "aria-labelledby": "online-title", "data-mode": "choose" },
      el("h1", { id: "online-title", "data-i18n": "online.title" }),
      el("p", { class: "online-intro", "data-i18n": "online.intro" }),
      el("p", { class: "online-who" },
        el("span", { id: "online-who" }), " ", el("span", { id: "online-options" }), " ",
        el("button", { type: "button", id: "btn-online-settings", class: "btn ghost small", "data-i18n": "online.change" })),
      el("div", { class: "online-choices" },
        bigButton("btn-online-queue", "online.queue", "online.queue_detail", true),
        bigButton("btn-online-public", "public.open", "public.open_detail"),
        el("p", { class: "online-clock-choice" },
          el("label", { for: "online-preset", "data-i18n": "public.preset" }), " ",
          el("select", { id: "online-preset", name: "preset" },
            el("option", { value: "coinche", "data-i18n": "public.preset.coinche" }),
            el("option", { value: "coinche-501", "data-i18n": "public.preset.coinche_501" }),
            el("option", { value: "classic", "data-i18n": "public.preset.classic" }),
            el("option", { value: "german", "data-i18n": "public.preset.german" })), " ",
          el("label", { for: "online-wait", "data-i18n": "public.wait" }), " ",
          el("select", { id: "online-wait", name: "wait" },
            el("option", { value: "0", "data-i18n": "public.wait.now" }),
            el("option", { value: "15", "data-i18n": "public.wait.15" }),
            el("option", { value: "30", selected: "", "data-i18n": "public.wait.30" }),
            el("option", { value: "60", "data-i18n": "public.wait.60" }),
            el("option", { value: "120", "data-i18n": "public.wait.120" }))),
        bigButton("btn-online-friends", "friends.open", "friends.open_detail"),
        el("p", { class: "online-clock-choice" },
          el("label", { for: "online-clock", "data-i18n": "clock.label" }), " ",
          el("select", { id: "online-clock", name: "clock" },
            el("option", { value: "fast", "data-i18n": "clock.fast" }),
            el("option", { value: "normal", selected: "", "data-i18n": "clock.normal" }),
            el("option", { value: "relaxed", "data-i18n": "clock.relaxed" }))),
        el("p", { class: "online-clock-choice" },
          el("input", { type: "checkbox", id: "online-spectators", name: "spectators", checked: "" }),
          el("label", { for: "online-spectators", "data-i18n": "watch.allow" })),
        bigButton("btn-online-create", "online.create", "online.create_detail"),
        el("form", { id: "online-join", class: "online-join" },
          el("label", { for: "online-code", "data-i18n": "online.code_label" }),
          el("input", { id: "online-code", name: "code", autocomplete: "off", autocapitalize: "characters", spellcheck: "false", maxlength: "16", inputmode: "text" }),
          el("button", { type: "submit", class: "btn", "data-i18n": "online.join" }),
          el("button", { type: "button", id: "btn-online-watch", class: "btn ghost", "data-i18n": "watch.button" }))),
      el("p", { id: "online-status", class: "online-status", role: "status", "aria-live": "polite" }),
      el("div", { class: "online-wait" },
        el("p", { id: "online-countdown", class: "online-countdown", "aria-live": "off" }),
        el("div", { class: "online-invite" },
          el("p", { class: "online-code" }, el("span", { "data-i18n": "online.code_label" }), " ", el("strong", { id: "online-code-shown" })),
          el("label", { for: "online-link", class: "visually-hidden", "data-i18n": "online.link_label" }),
          el("input", { id: "online-link", readonly: "" }),
          el("button", { type: "button", id: "btn-online-copy", class: "btn primary", "data-i18n": "online.copy" }),
          el("p", { id: "online-copied", class: "online-copied", role: "status" })),
        el("button", { type: "button", id: "btn-online-cancel", class: "btn ghost", "data-i18n": "online.cancel" })),
      this.#friends.root,
      this.#spectator.root,
      el("div", { class: "online-fallback" },
        el("button", { type: "button", id: "btn-online-bots", class: "btn primary big" },
          el("span", { "data-i18n": "online.play_bots" }), el("small", { "data-i18n": "online.play_bots_detail" })),
        el("button", { type: "button", id: "btn-online-keep", class: "btn", "data-i18n": "online.keep_waiting" })),
      el("button", { type: "button", id: "btn-online-back", class: "btn ghost", "data-i18n": "online.back" }));
    applyTranslations(root);
    const on = (selector, handler) => root.querySelector(selector).addEventListener("click", handler);
    on("#btn-online-queue", () => this.#queue());
    on("#btn-online-create", () => this.#create());
    on("#btn-online-friends", () => this.#openFriends());
    on("#btn-online-public", () => this.#seek());
    on("#btn-online-watch", () => this.#watch(root.querySelector("#online-code").value));
    on("#btn-online-copy", () => this.#copyLink());
    on("#btn-online-cancel", () => this.#cancel());
    on("#btn-online-bots", () => this.#playBots());
    on("#btn-online-keep", () => { this.#mode("waiting"); this.#setStatus("online.waiting"); });
    on("#btn-online-back", () => { this.leave(); this.#app.goHome(); });
    on("#btn-online-settings", () => document.querySelector("#btn-settings").click());
    root.querySelector("#online-join").addEventListener("submit", (event) => {
      event.preventDefault();
      this.#join(root.querySelector("#online-code").value);
    });
    return root;
  }

  // The name and the referee's address, in the settings dialog.
  #buildSettings() {
    const name = el("input", { id: "setting-name", name: "player_name", maxlength: String(MAX_NAME), autocomplete: "nickname" });
    const referee = el("input", { id: "setting-referee", name: "referee", type: "url", inputmode: "url", spellcheck: "false", placeholder: "wss://…" });
    const hint = el("small", { id: "setting-referee-hint" });
    const box = el("fieldset", { class: "online-settings" },
      el("legend", { "data-i18n": "settings.online" }),
      el("label", { for: "setting-name", "data-i18n": "settings.name" }), name,
      el("label", { for: "setting-referee", "data-i18n": "settings.referee" }), referee, hint);
    applyTranslations(box);
    name.value = this.#prefs.name;
    referee.value = this.#prefs.referee;
    const drawHint = async () => {
      const fallback = await defaultReferee();
      hint.textContent = fallback ? t("settings.referee_default", { url: fallback }) : t("settings.referee_none");
    };
    // build-info.json is read only when the dialog opens (the boot reads it once, and no more is wanted)
    for (const id of ["#btn-settings", "#btn-menu"]) {
      document.querySelector(id)?.addEventListener("click", drawHint);
    }
    onLanguageChange(() => { if (hint.textContent) drawHint(); });
    const save = () => {
      this.#prefs = { name: cleanName(name.value), referee: refereeOrNull(referee.value) ?? "" };
      referee.setCustomValidity(referee.value.trim() && !refereeOrNull(referee.value) ? t("settings.referee_invalid") : "");
      savePrefs(this.#prefs);
      this.#drawName();
    };
    name.addEventListener("change", save);
    referee.addEventListener("change", save);
    const form = document.querySelector("#settings-form");
    form.querySelector(".dialog-actions").before(box);
    form.closest("dialog").addEventListener("close", () => {
      save();
      name.value = this.#prefs.name;
      if (app.screen === "online" && !this.#client) this.open();
    });
  }
}
