// The judge page: a position editor, the engine's ruling on it, and the position in the URL fragment.
//
// The fragment is the whole state (`#trump=h&trick=8h,Ah,7c&hand=Jh,Kd,7s`, as `coinche judge` reads it).
// Every edit pushes a history entry, so Back, Forward and Undo walk through the edits; opening a link
// rules on it directly. This page knows the notation only (notation.js): every ruling, and every verdict
// on a link, comes from the engine in the worker (`judge`, `judge_batch` in coinche.webcommands).
//
// What tests and the bench read: performance marks "judge-editor" and "judge-ruled" (the first ruling
// shown), <section id="ruling" data-state="waiting|prompt|ruled|error"
// data-position="..." data-rule="N" data-note="...">, and on every card of the ruling
// <li data-card="Kd" data-legal="false" data-rule="1">; <body data-engine="loading|ready|error">.
// `engine` is exported for the in-browser differential test.
import { Engine } from "../engine.js";
import { el } from "../dom.js";
import { errorText } from "../errors.js";
import { detectLanguage, languagePicker, onLanguageChange, setLanguage, suitName, t } from "../i18n.js";
import { CONTRACT_KINDS, SUITS, formatPosition } from "../notation.js";
import { cardFace, cardInline } from "./dom.js";
import { EXAMPLES } from "./examples.js";
import { options } from "../options.js";
import { fragmentText, isEmpty, partnerIndex, readPosition } from "./notation.js";
import { Picker } from "./picker.js";

const $ = (id) => document.getElementById(id);
const LIMITS = options.position; // the engine's: {trick: 3, hand: 8, max_length}
const TRICK_LIMIT = LIMITS.trick;
const HAND_LIMIT = LIMITS.hand;
const RULES = [1, 2, 3, 4, 5];
const SURPRISES = new Set(["overtrump_partner", "no_undertrump"]);
// Engine errors that only mean "not finished yet": the page asks for the missing part instead.
const INCOMPLETE = new Set(["missing_field", "too_few_cards"]);
// No position is longer than about 70 characters: the history entry of a longer link keeps only what
// the editor could read (the browser would copy a 100,000-character URL at every history call).
const LONG_LINK = 2000;

export const engine = new Engine();

const state = {
  position: { trump: null, trick: [], hand: [] },
  target: "trick",
  ruling: null, // the engine's answer for state.position, or null
  problem: null, // what was wrong with the link this position came from: {dropped, error}
  shown: null, // the fragment text the page last showed (an edit's, or a link's as written)
  depth: 0, // edits pushed on the history since the page was opened: Undo goes back while > 0
  seq: 0, // the latest ruling request; older answers are dropped
  ready: false,
};

// ---------------------------------------------------------------- start
// The catalogue first (a small same-origin file): the editor is drawn once, in the reader's language.
await setLanguage(detectLanguage(), { remember: false }).catch(() => setLanguage("en", { remember: false }));

const picker = new Picker($("picker"), {
  onPick: (card) => pick(card),
  onUndo: () => undo(),
  onPending: (rank) => {
    $("picker-status").textContent = rank ? t("judge.picker.pending", { rank: t(`rank.short.${rank}`) }) : "";
  },
});

buildTrumpChoice();
buildRuleList();
wireControls();
loadFromLocation();
performance.mark("judge-editor"); // the editor is drawn (bench/judge_bench.py reads these marks)

languagePicker($("language"));
onLanguageChange(() => renderAll(true));
renderExamples();

engine.onProgress = ({ loaded, total }) => {
  const bar = $("engine-progress");
  if (total > 0) bar.value = Math.min(loaded / total, 1);
  else bar.removeAttribute("value");
};
engine.ready.then(
  () => {
    state.ready = true;
    document.body.dataset.engine = "ready";
    $("engine-status").hidden = true;
    ruleExamples();
    requestRuling();
  },
  (error) => {
    document.body.dataset.engine = "error";
    $("engine-progress").hidden = true;
    $("engine-text").textContent = t("judge.engine.failed", { detail: error.message });
    $("ruling").dataset.state = "error";
  },
);

