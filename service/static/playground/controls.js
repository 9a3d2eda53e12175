// The controls of single values: numbers, text, booleans, enums, constants, and raw JSON for
// what the form cannot draw. Each is {element, id, get(), set(value), locate()}.

import { h, uid } from "./dom.js";
import { equal, kind } from "./schema.js";

function control(element, read, write) {
  return { element, id: element.id, get: read, set: write, locate: () => null };
}

export function numberWidget(node, label) {
  const integer = kind(node) === "integer";
  const input = h("input", {
    type: "number",
    id: uid(),
    "aria-label": label,
    min: node.minimum ?? node.exclusiveMinimum,
    max: node.maximum ?? node.exclusiveMaximum,
    step: node.multipleOf ?? (integer ? 1 : "any"),
  });
  return control(
    input,
    () => (input.value === "" ? null : Number(input.value)),
    (value) => { input.value = value === null || value === undefined ? "" : String(value); },
  );
}

export function stringWidget(node, label) {
  const long = (node.maxLength ?? 0) > 160;
  const input = h(long ? "textarea" : "input", {
    type: long ? null : "text",
    id: uid(),
    "aria-label": label,
    maxlength: node.maxLength,
    rows: long ? 3 : null,
    placeholder: node.pattern ? `pattern ${node.pattern}` : null,
    title: node.pattern ? `pattern ${node.pattern}` : null,
  });
  return control(
    input,
    () => input.value,
    (value) => { input.value = value === null || value === undefined ? "" : String(value); },
  );
}

export function booleanWidget(label) {
  const input = h("input", { type: "checkbox", id: uid(), "aria-label": label });
  return control(input, () => input.checked, (value) => { input.checked = value === true; });
}

export function enumWidget(values, label) {
  const select = h("select", { id: uid(), "aria-label": label },
    values.map((value, i) => h("option", { value: i }, optionName(value))));
  let extra = null;
  return control(
    select,
    () => (extra ? extra.value : values[Number(select.value)]),
    (value) => {
      const index = values.findIndex((option) => equal(option, value));
      extra?.option.remove();
      extra = null;
      if (index >= 0) {
        select.value = String(index);
      } else {
        // A value outside the enum (from raw JSON) stays, for the service to name the error.
        const option = h("option", { value: "extra" }, `${optionName(value)} (not allowed)`);
        select.append(option);
        select.value = "extra";
        extra = { option, value };
      }
    },
  );
}

function optionName(value) {
  return typeof value === "string" ? value : JSON.stringify(value);
}

export function constWidget(value) {
  return {
    element: h("code", { class: "const" }, JSON.stringify(value)),
    id: null,
    get: () => value,
    set() {},
    locate: () => null,
  };
}

/** Any JSON, for a schema the form cannot draw (a map, a tuple, a schema without a type). */
export function jsonWidget(label) {
  const area = h("textarea", { id: uid(), class: "json", rows: 3, "aria-label": `${label} (JSON)` });
  return control(
    area,
    () => {
      try {
        return JSON.parse(area.value);
      } catch {
        throw new Error(`${label}: not valid JSON`);
      }
    },
    (value) => { area.value = JSON.stringify(value ?? null, null, 1); },
  );
}
