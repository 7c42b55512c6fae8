// The deal of the day and challenges by link: their flows on the game's page (loaded after the home shows).
//
// The deal of the day: the engine's `daily(date)` deals a set of four from the UTC date alone; each is played
// as a one-deal match (js/table/game.js `oneDeal`) with its own save (js/daily-store.js readPlaying), so a
// solo match in progress is never touched; each result is kept with the day (js/daily-store.js) and measured
// against the Expert's par once computed. A challenge (js/notation.js formatChallengeLink) deals a friend the
// same deals in the same seat against the same bots, carrying the results of who played them; the friend sees
// nothing of the deals before playing them, then every result side by side, and may send theirs on.
//
// The page's part of it: main.js calls setup() once its table can load, drawCard() for the home's card,
// openDaily(), openChallengeLink(), resumePlaying(); the deal summary's "Challenge a friend" calls
// challengeDeal().
import { el } from "./dom.js";
import { errorText } from "./errors.js";
import { t } from "./i18n.js";
import {
  comparison, dayProgress, dayStateText, difference, differences, shareText, signed, today, totalDifference,
} from "./daily-format.js";
import {
  challengeKey, cleanPlayerName, formatChallengeLink, formatDailyLink, isDay, parseChallengeLink,
} from "./notation.js";
import { keepChallenge, keepDay, keepPlaying, readChallenge, readDay, readPlaying } from "./daily-store.js";
import { dealIdentity, finishedPar } from "./history-format.js";
import { readHistory } from "./history.js";

const ME = 0; // the seat of a one-deal match's player (new_match's human)
const NAME_KEY = "coinche.challenge.name";

let ctx = null; // {engine, loadGame, show, goHome, whenReady, status(text)}: main.js's

export function setup(context) {
  ctx = context;
}

export const pretendedToday = () => today(location.search);

// ------------------------------------------------------------------ the home's card
export async function drawCard(button) {
  const day = pretendedToday();
  const stored = await readDay(day);
  button.dataset.state = dayProgress(stored).state;
  button.dataset.day = day;
  button.querySelector("small").textContent = dayStateText(stored, t);
}

// ------------------------------------------------------------------ the deal of the day
// That day's set: its next deal at the table (the one in progress resumed), or its result once all are played.
export async function openDaily(date = pretendedToday()) {
  if (!isDay(date) || date > pretendedToday()) {
    ctx.status(t("daily.not_yet", { day: date }));
    return;
  }
  let day = await readDay(date);
  if (!day) {
    const set = await ctx.engine.call("daily", { date });
    day = { date, deals: set.deals.map((deal) => ({ ...deal })) };
    await keepDay(day);
  }
  const playing = readPlaying();
  if (playing?.kind === "daily" && playing.date === date) {
    const index = day.deals.findIndex((deal) => deal.number === playing.number);
    if (index >= 0 && !Number.isFinite(day.deals[index].score)) return playDeal({ kind: "daily", day }, index, playing.snapshot);
  }
  const next = day.deals.findIndex((deal) => !Number.isFinite(deal.score));
  if (next < 0) return showDay(day);
  return playDeal({ kind: "daily", day }, next);
}

// The one-deal match in progress after a reload or an engine crash: taken up where it was.
export async function resumePlaying() {
  const playing = readPlaying();
  if (playing?.kind === "daily") return openDaily(playing.date);
  if (playing?.kind === "challenge") {
    const stored = await readChallenge(playing.key);
    if (stored) return playChallenge(stored);
  }
  return ctx.goHome();
}

// The deals of a flow: a day's, or a challenge's as the engine's `daily` writes them.
function dealsOf(flow) {
  if (flow.kind === "daily") return flow.day.deals;
  return flow.challenge.deals.map(({ seed, dealer, level, rules }, i) => ({ number: i + 1, deal_seed: seed, dealer, level, rules }));
}

function resultsOf(flow) {
  return flow.kind === "daily" ? flow.day.deals : flow.challenge.mine;
}

function keepFlow(flow) {
  return flow.kind === "daily" ? keepDay(flow.day) : keepChallenge(flow.challenge);
}

