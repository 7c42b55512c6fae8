// The progress page (progress.html): the player's history on this device, its figures per kind of table
// (the game, the bots' level, the house rules), the review's points lost over time and by sort of decision,
// the duplicate difference (the player's score against the Expert's par from the same seat) over time, each
// plot with its table, and the history's export, import and erasing. The figures add up the engine's
// records, reviews and pars (js/progress/figures.js) and draw at once; an engine worker starts only to check
// records the page did not see played (an import, an older version's entries: js/progress/check.js), which
// count in no figure until it has; a deal's replay and review open on the game's page (index.html#history=ID).
//
// Performance marks for bench/progress_bench.py: "progress-read" once the history is read, "progress-drawn"
// once the page is drawn.
import { el } from "../dom.js";
import { errorText } from "../errors.js";
import { counted, exportText, isPublicRecord, parseExport } from "../history-format.js";
import { CAP, importEntries, keepChecks, readHistory, wipeHistory } from "../history.js";
import { detectLanguage, language, languagePicker, onLanguageChange, setLanguage, t } from "../i18n.js";
import { PAST_DAYS, dayProgress, dayStateText, pastDays, today } from "../daily-format.js";
import { readDays } from "../daily-store.js";
import { formatDailyLink, formatHistoryLink } from "../notation.js";
import { MARKS, WINDOW, figures, tables } from "./figures.js";
import { checkRecords } from "./check.js";
import { barPlot, fitted, linePlot, longest } from "./plots.js";

// The puzzles' part (js/puzzles/progress.js), loaded apart: it is precached with the puzzle page, later than
// this page (tools/precache.py LATER); not there (offline before), the section stays hidden.
const puzzles = import("../puzzles/progress.js").catch(() => null);

const $ = (selector) => document.querySelector(selector);
let history = { entries: [], unread: 0 };
let chosen = ""; // the kind of table shown ("" for all)

const historyLink = (id, review = false) => formatHistoryLink({ id, review });

function tableName(table) {
  const level = table.level === "unknown" ? t("progress.level.unknown") : t(`settings.level.${table.level}`);
  const rules = table.rules === "own" ? t("progress.rules.own") : t("progress.rules.house", { rules: table.rules });
  return t("progress.table.one", { game: t(`settings.variant.${table.game}`), level, rules, n: table.deals });
}

function drawChoice() {
  const select = $("#progress-table");
  const kinds = tables(history.entries);
  if (!kinds.some((kind) => kind.key === chosen)) chosen = "";
  select.replaceChildren(
    el("option", { value: "", text: t("progress.table.all", { n: history.entries.filter(counted).length }) }),
    ...kinds.map((kind) => el("option", { value: kind.key, text: tableName(kind) })),
  );
  select.value = chosen;
}

function figureList(root, rows) {
  root.replaceChildren(...rows.flatMap(([key, value, name]) => [
    el("dt", { text: t(key) }), el("dd", { text: value, dataset: { figure: name } }),
  ]));
}

function drawResults(f) {
  figureList($("#results-figures"), [
    ["progress.results.deals", String(f.deals), "deals"],
    ["progress.results.matches", t("progress.results.matches_value", f.matches), "matches"],
    ["progress.results.declared", t("progress.results.declared_value", f.declared), "declared"],
    ["progress.results.coinches_made", t("progress.results.coinches_value", { n: f.coinches.made, set: f.coinches.made_set }), "coinches-made"],
    ["progress.results.coinches_suffered", t("progress.results.coinches_value", { n: f.coinches.suffered, set: f.coinches.suffered_set }), "coinches-suffered"],
  ]);
}

const points = (x) => x.toFixed(1);

let dates = null; // the reader's language's date format, made once a language (a format is slow to make)
function dateText(at) {
  if (dates?.language !== language()) {
    dates = { language: language(), format: new Intl.DateTimeFormat(language(), { dateStyle: "short", timeStyle: "short" }) };
  }
  return at ? dates.format.format(at) : "";
}

function cell(tag, text, attributes = {}) {
  return el(tag, { ...attributes, text });
}

function table(caption, heads, rows) {
  const node = el("table", "progress-table");
  node.append(el("caption", { text: caption }));
  node.append(el("thead", {}, el("tr", {}, ...heads.map((head) => cell("th", head, { scope: "col" })))));
  node.append(el("tbody", {}, ...rows));
  return node;
}

