// A finished deal replayed call by call and card by card (the four hands face up, the auction, the trick
// on the table, the running points), the deals finished at this table, and a deal shared as a link.
//
// The page computes nothing of the rules here: every step (hands, trick, winner, points) comes from the
// engine's `replay_steps`, which replays the deal's record.
import { shareLink } from "../app.js";
import { el } from "../dom.js";
import { callName, t } from "../i18n.js";
import { options } from "../options.js";
import { announcementList } from "./bidding.js";
import { buildCard, sortHand } from "./cards.js";
import { contractLine } from "./dialogs.js";
import { reviewButton } from "./review.js";
import { WhatIf } from "./whatif.js";

const KEEP = 8; // the deals remembered for "Previous deals", newest first

// {record, link: {variant, deal_seed, deal: {dealer}}, number} of the deals finished during this visit.
const finished = [];
let numbered = 0;

function button(label, onClick, className = "btn") {
  const node = el("button", className, label);
  node.type = "button";
  node.addEventListener("click", onClick);
  return node;
}

// What shareLink(state) reads of a state, for the deal that `state` (taken before its last action) plays.
function linkState(state) {
  return { variant: state.variant, deal_seed: state.deal_seed, deal: { dealer: state.deal.dealer } };
}

// A deal just finished (its deal_end record; `before`: the state before its last action).
export function rememberDeal(record, before) {
  numbered += 1;
  finished.unshift({ record, link: linkState(before), number: numbered });
  finished.length = Math.min(finished.length, KEEP);
}

// The link to a deal copied (and offered to the system's share sheet when there is one); resolves with
// the message saying so.
export async function shareDeal(state) {
  const url = shareLink(linkState(state));
  let copied = false;
  try {
    await navigator.clipboard.writeText(url);
    copied = true;
  } catch { /* no clipboard here: the share sheet, or the link shown */ }
  if (typeof navigator.share === "function") {
    try {
      await navigator.share({ title: t("share.title"), url });
      return t("share.shared");
    } catch { /* dismissed */ }
  }
  return copied ? t("share.copied") : t("share.failed", { url });
}

function dialogNode(id, className, titleId) {
  let dialog = document.getElementById(id);
  if (dialog) return dialog;
  dialog = el("dialog", `dialog ${className}`);
  dialog.id = id;
  dialog.setAttribute("aria-labelledby", titleId);
  const title = el("h2", "dialog-title");
  title.id = titleId;
  dialog.append(title, el("div", "dialog-body"), el("div", "dialog-actions"));
  document.body.append(dialog);
  return dialog;
}

// The buttons under a deal summary: replay it, share it (with its confirmation in the dialog, over which
// the page's toasts would not show).
// challenge: with "Challenge a friend" (a solo deal's; js/daily.js).
export function summaryTools(record, before, { engine, view, challenge = false }) {
  const row = el("div", "deal-tools");
  const status = el("p", "share-status");
  status.setAttribute("role", "status");
  row.append(
    button(t("replay.open"), () => openReplay(record, { engine, view }), "btn replay-open"),
    button(t("share.button"), async () => { status.textContent = await shareDeal(before); }, "btn share-deal"),
    reviewButton(record, { engine, view }),
    challenge && button(t("challenge.button"), () => import("../daily.js").then((daily) => daily.challengeDeal(record, before, view.me)),
      "btn challenge-deal"),
    status,
  );
  return row;
}

// ------------------------------------------------------------------ the replay view
export async function openReplay(record, { engine, view }) {
  let steps;
  try {
    steps = await engine.call("replay_steps", { record });
  } catch (error) { // a record the engine refuses (it never should: the engine wrote it)
    console.warn("replay:", error);
    return null;
  }
  const dialog = dialogNode("dlg-replay", "replay", "dlg-replay-title");
  if (!dialog.open) new Replay(dialog, record, steps, view, engine).show(); // a second press while it opens
  return dialog;
}

class Replay {
  constructor(dialog, record, steps, view, engine) {
    this.engine = engine;
    this.dialog = dialog;
    this.record = record;
    this.steps = steps;
    this.view = view;
    this.at = 0;
  }

