import { describe, expect, it } from "vitest";
import { MODELS } from "../../src/catalog/models";
import { call, eventually, newKey } from "../helpers";

const PREVIEW = "/v2/compliance/preview";
const ACTIVE_KEYS = [
  "active",
  "allowed_models",
  "classification",
  "compliance_cost_premium",
  "decision",
  "detected_classes",
  "excluded_models",
  "matrix_version",
  "ok",
  "policy",
  "sample_attestation",
];

async function preview(json: unknown, key?: string) {
  return call(PREVIEW, { method: "POST", key: key ?? (await newKey("pro")).key, json });
}

describe("4.10 POST /v2/compliance/preview: access", () => {
  it("needs a key: 401 invalid_api_key (wrapped) without one or with a bad one", async () => {
    for (const headers of [{}, { authorization: "Bearer svc_sk_nope" }] as Array<Record<string, string>>) {
      const r = await call(PREVIEW, { method: "POST", headers, json: { prompt: "hello" } });
      expect(r.status).toBe(401);
      expect(r.json).toEqual({ detail: { error: "invalid_api_key", message: expect.any(String) } });
    }
  });

  it("answers a Free-plan key too, and costs nothing: no usage is recorded", async () => {
    const { key } = await newKey("free");
    const before = await call("/v1/usage", { key });
    const r = await preview({ prompt: "mail me at a.b@acme-corp.io", compliance: { provider_allowlist: ["openai"] } }, key);
    expect(r.status).toBe(200);
    const after = await call("/v1/usage", { key });
    // The request counters move (every request counts against the plan); spend and usage rows do not.
    const { limits: _l1, ...spendBefore } = before.json;
    const { limits: _l2, ...spendAfter } = after.json;
    expect(spendAfter).toEqual(spendBefore);
    expect(spendAfter.recent).toEqual([]);
  });

  it("GET is 405, not a route of its own", async () => {
    const { key } = await newKey("pro");
    const r = await call(PREVIEW, { method: "GET", key });
    expect(r.status).toBe(405);
  });
});

describe("2.18 preview result: inert policy", () => {
  it("returns only active, the classification and a note when no policy is given", async () => {
    const r = await preview({ prompt: "My card is 4526 0181 5908 3012 and my email jo@brightline.co.uk" });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      active: false,
      detected_classes: ["PII", "FINANCIAL"],
      classification: { PII: ["email"], FINANCIAL: ["payment_card"] },
      note: expect.stringContaining("all models are eligible"),
    });
  });

  it("an all-empty policy is inert too", async () => {
    const r = await preview({ prompt: "hello", compliance: { provider_allowlist: [], jurisdiction: [], require_zero_retention: false } });
    expect(r.json.active).toBe(false);
    expect(Object.keys(r.json).toSorted()).toEqual(["active", "classification", "detected_classes", "note"]);
  });
});

