// The table's dialogs: the deal summary, the match result and the last trick.
import { el } from "../dom.js";
import { bidValueName, t } from "../i18n.js";
import { buildCard, suitIcon } from "./cards.js";
import { partRows } from "./house.js";

// Opens <dialog> `dialog` with `content` and resolves with the value of the button that closed it.
function openDialog(dialog, content, buttons) {
  const body = dialog.querySelector(".dialog-body");
  const actions = dialog.querySelector(".dialog-actions");
  body.replaceChildren(...content);
  actions.replaceChildren();
  return new Promise((resolve) => {
    for (const { value, label, primary } of buttons) {
      const node = el("button", primary ? "btn primary" : "btn", label);
      node.type = "button";
      node.value = value;
      node.addEventListener("click", () => dialog.close(value));
      actions.append(node);
      if (primary) node.autofocus = true;
    }
    dialog.addEventListener("close", () => resolve(dialog.returnValue || buttons[0].value), { once: true });
    dialog.returnValue = "";
    dialog.showModal();
  });
}

export function contractLine(view, contract, variant) {
  const line = el("p", "contract-line");
  if (!contract) return line;
  const value = variant === "classic" ? t("table.contract.taken") : bidValueName(contract.value);
  line.append(
    el("span", "", t("table.contract.label")), document.createTextNode(" "),
    el("strong", "", value), suitIcon(contract.trump, true), document.createTextNode(" "),
    el("span", "", t("summary.by", { seat: view.seatName(contract.declarer) })),
  );
  if (contract.multiplier > 1) line.append(el("span", "contract-x", t(contract.multiplier === 2 ? "call.coinche" : "call.surcoinche")));
  return line;
}

// The deal summary: points per side, made or down, the score added, the totals; `tools`, a node shown
// under them (replay and share, js/table/replay.js); `watchPar(callback)`, the Expert's par of the deal as it
// is made (background-pars.js watch), shown under the table.
// `parts`: with house rules, the parts of the score (which rule gave which points), one line each;
// `announcements`: at a table of announcements, each one declared as the engine scored it, one line each.
export function showDealSummary(dialog, view, { record, totals, target, variant, tools = null, parts = null, announcements = null, watchPar = null }) {
  const result = record.result;
  const us = view.me & 1;
  const them = 1 - us;
  const content = [];
  const title = dialog.querySelector(".dialog-title");
  if (result.void) {
    title.textContent = t("summary.void_title");
    content.push(el("p", "", t("summary.void")));
  } else {
    const declarerSide = result.contract.declarer & 1;
    const ours = declarerSide === us;
    const key = result.made ? (ours ? "summary.made_us" : "summary.made_them") : (ours ? "summary.down_us" : "summary.down_them");
    title.textContent = t(key);
    dialog.dataset.outcome = result.made === ours ? "good" : "bad";
    content.push(contractLine(view, result.contract, variant));
    const table = el("table", "summary-table");
    const head = el("tr");
    head.append(el("th", ""), el("th", "", view.sideName(us)), el("th", "", view.sideName(them)));
    const thead = el("thead");
    thead.append(head);
    const tbody = el("tbody");
    const row = (label, a, b, className = "") => {
      const tr = el("tr", className);
      tr.append(el("th", "", label), el("td", "", String(a)), el("td", "", String(b)));
      tbody.append(tr);
      return tr;
    };
    row(t("summary.tricks"), result.tricks[us], result.tricks[them]);
    row(t("summary.card_points"), result.cards[us], result.cards[them]);
    if (result.belote !== null && result.belote !== undefined) {
      row(t("summary.belote"), result.belote === us ? 20 : "–", result.belote === them ? 20 : "–");
    }
    if (announcements) announcementRows(view, announcements, us, row);
    if (parts) partRows(parts, us, row);
    row(t("summary.scored"), `+${result.scores[us]}`, `+${result.scores[them]}`, "scored");
    row(t("summary.total"), totals[us], totals[them], "total");
    table.append(thead, tbody);
    content.push(table);
    if (watchPar) content.push(parLine(dialog, watchPar));
  }
  content.push(el("p", "summary-target", t("summary.target", { target })));
  if (tools) content.push(tools);
  return openDialog(dialog, content, [{ value: "next", label: t("summary.next"), primary: true }]);
}

const signed = (x) => (x > 0 ? `+${x.toFixed(1)}` : x.toFixed(1)).replace(/\.0$/, "");

// The Expert's par from the player's seat and their duplicate difference, once made; meanwhile a quiet count
// of the replays made. Nothing for a deal that gets no par (a device without the review helper).
function parLine(dialog, watchPar) {
  const line = el("p", { class: "summary-par", role: "status", hidden: true });
  const stop = watchPar((state) => {
    line.dataset.done = String(state.done ?? 0);
    line.dataset.k = String(state.k ?? 0);
    if (state.par) {
      line.dataset.state = "done";
      Object.assign(line.dataset, { par: String(state.par.par), difference: String(state.par.difference) });
      line.replaceChildren(
        el("span", { text: t("summary.par.line", { par: signed(state.par.par), k: state.par.k }) }), " ",
        el("strong", { text: t("summary.par.difference", { difference: signed(state.par.difference) }) }),
      );
    } else if (state.k) {
      line.dataset.state = "running";
      line.replaceChildren(t("summary.par.progress", { done: state.done, k: state.k }));
    }
    line.hidden = !state.k;
  });
  dialog.addEventListener("close", stop, { once: true });
  return line;
}

