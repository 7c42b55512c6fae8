// The worker that saves Pyodide's memory snapshot for the next visits: engine.js starts it under the name
// "coinche-engine make-snapshot", the role in which the engine worker's own code boots (engine-worker.js).
// A script of its own, so that the page's workers tell the engine from the snapshot maker by URL.
import "./engine-worker.js";
