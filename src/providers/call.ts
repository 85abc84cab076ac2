/**
 * The provider layer's entry points: try the candidate models in order, each with a timeout and
 * retries with backoff, and fall back to the next one on failure. Streams fall back only before
 * their first content delta; after it a failure is thrown from the events iterator.
 */
import type { Model } from "../catalog/models";
import type { Env } from "../env";
import { apiError, type ApiError } from "../shared/errors";
import { completeOnce, failureOf, openStream, type AttemptInput, type FetchLike, type OpenStream, type Outcome, type Route, type UpstreamClock } from "./attempt";
import { ADAPTERS } from "./protocols";
import { PROVIDER_REGISTRY, providerBaseUrl, providerKey } from "./registry";
import { retryDelay, retryPolicy, type PolicyEnv } from "./retry";
import { SANDBOX_ORIGIN, sandboxFetch } from "./sandbox";
import { sandboxHeaders } from "./sandbox-faults";
import { estimatePromptTokens, estimateTokens, usageOf } from "./tokens";
import { UpstreamError } from "./upstream-error";
import type { Attempt, CallResult, ModelRequest, StreamEvent, StreamResult } from "./types";

export { UpstreamError } from "./upstream-error";
export type { FetchLike } from "./attempt";

export interface CallContext {
  env: Env & PolicyEnv;
  /** Used for providers that have a key; defaults to the global fetch. */
  fetch?: FetchLike;
  /** The raw `x-sandbox-fault` request header; forwarded to the sandbox upstream only. */
  faults?: string | null;
  /** The client's request signal: when it aborts, no further attempt is made. */
  signal?: AbortSignal;
}

/** A provider is servable with a key, or through the sandbox when SANDBOX_UPSTREAM is "on". */
export function isServable(model: Model, env: Env): boolean {
  return providerKey(env, model.provider) !== undefined || env.SANDBOX_UPSTREAM === "on";
}

const globalFetch: FetchLike = (input, init) => fetch(input, init);

/** A key always wins; the sandbox is reachable only from here, and only when switched on. */
function routeFor(model: Model, ctx: CallContext): Route | null {
  const provider = PROVIDER_REGISTRY[model.provider];
  const adapter = ADAPTERS[provider.protocol];
  const apiKey = providerKey(ctx.env, model.provider);
  if (apiKey !== undefined) {
    return { model, adapter, apiKey, baseUrl: providerBaseUrl(ctx.env, model.provider), fetch: ctx.fetch ?? globalFetch, sandbox: false };
  }
  if (ctx.env.SANDBOX_UPSTREAM === "on") {
    return { model, adapter, apiKey: undefined, baseUrl: `${SANDBOX_ORIGIN}/${model.provider}`, fetch: sandboxFetch, sandbox: true };
  }
  return null;
}

/**
 * Attempt numbers per target (model id and provider id) for the sandbox's `*N` fault limits. Kept
 * per CallContext, so calls that share one context (one client request) share the counts.
 */
const attemptCounts = new WeakMap<CallContext, Map<string, number>>();

function nextAttemptHeaders(ctx: CallContext, model: Model): Record<string, string> {
  let counts = attemptCounts.get(ctx);
  if (!counts) attemptCounts.set(ctx, (counts = new Map()));
  const modelN = (counts.get(model.id) ?? 0) + 1;
  const providerN = (counts.get(model.provider) ?? 0) + 1;
  counts.set(model.id, modelN);
  counts.set(model.provider, providerN);
  return sandboxHeaders(ctx.faults ?? null, model.id, modelN, providerN);
}

const sleep = (ms: number, signal: AbortSignal | undefined) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });

interface Served<T> {
  route: Route;
  value: T;
  attempts: Attempt[];
  fallbackFrom: Model | null;
  clock: UpstreamClock;
}

function allFailed(attempts: Attempt[], aborted: boolean): ApiError {
  const last = attempts[attempts.length - 1];
  const message = aborted
    ? "The request was aborted before an upstream answered."
    : `Every candidate model failed; last: ${last ? `${last.model}: ${last.error}` : "none"}.`;
  return apiError("upstream_error", message, { attempts });
}

