// Swagger UI on the service's own OpenAPI document. Each operation's request body shows
// the example from the registry, and "Try it out" sends it to this same origin (the
// document names no server).
"use strict";

window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  // Operations listed under their system's tag; the hundreds of schemas are shown with
  // each operation, not as a section of their own.
  docExpansion: "list",
  defaultModelsExpandDepth: -1,
  filter: true,
  displayRequestDuration: true,
  // No badge from the public validator: nothing is fetched from elsewhere.
  validatorUrl: null,
});
