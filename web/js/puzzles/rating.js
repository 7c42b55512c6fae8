// The player's puzzle rating: Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013), one rating period
// a puzzle, as lichess rates its puzzles. A puzzle's rating is fixed (the shipped set's, from how often the
// bots find it): only the player's moves. Pure functions, no storage (js/puzzles/store.js keeps the rating).
//
//   update({rating: 1500, rd: 200, vol: 0.06}, [{rating: 1400, rd: 30, score: 1}, ...])
//     -> {rating, rd, vol}: the paper's step 1 to 8 over the results of one period
//   afterPuzzle(player, puzzleRating, solved) -> the player after one puzzle (the deviation kept within
//     RD_FLOOR..START.rd, so that a rating never freezes)

// Glicko-1's scale to Glicko-2's: mu = (r - 1500) / SCALE.
const SCALE = 173.7178;
// tau, which constrains the change of the volatility (the paper: 0.3 to 1.2; its example takes 0.5).
export const TAU = 0.5;
const EPSILON = 0.000001;

// A new player: the paper's defaults.
export const START = Object.freeze({ rating: 1500, rd: 350, vol: 0.06 });
// The deviation given to a puzzle's fixed rating, and the player's lowest: after some fifty puzzles a
// rating still moves by about 10 points a result.
export const PUZZLE_RD = 80;
export const RD_FLOOR = 60;

const g = (phi) => 1 / Math.sqrt(1 + (3 * phi * phi) / (Math.PI * Math.PI));
const expected = (mu, muJ, phiJ) => 1 / (1 + Math.exp(-g(phiJ) * (mu - muJ)));

// The new volatility (step 5: the Illinois algorithm on f).
function volatility(phi, sigma, delta, v, tau) {
  const a = Math.log(sigma * sigma);
  const f = (x) => {
    const ex = Math.exp(x);
    return (ex * (delta * delta - phi * phi - v - ex)) / (2 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau);
  };
  let A = a;
  let B;
  if (delta * delta > phi * phi + v) {
    B = Math.log(delta * delta - phi * phi - v);
  } else {
    let k = 1;
    while (f(a - k * tau) < 0) k += 1;
    B = a - k * tau;
  }
  let fA = f(A);
  let fB = f(B);
  while (Math.abs(B - A) > EPSILON) {
    const C = A + ((A - B) * fA) / (fB - fA);
    const fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else {
      fA /= 2;
    }
    B = C;
    fB = fC;
  }
  return Math.exp(A / 2);
}

// The player after one rating period; `results`: [{rating, rd, score}] (score 1 a win, 0 a loss, 0.5 a draw).
// No result: only the deviation grows (step 6).
export function update(player, results, { tau = TAU } = {}) {
  const mu = (player.rating - 1500) / SCALE;
  const phi = player.rd / SCALE;
  const sigma = player.vol;
  if (!results.length) {
    return { rating: player.rating, rd: Math.sqrt(phi * phi + sigma * sigma) * SCALE, vol: sigma };
  }
  let inverseV = 0;
  let sum = 0;
  for (const { rating, rd, score } of results) {
    const muJ = (rating - 1500) / SCALE;
    const gJ = g(rd / SCALE);
    const e = expected(mu, muJ, rd / SCALE);
    inverseV += gJ * gJ * e * (1 - e);
    sum += gJ * (score - e);
  }
  const v = 1 / inverseV;
  const delta = v * sum;
  const vol = volatility(phi, sigma, delta, v, tau);
  const phiStar = Math.sqrt(phi * phi + vol * vol);
  const phiNew = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  const muNew = mu + phiNew * phiNew * sum;
  return { rating: muNew * SCALE + 1500, rd: phiNew * SCALE, vol };
}

// The player after one puzzle of rating `puzzleRating`, solved or not.
export function afterPuzzle(player, puzzleRating, solved) {
  const next = update(player, [{ rating: puzzleRating, rd: PUZZLE_RD, score: solved ? 1 : 0 }]);
  return { ...next, rd: Math.min(START.rd, Math.max(RD_FLOOR, next.rd)) };
}

// A rating as shown: a whole number.
export const shown = (player) => Math.round(player.rating);
