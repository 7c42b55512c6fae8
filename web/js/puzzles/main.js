// The puzzle page (puzzles.html): a moment of a deal, the card to find; the engine's solver says right or
// wrong, with the points every card would have given; then the solution played out and the next puzzle.
//
// Where the puzzles come from: a link (the fragment, in the engine's puzzle notation: `puzzle_parse`, as the
// judge reads its own), the shipped set (SET_URL, JSON lines; js/puzzles/set.js picks one near the player's
// rating), or the player's own mistakes once reviewed (the history's reviewed entries: `puzzle_from_review`).
// Every figure is the engine's (`puzzle_solve`); the page draws and keeps the rating (js/puzzles/store.js).
//
// What tests and the bench read: <section id="puzzle" data-state="loading|ready|answered|error"
// data-id="..." data-kind="open|seat" data-result="right|wrong">, #rating[data-rating], #streak[data-streak],
// #link-problem[data-code]; the measures "puzzle-next" (from the press on Next to the puzzle drawn) and
// "puzzle-check" (from the card's press to the answer shown); <body data-engine="loading|ready|error">.
import { Engine } from "../engine.js";
import { el } from "../dom.js";
import { errorText } from "../errors.js";
import { readHistory } from "../history.js";
import { cardName, detectLanguage, has, languagePicker, onLanguageChange, setLanguage, t } from "../i18n.js";
import { fragmentText } from "../judge/notation.js";
import { ALL_CARDS } from "../notation.js";
import { loadArt, relabelCards, setDeckStyle } from "../table/cards.js";
import { loadSettings } from "../table/settings.js";
import { drawPuzzle, markCards, seatName } from "./board.js";
import { shown } from "./rating.js";
import { pickPuzzle, readSet, setThemes } from "./set.js";
import { loadProgress, saveProgress, withResult } from "./store.js";

export const SET_URL = new URL("../../puzzles/open.jsonl", import.meta.url);
const MISTAKE_MARKS = new Set(["mistake", "blunder"]);
const STREAK_START = 1000; // the streak mode's first puzzle's rating; each one solved, STREAK_STEP more
const STREAK_STEP = 40;
const LINE_STEP_MS = 450; // one trick of the solution line after another, when motion is welcome

const $ = (id) => document.getElementById(id);
export const engine = new Engine();

const state = {
  progress: loadProgress(),
  mode: "rated",
  theme: null,
  set: [],
  mistakes: [], // [{record, index, id}] from the history, newest first
  current: null, // {puzzle, source: "link"|"set"|"mistake", answer: null|{card, right, solved}}
  upcoming: null, // the next puzzle, its solution asked for ahead: {puzzle, source}
  tried: new Set(), // ids shown this visit
  shownText: null, // the fragment this page wrote or read last
  ready: false,
};
const solutions = new Map(); // puzzle key -> promise of the engine's puzzle_solve
const links = new Map(); // puzzle key -> promise of its link text
const refused = new Map(); // puzzle key -> the engine's error on it
// A puzzle's key in this page and in the results kept: its id; a link's puzzle without one, its text; one of
// the player's mistakes, its deal's and decision's (an id the engine would refuse in the puzzle itself).
const keys = new WeakMap();
const keyOf = (puzzle) => keys.get(puzzle) ?? puzzle.id;

// ---------------------------------------------------------------- start
setDeckStyle(loadSettings().deck); // the player's deck, illustrated or simple, as at the table
const artReady = loadArt(ALL_CARDS).catch((error) => console.warn("card art:", error)); // no court drawn as a letter first
await setLanguage(detectLanguage(), { remember: false }).catch(() => setLanguage("en", { remember: false }));
languagePicker($("language"));
onLanguageChange(redraw);
await artReady;
wire();
drawFigures();

engine.ready.then(
  () => {
    state.ready = true;
    document.body.dataset.engine = "ready";
    start();
  },
  (error) => {
    document.body.dataset.engine = "error";
    $("puzzle").dataset.state = "error";
    $("puzzle-status").textContent = t("puzzles.engine_failed", { detail: error.message });
  },
);
$("puzzle-status").textContent = t("puzzles.loading");

async function start() {
  const setRead = loadSet();
  const fromLink = fragmentText(location.hash) ? await openLink() : false;
  await setRead;
  loadMistakes();
  if (!fromLink) await showNext();
  else prepareNext();
}

// ---------------------------------------------------------------- sources
async function loadSet() {
  let text = "";
  try {
    const response = await fetch(SET_URL);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    text = await response.text();
  } catch (error) {
    console.warn("puzzles: the set could not be read:", error);
    note(t("puzzles.set.unreadable"));
    return;
  }
  const { puzzles, skipped } = readSet(text);
  state.set = puzzles;
  for (const { line, reason } of skipped) console.warn(`puzzles: line ${line} of ${SET_URL.pathname} skipped (${reason})`);
  if (skipped.length) note(t("puzzles.set.skipped", { n: skipped.length, lines: skipped.slice(0, 5).map((s) => s.line).join(", ") }));
  drawThemes();
}

