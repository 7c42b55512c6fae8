// The Python engine in a module worker: Pyodide + the coinche wheel, behind a JSON message protocol.
//
// Page -> worker: {id, cmd, args}           (args: a plain JSON object)
// Worker -> page: {id, result} | {id, error: {code, message, params}}
//                 {type: "progress", step, loaded, total}   while booting (bytes where known, else 0)
//                 {type: "ready", version, timings}          once, when the engine answers; timings
//                   holds ms since the worker started (origin: its performance.timeOrigin) and how
//                   Python started (snapshot: "restored"; "missing": started afresh, no snapshot of this
//                   build saved; "off": snapshots not used)
//                 {type: "boot-error", error: {code, message, params}}   once, if booting failed
//
// Role "make-snapshot" (engine.js runs it once after a boot that found no snapshot): boots the same way with
// Pyodide's _makeSnapshot, imports the engine, saves the memory snapshot, posts {type: "snapshot-saved",
// bytes, timings} or {type: "snapshot-error", error, timings} and ends. A snapshot is saved with the sha256
// of the engine wheel and of the standard library's zip it holds (snapshotOf): a later visit restores it only
// for those same bytes (it holds zipimport's directory of both files).
//
// Every command goes through coinche.webapi.handle(cmd, args_json) -> JSON text: the page never has Python
// code run, and no Python object crosses the boundary. The engine's modules a first visit does not need (the
// puzzles, the par, the deals of the day, the command line: build-info.json "later") are an archive apart,
// precached after the install: a command answered `engine_module_missing` has it fetched, checked and mounted
// (ENGINE_LATER_ZIP), then runs again; if it cannot be fetched, the command is answered `engine_part_missing`.
//
// Options come in the worker's name (a query string would be lost when a service worker serves this
// script): "coinche-engine no-snapshot" starts Python without the memory snapshot (snapshot-store.js),
// "coinche-engine make-snapshot" is the role above, "coinche-engine fresh" starts Python at once without
// looking for a snapshot (the page knows none was saved).
import { loadPyodide, version as PYODIDE_VERSION, indexURL as PYODIDE_URL, stdLibURL } from "./pyodide-current.mjs";

const SITE = new URL("../", import.meta.url);
// What a snapshot holds imported besides coinche.webapi: the bots and the deal records (replays).
const SNAPSHOT_IMPORTS = "import coinche.bots, coinche.record";
const started = performance.now();
// origin: when this worker began (ms epoch); module: ms from then to this module running, the origin of the
// other timings
const timings = { snapshot: "off", origin: performance.timeOrigin, module: Math.round(started) };
const role = self.name.split(" ");
const makingSnapshot = role.includes("make-snapshot");
const fresh = role.includes("fresh"); // no snapshot was ever saved here: do not look for one
// Snapshots are used unless told not to and where there is a Cache Storage; the store's module is loaded
// only when a snapshot is read or written: a first visit ("fresh") starts Python without waiting for it.
const snapshotsUsed = !role.includes("no-snapshot") && typeof caches !== "undefined";
let store = null;
function snapshotStore() {
  store ??= import("./snapshot-store.js").then(({ SnapshotStore }) =>
    new SnapshotStore(new URL(`memory-snapshot-${PYODIDE_VERSION}.bin`, PYODIDE_URL).href));
  return store;
}
if (snapshotsUsed && !fresh) snapshotStore(); // a snapshot was saved here before: its store loads at once

function progress(step, loaded = 0, total = 0) {
  postMessage({ type: "progress", step, loaded, total });
}

function mark(name) {
  timings[name] = Math.round(performance.now() - started);
}

async function fetchOk(url, options) {
  const response = await fetch(url, options);
  if (!response.ok) throw new Error(`GET ${url}: HTTP ${response.status}`);
  return response;
}

// The body of url as bytes, reporting {step, loaded, total} as it arrives.
async function fetchBytes(url, step, expectedSize) {
  const response = await fetchOk(url);
  const total = Number(response.headers.get("Content-Length")) || expectedSize || 0;
  const reader = response.body.getReader();
  const chunks = [];
  let loaded = 0;
  progress(step, 0, total);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.length;
    progress(step, loaded, total);
  }
  const bytes = new Uint8Array(loaded);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