// ---------------------------------------------------------------- the URL and the history
function currentText() {
  return formatPosition(state.position);
}

function urlFor(text) {
  return `${location.pathname}${location.search}${text ? `#${text}` : ""}`;
}

// Read the position in the fragment: a link opened, Back or Forward, an example followed. The measure
// "judge-link-read" times it, message of a bad link included, and "judge-link-told" until the engine's word
// on a bad link is shown (e2e/test_judge.py holds both under 100 ms once the engine is up). A link longer
// than any position is told so at once, in the same reading: the engine would say just that
// (position_too_long, its first check), so it is not asked; the page never waits on the worker for it.
function loadFromLocation() {
  performance.mark("judge-link-start");
  readLink();
  performance.measure("judge-link-read", "judge-link-start");
}

function readLink() {
  const text = fragmentText(location.hash);
  const read = readPosition(text, LIMITS);
  state.shown = text;
  state.position = { trump: read.trump, trick: read.trick, hand: read.hand };
  // the engine is given the link as written: it reads it as fragmentText did (coinche.position.link_text)
  state.problem = read.droppedCount || read.tooLong
    ? { raw: location.hash, dropped: read.dropped, more: read.droppedCount - read.dropped.length, error: tooLongError(read.tooLong) }
    : null;
  if (history.state?.judgeDepth === undefined) {
    const long = location.hash.length > LONG_LINK;
    if (long) state.shown = formatPosition(read);
    history.replaceState({ judgeDepth: 0 }, "", long ? urlFor(state.shown) : undefined);
  }
  state.depth = history.state?.judgeDepth ?? 0;
  state.target = read.trick.length < TRICK_LIMIT && read.hand.length === 0 ? "trick" : "hand";
  state.ruling = null;
  if (state.problem && !state.problem.error) checkLink(state.problem);
  update();
  if (state.problem?.error) performance.measure("judge-link-told", "judge-link-start");
}

// The engine's error for a text longer than it reads, as it would answer it (numbers as plain digits: a
// first Intl.NumberFormat costs ~20 ms).
function tooLongError(tooLong) {
  if (!tooLong) return null;
  const params = { length: String(tooLong.length), limit: String(tooLong.limit) };
  return { code: "position_too_long", params, message: `position too long: ${params.length} characters` };
}

// An edit: a new history entry, so that Back undoes it.
function commit(position) {
  state.position = position;
  state.problem = null;
  state.depth += 1;
  state.ruling = null;
  const text = isEmpty(position) ? "" : formatPosition(position);
  state.shown = text;
  history.pushState({ judgeDepth: state.depth }, "", urlFor(text));
  update();
}

function onNavigate() {
  if (fragmentText(location.hash) === state.shown) { // popstate and hashchange both report a fragment navigation
    if (history.state?.judgeDepth === undefined) history.replaceState({ judgeDepth: 0 }, "");
    state.depth = history.state.judgeDepth;
    renderTools();
    return;
  }
  loadFromLocation();
}

// ---------------------------------------------------------------- edits
function pick(card) {
  const { trump, trick, hand } = state.position;
  if (trick.includes(card) || hand.includes(card)) return;
  if (state.target === "trick") {
    if (trick.length >= TRICK_LIMIT) return;
    const next = [...trick, card];
    if (next.length === TRICK_LIMIT) setTarget("hand");
    commit({ trump, trick: next, hand });
  } else {
    if (hand.length >= HAND_LIMIT) return;
    commit({ trump, trick, hand: [...hand, card] });
  }
}

function takeBack(zone, card) {
  const position = { ...state.position };
  position[zone] = position[zone].filter((c) => c !== card);
  commit(position);
}

function undo() {
  if (state.depth > 0) history.back();
}

function clear() {
  if (isEmpty(state.position) && !state.problem) return;
  setTarget("trick");
  commit({ trump: null, trick: [], hand: [] });
}

function setTarget(zone) {
  state.target = zone;
  for (const input of document.querySelectorAll('input[name="target"]')) input.checked = input.value === zone;
}

