// Reading JSON Schema: references, unions, kinds, the value a fresh field starts with and
// whether a value fits a schema (to pick the variant of a union a value belongs to).

const MAX_DEPTH = 24;

/** The node a `$ref` points to (within `root`), with the referring node's own keywords. */
export function resolve(root, node) {
  for (let hops = 0; node && node.$ref && hops < MAX_DEPTH; hops++) {
    const { $ref, ...rest } = node;
    node = { ...pointerGet(root, $ref.replace(/^#/, "")), ...rest };
  }
  return node ?? {};
}

/** The value at a JSON pointer, or undefined. */
export function pointerGet(doc, pointer) {
  let node = doc;
  for (const token of pointer.split("/").slice(1)) {
    if (node === null || typeof node !== "object") return undefined;
    node = node[token.replaceAll("~1", "/").replaceAll("~0", "~")];
  }
  return node;
}

/** A JSON pointer token for a property name or index. */
export function token(key) {
  return String(key).replaceAll("~", "~0").replaceAll("/", "~1");
}

/** The alternatives of a union (`anyOf`, `oneOf`, or a list of types), resolved; else null. */
export function variants(root, node) {
  const alternatives = node.anyOf ?? node.oneOf;
  if (alternatives) return alternatives.map((alt) => resolve(root, alt));
  if (Array.isArray(node.type)) return node.type.map((type) => ({ ...node, type }));
  return null;
}

export function isNull(node) {
  return node.type === "null";
}

/** The JSON type a node describes, inferred when `type` is left out. */
export function kind(node) {
  if (typeof node.type === "string") return node.type;
  if (node.properties) return "object";
  if (node.items) return "array";
  return undefined;
}

/** The value a field starts with: its default, its example, else the least valid value. */
export function initial(root, raw, depth = 0) {
  const node = resolve(root, raw);
  if ("default" in node) return structuredClone(node.default);
  if ("const" in node) return node.const;
  if (node.examples?.length) return structuredClone(node.examples[0]);
  if (depth > MAX_DEPTH) return null;
  const alternatives = variants(root, node);
  if (alternatives) {
    if (alternatives.some(isNull)) return null;
    return initial(root, alternatives[0], depth + 1);
  }
  if (node.enum) return node.enum[0];
  switch (kind(node)) {
    case "object":
      return Object.fromEntries(
        (node.required ?? []).map((key) => [
          key,
          initial(root, node.properties?.[key] ?? {}, depth + 1),
        ]),
      );
    case "array":
      return Array.from({ length: node.minItems ?? 0 }, () =>
        initial(root, node.items ?? {}, depth + 1),
      );
    case "integer":
    case "number":
      return leastNumber(node);
    case "string":
      return "";
    case "boolean":
      return false;
    default:
      return null;
  }
}

function leastNumber(node) {
  let low = node.minimum ?? -Infinity;
  if (node.exclusiveMinimum !== undefined) {
    low = node.exclusiveMinimum + (kind(node) === "integer" ? 1 : (node.multipleOf ?? 0.5));
  }
  const high = node.maximum ?? node.exclusiveMaximum ?? Infinity;
  return Math.min(Math.max(0, low), high);
}

/** Whether `value` fits the schema well enough to choose this variant of a union. */
export function fits(root, raw, value, depth = 0) {
  const node = resolve(root, raw);
  if (depth > MAX_DEPTH) return true;
  const alternatives = variants(root, node);
  if (alternatives) return alternatives.some((alt) => fits(root, alt, value, depth + 1));
  if ("const" in node) return equal(node.const, value);
  if (node.enum) return node.enum.some((option) => equal(option, value));
  switch (kind(node)) {
    case "null":
      return value === null;
    case "boolean":
      return typeof value === "boolean";
    case "integer":
      return Number.isInteger(value);
    case "number":
      return typeof value === "number";
    case "string":
      return typeof value === "string";
    case "array":
      return Array.isArray(value) && value.every((v) => fits(root, node.items ?? {}, v, depth + 1));
    case "object":
      return isObject(value) && objectFits(root, node, value, depth);
    default:
      return true;
  }
}

function objectFits(root, node, value, depth) {
  const properties = node.properties ?? {};
  if ((node.required ?? []).some((key) => !(key in value))) return false;
  return Object.entries(value).every(([key, v]) =>
    key in properties
      ? fits(root, properties[key], v, depth + 1)
      : node.additionalProperties !== false,
  );
}

export function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Deep equality of JSON values (key order ignored). */
export function equal(a, b) {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => equal(v, b[i]))
    );
  }
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && equal(a[k], b[k]));
  }
  return false;
}
