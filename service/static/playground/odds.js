// The exact odds of an operation: one SVG bar chart per distribution (a list of
// {outcome, exact, float} at any depth), the events ({exact, float}) as a table, and the
// outcome a roll came up with marked (from the result's `outcome_odds`).

import { h, svg } from "./dom.js";

const ENVELOPE = new Set(["rules_version", "options_applied", "truncation"]);
const MAX_DEPTH = 8;

/** Every distribution and event of an odds document, with its JSON pointer. */
export function findOdds(node, pointer = "", depth = 0, found = { charts: [], events: [] }) {
  if (depth > MAX_DEPTH || node === null || typeof node !== "object") return found;
  const entries = Array.isArray(node) ? node.entries() : Object.entries(node);
  for (const [key, value] of entries) {
    if (!Array.isArray(node) && depth === 0 && ENVELOPE.has(key)) continue;
    const here = `${pointer}/${String(key).replaceAll("~", "~0").replaceAll("/", "~1")}`;
    if (isDistribution(value)) found.charts.push({ pointer: here, rows: value });
    else if (isEvent(value)) found.events.push({ pointer: here, value });
    else findOdds(value, here, depth + 1, found);
  }
  return found;
}

function isDistribution(value) {
  return Array.isArray(value) && value.length > 0
    && value.every((row) => row && typeof row === "object" && "outcome" in row && "exact" in row);
}

function isEvent(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    && Object.keys(value).length === 2 && "exact" in value && "float" in value;
}

/** A probability as a percentage, with as many digits as a small one needs. */
export function percent(p) {
  const x = p * 100;
  if (x === 0) return "0%";
  // Near certain: 99.976%, not 100.0%.
  if (x > 99.95 && x < 100) return `${x.toFixed(Math.min(8, 1 - Math.floor(Math.log10(100 - x))))}%`;
  if (x >= 1 || x <= -1) return `${x.toFixed(1)}%`;
  if (Math.abs(x) >= 0.01) return `${x.toPrecision(2)}%`;
  return `${x.toExponential(1)}%`;
}

/** Events whose names say they are expectations (mean_*, expected_*) are numbers, not odds. */
function isExpectation(pointer) {
  return /(^|_)(mean|expected|average)/.test(pointer.split("/").pop());
}

/** The odds panel: charts, events, truncation, each rolled outcome marked. */
export function oddsView(odds, rolled = []) {
  const { charts, events } = findOdds(odds);
  const marks = new Map(rolled.map((r) => [r.distribution, r]));
  const parts = charts.map((chart) => chartView(chart, marks.get(chart.pointer)));
  if (events.length) parts.push(eventsView(events, marks));
  if (odds.truncation) parts.push(truncationView(odds.truncation));
  if (!parts.length) parts.push(h("p", { class: "muted" }, "These odds hold no distribution."));
  return h("div", { class: "odds" }, parts);
}

function title(pointer) {
  const name = pointer.split("/").filter(Boolean)
    .map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~")).join(" › ");
  return [h("span", { class: "title" }, name.replaceAll("_", " ")),
    h("code", { class: "pointer" }, pointer)];
}

function chartView({ pointer, rows }, mark) {
  const rolledIndex = mark ? rows.findIndex((row) => String(row.outcome) === mark.outcome) : -1;
  const figure = h("figure", { class: "chart", "data-pointer": pointer },
    h("figcaption", {}, title(pointer)),
    rows.length > 10 ? columns(rows, rolledIndex) : bars(rows, rolledIndex));
  if (rolledIndex >= 0) figure.append(shot(mark, "p"));
  return figure;
}

/** "Rolled 13: a 3.5% shot (at least this well: 23.1%)". */
export function shot(mark, tag = "span") {
  const atLeast = mark.at_least ? ` (at least this well: ${percent(mark.at_least.float)})` : "";
  return h(tag, { class: "shot", title: `exactly ${mark.probability.exact}` },
    "Rolled ", h("b", {}, String(mark.outcome)), `: that was a ${percent(mark.probability.float)}`
    + ` shot${atLeast}.`);
}

const BAR = { row: 24, label: 190, width: 600, gap: 6, right: 115 };

/** Horizontal bars, for a few outcomes whose names may be long. */
function bars(rows, rolledIndex) {
  const top = Math.max(...rows.map((r) => r.float), 1e-12);
  const span = BAR.width - BAR.label - BAR.right;
  const height = rows.length * BAR.row + 4;
  const chart = svg("svg", { viewBox: `0 0 ${BAR.width} ${height}`, width: BAR.width, height,
    role: "img", "aria-label": describe(rows) });
  rows.forEach((row, i) => {
    const y = i * BAR.row + 2;
    const w = Math.max(1, (row.float / top) * span);
    const rolled = i === rolledIndex;
    chart.append(svg("g", { class: `bar${rolled ? " rolled" : ""}`, "data-outcome": row.outcome },
      svg("title", {}, `${row.outcome}: ${row.exact} ≈ ${percent(row.float)}`),
      svg("text", { x: BAR.label - 8, y: y + BAR.row / 2, class: "label", "text-anchor": "end",
        "dominant-baseline": "middle" }, clip(String(row.outcome), 28)),
      svg("rect", { x: BAR.label, y: y + 3, width: w, height: BAR.row - BAR.gap, rx: 2 }),
      svg("text", { x: BAR.label + w + 6, y: y + BAR.row / 2, class: "value",
        "dominant-baseline": "middle" }, percent(row.float) + (rolled ? "  ◀ rolled" : ""))));
  });
  return chart;
}