async function loadMistakes() {
  const { entries } = await readHistory();
  state.mistakes = entries.flatMap((entry) => (entry.review?.decisions ?? [])
    .filter((d) => d.kind === "card" && MISTAKE_MARKS.has(d.mark))
    .map((d) => ({ record: entry.record, index: d.index, reviewed: d, id: `${entry.id}:${d.index}` }))).reverse();
  drawModes();
}

// The puzzle a link holds, shown; or its fault told, and nothing else changed. Resolves true if shown.
async function openLink() {
  const raw = fragmentText(location.hash);
  state.shownText = raw;
  let puzzle;
  let solution;
  try {
    puzzle = await engine.call("puzzle_parse", { text: raw });
    if (!puzzle.id) keys.set(puzzle, `#${raw}`);
    solution = await solve(puzzle);
  } catch (error) {
    tell({ code: error.code, params: error.params, message: error.message });
    return false;
  }
  if (solution.holds) { // a solution that is not the best cards, or a margin the others do not lose
    tell({ code: solution.holds.key, params: solution.holds.params, message: solution.holds.key });
    return false;
  }
  tell(null);
  show({ puzzle, source: "link" });
  return true;
}

function tell(error) {
  const box = $("link-problem");
  box.hidden = !error;
  if (!error) {
    delete box.dataset.code;
    return;
  }
  box.dataset.code = error.code;
  $("link-problem-head").textContent = t("puzzles.link.bad");
  $("link-problem-detail").textContent = errorText(error);
}

// The engine's figures for a puzzle, asked once: {values: {card: points}, best, margin, line, holds}.
function solve(puzzle) {
  const key = keyOf(puzzle);
  if (!solutions.has(key)) {
    const asked = engine.call("puzzle_solve", { puzzle });
    asked.catch((error) => {
      solutions.delete(key);
      refused.set(key, error);
    });
    solutions.set(key, asked);
  }
  return solutions.get(key);
}

function linkOf(puzzle) {
  const key = keyOf(puzzle);
  if (!links.has(key)) links.set(key, engine.call("puzzle_format", { puzzle }));
  return links.get(key);
}

// The next puzzle of the chosen mode and theme (null when there is none), its solution asked for at once.
async function choose() {
  if (state.mode === "mistakes") {
    const solved = new Set(state.progress.results.filter((r) => r.solved).map((r) => r.id));
    const key = (m) => `mistake:${m.id}`;
    const left = state.mistakes.filter((m) => !solved.has(key(m)) && !state.tried.has(key(m)));
    const item = left[0] ?? state.mistakes.find((m) => !state.tried.has(key(m))) ?? state.mistakes[0];
    if (!item) return null;
    try {
      const puzzle = await engine.call("puzzle_from_review", { record: item.record, index: item.index, reviewed: item.reviewed });
      keys.set(puzzle, `mistake:${item.id}`);
      return { puzzle, source: "mistake", reason: item.reviewed.reason ?? null };
    } catch (error) {
      console.warn(`puzzles: mistake ${item.id} skipped:`, error);
      state.mistakes = state.mistakes.filter((m) => m !== item);
      return choose();
    }
  }
  const rating = state.mode === "streak" ? STREAK_START + STREAK_STEP * state.progress.streak : state.progress.player.rating;
  const exclude = new Set([...state.tried, ...state.progress.seen, state.current && keyOf(state.current.puzzle)]);
  const puzzle = pickPuzzle(state.set, { rating, theme: state.theme, exclude });
  return puzzle ? { puzzle, source: "set" } : null;
}

async function prepareNext() {
  const mode = state.mode;
  const theme = state.theme;
  const next = await choose();
  if (mode !== state.mode || theme !== state.theme) return;
  state.upcoming = next;
  if (next) {
    solve(next.puzzle).catch(() => {});
    linkOf(next.puzzle).catch(() => {});
  }
}

async function showNext() {
  performance.mark("puzzle-next-start");
  let next = state.upcoming ?? await choose();
  state.upcoming = null;
  // a set puzzle the engine refused is skipped and named, never shown
  while (next?.source === "set" && refused.has(keyOf(next.puzzle))) {
    skip(next.puzzle, refused.get(keyOf(next.puzzle)));
    next = await choose();
  }
  if (!next) {
    $("puzzle").dataset.state = "empty";
    $("puzzle-status").textContent = t(state.mode === "mistakes" ? "puzzles.mistakes.none" : "puzzles.set.none");
    return;
  }
  show(next);
  performance.measure("puzzle-next", "puzzle-next-start");
  prepareNext();
}

