// The progress page's plots: SVG drawn by the page (no library), each an image with its own name and
// description for screen readers, the figures themselves in a table beside it (js/progress/main.js). Text
// goes in through textContent and attributes only.
//
// A plot is drawn at the size it is shown: its viewBox is its figure's width in CSS px (280 to 720), so that
// its 12 px text (css/progress.css) is 12 px on the screen from a 320 px phone on; it is drawn again when
// that width changes (fitted).
const SVG = "http://www.w3.org/2000/svg";
const MIN_WIDTH = 280; // narrower (a figure under 280 px: no phone from 320 px), the plot is scaled down
const MAX_WIDTH = 720; // wider, scaled up
const PAD = { left: 44, right: 12, top: 12, bottom: 28 };

function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  node.append(...children);
  return node;
}

function text(x, y, words, attributes = {}) {
  const node = svg("text", { x, y, ...attributes });
  node.textContent = words;
  return node;
}

// A tidy vertical scale from `min` (0 or less) to `max` (0 or more): its step 1, 2 or 5 times a power of ten,
// its bottom and top multiples of the step.
function scale(min, max) {
  const span = Math.max(max - min, 1);
  const raw = span / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
  const top = step * Math.ceil(Math.max(max, min < 0 ? 0 : 1) / step);
  return { bottom: step * Math.floor(Math.min(min, 0) / step), top, step };
}

function frame(label, description, width, height) {
  const id = `plot-${Math.random().toString(36).slice(2, 8)}`;
  const root = svg("svg", {
    viewBox: `0 0 ${width} ${height}`, role: "img", "aria-labelledby": `${id}-t ${id}-d`, class: "plot",
  });
  const title = svg("title", { id: `${id}-t` });
  title.textContent = label;
  const desc = svg("desc", { id: `${id}-d` });
  desc.textContent = description;
  root.append(title, desc);
  return root;
}

function axis(root, { bottom, top, step }, y, width) {
  const grid = svg("g", { class: "plot-grid" });
  for (let v = bottom; v <= top + 1e-9; v += step) {
    grid.append(svg("line", { x1: PAD.left, x2: width - PAD.right, y1: y(v), y2: y(v) }),
      text(PAD.left - 6, y(v) + 4, String(Math.round(v)), { "text-anchor": "end" }));
  }
  root.append(grid);
}

// A value for each deal (dots: the points lost, or a duplicate difference, which may be below 0), the moving
// average (a line) and its band (an area), oldest to the left. onPick(i): the deal of the point nearest a press on the plot (its replay); keyboard and screen
// readers reach the same deals by the table's links. width: the figure's (fitted); the height follows it,
// 180 to 240.
export function linePlot({ values, moving, label, description, onPick, width }) {
  const height = Math.min(240, Math.max(180, Math.round(width * 0.375)));
  const root = frame(label, description, width, height);
  const n = values.length;
  const range = scale(Math.min(...values, ...moving.map((m) => m.low), 0), Math.max(...values, ...moving.map((m) => m.high), 0));
  const inner = width - PAD.left - PAD.right;
  const x = (i) => PAD.left + (n > 1 ? (i * inner) / (n - 1) : inner / 2);
  const y = (v) => height - PAD.bottom - ((v - range.bottom) * (height - PAD.top - PAD.bottom)) / (range.top - range.bottom);
  axis(root, range, y, width);
  const f = (v) => v.toFixed(1);
  if (n) {
    const upper = moving.map((m, i) => `${f(x(i))},${f(y(m.high))}`);
    const lower = moving.map((m, i) => `${f(x(i))},${f(y(m.low))}`).reverse();
    root.append(
      svg("polygon", { class: "plot-band", points: [...upper, ...lower].join(" ") }),
      svg("path", { class: "plot-dots", d: values.map((v, i) => `M${f(x(i))} ${f(y(v))}h0`).join("") }),
      svg("polyline", { class: "plot-mean", points: moving.map((m, i) => `${f(x(i))},${f(y(m.mean))}`).join(" ") }),
      text(PAD.left, height - 8, "1", { class: "plot-tick" }),
      text(width - PAD.right, height - 8, String(n), { class: "plot-tick", "text-anchor": "end" }),
    );
  }
  if (onPick && n) {
    root.classList.add("pickable");
    root.addEventListener("click", (event) => {
      const box = root.getBoundingClientRect();
      const at = ((event.clientX - box.left) / box.width) * width;
      const i = n > 1 ? Math.round(((at - PAD.left) * (n - 1)) / inner) : 0;
      onPick(Math.max(0, Math.min(n - 1, i)));
    });
  }
  return root;
}

