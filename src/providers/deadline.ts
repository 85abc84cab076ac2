import type { SseReader } from "./sse";

/**
 * The timeout of one attempt. Until the response arrives it bounds the wait for it; during a stream
 * it bounds the silence between upstream messages, not the time a slow client takes to drain them.
 * On expiry it aborts the fetch and cancels the body, so a pending read ends instead of hanging.
 * One timer per period: progress only stamps a time, and an early firing re-arms for the rest.
 */
export class Deadline {
  readonly controller = new AbortController();
  timedOut = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private last = performance.now();
  private waiting = true;
  private reader: SseReader | null = null;
  private readonly onOuterAbort: (() => void) | undefined;

  constructor(readonly ms: number, private readonly outer?: AbortSignal) {
    if (outer) {
      if (outer.aborted) this.controller.abort(outer.reason);
      else {
        this.onOuterAbort = () => this.abort(outer.reason);
        outer.addEventListener("abort", this.onOuterAbort, { once: true });
      }
    }
    this.timer = setTimeout(this.fire, ms);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** From now on an expiry also cancels this stream body. */
  watch(reader: SseReader): void {
    this.reader = reader;
  }

  /**
   * Waiting on the upstream starts (true) or stops (false). No timer runs while nobody waits, so
   * a stream its consumer abandons leaves nothing ticking.
   */
  waitingOnUpstream(waiting: boolean): void {
    this.waiting = waiting;
    this.last = performance.now();
    if (waiting && this.timer === undefined && !this.controller.signal.aborted) this.timer = setTimeout(this.fire, this.ms);
  }

  dispose(): void {
    this.stop();
    this.waiting = false;
    if (this.onOuterAbort) this.outer?.removeEventListener("abort", this.onOuterAbort);
  }

  private readonly fire = () => {
    this.timer = undefined;
    if (!this.waiting) return;
    const idle = performance.now() - this.last;
    if (idle < this.ms) {
      this.timer = setTimeout(this.fire, this.ms - idle);
      return;
    }
    this.timedOut = true;
    this.abort(new Error(`upstream timed out after ${this.ms} ms`));
  };

  private stop() {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private abort(reason: unknown) {
    this.stop();
    this.controller.abort(reason);
    this.reader?.cancel(reason);
  }
}
