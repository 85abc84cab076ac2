import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, newKey } from "../helpers";
import { FULL } from "./manifests";


describe("POST /v1/workspace/readiness", () => {
  it("is deterministic and stores the manifest as the workspace policy, last one wins", async () => {
    const { key } = await newKey();
    const a = await call("/v1/workspace/readiness", { key, json: FULL });
    const b = await call("/v1/workspace/readiness", { key, json: FULL });
    expect(a.status).toBe(200);
    expect(a.text).toBe(b.text);
    expect(a.json.score).toBe(100);

    const check = { workspace_id: "ws-full", action: "edit the workflow", files_affected: [".github/workflows/ci.yml"] };
    expect((await call("/v1/policy/check", { key, json: check })).json.risk_tier).toBe("confirm");
    await call("/v1/workspace/readiness", { key, json: { workspace_id: "ws-full" } });
    expect((await call("/v1/policy/check", { key, json: check })).json.risk_tier).toBe("auto");
  });

  it.each([[{}], [{ workspace_id: "" }], [{ workspace_id: "a b" }], [{ workspace_id: "it's" }], [{ workspace_id: "-x" }], [{ workspace_id: "x".repeat(129) }], [{ workspace_id: "w", stack: "ts" }], [{ workspace_id: "w", require_handoffs: "yes" }]])("400 on %j", async (body) => {
    const { key } = await newKey();
    const r = await call("/v1/workspace/readiness", { key, json: body });
    expect(r.status).toBe(400);
    expect(r.json.error).toBe("invalid_request");
  });
});

describe("POST /v1/workspace/generate", () => {
  it("returns the four artifacts, byte-identical for the same manifest, and stores nothing", async () => {
    const { key, record } = await newKey();
    const a = await call("/v1/workspace/generate", { key, json: FULL });
    const b = await call("/v1/workspace/generate", { key, json: FULL });
    expect(a.status).toBe(200);
    expect(a.text).toBe(b.text);
    expect(a.json.version).toBe("agents-md-v0.1");
    expect(a.json.workspace_id).toBe("ws-full");
    expect(a.json.artifacts.map((x: any) => x.path)).toEqual(["AGENTS.md", "ASSISTANT.md", ".editor/rules/svc-security.mdc", ".editor/rules/svc-docs.mdc"]);
    const other = await call("/v1/workspace/generate", { key, json: { ...FULL, project_name: "Lexer" } });
    expect(other.json.artifacts[0].content).not.toBe(a.json.artifacts[0].content);
    const stored = await env.DB.prepare("SELECT count(*) AS n FROM workspace_manifests WHERE owner_id = ?").bind(record.ownerId).first<{ n: number }>();
    expect(stored!.n).toBe(0);
  });

  it("the content carries the project, stack, protected paths, forbidden commands and the protocol endpoints", async () => {
    const { key } = await newKey();
    const files = Object.fromEntries((await call("/v1/workspace/generate", { key, json: FULL })).json.artifacts.map((x: any) => [x.path, x.content]));
    const agents: string = files["AGENTS.md"];
    for (const s of ["Parser", "TypeScript, Cloudflare Workers", "`.env*`", "`.github/workflows/**`", "`rm -rf`", "`DROP TABLE`", "$SVC_BASE_URL/policy/check", "$SVC_BASE_URL/handoff", "/handoff/chain/ws-full", "Risk gate (required)", "Handoff (required)"]) {
      expect(agents).toContain(s);
    }
    for (const path of [".editor/rules/svc-security.mdc", ".editor/rules/svc-docs.mdc"]) {
      const m = /^---\ndescription: "(.+)"\nglobs: "(.+)"\nalwaysApply: (true|false)\n---\n/.exec(files[path]);
      expect(m, path).not.toBeNull();
    }
    expect(files[".editor/rules/svc-security.mdc"]).toContain("alwaysApply: true");
    expect(files[".editor/rules/svc-security.mdc"]).toContain("`git push --force`");
    expect(files["ASSISTANT.md"]).toContain("Risk gate: required");
    const bare = Object.fromEntries((await call("/v1/workspace/generate", { key, json: { workspace_id: "w2" } })).json.artifacts.map((x: any) => [x.path, x.content]));
    expect(bare["AGENTS.md"]).toContain("# AGENTS.md: w2");
    expect(bare["AGENTS.md"]).toContain("none declared");
    expect(bare["ASSISTANT.md"]).toContain("Risk gate: recommended");
  });
});

describe("GET /v1/workspace/{id}/snapshot", () => {
  it("summarizes the chain: counts per tier, average risk, signed share, integrity and the tail", async () => {
    const { key } = await newKey();
    const empty = await call("/v1/workspace/ws-s/snapshot", { key });
    expect(empty.json).toEqual({
      object: "workspace.snapshot", workspace_id: "ws-s", count: 0,
      risk_distribution: { auto: 0, confirm: 0, approve: 0, block: 0, unknown: 0 }, avg_risk_score: null, signed_share: 0,
      integrity: { ok: true, n: 0, first_broken_index: null, reasons: [] }, tail: [], has_more: false, next_cursor: null,
    });
    await call("/v1/workspace/readiness", { key, json: { workspace_id: "ws-s", protected_paths: ["infra/**"] } });
    const kinds = ["edit", "deploy", "edit", "deploy"];
    for (const [i, action_kind] of kinds.entries()) {
      await call("/v1/handoff", { key, json: { workspace_id: "ws-s", objective: `o${i}`, action_kind, files_touched: i === 3 ? ["infra/a.tf"] : [] } });
    }
    const s = await call("/v1/workspace/ws-s/snapshot?limit=2", { key });
    expect(s.status).toBe(200);
    expect(s.json).toMatchObject({
      count: 4, risk_distribution: { auto: 2, confirm: 1, approve: 1, block: 0, unknown: 0 }, avg_risk_score: 25, signed_share: 1,
      integrity: { ok: true, n: 4, first_broken_index: null },
    });
    expect(s.json.tail.map((t: any) => [t.objective, t.risk_tier, t.risk_score, t.signed])).toEqual([["o2", "auto", 0, true], ["o3", "approve", 70, true]]);
    expect(s.json.has_more).toBe(true);
    // The next page goes back in time; the aggregates still speak for the whole chain.
    const older = (await call(`/v1/workspace/ws-s/snapshot?limit=2&cursor=${s.json.next_cursor}`, { key })).json;
    expect(older).toMatchObject({ count: 4, avg_risk_score: 25, has_more: false, next_cursor: null });
    expect(older.tail.map((t: any) => t.objective)).toEqual(["o0", "o1"]);
    expect((await call("/v1/workspace/ws-s/snapshot", { key })).json.tail).toHaveLength(4);
    expect((await call("/v1/workspace/ws-s/snapshot?cursor=bm9wZQ", { key })).status).toBe(400);
  });

  it.each(["0", "201", "x", "1.5"])("400 on limit=%s", async (limit) => {
    const { key } = await newKey();
    const r = await call(`/v1/workspace/ws/snapshot?limit=${limit}`, { key });
    expect(r.status).toBe(400);
    expect(r.json.error).toBe("invalid_request");
  });

  it("does not show another owner's chain", async () => {
    const a = await newKey();
    const b = await newKey();
    await call("/v1/handoff", { key: a.key, json: { workspace_id: "ws-iso", objective: "x" } });
    expect((await call("/v1/workspace/ws-iso/snapshot", { key: b.key })).json.count).toBe(0);
    expect((await call("/v1/workspace/ws-iso/snapshot", { key: a.key })).json.count).toBe(1);
  });
});