/** The retry and fallback loop shared by complete() and stream(). */
async function serve<T>(
  candidates: readonly Model[],
  req: ModelRequest,
  ctx: CallContext,
  once: (input: AttemptInput) => Promise<Outcome<T>>,
): Promise<Served<T>> {
  const policy = retryPolicy(ctx.env);
  const clock: UpstreamClock = { ms: 0 };
  const attempts: Attempt[] = [];
  let servable = false;
  for (const model of candidates) {
    const route = routeFor(model, ctx);
    if (!route) continue;
    servable = true;
    for (let retry = 0; ; retry++) {
      const started = performance.now();
      const extraHeaders = route.sandbox ? nextAttemptHeaders(ctx, model) : undefined;
      const out = await once({ route, req, timeoutMs: policy.timeoutMs, signal: ctx.signal, extraHeaders, clock });
      const latency_ms = Math.round(performance.now() - started);
      if (out.ok) {
        attempts.push({ model: model.id, ok: true, status: out.status, error: null, latency_ms });
        return { route, value: out.value, attempts, fallbackFrom: model === candidates[0] ? null : candidates[0]!, clock };
      }
      attempts.push({ model: model.id, ok: false, status: out.status, error: out.error, latency_ms });
      if (out.aborted) throw allFailed(attempts, true);
      if (!out.retryable || retry >= policy.maxRetries) break;
      const wait = retryDelay(retry, out.retryAfterMs, policy);
      if (wait === null) break;
      const slept = performance.now();
      await sleep(wait, ctx.signal);
      clock.ms += performance.now() - slept;
      if (ctx.signal?.aborted) throw allFailed(attempts, true);
    }
  }
  if (!servable) {
    throw apiError("no_provider_available", "No provider is configured for any candidate model (no API key, and the sandbox upstream is off).");
  }
  throw allFailed(attempts, false);
}

export async function complete(candidates: Model[], req: ModelRequest, ctx: CallContext): Promise<CallResult> {
  const served = await serve(candidates, req, ctx, completeOnce);
  const { content, finishReason, usage } = served.value;
  return {
    model: served.route.model,
    completion: { content, finishReason, usage: usage ?? usageOf(estimatePromptTokens(req.messages), estimateTokens(content)) },
    fallbackFrom: served.fallbackFrom,
    attempts: served.attempts,
    sandbox: served.route.sandbox,
    upstreamMs: served.clock.ms,
  };
}

export async function stream(candidates: Model[], req: ModelRequest, ctx: CallContext): Promise<StreamResult> {
  const served = await serve(candidates, req, ctx, openStream);
  const { clock } = served;
  return {
    model: served.route.model,
    fallbackFrom: served.fallbackFrom,
    attempts: served.attempts,
    sandbox: served.route.sandbox,
    // A generator is its own iterable: the stream can be read once, as an upstream body can.
    events: streamEvents(served.value, served.route.model, req, clock),
    upstreamMs: () => clock.ms,
  };
}

/** The rest of an opened stream: the buffered first delta, then upstream messages as they come. */
async function* streamEvents(open: OpenStream, model: Model, req: ModelRequest, clock: UpstreamClock): AsyncGenerator<StreamEvent> {
  const { reader, decoder, deadline } = open;
  let chars = 0;
  try {
    if (open.first !== null) {
      chars += open.first.length;
      yield { type: "delta", content: open.first };
    }
    for (;;) {
      const started = performance.now();
      deadline.waitingOnUpstream(true);
      const msg = await reader.next();
      deadline.waitingOnUpstream(false);
      clock.ms += performance.now() - started;
      if (msg === null) break;
      const delta = decoder.push(msg);
      if (delta) {
        chars += delta.length;
        yield { type: "delta", content: delta };
      }
    }
    const end = decoder.end();
    // Without reported usage, estimate the completion from the characters streamed.
    yield { type: "done", finishReason: end.finishReason, usage: end.usage ?? usageOf(estimatePromptTokens(req.messages), Math.ceil(chars / 4)) };
  } catch (err) {
    const failure = failureOf(err, deadline, null, undefined);
    throw new UpstreamError(`${model.id}: ${failure.error}`, failure.status, model.id, model.provider);
  } finally {
    deadline.dispose();
    reader.cancel();
  }
}
