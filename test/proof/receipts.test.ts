import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import * as ed from "@noble/ed25519";
import { sha256, sha512 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import canonicalize from "canonicalize";
import { call, eventually, newKey } from "../helpers";

// A third party's verifier, from docs/proofs.md alone: RFC 8785 JSON, SHA-256 and Ed25519 from
// libraries, nothing from src/ (so the test cannot agree with the code by sharing its mistakes).
ed.hashes.sha512 = sha512;
const canon = (v: unknown) => canonicalize(v)!;
const sha = (s: string) => `sha256:${bytesToHex(sha256(utf8ToBytes(s)))}`;
const verify = (message: string, sigHex: string, pubHex: string) => ed.verify(hexToBytes(sigHex), utf8ToBytes(message), hexToBytes(pubHex));

async function completion(key: string, content = "Write a haiku about the sea.") {
  const r = await call("/v1/chat/completions", { key, json: { model: "gpt-5-mini", messages: [{ role: "user", content }], max_tokens: 64, temperature: 0.3 } });
  expect(r.status).toBe(200);
  return r.json;
}

const proofOf = (id: string) => eventually(async () => {
  const r = await call(`/v1/proof/${id}`);
  return r.status === 200 ? r : undefined;
});

describe("proof receipts", () => {
  it("every completion stores a signed receipt that GET /v1/proof/{id} verifies, publicly", async () => {
    const { key } = await newKey();
    const b = await completion(key);
    const r = await proofOf(b.svc.proof.request_id);
    expect(r.json).toMatchObject({
      object: "proof.verification", request_id: b.svc.proof.request_id, valid: true, signed: true, signature_valid: true,
      proof_hash: b.svc.proof.proof_hash, recomputed_proof_hash: b.svc.proof.proof_hash,
    });
    expect(r.json.receipt).toMatchObject({ model: "gpt-5-mini", provider: "openai", mode: "direct", usage: b.usage, cost_usd: b.svc.cost.total_usd });
  });

  it("is checkable by a third party from the documented formulas alone", async () => {
    const { key } = await newKey();
    const messages = [{ role: "user", content: "Name three prime numbers." }];
    const r = await call("/v1/chat/completions", { key, json: { model: "claude-haiku-4-5", messages, max_tokens: 80, temperature: 0.2 } });
    const b = r.json;
    // request_hash and response_hash from what the client sent and received.
    expect(b.svc.proof.request_hash).toBe(sha(canon({ messages, model: "claude-haiku-4-5", max_tokens: 80, temperature: 0.2 })));
    expect(b.svc.proof.response_hash).toBe(sha(canon({ content: b.choices[0].message.content, finish_reason: b.choices[0].finish_reason, model: b.model, usage: b.usage })));
    const v = (await proofOf(b.svc.proof.request_id)).json;
    expect(sha(canon(v.receipt))).toBe(b.svc.proof.proof_hash);
    const pub = (await call("/v1/proof/pubkey")).json;
    expect(verify(b.svc.proof.proof_hash, v.signature, pub.public_key_hex)).toBe(true);
    expect(verify(b.svc.proof.proof_hash.replace(/.$/, (c: string) => (c === "0" ? "1" : "0")), v.signature, pub.public_key_hex)).toBe(false);
  });

  it("a tampered receipt fails verification", async () => {
    const { key } = await newKey();
    const b = await completion(key, "Summarize the plot of Hamlet.");
    const id = b.svc.proof.request_id;
    await proofOf(id);
    await env.DB.prepare("UPDATE proof_receipts SET receipt = replace(receipt, '\"model\":\"gpt-5-mini\"', '\"model\":\"gpt-5-nano\"') WHERE request_id = ?").bind(id).run();
    const r = await call(`/v1/proof/${id}`);
    expect(r.json.valid).toBe(false);
    expect(r.json.recomputed_proof_hash).not.toBe(r.json.proof_hash);

    // A forged hash to match the edit still fails on the signature.
    const row = await env.DB.prepare("SELECT receipt FROM proof_receipts WHERE request_id = ?").bind(id).first<{ receipt: string }>();
    await env.DB.prepare("UPDATE proof_receipts SET proof_hash = ? WHERE request_id = ?").bind(sha(row!.receipt), id).run();
    const forged = await call(`/v1/proof/${id}`);
    expect(forged.json).toMatchObject({ valid: false, signature_valid: false });
  });

  it("an unknown request id is 404 proof_not_found", async () => {
    const r = await call("/v1/proof/nope");
    expect(r.status).toBe(404);
    expect(r.json.error).toBe("proof_not_found");
  });
});

describe("public receipts carry none of the caller's text (issue 18)", () => {
  it("an unknown model string and a rule's match text appear in svc.routing.reason, never in the public receipt", async () => {
    const { key } = await newKey();
    const brain_config = { rules: [{ when: { contains: "acme-internal" }, model: "gpt-5-nano" }] };
    for (const json of [
      { model: "secret-name-123", messages: [{ role: "user", content: "Hello there." }] },
      { model: "auto", brain_config, messages: [{ role: "user", content: "Summarise the acme-internal roadmap." }] },
    ]) {
      const r = await call("/v1/chat/completions", { key, json });
      expect(r.status, r.text).toBe(200);
      const routing = JSON.stringify(r.json.svc.routing);
      expect(routing.includes("secret-name-123") || routing.includes("acme-internal")).toBe(true);
      const proof = await proofOf(r.json.svc.proof.request_id);
      expect(proof.text).not.toContain("secret-name-123");
      expect(proof.text).not.toContain("acme-internal");
      expect(r.json.svc.proof.reason).toBe(proof.json.receipt.reason);
      expect(proof.json.receipt.reason).toMatch(/^Decided by (unknown_model|brain_config\.rules\[0\]) in \w+ mode; signals: /);
    }
  });
});
