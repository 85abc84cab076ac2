import { Hono } from "hono";
import type { AppEnv } from "../env";
import { signerFrom } from "../shared/signing";

/** GET /v1/proof/pubkey: the public half of LEDGER_SIGNING_KEY, for receipts and handoffs alike. */
export const pubkeyRoutes = new Hono<AppEnv>().get("/v1/proof/pubkey", (c) => {
  const signer = signerFrom(c.env.LEDGER_SIGNING_KEY);
  if (!signer) {
    return c.json({ object: "proof.pubkey", algorithm: "Ed25519", signing_enabled: false, key_id: null, public_key_hex: null, public_key_base64: null });
  }
  return c.json(
    {
      object: "proof.pubkey",
      algorithm: "Ed25519",
      signing_enabled: true,
      key_id: signer.keyId,
      public_key_hex: signer.publicKeyHex,
      public_key_base64: signer.publicKeyBase64,
    },
    200,
    { "cache-control": "public, max-age=300" },
  );
});
