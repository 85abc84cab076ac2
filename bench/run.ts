/**
 * npm run bench [-- --quick] [options]
 *
 * The gateway's own overhead, measured side by side in one run (docs/bench.md says how to read
 * it). Each target ends in the same OpenAI-format completion from one mock upstream:
 *   direct             the client calls the mock itself;
 *   bare               a pass-through Worker on the same workerd calls it;
 *   bare, JSON         the same Worker parsing and re-writing the JSON both ways (the floor of a transforming Worker);
 *   bare, raw workerd  the same Worker under plain `workerd serve` (the cost of Miniflare's hop);
 *   gateway auto       POST /v1/chat/completions, model "auto" (auth, limiter, routing, adapter, receipt);
 *   gateway pinned     the same with a pinned OpenAI-compatible model;
 * and with --peers (bench/peers.ts):
 *   bare node          a plain node:http pass-through on Node 24 (the floor of a Node gateway);
 *   portkey            Portkey's gateway (npm @portkey-ai/gateway, installed on demand) on Node 24.
 * Storage calls per chat call are counted on the gateway's metered twin (STORAGE_METER=on), which
 * no measured target is.
 * Phases run in rounds that alternate the order of the targets, so drift of the machine lands on
 * every target alike. Any failed request, or a gateway answer that did not come from the mock,
 * ends the run with a non-zero exit: `--quick` is the harness's smoke test.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { ROOT } from "../scripts/lib/wrangler";
import { Client, KeyRing, type Target } from "./client";
import { pickLoadTool, runLoad, type LoadTool } from "./load";
import { checkTargets, formatReport, type PeerFigures, type PerCall, type Results, type StorageFigures, type StreamFigures, type ThroughputFigures } from "./report";
import { nodeVersion, PORTKEY_NODE_SERVER_VERSION, PORTKEY_VERSION, projectNode } from "./peers";
import { BUSY_WINDOW_MS, GATHER_MS } from "../src/calls/flush-policy";
import { parseCounts, STORAGE_KINDS, STORAGE_METER_HEADER, STORAGE_METER_PATH, type MeterTotals, type StorageCounts } from "../src/shared/storage-meter";
import { median, medianOfRoundMedians, pairedMedianDifference, roundOrder, summarize, type Summary } from "./stats";
import { perfProfile } from "./perf";
import { profile } from "./profile";
import { MOCK_TEXT_START, startStack, type Stack } from "./setup";
import { cpuMs } from "./workerd";

const { values: args } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    rounds: { type: "string" },
    requests: { type: "string" },
    streams: { type: "string" },
    "throughput-rounds": { type: "string" },
    seconds: { type: "string" },
    connections: { type: "string", default: "16" },
    keys: { type: "string" },
    gateway: { type: "string", default: "chat" },
    tool: { type: "string" },
    "pinned-model": { type: "string", default: "gpt-5-mini" },
    out: { type: "string", default: path.join(ROOT, "bench/results.json") },
    "state-dir": { type: "string" },
    compare: { type: "string" },
    peers: { type: "boolean", default: false },
    profile: { type: "boolean", default: false },
    perf: { type: "boolean", default: false },
    stream: { type: "boolean", default: false },
    target: { type: "string", default: "gateway pinned" },
    help: { type: "boolean", default: false },
  },
});

if (args.help) {
  console.log(`npm run bench [-- options]
  --quick               30-second smoke run (exits non-zero on any error)
  --rounds N            latency/streaming rounds (default 10, quick 2)
  --requests N          requests per target per latency round (default 300, quick 40)
  --streams N           streams per target per streaming round (default 20, quick 5)
  --throughput-rounds N (default 4, quick 1)   --seconds S  per target per round (default 5, quick 2)
  --connections N       throughput concurrency (default 16)
  --keys N              throughput-phase keys (default: as many as the gateway's warm-up throughput needs)
  --gateway chat|usage  gateway endpoint: POST /v1/chat/completions, or GET /v1/usage (auth + limiter + D1 only)
  --compare DIR         also serve the gateway of another checkout (DIR, with node_modules) in the same
                        workerd, as targets "gateway auto, B" and "gateway pinned, B": before/after
                        figures measured interleaved, in one run
  --peers               also measure Portkey's gateway (npm @portkey-ai/gateway ${PORTKEY_VERSION}, installed on demand
                        into bench/.peers/, run on the project's Node 24) and a bare Node pass-through beside it
  --state-dir DIR       where local D1/KV/Durable Object files go (default /dev/shm, tmpfs; see docs/bench.md)
  --tool wrk|autocannon load generator (default: wrk if on PATH)
  --pinned-model ID     the pinned catalog model (default gpt-5-mini, OpenAI-compatible)
  --out FILE            JSON output (default bench/results.json)
  --profile [--target NAME] [--stream] [--seconds S]
                        instead of the benchmark: CPU-profile workerd's isolates under load on one
                        target (default "gateway pinned"), print the top functions, keep .cpuprofile files
  --perf [--target NAME] [--stream] [--seconds S]
                        instead of the benchmark: sample all of workerd with Linux perf under load on one
                        target: CPU per request by isolate and native part, the gateway's top functions`);
  process.exit(0);
}

const quick = args.quick;
const num = (v: string | undefined, full: number, q: number) => (v === undefined ? (quick ? q : full) : Number(v));
const opt = {
  rounds: num(args.rounds, 10, 2),
  requests: num(args.requests, 300, 40),
  streams: num(args.streams, 20, 5),
  throughputRounds: num(args["throughput-rounds"], 4, 1),
  seconds: num(args.seconds, 5, 2),
  connections: Number(args.connections),
  keys: args.keys === undefined ? null : Number(args.keys),
  warmup: quick ? 50 : 300,
};
if (args.gateway !== "chat" && args.gateway !== "usage") throw new Error("--gateway is chat or usage");
const useChat = args.gateway === "chat";
const PLAN = "corporate";
/**
 * API keys. One key's limiter admits 1000 requests a minute (plan corporate, the highest), far
 * below what the gateway serves under load, and a bench-only plan or a switch that turns the
 * limiter off would measure a gateway that does not exist. So the benchmark mints keys and
 * rotates them per request: every request still pays auth and an exact limiter call, each key
 * stays under its limit, as many customers' keys would. Two disjoint pools, because the minute
 * window slides: LATENCY_KEYS for the concurrency-1 phases (at 1 ms a request the gateway would
 * see at most 60,000 requests a minute there, and shares the time with 3 other targets), and a
 * throughput pool sized from the gateway's measured warm-up throughput. Every key is used once
 * before measuring, so its cache entry and limiter object exist, as for a customer in steady
 * state. Each key is a Durable Object instance in workerd's memory: this is why the keys are
 * not simply minted by the thousand.
 */
