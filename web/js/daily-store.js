// The deals of the day and the challenges played on this device, in IndexedDB beside the history (two stores of
// its database, js/history.js), and the one-deal match in progress (localStorage, beside the saved match, which
// it never replaces).
//
//   days:       {date, deals: [{number, rules, dealer, deal_seed, level, seats, score?, par?, k?, stderr?}]}
//   challenges: {key, day, deals: [...the link's], players: [...the link's], mine: [{score, par}, …]}
//   await readDay(date), await keepDay(day), await readDays(), await readChallenge(key), await keepChallenge(c)
//
// A store that cannot be opened (private browsing) keeps nothing and resolves with null: the flows go on.
import { request, withStore } from "./history.js";

const PLAYING_KEY = "coinche.daily.match";

export const readDay = (date) => withStore("readonly", (store) => request(store.get(date)), "days");
export const keepDay = (day) => withStore("readwrite", (store) => request(store.put(day)), "days");
export const readDays = async () => (await withStore("readonly", (store) => request(store.getAll()), "days")) ?? [];
export const readChallenge = (key) => withStore("readonly", (store) => request(store.get(key)), "challenges");
export const keepChallenge = (challenge) => withStore("readwrite", (store) => request(store.put(challenge)), "challenges");

// The one-deal match in progress: {kind: "daily", date, number, snapshot} or {kind: "challenge", key, number,
// snapshot}, or null.
export function readPlaying() {
  try {
    const value = JSON.parse(localStorage.getItem(PLAYING_KEY) ?? "null");
    return value && typeof value === "object" && value.snapshot ? value : null;
  } catch {
    return null;
  }
}

export function keepPlaying(playing) {
  try {
    if (playing) localStorage.setItem(PLAYING_KEY, JSON.stringify(playing));
    else localStorage.removeItem(PLAYING_KEY);
  } catch { /* storage full or blocked: the deal goes on unsaved */ }
}
