// What the engine offers and reads, as the build wrote it from the engine itself (options.json,
// tools/engine_options.py, coinche.webcommands.options): the variants, the match targets and the bot
// levels the settings offer, their defaults, the house rules' options and presets, and the judge's position
// notation (the cards the trick and the hand hold at most, the longest text read). The page lists none of
// them itself; it has them before its engine is up.
//
//   import { options } from "./options.js";
//   options.variants, options.targets, options.levels   the settings' choices, in the engine's order
//   options.defaults                                   {variant, target, level}
//   options.rules                                      {options: [{name, values, default}], presets}
//   options.position                                   {trick, hand, max_length}
const FORMAT = "coinche-options/1";

async function load() {
  const response = await fetch(new URL("options.json", document.baseURI));
  const file = response.ok ? await response.json() : null;
  if (file?.format !== FORMAT) throw new Error(`options.json: not a ${FORMAT} file (HTTP ${response.status})`);
  return Object.freeze(file);
}

export const options = await load();