const LATENCY_KEYS = 64;
/** Requests a throughput-pool key may see in a minute: 80% of the plan's RPM leaves room for the sliding window's edges. */
const KEY_BUDGET_PER_MINUTE = 800;

const started = performance.now();
const loadStart = loadavg();
let stack: Stack | undefined;

function log(msg: string) {
  process.stderr.write(`[bench ${((performance.now() - started) / 1000).toFixed(1).padStart(5)}s] ${msg}\n`);
}

/**
 * VmRSS and VmHWM (peak) of the workerd process, and RSS split into anonymous memory (isolate
 * heaps, Durable Object instances, SQLite page caches) and file or shared-memory pages (mapped
 * SQLite files, which count here because the state lives on tmpfs).
 */
function memorySample(phase: string, pids: readonly number[]) {
  const kib = { VmRSS: 0, VmHWM: 0, RssAnon: 0, RssFile: 0, RssShmem: 0 };
  for (const pid of pids) {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    for (const k of Object.keys(kib) as Array<keyof typeof kib>) kib[k] += Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  }
  return { phase, rssMiB: kib.VmRSS / 1024, peakMiB: kib.VmHWM / 1024, anonMiB: kib.RssAnon / 1024, fileAndShmemMiB: (kib.RssFile + kib.RssShmem) / 1024 };
}

