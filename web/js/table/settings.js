// The player's settings and the saved match, kept in localStorage.
//
// Settings: variant, target, level, coach, speed, rules (the house rules' notation, "own" for the game's), deck (the
// cards' style: js/table/cards.js), and the deck's look (CARD_LOOK: fourColour). A test-only pace ("test": no waiting) is chosen with
// ?speed=test in the URL or localStorage "coinche.speed" = "test"; it is never offered in the menu.
// The variants, targets and levels, and their defaults, are the engine's (js/options.js): the settings
// offer what the engine accepts, and nothing else.
import { options } from "../options.js";
import { DECK_STYLES } from "./cards.js";

const SETTINGS_KEY = "coinche.settings";
const SAVE_KEY = "coinche.match";
const TEST_SPEED_KEY = "coinche.speed";

export const VARIANTS = options.variants;
export const TARGETS = options.targets;
export const LEVELS = options.levels;
export const SPEEDS = ["slow", "normal", "fast"]; // the page's own: how fast it shows the play
export const CARD_STYLES = DECK_STYLES; // the page's own: "illustrated" (the default) or "simple"

// The deck's look: each setting's values, the default first. Each value but the default is a class on <html>
// that every page's style sheets read (css/suits.css), set by js/deck.js (which names the classes) before
// the first paint and again when the player changes it (applyDeck).
export const CARD_LOOK = {
  fourColour: [false, true],
};

const DEFAULTS = { ...options.defaults, coach: true, speed: "normal", rules: "own", deck: CARD_STYLES[0] };

// Milliseconds for each pace: a bot's think time, how long a full trick stays, card flight, gathering.
const PACES = {
  slow: { bot: 900, trick: 1600, fly: 380, gather: 480, bubble: 1600 },
  normal: { bot: 550, trick: 1100, fly: 300, gather: 400, bubble: 1300 },
  fast: { bot: 180, trick: 550, fly: 200, gather: 260, bubble: 900 },
  test: { bot: 0, trick: 20, fly: 20, gather: 20, bubble: 60 },
};

function read(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}

function write(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch { /* storage full or blocked: the game goes on unsaved */ }
}

function pick(value, allowed, fallback) {
  return allowed.includes(value) ? value : fallback;
}

export function loadSettings() {
  let stored = {};
  try { stored = JSON.parse(read(SETTINGS_KEY) ?? "{}") ?? {}; } catch { stored = {}; }
  return {
    variant: pick(stored.variant, VARIANTS, DEFAULTS.variant),
    target: pick(Number(stored.target), TARGETS, DEFAULTS.target),
    level: pick(stored.level, LEVELS, DEFAULTS.level),
    coach: typeof stored.coach === "boolean" ? stored.coach : DEFAULTS.coach,
    speed: pick(stored.speed, SPEEDS, DEFAULTS.speed),
    deck: pick(stored.deck, CARD_STYLES, DEFAULTS.deck),
    // checked by the engine when a match starts: an unknown option is refused there, naming it
    rules: typeof stored.rules === "string" && stored.rules ? stored.rules : DEFAULTS.rules,
    ...Object.fromEntries(Object.entries(CARD_LOOK).map(([name, values]) => [name, pick(stored[name], values, values[0])])),
  };
}

// The deck's settings shown at once, on this page (js/deck.js did it from the saved ones before the first paint).
export function applyDeck(settings) {
  globalThis.applyDeck?.(settings);
}

export function saveSettings(settings) {
  write(SETTINGS_KEY, JSON.stringify(settings));
}

function testSpeed() {
  const fromUrl = new URLSearchParams(location.search).get("speed");
  return fromUrl === "test" || read(TEST_SPEED_KEY) === "test";
}

// The delays to use now, for the speed setting (the test pace overrides it).
export function pace(speed) {
  if (testSpeed()) return PACES.test;
  const reduced = matchMedia("(prefers-reduced-motion: reduce)").matches;
  const chosen = PACES[speed] ?? PACES.normal;
  return reduced ? { ...chosen, fly: 0, gather: 0 } : chosen;
}

// The saved match, or null. A save that is not even JSON comes back as {unreadable: true}: the engine's
// `load` refuses it (save_corrupt) and the page says so, as for any other damaged save.
export function loadSavedMatch() {
  const text = read(SAVE_KEY);
  if (text === null) return null;
  try {
    const snapshot = JSON.parse(text);
    return snapshot && typeof snapshot === "object" ? snapshot : { unreadable: true };
  } catch {
    return { unreadable: true };
  }
}

export function saveMatch(snapshot) {
  write(SAVE_KEY, snapshot ? JSON.stringify(snapshot) : null);
}
