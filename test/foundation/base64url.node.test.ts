import { describe, expect, it } from "vitest";
import { base64url, fromBase64url } from "../../src/shared/base64url";

describe("base64url", () => {
  it("matches RFC 4648 section 10 test vectors, without padding, in the url alphabet", () => {
    expect(["", "f", "fo", "foo", "foob", "fooba", "foobar"].map((s) => base64url(s))).toEqual(["", "Zg", "Zm8", "Zm9v", "Zm9vYg", "Zm9vYmE", "Zm9vYmFy"]);
    expect(base64url(new Uint8Array([0xfb, 0xff, 0xbf]))).toBe("-_-_");
  });

  it("encodes strings as UTF-8 and round-trips bytes", () => {
    expect(base64url("€")).toBe("4oKs");
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(fromBase64url(base64url(bytes))).toEqual(bytes);
  });

  it("rejects characters outside the alphabet", () => {
    expect(() => fromBase64url("a*b")).toThrow();
  });
});
