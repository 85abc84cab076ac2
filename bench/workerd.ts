/**
 * The Worker under workerd as production runs it, without `wrangler dev`.
 *
 * - The gateway is the bundle `wrangler deploy --dry-run` produces: the same esbuild output a
 *   deploy uploads, not a dev build.
 * - Miniflare's API runs it, with the bare pass-through Worker, in ONE workerd process: both are
 *   served by the same runtime, threads and allocator, so their difference is code, not process.
 * - Each Worker is reached through its own direct socket (`unsafeDirectSockets`): a workerd
 *   listening socket bound straight to the Worker's service. Miniflare's usual entry socket would
 *   route every request through its entry Worker first (a second isolate hop, plus header
 *   rewriting); `wrangler dev` adds a Node proxy on top of that. Neither exists in production, so
 *   neither is measured.
 * - What it cannot remove: Miniflare routes every subrequest through an "outbound" interceptor
 *   Worker. `startRawBare` runs the bare Worker under plain `workerd serve` to measure that hop.
 * - D1, KV and the Durable Objects are local (SQLite files in the state directory, tmpfs by
 *   default), with the D1 migrations applied and the benchmark's keys inserted through the D1
 *   binding.
 */
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Log, LogLevel, Miniflare, convertV4MiniflareOptions } from "miniflare";
import { DISPLAY_PREFIX_LENGTH, generateKey, hashKey } from "../src/auth/key-format";
import { ROOT, WRANGLER, runWrangler } from "../scripts/lib/wrangler";

/** The workerd package is CommonJS; its `default` export is the path of the platform's binary. */
const workerdBinary = (createRequire(import.meta.url)("workerd") as { default: string }).default;

/** The 12 providers of the catalog, as they appear in `<PROVIDER>_API_KEY` / `<PROVIDER>_BASE_URL`. */
export const PROVIDER_ENV_NAMES = [
  "OPENAI", "ANTHROPIC", "GOOGLE", "MISTRAL", "GROQ", "DEEPSEEK", "XAI", "TOGETHER", "FIREWORKS", "PERPLEXITY", "COHERE", "OPENROUTER",
] as const;

/** The base-URL path each protocol's default carries, so the adapters' path suffixes land on the mock's routes. */
const BASE_PATH: Partial<Record<(typeof PROVIDER_ENV_NAMES)[number], string>> = {
  ANTHROPIC: "/v1",
  GOOGLE: "/v1beta",
};

export interface WorkerdHandle {
  gatewayUrl: string;
  bareUrl: string;
  /** The --compare checkout's gateway, when one was given. */
  compareUrl: string | undefined;
  /**
   * The same gateway bundle again with STORAGE_METER=on (src/shared/storage-meter.ts): only the
   * storage-count phase calls it, so no measured target pays the meter. Its own Durable Objects.
   */
  meteredUrl: string;
  /** The workerd process(es) Miniflare started (children of this process). */
  pids: number[];
  keys: string[];
  /** Inserts `n` more keys on the same plan and returns them (also appended to `keys`). */
  mintKeys(n: number): Promise<string[]>;
  dispose(): Promise<void>;
}

/** What Miniflare needs from wrangler.toml, read by wrangler's own config reader. */
export interface WorkerConfig {
  compatibilityDate: string;
  compatibilityFlags: string[];
  vars: Record<string, string>;
  d1Databases: Record<string, string>;
  kvNamespaces: Record<string, string>;
  durableObjects: Record<string, { className: string; useSQLite: boolean }>;
  migrationsDir: string;
}

/**
 * Reads wrangler.toml the way `wrangler deploy` does, so a binding added there is bound here too.
 * Binding kinds this harness does not set up locally fail loudly rather than run half-configured.
 */