describe("2.18 preview result: active policy, every field", () => {
  it("answers every field for a policy that some models pass", async () => {
    const r = await preview({
      prompt: "Patient John Carter, DOB 02/07/1961, prescribed lisinopril 10 mg for hypertension.",
      compliance: { jurisdiction: ["US"], frameworks: ["HIPAA"], block_data_classes: ["PHI", "PII"], require_zero_retention: true },
    });
    expect(r.status).toBe(200);
    const b = r.json;
    expect(Object.keys(b).toSorted()).toEqual(ACTIVE_KEYS);
    expect(b.active).toBe(true);
    expect(b.ok).toBe(true);
    expect(b.policy).toEqual({
      active: true,
      provider_allowlist: [],
      provider_denylist: [],
      allowed_jurisdictions: ["US"],
      data_residency: [],
      required_frameworks: ["HIPAA"],
      required_certifications: [],
      block_data_classes: ["PII", "PHI"],
      require_zero_retention: true,
    });
    expect(b.detected_classes).toEqual(["PII", "PHI"]);
    expect(b.classification).toEqual({ PII: ["date_of_birth"], PHI: ["diagnosis_near_identifier", "prescription_near_identifier"] });
    // Only providers with a HIPAA BAA, cleared for PII and PHI: OpenAI and Anthropic.
    const expectedAllowed = MODELS.filter((m) => m.provider === "openai" || m.provider === "anthropic").map((m) => m.id);
    expect(b.allowed_models).toEqual(expectedAllowed);
    expect(Object.keys(b.excluded_models)).toEqual(MODELS.filter((m) => !expectedAllowed.includes(m.id)).map((m) => m.id));
    expect(b.excluded_models["deepseek-chat"]).toEqual([
      "deepseek is governed by CN law, not an allowed jurisdiction (US)",
      "deepseek does not support framework HIPAA",
      "deepseek offers no zero-retention / no-training mode",
      "the text contains PII, which the policy bars from providers not cleared for it; deepseek is cleared for none",
      "the text contains PHI, which the policy bars from providers not cleared for it; deepseek is cleared for none",
    ]);
    expect(b.excluded_models["grok-4"]).toEqual([
      "the text contains PII, which the policy bars from providers not cleared for it; xai is cleared for none",
      "the text contains PHI, which the policy bars from providers not cleared for it; xai is cleared for none",
    ]);
    expect(b.compliance_cost_premium).toEqual({
      compliant_available: true,
      cheapest_unrestricted: "llama-3.2-3b",
      unrestricted_min_usd_mtok: 0.02,
      cheapest_compliant: "gpt-5-nano",
      compliant_min_usd_mtok: 0.1375,
      premium_usd_mtok: 0.1175,
      premium_pct: 587.5,
    });
    expect(b.decision).toEqual({
      policy: b.policy,
      policy_active: true,
      detected_classes: ["PII", "PHI"],
      allowed: expectedAllowed,
      allowed_count: expectedAllowed.length,
      excluded: Object.keys(b.excluded_models),
      excluded_count: MODELS.length - expectedAllowed.length,
      matrix_version: "rcm-2026.06-baseline",
    });
    expect(b.sample_attestation).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(b.matrix_version).toBe("rcm-2026.06-baseline");
    expect(r.headers.get("x-request-id")).toBeTruthy();
  });

  it("ok is false, with no sample_attestation, when the policy excludes every model", async () => {
    const r = await preview({ prompt: "deploy with AKIA6I8J76B2LAJLJ4H9", compliance: { block_data_classes: ["SECRETS"] } });
    expect(r.status).toBe(200);
    expect(r.json.ok).toBe(false);
    expect(r.json.allowed_models).toEqual([]);
    expect(Object.keys(r.json.excluded_models)).toHaveLength(MODELS.length);
    expect(r.json.excluded_models["gpt-5.2"]).toEqual(["the text contains SECRETS, which no provider is cleared to receive"]);
    expect(r.json.compliance_cost_premium).toMatchObject({ compliant_available: false, cheapest_compliant: null, premium_pct: null });
    expect(r.json.decision.allowed_count).toBe(0);
    expect("sample_attestation" in r.json).toBe(false);
  });

  it("two previews of the same request differ only in the attestation (its request id and time)", async () => {
    const { key } = await newKey("pro");
    const body = { prompt: "hello", compliance: { provider_allowlist: ["mistral"] } };
    const [a, b] = [await preview(body, key), await preview(body, key)];
    expect(a.json.sample_attestation).not.toBe(b.json.sample_attestation);
    expect({ ...a.json, sample_attestation: null }).toEqual({ ...b.json, sample_attestation: null });
    // Mistral Large 3 blends to (3 x 0.5 + 1.5) / 4 = 0.75, Medium 3.1 to (3 x 0.4 + 2) / 4 = 0.8.
    expect(a.json.compliance_cost_premium.cheapest_compliant).toBe("mistral-large-2512");
  });
});

describe("2.18 sample attestation: stored, verifiable at GET /v1/proof/{request_id}", () => {
  it("verifies under the response's x-request-id, with the facts of the preview", async () => {
    const r = await preview({ prompt: "IBAN GB29NWBK60161331926819", compliance: { jurisdiction: "EU", block_data_classes: ["FINANCIAL"] } });
    expect(r.status).toBe(200);
    const requestId = r.headers.get("x-request-id")!;
    // Stored after the response, through the write-behind buffer: visible within a second (docs/storage.md).
    const proof = await eventually(async () => {
      const p = await call(`/v1/proof/${requestId}`);
      return p.status === 200 ? p : undefined;
    }, 1000);
    expect(proof.json).toMatchObject({ object: "proof.verification", request_id: requestId, valid: true, signed: true, signature_valid: true });
    expect(proof.json.proof_hash).toBe(r.json.sample_attestation);
    expect(proof.json.recomputed_proof_hash).toBe(r.json.sample_attestation);
    expect(proof.json.receipt).toEqual({
      version: "svc-attestation-v1",
      policy: r.json.policy,
      detected_classes: ["FINANCIAL"],
      model: "mistral-large-2512",
      matrix_version: "rcm-2026.06-baseline",
      timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      request_id: requestId,
    });
    expect(r.json.compliance_cost_premium.cheapest_compliant).toBe("mistral-large-2512");
  });

  it("stores nothing when the policy is inert or excludes every model", async () => {
    for (const body of [{ prompt: "hello" }, { prompt: "AKIA6I8J76B2LAJLJ4H9", compliance: { block_data_classes: ["SECRETS"] } }]) {
      const r = await preview(body);
      expect(r.status).toBe(200);
      // A preview that does attest, after it: the buffer writes in arrival order, so once this one
      // is stored anything the first had kept would be too.
      const control = await preview({ prompt: "IBAN GB29NWBK60161331926819", compliance: { jurisdiction: "EU", block_data_classes: ["FINANCIAL"] } });
      await eventually(async () => (await call(`/v1/proof/${control.headers.get("x-request-id")}`)).status === 200, 1000);
      const proof = await call(`/v1/proof/${r.headers.get("x-request-id")}`);
      expect(proof.status).toBe(404);
      expect(proof.json.error).toBe("proof_not_found");
    }
  });
});

