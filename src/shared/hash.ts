import { createHash } from "node:crypto";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { canonicalJson } from "./canonical-json";

/** Hash strings are `sha256:` + 64 lowercase hex (SPEC.md conventions). */
export type HashString = `sha256:${string}`;

/**
 * Inputs from this length on are hashed natively (node:crypto, synchronous); shorter ones in
 * JavaScript, where the native call's fixed cost is the larger. Measured in workerd: 1.7 KB took
 * 47 us in JavaScript and about 11 us natively; a 10-byte string 25 us against 37.
 */
const NATIVE_FROM = 256;

// Synchronous on purpose: the hot path hashes small inputs, where an await on
// crypto.subtle costs more than the digest itself.
export function sha256Hex(data: string | Uint8Array): string {
  if (data.length >= NATIVE_FROM) return createHash("sha256").update(data).digest("hex");
  return bytesToHex(sha256(typeof data === "string" ? utf8ToBytes(data) : data));
}

export function hashString(data: string | Uint8Array): HashString {
  return `sha256:${sha256Hex(data)}`;
}

export function hashCanonical(value: unknown): HashString {
  return hashString(canonicalJson(value));
}

/** Constant-time equality of two strings of equal length (lengths are not secret here). */
export function timingSafeEqualStr(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * SHA-256 by the runtime's native WebCrypto. For inputs of kilobytes (a handoff subject) it is about
 * 25 times faster in workerd than the JavaScript digest above (0.03 ms against 0.7 ms for 2 KB),
 * which is what a chain verification spends its time on; the await is the price.
 */
export async function sha256HexNative(data: Uint8Array<ArrayBuffer>): Promise<string> {
  return bytesToHex(new Uint8Array(await crypto.subtle.digest("SHA-256", data)));
}
