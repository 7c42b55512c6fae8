// "What if…" in the replay: at a decision of the deal, another of the moves the rules allow there (the
// engine's `what_if_choices`), the rest of the deal played out by the Expert bots or double dummy (the
// engine's `what_if`), shown with the replay's own controls, its score beside the deal's; "Back to the
// deal" returns. The branch is kept in the page's fragment (js/notation.js formatWhatIf) while it is shown.
//
// The page decides nothing here: the moves offered, the branch and its score are the engine's answers.
import { el } from "../dom.js";
import { errorText } from "../errors.js";
import { callName, t } from "../i18n.js";
import { WHATIF_BY, formatWhatIf, parseWhatIf } from "../notation.js";

function button(label, onClick, className = "btn") {
  const node = el("button", className, label);
  node.type = "button";
  node.addEventListener("click", onClick);
  return node;
}

const BY_LABELS = { expert: "whatif.by_expert", dd: "whatif.by_dd" };

const moveName = (kind, move) => (kind === "call" ? callName(move) : move);

export class WhatIf {
  // replay: the Replay view (its record, steps, at, view, engine, load(record, steps), go(index)).
  constructor(replay) {
    this.replay = replay;
    this.real = { record: replay.record, steps: replay.steps };
    this.branch = null; // the engine's what_if answer while a branch is shown
    this.by = "expert";
    this.node = el("div", "whatif");
    this.status = el("p", "whatif-status");
    this.status.setAttribute("role", "status");
  }

  // The control for the step shown: "What if…" at a decision of the deal, the comparison in a branch.
  update() {
    const { replay } = this;
    if (this.branch) {
      const us = replay.view.me & 1;
      const mine = this.branch.result;
      const real = this.branch.real;
      const compare = el("p", "whatif-compare", mine.void || real.void ? t("whatif.compare_void") : t("whatif.compare", {
        us: mine.scores[us], them: mine.scores[1 - us], real_us: real.scores[us], real_them: real.scores[1 - us],
      }));
      compare.dataset.branch = mine.void ? "void" : mine.scores.join("-");
      compare.dataset.real = real.void ? "void" : real.scores.join("-");
      const by = el("p", "whatif-by", t(this.branch.by === "dd" ? "whatif.played_dd" : "whatif.played_expert"));
      this.node.replaceChildren(by, compare, button(t("whatif.back"), () => this.back(), "btn whatif-back"), this.status);
      return;
    }
    const decision = replay.at < replay.steps.length - 1;
    const open = button(t("whatif.open"), () => this.offer(replay.at), "btn whatif-open");
    open.disabled = !decision;
    this.node.replaceChildren(open, this.status);
  }

  // The moves allowed at decision `ply` but the one the deal made, and who plays the rest out.
  async offer(ply) {
    let choices;
    try {
      choices = await this.replay.engine.call("what_if_choices", { record: this.real.record, ply });
    } catch (error) {
      this.status.textContent = errorText(error);
      return;
    }
    const by = el("div", "whatif-by-choice");
    by.setAttribute("role", "radiogroup");
    by.setAttribute("aria-label", t("whatif.by"));
    for (const value of WHATIF_BY) {
      const input = el("input", { type: "radio", name: "whatif-by", value });
      input.checked = value === this.by;
      input.addEventListener("change", () => { this.by = value; });
      by.append(el("label", {}, input, el("span", "", t(BY_LABELS[value]))));
    }
    const moves = el("div", "whatif-moves");
    for (const move of choices.moves.filter((m) => m !== choices.real)) {
      const node = button(moveName(choices.kind, move), () => this.choose(`${ply}:${move}`, this.by), "btn whatif-move");
      node.dataset.move = move;
      moves.append(node);
    }
    const prompt = el("p", "whatif-prompt", moves.childElementCount
      ? t("whatif.instead", { seat: this.replay.view.seatName(choices.seat), move: moveName(choices.kind, choices.real) })
      : t("whatif.forced", { seat: this.replay.view.seatName(choices.seat) }));
    this.node.replaceChildren(prompt, by, moves, button(t("whatif.cancel"), () => this.update(), "btn whatif-cancel"), this.status);
  }

  // The branch of `line` played out `by` the bots or double dummy, shown from its first different move.
  async choose(line, by) {
    this.status.textContent = t("whatif.computing");
    let branch;
    try {
      branch = await this.replay.engine.call("what_if", { record: this.real.record, line, by });
    } catch (error) {
      this.status.textContent = errorText(error);
      return false;
    }
    this.status.textContent = "";
    this.branch = branch;
    this.replay.dialog.dataset.whatif = branch.line;
    this.replay.load(branch.record, branch.steps);
    this.replay.go(branch.branch + 1);
    this.#keepFocus(); // the move pressed is gone: the focus stays in the dialog, for its arrow keys
    history.replaceState(null, "", location.pathname + location.search + formatWhatIf({ line: branch.line, by: branch.by }, location.hash));
    return true;
  }

  // The deal as it was played, at the decision the branch left it.
  back() {
    const at = this.branch ? this.branch.branch : this.replay.at;
    this.branch = null;
    delete this.replay.dialog.dataset.whatif;
    this.replay.load(this.real.record, this.real.steps);
    this.replay.go(at);
    this.#keepFocus();
    history.replaceState(null, "", location.pathname + location.search + formatWhatIf(null, location.hash));
  }

  #keepFocus() {
    const { next, back } = this.replay.buttons;
    (next.disabled ? back : next).focus();
  }

  // The branch the page's fragment names, if any: shown, or a message saying why not (the deal stays).
  async fromLink() {
    const named = parseWhatIf(location.hash);
    if (!named) return;
    if (named.error !== undefined) {
      this.status.textContent = t("whatif.bad_link", { text: named.error });
      return;
    }
    await this.choose(named.line, named.by);
  }
}
