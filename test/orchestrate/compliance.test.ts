import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import canonicalize from "canonicalize";
import { describe, expect, it } from "vitest";
import { findModel } from "../../src/catalog/models";
import { newKey } from "../helpers";
import { ask, expectConsistent, orchestrateCall, results } from "./helpers";

const ALLOW = { provider_allowlist: ["anthropic", "openai"] };

describe("POST /v2/orchestrate: compliance (SPEC.md 4.2, 2.2)", () => {
  it("non-compliant models are removed before any scoring: every call of every stage is on an allowed provider", async () => {
    const { key } = await newKey();
    for (const strategy of ["ensemble_moa", "cascade", "debate"]) {
      const r = await orchestrateCall(key, { messages: ask("Why is the sky blue?"), strategy, compliance: ALLOW });
      expect(r.status, r.text).toBe(200);
      await expectConsistent(r.json);
      for (const x of results(r.json)) expect(ALLOW.provider_allowlist, `${strategy} ${x.role} ${x.model}`).toContain(findModel(x.model)!.provider);
      expect(r.json.svc.compliance).toMatchObject({ policy_active: true });
      expect(r.json.svc.compliance.excluded_count).toBeGreaterThan(0);
      // decision_hash = sha256(canonical(svc.compliance)) (docs/proofs.md)
      expect(r.json.svc.proof.compliance.decision_hash).toBe(`sha256:${bytesToHex(sha256(utf8ToBytes(canonicalize(r.json.svc.compliance)!)))}`);
    }
  });

  it("brain_config.compliance applies when compliance is omitted; none: no svc.compliance", async () => {
    const { key } = await newKey();
    const r = await orchestrateCall(key, { messages: ask("Why is the sky blue?"), strategy: "single", brain_config: { compliance: { provider_allowlist: ["google"] } } });
    expect(r.status).toBe(200);
    expect(findModel(results(r.json)[0].model)!.provider).toBe("google");
    const plain = await orchestrateCall(key, { messages: ask("Why is the sky blue?"), strategy: "single" });
    expect(plain.json.svc.compliance).toBeUndefined();
    expect(plain.json.svc.proof.compliance).toBeUndefined();
  });

  it("a policy no model passes is refused before any call; a bad policy is 400", async () => {
    const { key } = await newKey();
    const none = await orchestrateCall(key, { messages: ask("Why is the sky blue?"), compliance: { provider_allowlist: ["openai"], provider_denylist: ["openai"] } });
    expect(none.status).toBe(422);
    expect(none.json.error).toBe("no_compliant_model");
    const bad = await orchestrateCall(key, { messages: ask("Why is the sky blue?"), compliance: { block_data_classes: ["BOGUS"] } });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toBe("invalid_request");
  });
});
