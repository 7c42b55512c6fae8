// House rules on the page: the settings' preset and options (all from the engine's `rules_info`, as the build
// wrote it (js/options.js), and `rules_parse`: the page never decides what an option means), the table's "house rules" mark, and the
// deal summary's lines saying which rule gave which points.
import { el } from "../dom.js";
import { t } from "../i18n.js";
import { options } from "../options.js";

// The options a player sets here: the variant and the target have their own settings.
const OWN_SETTINGS = new Set(["variant", "target"]);

const info = options.rules; // the engine's rules_info

// The house-rule options a player sets one by one, in the engine's order: {name, values, default}.
export function houseOptions() {
  return info.options.filter((option) => !OWN_SETTINGS.has(option.name));
}

// The option selects of the settings, made from the engine's list, set to `notation`.
export async function fillHouseRules(form, engine, notation) {
  const presets = form.elements.rules_preset;
  presets.replaceChildren( // the engine's presets, then the page's "one by one" (none of them)
    ...Object.keys(info.presets).map((name) => el("option", { value: name, text: t(`house.preset.${name}`) })),
    el("option", { value: "custom", text: t("house.preset.custom"), disabled: true }));
  const box = form.querySelector("#house-options");
  box.replaceChildren(); // made again each time: in the language chosen now
  for (const option of houseOptions()) {
    const select = el("select", { name: `house_${option.name}`, dataset: { option: option.name } },
      ...option.values.map((value) => el("option", { value, text: t(`house.value.${option.name}.${value}`) })));
    box.append(el("label", "house-option", el("span", { text: t(`house.option.${option.name}`) }), select));
  }
  const chosen = (await engine.call("rules_parse", { text: notation })).options;
  for (const select of box.querySelectorAll("select")) select.value = String(textOf(chosen[select.dataset.option]));
  form.elements.rules_preset.value = presetOf(form);
}

function textOf(value) {
  return value === true ? "yes" : value === false ? "no" : String(value);
}

// The preset the option selects match, or "custom".
function presetOf(form) {
  const notation = optionsText(form);
  for (const [name, preset] of Object.entries(info?.presets ?? {})) {
    const own = preset.options.split(",").filter((item) => item && !OWN_SETTINGS.has(item.split("=")[0])).join(",");
    if (own === notation) return name;
  }
  return "custom";
}

// name=value for every option select that is not at its first value (the game's own).
function optionsText(form) {
  const items = [];
  for (const select of form.querySelectorAll("#house-options select")) {
    if (select.selectedIndex > 0) items.push(`${select.dataset.option}=${select.value}`);
  }
  return items.join(",");
}

// A preset picked: its options in the selects, and its target (null: the target setting stays as it is).
export function applyPreset(form) {
  const preset = info?.presets?.[form.elements.rules_preset.value];
  if (!preset) return null;
  const rules = preset.rules;
  for (const select of form.querySelectorAll("#house-options select")) {
    select.value = textOf(rules[select.dataset.option]);
  }
  return rules.target;
}

// The settings' rules as the engine writes them ("own" for the game's own); an unknown value raises.
export async function readHouseRules(form, engine) {
  form.elements.rules_preset.value = presetOf(form);
  return (await engine.call("rules_parse", { text: optionsText(form) })).notation;
}

// The table's mark: shown whenever the rules are not the game's own, titled with their notation.
export function renderHouseMark(root, state) {
  const mark = root.querySelector("#house-mark");
  if (!mark) return;
  const house = state.house_rules ?? [];
  mark.hidden = house.length === 0;
  mark.title = house.length ? t("house.mark_title", { rules: state.rules }) : "";
}

// The deal summary's lines of a house-rules deal: one per part of the score, with the rule that gave it.
export function partRows(parts, us, row) {
  for (const part of parts ?? []) {
    const name = t(`house.part.${part.key}`);
    const label = part.rule ? t("house.part.by", { part: name, rule: part.rule }) : name;
    const points = (part.points > 0 ? "+" : "") + part.points;
    row(label, part.side === us ? points : "–", part.side === us ? "–" : points, "part");
  }
}
