// The site's entry: boots the engine in its worker (showing real progress), the home screen with the ways
// in (play coinche or classic, resume, the judge, the rules, settings), and the table once a match starts.
// The app's state and screen: js/app.js.
import { app, engine, setState, shareLink, show } from "./app.js";
import { errorText } from "./errors.js";
import { firstDealFor, firstHands, keepNextFirstDeals, loadBuildDeals } from "./first-deals.js";
import { ALL_CARDS, parseDailyLink, parseHistoryLink, parseShareLink } from "./notation.js";
import { el } from "./dom.js";
import { applyTranslations, catalogueLoaded, detectLanguage, languagePicker, onLanguageChange, setLanguage, t } from "./i18n.js";
import { buildCard, loadArt, relabelCards, restyleCards, setDeckStyle } from "./table/cards.js";
import { applyPreset, fillHouseRules, readHouseRules } from "./table/house.js";
import {
  CARD_LOOK, CARD_STYLES, LEVELS, SPEEDS, TARGETS, VARIANTS, applyDeck, loadSavedMatch, loadSettings, saveMatch, saveSettings,
} from "./table/settings.js";

performance.mark("main-start");
export { engine, shareLink }; // for the tests and the bench

// Only what draws the home screen is imported statically; the table, the 1v1 lobby and the service
// worker's page side load while the home shows, long before the engine is ready, but only once the engine's
// worker has its own scripts and Python's downloads have begun (REST_AFTER_PYTHON_MS after the worker says
// it starts Python): over HTTP/1.1 a browser opens six connections to a host, and a dozen modules asked
// for at once would queue the worker's files behind them. Asked for sooner (a click) they load at once.
const REST_AFTER_PYTHON_MS = 150;
const REST_AT_THE_LATEST_MS = 1500;
let rest = null;
let restAsked;
const restWanted = new Promise((resolve) => (restAsked = resolve));
function loadRest() {
  rest ??= {
    game: import("./table/game.js"),
    online: import("./online/online.js"),
    // told at once how to see the table, before its service worker can offer an update
    pwa: import("./pwa.js").then((pwa) => { pwa.watchTable(() => app.screen === "table"); return pwa; }),
  };
  restAsked(rest);
  if (app.state === "loading") {
    loadBuildDeals();
    firstHands().then((hands) => loadArt(hands.flat())); // a first match's cards: their art before any other
  }
  return rest;
}
const restTimer = setTimeout(loadRest, REST_AT_THE_LATEST_MS);

// The boot steps in order; a download reports its bytes.
const STEPS = ["build-info", "pyodide", "engine-download", "engine-install", "engine-import"];
let bootProgress = { step: "build-info", loaded: 0, total: 0 };
let progressFrame = 0; // a draw of the progress asked for the next frame
engine.onProgress = (message) => {
  if (message.step === "pyodide" && !rest) {
    clearTimeout(restTimer);
    setTimeout(loadRest, REST_AFTER_PYTHON_MS);
  }
  bootProgress = message;
  // One draw per frame: the wheel's chunks arrive in a burst, and each draw is a frame painted on the CPU
  // while Python boots.
  progressFrame ||= requestAnimationFrame(() => {
    progressFrame = 0;
    drawProgress();
  });
};

const $ = (selector) => document.querySelector(selector);
const settings = loadSettings();
setDeckStyle(settings.deck);
export let game = null;
let pendingStart = null; // a start asked for while the engine loads

// ------------------------------------------------------------------ boot progress
function formatBytes(n) {
  const mb = n / 1e6;
  return mb >= 1 ? t("home.boot.mb", { n: mb.toFixed(1) }) : t("home.boot.kb", { n: Math.max(1, Math.round(n / 1e3)) });
}

// Its words once the catalogue is there (a first visit's worker may report before it): the language's first
// draw writes them.
function drawProgress() {
  if (app.state !== "loading") return;
  const { step, loaded, total } = bootProgress;
  const index = Math.max(STEPS.indexOf(step), 0);
  const within = total > 0 ? Math.min(loaded / total, 1) : 0;
  $("#boot-progress").value = (index + within) / STEPS.length;
  if (!catalogueLoaded()) return;
  $("#boot-step").textContent = t("home.boot.step", { n: index + 1, total: STEPS.length });
  $("#boot-bytes").textContent = total > 0 ? t("home.boot.bytes", { loaded: formatBytes(loaded), total: formatBytes(total) }) : "";
  $("#boot-status").textContent = t(`home.boot.${step}`);
}

let engineVersion = null; // once the engine answered

