// The playground: pick a system and an operation from the catalogue (GET /v1/systems), fill
// the form built from its request schema, roll, and see the result, its dice and its exact
// odds. Nothing here knows any one operation: everything is read from the catalogue.

import { dicePanel, rollList } from "./dice.js";
import { h } from "./dom.js";
import { buildForm } from "./form.js";
import { oddsView, shot } from "./odds.js";

/** Result fields that say how a result was made rather than what it was. */
const ENVELOPE = new Set(["rolls", "seed", "rules_version", "options_applied", "outcome_odds"]);

const $ = (id) => document.getElementById(id);
const page = {
  systems: [], system: null, op: null, form: null, dice: null, odds: new Map(), run: 0,
};

async function main() {
  const answer = await fetch("/v1/systems");
  if (!answer.ok) throw new Error(`GET /v1/systems answered ${answer.status}`);
  page.systems = (await answer.json()).systems;
  $("system").replaceChildren(...page.systems.map((s) =>
    h("option", { value: s.slug }, `${s.title} (${s.operations.length})`)));
  $("system").addEventListener("change", () => select($("system").value));
  $("operation").addEventListener("change", () => select(page.system.slug, $("operation").value));
  $("request").addEventListener("submit", (event) => { event.preventDefault(); roll(); });
  $("reset").addEventListener("click", () => fill(page.op.example));
  $("raw").addEventListener("change", toggleRaw);
  window.addEventListener("hashchange", fromHash);
  if (!fromHash()) {
    const first = page.systems.find((s) => s.operations.some((op) => op.odds_path))
      ?? page.systems[0];
    select(first.slug, (first.operations.find((op) => op.odds_path) ?? first.operations[0]).name);
  }
  document.body.dataset.state = "ready";
}

/** `#four-d8/check`: a system's slug, then the operation's name (which may hold slashes). */
function fromHash() {
  const [slug, ...rest] = decodeURIComponent(location.hash.slice(1)).split("/");
  const system = page.systems.find((s) => s.slug === slug);
  if (!system) return false;
  select(slug, rest.join("/"));
  return true;
}

/** Show an operation: its summary, options and form, filled with its example. */
function select(slug, name) {
  const system = page.systems.find((s) => s.slug === slug) ?? page.systems[0];
  const op = system.operations.find((o) => o.name === name) ?? system.operations[0];
  page.system = system;
  page.op = op;
  $("system").value = system.slug;
  $("operation").replaceChildren(...operationOptions(system));
  $("operation").value = op.name;
  const hash = `#${system.slug}/${op.name}`;
  if (location.hash !== hash) history.replaceState(null, "", hash);
  document.title = `${system.title}: ${op.name} · Adjudicator playground`;

  $("summary").replaceChildren(describe(system, op));
  $("options").replaceChildren(...optionsTable(op.options));
  page.form = buildForm(op.input_schema, { omit: flagFields(op) });
  page.dice = op.random ? dicePanel() : null;
  $("fields").replaceChildren(page.form.element);
  $("dice").replaceChildren(...(page.dice ? [page.dice.element] : []));
  $("roll").textContent = op.random ? "Roll" : "Run";
  $("raw").checked = false;
  showRaw(false);
  fill(op.example);
  clearOutput();
}

function operationOptions(system) {
  const kinds = [...new Set(system.operations.map((op) => op.kind))];
  return kinds.map((kind) => h("optgroup", { label: kind },
    system.operations.filter((op) => op.kind === kind).map((op) =>
      h("option", { value: op.name }, op.odds_path ? `${op.name}  ⚄` : op.name))));
}

/** The request fields the playground sets itself: the dice (its own panel) and the flag
 * asking a roll for its odds. */
function flagFields(op) {
  return op.random ? ["dice", ...(op.odds_path ? ["outcome_odds"] : [])] : [];
}