export async function readWorkerConfig(): Promise<WorkerConfig> {
  const { unstable_readConfig } = await import("wrangler");
  const c = unstable_readConfig({ config: path.join(ROOT, "wrangler.toml") }, { hideWarnings: true });
  if (!c.compatibility_date) throw new Error("wrangler.toml has no compatibility_date");
  const raw = c as unknown as Record<string, unknown>;
  for (const kind of ["r2_buckets", "queues.producers", "services", "analytics_engine_datasets", "vectorize", "hyperdrive", "workflows"]) {
    const v = kind.split(".").reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], raw);
    if (Array.isArray(v) && v.length > 0) throw new Error(`wrangler.toml binds ${kind}, which bench/workerd.ts does not configure yet`);
  }
  const sqlite = new Set(c.migrations.flatMap((m: { new_sqlite_classes?: string[] }) => m.new_sqlite_classes ?? []));
  const vars: Record<string, string> = {};
  for (const [k, v] of Object.entries(c.vars ?? {})) vars[k] = typeof v === "string" ? v : JSON.stringify(v);
  return {
    compatibilityDate: c.compatibility_date,
    compatibilityFlags: c.compatibility_flags ?? [],
    vars,
    d1Databases: Object.fromEntries(c.d1_databases.map((d: { binding: string; database_id?: string }) => [d.binding, d.database_id ?? d.binding])),
    kvNamespaces: Object.fromEntries(c.kv_namespaces.map((k: { binding: string; id?: string }) => [k.binding, k.id ?? k.binding])),
    durableObjects: Object.fromEntries(
      c.durable_objects.bindings.map((d: { name: string; class_name: string; script_name?: string }) => {
        if (d.script_name) throw new Error(`Durable Object ${d.name} lives in another Worker (${d.script_name}); bench/workerd.ts cannot host it`);
        return [d.name, { className: d.class_name, useSQLite: sqlite.has(d.class_name) }];
      }),
    ),
    migrationsDir: path.join(ROOT, c.d1_databases.find((d: { binding: string; migrations_dir?: string }) => d.binding === "DB")?.migrations_dir ?? "migrations"),
  };
}

/**
 * The entry module's name in workerd: the dry run writes `index.js`, which Miniflare's own Workers
 * (the outbound hop among them) are also called, so that a profile could not tell them apart.
 */
export const GATEWAY_MODULE = "gateway.js";

/** Builds the production bundle into `outDir` and returns the entry module's path (GATEWAY_MODULE). */
export async function buildBundle(outDir: string, root = ROOT): Promise<string> {
  if (root === ROOT) {
    await runWrangler(["deploy", "--dry-run", "--outdir", outDir]);
  } else {
    // Another checkout (--compare): its own wrangler.toml and sources, this checkout's wrangler.
    await new Promise<void>((resolve, reject) => {
      const child = spawn(WRANGLER, ["deploy", "--dry-run", "--outdir", outDir], { cwd: root, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, WRANGLER_SEND_METRICS: "false" } });
      let out = "";
      child.stdout!.on("data", (d) => (out += d));
      child.stderr!.on("data", (d) => (out += d));
      child.on("error", reject);
      child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`wrangler deploy --dry-run in ${root} failed (${code}):\n${out}`))));
    });
  }
  // Nothing in the bundle imports its entry, so the rename changes no import; the source map is not used.
  renameSync(path.join(outDir, "index.js"), path.join(outDir, GATEWAY_MODULE));
  return path.join(outDir, GATEWAY_MODULE);
}

