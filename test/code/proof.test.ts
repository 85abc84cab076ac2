import * as ed from "@noble/ed25519";
import { sha256, sha512 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import canonicalize from "canonicalize";
import { describe, expect, it } from "vitest";
import { call, eventually, newKey } from "../helpers";

// A third party's verifier from docs/proofs.md alone: nothing from src/.
ed.hashes.sha512 = sha512;
const canon = (v: unknown) => canonicalize(v)!;
const sha = (s: string) => `sha256:${bytesToHex(sha256(utf8ToBytes(s)))}`;

describe("code receipts (SPEC.md 2.2)", () => {
  it("hash the task, the files and the stages; recompute from the response; the signature verifies", async () => {
    const { key } = await newKey();
    const task = "Write a Python function that reverses a string";
    const r = await call("/v2/code", { key, json: { task } });
    expect(r.status).toBe(200);
    const b = r.json;
    const v = await eventually(async () => {
      const x = await call(`/v1/proof/${b.svc.proof.request_id}`);
      return x.status === 200 ? x.json : undefined;
    });
    expect(v).toMatchObject({ valid: true, signed: true, signature_valid: true, proof_hash: b.svc.proof.proof_hash });
    const receipt = v.receipt;
    expect(receipt).toMatchObject({
      version: "svc-code-v1", endpoint: "/v2/code", policy: "balanced", language: "python", passed: b.passed, iterations: b.iterations,
      models_used: b.svc.code.models_used, confidence: b.svc.code.confidence, usage: b.usage, cost_usd: b.svc.cost.total_usd, sandbox: true, compliance: null,
    });
    expect(receipt.task_hash).toBe(sha(canon({ task })));
    expect(receipt.files_hash).toBe(sha(canon(b.files)));
    expect(receipt.stages_hash).toBe(sha(canon(b.svc.stages)));
    expect(sha(canon(receipt))).toBe(b.svc.proof.proof_hash);
    const pub = (await call("/v1/proof/pubkey")).json;
    expect(ed.verify(hexToBytes(v.signature), utf8ToBytes(b.svc.proof.proof_hash), hexToBytes(pub.public_key_hex))).toBe(true);
    expect(JSON.stringify(receipt)).not.toContain("reverses");
  });
});
