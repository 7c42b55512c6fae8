// What online play remembers: the player's display name and the referee's URL (localStorage), the seat
// being played (sessionStorage: its reconnect token never leaves this tab and never goes in a URL), and
// the private-table code read from the page's fragment (#join=K7M2QX).
//
// The referee's URL, first found wins: ?referee=… in the page's address, the URL set in the settings,
// the default written at build time into build-info.json ("referee", from COINCHE_REFEREE_URL).

const PREFS_KEY = "coinche.online";
const SEAT_KEY = "coinche.online.seat";
export const MAX_NAME = 24; // the referee's limit
const CODE = /^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{6}$/; // the referee's alphabet: no 0 O 1 I L

function readJSON(storage, key) {
  try {
    const value = JSON.parse(storage.getItem(key) ?? "null");
    return value && typeof value === "object" ? value : null;
  } catch {
    return null;
  }
}

function writeJSON(storage, key, value) {
  try {
    if (value === null) storage.removeItem(key);
    else storage.setItem(key, JSON.stringify(value));
  } catch { /* storage blocked: online play still works, without memory */ }
}

export function cleanName(text) {
  return String(text ?? "").replace(/[\p{Cc}\p{Cf}]/gu, "").replace(/\s+/g, " ").trim().slice(0, MAX_NAME);
}

// A referee URL the page may connect to: ws:// or wss:// and nothing else.
export function refereeOrNull(text) {
  const value = String(text ?? "").trim();
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === "ws:" || url.protocol === "wss:" ? url.href : null;
  } catch {
    return null;
  }
}

export function loadPrefs() {
  const stored = readJSON(localStorage, PREFS_KEY) ?? {};
  return { name: cleanName(stored.name), referee: refereeOrNull(stored.referee) ?? "" };
}

export function savePrefs(prefs) {
  writeJSON(localStorage, PREFS_KEY, { name: cleanName(prefs.name), referee: refereeOrNull(prefs.referee) ?? "" });
}

let buildDefault = null;

// The build's default referee ("" when none was configured, or when build-info.json cannot be read).
export async function defaultReferee() {
  if (buildDefault === null) {
    try {
      const response = await fetch(new URL("../../build-info.json", import.meta.url));
      buildDefault = refereeOrNull((await response.json()).referee) ?? "";
    } catch {
      buildDefault = "";
    }
  }
  return buildDefault;
}

export async function refereeURL(prefs) {
  const fromPage = refereeOrNull(new URLSearchParams(location.search).get("referee"));
  return fromPage ?? (prefs.referee || (await defaultReferee()));
}

// The seat this tab plays: {url, token, seat}; null when none.
export function loadSeat() {
  const seat = readJSON(sessionStorage, SEAT_KEY);
  return seat && typeof seat.token === "string" && typeof seat.url === "string" ? seat : null;
}

export function saveSeat(seat) {
  writeJSON(sessionStorage, SEAT_KEY, seat);
}

export function parseCode(text) {
  const code = String(text ?? "").trim().toUpperCase();
  return CODE.test(code) ? code : null;
}

// The private-table code of a fragment "#join=K7M2QX", or null.
export function codeFromHash(hash = location.hash, what = "join") {
  const match = new RegExp(`^#${what}=([^&]*)$`).exec(hash);
  return match ? parseCode(decodeURIComponent(match[1])) : null;
}

// The link to send a friend: this page with the code in its fragment (never sent to the web server), and
// the referee's URL in ?referee= when it is not the build's default (the friend needs the same referee).
export async function inviteLink(code, referee) {
  const url = new URL(location.href);
  url.search = "";
  if (referee && referee !== (await defaultReferee())) url.searchParams.set("referee", referee);
  url.hash = `join=${code}`;
  return url.href;
}

// The friends' tables this browser sat at, by code: {code: {url, token}} (localStorage: opening the table's
// link again, even in another tab, takes the seat back while the match goes on; the referee accepts a token
// for its own seat only). At most TABLES_KEPT, the oldest forgotten first.
const TABLES_KEY = "coinche.online.tables";
const TABLES_KEPT = 8;

function tables() {
  return readJSON(localStorage, TABLES_KEY) ?? {};
}

export function rememberTable(code, url, token) {
  const kept = Object.entries(tables()).filter(([other]) => other !== code).slice(-(TABLES_KEPT - 1));
  writeJSON(localStorage, TABLES_KEY, Object.fromEntries([...kept, [code, { url, token }]]));
}

export function rememberedTable(code) {
  const seat = tables()[code];
  return seat && typeof seat.token === "string" && typeof seat.url === "string" ? seat : null;
}

export function forgetTable(code) {
  const all = tables();
  if (!(code in all)) return;
  delete all[code];
  writeJSON(localStorage, TABLES_KEY, all);
}
