/**
 * The rest of an opened upstream stream: one read loop over the upstream body that decodes each
 * read synchronously (bytes to SSE messages to the protocol's deltas to the sink's frames) and
 * enqueues the frames on the response body. No per-chunk awaits beyond the read itself; the loop
 * waits on the client only when a slow client lets STREAM_BACKLOG bytes pile up in the body's queue.
 * A read loop rather than `pipeThrough` into a writable/readable pair: the runtime's pipe made the
 * same one JavaScript round trip per upstream chunk plus its own promise plumbing (5-13% more CPU
 * per stream in the bench's streams; docs/providers.md).
 *
 * Writes are coalesced by the isolate's clock. workerd's fetch body yields one upstream HTTP chunk
 * per read however much has arrived, and every chunk our JavaScript hands the response costs the
 * runtime a round trip into the isolate (about 0.1 ms of CPU on the bench machine, against 0.01 ms
 * for a native pipe: docs/providers.md, "The stream pipe"). So the frames of a read are written at
 * once only when the clock has moved since the last write (a token that arrives after a pause, as
 * a model's tokens do); reads that arrive within the same clock tick as the last write (a burst:
 * the clock only moves across I/O, in whole milliseconds) are joined and written with the next
 * read of a later tick, or by a 1 ms timer, whichever comes first. A burst of 64 events becomes a
 * handful of writes; a token is held back by at most about one tick, and only inside a burst.
 *
 * The stages (SseParser, the adapter's StreamDecoder, the sink) are plain objects composed in the
 * one loop rather than a chain of TransformStreams: every stream stage adds a queue and a promise
 * hop per chunk.
 */
import type { Model } from "../catalog/models";
import { deltasOf, failureOf, type OpenStream } from "./attempt";
import type { SseMessage } from "./sse";
import type { PipedStream, StreamDelta, StreamSink, TokenUsage } from "./types";
import { UpstreamError } from "./upstream-error";

/** Bytes of frames that may wait for a slow client before the upstream is read no further. */
export const STREAM_BACKLOG = 256 * 1024;

/** How long frames of a burst may wait for a later read before they are written anyway, ms. */
export const COALESCE_MS = 1;

const encoder = new TextEncoder();

const producedText = (ds: readonly StreamDelta[]) => {
  let text = "";
  for (const d of ds) text += d.type === "delta" ? d.content : (d.call.name ?? "") + d.call.arguments;
  return text;
};

/**
 * `estimate` gives the usage from the text produced when the upstream reported none. Every way
 * the stream can end runs exactly one of the sink's `done` / `failed`: the upstream ends, a message
 * is an error or garbage, the upstream read fails, the deadline expires, or the client cancels the
 * body. All but the first also cancel the upstream body.
 */
export function pipeStream(open: OpenStream, model: Model, estimate: (produced: string) => TokenUsage, sink: StreamSink): PipedStream {
  const { body, parser, decoder, deadline } = open;
  let produced = producedText(open.first);
  /** Frames not yet handed to the client. */
  let pending = sink.open(open.first);
  /** The clock reading of the last write; the clock only moves across I/O. */
  let lastWrite = Number.NaN;
  let timer: ReturnType<typeof setTimeout> | null = null;
  /** The sink's done or failed has run: the readable closes once `pending` is out. */
  let settled = false;
  let cancelled = false;
  /** Lets the loop read the upstream again once a slow client has caught up. */
  let resume: (() => void) | null = null;
  let out!: ReadableStreamDefaultController<Uint8Array>;
  const reader = body.getReader();
  let ended!: () => void;
  const endedPromise = new Promise<void>((resolve) => (ended = resolve));

  const write = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (!pending || cancelled) return;
    out.enqueue(encoder.encode(pending));
    pending = "";
    lastWrite = performance.now();
  };
  const emit = (text: string) => {
    pending += text;
    if (performance.now() !== lastWrite) write();
    else timer ??= setTimeout(write, COALESCE_MS);
  };
  const settle = (last: () => string) => {
    if (settled) return;
    settled = true;
    deadline.dispose();
    try {
      pending += last();
      write();
      if (!cancelled) out.close();
    } catch (err) {
      if (!cancelled) out.error(err);
    } finally {
      ended();
    }
  };
  const fail = (err: unknown) =>
    settle(() => {
      const failure = failureOf(err, deadline, null, undefined);
      return sink.failed(new UpstreamError(`${model.id}: ${failure.error}`, failure.status, model.id, model.provider));
    });

  /** Decodes one upstream read (or the end of the body) and hands its frames on; throws on a bad message. */
  const take = (messages: SseMessage[]) => {
    const ds = deltasOf(decoder, messages);
    if (ds.length) {
      produced += producedText(ds);
      emit(sink.deltas(ds));
    }
  };
  const stop = (reason: unknown) => {
    resume?.();
    void reader.cancel(reason).catch(() => {});
  };

  async function pump() {
    try {
      for (;;) {
        // A slow client: hold the upstream back until it takes data again (pull).
        if ((out.desiredSize ?? 1) <= 0) await new Promise<void>((resolve) => (resume = resolve));
        resume = null;
        if (settled) return;
        const { done, value } = await reader.read();
        if (settled) return;
        deadline.progress();
        if (done) {
          take(parser.end());
          const end = decoder.end();
          // Without reported usage, estimate the completion from the characters streamed.
          settle(() => sink.done(end.finishReason, end.usage ?? estimate(produced), end.finishReasons));
          return;
        }
        take(parser.push(value));
      }
    } catch (err) {
      // A bad message, or the upstream read failed: the sink's failure frames end the body.
      fail(err);
      stop(err);
    }
  }

  const readable = new ReadableStream<Uint8Array>(
    {
      start(c) {
        out = c;
        // The opening frames (the role chunk, the first read's deltas) go out at once.
        write();
        void pump();
      },
      pull() {
        // The client took data and the queue is below STREAM_BACKLOG again.
        resume?.();
      },
      cancel(reason) {
        cancelled = true;
        pending = "";
        if (timer !== null) clearTimeout(timer);
        settle(() => sink.failed(null));
        stop(reason);
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: STREAM_BACKLOG }),
  );

  // Silence only counts while the pump wants upstream data, not while a slow client holds it back.
  deadline.follow(() => resume === null);
  deadline.watch((reason) => {
    fail(reason);
    stop(reason);
  });
  return { readable, ended: endedPromise };
}
