/**
 * The OpenAI wire format of a chat outcome: the completion object, and the SSE stream of chunks.
 * Shared by every endpoint that answers as a chat completion (chat, skill invoke).
 */
import { UpstreamError } from "../providers/upstream-error";
import type { ChatOutcome, ChatStream } from "./chat";
import { chunk, contentChunkEncoder, errorEvent, SSE_DONE, sseData } from "./openai-sse";
import type { SvcBlock } from "./svc";

/** Chunks a stream may queue ahead of a slow client before the upstream read waits. */
const STREAM_QUEUE = 64;

/** Lets an endpoint add its own fields to `svc` (a skill adds `svc.skill`). */
export type SvcExtend = (svc: SvcBlock) => Record<string, unknown>;
const asIs: SvcExtend = (svc) => svc;

export function completionJson(o: ChatOutcome, extend: SvcExtend = asIs) {
  return {
    id: `svc-${o.requestId}`,
    object: "chat.completion",
    created: o.created,
    model: o.model.id,
    choices: [{ index: 0, message: { role: "assistant", content: o.content }, finish_reason: o.finishReason }],
    usage: o.usage,
    svc: extend(o.svc),
  };
}

/**
 * The stream in OpenAI's chunk format, pulled by the runtime: each pull takes the next event, and
 * the queue lets up to STREAM_QUEUE chunks run ahead of a slow client. The last chunk before [DONE]
 * has empty choices and carries usage and svc. A failure after the first delta ends the stream
 * with an OpenAI-shaped error event. A reader that goes away cancels the stream, which ends the
 * events iterator, and the model-call service records what was produced. `keepAlive` holds the
 * request open until that record has been handed off (waitUntil).
 */
export function chatSse(cs: ChatStream, keepAlive: (p: Promise<unknown>) => void, extend: SvcExtend = asIs): ReadableStream<Uint8Array> {
  const id = `svc-${cs.requestId}`;
  const contentChunk = contentChunkEncoder(id, cs.created, cs.model.id);
  const it = cs.events;
  let started = false;
  let ended: () => void = () => {};
  keepAlive(new Promise<void>((resolve) => (ended = resolve)));

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(sseData(chunk(id, cs.created, cs.model.id, { role: "assistant", content: "" }, null)));
          return;
        }
        try {
          const next = await it.next();
          if (next.done) return;
          const ev = next.value;
          if (ev.type === "delta") {
            controller.enqueue(contentChunk(ev.content));
            return;
          }
          const o = ev.outcome;
          controller.enqueue(sseData(chunk(id, cs.created, o.model.id, {}, o.finishReason)));
          controller.enqueue(sseData({ id, object: "chat.completion.chunk", created: cs.created, model: o.model.id, choices: [], usage: o.usage, svc: extend(o.svc) }));
          controller.enqueue(SSE_DONE);
          controller.close();
          ended();
        } catch (err) {
          const message = err instanceof UpstreamError ? err.message : err instanceof Error ? err.message : String(err);
          controller.enqueue(sseData(errorEvent(`The upstream stream from ${cs.model.id} failed after it began: ${message}`, "upstream_stream_error")));
          controller.close();
          ended();
        }
      },
      async cancel() {
        try {
          await it.return(undefined);
        } finally {
          ended();
        }
      },
    },
    new CountQueuingStrategy({ highWaterMark: STREAM_QUEUE }),
  );
}

export const SSE_HEADERS = { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" } as const;
