import { describe, expect, it } from "vitest";
import { call } from "../helpers";

// RFC 8032 section 7.1, test 1: the public key of the seed the test config provisions.
const PUB = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";

describe("GET /v1/proof/pubkey", () => {
  it("publishes the key (public)", async () => {
    const r = await call("/v1/proof/pubkey");
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      object: "proof.pubkey", algorithm: "Ed25519", signing_enabled: true,
      key_id: expect.stringMatching(/^[0-9a-f]{16}$/), public_key_hex: PUB, public_key_base64: expect.any(String),
    });
  });
});
