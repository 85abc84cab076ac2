import { Hono, type ErrorHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import { methodNotAllowed } from "hono/method-not-allowed";
import { adminRoutes } from "./auth/admin-routes";
import { ownerKeyRoutes } from "./auth/owner-keys-routes";
import { authAndLimits } from "./auth/middleware";
import { recordAttestation } from "./calls/attestation";
import { catalogRoutes } from "./catalog/routes";
import { complianceRoutes } from "./compliance/routes";
import { apiCors, chatRoutes } from "./chat/routes";
import type { AppEnv } from "./env";
import { healthRoutes } from "./health/routes";
import { planRoutes } from "./plans/routes";
import { proofRoutes } from "./proof/routes";
import { routingRoutes } from "./routing/routes";
import { usageRoutes } from "./usage/routes";
import { dailyUsageRoutes } from "./usage/daily-routes";
import { workspaceRoutes } from "./workspace/routes";
import { handoffRoutes } from "./handoff/routes";
import { policyRoutes } from "./policy/routes";
import { auditRoutes } from "./audit/routes";
import { skillsRoutes } from "./skills/routes";
import { brainRoutes } from "./brain/routes";
import { orchestrateRoutes } from "./orchestrate/routes";
import { codeRoutes } from "./code/routes";
import { agentRoutes } from "./agents/routes";
import { mcpRoutes } from "./mcp/routes";
import { apiError, ApiError } from "./shared/errors";

/** Default request-body ceiling (SPEC.md section 7: 413 over 2 MiB). */
export const MAX_BODY_BYTES = 2 * 1024 * 1024;

const app = new Hono<AppEnv>();

app.use(async (c, next) => {
  c.set("requestId", crypto.randomUUID());
  c.set("startedAt", performance.now());
  await next();
  c.res.headers.set("x-request-id", c.get("requestId"));
});

app.use(
  bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw apiError("request_too_large", `Request body exceeds the limit of ${MAX_BODY_BYTES} bytes.`);
    },
  }),
);

app.use(
  methodNotAllowed({
    app,
    onMethodNotAllowed: (c, methods) =>
      renderError(
        new ApiError("method_not_allowed", {
          message: `${c.req.method} is not allowed on ${c.req.path}; use ${methods.join(", ")}.`,
          headers: { allow: methods.join(", ") },
        }),
        c,
      ),
  }),
);

app.use(apiCors);
app.use(authAndLimits);

// One router per area of SPEC.md; the access table (src/auth/access.ts) guards them all.
for (const routes of [
  healthRoutes,
  catalogRoutes,
  chatRoutes,
  planRoutes,
  adminRoutes,
  ownerKeyRoutes,
  proofRoutes,
  routingRoutes,
  usageRoutes,
  dailyUsageRoutes,
  workspaceRoutes,
  handoffRoutes,
  policyRoutes,
  auditRoutes,
  skillsRoutes,
  brainRoutes,
  agentRoutes,
  complianceRoutes({ recordAttestation }),
  orchestrateRoutes,
  codeRoutes,
]) {
  app.route("/", routes);
}
// The OpenAPI document, the tool manifest and the MCP server describe and call this app itself.
app.route("/", mcpRoutes(app));

/** The one place an error becomes a response (SPEC.md section 7 shapes). */
export const renderError: ErrorHandler<AppEnv> = (err, c) => {
  const requestId = c.get("requestId") ?? crypto.randomUUID();
  let error: ApiError;
  if (err instanceof ApiError) error = err;
  else if (err instanceof HTTPException && err.status < 500) {
    // Hono's own 4xx, e.g. a body that is not JSON.
    error = new ApiError(err.status === 413 ? "request_too_large" : "invalid_request", { message: err.message || "Invalid request." });
  } else {
    console.error(`[${requestId}] unhandled`, err);
    error = new ApiError("internal_error", { message: "An unexpected error occurred.", extra: { request_id: requestId } });
  }
  const res = c.json(error.body(), error.status);
  res.headers.set("x-request-id", requestId);
  for (const name in error.headers) res.headers.set(name, error.headers[name]!);
  return res;
};
app.onError(renderError);

// A plain 404 (not a throw), so that methodNotAllowed above can still turn it into a 405.
app.notFound((c) => renderError(apiError("not_found", `No route for ${c.req.method} ${c.req.path}.`), c));

export { app };
