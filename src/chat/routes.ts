import { Hono, type Context } from "hono";
import type { AppEnv } from "../env";
import { PLANS } from "../plans/plans";
import { complete, stream, type CallContext } from "../providers/call";
import type { ChatMessage, ModelRequest } from "../providers/types";
import { chatRequestSchema } from "../routing/request-schema";
import { route } from "../routing/router";
import type { RouteDecision } from "../routing/types";
import { validate } from "../shared/validate";
import { persistOutcome } from "./persist";
import { chunk, contentChunkEncoder, errorEvent, sseData, SSE_DONE } from "./sse";
import { seal, type Outcome } from "./svc-block";

const ENDPOINT = "/v1/chat/completions";
/** Chunks a stream may queue ahead of a slow client before the upstream read waits. */
const STREAM_QUEUE = 64;

type Ctx = Context<AppEnv>;

/** x-svc-overhead-us: time in the gateway minus time waiting on upstreams. */
function overheadUs(c: Ctx, upstreamMs: number) {
  return String(Math.max(0, Math.round((performance.now() - c.get("startedAt") - upstreamMs) * 1000)));
}

export const chatRoutes = new Hono<AppEnv>().post(ENDPOINT, validate("json", chatRequestSchema), async (c) => {
  const body = c.req.valid("json");
  const key = c.get("apiKey");
  const plan = PLANS[key.plan];
  const messages: ChatMessage[] = body.messages;
  // The schema has applied SPEC.md 4.1's defaults.
  const maxTokens = body.max_tokens;
  const temperature = body.temperature;
  const requestedModel = body.model;

  const decision = route({
    messages,
    model: requestedModel,
    routingMode: body.routing_mode,
    brainConfig: body.brain_config,
    allowedModels: plan.models,
    maxTokens,
  });
  // Unservable candidates (no key, sandbox off) are skipped by the provider layer, which reports a
  // later one serving as a fallback from the intended model, and 503s when none can serve.
  const candidates = decision.candidates;

  const callCtx: CallContext = { env: c.env, faults: c.req.header("x-sandbox-fault") ?? null, signal: c.req.raw.signal };
  const modelRequest: ModelRequest = { messages, maxTokens, temperature };
  const base = {
    requestId: c.get("requestId"),
    created: Math.floor(Date.now() / 1000),
    decision,
    request: { messages, model: requestedModel, max_tokens: maxTokens, temperature },
    endpoint: ENDPOINT,
  };

  if (body.stream) return streamCompletion(c, base, candidates, modelRequest, callCtx);

  const result = await complete(candidates, modelRequest, callCtx);
  const outcome: Outcome = {
    ...base,
    model: result.model,
    fallbackFrom: result.fallbackFrom,
    sandbox: result.sandbox,
    content: result.completion.content,
    finishReason: result.completion.finishReason,
    usage: result.completion.usage,
    latencyMs: Math.round(performance.now() - c.get("startedAt")),
  };
  const { receipt, proof, svc } = seal(outcome);
  c.executionCtx.waitUntil(persistOutcome(c.env, key, outcome, receipt, proof));
  c.header("x-svc-overhead-us", overheadUs(c, result.upstreamMs));
  return c.json({
    id: `svc-${outcome.requestId}`,
    object: "chat.completion",
    created: outcome.created,
    model: outcome.model.id,
    choices: [{ index: 0, message: { role: "assistant", content: outcome.content }, finish_reason: outcome.finishReason }],
    usage: outcome.usage,
    svc,
  });
});

type Base = Pick<Outcome, "requestId" | "created" | "decision" | "request" | "endpoint">;

/**
 * SSE in the OpenAI chunk format. `stream()` has already fallen back as needed before the first
 * content chunk; a failure after it ends the stream with an OpenAI-shaped error event. The last
 * chunk before [DONE] has empty choices and carries usage and svc, which the SDKs accept whether or
 * not stream_options.include_usage was asked for.
 */
async function streamCompletion(c: Ctx, base: Base, candidates: RouteDecision["candidates"], req: ModelRequest, callCtx: CallContext) {
  const key = c.get("apiKey");
  const started = c.get("startedAt");
  const s = await stream(candidates, req, callCtx);
  const id = `svc-${base.requestId}`;
  // Writes are queued, not awaited one by one: awaiting each write would wait for the client to take
  // the chunk before the next upstream read, in lockstep. `ready` still applies backpressure once
  // STREAM_QUEUE chunks are waiting, and close() flushes the rest.
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>(undefined, new CountQueuingStrategy({ highWaterMark: STREAM_QUEUE }));
  const writer = writable.getWriter();
  const send = async (bytes: Uint8Array) => {
    await writer.ready;
    writer.write(bytes).catch(() => {});
  };
  const contentChunk = contentChunkEncoder(id, base.created, s.model.id);

  const pump = async () => {
    let content = "";
    try {
      await send(sseData(chunk(id, base.created, s.model.id, { role: "assistant", content: "" }, null)));
      let done: { finishReason: string; usage: Outcome["usage"] } | undefined;
      for await (const ev of s.events) {
        if (ev.type === "delta") {
          content += ev.content;
          await send(contentChunk(ev.content));
        } else done = ev;
      }
      if (!done) throw new Error("upstream stream ended without a final event");
      await send(sseData(chunk(id, base.created, s.model.id, {}, done.finishReason)));
      const outcome: Outcome = {
        ...base,
        model: s.model,
        fallbackFrom: s.fallbackFrom,
        sandbox: s.sandbox,
        content,
        finishReason: done.finishReason,
        usage: done.usage,
        latencyMs: Math.round(performance.now() - started),
      };
      const { receipt, proof, svc } = seal(outcome);
      await send(sseData({ id, object: "chat.completion.chunk", created: base.created, model: s.model.id, choices: [], usage: done.usage, svc }));
      await send(SSE_DONE);
      await writer.close();
      await persistOutcome(c.env, key, outcome, receipt, proof);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      try {
        await send(sseData(errorEvent(`The upstream stream from ${s.model.id} failed after it began: ${message}`, "upstream_stream_error")));
        await writer.close();
      } catch {
        // The client has gone; nothing left to tell it.
      }
    }
  };
  c.executionCtx.waitUntil(pump());

  return new Response(readable, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      "x-svc-overhead-us": overheadUs(c, s.upstreamMs()),
    },
  });
}
