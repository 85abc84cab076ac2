import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    devKey: string;
    persistTo: string;
  }
}

const ROOT = path.resolve(import.meta.dirname, "../..");

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

let child: ChildProcess | undefined;
let persistTo: string | undefined;

/**
 * Starts the README's `npm run dev` (scripts/dev.ts) on a free port with its own local state,
 * reads the development key it prints, and waits until the Worker answers.
 */
export async function setup(project: TestProject) {
  const port = await freePort();
  persistTo = mkdtempSync(path.join(tmpdir(), "svc-e2e-"));
  child = spawn(path.join(ROOT, "node_modules/.bin/tsx"), ["scripts/dev.ts", "--port", String(port), "--persist-to", persistTo], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let log = "";
  child.stdout!.on("data", (d) => (log += d));
  child.stderr!.on("data", (d) => (log += d));

  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  let devKey = "";
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm run dev exited early:\n${log}`);
    if (Date.now() > deadline) throw new Error(`npm run dev did not become ready:\n${log}`);
    devKey ||= /dev API key\s+(svc_sk_[0-9A-Za-z]+)/.exec(log)?.[1] ?? "";
    if (devKey) {
      try {
        if ((await fetch(`${baseUrl}/health`)).ok) break;
      } catch {
        // not listening yet
      }
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  project.provide("baseUrl", baseUrl);
  project.provide("devKey", devKey);
  project.provide("persistTo", persistTo);
}

export async function teardown() {
  if (child?.pid) {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      // already gone
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  if (persistTo) rmSync(persistTo, { recursive: true, force: true });
}
