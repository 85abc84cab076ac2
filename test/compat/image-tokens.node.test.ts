import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { imagePromptTokens, imageSize, imageTokensOfSize, UNKNOWN_IMAGE_TOKENS } from "../../src/cost/image-tokens";
import { dataUrl, gifHeader, jpegHeader, pngHeader } from "./image-headers";


describe("image parts in the prompt estimate (docs/compatibility.md)", () => {
  it("reads the size of a PNG, GIF and JPEG header", () => {
    expect(imageSize(pngHeader(1024, 768))).toEqual({ width: 1024, height: 768 });
    expect(imageSize(gifHeader(300, 200))).toEqual({ width: 300, height: 200 });
    expect(imageSize(jpegHeader(4032, 3024))).toEqual({ width: 4032, height: 3024 });
    expect(imageSize(Uint8Array.from([1, 2, 3, 4]))).toBeNull();
  });

  it("counts the most any protocol counts: OpenAI's tiles, Anthropic's pixels, Gemini's tiles or its 1120", () => {
    // 512x512: OpenAI 85 + 170 = 255, Anthropic 350, Gemini 3 1120.
    expect(imageTokensOfSize({ width: 512, height: 512 })).toBe(1120);
    // 1536x1536: OpenAI scales to 768x768 (4 tiles: 765); Anthropic 1.15 MP is 1534; Gemini 2.x 4 tiles is 1032.
    expect(imageTokensOfSize({ width: 1536, height: 1536 })).toBe(1534);
    // 3000x3000: Gemini 2.x tiles it 4 x 4 (4128) before anything else.
    expect(imageTokensOfSize({ width: 3000, height: 3000 })).toBe(258 * 16);
    // detail low lowers OpenAI's count only: the others ignore it, so the bound stays.
    expect(imageTokensOfSize({ width: 1536, height: 1536 }, "low")).toBe(1534);
  });

  it("an image of unknown size counts UNKNOWN_IMAGE_TOKENS, at least what any size up to six Gemini tiles counts", () => {
    expect(imagePromptTokens("https://example.com/cat.png")).toBe(UNKNOWN_IMAGE_TOKENS);
    expect(imagePromptTokens("data:image/webp;base64,UklGRiQAAABXRUJQ")).toBe(UNKNOWN_IMAGE_TOKENS);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2304 }), fc.integer({ min: 1, max: 2304 }), fc.constantFrom("auto", "low", "high"), (width, height, detail) => {
        fc.pre(Math.ceil(width / 768) * Math.ceil(height / 768) <= 6);
        expect(imageTokensOfSize({ width, height }, detail)).toBeLessThanOrEqual(UNKNOWN_IMAGE_TOKENS);
      }),
    );
  });

  it("reads the size from a data: URL", () => {
    expect(imagePromptTokens(dataUrl("image/png", pngHeader(512, 512)))).toBe(1120);
    expect(imagePromptTokens(dataUrl("image/jpeg", jpegHeader(3000, 3000)), "low")).toBe(258 * 16);
    expect(imagePromptTokens(dataUrl("image/gif", gifHeader(100, 100)))).toBe(1120);
  });
});