// One bar a row: [{label, value}], the largest first, each value written at its bar's end. The labels in a
// column left of the bars, as wide as the longest (labelWidth, in px: measured by longest), when that takes
// at most 40% of the width; else (a phone, a long language, or labels not measured: 0) each label on a line
// of its own above its bar, so that none is ever cut.
export function barPlot({ bars, label, description, width, labelWidth }) {
  const beside = labelWidth > 0 && labelWidth + 12 <= width * 0.4;
  const row = beside ? 26 : 40;
  const height = PAD.top + bars.length * row + (beside ? 8 : 4);
  const root = frame(label, description, width, height);
  const left = beside ? Math.ceil(labelWidth) + 12 : 1;
  const room = width - left - 48; // the longest bar, and its value after it
  const max = Math.max(...bars.map((b) => b.value), 1);
  bars.forEach((bar, i) => {
    const top = PAD.top + i * row;
    const length = (Math.max(0, bar.value) * room) / max;
    const y = beside ? top + 3 : top + 18; // the bar's top
    root.append(
      beside ? text(left - 8, top + 16, bar.label, { "text-anchor": "end", class: "plot-label" })
        : text(left, top + 12, bar.label, { class: "plot-label" }),
      svg("rect", { x: left, y, width: length.toFixed(1), height: row - (beside ? 8 : 24), rx: 3, class: "plot-bar" }),
      text(left + length + 6, y + (beside ? 13 : 11), bar.value.toFixed(1), { class: "plot-value" }),
    );
  });
  return root;
}

// The longest of `words` written as a plot's label, in px, as the browser lays them out in `host` (a probe
// added and taken away at once); 0 if `host` is not laid out (hidden).
export function longest(host, words) {
  const probe = svg("svg", { class: "plot plot-probe", "aria-hidden": "true" },
    ...words.map((word) => text(0, 20, word, { class: "plot-label" })));
  host.append(probe);
  const px = Math.max(0, ...[...probe.children].map((node) => node.getComputedTextLength()));
  probe.remove();
  return px;
}

// The width a figure's plot is drawn at: the figure's own, within MIN_WIDTH..MAX_WIDTH.
function widthOf(figure) {
  return Math.round(Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, figure.clientWidth)));
}

const fits = new WeakMap(); // figure → { draw, width, plot }: the plot it shows, at which width, how drawn
let resizes = null;

// The plot draw(width) returns, drawn at `figure`'s width, and drawn again in its place whenever that width
// changes (a window resized, a phone turned); the rest of the figure (its table) is left as it is.
export function fitted(figure, draw) {
  const width = widthOf(figure);
  const plot = draw(width);
  fits.set(figure, { draw, width, plot });
  resizes ??= new ResizeObserver((changes) => changes.forEach(({ target }) => redraw(target)));
  resizes.observe(figure);
  return plot;
}

function redraw(figure) {
  const fit = fits.get(figure);
  const width = widthOf(figure);
  if (!fit || width === fit.width || !fit.plot.isConnected) return;
  const plot = fit.draw(width);
  fit.plot.replaceWith(plot);
  Object.assign(fit, { width, plot });
}
