// The message catalogue: one JSON file per language in web/i18n/, ICU-style messages.
// Supported syntax: {name} placeholders, {n, plural, one {# point} other {# points}} and
// {x, select, a {...} other {...}}. Parameters named card/suit (canonical "Jh", "h") are
// rendered as localised card and suit names; the canonical notation never changes in URLs.
//
// Text only ever reaches the page through textContent or attributes (never innerHTML).
import { el } from "./dom.js";
import { CAPOT, isCard, parseCall } from "./notation.js";

export const LANGUAGES = ["en", "fr", "de", "es"];
const STORAGE_KEY = "coinche.lang";

let current = "en";
let messages = {};
let fallback = {};
const listeners = new Set();
// Whether a catalogue has loaded: before it, no text can be looked up (a page draws nothing that needs one).
export function catalogueLoaded() { return Object.keys(messages).length > 0; }

export function detectLanguage() {
  let stored = null;
  try { stored = localStorage.getItem(STORAGE_KEY); } catch { /* storage may be blocked */ }
  if (LANGUAGES.includes(stored)) return stored;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

async function fetchCatalogue(lang) {
  const response = await fetch(new URL(`../i18n/${lang}.json`, import.meta.url));
  if (!response.ok) throw new Error(`catalogue ${lang}: HTTP ${response.status}`);
  return response.json();
}

// Catalogues load over the network, so two quick choices may answer out of order: the last one asked wins.
let lastAsked = 0;

export async function setLanguage(lang, { remember = true } = {}) {
  if (!LANGUAGES.includes(lang)) lang = "en";
  const asked = ++lastAsked;
  if (!Object.keys(fallback).length) fallback = await fetchCatalogue("en");
  const loaded = lang === "en" ? fallback : await fetchCatalogue(lang);
  if (asked !== lastAsked) return current;
  messages = loaded;
  current = lang;
  document.documentElement.lang = lang;
  if (remember) {
    try { localStorage.setItem(STORAGE_KEY, lang); } catch { /* ignore */ }
  }
  applyTranslations(document);
  for (const listener of listeners) listener(lang);
  return lang;
}

export function language() { return current; }
export function onLanguageChange(listener) { listeners.add(listener); return () => listeners.delete(listener); }
export function has(key) { return key in messages || key in fallback; }

export function suitName(letter) { return t(`suit.${letter}`); }
export function rankName(letter) { return t(`rank.${letter}`); }
export function cardName(code) {
  if (!isCard(code)) return String(code);
  return t("card.name", { rank: code[0], suit: code[1] }, { raw: true, rankWord: true });
}
export function cardShort(code) {
  if (typeof code !== "string" || code.length !== 2) return String(code);
  return t(`rank.short.${code[0]}`) + t(`suit.symbol.${code[1]}`);
}

// A list of cards as the engine writes it ("Jh,Ac"), in words; anything else as it is.
function cardList(text) {
  const cards = String(text).split(",");
  return cards.every(isCard) ? cards.map(cardName).join(", ") : String(text);
}

function localiseParam(name, value) {
  if (name === "card" || name === "over") return cardName(value);
  if (name === "cards" || name === "best_cards") return cardList(value);
  if (name === "suit" || name === "trump") return value ? suitName(value) : "";
  if (name === "call") return callName(value);
  return value;
}

export function callName(code) {
  const call = parseCall(code);
  if (!call) return String(code);
  if (call.kind === "take") return t("call.take", { suit: call.suit });
  if (call.kind === "bid") return call.value === CAPOT ? t("call.capot", { suit: call.suit }) : t("call.bid", { value: call.value, suit: call.suit });
  return t(`call.${call.kind}`);
}

// A bid's value as the table writes it: the number, or the word for capot.
export function bidValueName(value) {
  return value === CAPOT ? t("table.bid.capot") : String(value);
}

export function t(key, params = {}, options = {}) {
  let template = messages[key] ?? fallback[key];
  if (template === undefined) {
    console.warn(`missing message: ${key}`);
    return key;
  }
  const values = {};
  for (const [name, value] of Object.entries(params)) {
    if (options.rankWord && name === "rank") values[name] = rankName(value);
    else if (options.rankWord && name === "suit") values[name] = t(`suit.of.${value}`, {}, {});
    else values[name] = localiseParam(name, value);
  }
  return format(template, values, params);
}

// ---------------------------------------------------------------- ICU subset
function format(template, values, raw) {
  let out = "";
  let i = 0;
  while (i < template.length) {
    const ch = template[i];
    if (ch === "'" && template[i + 1] === "'") { out += "'"; i += 2; continue; }
    if (ch !== "{") { out += ch; i += 1; continue; }
    const end = matchingBrace(template, i);
    out += argument(template.slice(i + 1, end), values, raw);
    i = end + 1;
  }
  return out;
}

function matchingBrace(text, start) {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    if (text[i] === "{") depth++;
    else if (text[i] === "}" && --depth === 0) return i;
  }
  throw new Error(`unbalanced braces in message: ${text}`);
}

function argument(body, values, raw) {
  const first = body.indexOf(",");
  if (first < 0) {
    const name = body.trim();
    return name in values ? String(values[name]) : `{${name}}`;
  }
  const name = body.slice(0, first).trim();
  const rest = body.slice(first + 1);
  const second = rest.indexOf(",");
  const type = rest.slice(0, second).trim();
  const options = parseOptions(rest.slice(second + 1));
  const value = raw[name];
  if (type === "plural") {
    const n = Number(value);
    const exact = options[`=${n}`];
    const category = new Intl.PluralRules(current).select(n);
    const chosen = exact ?? options[category] ?? options.other ?? "";
    return format(chosen.replace(/#/g, new Intl.NumberFormat(current).format(n)), values, raw);
  }
  if (type === "select") {
    return format(options[String(value)] ?? options.other ?? "", values, raw);
  }
  return String(values[name] ?? "");
}

function parseOptions(text) {
  const options = {};
  let i = 0;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i])) i++;
    if (i >= text.length) break;
    let j = i;
    while (j < text.length && text[j] !== "{" && !/\s/.test(text[j])) j++;
    const selector = text.slice(i, j);
    while (j < text.length && text[j] !== "{") j++;
    const end = matchingBrace(text, j);
    options[selector] = text.slice(j + 1, end);
    i = end + 1;
  }
  return options;
}

// ---------------------------------------------------------------- the DOM
// data-i18n="key" sets textContent; data-i18n-attr="aria-label:key;title:key2" sets attributes.
export function applyTranslations(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of el.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":");
      if (attr && key) el.setAttribute(attr.trim(), t(key.trim()));
    }
  }
}

// A <select> that switches language, for every page's header.
export function languagePicker(select) {
  select.append(...LANGUAGES.map((lang) => el("option", { value: lang, text: t(`language.${lang}`) })));
  select.value = current;
  select.addEventListener("change", () => setLanguage(select.value));
  onLanguageChange((lang) => { select.value = lang; });
}