const COL = { slot: 30, min: 14, budget: 580, height: 150, top: 30, char: 6.6 };

/** Columns, for many outcomes (a total, a degree): labels turned when they do not fit. */
function columns(rows, rolledIndex) {
  const top = Math.max(...rows.map((r) => r.float), 1e-12);
  // As wide as fits the panel, down to a least width (the chart scrolls past that).
  const slot = Math.max(COL.min, Math.min(COL.slot, Math.floor(COL.budget / rows.length)));
  const labels = rows.map((row) => clip(String(row.outcome), 12));
  const longest = Math.max(...labels.map((label) => label.length)) * COL.char;
  const turned = longest > slot - 4;
  // A turned label reaches down and to the left of its column.
  const left = turned ? 8 + longest * Math.cos(Math.PI / 3) : 8;
  const width = Math.max(300, left + 8 + rows.length * slot);
  const base = COL.top + COL.height;
  const height = base + (turned ? longest * Math.sin(Math.PI / 3) + 16 : 22);
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, width, height, role: "img",
    "aria-label": describe(rows) });
  chart.append(svg("line", { x1: left, x2: width - 8, y1: base, y2: base, class: "axis" }));
  rows.forEach((row, i) => {
    const x = left + i * slot;
    const cx = x + slot / 2;
    const barHeight = Math.max(1, (row.float / top) * COL.height);
    const rolled = i === rolledIndex;
    const label = turned
      ? { x: cx + 3, y: base + 8, "text-anchor": "end", transform: `rotate(-60 ${cx + 3} ${base + 8})` }
      : { x: cx, y: base + 14, "text-anchor": "middle" };
    const group = svg("g", { class: `bar${rolled ? " rolled" : ""}`, "data-outcome": row.outcome },
      svg("title", {}, `${row.outcome}: ${row.exact} ≈ ${percent(row.float)}`),
      svg("rect", { x: x + 2, y: base - barHeight, width: slot - 4, height: barHeight, rx: 2 }),
      svg("text", { ...label, class: "label" }, labels[i]));
    if (rolled) {
      group.append(svg("text", { x: cx, y: base - barHeight - 16, class: "value",
        "text-anchor": "middle" }, percent(row.float)),
      svg("text", { x: cx, y: base - barHeight - 4, class: "flag", "text-anchor": "middle" },
        "rolled"));
    } else if (slot >= 24 && row.float / top > 0.02
      && (rolledIndex < 0 || Math.abs(i - rolledIndex) > 1)) {
      group.append(svg("text", { x: cx, y: base - barHeight - 4, class: "value small",
        "text-anchor": "middle" }, percent(row.float).replace(/\.\d%$/, "%")));
    }
    chart.append(group);
  });
  return chart;
}

function describe(rows) {
  return rows.slice(0, 12).map((r) => `${r.outcome} ${percent(r.float)}`).join(", ")
    + (rows.length > 12 ? ", …" : "");
}

function clip(text, limit) {
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

function eventsView(events, marks) {
  return h("table", { class: "events" },
    h("caption", {}, "Events"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Event"),
      h("th", { scope: "col" }, "Chance"), h("th", { scope: "col" }, "Exact"))),
    h("tbody", {}, events.map(({ pointer, value }) => {
      const mark = marks.get(pointer);
      const number = isExpectation(pointer)
        ? Number(value.float.toPrecision(4)).toString() : percent(value.float);
      return h("tr", { class: mark ? "rolled" : null, "data-pointer": pointer },
        h("th", { scope: "row" }, title(pointer),
          mark ? h("span", { class: "flag", title: `exactly ${mark.probability.exact}` },
            ` rolled ${mark.outcome} (${percent(mark.probability.float)})`) : null),
        h("td", { class: "num" }, number),
        h("td", { class: "exact", title: value.exact }, clip(value.exact, 24)));
    })));
}

function truncationView(truncation) {
  const items = Object.entries(truncation).map(([key, value]) =>
    isEvent(value) ? `${key.replaceAll("_", " ")} ${percent(value.float)} (${clip(value.exact, 40)})`
      : `${key.replaceAll("_", " ")} ${JSON.stringify(value)}`);
  return h("p", { class: "truncation" }, "Truncated: ", items.join(" · "),
    ". Outcomes past the cut are left out, so the bars sum to slightly less than 100%.");
}
