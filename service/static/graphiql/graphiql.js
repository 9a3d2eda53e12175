// GraphiQL on POST /graphql, with a picker of every operation's example query
// (GET /graphiql/examples.json, written from the registry's examples). The page's address
// names the example shown: /graphiql#four-d8/check, /graphiql#four-d8/check/odds.
"use strict";

const root = ReactDOM.createRoot(document.getElementById("graphiql"));
const fetcher = GraphiQL.createFetcher({ url: "/graphql" });
const systemSelect = document.getElementById("system");
const operationSelect = document.getElementById("operation");
const status = document.getElementById("status");
let systems = [];

// GraphiQL writes a changed `query` into its editor; the user's edits are kept until the
// next example is picked.
function render(query) {
  root.render(React.createElement(GraphiQL, { fetcher, query }));
}

function options(select, entries) {
  select.replaceChildren(
    ...entries.map(([value, label, title]) => {
      const option = new Option(label, value);
      option.title = title || "";
      return option;
    }),
  );
}

function system() {
  return systems.find((s) => s.slug === systemSelect.value);
}

function listOperations() {
  options(operationSelect, system().operations.map((op) => [op.name, op.name, op.summary]));
}

function show() {
  const op = system().operations.find((o) => o.name === operationSelect.value);
  history.replaceState(null, "", `#${systemSelect.value}/${op.name}`);
  render(op.query);
}

// `#slug/name` as [slug, name], when it names an example.
function fromAddress() {
  const [slug, ...name] = decodeURIComponent(location.hash.slice(1)).split("/");
  const found = systems.find((s) => s.slug === slug);
  if (found && found.operations.some((op) => op.name === name.join("/"))) {
    return [slug, name.join("/")];
  }
  return [systems[0].slug, systems[0].operations[0].name];
}

async function start() {
  render(undefined);
  const answer = await fetch("/graphiql/examples.json");
  if (!answer.ok) throw new Error(`the examples answered ${answer.status}`);
  systems = (await answer.json()).systems;
  options(systemSelect, systems.map((s) => [s.slug, s.title, s.slug]));
  const [slug, name] = fromAddress();
  systemSelect.value = slug;
  listOperations();
  operationSelect.value = name;
  systemSelect.disabled = operationSelect.disabled = false;
  status.textContent = "";
  show();
}

systemSelect.addEventListener("change", () => {
  listOperations();
  show();
});
operationSelect.addEventListener("change", show);
start().catch((error) => {
  status.textContent = `No examples: ${error.message}`;
});
