// The deal of the day and challenges as pure functions (no storage, no DOM, no engine): the day in UTC, a
// set's progress, a result against the par, the text shared. Tested under Node (tests/js/daily.test.mjs); the
// flows are js/daily.js, the store js/daily-store.js, the links' notation js/notation.js.
//
//   utcDay(Date.UTC(2026, 11, 5, 23, 59)) -> "2026-12-05"
//   pastDays("2026-03-01", 3) -> ["2026-03-01", "2026-02-28", "2026-02-27"]
//   signed(-12) -> "−12"            shareLine([34, -12, null]) -> "+34 ▲ −12 ▼ …"
import { isDay } from "./notation.js";

export const DAILY_DEALS = 4; // the deals of a day's set (the engine's `daily` says so too)
export const PAST_DAYS = 30; // the days offered on the progress page

// The calendar day of `ms` (ms since 1970) in UTC, as YYYY-MM-DD.
export function utcDay(ms) {
  return new Date(ms).toISOString().slice(0, 10);
}

// Today's day for the page: `?day=YYYY-MM-DD` in its address pretends that date (tests, bug reports),
// else the UTC date of `now`.
export function today(search = "", now = Date.now()) {
  const asked = new URLSearchParams(search).get("day");
  return isDay(asked) ? asked : utcDay(now);
}

// `count` days ending with `day`, newest first.
export function pastDays(day, count = PAST_DAYS) {
  const start = Date.parse(`${day}T00:00:00Z`);
  return Array.from({ length: count }, (_, i) => utcDay(start - i * 86_400_000));
}

// A day's progress from its stored results ({deals: [{score, …}]} or null): {state, played}, state "new"
// (not played), "progress" (played of DAILY_DEALS) or "done".
export function dayProgress(stored, count = DAILY_DEALS) {
  const played = (stored?.deals ?? []).filter((deal) => Number.isFinite(deal?.score)).length;
  return { state: played === 0 ? "new" : played >= count ? "done" : "progress", played };
}

// A day's state in words ("not played yet", "2 of 4 played", "done" and its marks); `t` the catalogue's.
export function dayStateText(stored, t) {
  const { state, played } = dayProgress(stored);
  if (state === "done") return t("daily.state.done", { line: shareLine(differences(stored)) });
  return t(state === "new" ? "daily.state.new" : "daily.state.progress", { played, count: DAILY_DEALS });
}

// Each deal's difference from its par (null where unknown) of a stored day.
export function differences(day) {
  return day.deals.map((deal) => difference(deal.score, deal.par));
}

// A result minus its par, rounded to a point; null when the par is not known yet.
export function difference(score, par) {
  return Number.isFinite(score) && Number.isFinite(par) ? Math.round(score - par) : null;
}

// A signed figure as a result is shown: "+34", "−12" (a minus sign), "0".
export function signed(n) {
  if (!Number.isFinite(n)) return "…";
  const rounded = Math.round(n);
  if (rounded > 0) return `+${rounded}`;
  return rounded < 0 ? `−${-rounded}` : "0";
}

// The marks of a set's differences, as a word game shares its grid: a figure and an arrow a deal ("…" for
// a par not yet known); no card, no contract.
export function shareLine(differences) {
  return differences.map((d) => (Number.isFinite(d) ? `${signed(d)} ${d > 0 ? "▲" : d < 0 ? "▼" : "="}` : "…")).join(" ");
}

// The text shared for a finished set: `t` the catalogue's (js/i18n.js), `game` the game's name, `level` the
// bots' level, `url` the link that plays the set.
export function shareText({ day, differences, level }, t, url) {
  const head = t("daily.share.text", { day, line: shareLine(differences), level });
  return `${head}\n${url}`;
}

// The sum of known differences, and whether every one is known.
export function totalDifference(differences) {
  const known = differences.filter(Number.isFinite);
  return { total: known.reduce((a, b) => a + b, 0), complete: known.length === differences.length };
}

// The rows of a challenge's comparison: one per player (the link's, then `you` when given: {name, results}),
// each deal's score, par and difference, and the total difference.
export function comparison(players) {
  return players.map(({ name, results, you = false }) => {
    const deals = results.map(({ score, par }) => ({ score, par, difference: difference(score, par) }));
    return { name, you, deals, ...totalDifference(deals.map((deal) => deal.difference)) };
  });
}