  show() {
    const { dialog, view } = this;
    dialog.querySelector(".dialog-title").textContent = t("replay.title");
    this.contract = el("div", "replay-contract");
    this.points = el("p", "replay-points");
    this.points.setAttribute("aria-live", "polite");
    this.board = el("div", "replay-board");
    this.seats = [0, 1, 2, 3].map((seat) => {
      const box = el("div", "replay-seat");
      box.dataset.pos = String(view.pos(seat));
      box.dataset.seat = String(seat);
      const name = el("span", "replay-name", view.seatName(seat));
      if (seat === this.record.dealer) name.append(el("span", "dealer-chip", t("table.dealer")));
      const hand = el("div", "replay-hand");
      box.append(name, hand);
      return { box, hand };
    });
    this.trick = el("div", "replay-trick mini-trick");
    this.trick.setAttribute("role", "group");
    this.trick.setAttribute("aria-label", t("table.trick"));
    this.board.append(...this.seats.map((s) => s.box), this.trick);
    this.auction = el("ol", "replay-auction");
    this.auction.setAttribute("aria-label", t("replay.auction"));
    this.caption = el("p", "replay-caption");
    this.caption.setAttribute("aria-live", "polite");
    this.declared = el("ul", "replay-declared"); // the announcements, shown from the end of the first trick
    this.declared.setAttribute("aria-label", t("house.part.announcement"));

    const controls = el("div", "replay-controls");
    this.slider = el("input", "replay-slider");
    Object.assign(this.slider, { type: "range", min: "0", max: String(this.steps.length - 1), step: "1", value: "0" });
    this.slider.setAttribute("aria-label", t("replay.slider"));
    this.slider.addEventListener("input", () => this.go(Number(this.slider.value)));
    this.counter = el("span", "replay-counter");
    const icon = (key, name, delta) => {
      const node = button("", () => this.go(delta === "first" ? 0 : delta === "last" ? this.steps.length - 1 : this.at + delta),
        `icon-btn replay-${name}`);
      node.setAttribute("aria-label", t(key));
      node.title = t(key);
      node.append(el("span", `icon icon-replay-${name}`));
      node.firstChild.setAttribute("aria-hidden", "true");
      return node;
    };
    this.buttons = {
      first: icon("replay.first", "first", "first"),
      back: icon("replay.back", "back", -1),
      next: icon("replay.next", "next", 1),
      last: icon("replay.last", "last", "last"),
    };
    controls.append(this.buttons.first, this.buttons.back, this.slider, this.buttons.next, this.buttons.last, this.counter);

    const body = dialog.querySelector(".dialog-body");
    this.whatif = new WhatIf(this);
    body.replaceChildren(this.contract, this.board, this.caption, this.declared, this.auction, this.points, controls,
      this.whatif.node);
    const close = button(t("table.close"), () => dialog.close("close"), "btn primary replay-close");
    const review = reviewButton(this.record, { engine: this.engine, view, onShow: (index) => this.go(index + 1) });
    dialog.querySelector(".dialog-actions").replaceChildren(review, close);

    const keys = (event) => this.#key(event);
    dialog.addEventListener("keydown", keys);
    dialog.addEventListener("close", () => dialog.removeEventListener("keydown", keys), { once: true });
    this.go(0);
    dialog.showModal();
    this.buttons.next.focus();
    this.whatif.fromLink();
  }

  // Another deal's record and steps in the same view (a what-if branch, or the deal again).
  load(record, steps) {
    this.record = record;
    this.steps = steps;
    this.slider.max = String(steps.length - 1);
  }

  // Arrow keys step (the slider steps by itself when it has the focus), Home and End jump.
  #key(event) {
    if (event.target === this.slider || event.altKey || event.ctrlKey || event.metaKey) return;
    const to = { ArrowRight: this.at + 1, ArrowLeft: this.at - 1, Home: 0, End: this.steps.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    this.go(to);
  }

