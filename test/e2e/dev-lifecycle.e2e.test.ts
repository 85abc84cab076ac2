import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "./dev-server";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Whether something accepts connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let npm: ChildProcess | undefined;
const persistTo = mkdtempSync(path.join(tmpdir(), "svc-e2e-life-"));
afterAll(() => {
  // Only if the test failed half-way: the group started here, nothing else.
  if (npm?.pid && npm.exitCode === null) {
    try {
      process.kill(-npm.pid, "SIGKILL");
    } catch {
      // gone
    }
  }
  rmSync(persistTo, { recursive: true, force: true });
});

// The README's own command, run the way a supervisor, `timeout` or CI runs it, then stopped the way
// they stop it: one SIGTERM to the npm process (not its process group).
describe("npm run dev, started and stopped like a supervisor would", () => {
  it("prints the banner once /health answers, without an offline request.cf trace, and frees the port on SIGTERM to npm", async () => {
    const port = await freePort();
    npm = spawn("npm", ["run", "dev", "--", "--port", String(port), "--persist-to", persistTo], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let log = "";
    npm.stdout!.on("data", (d) => (log += d));
    npm.stderr!.on("data", (d) => (log += d));

    const deadline = Date.now() + 140_000;
    while (!/dev API key\s+svc_sk_/.test(log)) {
      if (npm.exitCode !== null) throw new Error(`npm run dev exited early:\n${log}`);
      if (Date.now() > deadline) throw new Error(`no banner:\n${log}`);
      await sleep(100);
    }
    // The banner says the server is up, so the curl it prints works the moment it is read.
    const health = await fetch(`http://127.0.0.1:${port}/health`);
    expect(health.status).toBe(200);
    await health.body?.cancel();
    expect(log).toMatch(/export SVC_BASE_URL=http:\/\/localhost:\d+\/v1 SVC_API_KEY=svc_sk_/);
    expect(log).not.toMatch(/request\.cf|cf\.json/i);

    const exited = new Promise<number | null>((resolve) => npm!.once("exit", (code) => resolve(code)));
    const stoppedAt = Date.now();
    process.kill(npm.pid!, "SIGTERM");
    await exited;
    let free = false;
    while (Date.now() - stoppedAt < 10_000) {
      if (!(await listening(port))) {
        free = true;
        break;
      }
      await sleep(100);
    }
    expect(free, `port ${port} still bound 10 s after SIGTERM:\n${log.slice(-2000)}`).toBe(true);
    // Nothing of npm's process group (the shell, the dev script) is left either.
    const groupAlive = () => {
      try {
        process.kill(-npm!.pid!, 0);
        return true;
      } catch {
        return false;
      }
    };
    while (groupAlive() && Date.now() - stoppedAt < 10_000) await sleep(100);
    expect(groupAlive(), "npm's process group still has members 10 s after SIGTERM").toBe(false);
  }, 170_000);
});