async function sha256Hex(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

// Python restored from `saved` (a promise of a memory snapshot holding the engine already imported: Pyodide
// loads its own files while it is read and checked) if given; else started afresh.
async function startPython(saved) {
  progress("pyodide");
  if (saved) {
    const pyodide = await loadPyodide({ indexURL: PYODIDE_URL, stdLibURL, _loadSnapshot: saved });
    pyodide.runPython("import random; random.seed()"); // the snapshot holds the generator's state
    timings.snapshot = "restored";
    return pyodide;
  }
  return loadPyodide({ indexURL: PYODIDE_URL, stdLibURL, _makeSnapshot: makingSnapshot });
}

function fetchBuildInfo() {
  return fetchOk(new URL("build-info.json", SITE), { cache: "no-cache" }).then((r) => r.json());
}

// The wheel that build-info.json `info` names, checked against its sha256.
async function fetchCheckedWheel(info) {
  const wheel = await fetchBytes(new URL(info.wheel.url, SITE), "engine-download", info.wheel.size);
  const digest = await sha256Hex(wheel);
  if (digest !== info.wheel.sha256) {
    throw new Error(`${info.wheel.file_name}: sha256 ${digest} does not match build-info.json`);
  }
  return { info, wheel };
}

// The engine wheel of this build. If it is missing or does not match, a deploy may have landed between
// the two requests: build-info.json is read once more.
async function fetchWheel(buildInfo) {
  try {
    return await fetchCheckedWheel(await buildInfo);
  } catch {
    return fetchCheckedWheel(await fetchBuildInfo());
  }
}

// The engine wheel put at the front of sys.path as it is: Python imports from the zip (zipimport), with no
// unpacking. Always the same path: a memory snapshot holds that path, and the restored interpreter finds the
// same bytes there (a snapshot is restored only for the wheel it was made with).
const ENGINE_ZIP = "/coinche/engine.whl";

function mountEngine(pyodide, wheel) {
  progress("engine-install");
  pyodide.FS.mkdirTree("/coinche");
  pyodide.FS.writeFile(ENGINE_ZIP, wheel);
  pyodide.runPython(`import sys\nif ${JSON.stringify(ENGINE_ZIP)} not in sys.path: sys.path.insert(0, ${JSON.stringify(ENGINE_ZIP)})`);
}

// The engine imported (a restored snapshot holds it already: its zip is written again for the modules
// imported later); its handle(cmd, args_json).
async function installEngine(pyodide, wheelReady) {
  mark("pyodide");
  const { info, wheel } = await wheelReady;
  mark("wheel");
  mountEngine(pyodide, wheel);
  mark("mounted");
  progress("engine-import");
  const webapi = pyodide.pyimport("coinche.webapi"); // one proxy, kept for the worker's life
  const handle = (cmd, argsJson) => webapi.handle(cmd, argsJson);
  mark("engine");
  const pong = JSON.parse(handle("ping", "{}"));
  mark("pong");
  return { pyodide, handle, info, version: pong.result.version ?? info.version, engine: snapshotOf(info) };
}

// The archive of the engine's later modules (tools/build_site.py LATER_MODULES), mounted beside the wheel: its
// coinche/ folder added to the package's path. Once per worker; a failed fetch is tried again at the next
// command that needs it.
const ENGINE_LATER_ZIP = "/coinche/later.zip";
const LATER_PACKAGE = JSON.stringify(`${ENGINE_LATER_ZIP}/coinche`);
let laterMounted = null;

function mountLater({ pyodide, info }) {
  laterMounted ??= (async () => {
    if (!info.later) throw new Error("build-info.json names no later archive");
    const response = await fetchOk(new URL(info.later.url, SITE));
    const bytes = new Uint8Array(await response.arrayBuffer());
    const digest = await sha256Hex(bytes);
    if (digest !== info.later.sha256) throw new Error(`${info.later.file_name}: sha256 ${digest} does not match build-info.json`);
    pyodide.FS.writeFile(ENGINE_LATER_ZIP, bytes);
    pyodide.runPython(`import coinche, importlib
if ${LATER_PACKAGE} not in coinche.__path__: coinche.__path__.append(${LATER_PACKAGE})
importlib.invalidate_caches()`);
  })();
  laterMounted.catch(() => { laterMounted = null; });
  return laterMounted;
}

// The command's answer, the later archive mounted first if the command needs it (the commands that do are
// stateless: answered after the archive arrives, they answer the same).
async function answer(engine, cmd, argsJson) {
  const first = JSON.parse(engine.handle(cmd, argsJson));
  if (first.error?.code !== "engine_module_missing") return first;
  try {
    await mountLater(engine);
  } catch (error) {
    return { error: { code: "engine_part_missing", message: messageOf(error), params: { module: first.error.params.module } } };
  }
  return JSON.parse(engine.handle(cmd, argsJson));
}

// What a snapshot made with this build holds, as saved beside it: the engine wheel's and the standard
// library's sha256.
function snapshotOf(info) {
  return `${info.wheel.sha256} ${info.pyodide.stdlib_sha256}`;
}

// No snapshot saved: Python starts afresh, and nothing is reported as an error.
class NoSnapshot extends Error {}

// The saved snapshot's bytes if it holds this build's engine and library; rejects with NoSnapshot if there is
// none, with an Error if it is stale (then dropped).
async function savedSnapshot(buildInfo) {
  const snapshots = await snapshotStore();
  const [saved, info] = await Promise.all([snapshots.read(), buildInfo.catch(() => null)]);
  mark("snapshot-read");
  if (!saved) throw new NoSnapshot("no snapshot saved");
  if (info && saved.engine === snapshotOf(info)) return saved.bytes;
  await snapshots.drop();
  throw new Error("a snapshot of another engine or library");
}

async function boot() {
  progress("build-info");
  // build-info.json names the wheel of this build; the wheel downloads while the interpreter starts.
  const buildInfo = fetchBuildInfo();
  const wheel = fetchWheel(buildInfo);
  buildInfo.catch(() => {}); // awaited later; a failure surfaces there
  wheel.catch(() => {});
  if (snapshotsUsed && !makingSnapshot && !fresh) {
    try {
      const saved = savedSnapshot(buildInfo);
      saved.catch(() => {}); // Pyodide awaits it once its own files are in; a rejection is caught below
      return await installEngine(await startPython(saved), wheel);
    } catch (error) {
      // None, or of another Pyodide, engine or library, or broken: forget it and start afresh (the page makes
      // a new one).
      if (!(error instanceof NoSnapshot)) timings.snapshotError = messageOf(error);
      await (await snapshotStore()).drop();
    }
  }
  if (snapshotsUsed) timings.snapshot = "missing";
  return installEngine(await startPython(null), wheel);
}

// The "make-snapshot" role: Python started, the engine and everything a match uses imported, the memory
// saved as a snapshot for the next visits; then this worker ends. The page runs it once the first deal is on
// screen: a snapshot taken during the player's first boot would delay it.
async function makeSnapshot() {
  const { pyodide, engine } = await boot();
  pyodide.runPython(SNAPSHOT_IMPORTS);
  const bytes = pyodide.makeMemorySnapshot();
  if (!(await (await snapshotStore()).write(bytes, engine))) throw new Error("the snapshot could not be saved");
  return bytes.length;
}

function messageOf(error) {
  return error instanceof Error ? error.message : String(error);
}

function asError(error, code) {
  return { code, message: messageOf(error), params: {} };
}

let ready = null;
if (makingSnapshot) {
  makeSnapshot().then(
    (bytes) => postMessage({ type: "snapshot-saved", bytes, timings }),
    (error) => postMessage({ type: "snapshot-error", error: asError(error, "snapshot_failed"), timings }),
  ).finally(() => close());
} else {
  ready = boot();
  ready.then(
    ({ version }) => postMessage({ type: "ready", version, timings }),
    (error) => postMessage({ type: "boot-error", error: asError(error, "boot_failed") }),
  );
}

self.onmessage = async (event) => {
  const { id, cmd, args } = event.data;
  if (!ready) return; // the snapshot maker takes no commands
  let engine;
  try {
    engine = await ready;
  } catch (error) {
    postMessage({ id, error: asError(error, "boot_failed") });
    return;
  }
  try {
    postMessage({ id, ...(await answer(engine, String(cmd), JSON.stringify(args ?? {}))) });
  } catch (error) {
    postMessage({ id, error: asError(error, "internal_error") });
  }
};
