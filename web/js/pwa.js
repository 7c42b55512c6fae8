// The service worker's page side (see sw.js): registration, and a new release offered without
// interrupting a match.
//
// Registered once the page has booted (<body data-state> or data-engine leaves "loading"), so that the precache's
// downloads do not compete with the engine's and mostly come out of the HTTP cache it just filled.
// A new release installs in the background and waits. The page then shows "A new version is ready —
// Reload"; the switch happens only when the player presses Reload, or by itself while a deal summary is
// showing (between deals). The match is saved after every action, so the reloaded page resumes it: a
// reload for an update leaves a flag in sessionStorage that main.js reads with resumeAfterUpdate().
import { el } from "./dom.js";
import { onLanguageChange, t } from "./i18n.js";

const RESUME_KEY = "coinche.resume-after-update";
const BOOT_WAIT_MS = 20_000;
// How long Reload waits for the new worker to take control before it reloads the page all the same. The browser
// activates a worker told to skip waiting only once the old one has no request in hand (Chromium waits up to five
// minutes): a request of this page that keeps the old worker busy ends with the page, and the reload is then
// answered by the new worker.
const SWITCH_WAIT_MS = 5_000;
const SW_URL = new URL("../sw.js", import.meta.url);
const SCOPE = new URL("../", import.meta.url);

let banner = null;
let switching = false;
// Whether a match is on screen: the game page tells it from its app's state (main.js: watchTable); the
// judge and the rules page have no table.
let atTable = () => false;

export function watchTable(isAtTable) {
  atTable = isAtTable;
}

// True once after a reload made to apply an update from the table: the page should resume the match.
export function resumeAfterUpdate() {
  try {
    const flag = sessionStorage.getItem(RESUME_KEY) === "1";
    sessionStorage.removeItem(RESUME_KEY);
    return flag;
  } catch {
    return false;
  }
}

// The table and the rules page say so in <body data-state>, the judge in <body data-engine>.
function booted() {
  const { state, engine } = document.body?.dataset ?? {};
  return (state ?? engine) !== "loading";
}

function afterBoot() {
  return new Promise((resolve) => {
    if (booted()) return resolve();
    const timer = setTimeout(done, BOOT_WAIT_MS);
    const observer = new MutationObserver(() => booted() && done());
    observer.observe(document.body, { attributes: true, attributeFilter: ["data-state"] });
    function done() {
      clearTimeout(timer);
      observer.disconnect();
      resolve();
    }
  });
}

function betweenDeals() {
  return document.querySelector("#dlg-summary")?.open === true;
}

function drawBanner() {
  if (!banner) return;
  banner.querySelector(".pwa-update-text").textContent = t("pwa.update_ready");
  banner.querySelector("button").textContent = t("pwa.reload");
}

// Switch to the waiting worker; the page reloads when it takes control.
function apply(registration) {
  const waiting = registration.waiting;
  if (!waiting || switching) return;
  switching = true;
  try {
    if (atTable()) sessionStorage.setItem(RESUME_KEY, "1");
  } catch { /* no sessionStorage: the player resumes from the home screen */ }
  waiting.postMessage({ type: "skip-waiting" });
  setTimeout(() => location.reload(), SWITCH_WAIT_MS); // the "controllerchange" listener reloads sooner
}

function offer(registration) {
  if (banner) return;
  banner = el("div", { class: "pwa-update", role: "status", dataset: { testid: "update-banner" } },
    el("span", "pwa-update-text"),
    el("button", { type: "button", class: "pwa-update-reload", on: { click: () => apply(registration) } }));
  drawBanner();
  onLanguageChange(drawBanner);
  document.body.append(banner);
  if (betweenDeals()) apply(registration);
  else {
    // a deal summary opening later is the moment to switch by itself
    const summary = document.querySelector("#dlg-summary");
    if (summary) {
      new MutationObserver(() => betweenDeals() && apply(registration))
        .observe(summary, { attributes: true, attributeFilter: ["open"] });
    }
  }
}

function watch(registration) {
  const offerIfWaiting = () => {
    if (registration.waiting && navigator.serviceWorker.controller) offer(registration);
  };
  offerIfWaiting();
  registration.addEventListener("updatefound", () => {
    const installing = registration.installing;
    installing?.addEventListener("statechange", () => {
      if (installing.state === "installed") offerIfWaiting();
    });
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") registration.update().catch(() => {});
  });
}

// Once the worker is active and the browser idle, the files it precaches later (the puzzle set: sw.js).
function precacheLater() {
  const idle = (fn) => (self.requestIdleCallback ? requestIdleCallback(fn, { timeout: 10_000 }) : setTimeout(fn, 2_000));
  navigator.serviceWorker.ready.then((registration) => {
    idle(() => registration.active?.postMessage({ type: "precache-later" }));
  }).catch(() => {});
}

async function register() {
  if (!("serviceWorker" in navigator)) return;
  let hadController = Boolean(navigator.serviceWorker.controller);
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    // The first install takes control of a page that had none: nothing to reload.
    if (hadController && switching) location.reload();
    hadController = true;
  });
  await afterBoot();
  try {
    const registration = await navigator.serviceWorker.register(SW_URL, { scope: SCOPE.pathname, updateViaCache: "none" });
    watch(registration);
    precacheLater();
  } catch (error) {
    console.warn("service worker:", error); // the site still works, online only
  }
}

register();