function drawReady() {
  if (app.state === "ready" && catalogueLoaded()) $("#boot-status").textContent = t("home.boot.ready", { version: engineVersion });
}

// The next visit's first deals are dealt a moment after the boot, behind the first match's commands.
const KEEP_FIRST_DEALS_AFTER_MS = 2000;
const keepFirstDeals = () => keepNextFirstDeals(engine, settings, VARIANTS);

async function watchBoot() {
  try {
    await engine.ready; // the worker's "ready" carries the engine's version: no round trip more
    const version = engine.version;
    performance.mark("engine-ready");
    setState("ready");
    $("#boot-progress").value = 1;
    $("#boot-step").textContent = "";
    $("#boot-bytes").textContent = "";
    engineVersion = version ?? "dev";
    drawReady();
    $("#boot-waiting").hidden = true;
    if (pendingStart) {
      const start = pendingStart;
      pendingStart = null;
      start();
    }
    setTimeout(keepFirstDeals, KEEP_FIRST_DEALS_AFTER_MS);
    setTimeout(() => loadArt(ALL_CARDS), KEEP_FIRST_DEALS_AFTER_MS); // every later deal's art, ready when dealt
  } catch (error) {
    setState("error");
    document.body.dataset.errorCode = error.code ?? "unknown";
    await languageReady; // its words are the catalogue's
    $("#boot-status").textContent = `${t("error.engine_boot", { detail: error.message })} ${t("home.boot.reload")}`;
    $("#boot-waiting").hidden = true;
  }
}

// ------------------------------------------------------------------ screens
app.onScreen.add((screen) => screen === "home" && drawResume());
app.onScreen.add((screen) => screen === "home" && daily && drawDailyCard());

// Drawn once its art is loaded (at once in the simple deck): no court shows first without its figure.
const LOGO = ["Jh", "9s", "Ad", "Tc"];
async function drawLogo() {
  await loadArt(LOGO);
  $("#logo-fan").replaceChildren(...LOGO.map((code, i) => {
    const card = buildCard(code);
    card.style.setProperty("--i", String(i));
    return card;
  }));
}

function drawResume() {
  const saved = loadSavedMatch();
  const button = $("#btn-resume");
  button.hidden = !saved;
  if (!saved) return;
  $("#resume-detail").textContent = resumeDetail(saved);
}

function resumeDetail(saved) {
  const s = saved.settings ?? {};
  const variant = VARIANTS.includes(s.variant) ? s.variant : "coinche";
  return t("home.resume_detail", { variant, target: s.target ?? "", level: s.level ?? "normal" });
}

// Play coinche / classic while a match is saved: the page asks first (resume it, or start anew), so that
// one tap never throws a match away.
function playOrAsk(variant) {
  const saved = loadSavedMatch();
  if (!saved) return startNew(variant);
  const dialog = $("#dlg-confirm-new");
  $("#dlg-confirm-saved").textContent = resumeDetail(saved);
  dialog.returnValue = "";
  dialog.addEventListener("close", () => {
    if (dialog.returnValue === "resume") resume();
    else if (dialog.returnValue === "new") startNew(variant);
  }, { once: true });
  dialog.showModal();
  return undefined;
}

let Game = null; // the class, once js/table/game.js has loaded

// The table's controller (made once); only after loadGame() has resolved once.
function getGame() {
  if (!game) {
    game = new Game(engine, $("#table"), settings, {
      onExit: (reason) => (online?.playing ? online.exit(reason) : reason === "new" ? startNew() : goHome()),
    });
  }
  return game;
}

async function loadGame() {
  ({ Game } = await loadRest().game);
  return getGame();
}

// Runs start() now if the engine is ready, else as soon as it is (the home shows that it waits).
function whenReady(start) {
  if (app.state === "ready") return start();
  if (app.state === "error") return undefined;
  pendingStart = start;
  $("#boot-waiting").hidden = false;
  return undefined;
}

// A new match is asked of the engine at once, even while it boots: its worker deals as soon as the engine is
// imported, with no round trip through the page (the home says it waits). One start at a time: a second
// press while one is on its way does nothing.
let starting = false;

