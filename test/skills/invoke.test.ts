import { env, evictDurableObject, runInDurableObject } from "cloudflare:test";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import canonicalize from "canonicalize";
import { beforeAll, describe, expect, it } from "vitest";
import { app } from "../../src/app";
import { FREE_MODEL_IDS, findModel, MODELS } from "../../src/catalog/models";
import { HOUR_MS, limiterFor, type RateLimiter } from "../../src/limits/rate-limiter";
import { SIGNALS } from "../../src/routing/types";
import { sseEvents } from "../chat/sse-parse";
import { call, eventually, newKey } from "../helpers";

/** SPEC.md 4.9 `POST /v1/skills/{skill_id}/invoke`, over the chat pipeline of src/calls (sandbox upstream). */

const sha = (s: string) => `sha256:${bytesToHex(sha256(utf8ToBytes(s)))}`;

let key: string;
let codeReview: { id: string; name: string; raw: string; source: string };
beforeAll(async () => {
  key = (await newKey("pro")).key;
  codeReview = (await call("/v1/skills/code-review")).json;
});

const TASK = "Review this function:\n\nfunction add(a, b) { return a - b; }";
const invoke = (skill: string, body: Record<string, unknown>, k: string = key, headers: Record<string, string> = {}) =>
  call(`/v1/skills/${skill}/invoke`, { key: k, json: { task: TASK, ...body }, headers });

const lastChunk = (text: string) => {
  const events = sseEvents(text);
  expect(events.at(-1)).toBe("[DONE]");
  return JSON.parse(events.at(-2)!);
};

