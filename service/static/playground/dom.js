// Building DOM nodes without a framework.

/** An element: `h("p", {class: "x"}, "text", child)`. Attributes set to null or false are
 * left out; `on*` functions become listeners. */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  setAttributes(element, attributes);
  element.append(...children.flat().filter((child) => child !== null && child !== undefined));
  return element;
}

/** An SVG element, as `h` makes HTML ones. */
export function svg(tag, attributes = {}, ...children) {
  const element = document.createElementNS("http://www.w3.org/2000/svg", tag);
  setAttributes(element, attributes);
  element.append(...children.flat().filter((child) => child !== null && child !== undefined));
  return element;
}

function setAttributes(element, attributes) {
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      element.addEventListener(name.slice(2), value);
    } else {
      element.setAttribute(name, value === true ? "" : String(value));
    }
  }
}

let counter = 0;

/** A fresh id for an element a label points to. */
export function uid(prefix = "f") {
  counter += 1;
  return `${prefix}-${counter}`;
}

/** JSON text shortened for a one-line hint. */
export function brief(value, limit = 48) {
  const text = JSON.stringify(value);
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

/** A name as people read it: `ability_bonuses` → `Ability bonuses`. */
export function humanise(name) {
  const words = String(name).replaceAll(/[_-]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
