import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../src/shared/canonical-json";
import { hashCanonical, hashString } from "../../src/shared/hash";

describe("canonical JSON (RFC 8785)", () => {
  it("sorts keys by UTF-16 code units and drops white space", () => {
    expect(canonicalJson({ b: 1, a: [true, null, "x"], "€": 0, "\u0080": 1, A: { z: 1, y: 2 } })).toBe(
      '{"A":{"y":2,"z":1},"a":[true,null,"x"],"b":1,"\u0080":1,"€":0}',
    );
  });

  it("writes numbers in shortest round-trip form (RFC 8785 appendix samples)", () => {
    expect(canonicalJson([1e21, 1e-7, 0.1 + 0.2, -0, 333333333.3333333, 4.5, 1e23])).toBe(
      "[1e+21,1e-7,0.30000000000000004,0,333333333.3333333,4.5,1e+23]",
    );
  });

  it("escapes strings as JSON.stringify does", () => {
    expect(canonicalJson({ s: 'a"b\\c\n\u0001\u2028' })).toBe('{"s":"a\\"b\\\\c\\n\\u0001\u2028"}');
  });

  it("omits undefined members, rejects what JSON cannot hold", () => {
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
    expect(() => canonicalJson([undefined])).toThrow();
    expect(() => canonicalJson({ x: Number.NaN })).toThrow();
    expect(() => canonicalJson({ x: Infinity })).toThrow();
  });

  it("hashes as sha256:<64 hex>", () => {
    expect(hashString("abc")).toBe("sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(hashCanonical({ b: 2, a: 1 })).toBe(hashString('{"a":1,"b":2}'));
    expect(hashString("")).toBe("sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });
});
