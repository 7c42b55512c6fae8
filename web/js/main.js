// Boots the engine and shows its progress; the table UI will take over from the "ready" state.
// <body data-state> is "loading", then "ready" once the engine answered ping, or "error".
import { Engine } from "./engine.js";

const STEP_LABELS = {
  "build-info": "Loading the game engine…",
  pyodide: "Starting Python…",
  "engine-download": "Downloading the rules engine…",
  "engine-install": "Installing the rules engine…",
  "engine-import": "Loading the rules engine…",
};

const bar = document.getElementById("boot-progress");
const status = document.getElementById("boot-status");

export const engine = new Engine();

// A download shows its bytes; a step without a size (Python starting) shows an indeterminate bar.
engine.onProgress = ({ step, loaded, total }) => {
  if (total > 0) bar.value = Math.min(loaded / total, 1);
  else bar.removeAttribute("value");
  status.textContent = STEP_LABELS[step] ?? status.textContent;
};

try {
  await engine.ready;
  const { version } = await engine.call("ping");
  bar.value = 1;
  status.textContent = `Engine ready (coinche ${version ?? "dev"}).`;
  document.body.dataset.state = "ready";
} catch (error) {
  status.textContent = `${error.message} Reload the page to try again.`;
  document.body.dataset.state = "error";
  document.body.dataset.errorCode = error.code ?? "unknown";
}
