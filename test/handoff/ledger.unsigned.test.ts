import { describe, expect, it } from "vitest";
import { call, newKey } from "../helpers";

/** Runs in the "workers-unsigned" project: the same Worker with no LEDGER_SIGNING_KEY (vitest.config.ts). */
describe("the ledger without a signing key", () => {
  it("writes unsigned entries, signed: false, that still hash-chain and verify", async () => {
    const { key } = await newKey();
    const entries = [];
    for (const objective of ["first", "second"]) {
      const r = await call("/v1/handoff", { key, json: { workspace_id: "ws-u", objective } });
      expect(r.status, r.text).toBe(200);
      entries.push(r.json);
    }
    expect(entries[0]).toMatchObject({ seq: 0, signed: false, signature: null, signing_key_id: null });
    expect(entries[1]).toMatchObject({ seq: 1, signed: false, signature: null, signing_key_id: null, prev_hash: entries[0].hash, prev_signature: null });
    const c = (await call("/v1/handoff/chain/ws-u", { key })).json;
    expect(c.verification).toMatchObject({ ok: true, n: 2, first_broken_index: null, reasons: [], signing_enabled: false });
    expect(c.checkpoint).toMatchObject({ count: 2, last_hash: entries[1].hash, signature: null, signing_key_id: null });
    const snap = (await call("/v1/workspace/ws-u/snapshot", { key })).json;
    expect(snap.signed_share).toBe(0);
    expect(snap.integrity).toEqual({ ok: true, n: 2, first_broken_index: null, reasons: [] });
  });
});