// The plot, and its figures as a table beside it, folded under its summary: made when first unfolded (a
// table of 2,000 deals is most of the page's drawing), or at once when it was open.
function plotWithTable(figure, plot, makeTable) {
  const open = figure.querySelector("details")?.open ?? false;
  const details = el("details", "plot-table", el("summary", { text: t("progress.tables.show") }));
  const fill = () => { if (details.open && details.children.length === 1) details.append(makeTable()); };
  details.addEventListener("toggle", fill);
  details.open = open;
  fill();
  figure.replaceChildren(plot, details);
}

function drawLine(f) {
  const figure = $("#plot-line");
  figure.hidden = !f.series.length;
  if (!f.series.length) return;
  const last = f.moving.at(-1);
  const label = t("progress.plot.line.title", { window: WINDOW });
  const description = t("progress.plot.line.desc", {
    n: f.series.length, first: dateText(f.series[0].at), last: dateText(f.series.at(-1).at), mean: points(last.mean),
  });
  const plot = fitted(figure, (width) => linePlot({
    values: f.series.map((d) => d.lost), moving: f.moving, label, description, width,
    onPick: (i) => { if (f.series[i].id !== null) location.assign(historyLink(f.series[i].id)); },
  }));
  const links = (id) => (id === null ? [] : [
    el("a", { href: historyLink(id), text: t("progress.link.replay") }),
    el("a", { href: historyLink(id, true), text: t("progress.link.review") })]);
  const rows = () => f.series.map((d, i) => el("tr", {},
    el("th", { scope: "row" }, String(i + 1), el("small", { text: dateText(d.at) })),
    cell("td", points(d.lost)), cell("td", points(d.luck)),
    cell("td", t("progress.col.band_value", { mean: points(f.moving[i].mean), low: points(f.moving[i].low), high: points(f.moving[i].high) })),
    el("td", "links", ...links(d.id)),
  ));
  const heads = ["deal", "lost", "luck", "average", "links"].map((key) => t(`progress.col.${key}`, { window: WINDOW }));
  plotWithTable(figure, plot, () => table(label, heads, rows()));
  figure.append(el("figcaption", { text: `${label}. ${t("progress.plot.line.hint")}` }));
}

function drawTypes(f) {
  const figure = $("#plot-types");
  figure.hidden = !f.types.length;
  if (!f.types.length) return;
  const label = t("progress.plot.types.title");
  const worst = f.types[0];
  const description = t("progress.plot.types.desc", { type: t(`progress.type.${worst.type}`), points: points(worst.per_deal) });
  const bars = f.types.map((x) => ({ label: t(`progress.type.${x.type}`), value: x.per_deal }));
  const labelWidth = longest(figure, bars.map((bar) => bar.label));
  const plot = fitted(figure, (width) => barPlot({ bars, label, description, width, labelWidth }));
  const rows = () => f.types.map((x) => el("tr", { dataset: { type: x.type } },
    cell("th", t(`progress.type.${x.type}`), { scope: "row" }), cell("td", String(x.decisions)),
    cell("td", points(x.per_deal)), cell("td", points(x.per_decision))));
  const heads = ["type", "decisions", "per_deal", "per_decision"].map((key) => t(`progress.col.${key}`));
  plotWithTable(figure, plot, () => table(label, heads, rows()));
  figure.append(el("figcaption", { text: `${label}. ${description}` }));
}

function drawErrors(f) {
  $("#errors-reviewed").textContent = f.reviewed
    ? t("progress.errors.reviewed", { n: f.reviewed, total: f.deals })
    : t("progress.errors.none");
  const a = f.average;
  figureList($("#errors-figures"), f.reviewed ? [
    ["progress.figure.lost", points(a.lost), "lost"],
    ["progress.figure.calls", points(a.calls), "calls"],
    ["progress.figure.cards", points(a.cards), "cards"],
    ...MARKS.map((mark) => [`progress.figure.${mark}`, points(a[mark]), mark]),
    ["progress.figure.luck", points(a.luck), "luck"],
  ] : []);
  drawLine(f);
  drawTypes(f);
}

const signed = (x) => (x > 0 ? `+${x.toFixed(1)}` : x.toFixed(1));
const compact = (x) => signed(x).replace(/\.0$/, ""); // a whole score without its ".0"

