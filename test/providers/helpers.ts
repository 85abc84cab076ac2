import { findModel, type Model } from "../../src/catalog/models";
import type { Adapter } from "../../src/providers/adapter";
import { SseParser, type SseMessage } from "../../src/providers/sse";
import type { ModelRequest, ToolCallDelta } from "../../src/providers/types";

export const model = (id: string): Model => {
  const m = findModel(id);
  if (!m) throw new Error(`no catalog model ${id}`);
  return m;
};

export const REQ: ModelRequest = {
  messages: [
    { role: "system", content: "You are terse." },
    { role: "user", content: "What is the capital of France?" },
  ],
  maxTokens: 256,
  temperature: 0.7,
};

/** The text as a byte stream in small pieces, so parsers meet every boundary (mid-line, mid-CRLF, mid-UTF-8). */
export function streamOf(text: string, size = 7): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(c) {
      if (i >= bytes.length) return c.close();
      c.enqueue(bytes.slice(i, i + size));
      i += size;
    },
  });
}

/** The messages of an SSE text fed to the parser in `size`-byte pieces (mid-line, mid-CRLF, mid-UTF-8). */
export function parseAll(text: string, size = 7): SseMessage[] {
  const bytes = new TextEncoder().encode(text);
  const parser = new SseParser();
  const out: SseMessage[] = [];
  for (let i = 0; i < bytes.length; i += size) parser.push(bytes.slice(i, i + size), out);
  return parser.end(out);
}

/** Feeds a recorded stream through an adapter's decoder: the content deltas, the tool-call deltas, then the end (or the thrown fault). */
export async function decodeStream(adapter: Adapter, sse: string, size = 7) {
  const decoder = adapter.decoder();
  const deltas: string[] = [];
  const tools: ToolCallDelta[] = [];
  for (const msg of parseAll(sse, size)) {
    for (const d of decoder.push(msg)) {
      if (d.type === "delta") deltas.push(d.content);
      else tools.push(d.call);
    }
  }
  return { deltas, tools, end: decoder.end() };
}
