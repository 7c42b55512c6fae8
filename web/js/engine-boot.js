// Run from index.html's head, before anything else: the engine's worker starts with the page's first bytes
// (js/engine.js adopts it when main.js makes the page's Engine).
import { startEngineEarly } from "./engine.js";

startEngineEarly();
performance.mark("engine-boot");
