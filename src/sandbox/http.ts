import type { Model } from "../catalog/models";
import { isObject, type Json } from "../providers/adapter";
import type { SandboxAnswer, SandboxPrompt } from "./answer";

/** A function the request offers the model. */
export interface SandboxTool {
  name: string;
  description: string;
  /** JSON Schema of the arguments, or null when the request gave none. */
  parameters: Json | null;
}

/** What the request asks beyond text: tools, a JSON answer, tool results to answer, images (tools.ts answers them). */
export interface RequestShape {
  tools: SandboxTool[];
  toolChoice: "auto" | "none" | "required" | { name: string };
  /** Null for a text answer; else a JSON answer, to the schema when one is given. */
  json: { schema: Json | null } | null;
  /** The results of the tool calls that end the conversation, or null when it ends with the user. */
  toolResults: Array<{ name: string; content: string }> | null;
  images: number;
}

export const plainShape = (): RequestShape => ({ tools: [], toolChoice: "auto", json: null, toolResults: null, images: 0 });

/** What a protocol handler read from the request. */
export interface Parsed {
  upstreamId: string;
  stream: boolean;
  /** OpenAI only: whether `stream_options.include_usage` asked for a usage chunk. */
  streamUsage: boolean;
  prompt: SandboxPrompt;
  shape: RequestShape;
  /** How many choices the request asks for (OpenAI's `n`, Gemini's candidateCount); 1 when absent. */
  choices: number;
}

export interface Reply {
  model: Model;
  parsed: Parsed;
  /** The first (or only) choice. */
  answer: SandboxAnswer;
  /** Every choice, `answer` first: as many as `parsed.choices`. */
  answers: SandboxAnswer[];
}

/** A choice count as a protocol names it (`n`, `candidateCount`): a positive integer, 1 when absent. */
export function choiceCount(v: unknown, what: string): number {
  if (v === undefined || v === null) return 1;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 1 || v > 8) throw new BadRequest(`${what} must be an integer from 1 to 8`);
  return v;
}

/** What the URL path says beyond the provider: Gemini names the model and method there. */
export interface PathInfo {
  geminiModel?: string;
  stream?: boolean;
}

/** One wire protocol as the sandbox speaks it: parse a request, answer whole or as SSE frames, fail. */
export interface SandboxProtocol {
  /** The path (after `/<provider>/`) this protocol serves, or null when it does not. */
  route(rest: string): PathInfo | null;
  parse(body: Json, path: PathInfo, url: URL): Parsed;
  body(reply: Reply): Json;
  /** The stream as SSE frames, with the index of the first frame that carries content (for `cut`). */
  frames(reply: Reply): { frames: Uint8Array[]; firstContent: number };
  error(status: number, message: string): Response;
}

export class BadRequest extends Error {
  constructor(message: string, readonly status = 400) {
    super(message);
  }
}

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

export const created = () => Math.floor(Date.now() / 1000);

/** The first name per status in an adapter's name-to-status map: the error the sandbox sends for it. */
export function inverse(statusOf: Record<string, number>): Record<number, string> {
  const out: Record<number, string> = {};
  for (const [name, status] of Object.entries(statusOf)) out[status] ??= name;
  return out;
}

export const text = (v: unknown, what: string): string => {
  if (typeof v === "string") return v;
  // Content given as blocks/parts: keep the text ones.
  if (Array.isArray(v)) return v.map((b) => (isObject(b) && typeof b.text === "string" ? b.text : "")).join("");
  throw new BadRequest(`${what} must be a string or a list of text blocks`);
};

export const nonNegativeInt = (v: unknown, what: string): number => {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0) throw new BadRequest(`${what} must be a non-negative integer`);
  return v;
};

/** One frame per read, so the client sees the answer arrive in pieces; `dripMs` apart when given. */
export function sseResponse(frames: Uint8Array[], dripMs = 0): Response {
  let i = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (dripMs > 0 && i > 0) await new Promise((r) => setTimeout(r, dripMs));
      if (i < frames.length) controller.enqueue(frames[i++]!);
      else controller.close();
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
}

/**
 * Resolves after `ms` (never, for Infinity); rejects when the caller aborts, as fetch does, so a
 * timeout or a client that went away ends the wait.
 */
export const wait = (ms: number, signal: AbortSignal | null | undefined) =>
  new Promise<void>((resolve, reject) => {
    const timer = Number.isFinite(ms) ? setTimeout(resolve, ms) : undefined;
    signal?.addEventListener(
      "abort",
      () => {
        if (timer !== undefined) clearTimeout(timer);
        reject(signal.reason ?? new DOMException("The operation was aborted.", "AbortError"));
      },
      { once: true },
    );
  });
