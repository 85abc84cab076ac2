/**
 * Server-Sent Events, parsed incrementally and synchronously: bytes go in as they arrive, the
 * complete messages they finish come out, in one pass over the new text and nothing buffered
 * beyond the message being assembled. No awaits: the stream pipe calls it inside its transform.
 * Follows the WHATWG parsing rules (LF, CRLF and CR line ends; `event`, `data` and comment lines).
 * Gemini ends its lines with CRLF, the others with LF.
 */
export interface SseMessage {
  /** `message` when the upstream named no event. */
  event: string;
  data: string;
}

const LF = 10;
const CR = 13;

export class SseParser {
  /** The partial line carried over from the last push. */
  private rest = "";
  private skipLF = false;
  private event = "";
  private data: string | null = null;
  private readonly decoder = new TextDecoder();

  /** The messages these bytes complete (often none, often several). */
  push(bytes: Uint8Array, out: SseMessage[] = []): SseMessage[] {
    return this.text(this.decoder.decode(bytes, { stream: true }), out);
  }

  /**
   * The upstream ended. A message it did not finish with a blank line is dropped, as the standard
   * says, so a cut stream reads as ended early.
   */
  end(out: SseMessage[] = []): SseMessage[] {
    this.text(this.decoder.decode(), out);
    this.rest = "";
    return out;
  }

  private text(chunk: string, out: SseMessage[]): SseMessage[] {
    const buf = this.rest ? this.rest + chunk : chunk;
    let pos = 0;
    while (pos < buf.length) {
      if (this.skipLF) {
        this.skipLF = false;
        if (buf.charCodeAt(pos) === LF) {
          pos++;
          continue;
        }
      }
      let end = pos;
      let c = 0;
      while (end < buf.length && (c = buf.charCodeAt(end)) !== LF && c !== CR) end++;
      if (end === buf.length) break;
      this.line(buf, pos, end, out);
      pos = end + 1;
      if (c === CR) this.skipLF = true;
    }
    this.rest = pos === 0 ? buf : buf.slice(pos);
    return out;
  }

  private line(buf: string, start: number, end: number, out: SseMessage[]) {
    if (start === end) {
      if (this.data !== null) out.push({ event: this.event || "message", data: this.data });
      this.event = "";
      this.data = null;
      return;
    }
    if (buf.charCodeAt(start) === 58 /* ":" comment */) return;
    const colon = buf.indexOf(":", start);
    const hasValue = colon !== -1 && colon < end;
    const field = buf.slice(start, hasValue ? colon : end);
    let value = "";
    if (hasValue) {
      let vs = colon + 1;
      if (buf.charCodeAt(vs) === 32) vs++;
      value = buf.slice(vs, end);
    }
    if (field === "data") this.data = this.data === null ? value : `${this.data}\n${value}`;
    else if (field === "event") this.event = value;
  }
}

const encoder = new TextEncoder();

/** One SSE message as bytes; `lineEnd` lets the sandbox speak Gemini's CRLF. */
export function sseBytes(data: string, event?: string, lineEnd = "\n"): Uint8Array {
  const head = event ? `event: ${event}${lineEnd}` : "";
  return encoder.encode(`${head}data: ${data}${lineEnd}${lineEnd}`);
}
