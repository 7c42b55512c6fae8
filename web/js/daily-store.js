// The deals of the day and the challenges played on this device, in IndexedDB beside the history (its own
// database, so that neither's layout waits on the other's), and the one-deal match in progress (localStorage,
// beside the saved match, which it never replaces).
//
//   days:       {date, deals: [{number, rules, dealer, deal_seed, level, seats, score?, par?, k?, stderr?}]}
//   challenges: {key, day, deals: [...the link's], players: [...the link's], mine: [{score, par}, …]}
//   await readDay(date), await keepDay(day), await readDays(), await readChallenge(key), await keepChallenge(c)
//
// A store that cannot be opened (private browsing) keeps nothing and resolves with null: the flows go on.
const DB_NAME = "coinche-daily";
const DB_VERSION = 1;
const DAYS = "days";
const CHALLENGES = "challenges";
const PLAYING_KEY = "coinche.daily.match";

let opened = null;

function request(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function open() {
  opened ??= new Promise((resolve) => {
    let req;
    try {
      req = indexedDB.open(DB_NAME, DB_VERSION);
    } catch {
      resolve(null);
      return;
    }
    req.onupgradeneeded = () => {
      const db = req.result;
      if (!db.objectStoreNames.contains(DAYS)) db.createObjectStore(DAYS, { keyPath: "date" });
      if (!db.objectStoreNames.contains(CHALLENGES)) db.createObjectStore(CHALLENGES, { keyPath: "key" });
    };
    req.onsuccess = () => {
      const db = req.result;
      db.onversionchange = () => { db.close(); opened = null; };
      resolve(db);
    };
    req.onerror = () => resolve(null);
    req.onblocked = () => resolve(null);
  });
  return opened;
}

async function withStore(name, mode, work) {
  const db = await open();
  if (!db) return null;
  try {
    const tx = db.transaction(name, mode);
    const result = await work(tx.objectStore(name));
    await new Promise((resolve, reject) => {
      tx.oncomplete = resolve;
      tx.onabort = tx.onerror = () => reject(tx.error);
    });
    return result;
  } catch (error) {
    console.warn("daily store:", error);
    return null;
  }
}

export const readDay = (date) => withStore(DAYS, "readonly", (store) => request(store.get(date)));
export const keepDay = (day) => withStore(DAYS, "readwrite", (store) => request(store.put(day)));
export const readDays = async () => (await withStore(DAYS, "readonly", (store) => request(store.getAll()))) ?? [];
export const readChallenge = (key) => withStore(CHALLENGES, "readonly", (store) => request(store.get(key)));
export const keepChallenge = (challenge) => withStore(CHALLENGES, "readwrite", (store) => request(store.put(challenge)));

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
