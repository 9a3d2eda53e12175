// A request form built from a JSON Schema, with no code for any one operation.
//
// Each widget is {element, id, get(), set(value), locate(tokens)}: `id` is the control a label
// names (none for groups), `locate` finds the element of a JSON pointer's tokens (to show an
// error beside it). An optional field has a "send" box: left unticked it is not sent, so the
// service applies its default; editing the field ticks it.

import {
  booleanWidget, constWidget, enumWidget, jsonWidget, numberWidget, stringWidget,
} from "./controls.js";
import { brief, h, humanise, uid } from "./dom.js";
import { equal, fits, initial, isNull, kind, resolve, variants } from "./schema.js";

const MAX_DEPTH = 16;

/** The form of an object schema, leaving out the properties named in `omit`. */
export function buildForm(schema, { omit = [] } = {}) {
  const root = schema;
  const properties = Object.fromEntries(
    Object.entries(schema.properties ?? {}).filter(([key]) => !omit.includes(key)),
  );
  return objectWidget({ root }, { ...schema, properties }, "request", 0);
}

function build(ctx, raw, label, depth) {
  const node = resolve(ctx.root, raw);
  if (depth > MAX_DEPTH) return jsonWidget(label);
  const alternatives = variants(ctx.root, node);
  if (alternatives) return unionWidget(ctx, alternatives, label, depth);
  if ("const" in node) return constWidget(node.const);
  if (node.enum) return enumWidget(node.enum, label);
  switch (kind(node)) {
    case "object":
      return node.properties ? objectWidget(ctx, node, label, depth) : jsonWidget(label);
    case "array":
      // A tuple (items as a list, or prefixItems) is edited as JSON.
      return Array.isArray(node.items) || node.prefixItems
        ? jsonWidget(label)
        : arrayWidget(ctx, node, label, depth);
    case "integer":
    case "number":
      return numberWidget(node, label);
    case "string":
      return stringWidget(node, label);
    case "boolean":
      return booleanWidget(label);
    case "null":
      return constWidget(null);
    default:
      return jsonWidget(label);
  }
}

// Objects: one field per property.

function objectWidget(ctx, node, label, depth) {
  const required = new Set(node.required ?? []);
  // What must be given comes first; what has a default follows, in the schema's order.
  const keys = Object.keys(node.properties);
  const order = [...keys.filter((k) => required.has(k)), ...keys.filter((k) => !required.has(k))];
  const fields = order.map((key) => field(ctx, key, node.properties[key], required.has(key), depth));
  const element = h("div", { class: "object" }, fields.map((f) => f.row));
  return {
    element,
    id: null,
    get() {
      const value = {};
      for (const f of fields) {
        const got = f.get();
        if (got !== undefined) value[f.key] = got;
      }
      return value;
    },
    // `shown` is a default being shown, not a value given: a property it holds is sent
    // only where it differs from the property's own default.
    set(value, shown = false) {
      const given = value !== null && typeof value === "object" ? value : {};
      for (const f of fields) {
        const present = Object.hasOwn(given, f.key) && !(shown && f.isDefault(given[f.key]));
        f.set(given, present, shown);
      }
    },
    locate([first, ...rest]) {
      const found = fields.find((f) => f.key === first);
      return found ? found.locate(rest) : null;
    },
  };
}

/** One property: its label, send box, control, default, ambiguity id and description. */
function field(ctx, key, raw, required, depth) {
  const node = resolve(ctx.root, raw);
  // A referenced model's title names its class, not this property.
  const title = raw.title ?? humanise(key);
  const widget = build(ctx, raw, title, depth + 1);
  const group = !widget.id;
  const inline = widget.element.type === "checkbox";
  let sent = required;
  const send = required
    ? null
    : h("input", { type: "checkbox", class: "send", "aria-label": `send ${key}`, title: "send" });
  const name = group
    ? h("span", { class: "name" }, title)
    : h("label", { class: "name", for: widget.id }, title);
  const named = title.toLowerCase() === humanise(key).toLowerCase();
  const header = [send, name, inline ? widget.element : null,
    named ? null : h("code", { class: "key" }, key), meta(node)];
  const help = node.description
    ? h("p", { class: "help", title: node.description }, node.description)
    : null;
  const row = group
    ? h("details", { class: "field group" }, h("summary", {}, header), help, widget.element)
    : h("div", { class: "field" }, h("div", { class: "head" }, header),
      inline ? null : widget.element, help);
  row.dataset.key = key;

  const show = () => {
    if (send) send.checked = sent;
    row.classList.toggle("unsent", !sent);
    if (group && sent) row.open = true;
  };
  const onEdit = (event) => {
    if (event.target === send) {
      sent = send.checked;
      show();
    } else if (!(event.target.classList.contains("send") && !event.target.checked) && !sent) {
      sent = true;
      show();
    }
  };
  row.addEventListener("input", onEdit);
  row.addEventListener("change", onEdit);

  return {
    key,
    row,
    get: () => (sent ? widget.get() : undefined),
    isDefault: (value) => equal(value, initial(ctx.root, raw)),
    set(parent, present, shown = false) {
      sent = required || present;
      const value = Object.hasOwn(parent, key) ? parent[key] : initial(ctx.root, raw);
      widget.set(value, shown || !present);
      if (group) row.open = required || present;
      show();
    },
    locate: (rest) => (rest.length ? (widget.locate(rest) ?? row) : row),
  };
}

