// Adjudicator -> Foundry VTT chat roll (a script macro for Foundry v12 and v13).
//
// Asks Adjudicator to run one operation and posts its dice as a native chat roll, which
// Dice So Nice animates when it is installed. The service must allow the Foundry origin:
// start it with CORS_ALLOWED_ORIGINS=https://your-foundry-host (scheme://host[:port]).
// Script macros run inside an async function, so `await` and `return` work at top level.

const ADJUDICATOR_URL = "http://localhost:8000";

// Any rolling operation of GET /v1/systems, and its input without `dice`: leave the dice
// out for a fresh seed, or pass {"seed": n} to replay, or {"values": [...]} for table dice.
const request = {
  system: "four-sight",
  operation: "combat-attack",
  input: {
    attacker: {traits: [{trait: "dexterity", score: 3}]},
    defender: {traits: [{trait: "dexterity", score: 2}]},
  },
};

let response;
try {
  response = await fetch(`${ADJUDICATOR_URL}/v1/foundry`, {
    method: "POST",
    headers: {"Content-Type": "application/json"},
    body: JSON.stringify(request),
  });
} catch (error) {
  ui.notifications.error(`Adjudicator is unreachable at ${ADJUDICATOR_URL}: ${error.message}`);
  return;
}
if (!response.ok) {
  // A refused request is problem+json; its detail names each bad field.
  const problem = await response.json().catch(() => ({}));
  ui.notifications.error(`Adjudicator: ${problem.detail ?? response.statusText}`);
  return;
}

// The body is a Roll as Roll.toJSON() writes it: evaluated, with its terms, results and total.
const roll = Roll.fromData(await response.json());
const {system, operation, seed} = roll.options.adjudicator;
const replay = seed === null ? "table dice" : `seed ${seed}`;
await roll.toMessage({
  speaker: ChatMessage.getSpeaker(),
  flavor: `${system} · ${operation} (${replay})`,
});
