/**
 * The concurrency-1 client: one keep-alive connection per target, one request at a time, timed
 * from before the request is written to the last byte of the response. Every target is measured
 * by this same code, so the client's own cost is in every figure equally and cancels out of the
 * differences the benchmark reports.
 */
import { Agent, request as httpRequest, type IncomingHttpHeaders } from "node:http";

export interface Target {
  name: string;
  /** Origin, e.g. http://127.0.0.1:8787. */
  origin: string;
  method: "GET" | "POST";
  path: string;
  /** JSON body for POST; the same bytes on every request. */
  body?: string;
  /** Streaming variant of `body` (`stream: true`), for the streaming phase. */
  streamBody?: string;
  /** Whether to send a rotating API key (the gateway); the others ignore it. */
  auth: boolean;
  /** Fixed headers of every request (a peer gateway's routing headers). */
  headers?: Record<string, string>;
}

export interface Exchange {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** Milliseconds, request start to last byte. */
  ms: number;
}

/** Hands out keys round-robin, so no key passes its plan's per-minute limit. */
export class KeyRing {
  private i = 0;
  constructor(private readonly keys: readonly string[]) {
    if (keys.length === 0) throw new Error("KeyRing needs at least one key");
  }
  next(): string {
    const key = this.keys[this.i]!;
    this.i = (this.i + 1) % this.keys.length;
    return key;
  }
}

export class Client {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });
  private readonly url: URL;

  constructor(readonly target: Target, private readonly keys: KeyRing) {
    this.url = new URL(target.path, target.origin);
  }

  private headers(body: Buffer | undefined): Record<string, string> {
    const h: Record<string, string> = { ...this.target.headers };
    if (body) {
      h["content-type"] = "application/json";
      h["content-length"] = String(body.length);
    }
    if (this.target.auth) h.authorization = `Bearer ${this.keys.next()}`;
    return h;
  }

  /** One whole request and response. */
  send(): Promise<Exchange> {
    const body = this.target.body === undefined ? undefined : Buffer.from(this.target.body);
    return new Promise((resolve, reject) => {
      const t0 = process.hrtime.bigint();
      const req = httpRequest(this.url, { method: this.target.method, agent: this.agent, headers: this.headers(body) }, (res) => {
        const parts: Buffer[] = [];
        res.on("data", (d: Buffer) => parts.push(d));
        res.on("end", () => {
          const ms = Number(process.hrtime.bigint() - t0) / 1e6;
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts).toString("utf8"), ms });
        });
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end(body);
    });
  }

  /**
   * One streamed completion. Times the first content delta (time to first token as a user sees
   * it, not merely the first byte, which a gateway could send before the upstream answers) and
   * the gap between consecutive content deltas as they arrive; deltas that arrive in the same
   * read have a gap of 0.
   */
  stream(): Promise<StreamTiming> {
    if (this.target.streamBody === undefined) throw new Error(`${this.target.name} has no streaming body`);
    const body = Buffer.from(this.target.streamBody);
    return new Promise((resolve, reject) => {
      const t0 = process.hrtime.bigint();
      const since = () => Number(process.hrtime.bigint() - t0) / 1e6;
      const req = httpRequest(this.url, { method: "POST", agent: this.agent, headers: this.headers(body) }, (res) => {
        let buffer = "";
        let ttfb = Number.NaN;
        let ttft = Number.NaN;
        let last = Number.NaN;
        let done = false;
        let content = "";
        const gaps: number[] = [];
        res.setEncoding("utf8");
        res.on("data", (d: string) => {
          const now = since();
          if (Number.isNaN(ttfb)) ttfb = now;
          buffer += d;
          let end: number;
          while ((end = buffer.search(/\r?\n\r?\n/)) !== -1) {
            const event = buffer.slice(0, end);
            buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, "");
            for (const line of event.split(/\r?\n/)) {
              if (!line.startsWith("data:")) continue;
              const data = line.slice(5).trim();
              if (data === "[DONE]") {
                done = true;
                continue;
              }
              const delta = contentOf(data);
              if (!delta) continue;
              content += delta;
              if (Number.isNaN(ttft)) ttft = now;
              else gaps.push(now - last);
              last = now;
            }
          }
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, ttfb, ttft, gaps, total: since(), done, content }));
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end(body);
    });
  }

  close() {
    this.agent.destroy();
  }
}

export interface StreamTiming {
  status: number;
  headers: IncomingHttpHeaders;
  /** Milliseconds to the first byte of the body. */
  ttfb: number;
  /** Milliseconds to the first content delta. */
  ttft: number;
  /** Milliseconds between consecutive content deltas. */
  gaps: number[];
  /** Milliseconds to the end of the stream. */
  total: number;
  /** Whether `data: [DONE]` arrived. */
  done: boolean;
  content: string;
}

/** The content delta of an OpenAI chat.completion.chunk, or "" (role-only, usage and svc chunks). */
function contentOf(data: string): string {
  try {
    const chunk = JSON.parse(data) as { choices?: Array<{ delta?: { content?: unknown } }> };
    const c = chunk.choices?.[0]?.delta?.content;
    return typeof c === "string" ? c : "";
  } catch {
    return "";
  }
}
