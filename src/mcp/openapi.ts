import { SERVICE_VERSION } from "../version";
import { jsonSchemaOf, type Operation } from "./registry";

/** An OpenAPI 3.1 document of every operation of the registry (GET /openapi.json). */
const ERROR = { $ref: "#/components/schemas/Error" };
const WRAPPED = { $ref: "#/components/schemas/WrappedError" };
const errorResponse = (description: string, schema: unknown) => ({ description, content: { "application/json": { schema } } });

function parameters(op: Operation) {
  const out: unknown[] = [];
  for (const [where, schema] of [["path", op.params], ["query", op.query]] as const) {
    if (!schema) continue;
    const s = jsonSchemaOf(schema);
    for (const [name, prop] of Object.entries(s.properties ?? {})) {
      out.push({ name, in: where, required: where === "path" || (s.required ?? []).includes(name), schema: prop });
    }
  }
  return out;
}

function operationObject(op: Operation) {
  const responses: Record<string, unknown> = {
    200: { description: "OK", content: { "application/json": { schema: jsonSchemaOf(op.response) } } },
    400: errorResponse("invalid_request, or an endpoint-specific 400 (SPEC.md section 7)", ERROR),
    404: errorResponse("not_found or an endpoint-specific 404", ERROR),
    413: errorResponse("request_too_large: the body is over 2 MiB", ERROR),
    500: errorResponse("internal_error, with request_id and no stack", ERROR),
  };
  if (op.access !== "public") {
    responses[401] = errorResponse("invalid_api_key: missing, malformed or revoked key (wrapped)", WRAPPED);
    responses[429] = errorResponse("rate_limit_exceeded (wrapped) or daily_limit_exceeded (flat)", { oneOf: [WRAPPED, ERROR] });
  }
  return {
    operationId: op.tool ?? `${op.method.toLowerCase()}${op.templatePath.replace(/[^A-Za-z0-9]+/g, "_")}`,
    summary: op.summary,
    security: op.access === "public" ? [] : op.access === "admin" ? [{ adminToken: [] }] : [{ bearerKey: [] }],
    ...(op.params || op.query ? { parameters: parameters(op) } : {}),
    ...(op.body ? { requestBody: { required: true, content: { "application/json": { schema: jsonSchemaOf(op.body) } } } } : {}),
    responses,
  };
}

export function openApiDocument(ops: readonly Operation[], origin: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of ops) (paths[op.templatePath] ??= {})[op.method.toLowerCase()] = operationObject(op);
  return {
    openapi: "3.1.0",
    info: { title: "svc gateway", version: SERVICE_VERSION, description: "OpenAI-compatible AI routing gateway with proofs, agents and governance. Public operations have `security: []`." },
    servers: [{ url: origin }],
    paths,
    components: {
      securitySchemes: {
        bearerKey: { type: "http", scheme: "bearer", description: "An API key, svc_sk_…" },
        adminToken: { type: "http", scheme: "bearer", description: "ADMIN_TOKEN (only when configured)" },
      },
      schemas: {
        Error: { type: "object", required: ["error", "message"], properties: { error: { type: "string" }, message: { type: "string" } }, additionalProperties: true },
        WrappedError: { type: "object", required: ["detail"], properties: { detail: { $ref: "#/components/schemas/Error" } } },
      },
    },
  };
}
