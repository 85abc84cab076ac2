import { Hono } from "hono";
import { z } from "zod";
import { db } from "../db/client";
import type { AppEnv } from "../env";
import { notFound } from "../shared/errors";
import { hashString, timingSafeEqualStr } from "../shared/hash";
import { signerFrom, verificationKeys, verifySignature } from "../shared/signing";
import { validate } from "../shared/validate";
import { findReceipt } from "./store";

/**
 * GET /v1/proof/pubkey (public, declared first so it is never read as a request id): the key that
 * signs receipts and handoffs now, and every key retired by a rotation, so old signatures verify.
 * GET /v1/proof/{request_id} (public): re-derives the proof hash from the stored receipt and checks
 * the signature against the published key it names. Anyone holding a response's svc.proof can ask.
 */
export const proofRoutes = new Hono<AppEnv>()
  .get("/v1/proof/pubkey", (c) => {
    const signer = signerFrom(c.env.LEDGER_SIGNING_KEY);
    const keys = verificationKeys(c.env.LEDGER_SIGNING_KEY, c.env.LEDGER_RETIRED_KEYS);
    const current = signer
      ? { signing_enabled: true, key_id: signer.keyId, public_key_hex: signer.publicKeyHex, public_key_base64: signer.publicKeyBase64 }
      : { signing_enabled: false, key_id: null, public_key_hex: null, public_key_base64: null };
    return c.json({ object: "proof.pubkey", algorithm: "Ed25519", ...current, keys }, 200, { "cache-control": "public, max-age=300" });
  })
  .get("/v1/proof/:request_id", validate("param", z.object({ request_id: z.string().min(1).max(200) })), async (c) => {
    const { request_id } = c.req.valid("param");
    const row = await findReceipt(db(c.env.DB), request_id);
    if (!row) throw notFound("proof_not_found", `No proof receipt for request ${request_id}.`);

    const recomputed = hashString(row.receipt);
    const hashMatches = timingSafeEqualStr(recomputed, row.proofHash);
    let signatureValid: boolean | null = null;
    if (row.signature) {
      const key = verificationKeys(c.env.LEDGER_SIGNING_KEY, c.env.LEDGER_RETIRED_KEYS).find((k) => k.key_id === row.signingKeyId);
      signatureValid = !!key && verifySignature(row.proofHash, row.signature, key.public_key_hex);
    }
    const receipt = JSON.parse(row.receipt) as Record<string, unknown>;
    return c.json({
      object: "proof.verification",
      request_id,
      valid: hashMatches && signatureValid !== false,
      proof_hash: row.proofHash,
      recomputed_proof_hash: recomputed,
      signed: row.signature !== null,
      signature: row.signature,
      signature_valid: signatureValid,
      signing_key_id: row.signingKeyId,
      pubkey_endpoint: new URL("/v1/proof/pubkey", c.req.url).toString(),
      receipt,
    });
  });
