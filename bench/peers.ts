/**
 * Peer gateways for `npm run bench -- --peers`: Portkey's open-source gateway (npm
 * `@portkey-ai/gateway`), and beside it a bare Node pass-through server (bench/bare-node.mjs), so
 * that Portkey's own code can be told apart from Node's cost the way `bare` tells the gateway's
 * own code apart from workerd's.
 *
 * Portkey is not a dependency of the service: it is installed on demand into bench/.peers/ (ignored
 * by git) with `npm install --prefix`, once, and reused by later runs. Both run on the project's
 * own Node 24 (the `node` devDependency), each in its own process, pointed at the same mock upstream.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { ROOT } from "../scripts/lib/wrangler";

export const PORTKEY_VERSION = "1.15.2";
/** @hono/node-server 1.19.x breaks Portkey's streaming (Portkey issue 1389); 1.14.1 streams. */
export const PORTKEY_NODE_SERVER_VERSION = "1.14.1";
const PEERS_DIR = path.join(ROOT, "bench/.peers");
const PORTKEY_DIR = path.join(PEERS_DIR, `portkey-${PORTKEY_VERSION}`);

export interface PeerProcess {
  url: string;
  pid: number;
  stop(): void;
}

/** The project's own Node (devDependency `node`, 24.x); the Node running this script otherwise. */
export function projectNode(): string {
  const own = path.join(ROOT, "node_modules/.bin/node");
  return existsSync(own) ? own : process.execPath;
}

export function nodeVersion(node: string): string {
  return spawnSync(node, ["--version"], { encoding: "utf8" }).stdout.trim();
}

function installedVersion(dir: string, name: string): string | null {
  const file = path.join(dir, "node_modules", name, "package.json");
  if (!existsSync(file)) return null;
  return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
}

/**
 * Installs Portkey's gateway into bench/.peers/portkey-<version>/ unless it is already there.
 * Its own package.json pins @hono/node-server through `overrides`, so Portkey's `^1.3.3` range
 * cannot resolve to a 1.19.x. Scripts are not run: its postinstall (patch-package) has no patches
 * in the published package.
 */
export async function ensurePortkey(log: (msg: string) => void): Promise<string> {
  const ready = () =>
    installedVersion(PORTKEY_DIR, "@portkey-ai/gateway") === PORTKEY_VERSION &&
    installedVersion(PORTKEY_DIR, "@hono/node-server") === PORTKEY_NODE_SERVER_VERSION;
  if (!ready()) {
    log(`installing @portkey-ai/gateway ${PORTKEY_VERSION} (with @hono/node-server ${PORTKEY_NODE_SERVER_VERSION}) into ${path.relative(ROOT, PORTKEY_DIR)} (once; ignored by git)…`);
    mkdirSync(PORTKEY_DIR, { recursive: true });
    writeFileSync(
      path.join(PORTKEY_DIR, "package.json"),
      `${JSON.stringify(
        {
          name: "bench-peer-portkey",
          private: true,
          description: "Installed by bench/peers.ts for npm run bench -- --peers; not part of the service.",
          dependencies: { "@portkey-ai/gateway": PORTKEY_VERSION, "@hono/node-server": PORTKEY_NODE_SERVER_VERSION },
          overrides: { "@hono/node-server": PORTKEY_NODE_SERVER_VERSION },
        },
        null,
        2,
      )}\n`,
    );
    const npm = spawnSync("npm", ["install", "--prefix", PORTKEY_DIR, "--ignore-scripts", "--no-audit", "--no-fund"], { cwd: PORTKEY_DIR, encoding: "utf8" });
    if (npm.status !== 0 || !ready()) {
      throw new Error(`npm install of @portkey-ai/gateway ${PORTKEY_VERSION} into ${PORTKEY_DIR} failed (${npm.status}):\n${npm.stdout}\n${npm.stderr}`);
    }
  }
  return path.join(PORTKEY_DIR, "node_modules/@portkey-ai/gateway/build/start-server.js");
}

/** A port that was free a moment ago (Portkey takes its port as an argument, not 0). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Resolves once `probe` answers 200, rejecting if the child exits first or after ~15 s. */
async function waitServing(child: ChildProcess, name: string, probe: () => Promise<Response>, output: () => string): Promise<void> {
  let exited: number | null | undefined;
  child.once("exit", (code) => (exited = code));
  for (let i = 0; i < 150; i++) {
    if (exited !== undefined) throw new Error(`${name} exited (${exited}) before serving:\n${output()}`);
    try {
      const res = await probe();
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill("SIGTERM");
  throw new Error(`${name} did not answer within 15 s:\n${output()}`);
}

/** The headers that make Portkey call an OpenAI-compatible provider at our mock (its README: provider + custom host). */
export function portkeyHeaders(upstream: string): Record<string, string> {
  return { "x-portkey-provider": "openai", "x-portkey-custom-host": `${upstream}/v1`, authorization: "Bearer bench" };
}

export async function startPortkey(opts: { upstream: string; probeBody: string; log: (msg: string) => void }): Promise<PeerProcess> {
  const entry = await ensurePortkey(opts.log);
  const port = await freePort();
  // --headless: no console UI. NODE_ENV=production: no log-viewer page, as a deployment runs it.
  const child = spawn(projectNode(), [entry, `--port=${port}`, "--headless"], {
    cwd: path.dirname(entry),
    env: { ...process.env, NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out = (out + d).slice(-4000)));
  child.stderr!.on("data", (d) => (out = (out + d).slice(-4000)));
  const url = `http://127.0.0.1:${port}`;
  const probe = () => fetch(`${url}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json", ...portkeyHeaders(opts.upstream) }, body: opts.probeBody });
  await waitServing(child, "Portkey's gateway", probe, () => out);
  return { url, pid: child.pid!, stop: () => child.kill("SIGTERM") };
}

/** Spawns a server that prints `{"port":N}` on stdout once it listens (the mock, the bare Node server). */
export function spawnListening(command: string, args: string[], name: string): Promise<{ port: number; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout!.on("data", (d) => {
      out += d;
      const line = /\{"port":(\d+)\}/.exec(out);
      if (line) resolve({ port: Number(line[1]), child });
    });
    child.on("error", reject);
    child.on("exit", (code) => reject(new Error(`${name} exited (${code}) before listening`)));
  });
}

export async function startBareNode(opts: { upstream: string }): Promise<PeerProcess> {
  const { port, child } = await spawnListening(projectNode(), [path.join(ROOT, "bench/bare-node.mjs"), opts.upstream], "bench/bare-node.mjs");
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, stop: () => child.kill("SIGTERM") };
}