// Deal `index` of the flow at the table, a one-deal match (from its save when given).
async function playDeal(flow, index, snapshot = null) {
  const deals = dealsOf(flow);
  const deal = deals[index];
  const where = flow.kind === "daily" ? { kind: "daily", date: flow.day.date } : { kind: "challenge", key: flow.challenge.key };
  const oneDeal = {
    id: flow.kind === "daily" ? `daily-${flow.day.date}-${deal.number}` : `challenge-${deal.deal_seed}`,
    save: (saved) => keepPlaying({ ...where, number: deal.number, snapshot: saved }),
    finished: (record) => {
      keepPlaying(null);
      const result = resultsOf(flow)[index] ?? {};
      Object.assign(result, { score: record.result.scores[ME & 1], record });
      resultsOf(flow)[index] = result;
      keepFlow(flow);
      measure(flow, index);
    },
    next: () => {
      const next = resultsOf(flow).length < deals.length ? resultsOf(flow).length
        : resultsOf(flow).findIndex((r) => !Number.isFinite(r?.score));
      if (next >= 0 && next < deals.length) return playDeal(flow, next);
      ctx.show("home");
      return flow.kind === "daily" ? showDay(flow.day) : showComparison(flow.challenge);
    },
  };
  const game = await ctx.loadGame();
  try {
    if (snapshot) {
      ctx.show("table");
      await game.resume(snapshot, oneDeal);
    } else {
      await game.newMatch({ rules: deal.rules, level: deal.level, dealSeed: deal.deal_seed, firstDealer: deal.dealer, oneDeal },
        () => ctx.show("table"));
    }
  } catch (error) {
    keepPlaying(null);
    ctx.show("home");
    ctx.status(errorText(error));
    return;
  }
  const label = flow.kind === "daily"
    ? t("daily.playing", { day: flow.day.date, n: index + 1, count: deals.length })
    : t("challenge.playing", { n: index + 1, count: deals.length });
  document.querySelector("#table").dataset.oneDeal = label;
  ctx.toast(label);
}

// The par of a played deal: the history's (each solo deal is kept there, and js/table/background-pars.js
// computes its par on the review helper), kept with the result once made, and shown where the result is open.
const watched = new Set(); // the deals whose par is awaited
let pars = null; // the history's pars by deal, read once a visit: {deal identity: par}

function historyPars() {
  return readHistory().then(({ entries }) => new Map(entries.map((entry) => [entry.deal, entry.par])));
}

async function measure(flow, index) {
  const result = resultsOf(flow)[index];
  if (!result?.record || Number.isFinite(result.par)) return;
  const deal = dealIdentity(result.record);
  if (watched.has(deal)) return;
  watched.add(deal);
  const found = (kept) => {
    const par = finishedPar(kept);
    if (!par || Number.isFinite(result.par)) return;
    Object.assign(result, { par: par.par, k: par.k, stderr: par.stderr });
    keepFlow(flow);
    redraw?.();
  };
  pars ??= historyPars();
  found((await pars).get(deal));
  ctx.watchPar(deal, (state) => found(state?.par));
}

// ------------------------------------------------------------------ dialogs
let redraw = null; // the open result's drawing, again once a par arrives

function dialogNode(id) {
  let dialog = document.getElementById(id);
  if (dialog) return dialog;
  dialog = el("dialog", { class: "dialog daily", id, "aria-labelledby": `${id}-title` });
  dialog.append(el("h2", { class: "dialog-title", id: `${id}-title` }), el("div", "dialog-body"), el("div", "dialog-actions"));
  dialog.addEventListener("close", () => (redraw = null));
  document.body.append(dialog);
  return dialog;
}

function button(label, onClick, className = "btn") {
  return el("button", { type: "button", class: className, on: { click: onClick } }, label);
}

function statusLine() {
  return el("p", { class: "share-status", role: "status" });
}

