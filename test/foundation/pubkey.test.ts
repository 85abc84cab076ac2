import { env } from "cloudflare:test";
import * as ed from "@noble/ed25519";
import { sha256, sha512 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import canonicalize from "canonicalize";
import { describe, expect, it } from "vitest";
import { call } from "../helpers";

ed.hashes.sha512 = sha512;

// RFC 8032 section 7.1, test 1: the public key of the seed the test config provisions.
const PUB = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";
// Test 2: the config lists its public key in LEDGER_RETIRED_KEYS (a key retired by a rotation).
const RETIRED_SEED = "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb";
const RETIRED_PUB = "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c";
// Test 3: a key the service never published.
const UNKNOWN_SEED = "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7";

const keyId = (pubHex: string) => bytesToHex(sha256(hexToBytes(pubHex))).slice(0, 16);

/** A receipt as an older deployment stored it, signed with `seed`. */
async function storeReceiptSignedWith(seed: string, requestId: string) {
  const receipt = { version: "svc-receipt-v1", request_id: requestId, timestamp: "2026-01-01T00:00:00.000Z", endpoint: "/v1/chat/completions", model: "gpt-5-nano", provider: "openai", mode: "direct", reason: "Pinned.", request_hash: `sha256:${"0".repeat(64)}`, response_hash: `sha256:${"1".repeat(64)}`, usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }, cost_usd: 0.00000045, fallback_from: null, sandbox: true };
  const text = canonicalize(receipt)!;
  const proofHash = `sha256:${bytesToHex(sha256(utf8ToBytes(text)))}`;
  const signature = bytesToHex(ed.sign(utf8ToBytes(proofHash), hexToBytes(seed)));
  const pub = bytesToHex(ed.getPublicKey(hexToBytes(seed)));
  await env.DB.prepare("INSERT INTO proof_receipts (request_id, owner_id, receipt, proof_hash, signature, signing_key_id, created_at) VALUES (?, 'owner_old', ?, ?, ?, ?, 0)")
    .bind(requestId, text, proofHash, signature, keyId(pub))
    .run();
}

describe("GET /v1/proof/pubkey", () => {
  it("publishes the active key and every retired key (public)", async () => {
    const r = await call("/v1/proof/pubkey");
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      object: "proof.pubkey", algorithm: "Ed25519", signing_enabled: true,
      key_id: keyId(PUB), public_key_hex: PUB, public_key_base64: expect.any(String),
      keys: [
        { key_id: keyId(PUB), public_key_hex: PUB, status: "active" },
        { key_id: keyId(RETIRED_PUB), public_key_hex: RETIRED_PUB, status: "retired" },
      ],
    });
  });

  it("after a rotation, a receipt signed with the retired key still verifies; one signed with an unpublished key does not", async () => {
    await storeReceiptSignedWith(RETIRED_SEED, "req_rotated_1");
    const old = await call("/v1/proof/req_rotated_1");
    expect(old.json).toMatchObject({ valid: true, signed: true, signature_valid: true, signing_key_id: keyId(RETIRED_PUB) });
    await storeReceiptSignedWith(UNKNOWN_SEED, "req_rotated_2");
    const unknown = await call("/v1/proof/req_rotated_2");
    expect(unknown.json).toMatchObject({ valid: false, signed: true, signature_valid: false });
  });
});