async function startNew(variant = settings.variant) {
  settings.variant = variant;
  saveSettings(settings);
  if (starting || app.state === "error") return;
  starting = true;
  if (app.state !== "ready") $("#boot-waiting").hidden = false;
  try {
    // ?seed=… replays the same deals (for tests and bug reports); a new match is random otherwise.
    const seed = new URLSearchParams(location.search).get("seed") ?? undefined;
    const options = { variant, target: settings.target, level: settings.level, seed, rules: settings.rules };
    // While the engine boots, a first deal it dealt at build time is drawn at once (the engine deals the
    // same cards when it is up). The table shows with its cards: an empty table drawn first would hold up
    // the engine's answer.
    const [first, table] = await Promise.all([seed === undefined ? firstDealFor(options) : null, loadGame()]);
    // Once the table shows, another start may follow (the player left the build's first deal for the home).
    await table.newMatch(options, () => {
      starting = false;
      show("table");
    }, first);
  } catch (error) {
    failStart(error);
  } finally {
    starting = false;
  }
}

const RULES_ERRORS = new Set(["unknown_rule_option", "bad_rule_value"]);
// An action of a house rule the save's own rules do not play (coinche.session.RULES_NOT_PLAYED): said, the save kept.
const RULES_NOT_PLAYED = new Set(["contract_not_played", "announce_not_played"]);

function resume() {
  const snapshot = loadSavedMatch();
  if (!snapshot) return;
  whenReady(async () => {
    show("table");
    try {
      await (await loadGame()).resume(snapshot);
    } catch (error) {
      if (RULES_ERRORS.has(error.code)) {
        // a rule this release does not know: the save is kept (a later release may read it), nothing started
        show("home");
        $("#boot-status").textContent = t("house.save_kept", { name: error.params?.name ?? "" });
        return undefined;
      }
      if (RULES_NOT_PLAYED.has(error.code)) {
        show("home");
        $("#boot-status").textContent = errorText(error);
        return undefined;
      }
      saveMatch(null);
      if (error.code !== "save_corrupt" && error.code !== "save_old") return failStart(error);
      // A save the engine cannot replay (damaged, or from an older release): say so, deal a new match.
      notice(errorText(error));
      const variant = snapshot.settings?.variant;
      return startNew(VARIANTS.includes(variant) ? variant : settings.variant);
    }
  });
}

// A message over the table for a few seconds (what the page did on its own: a save replaced, the engine
// restarted).
function notice(text) {
  const node = el("div", { class: "toast warn notice", role: "status", text });
  $("#toasts").append(node);
  setTimeout(() => node.remove(), 6000);
}

// The engine's worker died (a crash, out of memory): a new worker, and the match at the table loaded
// again from its save, as it was after the last action.
engine.onCrash = async (error) => {
  console.warn("engine:", error);
  const atTable = app.screen === "table";
  game?.stop();
  notice(t("error.worker_crashed"));
  try {
    await engine.restart();
  } catch (failure) {
    return failStart(failure);
  }
  if (atTable && game?.oneDeal) return (await loadDaily()).resumePlaying(); // a deal of the day's, a challenge's
  const snapshot = loadSavedMatch();
  if (!atTable || app.screen !== "table") return undefined;
  if (!snapshot) return goHome();
  try {
    return await (await loadGame()).resume(snapshot);
  } catch (failure) {
    return failStart(failure);
  }
};

// ------------------------------------------------------------------ shared deals
// A share link (js/notation.js formatShareLink): a new match whose first deal has the link's cards.

// The shared deal of the URL, if any, as a new match whose first deal is the link's (and its house rules).
function playSharedDeal() {
  const shared = parseShareLink(location.hash, VARIANTS);
  if (!shared) return false;
  history.replaceState(null, "", location.pathname + location.search); // a reload resumes, not deals again
  const options = {
    variant: shared.variant, target: settings.target, level: settings.level, dealSeed: shared.seed, firstDealer: shared.dealer,
    rules: shared.rules ?? "own",
  };
  whenReady(async () => {
    try {
      await (await loadGame()).newMatch(options, () => show("table"));
    } catch (error) {
      failStart(error);
    }
  });
  return true;
}

// ------------------------------------------------------------------ a deal of the player's history
// index.html#history=ID[&review=1] (the progress page's links): that deal's replay (or its review) over the
// home, the player in the seat they played; a deal no longer kept is said so.
function openHistoryDeal() {
  const link = parseHistoryLink(location.hash);
  if (!link) return false;
  history.replaceState(null, "", location.pathname + location.search);
  whenReady(async () => {
    const [{ readEntry }, { openReplay }, { openReview, rememberReview }, { Seats }] = await Promise.all([
      import("./history.js"), import("./table/replay.js"), import("./table/review.js"), import("./table/view.js")]);
    const entry = await readEntry(link.id);
    if (!entry) {
      $("#boot-status").textContent = t("progress.link_missing");
      return;
    }
    await rememberReview(engine, entry.record, [entry.seat], entry.review); // its decisions are not asked again
    const view = new Seats(entry.seat);
    if (link.review) openReview(entry.record, { engine, view });
    else await openReplay(entry.record, { engine, view });
  });
  return true;
}