function meta(node) {
  const parts = [];
  if (node["x-ambiguity"]) {
    parts.push(h("span", { class: "ambiguity", title: "the ambiguity this option answers" },
      node["x-ambiguity"]));
  }
  if ("default" in node && !(node.default !== null && typeof node.default === "object"
      && Object.keys(node.default).length)) {
    parts.push(h("span", { class: "default" }, `default ${brief(node.default, 32)}`));
  }
  return parts.length ? h("span", { class: "meta" }, parts) : null;
}

// Unions: a nullable value, or a choice among variants.

function unionWidget(ctx, alternatives, label, depth) {
  const nullable = alternatives.some(isNull);
  const real = alternatives.filter((alt) => !isNull(alt));
  if (real.length === 1) {
    const only = real[0];
    if (only.enum) return enumWidget(nullable ? [...only.enum, null] : only.enum, label);
    if (kind(only) === "boolean") {
      return enumWidget(nullable ? [true, false, null] : [true, false], label);
    }
    const inner = build(ctx, only, label, depth + 1);
    return nullable ? nullableWidget(ctx, inner, only, label) : inner;
  }
  return choiceWidget(ctx, alternatives, label, depth);
}

/** A value or null: a "null" box beside the control; editing the control unticks it. */
function nullableWidget(ctx, inner, node, label) {
  const box = h("input", { type: "checkbox", class: "null", "aria-label": `${label} is null` });
  const element = h("div", { class: "nullable" },
    h("label", { class: "null-label" }, box, "null"), inner.element);
  const show = () => element.classList.toggle("is-null", box.checked);
  inner.element.addEventListener("input", () => { box.checked = false; show(); });
  inner.element.addEventListener("change", () => { box.checked = false; show(); });
  box.addEventListener("change", show);
  return {
    element,
    id: inner.id,
    get: () => (box.checked ? null : inner.get()),
    set(value, shown = false) {
      box.checked = value === null;
      inner.set(value === null ? initial(ctx.root, node) : value, shown);
      show();
    },
    locate: (tokens) => inner.locate(tokens),
  };
}

/** One of several variants: a select picks the variant, whose own control follows. */
function choiceWidget(ctx, alternatives, label, depth) {
  const select = h("select", { id: uid(), "aria-label": `${label}: variant` },
    alternatives.map((alt, i) => h("option", { value: i }, variantName(alt, i))));
  const body = h("div", { class: "variant" });
  let inner = null;
  const use = (index, value, shown = false) => {
    select.value = String(index);
    inner = build(ctx, alternatives[index], label, depth + 1);
    inner.set(value === undefined ? initial(ctx.root, alternatives[index]) : value, shown);
    body.replaceChildren(inner.element);
  };
  select.addEventListener("change", () => use(Number(select.value)));
  use(0);
  return {
    element: h("div", { class: "choice" }, select, body),
    id: select.id,
    get: () => inner.get(),
    set(value, shown = false) {
      const index = alternatives.findIndex((alt) => fits(ctx.root, alt, value));
      use(index < 0 ? 0 : index, value, shown);
    },
    locate: (tokens) => inner.locate(tokens),
  };
}

function variantName(node, index) {
  if (node.title) return node.title;
  if ("const" in node) return JSON.stringify(node.const);
  const constant = Object.entries(node.properties ?? {}).find(([, p]) => "const" in p);
  if (constant) return `${constant[0]}: ${JSON.stringify(constant[1].const)}`;
  return kind(node) ?? `variant ${index + 1}`;
}

// Arrays: items added and removed up to the schema's bounds.

function arrayWidget(ctx, node, label, depth) {
  const itemSchema = node.items ?? {};
  const min = node.minItems ?? 0;
  const max = node.maxItems ?? Infinity;
  const list = h("ol", { class: "items" });
  const add = h("button", { type: "button", class: "add" }, "+ add");
  const element = h("div", { class: "array" }, list, add);
  let items = [];

  const refresh = () => {
    add.disabled = items.length >= max;
    items.forEach((item, i) => {
      item.remove.disabled = items.length <= min;
      item.remove.setAttribute("aria-label", `remove ${label} item ${i + 1}`);
    });
  };
  const append = (value, shown = false) => {
    const widget = build(ctx, itemSchema, `${label} item ${items.length + 1}`, depth + 1);
    widget.set(value, shown);
    const remove = h("button", { type: "button", class: "remove", title: "remove" }, "×");
    const li = h("li", {}, widget.element, remove);
    const item = { widget, li, remove };
    remove.addEventListener("click", () => {
      items = items.filter((other) => other !== item);
      li.remove();
      refresh();
      element.dispatchEvent(new Event("change", { bubbles: true }));
    });
    items.push(item);
    list.append(li);
  };
  add.addEventListener("click", () => {
    append(initial(ctx.root, itemSchema));
    refresh();
    element.dispatchEvent(new Event("change", { bubbles: true }));
  });
  return {
    element,
    id: null,
    get: () => items.map((item) => item.widget.get()),
    set(value, shown = false) {
      items = [];
      list.replaceChildren();
      for (const v of Array.isArray(value) ? value : []) append(v, shown);
      refresh();
    },
    locate([first, ...rest]) {
      const item = items[Number(first)];
      if (!item) return null;
      return rest.length ? (item.widget.locate(rest) ?? item.li) : item.li;
    },
  };
}
