/**
 * npm run bench -- --profile [--target "gateway pinned"] [--stream] [--seconds 10]
 *
 * Where the gateway's time goes: the same stack as the benchmark, with workerd's V8 inspector
 * open, load on one target, and the CPU profiler of each Worker isolate recording meanwhile
 * (the gateway with its Durable Objects, and Miniflare's D1 and outbound Workers, which run in
 * the same workerd process). Prints the functions with the most self and inclusive time per
 * request and writes the profiles as .cpuprofile files (Chrome DevTools, Performance tab, or
 * speedscope).
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { runLoad, type LoadTool } from "./load";
import type { Target } from "./client";
import { startStack, type Stack } from "./setup";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

/** A minimal Chrome DevTools Protocol session over the WebSocket of one inspector target. */
class Cdp {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private constructor(private readonly ws: WebSocket) {
    ws.addEventListener("message", (ev) => {
      const msg = JSON.parse(String(ev.data)) as { id?: number; result?: unknown; error?: { message: string } };
      const p = msg.id === undefined ? undefined : this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id!);
      if (msg.error) p.reject(new Error(msg.error.message));
      else p.resolve(msg.result);
    });
  }
  static open(url: string): Promise<Cdp> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.addEventListener("open", () => resolve(new Cdp(ws)));
      ws.addEventListener("error", () => reject(new Error(`cannot open inspector ${url}`)));
    });
  }
  send<T = unknown>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++;
    this.ws.send(JSON.stringify({ id, method, params }));
    return new Promise((resolve, reject) => this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject }));
  }
  close() {
    this.ws.close();
  }
}

const frameName = (n: ProfileNode) => {
  const f = n.callFrame;
  const file = f.url ? f.url.split("/").pop() : "";
  return `${f.functionName || "(anonymous)"}${file ? ` ${file}:${f.lineNumber + 1}` : ""}`;
};
const NOT_BUSY = /^\((idle|program|root)\)/;

/**
 * Self and inclusive time per function (name, file, line), milliseconds, highest first. Time in
 * native code (a storage commit, a fetch being set up) counts as self time of the JavaScript
 * frame that called into it: a JS line with much self time may be waiting on the runtime.
 */
function times(profile: CpuProfile) {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const incl = new Map<string, number>();
  let busy = 0;
  let sampled = 0;
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    // Each sample's time is the delta to the next one.
    const ms = (deltas[i + 1] ?? 0) / 1000;
    const node = byNode.get(samples[i]!);
    if (!node) continue;
    sampled += ms;
    const name = frameName(node);
    if (NOT_BUSY.test(name)) continue;
    busy += ms;
    self.set(name, (self.get(name) ?? 0) + ms);
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const k = frameName(byNode.get(id)!);
      if (seen.has(k) || NOT_BUSY.test(k)) continue;
      seen.add(k);
      incl.set(k, (incl.get(k) ?? 0) + ms);
    }
  }
  const sorted = (m: Map<string, number>) => [...m].map(([fn, t]) => ({ fn, ms: t })).sort((a, b) => b.ms - a.ms);
  return { busy, sampled, self: sorted(self), inclusive: sorted(incl) };
}

/** What `--profile` and `--perf` take from the command line. */
export interface ProfileOptions {
  stream: boolean;
  target: string;
  seconds: number;
  connections: number;
  tool: LoadTool;
  keys: number;
  plan: string;
  pinnedModel: string;
  outDir: string;
  log: (m: string) => void;
  stateRoot?: string;
}

/** The target to profile (streamed with --stream), its JIT and every key warmed by 3 s of the same load. */
export async function warmTarget(stack: Stack, opts: ProfileOptions): Promise<Target> {
  const named = stack.targets({ pinnedModel: opts.pinnedModel, gateway: "chat" }).find((t) => t.name === opts.target);
  if (!named) throw new Error(`no target named ${opts.target}`);
  if (opts.stream && named.streamBody === undefined) throw new Error(`${named.name} has no streaming variant`);
  const target = opts.stream ? { ...named, name: `${named.name}, streamed`, body: named.streamBody } : named;
  const warm = await runLoad(opts.tool, target, stack.workerd.keys, opts.connections, 3, stack.tmp);
  if (warm.failures) throw new Error(`${warm.failures} failed requests during warm-up`);
  return target;
}

export async function profile(opts: ProfileOptions) {
  const inspectorPort = 9300 + Math.floor(Math.random() * 500);
  const stack = await startStack({ keys: opts.keys, plan: opts.plan, log: opts.log, inspectorPort, stateRoot: opts.stateRoot });
  try {
    const target = await warmTarget(stack, opts);

    const list = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)).json()) as Array<{ id: string; webSocketDebuggerUrl: string }>;
    const wanted = list.filter((t) => t.id === "core:user:gateway" || t.id.startsWith("d1:db") || t.id.startsWith("outbound:0"));
    const sessions = await Promise.all(wanted.map(async (t) => ({ id: t.id, cdp: await Cdp.open(t.webSocketDebuggerUrl) })));
    for (const s of sessions) {
      await s.cdp.send("Profiler.enable");
      await s.cdp.send("Profiler.setSamplingInterval", { interval: 100 });
      await s.cdp.send("Profiler.start");
    }
    opts.log(`profiling ${sessions.map((s) => s.id).join(", ")} for ${opts.seconds} s of load on ${target.name}`);
    const load = await runLoad(opts.tool, target, stack.workerd.keys, opts.connections, opts.seconds, stack.tmp);
    const out: string[] = [`${target.name}: ${Math.round(load.rps)} req/s at ${opts.connections} connections while profiling (the inspector slows it)`];
    for (const s of sessions) {
      const { profile: p } = await s.cdp.send<{ profile: CpuProfile }>("Profiler.stop");
      s.cdp.close();
      const file = path.join(opts.outDir, `${s.id.replace(/[^a-z0-9]+/gi, "-")}.cpuprofile`);
      writeFileSync(file, JSON.stringify(p));
      const t = times(p);
      const perReq = (ms: number) => `${((ms * 1000) / Math.max(1, load.requests)).toFixed(0).padStart(6)} us/req`;
      out.push("", `${s.id}: ${t.busy.toFixed(0)} ms busy of ${t.sampled.toFixed(0)} ms sampled (${perReq(t.busy).trim()}); ${file}`);
      out.push("  self time");
      for (const x of t.self.slice(0, 15)) out.push(`  ${x.ms.toFixed(1).padStart(8)} ms ${perReq(x.ms)}  ${x.fn}`);
      out.push("  inclusive time");
      for (const x of t.inclusive.slice(0, 25)) out.push(`  ${x.ms.toFixed(1).padStart(8)} ms ${perReq(x.ms)}  ${x.fn}`);
    }
    console.log(out.join("\n"));
  } finally {
    await stack.close();
  }
}
