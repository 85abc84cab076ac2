/**
 * npm run dev [-- --port 8787] [--persist-to DIR]
 * Applies the D1 migrations locally, seeds one development key (plan pro) the first time, gives the
 * ledger a local signing key, then runs `wrangler dev` with local D1, KV and Durable Objects and the
 * sandbox upstream on, and prints the key with an `export` line and a curl once /health answers.
 * SIGINT, SIGTERM and SIGHUP stop wrangler and workerd with it; it exits when they do.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createKeyRow, keyIsActive } from "./lib/keys";
import { ROOT, WRANGLER, applyMigrations } from "./lib/wrangler";

const { values } = parseArgs({
  options: { port: { type: "string", default: process.env.PORT ?? "8787" }, "persist-to": { type: "string" } },
});
const persistTo = values["persist-to"] ? path.resolve(values["persist-to"]) : undefined;
const target = { persistTo };
const stateDir = persistTo ?? path.join(ROOT, ".wrangler");

// Local secrets: .dev.vars is wrangler's own file for them. Only missing entries are added.
const devVars = path.join(ROOT, ".dev.vars");
const existing = existsSync(devVars) ? readFileSync(devVars, "utf8") : "";
if (!/^LEDGER_SIGNING_KEY=/m.test(existing)) {
  writeFileSync(devVars, `${existing}${existing && !existing.endsWith("\n") ? "\n" : ""}LEDGER_SIGNING_KEY=${randomBytes(32).toString("hex")}\n`);
}

console.log("applying D1 migrations to the local database…");
await applyMigrations(target);

mkdirSync(stateDir, { recursive: true });
const keyFile = path.join(stateDir, "dev-key");
let key = existsSync(keyFile) ? readFileSync(keyFile, "utf8").trim() : "";
if (!key || !(await keyIsActive(key, target))) {
  key = (await createKeyRow("pro", "dev", target)).key;
  writeFileSync(keyFile, `${key}\n`, { mode: 0o600 });
}

const base = `http://localhost:${values.port}`;
const banner = `
  svc gateway, local development
  base URL      ${base}/v1
  dev API key   ${key}

  export SVC_BASE_URL=${base}/v1 SVC_API_KEY=${key}
  curl ${base}/v1/usage -H "Authorization: Bearer ${key}"
`;

// wrangler runs in its own process group, so that one signal reaches it and the workerd it starts
// (a bare kill of wrangler left workerd holding the port). CLOUDFLARE_CF_FETCH_ENABLED=false: offline,
// wrangler's download of request.cf data fails with a stack trace on every start, and nothing here
// reads request.cf (it falls back to built-in values).
const child = spawn(
  WRANGLER,
  ["dev", "--port", values.port, "--ip", "127.0.0.1", "--var", "SANDBOX_UPSTREAM:on", ...(persistTo ? ["--persist-to", persistTo] : [])],
  {
    cwd: ROOT,
    // No stdin: a process group in the background that reads the terminal is stopped (SIGTTIN),
    // so wrangler's hotkeys are off; Ctrl-C reaches it through the forwarding below.
    stdio: ["ignore", "inherit", "inherit"],
    detached: true,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: process.env.CLOUDFLARE_CF_FETCH_ENABLED ?? "false" },
  },
);

/** Signals the whole group (wrangler and workerd); false once it is gone. */
function signalGroup(signal: NodeJS.Signals): boolean {
  try {
    process.kill(-child.pid!, signal);
    return true;
  } catch {
    return false;
  }
}

let stopping = false;
function stop(signal: NodeJS.Signals) {
  if (stopping) return;
  stopping = true;
  signalGroup(signal);
  // wrangler stops workerd and exits within a second or two; if it hangs, the group is killed.
  setTimeout(() => signalGroup("SIGKILL"), 5000).unref();
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => stop(signal));
// `npm run dev` runs this under `sh -c`, and a SIGTERM sent to npm is forwarded to that shell, which
// dies without passing it on. Being orphaned (a new parent) is then the signal: stop as on a hangup.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) stop("SIGTERM");
}, 250).unref();
child.on("exit", (code, signal) => {
  // Whatever ended wrangler, leave nothing of its group behind.
  signalGroup("SIGKILL");
  process.exit(code ?? (signal ? 128 + (os.constants.signals[signal] ?? 0) : 0));
});

// The banner is printed once the server answers, so the curl in it works when it is read.
for (;;) {
  if (stopping || child.exitCode !== null) break;
  try {
    const r = await fetch(`http://127.0.0.1:${values.port}/health`);
    await r.body?.cancel();
    if (r.ok) {
      console.log(banner);
      break;
    }
  } catch {
    // not listening yet
  }
  await new Promise((r) => setTimeout(r, 200));
}
