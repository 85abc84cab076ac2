/**
 * The timeout of one attempt. Until the response arrives it bounds the wait for it; during a stream
 * it bounds the silence between upstream reads, not the time a slow client takes to drain them.
 * On expiry it aborts the fetch and calls what `watch` handed in (cancel the body, end the piped
 * stream), so a pending read ends instead of hanging. One timer per period: progress only stamps
 * a time, and an early firing re-arms for the rest.
 */
export class Deadline {
  readonly controller = new AbortController();
  timedOut = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private last = performance.now();
  private waiting = true;
  private onExpire: ((reason: unknown) => void) | null = null;
  /** While a pipe drives the stream: whether it is waiting on the upstream right now. */
  private waitingNow: (() => boolean) | null = null;
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

  /** From now on an expiry also calls `onExpire` (cancel the body being read, end the pipe). */
  watch(onExpire: (reason: unknown) => void): void {
    this.onExpire = onExpire;
  }

  /**
   * A pipe drives the stream from now on: there is no read of ours to wrap, so `waiting` says
   * whether the pipe wants upstream data (a client that does not drain its queue is not the
   * upstream's silence), and each read that arrives calls `progress`. The timer runs until dispose.
   */
  follow(waiting: () => boolean): void {
    this.waitingNow = waiting;
    this.waitingOnUpstream(true);
  }

  /** An upstream read arrived. */
  progress(): void {
    this.last = performance.now();
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
    this.waitingNow = null;
    if (this.onOuterAbort) this.outer?.removeEventListener("abort", this.onOuterAbort);
  }

  private readonly fire = () => {
    this.timer = undefined;
    if (!this.waiting) return;
    const idle = performance.now() - this.last;
    if (this.waitingNow && !this.waitingNow()) {
      // The client is behind: not the upstream's silence. Look again a period later.
      this.last = performance.now();
      this.timer = setTimeout(this.fire, this.ms);
      return;
    }
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
    this.onExpire?.(reason);
  }
}
