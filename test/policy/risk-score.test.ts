import { describe, expect, it } from "vitest";
import { call, newKey } from "../helpers";

describe("POST /v1/risk/score", () => {
  it("scores kind and targets with no side effects", async () => {
    const { key } = await newKey();
    const r = await call("/v1/risk/score", { key, json: { kind: "exec", targets: ["rm -rf /srv"] } });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ object: "risk.score", score: 60, tier: "approve", fired: ["destructive_command", "exec_action"] });
    expect(r.json.factors[0]).toEqual({ id: "forbidden_command", label: expect.any(String), weight: 90, triggered: false });
    const events = await call("/v1/audit/events", { key });
    expect(events.json.count).toBe(0);
  });

  it("uses the stored manifest of a workspace when named", async () => {
    const { key } = await newKey();
    await call("/v1/workspace/readiness", { key, json: { workspace_id: "ws-r", protected_paths: ["infra/**"] } });
    const r = await call("/v1/risk/score", { key, json: { kind: "edit", targets: ["infra/main.tf"], workspace_id: "ws-r" } });
    expect(r.json.fired).toEqual(["protected_path"]);
  });

  it.each([[{ kind: "fly", targets: [] }], [{ targets: ["x"] }], [{ kind: "edit", targets: "x" }], [{ kind: "edit", estimated_cost_usd: -1 }]])("400 on %j", async (body) => {
    const { key } = await newKey();
    const r = await call("/v1/risk/score", { key, json: body });
    expect(r.status).toBe(400);
    expect(r.json.error).toBe("invalid_request");
  });
});
