/**
 * The stack every benchmark phase and the profiler run against: the mock upstream (own process),
 * the gateway (and its metered twin) and the bare Worker in one Miniflare-run workerd, the bare
 * Worker again under plain `workerd serve`, with --peers Portkey's gateway and a bare Node
 * pass-through (bench/peers.ts), and the request each target is sent.
 */
import type { ChildProcess } from "node:child_process";
import { accessSync, constants, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ROOT } from "../scripts/lib/wrangler";
import type { Target } from "./client";
import { portkeyHeaders, spawnListening, startBareNode, startPortkey, type PeerProcess } from "./peers";
import { buildBundle, readWorkerConfig, startRawBare, startWorkerd, workerdPids, type WorkerConfig, type WorkerdHandle } from "./workerd";

/** A short, ordinary prompt: the routing engine's cost on long prompts is measured by its own microbenchmark. */
export const PROMPT = "Explain in two sentences why unit tests make refactoring safer.";
export const chatBody = (model: string, stream: boolean) =>
  JSON.stringify({ model, messages: [{ role: "user", content: PROMPT }], max_tokens: 300, ...(stream ? { stream: true } : {}) });

/** How every answer relayed from the mock begins; anything else means the mock was not what answered. */
export const MOCK_TEXT_START = "word00 filler.. word01";

export interface Stack {
  upstream: string;
  workerd: WorkerdHandle;
  config: WorkerConfig;
  rawBareUrl: string;
  /** The Miniflare-run workerd (not the raw reference). */
  pids: number[];
  mockPid: number;
  rawBarePid: number;
  /** With --peers: Portkey's gateway and the bare Node pass-through, each its own Node process. */
  peers: { portkey: PeerProcess; bareNode: PeerProcess } | null;
  /** The processes whose CPU time a target's requests cost (empty for direct). */
  servingPids(target: string): number[];
  tmp: string;
  /** Directory of the local D1, KV and Durable Object files. */
  state: string;
  targets(opts: { pinnedModel: string; gateway: "chat" | "usage" }): Target[];
  close(): Promise<void>;
}

/** Starts the mock upstream as its own process and resolves with its origin. */
async function startMock(): Promise<{ origin: string; child: ChildProcess }> {
  const { port, child } = await spawnListening(process.execPath, ["--import", "tsx", path.join(ROOT, "bench/mock-upstream.ts")], "mock upstream");
  return { origin: `http://127.0.0.1:${port}`, child };
}

/**
 * Where local D1 and Durable Object SQLite files live: tmpfs by default. On disk, every limiter
 * hit and every D1 batch is a SQLite commit with fsyncs on workerd's thread (about 7 per chat
 * request here), which measures this machine's disk, not the gateway; production storage is
 * replicated by Cloudflare and cannot be reproduced locally either way. `--state-dir` chooses.
 */
export function defaultStateRoot(): string {
  try {
    accessSync("/dev/shm", constants.W_OK);
    return "/dev/shm";
  } catch {
    return tmpdir();
  }
}

