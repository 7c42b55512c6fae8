// A second engine worker for the review, on a device with more than one core: the review's decisions are
// independent of one another, so the table's engine and this one each take the next decision when free, and
// every seat's review of a deal takes about two thirds of the time, the helper's start included
// (docs/performance.md). Each Pyodide holds its own memory,
// so the helper starts only when a review does, and stops once no review has used it for IDLE_MS.
//
//   const ready = borrowHelper();   // null: no helper here (one core, or it failed before)
//   const engine = await ready;     // null if it could not start: the review goes on with the table's engine
//   ...                             // engine.call("review_decision", ...)
//   returnHelper();                 // once per borrowHelper() that did not return null
//
// A helper that fails to start or stops answering is not started again for this visit: the review goes on
// without it and loses nothing (review.js asks the table's engine for the decision in hand).
import { Engine } from "../engine.js";

const IDLE_MS = 60_000;

let helper = null; // {engine, ready: a promise of the engine once ready, or null}
let broken = false;
let allowed = true;
let users = 0;
let idleTimer = null;

function cores() {
  return globalThis.navigator?.hardwareConcurrency ?? 1;
}

export function borrowHelper() {
  if (broken || !allowed || cores() < 2) return null;
  clearTimeout(idleTimer);
  users += 1;
  if (!helper) {
    const engine = new Engine();
    engine.onCrash = () => giveUp(engine);
    const ready = engine.ready.then(() => engine, (error) => {
      if (helper?.engine === engine) console.warn("review helper:", error); // else stopped on purpose
      giveUp(engine);
      return null;
    });
    helper = { engine, ready };
  }
  return helper.ready;
}

export function returnHelper() {
  users = Math.max(0, users - 1);
  if (users === 0) {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(stopHelper, IDLE_MS);
  }
}

// The helper did not answer (a crash, a failed boot, an error): stopped, and not started again for this visit
// (unless it was stopped on purpose meanwhile).
export function giveUp(engine) {
  if (helper?.engine !== engine) return;
  broken = true;
  stopHelper();
}

// Stop the helper now (its memory is freed); the next review starts a new one.
export function stopHelper() {
  clearTimeout(idleTimer);
  const engine = helper?.engine;
  helper = null;
  engine?.terminate();
}

// For the tests and the bench: the helper's engine if one is started, and whether helpers are used here.
export function helperState() {
  return { engine: helper?.engine ?? null, broken, allowed, cores: cores() };
}

// For the bench: reviews without the helper (false) or with it again (true).
export function allowHelper(allow) {
  allowed = Boolean(allow);
  if (!allowed) stopHelper();
}