function describe(system, op) {
  return h("div", {},
    h("h2", {}, op.name, h("span", { class: "badge" }, op.kind),
      op.random ? h("span", { class: "badge" }, "dice") : null,
      op.odds_path ? h("span", { class: "badge" }, "exact odds") : null),
    h("p", {}, op.summary),
    h("p", { class: "paths" }, h("code", {}, `POST ${op.rest_path}`),
      op.odds_path ? h("code", {}, `POST ${op.odds_path}`) : null));
}

/** The catalogue's options: each with its ambiguity id, default and allowed values. */
function optionsTable(options) {
  if (!options.length) return [];
  const allowed = (o) => o.choices.length ? o.choices.join(" | ")
    : o.minimum !== null || o.maximum !== null ? `${o.minimum ?? "…"} to ${o.maximum ?? "…"}`
      : o.type;
  return [h("details", { class: "options" },
    h("summary", {}, `Options (${options.length}): the readings of ambiguous rules`),
    h("table", {},
      h("thead", {}, h("tr", {}, ["Option", "Ambiguity", "Default", "Allowed"].map((t) =>
        h("th", { scope: "col" }, t)))),
      h("tbody", {}, options.map((o) => h("tr", { title: o.description },
        h("td", {}, h("code", {}, o.name)),
        h("td", {}, o.ambiguity ?? "—"),
        h("td", {}, h("code", {}, o.default_json)),
        h("td", {}, (o.nullable ? "null | " : "") + allowed(o)))))))];
}

function fill(example) {
  if (example === null || typeof example !== "object" || Array.isArray(example)) {
    throw new Error("a request is a JSON object");
  }
  const { dice, ...rest } = example;
  if (page.dice) page.dice.set(dice);
  page.form.set(page.dice ? rest : example);
  $("json").value = JSON.stringify(example, null, 2);
}

/** The request as the form (or the raw JSON, when edited as JSON) states it. */
function request() {
  return $("raw").checked ? JSON.parse($("json").value) : formRequest();
}

function formRequest() {
  const body = page.form.get();
  const dice = page.dice?.get();
  if (dice !== undefined) body.dice = dice;
  return body;
}

/** To JSON, the form's request is written out; back to the form, the JSON fills it. */
function toggleRaw() {
  const raw = $("raw").checked;
  try {
    if (raw) $("json").value = JSON.stringify(formRequest(), null, 2);
    else fill(JSON.parse($("json").value));
  } catch (error) {
    $("raw").checked = !raw;
    showError(`${raw ? "The form" : "The JSON"} does not make a request: ${error.message}`);
    return;
  }
  showRaw(raw);
}

function showRaw(raw) {
  $("json").hidden = !raw;
  $("fields").hidden = raw;
  $("dice").hidden = raw;
}

async function post(path, body) {
  const answer = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(body),
  });
  const data = await answer.json().catch(() => null);
  return { ok: answer.ok, status: answer.status, data };
}

/** The odds of a request, remembered: rolling again with other dice asks for the same odds. */
function oddsOf(op, body) {
  const key = `${op.odds_path} ${JSON.stringify(body)}`;
  if (!page.odds.has(key)) {
    if (page.odds.size > 32) page.odds.delete(page.odds.keys().next().value);
    const asked = post(op.odds_path, body);
    page.odds.set(key, asked);
    asked.then((answer) => answer.ok || page.odds.delete(key), () => page.odds.delete(key));
  }
  return page.odds.get(key);
}

/** Roll (or run) the request; settles once the answer is shown. */
async function roll() {
  const op = page.op;
  const run = ++page.run;
  clearOutput();
  let body;
  try {
    body = request();
  } catch (error) {
    showError(error.message);
    return;
  }
  $("output").dataset.state = "rolling";
  const asks = op.random && op.odds_path && op.input_schema.properties?.outcome_odds;
  // The odds are of the same input, whatever the dice.
  const input = Object.fromEntries(
    Object.entries(body).filter(([key]) => key !== "dice" && key !== "outcome_odds"));
  let result, odds;
  try {
    [result, odds] = await Promise.all([
      post(op.rest_path, asks ? { ...body, outcome_odds: true } : body),
      op.odds_path ? oddsOf(op, input) : null,
    ]);
  } catch (error) {
    if (run === page.run) showError(`The service did not answer: ${error.message}`);
    return;
  }
  if (run !== page.run) return;
  if (!result.ok) {
    showProblem(result);
  } else {
    showResult(result.data);
  }
  if (odds) showOdds(odds, result.ok ? result.data.outcome_odds ?? [] : []);
  $("output").dataset.state = result.ok ? "done" : "error";
}

