/**
 * The provider layer's entry points: try the candidate models in order, each with a timeout and
 * retries with backoff, and fall back to the next one on failure. Streams fall back only before
 * their first content delta; after it a failure reaches the stream sink (stream-pipe.ts).
 */
import type { Model } from "../catalog/models";
import { estimatePromptTokens, estimateTokens, usageOf } from "../cost/tokens";
import type { Env } from "../env";
import { completeOnce, openStream, type AttemptInput, type Outcome, type Route, type UpstreamClock } from "./attempt";
import { ADAPTERS } from "./protocols";
import { PROVIDER_REGISTRY, providerBaseUrl, providerKey } from "./registry";
import { retryDelay, retryPolicy, type PolicyEnv } from "./retry";
import { textMessages } from "./turns";
import { pipeStream } from "./stream-pipe";
import { AllCandidatesFailed, NoProviderConfigured } from "./upstream-error";
import type { Attempt, CallResult, FetchLike, KeylessUpstream, ModelRequest, StreamResult } from "./types";

export { AllCandidatesFailed, NoProviderConfigured, UpstreamError } from "./upstream-error";

export interface CallContext {
  env: Env & PolicyEnv;
  /** Used for providers that have a key; defaults to the global fetch. */
  fetch?: FetchLike;
  /** Where providers without a key are reached (the sandbox), or null when nowhere. */
  keyless?: KeylessUpstream | null;
  /** The client's request signal: when it aborts, no further attempt is made. */
  signal?: AbortSignal;
}

const globalFetch: FetchLike = (input, init) => fetch(input, init);

/** A key always wins; without one, the keyless upstream the caller handed in (the sandbox), if any. */
function routeFor(model: Model, ctx: CallContext): Route | null {
  const provider = PROVIDER_REGISTRY[model.provider];
  const adapter = ADAPTERS[provider.protocol];
  const apiKey = providerKey(ctx.env, model.provider);
  if (apiKey !== undefined) {
    return { model, adapter, apiKey, baseUrl: providerBaseUrl(ctx.env, model.provider), fetch: ctx.fetch ?? globalFetch, sandbox: false };
  }
  if (ctx.keyless) {
    return { model, adapter, apiKey: undefined, baseUrl: `${ctx.keyless.origin}/${model.provider}`, fetch: ctx.keyless.fetch, sandbox: true };
  }
  return null;
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

const allFailed = (attempts: Attempt[], aborted: boolean) => new AllCandidatesFailed(attempts, aborted);

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
      const out = await once({ route, req, timeoutMs: policy.timeoutMs, signal: ctx.signal, clock });
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
  if (!servable) throw new NoProviderConfigured();
  throw allFailed(attempts, false);
}

export async function complete(candidates: Model[], req: ModelRequest, ctx: CallContext): Promise<CallResult> {
  const served = await serve(candidates, req, ctx, completeOnce);
  const { content, toolCalls, finishReason, usage, choices } = served.value;
  const produced = (choices ?? [served.value]).map((c) => c.content + c.toolCalls.map((t) => t.name + t.arguments).join("")).join("");
  return {
    model: served.route.model,
    completion: { content, toolCalls, finishReason, usage: usage ?? estimatedUsage(req, produced), ...(choices ? { choices } : {}) },
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
    pipe: (sink) => pipeStream(served.value, served.route.model, (produced) => estimatedUsage(req, produced), sink),
    upstreamMs: () => clock.ms,
  };
}

/** Without reported usage: the prompt and the text produced, about 4 characters a token. */
const estimatedUsage = (req: ModelRequest, produced: string) => usageOf(estimatePromptTokens(textMessages(req.messages)), estimateTokens(produced));