// ------------------------------------------------------------------ the deal of the day, challenges
// js/daily.js, loaded with the table: the home's card, its set and challenges played as one-deal matches (their
// own save: a solo match in progress stays as it was), the links #daily=DATE and #challenge=….
let daily = null;
function loadDaily() {
  daily ??= import("./daily.js").then((module) => {
    module.setup({
      engine, loadGame, show, goHome, whenReady,
      watchPar: (deal, callback) => game?.watchPar?.(deal, callback), // js/table/background-pars.js
      status: (text) => ($("#daily-status").textContent = text),
      toast: (text) => {
        const node = el("div", { class: "toast notice", role: "status", text });
        $("#toasts").append(node);
        setTimeout(() => node.remove(), 4000);
      },
    });
    return module;
  });
  return daily;
}

async function drawDailyCard() {
  (await loadDaily()).drawCard($("#btn-daily"));
}

// The page's fragment when it is a deal of the day's or a challenge's: taken (true), else false.
async function openDailyLink() {
  const day = parseDailyLink(location.hash);
  if (day) {
    history.replaceState(null, "", location.pathname + location.search);
    whenReady(async () => (await loadDaily()).openDaily(day));
    return true;
  }
  return /^#challenge=/.test(location.hash) && (await loadDaily()).openChallengeLink(location.hash);
}

function failStart(error) {
  console.warn("start:", error);
  show("home");
  if (app.state === "error") return; // the engine did not boot: watchBoot() said so
  $("#boot-status").textContent = errorText(error);
}

function goHome() {
  online?.leave();
  game?.stop();
  show("home");
}

// ------------------------------------------------------------------ settings
// The choices of the variant, the target and the level: the engine's lists (js/options.js), in its order.
const CHOICES = [
  { name: "variant", values: VARIANTS, label: (v) => ({ "data-i18n": `settings.variant.${v}` }) },
  { name: "target", values: TARGETS, label: (v) => ({ text: String(v) }) },
  { name: "level", values: LEVELS, label: (v) => ({ "data-i18n": `settings.level.${v}` }) },
];

function drawChoices(form) {
  for (const { name, values, label } of CHOICES) {
    const box = form.querySelector(`fieldset[data-setting="${name}"]`);
    box.replaceChildren(box.querySelector("legend"), ...values.map((value) => el(
      "label", {}, el("input", { type: "radio", name, value: String(value) }), el("span", label(value)),
    )));
  }
  applyTranslations(form);
}

function openSettings(fromTable) {
  const dialog = $("#dlg-settings");
  const form = $("#settings-form");
  form.elements.variant.value = settings.variant;
  form.elements.target.value = String(settings.target);
  form.elements.level.value = settings.level;
  form.elements.speed.value = settings.speed;
  form.elements.deck.value = settings.deck;
  form.elements.coach.checked = settings.coach;
  for (const name of Object.keys(CARD_LOOK)) setDeckInput(form.elements[name], settings[name]);
  fillHouseRules(form, engine, settings.rules).catch((error) => console.warn("house rules:", error));
  $("#btn-new-match").hidden = !fromTable || online?.playing;
  $("#btn-quit").hidden = !fromTable;
  $("#settings-next-match").hidden = !fromTable;
  dialog.showModal();
}

// A deck setting's input: a checkbox for a yes or no (the four-colour deck), else radio buttons of its values.
function setDeckInput(input, value) {
  if (input.type === "checkbox") input.checked = value === true;
  else input.value = String(value);
}

function readDeckInput(input, values) {
  if (input.type === "checkbox") return input.checked;
  return values.find((value) => String(value) === input.value) ?? values[0];
}

