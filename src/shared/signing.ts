import * as ed from "@noble/ed25519";
import { sha512 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { sha256Hex } from "./hash";

ed.hashes.sha512 = sha512;

/**
 * Ed25519 signing for proof receipts and the handoff ledger. The key is the secret
 * LEDGER_SIGNING_KEY: a 32-byte seed in hex. Signatures are over the UTF-8 bytes of the signed
 * string (a canonical JSON subject or a `sha256:` hash string) and are written as lowercase hex.
 */
export interface Signer {
  /** First 16 hex characters of SHA-256 of the raw public key. */
  keyId: string;
  publicKeyHex: string;
  publicKeyBase64: string;
  sign(message: string): string;
}

const signers = new Map<string, Signer | null>();

/** The signer for this seed, or null when no (or an unusable) seed is provisioned. Cached per isolate. */
export function signerFrom(seedHex: string | undefined): Signer | null {
  if (!seedHex) return null;
  let signer = signers.get(seedHex);
  if (signer !== undefined) return signer;
  const seed = /^[0-9a-fA-F]{64}$/.test(seedHex.trim()) ? hexToBytes(seedHex.trim().toLowerCase()) : null;
  if (!seed) {
    console.error("LEDGER_SIGNING_KEY is not 64 hex characters; signing is disabled");
    signer = null;
  } else {
    const publicKey = ed.getPublicKey(seed);
    signer = {
      keyId: sha256Hex(publicKey).slice(0, 16),
      publicKeyHex: bytesToHex(publicKey),
      publicKeyBase64: btoa(String.fromCharCode(...publicKey)),
      sign: (message) => bytesToHex(ed.sign(utf8ToBytes(message), seed)),
    };
  }
  signers.set(seedHex, signer);
  return signer;
}

export function verifySignature(message: string, signatureHex: string, publicKeyHex: string): boolean {
  try {
    return ed.verify(hexToBytes(signatureHex), utf8ToBytes(message), hexToBytes(publicKeyHex));
  } catch {
    return false;
  }
}