/** The SQL statements of the migrations, in order (drizzle-kit separates them with a breakpoint comment). */
function migrationStatements(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort()
    .flatMap((f) => readFileSync(path.join(dir, f), "utf8").split("--> statement-breakpoint"))
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Children of this process whose command is workerd, read from /proc (Linux only; empty elsewhere). */
export function workerdPids(): number[] {
  const pids: number[] = [];
  let entries: string[] = [];
  try {
    entries = readdirSync("/proc").filter((e) => /^\d+$/.test(e));
  } catch {
    return pids;
  }
  for (const e of entries) {
    try {
      const stat = readFileSync(`/proc/${e}/stat`, "utf8");
      // Field 2 is "(comm)" and may hold spaces; ppid is the second field after it.
      const close = stat.lastIndexOf(")");
      const comm = stat.slice(stat.indexOf("(") + 1, close);
      const ppid = Number(stat.slice(close + 2).split(" ")[1]);
      if (ppid === process.pid && comm.startsWith("workerd")) pids.push(Number(e));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

const CLOCK_TICKS_PER_S = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;

/** CPU time (user + system) the processes have used so far, milliseconds, from /proc (10 ms resolution). */
export function cpuMs(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime are fields 14 and 15 of stat, 12 and 13 after "(comm) ".
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks * 1000) / CLOCK_TICKS_PER_S;
}

/** The dry-run output as Miniflare modules: JavaScript as ES modules, Markdown as Text (wrangler.toml [[rules]]). */
function bundleModules(bundlePath: string) {
  const dir = path.dirname(bundlePath);
  const files = readdirSync(dir).filter((f) => f.endsWith(".js") || f.endsWith(".md"));
  // The entry first: Miniflare runs the first module.
  files.sort((a, b) => (a === path.basename(bundlePath) ? -1 : b === path.basename(bundlePath) ? 1 : a.localeCompare(b)));
  return files.map((f) => ({ type: f.endsWith(".md") ? ("Text" as const) : ("ESModule" as const), path: path.join(dir, f) }));
}

export async function startWorkerd(opts: {
  config: WorkerConfig;
  bundlePath: string;
  /** A second gateway bundle (another checkout) served beside the first, for before/after figures. */
  compareBundlePath?: string;
  upstream: string;
  persistDir: string;
  keyCount: number;
  plan: string;
  /** Opens workerd's V8 inspector (for bench/profile.ts); off in measured runs, where it would cost. */
  inspectorPort?: number;
}): Promise<WorkerdHandle> {
  const toml = opts.config;
  const providerBindings: Record<string, string> = {};
  for (const name of PROVIDER_ENV_NAMES) {
    providerBindings[`${name}_API_KEY`] = "bench";
    providerBindings[`${name}_BASE_URL`] = `${opts.upstream}${BASE_PATH[name] ?? "/v1"}`;
  }

  // The gateway, and the --compare gateway beside it with the same bindings: D1 and KV are shared
  // (the same keys work on both); each has its own Durable Object namespaces.
  const signingKey = randomBytes(32).toString("hex");
  const gatewayWorker = (name: string, bundlePath: string, extra: Record<string, string> = {}) => ({
    name,
    // Every file of the dry-run output: the bundle, and the skills library that wrangler.toml's
    // [[rules]] ship as Text modules beside it. Names are paths relative to modulesRoot.
    modules: bundleModules(bundlePath),
    modulesRoot: path.dirname(bundlePath),
    compatibilityDate: toml.compatibilityDate,
    compatibilityFlags: toml.compatibilityFlags,
    // SANDBOX_UPSTREAM off, as in production: every model call goes over HTTP to the mock.
    // A signing key as production has one (a secret there), so receipts are signed as they would be.
    bindings: { ...toml.vars, SANDBOX_UPSTREAM: "off", LEDGER_SIGNING_KEY: signingKey, ...providerBindings, ...extra },
    d1Databases: toml.d1Databases,
    kvNamespaces: toml.kvNamespaces,
    durableObjects: toml.durableObjects,
    unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }],
  });
  const gateways = [
    gatewayWorker("gateway", opts.bundlePath),
    gatewayWorker("gateway-metered", opts.bundlePath, { STORAGE_METER: "on" }),
    ...(opts.compareBundlePath ? [gatewayWorker("gateway-b", opts.compareBundlePath)] : []),
  ];

  const mf = new Miniflare(
    convertV4MiniflareOptions({
      log: new Log(LogLevel.WARN),
      ...(opts.inspectorPort ? { inspectorPort: opts.inspectorPort } : {}),
      logRequests: false,
      // A fixed request.cf: Miniflare would otherwise fetch one from the network at start.
      cf: { colo: "LHR", country: "GB" },
      resourcePersistencePath: opts.persistDir,
      workers: [
        ...gateways,
        {
          name: "bare",
          modules: true,
          scriptPath: path.join(ROOT, "bench/bare-worker.js"),
          modulesRoot: path.join(ROOT, "bench"),
          compatibilityDate: toml.compatibilityDate,
          compatibilityFlags: toml.compatibilityFlags,
          bindings: { UPSTREAM: opts.upstream },
          unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }],
        },
      ],
    }),
  );
  await mf.ready;

  const db = await mf.getD1Database("DB", "gateway");
  for (const sql of migrationStatements(toml.migrationsDir)) await db.prepare(sql).run();

  // One row per key, as `npm run keys -- create` writes them (scripts/lib/keys.ts).
  const keys: string[] = [];
  const insert = db.prepare("INSERT INTO api_keys (id, key_hash, prefix, plan, owner_id, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, NULL)");
  const mintKeys = async (n: number) => {
    const minted = Array.from({ length: n }, () => generateKey());
    const now = Date.now();
    for (let i = 0; i < minted.length; i += 100) {
      await db.batch(
        minted.slice(i, i + 100).map((key, j) => insert.bind(`key_bench${String(keys.length + i + j).padStart(6, "0")}`, hashKey(key), key.slice(0, DISPLAY_PREFIX_LENGTH), opts.plan, "usr_bench", now)),
      );
    }
    keys.push(...minted);
    return minted;
  };
  await mintKeys(opts.keyCount);

  const gatewayUrl = (await mf.unsafeGetDirectURL("gateway")).origin;
  const bareUrl = (await mf.unsafeGetDirectURL("bare")).origin;
  const compareUrl = opts.compareBundlePath ? (await mf.unsafeGetDirectURL("gateway-b")).origin : undefined;
  const meteredUrl = (await mf.unsafeGetDirectURL("gateway-metered")).origin;
  return { gatewayUrl, bareUrl, compareUrl, meteredUrl, pids: workerdPids(), keys, mintKeys, dispose: () => mf.dispose() };
}

