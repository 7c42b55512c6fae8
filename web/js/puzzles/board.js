// A puzzle drawn with the game's cards (js/table/cards.js): the four seats around the trick, the seat to
// play at the bottom, its cards buttons (tap, click, or the keyboard: Tab or the arrows, then Enter).
// Drawing only: which card is right is the engine's answer (js/puzzles/main.js).
//
//   drawPuzzle(root, puzzle, {onPick})   the table; hidden hands (a puzzle "from your seat") as backs
//   markCards(root, puzzle, {picked, best, values})   the cards marked once answered
import { el } from "../dom.js";
import { options } from "../options.js";
import { t } from "../i18n.js";
import { buildBack, buildCard, sortHand } from "../table/cards.js";

export const posOf = (puzzle, seat) => (seat - puzzle.to_play + 4) % 4;
export const seatOfTrickCard = (puzzle, i) => (puzzle.trick.leader + i) % 4;

// The seat's name as the table says it: "You" for the seat to play, else its place around the table.
export const seatName = (puzzle, seat) => t(`table.seat.${posOf(puzzle, seat)}`);

// How many cards a hidden seat holds: the puzzle's count, else as many as the seat to play, one fewer once
// it played to the trick.
function heldCount(puzzle, seat) {
  if (Number.isInteger(puzzle.counts?.[seat])) return puzzle.counts[seat];
  const mine = puzzle.hands[puzzle.to_play].length;
  const played = puzzle.trick.cards.some((_, i) => seatOfTrickCard(puzzle, i) === seat);
  return played ? mine - 1 : mine;
}

export function drawPuzzle(root, puzzle, { onPick }) {
  const open = puzzle.kind !== "seat";
  const trump = puzzle.contract.trump;
  for (let seat = 0; seat < 4; seat++) {
    const box = root.querySelector(`.puzzle-seat[data-pos="${posOf(puzzle, seat)}"]`);
    box.dataset.seat = String(seat);
    const declarer = puzzle.contract.declarer;
    const role = seat === declarer ? "declarer" : seat === (declarer + 2) % 4 ? "partner" : "defender";
    box.querySelector(".seat-label").textContent = t("puzzles.seat", { seat: seatName(puzzle, seat), role });
    const cards = box.querySelector(".seat-cards");
    const hand = puzzle.hands[seat] ?? [];
    if (seat === puzzle.to_play) {
      const buttons = sortHand(hand, trump, options.cards).map((card) => {
        const button = buildCard(card, "button");
        button.addEventListener("click", () => onPick(card));
        return button;
      });
      cards.replaceChildren(...buttons);
      cards.onkeydown = (event) => moveFocus(event, buttons);
    } else if (open || hand.length) {
      cards.replaceChildren(...sortHand(hand, trump, options.cards).map((card) => buildCard(card)));
    } else {
      const n = Math.max(0, heldCount(puzzle, seat));
      const backs = Array.from({ length: n }, () => buildBack());
      cards.replaceChildren(...backs, el("span", { class: "visually-hidden", text: t("puzzles.hidden", { n }) }));
    }
  }
  const trick = root.querySelector(".puzzle-trick");
  trick.replaceChildren(...puzzle.trick.cards.map((card, i) => {
    const seat = seatOfTrickCard(puzzle, i);
    return el("li", { class: "trick-card", dataset: { pos: String(posOf(puzzle, seat)), card } },
      buildCard(card), el("span", { class: "trick-who", text: seatName(puzzle, seat) }));
  }));
}

// Arrows move along the hand (Home and End to its ends); Enter and Space press the card, as buttons do.
function moveFocus(event, buttons) {
  const at = buttons.indexOf(document.activeElement);
  if (at < 0) return;
  const to = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1, Home: 0, End: buttons.length - 1 }[event.key];
  if (to === undefined) return;
  event.preventDefault();
  buttons[(to + buttons.length) % buttons.length].focus();
}

// The hand once answered: the card played, the best ones, every card's figure under it.
export function markCards(root, puzzle, { picked, best, values }) {
  const mine = root.querySelector('.puzzle-seat[data-pos="0"] .seat-cards');
  for (const button of mine.querySelectorAll(".card[data-card]")) {
    const card = button.dataset.card;
    button.classList.toggle("is-best", best.includes(card));
    button.classList.toggle("is-picked", card === picked);
    button.disabled = true;
    const value = values?.[card];
    button.dataset.value = value === undefined ? "" : String(value);
  }
}
