import { describe, expect, it } from "vitest";
import { MODELS, PROVIDERS } from "../../src/catalog/models";
import { PROVIDER_REGISTRY } from "../../src/providers/registry";
import { seal } from "../../src/proof/seal";
import { verifySignature, signerFrom } from "../../src/shared/signing";
import type { AttestationFacts } from "../../src/compliance/attestation";
import { applyGate, complianceEligibility, complianceReasons, costPremium } from "../../src/compliance/gate";
import { eligible, exclusion, onPlan } from "../../src/cost/guard";
import { clearanceFromFacts, COMPLIANCE_MATRIX, MATRIX_ROWS, MATRIX_VERSION } from "../../src/compliance/matrix";
import { compliancePolicySchema, INERT_POLICY } from "../../src/compliance/policy";

const policy = (input: unknown) => compliancePolicySchema.parse(input);

describe("1.10 regulatory matrix", () => {
  it("has one row per catalog provider and registry entry, all 12, versioned rcm-2026.06-baseline", () => {
    expect(MATRIX_VERSION).toBe("rcm-2026.06-baseline");
    expect(MATRIX_ROWS.map((r) => r.provider).toSorted()).toEqual([...PROVIDERS].toSorted());
    expect(Object.keys(PROVIDER_REGISTRY).toSorted()).toEqual([...PROVIDERS].toSorted());
    expect(MATRIX_ROWS).toHaveLength(12);
    for (const [id, row] of Object.entries(COMPLIANCE_MATRIX)) expect(row.provider).toBe(id);
  });

  it("clears SECRETS for no provider and derives every clearance from the row's own facts", () => {
    for (const row of MATRIX_ROWS) {
      expect(row.cleared, row.provider).not.toContain("SECRETS");
      expect([...row.cleared], row.provider).toEqual(clearanceFromFacts(row));
      expect(row.sources.length, row.provider).toBeGreaterThan(0);
      for (const url of row.sources) expect(url).toMatch(/^https:\/\//);
      expect(row.data_regions.length, row.provider).toBeGreaterThan(0);
    }
  });

  it("applies the clearance rule as documented", () => {
    expect(clearanceFromFacts({ frameworks: ["GDPR", "HIPAA"], certifications: ["SOC2-TYPE2", "ISO-27001"], zero_retention: true })).toEqual(["PII", "PHI", "FINANCIAL"]);
    expect(clearanceFromFacts({ frameworks: ["HIPAA"], certifications: ["SOC2-TYPE2"], zero_retention: true })).toEqual([]);
    expect(clearanceFromFacts({ frameworks: ["GDPR"], certifications: ["ISO-27001"], zero_retention: false })).toEqual(["PII"]);
    expect(clearanceFromFacts({ frameworks: ["GDPR"], certifications: ["SOC2-TYPE2", "ISO-27001"], zero_retention: false })).toEqual(["PII"]);
  });
});

describe("2.18 compliance policy", () => {
  it("compiles an empty or omitted policy to the inert one", () => {
    expect(policy({})).toEqual(INERT_POLICY);
    expect(INERT_POLICY).toEqual({
      active: false,
      provider_allowlist: [],
      provider_denylist: [],
      allowed_jurisdictions: [],
      data_residency: [],
      required_frameworks: [],
      required_certifications: [],
      block_data_classes: [],
      require_zero_retention: false,
    });
    expect(policy({ jurisdiction: [], frameworks: [], require_zero_retention: false }).active).toBe(false);
    expect(policy({ require_zero_retention: true }).active).toBe(true);
  });

  it("normalises spellings and single values", () => {
    expect(policy({ jurisdiction: "us", certifications: ["SOC 2 Type II", "iso27001"], frameworks: "gdpr", block_data_classes: ["phi", "pii", "phi"], provider_allowlist: "OpenAI" })).toEqual({
      active: true,
      provider_allowlist: ["openai"],
      provider_denylist: [],
      allowed_jurisdictions: ["US"],
      data_residency: [],
      required_frameworks: ["GDPR"],
      required_certifications: ["SOC2-TYPE2", "ISO-27001"],
      block_data_classes: ["PII", "PHI"],
      require_zero_retention: false,
    });
  });

  it("rejects unknown providers, frameworks, certifications, classes and keys with a message naming them", () => {
    const issues = (input: unknown) => compliancePolicySchema.safeParse(input).error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    expect(issues({ provider_allowlist: ["acme"] })).toEqual([expect.stringMatching(/^provider_allowlist\.0: unknown provider "acme"/)]);
    expect(issues({ frameworks: ["FedRAMP"] })![0]).toMatch(/unknown framework "FedRAMP"/);
    expect(issues({ certifications: ["PCI"] })![0]).toMatch(/unknown certification "PCI"/);
    expect(issues({ block_data_classes: ["PASSWORDS"] })![0]).toMatch(/unknown data class "PASSWORDS"/);
    expect(issues({ jurisdictions: ["US"] })![0]).toMatch(/jurisdictions/);
    expect(issues({ require_zero_retention: "yes" })).toHaveLength(1);
  });
});

describe("2.18 gate", () => {
  it("passes every model under the inert policy, even for SECRETS", () => {
    const gate = applyGate(INERT_POLICY, ["SECRETS", "PHI"]);
    expect(gate.allowed).toHaveLength(MODELS.length);
    expect(gate.excluded).toEqual({});
  });

  it("excludes with one reason per failed rule, worded per rule", () => {
    const gate = applyGate(policy({ jurisdiction: ["US"], data_residency: ["US"], certifications: ["ISO-27001"], require_zero_retention: true }), []);
    expect(gate.excluded["deepseek-chat"]).toEqual([
      "deepseek is governed by CN law, not an allowed jurisdiction (US)",
      "deepseek processes data in CN, outside data_residency (US)",
      "deepseek does not hold certification ISO-27001",
      "deepseek offers no zero-retention / no-training mode",
    ]);
    expect(gate.excluded["gemini-2.5-flash"]).toEqual(["google processes data in GLOBAL, outside data_residency (US)", "google does not hold certification ISO-27001"]);
    expect(gate.excluded["mistral-large-2512"]).toEqual([
      "mistral is governed by EU law, not an allowed jurisdiction (US)",
      "mistral processes data in EU, outside data_residency (US)",
    ]);
    expect(gate.allowed.map((m) => m.provider).toSorted()).toEqual(["anthropic", "anthropic", "anthropic", "openai", "openai", "openai", "openai"]);
  });

  it("bars a detected blocked class from providers not cleared for it, and SECRETS from everyone", () => {
    const phi = applyGate(policy({ block_data_classes: ["PHI"] }), ["PHI"]);
    expect(new Set(phi.allowed.map((m) => m.provider))).toEqual(new Set(["openai", "anthropic"]));
    expect(phi.excluded["mistral-medium-2508"]).toEqual(["the text contains PHI, which the policy bars from providers not cleared for it; mistral is cleared for PII, FINANCIAL"]);
    // Blocking a class that is not in the text changes nothing.
    expect(applyGate(policy({ block_data_classes: ["PHI"] }), ["PII"]).allowed).toHaveLength(MODELS.length);
    const secrets = applyGate(policy({ block_data_classes: ["SECRETS"] }), ["SECRETS"]);
    expect(secrets.allowed).toEqual([]);
    expect(secrets.excluded["claude-opus-4-6"]).toEqual(["the text contains SECRETS, which no provider is cleared to receive"]);
  });

  it("honours allow and deny lists", () => {
    const gate = applyGate(policy({ provider_allowlist: ["mistral", "cohere"], provider_denylist: ["cohere"] }), []);
    expect(gate.allowed.map((m) => m.id)).toEqual(["mistral-medium-2508", "mistral-large-2512"]);
    expect(gate.excluded["command-a-03-2025"]).toEqual(["provider cohere is in provider_denylist"]);
    expect(gate.excluded["gpt-5-nano"]).toEqual(["provider openai is not in provider_allowlist (mistral, cohere)"]);
  });

  it("gives the same verdicts as per-model reasons and as a cost-guard predicate that composes", () => {
    const p = policy({ frameworks: ["HIPAA"], block_data_classes: ["PII"] });
    const gate = applyGate(p, ["PII"]);
    const reasons = complianceReasons(p, ["PII"]);
    const rule = complianceEligibility(p, ["PII"]);
    for (const m of MODELS) {
      expect(reasons(m)).toEqual(gate.excluded[m.id] ?? []);
      expect(rule(m) === null).toBe(!(m.id in gate.excluded));
    }
    expect(rule(MODELS.find((m) => m.id === "grok-4")!)).toBe(
      "is excluded by the compliance policy (the text contains PII, which the policy bars from providers not cleared for it; xai is cleared for none)",
    );
    // Composed with the plan predicate: the first rule that excludes speaks.
    const gpt52 = MODELS.find((m) => m.id === "gpt-5.2")!;
    expect(eligible(gpt52, [onPlan(null), rule])).toBe(true);
    expect(exclusion(gpt52, [onPlan(["gpt-5-nano"]), rule])).toBe("is not available on your plan");
    expect(exclusion(MODELS.find((m) => m.id === "grok-4")!, [onPlan(null), rule])).toMatch(/^is excluded by the compliance policy/);
  });
});

describe("2.18 compliance cost premium", () => {
  it("prices the cheapest compliant model against the cheapest overall (blended 3:1 USD per million tokens)", () => {
    const gate = applyGate(policy({ provider_allowlist: ["anthropic"] }), []);
    // llama-3.2-3b: (3 x 0.02 + 0.02) / 4 = 0.02; claude-haiku-4-5: (3 x 1 + 5) / 4 = 2.
    expect(costPremium(gate.allowed)).toEqual({
      compliant_available: true,
      cheapest_unrestricted: "llama-3.2-3b",
      unrestricted_min_usd_mtok: 0.02,
      cheapest_compliant: "claude-haiku-4-5",
      compliant_min_usd_mtok: 2,
      premium_usd_mtok: 1.98,
      premium_pct: 9900,
    });
    expect(costPremium([])).toEqual({
      compliant_available: false,
      cheapest_unrestricted: "llama-3.2-3b",
      unrestricted_min_usd_mtok: 0.02,
      cheapest_compliant: null,
      compliant_min_usd_mtok: null,
      premium_usd_mtok: null,
      premium_pct: null,
    });
  });
});

const attestationHash = (facts: AttestationFacts) => seal("attestation", facts).proofHash;

describe("2.18 attestation hash", () => {
  it("is the proof hash of the svc-attestation-v1 receipt: the version and the six facts, key order irrelevant", () => {
    const facts: AttestationFacts = {
      policy: INERT_POLICY,
      detected_classes: [],
      model: "gpt-5-nano",
      matrix_version: MATRIX_VERSION,
      timestamp: "2026-11-22T18:00:00.000Z",
      request_id: "req-1",
    };
    const sealed = seal("attestation", facts);
    expect(sealed.receipt).toEqual({ version: "svc-attestation-v1", ...facts });
    expect(Object.keys(sealed.receipt).toSorted()).toEqual(["detected_classes", "matrix_version", "model", "policy", "request_id", "timestamp", "version"]);
    expect(sealed.proofHash).toMatch(/^sha256:[0-9a-f]{64}$/);
    const reordered = { request_id: "req-1", timestamp: "2026-11-22T18:00:00.000Z", matrix_version: MATRIX_VERSION, model: "gpt-5-nano", detected_classes: [], policy: INERT_POLICY };
    expect(attestationHash(reordered)).toBe(sealed.proofHash);
    expect(attestationHash({ ...facts, model: "gpt-5-mini" })).not.toBe(sealed.proofHash);
  });
});

describe("2.18 attestation: the worked example of docs/compliance.md", () => {
  it("hashes and signs to the documented values, recomputed with WebCrypto from the documented canonical JSON", async () => {
    const canonical =
      '{"detected_classes":["PHI"],"matrix_version":"rcm-2026.06-baseline","model":"gpt-5-nano","policy":{"active":true,"allowed_jurisdictions":["US"],"block_data_classes":["PHI"],"data_residency":[],"provider_allowlist":[],"provider_denylist":[],"require_zero_retention":false,"required_certifications":[],"required_frameworks":[]},"request_id":"5f0c6b1e-2a53-4f0e-9d7e-0d6f1c2b3a41","timestamp":"2026-11-22T18:30:00.000Z","version":"svc-attestation-v1"}';
    const documented = "sha256:82480e03b0c111f04b46358060f49cfe376e5b24a7af0f3741502ffd1ded7844";
    const signature =
      "5aae593b501875621032b15f46685e70c8994306d34d71d1a6b093803944fcda1a7580173f10fb3441907353986eb1dba5e5c3b934e0c0c1f08d5ab5bdd6560d";
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(canonical)));
    expect(`sha256:${[...digest].map((b) => b.toString(16).padStart(2, "0")).join("")}`).toBe(documented);
    const facts: AttestationFacts = {
      policy: policy({ jurisdiction: ["US"], block_data_classes: ["PHI"] }),
      detected_classes: ["PHI"],
      model: "gpt-5-nano",
      matrix_version: MATRIX_VERSION,
      timestamp: "2026-11-22T18:30:00.000Z",
      request_id: "5f0c6b1e-2a53-4f0e-9d7e-0d6f1c2b3a41",
    };
    expect(attestationHash(facts)).toBe(documented);
    const signer = signerFrom("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")!;
    expect(signer.publicKeyHex).toBe("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a");
    expect(verifySignature(documented, signature, signer.publicKeyHex)).toBe(true);
  });
});
