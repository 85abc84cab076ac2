import * as ed from "@noble/ed25519";
import { sha256, sha512 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import canonicalize from "canonicalize";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import doc from "../../docs/proofs.md?raw";

/**
 * docs/proofs.md verified as a stranger would use it: the canonical-JSON sample and the worked
 * example are read out of the page itself, and checked with SHA-256 and Ed25519 libraries and the
 * RFC 8785 examples. Nothing is imported from src/.
 */
ed.hashes.sha512 = sha512;

const block = (info: string) => {
  const m = new RegExp("```" + info + "\\n([\\s\\S]*?)\\n```").exec(doc);
  if (!m) throw new Error(`docs/proofs.md has no \`\`\`${info} block`);
  return m[1]!;
};
const stated = (name: string) => {
  const m = new RegExp("`" + name + "` = `([^`]+)`").exec(doc);
  if (!m) throw new Error(`docs/proofs.md states no ${name}`);
  return m[1]!;
};
const canonical = new Function(`${block("js canonical")}\nreturn canonical;`)() as (v: unknown) => string;
const sha = (s: string) => `sha256:${bytesToHex(sha256(utf8ToBytes(s)))}`;

describe("docs/proofs.md: the RFC 8785 sample", () => {
  it("gives the RFC's own examples (section 3.2.2 values and 3.2.3 sorting)", () => {
    const values = JSON.parse('{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],"string":"\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/","literals":[null,true,false]}');
    expect(canonical(values)).toBe('{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}');
    const sorting = JSON.parse('{"\\u20ac":"Euro Sign","\\r":"Carriage Return","\\ufb33":"Hebrew Letter Dalet With Dagesh","1":"One","\\ud83d\\ude00":"Emoji: Grinning Face","\\u0080":"Control","\\u00f6":"Latin Small Letter O With Diaeresis"}');
    expect(canonical(sorting)).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
    expect(canonical(-0)).toBe("0");
  });

  it("agrees with an independent implementation on any JSON value", () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => canonical(v) === canonicalize(v)), { numRuns: 2000 });
  });

  it("refuses what is not I-JSON: lone surrogates, in values and in names, and non-finite numbers", () => {
    expect(() => canonical("x\ud800y")).toThrow(/lone surrogate/);
    expect(() => canonical({ ["\udc00"]: 1 })).toThrow(/lone surrogate/);
    expect(() => canonical(Number.NaN)).toThrow();
    expect(canonical({ a: undefined, b: 1 })).toBe('{"b":1}');
  });
});

describe("docs/proofs.md: the worked example", () => {
  const request = block("json request");
  const response = block("json response");
  const receiptText = block("json receipt");
  const receipt = JSON.parse(receiptText);
  const PUB = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";
  const SEED = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";

  it("its texts are canonical, and the stated hashes are theirs", () => {
    expect(canonical(JSON.parse(request))).toBe(request);
    expect(canonical(JSON.parse(response))).toBe(response);
    expect(canonical(receipt)).toBe(receiptText);
    expect(sha(request)).toBe(stated("request_hash"));
    expect(sha(response)).toBe(stated("response_hash"));
    expect(receipt.request_hash).toBe(stated("request_hash"));
    expect(receipt.response_hash).toBe(stated("response_hash"));
    expect(sha(receiptText)).toBe(stated("proof_hash"));
  });

  it("the cost is the stated arithmetic, and the signature verifies over the proof_hash string", () => {
    expect(receipt.cost_usd).toBe((7 * 50 + 3 * 400) / 1e9);
    const signature = stated("signature");
    expect(ed.verify(hexToBytes(signature), utf8ToBytes(stated("proof_hash")), hexToBytes(PUB))).toBe(true);
    expect(bytesToHex(ed.getPublicKey(hexToBytes(SEED)))).toBe(PUB);
    expect(bytesToHex(sha256(hexToBytes(PUB))).slice(0, 16)).toBe("21fe31dfa154a261");
    // The hash without its prefix is a different message: the prefix is part of what is signed.
    expect(ed.verify(hexToBytes(signature), utf8ToBytes(stated("proof_hash").slice(7)), hexToBytes(PUB))).toBe(false);
  });
});