// ---------------------------------------------------------------- the engine
function requestRuling() {
  if (!state.ready) return;
  const { trump, hand } = state.position;
  if (!trump || hand.length === 0) return;
  const text = currentText();
  const seq = ++state.seq;
  engine.call("judge", { position: text }).then(
    (ruling) => {
      if (seq !== state.seq) return;
      state.ruling = ruling;
      renderRuling();
      renderZones();
    },
    (error) => {
      if (seq !== state.seq) return;
      state.ruling = { error: { code: error.code, params: error.params, message: error.message } };
      renderRuling();
    },
  );
}

// What the engine says about the link as it was written: the headline of the link problem.
async function checkLink(problem) {
  if (!state.ready) await engine.ready.catch(() => null); // once up, asked at once: the worker reads while the page draws
  if (!state.ready || state.problem !== problem) return;
  try {
    await engine.call("judge", { position: problem.raw });
  } catch (error) {
    problem.error = { code: error.code, params: error.params, message: error.message };
  }
  if (state.problem !== problem) return;
  renderProblem();
  performance.measure("judge-link-told", "judge-link-start");
}

async function ruleExamples() {
  try {
    const rulings = await engine.call("judge_batch", { positions: EXAMPLES.map((e) => e.position) });
    EXAMPLES.forEach((example, i) => { example.ruling = rulings[i]; });
  } catch {
    return;
  }
  renderExamples();
}

// ---------------------------------------------------------------- rendering
function update() {
  renderEditor();
  renderProblem();
  renderRuling();
  renderShare();
  renderExamples();
  requestRuling();
}

function renderAll(rebuild = false) {
  if (rebuild) {
    picker.build();
    buildTrumpChoice();
    buildRuleList();
  }
  renderEditor();
  renderProblem();
  renderRuling();
  renderShare();
  renderExamples();
}

function buildTrumpChoice() {
  const box = $("trump-options");
  box.replaceChildren();
  // no trumps and all trumps after the suits: the contracts of the house rule contracts=all
  for (const suit of [...SUITS, ...CONTRACT_KINDS]) {
    const input = el("input", { type: "radio", name: "trump", value: suit, class: "visually-hidden" });
    input.checked = state.position.trump === suit;
    input.addEventListener("change", () => {
      if (input.checked) commit({ ...state.position, trump: suit });
    });
    box.append(el(
      "label",
      { class: `trump-option suit-${suit}` },
      input,
      el("span", { class: "trump-symbol", "aria-hidden": "true",
        text: t(CONTRACT_KINDS.includes(suit) ? `suit.short.${suit}` : `suit.symbol.${suit}`) }),
      el("span", { class: "trump-name", text: suitName(suit) }),
    ));
  }
}

function buildRuleList() {
  const list = $("rule-list");
  list.replaceChildren();
  for (const n of RULES) {
    list.append(el(
      "li",
      { class: "rule", id: `rule-${n}`, dataset: { rule: String(n) } },
      el("span", { class: "rule-no", text: t("judge.rule_n", { n }) }),
      el("span", { class: "rule-text", text: t(`rule.${n}`) }),
    ));
  }
}