function versions() {
  const pkg = (name: string) => (JSON.parse(readFileSync(path.join(ROOT, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
  const workerdVersion = spawnSync(path.join(ROOT, "node_modules/.bin/workerd"), ["--version"], { encoding: "utf8" }).stdout.trim();
  return { node: process.version, workerd: workerdVersion.replace(/^workerd\s+/, "") || pkg("workerd"), wrangler: pkg("wrangler"), miniflare: pkg("miniflare") };
}

function gitState() {
  const commit = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" }).stdout.trim() || "unknown";
  const dirty = spawnSync("git", ["status", "--porcelain", "--", "src", "bench", "wrangler.toml"], { cwd: ROOT, encoding: "utf8" }).stdout.trim() !== "";
  return { commit, dirty };
}

function cpuModel() {
  try {
    return /model name\s*:\s*(.+)/.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1]?.trim() ?? cpus()[0]?.model ?? "unknown";
  } catch {
    return cpus()[0]?.model ?? "unknown";
  }
}

function checkAnswer(name: string, status: number, body: string) {
  if (status !== 200) throw new Error(`${name} answered ${status}: ${body.slice(0, 500)}`);
  if (!useChat && name.startsWith("gateway")) return;
  const parsed = JSON.parse(body) as { choices?: Array<{ message?: { content?: string } }>; svc?: { sandbox?: boolean } };
  const content = parsed.choices?.[0]?.message?.content ?? "";
  if (!content.startsWith(MOCK_TEXT_START)) throw new Error(`${name}: the answer did not come from the mock upstream: ${body.slice(0, 300)}`);
  if (parsed.svc?.sandbox) throw new Error(`${name}: the sandbox upstream answered; SANDBOX_UPSTREAM should be off`);
}

async function main() {
  const chosen = args.tool === "wrk" || args.tool === "autocannon" ? args.tool : undefined;
  const tool: LoadTool = chosen ?? pickLoadTool();
  log(`load generator: ${tool}${!chosen && tool === "autocannon" ? " (wrk is not on PATH; `apt-get install wrk` gives steadier throughput figures, see docs/bench.md)" : ""}`);

  const st = await startStack({ keys: LATENCY_KEYS, plan: PLAN, log, stateRoot: args["state-dir"], compareRoot: args.compare, peers: args.peers });
  stack = st;
  const { workerd, pids, tmp } = st;
  const memory = [memorySample("start (idle)", pids)];

  const latencyKeys = [...workerd.keys];
  const pinned = args["pinned-model"]!;
  const targets = st.targets({ pinnedModel: pinned, gateway: useChat ? "chat" : "usage" });
  const gatewayTargets = targets.filter((t) => t.name.startsWith("gateway"));
  const latencyRing = new KeyRing(latencyKeys);
  const clients = new Map(targets.map((t) => [t.name, new Client(t, latencyRing)]));

  // Probe: every target answers 200 with the mock's text; the chat endpoint exists. Note which
  // model each gateway target is served by, so a reader knows which adapter was measured.
  const servedBy: Record<string, string> = {};
  for (const t of targets) {
    const x = await clients.get(t.name)!.send();
    if (x.status === 404 && t.name.startsWith("gateway")) {
      throw new Error(`${t.method} ${t.path} answers 404 (${x.body.slice(0, 200)}): the endpoint is not mounted in this checkout. ` +
        "Run with --gateway usage to measure auth + limiter + D1 on GET /v1/usage instead.");
    }
    checkAnswer(t.name, x.status, x.body);
    if (useChat && t.name.startsWith("gateway")) {
      const routing = (JSON.parse(x.body) as { svc?: { routing?: { model?: string; provider?: string } } }).svc?.routing;
      servedBy[t.name] = routing?.model ? `${routing.model} (${routing.provider ?? "?"})` : "unknown";
    }
  }
  log(`served by: ${Object.entries(servedBy).map(([k, v]) => `${k} -> ${v}`).join(", ") || "n/a"}`);
  const overheadHeaderPresent = new Map(gatewayTargets.map((t) => [t.name, false]));

  // Warm-up: JIT, connection pools, every key's cache entry and limiter object.
  log(`warm-up: ${opt.warmup} sequential requests per target, then every key once`);
  for (const t of targets) for (let i = 0; i < opt.warmup; i++) checkAnswer(t.name, ...(await send(clients.get(t.name)!)));
  let warmRps = 0;
  for (const t of gatewayTargets) {
    const warm = await runLoad(tool, t, latencyKeys, opt.connections, quick ? 1 : 2, tmp);
    if (warm.failures) throw new Error(`${t.name}: ${warm.failures} failed requests during warm-up`);
    warmRps = Math.max(warmRps, warm.rps);
  }
  // As if the fastest gateway target ran the whole minute, with 50% headroom for a faster machine state.
  const throughputKeyCount = opt.keys ?? Math.max(16, Math.ceil((warmRps * 1.5 * 60) / KEY_BUDGET_PER_MINUTE));
  const throughputKeys = await workerd.mintKeys(throughputKeyCount);
  log(`gateway warm-up throughput ${Math.round(warmRps)} req/s: ${throughputKeys.length} keys for the throughput phase, each used once now`);
  // Once per gateway (with --compare there are two, each with its own limiter objects).
  for (const t of gatewayTargets.filter((g, i) => gatewayTargets.findIndex((h) => h.origin === g.origin) === i)) {
    const touch = new Client(t, new KeyRing(throughputKeys));
    for (let i = 0; i < throughputKeys.length; i++) checkAnswer(t.name, ...(await send(touch)));
    touch.close();
  }
  memory.push(memorySample("warm-up", pids));

  // Latency at concurrency 1.
  log(`latency: ${opt.rounds} rounds x ${opt.requests} requests per target`);
  const samples = new Map(targets.map((t) => [t.name, [] as number[][]]));
  const overheadUs = new Map(gatewayTargets.map((t) => [t.name, [] as number[]]));
  for (let round = 0; round < opt.rounds; round++) {
    for (const t of roundOrder(targets, round)) {
      const c = clients.get(t.name)!;
      const times: number[] = [];
      for (let i = 0; i < opt.requests; i++) {
        const x = await c.send();
        if (x.status !== 200) throw new Error(`${t.name} answered ${x.status}: ${x.body.slice(0, 300)}`);
        times.push(x.ms);
        const header = x.headers["x-svc-overhead-us"];
        if (typeof header === "string" && overheadUs.has(t.name)) {
          overheadUs.get(t.name)!.push(Number(header));
          overheadHeaderPresent.set(t.name, true);
        }
      }
      samples.get(t.name)!.push(times);
    }
  }
  memory.push(memorySample("latency phase", pids));

  // Streaming at concurrency 1 (chat only: GET /v1/usage does not stream).
  let streaming: Results["streaming"] = null;
  const streamTargets = targets.filter((t) => t.streamBody !== undefined);
  if (useChat) {
    log(`streaming: ${opt.rounds} rounds x ${opt.streams} streams per target`);
    const streams = new Map(streamTargets.map((t) => [t.name, { ttfb: [] as number[], ttft: [] as number[], gap: [] as number[], total: [] as number[] }]));
    for (const t of streamTargets) {
      const s = await clients.get(t.name)!.stream();
      if (s.status !== 200 || !s.done || !s.content.startsWith(MOCK_TEXT_START)) {
        throw new Error(`${t.name}: streaming answered ${s.status}, done=${s.done}, content ${JSON.stringify(s.content.slice(0, 80))}`);
      }
    }
    for (let round = 0; round < opt.rounds; round++) {
      for (const t of roundOrder(streamTargets, round)) {
        for (let i = 0; i < opt.streams; i++) {
          const s = await clients.get(t.name)!.stream();
          if (s.status !== 200 || !s.done) throw new Error(`${t.name}: stream answered ${s.status}, done=${s.done}`);
          const acc = streams.get(t.name)!;
          acc.ttfb.push(s.ttfb);
          acc.ttft.push(s.ttft);
          acc.gap.push(...s.gaps);
          acc.total.push(s.total);
        }
      }
    }
    const figures: Record<string, StreamFigures> = {};
    for (const [name, acc] of streams) figures[name] = { ttfb: summarize(acc.ttfb), ttft: summarize(acc.ttft), gap: summarize(acc.gap), total: summarize(acc.total) };
    streaming = { rounds: opt.rounds, streamsPerRound: opt.streams, targets: figures };
  }
  for (const c of clients.values()) c.close();

  // Throughput at fixed concurrency, interleaved rounds.
  log(`throughput: ${opt.throughputRounds} rounds x ${opt.seconds} s per target at ${opt.connections} connections (${tool})`);
  const tp = new Map(targets.map((t) => [t.name, { rps: [] as number[], p50: [] as number[], p99: [] as number[], requests: 0, workerdCpuMs: 0, mockCpuMs: 0 }]));
  // The process that serves each target: the raw reference runs in its own workerd.
  const servingPids = st.servingPids;
  for (let round = 0; round < opt.throughputRounds; round++) {
    for (const t of roundOrder(targets, round)) {
      const cpu0 = cpuMs(servingPids(t.name));
      const mock0 = cpuMs([st.mockPid]);
      const r = await runLoad(tool, t, throughputKeys, opt.connections, opt.seconds, tmp);
      // The CPU of what the load left running (the records' flush) counts to the target that caused it.
      await drain(t);
      const cpu1 = cpuMs(servingPids(t.name));
      const mock1 = cpuMs([st.mockPid]);
      if (r.failures) throw new Error(`${t.name}: ${r.failures} failed requests under load (a 429 means too few keys: raise --keys)`);
      const acc = tp.get(t.name)!;
      acc.rps.push(r.rps);
      acc.p50.push(r.p50);
      acc.p99.push(r.p99);
      acc.requests += r.requests;
      acc.workerdCpuMs += cpu1 - cpu0;
      acc.mockCpuMs += mock1 - mock0;
      log(`  ${t.name.padEnd(18)} ${Math.round(r.rps)} req/s`);
    }
  }
  memory.push(memorySample("throughput phase", pids));
  // For scale: the plain workerd that served only the bare Worker through the same phases.
  memory.push(memorySample("(reference) raw workerd, bare Worker only, at the end", [st.rawBarePid]));
  if (st.peers) {
    memory.push(memorySample("(peer) Portkey's Node process, at the end", [st.peers.portkey.pid]));
    memory.push(memorySample("(peer) bare Node pass-through, at the end", [st.peers.bareNode.pid]));
  }

  // Storage calls per chat call, on the metered twin (after the measured phases, so they are not disturbed).
  const storage = useChat ? await measureStorage(st, gatewayTargets.filter((t) => !t.name.endsWith(", B")), latencyKeys, throughputKeys, tool) : null;
  const loadEnd = loadavg();

  // Last, with workerd and the mock stopped, so nothing of ours competes with the microbenchmark.
  await st.close();
  const routeDecision = await measureRouteDecision();

  // Figures.
  const latencyTargets: Results["latency"]["targets"] = {};
  for (const [name, rounds] of samples) latencyTargets[name] = { summary: summarize(rounds.flat()), medianOfRoundMedians: medianOfRoundMedians(rounds) };
  const direct = latencyTargets.direct!.summary;
  const added: Results["latency"]["added"] = {};
  for (const [name, rounds] of samples) {
    if (name === "direct") continue;
    const s = latencyTargets[name]!.summary;
    added[name] = { p50: s.p50 - direct.p50, p99: s.p99 - direct.p99, p999: s.p999 - direct.p999, mean: s.mean - direct.mean, pairedRoundMedian: pairedMedianDifference(rounds, samples.get("direct")!) };
  }
  // The gateway's own code: over the bare Worker on the same workerd, which pays the same platform costs.
  const bare = latencyTargets.bare!.summary;
  const overBare: Results["latency"]["overBare"] = {};
  const over = (name: string, floor: string) => {
    const s = latencyTargets[name]!.summary;
    const b = latencyTargets[floor]!.summary;
    return { p50: s.p50 - b.p50, p99: s.p99 - b.p99, p999: s.p999 - b.p999, mean: s.mean - b.mean, pairedRoundMedian: pairedMedianDifference(samples.get(name)!, samples.get(floor)!) };
  };
  for (const t of gatewayTargets) overBare[t.name] = over(t.name, "bare");
  // What parsing and re-writing the JSON alone costs over the pass-through (bench/bare-worker.js).
  if (latencyTargets["bare, JSON"]) overBare["bare, JSON"] = over("bare, JSON", "bare");
  // Portkey's own code: over the bare Node pass-through, which pays the same Node HTTP in and out.
  if (st.peers) overBare.portkey = over("portkey", "bare node");
  const selfReported: Record<string, Summary | null> = {};
  for (const [name, values] of overheadUs) selfReported[name] = overheadHeaderPresent.get(name) ? summarize(values) : null;
  const throughputTargets: Record<string, ThroughputFigures> = {};
  for (const [name, acc] of tp) {
    throughputTargets[name] = {
      rpsRounds: acc.rps, rpsMedian: median(acc.rps), latencyP50: median(acc.p50), latencyP99: median(acc.p99), requests: acc.requests,
      workerdCpuUsPerRequest: name === "direct" ? null : (acc.workerdCpuMs * 1000) / acc.requests,
      mockCpuUsPerRequest: (acc.mockCpuMs * 1000) / acc.requests,
    };
  }
  const ratioToBare: Record<string, number> = {};
  for (const t of gatewayTargets) ratioToBare[t.name] = throughputTargets[t.name]!.rpsMedian / throughputTargets.bare!.rpsMedian;

  let peers: Results["peers"] = null;
  if (st.peers) {
    const theirs = { p50: overBare.portkey!.p50, rps: throughputTargets.portkey!.rpsMedian };
    const ours: PeerFigures["ours"] = {};
    for (const t of gatewayTargets) ours[t.name] = { ownCodeP50Ratio: overBare[t.name]!.p50 / theirs.p50, throughputRatio: throughputTargets[t.name]!.rpsMedian / theirs.rps };
    const versions = { "@portkey-ai/gateway": PORTKEY_VERSION, "@hono/node-server": PORTKEY_NODE_SERVER_VERSION, node: nodeVersion(projectNode()) };
    peers = { portkey: { ownCode: overBare.portkey!, throughputRps: theirs.rps, ours, versions } };
  }

  const v = versions();
  const results: Results = {
    meta: {
      date: new Date().toISOString(),
      quick,
      compare: args.compare ? path.resolve(args.compare) : null,
      servedBy,
      gatewayEndpoint: useChat ? "POST /v1/chat/completions" : "GET /v1/usage (auth + limiter + D1; no upstream call)",
      git: gitState(),
      machine: { nproc: cpus().length, cpu: cpuModel(), memGiB: totalmem() / 2 ** 30, loadAvgStart: loadStart, loadAvgEnd: loadEnd },
      versions: peers ? { ...v, peers: peers.portkey.versions } : v,
      loadTool: tool,
      options: { ...opt, pinnedModel: pinned, gateway: args.gateway! },
      stateDir: st.state,
      keys: { total: workerd.keys.length, latencyPool: latencyKeys.length, throughputPool: throughputKeys.length, plan: PLAN },
      durationS: (performance.now() - started) / 1000,
    },
    latency: { rounds: opt.rounds, requestsPerRound: opt.requests, targets: latencyTargets, added, overBare },
    selfReportedOverheadUs: selfReported,
    streaming,
    throughput: { connections: opt.connections, seconds: opt.seconds, rounds: opt.throughputRounds, targets: throughputTargets, ratioToBare },
    storage,
    peers,
    memory,
    routeDecision,
    targets: [],
  };
  results.targets = checkTargets(results);
  console.log(formatReport(results));
  writeFileSync(args.out!, `${JSON.stringify(results, null, 2)}\n`);
  log(`wrote ${path.relative(process.cwd(), args.out!)}`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * What a gateway target leaves running when its load stops: the isolate gathers its last records
 * for GATHER_MS, and the buffer flushes them up to BUSY_WINDOW_MS after the oldest, then the D1
 * batch. Locally that work shares workerd's one thread with whatever runs next, so the throughput
 * phase waits for it before the next target's window, and its CPU counts to the target that caused
 * it; otherwise it lands in the next target's window, in an order that changes by round. Not in
 * the concurrency-1 phases: idle gaps there slowed every target that followed one (docs/bench.md).
 */
const DRAIN_MS = GATHER_MS + BUSY_WINDOW_MS + 150;
const drain = async (t: Target) => {
  if (t.name.startsWith("gateway")) await sleep(DRAIN_MS);
};

/**
 * The metered twin's totals once its off-path work has settled: two equal readings SETTLE_MS apart
 * (a busy write-behind buffer flushes up to BUSY_WINDOW_MS after its oldest record), at most ~7 s.
 */
const SETTLE_MS = BUSY_WINDOW_MS + 50;
async function settledTotals(origin: string): Promise<MeterTotals> {
  const read = async () => (await (await fetch(origin + STORAGE_METER_PATH)).json()) as MeterTotals;
  let last = await read();
  for (let i = 0; i < 16; i++) {
    await sleep(SETTLE_MS);
    const next = await read();
    if (JSON.stringify(next) === JSON.stringify(last)) return next;
    last = next;
  }
  return last;
}

const perCall = (c: StorageCounts, calls: number): PerCall => {
  const out = { total: 0 } as PerCall;
  for (const k of STORAGE_KINDS) {
    out[k] = calls ? c[k] / calls : Number.NaN;
    out.total += out[k];
  }
  return out;
};
const delta = (a: StorageCounts, b: StorageCounts) => Object.fromEntries(STORAGE_KINDS.map((k) => [k, a[k] - b[k]])) as StorageCounts;

/**
 * `n` sequential calls with keys from `keys` in turn: their on-path counts (from the header) and how
 * many made any. One call goes first and is not counted (its on-path count is returned as `primer`):
 * the settle pause before a sub-phase leaves the isolate quiet for more than a second, and the first
 * request after a quiet second reads the revocation epoch on its path by design
 * (docs/auth-and-limits.md): a quiet isolate, not a warm call.
 */
async function sequentialCounts(t: Target, keys: string[], n: number) {
  const c = new Client(t, new KeyRing(keys));
  const on = Object.fromEntries(STORAGE_KINDS.map((k) => [k, 0])) as StorageCounts;
  let withAny = 0;
  const first = await c.send();
  checkAnswer(t.name, first.status, first.body);
  const primer = String(first.headers[STORAGE_METER_HEADER] ?? "");
  for (let i = 0; i < n; i++) {
    const x = await c.send();
    checkAnswer(t.name, x.status, x.body);
    const header = x.headers[STORAGE_METER_HEADER];
    if (typeof header !== "string") throw new Error(`${t.name}: no ${STORAGE_METER_HEADER} header: is the storage meter installed (src/index.ts)?`);
    const counts = parseCounts(header);
    for (const k of STORAGE_KINDS) on[k] += counts[k];
    if (STORAGE_KINDS.some((k) => counts[k] > 0)) withAny++;
  }
  c.close();
  return { on, withAny, primer };
}

/**
 * Storage calls per chat call, on the gateway's metered twin: the same bundle with STORAGE_METER=on
 * (src/shared/storage-meter.ts), its own limiter objects, the same D1 and keys. Every key is used
 * once first, so the calls counted are warm (a key seen in the last minute). At concurrency 1 each
 * response's header gives its on-path counts; the isolate's totals give the off-path ones, and both
 * under load (wrk/autocannon cannot read headers).
 */
async function measureStorage(st: Stack, gatewayTargets: Target[], latencyKeys: string[], throughputKeys: string[], tool: LoadTool): Promise<StorageFigures> {
  const origin = st.workerd.meteredUrl;
  const requests = quick ? 64 : 300;
  log(`storage calls: ${requests} warm calls per gateway target at concurrency 1, then ${opt.seconds} s under load, on the metered twin`);
  const figures: StorageFigures = {
    requests, onPath: {}, offPath: {}, inDurableObjects: {}, callsWithOnPathStorage: {}, oneKey: { onPath: {}, callsWithOnPathStorage: {} },
    underLoad: { connections: opt.connections, seconds: opt.seconds, requests: {}, onPath: {}, offPath: {}, inDurableObjects: {} },
  };
  for (const [gi, g] of gatewayTargets.entries()) {
    const t: Target = { ...g, name: `${g.name} (metered)`, origin };
    const warm = new Client(t, new KeyRing([...latencyKeys, ...throughputKeys]));
    for (let i = 0; i < latencyKeys.length + throughputKeys.length; i++) checkAnswer(g.name, ...(await send(warm)));
    warm.close();

    // Keys rotated as in the latency phase: each key is back every ${latencyKeys.length} calls.
    const before = await settledTotals(origin);
    const rotated = await sequentialCounts(t, latencyKeys, requests);
    const after = await settledTotals(origin);
    const calls = after.requests - before.requests;
    figures.onPath[g.name] = perCall(rotated.on, requests);
    figures.offPath[g.name] = perCall(delta(after.offPath, before.offPath), calls);
    figures.inDurableObjects[g.name] = perCall(delta(after.inDurableObjects, before.inDurableObjects), calls);
    figures.callsWithOnPathStorage[g.name] = rotated.withAny / requests;
    // One key, back to back: a single client's steady stream (a key of its own per target, so no
    // key sees more than its plan's minute allows).
    const single = await sequentialCounts(t, [latencyKeys[gi]!], requests);
    figures.oneKey.onPath[g.name] = perCall(single.on, requests);
    figures.oneKey.callsWithOnPathStorage[g.name] = single.withAny / requests;
    const settled = await settledTotals(origin);

    const r = await runLoad(tool, t, throughputKeys, opt.connections, opt.seconds, st.tmp);
    if (r.failures) throw new Error(`${t.name}: ${r.failures} failed requests under load`);
    const loaded = await settledTotals(origin);
    const n = loaded.requests - settled.requests;
    figures.underLoad.requests[g.name] = n;
    figures.underLoad.onPath[g.name] = perCall(delta(loaded.onPath, settled.onPath), n);
    figures.underLoad.offPath[g.name] = perCall(delta(loaded.offPath, settled.offPath), n);
    figures.underLoad.inDurableObjects[g.name] = perCall(delta(loaded.inDurableObjects, settled.inDurableObjects), n);
    log(`  ${g.name}: the first call after the settle pause (not counted): ${rotated.primer} on its path; one key: ${single.primer}`);
    log(`  ${g.name}: on path ${figures.onPath[g.name]!.total.toFixed(2)} calls per warm call, off path ${figures.offPath[g.name]!.total.toFixed(2)}; under load ${figures.underLoad.onPath[g.name]!.total.toFixed(2)} on, ${figures.underLoad.offPath[g.name]!.total.toFixed(2)} off, ${figures.underLoad.inDurableObjects[g.name]!.d1.toFixed(3)} D1 in Durable Objects`);
  }
  return figures;
}

async function send(c: Client): Promise<[number, string]> {
  const x = await c.send();
  return [x.status, x.body];
}

/**
 * bench/route-decision.ts belongs to the routing engine; until it exists the figure is reported
 * absent. It runs in a fresh Node process: a microbenchmark of a few microseconds a call should
 * not inherit this process's heap and JIT state from three minutes of HTTP clients.
 */
async function measureRouteDecision(): Promise<Results["routeDecision"]> {
  const file = path.join(ROOT, "bench/route-decision.ts");
  if (!existsSync(file)) return { status: "absent", reason: "bench/route-decision.ts does not exist yet" };
  log("route decision microbenchmark (bench/route-decision.ts, in its own process)");
  const script = `
    const mod = await import(${JSON.stringify(pathToFileURL(file).href)});
    if (typeof mod.benchRouteDecision !== "function") { console.log(JSON.stringify({ absent: true })); process.exit(0); }
    console.log(JSON.stringify(await mod.benchRouteDecision()));`;
  const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: ROOT, encoding: "utf8" });
  if (child.status !== 0) throw new Error(`bench/route-decision.ts failed (${child.status}):\n${child.stderr}`);
  const r = JSON.parse(child.stdout.trim().split("\n").at(-1) ?? "{}") as { absent?: true; short_ns?: number; long_ns?: number };
  if (r.absent) return { status: "absent", reason: "bench/route-decision.ts does not export benchRouteDecision()" };
  if (!Number.isFinite(r.short_ns) || !Number.isFinite(r.long_ns)) throw new Error(`benchRouteDecision() returned ${child.stdout}`);
  return { status: "ok", shortNs: r.short_ns!, longNs: r.long_ns! };
}

async function cleanup() {
  await stack?.close();
}

try {
  if (args.profile || args.perf) {
    const outDir = mkdtempSync(path.join(tmpdir(), "svc-bench-profile-"));
    const tool: LoadTool = args.tool === "wrk" || args.tool === "autocannon" ? args.tool : pickLoadTool();
    const run = args.perf ? perfProfile : profile;
    await run({ stream: args.stream!, target: args.target!, seconds: num(args.seconds, args.perf ? 8 : 10, 3), connections: opt.connections, tool, keys: opt.keys ?? 40, plan: PLAN, pinnedModel: args["pinned-model"]!, outDir, log, stateRoot: args["state-dir"] });
  } else {
    await main();
  }
  await cleanup();
} catch (err) {
  log(`FAILED: ${err instanceof Error ? err.message : String(err)}`);
  if (err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
  await cleanup();
  process.exit(1);
}
