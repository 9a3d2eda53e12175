/**
 * A typed client for the Adjudicator REST API. The path, body and response types come from
 * src/schema.ts, which openapi-typescript generates from openapi/openapi.json (`make clients`);
 * openapi-fetch sends the requests, so a call with a wrong path or body does not compile.
 */
import createFetchClient from "openapi-fetch";
import type { Client, ClientOptions } from "openapi-fetch";

import type { components, paths } from "./schema.js";

export type { components, paths } from "./schema.js";

/** Every request and result model of the API, by its OpenAPI component name. */
export type Schemas = components["schemas"];

/** A client for the service at `baseUrl` (e.g. "http://127.0.0.1:8000"). */
export function createClient(
  baseUrl: string,
  options: Omit<ClientOptions, "baseUrl"> = {},
): Client<paths> {
  return createFetchClient<paths>({ ...options, baseUrl });
}
