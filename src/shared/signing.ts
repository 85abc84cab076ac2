import * as ed from "@noble/ed25519";
import { sha512 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { base64url } from "./base64url";
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
  /** Hex Ed25519 signature, computed by the runtime's native WebCrypto (about 8 times faster than JS). */
  sign(message: string): Promise<string>;
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
    let key: Promise<CryptoKey> | undefined;
    signer = {
      keyId: sha256Hex(publicKey).slice(0, 16),
      publicKeyHex: bytesToHex(publicKey),
      publicKeyBase64: btoa(String.fromCharCode(...publicKey)),
      sign: async (message) => {
        key ??= crypto.subtle.importKey("jwk", { kty: "OKP", crv: "Ed25519", d: base64url(seed), x: base64url(publicKey) }, { name: "Ed25519" }, false, ["sign"]);
        return bytesToHex(new Uint8Array(await crypto.subtle.sign("Ed25519", await key, utf8ToBytes(message))));
      },
    };
  }
  signers.set(seedHex, signer);
  return signer;
}

/** A published verification key: the current signing key, or one retired by a rotation. */
export interface PublicKeyEntry {
  key_id: string;
  public_key_hex: string;
  status: "active" | "retired";
}

const keyIdOf = (publicKeyHex: string) => sha256Hex(hexToBytes(publicKeyHex)).slice(0, 16);

/**
 * Every key a stored signature may have been made with: the active one (from LEDGER_SIGNING_KEY)
 * and the retired ones (LEDGER_RETIRED_KEYS: comma-separated 64-hex public keys, kept after a
 * rotation so that older receipts and handoffs still verify). A malformed entry is skipped.
 */
export function verificationKeys(seedHex: string | undefined, retired: string | undefined): PublicKeyEntry[] {
  const keys: PublicKeyEntry[] = [];
  const signer = signerFrom(seedHex);
  if (signer) keys.push({ key_id: signer.keyId, public_key_hex: signer.publicKeyHex, status: "active" });
  for (const raw of (retired ?? "").split(",")) {
    const hex = raw.trim().toLowerCase();
    if (!/^[0-9a-f]{64}$/.test(hex) || keys.some((k) => k.public_key_hex === hex)) continue;
    keys.push({ key_id: keyIdOf(hex), public_key_hex: hex, status: "retired" });
  }
  return keys;
}

/**
 * Verified (key, signature, message digest) triples. Verification is deterministic and costs about
 * 2 ms in JavaScript, and a chain read re-verifies every entry, so a triple that verified once is
 * remembered for the isolate's life. Only successes are kept: a tampered entry never matches a
 * cached triple and is always checked afresh.
 */
const VERIFIED_MAX = 50_000;
const verified = new Set<string>();

export function verifySignature(message: string, signatureHex: string, publicKeyHex: string): boolean {
  const memo = `${publicKeyHex}:${signatureHex}:${sha256Hex(message)}`;
  if (verified.has(memo)) return true;
  let ok: boolean;
  try {
    ok = ed.verify(hexToBytes(signatureHex), utf8ToBytes(message), hexToBytes(publicKeyHex));
  } catch {
    ok = false;
  }
  if (ok) {
    if (verified.size >= VERIFIED_MAX) verified.delete(verified.values().next().value!);
    verified.add(memo);
  }
  return ok;
}

const verifyKeys = new Map<string, Promise<CryptoKey>>();

/**
 * Ed25519 verification by the runtime's native WebCrypto: about 40 times faster in workerd than the
 * JavaScript `verifySignature` above (0.3 ms against 12 ms), for verifying many signatures at once
 * (a handoff chain). No memo here: callers that re-check the same entries keep their own.
 */
export async function verifySignatureNative(message: Uint8Array<ArrayBuffer>, signatureHex: string, publicKeyHex: string): Promise<boolean> {
  try {
    let key = verifyKeys.get(publicKeyHex);
    if (!key) {
      key = crypto.subtle.importKey("raw", hexToBytes(publicKeyHex), { name: "Ed25519" }, false, ["verify"]);
      verifyKeys.set(publicKeyHex, key);
    }
    return await crypto.subtle.verify("Ed25519", await key, hexToBytes(signatureHex), message);
  } catch {
    return false;
  }
}
