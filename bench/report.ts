/**
 * The shape of a run's figures, the targets they are held to, and the table printed from them.
 * bench/results.json holds exactly the `Results` object the table is printed from.
 */
import type { Summary } from "./stats";

export interface LatencyFigures {
  summary: Summary;
  medianOfRoundMedians: number;
}

export interface AddedLatency {
  /** Percentile of the target minus the same percentile of `direct`, milliseconds. */
  p50: number;
  p99: number;
  mean: number;
  /** Median over rounds of (round median of the target minus round median of direct). */
  pairedRoundMedian: number;
}

export interface StreamFigures {
  /** First byte of the body. */
  ttfb: Summary;
  /** First content delta. */
  ttft: Summary;
  gap: Summary;
  total: Summary;
}

export interface ThroughputFigures {
  /** One value per round, responses per second. */
  rpsRounds: number[];
  rpsMedian: number;
  latencyP50: number;
  latencyP99: number;
  requests: number;
  /**
   * CPU time of the workerd process serving the target, per request (all its threads: the Worker,
   * and for the Miniflare-run targets also Miniflare's outbound hop, D1 and KV simulators).
   */
  workerdCpuUsPerRequest: number | null;
  /** CPU time of the mock upstream per request: it must stay far below the others' for them to be the bottleneck. */
  mockCpuUsPerRequest: number;
}

export interface TargetCheck {
  name: string;
  goal: string;
  value: number | null;
  met: boolean | null;
}

export interface Results {
  meta: {
    date: string;
    quick: boolean;
    /** --compare: the other checkout whose gateway ran as the "…, B" targets. */
    compare: string | null;
    /** The catalog model (and provider) that answered each gateway target's probe. */
    servedBy: Record<string, string>;
    gatewayEndpoint: string;
    git: { commit: string; dirty: boolean };
    machine: { nproc: number; cpu: string; memGiB: number; loadAvgStart: number[]; loadAvgEnd: number[] };
    versions: { node: string; workerd: string; wrangler: string; miniflare: string };
    loadTool: string;
    /** Directory of local D1 and Durable Object SQLite files (tmpfs unless --state-dir). */
    stateDir: string;
    options: Record<string, number | string | boolean | null>;
    keys: { total: number; latencyPool: number; throughputPool: number; plan: string };
    durationS: number;
  };
  latency: {
    rounds: number;
    requestsPerRound: number;
    targets: Record<string, LatencyFigures>;
    /** Over calling the mock directly: what a user of the gateway pays. */
    added: Record<string, AddedLatency>;
    /** Gateway over the bare Worker on the same workerd: the gateway's own code. */
    overBare: Record<string, AddedLatency>;
  };
  /** x-svc-overhead-us from the gateway's responses (microseconds), or null where absent. */
  selfReportedOverheadUs: Record<string, Summary | null>;
  streaming: { rounds: number; streamsPerRound: number; targets: Record<string, StreamFigures> } | null;
  throughput: { connections: number; seconds: number; rounds: number; targets: Record<string, ThroughputFigures>; ratioToBare: Record<string, number> };
  memory: { phase: string; rssMiB: number; peakMiB: number; anonMiB: number; fileAndShmemMiB: number }[];
  routeDecision: { status: "ok"; shortNs: number; longNs: number } | { status: "absent"; reason: string };
  targets: TargetCheck[];
}

/** The issue's targets, evaluated on a run's figures. */
export function checkTargets(r: Results): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const [name, added] of Object.entries(r.latency.added)) {
    if (!name.startsWith("gateway")) continue;
    checks.push({ name: `${name}: added latency p50`, goal: "<= 0.5 ms", value: added.p50, met: added.p50 <= 0.5 });
    checks.push({ name: `${name}: added latency p99`, goal: "<= 2 ms", value: added.p99, met: added.p99 <= 2 });
  }
  for (const [name, ratio] of Object.entries(r.throughput.ratioToBare)) {
    checks.push({ name: `${name}: throughput / bare Worker`, goal: ">= 0.5", value: ratio, met: ratio >= 0.5 });
  }
  if (r.routeDecision.status === "ok") {
    checks.push({ name: "route decision, 2,000 characters", goal: "<= 20 us", value: r.routeDecision.longNs / 1000, met: r.routeDecision.longNs <= 20_000 });
  } else {
    checks.push({ name: "route decision, 2,000 characters", goal: "<= 20 us", value: null, met: null });
  }
  return checks;
}

const f = (n: number | null | undefined, digits = 3) => (n === null || n === undefined || Number.isNaN(n) ? "-" : n.toFixed(digits));
const int = (n: number | null | undefined) => (n === null || n === undefined || Number.isNaN(n) ? "-" : Math.round(n).toLocaleString("en-US"));

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