describe("POST /v1/skills/{skill_id}/invoke (SPEC.md 4.9)", () => {
  it("answers a chat completion (SPEC.md 2.1) with svc.skill and svc.routing.model", async () => {
    const r = await invoke("code-review", {});
    expect(r.status).toBe(200);
    const b = r.json;
    expect(b.id).toMatch(/^svc-/);
    expect(b.object).toBe("chat.completion");
    expect(Number.isInteger(b.created)).toBe(true);
    const model = findModel(b.model)!;
    expect(model.id).toBe(b.model);
    expect(b.choices).toEqual([{ index: 0, message: { role: "assistant", content: expect.any(String) }, finish_reason: expect.any(String) }]);
    expect(b.choices[0].message.content.length).toBeGreaterThan(0);
    expect(b.usage.total_tokens).toBe(b.usage.prompt_tokens + b.usage.completion_tokens);

    expect(b.svc.skill).toEqual({ id: "code-review", name: "Code Review", source: "src/skills/library/code-review.md" });
    expect(b.svc.routing).toMatchObject({ model: b.model, model_display: model.display_name, provider: model.provider, tier: model.tier, reason: expect.any(String) });
    expect(["quality", "balanced", "agility"]).toContain(b.svc.routing.mode);
    expect(Object.keys(b.svc.routing.signals_detected).sort()).toEqual([...SIGNALS].sort());
    expect(b.svc.cost.total_usd).toBeCloseTo(b.svc.cost.input_usd + b.svc.cost.output_usd, 12);
    expect(b.svc.cost.input_usd).toBeCloseTo((b.usage.prompt_tokens * model.input_usd_per_mtok) / 1e6, 12);
    expect(Number.isInteger(b.svc.latency_ms)).toBe(true);
    expect(b.svc.proof).toMatchObject({ request_id: b.id.slice(4), proof_hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/), model: b.model, verifiable: true });
    expect(b.svc).toMatchObject({ fallback: false, fallback_from: null, fallback_to: null, sandbox: true });
    expect(b.svc.intensity).toBeUndefined();
    expect(r.headers.get("x-request-id")).toBe(b.svc.proof.request_id);
    expect(Number(r.headers.get("x-svc-overhead-us"))).toBeGreaterThanOrEqual(0);
  });

  it("sends the skill body as the system prompt and the task as the user message (the receipt's request_hash)", async () => {
    const b = (await invoke("code-review", {})).json;
    const messages = [
      { role: "system", content: codeReview.raw },
      { role: "user", content: TASK },
    ];
    // Defaults: model auto, max_tokens 4096 (docs/skills.md), temperature as chat (0.7).
    expect(b.svc.proof.request_hash).toBe(sha(canonicalize({ messages, model: "auto", max_tokens: 4096, temperature: 0.7 })!));
    // The system prompt is billed: about 4 characters a token.
    expect(b.usage.prompt_tokens).toBeGreaterThan(codeReview.raw.length / 6);
  });

  it("stores a signed receipt naming the skill's endpoint and records one usage row", async () => {
    const { key: own } = await newKey("pro");
    const b = (await invoke("sql-tuning", { task: "SELECT * FROM orders WHERE date(created_at) = '2026-01-01'", max_tokens: 200 }, own)).json;
    const proof = await eventually(async () => {
      const r = await call(`/v1/proof/${b.svc.proof.request_id}`);
      return r.status === 200 ? r.json : undefined;
    });
    expect(proof).toMatchObject({ valid: true, signed: true, signature_valid: true, proof_hash: b.svc.proof.proof_hash });
    expect(proof.receipt).toMatchObject({ endpoint: "/v1/skills/sql-tuning/invoke", model: b.model, usage: b.usage, cost_usd: b.svc.cost.total_usd });
    const usage = await eventually(async () => {
      const r = await call("/v1/usage", { key: own });
      return r.json.total_requests === 1 ? r.json : undefined;
    });
    expect(usage.total_tokens).toBe(b.usage.total_tokens);
    expect(usage.total_cost_usd).toBeCloseTo(b.svc.cost.total_usd, 9);
    expect(usage.recent[0]).toMatchObject({ model: b.model, endpoint: "/v1/skills/sql-tuning/invoke" });
  });

  it("streams SSE chunks ending with usage and svc (with svc.skill) before [DONE], and records the call", async () => {
    const { key: own } = await newKey("pro");
    const r = await invoke("commit-message", { stream: true, model: "gpt-5-mini", task: "diff --git a/x b/x\n-retries = 0\n+retries = 3" }, own);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const events = sseEvents(r.text);
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e));
    expect(chunks[0].choices[0].delta.role).toBe("assistant");
    expect(chunks.map((ch) => ch.choices[0]?.delta?.content ?? "").join("").length).toBeGreaterThan(0);
    const last = lastChunk(r.text);
    expect(last.choices).toEqual([]);
    expect(last.model).toBe("gpt-5-mini");
    expect(last.svc.skill).toEqual({ id: "commit-message", name: "Commit Message", source: "src/skills/library/commit-message.md" });
    expect(last.svc.routing).toMatchObject({ model: "gpt-5-mini", mode: "direct" });
    const usage = await eventually(async () => {
      const u = await call("/v1/usage", { key: own });
      return u.json.total_requests === 1 ? u.json : undefined;
    });
    expect(usage.total_tokens).toBe(last.usage.total_tokens);
    expect(usage.recent[0].endpoint).toBe("/v1/skills/commit-message/invoke");
  });

  it("pins a catalog id, honours max_tokens, and falls back like chat", async () => {
    const pinned = (await invoke("regex-explainer", { model: "claude-haiku-4-5", max_tokens: 40, task: "^(a+)+$" })).json;
    expect(pinned.model).toBe("claude-haiku-4-5");
    expect(pinned.svc.routing).toMatchObject({ mode: "direct", model: "claude-haiku-4-5", provider: "anthropic" });
    expect(pinned.usage.completion_tokens).toBeLessThanOrEqual(40);

    const fell = (await invoke("regex-explainer", { model: "gpt-5-mini", task: "^\\d+$" }, key, { "x-sandbox-fault": "gpt-5-mini=503" })).json;
    expect(fell.svc).toMatchObject({ fallback: true, fallback_from: "gpt-5-mini", fallback_to: fell.model });
    expect(fell.svc.skill.id).toBe("regex-explainer");
  });

  it("applies routing_mode and brain_config as chat does", async () => {
    const blocked = (await invoke("code-review", { brain_config: { blocked: ["openai", "google", "anthropic"] }, routing_mode: "quality" })).json;
    expect(["openai", "google", "anthropic"]).not.toContain(blocked.svc.routing.provider);
    expect(blocked.svc.routing.mode).toBe("quality");
    const ruled = (await invoke("docs-editor", { task: "Fix the grammar of our README", brain_config: { rules: [{ when: { contains: "README" }, model: "mistral-medium-2508" }] } })).json;
    expect(ruled.model).toBe("mistral-medium-2508");
  });
});

