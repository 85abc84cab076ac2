/**
 * Prompt tokens of one image part, for the cost guard and routing's prompt estimate (images count
 * nothing in the text estimate). It must stay an upper bound whichever protocol serves the call, so
 * it is the largest of the three providers' published formulas (docs/compatibility.md):
 *
 * - OpenAI (tiles): `detail: "low"` is 85; otherwise the image is scaled to fit 2048x2048, then its
 *   short side to 768, and costs 85 + 170 per 512-pixel tile.
 * - Anthropic: width x height / 750, after scaling to a long edge of 1568 and 1.15 MP (detail ignored).
 * - Gemini: 258 when both sides are at most 384, else 258 per 768x768 tile (2.x); 1120 at the
 *   default media resolution of Gemini 3 (detail ignored).
 *
 * The size is read from a `data:` URL's PNG, GIF or JPEG header; an http(s) URL is not fetched, so
 * its size is unknown and it counts UNKNOWN_IMAGE_TOKENS: the most OpenAI, Anthropic and Gemini 3
 * count for any image, and Gemini 2.x for one of up to six tiles (1536x2304). A larger image of
 * unknown size sent to a Gemini 2.x model can count more (docs/compatibility.md says so).
 */
import { fromBase64url } from "../shared/base64url";

/**
 * An image of unknown size: OpenAI's largest is 1445 (8 tiles, a 768x2048 image), Anthropic's 1534
 * (1.15 megapixels), Gemini 3's 1120, Gemini 2.x's 1548 for six tiles.
 */
export const UNKNOWN_IMAGE_TOKENS = 1600;

interface Size {
  width: number;
  height: number;
}

function openAiTokens({ width, height }: Size, detail: string | undefined): number {
  if (detail === "low") return 85;
  let w = width;
  let h = height;
  const fit = Math.min(1, 2048 / Math.max(w, h));
  w *= fit;
  h *= fit;
  const short = Math.min(1, 768 / Math.min(w, h));
  w *= short;
  h *= short;
  return 85 + 170 * Math.ceil(w / 512) * Math.ceil(h / 512);
}

/** Anthropic scales an image to a long edge of at most 1568 and about 1.15 megapixels before counting. */
function anthropicTokens({ width, height }: Size): number {
  const scale = Math.min(1, 1568 / Math.max(width, height), Math.sqrt(1_150_000 / (width * height)));
  return Math.ceil((width * scale * height * scale) / 750);
}

function geminiTokens({ width, height }: Size): number {
  const tiled = width <= 384 && height <= 384 ? 258 : 258 * Math.ceil(width / 768) * Math.ceil(height / 768);
  return Math.max(tiled, 1120);
}

/** The most any protocol counts for an image of this size. */
export function imageTokensOfSize(size: Size, detail?: string): number {
  return Math.max(openAiTokens(size, detail), anthropicTokens(size), geminiTokens(size));
}

const u16be = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const u16le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const u32be = (b: Uint8Array, i: number) => ((b[i]! << 24) >>> 0) + (b[i + 1]! << 16) + (b[i + 2]! << 8) + b[i + 3]!;

/** Width and height from the first bytes of a PNG, GIF or JPEG, or null. */
export function imageSize(b: Uint8Array): Size | null {
  // PNG: the signature, then the IHDR chunk with width and height.
  if (b.length >= 24 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return { width: u32be(b, 16), height: u32be(b, 20) };
  // GIF87a / GIF89a: the logical screen size.
  if (b.length >= 10 && b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46) return { width: u16le(b, 6), height: u16le(b, 8) };
  // JPEG: walk the segments to a start-of-frame marker (SOF0-SOF15 but DHT, JPG and DAC).
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) {
    let i = 2;
    while (i + 9 < b.length) {
      if (b[i] !== 0xff) return null;
      const marker = b[i + 1]!;
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return { height: u16be(b, i + 5), width: u16be(b, i + 7) };
      i += 2 + u16be(b, i + 2);
    }
  }
  return null;
}

/** The header bytes of a base64 `data:` URL (enough for a JPEG's frame header in most files). */
const HEADER_BYTES = 64 * 1024;

/** Prompt tokens of an image part: from its size when a `data:` URL tells it, else UNKNOWN_IMAGE_TOKENS. */
export function imagePromptTokens(url: string, detail?: string): number {
  const m = /^data:[^;,]*;base64,/.exec(url);
  if (!m) return UNKNOWN_IMAGE_TOKENS;
  const head = url.slice(m[0].length, m[0].length + (HEADER_BYTES / 3) * 4).replace(/[^A-Za-z0-9+/]/g, "");
  let size: Size | null = null;
  try {
    size = imageSize(fromBase64url(head.slice(0, head.length - (head.length % 4))));
  } catch {
    size = null;
  }
  return size && size.width > 0 && size.height > 0 ? imageTokensOfSize(size, detail) : UNKNOWN_IMAGE_TOKENS;
}