export function formatReport(r: Results): string {
  const m = r.meta;
  const out: string[] = [];
  out.push(
    `svc gateway benchmark, ${m.date}${m.quick ? " (--quick: a smoke run, figures are indicative only)" : ""}`,
    `machine: ${m.machine.nproc} x ${m.machine.cpu}, ${m.machine.memGiB.toFixed(1)} GiB; load average ${m.machine.loadAvgStart.map((x) => x.toFixed(2)).join(" ")} at start, ${m.machine.loadAvgEnd.map((x) => x.toFixed(2)).join(" ")} at end`,
    `node ${m.versions.node}, workerd ${m.versions.workerd}, wrangler ${m.versions.wrangler}, miniflare ${m.versions.miniflare}; load generator ${m.loadTool}; git ${m.git.commit}${m.git.dirty ? " + uncommitted changes" : ""}`,
    ...(Object.keys(m.servedBy).length ? [`served by: ${Object.entries(m.servedBy).map(([k, v]) => `${k} -> ${v}`).join(", ")}`] : []),
    ...(m.compare ? [`compare: targets "…, B" are the gateway of ${m.compare}`] : []),
    `local storage in ${m.stateDir}; gateway endpoint: ${m.gatewayEndpoint}; ${m.keys.total} keys on plan ${m.keys.plan} (${m.keys.latencyPool} for latency, ${m.keys.throughputPool} for throughput); ${m.durationS.toFixed(0)} s`,
    "",
    `Latency at concurrency 1, ms (${r.latency.rounds} rounds x ${r.latency.requestsPerRound} requests per target, interleaved)`,
    table(
      ["target", "p50", "p90", "p99", "mean", "round-median", "n"],
      Object.entries(r.latency.targets).map(([name, t]) => [name, f(t.summary.p50), f(t.summary.p90), f(t.summary.p99), f(t.summary.mean), f(t.medianOfRoundMedians), String(t.summary.n)]),
    ),
    "",
    "Added latency over calling the mock directly, ms",
    table(
      ["target", "p50", "p99", "mean", "paired round-median"],
      Object.entries(r.latency.added).map(([name, a]) => [name, f(a.p50), f(a.p99), f(a.mean), f(a.pairedRoundMedian)]),
    ),
    "",
    "The gateway's own code: gateway minus the bare Worker on the same workerd, ms",
    table(
      ["target", "p50", "p99", "mean", "paired round-median"],
      Object.entries(r.latency.overBare).map(([name, a]) => [name, f(a.p50), f(a.p99), f(a.mean), f(a.pairedRoundMedian)]),
    ),
    "",
    "Self-reported overhead (x-svc-overhead-us), us",
    table(
      ["target", "p50", "p90", "p99", "mean", "n"],
      Object.entries(r.selfReportedOverheadUs).map(([name, s]) => (s ? [name, int(s.p50), int(s.p90), int(s.p99), int(s.mean), String(s.n)] : [name, "absent", "", "", "", ""])),
    ),
  );
  if (r.streaming) {
    out.push(
      "",
      `Streaming, 64 chunks, concurrency 1, ms (${r.streaming.rounds} rounds x ${r.streaming.streamsPerRound} streams per target)`,
      table(
        ["target", "TTFB p50", "TTFT p50", "TTFT p99", "gap p50", "gap p99", "gap mean", "total p50", "total p99"],
        Object.entries(r.streaming.targets).map(([name, s]) => [name, f(s.ttfb.p50), f(s.ttft.p50), f(s.ttft.p99), f(s.gap.p50), f(s.gap.p99), f(s.gap.mean), f(s.total.p50), f(s.total.p99)]),
      ),
    );
  }
  out.push(
    "",
    `Throughput, ${r.throughput.connections} connections, ${r.throughput.rounds} x ${r.throughput.seconds} s per target, interleaved (req/s; latency under load in ms)`,
    table(
      ["target", "median", "min", "max", "p50", "p99", "x bare", "workerd CPU us/req", "mock CPU us/req"],
      Object.entries(r.throughput.targets).map(([name, t]) => [
        name, int(t.rpsMedian), int(Math.min(...t.rpsRounds)), int(Math.max(...t.rpsRounds)), f(t.latencyP50, 2), f(t.latencyP99, 2),
        r.throughput.ratioToBare[name] === undefined ? "" : f(r.throughput.ratioToBare[name], 2),
        int(t.workerdCpuUsPerRequest), int(t.mockCpuUsPerRequest),
      ]),
    ),
    "",
    "Resident memory of the workerd process (both Workers, local D1, KV and Durable Objects), MiB",
    table(["after", "RSS", "peak", "anonymous", "file + shmem"], r.memory.map((s) => [s.phase, f(s.rssMiB, 1), f(s.peakMiB, 1), f(s.anonMiB, 1), f(s.fileAndShmemMiB, 1)])),
    "",
    r.routeDecision.status === "ok"
      ? `Route decision: ${int(r.routeDecision.shortNs)} ns for a short prompt, ${int(r.routeDecision.longNs)} ns for 2,000 characters`
      : `Route decision: absent (${r.routeDecision.reason})`,
    "",
    "Targets",
    table(
      ["figure", "goal", "value", "result"],
      r.targets.map((t) => [t.name, t.goal, t.value === null ? "-" : f(t.value, 3), t.met === null ? "not measured" : t.met ? "met" : "MISSED"]),
    ),
  );
  return out.join("\n");
}