describe("4.10 preview input", () => {
  it("classifies the last user message when prompt is omitted, reading text parts", async () => {
    const r = await preview({
      messages: [
        { role: "user", content: "my key is AKIA6I8J76B2LAJLJ4H9" },
        { role: "assistant", content: "Please do not share keys." },
        { role: "user", content: [{ type: "text", text: "OK. My IBAN is GB29NWBK60161331926819" }, { type: "image_url", image_url: { url: "https://x" } }] },
        { role: "system", content: "ignored: jo@brightline.co.uk" },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.json.detected_classes).toEqual(["FINANCIAL"]);
  });

  it("prefers prompt over messages", async () => {
    const r = await preview({ prompt: "call +44 20 7946 0958", messages: [{ role: "user", content: "IBAN GB29NWBK60161331926819" }] });
    expect(r.json.detected_classes).toEqual(["PII"]);
  });

  it("uses brain_config.compliance when compliance is omitted, and compliance when both are given", async () => {
    const brain = { brain_config: { model: "auto", compliance: { provider_allowlist: ["cohere"] } } };
    const fromBrain = await preview({ prompt: "hi", ...brain });
    expect(fromBrain.json.active).toBe(true);
    expect(fromBrain.json.allowed_models).toEqual(["command-r-08-2024", "command-a-03-2025"]);
    const both = await preview({ prompt: "hi", ...brain, compliance: { provider_allowlist: ["anthropic"] } });
    expect(both.json.allowed_models).toEqual(["claude-haiku-4-5", "claude-sonnet-4-6", "claude-opus-4-6"]);
  });

  it("422 when neither prompt nor messages gives any text", async () => {
    for (const body of [
      {},
      { prompt: "" },
      { prompt: "   \n" },
      { messages: [] },
      { messages: [{ role: "assistant", content: "only the assistant spoke" }] },
      { messages: [{ role: "user", content: "" }, { role: "user", content: [{ type: "image_url" }] }] },
      { prompt: "", compliance: { provider_allowlist: ["openai"] } },
    ]) {
      const r = await preview(body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.json).toEqual({ error: "unprocessable_request", message: expect.stringContaining("prompt") });
    }
  });

  it("400 invalid_request naming the key for a bad policy, a bad brain_config.compliance, a bad type or an unknown field", async () => {
    const cases: Array<[unknown, string]> = [
      [{ prompt: "x", compliance: { provider_allowlist: ["acme"] } }, "compliance.provider_allowlist.0"],
      [{ prompt: "x", compliance: { certifications: ["PCI"] } }, "compliance.certifications.0"],
      [{ prompt: "x", compliance: { jurisdictions: ["US"] } }, "compliance"],
      [{ prompt: "x", compliance: "strict" }, "compliance"],
      [{ prompt: "x", brain_config: { compliance: { block_data_classes: ["PASSWORDS"] } } }, "brain_config.compliance.block_data_classes.0"],
      [{ prompt: 42 }, "prompt"],
      [{ prompt: "x", model: "gpt-5.2" }, ""],
    ];
    for (const [body, path] of cases) {
      const r = await preview(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error).toBe("invalid_request");
      expect(r.json.issues.map((i: { path: string }) => i.path), JSON.stringify(body)).toContain(path);
    }
  });

  it("400 for a body that is not JSON", async () => {
    const { key } = await newKey("pro");
    const r = await call(PREVIEW, { method: "POST", key, body: "prompt=hi", headers: { "content-type": "application/json" } });
    expect(r.status).toBe(400);
  });
});
