import { describe, expect, it } from "vitest";
import { FREE_MODEL_IDS, MODELS } from "../../src/catalog/models";
import { sseEvents } from "../chat/sse-parse";
import { call, newKey } from "../helpers";

const PHI_TEXT = "Summarise: Mrs. Alvarez was diagnosed with type 2 diabetes and started on metformin 500 mg.";
const providerOf = (id: string) => MODELS.find((m) => m.id === id)!.provider;

async function chat(body: Record<string, unknown>, plan: "pro" | "free" = "pro") {
  const { key } = await newKey(plan);
  return { key, r: await call("/v1/chat/completions", { method: "POST", key, json: { messages: [{ role: "user", content: "Hello there" }], ...body } }) };
}

describe("2.18 compliance on POST /v1/chat/completions (brain_config.compliance)", () => {
  it("routes only among compliant models and carries the decision in svc.compliance", async () => {
    const { r } = await chat({ messages: [{ role: "user", content: PHI_TEXT }], brain_config: { compliance: { block_data_classes: ["PHI"], frameworks: ["HIPAA"] } } });
    expect(r.status).toBe(200);
    expect(["openai", "anthropic"]).toContain(r.json.svc.routing.provider);
    const allowed = MODELS.filter((m) => m.provider === "openai" || m.provider === "anthropic").map((m) => m.id);
    expect(r.json.svc.compliance).toEqual({
      policy: expect.objectContaining({ active: true, required_frameworks: ["HIPAA"], block_data_classes: ["PHI"] }),
      policy_active: true,
      detected_classes: ["PHI"],
      allowed,
      allowed_count: allowed.length,
      excluded: MODELS.filter((m) => !allowed.includes(m.id)).map((m) => m.id),
      excluded_count: MODELS.length - allowed.length,
      matrix_version: "rcm-2026.06-baseline",
    });
  });

  it("routes a pinned model the policy excludes elsewhere, and says why", async () => {
    const { r } = await chat({ model: "gemini-2.5-flash", brain_config: { compliance: { provider_allowlist: ["mistral"] } } });
    expect(r.status).toBe(200);
    expect(r.json.svc.routing.provider).toBe("mistral");
    expect(r.json.svc.routing.reason).toContain("gemini-2.5-flash (the request's model) is excluded by the compliance policy (provider google is not in provider_allowlist (mistral))");
  });

  it("never gives compliance up as a last resort: an impossible cost cap relaxes the cap, not the policy", async () => {
    const { r } = await chat({ brain_config: { max_cost: 0.0000001, compliance: { provider_allowlist: ["anthropic"] } } });
    expect(r.status).toBe(200);
    expect(r.json.svc.routing.provider).toBe("anthropic");
    expect(r.json.svc.routing.reason).toContain("last resort");
  });

  it("streams: the svc on the final chunk carries the decision", async () => {
    const { r } = await chat({ stream: true, brain_config: { compliance: { jurisdiction: "EU" } } });
    expect(r.status).toBe(200);
    const events = sseEvents(r.text);
    expect(events.at(-1)).toBe("[DONE]");
    const last = JSON.parse(events.at(-2)!);
    expect(last.svc.routing.provider).toBe("mistral");
    expect(last.svc.compliance.allowed).toEqual(["mistral-medium-2508", "mistral-large-2512"]);
  });

  it("422 no_compliant_model, naming every model's reasons, when the policy excludes every model; nothing is called or billed", async () => {
    const { key, r } = await chat({ messages: [{ role: "user", content: "deploy with AKIA6I8J76B2LAJLJ4H9 please" }], brain_config: { compliance: { block_data_classes: ["SECRETS"] } } });
    expect(r.status).toBe(422);
    // Chat completions answer OpenAI's error object: the fields sit inside `error` (docs/compatibility.md).
    expect(r.json.error).toEqual({
      code: "no_compliant_model",
      type: "invalid_request_error",
      param: null,
      message: expect.stringContaining("excludes every model"),
      detected_classes: ["SECRETS"],
      excluded_models: Object.fromEntries(MODELS.map((m) => [m.id, ["the text contains SECRETS, which no provider is cleared to receive"]])),
      matrix_version: "rcm-2026.06-baseline",
    });
    const usage = await call("/v1/usage", { key });
    expect(usage.json.recent).toEqual([]);
  });

  it("422 on a Free key when no model of the plan passes, listing only the plan's models", async () => {
    const { r } = await chat({ brain_config: { compliance: { provider_allowlist: ["anthropic"] } } }, "free");
    expect(r.status).toBe(422);
    expect(r.json.error.code).toBe("no_compliant_model");
    expect(r.json.error.message).toContain("your plan allows");
    expect(Object.keys(r.json.error.excluded_models).toSorted()).toEqual([...FREE_MODEL_IDS].toSorted());
  });

  it("400 invalid_request naming the key of a bad policy", async () => {
    const { r } = await chat({ brain_config: { compliance: { certifications: ["FedRAMP"] } } });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe("invalid_request");
    expect(r.json.error.issues).toEqual([{ path: "brain_config.compliance.certifications.0", message: expect.stringContaining('unknown certification "FedRAMP"') }]);
  });

  it("leaves a request without brain_config.compliance untouched (no svc.compliance)", async () => {
    const { r } = await chat({});
    expect(r.status).toBe(200);
    expect("compliance" in r.json.svc).toBe(false);
  });
});

describe("2.18 compliance on POST /v1/route", () => {
  it("filters the candidates and carries svc.compliance", async () => {
    const { key } = await newKey("pro");
    const r = await call("/v1/route", {
      method: "POST",
      key,
      json: { messages: [{ role: "user", content: PHI_TEXT }], brain_config: { compliance: { block_data_classes: ["PHI"] } } },
    });
    expect(r.status).toBe(200);
    for (const id of r.json.svc.candidates) expect(["openai", "anthropic"]).toContain(providerOf(id));
    expect(r.json.svc.compliance.detected_classes).toEqual(["PHI"]);
  });

  it("422 no_compliant_model when nothing passes", async () => {
    const { key } = await newKey("pro");
    const r = await call("/v1/route", {
      method: "POST",
      key,
      json: { messages: [{ role: "user", content: "hi" }], brain_config: { compliance: { jurisdiction: ["JP"] } } },
    });
    expect(r.status).toBe(422);
    expect(r.json.excluded_models["gpt-5.2"]).toEqual(["openai is governed by US law, not an allowed jurisdiction (JP)"]);
  });
});
