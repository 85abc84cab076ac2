import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { auditEventInsert, type AuditEventInput } from "../../src/audit/record";
import { db } from "../../src/db/client";
import { call, newKey } from "../helpers";

const database = () => db(env.DB);

/** Writes events straight to D1 with chosen times, 50 statements per batch. */
async function seed(events: AuditEventInput[]): Promise<Array<{ id: string; createdAt: string }>> {
  const inserts = events.map((e) => auditEventInsert(database(), e));
  for (let i = 0; i < inserts.length; i += 50) {
    const chunk = inserts.slice(i, i + 50).map((x) => x.query);
    await database().batch(chunk as [(typeof chunk)[0], ...typeof chunk]);
  }
  return inserts.map((x) => ({ id: x.row.id, createdAt: x.row.createdAt }));
}

const ev = (ownerId: string, at: number, over: Partial<AuditEventInput> = {}): AuditEventInput => ({
  ownerId, workspaceId: "ws-1", eventType: "handoff_created", actor: "key:test", payload: { n: at }, at, ...over,
});

async function pageAll(key: string, query: string, onPage: () => Promise<void> = async () => {}) {
  const seen: any[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 100; pages++) {
    const r: any = await call(`/v1/audit/events?${query}${cursor ? `&cursor=${cursor}` : ""}`, { key });
    expect(r.status, r.text).toBe(200);
    seen.push(...r.json.data);
    expect(r.json.count).toBe(r.json.data.length);
    await onPage();
    if (!r.json.has_more) {
      expect(r.json.next_cursor).toBeNull();
      return seen;
    }
    cursor = r.json.next_cursor;
  }
  throw new Error("too many pages");
}

const T0 = Date.parse("2026-11-01T00:00:00.000Z");

describe("GET /v1/audit/events", () => {
  it("filters by workspace, type, decision, since (inclusive) and until (exclusive), and limits", async () => {
    const { key, record } = await newKey();
    const o = record.ownerId;
    await seed([
      ev(o, T0, { eventType: "policy_check", decision: "allow", riskScore: 0, riskTier: "auto" }),
      ev(o, T0 + 1000, { eventType: "policy_check", decision: "deny", riskScore: 90, riskTier: "block", workspaceId: "ws-2" }),
      ev(o, T0 + 2000, { eventType: "handoff_created" }),
      ev(o, T0 + 3000, { eventType: "agent_plan", workspaceId: null }),
      ev(o, T0 + 4000, { eventType: "agent_record", workspaceId: "ws-2" }),
    ]);
    const ids = async (q: string) => (await call(`/v1/audit/events?${q}`, { key })).json.data.map((e: any) => e.payload.n - T0);
    expect(await ids("")).toEqual([4000, 3000, 2000, 1000, 0]);
    expect(await ids("workspace_id=ws-2")).toEqual([4000, 1000]);
    expect(await ids("event_type=policy_check")).toEqual([1000, 0]);
    expect(await ids("event_type=agent_plan")).toEqual([3000]);
    expect(await ids("decision=deny")).toEqual([1000]);
    expect(await ids("decision=confirm")).toEqual([]);
    expect(await ids("since=2026-11-01T00:00:01.000Z")).toEqual([4000, 3000, 2000, 1000]);
    expect(await ids("until=2026-11-01T00:00:03.000Z")).toEqual([2000, 1000, 0]);
    expect(await ids("since=2026-11-01T01:00:01%2B01:00&until=2026-11-01T00:00:03Z")).toEqual([2000, 1000]);
    expect(await ids("since=2026-11-02")).toEqual([]);
    expect(await ids("workspace_id=ws-1&event_type=handoff_created")).toEqual([2000]);
    const limited = (await call("/v1/audit/events?limit=2", { key })).json;
    expect([limited.count, limited.has_more, typeof limited.next_cursor]).toEqual([2, true, "string"]);
    const envelope = (await call("/v1/audit/events?event_type=agent_plan", { key })).json;
    expect(envelope).toEqual({ object: "audit.events", count: 1, has_more: false, next_cursor: null, data: [expect.objectContaining({ event_type: "agent_plan", workspace_id: null })] });
    expect(envelope.data[0]).not.toHaveProperty("decision");
  });

  it.each(["limit=0", "limit=201", "limit=abc", "since=yesterday", "until=2026-13-01", "event_type=login", "decision=maybe", "cursor=***", `cursor=${btoa("2026-11-01T00:00:00.000Z|nope")}`, "cursor=", "workspace_id=a%20b"])(
    "400 invalid_request on %s",
    async (q) => {
      const { key } = await newKey();
      const r = await call(`/v1/audit/events?${q}`, { key });
      expect(r.status).toBe(400);
      expect(r.json.error).toBe("invalid_request");
    },
  );

  it("pages over 500 events while events keep arriving: none skipped, none repeated, strictly ordered", async () => {
    const { key, record } = await newKey("corporate");
    const o = record.ownerId;
    // Five events per millisecond, so the id tiebreak is exercised on every page boundary.
    const seeded = await seed(Array.from({ length: 500 }, (_, i) => ev(o, T0 + Math.floor(i / 5))));
    let appended = 0;
    const seen = await pageAll(key, "limit=37", async () => {
      // New events now, and late ones back-dated into the middle of the range being paged.
      await Promise.all([
        call("/v1/policy/check", { key, json: { workspace_id: "ws-1", action: `a${appended}` } }),
        seed([ev(o, T0 + ((appended * 37) % 100)), ev(o, T0 + 99)]),
      ]);
      appended++;
    });
    const ids = seen.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    const seenSet = new Set(ids);
    expect(seeded.filter((s) => !seenSet.has(s.id))).toEqual([]);
    for (let i = 1; i < seen.length; i++) {
      const [a, b] = [seen[i - 1], seen[i]];
      expect(a.created_at > b.created_at || (a.created_at === b.created_at && a.id > b.id)).toBe(true);
    }
    expect(appended).toBeGreaterThanOrEqual(14);
    // The new events are there for the next reader, on the first page.
    const fresh = (await call("/v1/audit/events?event_type=policy_check&limit=200", { key })).json;
    expect(fresh.count).toBe(appended);
  });

  it("a filtered walk visits exactly the filtered events", async () => {
    const { key, record } = await newKey();
    const o = record.ownerId;
    const seeded = await seed(Array.from({ length: 120 }, (_, i) => ev(o, T0 + i, { workspaceId: i % 3 === 0 ? "ws-a" : "ws-b" })));
    const seen = await pageAll(key, "workspace_id=ws-a&limit=7");
    expect(seen.map((e) => e.id).sort()).toEqual(seeded.filter((_, i) => i % 3 === 0).map((s) => s.id).sort());
  });

  it("is scoped to the caller: no key sees another owner's events", async () => {
    const a = await newKey();
    const b = await newKey();
    await call("/v1/policy/check", { key: a.key, json: { workspace_id: "ws-x", action: "a" } });
    await call("/v1/handoff", { key: a.key, json: { workspace_id: "ws-x", objective: "a" } });
    expect((await call("/v1/audit/events", { key: a.key })).json.count).toBe(2);
    for (const q of ["", "?workspace_id=ws-x", "?event_type=policy_check", "?event_type=handoff_created"]) {
      expect((await call(`/v1/audit/events${q}`, { key: b.key })).json.count).toBe(0);
    }
    // A cursor does not open another owner's events either.
    const aPage = (await call("/v1/audit/events?limit=1", { key: a.key })).json;
    expect((await call(`/v1/audit/events?cursor=${aPage.next_cursor}`, { key: b.key })).json.count).toBe(0);
  });
});
