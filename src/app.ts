import { Hono, type ErrorHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import { adminRoutes } from "./auth/admin-routes";
import { authAndLimits } from "./auth/middleware";
import { catalogRoutes } from "./catalog/routes";
import { chatRoutes } from "./chat/routes";
import type { AppEnv } from "./env";
import { healthRoutes } from "./health/routes";
import { planRoutes } from "./plans/routes";
import { pubkeyRoutes } from "./proof/pubkey-routes";
import { proofRoutes } from "./proof/routes";
import { routingRoutes } from "./routing/routes";
import { usageRoutes } from "./usage/routes";
import { workspaceRoutes } from "./workspace/routes";
import { handoffRoutes } from "./handoff/routes";
import { policyRoutes } from "./policy/routes";
import { auditRoutes } from "./audit/routes";
import { ApiError } from "./shared/errors";

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
      throw new ApiError(413, "request_too_large", `Request body exceeds the limit of ${MAX_BODY_BYTES} bytes.`);
    },
  }),
);

app.use(authAndLimits);

// One router per area of SPEC.md; the access table (src/auth/access.ts) guards them all.
for (const routes of [
  healthRoutes,
  catalogRoutes,
  chatRoutes,
  planRoutes,
  adminRoutes,
  pubkeyRoutes,
  proofRoutes,
  routingRoutes,
  usageRoutes,
  workspaceRoutes,
  handoffRoutes,
  policyRoutes,
  auditRoutes,
]) {
  app.route("/", routes);
}

/** The one place an error becomes a response (SPEC.md section 7 shapes). */
export const renderError: ErrorHandler<AppEnv> = (err, c) => {
  const requestId = c.get("requestId") ?? crypto.randomUUID();
  let apiError: ApiError;
  if (err instanceof ApiError) apiError = err;
  else if (err instanceof HTTPException && err.status < 500) {
    // Hono's own 4xx, e.g. a body that is not JSON.
    apiError = new ApiError(err.status === 413 ? 413 : 400, err.status === 413 ? "request_too_large" : "invalid_request", err.message || "Invalid request.");
  } else {
    console.error(`[${requestId}] unhandled`, err);
    apiError = new ApiError(500, "internal_error", "An unexpected error occurred.", { request_id: requestId });
  }
  const res = c.json(apiError.body(), apiError.status);
  res.headers.set("x-request-id", requestId);
  for (const name in apiError.headers) res.headers.set(name, apiError.headers[name]!);
  return res;
};
app.onError(renderError);

// 405 for a known path with the wrong method; the route list is read once, on first need.
let routeTable: Array<{ method: string; re: RegExp }> | undefined;
function allowedMethods(path: string): string[] {
  routeTable ??= app.routes
    .filter((r) => r.method !== "ALL")
    .map((r) => ({ method: r.method, re: new RegExp(`^${r.path.replace(/\/:[^/]+/g, "/[^/]+").replace(/\*/g, ".*")}$`) }));
  return [...new Set(routeTable.filter((r) => r.re.test(path)).map((r) => r.method))];
}

app.notFound((c) => {
  const allowed = allowedMethods(c.req.path);
  const requestId = c.get("requestId");
  if (allowed.length) {
    return c.json({ error: "method_not_allowed", message: `${c.req.method} is not allowed on ${c.req.path}; use ${allowed.join(", ")}.` }, 405, {
      allow: allowed.join(", "),
      "x-request-id": requestId,
    });
  }
  return c.json({ error: "not_found", message: `No route for ${c.req.method} ${c.req.path}.` }, 404, { "x-request-id": requestId });
});

export { app };
