// The player's history on this device: every finished deal (solo, and online for the player's own seat) with
// its review once one is made, in IndexedDB, at most CAP deals (the oldest go first). No server: the file
// (export, import) is the only way out. The entries and the file's lines: js/history-format.js.
//
//   await keepDeal({record, seat, level, online, match, matchOver})   // a deal just finished
//   await keepReview(record, review)                                  // its review (the player's seat's)
//   const {entries, unread} = await readHistory()                     // oldest first
//   await keepPar(id, par)                                             // its par, or the replays so far
//   await keepChecks([{id, checked}])                                  // the engine's word on entries
//   await importEntries(entries), await wipeHistory()
//
// A store that cannot be opened (private browsing, blocked storage) keeps nothing and says so by resolving
// with null or an empty history: the game never waits on it and never fails for it. An entry this version
// cannot read (a later version's) is left as it is and counted in `unread`; an older version's is migrated
// in place (migrateEntry).
import { ENTRY_VERSION, dealIdentity, makeEntry, migrateEntry } from "./history-format.js";

export const CAP = 2000; // deals kept
const DB_NAME = "coinche-history";
const DB_VERSION = 2; // the database's layout (stores, indexes); an entry's own version is ENTRY_VERSION
const STORE = "deals";

let opened = null;

export function request(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function done(tx) {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = tx.onerror = () => reject(tx.error);
  });
}

// The database, opened once (null where IndexedDB is missing or refused).
export function openHistory() {
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
      // from nothing to 1: one store, keyed by the order deals came in, with the deals' identities and the
      // times they were played (the oldest pruned first, an imported one by its own time)
      if (!db.objectStoreNames.contains(STORE)) {
        const store = db.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
        store.createIndex("deal", "deal", { unique: false });
        store.createIndex("at", "at", { unique: false });
      }
      // from 1 to 2: the deals of the day by date and the challenges by their deals (js/daily-store.js)
      if (!db.objectStoreNames.contains("days")) db.createObjectStore("days", { keyPath: "date" });
      if (!db.objectStoreNames.contains("challenges")) db.createObjectStore("challenges", { keyPath: "key" });
    };
    req.onsuccess = () => {
      const db = req.result;
      db.onversionchange = () => { db.close(); opened = null; }; // a newer page upgrades it
      resolve(db);
    };
    req.onerror = () => resolve(null);
    req.onblocked = () => resolve(null);
  });
  return opened;
}

// The oldest entries (by the time they were played) deleted until at most `cap` are left.
async function prune(store, cap) {
  let extra = (await request(store.count())) - cap;
  if (extra <= 0) return;
  await new Promise((resolve, reject) => {
    const cursor = store.index("at").openCursor();
    cursor.onsuccess = () => {
      const at = cursor.result;
      if (!at || extra <= 0) return resolve();
      at.delete();
      extra -= 1;
      return at.continue();
    };
    cursor.onerror = () => reject(cursor.error);
  });
}

// work(store) on the object store `name` (the deals by default) in one transaction; null if it fails.
export async function withStore(mode, work, name = STORE) {
  const db = await openHistory();
  if (!db) return null;
  try {
    const tx = db.transaction(name, mode);
    const result = await work(tx.objectStore(name));
    await done(tx);
    return result;
  } catch (error) {
    console.warn("history:", error);
    return null;
  }
}

// The id of the match at the table in the history: a new one (`fresh`), else the one kept for the match
// resumed (kept in localStorage beside the saved match).
const MATCH_KEY = "coinche.history.match";
export function matchId(fresh) {
  let id = null;
  try {
    id = fresh ? null : localStorage.getItem(MATCH_KEY);
  } catch { /* blocked storage */ }
  if (id) return id;
  id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  try {
    localStorage.setItem(MATCH_KEY, id);
  } catch { /* blocked storage: the id lasts this visit */ }
  return id;
}

// A deal just finished, kept (a deal already there is not kept twice).
export function keepDeal(fields, cap = CAP) {
  const entry = makeEntry(fields);
  return withStore("readwrite", async (store) => {
    if (await request(store.index("deal").count(entry.deal))) return false;
    store.add(entry);
    await prune(store, cap);
    return true;
  });
}

// The review of a kept deal (the player's seat's, or every seat's: the page keeps the player's decisions).
export function keepReview(record, review) {
  const deal = dealIdentity(record);
  return withStore("readwrite", async (store) => {
    const entries = await request(store.index("deal").getAll(deal));
    for (const entry of entries) {
      if (entry.v !== ENTRY_VERSION) continue;
      const mine = review.decisions.filter((item) => item.seat === entry.seat);
      if (!mine.length || (entry.review && entry.review.decisions.length >= mine.length)) continue;
      // the summary is the one of the seats reviewed: kept when they are the player's alone
      const summary = mine.length === review.decisions.length ? review.summary : null;
      store.put({ ...entry, review: { decisions: mine, summary } });
    }
    return entries.length > 0;
  });
}

// Changes to the entries of these ids, in this version's form: {id: fields}. Resolves with how many were
// changed (an entry deleted or pruned meanwhile is skipped).
function changeEntries(changes) {
  return withStore("readwrite", async (store) => {
    let changed = 0;
    for (const [id, fields] of Object.entries(changes)) {
      const entry = migrateEntry(await request(store.get(Number(id))));
      if (!entry) continue;
      store.put({ ...entry, ...fields, id: Number(id) });
      changed += 1;
    }
    return changed;
  });
}

// The Expert's par of an entry's deal (history-format.js: the replays' scores so far, or the finished par).
export function keepPar(id, par) {
  return changeEntries({ [id]: { par } });
}

// The engine's word on entries' records: [{id, checked: true | {key, params}}].
export function keepChecks(verdicts) {
  return changeEntries(Object.fromEntries(verdicts.map(({ id, checked }) => [id, { checked }])));
}

// Every entry, oldest first, in this version's form ({entries, unread}); older versions' migrated in place.
export async function readHistory() {
  const all = await withStore("readwrite", async (store) => {
    const stored = await request(store.getAll());
    const entries = [];
    let unread = 0;
    for (const raw of stored) {
      const entry = migrateEntry(raw);
      if (!entry) {
        unread += 1;
        continue;
      }
      if (entry !== raw) store.put({ ...entry, id: raw.id });
      entries.push({ ...entry, id: raw.id });
    }
    entries.sort((a, b) => a.at - b.at || a.id - b.id);
    return { entries, unread };
  });
  return all ?? { entries: [], unread: 0, failed: true };
}

// One entry by its key (a link from the progress page to its deal), or null.
export async function readEntry(id) {
  const raw = await withStore("readonly", (store) => request(store.get(id)));
  const entry = migrateEntry(raw);
  return entry ? { ...entry, id } : null;
}

// Entries read from a file, kept in the order given (the oldest first); the deals already here are skipped.
// Resolves with {added, skipped}, or null if the store cannot be written.
export function importEntries(entries, cap = CAP) {
  return withStore("readwrite", async (store) => {
    let added = 0;
    let skipped = 0;
    const seen = new Set();
    const byDeal = store.index("deal");
    for (const entry of entries) {
      if (seen.has(entry.deal) || await request(byDeal.count(entry.deal))) {
        skipped += 1;
        continue;
      }
      seen.add(entry.deal);
      store.add(entry);
      added += 1;
    }
    await prune(store, cap);
    return { added, skipped };
  });
}

// Everything forgotten (the page asks first).
export function wipeHistory() {
  return withStore("readwrite", (store) => request(store.clear()));
}
