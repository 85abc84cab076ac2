/**
 * Throughput at a fixed number of connections, by wrk when it is on PATH (C, one thread: it
 * leaves the most CPU to what is measured) or else by autocannon (Node, in this process). Both
 * send the same request to every target and rotate API keys per request for the gateway.
 */
import { spawn, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { Target } from "./client";

export type LoadTool = "wrk" | "autocannon";

export interface LoadResult {
  /** Responses per second over the whole run. */
  rps: number;
  requests: number;
  /** Responses with a status of 400 or more, and socket errors or timeouts: any is a failed run. */
  failures: number;
  /** Latency under this load, milliseconds. */
  p50: number;
  p99: number;
}

/** wrk if it runs, else autocannon; which one is printed by the caller. */
export function pickLoadTool(): LoadTool {
  const probe = spawnSync("wrk", ["--version"], { encoding: "utf8" });
  // wrk prints its version and exits 1; ENOENT means it is not installed.
  return probe.error ? "autocannon" : "wrk";
}

/** A Lua string literal that cannot be broken by the JSON inside it. */
const luaLong = (s: string) => {
  let eq = "";
  while (s.includes(`]${eq}]`)) eq += "=";
  return `[${eq}[${s}]${eq}]`;
};

/**
 * The wrk script for one target: the fixed request, a key per request, a JSON line at the end. A
 * table key that is a long string needs a space inside its brackets: `[[[k]]]` would open a long
 * string at the first `[[`.
 */
export function wrkScript(target: Target, keys: readonly string[]): string {
  return `
local keys = { ${target.auth ? keys.map((k) => `"${k}"`).join(", ") : ""} }
local body = ${target.body === undefined ? "nil" : luaLong(target.body)}
local fixed = { ${Object.entries(target.headers ?? {}).map(([k, v]) => `[ ${luaLong(k)} ] = ${luaLong(v)}`).join(", ")} }
local method = "${target.method}"
local path = "${target.path}"
local threads = {}
local n = 0
setup = function(thread)
  table.insert(threads, thread)
end
request = function()
  local headers = {}
  for k, v in pairs(fixed) do headers[k] = v end
  if body ~= nil then headers["Content-Type"] = "application/json" end
  if #keys > 0 then
    n = n + 1
    headers["Authorization"] = "Bearer " .. keys[(n % #keys) + 1]
  end
  return wrk.format(method, path, headers, body)
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('BENCH_JSON {"requests":%d,"duration_us":%d,"failures":%d,"p50_us":%d,"p99_us":%d}\\n',
    summary.requests, summary.duration, e.status + e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
`;
}

function runWrk(target: Target, keys: readonly string[], connections: number, seconds: number, scriptDir: string): Promise<LoadResult> {
  const script = path.join(scriptDir, `wrk-${target.name.replace(/[^a-z0-9]+/gi, "-")}.lua`);
  writeFileSync(script, wrkScript(target, keys));
  return new Promise((resolve, reject) => {
    const child = spawn("wrk", ["-t1", `-c${connections}`, `-d${seconds}s`, "--timeout", "10s", "-s", script, `${target.origin}${target.path}`], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("error", reject);
    child.on("close", (code) => {
      const line = /BENCH_JSON (.*)/.exec(out)?.[1];
      if (code !== 0 || !line) return reject(new Error(`wrk failed on ${target.name} (${code}):\n${out}`));
      const r = JSON.parse(line) as { requests: number; duration_us: number; failures: number; p50_us: number; p99_us: number };
      resolve({ rps: r.requests / (r.duration_us / 1e6), requests: r.requests, failures: r.failures, p50: r.p50_us / 1000, p99: r.p99_us / 1000 });
    });
  });
}

async function runAutocannon(target: Target, keys: readonly string[], connections: number, seconds: number): Promise<LoadResult> {
  const { default: autocannon } = await import("autocannon");
  let n = 0;
  const result = await autocannon({
    url: target.origin,
    connections,
    duration: seconds,
    timeout: 10,
    requests: [
      {
        method: target.method,
        path: target.path,
        body: target.body,
        headers: { ...target.headers, ...(target.body === undefined ? {} : { "content-type": "application/json" }) },
        setupRequest: (req) => {
          if (!target.auth) return req;
          n = (n + 1) % keys.length;
          return { ...req, headers: { ...req.headers, authorization: `Bearer ${keys[n]}` } };
        },
      },
    ],
  });
  return {
    rps: result.requests.total / result.duration,
    requests: result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
    p50: result.latency.p50,
    p99: result.latency.p99,
  };
}

export function runLoad(tool: LoadTool, target: Target, keys: readonly string[], connections: number, seconds: number, scriptDir: string): Promise<LoadResult> {
  return tool === "wrk" ? runWrk(target, keys, connections, seconds, scriptDir) : runAutocannon(target, keys, connections, seconds);
}
