// The dice of a request (`dice`: {seed} | {values} | none) and the dice a result rolled.

import { h } from "./dom.js";

const MAX_SEED = 2 ** 31 - 1;

/** A random seed, as a person would pick one to replay later. */
export function randomSeed() {
  return Math.floor(Math.random() * 1_000_000);
}

/** Choose how to roll: a seed, the table's dice (in the order the rule asks for them), or a
 * fresh seed drawn by the service. `get()` is the `dice` field, or undefined for fresh. */
export function dicePanel() {
  const mode = (value, text, control) => {
    const radio = h("input", { type: "radio", name: "dice-mode", value });
    return { radio, row: h("label", { class: "mode" }, radio, h("span", {}, text), control) };
  };
  const seed = h("input", {
    type: "number", min: 0, max: MAX_SEED, step: 1, id: "seed", "aria-label": "seed",
  });
  const reseed = h("button", { type: "button", class: "reseed", title: "a new random seed",
    "aria-label": "new random seed" }, "↻");
  const values = h("input", {
    type: "text", id: "table-dice", "aria-label": "table dice", placeholder: "e.g. 5, 5, 5, 3",
    inputmode: "numeric",
  });
  const modes = {
    seed: mode("seed", "Seed", h("span", { class: "inline" }, seed, reseed)),
    values: mode("values", "Table dice", values),
    fresh: mode("fresh", "Fresh (the service picks a seed)", null),
  };
  const choose = (name) => { modes[name].radio.checked = true; };
  seed.addEventListener("input", () => choose("seed"));
  values.addEventListener("input", () => choose("values"));
  reseed.addEventListener("click", () => { seed.value = String(randomSeed()); choose("seed"); });

  const element = h("fieldset", { class: "dice" }, h("legend", {}, "Dice"),
    Object.values(modes).map((m) => m.row));
  return {
    element,
    get() {
      if (modes.seed.radio.checked) return { seed: seed.value === "" ? null : Number(seed.value) };
      if (modes.values.radio.checked) return { values: parseValues(values.value) };
      return undefined;
    },
    set(dice) {
      seed.value = String(dice?.seed ?? randomSeed());
      values.value = Array.isArray(dice?.values) ? dice.values.join(", ") : "";
      if (dice && "seed" in dice) choose("seed");
      else if (dice && "values" in dice) choose("values");
      else choose("fresh");
    },
    useSeed(value) {
      seed.value = String(value);
      choose("seed");
    },
  };
}

/** "5, 5 3" → [5, 5, 3]; a token that is not a number is sent as text, for the service to
 * name it in its error. */
export function parseValues(text) {
  return text
    .split(/[\s,;]+/)
    .filter(Boolean)
    .map((word) => (/^-?\d+$/.test(word) ? Number(word) : word));
}

/** The dice a result rolled, in order: "d6: 6 (attacker base) → exploded", an exploding die's
 * extra dice indented under it. */
export function rollList(rolls) {
  const depth = [];
  const exploded = new Set(rolls.map((roll) => roll.exploded_from).filter((i) => i !== null));
  return h("ol", { class: "rolls" }, rolls.map((roll, i) => {
    const parent = roll.exploded_from;
    depth[i] = parent !== null && parent !== undefined && parent < i ? depth[parent] + 1 : 0;
    return h("li", { style: `--depth: ${depth[i]}`, class: depth[i] ? "chained" : null },
      depth[i] ? h("span", { class: "chain", "aria-hidden": "true" }, "↳ ") : null,
      h("span", { class: `die${roll.value === roll.sides ? " max" : ""}` }, `d${roll.sides}`),
      h("b", { class: "face" }, String(roll.value)),
      h("span", { class: "purpose" }, roll.purpose),
      parent !== null && parent !== undefined
        ? h("span", { class: "note" }, `exploded from #${parent + 1}`) : null,
      exploded.has(i) ? h("span", { class: "note boom" }, "→ exploded") : null);
  }));
}
