import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { describe, expect, it } from "vitest";
import { sha256Bytes, sha256Hex } from "../../src/shared/hash";

/**
 * sha256Hex and sha256Bytes hash natively (node:crypto) at every size; in workerd (this file runs
 * there) they must give the JavaScript reference digest, for strings (UTF-8, non-ASCII and a lone
 * surrogate included) and bytes, empty to long.
 */
const reference = (data: string | Uint8Array) => bytesToHex(sha256(typeof data === "string" ? utf8ToBytes(data) : data));

describe("sha256Hex", () => {
  it("matches the FIPS 180-2 vector and the JavaScript reference digest", () => {
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    for (const n of [0, 1, 255, 256, 257, 4096]) {
      const ascii = "a".repeat(n);
      const wide = "ü漢😀".repeat(Math.ceil(n / 4)).slice(0, n);
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 31) & 0xff);
      for (const data of [ascii, wide, bytes]) expect(sha256Hex(data)).toBe(reference(data));
      expect(bytesToHex(sha256Bytes(bytes))).toBe(reference(bytes));
    }
  });
});
