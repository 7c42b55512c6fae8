// The shipped puzzle set (a JSON-lines file of the site, one puzzle a line, docs/puzzles.md) read by the
// page, and the choice of the next puzzle. Pure functions: the engine checks each puzzle when it is shown.
//
//   readSet(text) -> {puzzles, skipped: [{line, reason}]}   a line that is not a puzzle is skipped, named
//   pickPuzzle(puzzles, {rating, theme, exclude, random}) -> a puzzle near the rating, or null
//   setThemes(puzzles) -> the themes present, sorted

const FIELDS = ["id", "contract", "hands", "trick", "to_play", "solution"];

// Why a parsed line is not a puzzle the page can draw, or null. The rules of the game (cards twice, a
// solution that is not the best) are the engine's to check: only the shape is looked at here.
export function shapeProblem(value) {
  if (!value || typeof value !== "object" || Array.isArray(value)) return "not_object";
  const missing = FIELDS.find((field) => !(field in value));
  if (missing) return `missing_${missing}`;
  if (!Array.isArray(value.hands) || value.hands.length !== 4 || !value.hands.every(Array.isArray)) return "bad_hands";
  if (!Array.isArray(value.trick?.cards) || !Number.isInteger(value.trick?.leader)) return "bad_trick";
  if (!Number.isInteger(value.to_play) || value.to_play < 0 || value.to_play > 3) return "bad_to_play";
  if (!Array.isArray(value.solution) || !value.solution.length) return "bad_solution";
  return null;
}

export function readSet(text) {
  const puzzles = [];
  const skipped = [];
  const ids = new Set();
  String(text).split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    let value;
    try {
      value = JSON.parse(line);
    } catch {
      skipped.push({ line: i + 1, reason: "not_json" });
      return;
    }
    const problem = shapeProblem(value) ?? (ids.has(value.id) ? "duplicate_id" : null);
    if (problem) {
      skipped.push({ line: i + 1, reason: problem, id: typeof value?.id === "string" ? value.id : null });
      return;
    }
    ids.add(value.id);
    puzzles.push({ ...value, line: Array.isArray(value.line) ? value.line : [], themes: value.themes ?? [] });
  });
  return { puzzles, skipped };
}

export function setThemes(puzzles) {
  return [...new Set(puzzles.flatMap((p) => p.themes))].sort();
}

// A puzzle of `theme` (any when null) not in `exclude`, among the WINDOW nearest `rating`, drawn at random;
// when every one was excluded, the nearest of all. null when the set has none of that theme.
const WINDOW = 12;
export function pickPuzzle(puzzles, { rating, theme = null, exclude = new Set(), random = Math.random }) {
  const fitting = puzzles.filter((p) => !theme || p.themes.includes(theme));
  if (!fitting.length) return null;
  const fresh = fitting.filter((p) => !exclude.has(p.id));
  const pool = (fresh.length ? fresh : fitting)
    .map((p) => ({ p, d: Math.abs((p.rating ?? 1500) - rating) }))
    .sort((a, b) => a.d - b.d || (a.p.id < b.p.id ? -1 : 1))
    .slice(0, WINDOW);
  return pool[Math.floor(random() * pool.length)].p;
}
