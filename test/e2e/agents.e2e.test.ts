import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";

/** An agent run against `npm run dev`, its bundle verified by the standalone script and by the service. */
const baseUrl = inject("baseUrl");
const key = inject("devKey");
const ROOT = path.resolve(import.meta.dirname, "../..");
const dir = mkdtempSync(path.join(tmpdir(), "svc-agent-"));

const post = async (p: string, body: unknown, auth = true) => {
  const r = await fetch(`${baseUrl}${p}`, { method: "POST", headers: { "content-type": "application/json", ...(auth ? { authorization: `Bearer ${key}` } : {}) }, body: JSON.stringify(body) });
  return { status: r.status, json: (await r.json()) as any };
};

/** Runs the standalone verifier on a bundle file; its exit code says valid (0) or not (1). */
function script(bundle: unknown): { code: number; out: any } {
  const file = path.join(dir, `bundle-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(bundle));
  try {
    return { code: 0, out: JSON.parse(execFileSync(process.execPath, ["scripts/verify-trajectory.mjs", file], { cwd: ROOT, encoding: "utf8" })) };
  } catch (err: any) {
    return { code: err.status, out: JSON.parse(err.stdout) };
  }
}

const goalOf = (n: number) => Array.from({ length: n }, (_, i) => `${i + 1}. Draft section ${i + 1} of the migration runbook.`).join("\n");

describe("agents against npm run dev", () => {
  it("runs, saves verify_request, and both the standalone script and POST /v1/agent/verify verify it and locate tampers", async () => {
    const run = await post("/v1/agent/run", { goal: goalOf(4), max_cost_usd: 1 });
    expect(run.status).toBe(200);
    expect(run.json.status).toBe("complete");
    const t = await fetch(`${baseUrl}/v1/agent/${run.json.run_id}/trajectory?full=true`, { headers: { authorization: `Bearer ${key}` } });
    const bundle = (await t.json()).verify_request;
    expect(script(bundle)).toEqual({ code: 0, out: { valid: true, recomputed_proof: run.json.trajectory_proof, n_steps: 5, mismatched_steps: [] } });
    expect((await post("/v1/agent/verify", bundle, false)).json).toMatchObject({ valid: true, mismatched_steps: [] });

    const tampered = structuredClone(bundle);
    tampered.steps[1].output_hash = `sha256:${"0".repeat(64)}`;
    expect(script(tampered)).toMatchObject({ code: 1, out: { valid: false, mismatched_steps: [1] } });
    expect((await post("/v1/agent/verify", tampered, false)).json).toMatchObject({ valid: false, mismatched_steps: [1] });
    const swapped = structuredClone(bundle);
    [swapped.steps[2], swapped.steps[3]] = [swapped.steps[3], swapped.steps[2]];
    expect(script(swapped).out.mismatched_steps).toEqual([2, 3]);
  });

  it("measures run latency for 5, 50 and 200 steps on the sandbox", async () => {
    const figures: Record<number, number> = {};
    for (const steps of [5, 50, 200]) {
      const started = performance.now();
      const run = await post("/v1/agent/run", { goal: goalOf(steps - 1), max_steps: steps, max_cost_usd: 2.5, policy: "efficiency", max_tokens: 4096 });
      figures[steps] = Math.round(performance.now() - started);
      expect(run.json).toMatchObject({ status: "complete", steps_taken: steps });
    }
    console.log(`agent run latency on the sandbox (ms): ${JSON.stringify(figures)}`);
  }, 120_000);
});
