// The progress page's figures from the history's entries (js/history-format.js), as pure functions: tested
// under Node (tests/js/progress.test.mjs) and against the same figures computed in Python from the same
// records (tests/test_progress_figures.py). Nothing here reads a rule: the results are the engine's records,
// the losses, marks, luck and decision types the engine's review.
//
// The player's side is their seat's (seat & 1); a deal's figures are the player's own decisions only. An
// entry the engine has not read, or refused (history-format.js counted), counts in none of them.
import { counted, finishedPar } from "../history-format.js";

export const MARKS = ["inaccuracy", "mistake", "blunder"];
// The review's sorts of decision (coinche.review.DECISION_TYPES); a review kept before they were told has
// only "call" and "card".
export const TYPES = ["bid", "pass", "coinche", "lead", "follow", "trump", "discard", "call", "card"];
export const WINDOW = 20; // the moving average's deals

// The kind of table an entry was played at: the game, the bots' level, the house rules.
export function tableOf(entry) {
  return { game: entry.record.variant, level: entry.level ?? "unknown", rules: entry.record.rules ?? "own" };
}

export function tableKey(table) {
  return `${table.game}|${table.level}|${table.rules}`;
}

// The kinds of table in the entries, the most played first: [{game, level, rules, key, deals}].
export function tables(entries) {
  const found = new Map();
  for (const entry of entries.filter(counted)) {
    const table = tableOf(entry);
    const key = tableKey(table);
    const known = found.get(key) ?? { ...table, key, deals: 0 };
    known.deals += 1;
    found.set(key, known);
  }
  return [...found.values()].sort((a, b) => b.deals - a.deals || a.key.localeCompare(b.key));
}

const round1 = (x) => Math.round(x * 10) / 10;

// One reviewed deal's losses, the player's decisions only: {lost, calls, cards, luck, marks: {name: points},
// types: {type: {decisions, lost}}}.
export function dealLosses(entry) {
  const out = { lost: 0, calls: 0, cards: 0, luck: 0, decisions: 0, marks: Object.fromEntries(MARKS.map((m) => [m, 0])), types: {} };
  for (const item of entry.review.decisions) {
    if (item.seat !== entry.seat) continue;
    const loss = Number.isFinite(item.loss) && item.loss > 0 ? item.loss : 0;
    out.decisions += 1;
    out.lost += loss;
    out[item.kind === "call" ? "calls" : "cards"] += loss;
    if (MARKS.includes(item.mark)) out.marks[item.mark] += loss;
    if (item.luck === "unlucky" && Number.isFinite(item.hindsight_loss)) out.luck += item.hindsight_loss;
    const type = TYPES.includes(item.type) ? item.type : item.kind;
    const bucket = out.types[type] ?? (out.types[type] = { decisions: 0, lost: 0 });
    bucket.decisions += 1;
    bucket.lost += loss;
  }
  return out;
}

// The moving average of `values` over the last `window` (fewer at the start) with its band: the mean plus
// and minus one standard error of the window's values.
export function movingAverage(values, window = WINDOW) {
  const out = [];
  let sum = 0;
  let squares = 0;
  values.forEach((value, i) => {
    sum += value;
    squares += value * value;
    if (i >= window) {
      sum -= values[i - window];
      squares -= values[i - window] ** 2;
    }
    const n = Math.min(i + 1, window);
    const mean = sum / n;
    const variance = n > 1 ? Math.max(0, (squares - n * mean * mean) / (n - 1)) : 0;
    const error = Math.sqrt(variance / n);
    out.push({ mean: round1(mean), low: round1(mean - error), high: round1(mean + error) });
  });
  return out;
}

// Every figure of the page for the entries of one kind of table (`key`, or every entry when null).
export function figures(entries, key = null) {
  const chosen = entries.filter((entry) => counted(entry) && (key === null || tableKey(tableOf(entry)) === key));
  const out = {
    deals: chosen.length,
    matches: { won: 0, lost: 0 },
    declared: { declared: 0, made: 0 },
    coinches: { made: 0, made_set: 0, suffered: 0, suffered_set: 0 },
    reviewed: 0,
    series: [],
    average: { lost: 0, calls: 0, cards: 0, luck: 0, ...Object.fromEntries(MARKS.map((m) => [m, 0])) },
    types: [],
    duplicate: duplicate(chosen),
  };
  const types = {};
  for (const entry of chosen) {
    const side = entry.seat & 1;
    const result = entry.record.result;
    if (entry.match_over) out.matches[entry.match_over.winner === side ? "won" : "lost"] += 1;
    const contract = result.void ? null : result.contract;
    if (contract) {
      const ours = (contract.declarer & 1) === side;
      if (ours) {
        out.declared.declared += 1;
        if (result.made) out.declared.made += 1;
      }
      if (contract.multiplier > 1) { // coinched (or surcoinched): by us on their contract, or on ours
        const which = ours ? "suffered" : "made";
        out.coinches[which] += 1;
        if (!result.made) out.coinches[`${which}_set`] += 1;
      }
    }
    if (!entry.review) continue;
    const losses = dealLosses(entry);
    if (!losses.decisions) continue;
    out.reviewed += 1;
    out.series.push({
      // an online deal (no deck) has no replay: no id to link to
      id: entry.record.deck === undefined ? null : entry.id ?? null,
      at: entry.at, lost: round1(losses.lost), calls: round1(losses.calls), cards: round1(losses.cards),
      luck: round1(losses.luck), ...Object.fromEntries(MARKS.map((m) => [m, round1(losses.marks[m])])),
    });
    for (const [type, { decisions, lost }] of Object.entries(losses.types)) {
      const bucket = types[type] ?? (types[type] = { type, decisions: 0, lost: 0 });
      bucket.decisions += decisions;
      bucket.lost += lost;
    }
  }
  const n = out.series.length;
  if (n) {
    for (const name of Object.keys(out.average)) out.average[name] = round1(out.series.reduce((s, d) => s + d[name], 0) / n);
  }
  out.moving = movingAverage(out.series.map((d) => d.lost));
  // the worst sorts of decision first: the points they lost a deal reviewed
  out.types = Object.values(types)
    .map(({ type, decisions, lost }) => ({ type, decisions, per_deal: n ? round1(lost / n) : 0, per_decision: round1(lost / decisions) }))
    .sort((a, b) => b.per_deal - a.per_deal || a.type.localeCompare(b.type));
  return out;
}

// The player's duplicate differences (their side's score minus the Expert's par from their seat, the same
// cards: js/table/background-pars.js), oldest first: {deals, mean, series: [{id, at, difference, par, result,
// k, stderr}], moving}; only the deals whose par is made.
export function duplicate(entries) {
  const series = [];
  for (const entry of entries) {
    const par = finishedPar(entry.par);
    if (!par) continue;
    series.push({
      id: entry.id ?? null, at: entry.at, difference: round1(par.difference), par: round1(par.par),
      result: round1(par.result), k: par.k, stderr: round1(par.stderr),
    });
  }
  const n = series.length;
  return {
    deals: n,
    mean: n ? round1(series.reduce((sum, d) => sum + d.difference, 0) / n) : 0,
    series,
    moving: movingAverage(series.map((d) => d.difference)),
  };
}
