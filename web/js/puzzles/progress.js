// The progress page's puzzle part (progress.html #puzzle-progress): the puzzle rating over time (a line,
// its figures in words) and success by theme (a table), read from this device (js/puzzles/store.js).
import { el } from "../dom.js";
import { has, t } from "../i18n.js";
import { loadProgress, ratingSeries, themeSuccess } from "./store.js";

const SVG = "http://www.w3.org/2000/svg";
const W = 320;
const H = 120;
const PAD = 6;

function svg(tag, attributes = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  return node;
}

// The rating after each rated puzzle, oldest to the left, between its lowest and highest.
function ratingLine(series, label) {
  const values = series.map((s) => s.rating);
  const low = Math.min(...values) - 10;
  const high = Math.max(...values) + 10;
  const x = (i) => PAD + (series.length > 1 ? (i * (W - 2 * PAD)) / (series.length - 1) : (W - 2 * PAD) / 2);
  const y = (v) => H - PAD - ((v - low) * (H - 2 * PAD)) / (high - low);
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", class: "puzzle-rating-line", "aria-label": label });
  root.append(svg("polyline", { points: values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ") }));
  return root;
}

const themeName = (theme) => (has(`puzzles.theme.${theme}`) ? t(`puzzles.theme.${theme}`) : theme.replaceAll("_", " "));

export function drawPuzzleProgress(root, progress = loadProgress()) {
  const series = ratingSeries(progress);
  const themes = themeSuccess(progress);
  root.hidden = !progress.results.length;
  if (!progress.results.length) return;
  const last = series.at(-1);
  const label = series.length
    ? t("puzzles.progress.line", { n: series.length, first: series[0].rating, last: last.rating,
      low: Math.min(...series.map((s) => s.rating)), high: Math.max(...series.map((s) => s.rating)) })
    : "";
  root.replaceChildren(
    el("h2", { id: "puzzle-progress-title", text: t("puzzles.progress.title") }),
    el("p", { text: t("puzzles.progress.summary", { n: progress.results.length, solved: progress.results.filter((r) => r.solved).length, best: progress.best_run }) }),
    series.length ? el("figure", { class: "plot-figure" }, ratingLine(series, label), el("figcaption", { text: label })) : null,
    themes.length ? el("table", { class: "progress-table", id: "puzzle-themes" },
      el("caption", { text: t("puzzles.progress.themes") }),
      el("thead", {}, el("tr", {}, ...["theme", "tried", "solved"].map((key) => el("th", { scope: "col", text: t(`puzzles.progress.col.${key}`) })))),
      el("tbody", {}, ...themes.map((row) => el("tr", { dataset: { theme: row.theme } },
        el("th", { scope: "row", text: themeName(row.theme) }),
        el("td", { text: String(row.tried) }),
        el("td", { text: t("puzzles.progress.rate", { solved: row.solved, percent: Math.round((100 * row.solved) / row.tried) }) }))))) : null,
  );
}
