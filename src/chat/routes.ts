import { Hono, type Context, type MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import { requiresKey } from "../auth/access";
import { callDeps } from "../calls/deps";
import { completeChat, streamChat, type ChatInput } from "../calls/chat";
import { toApiError } from "../calls/errors";
import { openAiErrorResponse } from "../calls/openai-errors";
import { chatSse, completionJson, SSE_HEADERS, type SvcExtend } from "../calls/render";
import { catalogEntry, findModel } from "../catalog/models";
import { callCompliance } from "../compliance/chat-gate";
import type { AppEnv } from "../env";
import { chatRequestSchema } from "../routing/request-schema";
import { FAULT_HEADER } from "../sandbox/faults";
import { apiError } from "../shared/errors";
import { validate } from "../shared/validate";
import { responseJson, responsesBudget, responsesMessages, responsesOptions, responsesRequestSchema, responsesWriter } from "./responses";

const CHAT = "/v1/chat/completions";
const RESPONSES = "/v1/responses";
const MODEL = "/v1/models/:model_id";

/** x-svc-overhead-us: time in the gateway minus time waiting on upstreams. */
const overheadUs = (startedAt: number, upstreamMs: number) => String(Math.max(0, Math.round((performance.now() - startedAt - upstreamMs) * 1000)));

/**
 * The OpenAI-compatible surface answers OpenAI's error object (docs/compatibility.md). The app's
 * one error handler has already rendered the error when this runs (Hono records it as c.error);
 * the response is rendered again in OpenAI's shape. A middleware, not an onError of this router,
 * so the routes' validators stay readable to the operation registry.
 */
const openAiSurface: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  if (c.error) c.res = openAiErrorResponse(c.error, c.get("requestId"));
};

const depsOf = (c: Context<AppEnv>) =>
  callDeps({
    env: c.env,
    key: c.get("apiKey"),
    faults: c.req.header(FAULT_HEADER) ?? null,
    signal: c.req.raw.signal,
    waitUntil: (p) => c.executionCtx.waitUntil(p),
  });

const keepAlive = (c: Context<AppEnv>) => (p: Promise<unknown>) => c.executionCtx.waitUntil(p);

/** The OpenAI-compatible endpoints: parse, call the model-call service, render. */
export const chatRoutes = new Hono<AppEnv>()
  .use(CHAT, openAiSurface)
  .use(RESPONSES, openAiSurface)
  .use(MODEL, openAiSurface)
  // SPEC.md 4.1.
  .post(CHAT, validate("json", chatRequestSchema), async (c) => {
    const body = c.req.valid("json");
    const startedAt = c.get("startedAt");
    const deps = depsOf(c);
    const compliance = callCompliance(body.brain_config, body.messages, deps.plan.models);
    const withCompliance: SvcExtend = (svc) => (compliance ? { ...svc, compliance: compliance.decision } : svc);
    // The schema has applied SPEC.md 4.1's defaults.
    const input: ChatInput = {
      requestId: c.get("requestId"),
      endpoint: CHAT,
      startedAt,
      messages: body.messages,
      options: body.options,
      model: body.model,
      routingMode: body.routing_mode,
      brainConfig: body.brain_config,
      maxTokens: body.max_tokens,
      temperature: body.temperature,
      ...(compliance ? { requirements: [compliance.requirement] } : {}),
    };
    try {
      if (body.stream) {
        const s = await streamChat(deps, input);
        return new Response(chatSse(s, keepAlive(c), withCompliance, { includeUsage: body.include_usage, choices: body.options?.n }), {
          headers: { ...SSE_HEADERS, "x-svc-overhead-us": overheadUs(startedAt, s.upstreamMs()) },
        });
      }
      const { outcome, upstreamMs } = await completeChat(deps, input);
      c.header("x-svc-overhead-us", overheadUs(startedAt, upstreamMs));
      return c.json(completionJson(outcome, withCompliance));
    } catch (err) {
      throw toApiError(err);
    }
  })
  // The Responses API (docs/compatibility.md), on the same model-call path; state-free.
  .post(RESPONSES, validate("json", responsesRequestSchema), async (c) => {
    const body = c.req.valid("json");
    const startedAt = c.get("startedAt");
    const deps = depsOf(c);
    const requestId = c.get("requestId");
    const input: ChatInput = {
      requestId,
      endpoint: RESPONSES,
      startedAt,
      messages: responsesMessages(body),
      options: responsesOptions(body),
      model: body.model ?? "auto",
      routingMode: body.routing_mode,
      brainConfig: body.brain_config ?? undefined,
      ...responsesBudget(body),
    };
    try {
      if (body.stream) {
        const s = await streamChat(deps, input);
        const stream = s.body(responsesWriter({ requestId, created: s.created, model: s.model.id, body }), keepAlive(c));
        return new Response(stream, { headers: { ...SSE_HEADERS, "x-svc-overhead-us": overheadUs(startedAt, s.upstreamMs()) } });
      }
      const { outcome, upstreamMs } = await completeChat(deps, input);
      c.header("x-svc-overhead-us", overheadUs(startedAt, upstreamMs));
      return c.json(responseJson({ requestId, created: outcome.created, model: outcome.model.id, body }, outcome, outcome.svc));
    } catch (err) {
      throw toApiError(err);
    }
  })
  // OpenAI's model object plus the catalog's fields; public (SPEC.md section 5 lists the listing).
  .get(MODEL, (c) => {
    const id = c.req.param("model_id");
    const model = findModel(id);
    if (!model) throw apiError("model_not_found", `The model '${id}' does not exist; GET /v1/models lists the catalog.`, { param: "model" });
    c.header("cache-control", "public, max-age=300");
    return c.json(catalogEntry(model));
  });

/**
 * CORS for browser apps (docs/compatibility.md): preflights are answered here, before the auth
 * middleware, so they need no key. Public endpoints allow any origin; the rest allow the origins
 * listed in CORS_ORIGINS (comma-separated; `*` allows any), none when it is unset.
 */
const browserCors = cors({
  origin: (origin, c: Context<AppEnv>) => {
    const preflightMethod = c.req.method === "OPTIONS" ? c.req.header("access-control-request-method") ?? "GET" : c.req.method;
    if (!requiresKey(preflightMethod, c.req.path)) return "*";
    const allowed = (c.env.CORS_ORIGINS ?? "").split(",").map((o) => o.trim()).filter(Boolean);
    if (allowed.includes("*")) return "*";
    return allowed.includes(origin) ? origin : null;
  },
  allowHeaders: ["authorization", "content-type", "x-sandbox-fault"],
  exposeHeaders: ["x-request-id", "x-svc-overhead-us"],
  maxAge: 600,
});

/**
 * Skipped for a request to a protected endpoint that carries no Origin header: it does not come
 * from a browser, and its answer is private (a shared cache never stores a response to a request
 * with Authorization), so CORS headers would tell no one anything. Why skip rather than run it:
 * Hono's cors sets its headers on the response before the route runs, which makes Hono copy the
 * route's response when it arrives, and once more for `Vary`: two Response copies on every call,
 * SDK calls from servers included. Public endpoints (cacheable: GET /v1/models/{id}) always get them.
 */
export const apiCors: MiddlewareHandler<AppEnv> = (c, next) =>
  c.req.method !== "OPTIONS" && c.req.header("origin") === undefined && requiresKey(c.req.method, c.req.path) ? next() : browserCors(c, next);
