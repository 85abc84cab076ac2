import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import path from "node:path";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const WRANGLER = path.join(ROOT, "node_modules/.bin/wrangler");

export interface Target {
  /** Remote D1 (the deployed database) instead of the local one. */
  remote?: boolean;
  /** Local state directory (wrangler's --persist-to); default .wrangler/state. */
  persistTo?: string;
}

export function targetArgs(t: Target): string[] {
  if (t.remote) return ["--remote"];
  return ["--local", ...(t.persistTo ? ["--persist-to", t.persistTo] : [])];
}

/** Runs wrangler to completion; rejects with its output when it fails. */
export function runWrangler(args: string[], opts: { quiet?: boolean } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(WRANGLER, args, {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: process.env.CLOUDFLARE_CF_FETCH_ENABLED ?? "false" },
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve(out);
      else reject(new Error(`wrangler ${args.join(" ")} failed (${code}):\n${out}\n${err}`));
    });
  });
}

export const sqlString = (s: string) => `'${s.replaceAll("'", "''")}'`;

/** Executes SQL against D1 and returns the rows of the last statement. */
export async function d1Query<T = Record<string, unknown>>(sql: string, t: Target = {}): Promise<T[]> {
  const out = await runWrangler(["d1", "execute", "DB", ...targetArgs(t), "--json", "--command", sql]);
  const parsed = JSON.parse(out.slice(out.indexOf("["))) as Array<{ results: T[] }>;
  return parsed.at(-1)?.results ?? [];
}

export function applyMigrations(t: Target = {}) {
  return runWrangler(["d1", "migrations", "apply", "DB", ...targetArgs(t)]);
}
