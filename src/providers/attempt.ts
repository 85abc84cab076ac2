/**
 * One attempt at one model: build the upstream request with the protocol's adapter, send it through
 * the route's fetch under a Deadline, and read the answer (a whole body, or a stream up to its
 * first content delta). Every failure comes back as a value that the retry loop can judge.
 */
import type { Model } from "../catalog/models";
import { Deadline } from "./deadline";
import { parseJson, UpstreamFault, type Adapter, type StreamDecoder, type UpstreamCompletion } from "./adapter";
import { isRetryableStatus, retryAfterMs } from "./retry";
import { SseParser, type SseMessage } from "./sse";
import type { FetchLike, ModelRequest, StreamDelta } from "./types";

/** Where and how one model is reached. */
export interface Route {
  model: Model;
  adapter: Adapter;
  baseUrl: string;
  apiKey: string | undefined;
  fetch: FetchLike;
  sandbox: boolean;
}

export interface Failure {
  ok: false;
  status: number | null;
  error: string;
  retryable: boolean;
  /** The upstream's own retry-after, in ms. */
  retryAfterMs: number | null;
  /** The caller's client went away: stop trying altogether. */
  aborted: boolean;
}
export interface Success<T> {
  ok: true;
  status: number;
  value: T;
}
export type Outcome<T> = Success<T> | Failure;

/** Milliseconds spent waiting on upstreams, summed over attempts and stream reads. */
export interface UpstreamClock {
  ms: number;
}

export interface AttemptInput {
  route: Route;
  req: ModelRequest;
  timeoutMs: number;
  signal: AbortSignal | undefined;
  clock: UpstreamClock;
}

function send(input: AttemptInput, stream: boolean, deadline: Deadline): Promise<Response> {
  const { route } = input;
  const up = route.adapter.request(route.model, input.req, { baseUrl: route.baseUrl, apiKey: route.apiKey, stream });
  return route.fetch(up.url, { method: "POST", headers: up.headers, body: up.body, signal: deadline.signal });
}

async function httpFailure(res: Response, adapter: Adapter): Promise<Failure> {
  const text = await res.text().catch(() => "");
  return {
    ok: false,
    status: res.status,
    error: adapter.errorMessage(res.status, text),
    retryable: isRetryableStatus(res.status),
    retryAfterMs: retryAfterMs(res.headers),
    aborted: false,
  };
}

/** A thrown error as a Failure: timeouts and unusable bodies fall back, network errors retry. */
export function failureOf(err: unknown, deadline: Deadline, httpStatus: number | null, signal: AbortSignal | undefined): Failure {
  if (deadline.timedOut) {
    return { ok: false, status: null, error: `timed out after ${deadline.ms} ms`, retryable: false, retryAfterMs: null, aborted: false };
  }
  if (signal?.aborted) return { ok: false, status: null, error: "aborted by the client", retryable: false, retryAfterMs: null, aborted: true };
  if (err instanceof UpstreamFault) {
    const status = err.status ?? httpStatus;
    return { ok: false, status, error: err.message, retryable: err.status !== null && isRetryableStatus(err.status), retryAfterMs: null, aborted: false };
  }
  const message = err instanceof Error ? err.message : String(err);
  // A connection that failed or reset is transient: worth another try at the same model.
  return { ok: false, status: httpStatus, error: `network error: ${message}`, retryable: true, retryAfterMs: null, aborted: false };
}

export async function completeOnce(input: AttemptInput): Promise<Outcome<UpstreamCompletion>> {
  const deadline = new Deadline(input.timeoutMs, input.signal);
  const started = performance.now();
  let status: number | null = null;
  try {
    const res = await send(input, false, deadline);
    status = res.status;
    if (!res.ok) return await httpFailure(res, input.route.adapter);
    const text = await res.text();
    return { ok: true, status, value: input.route.adapter.response(parseJson(text)) };
  } catch (err) {
    return failureOf(err, deadline, status, input.signal);
  } finally {
    input.clock.ms += performance.now() - started;
    deadline.dispose();
  }
}

/** A stream that has produced its first delta (content or tool call), or finished without any. */
export interface OpenStream {
  /** The deltas of the first upstream read that had any; empty when the upstream finished the answer without content. */
  first: StreamDelta[];
  /** The rest of the upstream body, unlocked: the stream pipe reads it from here. */
  body: ReadableStream<Uint8Array>;
  /** Holds the partial message the first read ended in. */
  parser: SseParser;
  decoder: StreamDecoder;
  deadline: Deadline;
}

/** Every delta the messages carry, in order. */
export function deltasOf(decoder: StreamDecoder, messages: readonly SseMessage[], out: StreamDelta[] = []): StreamDelta[] {
  for (const msg of messages) for (const d of decoder.push(msg)) out.push(d);
  return out;
}

/**
 * Sends the request and reads until the first read that brings a delta, all of that read's
 * messages decoded: until then a failure is an attempt's failure, and the caller may fall back.
 */
export async function openStream(input: AttemptInput): Promise<Outcome<OpenStream>> {
  const deadline = new Deadline(input.timeoutMs, input.signal);
  const started = performance.now();
  let status: number | null = null;
  let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  let opened = false;
  try {
    const res = await send(input, true, deadline);
    status = res.status;
    if (!res.ok) return await httpFailure(res, input.route.adapter);
    const body = res.body;
    if (!body) throw new UpstreamFault("stream response has no body");
    const r = (reader = body.getReader());
    deadline.watch((reason) => void r.cancel(reason).catch(() => {}));
    const parser = new SseParser();
    const decoder = input.route.adapter.decoder();
    for (;;) {
      const { done, value } = await r.read();
      const first = deltasOf(decoder, done ? parser.end() : parser.push(value));
      if (done && !first.length && !decoder.finished) throw new UpstreamFault("stream ended before any content");
      if (done || first.length) {
        // From here the stream belongs to the pipe, which keeps the deadline going.
        r.releaseLock();
        opened = true;
        deadline.waitingOnUpstream(false);
        return { ok: true, status, value: { first, body, parser, decoder, deadline } };
      }
    }
  } catch (err) {
    return failureOf(err, deadline, status, input.signal);
  } finally {
    input.clock.ms += performance.now() - started;
    if (!opened) {
      reader?.cancel().catch(() => {});
      deadline.dispose();
    }
  }
}