// One line per announcement declared: what it was and who declared it, and the points it gave in the column
// of the side that scored them; one of the side without the best announcement, "not counted" in its own.
function announcementRows(view, announcements, us, row) {
  for (const a of announcements) {
    const label = t("summary.announcement", { what: t(a.key, a.params), seat: view.seatName(a.seat) });
    const side = a.counted ? a.side : a.seat & 1;
    const points = a.counted ? `+${a.points}` : t("summary.not_counted", { points: a.value });
    const tr = row(label, side === us ? points : "–", side === us ? "–" : points, a.counted ? "announcement" : "announcement not-counted");
    tr.dataset.announcement = a.announcement;
    tr.dataset.seat = String(a.seat);
  }
}

export function showMatchResult(dialog, view, { winner, totals, target, history = [], variant = "coinche" }) {
  const us = view.me & 1;
  const won = winner === us;
  dialog.querySelector(".dialog-title").textContent = t(won ? "summary.match_won" : "summary.match_lost");
  dialog.dataset.outcome = won ? "good" : "bad";
  const score = el("p", "final-score");
  score.append(el("span", "us", String(totals[us])), el("span", "dash", "–"), el("span", "them", String(totals[1 - us])));
  const sides = el("p", "final-sides", t("summary.final_sides", { us: view.sideName(us), them: view.sideName(1 - us), target }));
  const content = [score, sides];
  if (history.length) content.push(scoreSheet(view, history, totals, variant));
  return openDialog(dialog, content, [
    { value: "new", label: t("summary.new_match"), primary: true },
    { value: "home", label: t("summary.home") },
  ]);
}

// The match deal by deal: each deal's contract (who took it, made or down) and what each side scored.
function scoreSheet(view, history, totals, variant) {
  const us = view.me & 1;
  const table = el("table", "score-sheet");
  table.append(el("caption", "", t("summary.sheet")));
  const head = el("tr");
  head.append(el("th", "", t("summary.sheet.deal")), el("th", "", t("table.contract.label")),
    el("th", "", view.sideName(us)), el("th", "", view.sideName(1 - us)));
  for (const cell of head.children) cell.scope = "col";
  const body = el("tbody");
  history.forEach((deal, i) => {
    const row = el("tr");
    const number = el("th", "", String(i + 1));
    number.scope = "row";
    const about = el("td", "sheet-contract");
    if (deal.void || !deal.contract) about.textContent = t("summary.void_title");
    else about.append(...sheetContract(view, deal, variant));
    row.append(number, about, el("td", "", String(deal.scores[us])), el("td", "", String(deal.scores[1 - us])));
    if (!deal.void && deal.contract) row.dataset.outcome = deal.made === ((deal.contract.declarer & 1) === us) ? "good" : "bad";
    body.append(row);
  });
  const foot = el("tfoot");
  const total = el("tr");
  const label = el("th", "", t("summary.total"));
  label.scope = "row";
  label.colSpan = 2;
  total.append(label, el("td", "", String(totals[us])), el("td", "", String(totals[1 - us])));
  foot.append(total);
  const thead = el("thead");
  thead.append(head);
  table.append(thead, body, foot);
  return table;
}

function sheetContract(view, deal, variant) {
  const c = deal.contract;
  const value = variant === "classic" ? "" : bidValueName(c.value);
  const parts = [el("strong", "", value), suitIcon(c.trump, true), document.createTextNode(` ${view.seatName(c.declarer)}`)];
  // spaces between the parts: a narrow screen wraps the cell there
  if (c.multiplier > 1) parts.push(document.createTextNode(" "), el("span", "contract-x", `×${c.multiplier}`));
  parts.push(document.createTextNode(" "),
    el("span", deal.made ? "sheet-made" : "sheet-down", t(deal.made ? "summary.sheet.made" : "summary.sheet.down")));
  return parts;
}

// The last trick, each card by its player: who led it (marked) and who won it (raised).
export function showLastTrick(dialog, view, trick) {
  dialog.querySelector(".dialog-title").textContent = t("table.last_trick.title");
  const grid = el("div", "mini-trick");
  trick.cards.forEach((card, i) => {
    const seat = (trick.leader + i) % 4;
    const cell = el("div", "mini-slot");
    cell.dataset.pos = String(view.pos(seat));
    const node = buildCard(card);
    if (seat === trick.winner) node.classList.add("winner");
    const name = el("span", "mini-name", view.seatName(seat));
    if (seat === trick.leader) {
      cell.dataset.led = "true";
      name.append(el("span", "mini-led", t("table.last_trick.led")));
    }
    cell.append(node, name);
    grid.append(cell);
  });
  const who = el("p", "last-trick-who",
    `${t("table.last_trick.leader", { seat: view.seatName(trick.leader) })} · ${t("table.last_trick.winner", { seat: view.seatName(trick.winner) })}`);
  return openDialog(dialog, [grid, who], [{ value: "close", label: t("table.close"), primary: true }]);
}