function bindSettings() {
  const form = $("#settings-form");
  drawChoices(form);
  form.addEventListener("change", (event) => {
    if (event.target.name === "rules_preset") {
      const target = applyPreset(form);
      if (target) form.elements.target.value = String(target);
    }
    if (event.target.name === "rules_preset" || event.target.name?.startsWith("house_")) {
      readHouseRules(form, engine).then((notation) => {
        settings.rules = notation;
        saveSettings(settings);
        game?.settingsChanged();
      }).catch((error) => console.warn("house rules:", error));
    }
    const variant = form.elements.variant.value;
    const target = Number(form.elements.target.value);
    const level = form.elements.level.value;
    const speed = form.elements.speed.value;
    if (VARIANTS.includes(variant)) settings.variant = variant;
    if (TARGETS.includes(target)) settings.target = target;
    if (LEVELS.includes(level)) settings.level = level;
    if (SPEEDS.includes(speed)) settings.speed = speed;
    const deck = form.elements.deck.value;
    if (CARD_STYLES.includes(deck) && deck !== settings.deck) {
      settings.deck = deck;
      setDeckStyle(deck);
      const shown = [...document.querySelectorAll(".card[data-card]")].map((node) => node.dataset.card);
      loadArt(shown).then(() => restyleCards(document));
    }
    settings.coach = form.elements.coach.checked;
    for (const name of Object.keys(CARD_LOOK)) settings[name] = readDeckInput(form.elements[name], CARD_LOOK[name]);
    applyDeck(settings);
    saveSettings(settings);
    game?.settingsChanged();
    if (app.state === "ready") keepFirstDeals(); // for the settings the next visit starts with
  });
  $("#btn-new-match").addEventListener("click", () => {
    $("#dlg-settings").close();
    game?.stop();
    startNew(settings.variant);
  });
  $("#btn-keys").addEventListener("click", () => $("#dlg-keys").showModal()); // over the settings: back to them
  $("#btn-quit").addEventListener("click", () => {
    $("#dlg-settings").close();
    goHome();
  });
}

// ------------------------------------------------------------------ start
// 1v1 online: its lobby, and the table driven by the referee; its fallback is a local match. Made once
// its module has loaded, after the home is drawn.
export let online = null;

// The 1v1 side, made once its module has loaded: "Play 1v1" and the settings (which hold its name and
// referee fields) pressed sooner wait for it rather than open half made.
let onlineMade;
const onlineReady = new Promise((resolve) => (onlineMade = resolve));
async function withOnline(then) {
  if (!online) {
    loadRest();
    await onlineReady;
  }
  then();
}

function bind() {
  $("#btn-online").addEventListener("click", () => {
    if (online) return; // the lobby's own listener opens it
    withOnline(() => app.screen === "home" && online.open());
  });
  $("#btn-play-coinche").addEventListener("click", () => playOrAsk("coinche"));
  $("#btn-play-classic").addEventListener("click", () => playOrAsk("classic"));
  $("#btn-resume").addEventListener("click", resume);
  $("#btn-daily").addEventListener("click", () => {
    $("#daily-status").textContent = "";
    loadRest();
    whenReady(async () => (await loadDaily()).openDaily());
  });
  $("#btn-settings").addEventListener("click", () => withOnline(() => openSettings(false)));
  $("#btn-menu").addEventListener("click", () => openSettings(true));
  $("#btn-home").addEventListener("click", goHome);
  bindSettings();
  bindLanguage();
}

// One language switch, in the header and in the settings (the table's too), that reaches everything at
// once: texts, card letters, the boot line, the title, the table.
function bindLanguage() {
  languagePicker($("#language"));
  languagePicker($("#setting-language"));
  onLanguageChange(() => {
    drawProgress();
    drawReady();
    drawResume();
    if (daily) drawDailyCard();
    document.title = t("app.title");
    relabelCards(document);
    game?.redraw();
  });
}

const languageReady = setLanguage(detectLanguage(), { remember: false });
watchBoot();
await languageReady;
applyTranslations(document);
document.title = t("app.title");
drawLogo();
bind();
drawProgress();
drawReady(); // an engine up before the catalogue
show("home");
performance.mark("home-visible");
engine.ready.then(loadRest, loadRest);
const { online: onlineModule, pwa: pwaModule } = await restWanted;
const [{ Online }, { resumeAfterUpdate }] = await Promise.all([onlineModule, pwaModule, loadGame()]);
online = new Online({ settings, show, getGame, startNew, goHome, engine });
// the history's deals without a review, reviewed on the review helper once the boot's own work is done
const REVIEW_HISTORY_AFTER_MS = 5000;
engine.ready.then(() => setTimeout(() => getGame().reviewHistory(), REVIEW_HISTORY_AFTER_MS), () => {});
applyTranslations(document); // the lobby's texts
drawDailyCard();
// a link's deal, else the match a reload for a new release interrupted
if (!playSharedDeal() && !openHistoryDeal() && !(await openDailyLink()) && resumeAfterUpdate()) resume();
onlineMade();
online.start(); // a reload in a 1v1 match takes the seat back; #join=CODE opens a private table