// The text (and link) given to the system's share sheet, else copied; resolves with what to say.
async function share({ text, url }, said) {
  if (typeof navigator.share === "function") {
    try {
      await navigator.share(text ? { text } : { url });
      return t(said.shared);
    } catch (error) {
      if (error?.name === "AbortError") return "";
    }
  }
  try {
    await navigator.clipboard.writeText(text ?? url);
    return t(said.copied);
  } catch {
    return t(said.failed, { text: text ?? url });
  }
}

function parText(par) {
  return Number.isFinite(par) ? String(Math.round(par * 10) / 10) : "…";
}

// The day's result: each deal's score, par and difference, the text to share, a challenge.
function showDay(day) {
  const dialog = dialogNode("dlg-daily");
  const draw = () => {
    dialog.querySelector(".dialog-title").textContent = t("daily.title", { day: day.date });
    const rows = day.deals.map((deal, i) => el("tr", { dataset: { deal: String(i + 1) } },
      el("th", { scope: "row", text: t("daily.deal", { n: i + 1 }) }),
      el("td", { text: Number.isFinite(deal.score) ? String(deal.score) : "–" }),
      el("td", { text: parText(deal.par) }),
      el("td", { class: "difference", text: signed(difference(deal.score, deal.par)) })));
    const { total, complete } = totalDifference(differences(day));
    const table = el("table", "daily-table",
      el("thead", {}, el("tr", {}, ...["daily.col.deal", "daily.col.score", "daily.col.par", "daily.col.difference"]
        .map((key) => el("th", { scope: "col", text: t(key) })))),
      el("tbody", {}, ...rows),
      el("tfoot", {}, el("tr", {}, el("th", { scope: "row", colspan: "3", text: t("daily.total") }),
        el("td", { class: "difference", text: complete ? signed(total) : "…" }))));
    const status = statusLine();
    const level = day.deals[0]?.level ?? "expert";
    const pending = day.deals.some((deal) => !Number.isFinite(deal.par));
    dialog.querySelector(".dialog-body").replaceChildren(
      table,
      el("p", "daily-note", t(pending ? "daily.par_pending" : "daily.par_explain", { k: day.deals[0]?.k ?? 0 })),
      el("div", "deal-tools",
        button(t("daily.share"), async () => {
          const url = new URL(formatDailyLink(day.date), document.baseURI).href;
          status.textContent = await share({ text: shareText({ day: day.date, differences: differences(day), level }, t, url) },
            { shared: "daily.share.shared", copied: "daily.share.copied", failed: "daily.share.failed" });
        }, "btn daily-share"),
        button(t("challenge.button"), () => offerChallenge({
          day: day.date, deals: challengeDeals(day.deals), results: day.deals,
        }), "btn challenge-deal"),
        status));
    for (const [i, deal] of day.deals.entries()) if (!Number.isFinite(deal.par)) measure({ kind: "daily", day }, i);
  };
  openWith(dialog, draw, [button(t("daily.home"), () => dialog.close(), "btn primary")]);
}

function openWith(dialog, draw, actions) {
  redraw = draw;
  draw();
  dialog.querySelector(".dialog-actions").replaceChildren(...actions);
  if (!dialog.open) dialog.showModal();
  actions.at(-1)?.focus();
}

// A day's deals, or a solo deal, as a challenge's.
function challengeDeals(deals) {
  return deals.map((deal) => ({ seed: deal.deal_seed, dealer: deal.dealer, level: deal.level, rules: deal.rules }));
}

// "Challenge a friend": a name asked (optional, remembered), then the link shared or copied. The challenger's
// own results are kept with the challenge, so that the link a friend sends back shows both at once.
export function offerChallenge({ day = null, deals, results }) {
  const key = challengeKey(deals);
  askAndSend("challenge.title", "challenge.intro", async (name) => {
    const known = await historyPars(); // the pars made since the deals were played
    for (const result of results) {
      const par = result.record && !Number.isFinite(result.par) ? finishedPar(known.get(dealIdentity(result.record))) : null;
      if (par) Object.assign(result, { par: par.par, k: par.k, stderr: par.stderr });
    }
    const stored = await readChallenge(key);
    await keepChallenge({ key, day, deals, players: stored?.players ?? [], mine: results.map(copyResult), name });
    return formatChallengeLink({ day, deals, players: [{ name, results: linkResults(results) }] }, document.baseURI);
  });
}

