// The service worker: the whole site, Pyodide included, precached at install so that it plays offline.
//
// PRECACHE is written by the build (tools/precache.py): {version, files: {path: sha256}} for every file a
// page may need. Nothing here is a hand-kept list. A release is a new PRECACHE, hence new bytes for this
// script: the browser installs the new worker beside the old one, and
//   install  - fills the cache "coinche-precache-<version>": a file whose hash an older cache already holds
//              is copied from it, any other is fetched from the network and its sha256 checked (a file of
//              another deploy fails the install, which is retried at the next visit);
//   waiting  - the new worker waits: a page in the middle of a match is never switched under its feet;
//              js/pwa.js offers "A new version is ready — Reload" and posts {type: "skip-waiting"};
//   activate - deletes every older precache, then takes control of the open pages.
// Requests: same-origin GETs only. A precached file is answered from the cache (cache first, the cache
// being consistent with itself); a navigation to a page of the site gets the cached page (its query string
// ignored); anything else goes to the network. Where the browser has static routes (InstallEvent.addRoutes,
// Chromium 123+), a request without a query string that is not a navigation is answered from this release's
// cache by the browser itself, without running this script (the network if the cache lacks it): a later
// visit's scripts and Pyodide's files no longer wait for this worker, one request after another.
// PRECACHE.later (the puzzle set) is precached after the install, never in a first visit's downloads: the
// install only copies what an older cache holds of it; a page that has booted posts {type: "precache-later"}
// when the browser is idle (js/pwa.js), and a request for such a file is cached as it is answered.
/* PRECACHE */ const PRECACHE = { version: "dev", files: {}, later: {} }; /* END PRECACHE */

const PREFIX = "coinche-precache-";
const CACHE = PREFIX + PRECACHE.version;
const HASH_HEADER = "X-Content-Sha256";
const SCOPE = new URL(self.registration.scope);
const INDEX = "index.html";

function urlOf(path) {
  return new URL(path, SCOPE).href;
}

async function sha256Hex(buffer) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", buffer));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

function withHash(body, response, hash) {
  const headers = new Headers(response.headers);
  headers.set(HASH_HEADER, hash);
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

// An older precache's copy of path if its bytes have this hash.
async function reusable(path, hash, olderCaches) {
  for (const cache of olderCaches) {
    const hit = await cache.match(urlOf(path));
    if (hit && hit.headers.get(HASH_HEADER) === hash) return hit;
  }
  return null;
}

// Fetch path and check its bytes against hash: a response carrying the hash, ready for the cache.
async function fetchChecked(path, hash) {
  // revalidated: the HTTP cache the page just filled answers 304 for what it holds, and the hash is checked
  const response = await fetch(urlOf(path), { cache: "no-cache" });
  if (!response.ok) throw new Error(`precache ${path}: HTTP ${response.status}`);
  const body = await response.arrayBuffer();
  const actual = await sha256Hex(body);
  if (actual !== hash) throw new Error(`precache ${path}: sha256 ${actual}, expected ${hash}`);
  return withHash(body, response, hash);
}

// Fill this release's cache with files ({path: hash}); network: whether a file no older cache holds is fetched.
async function precache(files = PRECACHE.files, network = true) {
  const cache = await caches.open(CACHE);
  const names = (await caches.keys()).filter((name) => name.startsWith(PREFIX) && name !== CACHE);
  const older = await Promise.all(names.map((name) => caches.open(name)));
  const entries = Object.entries(files);
  let next = 0;
  async function lane() {
    while (next < entries.length) {
      const [path, hash] = entries[next++];
      const url = urlOf(path);
      const cached = await cache.match(url);
      if (cached && cached.headers.get(HASH_HEADER) === hash) continue;
      const copy = await reusable(path, hash, older);
      if (copy) await cache.put(url, copy);
      else if (network) await cache.put(url, await fetchChecked(path, hash));
    }
  }
  await Promise.all([lane(), lane(), lane(), lane()]);
}

// The static routes: navigations come to the fetch handler (a judge link has a query), and so do a folder's
// URL ("./" is index.html) and any request with a query (not precached); the rest of the site's GETs are
// looked up in this release's cache. (No regular expression: static routes refuse them.)
function staticRoutes() {
  const scope = SCOPE.pathname.replace(/[:*?+(){}\\]/g, "\\$&"); // literal in a URL pattern
  const site = (pathname, more = {}) => new URLPattern({
    protocol: SCOPE.protocol.slice(0, -1), hostname: SCOPE.hostname, port: SCOPE.port, pathname, ...more,
  });
  return [
    { condition: { requestMode: "navigate" }, source: "fetch-event" },
    { condition: { urlPattern: site(scope) }, source: "fetch-event" },
    { condition: { urlPattern: site(`${scope}*/`) }, source: "fetch-event" },
    { condition: { requestMethod: "GET", urlPattern: site(`${scope}*`, { search: "" }) }, source: { cacheName: CACHE } },
  ];
}

self.addEventListener("install", (event) => {
  let routed = null;
  try {
    routed = event.addRoutes?.(staticRoutes())?.catch((error) => console.warn("sw: no static routes:", error));
  } catch (error) {
    console.warn("sw: no static routes:", error); // the fetch handler answers everything, as it always could
  }
  event.waitUntil(Promise.all([precache(), precache(PRECACHE.later, false), routed]));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  if (event.data?.type === "skip-waiting") self.skipWaiting();
  else if (event.data?.type === "precache-later") {
    event.waitUntil(precache(PRECACHE.later).catch((error) => console.warn("sw: precache later:", error)));
  }
  else if (event.data?.type === "version") event.ports[0]?.postMessage({ version: PRECACHE.version });
});

// The precached path a request stands for, or null.
function precachedPath(request) {
  const url = new URL(request.url);
  if (url.origin !== SCOPE.origin || !url.pathname.startsWith(SCOPE.pathname)) return null;
  let path = decodeURIComponent(url.pathname.slice(SCOPE.pathname.length));
  if (path === "" || path.endsWith("/")) path += INDEX;
  // a page keeps its query string (?seed=...); a precached file is only ever asked for by its plain URL
  if (url.search && request.mode !== "navigate") return null;
  return path in PRECACHE.files || path in PRECACHE.later ? path : null;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const path = precachedPath(request);
  if (path === null) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(urlOf(path));
    if (hit) return hit;
    if (!(path in PRECACHE.later)) return fetch(request);
    // a file precached later, asked for before it was: cached as it is answered
    try {
      const response = await fetchChecked(path, PRECACHE.later[path]);
      await cache.put(urlOf(path), response.clone());
      return response;
    } catch {
      return fetch(request);
    }
  })());
});
