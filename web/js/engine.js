// The page's side of the engine worker (see engine-worker.js for the message protocol).
//
//   const engine = new Engine();
//   engine.onProgress = ({step, loaded, total}) => ...;
//   await engine.ready;                       // rejects with an EngineError if the boot fails or times out
//   const result = await engine.call("ping"); // rejects with an EngineError {code, message, params}
//
// A worker that dies once ready (an uncaught error, out of memory) rejects the calls in flight with
// "worker_crashed" and calls engine.onCrash(error); engine.restart() then starts a new worker (a new
// `ready`), into which the page loads its saved match again. Without onCrash the engine stays stopped.
//
// From the page's first bytes: index.html's head runs js/engine-boot.js, so that Python starts before the
// page's own modules have loaded; the first `new Engine()` with the default options adopts that worker. After a boot that found no memory snapshot of this build, a second worker
// makes one a little later (engine.snapshotSaved resolves with its outcome), for the next visits.

export class EngineError extends Error {
  constructor({ code, message, params = {} }) {
    super(message);
    this.name = "EngineError";
    this.code = code;
    this.params = params;
  }
}

const DEFAULT_WORKER_URL = new URL("./engine-worker.js", import.meta.url);
const SNAPSHOT_WORKER_URL = new URL("./snapshot-worker.js", import.meta.url);
const WORKER_NAME = "coinche-engine"; // then options, see engine-worker.js
const SNAPSHOT_TIMEOUT_MS = 120_000;

const SNAPSHOT_SAVED_KEY = "coinche.snapshot-saved"; // in localStorage: "1" once a snapshot was saved
let snapshotMaker = null; // the outcome of this page's snapshot worker, once started

function snapshotSavedBefore() {
  try {
    return localStorage.getItem(SNAPSHOT_SAVED_KEY) === "1";
  } catch {
    return true; // storage blocked: look for a snapshot anyway
  }
}

function rememberSnapshotSaved() {
  try {
    localStorage.setItem(SNAPSHOT_SAVED_KEY, "1");
  } catch {
    // storage blocked: the next visit looks anyway
  }
}

// The worker js/engine-boot.js started from the page's head (once): {worker, held: the events it sent meanwhile}.
function adoptEarly() {
  const early = globalThis.coincheEarlyEngine ?? null;
  delete globalThis.coincheEarlyEngine;
  return early;
}

// A worker that saves a memory snapshot of Python with the engine imported, then ends; its last message.
function makeSnapshot() {
  return new Promise((resolve) => {
    const maker = new Worker(SNAPSHOT_WORKER_URL, { type: "module", name: `${WORKER_NAME} make-snapshot` });
    const done = (outcome) => {
      clearTimeout(timer);
      maker.terminate();
      resolve(outcome);
    };
    const timer = setTimeout(() => done({ type: "snapshot-error", error: { code: "snapshot_timeout" } }), SNAPSHOT_TIMEOUT_MS);
    maker.onmessage = ({ data }) => {
      if (data.type === "snapshot-saved") rememberSnapshotSaved();
      if (data.type === "snapshot-saved" || data.type === "snapshot-error") done(data);
    };
    maker.onerror = (event) => {
      event.preventDefault();
      done({ type: "snapshot-error", error: { code: "worker_error", message: event.message } });
    };
  });
}

export class Engine {
  #worker;
  #pending = new Map();
  #nextId = 1;
  #settleReady;
  #failure = null;
  #isReady = false;
  #options;

  // bootTimeoutMs: how long the interpreter, the engine and their downloads may take before `ready`
  // rejects with code "boot_timeout" (a wrong MIME type for the .wasm makes Pyodide hang forever).
  // snapshot: false starts Python afresh, without saving or restoring a memory snapshot.
  // snapshotDelayMs: how long after a boot without snapshot the snapshot worker starts (not while the page
  // draws its first screen).
  constructor({ workerURL = DEFAULT_WORKER_URL, bootTimeoutMs = 120_000, snapshot = true, snapshotDelayMs = 1000 } = {}) {
    this.onProgress = null;
    this.onCrash = null;
    this.version = null;
    this.timings = null;
    this.snapshotSaved = null; // a promise of the snapshot worker's last message, once one is started
    this.#options = { workerURL, bootTimeoutMs, snapshot, snapshotDelayMs };
    this.#boot();
  }