const linkResults = (results) => results.map(({ score, par }) => ({ score, par: Number.isFinite(par) ? par : null }));

// A dialog that asks the player's name (optional, remembered) and shares the link `linkFor(name)` resolves with.
function askAndSend(title, intro, linkFor) {
  const dialog = dialogNode("dlg-challenge");
  let name = "";
  try { name = localStorage.getItem(NAME_KEY) ?? ""; } catch { /* blocked storage */ }
  const input = el("input", { type: "text", id: "challenge-name", maxlength: "24", autocomplete: "nickname", value: name });
  const status = statusLine();
  const send = async () => {
    const named = cleanPlayerName(input.value);
    try { localStorage.setItem(NAME_KEY, named); } catch { /* blocked storage */ }
    const url = await linkFor(named);
    dialog.dataset.link = url;
    status.textContent = await share({ url }, { shared: "challenge.shared", copied: "challenge.copied", failed: "challenge.failed" });
  };
  dialog.querySelector(".dialog-title").textContent = t(title);
  dialog.querySelector(".dialog-body").replaceChildren(
    el("p", "", t(intro)),
    el("label", { class: "challenge-name", for: "challenge-name" }, t("challenge.name")),
    input, status);
  dialog.querySelector(".dialog-actions").replaceChildren(
    button(t("challenge.close"), () => dialog.close(), "btn ghost"),
    button(t("challenge.send"), send, "btn primary challenge-send"));
  delete dialog.dataset.link;
  if (!dialog.open) dialog.showModal();
  input.focus();
}

const copyResult = ({ score, par, k, stderr, record }) => ({ score, par: Number.isFinite(par) ? par : null, k, stderr, record });

// From a solo deal's summary: that deal alone (state `before` its last action, the player in `seat`).
export function challengeDeal(record, before, seat) {
  const deal = { deal_seed: before.deal_seed, dealer: before.deal.dealer, level: before.settings.level, rules: before.rules };
  return offerChallenge({ deals: challengeDeals([deal]), results: [{ score: record.result.scores[seat & 1], record }] });
}

// ------------------------------------------------------------------ a challenge received
const BAD_LINK = { malformed: "challenge.bad.malformed", newer: "challenge.bad.newer" };

// The page's fragment, when it is a challenge: said whether it does not read (nothing else changes), else its
// deals played (after a word of who challenges) or, when they are played here already, every result.
// Returns false when the fragment is no challenge.
export function openChallengeLink(hash) {
  const link = parseChallengeLink(hash);
  if (!link) return false;
  history.replaceState(null, "", location.pathname + location.search); // a reload does not ask again
  if (link.error) {
    ctx.status(t(BAD_LINK[link.error]));
    return true;
  }
  ctx.whenReady(async () => {
    for (const rules of new Set(link.deals.map((deal) => deal.rules))) {
      try {
        await ctx.engine.call("rules_parse", { text: rules });
      } catch (error) {
        ctx.status(t("challenge.bad.rules", { name: error.params?.name ?? rules }));
        return;
      }
    }
    const key = challengeKey(link.deals);
    const stored = await readChallenge(key);
    const challenge = { key, day: link.day, deals: link.deals, mine: [], name: "", ...stored };
    // the player's own results come back in the answer to their challenge: shown once, as theirs
    const own = (p) => p.name === challenge.name && p.results.every((r, i) => r.score === challenge.mine[i]?.score);
    challenge.players = mergePlayers(stored?.players ?? [], link.players.filter((p) => !own(p)));
    await keepChallenge(challenge);
    const played = challenge.mine.filter((r) => Number.isFinite(r?.score)).length;
    if (played === link.deals.length) showComparison(challenge);
    else showInvitation(challenge, link.players[0]?.name ?? "");
  });
  return true;
}

// The players of a link added to those known (the same name and results once).
function mergePlayers(known, incoming) {
  const seen = new Set(known.map((p) => JSON.stringify(p)));
  return [...known, ...incoming.filter((p) => !seen.has(JSON.stringify(p)) && seen.add(JSON.stringify(p)))];
}