function wireControls() {
  for (const input of document.querySelectorAll('input[name="target"]')) {
    input.addEventListener("change", () => {
      if (input.checked) {
        state.target = input.value;
        renderEditor();
      }
    });
  }
  $("undo").addEventListener("click", undo);
  $("clear").addEventListener("click", clear);
  $("share").addEventListener("click", share);
  $("share-link").addEventListener("focus", (event) => event.target.select());
  // The examples and the worked tricks of the page's text: each link is an edit like any other.
  document.querySelector("main.judge").addEventListener("click", (event) => {
    const link = event.target.closest("a[data-position]");
    if (!link || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    event.preventDefault(); // an example is an edit like any other: Undo and Back return from it
    const read = readPosition(link.dataset.position, LIMITS);
    setTarget("hand");
    commit({ trump: read.trump, trick: read.trick, hand: read.hand });
    $("ruling").scrollIntoView({ behavior: "smooth", block: "start" });
  });
  addEventListener("popstate", onNavigate);
  addEventListener("hashchange", onNavigate);
}

function renderEditor() {
  const { trump, trick, hand } = state.position;
  for (const input of document.querySelectorAll('input[name="trump"]')) input.checked = input.value === trump;
  for (const option of document.querySelectorAll(".trump-option")) {
    option.classList.toggle("is-chosen", option.querySelector("input").checked);
  }
  setTarget(state.target);
  $("zone-trick").classList.toggle("is-target", state.target === "trick");
  $("zone-hand").classList.toggle("is-target", state.target === "hand");
  $("count-trick").textContent = `${trick.length}/${TRICK_LIMIT}`;
  $("count-hand").textContent = `${hand.length}/${HAND_LIMIT}`;
  renderZones();
  const full = state.target === "trick" ? trick.length >= TRICK_LIMIT : hand.length >= HAND_LIMIT;
  picker.update({ used: new Set([...trick, ...hand]), full, trump });
  $("picker-status").textContent = full
    ? t(state.target === "trick" ? "judge.picker.trick_full" : "judge.picker.hand_full")
    : "";
  renderTools();
}

function renderTools() {
  $("undo").disabled = state.depth <= 0;
  $("clear").disabled = isEmpty(state.position) && !state.problem;
}

// The cards of the position, each a button that takes it back; the hand shows the verdicts once ruled.
function renderZones() {
  const { trick, hand } = state.position;
  const partner = partnerIndex(trick);
  const trickList = $("trick-cards");
  trickList.replaceChildren();
  trick.forEach((card, i) => {
    const who = i === partner ? "partner" : "opponent";
    const role = t(i === 0 ? `judge.seat.led_${who}` : `judge.seat.${who}`);
    trickList.append(el(
      "li",
      { class: `slot is-${who}`, dataset: { card } },
      el(
        "button",
        { type: "button", class: "slot-card", "aria-label": t("judge.editor.take_back", { card, role }), on: { click: () => takeBack("trick", card) } },
        cardFace(card),
      ),
      el("span", { class: "slot-role", text: role }),
    ));
  });
  for (let i = trick.length; i < TRICK_LIMIT; i++) {
    trickList.append(el("li", { class: "slot is-empty", "aria-hidden": "true" }, el("span", { class: "slot-blank" })));
  }
  const seatKey = ["judge.seat.you_lead", "judge.seat.you_second", "judge.seat.you_third", "judge.seat.you_fourth"][trick.length];
  const seat = $("seat-info");
  seat.replaceChildren(t(seatKey));
  if (partner !== null) seat.append(" ", t("judge.seat.partner_played", { card: trick[partner] }));

  const ruling = state.ruling && !state.ruling.error && state.ruling.position === currentText() ? state.ruling : null;
  const handList = $("hand-cards");
  handList.replaceChildren();
  for (const card of hand) {
    const verdict = ruling ? (card in ruling.forbidden ? "forbidden" : "legal") : "unknown";
    const label = t("judge.editor.take_back_hand", { card, verdict });
    handList.append(el(
      "li",
      { class: `slot is-${verdict}`, dataset: { card } },
      el(
        "button",
        { type: "button", class: "slot-card", "aria-label": label, on: { click: () => takeBack("hand", card) } },
        cardFace(card),
      ),
      el("span", { class: "slot-mark", "aria-hidden": "true", text: verdict === "legal" ? "✓" : verdict === "forbidden" ? "✕" : "" }),
    ));
  }
  if (hand.length === 0) {
    handList.append(el("li", { class: "slot is-empty hint" }, el("span", { class: "slot-hint", text: t("judge.editor.hand_hint") })));
  }
  // On a phone the ruling is further down: its headline here, and a way to it.
  const summary = $("hand-summary");
  summary.hidden = !ruling;
  summary.replaceChildren();
  if (ruling) {
    summary.append(
      el("span", { class: "summary-rule", text: ruleLabel(ruling.rule) }),
      el("span", { text: summaryText(ruling, ruling.legal.length, ruling.hand.length) }),
      el("button", {
        type: "button",
        class: "see-why",
        text: t("judge.see_why"),
        on: { click: () => $("ruling").scrollIntoView({ behavior: "smooth", block: "start" }) },
      }),
    );
  }
}

function ruleLabel(rule) {
  return rule === 0 ? t("judge.rules.leader") : t("judge.rule_n", { n: rule });
}

function renderProblem() {
  const box = $("link-problem");
  const problem = state.problem;
  box.hidden = !problem;
  if (!problem) return;
  $("link-problem-head").textContent = `${t("judge.link.bad")} ${problem.error ? errorText(problem.error) : ""}`.trim();
  const detail = $("link-problem-detail");
  detail.replaceChildren();
  const items = problem.dropped.map((d) => t(`judge.link.dropped_${d.what}`, { text: d.text }));
  // n as plain digits: a first Intl.NumberFormat costs ~20 ms, and a bad link's message must be quick
  if (problem.more) items.push(t("judge.link.dropped_more", { n: String(problem.more) }));
  if (items.length) detail.append(t("judge.link.kept"), " ", items.join(" · "));
}

function renderRuling() {
  const section = $("ruling");
  const body = $("ruling-body");
  const prompt = $("ruling-prompt");
  const { trump, hand } = state.position;
  const text = currentText();
  const ruling = state.ruling && state.ruling.position === text ? state.ruling : null;
  section.dataset.position = text;
  if (!ruling && !state.ruling?.error && trump && hand.length && state.ready && !body.hidden) {
    // The answer takes a millisecond: keep the previous ruling, dimmed only if it is slow to come.
    section.dataset.state = "waiting";
    section.classList.add("is-stale");
    return;
  }
  section.classList.remove("is-stale");
  for (const rule of document.querySelectorAll(".rule")) {
    rule.classList.remove("is-decisive");
    rule.removeAttribute("aria-current");
  }
  delete section.dataset.rule;
  delete section.dataset.note;
  if (!trump || hand.length === 0) {
    section.dataset.state = state.ready || document.body.dataset.engine !== "error" ? "prompt" : "error";
    prompt.hidden = false;
    prompt.textContent = t(!trump && hand.length === 0 ? "judge.prompt.both" : !trump ? "judge.prompt.trump" : "judge.prompt.hand");
    body.hidden = true;
    return;
  }
  if (state.ruling?.error) {
    section.dataset.state = "error";
    prompt.hidden = false;
    prompt.textContent = errorText(state.ruling.error);
    body.hidden = true;
    return;
  }
  if (!ruling) {
    section.dataset.state = document.body.dataset.engine === "error" ? "error" : "waiting";
    prompt.hidden = !state.ready;
    prompt.textContent = state.ready ? t("judge.ruling.working") : "";
    body.hidden = true;
    return;
  }
  prompt.hidden = true;
  body.hidden = false;
  section.dataset.state = "ruled";
  if (!performance.getEntriesByName("judge-ruled").length) performance.mark("judge-ruled");
  section.dataset.rule = String(ruling.rule);
  if (ruling.note) section.dataset.note = ruling.note;

  const legal = ruling.legal.length;
  const total = ruling.hand.length;
  const summary = $("ruling-summary");
  summary.replaceChildren(
    el("span", { class: "summary-rule", text: ruleLabel(ruling.rule) }),
    " ",
    summaryText(ruling, legal, total),
  );

  const list = $("verdicts");
  list.replaceChildren();
  for (const card of ruling.hand) {
    const forbidden = ruling.forbidden[card];
    const rule = forbidden ? forbidden.rule : ruling.rule;
    list.append(el(
      "li",
      { class: `verdict ${forbidden ? "is-forbidden" : "is-legal"}`, dataset: { card, legal: String(!forbidden), rule: String(rule) } },
      cardFace(card),
      el(
        "div",
        { class: "verdict-text" },
        el("span", { class: "verdict-tag", text: t(forbidden ? "judge.verdict.forbidden" : "judge.verdict.legal") }),
        forbidden ? el("span", { class: "verdict-rule", text: t("judge.rule_n", { n: forbidden.rule }) }) : null,
        forbidden ? el("span", { class: "verdict-why", text: t(`reason.${forbidden.key}`, forbidden.params) }) : null,
      ),
    ));
  }

  const note = $("ruling-note");
  note.hidden = !ruling.note;
  if (ruling.note) {
    note.classList.toggle("is-surprise", SURPRISES.has(ruling.note));
    $("note-text").textContent = t(`note.${ruling.note}`);
    const variant = $("note-variant");
    variant.hidden = !SURPRISES.has(ruling.note);
    variant.textContent = SURPRISES.has(ruling.note) ? t(`judge.variant.${ruling.note}`) : "";
  }

  const decisive = document.querySelector(`.rule[data-rule="${ruling.rule}"]`);
  decisive?.classList.add("is-decisive");
  decisive?.setAttribute("aria-current", "true");
  sayRuling(ruling, legal, total);
}

// The ruling read out by a screen reader, once a ruling: the deciding rule and what may be played, the rule's
// note, then each forbidden card and why (#ruling-said, a status region always in the page).
function sayRuling(ruling, legal, total) {
  const parts = [t("access.judge.ruling", { rule: ruleLabel(ruling.rule), summary: summaryText(ruling, legal, total) })];
  if (ruling.note) parts.push(t(`note.${ruling.note}`));
  for (const card of ruling.hand) {
    const forbidden = ruling.forbidden[card];
    if (forbidden) parts.push(t("access.judge.forbidden", { card, reason: t(`reason.${forbidden.key}`, forbidden.params) }));
  }
  const said = $("ruling-said");
  const text = parts.join(" ");
  if (said.textContent !== text) said.textContent = text;
}

function summaryText(ruling, legal, total) {
  if (legal === total) return t("judge.summary.all", { n: total });
  if (legal === 1) return t("judge.summary.only", { card: ruling.legal[0] });
  return t("judge.summary.some", { legal, total });
}

function renderShare() {
  const text = currentText();
  const complete = Boolean(state.position.trump) && state.position.hand.length > 0;
  $("share").disabled = !complete;
  $("share-link").value = complete ? new URL(urlFor(text), location.href).href : "";
  $("share-status").textContent = "";
}

async function share() {
  const url = new URL(urlFor(currentText()), location.href).href;
  const status = $("share-status");
  const copying = navigator.clipboard?.writeText(url).then(() => true, () => false) ?? Promise.resolve(false);
  if (navigator.share) {
    const ruling = state.ruling?.position === currentText() ? state.ruling : null;
    const text = ruling ? summaryText(ruling, ruling.legal.length, ruling.hand.length) : "";
    navigator.share({ title: t("judge.title"), text, url }).catch(() => {});
  }
  if (await copying) {
    status.textContent = t("judge.share.copied");
  } else {
    status.textContent = t("judge.share.copy_yourself");
    $("share-link").focus();
  }
}

function renderExamples() {
  const list = $("examples");
  list.replaceChildren();
  for (const example of EXAMPLES) {
    const read = readPosition(example.position, LIMITS);
    const ruling = example.ruling && !example.ruling.error ? example.ruling : null;
    const verdict = ruling
      ? el(
        "p",
        { class: "example-ruling", dataset: { rule: String(ruling.rule) } },
        el("span", { class: "example-rule", text: ruleLabel(ruling.rule) }),
        " ",
        summaryText(ruling, ruling.legal.length, ruling.hand.length),
      )
      : el("p", { class: "example-ruling is-pending", text: t("judge.examples.pending") });
    list.append(el(
      "li",
      { class: "example", dataset: { example: example.id } },
      el(
        "a",
        {
          href: `#${example.position}`,
          dataset: { position: example.position },
          class: "example-link",
          "aria-current": example.position === currentText() ? "true" : null,
        },
        el("span", { class: "example-title", text: t(`judge.example.${example.id}`) }),
        el(
          "span",
          { class: "example-position" },
          el("span", { class: "example-label", text: t("judge.examples.table") }),
          ...read.trick.map((c) => cardInline(c)),
          el("span", { class: "example-label", text: t("judge.examples.hand") }),
          ...read.hand.map((c) => cardInline(c)),
        ),
        verdict,
      ),
    ));
  }
}
