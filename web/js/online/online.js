// 1v1 online: the lobby screen (find an opponent with a countdown, a private table by link, join by code),
// the match on the same table as solo play driven by the referee (driver.js), the opponent's presence,
// reconnection with the seat's token, and the fallback to a local table against three bots.
//
// <body data-screen="online"> while the lobby shows; <section id="online" data-mode> says what it shows:
// "choose", "no-referee", "connecting", "waiting", "lonely", "created", "joining", "resuming", "error".
import { applyTranslations, onLanguageChange, t } from "../i18n.js";
import { RefereeClient } from "./client.js";
import { RefereeDriver } from "./driver.js";
import {
  MAX_NAME, cleanName, codeFromHash, defaultReferee, inviteLink, loadPrefs, loadSeat, parseCode, refereeOrNull,
  refereeURL, savePrefs, saveSeat,
} from "./prefs.js";

const RETRY_MS = [1000, 2000, 4000, 8000]; // between reconnection attempts, the last one repeated

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
  unavailable: "cluster.unavailable",
};
const OPPONENT_TEXT = { away: "online.opponent.away", back: "online.opponent.back", replaced: "online.opponent.replaced" };

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

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
  #seat = null; // {url, token, seat} while a match is played
  #names = {};
  #opponentName = "";
  #status = null; // {key, params} of the line shown in the lobby
  #countdown = null; // {deadline, timer}
  #retry = null; // the timer of the next reconnection attempt
  #epoch = 0; // bumped when the player leaves: late answers of an older connection are dropped

  constructor(app) {
    this.#app = app;
    this.#root = this.#buildScreen();
    this.#banner = el("p", { id: "online-banner", class: "online-banner", role: "status", "aria-live": "polite", hidden: "" });
    document.querySelector("#table").append(this.#banner);
    document.querySelector("#table").before(this.#root);
    this.#buildSettings();
    onLanguageChange(() => this.#drawStatus());
  }

  // A match against the referee is on (the table belongs to it).
  get playing() { return this.#driver !== null; }

  // ------------------------------------------------------------------ entering
  // At page load: back to the seat this tab held (a reload), or into the private table of #join=CODE.
  start() {
    document.querySelector("#btn-online").addEventListener("click", () => this.open());
    const saved = loadSeat();
    const code = codeFromHash();
    if (saved) this.#resume(saved);
    else if (code) {
      history.replaceState(null, "", location.pathname + location.search); // the code is used once
      this.open({ join: code });
    }
  }

  async open({ join = null } = {}) {
    this.#show();
    const url = await refereeURL(this.#prefs);
    if (!url) return this.#mode("no-referee");
    this.#mode("choose");
    if (join) this.#join(join);
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
      if (reply.type === "created") await this.#showInvite(reply.code);
    } catch (error) {
      if (epoch === this.#epoch && !this.playing) this.#fail(error);
    }
  }

  #queue() { this.#lobby("waiting", { type: "queue", ...this.#options() }); }
  #create() { this.#lobby("connecting", { type: "create", ...this.#options() }); }

  #join(text) {
    const code = parseCode(text);
    if (!code) {
      this.#mode("choose");
      this.#setStatus("online.bad_code");
      return;
    }
    const { name } = this.#options();
    this.#lobby("joining", { type: "join", code, ...(name ? { name } : {}) });
  }

  #startCountdown() {
    this.#stopCountdown();
    const seconds = this.#welcome?.lobby_timeout ?? 10;
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

  async #showInvite(code) {
    this.#mode("created");
    const link = await inviteLink(code, this.#client?.url);
    this.#root.querySelector("#online-code-shown").textContent = code;
    this.#root.querySelector("#online-link").value = link;
  }

  async #copyLink() {
    const input = this.#root.querySelector("#online-link");
    const done = this.#root.querySelector("#online-copied");
    try {
      await navigator.clipboard.writeText(input.value);
      done.textContent = t("online.copied");
    } catch {
      input.select(); // the clipboard is refused: the link is selected for a manual copy
      done.textContent = t("online.copy_failed");
    }
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
      case "update":
        this.#driver?.push(message);
        break;
      case "opponent":
        this.#opponent(message);
        break;
      case "server": // the referee's store is out of reach: the move waits, nothing is lost
        this.#tell(message.status === "reconnecting" ? t("cluster.reconnecting") : null, "lost");
        break;
      case "no_opponent":
        this.#stopCountdown();
        this.#mode("lonely");
        break;
      case "expired":
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
    this.#seat = { url: this.#client.url, token, seat };
    saveSeat(this.#seat);
    this.#opponentName = message.names?.[other] || t("online.opponent_default");
    this.#names = { [other]: this.#opponentName };
    if (!state.humans.includes(other)) this.#names[other] = t("online.bot_for", { name: this.#opponentName });
    this.#driver?.reset(state);
    this.#driver = new RefereeDriver(state, this.#app.engine);
    this.#driver.use(this.#client);
    this.#tell(null);
    this.#app.show("table");
    this.#app.getGame().begin(this.#driver, { event: null, state }, seat, this.#names);
  }

  #opponent({ status, grace }) {
    const key = OPPONENT_TEXT[status];
    if (!key) return;
    if (status === "replaced") {
      this.#names[1 - this.#seat.seat] = t("online.bot_for", { name: this.#opponentName });
    }
    this.#tell(t(key, { name: this.#opponentName, grace: Math.round(grace ?? 0) }), status);
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
    if (this.playing && this.#driver.state.winner === null) {
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

  // Reconnect and take the seat back: the table is drawn again from the referee's state.
  async #resumeSeat() {
    const client = await this.#connect();
    const resumed = await client.request({ type: "resume", token: this.#seat.token });
    this.#play({ ...resumed, token: resumed.token });
  }

  // A page opened again in this tab (a reload) while it held a seat.
  async #resume(saved) {
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
      if (epoch === this.#epoch) this.#play(resumed);
    } catch (error) {
      if (epoch !== this.#epoch) return;
      saveSeat(null);
      this.#seat = null;
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
    this.#client?.send({ type: this.playing ? "leave" : "cancel" });
    this.#close();
    saveSeat(null);
    this.#seat = null;
    this.#driver?.reset(this.#driver.state);
    this.#driver = null;
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
    this.#root.querySelector(".online-wait").hidden = !busy;
    this.#root.querySelector("#online-countdown").hidden = mode !== "waiting";
    this.#root.querySelector(".online-invite").hidden = mode !== "created";
    this.#root.querySelector(".online-fallback").hidden = !["lonely", "no-referee", "error"].includes(mode);
    this.#root.querySelector("#btn-online-keep").hidden = mode !== "lonely";
    this.#root.querySelector("#online-copied").textContent = "";
    this.#setStatus(MODE_TEXT[mode] ?? null, params);
  }

  #fail(error) {
    this.#close();
    this.#mode("error");
    const key = ERROR_TEXT[error.code] ?? "online.error";
    this.#setStatus(key, {
      code: error.params?.code ?? "", detail: error.message ?? error.code, seconds: error.params?.retry_after ?? 60,
    });
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
        bigButton("btn-online-create", "online.create", "online.create_detail"),
        el("form", { id: "online-join", class: "online-join" },
          el("label", { for: "online-code", "data-i18n": "online.code_label" }),
          el("input", { id: "online-code", name: "code", autocomplete: "off", autocapitalize: "characters", spellcheck: "false", maxlength: "16", inputmode: "text" }),
          el("button", { type: "submit", class: "btn", "data-i18n": "online.join" }))),
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
      el("div", { class: "online-fallback" },
        el("button", { type: "button", id: "btn-online-bots", class: "btn primary big" },
          el("span", { "data-i18n": "online.play_bots" }), el("small", { "data-i18n": "online.play_bots_detail" })),
        el("button", { type: "button", id: "btn-online-keep", class: "btn", "data-i18n": "online.keep_waiting" })),
      el("button", { type: "button", id: "btn-online-back", class: "btn ghost", "data-i18n": "online.back" }));
    applyTranslations(root);
    const on = (selector, handler) => root.querySelector(selector).addEventListener("click", handler);
    on("#btn-online-queue", () => this.#queue());
    on("#btn-online-create", () => this.#create());
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
      if (document.body.dataset.screen === "online" && !this.#client) this.open();
    });
  }
}
