// The progress page's plots: SVG drawn by the page (no library), each an image with its own name and
// description for screen readers, the figures themselves in a table beside it (js/progress/main.js). Text
// goes in through textContent and attributes only.
const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 640;
const HEIGHT = 240;
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

// A tidy top for the vertical scale and its step: 1, 2 or 5 times a power of ten.
function scale(max) {
  const raw = Math.max(max, 1) / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
  return { top: step * Math.ceil(Math.max(max, 1) / step), step };
}

function frame(label, description) {
  const id = `plot-${Math.random().toString(36).slice(2, 8)}`;
  const root = svg("svg", {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", "aria-labelledby": `${id}-t ${id}-d`, class: "plot",
  });
  const title = svg("title", { id: `${id}-t` });
  title.textContent = label;
  const desc = svg("desc", { id: `${id}-d` });
  desc.textContent = description;
  root.append(title, desc);
  return root;
}

function axis(root, top, step, y) {
  const grid = svg("g", { class: "plot-grid" });
  for (let v = 0; v <= top + 1e-9; v += step) {
    grid.append(svg("line", { x1: PAD.left, x2: WIDTH - PAD.right, y1: y(v), y2: y(v) }),
      text(PAD.left - 6, y(v) + 4, String(Math.round(v)), { "text-anchor": "end" }));
  }
  root.append(grid);
}

// The points lost in each deal (dots), the moving average (a line) and its band (an area), oldest to the
// left. onPick(i): the deal of the point nearest a press on the plot (its replay); keyboard and screen
// readers reach the same deals by the table's links.
export function linePlot({ values, moving, label, description, onPick }) {
  const root = frame(label, description);
  const n = values.length;
  const { top, step } = scale(Math.max(...values, ...moving.map((m) => m.high), 0));
  const inner = WIDTH - PAD.left - PAD.right;
  const x = (i) => PAD.left + (n > 1 ? (i * inner) / (n - 1) : inner / 2);
  const y = (v) => HEIGHT - PAD.bottom - (Math.max(0, v) * (HEIGHT - PAD.top - PAD.bottom)) / top;
  axis(root, top, step, y);
  const f = (v) => v.toFixed(1);
  if (n) {
    const upper = moving.map((m, i) => `${f(x(i))},${f(y(m.high))}`);
    const lower = moving.map((m, i) => `${f(x(i))},${f(y(m.low))}`).reverse();
    root.append(
      svg("polygon", { class: "plot-band", points: [...upper, ...lower].join(" ") }),
      svg("path", { class: "plot-dots", d: values.map((v, i) => `M${f(x(i))} ${f(y(v))}h0`).join("") }),
      svg("polyline", { class: "plot-mean", points: moving.map((m, i) => `${f(x(i))},${f(y(m.mean))}`).join(" ") }),
      text(PAD.left, HEIGHT - 8, "1", { class: "plot-tick" }),
      text(WIDTH - PAD.right, HEIGHT - 8, String(n), { class: "plot-tick", "text-anchor": "end" }),
    );
  }
  if (onPick && n) {
    root.classList.add("pickable");
    root.addEventListener("click", (event) => {
      const box = root.getBoundingClientRect();
      const at = ((event.clientX - box.left) / box.width) * WIDTH;
      const i = n > 1 ? Math.round(((at - PAD.left) * (n - 1)) / inner) : 0;
      onPick(Math.max(0, Math.min(n - 1, i)));
    });
  }
  return root;
}

// One bar a row: [{label, value}], the largest first, each value written at its bar's end.
export function barPlot({ bars, label, description }) {
  const row = 26;
  const height = PAD.top + bars.length * row + 8;
  const root = frame(label, description);
  root.setAttribute("viewBox", `0 0 ${WIDTH} ${height}`);
  const left = 150;
  const width = WIDTH - left - 60;
  const max = Math.max(...bars.map((b) => b.value), 1);
  bars.forEach((bar, i) => {
    const top = PAD.top + i * row;
    const length = (Math.max(0, bar.value) * width) / max;
    root.append(
      text(left - 8, top + 16, bar.label, { "text-anchor": "end", class: "plot-label" }),
      svg("rect", { x: left, y: top + 3, width: length.toFixed(1), height: row - 8, rx: 3, class: "plot-bar" }),
      text(left + length + 6, top + 16, bar.value.toFixed(1), { class: "plot-value" }),
    );
  });
  return root;
}