/**
 * The bare Worker again, under a plain `workerd serve` with a config of our own and no Miniflare.
 * Miniflare sends every subrequest of a Worker through an "outbound" interceptor Worker (an extra
 * isolate hop that copies the request to strip a header) and production does not; this reference
 * measures what that hop costs, so the figures can be read without it. It cannot host the
 * gateway: D1 and KV exist locally only as Miniflare's own Workers.
 */
export async function startRawBare(opts: { upstream: string; dir: string; compatibilityDate: string }): Promise<{ url: string; pid: number; stop(): void }> {
  mkdirSync(opts.dir, { recursive: true });
  copyFileSync(path.join(ROOT, "bench/bare-worker.js"), path.join(opts.dir, "bare-worker.js"));
  const date = opts.compatibilityDate;
  const config = path.join(opts.dir, "config.capnp");
  writeFileSync(
    config,
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .bare),
    # The default "internet" service refuses private addresses; the mock is on loopback.
    (name = "internet", network = (allow = ["public", "private"])),
  ],
  sockets = [ (name = "http", address = "127.0.0.1:0", http = (), service = "main") ],
);
const bare :Workerd.Worker = (
  modules = [ (name = "bare-worker.js", esModule = embed "bare-worker.js") ],
  compatibilityDate = "${date}",
  bindings = [ (name = "UPSTREAM", text = "${opts.upstream}") ],
);
`,
  );
  // Port 0, and workerd reports the port it bound on its control fd, as it does for Miniflare.
  const child = spawn(workerdBinary, ["serve", config, "--control-fd=3"], { stdio: ["ignore", "ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  const port = await new Promise<number>((resolve, reject) => {
    let control = "";
    child.stdio[3]!.on("data", (d: Buffer) => {
      control += d;
      for (const line of control.split("\n")) {
        try {
          const msg = JSON.parse(line) as { event?: string; socket?: string; port?: number };
          if (msg.event === "listen" && msg.socket === "http" && msg.port) resolve(msg.port);
        } catch {
          // a partial line; more is coming
        }
      }
    });
    child.on("exit", (code) => reject(new Error(`workerd serve exited (${code}): ${stderr}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  // Listening is not yet serving: wait for the Worker to answer once.
  for (let i = 0; ; i++) {
    try {
      const res = await fetch(url, { method: "POST", body: "{}" });
      await res.arrayBuffer();
      if (res.ok) break;
    } catch {
      // not ready yet
    }
    if (i > 100) throw new Error(`workerd serve did not answer on ${url}: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, pid: child.pid!, stop: () => child.kill("SIGTERM") };
}