function skip(puzzle, error) {
  console.warn(`puzzles: puzzle ${puzzle.id} skipped (${error.code}: ${error.message})`);
  note(t("puzzles.set.refused", { id: puzzle.id }));
  state.set = state.set.filter((p) => p !== puzzle);
}

function note(text) {
  const box = $("puzzle-note");
  box.hidden = false;
  box.append(el("span", { text }), " ");
}

// ---------------------------------------------------------------- a puzzle
function show(item) {
  state.current = { ...item, answer: null };
  state.tried.add(keyOf(item.puzzle));
  const section = $("puzzle");
  section.dataset.state = "ready";
  section.dataset.id = keyOf(item.puzzle);
  section.dataset.kind = item.puzzle.kind ?? "open";
  delete section.dataset.result;
  $("answer").hidden = true;
  drawCurrent();
  shareLink(item.puzzle);
  if (item.source === "set") {
    solve(item.puzzle).catch((error) => {
      if (state.current?.puzzle !== item.puzzle) return;
      skip(item.puzzle, error);
      showNext();
    });
  }
}

function drawCurrent() {
  const { puzzle, answer } = state.current;
  drawPuzzle($("puzzle-table"), puzzle, { onPick: answerWith });
  const c = puzzle.contract;
  $("puzzle-contract").textContent = t("table.contract.aria", {
    value: String(c.value), suit: c.trump, seat: seatName(puzzle, c.declarer), multiplier: String(c.multiplier ?? 1),
  });
  $("puzzle-won").textContent = wonText(puzzle);
  $("puzzle-task").textContent = t(puzzle.kind === "seat" ? "puzzles.task.seat" : "puzzles.task.open");
  $("puzzle-status").textContent = "";
  if (answer) drawAnswer();
}

// The points and tricks each side has won so far: {points: [us, them], tricks: [...]} by side (seats 0
// and 2, then 1 and 3), told from the seat to play's side.
function wonText(puzzle) {
  const won = puzzle.won;
  if (!won) return "";
  const mine = puzzle.to_play % 2;
  return t("puzzles.won", {
    us: won.points?.[mine] ?? 0, us_tricks: won.tricks?.[mine] ?? 0,
    them: won.points?.[1 - mine] ?? 0, them_tricks: won.tricks?.[1 - mine] ?? 0,
  });
}

async function answerWith(card) {
  const current = state.current;
  if (!current || current.answer || current.picked) return; // one answer a puzzle, the first press
  current.picked = card;
  performance.mark("puzzle-check-start");
  $("puzzle-status").textContent = t("puzzles.checking");
  let solution;
  try {
    solution = await solve(current.puzzle);
  } catch (error) {
    current.picked = null;
    if (state.current === current && current.source !== "set") $("puzzle-status").textContent = errorText(error);
    return; // a set puzzle's fault: skipped and named (show)
  }
  if (state.current !== current) return;
  const right = solution.best.includes(card);
  current.answer = { card, right, solution, streak: state.progress.streak }; // the streak this answer ends, if missed
  const { puzzle, source } = current;
  const rated = state.mode !== "streak" && source !== "mistake" && Number.isFinite(puzzle.rating);
  state.progress = withResult(state.progress, {
    id: keyOf(puzzle), rating: puzzle.rating ?? null, themes: puzzle.themes ?? [], solved: right, rated,
    streakMode: state.mode === "streak",
  });
  saveProgress(state.progress);
  drawFigures();
  drawAnswer(true);
  performance.measure("puzzle-check", "puzzle-check-start");
}

function drawAnswer(fresh = false) {
  const { puzzle, answer } = state.current;
  const { card, right, solution } = answer;
  const section = $("puzzle");
  section.dataset.state = "answered";
  section.dataset.result = right ? "right" : "wrong";
  markCards($("puzzle-table"), puzzle, { picked: card, best: solution.best, values: solution.values });
  $("puzzle-status").textContent = "";
  const head = $("answer-head");
  head.textContent = right ? t("puzzles.right", { card }) : t("puzzles.wrong", { card, best: cardName(solution.best[0]) });
  head.className = `answer-head ${right ? "is-right" : "is-wrong"}`;
  if (state.mode === "streak" && !right) head.append(" ", t("puzzles.streak.over", { n: answer.streak }));
  const why = (puzzle.themes ?? []).filter((theme) => has(`puzzles.why.${theme}`)).map((theme) => t(`puzzles.why.${theme}`));
  const reason = state.current.reason; // a mistake's: the review's words on the card played
  if (reason && has(`review.reason.${reason.key}`)) why.push(t(`review.reason.${reason.key}`, reason.params));
  $("answer-why").textContent = why.join(" ");
  $("answer-why").hidden = !why.length;
  const rows = Object.entries(solution.values ?? {}).sort((a, b) => b[1] - a[1]);
  $("values-body").replaceChildren(...rows.map(([c, points]) => el(
    "tr",
    { class: `${solution.best.includes(c) ? "is-best" : ""} ${c === card ? "is-picked" : ""}`.trim(), dataset: { card: c } },
    el("th", { scope: "row", text: cardName(c) }),
    el("td", { text: Number.isInteger(points) ? String(points) : points.toFixed(1) }),
  )));
  drawLine(solution.line ?? puzzle.line ?? [], fresh);
  $("answer").hidden = false;
  if (fresh) head.focus({ preventScroll: false });
}