function clearOutput() {
  for (const id of ["problem", "result", "odds-view"]) $(id).replaceChildren();
  for (const row of document.querySelectorAll(".invalid")) row.classList.remove("invalid");
  for (const note of document.querySelectorAll("#request .error")) note.remove();
  $("output").dataset.state = "idle";
}

function showError(message) {
  $("problem").replaceChildren(h("div", { class: "problem", role: "alert" }, message));
  $("output").dataset.state = "error";
}

/** problem+json: its title, and each field error beside its field and in a list. */
function showProblem({ status, data }) {
  const errors = data?.errors ?? [];
  $("problem").replaceChildren(h("div", { class: "problem", role: "alert" },
    h("strong", {}, `${status} ${data?.title ?? "Error"}`), h("p", {}, data?.detail ?? ""),
    errors.length ? h("ul", {}, errors.map((e) =>
      h("li", {}, h("code", {}, e.pointer || "(body)"), ` ${e.detail}`))) : null));
  if ($("raw").checked) return;
  for (const error of errors) {
    const tokens = error.pointer.split("/").slice(1)
      .map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"));
    const row = tokens[0] === "dice" && page.dice
      ? page.dice.element : page.form.locate(tokens);
    if (!row) continue;
    row.classList.add("invalid");
    if (row.tagName === "DETAILS") row.open = true;
    row.append(h("p", { class: "error" }, error.detail));
  }
}

function showResult(result) {
  const scalars = Object.entries(result).filter(([key, value]) =>
    !ENVELOPE.has(key) && value !== null && typeof value !== "object");
  // The events' rolled outcomes are marked in the odds' table of events.
  const shots = (result.outcome_odds ?? []).filter((mark) => mark.at_least);
  $("result").replaceChildren(
    h("h2", {}, "Result"),
    scalars.length ? h("dl", { class: "headline" }, scalars.slice(0, 30).map(([key, value]) =>
      h("div", {}, h("dt", {}, key.replaceAll("_", " ")), h("dd", {}, String(value))))) : null,
    shots.length ? h("div", { class: "shots" }, shots.map((mark) =>
      h("p", {}, h("code", {}, mark.distribution), " ", shot(mark)))) : null,
    Array.isArray(result.rolls) ? diceView(result) : null,
    h("details", { class: "json" }, h("summary", {}, "Result JSON"),
      h("pre", {}, JSON.stringify(result, null, 2))));
}

function diceView(result) {
  const seed = result.seed;
  return h("section", { class: "rolled" },
    h("h3", {}, `Dice rolled (${result.rolls.length})`),
    result.rolls.length ? rollList(result.rolls) : h("p", { class: "muted" }, "No dice."),
    h("p", { class: "seed" }, seed === null || seed === undefined ? "From the table's dice."
      : [`Seed ${seed}. `, h("button", { type: "button", class: "link",
        onclick: () => page.dice?.useSeed(seed) }, "Use this seed")]));
}

function showOdds({ ok, status, data }, rolled) {
  if (!ok) {
    $("odds-view").replaceChildren(h("h2", {}, "Odds"), h("p", { class: "problem" },
      `${status} ${data?.title ?? ""}: ${data?.detail ?? "no odds"}`));
    return;
  }
  $("odds-view").replaceChildren(h("h2", {}, "Exact odds"), oddsView(data, rolled));
}

// For scripts and the tests: the catalogue and the same steps the page takes.
window.playground = { select, request, roll, get systems() { return page.systems; } };

main().catch((error) => {
  document.body.dataset.state = "failed";
  showError(`The playground could not start: ${error.message}`);
});