// The duplicate difference: the player's side's score minus the Expert's par from the same seat, deal by deal.
function drawDuplicate(f) {
  const d = f.duplicate;
  $("#duplicate-made").textContent = d.deals
    ? t("progress.par.made", { n: d.deals, total: f.deals }) : t("progress.par.none");
  figureList($("#duplicate-figures"), d.deals ? [["progress.par.mean", signed(d.mean), "difference"]] : []);
  const figure = $("#plot-duplicate");
  figure.hidden = !d.deals;
  if (!d.deals) return;
  const label = t("progress.par.plot.title", { window: WINDOW });
  const description = t("progress.par.plot.desc", {
    n: d.deals, first: dateText(d.series[0].at), last: dateText(d.series.at(-1).at), mean: signed(d.moving.at(-1).mean),
  });
  const plot = fitted(figure, (width) => linePlot({
    values: d.series.map((x) => x.difference), moving: d.moving, label, description, width,
    onPick: (i) => { if (d.series[i].id !== null) location.assign(historyLink(d.series[i].id)); },
  }));
  // the deal's number links to its replay (a phone's width holds four columns of figures; the player's score is
  // the par plus the difference)
  const rows = () => d.series.map((x, i) => el("tr", {},
    el("th", { scope: "row" }, x.id === null ? String(i + 1) : el("a", { href: historyLink(x.id), text: String(i + 1) }),
      el("small", { text: dateText(x.at) })),
    cell("td", compact(x.par), { class: "whole" }),
    cell("td", compact(x.difference), { class: "whole" }),
    cell("td", t("progress.col.band_value", { mean: compact(d.moving[i].mean), low: compact(d.moving[i].low), high: compact(d.moving[i].high) }),
      { class: "words" }),
  ));
  const heads = ["progress.par.col.deal", "progress.par.col.par", "progress.par.col.difference", "progress.col.average"].map((key) => t(key, { window: WINDOW }));
  plotWithTable(figure, plot, () => table(label, heads, rows()));
  figure.append(el("figcaption", { text: `${label}. ${t("progress.plot.line.hint")}` }));
}

function drawCount() {
  const { entries, unread, failed } = history;
  const unchecked = entries.filter((entry) => entry.checked === false).length;
  const refused = entries.filter((entry) => entry.checked && entry.checked !== true).length;
  $("#history-count").textContent = failed ? t("progress.failed")
    : [t("progress.history.count", { n: entries.length, cap: CAP }), unread ? t("progress.unread", { n: unread }) : "",
      unchecked ? t("progress.check.unchecked", { n: unchecked }) : "", refused ? t("progress.check.refused", { n: refused }) : ""]
      .filter(Boolean).join(" ");
  $("#btn-export").disabled = !entries.length;
  $("#btn-wipe").disabled = !entries.length && !unread;
}

// The deals of the day of the last PAST_DAYS days (UTC; ?day= pretends today, as on the game's page): each
// day's state, a link that plays it or shows its result on the game's page.
let days = new Map();
function drawDays() {
  $("#daily-days-intro").textContent = t("daily.past.intro", { n: PAST_DAYS });
  $("#daily-days-list").replaceChildren(...pastDays(today(location.search)).map((day) => {
    const stored = days.get(day) ?? null;
    const state = dayProgress(stored).state;
    return el("li", { dataset: { day, state } },
      el("a", { href: formatDailyLink(day), text: t(state === "done" ? "daily.past.see" : "daily.past.play", { day }) }),
      el("small", { text: dayStateText(stored, t) }));
  }));
}

function draw() {
  const { entries } = history;
  drawDays();
  document.title = t("progress.page.title");
  puzzles.then((module) => module?.drawPuzzleProgress($("#puzzle-progress")));
  drawCount();
  $("#progress-status").textContent = entries.length ? "" : t("progress.empty");
  $("#progress-body").hidden = !entries.length;
  if (!entries.length) return;
  drawChoice();
  const f = figures(entries, chosen || null);
  drawResults(f);
  drawErrors(f);
  drawDuplicate(f);
}

async function load() {
  $("#progress-status").textContent = t("progress.loading");
  [history, days] = await Promise.all([readHistory(), readDays().then((all) => new Map(all.map((day) => [day.date, day])))]);
  performance.mark("progress-read");
  draw();
  performance.mark("progress-drawn");
  performance.measure("progress-draw", "progress-read", "progress-drawn");
  document.body.dataset.state = "ready";
  checkStored();
}