  // A new worker; `ready` settles when it answers or fails.
  #boot() {
    const { workerURL, bootTimeoutMs, snapshot } = this.#options;
    this.#isReady = false;
    this.#failure = null;
    this.ready = new Promise((resolve, reject) => {
      this.#settleReady = { resolve, reject };
    });
    const timer = setTimeout(() => {
      this.#fail({
        code: "boot_timeout",
        message: `The game engine did not start within ${Math.round(bootTimeoutMs / 1000)} s.`,
        params: { timeoutMs: bootTimeoutMs },
      });
    }, bootTimeoutMs);
    this.ready.then(
      () => clearTimeout(timer),
      () => clearTimeout(timer),
    );
    const adopted = snapshot && workerURL.href === DEFAULT_WORKER_URL.href ? adoptEarly() : null;
    const name = !snapshot ? `${WORKER_NAME} no-snapshot` : snapshotSavedBefore() ? WORKER_NAME : `${WORKER_NAME} fresh`;
    this.#worker = adopted?.worker ?? new Worker(workerURL, { type: "module", name });
    this.#worker.onmessage = (event) => this.#receive(event.data);
    this.#worker.onerror = (event) => {
      event.preventDefault();
      if (this.#isReady) {
        this.#crash(event.message || "worker script error");
        return;
      }
      this.#fail({
        code: "worker_error",
        message: `The game engine failed to load: ${event.message || "worker script error"}`,
        params: { filename: event.filename ?? null, lineno: event.lineno ?? null },
      });
    };
    for (const event of adopted?.held ?? []) {
      if (event.type === "error") this.#worker?.onerror(event);
      else this.#worker?.onmessage(event);
    }
  }

  // The boot found no snapshot of this build: one is made a little later, once per page.
  #scheduleSnapshot() {
    const { snapshotDelayMs } = this.#options;
    snapshotMaker ??= new Promise((resolve) => setTimeout(resolve, snapshotDelayMs)).then(makeSnapshot);
    this.snapshotSaved = snapshotMaker;
  }

  // Run engine command `cmd` with the JSON object `args`; resolves with its result.
  call(cmd, args = {}) {
    if (!this.#worker) return Promise.reject(new EngineError(this.#failure));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ id, cmd, args });
    });
  }

  terminate() {
    this.#fail({ code: "terminated", message: "The game engine was stopped.", params: {} });
  }

  // Stop whatever worker there is and start a new one; resolves when it is ready.
  restart() {
    if (this.#worker) this.#fail({ code: "restarted", message: "The game engine was restarted.", params: {} });
    this.#boot();
    return this.ready;
  }

  // The ready worker died: stop it, reject what it had in hand, tell the page.
  #crash(detail) {
    const error = { code: "worker_crashed", message: `The game engine stopped: ${detail}`, params: {} };
    this.#fail(error);
    this.onCrash?.(new EngineError(error));
  }

  #receive(message) {
    if (message.type === "progress") {
      this.onProgress?.(message);
    } else if (message.type === "ready") {
      performance.mark("engine-worker-ready", { detail: message.timings }); // read by bench/web_boot_bench.py
      this.#isReady = true;
      this.version = message.version;
      this.timings = message.timings;
      this.#settleReady.resolve();
      if (message.timings?.snapshot === "missing") this.#scheduleSnapshot();
    } else if (message.type === "boot-error") {
      this.#fail(message.error);
    } else if (this.#pending.has(message.id)) {
      const { resolve, reject } = this.#pending.get(message.id);
      this.#pending.delete(message.id);
      if ("error" in message) reject(new EngineError(message.error));
      else resolve(message.result);
    }
  }

  // Stop the worker and reject `ready` and every pending call with the same error.
  #fail(error) {
    if (!this.#worker) return;
    this.#worker.terminate();
    this.#worker = null;
    this.#failure = error;
    this.#settleReady.reject(new EngineError(error));
    for (const { reject } of this.#pending.values()) reject(new EngineError(error));
    this.#pending.clear();
  }
}
