import * as ed from "@noble/ed25519";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { describe, expect, it } from "vitest";
import { signerFrom, verifySignature } from "../../src/shared/signing";

// RFC 8032 section 7.1, test 1.
const SEED = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";
const PUB = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";

describe("Ed25519 signing", () => {
  it("derives the RFC 8032 public key and signs verifiably", async () => {
    const s = signerFrom(SEED)!;
    expect(s.publicKeyHex).toBe(PUB);
    const sig = await s.sign("sha256:abc");
    expect(verifySignature("sha256:abc", sig, PUB)).toBe(true);
    expect(verifySignature("sha256:abd", sig, PUB)).toBe(false);
    expect(verifySignature("sha256:abc", "00".repeat(64), PUB)).toBe(false);
  });

  it("signs natively with exactly the signature of the RFC 8032 reference (Ed25519 is deterministic)", async () => {
    // RFC 8032 section 7.1, test 1: the empty message.
    expect(await signerFrom(SEED)!.sign("")).toBe(
      "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
    );
    const message = "sha256:" + "ab".repeat(32);
    expect(await signerFrom(SEED)!.sign(message)).toBe(bytesToHex(ed.sign(new TextEncoder().encode(message), hexToBytes(SEED))));
  });

  it("remembers only successful verifications", async () => {
    const s = signerFrom(SEED)!;
    const sig = await s.sign("subject-1");
    for (let i = 0; i < 3; i++) {
      expect(verifySignature("subject-1", sig, PUB)).toBe(true);
      expect(verifySignature("subject-2", sig, PUB)).toBe(false);
      expect(verifySignature("subject-1", sig.replace(/^../, "00"), PUB)).toBe(false);
    }
  });

  it("is off without a usable seed", () => {
    expect(signerFrom(undefined)).toBeNull();
    expect(signerFrom("not-hex")).toBeNull();
  });

});