describe("intensity ids (docs/skills.md: laser-1 premium and frontier, halo-1 mid, foton-1 budget)", () => {
  const TASKS = [TASK, "Say hello.", "Prove that the square root of 2 is irrational.", "Summarise this incident timeline: 10:02 alert, 10:07 ack, 10:31 rollback."];
  const EXPECTED = { "laser-1": ["premium", "frontier"], "halo-1": ["mid"], "foton-1": ["budget"] } as const;
  const LEVEL = { "laser-1": "Laser", "halo-1": "Halo", "foton-1": "Foton" } as const;

  for (const [id, tiers] of Object.entries(EXPECTED) as Array<[keyof typeof EXPECTED, readonly string[]]>) {
    it(`${id} keeps routing on the ${tiers.join(" and ")} tier${tiers.length > 1 ? "s" : ""} whatever the task and mode`, async () => {
      for (const task of TASKS) {
        for (const routing_mode of [undefined, "quality", "agility"]) {
          const r = await invoke("debugging", { model: id, task, ...(routing_mode ? { routing_mode } : {}) });
          expect(r.status).toBe(200);
          expect(tiers, `${id} ${routing_mode} ${task}`).toContain(r.json.svc.routing.tier);
          expect(findModel(r.json.model)!.tier).toBe(r.json.svc.routing.tier);
          expect(r.json.svc.intensity).toEqual({ id, level: LEVEL[id], tiers, applied: true });
        }
      }
    });
  }

  it("laser-1 in quality mode reaches the frontier tier for code; in the default mode the cheaper premium tier", async () => {
    // A strong task: routing puts it on frontier in quality mode (docs/routing.md, "Modes").
    const task =
      "Review this lock-free queue for ABA and memory-ordering bugs under concurrent producers and consumers, and propose a fix with a proof sketch:\n\n" +
      "```c\nvoid push(node *n) { n->next = head; while (!CAS(&head, n->next, n)) n->next = head; }\n```";
    const quality = (await invoke("code-review", { model: "laser-1", routing_mode: "quality", task })).json;
    expect(quality.svc.routing.tier).toBe("frontier");
    const balanced = (await invoke("code-review", { model: "laser-1", task })).json;
    expect(balanced.svc.routing.tier).toBe("premium");
  });

  it("a brain_config pin outside the intensity is refused with the reason, and routing stays inside it", async () => {
    const r = (await invoke("code-review", { model: "halo-1", brain_config: { model: "gpt-5-nano" } })).json;
    expect(r.svc.routing.tier).toBe("mid");
    expect(r.svc.routing.reason).toContain("gpt-5-nano (brain_config model) is outside intensity halo-1");
  });
});

describe("skill capabilities (front matter `capabilities`, docs/skills.md)", () => {
  it("routes a code skill to a model with code support even when the task itself carries no code signal", async () => {
    for (const model of ["auto", "laser-1", "halo-1", "foton-1", "no-such-model"]) {
      for (const routing_mode of ["quality", "balanced", "agility"]) {
        const r = (await invoke("code-review", { model, routing_mode, task: "Is this fine? Thanks." })).json;
        expect(findModel(r.model)!.capabilities, `${model} ${routing_mode} -> ${r.model}`).toContain("code");
      }
    }
  });

  it("a skill that declares nothing is routed exactly as chat routes the same messages", async () => {
    const task = "Is this fine? Thanks.";
    const r = (await invoke("docs-editor", { model: "foton-1", routing_mode: "agility", task })).json;
    const raw = (await call("/v1/skills/docs-editor")).json.raw;
    const notBudget = MODELS.filter((m) => m.tier !== "budget").map((m) => m.id);
    const chat = await call("/v1/chat/completions", {
      key,
      json: { messages: [{ role: "system", content: raw }, { role: "user", content: task }], routing_mode: "agility", brain_config: { blocked: notBudget } },
    });
    expect(r.model).toBe(chat.json.model);
    // And the code skill does not end up there when that model lacks code support.
    const code = (await invoke("code-review", { model: "foton-1", routing_mode: "agility", task })).json;
    expect(findModel(code.model)!.capabilities).toContain("code");
  });

  it("leaves a request pin alone, but refuses a brain_config pin that lacks the capability", async () => {
    const pinned = (await invoke("code-review", { model: "sonar" })).json;
    expect(pinned.model).toBe("sonar");
    const configured = (await invoke("code-review", { brain_config: { model: "sonar" } })).json;
    expect(findModel(configured.model)!.capabilities).toContain("code");
    expect(configured.svc.routing.reason).toContain("sonar (brain_config model) lacks code support, which skill code-review needs");
  });

  it("gives way on a plan with no such model: a Free key still gets threat-model served on its budget models", async () => {
    const { key: free } = await newKey("free");
    const r = await invoke("threat-model", { task: "Threat model a login form." }, free);
    expect(r.status).toBe(200);
    expect(FREE_MODEL_IDS).toContain(r.json.model);
    const code = (await invoke("code-review", { task: "Is this fine?" }, free)).json;
    expect(code.model).toBe("gpt-5-nano");
  });
});