// The entries the engine has not read yet (kept by an older version, or imported where no engine could run)
// read now, on an engine started for them; the page drawn again once they count. Nothing if no engine runs.
let checking = false;
async function checkStored() {
  const waiting = history.entries.filter((entry) => entry.checked === false);
  if (checking || !waiting.length) return;
  checking = true;
  const status = $("#check-status");
  try {
    const verdicts = await checkRecords(waiting.map((entry) => entry.record), (done, total) => {
      status.textContent = t("progress.check.running", { done, total });
    });
    status.textContent = verdicts ? "" : t("progress.check.no_engine");
    if (!verdicts) return;
    await keepChecks(waiting.map((entry, i) => ({ id: entry.id, checked: verdicts[i] ?? true })));
  } finally {
    checking = false;
  }
  history = await readHistory();
  draw();
}

// ------------------------------------------------------------------ export, import, erase
function report(...lines) {
  $("#history-report").replaceChildren(...lines);
}

function exportHistory() {
  const text = exportText(history.entries);
  const name = `coinche-history-${new Date().toISOString().slice(0, 10)}.jsonl`;
  const url = URL.createObjectURL(new Blob([text], { type: "application/x-ndjson" }));
  const link = el("a", { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  report(el("p", { text: t("progress.history.exported", { n: history.entries.length, file: name }) }));
}

// A refusal of the engine's ({key, params}) in the reader's words.
const refusal = (verdict) => errorText({ code: verdict.key, params: verdict.params ?? {}, message: verdict.key });

// The file's lines read by the engine (an online deal's record, which holds no deck, cannot be: it counts as
// the referee sent it): those it refuses named by its reason and not imported, the others marked as read;
// where no engine runs, all kept unchecked.
async function checkImport(entries, lines, errors) {
  const asked = entries.filter((entry) => !isPublicRecord(entry.record));
  report(el("p", { text: t("progress.check.running", { done: 0, total: asked.length }) }));
  const verdicts = await checkRecords(asked.map((entry) => entry.record), (done, total) => {
    report(el("p", { text: t("progress.check.running", { done, total }) }));
  });
  if (!verdicts) return { kept: entries, unchecked: asked.length };
  const verdictOf = new Map(asked.map((entry, i) => [entry, verdicts[i] ?? null]));
  const kept = [];
  entries.forEach((entry, i) => {
    const verdict = verdictOf.get(entry) ?? null;
    if (verdict) errors.push({ line: lines[i], key: verdict.key, text: refusal(verdict) });
    else kept.push({ ...entry, checked: true });
  });
  errors.sort((a, b) => a.line - b.line);
  return { kept, unchecked: 0 };
}

async function importFile(file) {
  const { entries, errors, lines: lineOf } = parseExport(await file.text());
  const { kept, unchecked } = await checkImport(entries, lineOf, errors);
  const done = await importEntries(kept);
  const lines = [el("p", { text: done ? t("progress.import.done", done) : t("progress.import.failed") })];
  if (done && unchecked) lines.push(el("p", { text: t("progress.check.import_unchecked", { n: unchecked }) }));
  if (errors.length) {
    lines.push(el("p", { text: t("progress.import.errors", { n: errors.length }) }), el("ul", "import-errors",
      ...errors.map(({ line, key, text }) => el("li", {
        text: t("progress.import.line", { line, error: text ?? t(key), key: key.split(".").pop() }), dataset: { line, key },
      }))));
  }
  report(...lines);
  await load();
}

function bindHistory() {
  $("#btn-export").addEventListener("click", exportHistory);
  const input = $("#import-file");
  $("#btn-import").addEventListener("click", () => input.click());
  input.addEventListener("change", () => {
    const [file] = input.files;
    input.value = "";
    if (file) importFile(file);
  });
  const dialog = $("#dlg-wipe");
  $("#btn-wipe").addEventListener("click", () => {
    dialog.returnValue = "";
    dialog.showModal();
  });
  dialog.addEventListener("close", async () => {
    if (dialog.returnValue !== "wipe") return;
    await wipeHistory();
    report(el("p", { text: t("progress.wipe.done") }));
    await load();
  });
  $("#progress-table").addEventListener("change", (event) => {
    chosen = event.target.value;
    draw();
  });
}

await setLanguage(detectLanguage(), { remember: false });
languagePicker($("#language"));
bindHistory();
onLanguageChange(draw);
await load();
