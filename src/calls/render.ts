/**
 * The OpenAI wire format of a chat outcome: the completion object, and the SSE stream of chunks.
 * Shared by every endpoint that answers as a chat completion (chat, skill invoke).
 */
import type { ToolCall, ToolCallDelta } from "../providers/types";
import type { ChatOutcome, ChatStream } from "./chat";
import { chunk, contentChunkEncoder, errorEvent, SSE_DONE, sseData } from "./openai-sse";
import type { SvcBlock } from "./svc";

/** Lets an endpoint add its own fields to `svc` (a skill adds `svc.skill`). */
export type SvcExtend = (svc: SvcBlock) => Record<string, unknown>;
const asIs: SvcExtend = (svc) => svc;

export const wireToolCalls = (calls: readonly ToolCall[]) => calls.map((c) => ({ id: c.id, type: "function" as const, function: { name: c.name, arguments: c.arguments } }));

/** The assistant message: with tool calls and no text, content is null, as OpenAI sends it. */
export function assistantMessage(o: Pick<ChatOutcome, "content" | "toolCalls">) {
  if (!o.toolCalls.length) return { role: "assistant" as const, content: o.content };
  return { role: "assistant" as const, content: o.content || null, tool_calls: wireToolCalls(o.toolCalls) };
}

export function completionJson(o: ChatOutcome, extend: SvcExtend = asIs) {
  return {
    id: `svc-${o.requestId}`,
    object: "chat.completion",
    created: o.created,
    model: o.model.id,
    // n > 1: every choice, each with its index, as OpenAI answers them.
    choices: (o.choices ?? [o]).map((c, index) => ({ index, message: assistantMessage(c), finish_reason: c.finishReason })),
    usage: o.usage,
    svc: extend(o.svc),
  };
}

/** A tool-call delta in OpenAI's chunk form: id, type and name on the first piece of a call. */
function toolCallDelta(d: ToolCallDelta) {
  const fn: Record<string, string> = { arguments: d.arguments };
  if (d.name) fn.name = d.name;
  return { tool_calls: [{ index: d.index, ...(d.id ? { id: d.id, type: "function" } : {}), function: fn }] };
}

export interface SseOptions {
  /** `stream_options.include_usage`: a last chunk with empty choices carrying usage (and svc). */
  includeUsage?: boolean;
  /** `n`: how many choices the stream carries (each opens with a role chunk of its index). */
  choices?: number;
}

/**
 * The stream in OpenAI's chat chunk format. OpenAI's contract: the finish chunk carries `svc`; with
 * `includeUsage` a last chunk with empty choices follows and carries usage and `svc` instead
 * (docs/compatibility.md). A failure after the first delta ends with an OpenAI-shaped error event.
 */
export function chatSse(cs: ChatStream, keepAlive: (p: Promise<unknown>) => void, extend: SvcExtend = asIs, opts: SseOptions = {}): ReadableStream<Uint8Array> {
  const id = `svc-${cs.requestId}`;
  const contentChunk = contentChunkEncoder(id, cs.created, cs.model.id);
  const n = Math.max(1, opts.choices ?? 1);
  return cs.body(
    {
      // n > 1: every choice opens with its role chunk, and each chunk's choice carries its index.
      start: () => Array.from({ length: n }, (_, index) => sseData(chunk(id, cs.created, cs.model.id, { role: "assistant", content: "" }, null, index))).join(""),
      delta: (d) => (d.type === "delta" ? contentChunk(d.content, d.choice) : sseData(chunk(id, cs.created, cs.model.id, toolCallDelta(d.call), null, d.choice))),
      done(o) {
        // A finish chunk per choice; svc rides the last one, or the usage chunk when there is one.
        const finishes = (o.choices ?? [o]).map((c, index) => chunk(id, cs.created, o.model.id, {}, c.finishReason, index));
        const last = finishes.pop()!;
        let frames = finishes.map(sseData).join("");
        frames += opts.includeUsage
          ? sseData(last) + sseData({ id, object: "chat.completion.chunk", created: cs.created, model: o.model.id, choices: [], usage: o.usage, svc: extend(o.svc) })
          : sseData({ ...last, svc: extend(o.svc) });
        return frames + SSE_DONE;
      },
      failed: (message) => sseData(errorEvent(message, "upstream_stream_error")),
    },
    keepAlive,
  );
}

export const SSE_HEADERS = { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" } as const;