describe("compliance (brain_config.compliance, as on chat)", () => {
  const PHI = "Draft the postmortem: the export job sent Mrs. Alvarez's record (diagnosed with type 2 diabetes, started on metformin 500 mg) to the wrong clinic.";

  it("routes only among compliant models and carries the decision in svc.compliance, beside svc.skill", async () => {
    const r = await invoke("incident-postmortem", { task: PHI, brain_config: { compliance: { block_data_classes: ["PHI"], frameworks: ["HIPAA"] } } });
    expect(r.status).toBe(200);
    expect(r.json.svc.compliance).toMatchObject({ policy_active: true, detected_classes: ["PHI"], matrix_version: "rcm-2026.06-baseline" });
    expect(r.json.svc.compliance.allowed).toContain(r.json.model);
    expect(r.json.svc.skill.id).toBe("incident-postmortem");
  });

  it("keeps the intensity and the skill's capabilities inside the policy, streamed too", async () => {
    const r = await invoke("code-review", { model: "laser-1", stream: true, brain_config: { compliance: { provider_allowlist: ["anthropic"] } } });
    const last = lastChunk(r.text);
    expect(last.svc.routing.provider).toBe("anthropic");
    expect(["premium", "frontier"]).toContain(last.svc.routing.tier);
    expect(findModel(last.model)!.capabilities).toContain("code");
    expect(last.svc.compliance.allowed).toContain(last.model);
    expect(last.svc.intensity.applied).toBe(true);
  });

  it("an intensity the policy leaves no model for gives way, and says so", async () => {
    // Mistral's catalog models are all mid-tier.
    const r = (await invoke("code-review", { model: "laser-1", brain_config: { compliance: { provider_allowlist: ["mistral"] } } })).json;
    expect(r.svc.routing.provider).toBe("mistral");
    expect(r.svc.intensity).toMatchObject({ id: "laser-1", applied: false, note: expect.stringContaining("compliance policy") });
  });

  it("422 no_compliant_model when the policy excludes every model; nothing is called or billed", async () => {
    const { key: own } = await newKey("pro");
    const r = await invoke("runbook-writer", { task: "Rotate the key AKIA6I8J76B2LAJLJ4H9 on the deploy host", brain_config: { compliance: { block_data_classes: ["SECRETS"] } } }, own);
    expect(r.status).toBe(422);
    expect(r.json.error).toMatchObject({ code: "no_compliant_model", type: "invalid_request_error", detected_classes: ["SECRETS"] });
    expect((await call("/v1/usage", { key: own })).json.total_requests).toBe(0);
  });
});

describe("Free plan (SPEC.md section 8, rule 2)", () => {
  it("keeps a Free key on the three cheapest budget models for auto, a pin, and every intensity", async () => {
    const { key: free } = await newKey("free");
    for (const model of ["auto", "gpt-5.2", "laser-1", "halo-1", "foton-1"]) {
      const r = await invoke("threat-model", { model, task: "Threat model a webhook receiver that writes to S3." }, free);
      expect(r.status, model).toBe(200);
      expect(FREE_MODEL_IDS, model).toContain(r.json.model);
    }
  });

  it("says when the plan overrides an intensity", async () => {
    const { key: free } = await newKey("free");
    const laser = (await invoke("threat-model", { model: "laser-1" }, free)).json;
    expect(laser.svc.intensity).toMatchObject({ id: "laser-1", applied: false, note: expect.stringContaining("plan") });
    const foton = (await invoke("threat-model", { model: "foton-1" }, free)).json;
    expect(foton.svc.intensity).toMatchObject({ id: "foton-1", applied: true });
  });
});