function showInvitation(challenge, name) {
  const dialog = dialogNode("dlg-challenge-in");
  const levels = [...new Set(challenge.deals.map((deal) => deal.level))];
  dialog.querySelector(".dialog-title").textContent = t("challenge.received.title");
  dialog.querySelector(".dialog-body").replaceChildren(
    el("p", "challenge-from", t("challenge.received.text", {
      named: name ? "yes" : "no", name, count: challenge.deals.length,
      level: levels.length === 1 ? levels[0] : "mixed", day: challenge.day ?? "", daily: challenge.day ? "yes" : "no",
    })),
    el("p", "daily-note", t("challenge.received.hidden")));
  dialog.querySelector(".dialog-actions").replaceChildren(
    button(t("challenge.later"), () => dialog.close(), "btn ghost"),
    button(t("challenge.play"), () => {
      dialog.close();
      playChallenge(challenge);
    }, "btn primary challenge-play"));
  dialog.showModal();
  dialog.querySelector(".challenge-play").focus();
}

function playChallenge(challenge) {
  ctx.whenReady(() => {
    const playing = readPlaying();
    const index = challenge.mine.findIndex((r) => !Number.isFinite(r?.score));
    const next = index >= 0 ? index : challenge.mine.length;
    if (next >= challenge.deals.length) return showComparison(challenge);
    const resumed = playing?.kind === "challenge" && playing.key === challenge.key && playing.number === next + 1;
    return playDeal({ kind: "challenge", challenge }, next, resumed ? playing.snapshot : null);
  });
}

// Every result side by side: the link's players, then the player's own; and theirs sent on.
function showComparison(challenge) {
  const dialog = dialogNode("dlg-compare");
  const draw = () => {
    const rows = comparison([...challenge.players,
      { name: t("challenge.you"), you: true, results: challenge.mine.map(({ score, par }) => ({ score, par })) }]);
    dialog.querySelector(".dialog-title").textContent = t("challenge.result.title");
    const head = el("tr", {}, el("th", { scope: "col", text: t("daily.col.deal") }),
      ...rows.map((row) => el("th", { scope: "col", class: row.you ? "you" : "", text: row.name || t("challenge.anonymous") })));
    const body = challenge.deals.map((_, i) => el("tr", { dataset: { deal: String(i + 1) } },
      el("th", { scope: "row", text: t("daily.deal", { n: i + 1 }) }),
      ...rows.map((row) => {
        const deal = row.deals[i];
        return el("td", { class: row.you ? "you" : "" },
          el("strong", { text: String(deal.score) }), el("br"),
          el("small", { text: t("challenge.par", { par: parText(deal.par) }) }), el("br"),
          el("small", { class: "difference", text: signed(deal.difference) }));
      })));
    const foot = el("tr", {}, el("th", { scope: "row", text: t("daily.total") }),
      ...rows.map((row) => el("td", { class: `difference${row.you ? " you" : ""}`, text: row.complete ? signed(row.total) : "…" })));
    dialog.querySelector(".dialog-body").replaceChildren(
      el("div", "table-scroll", el("table", "daily-table compare-table", el("thead", {}, head), el("tbody", {}, ...body), el("tfoot", {}, foot))),
      el("p", "daily-note", t("challenge.result.note")),
      el("div", "deal-tools", button(t("challenge.reply"), () => offerChallengeBack(challenge), "btn primary challenge-reply")));
    challenge.mine.forEach((_, i) => measure({ kind: "challenge", challenge }, i));
  };
  openWith(dialog, draw, [button(t("daily.home"), () => dialog.close(), "btn")]);
}

// The player's results sent on, with the link's players' (the last three): one link, as every challenge.
function offerChallengeBack(challenge) {
  askAndSend("challenge.reply", "challenge.reply_intro", async (name) => {
    challenge.name = name;
    await keepChallenge(challenge);
    const players = [...challenge.players.slice(-3), { name, results: linkResults(challenge.mine) }];
    return formatChallengeLink({ day: challenge.day, deals: challenge.deals, players }, document.baseURI);
  });
}
