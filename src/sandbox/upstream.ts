/**
 * The sandbox upstream: an in-process server for the three wire protocols, reached through the
 * same adapters and the same fetch-shaped seam as a real provider, at
 * `https://sandbox.local/<provider>/...`. The edge hands `sandboxUpstream(faults)` to the
 * model-call service as the upstream of providers without a key, and only when SANDBOX_UPSTREAM is
 * "on"; the provider core never imports this folder. Each client request gets its own instance,
 * which counts the attempts per model and per provider that the `*N` fault limits count against.
 */
import { MODELS, type Model, type ProviderId } from "../catalog/models";
import { isObject } from "../providers/adapter";
import { PROVIDER_REGISTRY } from "../providers/registry";
import { sseBytes } from "../providers/sse";
import type { KeylessUpstream, Protocol } from "../providers/types";
import { sandboxAnswer } from "./answer";
import { anthropicSandbox } from "./anthropic";
import { faultFor, FaultSyntaxError, parseFaults, type Fault, type FaultRule } from "./faults";
import { geminiSandbox } from "./gemini";
import { BadRequest, json, sseResponse, wait, type Parsed, type Reply, type SandboxProtocol } from "./http";
import { openaiSandbox } from "./openai";

export const SANDBOX_ORIGIN = "https://sandbox.local";

const PROTOCOLS: Readonly<Record<Protocol, SandboxProtocol>> = { openai: openaiSandbox, anthropic: anthropicSandbox, gemini: geminiSandbox };

/** A 200 that the caller cannot use: a malformed body, or a connection that stops early. */
function broken(protocol: SandboxProtocol, fault: "malformed" | "cut" | "cut0", reply: Reply): Response {
  if (fault === "malformed") {
    if (reply.parsed.stream) return sseResponse([sseBytes('{"sandbox": "malformed stream", "choices": [{"delta": {"content": "Hel'), sseBytes("not json at all")]);
    return new Response('{"id": "sandbox-malformed", "choices": [{"message": {"content": "Hel', { headers: { "content-type": "application/json" } });
  }
  if (!reply.parsed.stream) {
    // A body that stops half-way is the non-streaming form of a cut connection.
    const whole = JSON.stringify(protocol.body(reply));
    return new Response(whole.slice(0, Math.floor(whole.length / 2)), { headers: { "content-type": "application/json" } });
  }
  const { frames, firstContent } = protocol.frames(reply);
  return sseResponse(frames.slice(0, fault === "cut" ? firstContent + 1 : firstContent));
}

/** Attempt numbers within one client request, per model id and per provider id. */
class AttemptCounter {
  private readonly counts = new Map<string, number>();
  next(model: Model): { model: number; provider: number } {
    const m = (this.counts.get(model.id) ?? 0) + 1;
    const p = (this.counts.get(model.provider) ?? 0) + 1;
    this.counts.set(model.id, m);
    this.counts.set(model.provider, p);
    return { model: m, provider: p };
  }
}

/**
 * The sandbox for one client request. `faults` is the raw `x-sandbox-fault` header (or null); a
 * syntax error in it is answered by the sandbox as a 400 in the protocol's own shape, as a real
 * upstream answers a bad request.
 */
export function sandboxUpstream(faults: string | null): KeylessUpstream {
  let rules: FaultRule[] | FaultSyntaxError = [];
  if (faults) {
    try {
      rules = parseFaults(faults);
    } catch (err) {
      if (!(err instanceof FaultSyntaxError)) throw err;
      rules = err;
    }
  }
  const attempts = new AttemptCounter();

  async function serve(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const request = new Request(input, init);
    const signal = init?.signal ?? request.signal;
    const url = new URL(request.url);
    const [provider, ...restParts] = url.pathname.slice(1).split("/");
    if (url.origin !== SANDBOX_ORIGIN || !provider || !(provider in PROVIDER_REGISTRY)) {
      return json({ error: { message: `The sandbox upstream does not serve ${request.url}.` } }, 404);
    }
    const providerId = provider as ProviderId;
    const protocol = PROTOCOLS[PROVIDER_REGISTRY[providerId].protocol];
    const path = protocol.route(decodeURIComponent(restParts.join("/")));
    if (!path || request.method !== "POST") return protocol.error(404, `No sandbox endpoint ${request.method} ${url.pathname}.`);
    const raw = await request.text();

    let parsed: Parsed;
    try {
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        throw new BadRequest("The request body is not valid JSON.");
      }
      if (!isObject(body)) throw new BadRequest("The request body must be a JSON object.");
      parsed = protocol.parse(body, path, url);
    } catch (err) {
      if (err instanceof BadRequest) return protocol.error(err.status, err.message);
      throw err;
    }

    const model = MODELS.find((m) => m.provider === providerId && m.upstream_id === parsed.upstreamId);
    if (!model) return protocol.error(404, `The model \`${parsed.upstreamId}\` does not exist at ${providerId} (sandbox).`);

    if (rules instanceof FaultSyntaxError) return protocol.error(400, rules.message);
    const n = attempts.next(model);
    const fault: Fault | null = faultFor(rules, model.id, providerId, n.model, n.provider);
    if (fault?.kind === "timeout") await wait(Infinity, signal);
    if (fault?.kind === "latency") await wait(fault.ms, signal);
    if (fault?.kind === "status") return protocol.error(fault.status, `Sandbox fault injected: HTTP ${fault.status} for ${model.id}.`);

    // As the real upstreams do, a model without the `n` capability refuses several choices.
    if (parsed.choices > 1 && !model.capabilities.includes("n")) return protocol.error(400, `${model.id} returns one choice per request (sandbox): n must be 1.`);
    const answer = sandboxAnswer(model, parsed.prompt, raw, n.model);
    // Each further choice is the answer to the same request with its index: distinct and deterministic.
    const answers = [answer, ...Array.from({ length: parsed.choices - 1 }, (_, i) => sandboxAnswer(model, parsed.prompt, `${raw}\u0000choice ${i + 1}`, n.model))];
    const reply: Reply = { model, parsed, answer, answers };
    if (fault?.kind === "malformed" || fault?.kind === "cut" || fault?.kind === "cut0") return broken(protocol, fault.kind, reply);
    if (parsed.stream) return sseResponse(protocol.frames(reply).frames, fault?.kind === "drip" ? fault.ms : 0);
    return json(protocol.body(reply));
  }

  return { origin: SANDBOX_ORIGIN, fetch: serve };
}
