import { Hono, type MiddlewareHandler } from "hono";
import { callDeps } from "../calls/deps";
import { completeChat, streamChat, type ChatInput } from "../calls/chat";
import { toApiError } from "../calls/errors";
import { chatSse, completionJson, SSE_HEADERS, type SvcExtend } from "../calls/render";
import type { AppEnv } from "../env";
import { callCompliance } from "../compliance/chat-gate";
import { chatRequestSchema } from "../routing/request-schema";
import { FAULT_HEADER } from "../sandbox/faults";
import { validate } from "../shared/validate";
import { openAiError } from "./openai-errors";

const ENDPOINT = "/v1/chat/completions";

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
  if (!c.error) return;
  const { status, body, headers } = openAiError(c.error, c.get("requestId"));
  c.res = c.json(body, status, headers);
};

/** SPEC.md 4.1: parse, call the model-call service, render. */
export const chatRoutes = new Hono<AppEnv>().use(ENDPOINT, openAiSurface).post(ENDPOINT, validate("json", chatRequestSchema), async (c) => {
  const body = c.req.valid("json");
  const startedAt = c.get("startedAt");
  const deps = callDeps({
    env: c.env,
    key: c.get("apiKey"),
    faults: c.req.header(FAULT_HEADER) ?? null,
    signal: c.req.raw.signal,
    waitUntil: (p) => c.executionCtx.waitUntil(p),
  });
  const compliance = callCompliance(body.brain_config, body.messages, deps.plan.models);
  const withCompliance: SvcExtend = (svc) => (compliance ? { ...svc, compliance: compliance.decision } : svc);
  // The schema has applied SPEC.md 4.1's defaults.
  const input: ChatInput = {
    requestId: c.get("requestId"),
    endpoint: ENDPOINT,
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
      return new Response(chatSse(s, (p) => c.executionCtx.waitUntil(p), withCompliance, { includeUsage: body.include_usage }), {
        headers: { ...SSE_HEADERS, "x-svc-overhead-us": overheadUs(startedAt, s.upstreamMs()) },
      });
    }
    const { outcome, upstreamMs } = await completeChat(deps, input);
    c.header("x-svc-overhead-us", overheadUs(startedAt, upstreamMs));
    return c.json(completionJson(outcome, withCompliance));
  } catch (err) {
    throw toApiError(err);
  }
});


