// The first deal a match draws before the engine is up. A first visit draws one of the deals the build had
// the engine deal (first-deals.json, tools/first_deals.py); once the engine is up, it deals the next visit's
// first deals (one per variant, `first_deal`), which the page keeps in localStorage: a returning player
// draws those, never the build's again, so that the build's deals serve first visits only. Either way the
// page sends the deal's seed with new_match and the engine deals the same cards.
import { app } from "./app.js";

const BUILD_FORMAT = "coinche-first-deals/1";
const KEPT_KEY = "coinche.first-deals";
const KEPT_FORMAT = "coinche-kept-first-deals/1";

// {format, settings: {target, level}, deals: {variant: {deal_seed, state}}} kept by an earlier visit, or null.
function kept() {
  try {
    const value = JSON.parse(localStorage.getItem(KEPT_KEY) ?? "null");
    return value?.format === KEPT_FORMAT && value.deals && typeof value.deals === "object" ? value : null;
  } catch {
    return null; // unreadable or blocked storage: as on a first visit
  }
}

function keep(value) {
  try {
    localStorage.setItem(KEPT_KEY, JSON.stringify(value));
  } catch { /* full or blocked: the next visit draws the build's deals */ }
}

const dealtFor = (file, { target, level }) => file.settings?.target === target && file.settings?.level === level;

// The build's file, fetched once (not at all by a returning player); null if it cannot be had: the table
// then waits for the engine, as it always could.
let buildDeals = null;
export function loadBuildDeals() {
  if (kept()) return Promise.resolve(null);
  buildDeals ??= fetch(new URL("first-deals.json", document.baseURI))
    .then((response) => (response.ok ? response.json() : null))
    .then((file) => (file?.format === BUILD_FORMAT ? file : null))
    .catch(() => null);
  return buildDeals;
}

// A first deal {deal_seed, state} for a new match with these settings while the engine boots, or null: none
// once the engine is up (it deals at once then), none for other settings than the deal's. A kept deal is
// drawn once: the engine deals another for the visit after.
export async function firstDealFor({ variant, target, level, rules = "own" }) {
  if (app.state !== "loading" || rules !== "own") return null; // dealt by the game's own rules only
  const mine = kept();
  if (mine) {
    const deal = dealtFor(mine, { target, level }) ? mine.deals[variant] : null;
    if (!deal?.state || typeof deal.deal_seed !== "string") return null;
    delete mine.deals[variant];
    keep(mine);
    return deal;
  }
  const file = await loadBuildDeals();
  const deals = file?.deals?.[variant];
  if (app.state !== "loading" || !Array.isArray(deals) || !deals.length || !dealtFor(file, { target, level })) return null;
  return chosen(variant, deals);
}

// Each variant's deal, drawn at random once: the one its first match draws, and whose art loads first.
const picks = {};
function chosen(variant, deals) {
  picks[variant] ??= crypto.getRandomValues(new Uint32Array(1))[0] % deals.length;
  return deals[picks[variant] % deals.length];
}

// The player's hands of the first deals a first match may draw (kept or the build's), to load their cards'
// art before any other: [] once the engine is up.
export async function firstHands() {
  const mine = kept();
  const file = mine ? null : await loadBuildDeals();
  if (app.state !== "loading") return [];
  const deals = mine ? Object.values(mine.deals) : Object.entries(file?.deals ?? {}).map(
    ([variant, list]) => (Array.isArray(list) && list.length ? chosen(variant, list) : null));
  return deals.map((deal) => deal?.state?.deal?.hand).filter(Array.isArray);
}

// With the engine up: the next visit's first deals for these settings, one per variant, dealt by the engine
// and kept (those kept already for the same settings stay kept).
export async function keepNextFirstDeals(engine, { target, level }, variants) {
  const mine = kept();
  const deals = mine && dealtFor(mine, { target, level }) ? { ...mine.deals } : {};
  try {
    for (const variant of variants) deals[variant] ??= await engine.call("first_deal", { variant, target, level });
  } catch (error) {
    console.warn("first deals:", error);
    return;
  }
  keep({ format: KEPT_FORMAT, settings: { target, level }, deals });
}
