// The Python engine in a module worker: Pyodide + the coinche wheel, behind a JSON message protocol.
//
// Page -> worker: {id, cmd, args}           (args: a plain JSON object)
// Worker -> page: {id, result} | {id, error: {code, message, params}}
//                 {type: "progress", step, loaded, total}   while booting (bytes where known, else 0)
//                 {type: "ready", version, timings}          once, when the engine answers; timings
//                   holds ms since the worker started and how Python started (snapshot: "restored",
//                   "made" or "off")
//                 {type: "boot-error", error: {code, message, params}}   once, if booting failed
//
// Every command goes through coinche.webapi.handle(cmd, args_json) -> JSON text: the page never has Python
// code run, and no Python object crosses the boundary.
//
// Options come in the worker's name (a query string would be lost when a service worker serves this
// script): "coinche-engine no-snapshot" starts Python without the memory snapshot (snapshot-store.js).
import { loadPyodide, version as PYODIDE_VERSION, indexURL as PYODIDE_URL } from "./pyodide-current.mjs";
import { SnapshotStore } from "./snapshot-store.js";

const SITE = new URL("../", import.meta.url);
const started = performance.now();
const timings = { snapshot: "off" };
const snapshots = !self.name.split(" ").includes("no-snapshot") && SnapshotStore.available()
  ? new SnapshotStore(new URL(`memory-snapshot-${PYODIDE_VERSION}.bin`, PYODIDE_URL).href)
  : null;

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

// Python restored from `saved` (a memory snapshot) if given; else started afresh, its snapshot then saved.
async function startPython(saved) {
  progress("pyodide");
  if (saved) {
    const pyodide = await loadPyodide({ indexURL: PYODIDE_URL, _loadSnapshot: saved });
    pyodide.runPython("import random; random.seed()"); // the snapshot holds the generator's state
    timings.snapshot = "restored";
    return pyodide;
  }
  const pyodide = await loadPyodide({ indexURL: PYODIDE_URL, _makeSnapshot: snapshots !== null });
  if (snapshots) {
    try {
      snapshots.write(pyodide.makeMemorySnapshot()); // taken before any other Python runs; saved meanwhile
      timings.snapshot = "made";
    } catch (error) {
      timings.snapshotError = messageOf(error);
    }
  }
  return pyodide;
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

// The engine wheel installed and imported; its handle(cmd, args_json).
async function installEngine(pyodide, buildInfo) {
  mark("pyodide");
  const { info, wheel } = await fetchWheel(buildInfo);
  mark("wheel");
  progress("engine-install");
  // Into site-packages (the default is the working directory, which only works while it is on sys.path).
  const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
  pyodide.unpackArchive(wheel, "wheel", { extractDir: sitePackages });
  pyodide.pyimport("importlib").invalidate_caches(); // site-packages may be listed already
  progress("engine-import");
  const webapi = pyodide.pyimport("coinche.webapi"); // one proxy, kept for the worker's life
  const handle = (cmd, argsJson) => webapi.handle(cmd, argsJson);
  mark("engine");
  const pong = JSON.parse(handle("ping", "{}"));
  return { handle, version: pong.result.version ?? info.version };
}

async function boot() {
  progress("build-info");
  // build-info.json names the wheel of this build; fetched while the interpreter starts.
  const buildInfo = fetchBuildInfo();
  buildInfo.catch(() => {}); // awaited later; a failure surfaces there
  const saved = await snapshots?.read();
  if (saved) {
    try {
      return await installEngine(await startPython(saved), buildInfo);
    } catch (error) {
      // A snapshot of another build, or broken: forget it and start afresh (a new one is saved).
      timings.snapshotError = messageOf(error);
      await snapshots.drop();
    }
  }
  return installEngine(await startPython(null), buildInfo);
}

function messageOf(error) {
  return error instanceof Error ? error.message : String(error);
}

function asError(error, code) {
  return { code, message: messageOf(error), params: {} };
}

const ready = boot();
ready.then(
  ({ version }) => postMessage({ type: "ready", version, timings }),
  (error) => postMessage({ type: "boot-error", error: asError(error, "boot_failed") }),
);

self.onmessage = async (event) => {
  const { id, cmd, args } = event.data;
  let handle;
  try {
    ({ handle } = await ready);
  } catch (error) {
    postMessage({ id, error: asError(error, "boot_failed") });
    return;
  }
  try {
    const answer = JSON.parse(handle(String(cmd), JSON.stringify(args ?? {})));
    postMessage({ id, ...answer });
  } catch (error) {
    postMessage({ id, error: asError(error, "internal_error") });
  }
};