  go(index) {
    const last = this.steps.length - 1;
    this.at = Math.max(0, Math.min(last, index));
    const step = this.steps[this.at];
    const { dialog, view, record } = this;
    dialog.dataset.step = String(this.at);
    dialog.dataset.kind = step.kind;
    this.slider.value = String(this.at);
    this.counter.textContent = t("replay.counter", { n: this.at, total: last });
    this.buttons.first.disabled = this.buttons.back.disabled = this.at === 0;
    this.buttons.next.disabled = this.buttons.last.disabled = this.at === last;
    // a button disabled under the focus would drop it out of the dialog, and the arrow keys with it
    if (document.activeElement?.disabled) (this.at === last ? this.buttons.back : this.buttons.next).focus();

    this.contract.replaceChildren(contractLine(view, step.contract, record.variant));
    const trump = step.contract?.trump ?? null;
    step.hands.forEach((hand, seat) => {
      const node = this.seats[seat].hand;
      node.replaceChildren(...sortHand(hand, trump, options.cards).map((card) => buildCard(card)));
      this.seats[seat].box.classList.toggle("acting", step.seat === seat);
    });
    this.#drawTrick(step);
    this.#drawAuction(step);
    this.#drawCaption(step);
    this.#drawDeclared(step);
    this.#drawPoints(step);
    this.whatif.update();
  }

  #drawTrick(step) {
    const { view } = this;
    const slots = [0, 1, 2, 3].map((pos) => {
      const slot = el("div", "mini-slot");
      slot.dataset.pos = String(pos);
      return slot;
    });
    step.trick.cards.forEach((card, i) => {
      const seat = (step.trick.leader + i) % 4;
      const node = buildCard(card);
      if (seat === step.trick.winner) node.classList.add("winner");
      if (step.kind === "card" && card === step.action) node.classList.add("latest");
      slots[view.pos(seat)].append(node);
    });
    if (step.turned) { // the classic turned card, in the middle during the taking
      const slot = el("div", "mini-slot replay-turned");
      slot.append(buildCard(step.turned));
      slots.push(slot);
    }
    this.trick.replaceChildren(...slots);
  }

  #drawAuction(step) {
    const { view, record } = this;
    const items = record.calls.slice(0, step.calls).map((call, i) => {
      const seat = (record.dealer + 1 + i) % 4;
      const item = el("li", "replay-call");
      item.dataset.call = call;
      item.append(el("span", "replay-call-seat", view.seatName(seat)), el("span", "replay-call-name", callName(call)));
      if (step.kind === "call" && i === step.calls - 1) item.classList.add("current");
      return item;
    });
    this.auction.replaceChildren(...items);
    this.auction.hidden = items.length === 0;
  }

  #drawCaption(step) {
    const { view } = this;
    const caption = this.caption;
    caption.dataset.action = step.action ?? "";
    if (step.kind === "deal") {
      caption.textContent = t("replay.dealt", { seat: view.seatName(this.record.dealer) });
    } else if (step.kind === "call") {
      caption.textContent = t("replay.called", { seat: view.seatName(step.seat), call: callName(step.action) });
    } else {
      let text = t("replay.played", { seat: view.seatName(step.seat), card: step.action });
      if (step.announce) text += ` ${t(`table.announce.${step.announce}`)}`;
      if (step.trick.winner !== null) text += ` ${t("replay.trick_won", { seat: view.seatName(step.trick.winner), points: step.trick.points })}`;
      caption.textContent = text;
    }
  }

  // The announcements of each seat, as the table showed them at the end of the first trick (the engine's
  // `declared`, empty before it); the step that ends the first trick says them in its caption too.
  #drawDeclared(step) {
    const declared = step.declared ?? [];
    const lines = [...new Set(declared.map((a) => a.seat))].map((seat) => t("table.declared", {
      seat: this.view.seatName(seat), list: announcementList(declared.filter((a) => a.seat === seat)),
      me: seat === this.view.me ? "yes" : "no" }));
    this.declared.replaceChildren(...lines.map((line) => el("li", "replay-declared-seat", line)));
    this.declared.hidden = lines.length === 0;
    const before = this.steps[this.at - 1]?.declared ?? [];
    if (lines.length && !before.length) this.caption.textContent += ` ${lines.join(". ")}.`;
  }

  #drawPoints(step) {
    const us = this.view.me & 1;
    const them = 1 - us;
    const side = (s) => {
      const node = el("span", "replay-side");
      node.dataset.side = s === us ? "us" : "them";
      node.append(el("span", "replay-side-name", this.view.sideName(s)), el("strong", "replay-cards", String(step.points[s])),
        el("span", "replay-tricks", t("replay.tricks", { n: step.tricks[s] })));
      return node;
    };
    const parts = [el("span", "replay-points-label", t("summary.card_points")), side(us), side(them)];
    const result = this.record.result;
    if (step.phase === "over" && !result.void) {
      const scored = el("span", "replay-scored", t("replay.scored", { us: result.scores[us], them: result.scores[them] }));
      scored.dataset.us = String(result.scores[us]);
      scored.dataset.them = String(result.scores[them]);
      parts.push(scored);
    }
    this.points.replaceChildren(...parts);
  }
}

