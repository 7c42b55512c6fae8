// The page's shared services, for the entry (main.js) and the modules it loads: the engine's worker, the
// app's state, the navigation between screens, the share link of a deal.
//
// The state lives in `app`; <body data-state> and <body data-screen> mirror it for the style sheets and
// the tests, which read them: data-state is "loading", then "ready" once the engine answered, or "error";
// data-screen is "boot", "home", "table" or "online" (the lobby, js/online/online.js).
import { Engine } from "./engine.js";
import { formatShareLink } from "./notation.js";

export const engine = new Engine(); // made on first import: Python starts while the page draws

export const app = {
  state: "loading",
  screen: "boot",
  onScreen: new Set(), // listeners told the screen shown
};

export function setState(state) {
  app.state = state;
  document.body.dataset.state = state;
}

export function show(screen) {
  app.screen = screen;
  document.body.dataset.screen = screen;
  document.querySelector("#home").hidden = screen !== "home";
  document.querySelector("#table").hidden = screen !== "table";
  for (const listener of app.onScreen) listener(screen);
}

// The link that deals again the deal a state plays ({variant, deal_seed, deal: {dealer}}).
export function shareLink(state) {
  // the house rules go with the deal (the engine reads them, or names the option it refuses)
  const rules = state.house_rules?.length ? state.rules : null;
  return formatShareLink({ variant: state.variant, seed: state.deal_seed, dealer: state.deal.dealer, rules }, document.baseURI);
}
