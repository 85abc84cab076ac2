/**
 * npm run bench -- --perf [--target "gateway pinned"] [--stream] [--seconds 8]
 *
 * Where workerd's CPU goes, by Linux `perf` sampling the whole process under load on one target:
 * every Worker isolate (the gateway with its Durable Objects, Miniflare's outbound hop and D1
 * simulator, the bare Worker) and the runtime's own native code (HTTP, I/O, the isolate entries,
 * garbage collection, SQLite), all on workerd's one thread. V8 writes a jitdump of its compiled
 * JavaScript (`--perf-prof`, handed to workerd through MINIFLARE_WORKERD_V8_FLAGS) and
 * `perf inject --jit` names the JavaScript frames from it. Unlike `--profile` (V8's inspector, which slows JavaScript several
 * times over and sees one isolate at a time), sampling costs little and sees everything, so the
 * figures add up to the process's CPU per request; use it for how much, `--profile` for call trees.
 * Needs `perf` (Debian: `apt-get install linux-perf`); software clock sampling works where the
 * hardware counters are not available, as in most VMs.
 */
import { spawn, spawnSync } from "node:child_process";
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { runLoad } from "./load";
import { warmTarget, type ProfileOptions } from "./profile";
import { startStack } from "./setup";
import { GATEWAY_MODULE } from "./workerd";

/** Samples per second (cpu-clock): at 1 kHz a 8-second window of one busy thread is about 8,000 samples. */
const HZ = 1000;

/** One sample: its frames, innermost first, as `perf script` prints them. */
type Sample = string[];

export function parsePerfScript(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const block of text.split(/\n\s*\n/)) {
    const lines = block.split("\n").filter((l) => l.trim());
    if (lines.length > 1) samples.push(lines.slice(1).map((l) => l.trim()));
  }
  return samples;
}

export interface JsFrame {
  fn: string;
  script: string;
  line: number;
}

/** A frame of V8-compiled JavaScript (perf map names: `JS:*name script:line:column`), or null. */
export function jsFrame(frame: string): JsFrame | null {
  const m = /JS:[*~+^]?'?(.*?) ?(\S+):(\d+):\d+/.exec(frame);
  if (!m) return null;
  return { fn: m[1] || "(anonymous)", script: m[2]!, line: Number(m[3]) };
}

/** Which isolate a script belongs to; null for the runtime's own JavaScript (node:*, cloudflare-internal:*). */
export function isolateOf(script: string): string | null {
  if (script === GATEWAY_MODULE) return "gateway (our bundle, its Durable Objects included)";
  if (script === "bare-worker.js") return "bare Worker";
  if (script === "index.js") return "Miniflare's outbound hop";
  if (script.endsWith(".worker.js") || script.startsWith("miniflare:")) return "Miniflare's D1 / KV simulators";
  return null;
}