// ------------------------------------------------------------------ the table's menu
// "Share this deal" and "Previous deals" in the menu (the settings dialog opened from the table).
// getState(): the table's state (null before a match); engine: the local engine; isLocal(): whether it
// holds the match being played (its finished deals then survive a reload); view: the TableView.
// Returns refresh(), to be called whenever the table's state changes: a menu opened before a state arrives
// (a resumed match's, say) follows it, instead of keeping the buttons it was opened with.
export function installMenuTools({ getState, engine, isLocal, view }) {
  const form = document.querySelector("#settings-form");
  if (!form || form.querySelector(".menu-tools")) return () => {};
  const row = el("div", "menu-tools");
  row.hidden = true;
  const share = button(t("share.button"), async () => {
    const state = getState();
    document.querySelector("#dlg-settings").close();
    if (state) view.toast(await shareDeal(state), { ms: 3500 });
  }, "btn share-deal");
  share.id = "btn-share-deal";
  share.dataset.i18n = "share.button";
  const deals = button(t("replay.previous"), async () => {
    document.querySelector("#dlg-settings").close();
    openPrevious(await previousDeals(engine, isLocal()), { engine, view });
  }, "btn");
  deals.id = "btn-previous-deals";
  deals.dataset.i18n = "replay.previous";
  row.append(share, deals);
  form.querySelector(".dialog-title").after(row);
  const refresh = () => {
    share.disabled = !getState();
    deals.disabled = !(isLocal() ? getState()?.history?.length : finished.length);
  };
  // Shown from the table's menu only (the home's settings use the same dialog).
  document.querySelector("#btn-menu").addEventListener("click", () => {
    row.hidden = false;
    refresh();
  });
  document.querySelector("#btn-settings").addEventListener("click", () => { row.hidden = true; });
  return refresh;
}

// The last deals finished: the local match's from the engine (a resumed match's too), else this visit's.
async function previousDeals(engine, local) {
  if (!local) return finished;
  try {
    const deals = await engine.call("finished_deals");
    return deals.map(({ number, record, deal_seed: seed }) => (
      { number, record, link: { variant: record.variant, deal_seed: seed, deal: { dealer: record.dealer } } }));
  } catch (error) {
    console.warn("previous deals:", error);
    return finished;
  }
}

function openPrevious(deals, { engine, view }) {
  const dialog = dialogNode("dlg-deals", "deals", "dlg-deals-title");
  dialog.querySelector(".dialog-title").textContent = t("replay.previous");
  const list = el("ol", "deals-list");
  const status = el("p", "share-status");
  status.setAttribute("role", "status");
  for (const { record, link, number } of deals) {
    const item = el("li", "deals-item");
    const result = record.result;
    const us = view.me & 1;
    const about = el("div", "deals-about");
    about.append(el("strong", "", t("replay.deal_number", { n: number })));
    if (result.void) about.append(el("span", "", t("summary.void_title")));
    else {
      about.append(contractLine(view, result.contract, record.variant),
        el("span", "deals-scored", t("replay.scored", { us: result.scores[us], them: result.scores[1 - us] })));
    }
    const tools = el("div", "deals-tools");
    if (!result.void) tools.append(button(t("replay.open"), () => openReplay(record, { engine, view }), "btn replay-open"));
    if (!result.void) tools.append(reviewButton(record, { engine, view }));
    tools.append(button(t("share.button"), async () => { status.textContent = await shareDeal(link); }, "btn share-deal"));
    item.append(about, tools);
    list.append(item);
  }
  dialog.querySelector(".dialog-body").replaceChildren(list, status);
  dialog.querySelector(".dialog-actions").replaceChildren(button(t("table.close"), () => dialog.close(), "btn primary"));
  dialog.showModal();
}
