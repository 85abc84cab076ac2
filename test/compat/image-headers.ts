/** Image headers for the image-size tests: just the bytes an image's size is read from. */
/** The first bytes of a PNG (signature and IHDR), a GIF and a baseline JPEG of the given size. */
export function pngHeader(width: number, height: number): Uint8Array {
  const b = new Uint8Array(33);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(b.buffer).setUint32(16, width);
  new DataView(b.buffer).setUint32(20, height);
  b.set([8, 6, 0, 0, 0], 24);
  return b;
}
export const gifHeader = (width: number, height: number) => Uint8Array.from([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, width & 255, width >> 8, height & 255, height >> 8, 0, 0, 0]);
/** SOI, an APP0 segment of 16 bytes, then SOF0 with height and width. */
export const jpegHeader = (width: number, height: number) =>
  Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xff, 0xc0, 0, 17, 8, height >> 8, height & 255, width >> 8, width & 255, 3, 1, 0x22, 0]);
export const dataUrl = (type: string, bytes: Uint8Array) => `data:${type};base64,${btoa(String.fromCharCode(...bytes))}`;