// Skill invoke answers a chat completion: errors SPEC.md section 7 does not fix are OpenAI's error
// object (docs/skills.md), the 401 stays wrapped.
describe("errors", () => {
  it("answers 401 invalid_api_key (wrapped) without a key or with a bad one, even for an unknown skill", async () => {
    for (const path of ["/v1/skills/code-review/invoke", "/v1/skills/no-such-skill/invoke"]) {
      for (const headers of [{}, { authorization: "Bearer svc_sk_nope" }] as Array<Record<string, string>>) {
        const r = await call(path, { json: { task: TASK }, headers });
        expect(r.status).toBe(401);
        expect(r.json.detail.error).toBe("invalid_api_key");
      }
    }
  });

  it("answers 404 skill_not_found for an unknown skill, whatever the body", async () => {
    for (const json of [{ task: TASK }, {}, { task: 42 }]) {
      const r = await call("/v1/skills/no-such-skill/invoke", { key, json });
      expect(r.status).toBe(404);
      expect(r.json.error).toMatchObject({ code: "skill_not_found", type: "invalid_request_error", param: null });
      expect(r.json.error.message).toContain("no-such-skill");
    }
  });

  const BAD: Array<[string, unknown]> = [
    ["no task", {}],
    ["an empty task", { task: "" }],
    ["a whitespace task", { task: "  \n\t" }],
    ["a task that is not a string", { task: ["review", "this"] }],
    ["an unknown field", { task: TASK, prompt: TASK }],
    ["max_tokens 0", { task: TASK, max_tokens: 0 }],
    ["a fractional max_tokens", { task: TASK, max_tokens: 10.5 }],
    ["routing_mode direct", { task: TASK, routing_mode: "direct" }],
    ["a string stream flag", { task: TASK, stream: "yes" }],
    ["temperature above 2", { task: TASK, temperature: 2.5 }],
    ["an empty model", { task: TASK, model: " " }],
    ["an invalid brain_config", { task: TASK, brain_config: { max_cost: -1 } }],
    ["a body that is an array", [TASK]],
  ];
  it.each(BAD)("answers 400 invalid_request for %s, and records nothing", async (_label, json) => {
    const { key: own } = await newKey("pro");
    const r = await call("/v1/skills/code-review/invoke", { key: own, json });
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ code: "invalid_request", type: "invalid_request_error" });
    expect(r.json.error.message.length).toBeGreaterThan(0);
    // The zod issues stay in the body; param names the first invalid field when there is one.
    expect(Array.isArray(r.json.error.issues)).toBe(true);
    const usage = (await call("/v1/usage", { key: own })).json;
    expect(usage.total_requests).toBe(0);
  });

  it("keeps SPEC.md section 7's shapes: 429 rate_limit_exceeded wrapped, 429 daily_limit_exceeded flat", async () => {
    const { key: free } = await newKey("free"); // RPM 10
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await call("/v1/skills/code-review/invoke", { key: free, json: {} })).status);
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    const limited = await call("/v1/skills/code-review/invoke", { key: free, json: { task: TASK } });
    expect(limited.status).toBe(429);
    expect(limited.json).toEqual({ detail: { error: "rate_limit_exceeded", message: expect.stringContaining("10 requests per minute") } });

    const { key: full, record } = await newKey("free");
    const stub = limiterFor(env, record.id);
    await runInDurableObject(stub, (_instance: RateLimiter, state) => {
      const hour = Date.now() - (Date.now() % HOUR_MS) - HOUR_MS;
      state.storage.sql.exec("INSERT INTO hour_buckets (hour, count) VALUES (?, ?)", hour, 1000);
    });
    await evictDurableObject(stub);
    const daily = await call("/v1/skills/code-review/invoke", { key: full, json: { task: TASK } });
    expect(daily.status).toBe(429);
    expect(daily.json).toMatchObject({ error: "daily_limit_exceeded", plan: "free", daily_limit: 1000, used_today: 1000 });
  });

  it("names the invalid field in param, as chat completions do", async () => {
    const r = await call("/v1/skills/code-review/invoke", { key, json: { task: TASK, max_tokens: 0 } });
    expect(r.status).toBe(400);
    expect(r.json.error.param).toBe("max_tokens");
    expect(r.json.error.message).toContain("max_tokens");
  });

  it("answers 400 for a body that is not JSON", async () => {
    const r = await call("/v1/skills/code-review/invoke", { key, body: "task=review", headers: { "content-type": "application/json" } });
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ code: "invalid_request", type: "invalid_request_error" });
  });

  it("answers 503 no_provider_available with the sandbox off and no provider keys", async () => {
    const res = await app.request(
      "/v1/skills/code-review/invoke",
      { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify({ task: TASK }) },
      { ...env, SANDBOX_UPSTREAM: "off" },
    );
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ error: { code: "no_provider_available", type: "server_error" } });
  });
});