/** Native code with no JavaScript on the stack, by the first telling frame. */
export function nativeKind(frames: Sample): string {
  const all = frames.join("\n");
  if (/v8::internal::(Heap|Scavenge|MarkCompact|Sweeper|ConcurrentMarking|MinorMS)|cppgc::/.test(all)) return "native: garbage collection";
  if (all.includes("sqlite3")) return "native: SQLite";
  if (all.includes("IoContext")) return "native: entering isolates (IoContext: events, promise continuations)";
  if (/\[kernel|entry_SYSCALL/.test(all)) return "native: kernel (sockets, syscalls)";
  return "native: other (HTTP, kj event loop, allocation)";
}

export interface PerfReport {
  samples: number;
  usPerRequest: number;
  where: { name: string; usPerRequest: number }[];
  /** The gateway's functions by their innermost JavaScript frame (the runtime calls they make included). */
  self: { fn: string; usPerRequest: number }[];
  inclusive: { fn: string; usPerRequest: number }[];
}

export function attribute(samples: readonly Sample[], requests: number, hz = HZ): PerfReport {
  const us = (n: number) => (n * 1e6) / hz / Math.max(1, requests);
  const where = new Map<string, number>();
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const add = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  for (const frames of samples) {
    const js = frames.map(jsFrame).filter((f): f is JsFrame => f !== null);
    if (!js.length) {
      add(where, nativeKind(frames));
      continue;
    }
    // The outermost script of an isolate says whose work this is (runtime JavaScript runs for a caller).
    const owner = [...js].reverse().map((f) => isolateOf(f.script)).find((x) => x !== null) ?? "runtime JavaScript (node:*, cloudflare-internal:*)";
    add(where, owner);
    if (!owner.startsWith("gateway")) continue;
    const name = (f: JsFrame) => `${f.fn} (${f.script === GATEWAY_MODULE ? "" : f.script + " "}line ${f.line})`;
    add(self, name(js[0]!));
    for (const n of new Set(js.map(name))) add(inclusive, n);
  }
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
  return {
    samples: samples.length,
    usPerRequest: us(samples.length),
    where: sorted(where).map(([name, n]) => ({ name, usPerRequest: us(n) })),
    self: sorted(self).slice(0, 30).map(([fn, n]) => ({ fn, usPerRequest: us(n) })),
    inclusive: sorted(inclusive).slice(0, 40).map(([fn, n]) => ({ fn, usPerRequest: us(n) })),
  };
}

export function formatPerf(title: string, r: PerfReport): string {
  const row = (v: number, label: string) => `${v.toFixed(1).padStart(8)} us  ${label}`;
  return [
    `${title}: ${r.samples} samples, ${r.usPerRequest.toFixed(0)} us of workerd CPU per request`,
    "",
    "where (us per request)",
    ...r.where.map((w) => row(w.usPerRequest, w.name)),
    "",
    "the gateway's functions, innermost JavaScript frame (native calls they make included)",
    ...r.self.map((f) => row(f.usPerRequest, f.fn)),
    "",
    "the gateway's functions, inclusive",
    ...r.inclusive.map((f) => row(f.usPerRequest, f.fn)),
  ].join("\n");
}

export async function perfProfile(opts: ProfileOptions) {
  if (spawnSync("perf", ["--version"]).status !== 0) throw new Error("--perf needs Linux perf on PATH (Debian: apt-get install linux-perf)");
  // Read by Miniflare when it starts workerd: V8 then writes a jitdump (every compiled function with
  // its address and when it was made) that `perf inject --jit` turns into symbols. Not the simpler
  // perf map (--perf-basic-prof): V8 reuses code addresses as it recompiles and collects, and a map
  // has no times, so later functions were named after earlier ones (a 1 us check showed as 115 us).
  process.env.MINIFLARE_WORKERD_V8_FLAGS = `--perf-prof --perf-prof-path=${opts.outDir} --interpreted-frames-native-stack`;
  const stack = await startStack({ keys: opts.keys, plan: opts.plan, log: opts.log, stateRoot: opts.stateRoot });
  try {
    const target = await warmTarget(stack, opts);
    const data = path.join(opts.outDir, "perf.data");
    const pid = stack.pids[0]!;
    opts.log(`sampling workerd (pid ${pid}) at ${HZ} Hz for ${opts.seconds} s of load on ${target.name}`);
    // -k mono: the jitdump's clock, so that inject can tell which function was at an address when.
    const perf = spawn("perf", ["record", "-q", "-k", "mono", "-e", "cpu-clock", "-F", String(HZ), "-g", "-p", String(pid), "-o", data, "--", "sleep", String(opts.seconds)], { stdio: "ignore" });
    const recorded = new Promise<number | null>((resolve) => perf.on("exit", resolve));
    const load = await runLoad(opts.tool, target, stack.workerd.keys, opts.connections, opts.seconds, stack.tmp);
    if ((await recorded) !== 0) throw new Error("perf record failed (is perf_event_paranoid too strict? try running as root)");
    const jitted = path.join(opts.outDir, "perf.jit.data");
    opts.log("naming JavaScript frames from V8's jitdump (perf inject --jit, about 20 s)");
    const inject = spawnSync("perf", ["inject", "--jit", "-i", data, "-o", jitted], { encoding: "utf8", maxBuffer: 1 << 26 });
    if (inject.status !== 0) throw new Error(`perf inject --jit failed: ${inject.stderr}`);
    const script = spawnSync("perf", ["script", "-i", jitted], { encoding: "utf8", maxBuffer: 1 << 30 });
    if (script.status !== 0) throw new Error(`perf script failed: ${script.stderr}`);
    // The symbols perf inject wrote (tens of thousands of small files) are needed only by perf script.
    for (const f of readdirSync(opts.outDir)) if (/^jitted-.*\.so$|^jit-.*\.dump$|^perf\.jit\.data$/.test(f)) rmSync(path.join(opts.outDir, f));
    const report = attribute(parsePerfScript(script.stdout), load.requests);
    const text = formatPerf(`${target.name}: ${Math.round(load.rps)} req/s at ${opts.connections} connections`, report);
    writeFileSync(path.join(opts.outDir, "perf-report.txt"), text + "\n");
    writeFileSync(path.join(opts.outDir, "perf-report.json"), JSON.stringify(report, null, 2));
    console.log(`${text}\n\nperf.data, perf-report.txt and perf-report.json in ${opts.outDir}`);
  } finally {
    await stack.close();
  }
}
