/**
 * The rest of an opened upstream stream, driven by the runtime: the upstream body is piped
 * (`pipeThrough`) into a pair of streams that convert it. The writable side decodes each upstream
 * read synchronously (bytes to SSE messages to the protocol's deltas to the sink's frames); the
 * readable side is the response body. Our code holds no per-chunk awaits: the only promise it hands
 * the pipe is the one that holds the upstream back while a slow client lets STREAM_BACKLOG bytes
 * pile up.
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
 * one writable rather than a chain of TransformStreams: every stream stage adds a queue and a
 * promise hop per chunk.
 */
import type { Model } from "../catalog/models";
import { deltasOf, failureOf, type OpenStream } from "./attempt";
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
 * the stream can end runs exactly one of the sink's `done` / `failed`: the upstream ends (the
 * writable's close), a message is an error or garbage (write), the upstream read fails (the pipe
 * aborts the writable), the deadline expires, or the client cancels the readable. The last three
 * and a bad message also error the writable, which makes the pipe cancel the upstream body.
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
  /** Lets the pipe read the upstream again once a slow client has caught up. */
  let resume: (() => void) | null = null;
  let out!: ReadableStreamDefaultController<Uint8Array>;
  let sinkSide!: WritableStreamDefaultController;
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

  const writable = new WritableStream<Uint8Array>({
    start(c) {
      sinkSide = c;
    },
    write(chunk) {
      if (settled) return;
      deadline.progress();
      try {
        const ds = deltasOf(decoder, parser.push(chunk));
        if (ds.length) {
          produced += producedText(ds);
          emit(sink.deltas(ds));
        }
      } catch (err) {
        fail(err);
        throw err; // errors the writable: the pipe cancels the upstream
      }
      if ((out.desiredSize ?? 1) <= 0 && !settled && !cancelled) return new Promise<void>((resolve) => (resume = resolve));
    },
    close() {
      if (settled) return;
      try {
        const ds = deltasOf(decoder, parser.end());
        if (ds.length) {
          produced += producedText(ds);
          emit(sink.deltas(ds));
        }
        const end = decoder.end();
        // Without reported usage, estimate the completion from the characters streamed.
        settle(() => sink.done(end.finishReason, end.usage ?? estimate(produced), end.finishReasons));
      } catch (err) {
        fail(err);
      }
    },
    abort: fail,
  });

  const readable = new ReadableStream<Uint8Array>(
    {
      start(c) {
        out = c;
        // The opening frames (the role chunk, the first read's deltas) go out at once.
        write();
      },
      pull() {
        // The client took data and the queue is below STREAM_BACKLOG again.
        resume?.();
        resume = null;
      },
      cancel(reason) {
        cancelled = true;
        pending = "";
        if (timer !== null) clearTimeout(timer);
        settle(() => sink.failed(null));
        sinkSide.error(reason);
        resume?.();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: STREAM_BACKLOG }),
  );

  // Silence only counts while the pipe wants upstream data, not while a slow client holds it back.
  deadline.follow(() => resume === null);
  deadline.watch((reason) => {
    fail(reason);
    sinkSide.error(reason);
    resume?.();
  });
  return { readable: body.pipeThrough({ writable, readable }), ended: endedPromise };
}