// The solution line, the rest of the deal from the best card, trick by trick (the trick on the table
// completed first); one trick after another when motion is welcome.
function drawLine(line, fresh) {
  const list = $("answer-line");
  const still = !fresh || matchMedia("(prefers-reduced-motion: reduce)").matches;
  const tricks = [];
  let rest = line.slice();
  let size = 4 - (state.current.puzzle.trick.cards.length % 4);
  while (rest.length) {
    tricks.push(rest.slice(0, size));
    rest = rest.slice(size);
    size = 4;
  }
  list.replaceChildren(...tricks.map((cards, i) => {
    const item = el("li", { dataset: { cards: cards.join(",") } }, cards.map((card) => cardName(card)).join(", "));
    if (!still) {
      item.classList.add("is-coming");
      item.style.animationDelay = `${i * LINE_STEP_MS}ms`;
    }
    return item;
  }));
  list.hidden = !line.length;
  $("line-title").hidden = !line.length;
}

// ---------------------------------------------------------------- the link
async function shareLink(puzzle) {
  const input = $("share-link");
  input.value = "";
  $("share-status").textContent = "";
  let text;
  try {
    text = await linkOf(puzzle);
  } catch {
    return;
  }
  if (state.current?.puzzle !== puzzle) return;
  const url = new URL(`${location.pathname}${location.search}#${text}`, location.href);
  input.value = url.href;
  if (fragmentText(location.hash) !== text) {
    state.shownText = text;
    history.replaceState(null, "", url.pathname + url.search + url.hash);
  }
}

async function share() {
  const input = $("share-link");
  if (!input.value) return;
  const copied = await navigator.clipboard?.writeText(input.value).then(() => true, () => false);
  $("share-status").textContent = t(copied ? "puzzles.share.copied" : "puzzles.share.copy_yourself");
  if (!copied) input.select();
}

// ---------------------------------------------------------------- figures, choices
function drawFigures() {
  const { player, run, streak } = state.progress;
  const rating = $("rating");
  rating.textContent = String(shown(player));
  rating.dataset.rating = String(shown(player));
  const count = state.mode === "streak" ? streak : run;
  $("streak").textContent = String(count);
  $("streak").dataset.streak = String(count);
}

function themeLabel(theme) {
  return has(`puzzles.theme.${theme}`) ? t(`puzzles.theme.${theme}`) : theme.replaceAll("_", " ");
}

function drawThemes() {
  const select = $("theme");
  select.replaceChildren(
    el("option", { value: "", text: t("puzzles.theme.all") }),
    ...setThemes(state.set).map((theme) => el("option", { value: theme, text: themeLabel(theme) })),
  );
  select.value = state.theme ?? "";
  select.disabled = state.mode === "mistakes";
}

function drawModes() {
  const option = $("mode").querySelector('option[value="mistakes"]');
  option.textContent = t("puzzles.mode.mistakes_n", { n: state.mistakes.length });
}

function redraw() {
  document.title = t("puzzles.page.title");
  drawThemes();
  drawModes();
  drawFigures();
  if (state.current) {
    drawCurrent();
    relabelCards($("puzzle-table"));
  }
}

function wire() {
  $("next").addEventListener("click", () => { if (state.ready) showNext(); });
  $("share").addEventListener("click", share);
  $("share-link").addEventListener("focus", (event) => event.target.select());
  $("mode").addEventListener("change", async (event) => {
    state.mode = event.target.value;
    state.upcoming = null;
    drawThemes();
    drawFigures();
    if (state.mode === "mistakes") await loadMistakes(); // the deals reviewed since the page opened too
    if (state.ready) showNext();
  });
  $("theme").addEventListener("change", (event) => {
    state.theme = event.target.value || null;
    state.upcoming = null;
    if (state.ready) showNext();
  });
  addEventListener("hashchange", () => {
    if (state.ready && fragmentText(location.hash) && fragmentText(location.hash) !== state.shownText) openLink();
  });
}
