import { describe, expect, inject, it } from "vitest";

/** POST /v2/orchestrate and POST /v2/code against `npm run dev`, with plain fetch (issue 10). */
const baseUrl = inject("baseUrl");
const key = inject("devKey");

async function post(path: string, body: unknown) {
  const r = await fetch(`${baseUrl}${path}`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: r.status, json: (await r.json()) as any };
}

const proofOf = async (id: string) => {
  for (let i = 0; i < 40; i++) {
    const r = await fetch(`${baseUrl}/v1/proof/${id}`);
    if (r.ok) return (await r.json()) as any;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`no receipt for ${id}`);
};

describe("orchestration and code mode against npm run dev", () => {
  it("orchestrates with every strategy, each answer proven by a verifiable receipt", async () => {
    for (const strategy of ["single", "cascade", "ensemble_moa", "rank_fuse", "decompose_and_route", "self_consistency", "debate"]) {
      const r = await post("/v2/orchestrate", { messages: [{ role: "user", content: "Compare REST and gRPC for internal services, then recommend one." }], strategy });
      expect(r.status, `${strategy}: ${JSON.stringify(r.json).slice(0, 300)}`).toBe(200);
      expect(r.json.strategy).toBe(strategy);
      expect(r.json.svc.stages.length).toBeGreaterThan(0);
      const proof = await proofOf(r.json.svc.proof.request_id);
      expect(proof.valid, strategy).toBe(true);
    }
    const none = await post("/v2/orchestrate", { messages: [] });
    expect([none.status, none.json.error]).toEqual([400, "no_messages"]);
  });

  it("writes code with a separate critic, and answers no_task on an empty task", async () => {
    const r = await post("/v2/code", { task: "Write a Python function that parses ISO dates" });
    expect(r.status, JSON.stringify(r.json).slice(0, 300)).toBe(200);
    expect(r.json.files.length).toBeGreaterThan(0);
    const names = r.json.svc.stages.map((s: any) => s.name);
    expect(names.slice(0, 3)).toEqual(["plan", "generate:0", "review:0"]);
    expect((await proofOf(r.json.svc.proof.request_id)).valid).toBe(true);
    const empty = await post("/v2/code", { task: "   " });
    expect([empty.status, empty.json.error]).toEqual([400, "no_task"]);
  });
});
