// The player's puzzles on this device (localStorage "coinche.puzzles"): the Glicko-2 rating, the streaks and
// every result, which the progress page plots (js/puzzles/progress.js). Nothing leaves the device.
//
//   const kept = loadProgress()                      // a fresh one when nothing (or nothing readable) is kept
//   const next = withResult(kept, {id, rating, themes, solved, rated, streakMode, at})   // pure
//   saveProgress(next)
import { START, afterPuzzle } from "./rating.js";

const KEY = "coinche.puzzles";
export const RESULTS_CAP = 2000; // results kept, the oldest dropped first

export function freshProgress() {
  return { v: 1, player: { ...START }, run: 0, best_run: 0, streak: 0, best_streak: 0, results: [], seen: [] };
}

// What a kept text holds, or a fresh progress when it is missing or not this page's (never an exception).
export function readProgress(text) {
  let kept = null;
  try {
    kept = JSON.parse(text);
  } catch {
    return freshProgress();
  }
  const player = kept?.player;
  const ok = kept && kept.v === 1 && Array.isArray(kept.results) && Array.isArray(kept.seen)
    && [player?.rating, player?.rd, player?.vol].every((x) => Number.isFinite(x));
  return ok ? { ...freshProgress(), ...kept } : freshProgress();
}

export function loadProgress() {
  try {
    return readProgress(localStorage.getItem(KEY));
  } catch {
    return freshProgress(); // blocked storage: this visit only
  }
}

export function saveProgress(progress) {
  try {
    localStorage.setItem(KEY, JSON.stringify(progress));
    return true;
  } catch {
    return false;
  }
}

// The progress after one answer. `rated`: the puzzle has a fixed rating and is tried for the first time
// (a puzzle moves the rating once); `streakMode`: the answer counts in the streak mode's run, which a miss
// ends. `run` counts the answers in a row without a miss, whatever the mode.
export function withResult(progress, { id, rating = null, themes = [], solved, rated, streakMode = false, at = Date.now() }) {
  const moves = rated && Number.isFinite(rating) && !progress.seen.includes(id);
  const player = moves ? afterPuzzle(progress.player, rating, solved) : progress.player;
  const run = solved ? progress.run + 1 : 0;
  const streak = streakMode ? (solved ? progress.streak + 1 : 0) : progress.streak;
  const result = { at, id, themes, solved, rating: moves ? Math.round(player.rating) : null };
  return {
    ...progress,
    player,
    run,
    best_run: Math.max(progress.best_run, run),
    streak,
    best_streak: Math.max(progress.best_streak, streak),
    results: [...progress.results, result].slice(-RESULTS_CAP),
    seen: moves ? [...progress.seen, id].slice(-RESULTS_CAP) : progress.seen,
  };
}

// The rating after each rated result, oldest first: [{at, rating}].
export function ratingSeries(progress) {
  return progress.results.filter((r) => r.rating !== null).map(({ at, rating }) => ({ at, rating }));
}

// Success by theme: [{theme, tried, solved}], the most tried first (then by name).
export function themeSuccess(progress) {
  const by = new Map();
  for (const { themes, solved } of progress.results) {
    for (const theme of themes ?? []) {
      const row = by.get(theme) ?? { theme, tried: 0, solved: 0 };
      row.tried += 1;
      row.solved += solved ? 1 : 0;
      by.set(theme, row);
    }
  }
  return [...by.values()].sort((a, b) => b.tried - a.tried || a.theme.localeCompare(b.theme));
}