export async function startStack(opts: {
  keys: number;
  plan: string;
  log: (msg: string) => void;
  inspectorPort?: number;
  stateRoot?: string;
  /** Another checkout whose gateway is served beside this one's, as targets named "…, B". */
  compareRoot?: string;
  /** Also start the peer gateways (bench/peers.ts): targets "bare node" and "portkey". */
  peers?: boolean;
}): Promise<Stack> {
  const tmp = mkdtempSync(path.join(tmpdir(), "svc-bench-"));
  const state = mkdtempSync(path.join(opts.stateRoot ?? defaultStateRoot(), "svc-bench-state-"));
  const started: Array<() => unknown> = [() => rmSync(tmp, { recursive: true, force: true }), () => rmSync(state, { recursive: true, force: true })];
  // Idempotent: the run closes the stack before its last measurement, and again on the way out.
  const close = async () => {
    while (started.length) await started.pop()!();
  };
  try {
    const mock = await startMock();
    started.push(() => mock.child.kill("SIGTERM"));
    const upstream = mock.origin;
    opts.log(`mock upstream on ${upstream}`);
    opts.log("bundling the Worker (wrangler deploy --dry-run) and reading wrangler.toml…");
    const [bundlePath, config, compareBundlePath] = await Promise.all([
      buildBundle(path.join(tmp, "bundle")),
      readWorkerConfig(),
      opts.compareRoot ? buildBundle(path.join(tmp, "bundle-b"), path.resolve(opts.compareRoot)) : undefined,
    ]);
    opts.log(`starting workerd (Miniflare, direct sockets${opts.inspectorPort ? `, inspector on ${opts.inspectorPort}` : ""})…`);
    const workerd = await startWorkerd({ config, bundlePath, compareBundlePath, upstream, persistDir: state, keyCount: opts.keys, plan: opts.plan, inspectorPort: opts.inspectorPort });
    started.push(() => workerd.dispose().catch(() => undefined));
    const pids = workerd.pids.length ? workerd.pids : workerdPids();
    if (!pids.length) throw new Error("could not find the workerd process under this one");
    opts.log(`gateway ${workerd.gatewayUrl}, bare Worker ${workerd.bareUrl}, workerd pid ${pids.join(",")}, ${opts.keys} keys on plan ${opts.plan}, state in ${state}`);
    const raw = await startRawBare({ upstream, dir: path.join(tmp, "raw-workerd"), compatibilityDate: config.compatibilityDate });
    started.push(() => raw.stop());
    opts.log(`reference: the bare Worker under plain workerd serve (no Miniflare) on ${raw.url}`);
    let peers: Stack["peers"] = null;
    if (opts.peers) {
      const bareNode = await startBareNode({ upstream });
      started.push(() => bareNode.stop());
      const portkey = await startPortkey({ upstream, probeBody: chatBody("gpt-5-mini", false), log: opts.log });
      started.push(() => portkey.stop());
      peers = { portkey, bareNode };
      opts.log(`peers: Portkey's gateway on ${portkey.url} (pid ${portkey.pid}), the bare Node pass-through on ${bareNode.url} (pid ${bareNode.pid})`);
    }
    if (workerd.compareUrl) opts.log(`compare: the gateway of ${path.resolve(opts.compareRoot!)} on ${workerd.compareUrl}, targets named "…, B"`);

    const targets = ({ pinnedModel, gateway }: { pinnedModel: string; gateway: "chat" | "usage" }): Target[] => {
      const gatewayTargets = (origin: string, suffix: string): Target[] =>
        gateway === "chat"
          ? [
              { name: `gateway auto${suffix}`, origin, method: "POST", path: "/v1/chat/completions", body: chatBody("auto", false), streamBody: chatBody("auto", true), auth: true },
              { name: `gateway pinned${suffix}`, origin, method: "POST", path: "/v1/chat/completions", body: chatBody(pinnedModel, false), streamBody: chatBody(pinnedModel, true), auth: true },
            ]
          : [{ name: `gateway usage${suffix}`, origin, method: "GET", path: "/v1/usage", auth: true }];
      const upstreamPath = "/v1/chat/completions";
      const plain = { method: "POST", path: upstreamPath, body: chatBody(pinnedModel, false), auth: false } as const;
      return [
        { name: "direct", origin: upstream, ...plain, streamBody: chatBody(pinnedModel, true) },
        { name: "bare", origin: workerd.bareUrl, ...plain, streamBody: chatBody(pinnedModel, true) },
        // The floor of a Worker that transforms JSON (bench/bare-worker.js): not streamed.
        { name: "bare, JSON", origin: workerd.bareUrl, ...plain, path: `/json${upstreamPath}` },
        // A reference for Miniflare's outbound hop only; not streamed (bare shows what there is to see).
        { name: "bare, raw workerd", origin: raw.url, ...plain },
        ...(peers
          ? [
              { name: "bare node", origin: peers.bareNode.url, ...plain, streamBody: chatBody(pinnedModel, true) },
              { name: "portkey", origin: peers.portkey.url, ...plain, streamBody: chatBody(pinnedModel, true), headers: portkeyHeaders(upstream) },
            ]
          : []),
        ...gatewayTargets(workerd.gatewayUrl, ""),
        ...(workerd.compareUrl ? gatewayTargets(workerd.compareUrl, ", B") : []),
      ];
    };
    const servingPids = (target: string) =>
      target === "direct" ? [] : target === "bare, raw workerd" ? [raw.pid] : target === "bare node" ? [peers!.bareNode.pid] : target === "portkey" ? [peers!.portkey.pid] : pids;
    return { upstream, workerd, config, rawBareUrl: raw.url, pids, mockPid: mock.child.pid!, rawBarePid: raw.pid, peers, servingPids, tmp, state, targets, close };
  } catch (err) {
    await close();
    throw err;
  }
}
