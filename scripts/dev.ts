/**
 * npm run dev [-- --port 8787] [--persist-to DIR]
 * Applies the D1 migrations locally, seeds one development key (plan pro) the first time and
 * prints it every time, gives the ledger a local signing key, then runs `wrangler dev` with
 * local D1, KV and Durable Objects and the sandbox upstream on.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
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
console.log(`
  svc gateway, local development
  base URL      ${base}/v1
  dev API key   ${key}

  export SVC_BASE_URL=${base}/v1 SVC_API_KEY=${key}
  curl ${base}/v1/usage -H "Authorization: Bearer ${key}"
`);

const child = spawn(
  WRANGLER,
  ["dev", "--port", values.port, "--ip", "127.0.0.1", "--var", "SANDBOX_UPSTREAM:on", ...(persistTo ? ["--persist-to", persistTo] : [])],
  { cwd: ROOT, stdio: "inherit", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
);
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
