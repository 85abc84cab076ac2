/**
 * Server-Sent Events, read incrementally: one pass over the bytes as they arrive, no re-scan of
 * what was already parsed, and nothing buffered beyond the message being assembled. Follows the
 * WHATWG parsing rules (LF, CRLF and CR line ends; `event`, `data` and comment lines). Gemini ends
 * its lines with CRLF, the others with LF.
 */
export interface SseMessage {
  /** `message` when the upstream named no event. */
  event: string;
  data: string;
}

const LF = 10;
const CR = 13;

export class SseReader {
  private buf = "";
  private pos = 0;
  private skipLF = false;
  private event = "";
  private data: string | null = null;
  private ended = false;
  private readonly decoder = new TextDecoder();

  constructor(private readonly reader: ReadableStreamDefaultReader<Uint8Array>) {}

  /**
   * The next complete message, or null when the stream has ended. A message the upstream did not
   * finish with a blank line is dropped, as the standard says, so a cut stream reads as ended early.
   */
  async next(): Promise<SseMessage | null> {
    for (;;) {
      const msg = this.parse();
      if (msg || this.ended) return msg;
      const { done, value } = await this.reader.read();
      if (done) {
        this.ended = true;
        this.buf += this.decoder.decode();
      } else {
        this.buf += this.decoder.decode(value, { stream: true });
      }
    }
  }

  /** Releases the upstream connection; safe to call at any time, more than once. */
  cancel(reason?: unknown): void {
    this.ended = true;
    this.reader.cancel(reason).catch(() => {});
  }

  private parse(): SseMessage | null {
    const buf = this.buf;
    let pos = this.pos;
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
      const msg = this.line(buf, pos, end);
      pos = end + 1;
      if (c === CR) this.skipLF = true;
      if (msg) {
        this.pos = pos;
        return msg;
      }
    }
    // Everything before `pos` is consumed; keep only the partial line.
    this.buf = buf.slice(pos);
    this.pos = 0;
    return null;
  }

  private line(buf: string, start: number, end: number): SseMessage | null {
    if (start === end) {
      if (this.data === null) {
        this.event = "";
        return null;
      }
      const msg = { event: this.event || "message", data: this.data };
      this.event = "";
      this.data = null;
      return msg;
    }
    if (buf.charCodeAt(start) === 58 /* ":" comment */) return null;
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
    return null;
  }
}

const encoder = new TextEncoder();

/** One SSE message as bytes; `lineEnd` lets the sandbox speak Gemini's CRLF. */
export function sseBytes(data: string, event?: string, lineEnd = "\n"): Uint8Array {
  const head = event ? `event: ${event}${lineEnd}` : "";
  return encoder.encode(`${head}data: ${data}${lineEnd}${lineEnd}`);
}
