/**
 * Calls the running service at BASE_URL through the generated client and checks typed fields of
 * each answer: a 4D8 check with table dice, its odds, a FORESIGHT resolve and a 422 problem.
 * tests/test_clients.py compiles it with tsc (strict) and runs it with node.
 */
import assert from "node:assert/strict";

import { createClient } from "../src/index.js";
import type { Schemas } from "../src/index.js";

const baseUrl = process.env.BASE_URL;
if (!baseUrl) throw new Error("set BASE_URL to the service, e.g. http://127.0.0.1:8000");
const client = createClient(baseUrl);

async function fourD8Check(): Promise<void> {
  const { data, error } = await client.POST("/v1/four-d8/check", {
    body: { ease: 20, dice: { values: [5, 5, 5, 3] } },
  });
  assert.equal(error, undefined);
  assert.ok(data);
  const result: Schemas["FourD8CheckResult"] = data;
  assert.equal(result.success, true);
  assert.equal(result.degree, 13);
  assert.equal(result.reading?.degree, 13);
  assert.deepEqual(
    result.rolls.map((roll) => roll.value),
    [5, 5, 5, 3],
  );
}

async function fourD8Odds(): Promise<void> {
  const { data, error } = await client.POST("/v1/four-d8/check/odds", { body: { ease: 20 } });
  assert.equal(error, undefined);
  assert.ok(data);
  assert.equal(data.chance, 20);
  assert.ok(data.summary.success.float > 0 && data.summary.success.float < 1);
  assert.match(data.summary.success.exact, /^\d+\/\d+$/);
}

async function foresightResolve(): Promise<void> {
  const { data, error } = await client.POST("/v1/foresight/resolve", {
    body: { score: 14, bef: 5, modifiers: [-1, 1], dice: { values: [32] } },
  });
  assert.equal(error, undefined);
  assert.ok(data);
  assert.equal(data.outcome, "rolled");
  assert.equal(data.roll, 32);
  assert.equal(data.quality.qr, 3);
  assert.equal(data.success, true);
}

async function invalidInput(): Promise<void> {
  // Type-correct but out of range: a d8 never shows 9.
  const { data, error, response } = await client.POST("/v1/four-d8/check", {
    body: { ease: 20, dice: { values: [9, 5, 5, 3] } },
  });
  assert.equal(data, undefined);
  assert.equal(response.status, 422);
  assert.ok(error);
  const problem: Schemas["Problem"] = error;
  assert.equal(problem.status, 422);
  assert.ok(problem.errors?.some((field) => field.pointer.startsWith("/dice")));
}

/** Never called: tsc must reject a body the schema does not allow. */
export function rejectedAtCompileTime(): void {
  // @ts-expect-error: ease is an integer, not a string.
  void client.POST("/v1/four-d8/check", { body: { ease: "twenty" } });
  // @ts-expect-error: no such operation.
  void client.POST("/v1/four-d8/no-such-op", { body: {} });
}

await fourD8Check();
await fourD8Odds();
await foresightResolve();
await invalidInput();
console.log("typescript client: 4 calls passed");
