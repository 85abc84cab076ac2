import * as ed from "@noble/ed25519";
import { sha256, sha512 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import canonicalize from "canonicalize";
import { describe, expect, it } from "vitest";
import { call, eventually, newKey } from "../helpers";
import { ask, orchestrateCall } from "./helpers";

// A third party's verifier from docs/proofs.md alone: nothing from src/.
ed.hashes.sha512 = sha512;
const canon = (v: unknown) => canonicalize(v)!;
const sha = (s: string) => `sha256:${bytesToHex(sha256(utf8ToBytes(s)))}`;
const proofOf = (id: string) => eventually(async () => {
  const r = await call(`/v1/proof/${id}`);
  return r.status === 200 ? r.json : undefined;
});

describe("orchestration receipts (SPEC.md 2.2)", () => {
  it("recompute from the response and the documented formulas; the signature verifies", async () => {
    const { key } = await newKey();
    const messages = ask("Why is the sky blue?");
    const r = await orchestrateCall(key, { messages, strategy: "ensemble_moa", policy: "depth", k: 2, max_tokens: 300, temperature: 0.4 });
    expect(r.status).toBe(200);
    const b = r.json;
    const v = await proofOf(b.svc.proof.request_id);
    expect(v).toMatchObject({ valid: true, signed: true, signature_valid: true, proof_hash: b.svc.proof.proof_hash });
    const receipt = v.receipt;
    expect(receipt).toMatchObject({
      version: "svc-orchestration-v1",
      request_id: b.svc.proof.request_id,
      endpoint: "/v2/orchestrate",
      policy: "depth",
      strategy: "ensemble_moa",
      models_used: b.svc.orchestration.models_used,
      confidence: b.svc.orchestration.confidence,
      agreement: b.svc.orchestration.agreement,
      usage: b.usage,
      cost_usd: b.svc.cost.total_usd,
      sandbox: true,
      compliance: null,
    });
    expect(receipt.stages_hash).toBe(sha(canon(b.svc.stages)));
    expect(receipt.stages_hash).toBe(b.svc.proof.stages_hash);
    expect(receipt.request_hash).toBe(sha(canon({ messages, policy: "depth", strategy: "ensemble_moa", max_tokens: 300, temperature: 0.4 })));
    expect(receipt.response_hash).toBe(sha(canon({ content: b.choices[0].message.content })));
    expect(sha(canon(receipt))).toBe(b.svc.proof.proof_hash);
    const pub = (await call("/v1/proof/pubkey")).json;
    expect(ed.verify(hexToBytes(v.signature), utf8ToBytes(b.svc.proof.proof_hash), hexToBytes(pub.public_key_hex))).toBe(true);
    // The receipt holds hashes, never the text.
    expect(JSON.stringify(receipt)).not.toContain("sky");
  });

  it("the worked example of docs/proofs.md recomputes by hand", () => {
    const stages = [{ name: "answer", results: [{ model: "gpt-5-nano", ok: true, in_tokens: 5, out_tokens: 9, latency_ms: 12, cost_usd: 0.00000385, confidence: 0.6, role: "answer" }], detail: { routed: "gpt-5-nano", fallback: false } }];
    const stagesHash = sha(canon(stages));
    expect(stagesHash).toBe("sha256:b592e72e45dbc9a79c3ed5aeb2dc2892a29beda02a2b99a276b6ab201863c34a");
    const requestHash = sha(canon({ messages: [{ role: "user", content: "Say hi." }], policy: "balanced", strategy: "single", max_tokens: 1024, temperature: 0.7 }));
    expect(requestHash).toBe("sha256:1ed3aabfda5c8db4157560e0cf8f9c4ca41a67044bb3a92bfac2653ed4b40a9d");
    const responseHash = sha(canon({ content: "Hi!" }));
    expect(responseHash).toBe("sha256:80019cfb6d0ba70f3722ca727e33267e4451f396aeb5c37425689c4602ad6231");
    const receipt = {
      version: "svc-orchestration-v1", request_id: "5f0c6a52-1d2e-4c1b-9a7e-2b8f3c4d5e6f", timestamp: "2026-11-22T18:00:00.000Z", endpoint: "/v2/orchestrate",
      policy: "balanced", strategy: "single", models_used: ["gpt-5-nano"], confidence: 0.6, agreement: 1,
      request_hash: requestHash, response_hash: responseHash, stages_hash: stagesHash,
      usage: { prompt_tokens: 5, completion_tokens: 9, total_tokens: 14 }, cost_usd: 0.00000385, sandbox: true, compliance: null,
    };
    expect(sha(canon(receipt))).toBe("sha256:bb780c15a315ad2b3b42e38a07b9c5d7939a65906e15e06eb788135ba0346e89");
  });
});
