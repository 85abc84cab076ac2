import { describe, expect, it } from "vitest";
import { RISK_FACTORS } from "../../src/policy/risk";
import { call, newKey } from "../helpers";

const MANIFEST = { workspace_id: "ws-p", protected_paths: ["migrations/**", ".env*"], forbidden_commands: ["rm -rf", "DROP TABLE"], budget_cap_usd: 2 };

async function setup() {
  const k = await newKey();
  await call("/v1/workspace/readiness", { key: k.key, json: MANIFEST });
  return k;
}

describe("POST /v1/policy/check", () => {
  // Scores are literal: the weights of docs/governance.md summed by hand (90 + 45 + 15 is capped at 100).
  it.each<[string, Record<string, unknown>, string, string, string[], number]>([
    ["a plain edit is allowed", { action: "fix a typo", files_affected: ["src/a.ts"] }, "allow", "auto", [], 0],
    ["a delete needs confirmation", { action: "remove dead code", action_kind: "delete", files_affected: ["src/old.ts"] }, "confirm", "confirm", ["delete_action"], 35],
    ["deleting a protected path needs approval", { action: "drop old migration", action_kind: "delete", files_affected: ["migrations/0001.sql"] }, "approve", "approve", ["protected_path", "delete_action"], 75],
    ["a forbidden command is denied", { action: "clean up", commands: ["psql -c 'DROP TABLE users'"] }, "deny", "block", ["forbidden_command", "destructive_command", "exec_action"], 100],
    ["a deploy over the manifest's budget cap needs approval", { action: "ship", action_kind: "deploy", estimated_cost_usd: 3 }, "approve", "approve", ["deploy_action", "budget_over_cap"], 60],
  ])("%s", async (_name, body, decision, tier, fired, score) => {
    const { key } = await setup();
    const r = await call("/v1/policy/check", { key, json: { workspace_id: "ws-p", ...body } });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ object: "policy.decision", workspace_id: "ws-p", decision, risk_tier: tier });
    expect(r.json.event_id).toMatch(/^ae_/);
    expect(r.json.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(r.json.factors.map((f: any) => f.id)).toEqual(RISK_FACTORS.map((f) => f.id));
    expect(r.json.factors.filter((f: any) => f.triggered).map((f: any) => f.id)).toEqual(fired);
    expect(r.json.risk_score).toBe(score);
    if (decision === "deny") expect(r.json.reason).toContain("block threshold of 86");
  });

  it("writes one policy_check audit event that echoes the action and carries the decision", async () => {
    const { key, record } = await setup();
    const body = { workspace_id: "ws-p", action: "wipe", action_kind: "delete", files_affected: [".env"], commands: ["rm -rf ."], estimated_cost_usd: 0.5, context: { ticket: "T-1", nested: { a: [1] } } };
    const r = await call("/v1/policy/check", { key, json: body });
    const events = (await call("/v1/audit/events?event_type=policy_check", { key })).json;
    expect(events.count).toBe(1);
    expect(events.data[0]).toEqual({
      id: r.json.event_id, object: "audit.event", event_type: "policy_check", workspace_id: "ws-p", actor: `key:${record.id}`,
      decision: "deny", risk_score: 100, risk_tier: "block", created_at: r.json.created_at,
      payload: {
        action: "wipe", action_kind: "delete", files_affected: [".env"], commands: ["rm -rf ."], estimated_cost_usd: 0.5,
        context: { ticket: "T-1", nested: { a: [1] } }, fired: ["forbidden_command", "protected_path", "delete_action", "destructive_command", "secrets_exposure", "exec_action"], reason: r.json.reason,
      },
    });
  });

  it.each([
    [{ action: "x" }], [{ workspace_id: "ws-p" }], [{ workspace_id: "ws-p", action: "" }], [{ workspace_id: "ws-p", action: "x", action_kind: "exec" }],
    [{ workspace_id: "ws-p", action: "x", files_affected: [1] }], [{ workspace_id: "ws-p", action: "x", context: [1] }], [{ workspace_id: "ws-p", action: "x", estimated_cost_usd: "1" }],
  ])("400 invalid_request on %j and no audit event", async (body) => {
    const { key } = await newKey();
    const r = await call("/v1/policy/check", { key, json: body });
    expect(r.status).toBe(400);
    expect(r.json.error).toBe("invalid_request");
    expect((await call("/v1/audit/events", { key })).json.count).toBe(0);
  });
});
